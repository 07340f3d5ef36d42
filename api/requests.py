"""What the controllers of every area take from a request: the bearer header, the live broker,
the session; the change stream they answer ``/events`` with, and the header of a download."""

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import msgspec
from litestar import Request
from litestar.di import NamedDependency
from litestar.response import ServerSentEventMessage
from sqlalchemy.ext.asyncio import AsyncSession

from api.live import Broker

Session = NamedDependency[AsyncSession]
SECURITY: list[dict[str, list[str]]] = [{}, {"bearer": []}]
"""Reads are open, or need a token where a match or tournament is private."""
PING_SECONDS = 15.0


def authorization(request: Request[Any, Any, Any]) -> str | None:
    return request.headers.get("authorization")


def attachment(filename: str) -> dict[str, str]:
    """The header that saves an answer as ``filename`` instead of showing it."""
    return {"Content-Disposition": f'attachment; filename="{filename}"'}


def broker(request: Request[Any, Any, Any]) -> Broker:
    live: Broker = request.app.state.broker
    return live


async def change_events(live: Broker, key: str) -> AsyncIterator[ServerSentEventMessage]:
    """Server-Sent Events: a comment once subscribed, then each change; a ping keeps proxies
    from closing a quiet stream."""
    async with live.subscribe(key) as queue:
        yield ServerSentEventMessage(comment="subscribed")
        while True:
            try:
                change = await asyncio.wait_for(queue.get(), PING_SECONDS)
            except TimeoutError:
                yield ServerSentEventMessage(comment="ping")
                continue
            yield ServerSentEventMessage(
                event="change", data=msgspec.json.encode(change).decode(),
            )
