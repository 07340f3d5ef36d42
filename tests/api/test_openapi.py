"""The served OpenAPI document is a contract clients can be generated from: it validates, its
schema names are unique, and it says what every answer looks like."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from litestar import Litestar
from litestar.testing import AsyncTestClient
from openapi_spec_validator import validate

from scoring.registry import all_games
from tests.conftest import problem

Client = AsyncTestClient[Litestar]


@pytest.fixture
async def document(client: Client) -> dict[str, Any]:
    response = await client.get("/schema/openapi.json")
    assert response.status_code == 200
    served: dict[str, Any] = response.json()
    return served


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_the_served_document_is_valid_openapi(document: dict[str, Any]) -> None:
    validate(document)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_every_schema_has_a_unique_name_that_is_its_title(document: dict[str, Any]) -> None:
    schemas = document["components"]["schemas"]
    titles = Counter(schema.get("title", name) for name, schema in schemas.items())
    assert [title for title, count in titles.items() if count > 1] == []
    assert [name for name, schema in schemas.items()
            if schema.get("title", name) != name] == []


def media_types(document: dict[str, Any], path: str, method: str = "get") -> set[str]:
    return set(document["paths"][path][method]["responses"]["200"]["content"])


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_exports_and_event_streams_name_their_media_types(
    document: dict[str, Any],
) -> None:
    matches, tournaments = "/api/v1/matches/{match_id}", "/api/v1/tournaments/{tournament_id}"
    assert media_types(document, f"{matches}/export") == {"application/json", "text/csv"}
    assert media_types(document, f"{tournaments}/export") == {
        "application/json", "text/csv", "text/html"}
    assert media_types(document, f"{matches}/events") == {"text/event-stream"}
    assert media_types(document, f"{tournaments}/events") == {"text/event-stream"}
    clubs = "/api/v1/clubs/{club_id}"
    by_operation = {operation["operationId"]: path for path, item in document["paths"].items()
                    for operation in item.values()}
    assert by_operation["clubSettlement"] == f"{clubs}/settlement"
    assert by_operation["clubKasse"] == f"{clubs}/kasse"
    assert media_types(document, f"{clubs}/settlement") == {"application/json", "text/csv"}
    assert media_types(document, f"{clubs}/kasse") == {"application/json", "text/csv"}


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_every_error_answer_is_documented_as_problem_details(
    document: dict[str, Any],
) -> None:
    problem = {"application/problem+json": {
        "schema": {"$ref": "#/components/schemas/ProblemBody"}}}
    not_problems = [
        f"{method.upper()} {path} {status}"
        for path, item in document["paths"].items() for method, operation in item.items()
        for status, response in operation["responses"].items()
        if int(status) >= 400 and response.get("content") != problem
    ]
    assert not_problems == []


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_schema_answers_the_document_and_no_page_is_blank(
    client: Client, document: dict[str, Any],
) -> None:
    root = await client.get("/schema")
    assert (root.status_code, root.json()) == (200, document)
    for page in ("/schema/swagger", "/schema/redoc", "/schema/elements", "/schema/rapidoc",
                 "/schema/openapi.yaml"):
        answer = await client.get(page)
        body = problem(answer, 404)
        assert body["errors"][0]["params"]["document"] == "/schema/openapi.json", page


def component(name: str) -> dict[str, str]:
    return {"$ref": f"#/components/schemas/{name}"}


def title(shape: dict[str, Any]) -> Any:
    return shape["title"]


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_the_guide_takes_and_answers_each_games_own_shapes(
    client: Client, document: dict[str, Any],
) -> None:
    guide = document["paths"]["/api/v1/matches/{match_id}/guide"]["post"]
    assert guide["requestBody"]["content"]["application/json"]["schema"] == component(
        "GuideBody")
    assert guide["responses"]["200"]["content"]["application/json"]["schema"] == component(
        "Guide")
    schemas = document["components"]["schemas"]
    assert schemas["Guide"]["properties"]["guide"] == component("RoundGuide")
    games = all_games().values()
    assert schemas["RoundGuide"]["anyOf"] == [
        component(title(game.shapes.guide)) for game in games]
    assert schemas["PartialRoundEntry"]["anyOf"] == [
        component(title(game.shapes.partial_entry)) for game in games]
    for game in games:
        needed = {option["name"]: "Pad" for option in game.describe()["options"]  # type: ignore[union-attr]
                  if option["kind"] == "text" and option["default"] is None}  # type: ignore[call-overload,index]
        created = (await client.post("/api/v1/matches", json={
            "game": game.id, "players": ["Ann", "Bea", "Cem", "Dan"], "options": needed})).json()
        answer = await client.post(f"/api/v1/matches/{created['id']}/guide", json={"x": [1.5]})
        assert answer.status_code == 200, answer.text
        Draft202012Validator({**component(title(game.shapes.guide)), **document}).validate(
            answer.json()["guide"])


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
async def test_every_round_write_documents_if_match_and_its_412(document: dict[str, Any]) -> None:
    """POST of a round takes If-Match as PUT and DELETE do (issue 23): a client generated from
    the document can send the version its phone saw."""
    rounds = "/api/v1/matches/{match_id}/rounds"
    for path, method in ((rounds, "post"), (rounds + "/{number}", "put"),
                         (rounds + "/{number}", "delete")):
        operation = document["paths"][path][method]
        headers = {p["name"]: p for p in operation["parameters"] if p["in"] == "header"}
        assert "412" in headers["If-Match"]["description"], method
        assert not headers["If-Match"].get("required", False)
        assert "412" in operation["responses"], method
