"""Two phones on one round (issue 23, item 1): the round a phone is typing is about the hand it
was drawn for. When another phone saved that round meanwhile, Save is refused (If-Match), the
phone shows what the other phone saved and lets the player keep the numbers as the next round or
drop them; a round waiting offline asks the same when it meets a changed match, and a resend
whose answer was lost is still answered as sent."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.test_pwa import api_match, new_api_match, points_round, save_typed_round

pytestmark = pytest.mark.browser


def type_round(page: Any, ann: int, ben: int) -> None:
    """Ann's and Ben's points of a Sea Change round (yellow the final trump); Cid's is filled."""
    page.click("[data-path=final_trump] [data-value=yellow]")
    page.get_by_label("Points of Ann").fill(str(ann))
    page.get_by_label("Points of Ben").fill(str(ben))
    page.click("[data-path=trump_zero] [data-value='0']")


def scores(server: Any, match: str) -> list[list[int]]:
    return [r["entry"]["scores"] for r in api_match(server, match)["rounds"]]


def test_a_round_another_phone_saved_first_is_asked_about_not_stored_twice(
        phone: Any, server: Any) -> None:
    match, token = new_api_match(server)
    phone.open(f"#/m/{match}?t={token}")
    page = phone.page
    type_round(page, 5, 2)
    expect(page.get_by_label("Points of Cid")).to_have_value("1")
    # The other phone saves round 1 while this one is still typing it.
    server.post(f"/api/v1/matches/{match}/rounds", points_round(1, 5, 2), token)
    expect(page.locator(".summary [data-total=vp]").first).to_be_visible()
    expect(page.locator(".entry-head h2")).to_contain_text("Round 1")
    page.get_by_role("button", name="Save round").click()

    question = page.locator(".stale")
    expect(question).to_contain_text("Round 1 was saved on another phone in the meantime:")
    expect(question.locator(".their-round")).to_contain_text("Ann 1 · Ben 5 ★ · Cid 2")
    expect(page.locator("form.entry-form")).to_have_count(0)
    assert scores(server, match) == [[1, 5, 2]]

    # Keep: the numbers come back as round 2, to be checked and saved.
    page.get_by_role("button", name="Keep my numbers as round 2").click()
    expect(page.locator(".stale")).to_have_count(0)
    expect(page.locator(".entry-head h2")).to_contain_text("Round 2")
    expect(page.get_by_label("Points of Ann")).to_have_value("5")
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".entry-head h2")).to_contain_text("Round 3")
    assert scores(server, match) == [[1, 5, 2], [5, 2, 1]]

    # Drop: nothing of it is stored, and the next round's form is empty.
    type_round(page, 0, 6)
    server.post(f"/api/v1/matches/{match}/rounds", points_round(2, 2, 4), token)
    expect(page.locator("[data-total=vp]").first).to_be_visible()
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".stale .their-round")).to_contain_text("Round 3")
    page.get_by_role("button", name="Drop my numbers").click()
    expect(page.locator(".entry-head h2")).to_contain_text("Round 4")
    expect(page.get_by_label("Points of Ann")).to_have_value("")
    assert scores(server, match) == [[1, 5, 2], [5, 2, 1], [2, 2, 4]]


def test_a_round_waiting_offline_asks_when_the_match_moved_on(phone: Any, server: Any) -> None:
    match, token = new_api_match(server)
    phone.open(f"#/m/{match}?t={token}")
    phone.wait_for_service_worker()
    page = phone.page
    phone.context.set_offline(True)
    save_typed_round(page, (4, 3, 1), trump_zero=1)
    expect(page.locator(".pending-round")).to_have_text("Round 1: waiting to be sent")
    server.post(f"/api/v1/matches/{match}/rounds", points_round(1, 5, 2), token)
    phone.context.set_offline(False)

    question = page.locator(".stale")
    expect(question).to_contain_text("Round 1 was saved on another phone in the meantime:",
                                     timeout=15000)
    expect(page.locator(".pending-round")).to_have_count(0)
    assert scores(server, match) == [[1, 5, 2]]
    page.get_by_role("button", name="Keep my numbers as round 2").click()
    expect(page.get_by_label("Points of Ben")).to_have_value("3")
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".entry-head h2")).to_contain_text("Round 3")
    assert scores(server, match) == [[1, 5, 2], [4, 3, 1]]


def test_a_round_whose_answer_was_lost_is_sent_not_asked_about(phone: Any, server: Any) -> None:
    """The round reached the server but its answer never came back: the resend carries the
    version from before it, and its Idempotency-Key's first answer wins over the 412."""
    match, token = new_api_match(server)
    phone.open(f"#/m/{match}?t={token}")
    # A worker still activating sends what waits in the outbox itself: the page sends its own
    # round only once the worker is idle.
    phone.wait_for_service_worker()
    page = phone.page

    def lose_the_answer(route: Any) -> None:
        route.fetch()  # the server stores the round ...
        route.fulfill(status=504, body="")  # ... and a proxy gives up on its answer

    phone.context.route("**/rounds", lose_the_answer, times=1)
    save_typed_round(page, (4, 3, 1), trump_zero=1)
    # The phone's word that it got no answer: the proxy had the server's by then. The round waits
    # to be sent again; the service worker may send it at once (background sync), or the reload
    # below does.
    expect(page.locator("#toast")).to_have_text(
        "No connection: the round is kept and sent when you are back online.")
    assert scores(server, match) == [[4, 3, 1]]

    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(page.locator(".pending-round")).to_have_count(0)
    expect(page.locator(".entry-head h2")).to_contain_text("Round 2")
    expect(page.locator(".stale, .rejected")).to_have_count(0)
    assert scores(server, match) == [[4, 3, 1]]


def test_rounds_waiting_behind_a_refused_one_ask_one_after_the_other(
        phone: Any, server: Any) -> None:
    match, token = new_api_match(server)
    phone.open(f"#/m/{match}?t={token}")
    phone.wait_for_service_worker()
    page = phone.page
    phone.context.set_offline(True)
    save_typed_round(page, (4, 3, 1), trump_zero=1)
    save_typed_round(page, (0, 2, 6), trump_zero=2)
    expect(page.locator(".pending-round")).to_have_count(2)
    server.post(f"/api/v1/matches/{match}/rounds", points_round(1, 5, 2), token)
    phone.context.set_offline(False)

    expect(page.locator(".stale")).to_have_count(2, timeout=15000)
    expect(page.locator(".stale button")).to_have_count(2)  # only the oldest is asked now
    expect(page.locator("form.entry-form")).to_have_count(0)
    page.get_by_role("button", name="Keep my numbers as round 2").click()
    expect(page.get_by_label("Points of Ann")).to_have_value("4")
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".stale")).to_have_count(1)
    expect(page.locator("form.entry-form")).to_have_count(0)
    page.get_by_role("button", name="Keep my numbers as round 3").click()
    expect(page.get_by_label("Points of Cid")).to_have_value("6")
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".entry-head h2")).to_contain_text("Round 4")
    assert scores(server, match) == [[1, 5, 2], [4, 3, 1], [0, 2, 6]]
