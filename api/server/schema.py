"""The database's schema: Alembic configured in code, and opening a database to ask it one question.

The scripts live in ``migrations/`` (inside the installed package, see
:func:`api.server.settings.shipped`) and no ``alembic.ini`` is needed. The command line
(:mod:`api.server.cli`) and a restore (:mod:`api.server.backup`) both bring a database to this
version's head here, which is why this is a module of its own: the two used to import each other.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3

from alembic import command
from alembic.config import Config
from alembic.util.exc import CommandError

from api.server.settings import shipped


def alembic_config(database_url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", str(shipped("migrations")))
    config.attributes["database_url"] = database_url
    return config


class Unreachable(Exception):
    """The database cannot be opened; the message says which and why, in one line."""


def reach(database_url: str) -> None:
    """Open one connection and ask one question, or raise :class:`Unreachable`.

    A SQLite file is asked with :mod:`sqlite3` itself: aiosqlite's thread would outlive a
    failed connection and report it to an event loop already closed."""
    from sqlalchemy import make_url
    from sqlalchemy.exc import DBAPIError

    from api.db.engine import create_engine

    url = make_url(database_url)

    async def ask() -> None:
        engine = create_engine(database_url)
        try:
            async with engine.connect() as connection:
                await connection.exec_driver_sql("SELECT 1")
        finally:
            await engine.dispose()

    try:
        if url.get_backend_name() != "sqlite":
            asyncio.run(ask())
        elif url.database not in (None, "", ":memory:"):
            with contextlib.closing(sqlite3.connect(url.database, uri="uri" in url.query)) as file:
                file.execute("PRAGMA schema_version")  # reads the header: is it a database?
    except (DBAPIError, OSError, sqlite3.Error) as error:
        # asyncpg's refused or timed-out connection is an OSError
        why = (error.orig if isinstance(error, DBAPIError) else
               error.strerror if isinstance(error, OSError) and error.strerror else error)
        shown = url.render_as_string(hide_password=True)
        raise Unreachable(f"cannot open the database {shown}: {why}") from None


def upgrade(database_url: str, revision: str = "head") -> None:
    command.upgrade(alembic_config(database_url), revision)


def downgrade(database_url: str, revision: str = "base") -> None:
    command.downgrade(alembic_config(database_url), revision)


def check(database_url: str) -> str | None:
    """None when the database is at head and the models match the migrations, else why not."""
    try:
        command.check(alembic_config(database_url))
    except CommandError as diff:  # includes "not up to date" and the autogenerate diff
        return str(diff)
    return None
