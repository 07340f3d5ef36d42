"""Races against a real server process: requests from several phones really arrive at once.

Each phone has its own connection, opened before the race, so the requests of a race leave at
the same moment and the server interleaves them however it likes.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from bench.harness import Server, audit_database

pytestmark = pytest.mark.slow
PHONES = 12


def penalties(winner: int, points: int) -> dict[str, Any]:
    """A Tschau Sepp game at three seats; ``points`` tells rounds apart (from 6 up every number
    of points is a hand's worth under the face table)."""
    return {"winner": winner, "penalty": [0 if seat == winner else 6 + points + seat
                                          for seat in range(3)]}


@pytest.fixture
async def phones(served: Server) -> AsyncIterator[list[httpx.AsyncClient]]:
    clients = [httpx.AsyncClient(base_url=served.url, timeout=30) for _ in range(PHONES)]
    try:
        for client in clients:  # open every connection before any race starts
            assert (await client.get("/api/v1/health")).status_code == 200
        yield clients
    finally:
        for client in clients:
            await client.aclose()


async def new_match(phone: httpx.AsyncClient) -> tuple[str, dict[str, str]]:
    created = await phone.post("/api/v1/matches", json={
        "game": "tschau-sepp", "players": ["Ann", "Bea", "Cem"], "options": {"games": 100}})
    assert created.status_code == 201, created.text
    body = created.json()
    return f"/api/v1/matches/{body['id']}", {"Authorization": f"Bearer {body['token']}"}


async def test_of_two_corrections_with_the_same_if_match_exactly_one_wins_the_other_gets_412(
    phones: list[httpx.AsyncClient],
) -> None:
    url, auth = await new_match(phones[0])
    assert (await phones[0].post(f"{url}/rounds", json=penalties(0, 1), headers=auth)
            ).status_code == 201
    for attempt in range(10):
        version = (await phones[0].get(url, headers=auth)).json()["version"]
        entries = [penalties(1, 10 + 2 * attempt), penalties(2, 11 + 2 * attempt)]
        answers = await asyncio.gather(*(
            phone.put(f"{url}/rounds/1", json=entry, headers={**auth, "If-Match": f'"{version}"'})
            for phone, entry in zip(phones[:2], entries, strict=True)))
        assert sorted(a.status_code for a in answers) == [200, 412], [a.text for a in answers]
        winner = entries[[a.status_code for a in answers].index(200)]
        match = (await phones[0].get(url, headers=auth)).json()
        assert match["version"] == version + 1
        assert match["rounds"][0]["entry"] == winner
    history = (await phones[0].get(f"{url}/history", headers=auth)).json()
    assert [h["action"] for h in history].count("round_corrected") == 10


async def test_rounds_posted_at_once_get_consecutive_numbers_without_gaps_or_duplicates(
    phones: list[httpx.AsyncClient],
) -> None:
    url, auth = await new_match(phones[0])
    for burst in range(3):
        entries = [penalties(n % 3, PHONES * burst + n + 1) for n in range(PHONES)]
        answers = await asyncio.gather(*(
            phone.post(f"{url}/rounds", json=entry, headers=auth)
            for phone, entry in zip(phones, entries, strict=True)))
        assert [a.status_code for a in answers] == [201] * PHONES
        numbers = sorted(a.json()["number"] for a in answers)
        assert numbers == list(range(burst * PHONES + 1, (burst + 1) * PHONES + 1))
        match = (await phones[0].get(url, headers=auth)).json()
        for answer, entry in zip(answers, entries, strict=True):
            assert match["rounds"][answer.json()["number"] - 1]["entry"] == entry
    match = (await phones[0].get(url, headers=auth)).json()
    assert [r["number"] for r in match["rounds"]] == list(range(1, 3 * PHONES + 1))
    assert match["version"] == 3 * PHONES + 1


async def test_the_same_round_sent_by_every_phone_with_one_idempotency_key_is_stored_once(
    phones: list[httpx.AsyncClient],
) -> None:
    url, auth = await new_match(phones[0])
    headers = {**auth, "Idempotency-Key": "one-tap"}
    answers = await asyncio.gather(*(
        phone.post(f"{url}/rounds", json=penalties(1, 5), headers=headers) for phone in phones))
    assert [a.status_code for a in answers] == [201] * PHONES
    assert all(a.json() == answers[0].json() for a in answers)
    match = (await phones[0].get(url, headers=auth)).json()
    assert len(match["rounds"]) == 1
    assert match["version"] == 2


async def test_of_two_undos_of_the_last_round_at_once_exactly_one_removes_it(
    phones: list[httpx.AsyncClient],
) -> None:
    url, auth = await new_match(phones[0])
    for n in range(3):
        await phones[0].post(f"{url}/rounds", json=penalties(n, n + 1), headers=auth)
    answers = await asyncio.gather(*(
        phone.delete(f"{url}/rounds/3", headers={**auth, "If-Match": '"4"'})
        for phone in phones[:2]))
    statuses = sorted(a.status_code for a in answers)
    assert statuses[0] == 204
    assert statuses[1] in (404, 409, 412)
    match = (await phones[0].get(url, headers=auth)).json()
    assert [r["number"] for r in match["rounds"]] == [1, 2]
    assert match["version"] == 5


async def test_after_racing_writes_the_match_agrees_with_a_fresh_fold_of_its_rounds(
    phones: list[httpx.AsyncClient], served: Server,
) -> None:
    url, auth = await new_match(phones[0])
    await asyncio.gather(*(phone.post(f"{url}/rounds", json=penalties(n % 3, n), headers=auth)
                           for n, phone in enumerate(phones)))
    corrections = await asyncio.gather(*(
        phone.put(f"{url}/rounds/{n + 1}", json=penalties(2, 50 + n), headers=auth)
        for n, phone in enumerate(phones)))
    assert [c.status_code for c in corrections] == [200] * PHONES
    audit = await audit_database(served.database_url)
    assert audit.problems == []
    assert audit.entries[url.rsplit("/", 1)[1]] == [penalties(2, 50 + n) for n in range(PHONES)]
