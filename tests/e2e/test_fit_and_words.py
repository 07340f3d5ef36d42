"""Issue 23, items 4–15: what a new user at a 360×640 phone noticed, each shown fixed in chromium
against a real server, in the languages where the words matter.
"""

from __future__ import annotations

import json
import re
import subprocess
import urllib.request
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONES, Server, box_of, phone_in_use
from tests.e2e.test_entry_screens import HIDDEN_CONTROLS

pytestmark = pytest.mark.browser

SCREEN = 640
SAVED = 15000
LONG_NAMES = ["Ann", "Bartholomäus", "Cid", "Dan"]
SEA_ROUND = {"final_trump": "red", "scores": [4, 3, 1, 1], "trump_zero": 0}

# The lowest point of the entry form's content: the screen must hold it above the Save bar.
FORM_BOTTOM = """() => Math.max(...[...document.querySelectorAll(
  'form.entry-form :is(input, button, [data-value])')]
  .filter((el) => el.checkVisibility() && !el.closest('.action-bar, .sr-only'))
  .map((el) => el.getBoundingClientRect().bottom))"""

# Every visible control the shown toast overlaps, measured in the instant it is seen shown.
UNDER_TOAST = """() => {
  const toast = document.getElementById('toast');
  if (!toast.classList.contains('show')) return null;
  const box = toast.getBoundingClientRect();
  return [...document.querySelectorAll('input, button, select, [data-value]')]
    .filter((el) => el.checkVisibility() && !el.closest('.sr-only'))
    .map((el) => [el, el.getBoundingClientRect()])
    .filter(([, r]) => r.width > 0 && r.bottom > box.top && r.top < box.bottom
      && r.right > box.left && r.left < box.right)
    .map(([el]) => el.outerHTML.slice(0, 60));
}"""


def sea_change_at(server: Server, rounds: int) -> dict[str, Any]:
    made: dict[str, Any] = server.post("/api/v1/matches", {"game": "sea-change",
                                                           "players": LONG_NAMES})
    for _ in range(rounds):
        server.post(f"/api/v1/matches/{made['id']}/rounds", SEA_ROUND, made["token"])
    return made


# --- Item 4: Sea Change by points fits one screen in every round; the toast covers no input.

@pytest.mark.parametrize("locale", ["en-US", *PHONES.values()])
def test_sea_change_by_points_fits_one_screen_in_every_round(
        browser: Any, server: Server, locale: str) -> None:
    with phone_in_use(browser, server, locale=locale) as phone:
        phone.open("#/")
        page = phone.page
        page.evaluate("() => localStorage.setItem('tafelrunde.sea-change.mode', 'points')")
        # Round 1 has no standings strip; from round 2 it stands over the form in two lines, and
        # in round 3 the long name deals (a second line under the round's number in French).
        for rounds in range(3):
            made = sea_change_at(server, rounds)
            phone.open(f"#/m/{made['id']}?t={made['token']}")
            expect(page.locator(".entry-head h2")).to_contain_text(str(rounds + 1))
            expect(page.locator(".strip li")).to_have_count(4 if rounds else 0)
            assert page.evaluate("() => document.documentElement.scrollHeight") <= SCREEN
            assert page.evaluate(HIDDEN_CONTROLS) == []
            bar = box_of(page.locator(".action-bar"))
            assert page.evaluate(FORM_BOTTOM) <= bar["y"], (locale, rounds)


def test_the_saved_toast_covers_no_field_of_the_round_that_opens(
        phone: Any, server: Server) -> None:
    page = phone.page
    phone.open("#/")
    page.evaluate("() => localStorage.setItem('tafelrunde.sea-change.mode', 'points')")
    page.emulate_media(reduced_motion="reduce")  # measured where it stays, not sliding in
    made = sea_change_at(server, 1)
    phone.open(f"#/m/{made['id']}?t={made['token']}")
    page.click("[data-path=final_trump] [data-value=yellow]")
    for name, score in (("Ann", "4"), ("Bartholomäus", "3"), ("Cid", "-1")):
        page.get_by_label(f"Points of {name}").fill(score)
    page.locator("[data-path='scores[3]'] input.auto").wait_for()
    page.click("[data-path=trump_zero] [data-value='0']")
    page.get_by_role("button", name="Save round").click()
    covered = page.wait_for_function(f"""() => {{
      const toast = document.getElementById('toast');
      if (!toast.classList.contains('show') || toast.textContent !== 'Round 2 saved.') return null;
      if (!document.querySelector('.entry-head h2')?.textContent.includes('3')) return null;
      return ({UNDER_TOAST})();
    }}""", timeout=SAVED).json_value()
    assert covered == []


