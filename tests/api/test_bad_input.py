"""Bad input of every kind gets a 4xx problem and changes nothing; never a 500."""

from __future__ import annotations

from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from api.server.settings import Settings

Client = AsyncTestClient[Litestar]


def assert_problem(response: Any, *statuses: int) -> dict[str, Any]:
    assert response.status_code in statuses, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    body: dict[str, Any] = response.json()
    assert body["status"] == response.status_code
    return body


async def test_garbage_json_is_400(client: Client) -> None:
    response = await client.post("/api/v1/matches", content=b"{not json",
                                 headers={"Content-Type": "application/json"})
    assert_problem(response, 400)


async def test_a_wrongly_typed_field_is_400_naming_it(client: Client) -> None:
    body = assert_problem(await client.post("/api/v1/matches", json={
        "game": "tschau-sepp", "players": ["Ann", 7]}), 400)
    assert any("players" in e["path"] for e in body["errors"])


@pytest.mark.parametrize(("field", "value"), [("private", 0), ("private", "true"),
                                              ("game", 5), ("options", [])])
async def test_a_new_match_field_of_the_wrong_type_is_400(
    client: Client, field: str, value: Any,
) -> None:
    body = assert_problem(await client.post("/api/v1/matches", json={
        "game": "tschau-sepp", "players": ["Ann", "Bea"], field: value}), 400)
    assert body["errors"][0]["path"] == field


async def test_unknown_fields_in_a_new_match_are_rejected(client: Client) -> None:
    body = assert_problem(await client.post("/api/v1/matches", json={
        "game": "tschau-sepp", "players": ["Ann", "Bea"], "colour": "red"}), 400)
    assert body["errors"]


async def test_a_body_over_the_limit_is_413(client: Client) -> None:
    names = ["x" * 100] * (Settings().max_body_bytes // 100)
    response = await client.post("/api/v1/matches", json={"game": "tschau-sepp",
                                                           "players": names})
    assert_problem(response, 413)


@pytest.mark.parametrize("entry", [
    {"winner": 10**30, "penalty": [0, 3, 4]},
    {"winner": 0, "penalty": [0, 10**400, 4]},
    {"winner": 0, "penalty": [0, 1e300, 4]},
    {"winner": 0, "penalty": [0, 3, 4], "unknown": True},
    {"winner": None},
    {},
    {"entry": {"entry": {}}},
])
async def test_odd_round_entries_are_4xx_and_store_nothing(
    client: Client, new_table: Any, entry: dict[str, Any],
) -> None:
    table = await new_table()
    assert_problem(await table.record(entry), 400, 422)
    assert (await table.read())["version"] == 1


@pytest.mark.parametrize("body", [b"[1, 2]", b'"entry"', b"null", b"[" * 5000 + b"]" * 5000])
async def test_a_round_body_that_is_not_an_object_is_400(
    client: Client, new_table: Any, body: bytes,
) -> None:
    table = await new_table()
    response = await client.post(f"{table.url}/rounds", content=body,
                                 headers={**table.auth(), "Content-Type": "application/json"})
    assert_problem(response, 400)


async def test_huge_and_odd_path_values_are_4xx(client: Client, new_table: Any) -> None:
    table = await new_table()
    for path in (f"{table.url}/rounds/{2**70}", f"{table.url}/rounds/-1",
                 f"{table.url}/rounds/abc"):
        assert_problem(await client.put(path, json={}, headers=table.auth()), 400, 404)
    assert_problem(await client.get("/api/v1/matches/" + "a" * 300), 400, 404)
    assert_problem(await client.get("/api/v1/matches/%00%ff"), 400, 404)


async def test_unknown_paths_and_methods_are_problems(client: Client, new_table: Any) -> None:
    table = await new_table()
    assert_problem(await client.get("/api/v1/nowhere"), 404)
    assert_problem(await client.patch(table.url, json={}), 405)


async def test_an_overlong_idempotency_key_is_400(new_table: Any) -> None:
    table = await new_table()
    response = await table.record({"winner": 0, "penalty": [0, 3, 4]},
                                  **{"Idempotency-Key": "k" * 201})
    assert_problem(response, 400)
