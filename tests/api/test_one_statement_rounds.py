"""On PostgreSQL a match is made in one statement (``service.MATCH_MADE_IN_ONE_STATEMENT``) and a
round of a match this process wrote last is recorded in one (``service.round_in_one_statement``)
instead of a transaction: they must store exactly what the locked way stores, and a round must
give way to it whenever the match is not as this process left it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient

from api.app import create_app
from api.db.database import Database
from api.db.engine import asyncpg_dsn
from api.server.settings import Settings
from scoring import registry
from scoring.match import fold_match, set_up
from tests.api.conftest import NewTable, Table
from tests.conftest import problem

Client = AsyncTestClient[Litestar]
ON_POSTGRES = pytest.mark.parametrize(
    "database_url", [pytest.param("postgresql", marks=pytest.mark.postgres)], indirect=True)
pytestmark = ON_POSTGRES
ROUNDS = [{"winner": 0, "penalty": [0, 13, 24]}, {"winner": 1, "penalty": [16, 0, 30]},
          {"winner": 2, "penalty": [27, 14, 0]}]


@pytest.fixture
def locked_writes(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Counts the transactions opened for writing (the locked way; creating a match too)."""
    opened: list[str] = []
    write = Database.write

    def counted(self: Database, **options: Any) -> Any:
        opened.append("write")
        return write(self, **options)

    monkeypatch.setattr(Database, "write", counted)
    return opened


async def stored(settings: Settings, match_id: str) -> dict[str, Any]:
    """What the database holds for a match, without its id and times (nor the requests'
    fingerprints, which hold the match's address)."""
    connection = await asyncpg.connect(asyncpg_dsn(settings.database_url))
    try:
        match = await connection.fetchrow(
            "SELECT version, status, winners::text, reason::text, standings::text, next_dealer, "
            "(snapshot::jsonb - 'id' - 'created_at' - 'updated_at' - 'played_at')::text "
            "AS snapshot "
            "FROM match WHERE id = $1", match_id)
        rounds = await connection.fetch(
            "SELECT number, entry::text, result::text, totals::text FROM round "
            "WHERE match_id = $1 ORDER BY number", match_id)
        audit = await connection.fetch(
            "SELECT action, round, old_entry::text, new_entry::text, token_kind FROM audit "
            "WHERE match_id = $1 ORDER BY id", match_id)
        answers = await connection.fetch(
            "SELECT key, status, (body::jsonb)::text FROM idempotency "
            "WHERE match_id = $1 ORDER BY id", match_id)
    finally:
        await connection.close()
    return {"match": dict(match), "rounds": [tuple(row) for row in rounds],
            "audit": [tuple(row) for row in audit], "answers": [tuple(row) for row in answers]}


def fresh_totals(entries: list[Any]) -> Any:
    game = registry.game_by_id("tschau-sepp")
    assert game is not None
    folded = fold_match(game, set_up(game, ["Ann", "Bea", "Cem"], {}), entries)
    return folded.rounds[-1].as_json()["totals"]