# --- Item 5: no screen scrolls sideways at 360 px.

# What sticks out past the right edge of a 360 px screen (the widest few, for the message).
WIDER = """() => [...document.querySelectorAll('body *')]
  .filter((el) => el.checkVisibility() && el.getBoundingClientRect().right > innerWidth + 0.5
    && ![...el.children].some((child) => child.getBoundingClientRect().right > innerWidth + 0.5))
  .slice(0, 5).map((el) => `${el.tagName.toLowerCase()}.${el.className}`
    + ` ${Math.round(el.getBoundingClientRect().right)}: ${el.textContent.slice(0, 40)}`)"""
T = "/api/v1/tournaments"
C = "/api/v1/clubs"
M = "/api/v1/matches"
FIRST_ROUNDS = {
    "sea-change": SEA_ROUND,
    "seven-seals": {"bids": [{"seals": ["red"]}, {"saboteur": True}, {"seals": []},
                             {"seals": ["blue"]}],
                    "remaining": [[], None, [], []], "black": [0, 0, 0, 0]},
    "tschau-sepp": {"winner": 0, "penalty": [0, 4, 9, 20]},
    "score-pad": {"points": [90, 40, 17, 10]},
}
OPTIONS = {"score-pad": {"title": "Schieber", "round_total": 157}}
MEMBERS = ["Ann", "Bartholomäus", "Cid", "Dan"]
STAKES = {"currency": "CHF", "per_point": "0.05", "per_match_lost": "0.50"}


