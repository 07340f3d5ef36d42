"""Repeated refused tokens from one client address for one match or tournament: 429 with
Retry-After.

A refusal is any 401 or 403 answer: a missing, malformed or wrong token, or a token that may not
do this. Refusals are counted per client address *and* per target, the match or tournament the
request is about (``/api/v1/matches/<id>``, ``/api/v1/tournaments/<id>``, whatever follows).
Once an address has had ``limit`` refusals for a target within a minute (``TAFELRUNDE_AUTH_
FAILURES_PER_MINUTE``, default 20; 0 switches the limit off), its next refusal for that target
is answered 429 with ``Retry-After`` (the seconds until its oldest refusal in the window is a
minute old) instead of 401/403, and counts like the others, so a client that keeps guessing
stays limited.

A valid token always works: a request over the limit is still checked, and only a refusal is
turned into 429. A club behind one address (one NAT) keeps playing while one phone there sends
a wrong token again and again, even at that phone's own table, and whichever server process
another phone's request reaches. What keeps tokens secret is their 192 random bits; the limit
tells a client that keeps sending refused tokens to stop, and says when it may try again.

The client address is the connection's, unless the connection comes from a proxy named in
``TAFELRUNDE_TRUSTED_PROXIES``: then it is the address that proxy appended to
``X-Forwarded-For`` (the rightmost one that is not itself a trusted proxy), so addresses a
client writes into the header itself are never believed. See :func:`trusted_proxy_headers`.

Decisions: counts live in the process's memory (each server process counts for itself, a
restart forgets, at most ``MAX_KEYS`` address and target pairs are remembered). Several hosts
behind a load balancer therefore each allow the limit: a client whose requests are spread over
N server processes gets up to N times the limit before all of them answer 429. That was chosen
over counting in the shared database, which would make every refused request a write there
on every host, so that a flood of wrong tokens became database load; the tokens' 192 bits are
what keeps them secret either way (README, *Several hosts on one PostgreSQL*).
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable, Sequence
from typing import cast

from litestar.enums import ScopeType
from litestar.middleware import ASGIMiddleware, DefineMiddleware
from litestar.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from api.edge.problems import send_problem
from api.i18n import _n

WINDOW_SECONDS = 60.0
MAX_KEYS = 10_000
REFUSED = frozenset({401, 403})
TARGET_SEGMENTS = 5  # "", "api", "v1", area, id

Key = tuple[str, str]  # client address, target


def target_of(path: str) -> str:
    """What a request is about: ``/api/v1/matches/<id>`` for every path below it."""
    return "/".join(path.split("/", TARGET_SEGMENTS)[:TARGET_SEGMENTS])


def trusted_proxy_headers(proxies: Sequence[str]) -> DefineMiddleware:
    """Take the client address (and scheme) from ``X-Forwarded-For`` (``-Proto``) only on
    connections from ``proxies`` (addresses or networks): uvicorn's own proxy-header logic,
    applied by the app so it holds however the app is served."""
    # uvicorn types its ASGI callables itself; they are the same callables Litestar's types name.
    middleware = cast("Callable[..., ASGIApp]", ProxyHeadersMiddleware)
    return DefineMiddleware(middleware, trusted_hosts=list(proxies))


class FailedTokenLimit(ASGIMiddleware):
    scopes = (ScopeType.HTTP,)

    def __init__(self, limit: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.clock = clock
        self.failures: dict[Key, deque[float]] = {}

    def wait_seconds(self, key: Key) -> int:
        """How long ``key`` must wait before a refusal is answered 401/403 again; 0 if not."""
        failures = self._recent(key)
        if failures is None or len(failures) < self.limit:
            return 0
        return max(1, math.ceil(failures[0] + WINDOW_SECONDS - self.clock()))

    def record_failure(self, key: Key) -> None:
        failures = self._recent(key)
        if failures is None:
            if len(self.failures) >= MAX_KEYS:
                self._forget_quiet_keys()
            failures = self.failures[key] = deque()
        failures.append(self.clock())
        while len(failures) > self.limit:
            failures.popleft()

    def _recent(self, key: Key) -> deque[float] | None:
        failures = self.failures.get(key)
        if failures is None:
            return None
        horizon = self.clock() - WINDOW_SECONDS
        while failures and failures[0] <= horizon:
            failures.popleft()
        if not failures:
            del self.failures[key]
            return None
        return failures

    def _forget_quiet_keys(self) -> None:
        for key in list(self.failures):
            self._recent(key)
        while len(self.failures) >= MAX_KEYS:  # all busy: forget the longest-known
            del self.failures[next(iter(self.failures))]

    async def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp) -> None:
        client = scope.get("client")
        key = (client[0] if client else "", target_of(scope["path"]))
        refused_here = False

        async def counting(message: Message) -> None:
            nonlocal refused_here
            if message["type"] == "http.response.start" and message["status"] in REFUSED:
                wait = self.wait_seconds(key)
                self.record_failure(key)
                if wait:
                    refused_here = True
                    await _too_many(scope, send, wait)
                    return
            if not refused_here:  # the refusal's own body is not sent after the 429
                await send(message)

        await next_app(scope, receive, counting)


async def _too_many(scope: Scope, send: Send, wait: int) -> None:
    await send_problem(scope, send, 429, _n(
        "Too many refused tokens from this address for this match or tournament; "
        "try again in 1 second.",
        "Too many refused tokens from this address for this match or tournament; "
        "try again in {count} seconds.", count=wait), headers={"Retry-After": str(wait)})
