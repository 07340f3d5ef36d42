"""Core statements on the loop's sqlite3 connection behave as they do through the engine."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime

import pytest
from sqlalchemy import JSON, Column, DateTime, Integer, MetaData, Table, bindparam, insert, select
from sqlalchemy.exc import IntegrityError

from api.db.engine import create_engine
from api.db.loop_sqlite import LoopStatements

NOTES = Table("note", MetaData(), Column("id", Integer, primary_key=True),
              Column("body", JSON), Column("at", DateTime(timezone=True)))
NOTE = select(NOTES.c.body, NOTES.c.at).where(NOTES.c.id == bindparam("note_id"))


@pytest.fixture
def statements() -> Iterator[LoopStatements]:
    connection = sqlite3.connect(":memory:", isolation_level=None)
    connection.execute("CREATE TABLE note (id INTEGER PRIMARY KEY, body JSON, at DATETIME)")
    dialect = create_engine("sqlite+aiosqlite:///unused.db").dialect
    yield LoopStatements(connection, dialect)
    connection.close()


async def test_values_go_in_and_come_out_converted_as_the_engine_converts_them(
    statements: LoopStatements,
) -> None:
    at = datetime(2026, 11, 29, 14, 5, 6, 789, tzinfo=UTC)
    await statements.run(insert(NOTES), [{"id": 1, "body": {"seal": ["Ä", 7]}, "at": at},
                                         {"id": 2, "body": None, "at": at}])
    assert await statements.one(NOTE, {"note_id": 1}) == ({"seal": ["Ä", 7]},
                                                          at.replace(tzinfo=None))
    assert await statements.all(select(NOTES.c.id).order_by(NOTES.c.id), {}) == [(1,), (2,)]
    assert await statements.one(NOTE, {"note_id": 3}) is None


async def test_a_missing_parameter_is_an_error_not_a_null(statements: LoopStatements) -> None:
    with pytest.raises(KeyError, match="note_id"):
        await statements.one(NOTE, {"noteid": 1})


async def test_a_broken_constraint_is_raised_as_the_engine_raises_it(
    statements: LoopStatements,
) -> None:
    row = {"id": 1, "body": {}, "at": datetime.now(UTC)}
    await statements.run(insert(NOTES), row)
    with pytest.raises(IntegrityError):
        await statements.run(insert(NOTES), row)
