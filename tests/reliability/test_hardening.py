"""Hardening: tokens compared in constant time, stored only as hashes, never logged; refused
tokens rate-limited per address; a body size limit; security headers on every response; CORS
closed unless configured."""

from __future__ import annotations

import hashlib
import hmac
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager
from dataclasses import replace
from typing import Any

import httpx
import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.edge.ratelimit import WINDOW_SECONDS, FailedTokenLimit, target_of
from api.server.settings import Settings
from bench.harness import Server

Client = AsyncTestClient[Litestar]
Snapshot = Callable[[], Awaitable[dict[str, list[tuple[Any, ...]]]]]
M = "/api/v1/matches"
T = "/api/v1/tournaments"
NAMES = ["Ann", "Bea", "Cem", "Dan", "Eva", "Fay"]
OWN_SOURCES = {"'self'", "'none'", "data:", "blob:"}
# The app's page may apply its own <style> element, named by its hash (api/server/app_files.py).
STYLE_HASH = re.compile(r"'sha256-[A-Za-z0-9+/]{43}='")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def tschau(winner: int, seats: int = 3) -> dict[str, Any]:
    return {"winner": winner, "penalty": [0 if s == winner else 6 + s for s in range(seats)]}


@asynccontextmanager
async def app_client(settings: Settings) -> AsyncIterator[Client]:
    async with AsyncTestClient(app=create_app(settings)) as client:
        yield client


@pytest.fixture
async def client(settings: Settings) -> AsyncIterator[Client]:
    async with app_client(settings) as test_client:
        yield test_client


async def every_token(client: Client) -> list[str]:
    """Create a private match (with a round) and a running tournament; every token handed out."""
    match = (await client.post(M, json={"game": "tschau-sepp", "players": NAMES[:3],
                                        "private": True})).json()
    assert (await client.post(f"{M}/{match['id']}/rounds", json=tschau(0),
                              headers=bearer(match["token"]))).status_code == 201
    assert (await client.get(f"{M}/{match['id']}", headers=bearer(match["view_token"]))
            ).status_code == 200
    tournament = (await client.post(T, json={"name": "Night", "game": "tschau-sepp",
                                             "rounds": 1, "table_size": 3})).json()
    for name in NAMES:
        await client.post(f"{T}/{tournament['id']}/players", json={"name": name},
                          headers=bearer(tournament["token"]))
    started = await client.post(f"{T}/{tournament['id']}/rounds",
                                headers=bearer(tournament["token"]))
    assert started.status_code == 201, started.text
    tables = started.json()["tables"]
    assert (await client.post(f"{M}/{tables[0]['match_id']}/rounds", json=tschau(1),
                              headers=bearer(tables[0]["table_token"]))).status_code == 201
    assert (await client.get(f"{T}/{tournament['id']}/rounds/1/tokens",
                             headers=bearer(tournament["token"]))).status_code == 200
    return [match["token"], match["view_token"], tournament["token"], tournament["view_token"],
            *(table["table_token"] for table in tables)]


async def test_token_checks_compare_in_constant_time(
    client: Client, monkeypatch: pytest.MonkeyPatch,
) -> None:
    compared: list[tuple[Any, Any]] = []
    constant_time = hmac.compare_digest

    def spy(a: Any, b: Any) -> bool:
        compared.append((a, b))
        return constant_time(a, b)

    match = (await client.post(M, json={"game": "tschau-sepp", "players": NAMES[:3]})).json()
    monkeypatch.setattr(hmac, "compare_digest", spy)
    wrong = await client.post(f"{M}/{match['id']}/rounds", json=tschau(0),
                              headers=bearer("guessed-token"))
    assert wrong.status_code == 403
    assert (hashlib.sha256(b"guessed-token").hexdigest(),
            hashlib.sha256(match["token"].encode()).hexdigest()) in compared


async def test_tokens_are_stored_only_as_hashes(client: Client,
                                                everything_stored: Snapshot) -> None:
    tokens = await every_token(client)
    everything = repr(await everything_stored())
    assert hashlib.sha256(tokens[0].encode()).hexdigest() in everything
    assert [token for token in tokens if token in everything] == []


@pytest.fixture
def every_log_line() -> Iterator[list[logging.LogRecord]]:
    """Every record of every logger at DEBUG, including loggers that do not propagate."""
    records: list[logging.LogRecord] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            records.append(record)

    keep = Keep(logging.DEBUG)
    loggers = [logging.getLogger(), *(logging.getLogger(name)
                                      for name in list(logging.root.manager.loggerDict))]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.addHandler(keep)
        logger.setLevel(logging.DEBUG)
    try:
        yield records
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.removeHandler(keep)
            logger.setLevel(level)


async def test_no_token_is_ever_logged(settings: Settings,
                                       every_log_line: list[logging.LogRecord]) -> None:
    async with app_client(settings) as client:
        tokens = await every_token(client)
        match = (await client.post(M, json={"game": "tschau-sepp", "players": NAMES[:3]})).json()
        tokens.append(match["token"])
        for headers in (bearer(tokens[2]), bearer(tokens[0]), {"Authorization": tokens[0]}):
            await client.post(f"{M}/{match['id']}/rounds", json=tschau(0), headers=headers)
    assert every_log_line  # the capture works: SQL and the framework log at DEBUG
    logged = "\n".join(f"{r.getMessage()} {r.args!r} {r.exc_text or ''}"
                       for r in every_log_line)
    assert [token for token in tokens if token in logged] == []


