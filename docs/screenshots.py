"""Screenshots of the main screens at 360×640 for the README: ``docs/screenshots/*.png``.

Starts ``tafelrunde serve`` with a temp database (``served_app`` of ``bench/pwa_weight.py``),
creates matches, a tournament and a club through the API and opens them in Debian's chromium;
the projector board at 1280×720.
Run: ``.venv/bin/python docs/screenshots.py``
"""

from __future__ import annotations

import json
import shutil
import sys
import urllib.request
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
OUT = REPO / "docs" / "screenshots"
sys.path.insert(0, str(REPO / "bench"))


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


def tournament(base: str) -> dict[str, Any]:
    """A tournament of twelve in round 1: table 1 decided and waiting for its confirmation, table
    2 confirmed, table 3 still playing."""
    made = post(base, "/api/v1/tournaments", {
        "name": "Club night", "game": "tschau-sepp", "options": {"games": 1, "table": "count"},
        "rounds": 3, "table_size": 4})
    for name in ("Ann", "Daniel", "Eric", "Warren", "Mia", "Noah", "Lena", "Jonas", "Sofia",
                 "Luca", "Elena", "Marco"):
        post(base, f"/api/v1/tournaments/{made['id']}/players", {"name": name}, made["token"])
    tables = post(base, f"/api/v1/tournaments/{made['id']}/rounds", {}, made["token"])["tables"]
    for table in tables[:2]:
        post(base, f"/api/v1/matches/{table['match_id']}/rounds",
             {"winner": table["table"] - 1, "cards_left": [0, 2, 3, 1]
              if table["table"] == 1 else [4, 0, 1, 2]}, table["table_token"])
    post(base, f"/api/v1/tournaments/{made['id']}/rounds/1/tables/2/confirm", {}, made["token"])
    made["tables"] = tables
    return made


def club(base: str) -> dict[str, Any]:
    """A club whose members played three finished Tschau Sepp matches."""
    made = post(base, "/api/v1/clubs", {"name": "Jass club Aarau"})
    players = [["Ann", "Daniel", "Eric"], ["Ann", "Eric", "Warren"], ["Daniel", "Warren", "Ann"]]
    for seats in players:
        played = post(base, "/api/v1/matches", {"game": "tschau-sepp", "players": seats,
                                                "options": {"games": 1}, "club": made["id"]},
                      made["token"])
        post(base, f"/api/v1/matches/{played['id']}/rounds",
             {"winner": 0, "penalty": [0, 12, 25]}, made["token"])
    return made


ORGANISER = """(t) => localStorage.setItem('tafelrunde.tournaments', JSON.stringify([{
  id: t.id, name: t.name, game: t.game, token: t.token, view: null }]))"""


def shots(base: str) -> tuple[list[tuple[str, str, str | None]], dict[str, Any]]:
    """The phone's screens to take (name, route, what to tap first) and the tournament."""
    sea = {"final_trump": "yellow", "scores": [5, 2, 1], "trump_zero": 0}
    sc_id, sc_token = match(base, "sea-change", ["Ann", "Daniel", "Eric"], [sea])
    done_id, _ = match(base, "sea-change", ["Ann", "Daniel", "Eric"], [sea] * 3)
    ss_id, ss_token = match(base, "seven-seals", ["Ann", "Daniel", "Eric"], [])
    ts_id, ts_token = match(base, "tschau-sepp", ["Ann", "Daniel", "Eric", "Warren"], [])
    night = tournament(base)
    table = night["tables"][0]
    jass = club(base)
    return [
        ("start", "#/", None),
        ("new-match", "#/new", None),
        ("sheet-sea-change", f"#/m/{sc_id}?t={sc_token}", None),
        ("sheet-seven-seals", f"#/m/{ss_id}?t={ss_token}",
         "[data-path='bids[0]'] [data-colour=red]"),
        ("sheet-tschau-sepp", f"#/m/{ts_id}?t={ts_token}", "[data-path=winner] [data-value='0']"),
        ("standings", f"#/m/{sc_id}/standings", None),
        ("winner", f"#/m/{done_id}/winner", None),
        # A second phone at table 1 opens the table's link once the result is entered.
        ("table-confirm",
         f"#/m/{table['match_id']}?t={table['table_token']}&tt={night['id']}.1.1", None),
        ("club", f"#/c/{jass['id']}/ladder?t={jass['token']}", None),
    ], night


def main() -> None:
    from playwright.sync_api import sync_playwright
    from pwa_weight import served_app
    from taps import ARGS

    OUT.mkdir(parents=True, exist_ok=True)
    with served_app() as base, sync_playwright() as playwright:
        phone_shots, night = shots(base)
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=ARGS)
        page = browser.new_context(viewport={"width": 360, "height": 640},
                                   locale="en-US").new_page()
        for name, route, tap in phone_shots:
            shoot(page, base, name, route, tap)
        # The organiser's phone: the dashboard, down at the standings during round 1.
        page.evaluate(ORGANISER, night)
        shoot(page, base, "tournament", f"#/t/{night['id']}", None, ".tournament-standings")
        wall = browser.new_context(viewport={"width": 1280, "height": 720}, locale="en-US")
        shoot(wall.new_page(), base, "board", f"#/t/{night['id']}/board", None)
        browser.close()


def shoot(page: Any, base: str, name: str, route: str, tap: str | None,
          scroll_to: str | None = None) -> None:
    page.goto(f"{base}/{route}")
    page.wait_for_selector("body[data-ready]")
    page.wait_for_selector("main#app > *:not(.loading)")
    if tap:
        page.click(tap)
    if scroll_to:
        page.locator(scroll_to).evaluate(
            "(el) => (el.closest('.panel') || el).scrollIntoView({ block: 'start' })")
    page.wait_for_timeout(400)
    page.screenshot(path=str(OUT / f"{name}.png"))
    print(OUT / f"{name}.png")


if __name__ == "__main__":
    main()
