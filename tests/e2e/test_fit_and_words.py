"""Issue 23, items 4–15: what a new user at a 360×640 phone noticed, each shown fixed in chromium
against a real server, in the languages where the words matter.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import PHONES, Server, phone_in_use
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
            bar = page.locator(".action-bar").bounding_box()
            assert page.evaluate(FORM_BOTTOM) <= bar["y"], (locale, rounds)


def test_the_saved_toast_covers_no_field_of_the_round_that_opens(phone: Any, server: Server) -> None:
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
