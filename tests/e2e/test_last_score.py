"""A Sea Change round whose last score is left to the checksum (issue 23, item 2): offline, and
online when Save comes before the guide's answer, the phone fills it from the checksum that
/games publishes, as the guide fills it online, so no round is queued incomplete and refused
later; an error said about the empty field goes once it is filled."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_pwa import api_match
from tests.e2e.test_sync import wait_until_kept

pytestmark = pytest.mark.browser

PLAYERS = ["Ann", "Ben", "Cid", "Dan"]


def four_players(server: Any) -> tuple[str, str, int]:
    made = server.post("/api/v1/matches", {"game": "sea-change", "players": PLAYERS})
    games = server.get("/api/v1/games")
    checksum = next(g for g in games if g["id"] == "sea-change")["decks"]["4"]["checksum"]
    return made["id"], made["token"], checksum


def offline_at_four_players(phone: Any, server: Any) -> tuple[str, int]:
    """A four-player match opened on the phone, kept by its service worker, then offline: its
    id and the deck's checksum."""
    match, token, checksum = four_players(server)
    phone.open(f"#/m/{match}?t={token}")
    phone.wait_for_service_worker()
    wait_until_kept(phone.page, f"/api/v1/matches/{match}")
    phone.context.set_offline(True)
    return match, checksum


def type_three(page: Any, scores: tuple[int, int, int]) -> None:
    page.click("[data-path=final_trump] [data-value=red]")
    for name, points in zip(PLAYERS, scores, strict=False):
        page.get_by_label(f"Points of {name}").fill(str(points))
    page.click("[data-path=trump_zero] [data-value='0']")



def saves_the_filled_round(page: Any, server: Any, match: str, checksum: int) -> None:
    """Dan's score filled from the checksum, no error is left under any field once the
    guide's live check has spoken, and Save stores 3, 2, 1 and the rest as round 1."""
    expect(page.locator("[data-error-path='scores[3]']")).to_have_count(0)
    time.sleep(0.3)  # the guide's live check has spoken about the filled round
    expect(page.locator(".entry-form .field-error")).to_have_count(0)
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".entry-head h2")).to_contain_text("Round 2")
    assert [r["entry"]["scores"] for r in api_match(server, match)["rounds"]] == [
        [3, 2, 1, checksum - 6]]

def test_offline_the_fourth_score_is_filled_from_the_checksum_and_sent_whole(
        phone: Any, server: Any) -> None:
    match, checksum = offline_at_four_players(phone, server)
    page = phone.page
    type_three(page, (3, 2, 1))
    expect(page.get_by_label("Points of Dan")).to_have_value(str(checksum - 6))
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".pending-round")).to_have_text("Round 1: waiting to be sent")

    phone.context.set_offline(False)
    expect(page.locator(".pending-round")).to_have_count(0, timeout=15000)
    expect(page.locator(".rejected")).to_have_count(0)
    rounds = api_match(server, match)["rounds"]
    assert [r["entry"]["scores"] for r in rounds] == [[3, 2, 1, checksum - 6]]


def test_save_before_the_guide_answers_sends_the_filled_score(phone: Any, server: Any) -> None:
    match, token, checksum = four_players(server)
    phone.open(f"#/m/{match}?t={token}")
    page = phone.page
    # The guide never answers in time (a slow network): Save comes first.
    page.route("**/guide", lambda route: route.abort())
    type_three(page, (4, 0, 2))
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".entry-head h2")).to_contain_text("Round 2")
    rounds = api_match(server, match)["rounds"]
    assert [r["entry"]["scores"] for r in rounds] == [[4, 0, 2, checksum - 6]]


def test_an_error_about_the_empty_last_score_goes_once_it_is_filled(
        phone: Any, server: Any) -> None:
    """A round refused while its last score was empty comes back with the error at the field;
    the fill takes the error away and Save stores the round."""
    match, token, checksum = four_players(server)
    phone.open(f"#/m/{match}?t={token}")
    page = phone.page
    page.click("[data-path=final_trump] [data-value=red]")
    page.get_by_label("Points of Ann").fill("3")
    page.get_by_label("Points of Ben").fill("2")
    page.click("[data-path=trump_zero] [data-value='0']")
    page.get_by_role("button", name="Save round").click()  # two scores missing: refused
    expect(page.locator("[data-error-path='scores[3]']")).to_be_visible()
    page.get_by_label("Points of Cid").fill("1")
    expect(page.get_by_label("Points of Dan")).to_have_value(str(checksum - 6))
    saves_the_filled_round(page, server, match, checksum)


