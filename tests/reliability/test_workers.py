"""``tafelrunde serve --workers N`` on PostgreSQL: one address printed, N processes on the one
port, a change written through one worker heard on an event stream held by another, and
SIGTERM stops them all; every connection to the database closed at once (a restart) costs no
request. (On SQLite it is refused before anything is touched: tests/api/test_settings.py.)"""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from pathlib import Path

import asyncpg
import httpx
import pytest

from api.db.engine import asyncpg_dsn
from api.server.cli import RUNNING
from bench.harness import scratch_database
from tests.conftest import backends_gone, next_change, seconds_to_exit

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

PATIENCE = 180.0  # a start on a loaded machine: imports and migrations, then two more imports


def children(pid: int) -> set[int]:
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found |= {int(child) for child in (task / "children").read_text().split()}
    return found


def socket_inodes(pid: int) -> set[str]:
    """The inodes of the sockets process ``pid`` holds open."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except FileNotFoundError:  # closed meanwhile
            continue
        if target.startswith("socket:["):
            inodes.add(target[len("socket:["):-1])
    return inodes


def server_side_inode(server_port: int, client_port: int) -> str | None:
    """The inode of the server's end of the connection from ``client_port`` (/proc/net/tcp)."""
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        fields = line.split()
        local, remote, inode = fields[1], fields[2], fields[9]
        if int(local.split(":")[1], 16) == server_port and \
                int(remote.split(":")[1], 16) == client_port:
            return inode
    return None


def worker_of(response: httpx.Response, server_port: int, workers: set[int]) -> int | None:
    """The worker process holding the connection ``response`` came on."""
    client_port = response.extensions["network_stream"].get_extra_info("client_addr")[1]
    inode = server_side_inode(server_port, client_port)
    owners = {pid for pid in workers if inode in socket_inodes(pid)}
    return owners.pop() if len(owners) == 1 else None