async def test_repeated_refused_tokens_for_a_match_get_429_and_its_valid_token_still_works(
    settings: Settings,
) -> None:
    async with app_client(replace(settings, auth_failures_per_minute=5)) as client:
        ours, other = [(await client.post(M, json={"game": "tschau-sepp", "players": NAMES[:3]})
                        ).json() for _ in range(2)]
        url = f"{M}/{ours['id']}/rounds"
        for _ in range(5):
            assert (await client.post(url, json=tschau(0), headers=bearer("guess"))
                    ).status_code == 403
        limited = await client.post(url, json=tschau(0), headers=bearer("guess"))
        assert limited.status_code == 429
        assert limited.headers["content-type"].startswith("application/problem+json")
        assert limited.json()["status"] == 429
        assert 1 <= int(limited.headers["retry-after"]) <= WINDOW_SECONDS
        assert limited.headers["x-content-type-options"] == "nosniff"
        assert (await client.post(url, headers=bearer(ours["view_token"]), json=tschau(0))
                ).status_code == 429  # a token that may not write is refused like a wrong one
        # The phones at that table, behind the same address, keep playing with the right token.
        assert (await client.post(url, json=tschau(0), headers=bearer(ours["token"]))
                ).status_code == 201
        assert (await client.get(f"{M}/{ours['id']}")).json()["version"] == 2
        # Other matches from the same address are counted on their own.
        assert (await client.post(f"{M}/{other['id']}/rounds", json=tschau(0),
                                  headers=bearer("guess"))).status_code == 403
        assert (await client.post(f"{M}/{other['id']}/rounds", json=tschau(1),
                                  headers=bearer(other["token"]))).status_code == 201


async def test_the_organiser_token_works_while_a_table_phone_is_limited(
    settings: Settings,
) -> None:
    async with app_client(replace(settings, auth_failures_per_minute=3)) as client:
        tournament = (await client.post(T, json={"name": "Night", "game": "tschau-sepp",
                                                 "rounds": 1, "table_size": 3})).json()
        players = f"{T}/{tournament['id']}/players"
        for _ in range(4):
            await client.post(players, json={"name": "Eve"}, headers=bearer("typo"))
        assert (await client.post(players, json={"name": "Ann"}, headers=bearer("typo"))
                ).status_code == 429
        assert (await client.post(players, json={"name": "Ann"},
                                  headers=bearer(tournament["token"]))).status_code == 201


def test_refusals_are_counted_per_address_and_target_and_forgotten_after_a_minute() -> None:
    now = [1000.0]
    limit = FailedTokenLimit(3, clock=lambda: now[0])
    key = ("10.0.0.1", target_of("/api/v1/matches/abc/rounds/2"))
    assert key[1] == target_of("/api/v1/matches/abc") == "/api/v1/matches/abc"
    for _ in range(3):
        limit.record_failure(key)
        now[0] += 1
    assert limit.wait_seconds(key) == WINDOW_SECONDS - 3
    assert limit.wait_seconds(("10.0.0.2", key[1])) == 0
    assert limit.wait_seconds((key[0], "/api/v1/matches/xyz")) == 0
    now[0] += WINDOW_SECONDS - 3
    assert limit.wait_seconds(key) == 0


def test_a_limit_of_zero_switches_the_failed_token_limit_off() -> None:
    assert Settings.from_env({"TAFELRUNDE_AUTH_FAILURES_PER_MINUTE": "0"}
                             ).auth_failures_per_minute == 0
    assert Settings.from_env({}).auth_failures_per_minute == 20


async def test_a_body_over_the_size_limit_is_413_and_stores_nothing(settings: Settings) -> None:
    async with app_client(replace(settings, max_body_bytes=2048)) as client:
        match = (await client.post(M, json={"game": "tschau-sepp", "players": NAMES[:3]})).json()
        padding = "x" * 4096
        too_big = await client.post(M, json={"game": "tschau-sepp", "players": NAMES[:3],
                                             "options": {"pad": padding}})
        assert too_big.status_code == 413
        assert too_big.headers["content-type"].startswith("application/problem+json")
        entry = {**tschau(0), "pad": padding}
        assert (await client.post(f"{M}/{match['id']}/rounds", json=entry,
                                  headers=bearer(match["token"]))).status_code == 413
        assert (await client.get(f"{M}/{match['id']}")).json()["version"] == 1


def assert_security_headers(response: Any) -> None:
    where = f"{response.request.method} {response.request.url} -> {response.status_code}"
    policy = {}
    for directive in response.headers.get("content-security-policy", "").split(";"):
        name, *sources = directive.split()
        policy[name] = sources
    assert policy.get("default-src") == ["'self'"], where
    assert policy.get("frame-ancestors") == ["'none'"], where
    hashes = {source for source in policy.get("style-src", []) if STYLE_HASH.fullmatch(source)}
    assert all(set(sources) - hashes <= OWN_SOURCES for sources in policy.values()), where
    assert response.headers.get("x-content-type-options") == "nosniff", where
    assert response.headers.get("referrer-policy") == "no-referrer", where


