"""One async engine per database URL, tuned per dialect.

SQLite: WAL (readers never wait for the writer), foreign keys on, a busy timeout, and
``synchronous=FULL`` (a commit is synced to disk before it returns; ``NORMAL`` with
``synchronous="normal"``, see :data:`SYNCHRONOUS`). The stdlib driver's own transaction
handling is switched off and SQLAlchemy's ``begin`` emits the BEGIN itself, so every
transaction really is one: a write transaction starts with ``BEGIN IMMEDIATE`` and takes the
database's write lock at once, which serialises writers without the lock-upgrade deadlocks a
deferred BEGIN can run into. Reads use a plain deferred BEGIN and never wait for a writer; a
read that is one statement (``ONE_STATEMENT``) needs no BEGIN at all. Only public APIs: the
stock aiosqlite dialect, its ``connect`` and ``begin`` events. (The hot paths, reading a match
and recording a round, do not come here at all on a SQLite file: :mod:`api.db.loop_sqlite`.)

PostgreSQL: ``synchronous_commit`` is set on every connection (``on``, or ``off`` with
``synchronous="normal"``), whatever the server's default is. A pool of ``POOL_SIZE`` connections
kept open; one the server has closed is replaced when it is taken from the pool, without a
ping (see ``_postgres_engine``).

Migrations on SQLite run with foreign keys off: batch mode recreates tables.
"""

from __future__ import annotations

from typing import Any

import msgspec
from sqlalchemy import event
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import DisconnectionError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry

WRITE = "tafelrunde_write"
"""Execution option that marks a connection's transaction as a write (BEGIN IMMEDIATE)."""

ONE_STATEMENT = "tafelrunde_one_statement"
"""Execution option for a connection that runs one read statement: SQLite reads it in the
statement's own implicit transaction (one consistent snapshot), so no BEGIN/COMMIT is sent."""

BUSY_TIMEOUT_MS = 30_000

SYNCHRONOUS = ("full", "normal")
"""How a commit reaches the disk. ``full``: every acknowledged write survives a power cut
(SQLite ``synchronous=FULL``, PostgreSQL ``synchronous_commit=on``). ``normal``: faster; a crash
of the process loses nothing, a power cut or a crash of the machine may lose the last writes
acknowledged (SQLite ``synchronous=NORMAL`` in WAL mode, PostgreSQL ``synchronous_commit=off``).
"""
_POSTGRES_SYNCHRONOUS_COMMIT = {"full": "on", "normal": "off"}

POOL_SIZE = 15
"""PostgreSQL connections per server process, all kept open: up to 15 requests of a process talk
to the database at once (10 on the hot paths' lent connections, :data:`api.db.driver_postgres.LENT`,
5 in ORM sessions), the rest wait their turn (four workers hold at most 60 of
PostgreSQL's default 100 connections). None is opened for a burst and closed after it
(SQLAlchemy's ``max_overflow``): under a load of 100 phones such connections were opened and
closed all the time, each a new PostgreSQL process preparing its statements afresh, and made a
round cost PostgreSQL twice the CPU it costs on connections kept open (``bench/load.py``)."""


def _json_text(value: Any) -> str:
    return msgspec.json.encode(value).decode()


# JSON columns (entries, results, the match snapshot) go through msgspec: several times faster.
JSON_CODECS: dict[str, Any] = {"json_serializer": _json_text,
                               "json_deserializer": msgspec.json.decode}


def asyncpg_dsn(url: str) -> str:
    """The plain ``postgresql://`` address asyncpg takes, for a SQLAlchemy URL of this app."""
    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def create_engine(url: str, *, synchronous: str = "full",
                  for_migrations: bool = False) -> AsyncEngine:
    if synchronous not in SYNCHRONOUS:
        raise ValueError(f"synchronous must be one of {SYNCHRONOUS}, not {synchronous!r}")
    if url.startswith("sqlite"):
        return _sqlite_engine(url, synchronous=synchronous, foreign_keys=not for_migrations)
    return _postgres_engine(url, synchronous=synchronous)


def _postgres_engine(url: str, *, synchronous: str) -> AsyncEngine:
    engine = create_async_engine(
        url, pool_size=POOL_SIZE, max_overflow=0,
        connect_args={"server_settings": {
            "synchronous_commit": _POSTGRES_SYNCHRONOUS_COMMIT[synchronous]}},
        **JSON_CODECS)

    @event.listens_for(engine.sync_engine, "checkout")
    def _on_checkout(dbapi_connection: Any, _record: ConnectionPoolEntry, _proxy: Any) -> None:
        # Instead of pool_pre_ping, whose ping on asyncpg is three round trips (BEGIN, a
        # statement, ROLLBACK) before every transaction: a connection the server closed (a
        # restart, an administrator's pg_terminate_backend) has been seen closed by asyncpg
        # already, and the pool replaces it without asking the server anything.
        if dbapi_connection.driver_connection.is_closed():
            raise DisconnectionError("the database closed this connection")

    return engine


def _sqlite_engine(url: str, *, synchronous: str, foreign_keys: bool) -> AsyncEngine:
    engine = create_async_engine(
        url, connect_args={"timeout": BUSY_TIMEOUT_MS / 1000}, **JSON_CODECS)

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}")
        cursor.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        cursor.execute(f"PRAGMA synchronous={synchronous.upper()}")
        # A forgotten club member's name is overwritten, not left in free space that a backup
        # (page by page) would carry on; Debian's SQLite does this already, others need asking.
        cursor.execute("PRAGMA secure_delete=ON")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(connection: Connection) -> None:
        options = connection.get_execution_options()
        if options.get(ONE_STATEMENT, False):
            return
        connection.exec_driver_sql("BEGIN IMMEDIATE" if options.get(WRITE, False) else "BEGIN")

    return engine