async def test_a_match_and_its_rounds_are_stored_in_one_statement_each_as_the_locked_way_does(
    new_table: NewTable, settings: Settings, locked_writes: list[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    quick = await new_table()
    for number, entry in enumerate(ROUNDS, start=1):
        answer = await quick.record(entry, **{"Idempotency-Key": f"key-{number}"})
        assert answer.status_code == 201, answer.text
    assert locked_writes == []  # made and every round in one statement, none the locked way

    with monkeypatch.context() as locking:
        locking.setattr(Database, "writes_one_statement", False)
        locked = await new_table()
        for number, entry in enumerate(ROUNDS, start=1):
            answer = await locked.record(entry, **{"Idempotency-Key": f"key-{number}"})
            assert answer.status_code == 201, answer.text
    assert locked_writes == ["write"] * (1 + len(ROUNDS))
    assert await stored(settings, quick.id) == await stored(settings, locked.id)
    assert (await quick.read())["rounds"][-1]["totals"] == fresh_totals(ROUNDS)


@pytest.fixture
async def other_process(settings: Settings) -> AsyncIterator[Client]:
    """A second server on the same database, with its own kept matches."""
    async with AsyncTestClient(app=create_app(settings)) as test_client:
        yield test_client


async def test_a_match_another_process_changed_since_is_read_again_and_still_one_statement(
    new_table: NewTable, other_process: Client, locked_writes: list[str],
) -> None:
    table = await new_table()
    assert (await table.record(ROUNDS[0])).status_code == 201
    corrected = {"winner": 2, "penalty": [40, 41, 0]}
    elsewhere = await other_process.put(f"{table.url}/rounds/1", json=corrected,
                                        headers=table.auth())
    assert elsewhere.status_code == 200, elsewhere.text
    locked_writes.clear()

    answer = await table.record(ROUNDS[1])  # this process still knows the match at version 2
    assert answer.status_code == 201, answer.text
    written = answer.json()
    assert (written["number"], written["version"]) == (2, 4)
    assert written["totals"] == fresh_totals([corrected, ROUNDS[1]])
    # The statement from version 2 wrote nothing; the match read as stored, one more did.
    assert locked_writes == []
    match = await table.read()
    assert [r["entry"] for r in match["rounds"]] == [corrected, ROUNDS[1]]


async def test_a_round_reaching_a_process_that_never_wrote_the_match_is_one_statement(
    new_table: NewTable, other_process: Client, locked_writes: list[str], settings: Settings,
) -> None:
    """As when a phone's new connection reaches another worker."""
    table = await new_table()
    assert (await table.record(ROUNDS[0])).status_code == 201
    locked_writes.clear()
    answer = await other_process.post(f"{table.url}/rounds", json=ROUNDS[1],
                                      headers=table.auth())
    assert answer.status_code == 201, answer.text
    assert answer.json()["totals"] == fresh_totals(ROUNDS[:2])
    assert locked_writes == []
    assert (await stored(settings, table.id))["match"]["version"] == 3


async def test_a_repeated_idempotency_key_is_answered_again_and_stores_nothing(
    new_table: NewTable, settings: Settings, locked_writes: list[str],
) -> None:
    table = await new_table()
    first = await table.record(ROUNDS[0], **{"Idempotency-Key": "once"})
    assert first.status_code == 201
    second = await table.record(ROUNDS[1], **{"Idempotency-Key": "twice"})
    assert second.status_code == 201
    locked_writes.clear()
    # The key of this process's last write of the match is answered from what it kept ...
    again = await table.record(ROUNDS[1], **{"Idempotency-Key": "twice"})
    assert (again.status_code, again.json()) == (201, second.json())
    other_body = await table.record(ROUNDS[2], **{"Idempotency-Key": "twice"})
    assert problem(other_body, 422)["errors"][0]["code"] == "idempotency_key_reused"
    assert locked_writes == []
    # ... an older key from the database, the locked way.
    again = await table.record(ROUNDS[0], **{"Idempotency-Key": "once"})
    assert (again.status_code, again.json()) == (201, first.json())
    other_body = await table.record(ROUNDS[2], **{"Idempotency-Key": "once"})
    assert problem(other_body, 422)["errors"][0]["code"] == "idempotency_key_reused"
    assert locked_writes == ["write", "write"]
    held = await stored(settings, table.id)
    assert [number for number, *_ in held["rounds"]] == [1, 2]
    assert [key for key, *_ in held["answers"]] == ["once", "twice"]
    assert held["match"]["version"] == 3


async def test_a_stale_if_match_is_never_written_in_one_statement(
    new_table: NewTable, other_process: Client, locked_writes: list[str], settings: Settings,
) -> None:
    """This process keeps the match at version 2 and the phone saw version 2, but another
    process wrote round 2 since: the statement from version 2 writes nothing, the match as
    stored is at version 3, and the locked way says 412."""
    table = await new_table()
    assert (await table.record(ROUNDS[0])).status_code == 201
    elsewhere = await other_process.post(f"{table.url}/rounds", json=ROUNDS[1],
                                         headers=table.auth())
    assert elsewhere.status_code == 201, elsewhere.text
    locked_writes.clear()
    problem(await table.record(ROUNDS[2], **{"If-Match": '"2"', "Idempotency-Key": "late"}),
            412)
    assert locked_writes == ["write"]
    held = await stored(settings, table.id)
    assert (held["match"]["version"], len(held["rounds"]), held["answers"]) == (3, 2, [])
    # A phone that saw version 3 is written in one statement again.
    locked_writes.clear()
    written = await table.record(ROUNDS[2], **{"If-Match": '"3"'})
    assert (written.status_code, written.json()["version"]) == (201, 4)
    assert locked_writes == []


async def test_a_kept_answer_wins_over_a_stale_if_match(
    new_table: NewTable, locked_writes: list[str],
) -> None:
    table = await new_table()
    first = await table.record(ROUNDS[0], **{"If-Match": '"1"', "Idempotency-Key": "k"})
    assert first.status_code == 201
    again = await table.record(ROUNDS[0], **{"If-Match": '"1"', "Idempotency-Key": "k"})
    assert (again.status_code, again.json()) == (201, first.json())
    assert locked_writes == []  # answered from what this process kept of its last write


async def test_a_round_after_the_deciding_one_and_a_wrong_token_get_their_problems(
    new_table: NewTable, settings: Settings,
) -> None:
    table: Table = await new_table({"games": 2})
    for entry in ROUNDS[:2]:
        assert (await table.record(entry)).status_code == 201
    problem(await table.record(ROUNDS[2]), 409)
    wrong = await table.client.post(f"{table.url}/rounds", json=ROUNDS[2],
                                    headers=table.auth(table.view_token))
    problem(wrong, 403)
    assert (await stored(settings, table.id))["match"]["version"] == 3
