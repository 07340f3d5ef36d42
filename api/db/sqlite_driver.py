"""SQLAlchemy's aiosqlite adapter, with one trip to the driver's thread per statement.

aiosqlite runs every call on its connection's own thread, and each call is a round trip through
a queue to that thread and back through the event loop (a wake-up of each side). SQLAlchemy's
adapter makes up to four such trips for one statement (open a cursor, execute, fetch, close)
and one for a ``COMMIT`` even when no transaction is open. Under load those trips, not SQLite,
were most of a request's time. Here a statement is one trip (the whole cursor life runs on the
thread), and ``commit``/``rollback`` outside a transaction are skipped: SQLite would do nothing
for them. Nothing else changes: same statements, same transactions, same thread per connection.
"""

from __future__ import annotations

import sqlite3
from collections import deque
from collections.abc import Sequence
from typing import Any

from sqlalchemy.dialects.sqlite.aiosqlite import (
    AsyncAdapt_aiosqlite_connection,
    AsyncAdapt_aiosqlite_cursor,
    AsyncAdapt_aiosqlite_dbapi,
)

# description, rows (None for a statement without any), lastrowid, rowcount, in a transaction
_Outcome = tuple[Any, list[Any] | None, Any, int, bool]


def _run(connection: sqlite3.Connection, operation: str, parameters: Any,
         many: bool) -> _Outcome:
    """On the driver's thread: a statement's whole cursor life, and whether a transaction is
    open afterwards."""
    cursor = connection.cursor()
    try:
        if many:
            cursor.executemany(operation, parameters)
        else:
            cursor.execute(operation, () if parameters is None else parameters)
        rows = cursor.fetchall() if cursor.description else None
        return (cursor.description, rows, cursor.lastrowid, cursor.rowcount,
                connection.in_transaction)
    finally:
        cursor.close()


class OneTripCursor(AsyncAdapt_aiosqlite_cursor):
    __slots__ = ()

    def execute(self, operation: Any, parameters: Any = None) -> None:
        self._run(operation, parameters, many=False)

    def executemany(self, operation: Any, seq_of_parameters: Sequence[Any]) -> None:
        self._run(operation, seq_of_parameters, many=True)

    def _run(self, operation: Any, parameters: Any, *, many: bool) -> None:
        adapted = self._adapt_connection
        assert isinstance(adapted, OneTripConnection)
        adapted.in_transaction = True  # unknown until the statement has run
        try:
            driver = self._connection._execute
            outcome: _Outcome = self.await_(driver(
                _run, self._connection._conn, operation, parameters, many))
        except Exception as error:
            adapted._handle_exception(error)
        description, rows, lastrowid, rowcount, adapted.in_transaction = outcome
        self.description = description
        if rows is None:
            self.lastrowid, self.rowcount = lastrowid, rowcount
        else:
            self.lastrowid = self.rowcount = -1
            self._rows = deque(rows)


class OneTripConnection(AsyncAdapt_aiosqlite_connection):
    __slots__ = ("in_transaction",)

    def __init__(self, dbapi: Any, connection: Any) -> None:
        super().__init__(dbapi, connection)
        self.in_transaction = True  # until a statement says otherwise

    def cursor(self, server_side: bool = False) -> AsyncAdapt_aiosqlite_cursor:
        if server_side:
            return super().cursor(server_side)
        return OneTripCursor(self)

    def commit(self) -> None:
        if self.in_transaction:
            super().commit()
            self.in_transaction = False

    def rollback(self) -> None:
        if self.in_transaction:
            super().rollback()
            self.in_transaction = False


class OneTripDBAPI(AsyncAdapt_aiosqlite_dbapi):
    """Pass as ``module=`` to ``create_async_engine`` for a ``sqlite+aiosqlite`` URL."""

    def __init__(self) -> None:
        super().__init__(__import__("aiosqlite"), sqlite3)

    def connect(self, *arg: Any, **kw: Any) -> AsyncAdapt_aiosqlite_connection:
        adapted = super().connect(*arg, **kw)
        if type(adapted) is not AsyncAdapt_aiosqlite_connection:  # the sync fallback: as is
            return adapted
        return OneTripConnection(self, adapted._connection)
