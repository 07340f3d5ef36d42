"""Methods at the boundary: ``OPTIONS`` and 405 list every method a path allows, ``HEAD`` answers
every ``GET`` without its body, and a path with a control character is refused before it reaches
the files or a log line."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterator
from typing import Any

import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.conftest import problem

Client = AsyncTestClient[Litestar]
PARAMETER = re.compile(r"\{[^}]+\}")
HTTP_METHODS = {"get", "put", "post", "delete", "patch"}


async def test_options_lists_every_method_of_every_path(client: Client) -> None:
    document = (await client.get("/schema/openapi.json")).json()
    wrong = {}
    for path, item in document["paths"].items():
        methods = {method.upper() for method in item if method in HTTP_METHODS} | {"OPTIONS"}
        if "GET" in methods:
            methods.add("HEAD")
        answer = await client.options(PARAMETER.sub("1", path))
        allowed = {m.strip() for m in answer.headers.get("allow", "").split(",")}
        if answer.status_code != 204 or allowed != methods:
            wrong[path] = (answer.status_code, sorted(allowed), sorted(methods))
    assert wrong == {}


async def test_a_method_not_allowed_is_405_naming_every_allowed_method(client: Client) -> None:
    answer = await client.post("/api/v1/games")
    problem(answer, 405)
    assert {m.strip() for m in answer.headers["allow"].split(",")} == {"GET", "HEAD", "OPTIONS"}


async def test_head_answers_like_get_without_the_body(client: Client, new_table: Any) -> None:
    table = await new_table()
    for path in ("/", "/index.html", "/sw.js", "/api/v1/games", "/api/v1/games/tschau-sepp",
                 table.url, f"{table.url}/export", "/schema/openapi.json",
                 "/api/v1/ping"):
        got, head = await client.get(path), await client.head(path)
        assert (head.status_code, head.content) == (got.status_code, b""), path
        for header in ("content-type", "content-length", "etag", "cache-control",
                       "content-security-policy"):
            assert head.headers.get(header) == got.headers.get(header), (path, header)
    missing = await client.head("/api/v1/matches/nosuchmatch")
    assert (missing.status_code, missing.content) == (404, b"")


async def test_head_of_an_event_stream_answers_its_headers_and_ends(
    client: Client, new_table: Any,
) -> None:
    table = await new_table()
    head = await asyncio.wait_for(client.head(f"{table.url}/events"), timeout=10)
    assert head.status_code == 200
    assert head.headers["content-type"].startswith("text/event-stream")
    assert head.content == b""


@pytest.fixture
def log_lines() -> Iterator[list[logging.LogRecord]]:
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    keep = Keep(logging.DEBUG)
    root = logging.getLogger()
    root.addHandler(keep)
    try:
        yield records
    finally:
        root.removeHandler(keep)


@pytest.mark.parametrize("path", [
    "/%00", "/js/%00app.js", "/a%0ab", "/%0d%0aINFO%20forged", "/api/v1/matches/%0a",
    "/api/v1/games/%00", "/api/v1/tournaments/x%7f", "/schema/%09",
])
async def test_a_path_with_a_control_character_is_400_and_writes_no_line(
    client: Client, log_lines: list[logging.LogRecord], path: str,
) -> None:
    body = problem(await client.get(path), 400)
    assert body["errors"][0]["code"] == "control_character"
    problem(await client.post(path, json={}), 400)
    assert [r.getMessage() for r in log_lines if re.search(r"[\r\n]", r.getMessage())] == []
