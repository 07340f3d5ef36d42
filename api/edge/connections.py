"""How ``tafelrunde serve`` holds its connections: a request's head and body in time, a reader
that reads, and no more connections than it can keep.

uvicorn's HTTP/1.1 protocol (h11) closes a connection only when it sat idle after an answer
(``timeout_keep_alive``). A connection that never sends a request, or sends its head a byte at a
time, or sends its body a byte a second, or takes an answer and never reads it, is held for as
long as the client likes, and nothing caps how many there are. :class:`GuardedProtocol` is that
protocol with six limits (:class:`Limits`, from the settings):

* **header timeout**: a connection's first request head, and a head begun after an idle pause,
  must be complete within ``header_timeout`` seconds of its start (not of its last byte: a head
  sent a byte at a time is still closed). Then the connection is closed without an answer.
* **body timeout**: a request's body must be complete within ``body_timeout`` seconds of the end
  of its head (again from its start, not its last byte: a 16 MiB import at a byte a second would
  otherwise hold a connection and a request for half a year). Then the connection is closed; the
  request's handler reads a disconnected client and nothing is stored. The default leaves a
  16 MiB import a minute (about 2.5 Mbit/s); a proxy in front reads slow bodies itself.
* **idle timeout**: uvicorn's own keep-alive timeout, between one answer and the next request.
* **send timeout**: an answer whose bytes the client stops taking (the socket's buffer full, so
  the transport pauses writing) for ``send_timeout`` seconds is aborted. The kernel's
  ``TCP_USER_TIMEOUT`` is set to the same time, so data the peer never acknowledges at all (a
  phone that left the network mid-stream) ends the connection too, instead of TCP's quarter of
  an hour of retries.
* **connection limit**: beyond ``max_connections`` open connections in this process, each further
  connection's requests are answered ``503`` (problem details, ``Retry-After``) and the
  connection is closed; uvicorn's ``limit_concurrency`` would answer in plain text. But first
  the oldest connection that has not sent a byte yet is closed to make room, if there is one:
  a thousand connections opened and left silent (each held for the header timeout, opened
  again as soon as it is closed) would otherwise have every other client told 503.
* **connections per address**: beyond ``max_per_address`` open connections from one client
  address, a further one from it is closed at once, before it is counted against the
  connection limit, so one address cannot take the connections of all. It has sent nothing
  to answer yet, and reading its request first would hold its place for the header timeout.
  Addresses of trusted proxies (``TAFELRUNDE_TRUSTED_PROXIES``) are not capped: a proxy
  brings everyone's connections.

A request whose body's length is not said exactly once is refused: ``400`` (problem details)
and the connection closed, before its handler runs (RFC 9112 §6.3). ``Content-Length`` beside
``Transfer-Encoding`` is the smuggler's request: h11 reads the body as chunked, but a proxy in
front that goes by the length sees a different body, and a second request hidden in the chunks
would run here unseen by the proxy. h11 itself refuses lengths that disagree and any transfer
coding but ``chunked`` alone (:class:`FramedConnection` adds the first case); its refusals are
said as problem details too, in English when the head could not be read.

Event streams (``/events``) are long by design: none of these limits a stream that is read. Its
request head came in time, it is never idle between answers (it is one answer), and the
server's ping every 15 seconds (the ``event_ping`` setting,
:func:`api.shared.requests.change_events`) is taken by any client that still reads.
"""

from __future__ import annotations

import asyncio
import functools
import ipaddress
import socket
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import h11
from litestar.types import Receive, Scope, Send
from uvicorn import Config
from uvicorn.protocols.http.h11_impl import H11Protocol

from api.edge.problems import DETAILS, problem_answer, send_problem

RETRY_AFTER_SECONDS = 5
SOCKET = "tafelrunde.socket"
"""The key of ``scope["extensions"]`` that holds a request's connection (its asyncio transport):
an event stream hands it to the live broker, which writes each change's bytes there itself
(:mod:`api.shared.live`)."""


