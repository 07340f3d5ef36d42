"""The app's files: served from one folder, revalidated by content, and listed for the service
worker by the server itself.

``/precache.js`` is a module this server writes from the folder it serves: the path of every file
of the app (all but the service worker itself) and a version made from all their contents. The
service worker (``pwa/sw.js``) imports it, and the server sends the worker with a last line
naming that version. So nobody keeps a list or bumps a version: add, change or remove any file
and the browser's next update check finds a different worker, installs it, and it fetches the
files again into a cache named after the new version. The folder may be the repository's ``pwa/``
or the copy installed with the package: it is read the same way, when asked, so a file edited
while the server runs counts at once too.

The files come in two lists. ``FILES`` is what the worker fetches when it installs: what a phone
at a table needs without a connection it may never have had since (:func:`at_install`).
``LATER`` is the organiser's screens, fetched when first opened and kept from then on: a first
visit no longer pays for every screen the app will ever have, and the organiser opens the
dashboard or the club's screens online anyway before a tournament or a club evening. The
version still covers both lists, so a change to any file updates the worker.

Every file is answered with ``Cache-Control: no-cache`` and an ``ETag`` made from its content
(with ``-gz`` for its gzip-compressed bytes, :mod:`api.edge.compression`); a request whose
``If-None-Match`` names the tag of the bytes it would be sent gets 304 Not Modified without a
body. A tag of the other coding does not match: the client holds other bytes than the ones this
request selects, and a 304 naming a tag it does not hold would update nothing in its cache.

The app's page (``index.html``) carries the styles of what shows before its script runs in a
``<style>`` element, so that no stylesheet holds up its first paint. The Content-Security-Policy
allows no inline style, so a page's answers (200 and 304 alike: a 304's headers replace the
cached ones) name the SHA-256 hash of each of its ``<style>`` elements in ``style-src``
(:meth:`AppFiles.style_sources`); that page may apply those styles and no other inline one, and a
change to them changes the hash at once, as any file counts at once.

Why not a long ``max-age``: the files' names carry no hash (there is no build step), so a browser
must ask whether its copy is still current, and a 304 makes asking cheap. The service worker's
cache is what makes the app instant and offline; phones that open the app over plain ``http``
from a club's local network get no service worker (it needs a secure context) and rely on this
alone.
"""

from __future__ import annotations

import base64
import fnmatch
import hashlib
import json
import mimetypes
import re
import stat
from pathlib import Path, PurePosixPath
from typing import Any, NamedTuple

from litestar import get
from litestar.datastructures import CacheControlHeader, Headers, MutableScopeHeaders
from litestar.enums import ScopeType
from litestar.exceptions import NotFoundException
from litestar.middleware import DefineMiddleware
from litestar.static_files import create_static_files_router
from litestar.types import ASGIApp, Message, Receive, Scope, Send

from api.edge.compression import coded_tag, gzips, is_compressible

PRECACHE_MODULE = "precache.js"
SERVICE_WORKER = "sw.js"
WRITER = "api/server/app_files.py"
"""Named in what the server writes into the app's files, for whoever reads them in a browser."""
SHELL = "index.html"
# A page's own styles: <style> elements without attributes, hashed as the browser hashes them.
INLINE_STYLE = re.compile(r"<style>(.*?)</style>", re.DOTALL)
DIGEST_CHARS = 16  # 64 bits of SHA-256: tags and versions of one app's few dozen files
REVALIDATE = "no-cache"

# Which files the worker installs and which it keeps once first opened. A file is installed
# unless a pattern of ON_FIRST_USE names it and none of AT_INSTALL does ("*" also crosses "/",
# as in fnmatch). Installing is the default so that a new table screen is never missing offline;
# the organiser's folders are named whole, so that a screen a colleague adds there is left for
# first use without anyone listing it. A module a table screen imports when it loads must be
# installed too (tests/api/test_delivery.py checks that every installed module's imports are).
AT_INSTALL = (
    # New match picks a club's players from its members, as the club's lists order them.
    "js/clubs/api.js", "js/clubs/common.js", "js/clubs/pick.js",
    # A table's phone: its rounds, confirmation and the round clock over its sheet; a player's
    # phone: their own view with the clock, and the check-in screen its scan opens.
    "js/tournaments/phone.js", "js/tournaments/confirm.js", "js/tournaments/player.js",
    "js/tournaments/common.js", "js/tournaments/table-clock.js", "js/tournaments/clock.js",
    "js/tournaments/checkin.js",
)
ON_FIRST_USE = (
    # The club's screens (ladder, history, member, kasse, settlement, share, new club) are read
    # or run by whoever looks after the club, online at least once before the evening.
    "js/clubs/**",
    # The organiser's dashboard, board, cards to print and new tournament.
    "js/tournaments/**",
)


