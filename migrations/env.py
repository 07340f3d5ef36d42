"""Alembic environment: async engines, batch mode for SQLite, the tables of ``api.db.models``.

The database URL comes from ``config.attributes["database_url"]`` (set by ``tafelrunde db``) or
``TAFELRUNDE_DATABASE_URL``. On SQLite foreign keys are off while migrating (batch mode recreates
tables) and the whole upgrade runs in one transaction, like on PostgreSQL, where it holds an
advisory lock (:data:`MIGRATING`) so that hosts started at once migrate one after the other.
"""

import asyncio
from typing import Any

from alembic import context
from sqlalchemy import text
from sqlalchemy.engine import Connection
from sqlmodel import SQLModel

import api.clubs.models
import api.db.models
import api.tournaments.models  # noqa: F401
from api.db.engine import create_engine
from api.server.settings import Settings

config = context.config
target_metadata = SQLModel.metadata


def database_url() -> str:
    url = config.attributes.get("database_url")
    return str(url) if url else Settings.from_env().database_url


def configure(**kwargs: Any) -> None:
    context.configure(
        target_metadata=target_metadata, render_as_batch=True, compare_type=True, **kwargs,
    )


MIGRATING = 0x7461666C  # any number, the same for every host: "tafl"
"""The PostgreSQL advisory lock a migration holds for its transaction: several hosts started at
once on one database (each ``serve`` migrates at its start) take turns; the first migrates, the
others find the database at the revision they want and do nothing, where they would otherwise
each try to create the same tables and all but one fail."""


def run_on(connection: Connection) -> None:
    configure(connection=connection, transactional_ddl=True)
    with context.begin_transaction():
        if connection.dialect.name == "postgresql":
            connection.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATING})
        context.run_migrations()


async def run_online() -> None:
    engine = create_engine(database_url(), for_migrations=True)
    try:
        async with engine.connect() as connection:
            await connection.run_sync(run_on)
    finally:
        await engine.dispose()


if context.is_offline_mode():
    configure(url=database_url(), literal_binds=True, dialect_opts={"paramstyle": "named"})
    with context.begin_transaction():
        context.run_migrations()
else:
    asyncio.run(run_online())
