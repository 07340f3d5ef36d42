"""Load with retries (bench/load.py at test scale): phones on flaky connections lose nothing
and store nothing twice."""

from __future__ import annotations

import pytest

from bench import load
from bench.harness import DEFAULT_POSTGRES_URL, Chaos

pytestmark = pytest.mark.slow


async def test_every_acknowledged_round_is_stored_exactly_once_despite_dropped_connections(
    server_database: tuple[str, str],
) -> None:
    kind, postgres_url = server_database
    figures = await load.run(kind, clients=8, rounds=6, postgres_url=postgres_url
                             or DEFAULT_POSTGRES_URL, chaos=Chaos(0.1, 0.1))
    assert figures.rounds >= 8 * 6
    assert figures.dropped_on_purpose > 0
    assert figures.retries >= figures.dropped_on_purpose
    assert figures.problems == ()
    assert (figures.lost, figures.doubled, figures.server_errors) == (0, 0, 0)


@pytest.mark.postgres
async def test_two_workers_lose_and_double_nothing_when_a_matchs_rounds_reach_either(
    postgres_server: str,
) -> None:
    """A phone whose connection drops sends again on a new one, which the other worker may
    accept: there the match is folded afresh (each worker keeps its own recent folds)."""
    figures = await load.run("postgresql", clients=8, rounds=6, postgres_url=postgres_server,
                             chaos=Chaos(0.1, 0.1), workers=2)
    assert figures.rounds >= 8 * 6
    assert figures.dropped_on_purpose > 0
    assert figures.problems == ()
    assert (figures.lost, figures.doubled, figures.server_errors) == (0, 0, 0)
