"""What the controllers of every area take from a request: the bearer header, the live broker,
the session; the change stream they answer ``/events`` with, and the header of a download."""

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import msgspec
from litestar import Request
from litestar.di import NamedDependency
from litestar.response import ServerSentEventMessage
from sqlalchemy.ext.asyncio import AsyncSession

from api.shared.live import RESYNC, Broker

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


EVENTS_DESCRIPTION = (
    " The stream opens with a `current` event, `{\"version\"}`: the version once the stream "
    "listens, so a reader that loaded the resource before connecting (or reconnects after a "
    "drop) knows whether it missed a change. Then a `change` event, `{\"version\", "
    "\"action\", \"round\"}`, follows every write. Changes are hints: they may arrive late "
    "or out of order, so read the resource again when a version is newer than the one shown. "
    "A `current` event may come again later (the server lost track of changes for a moment). "
    "A comment every 15 seconds keeps proxies from closing a quiet stream."
)


class Comment(ServerSentEventMessage):
    """A comment line alone (``: ping``). Litestar adds an empty ``data:`` line to every
    message, which makes each browser fire an empty ``message`` event for a keep-alive."""

    def encode(self) -> bytes:
        return f": {self.comment}\r\n\r\n".encode()


def _current(version: int) -> ServerSentEventMessage:
    return ServerSentEventMessage(event="current", data=f'{{"version":{version}}}')


async def change_events(
    live: Broker, key: str, version: Callable[[], Awaitable[int]],
) -> AsyncIterator[ServerSentEventMessage]:
    """Server-Sent Events (see ``EVENTS_DESCRIPTION``): a comment once subscribed, ``current``
    with the ``version()`` read after subscribing (a change committed later is heard, one
    committed earlier is in that version), then each change, with pings in between."""
    async with live.subscribe(key) as queue:
        yield Comment(comment="subscribed")
        yield _current(await version())
        while True:
            try:
                change = await asyncio.wait_for(queue.get(), PING_SECONDS)
            except TimeoutError:
                yield Comment(comment="ping")
                continue
            if change is RESYNC:
                yield _current(await version())
                continue
            yield ServerSentEventMessage(
                event="change", data=msgspec.json.encode(change).decode(),
            )
