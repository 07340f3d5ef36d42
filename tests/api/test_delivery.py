"""How answers travel: gzip for text the client accepts (never for images), match versions as
entity tags whatever the coding, the app's files revalidated by content (a tag per coding), and
the service worker's precache lists (installed, kept on first use) written from the files
themselves."""

from __future__ import annotations

import asyncio
import base64
import gzip
import hashlib
import json
import posixpath
import re
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from litestar import Litestar
from litestar.testing import AsyncTestClient
from litestar.types import Message, Receive, Scope, Send

from api.app import create_app
from api.edge.compression import THREAD_BYTES, accepts_gzip, compression_config
from api.server.app_files import AppFiles
from api.server.settings import REPO_ROOT, Settings

Client = AsyncTestClient[Litestar]
GZIP = {"Accept-Encoding": "gzip"}
PLAIN = {"Accept-Encoding": "identity"}


@pytest.fixture
def app_dir(tmp_path: Path) -> Path:
    """A copy of the app that a test may change."""
    copy = tmp_path / "pwa"
    shutil.copytree(REPO_ROOT / "pwa", copy)
    return copy


@pytest.fixture
async def client(tmp_path: Path, sqlite_template: Path, app_dir: Path) -> AsyncIterator[Client]:
    database = tmp_path / "tafelrunde.db"
    shutil.copy(sqlite_template, database)
    settings = Settings(database_url=f"sqlite+aiosqlite:///{database}", pwa_dir=app_dir)
    async with AsyncTestClient(app=create_app(settings)) as test_client:
        yield test_client


@pytest.mark.parametrize(("accept_encoding", "accepted"), [
    ("gzip", True), ("gzip, deflate, br", True), ("GZIP;q=0.5", True), ("x-gzip", True),
    ("*", True), ("br", False), ("", False), ("identity", False), ("gzip;q=0", False),
    ("*;q=1, gzip;q=0", False), ("br, *;q=0", False), ("gzip;q=bad", False),
])
def test_gzip_is_sent_only_where_accept_encoding_lets_it_through(
        accept_encoding: str, accepted: bool) -> None:
    assert accepts_gzip(accept_encoding) is accepted


async def test_a_large_json_answer_is_gzipped_for_a_client_that_accepts_it(
        client: Client) -> None:
    compressed = await client.get("/api/v1/games", headers=GZIP)
    plain = await client.get("/api/v1/games", headers=PLAIN)
    assert compressed.headers["content-encoding"] == "gzip"
    assert "accept-encoding" in compressed.headers["vary"].lower()
    assert compressed.json() == plain.json()
    assert int(compressed.headers["content-length"]) < len(plain.content) / 3
    # The plain answer depends on Accept-Encoding too: a cache must not give it to everyone.
    assert "content-encoding" not in plain.headers
    assert "accept-encoding" in plain.headers["vary"].lower()


async def test_a_big_answer_is_compressed_while_the_event_loop_answers_others() -> None:
    """A body of megabytes is compressed on a thread: another task gets its turns meanwhile
    (on the loop it got none until the whole answer was sent)."""
    body = json.dumps([{"rank": n, "name": f"Player {n}", "points": n * 7 % 101}
                       for n in range(40_000)]).encode()
    assert len(body) > 20 * THREAD_BYTES

    async def app(_scope: Scope, _receive: Receive, send: Send) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": [
            (b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body, "more_body": False})

    middleware = compression_config().middleware_class(app, compression_config())
    sent: list[Message] = []
    turns = 0

    async def send(message: Message) -> None:
        sent.append(message)

    async def other_task() -> None:
        nonlocal turns
        while True:
            turns += 1
            await asyncio.sleep(0)

    async def receive() -> Message:
        raise AssertionError("the answer reads nothing")

    scope: Scope = {"type": "http", "method": "GET", "path": "/", "headers": [  # type: ignore[typeddict-item]
        (b"accept-encoding", b"gzip")], "state": {}}
    other = asyncio.create_task(other_task())
    await asyncio.sleep(0)
    before = turns
    await middleware(scope, receive, send)
    during = turns - before
    other.cancel()
    start, answer = sent
    headers = dict(start["headers"])  # type: ignore[typeddict-item]
    assert headers[b"content-encoding"] == b"gzip"
    assert b"accept-encoding" in headers[b"vary"].lower()
    assert gzip.decompress(answer["body"]) == body  # type: ignore[typeddict-item]
    assert int(headers[b"content-length"]) == len(answer["body"])  # type: ignore[typeddict-item]
    assert during > 0


