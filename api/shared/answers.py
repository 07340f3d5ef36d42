"""Reads of a whole tournament or club answered as encoded bytes, and the answers kept per
version (:mod:`api.tournaments.reads`, :mod:`api.clubs.reads`).

A read computed in the helper process (:mod:`api.server.offload`) comes back encoded, since nothing
big should be pickled; the answer computed on the loop is encoded the same way, so both are
kept alike. A kept answer is named by what it depends on, the tournament's or club's version
among it: any change makes a new version, so a kept answer is never stale, and a projector
or a hundred phones reading the same thing after a change cost one computation.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import msgspec
from litestar import Response
from sqlalchemy.ext.asyncio import AsyncSession

from api.db.database import Database
from api.edge.bodies import JSON_MEDIA_TYPE
from api.server.offload import Offload

CACHE_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Answer:
    body: bytes
    media_type: str
    headers: tuple[tuple[str, str], ...] = ()

    def response(self) -> Response[Any]:
        return Response(self.body, media_type=self.media_type, headers=dict(self.headers))


def json_answer(value: Any, *headers: tuple[str, str]) -> Answer:
    return Answer(msgspec.json.encode(value), JSON_MEDIA_TYPE, headers)


Reads = Mapping[str, Callable[..., Awaitable[Answer]]]
"""A tournament's or club's reads by name: each ``(session, id, authorization, *options)``."""


async def answer_in_helper(database: Database, reads: Reads, read: str, subject_id: str,
                           authorization: str | None, *options: Any) -> Answer:
    """``reads[read]`` with a session of the helper process
    (:meth:`api.server.offload.Offload.run`); ``reads`` crosses to the helper as the names of its
    module-level functions."""
    async with database.sessions() as session:
        return await reads[read](session, subject_id, authorization, *options)


class Kept:
    """Answers by key, the least recently read dropped beyond :data:`CACHE_BYTES`."""

    def __init__(self) -> None:
        self._kept: OrderedDict[tuple[Any, ...], Answer] = OrderedDict()
        self._bytes = 0

    def get(self, key: tuple[Any, ...]) -> Answer | None:
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
        return kept

    def keep(self, key: tuple[Any, ...], answer: Answer) -> None:
        if key in self._kept or len(answer.body) > CACHE_BYTES // 4:
            return
        self._kept[key] = answer
        self._bytes += len(answer.body)
        while self._bytes > CACHE_BYTES:
            _key, dropped = self._kept.popitem(last=False)
            self._bytes -= len(dropped.body)


class KeptReads:
    """An area's reads (a tournament's, a club's): computed on the loop, or in the helper process
    for a big subject, and kept by what they depend on (one per app and area)."""

    def __init__(self, offload: Offload, reads: Reads) -> None:
        self._offload = offload
        self._reads = reads
        self._kept = Kept()

    async def answer(self, session: AsyncSession, key: tuple[Any, ...] | None,
                     big: Callable[[], Awaitable[bool]], read: str, subject_id: str,
                     authorization: str | None, *options: Any) -> Response[Any]:
        """The kept answer under ``key``, else ``reads[read]`` computed (in the helper if
        ``big()``) and kept; ``key`` None for a read never kept. Access is the caller's to
        check first."""
        kept = None if key is None else self._kept.get(key)
        if kept is not None:
            return kept.response()
        if await big():
            answer = await self._offload.run(answer_in_helper, self._reads, read, subject_id,
                                             authorization, *options)
        else:
            answer = await self._reads[read](session, subject_id, authorization, *options)
        if key is not None:
            self._kept.keep(key, answer)
        return answer.response()
