"""Core statements, run the same way whichever connection runs them.

The hot paths (recording a round, reading a match) are written as SQLAlchemy Core statements
defined once at import, with every value a named ``bindparam``, and run through the small
:class:`Statements` interface. Two kinds of connection implement it: SQLAlchemy's own
(:class:`EngineStatements`, for PostgreSQL and whenever SQLite's write lock is taken by another
process) and a SQLite connection on the event loop's thread (:mod:`api.db.loop_sqlite`), which
runs the same statements compiled once, with the same type conversions, and without a trip to a
driver thread. Rows come back as tuples in the statement's column order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from sqlalchemy import Executable
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession

Params = Mapping[str, Any]
Row = Sequence[Any]


class Statements(Protocol):
    """One transaction's statements."""

    async def one(self, statement: Executable, params: Params) -> Row | None:
        """The statement's only row, or None."""

    async def all(self, statement: Executable, params: Params) -> Sequence[Row]:
        """Every row of the statement."""

    async def run(self, statement: Executable, params: Params | Sequence[Params]) -> None:
        """A statement without rows; with a list of parameter sets, once per set."""


class EngineStatements:
    """:class:`Statements` through a SQLAlchemy connection or session (its transaction)."""

    def __init__(self, connection: AsyncConnection | AsyncSession) -> None:
        self._connection = connection

    async def one(self, statement: Executable, params: Params) -> Row | None:
        row: Row | None = (await self._connection.execute(statement, params)).one_or_none()
        return row

    async def all(self, statement: Executable, params: Params) -> Sequence[Row]:
        return (await self._connection.execute(statement, params)).all()

    async def run(self, statement: Executable, params: Params | Sequence[Params]) -> None:
        await self._connection.execute(statement, params)
