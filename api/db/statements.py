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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from sqlalchemy import Executable
from sqlalchemy.engine import Dialect
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncSession
from sqlalchemy.sql.compiler import SQLCompiler
from sqlalchemy.sql.elements import ClauseElement
from sqlalchemy.types import NumericCommon, TypeEngine

Params = Mapping[str, Any]
Row = Sequence[Any]
_Processor = Callable[[Any], Any] | None
_REQUIRED = object()  # a named parameter the statement cannot run without


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


@dataclass(frozen=True, slots=True)
class Compiled:
    """A statement as a driver takes it: positional SQL, each parameter's name, default and
    conversion, and each result column's conversion (the engine's own, for its dialect)."""

    sql: str
    binds: tuple[tuple[str, Any, _Processor], ...]
    columns: tuple[_Processor, ...]

    def parameters(self, params: Params) -> list[Any]:
        values = []
        for name, default, process in self.binds:
            value = params.get(name, default)
            if value is _REQUIRED:
                raise KeyError(f"no value for the parameter {name!r} of: {self.sql}")
            values.append(value if process is None else process(value))
        return values

    def rows(self, raws: Sequence[Sequence[Any]]) -> list[Row]:
        if not any(self.columns):
            return list(raws)
        columns = self.columns
        return [tuple([value if process is None else process(value)
                       for value, process in zip(raw, columns, strict=True)]) for raw in raws]


def _compile(statement: Executable, dialect: Dialect, keys: tuple[str, ...]) -> Compiled:
    assert isinstance(statement, ClauseElement)
    compiled = statement.compile(dialect=dialect, column_keys=list(keys) or None)
    assert isinstance(compiled, SQLCompiler)
    binds = []
    for name in compiled.positiontup or ():
        bind = compiled.binds[name]
        binds.append((name, _REQUIRED if bind.required else bind.effective_value,
                      bind.type.dialect_impl(dialect).bind_processor(dialect)))
    columns = tuple(_result_processor(column.type, dialect)
                    for column in getattr(statement, "selected_columns", ()))
    return Compiled(compiled.string, tuple(binds), columns)


def _result_processor(column_type: TypeEngine[Any], dialect: Dialect) -> _Processor:
    impl = column_type.dialect_impl(dialect)
    if isinstance(impl, NumericCommon) and not impl.asdecimal:
        # asyncpg's conversion depends on the type code of the column as it comes (a float
        # comes as a float, a numeric as a Decimal), which is known only when rows come:
        # converting whatever number comes is right for each.
        return _to_float
    return impl.result_processor(dialect, None)


def _to_float(value: Any) -> float | None:
    return None if value is None else float(value)


class CompiledStatements:
    """Each statement compiled once for a dialect, for running straight on its driver."""

    def __init__(self, dialect: Dialect) -> None:
        self._dialect = dialect
        self._compiled: dict[tuple[Executable, tuple[str, ...]], Compiled] = {}

    def __call__(self, statement: Executable, params: Params) -> Compiled:
        # INSERT and UPDATE set the columns their parameters name, as SQLAlchemy compiles them.
        keys = tuple(params) if getattr(statement, "is_dml", False) else ()
        found = self._compiled.get((statement, keys))
        if found is None:
            found = self._compiled[(statement, keys)] = _compile(statement, self._dialect, keys)
        return found
