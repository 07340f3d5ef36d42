"""The club's money in the app, in chromium at 360×640 against a real server: an evening of
three club matches played for money (the first started on the new-match form with its stakes,
its winner screen saying who pays whom), the evening's Abrechnung, and a payment recorded in the
Kasse in two taps."""

from __future__ import annotations

import json
import re
import urllib.request
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Phone, Server

pytestmark = pytest.mark.browser

SAVED = 15000  # a save goes through the outbox, the API and the winner's reads (see test_clubs)


def change_club(server: Server, club: dict[str, Any], body: Any) -> None:
    request = urllib.request.Request(
        f"{server.base}/api/v1/clubs/{club['id']}", data=json.dumps(body).encode(),
        method="PATCH", headers={"Content-Type": "application/json",
                                 "Authorization": f"Bearer {club['token']}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200


def played(server: Server, club: dict[str, Any], players: list[str], penalties: list[int],
           stakes: dict[str, str]) -> None:
    """A club match of one Tschau Sepp game with these stakes, finished on another phone."""
    match = server.post("/api/v1/matches", {
        "game": "tschau-sepp", "players": players, "options": {"games": 1},
        "club": club["id"], "stakes": stakes}, club["token"])
    server.post(f"/api/v1/matches/{match['id']}/rounds",
                {"winner": penalties.index(0), "penalty": penalties}, match["token"])


def said(locator: Any) -> str:
    """The text as a person reads it: spaces (no-break ones too) as one."""
    return re.sub(r"\s+", " ", locator.inner_text().replace("\xa0", " ")).strip()


def test_an_evening_for_money_its_settlement_and_a_payment_into_the_kasse(
        phone: Phone, server: Server) -> None:
    club = server.post("/api/v1/clubs", {"name": "Jassrunde"})
    change_club(server, club, {"stakes": {"tschau-sepp": {"currency": "CHF", "per_point": "0.05"}}})
    page = phone.page
    phone.open(f"#/c/{club['id']}?t={club['token']}&v={club['view_token']}")
    expect(page.locator(".club-head h1")).to_contain_text("Jassrunde")

    # The first match on the form: the club's default is shown and filled in.
    phone.open(f"#/c/{club['id']}/new")
    page.click("[data-value=tschau-sepp]")
    expect(page.locator("#stakes-on")).to_be_checked()
    expect(page.locator("#stakes-hint")).to_contain_text("CHF\xa00.05 a point")
    expect(page.locator("#stakes-per_point")).to_have_value("0.05")
    page.get_by_role("button", name="Add player").click()
    for seat, name in enumerate(["Ann", "Bea", "Cem"]):
        page.get_by_label(f"Player {seat + 1}", exact=True).fill(name)
    page.fill("#opt-games", "1")
    page.get_by_role("button", name="Start match").click()
    expect(page.locator("form.entry-form")).to_be_visible()
    page.locator("[data-path=winner] [role=radio]", has_text="Ann").click()
    page.get_by_role("radio", name="Points", exact=True).click()
    page.get_by_label("Penalty points of Bea", exact=True).fill("7")
    page.get_by_label("Penalty points of Cem", exact=True).fill("13")
    page.get_by_role("button", name="Save game").click()
    expect(page.locator("#winner-names")).to_have_text("Ann wins!", timeout=SAVED)
    transfers = page.locator("#settlement .transfer")
    expect(transfers).to_have_count(2)
    assert [said(transfers.nth(i)) for i in range(2)] == [
        "Bea → pays Ann CHF 0.05", "Cem → pays Ann CHF 0.95"]
    size = transfers.first.evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
    assert size >= 20  # big type, readable across the table

    # Two more matches of the evening, finished on other phones.
    played(server, club, ["Ann", "Bea"], [0, 4],
           {"currency": "CHF", "per_point": "0.10", "per_match_lost": "0.50"})
    played(server, club, ["Bea", "Cem"], [0, 4], {"currency": "CHF", "per_point": "0.05"})

    # Tonight's Abrechnung.
    phone.open(f"#/c/{club['id']}")
    page.get_by_role("link", name="Settle up").click()
    chf = page.locator(".settlement [data-currency=CHF]")
    expect(chf.locator(".transfer")).to_have_count(2, timeout=SAVED)
    assert [said(chf.locator(".transfer").nth(i)) for i in range(2)] == [
        "Bea → pays Ann CHF 0.25", "Cem → pays Ann CHF 1.15"]
    expect(chf.locator(".pot")).to_contain_text("0.50")
    expect(page.locator(".settlement")).to_contain_text("3 matches played for money")
    bea = chf.locator("tbody tr", has_text="Bea").locator("td")
    assert [text.strip() for text in bea.all_inner_texts()] == ["Bea", "1.25", "0.50", "-0.75"]

    # The Kasse: Bea owes the pot the fee for her lost match; two taps record it.
    page.get_by_role("link", name="Pot").click()
    line = page.locator(".kasse-line.owing", has_text="Bea")
    expect(line).to_contain_text("still owes CHF\xa00.50", timeout=SAVED)
    expect(page.locator(".kasse h3")).to_have_text("CHF\xa00.00 in the pot")
    line.get_by_role("button", name="Bea paid CHF\xa00.50").click()
    confirm = page.locator("form.pay-confirm")
    expect(confirm.get_by_label("Bea paid (CHF)")).to_have_value("0.50")
    confirm.get_by_role("button", name="Confirm payment").click()
    expect(page.locator(".kasse h3")).to_have_text("CHF\xa00.50 in the pot", timeout=SAVED)
    expect(page.locator(".kasse-line.owing")).to_have_count(0)
    payments = page.locator(".payments li[data-payment]")
    expect(payments).to_have_count(1)
    expect(payments.first).to_contain_text("Bea · CHF\xa00.50")
    kasse = server.get(f"/api/v1/clubs/{club['id']}/kasse", club["view_token"])
    assert kasse["currencies"][0]["balance"] == "0.50"
    assert [(m["player"], m["due"]) for m in kasse["currencies"][0]["members"]] == [
        (2, "0.00")]
