"""Issue 23, item 14: the match CSV says Sea Change's trump at round end (the suit, in the
reader's language) and the match's winner on the round that decided it, on SQLite and
PostgreSQL."""

from __future__ import annotations

from litestar import Litestar
from litestar.testing import AsyncTestClient

from tests.api.test_exports import sea_change_match, table

Client = AsyncTestClient[Litestar]


async def test_a_sea_change_sheet_names_the_final_trump_in_the_readers_language(
    client: Client,
) -> None:
    match = await sea_change_match(client, ["Ann", "Bea", "Cem", "Dan"])
    (played,) = table(await client.get(f"{match}/export"))
    assert played["Trump at round end"] == "yellow"
    assert played["Match winner"] == ""  # not decided yet
    (german,) = table(await client.get(f"{match}/export?lang=de"), ",")
    assert german["Trumpf am Rundenende"] == "Gelb"
    assert list(german)[:2] == ["Runde", "Trumpf am Rundenende"]


async def test_the_winner_stands_on_the_round_that_decided_the_match(client: Client) -> None:
    created = (await client.post("/api/v1/matches", json={
        "game": "tschau-sepp", "players": ["Ann", "Bea", "Cem"], "options": {"games": 2}})).json()
    auth = {"Authorization": f"Bearer {created['token']}"}
    for entry in ({"winner": 1, "penalty": [9, 0, 3]}, {"winner": 1, "penalty": [6, 0, 12]}):
        recorded = await client.post(f"/api/v1/matches/{created['id']}/rounds", json=entry,
                                     headers=auth)
        assert recorded.status_code == 201, recorded.text
    first, last = table(await client.get(f"/api/v1/matches/{created['id']}/export?lang=fr"))
    assert first["Vainqueur de la partie"] == ""
    assert last["Vainqueur de la partie"] == "Bea"
    assert "Trump at round end" not in first  # a column only games that have one show
