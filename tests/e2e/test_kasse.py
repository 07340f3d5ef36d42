"""The club's money in the app, in chromium at 360×640 against a real server: an evening of
three club matches played for money (the first started on the new-match form with its stakes,
its winner screen saying who pays whom), the evening's Abrechnung, and a payment recorded in the
Kasse in two taps; the form's stakes switched off for a game the club has no default for; the
Abrechnung of other periods; both screens as CSV and on A4; and both in German, French and
Italian."""

from __future__ import annotations

import json
import re
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Phone, Server
from tests.e2e.test_languages import CATALOGUES, WORDS, english_on_screen, words
from tests.e2e.test_seasons import open_club

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
           stakes: dict[str, str], day: str | None = None) -> None:
    """A club match of one Tschau Sepp game with these stakes, finished on another phone:
    tonight, or on that day of November 2026 (``"05"``)."""
    when = {"played_at": f"2026-11-{day}T20:00:00+01:00"} if day else {}
    match = server.post("/api/v1/matches", {
        "game": "tschau-sepp", "players": players, "options": {"games": 1},
        "club": club["id"], "stakes": stakes, **when}, club["token"])
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


FIVE_RAPPEN = {"currency": "CHF", "per_point": "0.05"}
TEN_AND_A_FEE = {"currency": "CHF", "per_point": "0.10", "per_match_lost": "0.50"}


def test_the_stakes_are_off_for_a_game_the_club_has_no_default_for_and_none_are_sent(
        phone: Phone, server: Server) -> None:
    club = server.post("/api/v1/clubs", {"name": "Jassrunde"})
    change_club(server, club, {"stakes": {"seven-seals": {"currency": "EUR", "per_point": "0.20"}}})
    page = phone.page
    open_club(phone, club, "/new")
    page.click("[data-value=tschau-sepp]")
    switch = page.locator("#stakes-on")
    expect(switch).not_to_be_checked()
    expect(page.locator("#stakes-hint")).to_have_text(
        "Each player pays every better one so much per point of difference.")
    expect(page.locator("#stakes-per_point")).to_have_count(0)
    # The game with a default switches them on; back to Tschau Sepp, they are off again.
    page.click("[data-value=seven-seals]")
    expect(switch).to_be_checked()
    page.click("[data-value=tschau-sepp]")
    expect(switch).not_to_be_checked()
    expect(page.get_by_label("Player 3", exact=True)).to_be_visible()  # as many as the Seals seat
    expect(page.get_by_label("Player 4", exact=True)).to_have_count(0)
    for seat, name in enumerate(["Ann", "Bea", "Cem"]):
        page.get_by_label(f"Player {seat + 1}", exact=True).fill(name)
    page.fill("#opt-games", "1")
    with page.expect_request(lambda request: request.method == "POST"
                             and request.url.endswith("/api/v1/matches")) as sent:
        page.get_by_role("button", name="Start match").click()
    body = sent.value.post_data_json
    assert body["club"] == club["id"]
    assert "stakes" not in body  # not even stakes of nothing: the club has none to switch off
    expect(page.locator("form.entry-form")).to_be_visible()
    match_id = page.evaluate("() => location.hash").split("/")[2]
    assert server.get(f"/api/v1/matches/{match_id}")["stakes"] is None


def transfers_said(page: Any) -> list[str]:
    lines = page.locator(".settlement [data-currency=CHF] .transfer")
    return [said(lines.nth(i)) for i in range(lines.count())]


