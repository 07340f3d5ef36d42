"""A big import stored in short write transactions that take turns with every other writer.

A backup of thousands of matches stored in one transaction holds SQLite's write lock (on
PostgreSQL: a transaction of minutes) for as long as it takes, and every table's round waits
behind it. An import is therefore stored a part at a time, each part one short write
transaction (:meth:`Turns.write`); what the parts wrote is invisible until the last part
reveals it (each area marks its rows with :data:`HIDDEN` its own way), and removed again if
a part fails.

On SQLite the parts pause between each other (:data:`SQLITE_TURN`) and try for the write lock
every :data:`LOCK_POLL` seconds: a writer of another process waiting for the lock gets it in
between. The imports run in the helper process (:mod:`api.server.offload`) when they are big.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from api.db.database import Database
from api.db.statements import Statements

SQLITE_TURN = 0.12
"""The pause between two writes of an import on SQLite, longer than the longest sleep of SQLite's
busy handler (100 ms): a writer of another process waiting for the lock gets it in between."""
LOCK_POLL = 0.002
"""How often an import tries for SQLite's write lock while the server holds it
(:meth:`api.db.database.Database.write`)."""
HIDDEN = "~"
"""Marks what an import stored until it is complete: an id starting with it no request can
name (ids are letters, digits, ``-`` and ``_``), a token hash equal to it no token matches."""


class Turns:
    """The write transactions of one import, one after the other, each after the others'
    turn."""

    def __init__(self, database: Database) -> None:
        self._database = database
        self._turn = SQLITE_TURN if database.engine.dialect.name == "sqlite" else 0.0
        self._first = True

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Statements]:
        """The next part's write transaction, committed at the end of the block."""
        if not self._first:
            await asyncio.sleep(self._turn)  # on PostgreSQL too: the loop's other work goes on
        self._first = False
        async with self._database.write(poll=LOCK_POLL) as statements:
            yield statements
