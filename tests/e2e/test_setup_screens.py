"""The screens before and around the table, in chromium at 360×640 against a real server: the new
match form, the start screen's lists and the organiser's registration, each with the small
things a first evening with the app ran into.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import phone_in_use

pytestmark = pytest.mark.browser

# Fields whose placeholder is wider than the box it is typed in (the text would be cut off).
CUT_PLACEHOLDERS = """() => {
  const ruler = document.createElement('canvas').getContext('2d');
  return [...document.querySelectorAll('input[placeholder]')]
    .filter((input) => input.placeholder && input.checkVisibility())
    .filter((input) => {
      const style = getComputedStyle(input);
      ruler.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const padding = parseFloat(style.paddingLeft) + parseFloat(style.paddingRight);
      const room = input.clientWidth - padding;
      return ruler.measureText(input.placeholder).width > room + 0.5;
    })
    .map((input) => `${input.id}: ${input.placeholder}`);
}"""


def test_enter_in_a_name_goes_on_to_the_next_and_never_starts_the_match(
        phone: Any, server: Any) -> None:
    phone.open("#/new")
    page = phone.page
    first = page.get_by_label("Player 1", exact=True)
    first.fill("Ann")
    first.press("Enter")
    second = page.get_by_label("Player 2", exact=True)
    expect(second).to_be_focused()
    second.fill("Ben")
    second.press("Enter")  # the last name: the keyboard goes, the form stays
    expect(second).not_to_be_focused()
    assert page.url.endswith("#/new")
    expect(page.locator(".field-error")).to_have_count(0)
    page.get_by_role("button", name="Start match").click()
    expect(page.locator("form.entry-form")).to_be_visible()


@pytest.mark.parametrize("locale", ["en-US", "de-CH", "fr-CH", "it-CH"])
def test_no_option_placeholder_is_cut_off(browser: Any, server: Any, locale: str) -> None:
    with phone_in_use(browser, server, locale) as phone:
        for game in ("sea-change", "seven-seals", "tschau-sepp"):
            phone.open("#/new")
            phone.page.click(f"[data-value={game}]")
            assert phone.page.evaluate(CUT_PLACEHOLDERS) == [], game
        phone.open("#/t/new")
        assert phone.page.evaluate(CUT_PLACEHOLDERS) == []


def test_the_start_screen_counts_rounds_in_the_singular_and_plural(
        phone: Any, server: Any) -> None:
    made = server.post("/api/v1/matches", {"game": "sea-change", "players": ["Ann", "Ben", "Cid"]})
    server.post(f"/api/v1/matches/{made['id']}/rounds",
                {"final_trump": "red", "scores": [5, 2, 1], "trump_zero": 0}, made["token"])
    phone.open(f"#/m/{made['id']}?t={made['token']}")
    expect(phone.page.locator("form.entry-form")).to_be_visible()
    phone.open("#/")
    expect(phone.page.locator(".recent-match .note").first).to_have_text("1 round played")


def test_forgetting_a_match_asks_first_and_it_can_be_brought_back_with_its_edit_token(
        phone: Any, server: Any) -> None:
    made = server.post("/api/v1/matches", {"game": "tschau-sepp", "players": ["Ann", "Ben"]})
    phone.open(f"#/m/{made['id']}?t={made['token']}")
    expect(phone.page.locator("form.entry-form")).to_be_visible()
    phone.open("#/")
    page = phone.page
    listed = page.locator(".recent-match", has_text="Ann, Ben")
    expect(listed).to_have_count(1)
    page.get_by_role("button", name="Remove Tschau Sepp from this list").click()
    expect(page.get_by_text("Forget Tschau Sepp on this phone?")).to_be_visible()
    page.get_by_role("button", name="Keep").click()
    expect(listed).to_have_count(1)

    page.get_by_role("button", name="Remove Tschau Sepp from this list").click()
    page.get_by_role("button", name="Forget", exact=True).click()
    expect(page.locator("section .recent-match", has_text="Ann, Ben")).to_have_count(0)
    page.get_by_text("Recently forgotten (1)").click()
    page.get_by_role("button", name="Bring back Tschau Sepp").click()
    expect(page.locator("section .recent-match", has_text="Ann, Ben")).to_have_count(1)
    expect(page.locator(".forgotten")).to_be_hidden()
    # Its edit token came back with it: the round can be entered.
    page.locator(".recent-match", has_text="Ann, Ben").click()
    expect(page.get_by_role("button", name="Save game")).to_be_visible()


def test_registration_enter_clears_and_offers_clubs_and_players_can_be_corrected(
        phone: Any, server: Any) -> None:
    phone.open("#/t/new")
    page = phone.page
    page.get_by_label("Name of the tournament").fill("Club night")
    page.click("[data-path=game] [data-value=tschau-sepp]")
    page.get_by_role("button", name="Create tournament").click()
    expect(page.get_by_role("heading", name="Register a player")).to_be_visible()
    tournament = page.url.split("#/t/")[1].split("/")[0].split("?")[0]
    name = page.get_by_label("Name", exact=True)
    club = page.get_by_label("Club or team (optional)")

    # Enter registers from the name field too (issue 23; test_registration.py types twelve):
    # a club is typed before it, or Enter is pressed in the club field.
    name.fill("Ann")
    club.fill("Jass Club Bern")
    club.press("Enter")
    expect(page.locator(".player-list strong:text-is('Ann')")).to_be_visible()
    expect(name).to_have_value("")
    expect(club).to_have_value("")  # the next player has a club of their own, or none
    expect(page.locator("#tt-clubs option[value='Jass Club Bern']")).to_have_count(1)

    name.fill("Beb")
    page.get_by_role("button", name="Add player").click()
    expect(page.locator(".player-list strong:text-is('Beb')")).to_be_visible()
    page.get_by_role("button", name="Edit Beb").click()
    expect(page.get_by_label("Name", exact=True).last).to_be_focused()
    page.get_by_label("Name", exact=True).last.fill("Ben")
    page.get_by_label("Club or team (optional)").last.fill("Jass Club Bern")
    page.get_by_role("button", name="Save changes").click()
    expect(page.locator(".player-list strong:text-is('Ben')")).to_be_visible()
    players = server.get(f"/api/v1/tournaments/{tournament}")["players"]
    assert [(p["name"], p["club"]) for p in players] == [
        ("Ann", "Jass Club Bern"), ("Ben", "Jass Club Bern")]
