"""A round answered as stored survives a power cut: by default every commit is on disk before
its answer (SQLite ``synchronous=FULL`` or a sync of the WAL after the loop's commit; PostgreSQL
``synchronous_commit=on`` whatever the server's default), and ``synchronous="normal"`` is the
documented faster choice."""

from __future__ import annotations

import asyncio
import os
import threading
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy import text
from sqlalchemy.engine import make_url

from api.app import create_app, match_owners
from api.db import group_sync
from api.db.database import Database
from api.db.engine import create_engine
from api.db.group_sync import GroupSync
from api.db.loop_sqlite import LoopSQLite
from api.matches.folds import RecentFolds
from api.matches.schemas import NewMatch
from api.matches.service import create_match
from api.server.settings import Settings
from bench.harness import run_statement

Client = AsyncTestClient[Litestar]
ON_SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
ROUND = {"winner": 0, "penalty": [0, 3, 4]}


async def pragma_synchronous(url: str, synchronous: str) -> int:
    engine = create_engine(url, synchronous=synchronous)
    try:
        async with engine.connect() as connection:
            value: int = (await connection.execute(text("PRAGMA synchronous"))).scalar_one()
            return value
    finally:
        await engine.dispose()


@ON_SQLITE
async def test_sqlite_connections_of_the_engine_sync_every_commit_unless_told_otherwise(
    database_url: str,
) -> None:
    assert await pragma_synchronous(database_url, "full") == 2  # FULL
    assert await pragma_synchronous(database_url, "normal") == 1  # NORMAL
    with pytest.raises(ValueError, match="synchronous"):
        create_engine(database_url, synchronous="off")


@pytest.fixture
def disk_events(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """``commit`` for each commit on the loop, the file's path for each fsync, in order."""
    events: list[str] = []
    commit, fsync = LoopSQLite.commit, os.fsync

    def counted_commit(self: LoopSQLite) -> None:
        commit(self)
        events.append("commit")

    def counted_fsync(descriptor: int) -> None:
        events.append(os.readlink(f"/proc/self/fd/{descriptor}"))
        fsync(descriptor)

    monkeypatch.setattr(LoopSQLite, "commit", counted_commit)
    monkeypatch.setattr(group_sync.os, "fsync", counted_fsync)
    return events


@ON_SQLITE
async def test_a_round_written_on_the_loop_is_answered_only_once_its_wal_is_synced(
    settings: Settings, new_table: Any, disk_events: list[str],
) -> None:
    wal = f"{make_url(settings.database_url).database}-wal"  # the fixture's path is absolute
    table = await new_table()
    disk_events.clear()
    assert (await table.record(ROUND)).status_code == 201
    assert disk_events[0] == "commit"
    assert wal in disk_events[1:]


@ON_SQLITE
@pytest.mark.parametrize(("synchronous", "synced"), [("full", True), ("normal", False)])
async def test_a_write_on_the_loop_waits_for_the_disk_unless_synchronous_is_normal(
    database_url: str, disk_events: list[str], synchronous: str, synced: bool,
) -> None:
    database = Database(create_engine(database_url, synchronous=synchronous),
                        synchronous=synchronous)
    try:
        await create_match(database, RecentFolds(), match_owners(),
                           NewMatch(game="tschau-sepp", players=["Ann", "Bea"]))
    finally:
        await database.close()
    assert disk_events[0] == "commit"
    assert any(event.endswith("-wal") for event in disk_events[1:]) is synced


async def test_commits_made_while_the_disk_syncs_share_the_next_sync(tmp_path: Path) -> None:
    syncs: list[int] = []
    began, release = threading.Event(), [threading.Event(), threading.Event()]
    waiting = GroupSync(str(tmp_path / "tafelrunde.db"))

    def sync_files() -> None:
        began.set()
        release[len(syncs)].wait(timeout=10)
        syncs.append(len(syncs) + 1)

    waiting.sync_files = sync_files  # type: ignore[method-assign]
    first = asyncio.create_task(waiting.durable(waiting.commit_made()))
    assert await asyncio.to_thread(began.wait, 10)  # the first sync is under way
    later = [asyncio.create_task(waiting.durable(waiting.commit_made())) for _ in range(5)]
    await asyncio.sleep(0)
    assert not any(task.done() for task in [first, *later])
    release[0].set()
    await first
    assert waiting.synced == 1
    assert not any(task.done() for task in later)  # made after sync 1 began: not covered by it
    release[1].set()
    await asyncio.gather(*later)
    assert (syncs, waiting.synced) == ([1, 2], 6)  # the second sync for all five waiting


@pytest.mark.postgres
async def test_postgresql_commits_synchronously_even_where_the_server_default_is_off(
    postgres_url: str,
) -> None:
    name = make_url(postgres_url).database
    await run_statement(postgres_url, f'ALTER DATABASE "{name}" SET synchronous_commit = off')
    try:
        for synchronous, expected in (("full", "on"), ("normal", "off")):
            engine = create_engine(postgres_url, synchronous=synchronous)
            try:
                async with engine.connect() as connection:
                    shown = (await connection.execute(text("SHOW synchronous_commit"))
                             ).scalar_one()
            finally:
                await engine.dispose()
            assert shown == expected
    finally:
        await run_statement(postgres_url, f'ALTER DATABASE "{name}" RESET synchronous_commit')


@ON_SQLITE
def test_the_setting_chooses_how_the_app_commits(settings: Settings) -> None:
    assert create_app(settings).state.database.group_sync is not None
    assert create_app(replace(settings, synchronous="normal")).state.database.group_sync is None
