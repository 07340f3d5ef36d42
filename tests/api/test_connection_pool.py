"""The PostgreSQL pool keeps its connections: a burst of more requests than it holds waits for
them instead of opening connections it closes again (each a new PostgreSQL process)."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import text

from api.db.engine import POOL_SIZE, create_engine

pytestmark = pytest.mark.postgres


async def test_bursts_of_requests_share_the_connections_kept_open(postgres_url: str) -> None:
    engine = create_engine(postgres_url)
    backends: set[int] = set()

    async def ask() -> None:
        async with engine.connect() as connection:
            backends.add((await connection.execute(
                text("SELECT pg_backend_pid() FROM pg_sleep(0.01)"))).scalar_one())

    try:
        for _burst in range(3):
            await asyncio.gather(*(ask() for _ in range(3 * POOL_SIZE)))
    finally:
        await engine.dispose()
    assert len(backends) == POOL_SIZE
