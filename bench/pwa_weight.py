"""The PWA's first-visit weight: everything a first visit transfers, gzip-compressed, vs 60 KB.

Starts ``tafelrunde serve`` on a free port with a temp SQLite file, opens ``/`` in Debian's
chromium at 360×640, waits until the service worker controls the page (so its precache has been
fetched), and sums the gzip size (level 6, as a server would send it) of every same-origin
request seen by the page or the service worker plus the precache list in ``pwa/sw.js``. Lists
every request to another origin (there must be none). Exit status 1 when over budget or when
anything left the origin.

Run: ``.venv/bin/python bench/pwa_weight.py``
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

BUDGET = 60 * 1024
REPO = Path(__file__).resolve().parents[1]
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def start(workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    env = {**os.environ, "TAFELRUNDE_DATABASE_URL": f"sqlite+aiosqlite:///{workdir / 'w.db'}"}
    process = subprocess.Popen(
        [sys.executable, "-c", "from api.cli import main; main()", "serve", "--port", str(port)],
        cwd=workdir, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(150):
        try:
            with urllib.request.urlopen(f"{base}/api/v1/health", timeout=2):
                return process, base
        except OSError:
            time.sleep(0.2)
    process.kill()
    raise SystemExit("the server did not start")


def precache() -> list[str]:
    text = (REPO / "pwa" / "sw.js").read_text(encoding="utf-8")
    block = re.search(r"PRECACHE = \[(.*?)\];", text, re.S)
    return re.findall(r"'([^']+)'", block.group(1)) if block else []


def compressed_size(url: str) -> int:
    with urllib.request.urlopen(url, timeout=10) as response:
        return len(gzip.compress(response.read(), compresslevel=6))


def visit(base: str) -> tuple[set[str], list[str]]:
    from playwright.sync_api import sync_playwright

    executable = shutil.which("chromium")
    if executable is None:
        raise SystemExit("chromium is not installed")
    seen: set[str] = set()
    foreign: list[str] = []

    def record(request: object) -> None:
        url = getattr(request, "url", "")
        if urlsplit(url).netloc != urlsplit(base).netloc:
            foreign.append(url)
        elif not url.endswith("/events"):
            seen.add(url.split("#")[0])

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=ARGS)
        context = browser.new_context(viewport={"width": 360, "height": 640})
        context.on("request", record)
        page = context.new_page()
        page.goto(f"{base}/")
        page.wait_for_selector("body[data-ready]")
        for _ in range(100):
            if page.evaluate("() => navigator.serviceWorker.controller !== null"):
                break
            time.sleep(0.1)
        browser.close()
    return seen, foreign


def main() -> int:
    with tempfile.TemporaryDirectory() as workdir:
        process, base = start(Path(workdir))
        try:
            seen, foreign = visit(base)
            urls = sorted(seen | {f"{base}/{path.removeprefix('./')}" for path in precache()})
            sizes = {url: compressed_size(url) for url in urls}
        finally:
            process.terminate()
            process.wait()
    for url, size in sorted(sizes.items(), key=lambda item: -item[1]):
        print(f"{size:>7} B  {url.removeprefix(base)}")
    total = sum(sizes.values())
    verdict = "OK" if total <= BUDGET else "OVER BUDGET"
    print(f"total {total / 1024:.1f} KB gzip for {len(sizes)} files; "
          f"budget {BUDGET / 1024:.0f} KB: {verdict}")
    print("requests to other origins:", ", ".join(foreign) if foreign else "none")
    return 0 if total <= BUDGET and not foreign else 1


if __name__ == "__main__":
    sys.exit(main())
