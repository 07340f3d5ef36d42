"""Fixtures for the reliability tests: the bench harness, and which database a server gets.

Server-process tests run ``tafelrunde serve`` on a database of their own: a new SQLite file, or
a new PostgreSQL database created next to ``TAFELRUNDE_TEST_POSTGRES_URL`` (never the API
suite's), dropped afterwards. Unreachable PostgreSQL skips (fails in CI) through the shared
``postgres_server`` fixture.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select
from sqlmodel import SQLModel

from api.db.engine import create_engine
from api.server.settings import Settings
from bench.harness import DEFAULT_POSTGRES_URL, Server, scratch_database


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def server_database(request: pytest.FixtureRequest) -> tuple[str, str]:
    """(kind, PostgreSQL server URL) for a server process's own new database."""
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgres_server")
        return request.param, url
    return request.param, ""


@pytest.fixture
async def served(server_database: tuple[str, str], tmp_path: Path) -> AsyncIterator[Server]:
    """A ``tafelrunde serve`` process on a new database of each kind."""
    kind, postgres_url = server_database
    async with scratch_database(kind, tmp_path, postgres_url or DEFAULT_POSTGRES_URL) as url:
        server = Server(url, tmp_path)
        await server.start()
        try:
            yield server
        finally:
            await server.stop()


Stored = dict[str, list[tuple[Any, ...]]]


@pytest.fixture
def everything_stored(settings: Settings) -> Callable[[], Awaitable[Stored]]:
    """Every row of every table of the test's database, in a stable order: what "changes
    nothing" compares."""
    return lambda: _rows(settings.database_url)


async def _rows(database_url: str) -> Stored:
    """A test's own engine: the test client runs the app on another event loop, and asyncpg
    connections belong to the loop that opened them."""
    engine = create_engine(database_url)
    try:
        async with engine.connect() as connection:
            return {table.name: sorted(map(tuple, (await connection.execute(select(table))).all()),
                                       key=repr)
                    for table in SQLModel.metadata.sorted_tables}
    finally:
        await engine.dispose()
