"""A club's seasons on SQLite and PostgreSQL: place points per finished match on the evening of
its ``played_at`` in the club's time zone, a club tournament through its points only, each
member's best evenings, shared ranks; corrections and late sheets count at once."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any, TypeAlias

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import AsyncTestClient

from api.matches import service as matches_service
from api.tournaments import service as tournaments_service
from tests.api.clubs import CLUBS, MATCHES, TOURNAMENTS, Club, bearer, new_club, tschau_round
from tests.conftest import problem

Client: TypeAlias = "AsyncTestClient[Any]"
NOVEMBER = {"name": "Herbst", "from": "2026-11-01", "to": "2026-11-30"}


def evening(day: str, hour: int = 20) -> str:
    """A moment of that November evening in Zurich (UTC+1)."""
    return f"2026-11-{day}T{hour:02d}:00:00+01:00"


async def sheet(club: Club, players: list[str], penalties: list[int], played_at: str,
                game: str = "tschau-sepp") -> dict[str, Any]:
    """A one-game Tschau Sepp match typed in with its evening, finished."""
    match = await club.start(players, played_at=played_at)
    recorded = await club.record(match, tschau_round(penalties))
    assert recorded.status_code == 201, recorded.text
    return match


async def season(club: Club, **fields: Any) -> int:
    made = await club.client.post(f"{club.url}/seasons", json={**NOVEMBER, **fields},
                                  headers=club.auth)
    assert made.status_code == 201, made.text
    season_id: int = made.json()["id"]
    return season_id


async def table(club: Club, season_id: int) -> list[tuple[str, int, str, int, list[str], str]]:
    """Each row as (name, rank, points, evenings, counted, best evening)."""
    rows = await club.get(f"/seasons/{season_id}/standings")
    return [(r["name"], r["rank"], r["points"], r["evenings"], r["counted"], r["best_evening"])
            for r in rows]


async def test_a_season_sums_each_members_best_evenings_and_drops_the_rest(
        client: Client) -> None:
    club = await new_club(client)
    await sheet(club, ["Ann", "Bea"], [0, 3], evening("05"))
    await sheet(club, ["Ann", "Bea", "Cem"], [0, 3, 6], evening("12"))
    await sheet(club, ["Bea", "Cem"], [0, 3], evening("12", 22))
    await sheet(club, ["Bea", "Ann"], [0, 3], evening("19"))
    await sheet(club, ["Cem", "Ann"], [0, 3], "2026-10-31T20:00:00+01:00")  # before the season
    best_two = await season(club, best=2)
    assert await table(club, best_two) == [
        ("Bea", 1, "2.50", 3, ["2026-11-12", "2026-11-19"], "1.50"),
        ("Ann", 2, "2.00", 3, ["2026-11-05", "2026-11-12"], "1.00"),
        ("Cem", 3, "0.00", 1, ["2026-11-12"], "0.00"),
    ]
    every = await season(club, name="Alles")
    assert [row[:3] for row in await table(club, every)] == [
        ("Bea", 1, "2.50"), ("Ann", 2, "2.00"), ("Cem", 3, "0.00")]
    line = (await club.get(f"/seasons/{best_two}/standings"))[1]["line"]
    assert line == [{"date": "2026-11-05", "points": "1.00", "counted": True},
                    {"date": "2026-11-12", "points": "1.00", "counted": True},
                    {"date": "2026-11-19", "points": "0.00", "counted": False}]
    listed = await club.get("/seasons")
    assert listed == [
        {"id": 1, "name": "Herbst", "from": "2026-11-01", "to": "2026-11-30",
         "game": None, "best": 2},
        {"id": 2, "name": "Alles", "from": "2026-11-01", "to": "2026-11-30",
         "game": None, "best": None}]


async def test_a_correction_and_a_late_sheet_move_the_season_at_once(client: Client) -> None:
    club = await new_club(client)
    first = await sheet(club, ["Ann", "Bea"], [0, 3], evening("05"))
    await sheet(club, ["Ann", "Bea"], [0, 3], evening("12"))
    season_id = await season(club, best=1)
    assert [row[:3] for row in await table(club, season_id)] == [
        ("Ann", 1, "1.00"), ("Bea", 2, "0.00")]
    corrected = await client.put(f"{MATCHES}/{first['id']}/rounds/1", json=tschau_round([3, 0]),
                                 headers=bearer(first["token"]))
    assert corrected.status_code == 200, corrected.text
    # Ann's best evening is still one win; Bea has one now, and one evening less won by Ann.
    assert await table(club, season_id) == [
        ("Ann", 1, "1.00", 2, ["2026-11-12"], "1.00"),
        ("Bea", 1, "1.00", 2, ["2026-11-05"], "1.00")]
    # Typed in on 4 December, played on the 5th of November after midnight UTC: 6th in Zurich.
    await sheet(club, ["Bea", "Cem"], [0, 3], "2026-11-05T23:30:00Z")
    await sheet(club, ["Bea", "Ann"], [0, 3], evening("05", 21))
    rows = {r["name"]: r for r in await club.get(f"/seasons/{season_id}/standings")}
    assert [(e["date"], e["points"]) for e in rows["Bea"]["line"]] == [
        ("2026-11-05", "2.00"), ("2026-11-06", "1.00"), ("2026-11-12", "0.00")]
    assert (rows["Bea"]["rank"], rows["Bea"]["points"], rows["Bea"]["counted"]) == (
        1, "2.00", ["2026-11-05"])
    assert rows["Cem"]["line"] == [{"date": "2026-11-06", "points": "0.00", "counted": True}]
    undone = await client.delete(f"{MATCHES}/{first['id']}/rounds/1",
                                 headers=bearer(first["token"]))
    assert undone.status_code in (200, 204), undone.text
    rows = {r["name"]: r for r in await club.get(f"/seasons/{season_id}/standings")}
    assert rows["Bea"]["line"][0] == {"date": "2026-11-05", "points": "1.00", "counted": True}


async def test_a_season_may_span_every_date_there_is(client: Client) -> None:
    club = await new_club(client)
    await sheet(club, ["Ann", "Bea"], [0, 3], evening("05"))
    always = await season(club, **{"from": "0001-01-01", "to": "9999-12-31"})
    assert [row[:3] for row in await table(club, always)] == [
        ("Ann", 1, "1.00"), ("Bea", 2, "0.00")]


async def test_a_season_of_one_game_counts_only_that_games_matches(client: Client) -> None:
    club = await new_club(client)
    await sheet(club, ["Ann", "Bea"], [0, 3], evening("05"))
    tschau = await season(club, game="tschau-sepp")
    other = await season(club, game="sea-change")
    assert [row[0] for row in await table(club, tschau)] == ["Ann", "Bea"]
    assert await table(club, other) == []
    assert (await club.get("/seasons"))[1]["game"] == "sea-change"


async def test_members_equal_in_points_best_evening_and_evenings_share_a_rank(
        client: Client) -> None:
    club = await new_club(client)
    await sheet(club, ["Ann", "Bea", "Cem"], [0, 3, 6], evening("05"))
    await sheet(club, ["Ann", "Bea", "Cem"], [3, 0, 6], evening("12"))
    await sheet(club, ["Cem", "Dan"], [0, 3], evening("12", 22))
    await sheet(club, ["Dan", "Cem"], [0, 3], evening("19"))
    assert [row[:4] for row in await table(club, await season(club))] == [
        ("Ann", 1, "1.50", 2), ("Bea", 1, "1.50", 2), ("Cem", 3, "1.00", 3),
        ("Dan", 4, "1.00", 2)]


async def club_tournament(client: Client, club: Club, before_table: Callable[[], None] = (
        lambda: None)) -> tuple[str, dict[str, str], str]:
    """A one-round club tournament of four (5, 3, 2, 1 points) whose only table Ann won, then
    Bea, Cem, Dan (``before_table`` called before its round is entered): its id, the
    organiser's token and the table's confirmation path, not yet confirmed."""
    body = {"name": "Clubmeisterschaft", "game": "tschau-sepp", "options": {"games": 1},
            "rounds": 1, "table_size": 4, "seating": "random", "seed": 3, "club": club.id,
            "points": {"per_place": {"4": [5, 3, 2, 1]}}}
    made = await client.post(TOURNAMENTS, json=body, headers=club.auth)
    assert made.status_code == 201, made.text
    tournament_id, organiser = made.json()["id"], bearer(made.json()["token"])
    for name in ["Ann", "Bea", "Cem", "Dan"]:
        added = await client.post(f"{TOURNAMENTS}/{tournament_id}/players", json={"name": name},
                                  headers=organiser)
        assert added.status_code == 201, added.text
    (seated,) = (await client.post(f"{TOURNAMENTS}/{tournament_id}/rounds",
                                   headers=organiser)).json()["tables"]
    names = [p["name"] for p in (await client.get(
        f"{TOURNAMENTS}/{tournament_id}")).json()["players"]]
    penalties = [{"Ann": 0, "Bea": 3, "Cem": 4, "Dan": 6}[names[player - 1]]
                 for player in seated["players"]]
    before_table()
    entered = await client.post(f"{MATCHES}/{seated['match_id']}/rounds",
                                json=tschau_round(penalties),
                                headers=bearer(seated["table_token"]))
    assert entered.status_code == 201, entered.text
    return tournament_id, organiser, f"{TOURNAMENTS}/{tournament_id}/rounds/1/tables/1/confirm"


async def test_a_club_tournament_counts_through_its_points_only(client: Client) -> None:
    club = await new_club(client)
    _id, organiser, confirm = await club_tournament(client, club)
    today = await club.client.get(f"{club.url}/history", headers=club.auth)
    day = today.json()["entries"][0]["evening"]
    season_id = await season(club, **{"from": day, "to": day})
    assert await table(club, season_id) == []  # a table finished, the tournament not yet
    confirmed = await client.post(confirm, headers=organiser)
    assert confirmed.status_code == 200, confirmed.text
    assert [row[:4] for row in await table(club, season_id)] == [
        ("Ann", 1, "5.00", 1), ("Bea", 2, "3.00", 1), ("Cem", 3, "2.00", 1),
        ("Dan", 4, "1.00", 1)]


async def test_a_tournament_begun_one_evening_and_finished_after_midnight_is_the_next(
        client: Client, monkeypatch: pytest.MonkeyPatch) -> None:
    """Created at 22:30 in Zurich on the 20th, its last table finished at 00:20 on the 21st:
    the club's history, its dates and the seasons put it on the 21st, as the contract says
    (by when it finished), not on the evening it was created."""
    clock = [datetime(2026, 11, 20, 21, 30, tzinfo=UTC)]  # 22:30 in Zurich
    monkeypatch.setattr(matches_service, "now", lambda: clock[0])
    monkeypatch.setattr(tournaments_service, "now", lambda: clock[0])
    club = await new_club(client)
    match = await sheet(club, ["Eva", "Fay"], [0, 3], evening("20", 21))

    def after_midnight() -> None:
        clock[0] = datetime(2026, 11, 20, 23, 20, tzinfo=UTC)  # 00:20 on the 21st in Zurich

    tournament_id, organiser, confirm = await club_tournament(client, club, after_midnight)
    assert (await client.post(confirm, headers=organiser)).status_code == 200
    entries = {e["id"]: e for e in (await club.get("/history"))["entries"]}
    assert entries[match["id"]]["evening"] == "2026-11-20"
    assert entries[tournament_id]["evening"] == "2026-11-21"
    assert entries[tournament_id]["played_at"] == "2026-11-20T23:20:00Z"
    assert [e["id"] for e in (await club.get("/history", since="2026-11-20T23:00:00Z"))[
        "entries"]] == [tournament_id]
    the_20th = await season(club, **{"from": "2026-11-20", "to": "2026-11-20"})
    the_21st = await season(club, **{"from": "2026-11-21", "to": "2026-11-21"})
    assert [row[0] for row in await table(club, the_20th)] == ["Eva", "Fay"]
    assert [row[:3] for row in await table(club, the_21st)] == [
        ("Ann", 1, "5.00"), ("Bea", 2, "3.00"), ("Cem", 3, "2.00"), ("Dan", 4, "1.00")]


async def test_the_view_token_reads_seasons_and_cannot_make_one(client: Client) -> None:
    club = await new_club(client)
    season_id = await season(club)
    view = bearer(club.view_token)
    listed = await client.get(f"{club.url}/seasons", headers=view)
    assert (listed.status_code, listed.json()[0]["id"]) == (200, season_id)
    read = await client.get(f"{club.url}/seasons/{season_id}/standings", headers=view)
    assert (read.status_code, read.json()) == (200, [])
    problem(await client.post(f"{club.url}/seasons", json=NOVEMBER, headers=view), 403)
    problem(await client.post(f"{club.url}/seasons", json=NOVEMBER), 401)
    problem(await client.get(f"{club.url}/seasons"), 401)
    problem(await client.get(f"{club.url}/seasons/{season_id}/standings"), 401)
    assert len(await club.get("/seasons")) == 1


@pytest.mark.parametrize(("fields", "status", "path"), [
    ({"from": "2026-11-30", "to": "2026-11-01"}, 422, "to"),
    ({"best": 0}, 400, "best"),
    ({"game": "schach"}, 422, "game"),
    ({"name": "   "}, 422, "name"),
    ({"name": "x" * 81}, 400, "name"),
    ({"name": "Herbst\x07"}, 422, "name"),
    ({"from": "2026-02-30"}, 400, "from"),
])
async def test_a_season_that_cannot_be_is_refused_at_its_field_in_the_request_language(
        client: Client, fields: dict[str, Any], status: int, path: str) -> None:
    club = await new_club(client)
    body = problem(await client.post(f"{club.url}/seasons", json={**NOVEMBER, **fields},
                                     headers={**club.auth, "Accept-Language": "de"}), status)
    assert [error["path"] for error in body["errors"]] == [path]
    assert await club.get("/seasons") == []


async def test_a_season_ending_before_it_begins_is_said_in_the_request_language(
        client: Client) -> None:
    club = await new_club(client)
    said = {}
    for language in ["de", "fr", "it", "en"]:
        body = problem(await client.post(
            f"{club.url}/seasons", json={**NOVEMBER, "from": "2026-12-01"},
            headers={**club.auth, "Accept-Language": language}), 422)
        said[language] = body["errors"][0]["message"]
    assert said == {
        "de": "Der letzte Abend (2026-11-30) liegt vor dem ersten (2026-12-01).",
        "fr": "La dernière soirée (2026-11-30) est avant la première (2026-12-01).",
        "it": "L’ultima serata (2026-11-30) precede la prima (2026-12-01).",
        "en": "The last evening (2026-11-30) is before the first (2026-12-01).",
    }


async def test_an_unknown_season_is_404(client: Client) -> None:
    club = await new_club(client)
    problem(await client.get(f"{club.url}/seasons/7/standings", headers=club.auth), 404)


NAMES = ("Ann", "Bea", "Cem", "Dan")
SHEETS = st.lists(st.tuples(
    st.integers(1, 6),  # the evening: 1 to 6 November
    st.permutations(NAMES).flatmap(lambda order: st.tuples(
        st.just(order), st.integers(2, 4))),  # who sits, how many
    st.lists(st.sampled_from([3, 4, 6]), min_size=4, max_size=4),  # the others: equal ones tie
), min_size=1, max_size=6)


def counted_by_hand(sheets: list[Any], best: int | None) -> list[tuple[str, int, str, int]]:
    """Each member's (name, rank, points, evenings), counted without the scoring module: a
    match gives (players beaten + ½ × players tied) / (players − 1), an evening sums them, the
    best ``best`` evenings count, then best evening and evenings played break ties."""
    nights: dict[str, dict[int, Fraction]] = {}
    for day, (order, size), penalties in sheets:
        players, scores = order[:size], [0, *penalties[1:size]]  # the first went out
        for seat, name in enumerate(players):
            beaten = sum(1 for other in scores if other > scores[seat])
            tied = sum(1 for other in scores if other == scores[seat]) - 1
            points = Fraction(2 * beaten + tied, 2 * (size - 1))
            nights.setdefault(name, {}).setdefault(day, Fraction(0))
            nights[name][day] += points
    keys = {}
    for name, by_day in nights.items():
        values = sorted(by_day.values(), reverse=True)
        kept = values if best is None else values[:best]
        keys[name] = (sum(kept, Fraction(0)), values[0], len(values))
    return sorted((name, 1 + sum(1 for other in keys.values() if other > key),
                   two_decimals(key[0]), key[2]) for name, key in keys.items())


def two_decimals(value: Fraction) -> str:
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return str(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


@settings(max_examples=15, deadline=None, database=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(sheets=SHEETS, best=st.none() | st.integers(1, 3))
async def test_the_standings_equal_a_count_by_hand_over_random_evenings(
        client: Client, sheets: list[Any], best: int | None) -> None:
    club = await new_club(client)
    for day, (order, size), penalties in sheets:
        await sheet(club, list(order[:size]), [0, *penalties[1:size]], evening(f"{day:02d}"))
    rows = await club.get(f"/seasons/{await season(club, best=best)}/standings")
    assert sorted((r["name"], r["rank"], r["points"], r["evenings"]) for r in rows) == \
        counted_by_hand(sheets, best)


async def test_a_clubs_seasons_go_with_its_backup_and_count_alike_in_the_copy(
        client: Client) -> None:
    club = await new_club(client)
    await sheet(club, ["Ann", "Bea"], [0, 3], evening("05"))
    await sheet(club, ["Bea", "Ann"], [0, 4], evening("12"))
    await season(club, best=1)
    await season(club, name="Tschau Sepp", game="tschau-sepp")
    saved = (await client.get(f"{club.url}/backup", headers=club.auth)).json()
    assert [(held["name"], held["best"]) for held in saved["seasons"]] == [
        ("Herbst", 1), ("Tschau Sepp", None)]
    imported = await client.post(f"{CLUBS}/import", json=saved)
    assert imported.status_code == 201, imported.text
    copy = Club(client, imported.json()["id"], imported.json()["token"],
                imported.json()["view_token"])
    assert await copy.get("/seasons") == await club.get("/seasons")
    for season_id in (1, 2):
        assert await table(copy, season_id) == await table(club, season_id)
    exported = await club.get("/export", format="json")
    assert exported["seasons"] == await club.get("/seasons")
    del saved["seasons"]  # a backup made before seasons
    older = await client.post(f"{CLUBS}/import", json=saved)
    assert older.status_code == 201, older.text


async def test_a_backup_with_a_season_that_cannot_be_is_refused_at_its_path(
        client: Client) -> None:
    club = await new_club(client)
    saved = (await client.get(f"{club.url}/backup", headers=club.auth)).json()
    saved["seasons"] = [{**NOVEMBER}, {**NOVEMBER, "from": "2026-12-01", "game": "schach"}]
    body = problem(await client.post(f"{CLUBS}/import", json=saved), 422)
    assert [error["path"] for error in body["errors"]] == ["seasons[1].game", "seasons[1].to"]