def every_screen(server: Server) -> tuple[list[str], dict[str, str]]:
    """Every screen of the app, as hash routes, with what this phone must hold to open them:
    an entry, standings, history, share, correction and winner screen of each game and of the
    score pad (with a long name), the new match, a tournament's dashboard, board, cards, player
    view and a table's phone, tournament day's check-in form, a checked-in player's view
    waiting for a table and at one with the clock running, and its dashboard, and the club's
    screens, with its evening played for money (Abrechnung, Kasse with a payment) and a season
    (table, member's line, board): every screen with data in it."""
    routes = ["#/", "#/new", "#/t/new", "#/c/new"]
    storage: dict[str, str] = {}
    for game, first in FIRST_ROUNDS.items():
        made = server.post(M, {"game": game, "players": LONG_NAMES,
                               "options": OPTIONS.get(game, {})})
        server.post(f"{M}/{made['id']}/rounds", first, made["token"])
        base = f"#/m/{made['id']}"
        routes += [f"{base}?t={made['token']}", f"{base}/standings", f"{base}/history",
                   f"{base}/share", f"{base}/rounds/1"]
    done = server.post(M, {"game": "tschau-sepp", "players": LONG_NAMES, "options": {"games": 1}})
    server.post(f"{M}/{done['id']}/rounds", FIRST_ROUNDS["tschau-sepp"], done["token"])
    routes += [f"#/m/{done['id']}/winner?t={done['token']}"]

    tournament = server.post(T, {"name": "Herbstturnier des Jassclubs", "game": "tschau-sepp",
                                 "options": {"games": 1}, "rounds": 2, "table_size": 4,
                                 "seating": "random", "seed": 7})
    for name in [*LONG_NAMES, "Elisabeth", "Franz", "Giulia", "Hans-Peter"]:
        server.post(f"{T}/{tournament['id']}/players", {"name": name}, tournament["token"])
    started = server.post(f"{T}/{tournament['id']}/rounds", {}, tournament["token"])
    first, second = started["tables"]
    server.post(f"{M}/{first['match_id']}/rounds", {"winner": 0, "penalty": [0, 3, 6, 9]},
                first["table_token"])
    server.post(f"{T}/{tournament['id']}/rounds/1/tables/1/confirm", {}, tournament["token"])
    tid = tournament["id"]
    routes += [f"#/t/{tid}", f"#/t/{tid}/board", f"#/t/{tid}/r/1/cards", f"#/t/{tid}/p/1",
               f"#/m/{second['match_id']}?t={second['table_token']}&tt={tid}.1.{second['table']}",
               f"#/m/{first['match_id']}/winner"]

    # Tournament day: the check-in form of one tournament; this phone checked in to two others,
    # one waiting for its first round, one seated with the round clock running.
    day = {"name": "Jassabend im Restaurant Sternen", "game": "tschau-sepp",
           "options": {"games": 1}, "rounds": 2, "table_size": 4, "seating": "random",
           "seed": 7, "check_in": True}
    form, waiting, seated = (server.post(T, day) for _ in range(3))
    checked_in: dict[str, dict[str, Any]] = {}
    for held in (form, waiting, seated):
        for name in [*LONG_NAMES, "Elisabeth", "Franz", "Giulia", "Hans-Peter"]:
            player = server.post(f"{T}/{held['id']}/check-in", {
                "code": held["check_in_code"], "name": name, "club": "Jassclub Donnerstagsrunde"})
            if held is not form and name == "Bartholomäus":
                checked_in[held["id"]] = {"player": player["player"]["id"],
                                          "token": player["player_token"]}
    server.post(f"{T}/{seated['id']}/rounds", {}, seated["token"])
    server.post(f"{T}/{seated['id']}/clock", {"action": "start", "minutes": 30}, seated["token"])
    storage["tafelrunde.checked-in"] = json.dumps(checked_in)
    routes += [f"#/t/{form['id']}/check-in?code={form['check_in_code']}", f"#/t/{seated['id']}"]
    routes += [f"#/t/{day_id}/p/{me['player']}" for day_id, me in checked_in.items()]
    storage["tafelrunde.tournaments"] = json.dumps(
        [{"id": held["id"], "token": held["token"]} for held in (tournament, seated)])

    club = server.post(C, {"name": "Jassclub Donnerstagsrunde"})
    for order in ([0, 3, 6, 9], [6, 0, 9, 3], [9, 6, 0, 3]):
        made = server.post(M, {"game": "tschau-sepp", "players": MEMBERS,
                               "options": {"games": 1}, "club": club["id"], "stakes": STAKES},
                           club["token"])
        server.post(f"{M}/{made['id']}/rounds", {"winner": order.index(0), "penalty": order},
                    made["token"])
    cid = club["id"]
    server.post(f"{C}/{cid}/payments", {"player": 2, "amount": "0.50", "currency": "CHF"},
                club["token"])
    today = datetime.now(ZoneInfo("Europe/Zurich")).date()
    season = server.post(f"{C}/{cid}/seasons", {
        "name": "Wintermeisterschaft", "from": (today - timedelta(days=60)).isoformat(),
        "to": (today + timedelta(days=60)).isoformat()}, club["token"])
    seasons = f"#/c/{cid}/season/{season['id']}"
    routes += [f"#/c/{cid}?t={club['token']}&v={club['view_token']}", f"#/c/{cid}/ladder",
               f"#/c/{cid}/ladder/tschau-sepp", f"#/c/{cid}/history", f"#/c/{cid}/p/1",
               f"#/c/{cid}/p/1/vs/2", f"#/c/{cid}/share", f"#/c/{cid}/new", f"#/c/{cid}/t/new",
               f"#/c/{cid}/settlement", f"#/c/{cid}/kasse", f"#/c/{cid}/season", seasons,
               f"{seasons}/p/2", f"{seasons}/board"]
    return routes, storage


@pytest.mark.parametrize("locale", ["en-US", *PHONES.values()])
def test_no_screen_scrolls_sideways_at_360_px(browser: Any, server: Server, locale: str) -> None:
    routes, storage = every_screen(server)
    wide: dict[str, Any] = {}
    with phone_in_use(browser, server, locale=locale) as phone:
        phone.open("#/")
        page = phone.page
        for key, value in storage.items():
            page.evaluate("([key, value]) => localStorage.setItem(key, value)", [key, value])
        for route in routes:
            phone.open(route)
            # The app marks itself ready once the first screen has drawn what it read.
            page.locator("main h1, main h2, .board-screen").first.wait_for()
            width = page.evaluate("() => document.documentElement.scrollWidth")
            if width > 360:
                wide[route.split("?")[0]] = (width, page.evaluate(WIDER))
            page.goto("about:blank")
    assert wide == {}


