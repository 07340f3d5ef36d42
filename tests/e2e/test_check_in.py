"""Tournament day in the browser (issue 27): a player's phone at 360×640 opens the check-in link
as a scan of the tournament's QR code would, registers with one tap, and shows "Your table is …,
seat …" the moment the organiser starts round 1, with who sits where, who deals and the round
clock ticking; the organiser's dashboard counts who has paid; the projector board at 1280×720
shows the clock large and the check-in QR code, which a camera (zbar) reads as the check-in
link."""

from __future__ import annotations

import re
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, Phone, Server, box_of, phone_in_use, qr_link
from tests.e2e.test_accessibility import CONTRAST, OVERFLOW, TARGETS
from tests.e2e.test_languages import english_on_screen, words

pytestmark = pytest.mark.browser

T = "/api/v1/tournaments"
HD = {"width": 1280, "height": 720}
OTHERS = ["Bea", "Cem", "Dan", "Eva", "Fay", "Gus", "Hal"]


def new_tournament(server: Server, **settings: Any) -> dict[str, Any]:
    made: dict[str, Any] = server.post(T, {
        "name": "Jassabend", "game": "tschau-sepp", "options": {"games": 1}, "rounds": 2,
        "table_size": 4, "seating": "random", "seed": 7, "check_in": True, **settings})
    return made


def as_organiser(phone: Phone, tournament: dict[str, Any]) -> None:
    phone.open("#/")
    phone.page.evaluate(
        """(t) => localStorage.setItem('tafelrunde.tournaments', JSON.stringify([{
             id: t.id, name: t.name, game: t.game, token: t.token, view: null }]))""",
        tournament)


def seconds_shown(text: str) -> int:
    minutes, seconds = text.strip().split(":")[-2:]
    return int(minutes) * 60 + int(seconds)


DIGITS = 40
"""The least height in pixels of the clock's digits on every screen: read across a table."""


def digits_height(clock: Any) -> float:
    return box_of(clock.locator(".clock-time"))["height"]


def check_in_all(server: Server, tournament: dict[str, Any], names: list[str]) -> None:
    """Each name checked in by the tournament's code, as their phones would."""
    for name in names:
        server.post(f"{T}/{tournament['id']}/check-in",
                    {"code": tournament["check_in_code"], "name": name})


def ann_checks_in_and_is_seated(page: Any, server: Server,
                                tournament: dict[str, Any]) -> dict[str, Any]:
    """Ann checks in on the open check-in screen, the others by their phones, and round 1
    starts: Ann's table as the round's start answers it."""
    page.fill("#ci-name", "Ann")
    page.click("#ci-send")
    expect(page.locator("#no-table")).to_be_visible()
    check_in_all(server, tournament, OTHERS)
    started = server.post(f"{T}/{tournament['id']}/rounds", {}, tournament["token"])
    return next(t for t in started["tables"] if 1 in t["players"])


