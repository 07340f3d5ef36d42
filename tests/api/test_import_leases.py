"""An import's lease on each database (:mod:`api.shared.imports`): taken with the import's first
write, renewed by its heartbeat, given back with its last; a live lease is never claimed, a
stale one is, and its holder then stops and is never revealed; a sweep leaves an import alone
while its lease lives."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy import String, cast, select

from api.db.database import Database
from api.db.engine import create_engine
from api.db.statements import Statements
from api.server.settings import Settings
from api.shared.imports import LEASES, Lease, LeaseLost, Turns, died_here, holder_name
from api.tournaments import backup
from bench.stall import backup_body
from tests.api.test_club_import import age_leases
from tests.reliability.test_stalls import stored, tournament_ids

KIND, KEY = "test", "~lease"
PATIENCE = 30.0  # seconds for a heartbeat on a loaded machine (one is due every 0.1 s here)


@pytest.fixture
async def database(database_url: str) -> AsyncIterator[Database]:
    opened = Database(create_engine(database_url))
    try:
        yield opened
    finally:
        await opened.close()


async def leases(database: Database) -> dict[str, tuple[str, str]]:
    """Each lease's key, holder and heartbeat (as the database writes it)."""
    async with database.sessions() as session:
        return {key: (holder, beat) for key, holder, beat in await session.execute(select(
            LEASES.c.key, LEASES.c.holder, cast(LEASES.c.heartbeat_at, String)))}


async def until(condition: Any, what: str) -> None:
    deadline = time.monotonic() + PATIENCE
    while not await condition():
        assert time.monotonic() < deadline, what
        await asyncio.sleep(0.02)


def witness(key: str) -> dict[str, Any]:
    """A lease row of its own, written to see whether a transaction was committed."""
    at = datetime.now(UTC)
    return {"kind": KIND, "key": key, "holder": "witness", "started_at": at, "heartbeat_at": at}


async def test_a_lease_is_taken_renewed_and_given_back_with_the_last_write(
        database: Database) -> None:
    turns = Turns(database, Lease(database, KIND, KEY, seconds=0.6))  # a beat every 0.1 s
    try:
        async with turns.write():
            pass
        ((holder, first),) = (await leases(database)).values()
        assert f" pid {os.getpid()} " in holder

        async def renewed() -> bool:
            return (await leases(database))[KEY][1] != first

        await until(renewed, "the heartbeat never renewed the lease")
        async with turns.last():
            pass
        assert await leases(database) == {}
    finally:
        await turns.stop()


async def test_a_live_lease_is_never_claimed_an_abandoned_one_is_and_its_import_stops(
        database: Database) -> None:
    lease = Lease(database, KIND, KEY, seconds=0.6)
    turns = Turns(database, lease)
    try:
        async with turns.write():
            pass
        assert await Lease.claim(database, KIND, KEY, seconds=30) is None
        # As a sweep claims it when its holder is known gone (its heartbeat beats too often
        # here to be aged in between; test below ages one).
        claimed = await Lease.claim(database, KIND, KEY, seconds=30, abandoned=True)
        assert claimed is not None
        try:
            assert await Lease.claim(database, KIND, KEY, seconds=30) is None  # claimed once

            async def lost() -> bool:
                return lease.lost

            await until(lost, "the import never found out that its lease was claimed")
            with pytest.raises(LeaseLost):
                async with turns.write():
                    pass
            with pytest.raises(LeaseLost):  # its last write does not commit
                async with turns.last() as statements:
                    await statements.run(LEASES.insert(), witness("~revealed"))
            assert set(await leases(database)) == {KEY}
            await claimed.release()
        finally:
            await claimed.stop()
        assert await leases(database) == {}
    finally:
        await turns.stop()


async def test_the_last_write_fails_without_the_lease_even_before_a_heartbeat_says_so(
        database: Database, database_url: str) -> None:
    """A stale lease claimed between two heartbeats: the last write's own transaction finds
    out."""
    turns = Turns(database, Lease(database, KIND, KEY, seconds=3600))
    try:
        async with turns.write():
            pass
        await age_leases(database_url)
        claimed = await Lease.claim(database, KIND, KEY, seconds=30)
        assert claimed is not None
        await claimed.stop()

        async def reveal(statements: Statements) -> None:
            await statements.run(LEASES.insert(), witness("~revealed"))

        with pytest.raises(LeaseLost):
            async with turns.last() as statements:
                await reveal(statements)
        assert set(await leases(database)) == {KEY}
    finally:
        await turns.stop()


