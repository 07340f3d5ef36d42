"""A club for API tests: matches started for it and played to a chosen result in one round."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import httpx
from litestar.testing import AsyncTestClient

CLUBS = "/api/v1/clubs"
MATCHES = "/api/v1/matches"
TOURNAMENTS = "/api/v1/tournaments"


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def tschau_round(penalties: list[int]) -> dict[str, Any]:
    """One Tschau Sepp game: the seat with 0 penalty points went out first."""
    return {"winner": penalties.index(0), "penalty": penalties}


@dataclass
class Club:
    client: AsyncTestClient  # type: ignore[type-arg]
    id: str
    token: str
    view_token: str

    @property
    def url(self) -> str:
        return f"{CLUBS}/{self.id}"

    @property
    def auth(self) -> dict[str, str]:
        return bearer(self.token)

    async def start(self, players: list[str], game: str = "tschau-sepp",
                    options: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
        response = await self.client.post(MATCHES, headers=self.auth, json={
            "game": game, "players": players,
            "options": {"games": 1} if options is None and game == "tschau-sepp"
            else options or {}, "club": self.id, **extra})
        assert response.status_code == 201, response.text
        match: dict[str, Any] = response.json()
        return match

    async def record(self, match: dict[str, Any], entry: dict[str, Any]) -> httpx.Response:
        return await self.client.post(f"{MATCHES}/{match['id']}/rounds", json=entry,
                                      headers=bearer(match["token"]))

    async def play(self, players: list[str], penalties: list[int]) -> dict[str, Any]:
        """A one-game Tschau Sepp match, finished with these penalty points."""
        match = await self.start(players)
        recorded = await self.record(match, tschau_round(penalties))
        assert recorded.status_code == 201, recorded.text
        assert recorded.json()["status"] == "finished"
        return match

    async def get(self, path: str = "", **params: Any) -> Any:
        response = await self.client.get(f"{self.url}{path}", params=params, headers=self.auth)
        assert response.status_code == 200, response.text
        return response.json()

    async def members(self) -> dict[str, dict[str, Any]]:
        """``GET .../players`` by name."""
        return {member["name"]: member for member in await self.get("/players")}


async def new_club(client: AsyncTestClient, name: str = "Donnerstagsrunde") -> Club:  # type: ignore[type-arg]
    response = await client.post(CLUBS, json={"name": name})
    assert response.status_code == 201, response.text
    body = response.json()
    return Club(client, body["id"], body["token"], body["view_token"])
