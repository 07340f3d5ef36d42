"""Live change events for open phones: ``publish(match_id, change)`` / ``subscribe(match_id)``.

The broker is chosen by ``Settings.live_backend``: ``memory`` reaches subscribers in this process
only; ``postgres`` sends every change through PostgreSQL ``NOTIFY`` so that the phones connected
to any server process on the same database hear it; ``auto`` (the default) takes ``postgres``
for a PostgreSQL database and ``memory`` for SQLite (which one process serves).
A slow subscriber never holds up a write: a change is written to its socket without waiting
(:class:`MemoryBroker`), or, while its stream has not handed the socket over, waits in a queue
that is bounded and drops the oldest change, since every change only says "read the match
again" and the newest is always kept.

Changes are published after their transaction commits, so they are hints, not a log: they can
arrive out of version order (two writes to one tournament publish in whichever order their
requests get there, and each server process has its own connection to PostgreSQL), and through
PostgreSQL a change committed just before a subscription can still be heard after it. Each carries
the version it produced, so a reader compares it with the version it shows and reads again when
it is behind. What a subscriber cannot hear, it is told to look up: the event stream starts with
the version the resource has once the subscription is open
(:func:`api.shared.requests.change_events`), and when the PostgreSQL listener had to reconnect,
every subscriber gets ``RESYNC`` (notices sent while it was away are lost).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections import deque
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import msgspec

from api.db.engine import asyncpg_dsn
from api.server.settings import Settings

if TYPE_CHECKING:
    import asyncpg

CHANNEL = "tafelrunde_changes"
RECONNECT_SECONDS = 1.0
log = logging.getLogger(__name__)

QUEUE_SIZE = 64
FAN_OUT_SECONDS = 0.05
"""The shortest time between two writes of one key's changes to its handed-over sockets
(:class:`MemoryBroker`)."""


@dataclass(frozen=True, slots=True)
class Change:
    version: int
    action: str
    round: int | None


RESYNC = Change(0, "resync", None)
"""Not a change: changes may have been missed, look up the current version."""


class Broker(Protocol):
    async def start(self) -> None: ...

    async def stop(self) -> None: ...

    async def publish(self, match_id: str, change: Change) -> None: ...

    def subscribe(self, match_id: str) -> AbstractAsyncContextManager[Subscription]:
        """The match's changes while the context is open."""
        ...


class Socket(Protocol):
    """An event stream's connection as the broker writes to it (an asyncio transport)."""

    def write(self, data: bytes, /) -> None: ...

    def is_closing(self) -> bool: ...


def change_bytes(change: Change) -> bytes:
    """A change as a Server-Sent Event (``event: change``), encoded once for every reader."""
    return b"event: change\r\ndata: " + msgspec.json.encode(change) + b"\r\n\r\n"


class Subscription:
    """One open event stream's changes: waiting to be read (``next``), or, once the stream has
    handed its socket over (:meth:`write_to`), written straight to it as the broker delivers
    them. Waiting changes keep the newest :data:`QUEUE_SIZE`: each only says "read again", so
    an older one dropped is never the one a reader needs last."""

    def __init__(self, broker: MemoryBroker, key: str) -> None:
        self._broker = broker
        self._key = key
        self._waiting: deque[Change] = deque(maxlen=QUEUE_SIZE)
        self._woken = asyncio.Event()
        self.socket: Socket | None = None

    def hand(self, change: Change) -> None:
        self._waiting.append(change)
        self._woken.set()

    async def get(self) -> Change:
        """The next change, however long it takes."""
        change = await self.next(None)
        assert change is not None  # no timeout, no None
        return change

    async def next(self, patience: float | None) -> Change | None:
        """The next change, or None after ``patience`` seconds without one."""
        while not self._waiting:
            self._woken.clear()
            try:
                async with asyncio.timeout(patience):
                    await self._woken.wait()
            except TimeoutError:
                if not self._waiting:
                    return None
        return self._waiting.popleft()

    def write_to(self, socket: Socket, chunked: bool) -> bool:
        """From now on every change (not ``RESYNC``) is written to ``socket`` as it is
        delivered, framed as an HTTP/1.1 chunk when ``chunked``; only when no change waits to
        be read (the caller sends those first, in order). Whether it was handed over."""
        if self._waiting or self.socket is not None:
            return False
        self.socket = socket
        self._broker.write_directly(self._key, self, socket, chunked)
        return True


