"""A club's reads: kept per club version, and a big club's answered by the helper process just
as the loop answers them."""

from __future__ import annotations

from typing import Any

import pytest
from litestar.testing import AsyncTestClient

from api.clubs import reads
from api.clubs.reads import ClubAnswers
from tests.api.clubs import Club, new_club
from tests.api.test_club_exports import eventful_club
from tests.api.test_club_import import without_export_times

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
