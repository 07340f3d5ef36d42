"""The paper pages of a round over HTTP, on SQLite and PostgreSQL: who may read them, what a round
not yet started or a bad query answers, the language, and the game's sheet in scoring. How they
print is tested with Chromium in ``tests/e2e/test_paper.py``."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import AsyncTestClient

from api.tournaments.paper import sort_key
from scoring import registry
from tests.api.test_tournaments import BASE, NAMES, bearer, new_tournament, register, start
from tests.conftest import problem

Client = AsyncTestClient[Litestar]


async def test_a_private_tournaments_paper_needs_its_token_and_a_round_not_started_is_404(
    client: Client,
) -> None:
    tournament = await new_tournament(client, private=True)
    await register(client, tournament, NAMES[:8])
    url = f"{BASE}/{tournament['id']}/rounds/1/paper"
    gone = problem(await client.get(url, headers=bearer(tournament["token"]),
                                    params={"lang": "de"}), 404)
    assert gone["detail"] == "Runde 1 hat noch nicht begonnen."
    await start(client, tournament)
    problem(await client.get(url), 401)
    problem(await client.get(url, headers=bearer("nope")), 403)
    for token in (tournament["token"], tournament["view_token"]):
        for sheet in ("scores", "seats"):
            page = await client.get(url, params={"sheet": sheet}, headers=bearer(token))
            assert page.status_code == 200, page.text
            assert page.headers["content-type"] == "text/html; charset=utf-8"
            assert all(name in page.text for name in NAMES[:8])
    bad = problem(await client.get(url, params={"sheet": "menu"},
                                   headers=bearer(tournament["token"])), 400)
    assert [error["path"] for error in bad["errors"]] == ["sheet"]


async def test_the_pages_speak_the_readers_language(client: Client) -> None:
    tournament = await new_tournament(client)
    await register(client, tournament, NAMES[:8])
    await start(client, tournament)
    url = f"{BASE}/{tournament['id']}/rounds/1/paper"
    said = {"de": ("Runde 1 · Tisch 2", "Strafpunkte", "Wer sitzt wo · Runde 1"),
            "fr": ("Ronde 1 · table 2", "points de pénalité", "Qui est assis où · ronde 1"),
            "it": ("Turno 1 · tavolo 2", "punti di penalità", "Chi siede dove · turno 1"),
            "en": ("Round 1 · table 2", "penalty points", "Who sits where · round 1")}
    for lang, (table, column, seats) in said.items():
        scores = (await client.get(url, params={"lang": lang})).text
        assert f'<html lang="{lang}">' in scores
        assert table in scores
        assert column.lower() in scores.lower()
        assert seats in (await client.get(url, params={"lang": lang, "sheet": "seats"})).text


def test_each_games_sheet_lasts_as_long_as_its_longest_match() -> None:
    seals, sea, sepp = (registry.game_by_id(g) for g in ("seven-seals", "sea-change",
                                                         "tschau-sepp"))
    assert seals is not None
    assert sea is not None
    assert sepp is not None
    assert seals.paper(seals.read_options({}, 3), 3).rows == 6
    assert seals.paper(seals.read_options({}, 5), 5).columns == ("seals", "left", "black",
                                                                 "penalty")
    assert sea.paper(sea.read_options({}, 4), 4).rows == 9  # 4 sides, 2 VP each, then one
    teams = sea.paper(sea.read_options({"teams": [[0, 2], [1, 3]]}, 4), 4)
    assert teams.sides == ((0, 2), (1, 3))
    assert teams.rows == 2 * 2 + 1
    assert sepp.paper(sepp.read_options({"games": 7}, 4), 4).rows == 7
    by_limit = sepp.paper(sepp.read_options({"limit": 200}, 4), 4)
    assert by_limit.more
    assert by_limit.rows == 20


def test_names_sort_as_a_wall_list_does_accents_and_capitals_aside() -> None:
    assert sorted(["Zoë", "Émile", "anna", "Eva", "Bruno"], key=sort_key) == [
        "anna", "Bruno", "Émile", "Eva", "Zoë"]
