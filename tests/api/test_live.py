"""Live changes reach every phone, whichever server process it is connected to.

Two real ``tafelrunde serve`` processes share one PostgreSQL database: a phone listening on one
hears a round recorded through the other (PostgreSQL LISTEN/NOTIFY), within two seconds.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest

from tests.conftest import ServerFactory, next_change

pytestmark = [pytest.mark.slow, pytest.mark.postgres]


async def test_a_phone_on_one_process_hears_a_round_recorded_through_another(
    serve: ServerFactory, postgres_url: str, tmp_path: Path,
) -> None:
    with serve(tmp_path, postgres_url) as first, serve(tmp_path, postgres_url) as second:
        async with httpx.AsyncClient(timeout=5) as http:
            created = (await http.post(f"{first}/api/v1/matches", json={
                "game": "tschau-sepp", "players": ["Ann", "Bea"]})).json()
            path = f"/api/v1/matches/{created['id']}"
            async with http.stream("GET", f"{second}{path}/events") as stream:
                lines = stream.aiter_lines()
                assert (await anext(lines)).startswith(":")  # subscribed on the second process
                posted = await http.post(
                    f"{first}{path}/rounds", json={"winner": 1, "penalty": [9, 0]},
                    headers={"Authorization": f"Bearer {created['token']}"})
                assert posted.status_code == 201
                change = await asyncio.wait_for(next_change(lines), timeout=2)
    assert change == {"version": 2, "action": "round_added", "round": 1}