# --- Item 6: a view link opens on the standings; the tab bar highlights the screen shown.

def current_tab(page: Any) -> str:
    return str(page.locator(".tabs a[aria-current=page]").get_attribute("data-tab"))


def test_a_view_link_opens_on_the_standings_and_the_tabs_name_the_screen_shown(
        phone: Any, server: Server) -> None:
    page = phone.page
    made = sea_change_at(server, 1)
    phone.open(f"#/m/{made['id']}?v={made['view_token']}")
    expect(page.locator("table.standings")).to_be_visible()
    assert page.url.endswith(f"#/m/{made['id']}/standings")
    assert current_tab(page) == "standings"
    # No entry tab without a form behind it.
    expect(page.locator(".tabs a")).to_have_count(3)
    expect(page.locator("[data-tab=sheet]")).to_have_count(0)
    for tab in ("history", "share", "standings"):
        page.locator(f"[data-tab={tab}]").click()
        expect(page.locator(".tabs a[aria-current=page]")).to_have_attribute("data-tab", tab)

    # The phone that enters: the entry tab is the one highlighted over the form.
    phone.open(f"#/m/{made['id']}?t={made['token']}")
    expect(page.locator("form.entry-form")).to_be_visible()
    assert current_tab(page) == "sheet"

    # A finished match: the first tab is the winner, and it is the one highlighted there.
    done = server.post(M, {"game": "tschau-sepp", "players": ["Ann", "Ben"],
                           "options": {"games": 1}})
    server.post(f"{M}/{done['id']}/rounds", {"winner": 0, "penalty": [0, 9]}, done["token"])
    phone.open(f"#/m/{done['id']}/standings?t={done['token']}")
    expect(page.locator("[data-tab=sheet]")).to_have_count(0)
    page.locator("[data-tab=winner]").click()
    expect(page.locator("#winner-names")).to_have_text("Ann wins!")
    assert current_tab(page) == "winner"
    assert page.locator("[data-tab=winner]").text_content() == "Winner"


# --- Item 7: dropped players are said to be dropped; a player who never played ranks last.

def tournament_of_eight(server: Server, **settings: Any) -> tuple[dict[str, Any], list[int]]:
    """Eight players, round 1 played and confirmed at both tables."""
    tournament: dict[str, Any] = server.post(T, {
        "name": "Herbstturnier", "game": "tschau-sepp", "options": {"games": 1}, "rounds": 2,
        "table_size": 4, "seating": "random", "seed": 7, **settings})
    ids = [server.post(f"{T}/{tournament['id']}/players", {"name": name},
                       tournament["token"])["id"]
           for name in ["Ann", "Ben", "Cid", "Dan", "Eva", "Fay", "Gus", "Hal"]]
    started = server.post(f"{T}/{tournament['id']}/rounds", {}, tournament["token"])
    for table in started["tables"]:
        server.post(f"{M}/{table['match_id']}/rounds", {"winner": 0, "penalty": [0, 3, 6, 9]},
                    table["table_token"])
        server.post(f"{T}/{tournament['id']}/rounds/1/tables/{table['table']}/confirm", {},
                    tournament["token"])
    return tournament, ids


