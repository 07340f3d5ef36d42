"""The projector board at 1280×720 and 1920×1080 with a 60-player tournament: no app bar and no
tabs, every player's name inside the screen at a readable size (in the standings and in the
started round's seating), which tables are done and which are open; a field too large for the
screen scrolls by itself; and the board left alone keeps up: it follows changes live, says when
the connection is gone, and catches up by itself after the server restarts, without growing its
page or its memory update after update."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.conftest import ServerFactory
from tests.e2e.conftest import PHONES, Phone, Server, box_of, phone_in_use
from tests.e2e.test_languages import english_on_screen, words

pytestmark = pytest.mark.browser

HD = {"width": 1280, "height": 720}
FULL_HD = {"width": 1920, "height": 1080}
FIRST = ["Anna", "Beat", "Corinne", "Dario", "Elisabeth", "Franz", "Giulia", "Hans-Peter",
         "Irène", "Jürg", "Katharina", "Luca", "Marie-Claire", "Nico", "Ottilie"]
LAST = ["Ammann", "Bernasconi", "Zimmermann", "Favre"]
# 60 names, some as long as a club's members have them.
NAMES = [f"{first} {last}" for last in LAST for first in FIRST]

# Where each name the board shows sits, and how large it is written.
NAME_BOXES = """(selector) => [...document.querySelectorAll(selector)].map((el) => {
  const box = el.getBoundingClientRect();
  return { name: el.textContent, left: box.left, top: box.top, right: box.right,
           bottom: box.bottom, size: parseFloat(getComputedStyle(el).fontSize) };
})"""


def send(base: str, method: str, path: str, token: str | None = None,
         body: bytes | None = None) -> Any:
    request = urllib.request.Request(base + path, data=body, method=method,
                                     headers={"Content-Type": "application/json"})
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=10) as response:
        return response.read()


def new_tournament(server: Server, names: list[str], rounds: int = 3) -> dict[str, Any]:
    made: dict[str, Any] = server.post("/api/v1/tournaments", {
        "name": "Jassabend", "game": "tschau-sepp", "options": {"games": 1}, "rounds": rounds,
        "table_size": 4, "seating": "random", "seed": 7})
    for name in names:
        server.post(f"/api/v1/tournaments/{made['id']}/players", {"name": name}, made["token"])
    return made


def start_round(server: Server, tournament: dict[str, Any]) -> dict[str, Any]:
    started: dict[str, Any] = server.post(f"/api/v1/tournaments/{tournament['id']}/rounds", {},
                                          tournament["token"])
    return started


def finish_table(server: Server, tournament: dict[str, Any], number: int,
                 table: dict[str, Any]) -> None:
    """The table's first seat goes out, the others keep distinct penalty points; the organiser
    confirms."""
    size = len(table["players"])
    server.post(f"/api/v1/matches/{table['match_id']}/rounds",
                {"winner": 0, "penalty": [0, *(3 * k for k in range(1, size))]},
                table["table_token"])
    server.post(f"/api/v1/tournaments/{tournament['id']}/rounds/{number}/tables/"
                f"{table['table']}/confirm", {}, tournament["token"])


@pytest.fixture(scope="module")
def field_of_60(server: Server) -> dict[str, Any]:
    """A tournament of 60 at 15 tables, round 1 started and 4 of its tables done."""
    tournament = new_tournament(server, NAMES)
    started = start_round(server, tournament)
    for table in started["tables"][:4]:
        finish_table(server, tournament, 1, table)
    return tournament


def inside(box: dict[str, Any], size: dict[str, int]) -> bool:
    return bool(box["left"] >= 0 and box["top"] >= 0 and box["right"] <= size["width"]
                and box["bottom"] <= size["height"])


@pytest.mark.parametrize("size", [HD, FULL_HD], ids=["1280x720", "1920x1080"])
def test_every_player_of_sixty_is_on_the_screen_with_the_seating_and_the_tables_done(
        browser: Any, server: Server, field_of_60: dict[str, Any], size: dict[str, int]) -> None:
    tournament = server.get(f"/api/v1/tournaments/{field_of_60['id']}")
    standings = server.get(f"/api/v1/tournaments/{field_of_60['id']}/standings")
    names = {p["id"]: p["name"] for p in tournament["players"]}
    with phone_in_use(browser, server, viewport=size) as screen:
        screen.open(f"#/t/{field_of_60['id']}/board")
        page = screen.page
        expect(page.locator(".board-table")).to_have_count(15)
        expect(page.locator(".bar")).to_be_hidden()
        assert page.locator(".tabs").count() == 0
        expect(page.locator("#round-line")).to_have_text("Round 1 of 3 is being played")
        expect(page.locator("#tables-done")).to_have_text("Tables done: 4 of 15")
        # Standings count the tables done, but round 1 is not over.
        expect(page.locator("#board-standings-title")).to_have_text(
            "Standings during round 1: 4 of 15 tables confirmed")

        # The seating of the started round, table by table in seat order, and each table's state.
        for table in tournament["round_list"][0]["tables"]:
            card = page.locator(f".board-table[data-table='{table['table']}']")
            expect(card.locator(".board-seats li")).to_have_text(
                [names[p] for p in table["players"]])
            expect(card).to_have_attribute("data-state", table["state"])
        assert page.locator(".board-table[data-state=confirmed]").count() == 4
        expect(page.locator(".board-table[data-state=confirmed] .state").first).to_have_text(
            "confirmed")
        expect(page.locator(".board-table[data-state=open] .state").first).to_have_text("open")

        # The standings in rank order, column after column.
        expect(page.locator(".board-standings .board-name")).to_have_text(
            [row["name"] for row in standings["rows"]])

        smallest = 100.0
        for selector in (".board-standings .board-name", ".board-seats li"):
            boxes = page.evaluate(NAME_BOXES, selector)
            assert sorted(box["name"] for box in boxes) == sorted(NAMES)
            outside = [box for box in boxes if not inside(box, size)]
            assert outside == [], outside[:3]
            smallest = min(smallest, *(box["size"] for box in boxes))
        assert smallest >= (14 if size is HD else 20), smallest
        assert page.evaluate("() => document.scrollingElement.scrollHeight") <= size["height"]
        assert page.evaluate("() => document.scrollingElement.scrollWidth") <= size["width"]


SMALL_SCREEN = {"width": 800, "height": 450}


@contextmanager
def board_too_small_for_60(browser: Any, server: Server, field_of_60: dict[str, Any],
                           motion: str) -> Iterator[Phone]:
    """The 60-player board on an 800×450 screen, which cannot show everyone at once."""
    with phone_in_use(browser, server, viewport=SMALL_SCREEN) as screen:
        screen.page.emulate_media(reduced_motion=motion)
        screen.open(f"#/t/{field_of_60['id']}/board")
        expect(screen.page.locator(".board-table")).to_have_count(15)
        yield screen


def test_a_field_too_large_for_the_screen_scrolls_by_itself_and_reaches_everyone(
        browser: Any, server: Server, field_of_60: dict[str, Any]) -> None:
    with board_too_small_for_60(browser, server, field_of_60, "no-preference") as screen:
        page = screen.page
        body = page.locator(".board-body")
        size = body.evaluate("(el) => [el.scrollHeight, el.clientHeight]")
        assert size[0] > size[1]  # it does not fit: it scrolls
        assert page.evaluate(NAME_BOXES, ".board-standings .board-name")[0]["size"] >= 14
        # It waits a moment at the top, then glides down to the last name and back to the top.
        deadline = time.monotonic() + 60
        seen = 0
        while time.monotonic() < deadline:
            top, at_end = body.evaluate(
                "(el) => [el.scrollTop, el.scrollTop + el.clientHeight >= el.scrollHeight - 1]")
            seen = max(seen, top)
            if at_end:
                break
            page.wait_for_timeout(250)
        else:
            raise AssertionError(f"the board never reached its end (got to {seen} px)")
        last = page.locator(".board-standings .board-name").last
        box = box_of(last)
        assert box["y"] >= 0
        assert box["y"] + box["height"] <= SMALL_SCREEN["height"]
        expect(page.locator(".board-body")).to_have_js_property("scrollTop", 0, timeout=15000)


def test_under_reduced_motion_a_large_field_turns_pages_instead_of_gliding(
        browser: Any, server: Server, field_of_60: dict[str, Any]) -> None:
    with board_too_small_for_60(browser, server, field_of_60, "reduce") as screen:
        body = screen.page.locator(".board-body")
        page_height = body.evaluate("(el) => el.clientHeight")
        seen = {0}
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and len(seen) < 2:
            seen.add(body.evaluate("(el) => el.scrollTop"))
            screen.page.wait_for_timeout(100)
        # Never a position in between: the first move is a whole page (less a line kept in view).
        assert sorted(seen) == [0, page_height - 40], (seen, page_height)


def test_a_board_opened_while_the_server_is_unreachable_opens_by_itself_once_it_is_back(
        browser: Any, server: Server, field_of_60: dict[str, Any]) -> None:
    with phone_in_use(browser, server, viewport=HD) as screen:
        api = "**/api/v1/tournaments/**"
        screen.context.route(api, lambda route: route.abort())
        screen.open(f"#/t/{field_of_60['id']}/board")
        page = screen.page
        expect(page.get_by_role("alert")).to_have_text(
            "No connection to the server. Try again when you are online.")
        screen.context.unroute(api)
        expect(page.locator(".board-table")).to_have_count(15, timeout=15000)
        expect(page.get_by_role("alert")).to_have_count(0)


# Counts the board's requests for a screen wake lock (the browser may refuse them headless).
COUNT_WAKE_LOCKS = """(() => {
  window.wakeLocks = [];
  if (!navigator.wakeLock) return;
  const request = navigator.wakeLock.request.bind(navigator.wakeLock);
  navigator.wakeLock.request = (type) => { window.wakeLocks.push(type); return request(type); };
})()"""


def test_the_board_asks_to_keep_the_screen_awake(
        browser: Any, server: Server, field_of_60: dict[str, Any]) -> None:
    with phone_in_use(browser, server, viewport=HD) as screen:
        screen.page.add_init_script(COUNT_WAKE_LOCKS)
        screen.open(f"#/t/{field_of_60['id']}/board")
        expect(screen.page.locator(".board-table")).to_have_count(15)
        assert screen.page.evaluate("() => window.wakeLocks") == ["screen"]
        # Leaving the board lets the screen sleep again; nothing asks for a lock on other screens.
        screen.page.get_by_role("link", name="Tournament overview").click()
        expect(screen.page.get_by_role("heading", name="Jassabend")).to_be_visible()
        expect(screen.page.locator(".bar")).to_be_visible()
        assert screen.page.evaluate("() => window.wakeLocks") == ["screen"]


@pytest.mark.parametrize("lang", sorted(PHONES))
def test_the_board_reads_in_the_language_also_while_the_connection_is_gone(
        browser: Any, server: Server, field_of_60: dict[str, Any], lang: str) -> None:
    with phone_in_use(browser, server, locale=PHONES[lang], viewport=HD) as screen:
        screen.open(f"#/t/{field_of_60['id']}/board")
        page = screen.page
        expect(page.locator("#tables-done")).to_have_text(
            words(lang, "board.tables_done", done=4, n=15))
        expect(page.locator(".board-table[data-state=confirmed] .state").first).to_have_text(
            words(lang, "tt.state.confirmed"))
        assert english_on_screen(page, lang) == []
        screen.context.set_offline(True)
        offline = page.locator("#board-offline")
        expect(offline).to_have_text(words(lang, "board.reconnecting"))
        assert english_on_screen(page, lang) == []
        screen.context.set_offline(False)
        expect(offline).to_be_hidden(timeout=20000)


@dataclass
class Restartable:
    """A server that can be stopped and started again on the same port and database."""

    serve: ServerFactory
    workdir: Path
    stack: ExitStack = field(default_factory=ExitStack)
    base: str = ""

    def start(self) -> None:
        port = int(self.base.rsplit(":", 1)[1]) if self.base else 0
        self.stack = ExitStack()
        self.base = self.stack.enter_context(
            self.serve(self.workdir, f"sqlite+aiosqlite:///{self.workdir / 'board.db'}",
                       port=port))

    def stop(self) -> None:
        self.stack.close()


@pytest.fixture
def restartable(tmp_path: Path, serve: ServerFactory) -> Iterator[Restartable]:
    server = Restartable(serve, tmp_path)
    server.start()
    yield server
    server.stop()


def nodes(page: Any) -> int:
    return int(page.evaluate("() => document.getElementsByTagName('*').length"))


def heap(session: Any) -> int:
    session.send("HeapProfiler.collectGarbage")
    return int(session.send("Runtime.getHeapUsage")["usedSize"])


def test_the_board_keeps_up_on_its_own_through_a_server_restart(
        browser: Any, restartable: Restartable) -> None:
    server = Server(restartable.base)
    tournament = new_tournament(server, NAMES[:12], rounds=2)
    first = start_round(server, tournament)
    with phone_in_use(browser, server, viewport=HD) as screen:
        screen.open(f"#/t/{tournament['id']}/board")
        page = screen.page
        expect(page.locator(".board-table[data-state=open]")).to_have_count(3)
        offline = page.locator("#board-offline")
        expect(offline).to_be_hidden()

        # Live: a confirmed table shows without a reload.
        finish_table(server, tournament, 1, first["tables"][0])
        expect(page.locator(".board-table[data-table='1']")).to_have_attribute(
            "data-state", "confirmed")

        # The server goes away: the board says so, and stays on what it knew.
        restartable.stop()
        expect(offline).to_be_visible(timeout=15000)
        expect(offline).to_have_text("Connection lost: reconnecting …")
        expect(page.locator(".board-table")).to_have_count(3)

        # Back, with a change made as it comes back: the board reconnects and reads what it missed.
        restartable.start()
        finish_table(server, tournament, 1, first["tables"][1])
        expect(offline).to_be_hidden(timeout=30000)
        expect(page.locator(".board-table[data-table='2']")).to_have_attribute(
            "data-state", "confirmed")
        expect(page.locator("#tables-done")).to_have_text("Tables done: 2 of 3")

        # A round that ends and the next that starts: its seating shows as soon as it starts.
        finish_table(server, tournament, 1, first["tables"][2])
        expect(page.locator("#round-line")).to_have_text("Round 1 of 2 is complete")
        expect(page.locator(".board-table")).to_have_count(0)
        second = start_round(server, tournament)
        names = {p["id"]: p["name"] for p in server.get(
            f"/api/v1/tournaments/{tournament['id']}")["players"]}
        expect(page.locator("#round-line")).to_have_text("Round 2 of 2 is being played")
        for table in second["tables"]:
            expect(page.locator(f".board-table[data-table='{table['table']}'] .board-seats li")
                   ).to_have_text([names[p] for p in table["players"]])

        # Left alone for an evening: updates replace the board, nothing piles up.
        session = screen.context.new_cdp_session(page)
        first_player = min(names)

        def rename(times: int) -> None:
            for k in range(times):
                name = f"Anna {k}"
                send(server.base, "PATCH",
                     f"/api/v1/tournaments/{tournament['id']}/players/{first_player}",
                     tournament["token"], json.dumps({"name": name}).encode())
                expect(page.locator(".board-seats li", has_text=name)).to_have_count(1)

        rename(5)
        before = (nodes(page), heap(session))
        rename(30)
        after = (nodes(page), heap(session))
        assert after[0] == before[0]
        assert after[1] - before[1] < 512 * 1024, (before, after)
