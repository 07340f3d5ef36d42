"""``tafelrunde backup`` / ``restore``: a backup taken while the app serves restores every match
and tournament exactly; anything that is not a Tafelrunde database is refused."""

from __future__ import annotations

import asyncio
import random
import shutil
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.server import cli
from api.server.settings import Settings
from bench.harness import GAMES, new_match, next_entry

Client = AsyncTestClient[Litestar]
Snapshot = Callable[[], Awaitable[dict[str, list[tuple[Any, ...]]]]]
M = "/api/v1/matches"
T = "/api/v1/tournaments"
NAMES = ["Ann", "Bea", "Cem", "Dan", "Eva", "Fay"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def tschau(winner: int, seats: int = 3) -> dict[str, Any]:
    return {"winner": winner, "penalty": [0 if s == winner else 6 + s for s in range(seats)]}


@pytest.fixture
def settings(tmp_path: Path, sqlite_template: Path) -> Settings:
    """Backup and restore are for SQLite (PostgreSQL has pg_dump): a migrated SQLite file."""
    path = tmp_path / "live" / "tafelrunde.db"
    path.parent.mkdir()
    shutil.copy(sqlite_template, path)
    return Settings(database_url=f"sqlite+aiosqlite:///{path}")


def run(monkeypatch: pytest.MonkeyPatch, database_url: str, *argv: str) -> int:
    monkeypatch.setenv("TAFELRUNDE_DATABASE_URL", database_url)
    return cli.main(list(argv))


async def fill(client: Client) -> dict[str, dict[str, str]]:
    """Matches of every game (with a correction and an undo) and a tournament with a confirmed
    round; the URLs to read everything back, each with the header that may read it."""
    rng = random.Random(7)
    reads: dict[str, dict[str, str]] = {}
    for game in GAMES:
        match = (await client.post(M, json=new_match(game, rng))).json()
        url, auth = f"{M}/{match['id']}", bearer(match["token"])
        seats = len(match["players"])
        for _ in range(2):
            answer = await client.post(f"{url}/rounds", json=next_entry(game, seats, rng),
                                       headers=auth)
            assert answer.status_code == 201, answer.text
        if (await client.get(url, headers=auth)).json()["status"] == "in_progress":
            await client.put(f"{url}/rounds/1", json=next_entry(game, seats, rng), headers=auth)
        await client.delete(f"{url}/rounds/2", headers=auth)
        for path in ("", "/history", "/export?format=csv"):
            reads[url + path] = auth
    tournament = (await client.post(T, json={"name": "Night", "game": "tschau-sepp",
                                             "options": {"games": 1}, "rounds": 2,
                                             "table_size": 3, "seed": 4})).json()
    organiser = bearer(tournament["token"])
    tid = tournament["id"]
    for name in NAMES:
        await client.post(f"{T}/{tid}/players", json={"name": name}, headers=organiser)
    started = (await client.post(f"{T}/{tid}/rounds", headers=organiser)).json()
    for table in started["tables"]:
        await client.post(f"{M}/{table['match_id']}/rounds", json=tschau(table["table"] % 3),
                          headers={**bearer(table["table_token"]), "X-Device-Id": "a"})
        confirmed = await client.post(f"{T}/{tid}/rounds/1/tables/{table['table']}/confirm",
                                      headers={**bearer(table["table_token"]),
                                               "X-Device-Id": "b"})
        assert confirmed.status_code == 200, confirmed.text
        reads[f"{M}/{table['match_id']}"] = bearer(table["table_token"])
    await client.post(f"{T}/{tid}/rounds", headers=organiser)
    for path in ("", "/standings", "/rounds/1/tokens", "/rounds/2/tokens", "/players/1"):
        reads[f"{T}/{tid}{path}"] = organiser
    return reads


async def read_all(client: Client, reads: dict[str, dict[str, str]]) -> dict[str, Any]:
    answers = {}
    for url, headers in reads.items():
        answer = await client.get(url, headers=headers)
        assert answer.status_code == 200, (url, answer.text)
        answers[url] = answer.text
    return answers


async def test_a_restore_reproduces_every_match_and_tournament_exactly(
    settings: Settings, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    saved = tmp_path / "saved" / "tafelrunde-backup.db"
    saved.parent.mkdir()
    async with AsyncTestClient(app=create_app(settings)) as client:
        reads = await fill(client)
        before = await read_all(client, reads)
        # The CLI runs beside the serving app, as a second process would (its own event loop).
        assert await asyncio.to_thread(run, monkeypatch, settings.database_url, "backup",
                                       str(saved)) == 0
        for url, headers in reads.items():  # change everything the backup holds
            if url.endswith("/history") and "/matches/" in url:
                await client.delete(url.replace("/history", "/rounds/1"), headers=headers)
        await client.post(M, json={"game": "tschau-sepp", "players": NAMES[:2]})
        assert await read_all(client, reads) != before
        assert await asyncio.to_thread(run, monkeypatch, settings.database_url, "restore",
                                       str(saved)) == 0
        assert await read_all(client, reads) == before  # the running app sees the restore
    async with AsyncTestClient(app=create_app(settings)) as client:
        assert await read_all(client, reads) == before
    kept = list((tmp_path / "live").glob("*.before-restore-*"))
    assert len(kept) == 1


@pytest.mark.parametrize("content", [
    b"not a database at all",
    b"",
    "sqlite without tafelrunde",
    "an unknown schema revision",
])
async def test_restore_refuses_anything_but_a_tafelrunde_backup_and_changes_nothing(
    settings: Settings, everything_stored: Snapshot, tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch, content: bytes | str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    file = tmp_path / "candidate.db"
    if isinstance(content, bytes):
        file.write_bytes(content)
    else:
        assert run(monkeypatch, settings.database_url, "backup", str(file)) == 0
        with sqlite3.connect(file) as candidate:
            if content == "sqlite without tafelrunde":
                candidate.execute("DROP TABLE round")
            else:
                candidate.execute("UPDATE alembic_version SET version_num = 'from_the_future'")
        candidate.close()
    async with AsyncTestClient(app=create_app(settings)) as client:
        await client.post(M, json={"game": "tschau-sepp", "players": NAMES[:2]})
    before = await everything_stored()
    capsys.readouterr()
    assert await asyncio.to_thread(run, monkeypatch, settings.database_url, "restore",
                                   str(file)) == 1
    assert "cannot restore" in capsys.readouterr().err
    assert await everything_stored() == before


def test_backup_on_postgresql_points_at_pg_dump_and_fails(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    url = "postgresql+asyncpg://postgres@127.0.0.1:5432/tafelrunde"
    for command in ("backup", "restore"):
        assert run(monkeypatch, url, command, str(tmp_path / "x.db")) == 2
        assert "pg_dump" in capsys.readouterr().err
    assert not (tmp_path / "x.db").exists()


@pytest.mark.parametrize("target", ["missing/copy.db", ".", "live.db"])
def test_a_backup_that_cannot_be_written_or_read_says_why_in_one_line(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    target: str,
) -> None:
    """A folder where the backup cannot go, or a live file that is no database: one line."""
    live = tmp_path / "live.db"
    if target == "live.db":
        live.write_bytes(b"a spreadsheet saved over the database by mistake" * 100)
        target = "copy.db"
    else:
        sqlite3.connect(live).close()
    monkeypatch.chdir(tmp_path)
    before = sorted(tmp_path.iterdir())
    assert run(monkeypatch, f"sqlite+aiosqlite:///{live}", "backup", target) == 1
    said = capsys.readouterr().err
    assert said.startswith("tafelrunde backup: error: cannot backup: ")
    assert said.count("\n") == 1
    assert sorted(tmp_path.iterdir()) == before