def test_the_abrechnung_of_a_chosen_period_and_back_to_tonight(
        phone: Phone, server: Server) -> None:
    """Bea pays Ann 0.40 on 5 November, Cem pays Ann 0.15 on the 12th, and tonight Cem pays Bea
    0.20."""
    club = server.post("/api/v1/clubs", {"name": "Jassrunde"})
    played(server, club, ["Ann", "Bea"], [0, 4], TEN_AND_A_FEE, day="05")
    played(server, club, ["Ann", "Cem"], [0, 3], FIVE_RAPPEN, day="12")
    played(server, club, ["Bea", "Cem"], [0, 4], FIVE_RAPPEN)
    page = phone.page
    open_club(phone, club, "/settlement")
    title = page.locator(".settlement h2")
    expect(title).to_contain_text("evening of")
    expect(page.locator(".settlement [data-currency=CHF] .transfer")).to_have_count(1)
    assert transfers_said(page) == ["Cem → pays Bea CHF 0.20"]

    with page.expect_response(lambda r: "from=2026-11-01" in r.url and "to=2026-11-30" in r.url):
        page.fill("#settle-from", "2026-11-01")
        page.fill("#settle-to", "2026-11-30")
    expect(title).to_have_text("Who pays whom: Nov 1, 2026 to Nov 30, 2026")
    expect(page.locator(".settlement")).to_contain_text("2 matches played for money")
    assert transfers_said(page) == ["Bea → pays Ann CHF 0.40", "Cem → pays Ann CHF 0.15"]
    expect(page.locator(".settlement .pot")).to_contain_text("0.50")

    page.fill("#settle-to", "")  # open towards tonight: all three evenings
    expect(title).to_have_text("Who pays whom: since Nov 1, 2026")
    expect(page.locator(".settlement")).to_contain_text("3 matches played for money")
    assert transfers_said(page) == ["Bea → pays Ann CHF 0.20", "Cem → pays Ann CHF 0.35"]

    page.get_by_role("button", name="Tonight").click()
    expect(title).to_contain_text("evening of")
    expect(page.locator(".settlement")).to_contain_text("1 match played for money")
    expect(page.locator("#settle-from")).to_have_value("")
    expect(page.locator("#settle-to")).to_have_value("")
    assert transfers_said(page) == ["Cem → pays Bea CHF 0.20"]
    expect(page.locator(".settlement .pot")).to_have_count(0)


def csv_rows(page: Any, button: str, name: str) -> list[list[str]]:
    """The rows of the CSV the button downloads (the phone's layout: commas, decimal points)."""
    with page.expect_download() as download:
        page.get_by_role("button", name=button).click()
    saved = download.value
    assert saved.suggested_filename == name
    text = Path(saved.path()).read_text(encoding="utf-8-sig")
    return [row.split(",") for row in text.splitlines()]


def an_evening_with_a_payment(server: Server) -> tuple[dict[str, Any], dict[str, int]]:
    """Tonight: Bea pays Ann 0.40 and the pot 0.50, Cem pays Ann 0.30 and the pot 0.50; Cem paid
    0.20 into the pot on account."""
    club = server.post("/api/v1/clubs", {"name": "Jassrunde"})
    played(server, club, ["Ann", "Bea"], [0, 4], TEN_AND_A_FEE)
    played(server, club, ["Ann", "Cem"], [0, 3], TEN_AND_A_FEE)
    members = {m["name"]: m["id"] for m in
               server.get(f"/api/v1/clubs/{club['id']}", club["token"])["players"]}
    server.post(f"/api/v1/clubs/{club['id']}/payments", {
        "player": members["Cem"], "amount": "0.20", "currency": "CHF", "note": "a conto"},
        club["token"])
    return club, members


