"""Every body is read strictly, the same way everywhere: a wrong type is 400 naming the field, a
number with a zero fraction is the integer it equals (stored as that integer, never as 1.0),
a boolean is not a number; a body not sent as JSON is 415; a number too large for a float is
named by its path."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.conftest import problem

Client = AsyncTestClient[Litestar]
T = "/api/v1/tournaments"
M = "/api/v1/matches"
NEW_TOURNAMENT = {"name": "Donnerstag", "game": "tschau-sepp", "rounds": 3, "table_size": 3}


@pytest.mark.parametrize(("field", "value"), [
    ("rounds", "3"), ("rounds", 3.5), ("rounds", True), ("table_size", "4"),
    ("private", 0), ("private", "false"), ("hide_standings", 1), ("seed", "7"),
    ("name", 5), ("tiebreaks", "points"),
])
async def test_a_new_tournament_field_of_the_wrong_type_is_400_naming_it(
    client: Client, field: str, value: Any,
) -> None:
    body = problem(await client.post(T, json={**NEW_TOURNAMENT, field: value}), 400)
    assert [error["path"] for error in body["errors"]] == [field]


async def test_player_fields_of_the_wrong_type_are_400_naming_them(client: Client) -> None:
    created = (await client.post(T, json=NEW_TOURNAMENT)).json()
    auth = {"Authorization": f"Bearer {created['token']}"}
    for body, path in (({"name": 7}, "name"), ({"name": "Ann", "club": 1}, "club")):
        answer = problem(await client.post(f"{T}/{created['id']}/players", json=body,
                                           headers=auth), 400)
        assert answer["errors"][0]["path"] == path
    added = (await client.post(f"{T}/{created['id']}/players", json={"name": "Ann"},
                               headers=auth)).json()
    answer = problem(await client.patch(f"{T}/{created['id']}/players/{added['id']}",
                                        json={"active": 0}, headers=auth), 400)
    assert answer["errors"][0]["path"] == "active"
    assert (await client.get(f"{T}/{created['id']}")).json()["players"][0]["active"] is True


async def test_a_whole_number_written_with_a_fraction_is_read_and_stored_as_an_integer(
    client: Client,
) -> None:
    created = await client.post(T, json={**NEW_TOURNAMENT, "rounds": 3.0, "table_size": 4.0})
    assert created.status_code == 201, created.text
    assert (created.json()["rounds"], created.json()["table_size"]) == (3, 4)
    stored = (await client.get(f"{T}/{created.json()['id']}")).text
    assert '"rounds":3,' in stored
    assert '"table_size":4,' in stored


@pytest.mark.parametrize("entry", [
    {"winner": 1.0, "penalty": [4.0, 0, 6e0]},
    {"winner": 1, "penalty": [4, -0.0, 6]},
    {"entry": {"winner": 1.0, "penalty": [4, 0.0, 6]}},
])
async def test_seats_and_points_written_with_a_fraction_are_stored_as_integers(
    client: Client, new_table: Any, entry: dict[str, Any],
) -> None:
    table = await new_table()
    answer = await table.record(entry)
    assert answer.status_code == 201, answer.text
    stored = [answer.json()["entry"], (await table.read())["rounds"][0]["entry"],
              (await client.get(f"{table.url}/history")).json()[-1]["new_entry"]]
    for entry_as_stored in stored:  # json reads 1.0 as a float: the types tell
        numbers = [entry_as_stored["winner"], *entry_as_stored["penalty"]]
        assert (numbers, [type(n) for n in numbers]) == ([1, 4, 0, 6], [int] * 4)


@pytest.mark.parametrize(("entry", "path"), [
    ({"winner": True, "penalty": [4, 0, 6]}, "winner"),
    ({"winner": 0, "penalty": [0, False, 6]}, "penalty[1]"),
    ({"winner": 0.5, "penalty": [0, 4, 6]}, "winner"),
    ({"winner": "1", "penalty": [4, 0, 6]}, "winner"),
])
async def test_a_boolean_string_or_fraction_for_a_whole_number_is_422_and_stores_nothing(
    new_table: Any, entry: dict[str, Any], path: str,
) -> None:
    table = await new_table()
    body = problem(await table.record(entry), 422)
    assert [error["path"] for error in body["errors"]] == [path]
    match = await table.read()
    assert (match["version"], match["rounds"]) == (1, [])


async def test_match_options_take_whole_numbers_only(client: Client) -> None:
    for games, status in ((3.0, 201), (2.5, 422), (True, 422)):
        answer = await client.post(M, json={
            "game": "tschau-sepp", "players": ["Ann", "Bea"], "options": {"games": games}})
        assert answer.status_code == status, (games, answer.text)


@pytest.mark.parametrize("content_type", [
    "text/plain", "application/x-www-form-urlencoded", "text/json", None])
async def test_a_body_not_sent_as_json_is_415_and_changes_nothing(
    client: Client, new_table: Any, content_type: str | None,
) -> None:
    table = await new_table()
    headers = {} if content_type is None else {"Content-Type": content_type}
    writes = [
        (f"{table.url}/rounds", b'{"winner": 0, "penalty": [0, 4, 6]}', table.auth()),
        (T, b'{"name": "x", "game": "tschau-sepp", "rounds": 1, "table_size": 3}', {}),
        (M, b'{"game": "tschau-sepp", "players": ["Ann", "Bea"]}', {}),
    ]
    for url, content, auth in writes:
        answer = await client.post(url, content=content, headers={**headers, **auth})
        body = problem(answer, 415)
        assert answer.headers["accept"] == "application/json"
        assert body["errors"][0]["code"] == "unsupported_media_type"
    assert (await table.read())["version"] == 1


async def test_a_json_media_type_with_parameters_or_a_suffix_is_json(
    client: Client, new_table: Any,
) -> None:
    table = await new_table()
    for content_type in ("application/json; charset=utf-8", "application/vnd.api+json"):
        answer = await client.post(f"{table.url}/rounds", headers={
            **table.auth(), "Content-Type": content_type},
            content=b'{"winner": 0, "penalty": [0, 4, 6]}')
        assert answer.status_code in (201, 409), answer.text


@pytest.mark.parametrize(("url", "content", "path"), [
    (T, b'{"name": "x", "game": "tschau-sepp", "rounds": 1e999, "table_size": 3}', "rounds"),
    ("{match}/rounds", b'{"winner": 0, "penalty": [0, 1e999, 5]}', "penalty[1]"),
    ("{match}/rounds", b'{"entry": {"winner": -1e999}}', "entry.winner"),
    (M, b'{"game": "tschau-sepp", "players": ["Ann", "Bea"], "options": {"games": 1e400}}',
     "options.games"),
])
async def test_a_number_too_large_for_a_float_is_400_at_its_path(
    client: Client, new_table: Any, url: str, content: bytes, path: str,
) -> None:
    table = await new_table()
    answer = await client.post(url.format(match=table.url), content=content, headers={
        **table.auth(), "Content-Type": "application/json"})
    body = problem(answer, 400)
    assert [error["path"] for error in body["errors"]] == [path]
    assert (await table.read())["version"] == 1
