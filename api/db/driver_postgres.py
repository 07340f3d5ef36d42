"""PostgreSQL's hot paths straight on asyncpg.

Recording a round and reading a match are a dozen small statements on rows PostgreSQL has in
memory. Through SQLAlchemy's engine each statement also crossed a greenlet, a cursor adapter and
a result object: measured with ``bench/load.py``, that made a round cost twice the CPU of the
same round on SQLite's loop connection (:mod:`api.db.loop_sqlite`), which already skipped it. So
here the same Core statements, compiled once with the engine's dialect and its type conversions
(:class:`api.db.statements.CompiledStatements`), run on asyncpg connections the engine opened and
:class:`Lender` keeps out of its pool (their codecs and settings stay the engine's). asyncpg
prepares each statement once per connection and keeps it.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import asyncpg
from sqlalchemy import Executable
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from api.db.statements import CompiledStatements, Params, Row

LENT = 10
"""Of a process's pooled connections (:data:`api.db.engine.POOL_SIZE`), how many the hot paths
may keep out of the pool; the others serve the ORM sessions."""


async def driver_of(connection: AsyncConnection) -> asyncpg.Connection:
    """The asyncpg connection under an engine's connection."""
    raw = await connection.get_raw_connection()
    driver: asyncpg.Connection = raw.driver_connection
    return driver


_Held = tuple[AsyncConnection, asyncpg.Connection]
T = TypeVar("T")


async def _begun(connection: asyncpg.Connection) -> Any:
    transaction = connection.transaction()
    await transaction.start()
    return transaction


class Lender:
    """Up to ``size`` of the engine's connections, kept checked out, whose asyncpg connections are
    lent for one statement or one transaction at a time.

    Taking a connection from the engine's pool and wrapping it cost the server about 85 µs of
    CPU, more than twice the asyncpg call of a one-statement read or write (``bench/load.py``);
    lending one kept costs a list pop. The connections stay the engine's: opened with its settings
    and codecs, counted in its pool size, and given back to it invalidated when they end.
    Requests beyond ``size`` wait their turn, first come first served.

    A connection the server has closed is replaced when it is taken, also one it is closing
    (:meth:`_first_use`). One whose borrower was cancelled may be mid-statement or
    mid-transaction: it is closed rather than lent again."""

    def __init__(self, engine: AsyncEngine, compiled: CompiledStatements,
                 size: int = LENT) -> None:
        self._engine = engine
        self._compiled = compiled
        self._size = size
        self._idle: list[_Held] = []
        self._out = 0
        """Connections checked out of the engine: idle, lent, or being opened."""
        self._waiting: deque[asyncio.Future[None]] = deque()

    async def one(self, statement: Executable, params: Params) -> Row | None:
        """Run one statement in autocommit (its own transaction); its first row, or None."""
        held, row = await self._first_use(
            lambda connection: DriverStatements(connection, self._compiled).one(statement, params))
        await self._settle(held, answered=True)
        return row

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[DriverStatements]:
        """One transaction: committed when the block ends, rolled back when it raises."""
        held, transaction = await self._first_use(_begun)
        answered = False  # until then: cancelled, perhaps mid-statement
        try:
            yield DriverStatements(held[1], self._compiled)
        except Exception:  # a statement refused, or the request's own problem
            await transaction.rollback()
            answered = True
            raise
        else:
            await transaction.commit()
            answered = True
        finally:
            await self._settle(held, answered)

    async def _first_use(self, use: Callable[[asyncpg.Connection], Awaitable[T]]
                         ) -> tuple[_Held, T]:
        """A connection lent, and what ``use`` of it gave.

        PostgreSQL ends a connection (an administrator's ``pg_terminate_backend``, a restart) with
        a last error message, then closes it. Between the two the connection is not closed yet
        but refuses every statement before sending it (``InternalClientError``): nothing was
        done, so another connection is taken instead (each idle one at most once)."""
        tries = self._size + 1
        while True:
            tries -= 1
            held = await self._take()
            try:
                return held, await use(held[1])
            except asyncpg.InternalClientError:
                await asyncio.shield(self._close(held))
                if not tries:
                    raise
            except BaseException as error:
                await self._settle(held, answered=isinstance(error, Exception))
                raise

    async def _settle(self, held: _Held, answered: bool) -> None:
        """Lend the connection again, or, if its borrower was cancelled (a statement or
        transaction may be under way) or it is left in a transaction, close it."""
        if answered and not held[1].is_in_transaction():
            self._give_back(held)
        else:
            await asyncio.shield(self._close(held))

    async def _take(self) -> _Held:
        while True:
            while self._idle:
                held = self._idle.pop()
                if not held[1].is_closed():
                    return held
                await self._close(held)
            if self._out < self._size:
                self._out += 1
                try:
                    return await self._opened()
                except BaseException:
                    self._out -= 1
                    self._wake()
                    raise
            turn = asyncio.get_running_loop().create_future()
            self._waiting.append(turn)
            try:
                await turn
            except BaseException:
                if turn.done() and not turn.cancelled():
                    self._wake()  # woken and cancelled at once: the turn goes to the next
                elif turn in self._waiting:  # else a wake already passed it over
                    self._waiting.remove(turn)
                raise

    async def _opened(self) -> _Held:
        connection = await self._engine.connect()
        try:
            return connection, await driver_of(connection)
        except BaseException:
            await asyncio.shield(connection.close())
            raise

    def _give_back(self, held: _Held) -> None:
        self._idle.append(held)
        self._wake()

    async def _close(self, held: _Held) -> None:
        """Give the connection back to the engine's pool closed, freeing its place."""
        self._out -= 1
        self._wake()
        connection, driver = held
        driver.terminate()
        await connection.invalidate()
        await connection.close()

    def _wake(self) -> None:
        while self._waiting:
            turn = self._waiting.popleft()
            if not turn.done():
                turn.set_result(None)
                return

    async def close(self) -> None:
        """Give every idle connection back to the engine's pool (before it is disposed of)."""
        idle, self._idle = self._idle, []
        for connection, _driver in idle:
            self._out -= 1
            await connection.close()


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