def test_a_player_checks_in_by_the_code_and_sees_the_table_live_with_the_clock(
        phone: Phone, server: Server) -> None:
    tournament = new_tournament(server, private=True)
    page = phone.page
    # What the QR code holds: the app's check-in screen with the tournament's code.
    phone.open(f"#/t/{tournament['id']}/check-in?code={tournament['check_in_code']}")
    page.fill("#ci-name", "Ann")
    page.fill("#ci-club", "Bern")
    page.click("#ci-send")
    expect(page.locator("#no-table")).to_be_visible()
    expect(page.locator("h1")).to_have_text("Jassabend")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]
    # The code is not left in the address bar; the phone keeps the player's token.
    assert "code=" not in page.url
    check_in_all(server, tournament, OTHERS)
    started = server.post(f"{T}/{tournament['id']}/rounds", {}, tournament["token"])
    table = next(t for t in started["tables"] if 1 in t["players"])
    seat = table["players"].index(1) + 1
    # Live: nobody touches the phone.
    mine = page.locator("#your-table")
    expect(mine).to_have_text(f"Your table is {table['table']}, seat {seat}", timeout=15000)
    # Size and place are read in the page as one step: the view is drawn again with each change
    # of the tournament, and an element replaced between finding and measuring it has no box.
    right_edge = page.wait_for_function("""() => {
        const mine = document.getElementById('your-table');
        if (!mine || parseFloat(getComputedStyle(mine).fontSize) < 28) return null;
        const box = mine.getBoundingClientRect();
        return box.width > 0 ? box.right : null;
    }""").json_value()
    assert right_edge <= PHONE["width"]
    names = ["Ann", *OTHERS]
    expect(page.locator("#my-seats li")).to_have_count(4)
    for index, player in enumerate(table["players"]):
        expect(page.locator("#my-seats li").nth(index)).to_contain_text(names[player - 1])
    # Seat 0 sits left of the first dealer: the last seat deals first.
    dealer = names[table["players"][-1] - 1]
    expect(page.locator("#my-dealer")).to_have_text(f"{dealer} deals next.")
    # The organiser starts the clock: the phone shows it and counts down by itself.
    server.post(f"{T}/{tournament['id']}/clock", {"action": "start", "minutes": 30},
                tournament["token"])
    clock = page.locator("#clock")
    expect(clock).to_be_visible(timeout=15000)
    expect(clock).to_have_attribute("data-state", "running")
    first = seconds_shown(clock.locator(".clock-time").inner_text())
    assert 29 * 60 <= first <= 30 * 60
    assert digits_height(clock) >= DIGITS
    deadline = time.monotonic() + 10
    while seconds_shown(clock.locator(".clock-time").inner_text()) >= first:
        assert time.monotonic() < deadline, "the clock does not tick"
        time.sleep(0.2)
    # Paused: it stands still and says so.
    server.post(f"{T}/{tournament['id']}/clock", {"action": "pause"}, tournament["token"])
    expect(clock).to_have_attribute("data-state", "paused", timeout=15000)
    # Scanning the code again on this phone registers nobody twice: it opens the player's view.
    phone.open(f"#/t/{tournament['id']}/check-in?code={tournament['check_in_code']}")
    expect(page.locator("#your-table")).to_be_visible()
    assert len(server.get(f"{T}/{tournament['id']}", tournament["token"])["players"]) == 8


def test_the_clock_warns_and_says_time(phone: Phone, server: Server) -> None:
    tournament = new_tournament(server, warn_minutes=5)
    check_in_all(server, tournament, ["Ann", *OTHERS])
    server.post(f"{T}/{tournament['id']}/rounds", {}, tournament["token"])
    server.post(f"{T}/{tournament['id']}/clock", {"action": "start", "minutes": 3},
                tournament["token"])
    page = phone.page
    # Three minutes are not waited for: the page's own time is moved on, as a phone left lying
    # on the table would find it (its correction by the server's time was made at the read).
    page.clock.install()
    phone.open(f"#/t/{tournament['id']}/p/1")
    clock = page.locator("#clock")
    expect(clock).to_have_attribute("data-state", "warning")
    page.clock.fast_forward("03:05")
    expect(clock.locator(".clock-time")).to_have_text("Time!")
    expect(clock).to_have_attribute("data-state", "time")


@pytest.mark.parametrize("minutes_off", [7, -7])
def test_a_phone_whose_own_clock_is_wrong_shows_the_servers_time_left(
        browser: Any, server: Server, minutes_off: int) -> None:
    """The phone's clock runs 7 minutes ahead of the server's, or behind: the round clock it
    shows is still the server's time left to within a few seconds, tick after tick (clock.js
    corrects each tick by the difference between the server's time and the phone's that it saw
    when the answer arrived)."""
    tournament = new_tournament(server)
    check_in_all(server, tournament, ["Ann", *OTHERS])
    server.post(f"{T}/{tournament['id']}/rounds", {}, tournament["token"])
    server.post(f"{T}/{tournament['id']}/clock", {"action": "start", "minutes": 30},
                tournament["token"])
    with phone_in_use(browser, server) as phone:
        page = phone.page
        page.clock.install(time=datetime.now(UTC) + timedelta(minutes=minutes_off))
        phone.open(f"#/t/{tournament['id']}/p/1")
        off = page.evaluate("() => Date.now()") / 1000 - time.time()
        assert abs(off - minutes_off * 60) < 5, f"the phone's clock is {off:.0f} s off"
        clock = page.locator("#clock")
        expect(clock).to_have_attribute("data-state", "running")
        for _ in range(3):
            shown = seconds_shown(clock.locator(".clock-time").inner_text())
            left = server.get(f"{T}/{tournament['id']}")["clock"]["remaining_s"]
            assert abs(shown - left) <= 3, f"the phone shows {shown} s, the server has {left} s"
            time.sleep(1.1)