def test_offline_a_round_missing_scores_is_not_queued_and_says_which(
        phone: Any, server: Any) -> None:
    match, checksum = offline_at_four_players(phone, server)
    page = phone.page
    page.click("[data-path=final_trump] [data-value=red]")
    page.get_by_label("Points of Ann").fill("3")
    page.get_by_role("button", name="Save round").click()
    for side, name in enumerate(PLAYERS[1:], start=1):
        expect(page.locator(f"[data-error-path='scores[{side}]']")).to_have_text(
            f"Enter the points of {name}.")
    expect(page.locator("[data-error-path=trump_zero]")).to_have_text("Tap who took the trump 0.")
    expect(page.locator(".pending-round")).to_have_count(0)

    page.get_by_label("Points of Ben").fill("2")
    page.get_by_label("Points of Cid").fill("1")
    page.click("[data-path=trump_zero] [data-value='0']")
    expect(page.get_by_label("Points of Dan")).to_have_value(str(checksum - 6))
    expect(page.locator(".entry-form .field-error")).to_have_count(0)
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".pending-round")).to_have_text("Round 1: waiting to be sent")
    phone.context.set_offline(False)
    expect(page.locator(".pending-round")).to_have_count(0, timeout=15000)
    assert [r["entry"]["scores"] for r in api_match(server, match)["rounds"]] == [
        [3, 2, 1, checksum - 6]]


@pytest.mark.parametrize("guide", ["answers", "unreachable"])
def test_a_round_refused_on_reconnect_comes_back_to_be_fixed_and_saved(
        phone: Any, server: Any, guide: str) -> None:
    """The reported path: a round queued offline without its last score (as the app queued it
    before it filled that score or refused to queue) is refused on reconnect. "Fix it" brings
    the form back with what was typed, the missing score as an empty field (not "null") with the
    API's error under it, until the score is filled, by the guide's answer or, when the guide
    cannot be reached, from the checksum: then the error goes and Save stores the round."""
    match, checksum = offline_at_four_players(phone, server)
    page = phone.page
    # The outbox item as an older app queued it: no version, no round number, Dan's score null.
    page.evaluate("""async (matchId) => {
      const [outbox, store] = await Promise.all([import('/js/outbox.js'), import('/js/store.js')]);
      await outbox.enqueue({ matchId, token: store.writeToken(matchId), body: {
        final_trump: 'red', scores: [3, 2, 1, null], trump_zero: 0 } });
    }""", match)
    expect(page.locator(".pending-round")).to_have_text("Round 1: waiting to be sent")

    phone.context.set_offline(False)
    refused = page.locator(".rejected")
    expect(refused).to_contain_text("A round was not accepted:", timeout=15000)
    expect(page.locator(".pending-round")).to_have_count(0)
    assert api_match(server, match)["rounds"] == []

    # The guide is held on its way, so the form is seen as it comes back, before it is filled.
    held: list[Any] = []
    holding = [True]
    phone.context.route("**/guide*", lambda route: held.append(route) if holding[0]
                        else route.continue_())
    refused.get_by_role("button", name="Fix it").click()
    expect(refused).to_have_count(0)
    for name, value in zip(PLAYERS, ("3", "2", "1", ""), strict=True):
        expect(page.get_by_label(f"Points of {name}")).to_have_value(value)
    expect(page.locator("[data-path=final_trump] [data-value=red]")).to_have_attribute(
        "aria-checked", "true")
    dan_error = page.locator("[data-error-path='scores[3]']")
    expect(dan_error).to_be_visible()

    deadline = time.monotonic() + 15
    while not held:  # Playwright calls the handler while the page is waited on
        assert time.monotonic() < deadline, "the form never asked its guide"
        page.wait_for_timeout(50)
    expect(page.get_by_label("Points of Dan")).to_have_value("")
    expect(dan_error).to_be_visible()
    holding[0] = False
    for route in held:
        if guide == "answers":
            route.continue_()
        else:
            route.abort()
    expect(page.get_by_label("Points of Dan")).to_have_value(str(checksum - 6))
    saves_the_filled_round(page, server, match, checksum)
