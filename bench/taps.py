"""Taps per round and the entry screens' heights at the table, on a 360×640 phone.

A round is played in Debian's chromium the way a person plays it, and counted as the issue
counts it: every tap (a click on a button, a link, a card, or into a field to type) and every
field typed into. A field the app has already moved the focus to costs no tap; the keyboard's
Enter that moves on to the next field is part of typing. A tap on something outside the visible
part of the screen (under the app bar or the Save bar, or below the fold) also counts as a
scroll. The rounds measured are the first and the second of their match: the second is the
screen a table sees round after round (the standings above the form, the entry mode this
phone remembers).

Flows (the same ones ``tests/e2e/test_entry_screens.py`` asserts):
- Sea Change, 4 players, by points: trump, three scores (the fourth comes from the checksum),
  who took the trump 0, Save. Target ≤ 7.
- Die sieben Siegel, 4 players: seven seals predicted (one player the saboteur), a seal left at
  round end and a black seal taken, Save. Target ≤ 12.
- Tschau Sepp, 4 players, by points: who went out, the three others' points, Save. Target ≤ 5.

Heights: the document height of each entry screen as it opens (≤ 640 is one screen without
scrolling), and the card modes and Seven Seals' board as filled in.

Run: ``.venv/bin/python bench/taps.py`` (``--smoke``: the three rounds only).
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

PHONE = {"width": 360, "height": 640}
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", "--disable-sync"]
TARGETS = {"sea-change": 7, "seven-seals": 12, "tschau-sepp": 5}
PLAYERS = ["Ann", "Ben", "Cid", "Dan"]

# The part of the screen a person sees: below the app bar, above the Save bar.
IN_VIEW = """(el) => {
  const box = el.getBoundingClientRect();
  const top = document.querySelector('.bar')?.getBoundingClientRect().bottom ?? 0;
  const bar = document.querySelector('.action-bar');
  const bottom = bar && !bar.contains(el) ? bar.getBoundingClientRect().top : innerHeight;
  return box.top >= top && box.bottom <= bottom;
}"""
HEIGHT = "() => document.documentElement.scrollHeight"


@dataclass
class Count:
    """Taps, typed fields and scrolls on one page, as a person would make them."""

    page: Any
    taps: int = 0
    fields: int = 0
    scrolls: int = 0
    seen: list[str] = field(default_factory=list)

    def _reach(self, target: Any) -> None:
        target.wait_for()
        if not target.evaluate(IN_VIEW):
            self.scrolls += 1
            target.scroll_into_view_if_needed()

    def tap(self, target: Any) -> None:
        self._reach(target)
        self.taps += 1
        target.click()

    def type(self, target: Any, text: str, then_enter: bool = False) -> None:
        """Types into a field: a tap first unless the app already put the focus there."""
        if not target.evaluate("(el) => el === document.activeElement"):
            self.tap(target)
        self.fields += 1
        target.fill(text)
        if then_enter:
            target.press("Enter")

    @property
    def total(self) -> int:
        return self.taps + self.fields


@dataclass(frozen=True, slots=True)
class Round:
    """One measured round: what it cost and how tall its screen was when it opened."""

    game: str
    taps: int
    fields: int
    scrolls: int
    height: int

    @property
    def total(self) -> int:
        return self.taps + self.fields

    @property
    def target(self) -> int:
        return TARGETS[self.game.split(" ")[0]]


def post(base: str, path: str, body: Any, token: str | None = None) -> Any:
    request = urllib.request.Request(base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.load(response)


def open_match(page: Any, base: str, game: str, first: dict[str, Any] | None,
               options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A 4-player match with its first round stored, opened on the phone at its second round;
    with no ``first`` round, opened at its first."""
    match: dict[str, Any] = post(base, "/api/v1/matches",
                                 {"game": game, "players": PLAYERS, "options": options or {}})
    if first is not None:
        post(base, f"/api/v1/matches/{match['id']}/rounds", first, match["token"])
    page.goto(f"{base}/#/m/{match['id']}?t={match['token']}")
    page.wait_for_selector("body[data-ready]")
    # The screen before stays on the page until this match's screen draws (router.js): its
    # heading may say the same round, so the wait is for this match's own tabs first.
    page.locator(f".match-head a[href='#/m/{match['id']}/standings']").wait_for()
    page.locator(".entry-head h2", has_text="1" if first is None else "2").wait_for()
    return match


