"""Two hosts on one PostgreSQL: two independent ``tafelrunde serve`` processes (two supervisors,
each with its own helper processes, as on two machines behind a load balancer), one database.

An import under way on one survives the other's start and its sweeps while serving (its lease
lives: the import's helper renews it even while its writes wait); a round posted to one is heard
on an event stream held by the other (LISTEN/NOTIFY); and an import whose host was killed
(SIGKILL: no removal runs, its helper dies with it) is swept by the other host once its lease
is stale, without a restart. The lease is short here (``TAFELRUNDE_IMPORT_LEASE``), so that
stale means seconds.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import httpx
import pytest

from api.db.engine import asyncpg_dsn
from api.server import schema
from bench.harness import Server, scratch_database
from bench.stall import PLAYED_ROUNDS, backup_body
from tests.conftest import next_change
from tests.reliability.test_stalls import (
    GENEROUS,
    ROUND_FIELD,
    alive,
    stored,
    tournament_ids,
    writes_stopped_mid_import,
)

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

LEASE = 4
"""Seconds of the hosts' import lease: a heartbeat every 0.67 s, a sweep every 2 s."""
FIELD = ROUND_FIELD
"""900 tables after six rounds: imported in the helper, in four writes of tables; held after
the first."""
PATIENCE = 120.0  # a big import's decoding and a start, on a loaded machine
JSON = {"Content-Type": "application/json"}


@pytest.fixture
async def database(postgres_server: str, tmp_path: Path) -> AsyncIterator[str]:
    async with scratch_database("postgresql", tmp_path, postgres_server) as url:
        yield url


def host(database_url: str, tmp_path: Path, name: str) -> Server:
    """A host's ``serve``: a folder (and log) of its own, the shared database."""
    folder = tmp_path / name
    folder.mkdir()
    return Server(database_url, folder, {"TAFELRUNDE_IMPORT_LEASE": str(LEASE)})


async def leases(database_url: str) -> list[tuple[str, str]]:
    connection = await asyncpg.connect(asyncpg_dsn(database_url))
    try:
        return [(row["key"], row["heartbeat_at"].isoformat()) for row in await connection.fetch(
            "SELECT key, heartbeat_at FROM import_lease")]
    finally:
        await connection.close()


async def a_round_posted_to_one_is_heard_on_the_other(a: Server, b: Server) -> None:
    async with httpx.AsyncClient(base_url=a.url, timeout=10) as writer, \
            httpx.AsyncClient(base_url=b.url, timeout=10) as phone:
        created = (await writer.post("/api/v1/matches", json={
            "game": "tschau-sepp", "players": ["Ann", "Bea"]})).json()
        async with phone.stream("GET", f"/api/v1/matches/{created['id']}/events") as stream:
            lines = stream.aiter_lines()
            assert (await anext(lines)).startswith(":")  # subscribed on B
            posted = await writer.post(
                f"/api/v1/matches/{created['id']}/rounds", json={"winner": 0, "penalty": [0, 4]},
                headers={"Authorization": f"Bearer {created['token']}"})
            assert posted.status_code == 201
            change = await asyncio.wait_for(next_change(lines), 10)
    assert change == {"version": 2, "action": "round_added", "round": 1}


async def test_an_import_on_one_host_survives_the_others_start_and_rounds_cross_hosts(
        database: str, tmp_path: Path) -> None:
    a, b = host(database, tmp_path, "a"), host(database, tmp_path, "b")
    await a.start()
    try:
        async with httpx.AsyncClient(base_url=a.url, timeout=600) as http:
            importing = asyncio.ensure_future(http.post(
                "/api/v1/tournaments/import", content=backup_body(FIELD), headers=JSON))
            async with writes_stopped_mid_import(database):
                ((hidden, first_beat),) = await leases(database)
                assert [i[0] for i in await tournament_ids(database)] == ["~"]
                await b.start()  # sweeps at its start: every hidden import nobody holds
                # B also sweeps stale leases every half lease while it serves; two leases
                # pass with A's import held mid-way, its helper renewing the lease meanwhile.
                held_until = time.monotonic() + 2 * LEASE
                while time.monotonic() < held_until:
                    assert not importing.done()
                    await asyncio.sleep(0.1)
                ((still, beat),) = await leases(database)
                assert still == hidden
                assert beat != first_beat, "the held import's helper renewed its lease"
            created = await asyncio.wait_for(importing, PATIENCE)
        assert created.status_code == 201, created.text
        tournament = created.json()
        assert await leases(database) == []
        assert [i for i in await tournament_ids(database) if i.startswith("~")] == []
        assert (await stored(database))["tournament_table"] == FIELD // 4 * PLAYED_ROUNDS
        async with httpx.AsyncClient(base_url=b.url, timeout=60) as other:
            standings = await other.get(f"/api/v1/tournaments/{tournament['id']}/standings")
        assert standings.status_code == 200
        assert len(standings.json()["rows"]) == FIELD
        assert "removed" not in a.log_tail() + b.log_tail()
        await a_round_posted_to_one_is_heard_on_the_other(a, b)
    finally:
        await b.stop()
        await a.stop()


async def test_an_import_whose_host_was_killed_is_swept_by_the_other_once_its_lease_is_stale(
        database: str, tmp_path: Path) -> None:
    a, b = host(database, tmp_path, "a"), host(database, tmp_path, "b")
    await a.start()
    await b.start()
    try:
        async with httpx.AsyncClient(base_url=a.url, timeout=600) as http:
            importing = asyncio.ensure_future(http.post(
                "/api/v1/tournaments/import", content=backup_body(FIELD), headers=JSON))
            async with writes_stopped_mid_import(database):
                processes = a.processes()  # the server and its helpers
                killed_at = time.monotonic()  # its lease's last heartbeat was before
                await a.kill()
                with pytest.raises(httpx.TransportError):
                    await importing
                deadline = time.monotonic() + GENEROUS
                while alive(processes):  # the helper stops by itself with its server
                    assert time.monotonic() < deadline, "the helper outlived its server"
                    await asyncio.sleep(0.05)
        left = await stored(database)
        assert left["tournament_table"] > 0
        assert left["import_lease"] == 1
        deadline = killed_at + PATIENCE
        while await leases(database):
            assert time.monotonic() < deadline, "B never swept the abandoned import"
            await asyncio.sleep(0.1)
        # Not before the lease was stale: its last heartbeat was at most a beat before the kill.
        assert time.monotonic() - killed_at > LEASE - LEASE / 6
        assert await stored(database) == {}
        assert "removed 1 import(s) abandoned" in b.log_tail()
    finally:
        await b.stop()
        await a.stop()


async def test_hosts_started_at_once_migrate_the_database_once(
        database: str, tmp_path: Path) -> None:
    """Every ``serve`` migrates the database at its start (as ``tafelrunde db upgrade``
    does); hosts started together, on a new database or after an update, must not trip over
    each other's migration."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAFELRUNDE_")}
    env["TAFELRUNDE_DATABASE_URL"] = database
    hosts = [await asyncio.create_subprocess_exec(
        sys.executable, "-m", "api.server.cli", "db", "upgrade", cwd=tmp_path, env=env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT) for _host in range(3)]
    said = await asyncio.wait_for(asyncio.gather(*(host.communicate() for host in hosts)),
                                  PATIENCE)
    assert [host.returncode for host in hosts] == [0, 0, 0], said
    assert await asyncio.to_thread(schema.check, database) is None