async def test_small_answers_and_images_go_out_as_they_are(client: Client) -> None:
    ping = await client.get("/api/v1/ping", headers=GZIP)
    icon = await client.get("/icons/icon-512.png", headers=GZIP)
    assert ping.status_code == icon.status_code == 200
    assert "content-encoding" not in ping.headers
    assert "content-encoding" not in icon.headers
    assert "vary" not in icon.headers
    assert icon.content == (REPO_ROOT / "pwa" / "icons" / "icon-512.png").read_bytes()


async def test_a_compressed_match_answer_keeps_its_version_as_etag_for_if_match(
        client: Client) -> None:
    created = (await client.post("/api/v1/matches", json={
        "game": "tschau-sepp", "players": ["Ann", "Bea", "Cem", "Dev"],
        "options": {"games": 30}})).json()
    url = f"/api/v1/matches/{created['id']}"
    auth = {"Authorization": f"Bearer {created['token']}"}
    for winner in (0, 1, 2, 3, 0, 1):
        penalty = [0 if seat == winner else 7 for seat in range(4)]
        posted = await client.post(f"{url}/rounds", json={"winner": winner, "penalty": penalty},
                                   headers=auth)
        assert posted.status_code == 201
    read = await client.get(url, headers=GZIP)
    assert read.headers["content-encoding"] == "gzip"
    assert read.headers["etag"] == '"7"' == f'"{read.json()["version"]}"'

    corrected = await client.put(f"{url}/rounds/1", headers={**auth, "If-Match": read.headers[
        "etag"]}, json={"winner": 1, "penalty": [3, 0, 3, 3]})
    assert corrected.status_code == 200, corrected.text
    stale = await client.put(f"{url}/rounds/1", headers={**auth, "If-Match": read.headers[
        "etag"]}, json={"winner": 2, "penalty": [3, 3, 0, 3]})
    assert stale.status_code == 412


async def test_an_app_file_is_revalidated_by_its_content_tag(client: Client) -> None:
    first = await client.get("/js/app.js", headers=GZIP)
    tag = first.headers["etag"]
    assert first.headers["cache-control"] == "no-cache"
    assert first.headers["content-encoding"] == "gzip"
    for asked in (tag, f"W/{tag}", f'"other", {tag}', "*"):
        again = await client.get("/js/app.js", headers={**GZIP, "If-None-Match": asked})
        assert again.status_code == 304, asked
        assert again.content == b""
        assert again.headers["etag"] == tag
        assert again.headers["cache-control"] == "no-cache"
        assert "accept-encoding" in again.headers["vary"].lower()
        assert "content-encoding" not in again.headers
        assert "frame-ancestors 'none'" in again.headers["content-security-policy"]
    other = await client.get("/js/app.js", headers={"If-None-Match": '"0123456789abcdef"'})
    assert other.status_code == 200
    assert other.text == (REPO_ROOT / "pwa" / "js" / "app.js").read_text(encoding="utf-8")
    for page in ("/", "/index.html", "/sw.js"):
        assert (await client.get(page)).headers["cache-control"] == "no-cache"


def style_src(answer: httpx.Response) -> list[str]:
    """The sources of an answer's Content-Security-Policy ``style-src``."""
    for directive in answer.headers["content-security-policy"].split(";"):
        name, *sources = directive.split()
        if name == "style-src":
            return sources
    raise AssertionError("no style-src")


