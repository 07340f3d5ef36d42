"""One ORM session per request: committed when the handler succeeds, rolled back otherwise.

Requests that may write (anything but GET/HEAD, unless the handler says ``opt={"reads": True}``)
start their transaction as a write transaction at once (SQLite: ``BEGIN IMMEDIATE``), after
this process's earlier writers (:meth:`api.db.database.Database.queue_for_writing`), so two
writers to one match queue up instead of failing.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import nullcontext
from typing import Any

from litestar import Request
from litestar.datastructures import State
from sqlalchemy.ext.asyncio import AsyncSession

from api.db.database import Database
from api.db.engine import WRITE

READ_METHODS = frozenset({"GET", "HEAD"})


def _writes(request: Request[Any, Any, Any]) -> bool:
    return request.method not in READ_METHODS and not request.route_handler.opt.get("reads")


async def provide_session(
    state: State, request: Request[Any, Any, Any],
) -> AsyncIterator[AsyncSession]:
    database: Database = state.database
    writes = _writes(request)
    async with database.queue_for_writing() if writes else nullcontext(), \
            database.sessions() as session:
        if writes:
            await session.connection(execution_options={WRITE: True})
        try:
            yield session
        except BaseException:
            await session.rollback()
            raise
        await session.commit()
