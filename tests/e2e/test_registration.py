"""Registration at typing speed (issue 23, item 3): twelve names typed one after the other, each
ended with Enter in the name field and without waiting for anything, register twelve players
with exactly those names; the field is empty for the next name at once."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_tournament import PLAYERS, create_tournament

pytestmark = pytest.mark.browser

# Chläus and Käthi: the names the issue saw merged, typed as a phone's keyboard sends them.
NAMES = ["Chläus", "Dora", "Erwin", "Gusti", "Heidi", "Iris", "Jakob", "Luzi", "Käthi",
         *PLAYERS[:3]]


def test_twelve_names_typed_quickly_are_twelve_players(phone: Any, server: Any) -> None:
    tournament = create_tournament(phone)
    page = phone.page
    name = page.get_by_label("Name", exact=True)
    name.click()
    for typed in NAMES:
        page.keyboard.type(typed, delay=15)
        page.keyboard.press("Enter")
        expect(name).to_have_value("")  # at once, while the name is still on its way
        expect(name).to_be_focused()
    expect(page.get_by_role("heading", name="Players (12 active)")).to_be_visible()
    shown = page.locator(".player-list [data-player] strong").all_inner_texts()
    assert sorted(shown) == sorted(NAMES)
    registered = server.get(f"/api/v1/tournaments/{tournament}")["players"]
    assert [(player["name"], player["club"]) for player in registered] == [
        (typed, None) for typed in NAMES]
    expect(page.locator(".register .field-error")).to_have_count(0)


def test_a_refused_name_typed_quickly_is_named_and_the_next_one_kept(
        phone: Any, server: Any) -> None:
    """The second "Dora" is refused while the next name is already being typed: the refusal
    names Dora, and the field keeps what is being typed."""
    tournament = create_tournament(phone)
    page = phone.page
    name = page.get_by_label("Name", exact=True)
    name.click()
    for typed in ("Dora", "Dora"):
        page.keyboard.type(typed, delay=15)
        page.keyboard.press("Enter")
    page.keyboard.type("Erw", delay=15)
    expect(page.locator(".register .form-errors")).to_contain_text("Not registered: Dora.")
    expect(page.locator(".register .form-errors")).to_contain_text("already registered")
    expect(name).to_have_value("Erw")
    page.keyboard.type("in", delay=15)
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", name="Players (2 active)")).to_be_visible()
    registered = server.get(f"/api/v1/tournaments/{tournament}")["players"]
    assert [player["name"] for player in registered] == ["Dora", "Erwin"]
