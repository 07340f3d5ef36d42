"""One session per request: committed when the handler succeeds, rolled back otherwise.

Requests that may write (anything but GET/HEAD, unless the handler says ``opt={"reads": True}``)
start their transaction as a write transaction at once (SQLite: ``BEGIN IMMEDIATE``), so two
writers to one match queue up instead of failing. On SQLite, writers of this process also queue
on an asyncio lock first: SQLite's own busy handler waits by sleeping with a growing backoff, which
turns a queue of writers into idle time; the lock hands over at once. Other processes still meet
the database lock and its busy timeout.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, nullcontext
from typing import Any

from litestar import Request
from litestar.datastructures import State
from sqlalchemy.ext.asyncio import AsyncEngine, AsyncSession, async_sessionmaker

from api.db.engine import WRITE

READ_METHODS = frozenset({"GET", "HEAD"})


def session_maker(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


def writer_lock(engine: AsyncEngine) -> asyncio.Lock | None:
    """The in-process queue for writers, where the database serialises writers per file."""
    return asyncio.Lock() if engine.dialect.name == "sqlite" else None


def _writes(request: Request[Any, Any, Any]) -> bool:
    return request.method not in READ_METHODS and not request.route_handler.opt.get("reads")


async def provide_session(
    state: State, request: Request[Any, Any, Any],
) -> AsyncIterator[AsyncSession]:
    maker: async_sessionmaker[AsyncSession] = state.sessions
    writes = _writes(request)
    lock: asyncio.Lock | None = state.writer_lock
    queue: AbstractAsyncContextManager[Any] = lock if writes and lock else nullcontext()
    async with queue, maker() as session:
        if writes:
            await session.connection(execution_options={WRITE: True})
        try:
            yield session
        except BaseException:
            await session.rollback()
            raise
        await session.commit()