def test_the_abrechnung_and_the_kasse_download_as_csv_and_print_on_a4(
        phone: Phone, server: Server) -> None:
    club, members = an_evening_with_a_payment(server)
    page = phone.page
    open_club(phone, club, "/settlement")
    chf = page.locator(".settlement [data-currency=CHF]")
    expect(chf.locator(".transfer")).to_have_count(2)
    rows = csv_rows(page, "Download CSV", f"club-{club['id']}-settlement.csv")
    assert rows[0] == ["Currency", "Member no.", "Name", "Pays", "Receives", "Net"]
    assert ["CHF", str(members["Bea"]), "Bea", "0.90", "0.00", "-0.90"] in rows
    assert ["CHF", "Bea", "Ann", "0.40"] in rows
    assert ["CHF", "", "Into the pot", "1.00"] in rows
    # A4: the transfers and the table, without the tabs, the date fields and the buttons.
    page.emulate_media(media="print")
    expect(page.locator(".club-head .tabs")).to_be_hidden()
    expect(page.locator(".settlement .filters")).to_be_hidden()
    expect(page.get_by_role("button", name="Download CSV")).to_be_hidden()
    expect(page.get_by_role("button", name="Print (A4)")).to_be_hidden()
    expect(chf.locator(".transfer").first).to_be_visible()
    expect(chf.locator("table")).to_be_visible()
    expect(chf.locator(".pot")).to_be_visible()
    size = chf.locator(".transfer").first.evaluate(
        "el => parseFloat(getComputedStyle(el).fontSize)")
    assert abs(size - 14 * 96 / 72) < 0.1  # 14 pt on paper
    page.emulate_media(media="screen")

    open_club(phone, club, "/kasse")
    owing = page.locator(".kasse-line.owing")
    expect(owing).to_have_count(2)
    rows = csv_rows(page, "Download CSV", f"club-{club['id']}-kasse.csv")
    assert rows[0] == ["Currency", "Member no.", "Name", "Owes the pot", "Paid", "Still due"]
    assert rows[1:] == [["CHF", str(members["Bea"]), "Bea", "0.50", "0.00", "0.50"],
                        ["CHF", str(members["Cem"]), "Cem", "0.50", "0.20", "0.30"],
                        ["CHF", "", "In the pot", "", "", "0.20"]]
    owing.first.get_by_role("button").click()  # the first tap opens the confirmation
    expect(page.locator("form.pay-confirm")).to_be_visible()
    page.emulate_media(media="print")
    expect(page.locator(".club-head .tabs")).to_be_hidden()
    expect(page.locator("form.pay-confirm")).to_be_hidden()
    expect(page.locator(".kasse-line .pay")).to_have_count(2)
    for button in page.locator(".kasse-line .pay").all():
        expect(button).to_be_hidden()
    expect(page.locator("form.pay-form")).to_be_hidden()
    expect(page.get_by_role("button", name="Reverse")).to_be_hidden()
    expect(page.get_by_role("button", name="Download CSV")).to_be_hidden()
    expect(page.locator(".kasse h3")).to_have_text("CHF\xa00.20 in the pot")
    expect(owing.nth(1)).to_contain_text("still owes CHF\xa00.30")
    expect(page.locator(".payments li[data-payment]")).to_contain_text("Cem · CHF\xa00.20")
    page.emulate_media(media="screen")
    expect(page.locator("form.pay-confirm")).to_be_visible()


# A catalogue key as the app shows it when its string is missing: "kasse.pays", "club.member".
KEY = re.compile(r"\b(?:{})\.[a-z0-9_-]+(?:\.[a-z0-9_-]+)*\b".format("|".join(sorted(
    {key.split(".")[0] for catalogue in CATALOGUES.values() for key in catalogue}))))


def keys_on_screen(page: Any) -> list[str]:
    """Catalogue keys shown instead of their words (a string missing from the catalogue)."""
    return sorted({key for text, _ in page.evaluate(WORDS) for key in KEY.findall(text)})


def test_the_abrechnung_and_the_kasse_speak_the_phones_language(
        server: Server, local_phone: Phone, lang: str) -> None:
    club, _ = an_evening_with_a_payment(server)
    page = local_phone.page
    open_club(local_phone, club, "/settlement")
    expect(page.locator(".settlement [data-currency=CHF] .transfer")).to_have_count(2)
    expect(page.locator(".settlement [data-currency=CHF] tbody tr")).to_have_count(3)
    expect(page.locator(".settlement .pot")).to_be_visible()
    assert english_on_screen(page, lang) == []
    assert keys_on_screen(page) == []

    open_club(local_phone, club, "/kasse")
    expect(page.locator(".kasse-line.owing")).to_have_count(2)
    expect(page.locator(".payments li[data-payment]")).to_have_count(1)
    assert english_on_screen(page, lang) == []
    assert keys_on_screen(page) == []
    page.locator(".kasse-line.owing .pay").first.click()
    confirm = page.locator("form.pay-confirm")
    expect(confirm.get_by_role("button", name=words(lang, "kasse.confirm"))).to_be_visible()
    assert english_on_screen(page, lang) == []
    assert keys_on_screen(page) == []