def saved(page: Any, number: int) -> None:
    """Waits until the round is stored and the next one is open (or the winner is shown)."""
    page.locator(f".entry-head h2:has-text('{number + 1}'), #winner-names").first.wait_for()


def seven_seals_first(page: Any, count: Count) -> None:
    """Round 1 of Die sieben Siegel: Ann bids first, then Ben, Cid, Dan."""
    def bid(seat: int) -> Any:
        return page.locator(f"[data-path='bids[{seat}]']")

    for colour in ("red", "red"):
        count.tap(bid(0).locator(f"[data-colour={colour}]"))
    count.tap(bid(1).get_by_role("button", name="Saboteur"))
    for colour in ("blue", "blue", "green"):
        count.tap(bid(2).locator(f"[data-colour={colour}]"))
    count.tap(bid(3).locator("[data-colour=yellow]"))
    count.tap(page.locator("[data-path='remaining[0]'] [data-kind=red]").first)
    count.tap(page.get_by_role("button", name="One more: Black seals taken by Dan"))


def sea_change(page: Any, count: Count) -> None:
    count.tap(page.locator("[data-path=final_trump] [data-value=yellow]"))
    count.type(page.get_by_label("Points of Ann"), "4", then_enter=True)
    count.type(page.get_by_label("Points of Ben"), "3", then_enter=True)
    count.type(page.get_by_label("Points of Cid"), "-1", then_enter=True)
    page.locator("[data-path='scores[3]'] input.auto").wait_for()  # 3: the checksum's rest
    count.tap(page.locator("[data-path=trump_zero] [data-value='0']"))


def seven_seals(page: Any, count: Count) -> None:
    # Round 2: Ben bids first, then Cid, Dan, Ann.
    def bid(seat: int) -> Any:
        return page.locator(f"[data-path='bids[{seat}]']")

    for colour in ("red", "red"):
        count.tap(bid(1).locator(f"[data-colour={colour}]"))
    count.tap(bid(2).get_by_role("button", name="Saboteur"))
    for colour in ("blue", "blue", "green"):
        count.tap(bid(3).locator(f"[data-colour={colour}]"))
    count.tap(bid(0).locator("[data-colour=yellow]"))
    count.tap(page.locator("[data-path='remaining[1]'] [data-kind=red]").first)
    count.tap(page.get_by_role("button", name="One more: Black seals taken by Dan"))


def tschau_sepp(page: Any, count: Count) -> None:
    count.tap(page.locator("[data-path=winner] [data-value='1']"))
    count.type(page.get_by_label("Penalty points of Ann"), "7", then_enter=True)
    count.type(page.get_by_label("Penalty points of Cid"), "12", then_enter=True)
    count.type(page.get_by_label("Penalty points of Dan"), "3")


FLOWS: dict[str, tuple[Callable[[Any, Count], None], dict[str, Any]]] = {
    "sea-change": (sea_change, {"final_trump": "red", "scores": [4, 3, 1, 1], "trump_zero": 0}),
    "seven-seals": (seven_seals, {
        "bids": [{"seals": ["red"]}, {"saboteur": True}, {"seals": []}, {"seals": ["blue"]}],
        "remaining": [[], None, [], []], "black": [0, 0, 0, 0]}),
    "tschau-sepp": (tschau_sepp, {"winner": 0, "penalty": [0, 4, 9, 20]}),
}


def save_button(page: Any, game: str) -> Any:
    """The entry form's save button: "Save game" in Tschau Sepp, which counts games."""
    return page.get_by_role("button", name="Save game" if game == "tschau-sepp" else "Save round")


