"""Shared fixtures: an API client over a migrated database, SQLite or PostgreSQL.

SQLite: one migrated template file per session, copied for every test. PostgreSQL
(``TAFELRUNDE_TEST_POSTGRES_URL``, default the local ``test`` database): a fresh database per
session, created next to it and migrated to head, with every table emptied before each test.
Unreachable PostgreSQL skips those tests with the reason, except in CI (env ``CI`` set), where
it fails them.
"""

from __future__ import annotations

import asyncio
import json
import os
import secrets
import select
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy.engine import make_url

from api.app import create_app
from api.db.engine import asyncpg_dsn
from api.server import cli, schema
from api.server.settings import REPO_ROOT, Settings

# bench/harness.py serves the benchmarks and the tests alike: the repository root must be
# importable however pytest was started.
if str(REPO_ROOT) not in sys.path:
    sys.path.append(str(REPO_ROOT))

from bench.harness import run_statement

POSTGRES_URL = os.environ.get(
    "TAFELRUNDE_TEST_POSTGRES_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")


@pytest.fixture(scope="session")
def postgres_server() -> str:
    """The URL of a reachable PostgreSQL server's maintenance database."""
    try:
        asyncio.run(run_statement(POSTGRES_URL, "SELECT 1"))
    except (OSError, asyncpg.PostgresError, TimeoutError) as error:
        reason = f"PostgreSQL at {POSTGRES_URL} is unreachable: {error}"
        if os.environ.get("CI"):
            pytest.fail(reason)
        pytest.skip(reason)
    return POSTGRES_URL


@pytest.fixture(scope="session")
def postgres_url(postgres_server: str) -> Iterator[str]:
    """A database of its own for this test session, migrated to head."""
    name = f"tafelrunde_api_{secrets.token_hex(4)}"
    asyncio.run(run_statement(postgres_server, f'CREATE DATABASE "{name}"'))
    url = make_url(postgres_server).set(database=name).render_as_string(hide_password=False)
    try:
        schema.upgrade(url)
        yield url
    finally:
        asyncio.run(run_statement(
            postgres_server, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("template") / "tafelrunde.db"
    schema.upgrade(f"sqlite+aiosqlite:///{path}")
    return path


async def _truncate_all(url: str) -> None:
    """Rows deleted and sequences started again, in one transaction with the foreign keys'
    triggers off (``session_replication_role``), so in any order: a test's few rows go in
    about 8 ms, where ``TRUNCATE`` of every table took 75 to 300 ms, before each of the
    suite's PostgreSQL tests."""
    connection = await asyncpg.connect(asyncpg_dsn(url), timeout=3)
    try:
        tables = [r["tablename"] for r in await connection.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public' "
            "AND tablename <> 'alembic_version'")]
        sequences = [r["sequencename"] for r in await connection.fetch(
            "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'")]
        async with connection.transaction():
            await connection.execute("; ".join([
                "SET LOCAL session_replication_role = replica",
                *(f'DELETE FROM "{table}"' for table in tables),
                *(f'ALTER SEQUENCE "{sequence}" RESTART' for sequence in sequences)]))
    finally:
        await connection.close()


def _empty_tables(url: str) -> None:
    """Every table of the migrated schema emptied, whoever added it."""
    asyncio.run(_truncate_all(url))


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database_url(request: pytest.FixtureRequest, tmp_path: Path, sqlite_template: Path) -> str:
    if request.param == "sqlite":
        path = tmp_path / "tafelrunde.db"
        shutil.copy(sqlite_template, path)
        return f"sqlite+aiosqlite:///{path}"
    url: str = request.getfixturevalue("postgres_url")
    _empty_tables(url)
    return url


@pytest.fixture
def settings(database_url: str) -> Settings:
    return Settings(database_url=database_url)


@pytest.fixture
async def client(settings: Settings) -> AsyncIterator[AsyncTestClient]:  # type: ignore[type-arg]
    async with AsyncTestClient(app=create_app(settings)) as test_client:
        yield test_client


@contextmanager
def _serving(cwd: Path, database_url: str | None = None,
             settings: Mapping[str, str] | None = None, port: int = 0) -> Iterator[str]:
    """``--port 0``: the server takes a free port itself and says which (no race for a port
    between tests running in parallel); a ``port`` it had before starts it again where the
    pages that used it will look for it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAFELRUNDE_")}
    if database_url is not None:
        env["TAFELRUNDE_DATABASE_URL"] = database_url
    env.update(settings or {})
    process = subprocess.Popen(
        [sys.executable, "-m", "api.server.cli", "serve", "--port", str(port)],
        cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        running = cli.RUNNING.fullmatch(line.strip())
        assert running is not None, line
        assert int(running["port"]) != 0
        assert port in (0, int(running["port"]))
        base = running["base"]
        for _ in range(200):
            try:
                httpx.get(f"{base}/api/v1/health", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.05)
        yield base
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        if process.stdout is not None:
            process.stdout.close()


ServerFactory = Callable[..., AbstractContextManager[str]]


@pytest.fixture(scope="session")
def serve() -> ServerFactory:
    """Start a real ``tafelrunde serve`` process: ``with serve(cwd, database_url) as base_url``.

    Without a database URL the server uses ``tafelrunde.db`` in ``cwd``, as a user's would;
    ``settings`` adds ``TAFELRUNDE_*`` variables.
    """
    return _serving


def problem(response: Any, status: int) -> dict[str, Any]:
    """The RFC 9457 body of an error answer, after checking its status and shape."""
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = response.json()
    assert body["status"] == status
    assert {"type", "title", "detail", "errors"} <= set(body)
    return body


async def next_event(lines: AsyncIterator[str], name: str) -> dict[str, Any]:
    """The data of the next ``name`` event of a Server-Sent Events stream (others are passed)."""
    event = None
    async for line in lines:
        if line.startswith("event:"):
            event = line.split(":", 1)[1].strip()
        elif line.startswith("data:") and event == name:
            data: dict[str, Any] = json.loads(line.split(":", 1)[1])
            return data
    raise AssertionError("the stream ended")


async def next_change(lines: AsyncIterator[str]) -> dict[str, Any]:
    """The data of the next ``change`` event of a Server-Sent Events stream."""
    return await next_event(lines, "change")


def seconds_to_exit(pids: set[int], kill: Callable[[], None],
                    patience: float = 30.0) -> dict[int, float]:
    """Seconds from ``kill()`` until each of the processes ``pids`` exited (Linux: a pidfd
    of each, opened before the kill, is readable from the moment its process exits, zombie
    or not, so the time is the exit's, not that of a poll that came late). Processes not
    gone after ``patience`` seconds are missing from the answer."""
    handles = {os.pidfd_open(pid): pid for pid in pids}
    exited: dict[int, float] = {}
    try:
        kill()
        began = time.monotonic()
        while handles and (left := began + patience - time.monotonic()) > 0:
            ready, _, _ = select.select(list(handles), [], [], left)
            now = time.monotonic()
            for handle in ready:
                exited[handles.pop(handle)] = now - began
                os.close(handle)
    finally:
        for handle in handles:
            os.close(handle)
    return exited


async def backends_gone(onlooker: asyncpg.Connection, pids: set[int]) -> bool:
    """Whether PostgreSQL's backends ``pids`` have exited within 30 s, as ``onlooker`` (a
    connection of the test's own) sees them. A backend leaves ``pg_stat_activity`` a moment
    before its client sees the connection closed."""
    for _ in range(600):
        if not await onlooker.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE pid = ANY($1::int[])", list(pids)):
            return True
        await asyncio.sleep(0.05)
    return False
