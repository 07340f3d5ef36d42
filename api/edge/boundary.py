"""What every HTTP request passes on its way in, before Litestar routes it, and the methods each
path allows on its way out.

- A path with a control character (``%00``, ``%0a``, ...) names nothing we serve: 400 before it
  can reach the file system (a NUL made the static files fail) or a log line (a newline would
  start a forged one).
- ``HEAD`` is answered for every path that answers ``GET``, as ``GET`` without the body: the
  same status and headers, ``Content-Length`` included. An event stream answers its headers and
  ends, as if the client had gone.
- ``Allow`` (on ``OPTIONS`` and on 405) lists every method of the path, ``HEAD`` with ``GET``.
  (Litestar's own ``OPTIONS`` answer forgot the methods of handlers merged into a route later,
  such as ``DELETE`` next to ``PUT``.)

The OpenAPI document does not list ``HEAD`` operations: HTTP defines ``HEAD`` by ``GET``.
"""

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from litestar import Litestar
from litestar.routes import HTTPRoute
from litestar.types import ASGIApp

from api.edge.problems import Fault, send_problem
from api.i18n import _

# Litestar's ASGI types are TypedDicts per event; these wrappers pass any event through.
Message = dict[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

CONTROL_CHARACTERS = frozenset({*map(chr, range(0x20)), "\x7f"})
DISCONNECT: Message = {"type": "http.disconnect"}


def has_control_character(text: str) -> bool:
    return not CONTROL_CHARACTERS.isdisjoint(text)


def allowed_methods(app: Litestar) -> dict[str, frozenset[str]]:
    """Every route's path (as its handlers spell it) and the methods it answers."""
    allowed: dict[str, frozenset[str]] = {}
    for route in app.routes:
        if isinstance(route, HTTPRoute):
            methods = set(route.methods)
            if "GET" in methods:
                methods.add("HEAD")
            allowed[route.path] = frozenset(methods)
    return allowed


class Boundary:
    """The ASGI application around Litestar's handler: see the module docstring."""

    def __init__(self, app: ASGIApp, allowed: Mapping[str, frozenset[str]]) -> None:
        self.app: Any = app
        self.allowed = allowed

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if has_control_character(scope["path"]):
            await _refuse_path(scope, send)
            return
        routed = scope
        if scope["method"] == "HEAD":
            routed = {**scope, "method": "GET"}
            receive, send = _without_body(receive, send)

        async def send_allow(message: Message) -> None:
            if message["type"] == "http.response.start":
                message = self._with_allow(message, routed)
            await send(message)

        await self.app(routed, receive, send_allow)

    def _with_allow(self, message: Message, scope: Message) -> Message:
        headers = list(message.get("headers", ()))
        given = [value for name, value in headers if name.lower() == b"allow"]
        if not given:
            return message
        methods = {m.strip() for m in given[0].decode("latin-1").split(",") if m.strip()}
        handler = scope.get("route_handler")
        if scope["method"] == "OPTIONS" and handler is not None:
            for path in handler.paths:
                methods |= self.allowed.get(path, frozenset())
        if "GET" in methods:
            methods.add("HEAD")
        headers = [(name, value) for name, value in headers if name.lower() != b"allow"]
        headers.append((b"allow", ", ".join(sorted(methods)).encode("latin-1")))
        return {**message, "headers": headers}


def _without_body(receive: Receive, send: Send) -> tuple[Receive, Send]:
    """``send`` that passes the response's start and ends it there, and ``receive`` that says
    the client is gone once it has ended, so that a stream stops."""
    finished = asyncio.Event()

    async def send_head(message: Message) -> None:
        if message["type"] == "http.response.start":
            await send(message)
        elif message["type"] == "http.response.body" and not finished.is_set():
            finished.set()
            await send({"type": "http.response.body", "body": b"", "more_body": False})

    async def receive_until_finished() -> Message:
        if finished.is_set():
            return DISCONNECT
        receiving = asyncio.ensure_future(receive())
        ended = asyncio.ensure_future(finished.wait())
        done, pending = await asyncio.wait({receiving, ended},
                                           return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        return receiving.result() if receiving in done else DISCONNECT

    return receive_until_finished, send_head


async def _refuse_path(scope: Any, send: Send) -> None:
    """400 in the request's language; said here, before Litestar (and its hooks) sees it."""
    await send_problem(scope, send, 400, _("The path contains a control character."), [
        Fault("", "control_character", _("A path cannot contain control characters.",
                                         source="path"))])