def test_the_tournaments_own_warning_time_moves_the_warning_on_the_phone_and_the_board(
        browser: Any, server: Server) -> None:
    """A tournament made with `warn_minutes` 10: with 9 minutes 55 left the player's phone and
    the board show the warning, where the default of 5 minutes would still be running."""
    tournament = new_tournament(server, warn_minutes=10)
    check_in_all(server, tournament, ["Ann", *OTHERS])
    server.post(f"{T}/{tournament['id']}/rounds", {}, tournament["token"])
    server.post(f"{T}/{tournament['id']}/clock", {"action": "start", "minutes": 12},
                tournament["token"])
    with phone_in_use(browser, server) as phone, \
            phone_in_use(browser, server, viewport=HD) as board:
        phone.page.clock.install()
        phone.open(f"#/t/{tournament['id']}/p/1")
        board.page.clock.install()
        as_organiser(board, tournament)
        board.open(f"#/t/{tournament['id']}/board")
        for page in (phone.page, board.page):
            clock = page.locator("#clock")
            expect(clock).to_have_attribute("data-state", "running")
            page.clock.fast_forward("02:05")
            expect(clock).to_have_attribute("data-state", "warning")
            expect(clock.locator(".clock-time")).to_have_text(re.compile(r"^09:5\d$"))
    # Made without it, a tournament warns at 5 minutes.
    assert new_tournament(server)["warn_minutes"] == 5


def test_a_checked_in_players_phone_shows_the_tables_result_and_place_once_confirmed(
        phone: Phone, server: Server) -> None:
    tournament = new_tournament(server)
    page = phone.page
    phone.open(f"#/t/{tournament['id']}/check-in?code={tournament['check_in_code']}")
    table = ann_checks_in_and_is_seated(page, server, tournament)
    seat = table["players"].index(1)
    expect(page.locator("#your-table")).to_be_visible(timeout=15000)
    # The table enters its game, Ann out first: entered, not confirmed, nothing of it shows.
    server.post(f"/api/v1/matches/{table['match_id']}/rounds",
                {"winner": seat, "penalty": [0 if s == seat else 3 * s + 3 for s in range(4)]},
                table["table_token"])
    entered = server.get(f"{T}/{tournament['id']}/players/1")
    expect(page.locator(f'[data-version="{entered["version"]}"]')).to_be_attached(timeout=15000)
    cells = page.locator('.my-results tr[data-round="1"] td')
    expect(cells).to_have_count(5)
    expect(cells.nth(3)).to_have_text("–")  # place
    expect(cells.nth(4)).to_have_text("–")  # points
    expect(page.locator("#my-standing")).to_have_text("Rank 1 with 0 points from 0 tables")
    # The organiser confirms the table: the phone shows Ann's place, points and standing, live.
    server.post(f"{T}/{tournament['id']}/rounds/1/tables/{table['table']}/confirm", {},
                tournament["token"])
    expect(cells.nth(3)).to_have_text("1st", timeout=15000)
    expect(cells.nth(4)).to_have_text("1")
    expect(page.locator("#my-standing")).to_have_text("Rank 1 with 1 point from 1 table")


