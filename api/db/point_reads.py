"""Reads of one row by key; on a SQLite file without a trip to a driver thread.

Reading one row by its primary key from SQLite's page cache takes microseconds; handing the
statement to aiosqlite's thread and back costs far more (a wake-up of that thread and one of the
event loop), and under load that trip was most of the cost of ``GET /matches/{id}``. So on a
SQLite file, :meth:`PointReader.fetch_one` runs the statement on the event loop's own thread, in
the statement's implicit read transaction: in WAL mode that is one committed snapshot, never a
half-written state, and it never waits for the writer.

It must never make the loop wait: its connection has no busy timeout and is read-only
(``query_only``). When SQLite answers "busy" anyway (a recovery after a crash, a checkpoint
resetting the WAL), the read goes the engine's way, whose thread may wait. PostgreSQL and an
in-memory or URI-named SQLite database always go the engine's way.
"""

from __future__ import annotations

import sqlite3
from typing import Any

from sqlalchemy import Select
from sqlalchemy.ext.asyncio import AsyncEngine

from api.db.engine import ONE_STATEMENT


class PointReader:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine.execution_options(**{ONE_STATEMENT: True})
        url = engine.url
        local = url.get_backend_name() == "sqlite" and "uri" not in url.query and \
            url.database not in (None, "", ":memory:")
        self._path = url.database if local else None
        self._connection: sqlite3.Connection | None = None
        self._sql: dict[Select[Any], tuple[str, tuple[str, ...]]] = {}

    async def fetch_one(self, statement: Select[Any], params: dict[str, Any]) -> Any:
        """The statement's only row (a tuple-like row in the select's order), or None."""
        if self._path is not None:
            try:
                return self._fetch_on_loop(statement, params)
            except sqlite3.OperationalError as error:
                if error.sqlite_errorcode not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                    raise
        async with self._engine.connect() as connection:
            return (await connection.execute(statement, params)).one_or_none()

    def _fetch_on_loop(self, statement: Select[Any], params: dict[str, Any]) -> Any:
        if self._connection is None:
            assert self._path is not None
            self._connection = sqlite3.connect(self._path, timeout=0, isolation_level=None)
            self._connection.execute("PRAGMA query_only=ON")
        sql = self._sql.get(statement)
        if sql is None:
            compiled = statement.compile(dialect=self._engine.dialect)
            sql = self._sql[statement] = (compiled.string, tuple(compiled.positiontup or ()))
        text, names = sql
        return self._connection.execute(text, [params[name] for name in names]).fetchone()

    def close(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None