class MemoryBroker:
    """Subscribers of this process, per key (a match id or a channel).

    A change reaches a stream that handed its socket over (:meth:`Subscription.write_to`) as
    the same bytes, encoded once, written to every such socket in one loop: 600 followers of a
    tournament cost 600 socket writes per change, not 600 wake-ups of a stream's coroutine with
    an encoding and a trip through the HTTP stack each, which carried a round's tail on one
    event loop. Nothing is dropped on that path: a socket whose reader stops taking its bytes
    is closed by the connection's send timeout (:mod:`api.edge.connections`), and its phone
    reconnects and is told the current version.

    The writes to a key's sockets are spaced at least :data:`FAN_OUT_SECONDS` apart: a change
    that comes sooner after the last write is held, and at the end of the spacing the newest
    change held (the highest version) is written. At the end of a round 150 tables write within
    a second or two, and each write's change to 600 followers cost 600 socket writes (measured
    with ``bench/championship.py``: most of a round's CPU on SQLite's one event loop, the
    writes' own included); spaced, a burst costs at most 20 fan-outs a second, and each
    follower still gets the latest version within the spacing. A follower may skip versions
    (every change only says "read again", and a reader compares versions), never the newest; a
    change alone is written at once."""

    def __init__(self) -> None:
        self._queues: dict[str, dict[Subscription, None]] = {}
        self._sockets: dict[str, dict[Subscription, tuple[Socket, bool]]] = {}
        self._written_at: dict[str, float] = {}
        """When each key's sockets were last written to (the loop's clock)."""
        self._held: dict[str, Change] = {}
        """Per key, the newest change waiting for the end of the spacing."""

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        self._queues.clear()
        self._sockets.clear()
        self._held.clear()
        self._written_at.clear()

    async def publish(self, match_id: str, change: Change) -> None:
        self.deliver(match_id, change)

    def deliver(self, match_id: str, change: Change) -> None:
        """Hand a change to this process's subscribers of ``match_id``."""
        sockets = self._sockets.get(match_id)
        if sockets:
            if change is RESYNC:  # its stream looks the version up and sends it itself
                for subscription in sockets:
                    subscription.hand(change)
            else:
                self._fan_out(match_id, change)
        for subscription in self._queues.get(match_id, ()):
            subscription.hand(change)

    def _fan_out(self, key: str, change: Change) -> None:
        """Write the change to the key's sockets now, or hold it for the end of the spacing."""
        held = self._held.get(key)
        if held is not None:  # a write is due: it takes the newest
            if change.version >= held.version:
                self._held[key] = change
            return
        loop = asyncio.get_running_loop()
        due = self._written_at.get(key, -FAN_OUT_SECONDS) + FAN_OUT_SECONDS
        if loop.time() >= due:
            self._write_sockets(key, change)
        else:
            self._held[key] = change
            loop.call_at(due, self._write_held, key)

    def _write_held(self, key: str) -> None:
        change = self._held.pop(key, None)
        if change is not None:
            self._write_sockets(key, change)

    def _write_sockets(self, key: str, change: Change) -> None:
        """The same bytes, encoded once, to every socket of the key still open."""
        self._written_at[key] = asyncio.get_running_loop().time()
        plain = change_bytes(change)
        chunk = b"%x\r\n%b\r\n" % (len(plain), plain)
        for socket, chunked in self._sockets.get(key, {}).values():
            if not socket.is_closing():
                socket.write(chunk if chunked else plain)

    def deliver_everywhere(self, change: Change) -> None:
        """Hand a change to every subscriber of this process, whatever it follows."""
        for match_id in {*self._queues, *self._sockets}:
            self.deliver(match_id, change)

    def write_directly(self, key: str, subscription: Subscription, socket: Socket,
                       chunked: bool) -> None:
        self._drop(self._queues, key, subscription)
        self._sockets.setdefault(key, {})[subscription] = (socket, chunked)

    @staticmethod
    def _drop(subscribers: dict[str, dict[Subscription, Any]], key: str,
              subscription: Subscription) -> None:
        found = subscribers.get(key)
        if found is not None:
            found.pop(subscription, None)
            if not found:
                del subscribers[key]

    @asynccontextmanager
    async def subscribe(self, match_id: str) -> AsyncIterator[Subscription]:
        subscription = Subscription(self, match_id)
        self._queues.setdefault(match_id, {})[subscription] = None
        try:
            yield subscription
        finally:
            self._drop(self._queues, match_id, subscription)
            self._drop(self._sockets, match_id, subscription)
            if match_id not in self._sockets:  # its last follower gone: forget its spacing
                self._written_at.pop(match_id, None)
                self._held.pop(match_id, None)