class Content(NamedTuple):
    digest: str
    size: int


class AppFiles:
    """The files of the app under ``root``, each with a hash of its content.

    A file is hashed again only when its size or modification time changed since it was last
    read; paths that leave the folder or name hidden files are not the app's.
    """

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self._hashed: dict[str, tuple[int, int, int, str]] = {}
        self._styles: dict[str, tuple[str, list[str]]] = {}

    def digest(self, relative: str) -> str | None:
        """The content hash of the file at ``relative`` (a POSIX path), or None if the app has
        no such file."""
        content = self.content(relative)
        return None if content is None else content.digest

    def content(self, relative: str) -> Content | None:
        """The content hash and size of the file at ``relative``, or None if the app has no such
        file."""
        parts = PurePosixPath(relative).parts
        if not parts or any(part.startswith(".") or part == "/" for part in parts):
            return None
        path = self.root.joinpath(*parts)
        try:
            status = path.stat()
        except OSError:
            return None
        if not stat.S_ISREG(status.st_mode):
            return None
        seen = (status.st_ino, status.st_size, status.st_mtime_ns)
        known = self._hashed.get(relative)
        if known is not None and known[:3] == seen:
            return Content(known[3], status.st_size)
        digest = hashlib.sha256(path.read_bytes()).hexdigest()[:DIGEST_CHARS]
        self._hashed[relative] = (*seen, digest)
        return Content(digest, status.st_size)

    def style_sources(self, relative: str) -> list[str]:
        """The ``style-src`` sources that let the page at ``relative`` apply its own
        ``<style>`` elements: ``'sha256-…'`` of each one's text, read again when the file
        changes."""
        content = self.content(relative)
        if content is None:
            return []
        known = self._styles.get(relative)
        if known is not None and known[0] == content.digest:
            return known[1]
        page = (self.root / relative).read_text(encoding="utf-8")
        sources = [f"'sha256-{base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()}'"
                   for style in INLINE_STYLE.findall(page)]
        self._styles[relative] = (content.digest, sources)
        return sources

    def listing(self) -> dict[str, str]:
        """Every file of the app with its content hash, by path, in path order."""
        found: dict[str, str] = {}
        for path in sorted(self.root.rglob("*")):
            relative = path.relative_to(self.root).as_posix()
            digest = self.digest(relative)
            if digest is not None:
                found[relative] = digest
        return found

    def version(self) -> str:
        """A name for this state of the app, made from every file's path and content."""
        listing = self.listing()
        made = hashlib.sha256("".join(
            f"{path}\0{digest}\n" for path, digest in listing.items()).encode()).hexdigest()
        return f"tafelrunde-{made[:DIGEST_CHARS]}"

    def precache_module(self) -> str:
        """The module the service worker imports: its cache's version, the files it fetches when
        it installs and those it keeps once they are first fetched."""
        files = [path for path in self.listing() if path not in {SERVICE_WORKER, PRECACHE_MODULE}]
        installed = [path for path in files if at_install(path)]
        later = [path for path in files if not at_install(path)]
        return (
            f"// Written by the server ({WRITER}) from the app's files, whenever asked.\n"
            f"export const VERSION = {json.dumps(self.version())};\n"
            f"export const FILES = {json.dumps(installed, indent=1)};\n"
            f"export const LATER = {json.dumps(later, indent=1)};\n"
        )

    def service_worker(self) -> str | None:
        """``sw.js`` as it is, with a last line naming the version, or None without one.

        Why the line: a browser's update check compares the worker and every module it imports,
        but chromium did not start a new worker whose only change was in an imported module
        ("ServiceWorker cannot be started"); with the worker itself changing whenever any file
        does, every update takes the path of a changed worker, which works.
        """
        if self.digest(SERVICE_WORKER) is None:
            return None
        source = (self.root / SERVICE_WORKER).read_text(encoding="utf-8")
        return f"{source.rstrip()}\n// {self.version()}: written by the server ({WRITER})\n"


