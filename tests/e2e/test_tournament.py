"""A tournament through the PWA in chromium against a real server: the organiser creates it and
registers 12 players on one phone; two rounds of three tables are each entered on one phone and
confirmed on another (a different device id, here also the German UI); the standings show on
the dashboard and the projector board, and the CSV export downloads with them."""

from __future__ import annotations

import csv
import io
import re
from typing import Any

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Ben", "Cid", "Dora", "Eva", "Fritz", "Gina", "Hugo", "Ida", "Jon", "Kai", "Lea"]
TABLES = 3


def create_tournament(organiser: Any) -> str:
    organiser.open("#/")
    page = organiser.page
    page.get_by_role("link", name="New tournament").click()
    page.get_by_label("Name of the tournament").fill("Club night")
    page.click("[data-path=game] [data-value=tschau-sepp]")
    page.get_by_label("Rounds").fill("2")
    page.get_by_label("Preferred table size").fill("4")
    # One game per match and a card count per player: a table's result is two taps away.
    page.fill("#opt-games", "1")
    page.select_option("#opt-table", "count")
    page.get_by_role("button", name="Create tournament").click()
    expect(page.get_by_role("heading", name="Register a player")).to_be_visible()
    return str(page.url.split("#/t/")[1].split("/")[0])


def register(organiser: Any) -> None:
    page = organiser.page
    for name in PLAYERS:
        page.get_by_label("Name", exact=True).fill(name)
        page.get_by_role("button", name="Add player").click()
        expect(page.locator(f".player-list [data-player] strong:text-is('{name}')")).to_be_visible()
    expect(page.get_by_role("heading", name="Players (12 active)")).to_be_visible()


def table_links(organiser: Any, round_number: int) -> list[str]:
    page = organiser.page
    page.get_by_role("button", name=f"Start round {round_number}").click()
    # The panel of the round before also has its tables: wait for the new round's cards link.
    cards_link = page.get_by_role("link", name="Table cards")
    expect(cards_link).to_have_attribute("href", re.compile(rf"/r/{round_number}/cards$"))
    expect(page.locator(".round-panel .table-state")).to_have_count(TABLES)
    # Twelve at three tables: in round 2 each table holds two players of one earlier table, so
    # the plan's 3 repeats are the fewest possible, and the dashboard says so in both rounds.
    expect(page.locator(".round-panel .plan-quality")).to_have_text(
        "Rounds 1–2: 3 repeated meetings, the fewest possible.")
    cards_link.click()
    cards = page.locator(".table-card")
    expect(cards).to_have_count(TABLES)
    for card in cards.all():
        expect(card.locator(".seats li")).to_have_count(4)
        expect(card.locator(".qr img")).to_be_visible()
    links = [str(link) for link in page.locator(".table-link").evaluate_all(
        "links => links.map(a => a.href)")]
    page.get_by_role("link", name="Tournament overview").click()
    return links


def enter_result(phone: Any, link: str, table: int) -> None:
    """The winner is the first seat; the others keep 1, 2 and 3 cards (table + k, distinct)."""
    page = phone.page
    page.goto(link)
    page.wait_for_selector("body[data-ready]")
    assert "?t=" not in page.url
    page.locator("[data-path=winner] [data-value='0']").click()
    for k, value in enumerate(page.locator(".stepper input").all()):
        value.fill(str(1 + (table + k) % 3))
    page.get_by_role("button", name="Save game").click()
    expect(page.locator("#winner-names")).to_be_visible()
    expect(page.locator("#table-waiting")).to_have_text(
        "Entered on this phone: another phone at the table must confirm.")


def confirm_result(phone: Any, link: str) -> None:
    page = phone.page
    page.goto(link)
    page.wait_for_selector("body[data-ready]")
    page.get_by_role("button", name="Ergebnis bestätigen").click()
    expect(page.locator("#table-confirmed")).to_have_text("Ergebnis bestätigt.")


def play_round(organiser: Any, enterer: Any, confirmer: Any, round_number: int) -> None:
    for table, link in enumerate(table_links(organiser, round_number), start=1):
        enter_result(enterer, link, table)
        confirm_result(confirmer, link)
        state = organiser.page.locator(f".round-panel [data-table='{table}'] [data-state]")
        expect(state).to_have_attribute("data-state", "confirmed")
    last = round_number == 2
    done = "Finished after 2 rounds" if last else f"Round {round_number} of 2 is complete"
    expect(organiser.page.locator("#round-line")).to_have_text(done)


def test_an_organiser_runs_two_rounds_confirmed_from_other_phones_to_standings_and_csv(
        phone: Any, second_phone: Any, german_phone: Any, server: Any) -> None:
    tournament = create_tournament(phone)
    register(phone)
    for round_number in (1, 2):
        play_round(phone, second_phone, german_phone, round_number)

    page = phone.page
    standings = server.get(f"/api/v1/tournaments/{tournament}/standings")
    assert standings["through_round"] == 2
    rows = page.locator(".tournament-standings tbody tr")
    expect(rows).to_have_count(12)
    # Tournament points of a table of four add up to (3 + 2 + 1 + 0) / 3 = 2, however ties fall.
    assert sum(row["points"] for row in standings["rows"]) == pytest.approx(2 * TABLES * 2)
    leader = standings["rows"][0]
    expect(rows.first.locator("th")).to_contain_text(leader["name"])
    # On a phone the tiebreak columns come on demand.
    expect(rows.first.locator("[data-tiebreak=score_share]")).to_be_hidden()
    page.get_by_role("button", name="Show tiebreaks").click()
    expect(rows.first.locator("[data-tiebreak=score_share]")).to_be_visible()

    page.get_by_role("link", name="Board").first.click()
    expect(page.locator(".board-standings tbody tr")).to_have_count(12)
    expect(page.locator(".board-ranking")).to_contain_text(leader["name"])
    page.get_by_role("link", name="Tournament overview").click()

    with page.expect_download() as download:
        page.get_by_role("link", name="Standings as CSV").click()
    text = download.value.path().read_text(encoding="utf-8-sig")
    table = list(csv.reader(io.StringIO(text)))
    names = {cell for row in table for cell in row}
    assert set(PLAYERS) <= names
    assert any(re.fullmatch(r"[Rr]ank", cell) for cell in table[0])
