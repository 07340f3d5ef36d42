"""``GET /matches/{id}`` sends the stored snapshot as it is: it must be exactly what encoding the
typed match gives, on SQLite (read on the event loop) and PostgreSQL (read through the engine)."""

from __future__ import annotations

import sqlite3
from typing import Any

import msgspec
import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from api.db.loop_sqlite import LoopSQLite
from api.matches import schemas as s

Client = AsyncTestClient[Litestar]


async def test_the_read_answer_is_the_typed_match_encoded_byte_for_byte(
    client: Client, new_table: Any,
) -> None:
    table = await new_table(players=["Änne", "Björn", "Çelik"])
    for penalty in ([0, 6, 7], [3, 0, 12]):
        winner = penalty.index(0)
        assert (await table.record({"winner": winner, "penalty": penalty})).status_code == 201
    response = await client.get(table.url)
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/json"
    typed = msgspec.json.decode(response.content, type=s.Match)
    assert response.content == msgspec.json.encode(typed)
    assert response.headers["etag"] == f'"{typed.version}"' == '"3"'


async def test_a_busy_database_sends_the_read_through_the_engine(
    client: Client, new_table: Any, monkeypatch: pytest.MonkeyPatch,
) -> None:
    table = await new_table()
    refused: list[str] = []

    def busy(*_args: Any) -> Any:
        refused.append("busy")
        error = sqlite3.OperationalError("database is locked")
        error.sqlite_errorcode = sqlite3.SQLITE_BUSY
        raise error

    monkeypatch.setattr(LoopSQLite, "read_one", busy)
    response = await client.get(table.url)
    assert response.status_code == 200
    assert response.json()["id"] == table.id
    assert refused == (["busy"] if client.app.state.settings.is_sqlite else [])