def test_the_check_in_code_reads_as_its_link_and_goes_once_round_1_starts(
        browser: Any, server: Server, tmp_path: Path) -> None:
    """The dashboard's QR code is the check-in link (zbar reads it from the screen); without late
    check-in, starting round 1 takes the code off the dashboard and the board, live."""
    tournament = new_tournament(server)
    check_in_all(server, tournament, ["Ann", *OTHERS])
    with phone_in_use(browser, server) as phone, \
            phone_in_use(browser, server, viewport=HD) as board:
        as_organiser(phone, tournament)
        phone.open(f"#/t/{tournament['id']}")
        panel = phone.page.locator("#check-in-panel")
        read = qr_link(panel.locator(".qr"), tmp_path / "dashboard-qr.png")
        assert read == panel.locator("#check-in-link").input_value()
        assert read.split("#", 1)[1] == (
            f"/t/{tournament['id']}/check-in?code={tournament['check_in_code']}")
        as_organiser(board, tournament)
        board.open(f"#/t/{tournament['id']}/board")
        expect(board.page.locator("#board-check-in img")).to_be_visible()
        server.post(f"{T}/{tournament['id']}/rounds", {}, tournament["token"])
        # Both follow the round's start live: its two tables, and no check-in code any more.
        expect(phone.page.locator(".tables .table-state")).to_have_count(2, timeout=15000)
        expect(panel).to_have_count(0)
        expect(phone.page.locator("img[src*='check-in']")).to_have_count(0)
        expect(board.page.locator(".board-table")).to_have_count(2, timeout=15000)
        expect(board.page.locator("#board-check-in")).to_have_count(0)


def test_the_new_tournament_form_sends_check_in_late_check_in_and_the_warning(
        phone: Phone, server: Server) -> None:
    page = phone.page
    phone.open("#/")
    page.get_by_role("link", name="New tournament").click()
    page.get_by_label("Name of the tournament").fill("Jassabend")
    page.click("[data-path=game] [data-value=tschau-sepp]")
    page.get_by_label("Check-in by QR code").check()
    page.get_by_label("Late check-in", exact=True).check()
    page.get_by_label("Clock warning (minutes left)").fill("8")
    page.get_by_role("button", name="Create tournament").click()
    expect(page.locator("#check-in-panel")).to_be_visible()
    made = page.url.split("#/t/")[1].split("/")[0]
    token = page.evaluate("""(id) => JSON.parse(localStorage.getItem('tafelrunde.tournaments'))
        .find((t) => t.id === id).token""", made)
    read = server.get(f"{T}/{made}", token)
    assert (read["check_in"], read["late_check_in"], read["warn_minutes"]) == (True, True, 8)
    assert read["check_in_code"]


def test_the_dashboard_counts_who_paid_and_shows_the_check_in_code(
        phone: Phone, server: Server) -> None:
    tournament = new_tournament(server)
    check_in_all(server, tournament, ["Ann", "Bea", "Cem"])
    as_organiser(phone, tournament)
    page = phone.page
    phone.open(f"#/t/{tournament['id']}")
    expect(page.locator("#paid-count")).to_have_text("0 of 3 paid")
    page.locator('[data-paid="2"]').check()
    expect(page.locator("#paid-count")).to_have_text("1 of 3 paid")
    assert [p["paid"] for p in server.get(f"{T}/{tournament['id']}")["players"]] == [
        False, True, False]
    link = page.locator("#check-in-link").input_value()
    assert link.endswith(f"#/t/{tournament['id']}/check-in?code={tournament['check_in_code']}")
    # A new arrival shows up live.
    check_in_all(server, tournament, ["Dan"])
    expect(page.locator("#paid-count")).to_have_text("1 of 4 paid", timeout=15000)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_board_shows_the_clock_large_and_a_check_in_code_a_camera_reads(
        browser: Any, server: Server, tmp_path: Path) -> None:
    tournament = new_tournament(server, late_check_in=True)
    check_in_all(server, tournament, ["Ann", *OTHERS])
    server.post(f"{T}/{tournament['id']}/rounds", {}, tournament["token"])
    with phone_in_use(browser, server, viewport=HD) as screen:
        as_organiser(screen, tournament)
        page = screen.page
        screen.open(f"#/t/{tournament['id']}/board")
        clock = page.locator("#clock")
        expect(clock).to_be_hidden()
        server.post(f"{T}/{tournament['id']}/clock", {"action": "start", "minutes": 40},
                    tournament["token"])
        expect(clock).to_be_visible(timeout=15000)
        assert 39 * 60 <= seconds_shown(clock.locator(".clock-time").inner_text()) <= 40 * 60
        assert digits_height(clock) >= DIGITS
        # One table gets two minutes more: the board names it under the clock.
        server.post(f"{T}/{tournament['id']}/clock",
                    {"action": "extend", "minutes": 2, "table": 1}, tournament["token"])
        expect(clock.locator('.clock-tables [data-table="1"]')).to_be_visible(timeout=15000)
        # The whole board still fits the screen.
        assert page.evaluate("() => document.scrollingElement.scrollHeight") <= HD["height"]
        qr = page.locator("#board-check-in")
        expect(qr).to_be_visible()
        read = qr_link(qr, tmp_path / "board-qr.png")
        assert read.split("#", 1)[1].startswith(f"/t/{tournament['id']}/check-in?")
        assert parse_qs(read.split("?", 1)[1])["code"] == [tournament["check_in_code"]]


