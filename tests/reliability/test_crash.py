"""Crashes (bench/crash.py at test scale): a server killed at random moments under a write load
keeps every acknowledged round and never keeps half a write."""

from __future__ import annotations

import pytest

from bench import crash
from bench.harness import DEFAULT_POSTGRES_URL

pytestmark = pytest.mark.slow


async def test_twenty_sigkills_under_load_lose_nothing_acknowledged_and_half_write_nothing(
    server_database: tuple[str, str],
) -> None:
    kind, postgres_url = server_database
    outcome = await crash.run(kind, kills=20, clients=4,
                              postgres_url=postgres_url or DEFAULT_POSTGRES_URL)
    assert outcome.rounds > 0
    assert outcome.resent > 0  # the kills really cut requests off
    assert outcome.problems == ()
    assert (outcome.lost, outcome.doubled, outcome.server_errors) == (0, 0, 0)
    if kind == "sqlite":
        assert outcome.integrity == ("ok",)
