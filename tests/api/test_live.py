"""Live changes reach every phone, whichever server process it is connected to.

Two real ``tafelrunde serve`` processes share one PostgreSQL database: a phone listening on one
hears a round recorded through the other (PostgreSQL LISTEN/NOTIFY), within two seconds. When a
process loses its listening connection, the phones connected to it are told to look again.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
import httpx
import pytest

from api.db.engine import asyncpg_dsn
from tests.conftest import ServerFactory, next_change, next_event

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


async def test_phones_look_again_when_the_server_lost_its_listening_connection(
    serve: ServerFactory, postgres_url: str, tmp_path: Path,
) -> None:
    """Notices sent while a process does not listen are lost; its phones hear ``current``
    again once it listens again, and read the match if it moved on."""
    with serve(tmp_path, postgres_url) as base:
        async with httpx.AsyncClient(timeout=5) as http:
            created = (await http.post(f"{base}/api/v1/matches", json={
                "game": "tschau-sepp", "players": ["Ann", "Bea"]})).json()
            async with http.stream("GET", f"{base}/api/v1/matches/{created['id']}/events"
                                   ) as stream:
                lines = stream.aiter_lines()
                assert await next_event(lines, "current") == {"version": 1}
                database = await asyncpg.connect(asyncpg_dsn(postgres_url))
                try:
                    listeners = await database.fetch(
                        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                        "WHERE datname = current_database() AND pid <> pg_backend_pid() "
                        "AND query LIKE 'LISTEN %'")
                finally:
                    await database.close()
                assert len(listeners) == 1
                # Not a timing claim: the listener reconnects after a second, and a loaded
                # machine may take longer; without the resync nothing would ever come.
                again = await asyncio.wait_for(next_event(lines, "current"), timeout=30)
    assert again == {"version": 1}