@dataclass(frozen=True, slots=True)
class Limits:
    header_timeout: int
    body_timeout: int
    send_timeout: int
    max_connections: int
    max_per_address: int
    trusted_proxies: tuple[str, ...] = ()
    """Addresses or networks whose connections :attr:`max_per_address` does not cap."""


@dataclass(slots=True)
class Crowd:
    """The open connections of one server process as the limits need them: how many each
    client address has, and which have sent nothing yet, oldest first."""

    by_address: Counter[str] = field(default_factory=Counter)
    silent: dict[GuardedProtocol, None] = field(default_factory=dict)

    def shed_silent(self, newcomer: GuardedProtocol) -> bool:
        """Close the oldest connection other than ``newcomer`` that has sent nothing; False
        when there is none."""
        for connection in self.silent:
            if connection is not newcomer:
                del self.silent[connection]
                connection.transport.close()
                return True
        return False


class GuardedConfig(Config):
    """uvicorn's configuration with this protocol and its :class:`Limits` (picklable, so that
    worker processes started by spawning get it whole; each gets a :class:`Crowd` of its
    own, empty)."""

    def __init__(self, app: Any, limits: Limits, **options: Any) -> None:
        super().__init__(app, http=GuardedProtocol, **options)
        self.limits = limits
        self.crowd = Crowd()
        self.proxies = tuple(ipaddress.ip_network(network, strict=False)
                             for network in limits.trusted_proxies)


async def over_capacity(scope: Scope, _receive: Receive, send: Send) -> None:
    """The answer on a connection beyond the limit: come back in a moment."""
    await send_problem(scope, send, 503, None, headers={
        "Retry-After": str(RETRY_AFTER_SECONDS), "Connection": "close"})


async def with_socket(app: Any, transport: asyncio.Transport, scope: Scope, receive: Receive,
                      send: Send) -> None:
    """``app`` with the request's connection in its scope (:data:`SOCKET`)."""
    extensions: dict[str, Any] = dict(scope.get("extensions") or {})
    extensions[SOCKET] = transport
    scope["extensions"] = extensions
    await app(scope, receive, send)


class FramedConnection(h11.Connection):
    """h11's server side, refusing a request that gives both ``Content-Length`` and
    ``Transfer-Encoding`` (h11 would go by the second) as h11 refuses its other framing errors:
    :class:`h11.RemoteProtocolError`, which uvicorn's protocol answers with ``400`` and a
    close. ``refused`` keeps the head, so the answer speaks the request's language."""

    refused: h11.Request | None = None

    def next_event(self) -> Any:
        event = super().next_event()
        if isinstance(event, h11.Request):
            names = {name for name, _ in event.headers}
            if b"content-length" in names and b"transfer-encoding" in names:
                self.refused = event
                raise h11.RemoteProtocolError(
                    "both Content-Length and Transfer-Encoding", error_status_hint=400)
        return event


