"""Share links as QR codes, drawn by segno as SVG: the app shows ``<img src="/api/v1/qr?text=…">``
next to each link it shares (a match's view and edit links, a club's links, a tournament's
players' link and table cards, a table's link for a second phone).

Only links to this server are drawn: ``http`` or ``https`` at the very host the request came to,
which is the address the page that asks was opened at (the app builds every link it shares from
``location.origin``). The endpoint is no QR service for other sites' links, and a code always
sends a phone to where the phone that showed it was.

A code never changes for its link, so the answer is cached for a year (``immutable``), by the
browser only (``private``: a link may carry a match's token), under a strong ETag made from its
bytes; a revalidation with that tag answers 304. Each process keeps the last codes it drew.
"""

import hashlib
import io
from dataclasses import dataclass
from functools import lru_cache
from typing import Annotated
from urllib.parse import urlsplit

import segno
from litestar import Request, Response, get
from litestar.openapi.datastructures import ResponseSpec
from litestar.params import QueryParameter

from api.edge.problems import BadRequest, Fault, Unprocessable, documented
from api.i18n import _

MAX_TEXT = 512
"""Characters of a link, plenty for the longest the app shares (a tournament table's link with
its token, under 200 characters); a code for 512 is a version 16 one, still read across a table."""

SVG = "image/svg+xml"
CACHE_CONTROL = "private, max-age=31536000, immutable"


@dataclass(frozen=True, slots=True)
class Drawn:
    svg: bytes
    etag: str


@lru_cache(maxsize=256)
def draw(text: str) -> Drawn:
    """The link's QR code (error correction M, or higher where it fits the same size), with the
    four modules of white border the standard asks for, on white: a phone's dark theme must not
    turn it into a negative that some cameras cannot read."""
    buffer = io.BytesIO()
    segno.make(text, error="m", micro=False).save(
        buffer, kind="svg", scale=4, border=4, xmldecl=False, dark="#000", light="#fff")
    svg = buffer.getvalue()
    return Drawn(svg, f'"{hashlib.sha256(svg).hexdigest()[:32]}"')


def refusal(text: str, host: str | None) -> Fault | None:
    """What is wrong with drawing ``text`` for a page opened at ``host``; None if nothing."""
    if len(text) > MAX_TEXT:
        return Fault("text", "too_long", _(
            "A QR code holds a link of at most {limit} characters; this one has {length}.",
            limit=MAX_TEXT, length=len(text)))
    link = urlsplit(text)
    if link.scheme not in ("http", "https") or not host \
            or link.netloc.lower() != host.lower():
        return Fault("text", "not_this_server", _(
            "Only links to this server ({host}) are drawn as QR codes.", host=host or ""))
    return None


@get("/api/v1/qr", operation_id="getQrCode", tags=["share"], media_type=SVG,
     raises=[BadRequest, Unprocessable], responses={
         200: ResponseSpec(data_container=str, media_type=SVG, generate_examples=False,
                           description="The link's QR code as SVG"),
         304: ResponseSpec(data_container=None, generate_examples=False,
                           description="The QR code the client has (If-None-Match) is current"),
         **documented(Unprocessable)})
async def qr_code(
    request: Request,  # type: ignore[type-arg]
    text: Annotated[str, QueryParameter(description="The link to draw, one to this server")],
) -> Response[bytes]:
    """A share link of this server as a QR code (SVG), cached by the browser for a year."""
    fault = refusal(text, request.headers.get("host"))
    if fault is not None:
        raise Unprocessable(_("This link is not drawn as a QR code."), errors=[fault])
    drawn = draw(text)
    headers = {"ETag": drawn.etag, "Cache-Control": CACHE_CONTROL}
    if drawn.etag in (tag.strip() for tag in request.headers.get("if-none-match", "").split(",")):
        return Response(b"", status_code=304, headers=headers, media_type=SVG)
    return Response(drawn.svg, headers=headers, media_type=SVG)