async def test_a_sweep_leaves_a_tournament_import_alone_while_its_lease_lives(
    client: AsyncTestClient,  # type: ignore[type-arg]
    settings: Settings, database: Database, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An import whose process died (neither its last write nor its removal ran) keeps its
    rows hidden under a lease nobody renews: a sweep at start or while serving leaves them
    until the lease is stale, then removes them and the lease."""
    kept = (await client.post("/api/v1/tournaments/import", content=backup_body(8),
                              headers={"Content-Type": "application/json"})).json()
    before = await stored(settings.database_url)

    async def dead(*_args: Any) -> None:
        raise OSError("the process is gone")

    monkeypatch.setattr(backup, "_reveal", dead)
    monkeypatch.setattr(backup, "_forget", dead)
    monkeypatch.setattr(backup, "BIG_BACKUP_BYTES", 1 << 30)  # imported in this process
    failed = await client.post("/api/v1/tournaments/import", content=backup_body(360),
                               headers={"Content-Type": "application/json"})
    assert failed.status_code == 500
    left = await stored(settings.database_url)
    assert left["import_lease"] == 1
    (hidden,) = [i for i in await tournament_ids(settings.database_url) if i.startswith("~")]
    assert set(await leases(database)) == {hidden}

    for everything in (True, False):
        assert await backup.sweep_unfinished(database, 30, everything=everything) == 0
    assert await stored(settings.database_url) == left
    # Held by a process of this host that is gone (serve restarted after a crash): its start
    # sweeps it at once; a sweep while serving waits for the lease to go stale.
    async with database.sessions() as session, session.begin():
        await session.execute(LEASES.update().values(
            holder=f"{socket.gethostname()} pid {gone_pid()} 0123abcd"))
    assert await backup.sweep_unfinished(database, 30, everything=False) == 0
    assert await backup.sweep_unfinished(database, 30, everything=True) == 1
    assert await stored(settings.database_url) == before
    assert (await client.get(f"/api/v1/tournaments/{kept['id']}/standings")).status_code == 200


async def test_an_import_whose_lease_was_claimed_answers_503_and_keeps_nothing(
    client: AsyncTestClient,  # type: ignore[type-arg]
    settings: Settings, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Its last write finds the lease claimed by a sweep (the unit tests above show how): the
    sender hears, in its language, that nothing was kept and that sending it again is safe."""
    before = await stored(settings.database_url)

    async def claimed(*_args: Any) -> None:
        raise LeaseLost

    monkeypatch.setattr(backup, "_reveal", claimed)
    monkeypatch.setattr(backup, "BIG_BACKUP_BYTES", 1 << 30)  # imported in this process
    failed = await client.post("/api/v1/tournaments/import", content=backup_body(8), headers={
        "Content-Type": "application/json", "Accept-Language": "de"})
    assert failed.status_code == 503
    assert failed.headers["content-type"].startswith("application/problem+json")
    assert failed.json()["detail"].startswith("Der Import ist ins Stocken geraten")
    assert await stored(settings.database_url) == before


def gone_pid() -> int:
    """The id of a process of this host that has exited."""
    pid = subprocess.Popen([sys.executable, "-c", "pass"])
    pid.wait()
    return pid.pid


def test_a_lease_is_abandoned_at_once_only_when_its_process_on_this_host_is_gone() -> None:
    here = socket.gethostname()
    assert died_here(f"{here} pid {gone_pid()} 0123abcd")
    assert not died_here(f"{here} pid {os.getpid()} 0123abcd")
    assert not died_here(holder_name())
    assert not died_here(f"{here}-elsewhere pid {gone_pid()} 0123abcd")  # another machine's
    assert not died_here("pid")  # unreadable: left to go stale


def test_a_lease_of_a_killed_process_nobody_has_reaped_yet_is_abandoned() -> None:
    """A helper killed with its server is a zombie until someone reaps it (a container's first
    process may never): it still answers signal 0, but holds nothing any more."""
    killed = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        killed.kill()
        deadline = time.monotonic() + 10
        while Path(f"/proc/{killed.pid}/stat").read_text().rpartition(")")[2].split()[0] != "Z":
            assert time.monotonic() < deadline, "the child never became a zombie"
            time.sleep(0.01)
        assert died_here(f"{socket.gethostname()} pid {killed.pid} 0123abcd")
    finally:
        killed.wait()
