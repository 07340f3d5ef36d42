"""Live change events for open phones: ``publish(match_id, change)`` / ``subscribe(match_id)``.

The broker is chosen by ``Settings.live_backend``: ``memory`` reaches subscribers in this process
only; ``postgres`` sends every change through PostgreSQL ``NOTIFY`` so that the phones connected
to any server process on the same database hear it; ``auto`` (the default) takes ``postgres``
for a PostgreSQL database and ``memory`` for SQLite (which one process serves).
A slow subscriber never holds up a write: its queue is bounded and it drops the oldest change,
since every change only says "read the match again".

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
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from api.db.engine import asyncpg_dsn
from api.server.settings import Settings

if TYPE_CHECKING:
    import asyncpg

CHANNEL = "tafelrunde_changes"
RECONNECT_SECONDS = 1.0
log = logging.getLogger(__name__)

QUEUE_SIZE = 64


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

    def subscribe(self, match_id: str) -> AbstractAsyncContextManager[asyncio.Queue[Change]]:
        """A queue that receives the match's changes while the context is open."""
        ...


class MemoryBroker:
    """Subscribers of this process, per match."""

    def __init__(self) -> None:
        self._queues: defaultdict[str, set[asyncio.Queue[Change]]] = defaultdict(set)

    async def start(self) -> None:
        return None

    async def stop(self) -> None:
        self._queues.clear()

    async def publish(self, match_id: str, change: Change) -> None:
        self.deliver(match_id, change)

    def deliver(self, match_id: str, change: Change) -> None:
        """Hand a change to this process's subscribers of ``match_id``."""
        for queue in self._queues.get(match_id, ()):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(change)

    def deliver_everywhere(self, change: Change) -> None:
        """Hand a change to every subscriber of this process, whatever it follows."""
        for match_id in list(self._queues):
            self.deliver(match_id, change)

    @asynccontextmanager
    async def subscribe(self, match_id: str) -> AsyncIterator[asyncio.Queue[Change]]:
        queue: asyncio.Queue[Change] = asyncio.Queue(QUEUE_SIZE)
        self._queues[match_id].add(queue)
        try:
            yield queue
        finally:
            self._queues[match_id].discard(queue)
            if not self._queues[match_id]:
                del self._queues[match_id]


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

    def subscribe(self, match_id: str) -> AbstractAsyncContextManager[asyncio.Queue[Change]]:
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
