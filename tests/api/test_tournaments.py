"""The tournament endpoints of the contract, every success and error path, on SQLite and
PostgreSQL: creation, players, rounds, confirmation at the tables, standings, exports, backups."""

from __future__ import annotations

import asyncio
import csv
import io
import shutil
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from typing import Any

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.db.database import Database
from api.server import cli
from api.server.settings import Settings
from api.tournaments.access import events_channel
from scoring import registry
from scoring.match import fold_match, set_up
from scoring.tournament import TableResult, TournamentScoring, tournament_standings
from tests.conftest import problem

Client = AsyncTestClient[Litestar]
BASE = "/api/v1/tournaments"
NAMES = ["Ann", "Bea", "Cem", "Dan", "Eva", "Fay", "Gus", "Hal", "Ida", "Jon", "Kai", "Lea"]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def ok(response: Any, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


async def new_tournament(client: Client, **settings: Any) -> dict[str, Any]:
    body = {"name": "Club night", "game": "tschau-sepp", "options": {"games": 1}, "rounds": 3,
            "table_size": 4, "seating": "mix", "seed": 1, **settings}
    return ok(await client.post(BASE, json=body), 201)  # type: ignore[no-any-return]


async def register(client: Client, tournament: dict[str, Any], names: Sequence[str],
                   clubs: Sequence[str | None] | None = None) -> list[int]:
    ids = []
    for i, name in enumerate(names):
        club = clubs[i] if clubs else None
        player = ok(await client.post(f"{BASE}/{tournament['id']}/players",
                                      json={"name": name, "club": club},
                                      headers=bearer(tournament["token"])), 201)
        ids.append(player["id"])
    return ids


async def start(client: Client, tournament: dict[str, Any]) -> dict[str, Any]:
    return ok(await client.post(f"{BASE}/{tournament['id']}/rounds",  # type: ignore[no-any-return]
                                headers=bearer(tournament["token"])), 201)


def result(size: int, winner: int, shift: int = 0) -> dict[str, Any]:
    """A Tschau Sepp game: ``winner`` goes out, the others keep distinct penalty points."""
    return {"winner": winner,
            "penalty": [0 if seat == winner else 3 + 3 * ((seat + shift) % size)
                        for seat in range(size)]}


async def enter(client: Client, table: dict[str, Any], entry: dict[str, Any],
                device: str | None = "phone-1") -> Any:
    headers = bearer(table["table_token"])
    if device:
        headers["X-Device-Id"] = device
    return await client.post(f"/api/v1/matches/{table['match_id']}/rounds", json=entry,
                             headers=headers)


async def confirm(client: Client, tournament: dict[str, Any], number: int, table: int,
                  token: str, device: str | None = "phone-2") -> Any:
    headers = bearer(token)
    if device:
        headers["X-Device-Id"] = device
    return await client.post(
        f"{BASE}/{tournament['id']}/rounds/{number}/tables/{table}/confirm", headers=headers)


async def play_round(client: Client, tournament: dict[str, Any], shift: int = 0) -> dict[str, Any]:
    """Start a round, enter every table's result from one phone, confirm from another."""
    started = await start(client, tournament)
    for table in started["tables"]:
        size = len(table["players"])
        ok(await enter(client, table, result(size, (table["table"] + shift) % size, shift),
                       f"enter-{table['table']}"), 201)
        ok(await confirm(client, tournament, started["number"], table["table"],
                         table["table_token"], f"confirm-{table['table']}"))
    return started


async def read(client: Client, tournament: dict[str, Any], path: str = "") -> Any:
    return ok(await client.get(f"{BASE}/{tournament['id']}{path}",
                               headers=bearer(tournament["token"])))


async def fresh_standings(client: Client, tournament: dict[str, Any]) -> list[tuple[int, float]]:
    """(player, points) by rank, computed from the matches alone with the scoring package."""
    game = registry.game_by_id(tournament["game"])
    assert game is not None
    view = await read(client, tournament)
    tables = []
    for played in view["round_list"]:
        for table in played["tables"]:
            match = ok(await client.get(f"/api/v1/matches/{table['match_id']}"))
            setup = set_up(game, [p["name"] for p in match["players"]], match["options"])
            folded = fold_match(game, setup, [r["entry"] for r in match["rounds"]])
            places = [0] * len(table["players"])
            for line in match["standings"]:
                places[line["seat"]] = line["rank"]
            shares = game.score_share(folded.rounds[-1].totals, setup)
            tables.append(TableResult(tuple(table["players"]), tuple(places), shares,
                                      table["state"] == "confirmed"))
    rows = tournament_standings(tables, TournamentScoring(), [p["id"] for p in view["players"]])
    return [(int(r.player), r.points) for r in rows]


# --- creation -------------------------------------------------------------------------------


async def test_a_new_tournament_has_an_organiser_token_a_view_token_and_a_location(
    client: Client,
) -> None:
    response = await client.post(BASE, json={"name": " Club night ", "game": "tschau-sepp",
                                             "rounds": 4, "table_size": 4})
    body = ok(response, 201)
    assert response.headers["location"] == f"{BASE}/{body['id']}"
    assert body["token"] != body["view_token"]
    assert body["name"] == "Club night"
    assert body["status"] == "registering"
    assert body["seating"] == "mix"
    assert body["points"] == "share"
    assert body["tiebreaks"] == ["points", "score_share", "opponents", "table_wins"]
    assert body["current_round"] == 0
    assert body["players"] == []
    assert body["round_list"] == []
    public = ok(await client.get(f"{BASE}/{body['id']}"))
    assert "token" not in public
    assert "view_token" not in public
    assert public["seed"] == body["seed"]


async def test_creating_names_every_bad_setting(client: Client) -> None:
    body = problem(await client.post(BASE, json={
        "name": " ", "game": "seven-seals", "rounds": 3, "table_size": 7,
        "tiebreaks": ["points", "points"]}), 422)
    assert {"name", "table_size", "tiebreaks[1]"} <= {e["path"] for e in body["errors"]}
    body = problem(await client.post(BASE, json={
        "name": "x", "game": "tschau-sepp", "rounds": 3, "table_size": 4,
        "options": {"games": 0}, "points": {"per_place": {"4": [4, 2, 1], "x": [1]}}}), 422)
    assert {"options.games", "points.per_place.x"} <= {e["path"] for e in body["errors"]}
    body = problem(await client.post(BASE, json={
        "name": "x", "game": "tschau-sepp", "rounds": 3, "table_size": 4,
        "points": {"per_place": {"4": [4, 2, 1]}}}), 422)
    assert [e["path"] for e in body["errors"]] == ["points.per_place.4"]
    body = problem(await client.post(BASE, json={
        "name": "x", "game": "tschau-sepp", "rounds": 3, "table_size": 4,
        "points": {"per_place": {"3": [4, 2, 0]}}}), 422)
    assert body["errors"][0]["code"] == "missing_table_size"
    body = problem(await client.post(BASE, json={
        "name": "x", "game": "skat", "rounds": 3, "table_size": 4}), 422)
    assert body["errors"][0]["path"] == "game"


async def test_malformed_settings_are_400_with_the_field_path(client: Client) -> None:
    for bad, path in (({"rounds": 0}, "rounds"), ({"seating": "chaos"}, "seating"),
                      ({"tiebreaks": ["luck"]}, "tiebreaks[0]"), ({"surprise": 1}, "")):
        body = problem(await client.post(BASE, json={
            "name": "x", "game": "tschau-sepp", "rounds": 3, "table_size": 4, **bad}), 400)
        if path:
            assert body["errors"][0]["path"] == path
    problem(await client.post(BASE, content=b"{nope", headers={
        "content-type": "application/json"}), 400)


async def test_unknown_tournaments_players_rounds_and_tables_are_404(client: Client) -> None:
    tournament = await new_tournament(client)
    auth = bearer(tournament["token"])
    tid = tournament["id"]
    for path in ("/nosuch", "/nosuch/standings", "/nosuch/players/1", "/nosuch/export",
                 "/nosuch/events"):
        problem(await client.get(f"{BASE}{path}"), 404)
    problem(await client.get(f"{BASE}/{tid}/players/9"), 404)
    problem(await client.patch(f"{BASE}/{tid}/players/9", json={"active": False}, headers=auth),
            404)
    problem(await client.get(f"{BASE}/{tid}/rounds/1/tokens", headers=auth), 404)
    problem(await confirm(client, tournament, 1, 1, tournament["token"]), 404)
    problem(await client.post(f"{BASE}/nosuch/rounds", headers=auth), 404)


# --- tokens ---------------------------------------------------------------------------------


@pytest.fixture
async def unlimited(settings: Settings) -> AsyncIterator[Client]:
    """A client whose refused tokens are not rate-limited: the next test refuses many."""
    async with AsyncTestClient(app=create_app(replace(settings, auth_failures_per_minute=0))) \
            as test_client:
        yield test_client


async def test_organiser_actions_refuse_missing_wrong_view_and_table_tokens(
    unlimited: Client,
) -> None:
    client = unlimited
    tournament = await new_tournament(client, rounds=1)
    await register(client, tournament, NAMES[:4])
    started = await start(client, tournament)
    table_token = started["tables"][0]["table_token"]
    tid = tournament["id"]
    writes = [
        ("post", f"{BASE}/{tid}/players", {"name": "Zoe"}),
        ("patch", f"{BASE}/{tid}/players/1", {"active": False}),
        ("post", f"{BASE}/{tid}/rounds", None),
        ("get", f"{BASE}/{tid}/rounds/1/tokens", None),
        ("get", f"{BASE}/{tid}/backup", None),
    ]
    for method, url, body in writes:
        kwargs: dict[str, Any] = {"json": body} if body is not None else {}
        problem(await getattr(client, method)(url, **kwargs), 401)
        for token in ("wrong", tournament["view_token"], table_token):
            problem(await getattr(client, method)(url, headers=bearer(token), **kwargs), 403)
    problem(await confirm(client, tournament, 1, 1, "wrong"), 403)
    problem(await client.post(f"{BASE}/{tid}/rounds/1/tables/1/confirm"), 401)


async def test_a_private_tournament_is_read_only_with_the_organiser_or_view_token(
    client: Client,
) -> None:
    tournament = await new_tournament(client, private=True)
    await register(client, tournament, NAMES[:4])
    tid = tournament["id"]
    for path in ("", "/standings", "/players/1", "/export", "/events"):
        problem(await client.get(f"{BASE}/{tid}{path}"), 401)
        problem(await client.get(f"{BASE}/{tid}{path}", headers=bearer("nope")), 403)
    for token in (tournament["token"], tournament["view_token"]):
        assert ok(await client.get(f"{BASE}/{tid}", headers=bearer(token)))["private"] is True
        assert (await client.get(f"{BASE}/{tid}/standings", headers=bearer(token))).is_success


async def test_table_tokens_come_again_for_table_cards_and_write_only_their_table(
    client: Client,
) -> None:
    tournament = await new_tournament(client)
    await register(client, tournament, NAMES[:8])
    started = await start(client, tournament)
    again = await read(client, tournament, "/rounds/1/tokens")
    assert again["tables"] == started["tables"]
    first, second = started["tables"]
    response = await client.post(f"/api/v1/matches/{second['match_id']}/rounds",
                                 json=result(4, 0), headers=bearer(first["table_token"]))
    problem(response, 403)
    view = await read(client, tournament)
    assert "table_token" not in msgspec.json.encode(view).decode()


# --- players --------------------------------------------------------------------------------


async def test_players_register_change_drop_out_and_come_back(client: Client) -> None:
    tournament = await new_tournament(client)
    auth = bearer(tournament["token"])
    url = f"{BASE}/{tournament['id']}/players"
    ann = ok(await client.post(url, json={"name": " Ann ", "club": "Bern"}, headers=auth), 201)
    assert ann == {"id": 1, "name": "Ann", "club": "Bern", "active": True, "paid": False}
    bea = ok(await client.post(url, json={"name": "Bea"}, headers=auth), 201)
    assert bea["id"] == 2
    assert bea["club"] is None
    body = problem(await client.post(url, json={"name": "ANN"}, headers=auth), 422)
    assert body["errors"][0]["code"] == "duplicate_name"
    problem(await client.post(url, json={"name": "  "}, headers=auth), 422)
    problem(await client.post(url, json={"name": "x" * 41}, headers=auth), 400)
    problem(await client.post(url, json={"name": "Cy", "team": 1}, headers=auth), 400)
    changed = ok(await client.patch(f"{url}/1", json={"active": False, "club": None},
                                    headers=auth))
    assert changed == {"id": 1, "name": "Ann", "club": None, "active": False, "paid": False}
    problem(await client.patch(f"{url}/2", json={"name": "ann"}, headers=auth), 422)
    back = ok(await client.patch(f"{url}/1", json={"active": True, "name": "Anna"},
                                 headers=auth))
    assert back == {"id": 1, "name": "Anna", "club": None, "active": True, "paid": False}
    assert [p["name"] for p in (await read(client, tournament))["players"]] == ["Anna", "Bea"]


async def test_late_entry_drop_out_and_come_back_take_effect_from_the_next_round(
    client: Client,
) -> None:
    tournament = await new_tournament(client, rounds=3, table_size=3)
    ids = await register(client, tournament, NAMES[:6])
    auth = bearer(tournament["token"])
    url = f"{BASE}/{tournament['id']}/players"
    first = await start(client, tournament)
    late = (await register(client, tournament, ["Zoe"]))[0]
    ok(await client.patch(f"{url}/{ids[0]}", json={"active": False}, headers=auth))
    seated = sorted(p for t in first["tables"] for p in t["players"])
    assert seated == ids  # the round in play keeps its players
    for table in first["tables"]:
        ok(await enter(client, table, result(3, 0)), 201)
        ok(await confirm(client, tournament, 1, table["table"], tournament["token"], None))
    second = await play_round(client, tournament)
    seated = sorted(p for t in second["tables"] for p in t["players"])
    assert seated == sorted([*ids[1:], late])
    ok(await client.patch(f"{url}/{ids[0]}", json={"active": True}, headers=auth))
    third = await start(client, tournament)
    assert sorted(p for t in third["tables"] for p in t["players"]) == sorted([*ids, late])
    standings = await read(client, tournament, "/standings")
    tables = {row["player"]: row["tables"] for row in standings["rows"]}
    assert tables[ids[0]] == 1
    assert tables[late] == 1
    assert tables[ids[1]] == 2


async def test_a_drop_out_and_a_late_entry_keep_a_kirkman_plan_free_of_repeats(
    client: Client,
) -> None:
    # 15 players at tables of 3 for 7 rounds: Kirkman's schoolgirls, everyone meets everyone
    # once. After round 2 one player drops out and a late entry takes the free seat: the plan
    # for the rounds left starts from the old one, so still nobody meets anyone twice.
    names = [f"Player {i}" for i in range(15)]
    tournament = await new_tournament(client, rounds=7, table_size=3)
    ids = await register(client, tournament, names)
    started = [await play_round(client, tournament) for _ in range(2)]
    assert started[0]["report"]["plan"] == {"first_round": 1, "rounds": 7, "repeats": 0,
                                            "lower_bound": 0}
    ok(await client.patch(f"{BASE}/{tournament['id']}/players/{ids[4]}", json={"active": False},
                          headers=bearer(tournament["token"])))
    late = (await register(client, tournament, ["Zoe"]))[0]
    for _ in range(5):
        started.append(await play_round(client, tournament))
    assert started[2]["report"]["plan"] == {"first_round": 3, "rounds": 5, "repeats": 0,
                                            "lower_bound": 0}
    assert started[6]["report"]["plan"]["first_round"] == 3
    met = [frozenset((a, b)) for s in started for t in s["tables"]
           for i, a in enumerate(t["players"]) for b in t["players"][i + 1:]]
    assert len(met) == len(set(met))
    assert late in {p for t in started[6]["tables"] for p in t["players"]}
    view = await read(client, tournament)
    assert all(r["report"]["repeats"] == [] for r in view["round_list"])


# --- rounds ---------------------------------------------------------------------------------


async def test_a_round_seats_every_active_player_once_and_creates_a_match_per_table(
    client: Client,
) -> None:
    tournament = await new_tournament(client)
    ids = await register(client, tournament, NAMES[:10])
    started = await start(client, tournament)
    assert started["number"] == 1
    assert sorted(len(t["players"]) for t in started["tables"]) == [3, 3, 4]
    assert sorted(p for t in started["tables"] for p in t["players"]) == ids
    assert set(started["report"]) >= {"repeats", "kept_apart"}
    names = dict(zip(ids, NAMES, strict=False))
    for table in started["tables"]:
        match = ok(await client.get(f"/api/v1/matches/{table['match_id']}"))
        assert [p["name"] for p in match["players"]] == [names[p] for p in table["players"]]
        assert match["options"]["games"] == 1
    view = await read(client, tournament)
    assert view["status"] == "running"
    assert view["current_round"] == 1
    assert [t["state"] for t in view["round_list"][0]["tables"]] == ["open"] * 3
    assert view["round_list"][0]["status"] == "playing"


async def test_a_round_cannot_start_before_the_last_is_complete_nor_after_the_last(
    client: Client,
) -> None:
    tournament = await new_tournament(client, rounds=1)
    await register(client, tournament, NAMES[:4])
    started = await start(client, tournament)
    url = f"{BASE}/{tournament['id']}/rounds"
    problem(await client.post(url, headers=bearer(tournament["token"])), 409)
    table = started["tables"][0]
    ok(await enter(client, table, result(4, 0)), 201)
    ok(await confirm(client, tournament, 1, 1, table["table_token"]))
    assert (await read(client, tournament))["status"] == "finished"
    problem(await client.post(url, headers=bearer(tournament["token"])), 409)
    problem(await client.post(f"{url[:-7]}/players", json={"name": "Late"},
                              headers=bearer(tournament["token"])), 409)


async def test_an_impossible_seating_is_422_and_stores_nothing(client: Client) -> None:
    tournament = await new_tournament(client, game="seven-seals", options={}, table_size=3)
    await register(client, tournament, NAMES[:2])
    body = problem(await client.post(f"{BASE}/{tournament['id']}/rounds",
                                     headers=bearer(tournament["token"])), 422)
    assert body["errors"][0]["code"] == "too_few_players"
    assert "2 players" in body["errors"][0]["message"]
    view = await read(client, tournament)
    assert view["current_round"] == 0
    assert view["round_list"] == []
    per_place = await new_tournament(client, points={"per_place": {"4": [4, 2, 1, 0]}})
    await register(client, per_place, NAMES[:7])
    body = problem(await client.post(f"{BASE}/{per_place['id']}/rounds",
                                     headers=bearer(per_place["token"])), 422)
    assert body["errors"][0] == {"path": "points.per_place", "code": "missing_table_size",
                                 "message": "There are no points per place for a table of 3.",
                                 "params": {"size": 3}}
    assert (await read(client, per_place))["round_list"] == []


async def test_the_round_report_names_club_mates_kept_apart(client: Client) -> None:
    tournament = await new_tournament(client)
    clubs = ["Bern", "Bern", "Thun", "Thun", None, None, None, None]
    await register(client, tournament, NAMES[:8], clubs)
    started = await start(client, tournament)
    for table in started["tables"]:
        assert len({clubs[p - 1] for p in table["players"]} - {None}) == \
            len([p for p in table["players"] if clubs[p - 1]])
    assert sorted(sorted(group) for group in started["report"]["kept_apart"]) == [[1, 2], [3, 4]]


# --- confirmation ---------------------------------------------------------------------------


async def test_confirming_needs_a_finished_match_and_another_phone(client: Client) -> None:
    tournament = await new_tournament(client, options={"games": 2})
    await register(client, tournament, NAMES[:4])
    started = await start(client, tournament)
    table = started["tables"][0]
    token = table["table_token"]
    problem(await confirm(client, tournament, 1, 1, token), 409)
    ok(await enter(client, table, result(4, 0), "phone-1"), 201)
    problem(await confirm(client, tournament, 1, 1, tournament["token"]), 409)
    assert (await read(client, tournament))["round_list"][0]["tables"][0]["state"] == "playing"
    ok(await enter(client, table, result(4, 1), "phone-1"), 201)
    view = await read(client, tournament)
    assert view["round_list"][0]["tables"][0]["state"] == "entered"
    assert view["round_list"][0]["tables"][0]["entered_by_device"] == "phone-1"
    body = problem(await confirm(client, tournament, 1, 1, token, "phone-1"), 409)
    assert "another phone" in body["detail"].lower()
    problem(await confirm(client, tournament, 1, 1, token, None), 409)
    confirmed = ok(await confirm(client, tournament, 1, 1, token, "phone-2"))
    assert confirmed["state"] == "confirmed"
    assert confirmed["confirmed_by"] == "table"
    assert ok(await confirm(client, tournament, 1, 1, token, "phone-3")) == confirmed


async def open_phone(client: Client, tournament: dict[str, Any], number: int, table: int,
                     token: str) -> Any:
    return await client.post(f"{BASE}/{tournament['id']}/rounds/{number}/tables/{table}/phones",
                             headers=bearer(token))


def phone(key: str, device: str) -> dict[str, str]:
    """The headers of a phone that opened a table's link: its table phone key and device id."""
    return {"X-Table-Phone": key, "X-Device-Id": device}


async def test_a_table_s_phone_opens_while_a_write_holds_the_writers_queue(
    client: Client,
) -> None:
    """Opening a phone stores nothing, so it waits for no writer (on SQLite this process's
    writers queue for the write lock): at a round's start every table's phones open their
    links at once, beside the round's first results."""
    tournament = await new_tournament(client, options={"games": 1})
    await register(client, tournament, NAMES[:4])
    table = (await start(client, tournament))["tables"][0]
    database: Database = client.app.state.database
    async with database.queue_for_writing():
        opened = await asyncio.wait_for(
            open_phone(client, tournament, 1, 1, table["table_token"]), 5)
    assert ok(opened, 201)["key"]


async def test_a_phone_that_entered_a_result_cannot_confirm_it_by_naming_another_device(
    client: Client,
) -> None:
    tournament = await new_tournament(client, options={"games": 1})
    await register(client, tournament, NAMES[:4])
    table = (await start(client, tournament))["tables"][0]
    token = table["table_token"]
    entering = ok(await open_phone(client, tournament, 1, 1, token), 201)
    second = ok(await open_phone(client, tournament, 1, 1, token), 201)
    assert entering["id"] != second["id"]
    assert entering["key"].startswith(entering["id"] + ".")
    ok(await client.post(f"/api/v1/matches/{table['match_id']}/rounds", json=result(4, 0),
                         headers={**bearer(token), **phone(entering["key"], "phone-1")}), 201)
    [seen] = (await read(client, tournament))["round_list"][0]["tables"]
    assert (seen["entered_by_phone"], seen["entered_by_device"]) == (entering["id"], "phone-1")
    url = f"{BASE}/{tournament['id']}/rounds/1/tables/1/confirm"
    # The entering phone, whatever device id it sends, with or without its key:
    for headers in (phone(entering["key"], "phone-2"), {"X-Device-Id": "phone-2"}, {}):
        body = problem(await client.post(url, headers={**bearer(token), **headers}), 409)
        assert "X-Table-Phone" in body["detail"]
    # A key made up at the table, or another table's, is refused as such:
    forged = f"{second['id']}.{entering['key'].partition('.')[2]}"
    problem(await client.post(url, headers={**bearer(token), **phone(forged, "phone-2")}), 403)
    assert (await read(client, tournament))["round_list"][0]["tables"][0]["state"] == "entered"
    confirmed = ok(await client.post(url, headers={**bearer(token),
                                                   **phone(second["key"], "phone-1")}))
    assert (confirmed["state"], confirmed["confirmed_by"]) == ("confirmed", "table")


async def test_only_the_tables_own_token_opens_a_phone_and_its_key_works_at_that_table_only(
    client: Client,
) -> None:
    tournament = await new_tournament(client, options={"games": 1})
    await register(client, tournament, NAMES[:8])
    first, other = (await start(client, tournament))["tables"]
    problem(await open_phone(client, tournament, 1, 1, other["table_token"]), 403)
    problem(await open_phone(client, tournament, 1, 1, tournament["token"]), 403)
    problem(await open_phone(client, tournament, 1, 1, tournament["view_token"]), 403)
    problem(await client.post(f"{BASE}/{tournament['id']}/rounds/1/tables/1/phones"), 401)
    problem(await open_phone(client, tournament, 1, 3, first["table_token"]), 404)
    problem(await open_phone(client, tournament, 2, 1, first["table_token"]), 404)
    key = ok(await open_phone(client, tournament, 1, 2, other["table_token"]), 201)["key"]
    body = problem(await client.post(
        f"/api/v1/matches/{first['match_id']}/rounds", json=result(4, 0),
        headers={**bearer(first["table_token"]), **phone(key, "phone-1")}), 403)
    assert "X-Table-Phone" in body["detail"]
    assert (await read(client, tournament))["round_list"][0]["tables"][0]["state"] == "open"
    bad = problem(await client.post(
        f"/api/v1/matches/{first['match_id']}/rounds", json=result(4, 0),
        headers={**bearer(first["table_token"]), "X-Table-Phone": "no key"}), 400)
    assert bad["errors"][0]["path"] == "X-Table-Phone"
    # The organiser's writes name no table phone: any phone at the table confirms them.
    ok(await client.post(f"/api/v1/matches/{first['match_id']}/rounds", json=result(4, 0),
                         headers={**bearer(tournament["token"]), **phone(key, "laptop")}), 201)
    [seen, _other] = (await read(client, tournament))["round_list"][0]["tables"]
    assert seen["entered_by_phone"] is None
    ok(await confirm(client, tournament, 1, 1, first["table_token"], "phone-2"))


async def test_the_last_phone_to_write_is_the_one_that_entered(client: Client) -> None:
    tournament = await new_tournament(client, options={"games": 2})
    await register(client, tournament, NAMES[:4])
    table = (await start(client, tournament))["tables"][0]
    token = table["table_token"]
    keys = [ok(await open_phone(client, tournament, 1, 1, token), 201)["key"] for _ in range(2)]
    rounds = f"/api/v1/matches/{table['match_id']}/rounds"
    ok(await client.post(rounds, json=result(4, 0),
                         headers={**bearer(token), **phone(keys[0], "a")}), 201)
    ok(await client.post(rounds, json=result(4, 1),
                         headers={**bearer(token), **phone(keys[1], "b")}), 201)
    url = f"{BASE}/{tournament['id']}/rounds/1/tables/1/confirm"
    problem(await client.post(url, headers={**bearer(token), **phone(keys[1], "c")}), 409)
    ok(await client.post(url, headers={**bearer(token), **phone(keys[0], "a")}))


async def test_a_confirmed_table_is_closed_to_its_token_but_open_to_the_organiser(
    client: Client,
) -> None:
    tournament = await new_tournament(client)
    await register(client, tournament, NAMES[:4])
    started = await start(client, tournament)
    table = started["tables"][0]
    ok(await enter(client, table, result(4, 0)), 201)
    ok(await confirm(client, tournament, 1, 1, table["table_token"]))
    url = f"/api/v1/matches/{table['match_id']}/rounds/1"
    body = problem(await client.put(url, json=result(4, 2),
                                    headers=bearer(table["table_token"])), 403)
    assert "confirmed" in body["detail"]
    assert "organiser" in body["detail"]
    problem(await client.delete(url, headers=bearer(table["table_token"])), 403)
    before = await read(client, tournament, "/standings")
    winner = table["players"][2]
    ok(await client.put(url, json=result(4, 2), headers={
        **bearer(tournament["token"]), "X-Device-Id": "organiser-laptop"}))
    view = await read(client, tournament)
    assert view["round_list"][0]["tables"][0]["state"] == "confirmed"
    after = await read(client, tournament, "/standings")
    assert after != before
    assert after["rows"][0]["player"] == winner
    history = ok(await client.get(f"/api/v1/matches/{table['match_id']}/history"))
    assert [h["token_kind"] for h in history] == ["organiser", "table", "organiser"]
    assert history[-1]["old_entry"] == result(4, 0)


async def test_the_organiser_may_confirm_from_any_device(client: Client) -> None:
    tournament = await new_tournament(client, rounds=1)
    await register(client, tournament, NAMES[:4])
    table = (await start(client, tournament))["tables"][0]
    ok(await enter(client, table, result(4, 0), "phone-1"), 201)
    confirmed = ok(await confirm(client, tournament, 1, 1, tournament["token"], "phone-1"))
    assert confirmed["confirmed_by"] == "organiser"
    view = await read(client, tournament)
    assert view["round_list"][0]["status"] == "complete"
    assert view["status"] == "finished"


# --- a whole tournament ---------------------------------------------------------------------


async def test_a_twelve_player_tournament_of_three_rounds_plays_through_the_match_api(
    client: Client,
) -> None:
    tournament = await new_tournament(client)
    ids = await register(client, tournament, NAMES)
    for number in range(1, 4):
        started = await play_round(client, tournament, shift=number)
        assert len(started["tables"]) == 3
        assert sorted(p for t in started["tables"] for p in t["players"]) == ids
        standings = await read(client, tournament, "/standings")
        assert standings["through_round"] == number
        assert sum(r["tables"] for r in standings["rows"]) == 12 * number
    view = await read(client, tournament)
    assert view["status"] == "finished"
    assert all(r["status"] == "complete" for r in view["round_list"])
    rounds = [[t["players"] for t in r["tables"]] for r in view["round_list"]]
    met = [frozenset((a, b)) for tables in rounds for t in tables for a in t for b in t if a < b]
    # Twelve at tables of four cannot avoid every repeat after round 1; the reports count them.
    assert sum(len(r["report"]["repeats"]) for r in view["round_list"]) == len(met) - len(set(met))
    standings = await read(client, tournament, "/standings")
    rows = standings["rows"]
    assert [(r["player"], r["points"]) for r in rows] == await fresh_standings(client, tournament)
    assert sum(r["points"] for r in rows) == pytest.approx(3 * 3 * 2)  # 2 points per table of 4
    assert set(rows[0]["tiebreaks"]) == {"score_share", "opponents", "table_wins"}
    assert [r["rank"] for r in rows] == sorted(r["rank"] for r in rows)
    player = await read(client, tournament, f"/players/{rows[0]['player']}")
    assert player["standing"] == rows[0]
    assert [t["round"] for t in player["tables"]] == [1, 2, 3]
    assert sum(t["points"] for t in player["tables"]) == pytest.approx(rows[0]["points"])
    assert player["current"] is None


async def test_swiss_and_random_seating_run_a_tournament_too(client: Client) -> None:
    for seating in ("swiss", "random"):
        tournament = await new_tournament(client, seating=seating, rounds=2)
        ids = await register(client, tournament, NAMES[:8])
        for _ in range(2):
            started = await play_round(client, tournament)
            assert sorted(p for t in started["tables"] for p in t["players"]) == ids
        rows = (await read(client, tournament, "/standings"))["rows"]
        assert [(r["player"], r["points"]) for r in rows] == \
            await fresh_standings(client, tournament)


async def test_points_per_place_and_a_custom_tiebreak_chain(client: Client) -> None:
    tournament = await new_tournament(
        client, rounds=1, points={"per_place": {"4": [4, 2, 1, 0]}},
        tiebreaks=["points", "table_wins", "average_points"])
    await register(client, tournament, NAMES[:4])
    await play_round(client, tournament)
    rows = (await read(client, tournament, "/standings"))["rows"]
    assert [r["points"] for r in rows] == [4, 2, 1, 0]
    assert list(rows[0]["tiebreaks"]) == ["table_wins", "average_points"]


async def test_hidden_standings_show_only_complete_rounds_to_players(client: Client) -> None:
    tournament = await new_tournament(client, hide_standings=True)
    await register(client, tournament, NAMES[:8])
    await play_round(client, tournament)
    started = await start(client, tournament)
    table = started["tables"][0]
    ok(await enter(client, table, result(4, 0)), 201)
    ok(await confirm(client, tournament, 2, 1, table["table_token"]))
    public = ok(await client.get(f"{BASE}/{tournament['id']}/standings"))
    assert public["through_round"] == 1
    assert sum(r["tables"] for r in public["rows"]) == 8
    player = ok(await client.get(f"{BASE}/{tournament['id']}/players/{table['players'][0]}"))
    assert player["tables"][-1]["points"] is None
    assert player["current"]["table"] == 1
    organiser = await read(client, tournament, "/standings")
    assert organiser["through_round"] == 2
    assert sum(r["tables"] for r in organiser["rows"]) == 12


async def test_the_player_view_shows_the_current_table_and_seat(client: Client) -> None:
    tournament = await new_tournament(client)
    await register(client, tournament, NAMES[:4])
    table = (await start(client, tournament))["tables"][0]
    player = table["players"][2]
    view = ok(await client.get(f"{BASE}/{tournament['id']}/players/{player}"))
    names = dict(zip(range(1, 5), NAMES[:4], strict=True))
    assert view["current"] == {
        "round": 1, "table": 1, "seat": 2, "match_id": table["match_id"],
        "seats": [{"seat": seat, "player": p, "name": names[p]}
                  for seat, p in enumerate(table["players"])],
        "dealer": 3}  # seat 0 sits left of the first dealer
    assert view["tables"] == [{"round": 1, "table": 1, "seat": 2, "match_id": table["match_id"],
                               "place": None, "points": None}]
    assert view["standing"]["points"] == 0
    assert view["standing"]["tables"] == 0


# --- live -----------------------------------------------------------------------------------


async def test_results_and_confirmations_at_a_table_reach_the_tournament_channel(
    client: Client,
) -> None:
    tournament = await new_tournament(client)
    await register(client, tournament, NAMES[:4])
    table = (await start(client, tournament))["tables"][0]
    started = (await read(client, tournament))["version"]
    broker = client.app.state.broker

    async def next_change(queue: asyncio.Queue[Any]) -> Any:
        """The next change after the round's start. Through PostgreSQL the start's notice is
        sent before ``start`` answers but reaches the listening connection whenever it arrives,
        possibly after this subscription: changes are hints a reader compares by version (see
        :mod:`api.shared.live`). The timeout only keeps a lost notice from hanging the test."""
        while (change := await asyncio.wait_for(queue.get(), 30)).version <= started:
            pass
        return change

    async with broker.subscribe(events_channel(tournament["id"])) as queue:
        ok(await enter(client, table, result(4, 0)), 201)
        entered = await next_change(queue)
        ok(await confirm(client, tournament, 1, 1, table["table_token"]))
        confirmed = await next_change(queue)
    assert (entered.action, entered.round) == ("table_round_added", 1)
    assert (confirmed.action, confirmed.round) == ("table_confirmed", 1)
    assert confirmed.version == entered.version + 1 == (await read(client, tournament))["version"]


async def test_tables_written_at_once_each_move_the_version_on_and_the_last_change_names_it(
    client: Client,
) -> None:
    """Every table's write counts at its own table (no lock on the tournament's row shared by
    all tables): three tables entering and confirming at once move the version on by one
    each, the highest version the channel announces is the version a reader then finds, the
    standings kept from before the confirmations are not answered after them, and the last
    confirmation finishes a one-round tournament."""
    tournament = await new_tournament(client, rounds=1, seating="random")
    await register(client, tournament, NAMES)
    tables = (await start(client, tournament))["tables"]
    assert len(tables) == 3
    before = (await read(client, tournament))["version"]
    standings_before = await read(client, tournament, "/standings")
    broker = client.app.state.broker
    heard: list[int] = []
    async with broker.subscribe(events_channel(tournament["id"])) as changes:
        entered = await asyncio.gather(*(
            enter(client, table, result(4, table["table"] % 4), f"enter-{table['table']}")
            for table in tables))
        assert [response.status_code for response in entered] == [201] * 3
        standings_entered = await read(client, tournament, "/standings")
        assert standings_entered == standings_before  # nothing confirmed, nothing counted
        confirmed = await asyncio.gather(*(
            confirm(client, tournament, 1, table["table"], table["table_token"],
                    f"confirm-{table['table']}") for table in tables))
        assert [response.status_code for response in confirmed] == [200] * 3
        final = await read(client, tournament)
        while not heard or max(heard) < final["version"]:
            heard.append((await asyncio.wait_for(changes.get(), 30)).version)
    assert final["version"] == before + 6 + 1  # three results, three confirmations, finished
    assert max(heard) == final["version"]
    assert final["status"] == "finished"
    standings = await read(client, tournament, "/standings")
    assert standings != standings_before
    assert [(row["player"], row["points"]) for row in standings["rows"]] == \
        await fresh_standings(client, tournament)


# --- exports and backups --------------------------------------------------------------------


async def test_the_standings_export_as_csv_json_and_a_printable_page(client: Client) -> None:
    tournament = await new_tournament(client, name="Zürich Open")
    await register(client, tournament, ["Jürg", "Bea", "Cem", "Dan"])
    await play_round(client, tournament)
    url = f"{BASE}/{tournament['id']}/export"
    response = await client.get(url)
    assert response.headers["content-type"].startswith("text/csv")
    assert "attachment" in response.headers["content-disposition"]
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff")
    assert "\r\n" in text
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    assert rows[0][:6] == ["Rank", "No.", "Name", "Club", "Points", "Tables"]
    assert len(rows) == 5
    assert "Jürg" in {r[2] for r in rows}
    german = (await client.get(url, params={"sep": ";"})).content.decode("utf-8")
    assert german.startswith("\ufeffRank;No.;Name")
    data = ok(await client.get(url, params={"format": "json"}))
    assert data["standings"] == await read(client, tournament, "/standings")
    page = await client.get(url, params={"format": "html"})
    assert page.headers["content-type"].startswith("text/html")
    assert "<script" not in page.text
    assert "style=" not in page.text
    assert "Zürich Open" in page.text
    assert "Jürg" in page.text
    css = await client.get(f"{BASE}/print.css")
    assert css.headers["content-type"].startswith("text/css")
    assert "A4" in css.text
    problem(await client.get(url, params={"format": "pdf"}), 400)


async def test_the_printed_standings_say_after_round_n_only_once_round_n_is_complete(
    client: Client,
) -> None:
    tournament = await new_tournament(client, options={"games": 1})
    await register(client, tournament, NAMES[:12])
    url = f"{BASE}/{tournament['id']}/export"
    page = (await client.get(url, params={"format": "html", "lang": "en"})).text
    assert "standings before the first result" in page
    tables = (await start(client, tournament))["tables"]
    for table in tables:
        ok(await enter(client, table, result(4, 0), "phone-1"), 201)
    ok(await confirm(client, tournament, 1, 2, tables[1]["table_token"]))
    page = (await client.get(url, params={"format": "html", "lang": "en"})).text
    assert "standings during round 1 of 3: 1 of 3 tables confirmed" in page
    assert "after round" not in page
    german = (await client.get(url, params={"format": "html", "lang": "de"})).text
    assert "während Runde 1 von 3: 1 von 3 Tischen bestätigt" in german
    for table in (tables[0], tables[2]):
        ok(await confirm(client, tournament, 1, table["table"], table["table_token"]))
    page = (await client.get(url, params={"format": "html", "lang": "en"})).text
    assert "standings after round 1 of 3" in page


async def test_a_backup_imports_into_an_empty_database_with_identical_standings(
    client: Client, tmp_path: Any, sqlite_template: Any,
) -> None:
    tournament = await new_tournament(client, rounds=3, private=True)
    await register(client, tournament, NAMES[:9], ["Bern", None, "Bern", *[None] * 6])
    await play_round(client, tournament)
    await play_round(client, tournament, shift=1)
    table = (await start(client, tournament))["tables"][0]
    ok(await enter(client, table, result(len(table["players"]), 1)), 201)
    saved = await read(client, tournament, "/backup")
    assert saved["format"] == "tafelrunde-tournament"
    empty = tmp_path / "empty.db"
    shutil.copy(sqlite_template, empty)
    async with AsyncTestClient(app=create_app(Settings(
            database_url=f"sqlite+aiosqlite:///{empty}"))) as other:
        copy = ok(await other.post(f"{BASE}/import", json=saved), 201)
        assert copy["id"] != tournament["id"]
        assert copy["token"] != tournament["token"]
        original = await read(client, tournament, "/standings")
        assert await read(other, copy, "/standings") == original
        original_view = await read(client, tournament)
        copied_view = await read(other, copy)
        assert [[t["state"] for t in r["tables"]] for r in copied_view["round_list"]] == \
            [[t["state"] for t in r["tables"]] for r in original_view["round_list"]]
        assert copied_view["players"] == original_view["players"]
        again = await read(other, copy, "/backup")
        assert again["rounds"] == saved["rounds"]
        assert again["players"] == saved["players"]


async def test_an_import_names_every_inconsistency_and_stores_nothing(client: Client) -> None:
    tournament = await new_tournament(client, rounds=2)
    await register(client, tournament, NAMES[:4])
    await play_round(client, tournament)
    saved = await read(client, tournament, "/backup")
    broken = msgspec.json.decode(msgspec.json.encode(saved))
    broken["rounds"][0]["tables"][0]["match"]["entries"][0]["winner"] = 9
    broken["rounds"][0]["number"] = 2
    body = problem(await client.post(f"{BASE}/import", json=broken), 422)
    paths = {e["path"] for e in body["errors"]}
    assert "rounds[0].number" in paths
    broken["rounds"][0]["number"] = 1
    body = problem(await client.post(f"{BASE}/import", json=broken), 422)
    assert all(e["path"].startswith("rounds[0].tables[0].match.entries[0]")
               for e in body["errors"])
    problem(await client.post(f"{BASE}/import", json={**saved, "format": "other"}), 400)
    listed = ok(await client.get(f"{BASE}/{tournament['id']}"))
    assert listed["id"] == tournament["id"]


# --- the organiser's command line -----------------------------------------------------------


def test_the_seating_command_prints_a_plan_without_repeats_as_json(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["seating", "--players", "9", "--table-size", "3", "--rounds", "4",
                     "--mode", "mix", "--seed", "1", "--json"]) == 0
    plan = msgspec.json.decode(capsys.readouterr().out)
    assert plan["repeats"] == plan["lower_bound"] == 0
    assert len(plan["rounds"]) == 4
    for tables in plan["rounds"]:
        assert sorted(p for table in tables for p in table) == list(range(9))


@pytest.mark.parametrize(("option", "value", "expected"), [
    ("--players", "-3", "from 2 to 10000"), ("--players", "1", "from 2 to 10000"),
    ("--players", "10001", "from 2 to 10000"), ("--rounds", "0", "from 1 to 50"),
    ("--rounds", "51", "from 1 to 50"), ("--table-size", "1", "from 2 to 64"),
    ("--table-size", "65", "from 2 to 64"), ("--table-size", "four", "from 2 to 64"),
])
def test_the_seating_command_refuses_a_number_out_of_range_naming_the_option(
    option: str, value: str, expected: str, capsys: pytest.CaptureFixture[str],
) -> None:
    given = {"--players": "12", "--table-size": "4", "--rounds": "3", option: value}
    with pytest.raises(SystemExit) as refused:
        cli.main(["seating", *(part for pair in given.items() for part in pair)])
    assert refused.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.splitlines()[-1] == (
        f"tafelrunde seating: error: argument {option}: expected a whole number {expected}, "
        f"not {value!r}")


def test_the_seating_command_prints_the_repeats_any_plan_must_have(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert cli.main(["seating", "--players", "4", "--table-size", "2", "--rounds", "1"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "repeated meetings: 0 (any plan has at least 0)")
    assert cli.main(["seating", "--players", "12", "--table-size", "4", "--rounds", "3"]) == 0
    # Three tables of four: from round 2 on, every table holds two players of one earlier table.
    assert capsys.readouterr().out.splitlines()[-1] == (
        "repeated meetings: 6 (any plan has at least 6)")