def patch(server: Server, path: str, body: Any, token: str) -> None:
    request = urllib.request.Request(server.base + path, data=json.dumps(body).encode(),
                                     method="PATCH", headers={"Content-Type": "application/json",
                                                              "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10):
        pass


def test_dropped_players_are_marked_on_the_dashboard_and_the_board_and_a_late_entry_ranks_last(
        browser: Any, server: Server) -> None:
    tournament, ids = tournament_of_eight(server)
    late = server.post(f"{T}/{tournament['id']}/players", {"name": "Zoe"}, tournament["token"])
    patch(server, f"{T}/{tournament['id']}/players/{ids[0]}", {"active": False},
          tournament["token"])
    tid = tournament["id"]
    with phone_in_use(browser, server) as phone:
        phone.open(f"#/t/{tid}")
        page = phone.page
        rows = page.locator(".tournament-standings tbody tr")
        expect(rows).to_have_count(9)
        expect(page.locator(f".tournament-standings tr[data-player='{ids[0]}'] [data-dropped]")
               ).to_have_text("dropped out")
        expect(page.locator(".tournament-standings [data-dropped]")).to_have_count(1)
        expect(rows.last).to_have_attribute("data-player", str(late["id"]))
    with phone_in_use(browser, server, viewport={"width": 1280, "height": 720}) as screen:
        screen.open(f"#/t/{tid}/board")
        board = screen.page
        expect(board.locator(f".board-standings tr[data-player='{ids[0]}'] [data-dropped]")
               ).to_have_text("dropped out")
        last = board.locator(".board-standings tbody tr").last
        expect(last).to_have_attribute("data-player", str(late["id"]))
        ranks = [int(r) for r in board.locator(".board-standings tbody tr").evaluate_all(
            "(rows) => rows.map((row) => row.dataset.rank)")]
        assert ranks[-1] > max(ranks[:-1])


# --- Item 10: a corrected round's history shows old and new values.

def test_a_corrected_rounds_history_says_what_it_was_and_what_it_is(
        german_phone: Any, server: Server) -> None:
    made = sea_change_at(server, 1)
    page = german_phone.page
    german_phone.open(f"#/m/{made['id']}/rounds/1?t={made['token']}")
    page.click("[data-path=final_trump] [data-value=blue]")
    page.get_by_label("Punkte von Ann", exact=True).fill("2")
    page.get_by_label("Punkte von Bartholomäus", exact=True).fill("5")
    expect(page.get_by_label("Punkte von Dan", exact=True)).to_have_value("1")
    page.get_by_role("button", name="Korrektur speichern").click()
    corrected = page.locator(".audit li[data-action=round_corrected]")
    expect(corrected).to_be_visible(timeout=SAVED)
    changes = corrected.locator(".change")
    expect(changes).to_have_text(["Trumpf am Rundenende: Rot → Blau",
                                  "Punkte: Ann 4 → 2, Bartholomäus 3 → 5"])


# --- Item 11: a table's phone names its tournament, round and table in its header.

def test_a_tables_phone_names_its_tournament_round_and_table(
        german_phone: Any, server: Server) -> None:
    tournament: dict[str, Any] = server.post(T, {
        "name": "Herbstturnier", "game": "tschau-sepp", "options": {"games": 1}, "rounds": 2,
        "table_size": 4, "seating": "random", "seed": 7})
    for name in ["Ann", "Ben", "Cid", "Dan", "Eva", "Fay", "Gus", "Hal"]:
        server.post(f"{T}/{tournament['id']}/players", {"name": name}, tournament["token"])
    started = server.post(f"{T}/{tournament['id']}/rounds", {}, tournament["token"])
    table = started["tables"][1]
    german_phone.open(f"#/m/{table['match_id']}?t={table['table_token']}"
                      f"&tt={tournament['id']}.1.{table['table']}")
    page = german_phone.page
    expect(page.locator(".match-head [data-table-place]")).to_have_text(
        f"Herbstturnier · Runde 1 · Tisch {table['table']}")
    expect(page.locator("form.entry-form")).to_be_visible()
    # Opened again from the phone's list of matches, the header still says where it is.
    german_phone.open(f"#/m/{table['match_id']}/history")
    expect(page.locator(".match-head [data-table-place]")).to_have_text(
        f"Herbstturnier · Runde 1 · Tisch {table['table']}")


# --- Item 12: at a tournament's end the board shows the winner and the podium; the dashboard
# stops offering registration and drop.

def test_a_finished_tournament_shows_its_winner_and_podium_and_closes_registration(
        browser: Any, server: Server) -> None:
    tournament, _ids = tournament_of_eight(server, rounds=1)
    tid = tournament["id"]
    assert server.get(f"{T}/{tid}")["status"] == "finished"
    standings = server.get(f"{T}/{tid}/standings")["rows"]
    first = [row["name"] for row in standings if row["rank"] == 1]
    with phone_in_use(browser, server, viewport={"width": 1280, "height": 720}) as screen:
        screen.open(f"#/t/{tid}/board")
        board = screen.page
        expect(board.locator("#board-winner")).to_have_text(
            f"{first[0]} wins!" if len(first) == 1 else f"{' and '.join(first)} share the win!")
        podium = board.locator(".podium li")
        expect(podium.first).to_have_attribute("data-rank", "1")
        assert 1 <= podium.count() <= 3
        for step in podium.all():
            names = [row["name"] for row in standings
                     if row["rank"] == int(step.get_attribute("data-rank") or 0)]
            expect(step).to_contain_text(", ".join(names))
    with phone_in_use(browser, server) as phone:
        phone.open("#/")
        phone.page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                            ["tafelrunde.tournaments",
                             json.dumps([{"id": tid, "token": tournament["token"]}])])
        phone.open(f"#/t/{tid}")
        page = phone.page
        expect(page.locator(".tournament-standings tbody tr")).to_have_count(8)
        expect(page.locator("form.register")).to_be_hidden()
        expect(page.locator(".players-panel li")).to_have_count(8)
        expect(page.get_by_role("button", name=re.compile("drops out$"))).to_have_count(0)
        # Still the organiser: a running tournament offers both.
        running, _ = tournament_of_eight(server)
        phone.page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                            ["tafelrunde.tournaments",
                             json.dumps([{"id": running["id"], "token": running["token"]}])])
        phone.open(f"#/t/{running['id']}")
        expect(page.locator("form.register")).to_be_visible()
        expect(page.get_by_role("button", name=re.compile("drops out$"))).to_have_count(8)