def style_hash(page: str) -> str:
    """The CSP source of the page's one ``<style>`` element: the SHA-256 of its text."""
    style = page.split("<style>", 1)[1].split("</style>", 1)[0]
    return f"'sha256-{base64.b64encode(hashlib.sha256(style.encode()).digest()).decode()}'"


async def test_the_apps_page_holds_up_no_paint_for_a_stylesheet(client: Client) -> None:
    """No render-blocking stylesheet: the page styles what shows before its script in its own
    ``<style>`` and preloads the screens' sheet, which app.js applies."""
    page = (await client.get("/")).text
    assert not re.search(r"<link[^>]*rel=.?stylesheet", page)
    assert '<link rel="preload" href="css/app.css" as="style">' in page
    assert "'css/app.css'" in (await client.get("/js/app.js")).text


async def test_the_apps_page_may_apply_its_own_style_and_no_other_inline_one(
        client: Client, app_dir: Path) -> None:
    """Its policy names the hash of its ``<style>``, on a 304 too (a browser replaces the
    cached copy's headers with a 304's); every other answer allows no inline style."""
    own = style_hash((app_dir / "index.html").read_text(encoding="utf-8"))
    for path in ("/", "/index.html"):
        for encoding in (GZIP, PLAIN):
            answer = await client.get(path, headers=encoding)
            assert style_src(answer) == ["'self'", own], (path, encoding)
            again = await client.get(path, headers={**encoding,
                                                    "If-None-Match": answer.headers["etag"]})
            assert again.status_code == 304
            assert style_src(again) == ["'self'", own], (path, encoding)
            assert again.headers["content-security-policy"] == answer.headers[
                "content-security-policy"]
    for path in ("/js/app.js", "/css/app.css", "/sw.js", "/precache.js", "/api/v1/games"):
        assert style_src(await client.get(path)) == ["'self'"], path

    # An edit counts at once, as for any file of the app.
    shell = app_dir / "index.html"
    shell.write_text(shell.read_text(encoding="utf-8").replace(
        "<style>\n", "<style>\nmain { color: red; }\n"), encoding="utf-8")
    edited = style_hash(shell.read_text(encoding="utf-8"))
    assert edited != own
    assert style_src(await client.get("/")) == ["'self'", edited]


async def test_the_gzip_and_the_plain_bytes_of_an_app_file_carry_different_strong_tags(
        client: Client) -> None:
    """RFC 9110 (8.8.3): a strong tag names one sequence of bytes, so each coding has its own;
    If-None-Match matches the tag of the bytes this request would be sent, weakly compared."""
    compressed = await client.get("/js/app.js", headers=GZIP)
    plain = await client.get("/js/app.js", headers=PLAIN)
    assert compressed.headers["content-encoding"] == "gzip"
    assert "content-encoding" not in plain.headers
    gz_tag, plain_tag = compressed.headers["etag"], plain.headers["etag"]
    assert gz_tag == plain_tag.removesuffix('"') + '-gz"'
    assert not gz_tag.startswith("W/")
    assert not plain_tag.startswith("W/")
    for answer in (compressed, plain):
        assert "accept-encoding" in answer.headers["vary"].lower()

    for encoding, tag in ((GZIP, gz_tag), (PLAIN, plain_tag)):
        for asked in (tag, f"W/{tag}", f'"other", {tag}', "*"):
            again = await client.get("/js/app.js", headers={**encoding, "If-None-Match": asked})
            assert again.status_code == 304, (encoding, asked)
            assert again.headers["etag"] == tag
            assert "accept-encoding" in again.headers["vary"].lower()
    # The other coding's tag names bytes this client is not being sent: the whole file, tagged.
    switched = await client.get("/js/app.js", headers={**GZIP, "If-None-Match": plain_tag})
    assert (switched.status_code, switched.headers["etag"]) == (200, gz_tag)
    assert switched.headers["content-encoding"] == "gzip"
    switched = await client.get("/js/app.js", headers={**PLAIN, "If-None-Match": gz_tag})
    assert (switched.status_code, switched.headers["etag"]) == (200, plain_tag)
    assert "content-encoding" not in switched.headers


