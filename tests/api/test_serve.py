"""A real ``tafelrunde serve`` process: migrates a new database, answers, serves the app and
streams changes."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import httpx
import pytest

from api.server.settings import REPO_ROOT
from tests.conftest import ServerFactory, next_change, next_event

pytestmark = pytest.mark.slow
PWA_INDEX = REPO_ROOT / "pwa" / "index.html"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, serve: ServerFactory) -> Iterator[str]:
    """The base URL of a server started in an empty working directory."""
    cwd = tmp_path_factory.mktemp("serve")
    with serve(cwd) as base:
        assert (cwd / "tafelrunde.db").exists()
        yield base


def test_the_server_answers_health(server: str) -> None:
    response = httpx.get(f"{server}/api/v1/health")
    assert response.status_code == 200
    assert response.json() == {"status": "ok"}


def test_the_server_serves_the_app_at_the_root(server: str) -> None:
    response = httpx.get(f"{server}/")
    if PWA_INDEX.exists():
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/html")
        assert response.headers["cache-control"] == "no-cache"
        assert response.text == PWA_INDEX.read_text(encoding="utf-8")
        worker = httpx.get(f"{server}/sw.js")
        assert worker.status_code == 200
        assert worker.headers["cache-control"] == "no-cache"
    else:
        assert response.status_code == 404
    assert response.headers["x-content-type-options"] == "nosniff"


def test_the_openapi_schema_is_served(server: str) -> None:
    schema = httpx.get(f"{server}/schema/openapi.json").json()
    assert schema["openapi"].startswith("3.1")
    assert "/api/v1/matches/{match_id}/rounds" in schema["paths"]


@pytest.fixture
async def http(server: str) -> AsyncIterator[httpx.AsyncClient]:
    async with httpx.AsyncClient(base_url=server, timeout=5) as client:
        yield client


async def test_a_subscriber_hears_of_a_new_round_within_two_seconds(
    http: httpx.AsyncClient,
) -> None:
    created = (await http.post("/api/v1/matches", json={
        "game": "tschau-sepp", "players": ["Ann", "Bea"]})).json()
    url = f"/api/v1/matches/{created['id']}"
    async with http.stream("GET", f"{url}/events") as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        # httpx asks for gzip: an event must still go out the moment it happens, uncompressed.
        assert "content-encoding" not in stream.headers
        lines = stream.aiter_lines()
        assert (await anext(lines)).startswith(":")  # subscribed: the POST below cannot be missed
        posted = await http.post(f"{url}/rounds", json={"winner": 0, "penalty": [0, 4]},
                                 headers={"Authorization": f"Bearer {created['token']}"})
        assert posted.status_code == 201

        change = await asyncio.wait_for(next_change(lines), timeout=2)
    assert change == {"version": 2, "action": "round_added", "round": 1}


async def test_a_stream_starts_with_the_version_a_reader_may_have_missed(
    http: httpx.AsyncClient,
) -> None:
    """A phone reads the match, then connects: a round recorded in between is in the version the
    stream opens with, so the phone knows to read again (and after every reconnection too)."""
    created = (await http.post("/api/v1/matches", json={
        "game": "tschau-sepp", "players": ["Ann", "Bea"]})).json()
    url = f"/api/v1/matches/{created['id']}"
    posted = await http.post(f"{url}/rounds", json={"winner": 0, "penalty": [0, 4]},
                             headers={"Authorization": f"Bearer {created['token']}"})
    assert posted.status_code == 201
    async with http.stream("GET", f"{url}/events") as stream:
        assert await next_event(stream.aiter_lines(), "current") == {"version": 2}

    tournament = (await http.post("/api/v1/tournaments", json={
        "name": "Club night", "game": "tschau-sepp", "rounds": 1, "table_size": 2})).json()
    added = await http.post(f"/api/v1/tournaments/{tournament['id']}/players",
                            json={"name": "Ann"},
                            headers={"Authorization": f"Bearer {tournament['token']}"})
    assert added.status_code == 201
    async with http.stream("GET", f"/api/v1/tournaments/{tournament['id']}/events") as stream:
        assert await next_event(stream.aiter_lines(), "current") == {"version": 2}

    club = (await http.post("/api/v1/clubs", json={"name": "Jassclub"})).json()
    async with http.stream("GET", f"/api/v1/clubs/{club['id']}/events",
                           headers={"Authorization": f"Bearer {club['view_token']}"}) as stream:
        assert await next_event(stream.aiter_lines(), "current") == {"version": 1}