# --- Item 9: a seal taken from another player leaves that player's bid row at once.

def test_a_seal_taken_from_another_player_leaves_their_bid_row_and_their_white_shows(
        phone: Any, server: Server) -> None:
    made = server.post(M, {"game": "seven-seals", "players": ["Ann", "Ben", "Cid", "Dan"]})
    phone.open(f"#/m/{made['id']}?t={made['token']}")
    page = phone.page
    ann, ben = page.locator("[data-path='bids[0]']"), page.locator("[data-path='bids[1]']")
    for _ in range(5):  # every red seal of the middle
        ann.locator(".seal-adders [data-colour=red]").click()
    expect(ann.locator(".chips [data-seal=red]")).to_have_count(5)
    ben.locator(".seal-adders [data-colour=red]").click()  # only Ann holds red: taken from her
    expect(ben.locator(".chips [data-seal=red]")).to_have_count(1)
    expect(ann.locator(".chips [data-seal=red]")).to_have_count(4)
    white = ann.locator(".chips [data-white-for=red]")
    expect(white).to_have_text("White")
    expect(white).to_have_attribute("aria-label", "White for Red: taken by another player")
    # Ben puts it back: Ann holds her five red seals again.
    ben.locator(".chips [data-seal=red]").click()
    expect(ann.locator(".chips [data-seal=red]")).to_have_count(5)
    expect(white).to_have_count(0)


# --- Item 8: numbers as people read them.

def test_a_chart_of_whole_numbers_has_whole_ticks(phone: Any, server: Server) -> None:
    made = sea_change_at(server, 1)  # victory points 0 and 1: the axis once read 0, 0.5, 1
    phone.open(f"#/m/{made['id']}/standings?t={made['token']}")
    labels = phone.page.locator("figure.chart .chart-grid text:not(.chart-axis-name)")
    expect(labels.first).to_be_visible()
    shown = labels.all_text_contents()
    assert shown
    assert all(re.fullmatch(r"−?-?\d+", text) for text in shown), shown


def test_the_board_shows_the_tiebreak_that_separates_tied_players(
        browser: Any, server: Server) -> None:
    tournament, _ids = tournament_of_eight(server)
    rows = server.get(f"{T}/{tournament['id']}/standings")["rows"]
    # Both tables' winners have one point each; the score share is what ranks them.
    with phone_in_use(browser, server, viewport={"width": 1280, "height": 720}) as screen:
        screen.open(f"#/t/{tournament['id']}/board")
        board = screen.page
        expect(board.locator(".board-standings th[data-tiebreak=score_share]").first
               ).to_have_text("Score share")
        cells = board.locator(".board-standings td[data-tiebreak=score_share]")
        expect(cells).to_have_count(len(rows))
        by_player = {int(p): c for p, c in zip(
            board.locator(".board-standings tbody tr").evaluate_all(
                "(rows) => rows.map((row) => row.dataset.player)"),
            cells.all_text_contents(), strict=True)}
        for row in rows:
            assert by_player[row["player"]] == f"{row['tiebreaks']['score_share']:.2f}".rstrip(
                "0").rstrip("."), row


