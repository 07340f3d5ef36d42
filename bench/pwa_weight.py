"""The app's first visit on the wire: every byte a phone downloads the first time it opens
Tafelrunde, as the server sends it (gzip where it compresses), against a budget of 120 KiB.

A first visit loads the page, and the service worker it installs then fetches what a phone at a
table needs offline: the ``FILES`` list in ``/precache.js``, which the server writes from
``pwa/`` (``api/server/app_files.py``). So the visit is ``/``, ``/sw.js``, ``/precache.js`` and
every installed file, each counted once: what the page itself loads is among them, and the
worker's install fetches those again only to revalidate them (a 304 without a body). The start
screen asks the API for nothing. The page at ``/`` and the worker's ``index.html`` are two
addresses, so the shell is downloaded twice, as in a browser.

The budget is for the table offline: the start screen, new match, every match screen and game
entry form, a tournament table's and a player's phone, in the reader's language
(``--language``, German unless told), and the icons a browser fetches anyway to offer installing
the app. The worker keeps only the reader's words (sw.js): another language's come when the app
first shows it, about 7 KiB each. The organiser's screens (``LATER``: the club's screens but
the member picker new match uses, the tournament dashboard, board, cards and new tournament) are
fetched when first opened and kept from then on; they are printed apart, with their total, and
no budget: they grow with every organiser's screen the app gains, and a visit pays for them only
when it opens them. (The whole app was 124.6 KiB when every screen was installed, over the budget
as screens were being added; a fixed total for every screen could not hold.)

Before the first screen shows, the page needs less: itself, the screens' stylesheet (which
app.js applies before it draws the first screen; the page styles its bar itself, so that no
stylesheet holds up its first paint), the words of its language and the modules ``js/app.js``
imports statically, the rest loaded when a screen needs it. That critical path is printed too,
against 40 KiB.

Needs nothing but the installed package: no test extras, no browser. It starts
``tafelrunde serve`` on a free port with a throwaway SQLite file and fetches with the standard
library, asking for gzip as a browser does. Prints each file's bytes on the wire and unpacked,
then the totals: bodies on the wire (the budget counts these), headers, and what the same
bodies weigh uncompressed. Exit status 1 when over either budget, 2 when the server does not
start.

The figures are bytes, not timings: the same on any machine. So the budgets are a test too
(``tests/pwa/test_weight.py``, every language), and ``--smoke`` changes nothing: the weight must
not creep back over a budget unseen.

Run: ``.venv/bin/python bench/pwa_weight.py``
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import posixpath
import re
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

BUDGET = 120 * 1024
CRITICAL_BUDGET = 40 * 1024
# What a module imports before it runs (static imports; import() waits for a screen).
STATIC_IMPORT = re.compile(r"^(?:import|export)\s[^;]*?\sfrom\s+'([^']+)'|^import\s+'([^']+)'",
                           re.MULTILINE)
ACCEPT_ENCODING = "gzip, deflate, br, zstd"  # what chromium sends; the server picks gzip


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@contextmanager
def served_app() -> Iterator[str]:
    """``tafelrunde serve`` on a free port with a throwaway database; yields its base URL."""
    with tempfile.TemporaryDirectory() as workdir:
        port = free_port()
        env = {key: value for key, value in os.environ.items()
               if not key.startswith("TAFELRUNDE_")}
        env["TAFELRUNDE_DATABASE_URL"] = f"sqlite+aiosqlite:///{Path(workdir) / 'bench.db'}"
        process = subprocess.Popen(
            [sys.executable, "-m", "api.server.cli", "serve", "--port", str(port)],
            cwd=workdir, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    with urllib.request.urlopen(f"{base}/api/v1/health", timeout=2):
                        break
                except OSError:
                    if process.poll() is not None or time.monotonic() > deadline:
                        print("the server did not start", file=sys.stderr)
                        raise SystemExit(2) from None
                    time.sleep(0.1)
            yield base
        finally:
            process.terminate()
            process.wait()


@dataclass(frozen=True, slots=True)
class Transfer:
    path: str
    wire: int  # body bytes as sent
    unpacked: int  # body bytes after decoding
    headers: int  # status line and header bytes
    coding: str


def fetch(base: str, path: str) -> tuple[Transfer, bytes]:
    request = urllib.request.Request(base + path, headers={"Accept-Encoding": ACCEPT_ENCODING})
    with urllib.request.urlopen(request, timeout=10) as response:
        raw = response.read()
        coding = response.headers.get("Content-Encoding", "")
        head = len(f"HTTP/1.1 {response.status} {response.reason}\r\n") + sum(
            len(f"{name}: {value}\r\n") for name, value in response.headers.items()) + 2
    body = gzip.decompress(raw) if coding == "gzip" else raw
    return Transfer(path, len(raw), len(body), head, coding or "-"), body


def listed(module: bytes, name: str) -> list[str]:
    """A list of files ``/precache.js`` exports (``FILES`` or ``LATER``)."""
    listing = module.decode().split(f"export const {name} = ", 1)[1].split(";\n", 1)[0]
    files: list[str] = json.loads(listing)
    return files


def precached(module: bytes, language: str) -> list[str]:
    """The files the worker installs for a reader of ``language``: every other language's
    words are left for when they are asked for."""
    return [f"/{file}" for file in listed(module, "FILES")
            if not file.startswith("i18n/") or file == f"i18n/{language}.json"]


def first_visit(base: str, language: str) -> tuple[list[Transfer], list[Transfer]]:
    """What the first visit downloads, and what the worker keeps when first opened."""
    page, _ = fetch(base, "/")
    worker, _ = fetch(base, "/sw.js")
    manifest, module = fetch(base, "/precache.js")
    files = [fetch(base, path)[0] for path in precached(module, language)]
    later = [fetch(base, f"/{path}")[0] for path in listed(module, "LATER")]
    return [page, worker, manifest, *files], later


def critical_path(base: str, language: str) -> list[Transfer]:
    """What the page fetches before its first screen shows."""
    page, _ = fetch(base, "/")
    pending, found = ["/js/app.js"], {}
    while pending:
        path = pending.pop()
        if path in found:
            continue
        found[path], body = fetch(base, path)
        for match in STATIC_IMPORT.finditer(body.decode()):
            pending.append(posixpath.normpath(posixpath.join(posixpath.dirname(path),
                                                             match[1] or match[2])))
    return [page, fetch(base, "/css/app.css")[0], fetch(base, f"/i18n/{language}.json")[0],
            *found.values()]


def on_the_wire(transfers: list[Transfer]) -> int:
    """The bytes of the transfers' bodies as sent: what the budgets count."""
    return sum(item.wire for item in transfers)


