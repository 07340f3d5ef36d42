"""Crashes (bench/crash.py at test scale): a server killed at random moments under a write load
keeps every acknowledged round and never keeps half a write.

One class per database: ``--dist loadscope`` keeps a module's functions on one worker but gives
each class its own, so the two runs go side by side instead of one after the other at the end of
the suite.

Every kill costs a server start (a second or two of imports, several on a loaded machine), so the
suite kills six times per database: each kill cuts the phones' requests in flight (``resent``
proves it), and a round lost or doubled at any of them fails the test. The reliability bench's
count (``bench/crash.py`` kills 50 times) is one variable away:
``TAFELRUNDE_TEST_CRASH_KILLS=50 .venv/bin/python -m pytest tests/reliability/test_crash.py``.
"""

from __future__ import annotations

import os

import pytest

from bench import crash
from bench.harness import DEFAULT_POSTGRES_URL

pytestmark = pytest.mark.slow
KILLS = int(os.environ.get("TAFELRUNDE_TEST_CRASH_KILLS", "6"))


class Crashes:
    async def test_sigkills_under_load_lose_nothing_acknowledged_and_half_write_nothing(
        self, server_database: tuple[str, str],
    ) -> None:
        kind, postgres_url = server_database
        outcome = await crash.run(kind, kills=KILLS, clients=4,
                                  postgres_url=postgres_url or DEFAULT_POSTGRES_URL)
        assert outcome.rounds > 0
        assert outcome.resent > 0  # the kills really cut requests off
        assert outcome.problems == ()
        assert (outcome.lost, outcome.doubled, outcome.server_errors) == (0, 0, 0)
        if kind == "sqlite":
            assert outcome.integrity == ("ok",)


@pytest.mark.parametrize("server_database", ["sqlite"], indirect=True)
class TestOnSQLite(Crashes):
    pass


@pytest.mark.parametrize(
    "server_database", [pytest.param("postgresql", marks=pytest.mark.postgres)], indirect=True)
class TestOnPostgreSQL(Crashes):
    pass
