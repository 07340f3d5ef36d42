"""A big club import leaves other tables recording their rounds and the server answering, and
the club is not there for anybody until it is complete.

Against a real ``tafelrunde serve`` on each database, as :mod:`tests.reliability.test_stalls`
does for tournaments (whose helpers this uses); ``bench/clubs.py`` measures the real figures.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import msgspec
import pytest
from sqlalchemy import select

from api.clubs import ledger
from api.clubs.backup import BIG_BACKUP_BYTES
from api.db.engine import create_engine
from api.shared.imports import HIDDEN
from bench.clubs import club_backup
from bench.harness import Server
from tests.reliability.test_stalls import import_while_playing

MATCHES = 1_000  # some 12,000 rows: checked in the helper process, stored in six writes


async def clubs(database_url: str) -> list[tuple[str, str]]:
    """Every club's id and token hash."""
    engine = create_engine(database_url)
    try:
        async with engine.connect() as connection:
            return [tuple(row) for row in await connection.execute(
                select(ledger.CLUBS.c.id, ledger.CLUBS.c.token_hash))]
    finally:
        await engine.dispose()


@pytest.mark.slow
async def test_a_big_club_import_lets_other_tables_play_and_is_invisible_until_complete(
    served: Server,
) -> None:
    body = msgspec.json.encode(club_backup(40, MATCHES))
    assert len(body) > BIG_BACKUP_BYTES
    seen: list[list[tuple[str, str]]] = []
    refused: list[int] = []

    async with httpx.AsyncClient(base_url=served.url, timeout=600) as http:
        async def watch(task: asyncio.Future[Any]) -> None:
            while not task.done():
                found = await clubs(served.database_url)
                seen.append(found)
                for club_id, token_hash in found:
                    if token_hash == HIDDEN:  # under way: not there, whoever asks
                        asked = (await http.get(f"/api/v1/clubs/{club_id}", headers={
                            "Authorization": "Bearer guessed"})).status_code
                        # Still hidden after the answer, so hidden while it was asked (the
                        # last write may come in between: then the club is there, and 403).
                        if (club_id, HIDDEN) in await clubs(served.database_url):
                            refused.append(asked)
                await asyncio.sleep(0.05)

        club = await import_while_playing(http, "/api/v1/clubs/import", body, watch)
        assert refused, "never seen under way"
        assert set(refused) == {404}
        # The last write gives the club its token hashes (the watcher may see it before the
        # answer arrives).
        assert all(token_hash == HIDDEN or club_id == club["id"]
                   for found in seen for club_id, token_hash in found)
        assert [club_id for club_id, _hash in await clubs(served.database_url)] == [club["id"]]
        assert club["finished_matches"] == MATCHES
        ladder = await http.get(f"/api/v1/clubs/{club['id']}/ratings",
                                params={"game": "tschau-sepp"},
                                headers={"Authorization": f"Bearer {club['view_token']}"})
        assert ladder.status_code == 200, ladder.text
        assert len(ladder.json()) == 40
