"""Live change events for open phones: ``publish(match_id, change)`` / ``subscribe(match_id)``.

The broker is chosen by ``Settings.live_backend``. ``memory`` (the default) reaches subscribers
in this process only; a broker for several processes (PostgreSQL LISTEN/NOTIFY) implements the
same :class:`Broker` protocol. A slow subscriber never holds up a write: its queue is bounded and
it drops the oldest change, since every change only says "read the match again".
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import AsyncIterator
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from typing import Protocol

from api.settings import Settings

QUEUE_SIZE = 64


@dataclass(frozen=True, slots=True)
class Change:
    version: int
    action: str
    round: int | None


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
        for queue in self._queues.get(match_id, ()):
            if queue.full():
                queue.get_nowait()
            queue.put_nowait(change)

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


def create_broker(settings: Settings) -> Broker:
    if settings.live_backend != "memory":
        raise ValueError(f"unknown live backend {settings.live_backend!r}")
    return MemoryBroker()
