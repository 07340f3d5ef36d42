"""Names are text a person reads: a control character, a line separator or a bidirectional
override in any name (a tournament's, a player's, a club's, a match player's, in a backup too)
is 422 at the field on both databases and stores nothing; a device id is printable ASCII.
Names in any script, with accents or emoji, are welcome."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.api.test_tournaments import BASE, bearer, enter, new_tournament, ok, register, start
from tests.conftest import problem

Client = AsyncTestClient[Litestar]
HOSTILE = ["\x00", "\x01", "\n", "\t", "\r", "\x1b[31m", "\x7f", "\x85", "\u202e", "\u2066",
           "\u2028"]
WELCOME = ["Zoë Ünal", "Jean-Luc O'Neil", "Ann 🃏", "李小龍", "Nūr al-Dīn", "Σωκράτης"]


def with_inside(character: str, name: str = "Ann") -> str:
    return f"{name[:1]}{character}{name[1:]}"


def assert_refused_at(answer: Any, path: str) -> None:
    body = problem(answer, 422)
    assert [(error["path"], error["code"]) for error in body["errors"]] == [
        (path, "control_character")]


@pytest.mark.parametrize("character", HOSTILE)
async def test_a_tournament_or_player_name_or_club_with_a_control_character_is_422(
    client: Client, character: str,
) -> None:
    assert_refused_at(await client.post(BASE, json={
        "name": with_inside(character, "Night"), "game": "tschau-sepp", "rounds": 1,
        "table_size": 3}), "name")
    tournament = await new_tournament(client)
    players = f"{BASE}/{tournament['id']}/players"
    auth = bearer(tournament["token"])
    assert_refused_at(await client.post(players, json={"name": with_inside(character)},
                                        headers=auth), "name")
    assert_refused_at(await client.post(players, json={"name": "Ann",
                                                       "club": with_inside(character, "Ost")},
                                        headers=auth), "club")
    [ann] = await register(client, tournament, ["Ann"], ["Ost"])
    for change, path in (({"name": with_inside(character)}, "name"),
                         ({"club": with_inside(character, "Ost")}, "club")):
        assert_refused_at(await client.patch(f"{players}/{ann}", json=change, headers=auth),
                          path)
    stored = ok(await client.get(f"{BASE}/{tournament['id']}"))
    assert [(p["name"], p["club"]) for p in stored["players"]] == [("Ann", "Ost")]


@pytest.mark.parametrize("character", HOSTILE)
async def test_a_match_player_name_with_a_control_character_is_422(
    client: Client, character: str,
) -> None:
    assert_refused_at(await client.post("/api/v1/matches", json={
        "game": "tschau-sepp", "players": ["Ann", with_inside(character, "Bea")]}),
        "players[1]")


async def test_names_in_any_script_are_kept_as_written(client: Client) -> None:
    tournament = await new_tournament(client, name="Jass-Abend im Café Zürich 🃏")
    await register(client, tournament, WELCOME, ["Café Ünal"] * len(WELCOME))
    stored = ok(await client.get(f"{BASE}/{tournament['id']}"))
    assert stored["name"] == "Jass-Abend im Café Zürich 🃏"
    assert [p["name"] for p in stored["players"]] == WELCOME
    match = ok(await client.post("/api/v1/matches", json={
        "game": "tschau-sepp", "players": WELCOME[:4]}), 201)
    assert [p["name"] for p in match["players"]] == WELCOME[:4]


async def test_a_blank_club_is_no_club_but_a_control_character_alone_is_refused(
    client: Client,
) -> None:
    tournament = await new_tournament(client)
    players = f"{BASE}/{tournament['id']}/players"
    auth = bearer(tournament["token"])
    blank = ok(await client.post(players, json={"name": "Ann", "club": "   "}, headers=auth),
               201)
    assert blank["club"] is None
    assert_refused_at(await client.post(players, json={"name": "Bea", "club": "\n"},
                                        headers=auth), "club")


async def test_a_device_id_is_printable_ascii(client: Client) -> None:
    tournament = await new_tournament(client, table_size=3)
    await register(client, tournament, ["Ann", "Bea", "Cem"])
    table = (await start(client, tournament))["tables"][0]
    entry = {"winner": 0, "penalty": [0, 3, 6]}
    for device in ("phone one", "phone\tone", "x" * 101):
        body = problem(await enter(client, table, entry, device=device), 400)
        assert body["errors"][0]["path"] == "X-Device-Id"
    assert (await enter(client, table, entry, device="3f2c-uuid")).status_code == 201


async def backup_of_a_played_round(client: Client) -> dict[str, Any]:
    tournament = await new_tournament(client, table_size=3, rounds=1)
    await register(client, tournament, ["Ann", "Bea", "Cem"], ["Ost", None, None])
    table = (await start(client, tournament))["tables"][0]
    assert (await enter(client, table, {"winner": 0, "penalty": [0, 3, 6]})).status_code == 201
    saved: dict[str, Any] = ok(await client.get(f"{BASE}/{tournament['id']}/backup",
                                                headers=bearer(tournament["token"])))
    return saved


@pytest.mark.parametrize("character", ["\x00", "\n", "\u202e"])
async def test_an_import_refuses_a_control_character_in_any_name_at_its_path(
    client: Client, character: str,
) -> None:
    saved = await backup_of_a_played_round(client)
    for field, path in (("name", "players[0].name"), ("club", "players[0].club")):
        hostile = {**saved, "players": [{**saved["players"][0],
                                         field: with_inside(character, "Ost")},
                                        *saved["players"][1:]]}
        assert_refused_at(await client.post(f"{BASE}/import", json=hostile), path)
    hostile = {**saved, "tournament": {**saved["tournament"], "name": with_inside(character)}}
    assert_refused_at(await client.post(f"{BASE}/import", json=hostile), "tournament.name")
    table = saved["rounds"][0]["tables"][0]
    match = {**table["match"], "players": [with_inside(character), *table["match"]["players"][1:]]}
    hostile = {**saved, "rounds": [{**saved["rounds"][0], "tables": [{**table, "match": match}]}]}
    assert_refused_at(await client.post(f"{BASE}/import", json=hostile),
                      "rounds[0].tables[0].match.players[0]")
    device = {**table, "entered_by_device": with_inside(character, "phone")}
    hostile = {**saved, "rounds": [{**saved["rounds"][0], "tables": [device]}]}
    body = problem(await client.post(f"{BASE}/import", json=hostile), 400)
    assert body["errors"][0]["path"] == "rounds[0].tables[0].entered_by_device"
    assert ok(await client.post(f"{BASE}/import", json=saved), 201)["players"][0]["club"] == "Ost"
