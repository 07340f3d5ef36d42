"""What the controllers of every area take from a request: the bearer header, the live broker,
the session; the change stream they answer ``/events`` with, and the header of a download."""

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, cast

from litestar import Request
from litestar.di import NamedDependency
from litestar.response import ServerSentEventMessage
from sqlalchemy.ext.asyncio import AsyncSession

from api.edge.connections import SOCKET
from api.shared.live import RESYNC, Broker, Change, Socket, change_bytes

Session = NamedDependency[AsyncSession]
SECURITY: list[dict[str, list[str]]] = [{}, {"bearer": []}]
"""Reads are open, or need a token where a match or tournament is private."""


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
    "A comment every 15 seconds (the server's `TAFELRUNDE_EVENT_PING`) keeps proxies from "
    "closing a quiet stream."
)


class Comment(ServerSentEventMessage):
    """A comment line alone (``: ping``). Litestar adds an empty ``data:`` line to every
    message, which makes each browser fire an empty ``message`` event for a keep-alive."""

    def encode(self) -> bytes:
        return f": {self.comment}\r\n\r\n".encode()


def _current(version: int) -> ServerSentEventMessage:
    return ServerSentEventMessage(event="current", data=f'{{"version":{version}}}')


class Encoded(ServerSentEventMessage):
    """A change as the broker writes it to the sockets it holds (the same bytes)."""

    def __init__(self, change: Change) -> None:
        super().__init__()
        self.change = change

    def encode(self) -> bytes:
        return change_bytes(self.change)


def event_socket(request: Request[Any, Any, Any]) -> tuple[Socket, bool] | None:
    """The connection an event stream is answered on, for the broker to write changes to, and
    whether its answer is chunked (HTTP/1.1); None where the server gives none (a test client)
    or the answer has no body (``HEAD``)."""
    socket = cast(Socket | None, (request.scope.get("extensions") or {}).get(SOCKET))
    if socket is None or request.scope["method"] != "GET":
        return None
    return socket, request.scope.get("http_version") == "1.1"


async def change_events(
    live: Broker, key: str, version: Callable[[], Awaitable[int]],
    socket: tuple[Socket, bool] | None = None, *, ping: float,
) -> AsyncIterator[ServerSentEventMessage]:
    """Server-Sent Events (see ``EVENTS_DESCRIPTION``): a comment once subscribed, ``current``
    with the ``version()`` read after subscribing (a change committed later is heard, one
    committed earlier is in that version), then each change, with a ping after every ``ping``
    seconds without one (the ``event_ping`` setting).

    Given the stream's ``socket`` (:func:`event_socket`), the stream hands it to the broker as
    soon as it has sent what came before (the stream's head, its opening events, the changes
    heard meanwhile): each later change is written there by the broker itself, encoded once for
    every follower. The stream still sends its pings and, after a ``RESYNC``, the version."""
    async with live.subscribe(key) as subscription:
        yield Comment(comment="subscribed")
        yield _current(await version())
        while True:
            if socket is not None and subscription.socket is None:
                # Everything yielded so far is written: the server resumes a stream only once
                # its last event is on the socket, so the broker's writes come after it.
                subscription.write_to(*socket)
            change = await subscription.next(ping)
            if change is None:
                yield Comment(comment="ping")
            elif change is RESYNC:
                yield _current(await version())
            else:
                yield Encoded(change)