async def test_every_response_carries_the_security_headers(settings: Settings) -> None:
    async with app_client(replace(settings, max_body_bytes=2048,
                                           auth_failures_per_minute=2)) as client:
        match = (await client.post(M, json={"game": "tschau-sepp", "players": NAMES[:3]})).json()
        rounds = f"{M}/{match['id']}/rounds"
        answers = [
            await client.get("/"), await client.get("/sw.js"),
            await client.get("/manifest.webmanifest"), await client.get("/js/app.js"),
            await client.get("/schema/openapi.json"), await client.get("/api/v1/games"),
            await client.get(f"{M}/{match['id']}"), await client.get(f"{M}/{match['id']}/export"),
            await client.get(f"{T}/print.css"),
            await client.get("/api/v1/nothing-here"), await client.get(f"{M}/nosuchmatch"),
            await client.patch("/api/v1/games"),
            await client.post(M, content=b"{not json", headers={"content-type":
                                                                 "application/json"}),
            await client.post(M, json={"game": "chess", "players": ["A"]}),
            await client.post(M, json={"pad": "x" * 4096}),
            await client.post(rounds, json=tschau(0)),
            await client.post(rounds, json=tschau(0), headers=bearer("guess")),
            await client.post(rounds, json=tschau(0), headers=bearer("guess")),
            await client.post(rounds, json=tschau(0), headers=bearer("guess")),
        ]
        statuses = {answer.status_code for answer in answers}
        assert {200, 400, 401, 403, 404, 405, 413, 422, 429} <= statuses
        for answer in answers:
            assert_security_headers(answer)


PREFLIGHT = {"Access-Control-Request-Method": "POST",
             "Access-Control-Request-Headers": "authorization, content-type"}


async def test_cors_is_closed_unless_origins_are_configured(settings: Settings) -> None:
    async with app_client(settings) as client:
        for origin in ("https://club.example", "https://evil.example"):
            preflight = await client.options(M, headers={"Origin": origin, **PREFLIGHT})
            simple = await client.get("/api/v1/games", headers={"Origin": origin})
            for answer in (preflight, simple):
                assert "access-control-allow-origin" not in answer.headers


async def test_cors_admits_exactly_the_configured_origins(settings: Settings) -> None:
    configured = Settings.from_env({"TAFELRUNDE_DATABASE_URL": settings.database_url,
                                    "TAFELRUNDE_CORS_ORIGINS": "https://club.example"})
    async with app_client(configured) as client:
        preflight = await client.options(M, headers={"Origin": "https://club.example",
                                                     **PREFLIGHT})
        assert preflight.headers["access-control-allow-origin"] == "https://club.example"
        simple = await client.get("/api/v1/games", headers={"Origin": "https://club.example"})
        assert simple.headers["access-control-allow-origin"] == "https://club.example"
        for answer in (await client.options(M, headers={"Origin": "https://evil.example",
                                                        **PREFLIGHT}),
                       await client.get("/api/v1/games",
                                        headers={"Origin": "https://evil.example"})):
            assert "access-control-allow-origin" not in answer.headers


async def test_a_client_cannot_escape_the_limit_by_writing_x_forwarded_for_itself(
    served: Server,
) -> None:
    """No proxy is configured, so the header is nobody's word: the connection's address counts
    (uvicorn on its own would believe it from 127.0.0.1)."""
    async with httpx.AsyncClient(base_url=served.url, timeout=10) as http:
        match = (await http.post(M, json={"game": "tschau-sepp", "players": NAMES[:3]})).json()
        url = f"{M}/{match['id']}/rounds"
        answers = [(await http.post(url, json=tschau(0), headers={
            **bearer("guess"), "X-Forwarded-For": f"198.51.100.{n}"})).status_code
            for n in range(1, 23)]
        assert answers == [403] * 20 + [429] * 2
        assert (await http.post(url, json=tschau(0), headers={
            **bearer(match["token"]), "X-Forwarded-For": "198.51.100.99"})).status_code == 201


async def test_behind_a_trusted_proxy_the_address_it_appended_is_counted(
    settings: Settings,
) -> None:
    proxied = replace(settings, auth_failures_per_minute=3, trusted_proxies=("testclient",))
    async with app_client(proxied) as client:
        match = (await client.post(M, json={"game": "tschau-sepp", "players": NAMES[:3]})).json()
        url = f"{M}/{match['id']}/rounds"

        async def guess(forwarded_for: str) -> int:
            return (await client.post(url, json=tschau(0), headers={
                **bearer("guess"), "X-Forwarded-For": forwarded_for})).status_code

        # The client writes a new address each time; the proxy appends the real one.
        assert [await guess(f"198.51.100.{n}, 203.0.113.7") for n in range(5)] == \
            [403, 403, 403, 429, 429]
        assert await guess("203.0.113.8") == 403  # another club's address