def listing(transfers: list[Transfer]) -> None:
    for item in sorted(transfers, key=lambda transfer: -transfer.wire):
        print(f"{item.wire:>7} B on the wire {item.unpacked:>7} B unpacked  {item.coding:<5}"
              f"{item.path}")


def report(transfers: list[Transfer]) -> int:
    listing(transfers)
    wire = on_the_wire(transfers)
    unpacked = sum(item.unpacked for item in transfers)
    headers = sum(item.headers for item in transfers)
    verdict = "OK" if wire <= BUDGET else "OVER BUDGET"
    print(f"first visit: {len(transfers)} files, {wire / 1024:.1f} KiB of bodies on the wire "
          f"({unpacked / 1024:.1f} KiB unpacked, {wire / unpacked:.0%}), "
          f"+ {headers / 1024:.1f} KiB of headers = {(wire + headers) / 1024:.1f} KiB")
    print(f"budget {BUDGET / 1024:.0f} KiB of bodies: {verdict}")
    return wire


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true",
                        help="the same run: bytes do not depend on the machine")
    parser.add_argument("--language", choices=("de", "fr", "it", "en"), default="de",
                        help="the reader's language, whose words the worker installs (de)")
    options = parser.parse_args()
    with served_app() as base:
        installed, later = first_visit(base, options.language)
        print("on first use (kept by the worker once opened):")
        listing(later)
        print(f"on first use: {len(later)} files, "
              f"{on_the_wire(later) / 1024:.1f} KiB of bodies on the wire "
              f"({sum(item.unpacked for item in later) / 1024:.1f} KiB unpacked), no budget")
        print("first visit (installed by the worker):")
        wire = report(installed)
        critical = critical_path(base, options.language)
        before = on_the_wire(critical)
        print(f"before the first screen: {len(critical)} files, {before / 1024:.1f} KiB of "
              f"bodies on the wire (budget {CRITICAL_BUDGET / 1024:.0f} KiB: "
              f"{'OK' if before <= CRITICAL_BUDGET else 'OVER BUDGET'})")
    return 0 if wire <= BUDGET and before <= CRITICAL_BUDGET else 1


if __name__ == "__main__":
    sys.exit(main())