def test_a_tables_phone_shows_the_clock_with_its_own_extra_time(
        phone: Phone, server: Server) -> None:
    tournament = new_tournament(server, private=True)
    check_in_all(server, tournament, ["Ann", *OTHERS])
    started = server.post(f"{T}/{tournament['id']}/rounds", {}, tournament["token"])
    table = started["tables"][1]
    page = phone.page
    # The table's link, as its QR code on the table card holds it.
    page.goto(f"{server.base}/#/m/{table['match_id']}?t={table['table_token']}"
              f"&tt={tournament['id']}.1.{table['table']}")
    page.wait_for_selector("body[data-ready]")
    clock = page.locator(f"#clock-table-{table['table']}")
    expect(clock).to_be_hidden()
    server.post(f"{T}/{tournament['id']}/clock", {"action": "start", "minutes": 20},
                tournament["token"])
    expect(clock).to_be_visible(timeout=15000)
    assert 19 * 60 <= seconds_shown(clock.locator(".clock-time").inner_text()) <= 20 * 60
    # Large enough to read across the table, above the entry, which still fits the first
    # screen above its save button (fixed at the bottom).
    assert digits_height(clock) >= DIGITS
    entry = box_of(page.locator(".entry-form"))
    face = box_of(clock)
    assert face["y"] + face["height"] <= entry["y"], (face, entry)
    save = box_of(page.locator(".entry-form button[type=submit]"))
    assert entry["y"] + entry["height"] <= save["y"] <= PHONE["height"] - save["height"], (
        entry, save)
    # Five more minutes for this table alone: its phone shows its own time.
    server.post(f"{T}/{tournament['id']}/clock",
                {"action": "extend", "minutes": 5, "table": table["table"]}, tournament["token"])
    deadline = time.monotonic() + 15
    while seconds_shown(clock.locator(".clock-time").inner_text()) < 24 * 60:
        assert time.monotonic() < deadline, "the table's extra time is not shown"
        time.sleep(0.2)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]