def play_round(page: Any, base: str, game: str, number: int = 2) -> Round:
    """Round ``number`` (1 or 2) of a fresh 4-player match of ``game``, counted. Round 1 has
    no standings above the form; Die sieben Siegel's first bidder differs, so its flow too."""
    flow, first = FLOWS[game]
    if game == "seven-seals" and number == 1:
        flow = seven_seals_first
    if game == "tschau-sepp":  # this phone enters Tschau Sepp by points, and remembers it
        page.evaluate("() => localStorage.setItem('tafelrunde.tschau-sepp.mode', 'points')")
    if game == "sea-change":
        page.evaluate("() => localStorage.setItem('tafelrunde.sea-change.mode', 'points')")
    open_match(page, base, game, first if number == 2 else None)
    height = int(page.evaluate(HEIGHT))
    count = Count(page)
    flow(page, count)
    count.tap(save_button(page, game))
    saved(page, number)
    return Round(f"{game} r{number}", count.taps, count.fields, count.scrolls, height)


def heights(page: Any, base: str) -> dict[str, int]:
    """The taller screens: card grids and the seal board as a round fills them."""
    found: dict[str, int] = {}
    open_match(page, base, "seven-seals", FLOWS["seven-seals"][1])
    seven_seals(page, Count(page))
    found["Die sieben Siegel, 4 players, the round filled in"] = int(page.evaluate(HEIGHT))
    open_match(page, base, "sea-change", FLOWS["sea-change"][1])
    page.get_by_role("radio", name="Cards", exact=True).click()
    page.click("[data-suit=yellow]")  # four of the five suits are in play
    page.locator(".card-grid .card").first.wait_for()
    found["Sea Change by cards, 4 players (40 cards)"] = int(page.evaluate(HEIGHT))
    page.get_by_role("radio", name="Points", exact=True).click()
    open_match(page, base, "tschau-sepp", FLOWS["tschau-sepp"][1])
    page.get_by_role("radio", name="Cards", exact=True).click()
    page.click("[data-path=winner] [data-value='1']")
    page.locator(".card-grid .card").first.wait_for()
    found["Tschau Sepp by cards, 4 players (36 cards)"] = int(page.evaluate(HEIGHT))
    page.get_by_role("radio", name="Points", exact=True).click()
    return found


def report(rounds: list[Round], tall: dict[str, int]) -> int:
    print(f"{'round':<18}{'taps':>6}{'fields':>8}{'total':>7}{'target':>8}{'scrolls':>9}"
          f"{'height px':>11}{'screens':>9}")
    over = 0
    for played in rounds:
        mark = "" if played.total <= played.target else "  OVER"
        over += played.total > played.target
        print(f"{played.game:<18}{played.taps:>6}{played.fields:>8}{played.total:>7}"
              f"{played.target:>8}{played.scrolls:>9}{played.height:>11}"
              f"{played.height / PHONE['height']:>9.2f}{mark}")
    for name, height in tall.items():
        print(f"{name}: {height} px = {height / PHONE['height']:.2f} screens")
    return over


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true", help="the three rounds only")
    options = parser.parse_args()
    executable = shutil.which("chromium") or shutil.which("chromium-browser")
    if executable is None:
        print("chromium is not installed (Debian package `chromium`)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    # Run as a script, bench/ is on the path: the server is the one the weight bench starts.
    from pwa_weight import served_app

    with served_app() as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=ARGS)
        context = browser.new_context(viewport=PHONE, locale="en-US", device_scale_factor=1,
                                      has_touch=True, is_mobile=True)
        context.set_default_timeout(15000)
        page = context.new_page()
        page.goto(f"{base}/")
        page.wait_for_selector("body[data-ready]")
        rounds = [play_round(page, base, game, number) for game in TARGETS for number in (1, 2)]
        tall = {} if options.smoke else heights(page, base)
        browser.close()
    return 1 if report(rounds, tall) and not options.smoke else 0


if __name__ == "__main__":
    sys.exit(main())
