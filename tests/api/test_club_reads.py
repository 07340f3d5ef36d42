"""A club's reads: kept per club version, and a big club's answered by the helper process just
as the loop answers them."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from litestar.testing import AsyncTestClient

from api.clubs import reads
from api.clubs.reads import ClubAnswers
from tests.api.clubs import MATCHES, Club, bearer, new_club, tschau_round
from tests.api.test_club_exports import eventful_club
from tests.api.test_club_import import without_export_times
from tests.api.test_seasons import club_tournament, evening, season, sheet, table

Client = AsyncTestClient  # type: ignore[type-arg]

READS = [("", {}), ("/players", {}), ("/players/1", {}),
         ("/ratings", {"game": "tschau-sepp"}),
         ("/ratings/history", {"game": "tschau-sepp", "player": 1}),
         ("/statistics", {}), ("/statistics", {"since": "2020-01-01T00:00:00Z"}),
         ("/history", {"limit": 3, "offset": 1}), ("/head-to-head", {"player": 1, "opponent": 2}),
         ("/export", {"table": "statistics", "sep": ";", "decimal": ","}),
         ("/export", {"lang": "fr"}), ("/export", {"format": "json"}), ("/backup", {})]


async def everything_read(club: Club) -> list[tuple[int, str, bytes]]:
    answers = []
    for path, params in READS:
        response = await club.client.get(f"{club.url}{path}", params=params, headers=club.auth)
        body = response.content
        if path == "/backup":
            body = repr(without_export_times(response.json())).encode()
        elif params.get("format") == "json":
            exported = response.json()
            del exported["exported_at"]  # when it was read
            body = repr(exported).encode()
        answers.append((response.status_code, response.headers["content-type"], body))
    return answers


async def test_a_big_clubs_reads_are_answered_by_the_helper_as_by_the_loop(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    club = await eventful_club(client)
    on_the_loop = await everything_read(club)
    assert {status for status, _type, _body in on_the_loop} == {200}
    state = client.app.state
    state.club_answers = ClubAnswers(state.offload)  # nothing kept
    monkeypatch.setattr(reads, "BIG_FINISHED", 0)
    assert await everything_read(club) == on_the_loop
    refused = await client.get(f"{club.url}/players/99", headers=club.auth)
    assert refused.status_code == 404  # a problem in the helper is the request's problem


async def test_what_a_club_version_decides_is_computed_once(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    club = await new_club(client)
    await club.play(["Ann", "Bea"], [0, 3])
    computed: list[str] = []

    def counting(read: str) -> Any:
        original = reads.READS[read]

        async def counted(*args: Any) -> Any:
            computed.append(read)
            return await original(*args)
        return counted

    for read in ("statistics", "history"):
        monkeypatch.setitem(reads.READS, read, counting(read))
    first = await club.get("/statistics")
    assert await club.get("/statistics") == first
    assert await club.get("/statistics", game="tschau-sepp") == first
    await club.get("/history")
    await club.get("/history")
    assert computed == ["statistics", "statistics", "history", "history"]
    await club.play(["Ann", "Bea"], [4, 0])  # a new version
    assert await club.get("/statistics") != first
    assert computed[-1] == "statistics"
    assert len(computed) == 5


async def test_a_seasons_standings_are_kept_per_club_version_and_move_with_it(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    """A second read of the same standings is the kept answer; a correction, a late sheet and
    a club tournament's last confirmation each make a new club version, and the standings
    read after them are counted afresh at once."""
    club = await new_club(client)
    first = await sheet(club, ["Ann", "Bea"], [0, 3], evening("05"))
    season_id = await season(club)
    counted: list[int] = []
    original = reads.READS["season_standings"]

    async def counting(*args: Any) -> Any:
        counted.append(1)
        return await original(*args)

    monkeypatch.setitem(reads.READS, "season_standings", counting)
    before = await table(club, season_id)
    assert await table(club, season_id) == before
    assert len(counted) == 1
    assert [row[:3] for row in before] == [("Ann", 1, "1.00"), ("Bea", 2, "0.00")]
    corrected = await client.put(f"{MATCHES}/{first['id']}/rounds/1",
                                 json=tschau_round([4, 0]), headers=bearer(first["token"]))
    assert corrected.status_code == 200, corrected.text
    assert [row[:3] for row in await table(club, season_id)] == [
        ("Bea", 1, "1.00"), ("Ann", 2, "0.00")]
    assert len(counted) == 2
    await sheet(club, ["Cem", "Bea"], [0, 3], evening("02"))  # typed in later
    assert {row[0]: row[2] for row in await table(club, season_id)} == {
        "Bea": "1.00", "Cem": "1.00", "Ann": "0.00"}
    assert len(counted) == 3
    today = datetime.now(ZoneInfo("Europe/Zurich")).date().isoformat()
    tonight = await season(club, **{"from": today, "to": today})
    _id, organiser, confirm = await club_tournament(client, club)
    assert await table(club, tonight) == []
    assert (await client.post(confirm, headers=organiser)).status_code == 200
    assert [row[:3] for row in await table(club, tonight)] == [
        ("Ann", 1, "5.00"), ("Bea", 2, "3.00"), ("Cem", 3, "2.00"), ("Dan", 4, "1.00")]