def test_the_organiser_runs_the_clock_from_the_dashboard(phone: Phone, server: Server) -> None:
    tournament = new_tournament(server)
    check_in_all(server, tournament, ["Ann", *OTHERS])
    server.post(f"{T}/{tournament['id']}/rounds", {}, tournament["token"])
    as_organiser(phone, tournament)
    page = phone.page
    phone.open(f"#/t/{tournament['id']}")
    page.fill("#clock-minutes", "25")
    page.click('[data-clock="start"]')
    clock = page.locator("#clock")
    expect(clock).to_have_attribute("data-state", "running")
    assert 24 * 60 <= seconds_shown(clock.locator(".clock-time").inner_text()) <= 25 * 60
    page.click('[data-clock="pause"]')
    expect(clock).to_have_attribute("data-state", "paused")
    expect(page.locator('[data-clock="pause"]')).to_be_hidden()
    page.click('[data-clock="extend"]')
    expect(clock.locator(".clock-time")).to_have_text(re.compile(r"^(29|30):\d\d$"))
    page.select_option("#clock-table", "2")
    page.fill("#clock-table-minutes", "3")
    page.click('[data-clock="extend-table"]')
    expect(clock.locator('.clock-tables [data-table="2"]')).to_be_visible()
    # Minutes being typed survive the dashboard being drawn again (after an action or a change).
    page.fill("#clock-minutes", "12")
    page.click('[data-clock="resume"]')
    expect(clock).to_have_attribute("data-state", "running")
    assert page.locator("#clock-minutes").input_value() == "12"
    clock_now = server.get(f"{T}/{tournament['id']}")["clock"]
    assert clock_now["state"] == "running"
    assert set(clock_now["tables"]) == {"2"}
    assert page.evaluate("() => document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.parametrize("lang", ["de", "fr", "it"])
def test_check_in_the_table_and_time_read_in_the_phones_language(
        browser: Any, server: Server, lang: str) -> None:
    tournament = new_tournament(server, warn_minutes=5)
    with phone_in_use(browser, server, locale={"de": "de-CH", "fr": "fr-CH", "it": "it-CH"}[lang]) \
            as phone:
        page = phone.page
        page.clock.install()
        phone.open(f"#/t/{tournament['id']}/check-in?code={tournament['check_in_code']}")
        expect(page.locator("#ci-send")).to_have_text(words(lang, "ci.send"))
        assert english_on_screen(page, lang) == []
        table = ann_checks_in_and_is_seated(page, server, tournament)
        expect(page.locator("#your-table")).to_have_text(words(
            lang, "ci.your_table", table=table["table"], seat=table["players"].index(1) + 1),
            timeout=15000)
        server.post(f"{T}/{tournament['id']}/clock", {"action": "start", "minutes": 1},
                    tournament["token"])
        clock = page.locator("#clock")
        expect(clock).to_have_attribute("data-state", "warning", timeout=15000)
        page.clock.fast_forward("01:05")
        expect(clock.locator(".clock-time")).to_have_text(words(lang, "ci.time_up"))
        assert english_on_screen(page, lang) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_tournament_day_screens_meet_the_accessibility_measures(
        browser: Any, server: Server, scheme: str) -> None:
    """The main screens' measures (tests/e2e/test_accessibility.py) on check-in, the player's
    view with the clock in its warning and at "Time!", and the dashboard with the clock and the
    paid boxes: tap targets of 44 px, WCAG AA contrast, nothing wider than the phone."""
    tournament = new_tournament(server, warn_minutes=5)
    with phone_in_use(browser, server) as phone:
        page = phone.page
        page.emulate_media(color_scheme=scheme)
        page.clock.install()
        found: list[str] = []

        def measure(where: str) -> None:
            found.extend(f"{where}: {p}" for p in page.evaluate(TARGETS))
            found.extend(f"{where}: {p}" for p in page.evaluate(CONTRAST))
            overflow = page.evaluate(OVERFLOW)
            if overflow:
                found.append(f"{where}: {overflow}")

        phone.open(f"#/t/{tournament['id']}/check-in?code={tournament['check_in_code']}")
        measure("check-in")
        check_in_all(server, tournament, ["Ann", *OTHERS])
        server.post(f"{T}/{tournament['id']}/rounds", {}, tournament["token"])
        server.post(f"{T}/{tournament['id']}/clock", {"action": "start", "minutes": 4},
                    tournament["token"])
        phone.open(f"#/t/{tournament['id']}/p/1")
        expect(page.locator("#clock")).to_have_attribute("data-state", "warning")
        measure("player, warning")
        page.clock.fast_forward("04:05")
        expect(page.locator("#clock")).to_have_attribute("data-state", "time")
        measure("player, time")
        as_organiser(phone, tournament)
        phone.open(f"#/t/{tournament['id']}")
        expect(page.locator("#clock")).to_be_visible()
        measure("dashboard")
    assert found == []