class GuardedProtocol(H11Protocol):
    """uvicorn's h11 protocol with the limits of :class:`Limits` (see the module's notes)."""

    def __init__(self, config: Config, *args: Any, **kwargs: Any) -> None:
        super().__init__(config, *args, **kwargs)
        if not isinstance(config, GuardedConfig):
            raise TypeError("GuardedProtocol needs a GuardedConfig")
        self.limits = config.limits
        self.crowd = config.crowd
        self.proxies = config.proxies
        self._address: str | None = None  # counted in the crowd's by_address
        largest = config.h11_max_incomplete_event_size
        self.conn = FramedConnection(h11.SERVER) if largest is None else \
            FramedConnection(h11.SERVER, largest)
        self._head_due: asyncio.TimerHandle | None = None
        self._body_due: asyncio.TimerHandle | None = None
        self._send_due: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if self.client is not None and not self._from_proxy(self.client[0]):
            self._address = self.client[0]
            self.crowd.by_address[self._address] += 1
            if self.crowd.by_address[self._address] > self.limits.max_per_address:
                transport.close()
                return
        self.crowd.silent[self] = None
        if len(self.connections) > self.limits.max_connections and \
                not self.crowd.shed_silent(self):
            self.app = over_capacity
        else:
            self.app = functools.partial(with_socket, self.app, transport)
        self._expect_head()
        tcp = transport.get_extra_info("socket")
        if tcp is not None and hasattr(socket, "TCP_USER_TIMEOUT") and \
                tcp.family in (socket.AF_INET, socket.AF_INET6):
            tcp.setsockopt(socket.IPPROTO_TCP, socket.TCP_USER_TIMEOUT,
                           self.limits.send_timeout * 1000)

    def _from_proxy(self, host: str) -> bool:
        if not self.proxies:
            return False
        try:
            peer = ipaddress.ip_address(host)
        except ValueError:  # not an IP address: a Unix socket's path
            return False
        return any(peer in network for network in self.proxies)

    def data_received(self, data: bytes) -> None:
        self.crowd.silent.pop(self, None)
        super().data_received(data)
        self._watch_head()
        self._watch_body()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._watch_body()
        # Bytes of the next request that came with the last one: its head is under way.
        if self.conn.trailing_data[0]:
            self._watch_head()

    def _watch_head(self) -> None:
        """A head has begun: it has its time, or is complete and needs none."""
        if self.conn.their_state is h11.IDLE:
            self._expect_head()
        elif self._head_due is not None:
            self._head_due.cancel()
            self._head_due = None

    def _expect_head(self) -> None:
        if self._head_due is None and not self.transport.is_closing():
            self._head_due = self.loop.call_later(self.limits.header_timeout, self._head_late)

    def _head_late(self) -> None:
        self._head_due = None
        if self.conn.their_state is h11.IDLE:
            self.transport.close()

    def _watch_body(self) -> None:
        """A body has begun (its head is complete): it has its time; once complete, none."""
        if self.conn.their_state is h11.SEND_BODY:
            if self._body_due is None and not self.transport.is_closing():
                self._body_due = self.loop.call_later(self.limits.body_timeout, self._body_late)
        elif self._body_due is not None:
            self._body_due.cancel()
            self._body_due = None

    def _body_late(self) -> None:
        self._body_due = None
        if self.conn.their_state is h11.SEND_BODY:
            self.transport.close()

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to a request h11 cannot read, as problem details; then the
        connection is closed (nothing after the refused head can be trusted to be a request)."""
        refused = self.conn.refused if isinstance(self.conn, FramedConnection) else None
        scope: dict[str, Any] = {} if refused is None else {
            "headers": [(name, value) for name, value in refused.headers],
            "query_string": refused.target.partition(b"?")[2]}
        head, body = problem_answer(scope, 400, DETAILS[400],  # type: ignore[arg-type]
                                    headers={"Connection": "close"})
        for event in (h11.Response(status_code=400, headers=head, reason=b"Bad Request"),
                      h11.Data(data=body),
                      h11.EndOfMessage()):
            self.transport.write(self.conn.send(event) or b"")
        self.transport.close()

    def pause_writing(self) -> None:
        super().pause_writing()
        if self._send_due is None:
            self._send_due = self.loop.call_later(self.limits.send_timeout, self.transport.abort)

    def resume_writing(self) -> None:
        super().resume_writing()
        if self._send_due is not None:
            self._send_due.cancel()
            self._send_due = None

    def connection_lost(self, exc: Exception | None) -> None:
        for timer in (self._head_due, self._body_due, self._send_due):
            if timer is not None:
                timer.cancel()
        self._head_due = self._body_due = self._send_due = None
        self.crowd.silent.pop(self, None)
        if self._address is not None:
            self.crowd.by_address[self._address] -= 1
            if not self.crowd.by_address[self._address]:
                del self.crowd.by_address[self._address]
            self._address = None
        super().connection_lost(exc)
