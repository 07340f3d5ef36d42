"""A SQLite file read and written on the event loop's own thread.

Reading a match or recording a round touches a handful of rows already in SQLite's page cache:
microseconds of work. Handing each statement to a driver thread and back costs far more (a
wake-up of that thread and one of the event loop per statement), and under load those trips,
with SQLAlchemy's per-statement work, were most of a request's time. So on a SQLite file the
hot paths run here: Core statements compiled once (:mod:`api.db.statements`), with the engine's
own type conversions, straight on :mod:`sqlite3` connections.

Nothing here may make the loop wait:

* Both connections have no busy timeout. When SQLite answers "busy" (another process holds the
  write lock, a recovery after a crash) the caller goes the engine's way, whose thread may wait.
* A write transaction runs from ``BEGIN IMMEDIATE`` to ``COMMIT`` without giving the loop up
  (every :class:`LoopStatements` call finishes before it returns), so no other request ever
  sees it half done, and writers of this process take turns on an asyncio lock before it.
* ``synchronous=NORMAL`` in WAL mode: a commit appends to the WAL without an fsync; the sync that
  makes it durable runs on a thread (:mod:`api.db.group_sync`). Checkpoints (which do sync) are
  not run here (``wal_autocheckpoint=0``): :class:`api.db.database.Database` runs them on a
  thread.

Reads use a second, read-only connection, each read one statement in its own implicit
transaction: one committed snapshot, never a half-written state.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence

from sqlalchemy import Executable, text
from sqlalchemy.engine import Dialect
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from api.db.statements import CompiledStatements, Params, Row

_BEGIN_IMMEDIATE, _COMMIT, _ROLLBACK = text("BEGIN IMMEDIATE"), text("COMMIT"), text("ROLLBACK")


def is_busy(error: sqlite3.OperationalError) -> bool:
    """SQLite's "busy" or "locked", including their extended codes (e.g. busy in recovery)."""
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


class LoopStatements:
    """:class:`api.db.statements.Statements` on a :mod:`sqlite3` connection of the loop."""

    def __init__(self, connection: sqlite3.Connection, dialect: Dialect) -> None:
        self._connection = connection
        self.compiled = CompiledStatements(dialect)

    @property
    def in_transaction(self) -> bool:
        return self._connection.in_transaction

    def one_now(self, statement: Executable, params: Params) -> Row | None:
        compiled = self.compiled(statement, params)
        raw = self._connection.execute(compiled.sql, compiled.parameters(params)).fetchone()
        return None if raw is None else compiled.rows([raw])[0]

    async def one(self, statement: Executable, params: Params) -> Row | None:
        return self.one_now(statement, params)

    async def all(self, statement: Executable, params: Params) -> Sequence[Row]:
        compiled = self.compiled(statement, params)
        cursor = self._connection.execute(compiled.sql, compiled.parameters(params))
        return compiled.rows(cursor.fetchall())

    async def run(self, statement: Executable, params: Params | Sequence[Params]) -> None:
        sets: Sequence[Params] = [params] if isinstance(params, Mapping) else params
        if not sets:
            return
        compiled = self.compiled(statement, sets[0])
        try:
            if len(sets) > 1:
                self._connection.executemany(compiled.sql, [compiled.parameters(p) for p in sets])
            else:
                self._connection.execute(compiled.sql, compiled.parameters(sets[0]))
        except sqlite3.IntegrityError as error:  # as the engine would raise it
            raise IntegrityError(compiled.sql, sets, error) from None


class LoopSQLite:
    """A reader and a writer connection to one SQLite file, used on the loop's thread."""

    def __init__(self, path: str, dialect: Dialect) -> None:
        self.path = path
        self._dialect = dialect
        self._reader: LoopStatements | None = None
        self._writer: LoopStatements | None = None
        self._connections: list[sqlite3.Connection] = []

    @classmethod
    def for_engine(cls, engine: AsyncEngine) -> LoopSQLite | None:
        """For a SQLite file; None for PostgreSQL and in-memory or URI-named SQLite."""
        url = engine.url
        if url.get_backend_name() != "sqlite" or "uri" in url.query or \
                url.database in (None, "", ":memory:"):
            return None
        assert url.database is not None
        return cls(url.database, engine.dialect)

    def _connect(self, *pragmas: str) -> LoopStatements:
        connection = sqlite3.connect(self.path, timeout=0, isolation_level=None,
                                     check_same_thread=False)
        try:
            for pragma in pragmas:
                connection.execute(f"PRAGMA {pragma}")
        except sqlite3.Error:
            connection.close()
            raise
        self._connections.append(connection)
        return LoopStatements(connection, self._dialect)

    def read_one(self, statement: Executable, params: Params) -> Row | None:
        """The statement's only row, or None. Raises ``sqlite3.OperationalError`` when busy."""
        if self._reader is None:
            self._reader = self._connect("query_only=ON")
        return self._reader.one_now(statement, params)

    def begin_write(self) -> LoopStatements | None:
        """A write transaction holding the database's write lock; None if another connection
        holds it (or SQLite is busy otherwise)."""
        try:
            if self._writer is None:
                self._writer = self._connect("foreign_keys=ON", "synchronous=NORMAL",
                                             "wal_autocheckpoint=0")
            self._writer.one_now(_BEGIN_IMMEDIATE, {})
        except sqlite3.OperationalError as error:
            if is_busy(error):
                return None
            raise
        return self._writer

    def commit(self) -> None:
        assert self._writer is not None
        self._writer.one_now(_COMMIT, {})

    def rollback(self) -> None:
        """End the transaction :meth:`begin_write` began, unless SQLite ended it already."""
        if self._writer is not None and self._writer.in_transaction:
            self._writer.one_now(_ROLLBACK, {})

    def close(self) -> None:
        for connection in self._connections:
            connection.close()
        self._connections.clear()
        self._reader = self._writer = None