# --- Item 14: the event streams fire no empty message in a browser.

# Every EventSource event a page hears on a stream: `message` is what a browser fires for a block
# with a `data:` line and no event name (an empty `data:` under a comment, as Litestar wrote it).
LISTEN = """(streams) => {
  window.heard = {};
  for (const [name, url] of Object.entries(streams)) {
    const seen = window.heard[name] = { message: [], current: [], change: [], error: 0 };
    const source = new EventSource(url);
    source.onmessage = (event) => seen.message.push(event.data);
    source.onerror = () => { seen.error += 1; };
    for (const kind of ['current', 'change']) {
      source.addEventListener(kind, (event) => seen[kind].push(JSON.parse(event.data).version));
    }
  }
}"""


def test_an_event_stream_fires_no_empty_message_on_subscribe_or_keep_alive(
        browser: Any, serve: Any, tmp_path: Any) -> None:
    """A match's and a tournament's stream in chromium, kept alive every second (the server's
    ``TAFELRUNDE_EVENT_PING``): the comments that open the stream and keep it alive fire
    nothing, while its ``current`` and ``change`` events arrive as themselves."""
    with serve(tmp_path, f"sqlite+aiosqlite:///{tmp_path / 'events.db'}",
               settings={"TAFELRUNDE_EVENT_PING": "1"}) as base:
        server = Server(base)
        match = server.post(M, {"game": "tschau-sepp", "players": ["Ann", "Ben"]})
        tournament = server.post(T, {"name": "Cup", "game": "tschau-sepp", "rounds": 1,
                                     "table_size": 2, "seating": "random", "seed": 1})
        with phone_in_use(browser, server) as phone:
            phone.open("#/")
            page = phone.page
            page.evaluate(LISTEN, {"match": f"{M}/{match['id']}/events",
                                   "tournament": f"{T}/{tournament['id']}/events"})
            page.wait_for_function("() => heard.match.current.length && "
                                   "heard.tournament.current.length")
            # Two keep-alives, read off a stream of the same server as it sends them.
            request = urllib.request.Request(f"{base}{M}/{match['id']}/events")
            with urllib.request.urlopen(request, timeout=10) as stream:
                pings = 0
                while pings < 2:
                    pings += stream.readline() == b": ping\r\n"
            server.post(f"{M}/{match['id']}/rounds", {"winner": 0, "penalty": [0, 9]},
                        match["token"])
            server.post(f"{T}/{tournament['id']}/players", {"name": "Ann"}, tournament["token"])
            page.wait_for_function("() => heard.match.change.length && "
                                   "heard.tournament.change.length")
            heard = page.evaluate("() => heard")
        versions = {"match": server.get(f"{M}/{match['id']}")["version"],
                    "tournament": server.get(f"{T}/{tournament['id']}")["version"]}
    for name, version in versions.items():
        assert heard[name]["message"] == [], name
        assert heard[name]["error"] == 0, name  # one stream each, never opened again
        assert heard[name]["current"] == [version - 1], name
        assert heard[name]["change"] == [version], name


# --- Item 15: the A4 standings carry the date and don't wrap short club names.

