"""A Tschau Sepp table for API tests: its rounds are the simplest to write down."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from litestar.testing import AsyncTestClient

PLAYERS = ["Ann", "Bea", "Cem"]


@dataclass
class Table:
    client: AsyncTestClient  # type: ignore[type-arg]
    id: str
    token: str
    view_token: str
    created: dict[str, Any]

    @property
    def url(self) -> str:
        return f"/api/v1/matches/{self.id}"

    def auth(self, token: str | None = None) -> dict[str, str]:
        return {"Authorization": f"Bearer {token or self.token}"}

    async def record(self, entry: Any, **headers: str) -> httpx.Response:
        return await self.client.post(f"{self.url}/rounds", json=entry,
                                      headers={**self.auth(), **headers})

    async def read(self) -> dict[str, Any]:
        response = await self.client.get(self.url, headers=self.auth())
        assert response.status_code == 200, response.text
        body: dict[str, Any] = response.json()
        return body


NewTable = Callable[..., Awaitable[Table]]


@pytest.fixture
def new_table(client: AsyncTestClient) -> NewTable:  # type: ignore[type-arg]
    async def create(options: dict[str, Any] | None = None, *, private: bool = False,
                     players: list[str] | None = None) -> Table:
        response = await client.post("/api/v1/matches", json={
            "game": "tschau-sepp", "players": players or PLAYERS, "options": options or {},
            "private": private,
        })
        assert response.status_code == 201, response.text
        body = response.json()
        return Table(client, body["id"], body["token"], body["view_token"], body)

    return create