def start_two_workers(cwd: Path, database_url: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAFELRUNDE_")}
    return subprocess.Popen(
        [sys.executable, "-m", "api.server.cli", "serve", "--port", "0", "--workers", "2"],
        cwd=cwd, env={**env, "TAFELRUNDE_DATABASE_URL": database_url},
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def spawned(pid: int) -> set[int]:
    """The worker processes ``pid`` spawned (not multiprocessing's resource tracker)."""
    return {child for child in children(pid)
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes()}


def alive(pids: set[int]) -> set[int]:
    return {pid for pid in pids if Path(f"/proc/{pid}").exists()}


@pytest.fixture
async def two_workers(postgres_server: str, tmp_path: Path) -> AsyncIterator[
        tuple[subprocess.Popen[str], str, str]]:
    """``serve --port 0 --workers 2`` on a new database: the process, its base URL and the
    database's."""
    async with scratch_database("postgresql", tmp_path, postgres_server) as url:
        process = start_two_workers(tmp_path, url)
        try:
            assert process.stdout is not None
            line = await asyncio.to_thread(process.stdout.readline)
            running = RUNNING.fullmatch(line.strip())
            assert running is not None, line
            yield process, running["base"], url
        finally:
            if process.poll() is None:
                process.terminate()  # the supervisor stops its workers
                try:
                    process.wait(30)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
            if process.stdout is not None:
                process.stdout.close()


async def until_both_answer(process: subprocess.Popen[str], base: str) -> set[int]:
    """The two workers' process ids, once the server answers."""
    deadline = time.monotonic() + PATIENCE
    async with httpx.AsyncClient(base_url=base, timeout=5) as http:
        while time.monotonic() < deadline:
            workers = spawned(process.pid)
            try:
                if len(workers) == 2 and (await http.get("/api/v1/health")).status_code == 200:
                    return workers
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.2)
    raise AssertionError("two workers did not come up")


async def test_two_workers_share_one_port_and_hear_each_others_changes(
    two_workers: tuple[subprocess.Popen[str], str, str],
) -> None:
    process, base, _database = two_workers
    port = int(base.rsplit(":", 1)[1])
    workers = await until_both_answer(process, base)
    async with AsyncExitStack() as stack:
        # The round goes on the connection that created the match (unless it sat idle too
        # long), so the worker that knows the match records it in one statement
        # (tests/api/test_one_statement_rounds.py) and the other one hears it.
        writer = await stack.enter_async_context(httpx.AsyncClient(base_url=base, timeout=10))
        created = (await writer.post("/api/v1/matches", json={
            "game": "tschau-sepp", "players": ["Ann", "Bea"]})).json()
        events = f"{base}/api/v1/matches/{created['id']}/events"
        # Phones open the match until each worker holds one's event stream (the kernel hands
        # each new connection to whichever worker accepts first).
        streams: dict[int, AsyncIterator[str]] = {}
        for _ in range(100):
            phone = await stack.enter_async_context(httpx.AsyncClient(timeout=10))
            stream = await stack.enter_async_context(phone.stream("GET", events))
            worker = worker_of(stream, port, workers)
            if worker is not None and worker not in streams:
                lines = stream.aiter_lines()
                assert (await anext(lines)).startswith(":")  # subscribed
                streams[worker] = lines
            if len(streams) == 2:
                break
        assert set(streams) == workers

        posted = await writer.post(f"/api/v1/matches/{created['id']}/rounds",
                                   json={"winner": 0, "penalty": [0, 4]},
                                   headers={"Authorization": f"Bearer {created['token']}"})
        assert posted.status_code == 201
        (other,) = workers - {worker_of(posted, port, workers)}
        change = await asyncio.wait_for(next_change(streams[other]), 10)
        assert change == {"version": 2, "action": "round_added", "round": 1}

    process.send_signal(signal.SIGTERM)
    assert await asyncio.to_thread(process.wait, 60) == 0
    assert process.stdout is not None
    assert [line for line in process.stdout.read().splitlines() if RUNNING.search(line)] == []
    assert alive(workers) == set()


async def test_when_the_database_closes_every_connection_no_request_fails(
    two_workers: tuple[subprocess.Popen[str], str, str],
) -> None:
    """The pools hold connections the server has closed; each is replaced as it is taken."""
    process, base, database_url = two_workers
    await until_both_answer(process, base)

    async def new_matches(count: int) -> list[int]:
        async def one() -> int:
            async with httpx.AsyncClient(base_url=base, timeout=30) as phone:
                return (await phone.post("/api/v1/matches", json={
                    "game": "tschau-sepp", "players": ["Ann", "Bea"]})).status_code
        return list(await asyncio.gather(*(one() for _ in range(count))))

    assert await new_matches(20) == [201] * 20  # both workers' pools hold connections now
    database = await asyncpg.connect(asyncpg_dsn(database_url))
    try:
        closed = [pid for (pid,) in await database.fetch(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() "
            "AND pid <> pg_backend_pid()")]
        await database.execute("SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid",
                               closed)
        assert len(closed) >= 4  # pooled connections, listeners and publishers of two workers
        assert await backends_gone(database, set(closed))
    finally:
        await database.close()
    assert await new_matches(20) == [201] * 20


async def test_workers_stop_by_themselves_when_their_supervisor_is_killed(
    two_workers: tuple[subprocess.Popen[str], str, str],
) -> None:
    """SIGKILL gives the supervisor no chance to stop its workers: the kernel tells them, and
    they are gone within half a second, not holding the port and the database meanwhile."""
    process, base, _database = two_workers
    workers = await until_both_answer(process, base)
    exited = await asyncio.to_thread(seconds_to_exit, workers, process.kill)
    await asyncio.to_thread(process.wait, 10)
    assert set(exited) == workers
    assert max(exited.values()) < ORPHAN_SECONDS


ORPHAN_SECONDS = 0.5
"""How long a worker may outlive its supervisor."""