async def test_every_app_file_is_tagged_as_the_coding_it_is_sent_in(client: Client) -> None:
    """The tag is chosen before the compressor sees the bytes: for every file, small ones and
    images included, a tag ends in -gz exactly when the bytes are gzip."""
    _, files = await precache(client)
    gzipped = set()
    for file in files:
        for encoding in (GZIP, PLAIN):
            answer = await client.get(f"/{file}", headers=encoding)
            coded = answer.headers.get("content-encoding") == "gzip"
            assert answer.headers["etag"].endswith('-gz"') is coded, (file, encoding)
            if coded:
                gzipped.add(file)
    assert {"js/app.js", "index.html", "i18n/de.json", "css/app.css"} <= gzipped
    assert not {"manifest.webmanifest", "icons/icon.svg", "icons/icon-512.png"} & gzipped


async def precache(client: Client) -> tuple[str, list[str]]:
    """The version and every file the worker knows: those it installs, then those it keeps once
    first fetched."""
    installed, later = await precache_lists(client)
    response = await client.get("/precache.js")
    return response.text.split('VERSION = "', 1)[1].split('"', 1)[0], installed + later


async def precache_lists(client: Client) -> tuple[list[str], list[str]]:
    """``FILES`` (installed) and ``LATER`` (kept on first use) of ``/precache.js``."""
    response = await client.get("/precache.js")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("text/javascript")
    assert response.headers["cache-control"] == "no-cache"
    module = response.text

    def exported(name: str) -> list[str]:
        files: list[str] = json.loads(
            module.split(f"export const {name} = ", 1)[1].split(";\n", 1)[0])
        return files

    return exported("FILES"), exported("LATER")


def files_of(folder: Path) -> set[str]:
    return {path.relative_to(folder).as_posix() for path in folder.rglob("*") if path.is_file()}


async def test_the_precache_lists_every_file_of_the_app_but_the_worker(
        client: Client, app_dir: Path) -> None:
    _, files = await precache(client)
    assert set(files) == files_of(REPO_ROOT / "pwa") - {"sw.js"}
    assert {"index.html", "js/tournaments/dashboard.js", "i18n/en.json"} <= set(files)
    for file in files:
        assert (await client.get(f"/{file}")).status_code == 200, file


async def test_the_worker_installs_the_table_and_keeps_the_organisers_screens_for_first_use(
        client: Client) -> None:
    installed, later = await precache_lists(client)
    assert not set(installed) & set(later)
    # A phone at a table: a match from the start screen, its entry forms, the table's and the
    # player's phones, new match with a club's members.
    assert {"index.html", "js/screens/new-match.js", "js/screens/sheet.js",
            "js/games/tschau-sepp.js", "js/games/sea-change.js", "js/games/seven-seals.js",
            "js/outbox.js", "js/tournaments/phone.js", "js/tournaments/confirm.js",
            "js/tournaments/player.js", "js/clubs/pick.js", "i18n/de.json",
            "icons/icon-512.png"} <= set(installed)
    assert {"js/tournaments/dashboard.js", "js/tournaments/board.js", "js/tournaments/new.js",
            "js/clubs/ladder.js", "js/clubs/kasse.js", "js/clubs/settlement.js"} <= set(later)


STATIC_IMPORT = re.compile(r"^(?:import|export)\s[^;]*?\sfrom\s+'([^']+)'|^import\s+'([^']+)'",
                           re.MULTILINE)


