"""A tournament table on phones at 360×640: the phone that entered the result cannot confirm it,
not even by naming another device; a second phone that opened the table's link sees "Confirm
result" first, without scrolling; the standings fit the screen with the tiebreaks on demand and
say "after round N" only once round N is complete."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONE, Server, box_of
from tests.e2e.test_accessibility import CONTRAST, OVERFLOW, TARGETS

pytestmark = pytest.mark.browser

NAMES = ["Ann", "Ben", "Cid", "Dora", "Eva", "Fritz", "Gina", "Hugo", "Ida", "Jon", "Kai", "Lea"]
T = "/api/v1/tournaments"


def tournament_with_round(server: Server, players: int) -> tuple[dict[str, Any], dict[str, Any]]:
    """A one-round Tschau Sepp tournament of one game per table, its first round started."""
    tournament = server.post(T, {"name": "Table night", "game": "tschau-sepp",
                                 "options": {"games": 1, "table": "count"}, "rounds": 2,
                                 "table_size": 4})
    for name in NAMES[:players]:
        server.post(f"{T}/{tournament['id']}/players", {"name": name}, tournament["token"])
    started = server.post(f"{T}/{tournament['id']}/rounds", {}, tournament["token"])
    return tournament, started


def table_link(server: Server, tournament: dict[str, Any], table: dict[str, Any]) -> str:
    return (f"{server.base}/#/m/{table['match_id']}?t={table['table_token']}"
            f"&tt={tournament['id']}.1.{table['table']}")


def enter(phone: Any, link: str) -> None:
    page = phone.page
    page.goto(link)
    page.wait_for_selector("body[data-ready]")
    page.locator("[data-path=winner] [data-value='0']").click()
    for k, value in enumerate(page.locator(".stepper input").all()):
        value.fill(str(1 + k))
    page.get_by_role("button", name="Save game").click()
    expect(page.locator("#winner-names")).to_be_visible()


def confirm_from_page(page: Any, path: str, headers: dict[str, str]) -> int:
    """The status of a confirmation this page sends itself, with the table token it holds."""
    status: int = page.evaluate(
        """async ([path, match, headers]) => {
             const token = JSON.parse(localStorage['tafelrunde.tokens'])[match].token;
             const response = await fetch(path, { method: 'POST',
               headers: { Authorization: `Bearer ${token}`, ...headers } });
             return response.status;
           }""", [path, page.evaluate("() => location.hash.split('/')[2]"), headers])
    return status


def readable_at_any_text_size(page: Any) -> None:
    """The screen's controls are tap targets, its text has contrast, and it never scrolls
    sideways, at normal and at double text size (the checks of test_accessibility.py)."""
    assert page.evaluate(TARGETS) == []
    assert page.evaluate(CONTRAST) == []
    for size in ("200%", ""):
        page.evaluate("(size) => { document.documentElement.style.fontSize = size; }", size)
        assert page.evaluate(OVERFLOW) is None, size


def in_view(locator: Any) -> bool:
    box = box_of(locator)
    return box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_the_entering_phone_cannot_confirm_and_a_second_phone_confirms_first_thing(
        phone: Any, second_phone: Any, server: Server) -> None:
    tournament, started = tournament_with_round(server, 4)
    [table] = started["tables"]
    link = table_link(server, tournament, table)
    enter(phone, link)
    page = phone.page
    waiting = page.locator("#table-waiting")
    expect(waiting).to_have_text("Entered on this phone: another phone at the table must confirm.")
    expect(page.get_by_role("button", name="Confirm result")).to_have_count(0)
    # The panel is the first thing under the match's header, above the winner's standings.
    expect(page.locator("#app > .screen > .panel").first).to_have_class("panel confirm-panel")
    assert in_view(waiting)

    # Sending another device id does not make the entering phone another phone: with its own
    # table phone key or without one, the server refuses.
    path = f"{T}/{tournament['id']}/rounds/1/tables/1/confirm"
    key = page.evaluate(
        "(m) => JSON.parse(localStorage['tafelrunde.tokens'])[m].phone.key", table["match_id"])
    assert confirm_from_page(page, path, {"X-Device-Id": "another-phone",
                                          "X-Table-Phone": key}) == 409
    assert confirm_from_page(page, path, {"X-Device-Id": "another-phone"}) == 409
    entered = server.get(f"{T}/{tournament['id']}")["round_list"][0]["tables"][0]
    assert entered["state"] == "entered"
    assert key.startswith(entered["entered_by_phone"] + ".")

    # The entering phone can hand the table's link on as a QR code.
    summary = page.get_by_text("Show this table's link for another phone")
    box = box_of(summary)
    assert box["height"] >= 44
    summary.click()
    expect(page.locator(".another-phone .qr img")).to_be_visible()
    readable_at_any_text_size(page)

    other = second_phone.page
    other.goto(link)
    other.wait_for_selector("body[data-ready]")
    button = other.get_by_role("button", name="Confirm result")
    expect(button).to_be_visible()
    assert in_view(button), "Confirm result must show without scrolling"
    play_again = other.get_by_role("button", name="Play again")
    if play_again.count():
        assert box_of(button)["y"] < box_of(play_again)["y"]
    button.click()
    expect(other.locator("#table-confirmed")).to_have_text("Result confirmed.")
    expect(page.locator("#table-confirmed")).to_have_text("Result confirmed.")
    confirmed = server.get(f"{T}/{tournament['id']}")["round_list"][0]["tables"][0]
    assert (confirmed["state"], confirmed["confirmed_by"]) == ("confirmed", "table")



def test_a_round_saved_while_the_phones_key_is_on_its_way_waits_for_it(
        phone: Any, server: Server) -> None:
    """A phone that saves its table's result before the server has answered its key request
    still names itself by that key: by its device id alone, which any phone can send, it
    could confirm its own result (seen as a flaky test on a loaded machine)."""
    tournament, started = tournament_with_round(server, 4)
    [table] = started["tables"]
    page = phone.page
    held: list[Any] = []
    page.route("**/tables/1/phones", lambda route: held.append(route))
    page.goto(table_link(server, tournament, table))
    page.wait_for_selector("body[data-ready]")
    page.locator("[data-path=winner] [data-value='0']").click()
    for k, value in enumerate(page.locator(".stepper input").all()):
        value.fill(str(1 + k))
    page.get_by_role("button", name="Save game").click()
    page.wait_for_timeout(1000)  # time enough to send the round, were it not waiting
    assert len(held) == 1
    assert server.get(f"{T}/{tournament['id']}")["round_list"][0]["tables"][0]["state"] == "open"
    held[0].continue_()
    expect(page.locator("#winner-names")).to_be_visible()
    entered = server.get(f"{T}/{tournament['id']}")["round_list"][0]["tables"][0]
    key = page.evaluate(
        "(m) => JSON.parse(localStorage['tafelrunde.tokens'])[m].phone.key", table["match_id"])
    assert entered["entered_by_phone"] is not None
    assert key.startswith(entered["entered_by_phone"] + ".")

def test_standings_fit_a_phone_with_tiebreaks_on_demand_and_count_only_complete_rounds(
        phone: Any, second_phone: Any, server: Server) -> None:
    tournament, started = tournament_with_round(server, 12)
    tables = started["tables"]
    for table in tables:
        enter(second_phone, table_link(server, tournament, table))
    page = phone.page
    phone.open("#/")
    # This phone is the organiser's, as if it had created the tournament.
    page.evaluate(
        """(t) => localStorage.setItem('tafelrunde.tournaments', JSON.stringify([{
             id: t.id, name: 'Table night', game: 'tschau-sepp', token: t.token, view: null }]))""",
        tournament)
    # One of three tables confirmed: the standings count it, but round 1 is not over.
    server.post(f"{T}/{tournament['id']}/rounds/1/tables/{tables[1]['table']}/confirm", {},
                tournament["token"])
    phone.open(f"#/t/{tournament['id']}")
    caption = page.locator(".tournament-standings caption")
    expect(caption).to_have_text("Standings during round 1: 1 of 3 tables confirmed")
    standings = page.locator(".tournament-standings")
    expect(standings.locator("tbody tr")).to_have_count(12)
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the dashboard is {width} px wide"
    box = box_of(standings)
    assert box["x"] + box["width"] <= PHONE["width"]
    tiebreak = standings.locator("tbody tr").first.locator("[data-tiebreak=score_share]")
    expect(tiebreak).to_be_hidden()
    toggle = page.get_by_role("button", name="Show tiebreaks")
    toggle.click()
    expect(tiebreak).to_be_visible()
    expect(page.get_by_role("button", name="Hide tiebreaks")).to_have_attribute(
        "aria-expanded", "true")
    page.get_by_role("button", name="Hide tiebreaks").click()
    readable_at_any_text_size(page)

    for table in (tables[0], tables[2]):
        server.post(f"{T}/{tournament['id']}/rounds/1/tables/{table['table']}/confirm", {},
                    tournament["token"])
    expect(caption).to_have_text("Standings after round 1")

    # A player's own view fits the phone as well.
    page.locator(".tournament-standings tbody tr").first.locator("th a").click()
    expect(page.locator("#my-standing")).to_contain_text("Rank 1")
    readable_at_any_text_size(page)
