"""Compressed answers: the app's files and the API's JSON go out gzip-compressed to every client
that accepts it; event streams and binary files never.

Decisions:

- gzip at level 6, from the standard library: every browser and HTTP client reads it and no
  compiled dependency comes with it. (Brotli would save about a fifth more of our JavaScript, but
  needs a binary package on every install for a gain of a few kilobytes on the first visit.)
- Only text is compressed (``text/*``, JSON and its ``+json`` kinds, JavaScript, SVG, XML): PNG
  icons and other binary files are compressed already and would only cost CPU.
- Answers under 1 KiB stay as they are: they fit in one packet either way.
- A big answer sent in one piece (:data:`THREAD_BYTES` and more: a 10,000-player tournament's
  standings or exports, megabytes of JSON or CSV) is compressed on a thread: zlib lets go of the
  GIL while it compresses, so the event loop answers others meanwhile (compressing 2 MB on the
  loop kept it for a tenth of a second). Smaller ones are compressed on the loop by Litestar's
  compressor, where a thread's hand-over would cost more than the work.
- Server-Sent Events (``text/event-stream``) pass through untouched, whatever the path: a
  compressor holds bytes back until it has enough to work with, and an event must reach the
  phones the moment it is sent.
- ``Vary: Accept-Encoding`` on every text answer whose bytes depend on it: a compressed one, and
  a plain one sent to a client that does not accept gzip, so a shared cache never hands either
  to the other kind of client. (An answer under 1 KiB is the same for everyone.)
- Entity tags: the app's files are tagged by the hash of their content (``api.server.app_files``),
  and the gzip-compressed bytes of a file are another representation, so they carry another strong
  tag, the content's with ``-gz`` (RFC 9110, 8.8.3: a strong tag names one sequence of bytes, so
  that a cache never splices byte ranges of two codings together or takes one for the other).
  ``api.server.app_files`` asks :func:`gzips` which bytes a request will get and tags them (200 and
  304 alike). A match's ``ETag`` is left alone: it is its version (``"7"``, the HTTP contract),
  names the state that ``If-Match`` protects rather than a byte sequence, and no answer of the
  API takes a range request.
"""

from __future__ import annotations

import asyncio
import gzip

from litestar.config.compression import CompressionConfig
from litestar.datastructures import Headers, MutableScopeHeaders
from litestar.enums import CompressionEncoding
from litestar.middleware.compression import CompressionMiddleware
from litestar.types import (
    HTTPResponseBodyEvent,
    HTTPResponseStartEvent,
    Message,
    Receive,
    Scope,
    Send,
)

MINIMUM_SIZE = 1024
THREAD_BYTES = 64 * 1024
GZIP_LEVEL = 6
EVENT_STREAM = "text/event-stream"
GZIP_TAG_SUFFIX = "-gz"
TEXT_APPLICATION_TYPES = frozenset({
    "application/json", "application/javascript", "application/xml", "image/svg+xml"})


def gzips(content_type: str, size: int, accept_encoding: str) -> bool:
    """Whether an answer of this media type and size in bytes goes out gzip-compressed to a
    client sending this ``Accept-Encoding``: the choice :class:`TextCompression` makes, with the
    minimum size Litestar's compressor applies to a body sent in one piece."""
    return is_compressible(content_type) and size >= MINIMUM_SIZE and accepts_gzip(
        accept_encoding)


def coded_tag(opaque: str, gzipped: bool) -> str:
    """The strong entity tag of the content tagged ``opaque``, as plain or as gzip bytes."""
    return f'"{opaque}{GZIP_TAG_SUFFIX}"' if gzipped else f'"{opaque}"'


def is_compressible(content_type: str) -> bool:
    """Whether an answer of this media type is worth compressing and safe to compress."""
    media = content_type.split(";", 1)[0].strip().lower()
    if media == EVENT_STREAM:
        return False
    return (media.startswith("text/") or media in TEXT_APPLICATION_TYPES
            or media.endswith(("+json", "+xml")))


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether ``Accept-Encoding`` lets gzip through: named with a weight above 0, or else ``*``
    with a weight above 0 (RFC 9110, 12.5.3)."""
    weights: dict[str, float] = {}
    for item in accept_encoding.split(","):
        coding, *parameters = (part.strip() for part in item.split(";"))
        quality = next((p[2:] for p in parameters if p.lower().startswith("q=")), "1")
        try:
            weights.setdefault(coding.lower(), float(quality))
        except ValueError:
            weights.setdefault(coding.lower(), 0.0)
    return weights.get("gzip", weights.get("x-gzip", weights.get("*", 0.0))) > 0


class TextCompression(CompressionMiddleware):
    """Litestar's gzip compression, applied to text answers only, big ones compressed on a
    thread (see the module's decisions)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        compressing = self.create_compression_send_wrapper(
            send=send, compression_encoding=CompressionEncoding.GZIP, scope=scope,
        ) if accepts_gzip(Headers.from_scope(scope).get("accept-encoding", "")) else None
        chosen = send
        held: HTTPResponseStartEvent | None = None  # a compressed answer's start, until its body

        async def send_chosen(message: Message) -> None:
            nonlocal chosen, held
            if message["type"] == "http.response.start":
                headers = MutableScopeHeaders(message)
                if is_compressible(headers.get("content-type", "")):
                    if compressing is None:
                        headers.extend_header_value("vary", "Accept-Encoding")
                    else:
                        chosen, held = compressing, message
                        return
                await chosen(message)
                return
            if held is not None:
                start, held = held, None
                if message["type"] == "http.response.body" and not message.get("more_body") \
                        and len(message.get("body", b"")) >= THREAD_BYTES:
                    chosen = send
                    await send_gzipped_on_thread(send, start, message)
                    return
                await chosen(start)
            await chosen(message)

        await self.app(scope, receive, send_chosen)


async def send_gzipped_on_thread(send: Send, start: HTTPResponseStartEvent,
                                 body: HTTPResponseBodyEvent) -> None:
    """A whole answer, its body gzip-compressed on a thread, with the headers Litestar's
    compressor gives a body sent in one piece."""
    compressed = await asyncio.to_thread(gzip.compress, body["body"], GZIP_LEVEL)
    headers = MutableScopeHeaders(start)
    headers["Content-Encoding"] = CompressionEncoding.GZIP
    headers["Content-Length"] = str(len(compressed))
    headers.extend_header_value("vary", "Accept-Encoding")
    await send(start)
    await send({"type": "http.response.body", "body": compressed, "more_body": False})


def compression_config() -> CompressionConfig:
    return CompressionConfig(backend="gzip", minimum_size=MINIMUM_SIZE,
                             gzip_compress_level=GZIP_LEVEL, middleware_class=TextCompression)
