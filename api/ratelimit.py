"""Repeated failed token checks from one client address are slowed down: 429 with Retry-After.

A failure is any 401 or 403 answer: a missing, malformed or wrong token, or a token that may not
do this. After ``limit`` failures from one address within a minute (``TAFELRUNDE_AUTH_FAILURES_
PER_MINUTE``, default 20; 0 switches the limit off), that address's requests that carry an
``Authorization`` header are answered 429 with ``Retry-After`` (the seconds until its oldest
failure in the window is a minute old) without being looked at. Requests without a token
(public reads, creating a match) still pass, so a club room behind one address keeps playing
while someone there guesses tokens.

Decisions: counts live in the process's memory (each server process counts for itself, a
restart forgets, at most ``MAX_ADDRESSES`` addresses are remembered). The address is the ASGI
client address: behind a reverse proxy, uvicorn puts the ``X-Forwarded-For`` address there only
for proxies it trusts (``FORWARDED_ALLOW_IPS``, default 127.0.0.1).
"""

from __future__ import annotations

import math
import time
from collections import deque
from collections.abc import Callable

import msgspec
from litestar.enums import ScopeType
from litestar.middleware import ASGIMiddleware
from litestar.types import ASGIApp, HTTPResponseStartEvent, Message, Receive, Scope, Send

from api.problems import PROBLEM_MEDIA_TYPE, ProblemBody

WINDOW_SECONDS = 60.0
MAX_ADDRESSES = 10_000
REFUSED = frozenset({401, 403})


class FailedTokenLimit(ASGIMiddleware):
    scopes = (ScopeType.HTTP,)

    def __init__(self, limit: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.clock = clock
        self.failures: dict[str, deque[float]] = {}

    def wait_seconds(self, address: str) -> int:
        """How long ``address`` must wait before its next token check; 0 if it need not."""
        failures = self._recent(address)
        if failures is None or len(failures) < self.limit:
            return 0
        return max(1, math.ceil(failures[0] + WINDOW_SECONDS - self.clock()))

    def record_failure(self, address: str) -> None:
        failures = self._recent(address)
        if failures is None:
            if len(self.failures) >= MAX_ADDRESSES:
                self._forget_quiet_addresses()
            failures = self.failures[address] = deque()
        failures.append(self.clock())
        while len(failures) > self.limit:
            failures.popleft()

    def _recent(self, address: str) -> deque[float] | None:
        failures = self.failures.get(address)
        if failures is None:
            return None
        horizon = self.clock() - WINDOW_SECONDS
        while failures and failures[0] <= horizon:
            failures.popleft()
        if not failures:
            del self.failures[address]
            return None
        return failures

    def _forget_quiet_addresses(self) -> None:
        for address in list(self.failures):
            self._recent(address)
        while len(self.failures) >= MAX_ADDRESSES:  # all busy: forget the longest-known
            del self.failures[next(iter(self.failures))]

    async def handle(self, scope: Scope, receive: Receive, send: Send, next_app: ASGIApp) -> None:
        client = scope.get("client")
        address = client[0] if client else ""
        carries_token = any(name == b"authorization" for name, _ in scope.get("headers", ()))
        if carries_token and (wait := self.wait_seconds(address)):
            await _too_many(send, wait)
            return

        async def counting(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] in REFUSED:
                self.record_failure(address)
            await send(message)

        await next_app(scope, receive, counting)


async def _too_many(send: Send, wait: int) -> None:
    body = msgspec.json.encode(ProblemBody(
        type="about:blank", title="Too Many Requests", status=429,
        detail=f"Too many refused tokens from this address; try again in {wait} s."))
    start: HTTPResponseStartEvent = {
        "type": "http.response.start", "status": 429, "headers": [
            (b"content-type", PROBLEM_MEDIA_TYPE.encode()), (b"retry-after", str(wait).encode()),
            (b"content-length", str(len(body)).encode())]}
    await send(start)
    await send({"type": "http.response.body", "body": body, "more_body": False})