class PostgresBroker:
    """Changes travel through PostgreSQL ``NOTIFY``, so every server process on the database hears
    them, including the one that published (it delivers only what comes back from the database,
    so a change reaches each phone exactly once whichever process it is connected to).
    """

    def __init__(self, database_url: str) -> None:
        import asyncpg  # the postgres extra: a SQLite install goes without it

        self._asyncpg = asyncpg
        self._dsn = asyncpg_dsn(database_url)
        self._local = MemoryBroker()
        self._listener: asyncpg.Connection | None = None
        self._listening: asyncio.Task[None] | None = None
        self._publisher: asyncpg.Connection | None = None
        # Changes waiting for the publishing connection, which runs one statement at a time:
        # whatever gathers while one statement runs goes out in the next, all at once.
        self._outbox: list[tuple[str, asyncio.Future[None]]] = []
        self._sending: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._listening = asyncio.create_task(self._listen())

    async def _listen(self) -> None:
        """Keep one listening connection open; reconnect when the database goes away."""
        while True:
            try:
                await self._listen_once()
            except (OSError, self._asyncpg.PostgresError):
                log.warning("live changes: cannot listen on the database; retrying",
                            exc_info=True)
            await asyncio.sleep(RECONNECT_SECONDS)

    async def _listen_once(self) -> None:
        """Listen until this connection closes."""
        closed = asyncio.Event()
        self._listener = await self._asyncpg.connect(self._dsn)
        self._listener.add_termination_listener(lambda _connection: closed.set())
        await self._listener.add_listener(CHANNEL, self._heard)
        # Whatever was sent while no connection listened is lost: subscribers look it up.
        self._local.deliver_everywhere(RESYNC)
        await closed.wait()

    async def stop(self) -> None:
        for task in (self._listening, self._sending):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for connection in (self._listener, self._publisher):
            if connection is not None and not connection.is_closed():
                await connection.close()
        self._listener = self._publisher = None
        for _payload, sent in self._outbox:
            if not sent.done():
                sent.set_result(None)
        self._outbox = []
        await self._local.stop()

    async def publish(self, match_id: str, change: Change) -> None:
        """Send the change, together with every other change published meanwhile: under load,
        one round trip to the database carries many (one each capped what a process could
        write at the round trips a second one connection makes)."""
        payload = json.dumps({"key": match_id, "version": change.version,
                              "action": change.action, "round": change.round})
        sent = asyncio.get_running_loop().create_future()
        self._outbox.append((payload, sent))
        if self._sending is None or self._sending.done():
            self._sending = asyncio.create_task(self._send_waiting())
        await asyncio.shield(sent)  # a request given up on leaves its change to go out

    async def _send_waiting(self) -> None:
        while self._outbox:
            batch, self._outbox = self._outbox, []
            try:
                if self._publisher is None or self._publisher.is_closed():
                    self._publisher = await self._asyncpg.connect(self._dsn)
                # In the order published: unnest keeps the array's order, NOTIFY keeps its own.
                await self._publisher.execute(
                    "SELECT pg_notify($1, payload) FROM unnest($2::text[]) AS payload",
                    CHANNEL, [payload for payload, _sent in batch])
            except (OSError, self._asyncpg.PostgresError):
                # The writes are committed; lost notices only delay phones until their next read.
                log.warning("could not send %d live changes", len(batch), exc_info=True)
                self._publisher = None
            finally:  # sent, lost, or the server stopping: nobody waits for them any longer
                for _payload, sent in batch:
                    if not sent.done():
                        sent.set_result(None)

    def subscribe(self, match_id: str) -> AbstractAsyncContextManager[Subscription]:
        return self._local.subscribe(match_id)

    def _heard(self, _connection: object, _pid: int, _channel: str, payload: str) -> None:
        notice = json.loads(payload)
        self._local.deliver(notice["key"],
                            Change(notice["version"], notice["action"], notice["round"]))


def create_broker(settings: Settings) -> Broker:
    backend = settings.live_backend
    if backend == "auto":
        backend = "memory" if settings.is_sqlite else "postgres"
    if backend == "memory":
        return MemoryBroker()
    if backend == "postgres":
        return PostgresBroker(settings.database_url)
    raise ValueError(f"unknown live backend {settings.live_backend!r}")