async def test_every_module_an_installed_one_imports_is_installed_too(client: Client) -> None:
    """A static import of a module left for first use would keep an installed screen from
    loading offline: the patterns in app_files.py must name such a module as installed."""
    installed, _ = await precache_lists(client)
    missing = {}
    for file in installed:
        if not file.endswith(".js"):
            continue
        source = (await client.get(f"/{file}")).text
        for found in STATIC_IMPORT.finditer(source):
            imported = posixpath.normpath(posixpath.join(posixpath.dirname(file),
                                                         found[1] or found[2]))
            if imported not in installed and imported != "precache.js":
                missing[file] = imported
    assert missing == {}


async def test_a_new_file_is_installed_unless_it_is_in_an_organisers_folder(
        client: Client, app_dir: Path) -> None:
    (app_dir / "js" / "screens" / "pad.js").write_text("export {};\n", encoding="utf-8")
    (app_dir / "js" / "tournaments" / "season.js").write_text("export {};\n", encoding="utf-8")
    (app_dir / "js" / "clubs" / "seasons").mkdir()
    (app_dir / "js" / "clubs" / "seasons" / "board.js").write_text("export {};\n",
                                                                   encoding="utf-8")
    installed, later = await precache_lists(client)
    assert "js/screens/pad.js" in installed
    assert {"js/tournaments/season.js", "js/clubs/seasons/board.js"} <= set(later)


async def test_any_change_to_the_files_changes_the_version_and_the_list(
        client: Client, app_dir: Path) -> None:
    version, files = await precache(client)
    tag = (await client.get("/css/app.css")).headers["etag"]

    (app_dir / "css" / "app.css").write_text("body { color: red }\n", encoding="utf-8")
    edited, _ = await precache(client)
    assert edited != version
    assert (await client.get("/css/app.css")).headers["etag"] != tag
    assert (await client.get("/css/app.css", headers={"If-None-Match": tag})).status_code == 200

    (app_dir / "i18n" / "rm.json").write_text("{}", encoding="utf-8")
    added, more = await precache(client)
    assert added not in {version, edited}
    assert set(more) == {*files, "i18n/rm.json"}

    (app_dir / "i18n" / "rm.json").unlink()
    removed, fewer = await precache(client)
    assert removed == edited
    assert fewer == files

    (app_dir / "sw.js").write_text("// a new worker\n", encoding="utf-8")
    assert (await precache(client))[0] != edited


async def test_the_worker_itself_changes_with_any_file_of_the_app(
        client: Client, app_dir: Path) -> None:
    """Its last line names the version: chromium installs an update reliably only when the
    worker itself changed, not just a module it imports."""
    source = (app_dir / "sw.js").read_text(encoding="utf-8")
    version, _ = await precache(client)
    worker = await client.get("/sw.js")
    assert worker.headers["content-type"].startswith("text/javascript")
    assert worker.headers["cache-control"] == "no-cache"
    assert worker.text.startswith(source.rstrip())
    assert worker.text.endswith(
        f"\n// {version}: written by the server (api/server/app_files.py)\n")

    (app_dir / "i18n" / "en.json").write_text('{"app.home": "Home"}', encoding="utf-8")
    changed, _ = await precache(client)
    assert changed != version
    assert (await client.get("/sw.js")).text.endswith(f"// {changed}: written by the server "
                                                     "(api/server/app_files.py)\n")

    (app_dir / "sw.js").unlink()
    assert (await client.get("/sw.js")).status_code == 404


def test_hidden_files_and_paths_out_of_the_folder_are_not_the_apps(app_dir: Path) -> None:
    (app_dir / ".draft.js").write_text("x", encoding="utf-8")
    (app_dir / ".cache").mkdir()
    (app_dir / ".cache" / "old.js").write_text("x", encoding="utf-8")
    files = AppFiles(app_dir)
    assert files.digest("js/app.js") is not None
    for path in (".draft.js", ".cache/old.js", "../pwa/js/app.js", "/etc/passwd", "js",
                 "js/missing.js", ""):
        assert files.digest(path) is None, path
    assert not any(path.startswith(".") for path in files.listing())