def at_install(relative: str) -> bool:
    """Whether the worker fetches the file at ``relative`` when it installs (else when the app
    first asks for it): see ``AT_INSTALL`` and ``ON_FIRST_USE``."""
    return (any(fnmatch.fnmatchcase(relative, pattern) for pattern in AT_INSTALL)
            or not any(fnmatch.fnmatchcase(relative, pattern) for pattern in ON_FIRST_USE))


def entity_tag_matches(if_none_match: str, tag: str) -> bool:
    """``If-None-Match`` against our tag, compared weakly as RFC 9110 (13.1.2) asks."""
    if if_none_match.strip() == "*":
        return True
    opaque = tag.removeprefix("W/")
    return any(candidate.strip().removeprefix("W/") == opaque
               for candidate in if_none_match.split(","))


class Revalidation:
    """Content tags, ``no-cache`` and 304 answers for the app's files, and a page's policy
    naming its inline styles (ASGI middleware)."""

    def __init__(self, app: ASGIApp, files: AppFiles, policy: str) -> None:
        self.app = app
        self.files = files
        self.policy = policy

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        relative = scope["path"].lstrip("/")
        if not relative or relative.endswith("/"):
            relative += SHELL
        content = self.files.content(relative) if scope["type"] == ScopeType.HTTP else None
        if content is None:
            await self.app(scope, receive, send)
            return
        asked = Headers.from_scope(scope)
        tag = coded_tag(content.digest, gzips(
            media_type(relative), content.size, asked.get("accept-encoding", "")))
        policy = (allowing_styles(self.policy, self.files.style_sources(relative))
                  if media_type(relative) == "text/html" else None)
        if entity_tag_matches(asked.get("if-none-match", ""), tag):
            await send(not_modified(tag, relative, policy))
            await send({"type": "http.response.body", "body": b"", "more_body": False})
            return

        async def send_tagged(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 200:
                headers = MutableScopeHeaders(message)
                headers["etag"] = tag
                headers["cache-control"] = REVALIDATE
                if policy is not None:
                    headers["content-security-policy"] = policy
            await send(message)

        await self.app(scope, receive, send_tagged)


def not_modified(tag: str, relative: str, policy: str | None) -> Message:
    """A 304's head: the headers a 200 would have had that say which copy is current, and a
    page's policy (a browser replaces the cached copy's headers with a 304's)."""
    headers = [(b"etag", tag.encode()), (b"cache-control", REVALIDATE.encode())]
    if is_compressible(media_type(relative)):
        headers.append((b"vary", b"Accept-Encoding"))
    if policy is not None:
        headers.append((b"content-security-policy", policy.encode()))
    return {"type": "http.response.start", "status": 304, "headers": headers}


def allowing_styles(policy: str, sources: list[str]) -> str:
    """``policy`` (a Content-Security-Policy) with ``sources`` added to its ``style-src``."""
    return "; ".join(" ".join([directive, *sources]) if directive.split()[0] == "style-src"
                     else directive for directive in policy.split("; "))


def media_type(relative: str) -> str:
    """The file's media type, guessed from its name as the static files router does."""
    return mimetypes.guess_type(relative)[0] or ""


def pwa_routes(pwa_dir: Path, policy: str) -> list[Any]:
    """The app at ``/`` from ``pwa_dir``, its service worker and the worker's ``/precache.js``;
    ``policy`` is the service's Content-Security-Policy, which a page's answers extend by its
    inline styles."""
    files = AppFiles(pwa_dir)

    @get(f"/{PRECACHE_MODULE}", include_in_schema=False, media_type="text/javascript",
         cache_control=CacheControlHeader(no_cache=True), name="precache")
    async def precache() -> str:
        return files.precache_module()

    @get(f"/{SERVICE_WORKER}", include_in_schema=False, media_type="text/javascript",
         cache_control=CacheControlHeader(no_cache=True), name="service-worker")
    async def service_worker() -> str:
        worker = files.service_worker()
        if worker is None:
            raise NotFoundException(f"This app has no {SERVICE_WORKER}.")
        return worker

    return [precache, service_worker, create_static_files_router(
        path="/", directories=[pwa_dir], html_mode=True, include_in_schema=False, name="pwa",
        middleware=[DefineMiddleware(Revalidation, files=files, policy=policy)],
    )]
