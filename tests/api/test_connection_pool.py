"""The PostgreSQL pool keeps its connections: a burst of more requests than it holds waits for
them instead of opening connections it closes again (each a new PostgreSQL process). The hot
paths' one-statement reads and writes and their transactions run on a few of them lent out of
the pool (:class:`api.db.driver_postgres.Lender`), the ORM sessions on the others."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import asyncpg
import pytest
from sqlalchemy import text

from api.db.database import Database
from api.db.driver_postgres import LENT
from api.db.engine import POOL_SIZE, asyncpg_dsn, create_engine
from tests.conftest import backends_gone

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


SLEPT_PID = text("SELECT pg_backend_pid() FROM pg_sleep(:seconds)")


async def backends_of(database: Database, reads: int, seconds: float = 0.01) -> set[int]:
    """The backends that answered ``reads`` one-statement reads made all at once."""
    rows = await asyncio.gather(*(database.read_one(SLEPT_PID, {"seconds": seconds})
                                  for _ in range(reads)))
    return {row[0] for row in rows if row is not None}


@pytest.fixture
async def database(postgres_url: str) -> AsyncIterator[Database]:
    database = Database(create_engine(postgres_url))
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
async def onlooker(postgres_url: str) -> AsyncIterator[asyncpg.Connection]:
    """A connection of its own, to watch and end the database's backends."""
    connection = await asyncpg.connect(asyncpg_dsn(postgres_url))
    try:
        yield connection
    finally:
        await connection.close()


async def test_one_statement_work_shares_the_connections_lent_out_of_the_pool(
        database: Database) -> None:
    backends: set[int] = set()
    for _burst in range(3):
        backends |= await backends_of(database, 3 * LENT)
    assert len(backends) == LENT


async def test_sessions_still_get_a_connection_while_every_lent_one_is_busy(
        database: Database) -> None:
    busy = asyncio.gather(*(database.read_one(SLEPT_PID, {"seconds": 1}) for _ in range(LENT)))
    await asyncio.sleep(0.2)
    async with database.sessions() as session:
        assert (await session.execute(text("SELECT 1"))).scalar_one() == 1
    assert not busy.done()
    await busy


async def test_a_refused_statement_leaves_its_connection_to_be_lent_again(
        database: Database) -> None:
    [before] = await backends_of(database, 1)
    with pytest.raises(asyncpg.DivisionByZeroError):
        await database.read_one(text("SELECT 1 / 0"), {})

    async def fail_in_a_transaction() -> None:
        async with database.write() as statements:
            await statements.one(SLEPT_PID, {"seconds": 0})
            raise ZeroDivisionError  # the request's own problem, inside its transaction

    with pytest.raises(ZeroDivisionError):
        await fail_in_a_transaction()
    assert await backends_of(database, 1) == {before}


async def test_connections_the_server_closed_are_replaced_when_taken(
        database: Database, onlooker: asyncpg.Connection) -> None:
    closed = await backends_of(database, LENT)
    await onlooker.execute("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid",
                           list(closed))
    assert await backends_gone(onlooker, closed)
    replaced = await backends_of(database, 2 * LENT)
    assert len(replaced) == LENT
    assert not replaced & closed


async def test_a_cancelled_statement_ends_its_connection_and_frees_its_place(
        database: Database, onlooker: asyncpg.Connection) -> None:
    """Its backend goes once its statement ends (PostgreSQL notices a closed client then)."""
    sleeping = asyncio.ensure_future(database.read_one(SLEPT_PID, {"seconds": 2}))
    await asyncio.sleep(0.3)
    [cancelled] = await onlooker.fetch(
        "SELECT pid FROM pg_stat_activity WHERE query LIKE '%pg_sleep%' AND pid <> "
        "pg_backend_pid() AND state = 'active'")
    sleeping.cancel()
    with pytest.raises(asyncio.CancelledError):
        await sleeping
    lent_again = await backends_of(database, 2 * LENT)
    assert len(lent_again) == LENT
    assert cancelled["pid"] not in lent_again
    assert await backends_gone(onlooker, {cancelled["pid"]})


async def test_a_request_that_gives_up_waiting_for_a_connection_leaves_its_turn_to_others(
        database: Database) -> None:
    busy = asyncio.gather(*(database.read_one(SLEPT_PID, {"seconds": 0.5})
                            for _ in range(LENT)))
    await asyncio.sleep(0.1)
    given_up = asyncio.ensure_future(database.read_one(SLEPT_PID, {"seconds": 0}))
    waiting = asyncio.ensure_future(backends_of(database, 3))
    await asyncio.sleep(0.1)
    given_up.cancel()
    await busy
    assert len(await asyncio.wait_for(waiting, 5)) >= 1
    assert given_up.cancelled()
    assert len(await backends_of(database, 2 * LENT)) == LENT


async def test_closing_the_database_closes_the_lent_connections(
        postgres_url: str, onlooker: asyncpg.Connection) -> None:
    database = Database(create_engine(postgres_url))
    lent = await backends_of(database, LENT)
    await database.close()
    assert await backends_gone(onlooker, lent)
