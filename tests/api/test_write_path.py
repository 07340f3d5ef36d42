"""Match writes: one transaction whichever way they go. On a SQLite file they run on the event
loop; when another process holds the write lock they go through the engine instead, and both ways
store the same thing."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient
from sqlalchemy.engine import make_url

from api.db import database as database_module
from api.db.database import Database
from api.db.loop_sqlite import LoopSQLite
from api.edge.problems import Conflict
from api.i18n import Phrase
from api.matches import service
from api.server.settings import Settings
from scoring.messages import Message
from tests.conftest import ServerFactory

Client = AsyncTestClient[Litestar]
ROUNDS = [{"winner": 0, "penalty": [0, 3, 4]}, {"winner": 1, "penalty": [6, 0, 3]},
          {"winner": 2, "penalty": [7, 4, 0]}]


ON_SQLITE = pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)


def sqlite_file(settings: Settings) -> Path:
    database = make_url(settings.database_url).database
    assert database is not None
    return Path(database)


async def play(table: Any) -> None:
    """Three rounds, a correction of the second and an undo of the third."""
    for entry in ROUNDS:
        assert (await table.record(entry)).status_code == 201
    corrected = await table.client.put(f"{table.url}/rounds/2", headers=table.auth(),
                                       json={"winner": 1, "penalty": [9, 0, 9]})
    assert corrected.status_code == 200, corrected.text
    undone = await table.client.delete(f"{table.url}/rounds/3", headers=table.auth())
    assert undone.status_code == 204, undone.text


def stored(path: Path, match_id: str) -> dict[str, Any]:
    """Everything stored about a match, as text, with its id and times taken out."""
    with sqlite3.connect(path) as connection:
        def rows(sql: str) -> list[tuple[Any, ...]]:
            return connection.execute(sql, (match_id,)).fetchall()
        found = {
            "match": rows("SELECT game, players, options, private, version, status, winners, "
                          "reason, standings, next_dealer, snapshot FROM match WHERE id = ?"),
            "rounds": rows("SELECT number, entry, result, totals FROM round "
                           "WHERE match_id = ? ORDER BY number"),
            "audit": rows("SELECT action, round, old_entry, new_entry, token_kind FROM audit "
                          "WHERE match_id = ? ORDER BY id"),
            "times": rows("SELECT created_at, updated_at FROM match WHERE id = ?")
            + rows("SELECT at, at FROM audit WHERE match_id = ?"),
        }
    text = repr(found).replace(match_id, "<id>")
    return {"text": re.sub(r"\d{4}-\d\d-\d\d[ T][\d:.]+(\+00:00|Z)?", "<time>", text),
            "time_formats": {re.sub(r"\d", "9", t) for row in found["times"] for t in row}}


@ON_SQLITE
async def test_writes_on_the_loop_store_exactly_what_writes_through_the_engine_store(
    client: Client, new_table: Any, settings: Settings, monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = sqlite_file(settings)
    on_the_loop = await new_table()
    await play(on_the_loop)
    monkeypatch.setattr(LoopSQLite, "begin_write", lambda _self: None)  # as if always busy
    through_the_engine = await new_table()
    await play(through_the_engine)
    assert stored(path, on_the_loop.id) == stored(path, through_the_engine.id)
    assert len(stored(path, on_the_loop.id)["time_formats"]) == 1


@ON_SQLITE
async def test_a_write_waits_for_another_process_holding_the_lock_and_the_loop_does_not(
    settings: Settings, serve: ServerFactory, tmp_path: Path,
) -> None:
    path = sqlite_file(settings)
    with serve(tmp_path, settings.database_url) as base:
        async with httpx.AsyncClient(base_url=base, timeout=30) as phone:
            created = (await phone.post("/api/v1/matches", json={
                "game": "tschau-sepp", "players": ["Ann", "Bea", "Cem"]})).json()
            url, auth = f"/api/v1/matches/{created['id']}", {
                "Authorization": f"Bearer {created['token']}"}
            other_process = sqlite3.connect(path, isolation_level=None)
            other_process.execute("BEGIN IMMEDIATE")
            try:
                waiting = asyncio.create_task(
                    phone.post(f"{url}/rounds", json=ROUNDS[0], headers=auth))
                await asyncio.sleep(0.5)
                assert not waiting.done()
                assert (await phone.get("/api/v1/ping")).status_code == 200
                assert (await phone.get(url)).json()["version"] == 1  # readers never wait
            finally:
                other_process.execute("COMMIT")
                other_process.close()
            written = await asyncio.wait_for(waiting, 10)
            assert written.status_code == 201, written.text
            assert (await phone.get(url)).json()["version"] == 2


@ON_SQLITE
async def test_the_writer_on_the_loop_leaves_checkpoints_to_a_thread(
    client: Client, new_table: Any, settings: Settings, monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = sqlite_file(settings)
    before = path.read_bytes()
    monkeypatch.setattr(database_module, "CHECKPOINT_EVERY", 3)
    table = await new_table()
    assert (await table.record(ROUNDS[0])).status_code == 201
    assert path.read_bytes() == before  # two commits: still only in the WAL
    assert (await table.record(ROUNDS[1])).status_code == 201
    for _ in range(100):
        if path.read_bytes() != before:
            break
        await asyncio.sleep(0.05)
    with sqlite3.connect(path) as connection:
        assert connection.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    assert path.read_bytes() != before


def size_of(path: Path) -> int:
    return path.stat().st_size


@ON_SQLITE
async def test_checkpoints_between_writes_keep_the_wal_from_growing(
    client: Client, new_table: Any, settings: Settings, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Each checkpoint is let finish before the next round (how far writes run ahead of a
    checkpoint on its thread is the machine's timing, not something to assert on)."""
    wal = Path(f"{sqlite_file(settings)}-wal")
    database: Database = client.app.state.database
    monkeypatch.setattr(database_module, "CHECKPOINT_EVERY", 5)
    sizes = []
    for _ in range(3):
        table = await new_table({"games": 20})
        for number in range(20):
            winner = number % 3
            entry = {"winner": winner, "penalty": [0 if s == winner else 4 for s in range(3)]}
            assert (await table.record(entry)).status_code == 201
            for _ in range(2000):  # the app runs on the test client's own event loop
                if not database.checkpointing:
                    break
                await asyncio.sleep(0.005)
            sizes.append(size_of(wal))
    assert sizes[-1] < 2 * sizes[9]


async def test_a_write_that_fails_half_way_leaves_nothing_behind(
    client: Client, new_table: Any, monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = await new_table()

    async def refused(*_args: Any, **_kwargs: Any) -> None:
        raise Conflict(Phrase(Message("", "refused after the round and the match were written")))

    with monkeypatch.context() as patched:
        patched.setattr(service, "_audit", refused)
        # The locked way, where a round takes several statements (on PostgreSQL a round is
        # otherwise one statement: tests/api/test_one_statement_rounds.py).
        patched.setattr(Database, "writes_one_statement", False)
        assert (await table.record(ROUNDS[0])).status_code == 409
    match = await table.read()
    assert (match["version"], match["rounds"]) == (1, [])
    history = await table.client.get(f"{table.url}/history")
    assert [item["action"] for item in history.json()] == ["create"]
    written = await table.record(ROUNDS[0])
    assert (written.status_code, written.json()["number"]) == (201, 1)
