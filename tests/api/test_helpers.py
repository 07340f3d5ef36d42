"""The app's two helper processes (:mod:`api.server.offload`): big imports, which anyone may send,
queue in one; a big tournament's or club's reads and round starts in the other, so that a queue of
uploads never holds up an organiser."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from api.clubs import backup as club_backup
from api.db.database import Database
from api.server.offload import Offload
from api.tournaments import backup as tournament_backup
from tests.api.clubs import new_club
from tests.api.test_tournaments import (
    BASE,
    NAMES,
    Client,
    new_tournament,
    ok,
    play_round,
    read,
    register,
)

PATIENCE = 60.0
"""Seconds a helper may take to start and answer on a loaded machine."""


def _wait_for(release: str) -> None:
    while not Path(release).exists():
        time.sleep(0.05)


async def held_until(_database: Database, release: str) -> str:
    """A job that keeps its helper busy until the file ``release`` exists (the test and the
    helper are different processes)."""
    await asyncio.to_thread(_wait_for, release)
    return "released"


async def answered(_database: Database, answer: str) -> str:
    return answer


async def test_a_helper_busy_with_an_import_leaves_the_other_to_answer(
        client: Client, tmp_path: Path) -> None:
    state = client.app.state
    release = tmp_path / "release"
    importing = asyncio.ensure_future(state.imports.run(held_until, str(release)))
    try:
        assert await asyncio.wait_for(state.offload.run(answered, "standings"),
                                      PATIENCE) == "standings"
        assert not importing.done()
    finally:
        release.touch()
        assert await asyncio.wait_for(importing, PATIENCE) == "released"


async def test_big_imports_go_to_the_imports_helper(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    state = client.app.state
    lanes: list[tuple[str, str]] = []
    run = Offload.run

    async def noted(self: Offload, job: Any, *args: Any) -> Any:
        lanes.append(("imports" if self is state.imports else "reads", job.__name__))
        return await run(self, job, *args)

    monkeypatch.setattr(Offload, "run", noted)
    monkeypatch.setattr(tournament_backup, "BIG_BACKUP_BYTES", 0)
    monkeypatch.setattr(club_backup, "BIG_BACKUP_BYTES", 0)
    tournament = await new_tournament(client, rounds=2)
    await register(client, tournament, NAMES[:4])
    await play_round(client, tournament)
    ok(await client.post(f"{BASE}/import", json=await read(client, tournament, "/backup")), 201)
    club = await new_club(client)
    await club.play(["Ann", "Bea"], [0, 3])
    ok(await client.post("/api/v1/clubs/import", json=await club.get("/backup")), 201)
    assert lanes == [("imports", "import_tournament"), ("imports", "import_club")]
