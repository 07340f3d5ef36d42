"""Screenshots of the main screens at 360×640 for the README: ``docs/screenshots/*.png``.

Starts ``tafelrunde serve`` with a temp database (see ``bench/pwa_weight.py`` for the helper),
creates matches through the API and opens them in Debian's chromium.
Run: ``.venv/bin/python docs/screenshots.py``
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "docs" / "screenshots"


def load_bench() -> Any:
    spec = importlib.util.spec_from_file_location("pwa_weight", REPO / "bench" / "pwa_weight.py")
    if spec is None or spec.loader is None:
        raise SystemExit("bench/pwa_weight.py is missing")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def post(base: str, path: str, body: Any, token: str | None = None) -> Any:
    request = urllib.request.Request(  # noqa: S310 (our own server)
        base + path, json.dumps(body).encode(), method="POST",
        headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310 (our own server)
        return json.load(response)


def match(base: str, game: str, players: list[str], rounds: list[Any],
          options: dict[str, Any] | None = None) -> tuple[str, str]:
    body = {"game": game, "players": players, "options": options or {}}
    made = post(base, "/api/v1/matches", body)
    for entry in rounds:
        post(base, f"/api/v1/matches/{made['id']}/rounds", entry, made["token"])
    return made["id"], made["token"]


def main() -> None:
    from playwright.sync_api import sync_playwright

    bench = load_bench()
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as workdir:
        process, base = bench.start(Path(workdir))
        try:
            sea = {"final_trump": "yellow", "scores": [5, 2, 1], "trump_zero": 0}
            sc_id, sc_token = match(base, "sea-change", ["Ann", "Daniel", "Eric"], [sea])
            done_id, _ = match(base, "sea-change", ["Ann", "Daniel", "Eric"], [sea] * 3)
            ss_id, ss_token = match(base, "seven-seals", ["Ann", "Daniel", "Eric"], [])
            ts_id, ts_token = match(base, "tschau-sepp", ["Ann", "Daniel", "Eric", "Warren"], [])
            shots = [
                ("start", "#/", None),
                ("new-match", "#/new", None),
                ("sheet-sea-change", f"#/m/{sc_id}?t={sc_token}", None),
                ("sheet-seven-seals", f"#/m/{ss_id}?t={ss_token}",
                 "[data-path='bids[0]'] [data-colour=red]"),
                ("sheet-tschau-sepp", f"#/m/{ts_id}?t={ts_token}",
                 "[data-path=winner] [data-value='0']"),
                ("standings", f"#/m/{sc_id}/standings", None),
                ("winner", f"#/m/{done_id}/winner", None),
            ]
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=shutil.which("chromium"),
                                                     args=bench.ARGS)
                context = browser.new_context(viewport={"width": 360, "height": 640},
                                              locale="en-US")
                page = context.new_page()
                for name, route, tap in shots:
                    page.goto(f"{base}/{route}")
                    page.wait_for_selector("body[data-ready]")
                    page.wait_for_selector("main#app > *:not(.loading)")
                    if tap:
                        page.click(tap)
                    page.wait_for_timeout(400)
                    page.screenshot(path=str(OUT / f"{name}.png"))
                    print(OUT / f"{name}.png")
                browser.close()
        finally:
            process.terminate()
            process.wait()


if __name__ == "__main__":
    main()
