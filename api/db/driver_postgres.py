"""PostgreSQL's hot paths straight on asyncpg.

Recording a round and reading a match are a dozen small statements on rows PostgreSQL has in
memory. Through SQLAlchemy's engine each statement also crossed a greenlet, a cursor adapter and
a result object: measured with ``bench/load.py``, that made a round cost twice the CPU of the
same round on SQLite's loop connection (:mod:`api.db.loop_sqlite`), which already skipped it. So
here the same Core statements, compiled once with the engine's dialect and its type conversions
(:class:`api.db.statements.CompiledStatements`), run on the asyncpg connection the engine's pool
lends (its codecs, the connection's settings and the pool's check that the server has not closed
it all stay the engine's). asyncpg prepares each statement once per connection and keeps it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import asyncpg
from sqlalchemy import Executable
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from api.db.statements import CompiledStatements, Params, Row


async def driver_of(connection: AsyncConnection) -> asyncpg.Connection:
    """The asyncpg connection under an engine's connection."""
    raw = await connection.get_raw_connection()
    driver: asyncpg.Connection = raw.driver_connection
    return driver


class DriverStatements:
    """:class:`api.db.statements.Statements` on an asyncpg connection (its transaction)."""

    def __init__(self, connection: asyncpg.Connection, compiled: CompiledStatements) -> None:
        self._connection = connection
        self._compiled = compiled

    async def one(self, statement: Executable, params: Params) -> Row | None:
        compiled = self._compiled(statement, params)
        try:
            raw = await self._connection.fetchrow(compiled.sql, *compiled.parameters(params))
        except asyncpg.IntegrityConstraintViolationError as error:  # a statement that writes
            raise IntegrityError(compiled.sql, dict(params), error) from None
        return None if raw is None else compiled.rows([raw])[0]

    async def all(self, statement: Executable, params: Params) -> Sequence[Row]:
        compiled = self._compiled(statement, params)
        return compiled.rows(await self._connection.fetch(compiled.sql,
                                                          *compiled.parameters(params)))

    async def run(self, statement: Executable, params: Params | Sequence[Params]) -> None:
        sets: Sequence[Params] = [params] if isinstance(params, Mapping) else params
        if not sets:
            return
        compiled = self._compiled(statement, sets[0])
        try:
            if len(sets) > 1:
                await self._connection.executemany(
                    compiled.sql, [compiled.parameters(values) for values in sets])
            else:
                await self._connection.execute(compiled.sql, *compiled.parameters(sets[0]))
        except asyncpg.IntegrityConstraintViolationError as error:  # as the engine raises it
            raise IntegrityError(compiled.sql, _shown(sets), error) from None


def _shown(sets: Sequence[Params]) -> list[dict[str, Any]]:
    return [dict(values) for values in sets]
