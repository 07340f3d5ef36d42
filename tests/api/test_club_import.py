"""A club's backup imported on each database: the same club again, stored in short writes that
nobody sees until the last, nothing left behind when one fails, and a limit said in words."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from litestar.testing import AsyncTestClient
from sqlalchemy import func, select

from api.clubs import backup as club_backup
from api.clubs import ledger
from api.db.database import Database
from api.db.engine import create_engine
from api.db.statements import Statements
from api.server.settings import Settings
from api.shared.imports import HIDDEN, LEASES
from tests.api.clubs import CLUBS, Club
from tests.api.test_club_exports import eventful_club, everything_counted
from tests.conftest import problem
from tests.reliability.test_stalls import stored

Client = AsyncTestClient  # type: ignore[type-arg]


def without_export_times(backup: dict[str, Any]) -> dict[str, Any]:
    del backup["exported_at"]
    for tournament in backup["tournaments"]:
        del tournament["backup"]["exported_at"]
    return backup


async def test_a_club_exported_and_imported_is_the_same_club(client: Client) -> None:
    club = await eventful_club(client)
    saved = (await client.get(f"{club.url}/backup", headers=club.auth)).json()
    imported = await client.post(f"{CLUBS}/import", json=saved)
    assert imported.status_code == 201, imported.text
    body = imported.json()
    assert imported.headers["location"] == f"{CLUBS}/{body['id']}"
    copy = Club(client, body["id"], body["token"], body["view_token"])
    assert await everything_counted(copy) == await everything_counted(club)
    again = (await client.get(f"{copy.url}/backup", headers=copy.auth)).json()
    assert without_export_times(again) == without_export_times(saved)


async def test_an_import_is_invisible_until_its_last_write_and_leaves_nothing_when_one_fails(
        client: Client, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    club = await eventful_club(client)
    saved = (await client.get(f"{club.url}/backup", headers=club.auth)).json()
    before = await stored(settings.database_url)
    monkeypatch.setattr(club_backup, "ROWS_PER_WRITE", 5)  # many writes, each committed
    seen: list[tuple[str, int]] = []

    async def fails(statements: Statements, planned: Any) -> None:
        """The last write, which would reveal the club: everything else is stored by now."""
        (token_hash,) = await statements.one(
            select(ledger.CLUBS.c.token_hash).where(ledger.CLUBS.c.id == planned.club_id), {})
        (seats,) = await statements.one(select(func.count()).select_from(ledger.SEATS).where(
            ledger.SEATS.c.club_id == planned.club_id), {})
        seen.append((token_hash, seats))
        raise OSError("the disk is full")

    monkeypatch.setattr(club_backup, "_reveal", fails)
    failed = await client.post(f"{CLUBS}/import", json=saved)
    assert failed.status_code == 500
    assert [token_hash for token_hash, _seats in seen] == [HIDDEN]
    assert seen[0][1] > 0, "the seats were written before the last write"
    assert await stored(settings.database_url) == before


async def test_an_importing_club_answers_nobody_and_one_abandoned_is_swept(
        client: Client, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> None:
    """While its rows are being stored a club is not there, even for its own token; what an
    import left when its process died is swept once its lease is stale, by a serving process
    or by ``serve`` at its start, never while the lease is alive (another server process on
    the database may be writing it)."""
    club = await eventful_club(client)
    saved = (await client.get(f"{club.url}/backup", headers=club.auth)).json()
    before = await stored(settings.database_url)
    hidden: list[str] = []
    reveal, forget = club_backup._reveal, club_backup.forget

    async def dies(statements: Statements, planned: Any) -> None:
        hidden.append(planned.club_id)
        raise OSError("the process dies before the reveal")

    monkeypatch.setattr(club_backup, "_reveal", dies)
    monkeypatch.setattr(club_backup, "forget", _dead)
    assert (await client.post(f"{CLUBS}/import", json=saved)).status_code == 500
    problem(await client.get(f"{CLUBS}/{hidden[0]}", headers=club.auth), 404)
    problem(await client.post("/api/v1/matches", headers=club.auth, json={
        "game": "tschau-sepp", "players": ["Ann", "Bea"], "options": {"games": 1},
        "club": hidden[0]}), 422)
    left = await stored(settings.database_url)
    assert left.pop("import_lease") == 1, "the dead import's lease is still there"
    two_imports = {table: before.get(table, 0) + 2 * (count - before.get(table, 0))
                   for table, count in left.items()}

    monkeypatch.setattr(club_backup, "_reveal", reveal)
    monkeypatch.setattr(club_backup, "forget", forget)
    assert (await client.post(f"{CLUBS}/import", json=saved)).status_code == 201
    database = Database(create_engine(settings.database_url))
    try:
        for everything in (False, True):  # the lease is alive: neither sweep touches it
            assert await club_backup.sweep_unfinished(database, everything=everything) == 0
        assert await stored(settings.database_url) == {**two_imports, "import_lease": 1}
        await age_leases(settings.database_url)
        assert await club_backup.sweep_unfinished(database, everything=False) == 1
        assert await stored(settings.database_url) == left, "the abandoned one is gone"
        assert (await client.get(f"{CLUBS}/{hidden[0]}", headers=club.auth)).status_code == 404

        # An import hidden before leases existed has none: serve sweeps it at its start.
        monkeypatch.setattr(club_backup, "_reveal", dies)
        monkeypatch.setattr(club_backup, "forget", _dead)
        assert (await client.post(f"{CLUBS}/import", json=saved)).status_code == 500
        await age_leases(settings.database_url, remove=True)
        monkeypatch.setattr(club_backup, "forget", forget)
        assert await club_backup.sweep_unfinished(database, everything=False) == 0
        assert await club_backup.sweep_unfinished(database) == 1
    finally:
        await database.close()
    assert await stored(settings.database_url) == left


async def age_leases(database_url: str, *, remove: bool = False) -> None:
    """Every import's lease without a heartbeat for an hour (as if its process had died then),
    or gone (as an import from before leases has none)."""
    engine = create_engine(database_url)
    try:
        async with engine.begin() as connection:
            await connection.execute(LEASES.delete() if remove else LEASES.update().values(
                heartbeat_at=datetime.now(UTC) - timedelta(hours=1)))
    finally:
        await engine.dispose()


async def _dead(*_args: Any) -> None:
    """The process died: nothing removes what the import wrote, nor gives back its lease."""
    raise OSError("the process is gone")


@pytest.mark.parametrize(("language", "words"), [
    ("en", "at most 16 MiB"), ("de", "höchstens 16 MiB"), ("fr", "16 Mio"), ("it", "16 MiB")])
async def test_a_club_backup_over_the_limit_is_413_naming_the_limit(
        client: Client, language: str, words: str) -> None:
    body = b'{"format": "tafelrunde-club", "name": "' + b"x" * club_backup.MAX_BACKUP_BYTES + b'"}'
    refused = problem(await client.post(f"{CLUBS}/import", content=body, headers={
        "Content-Type": "application/json", "Accept-Language": language}), 413)
    assert words in refused["detail"]
