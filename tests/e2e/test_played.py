"""When and where a club's match was played, and members added before they play, in chromium at
360×640 against a real server: a sheet typed in later gets its evening from the date-time picker
and its place from the box that offers this phone's earlier places; both show on the match and in
the club's history. A pasted list adds each name once, and says who was a member already.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Phone, Server

pytestmark = pytest.mark.browser

SAVED = 15000


def club_on_this_phone(phone: Phone, server: Server) -> dict[str, Any]:
    """A new club whose token this phone holds (a member's phone)."""
    club: dict[str, Any] = server.post("/api/v1/clubs", {"name": "Jassrunde"})
    phone.open("#/")
    phone.page.evaluate(
        "entry => localStorage.setItem('tafelrunde.clubs', JSON.stringify([entry]))",
        {"id": club["id"], "name": club["name"], "token": club["token"],
         "view": club["view_token"]})
    return club


def fits_the_phone(page: Any) -> None:
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360


def test_a_sheet_typed_in_later_keeps_its_evening_and_place(
        phone: Phone, server: Server) -> None:
    page = phone.page
    club = club_on_this_phone(phone, server)
    phone.open(f"#/c/{club['id']}/new")
    page.click("[data-value=tschau-sepp]")
    page.get_by_label("Player 1", exact=True).fill("Ann")
    page.get_by_label("Player 2", exact=True).fill("Ben")
    played_now = page.get_by_label("Played now")
    expect(played_now).to_be_checked()
    expect(page.locator("#played-at")).to_have_count(0)
    played_now.uncheck()
    picker = page.locator("#played-at")
    expect(picker).to_be_focused()
    expect(picker).to_have_attribute("type", "datetime-local")
    picker.fill("2026-11-20T20:30")
    page.get_by_label("Where (optional)").fill(" Rössli ")
    fits_the_phone(page)
    page.fill("#opt-games", "1")
    page.get_by_role("button", name="Start match").click()
    expect(page.locator("form.entry-form")).to_be_visible(timeout=SAVED)
    expect(page.locator(".match-head .played")).to_have_count(0)  # the round has the room
    page.get_by_role("link", name="Standings").click()
    expect(page.locator(".match-head .played")).to_contain_text("Nov 20, 2026")
    expect(page.locator(".match-head .played")).to_contain_text("Rössli")
    fits_the_phone(page)

    match_id = page.evaluate("() => location.hash.split('/')[2]")
    match = server.get(f"/api/v1/matches/{match_id}", club["token"])
    assert match["played_at"] == page.evaluate(
        "() => new Date('2026-11-20T20:30').toISOString()").replace(".000Z", "Z")
    assert match["location"] == "Rössli"

    phone.open(f"#/c/{club['id']}/history")
    entry = page.locator(f".club-history li[data-entry='{match_id}']")
    expect(entry.locator("time.evening")).to_have_attribute("datetime", "2026-11-20")
    expect(entry).to_contain_text("Nov 20, 2026")
    expect(entry).to_contain_text("Rössli")

    # The next match offers the place again; "now" is the default again.
    phone.open(f"#/c/{club['id']}/new")
    expect(page.get_by_label("Played now")).to_be_checked()
    places = page.locator("#known-places option")
    expect(places).to_have_count(1)
    expect(places.first).to_have_attribute("value", "Rössli")
    expect(page.get_by_label("Where (optional)")).to_have_attribute("list", "known-places")


def test_a_moment_in_the_future_is_refused_at_the_picker(phone: Phone, server: Server) -> None:
    page = phone.page
    club = club_on_this_phone(phone, server)
    phone.open(f"#/c/{club['id']}/new")
    page.click("[data-value=tschau-sepp]")
    page.get_by_label("Player 1", exact=True).fill("Ann")
    page.get_by_label("Player 2", exact=True).fill("Ben")
    page.get_by_label("Played now").uncheck()
    page.locator("#played-at").fill("2099-01-01T20:00")
    page.get_by_role("button", name="Start match").click()
    error = page.locator("[data-path=played_at] + .field-error")
    expect(error).to_contain_text("future")
    expect(page.locator("#played-at")).to_have_attribute("aria-invalid", "true")


def test_members_are_added_from_a_pasted_list_before_they_play(
        phone: Phone, server: Server) -> None:
    page = phone.page
    club = club_on_this_phone(phone, server)
    phone.open(f"#/c/{club['id']}")
    expect(page.locator(".members")).to_contain_text("No members yet")
    page.get_by_label("Or paste a list: one name per line").fill(
        "Ann\nben\n\n  ann \nCid\nBEN\n")
    fits_the_phone(page)
    page.get_by_role("button", name="Add the list").click()
    members = page.locator(".members li[data-member]")
    expect(members).to_have_count(3, timeout=SAVED)
    expect(page.locator(".members")).to_contain_text("Ann")
    expect(page.locator(".members")).to_contain_text("ben")
    expect(page.locator(".members")).to_contain_text("Cid")
    expect(page.get_by_text("3 members added")).to_be_visible()
    expect(page.get_by_label("Or paste a list: one name per line")).to_have_value("")

    page.get_by_label("New member").fill("BEN")
    page.get_by_role("button", name="Add", exact=True).click()
    expect(page.get_by_text("1 was a member already")).to_be_visible(timeout=SAVED)
    expect(members).to_have_count(3)

    page.get_by_label("New member").fill("Dora")
    page.get_by_label("New member").press("Enter")
    expect(members).to_have_count(4, timeout=SAVED)

    page.get_by_label("Or paste a list: one name per line").fill("Emil\n" + "x" * 41)
    page.get_by_role("button", name="Add the list").click()
    expect(page.locator("[data-path=paste] + .field-error")).to_contain_text("x" * 41)
    expect(members).to_have_count(4)
    stored = server.get(f"/api/v1/clubs/{club['id']}", club["token"])
    assert sorted(m["name"] for m in stored["players"]) == ["Ann", "Cid", "Dora", "ben"]
    assert json.dumps(stored).count("Emil") == 0