def test_the_printed_standings_carry_the_date_and_keep_club_names_whole(
        browser: Any, server: Server, tmp_path: Any) -> None:
    tournament: dict[str, Any] = server.post(T, {
        "name": "Herbstturnier", "game": "tschau-sepp", "options": {"games": 1}, "rounds": 2,
        "table_size": 4, "seating": "random", "seed": 7})
    clubs = ["Jassclub Bärn", "Schellen-Ass", "Tschau Zug", "Jassclub Bärn"]
    for i, name in enumerate(["Anna-Katharina Bernasconi", "Ben", "Cid", "Dan", "Eva", "Fay",
                              "Gus", "Hal"]):
        server.post(f"{T}/{tournament['id']}/players",
                    {"name": name, "club": clubs[i % 4]}, tournament["token"])
    started = server.post(f"{T}/{tournament['id']}/rounds", {}, tournament["token"])
    for table in started["tables"]:
        server.post(f"{M}/{table['match_id']}/rounds", {"winner": 0, "penalty": [0, 3, 6, 9]},
                    table["table_token"])
        server.post(f"{T}/{tournament['id']}/rounds/1/tables/{table['table']}/confirm", {},
                    tournament["token"])
    created = server.get(f"{T}/{tournament['id']}")["created_at"]
    with phone_in_use(browser, server, locale="de-CH",
                      viewport={"width": 1280, "height": 900}) as screen:
        screen.page.goto(f"{server.base}/api/v1/tournaments/{tournament['id']}/export"
                         "?format=html&lang=de")
        pdf = tmp_path / "standings.pdf"
        screen.page.pdf(path=str(pdf), format="A4", prefer_css_page_size=True)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    day = datetime.fromisoformat(created.replace("Z", "+00:00")).astimezone(
        ZoneInfo("Europe/Zurich"))
    months = ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August",
              "September", "Oktober", "November", "Dezember"]
    assert f"{day.day}. {months[day.month - 1]} {day.year}" in text
    lines = text.splitlines()
    for club, players in (("Jassclub Bärn", 4), ("Schellen-Ass", 2), ("Tschau Zug", 2)):
        assert sum(club in line for line in lines) == players, (club, text)


# --- Item 13 (part): words.

def test_one_german_word_per_colour_sp_and_star_explained_and_the_rating_in_words(
        german_phone: Any, server: Server) -> None:
    page = german_phone.page
    made = sea_change_at(server, 1)
    german_phone.open(f"#/m/{made['id']}?t={made['token']}")
    expect(page.locator("[data-path=final_trump] [data-value=purple]")).to_have_text("Violett")
    label = page.locator(".strip-label abbr")
    expect(label).to_have_text("SP")
    expect(label).to_have_attribute("title", "Siegpunkte")
    german_phone.open(f"#/m/{made['id']}/standings")
    expect(page.locator(".legend")).to_have_text("★: in dieser Runde einen Siegpunkt gewonnen.")
    seals = server.post(M, {"game": "seven-seals", "players": ["Ann", "Ben", "Cid"]})
    german_phone.open(f"#/m/{seals['id']}?t={seals['token']}")
    expect(page.locator("[data-path='bids[0]'] .seal-adders [data-colour=violet]")
           ).to_contain_text("Violett")

    club = server.post(C, {"name": "Jassclub"})
    made = server.post(M, {"game": "tschau-sepp", "players": ["Ann", "Ben"],
                           "options": {"games": 1}, "club": club["id"]}, club["token"])
    server.post(f"{M}/{made['id']}/rounds", {"winner": 0, "penalty": [0, 9]}, made["token"])
    german_phone.open(f"#/c/{club['id']}/ladder?v={club['view_token']}")
    rating = page.locator("table.ladder td[data-ordinal]").first
    expect(rating).to_have_attribute("title", re.compile(
        r"^Geschätzte Spielstärke [\d.,−-]+, Unsicherheit ± [\d.,]+$"))


def test_the_offline_badge_speaks_italian(browser: Any, server: Server) -> None:
    with phone_in_use(browser, server, locale="it-CH") as phone:
        phone.open("#/")
        phone.context.set_offline(True)
        expect(phone.page.locator("#net")).to_have_text("Non in linea")
        phone.context.set_offline(False)
        expect(phone.page.locator("#net")).to_have_text("")


def test_dropping_a_player_asks_first(phone: Any, server: Server) -> None:
    tournament, ids = tournament_of_eight(server)
    page = phone.page
    phone.open("#/")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  ["tafelrunde.tournaments",
                   json.dumps([{"id": tournament["id"], "token": tournament["token"]}])])
    phone.open(f"#/t/{tournament['id']}")
    drop = page.get_by_role("button", name="Ann drops out")
    drop.click()
    really = page.get_by_role("button", name="Really: Ann drops out?")
    expect(really).to_be_visible()
    assert all(p["active"] for p in server.get(f"{T}/{tournament['id']}")["players"])
    really.click()
    expect(page.locator(f".players-panel li[data-player='{ids[0]}']")
           ).to_contain_text("dropped out")
    players = server.get(f"{T}/{tournament['id']}")["players"]
    assert next(p["active"] for p in players if p["id"] == ids[0]) is False
