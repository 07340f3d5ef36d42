"""Sea Change entry modes and match kinds end to end in chromium at 360×640: a round entered card
by card through the grid (the suits in play asked first, then known from the cards), a solo match
against the AI to its winner, a team match, and a private match opened with its view link and its
edit link.

The expected numbers come from the API (its guide and its stored rounds), never from the test.
"""

from __future__ import annotations

import urllib.error
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import box_of

pytestmark = pytest.mark.browser

ANN = ["red-0", "red-4", "red-5", "red-6", "red-7", "red-8", "red-9", "red-10", "red-11"]
# Ben's pile brings in the third suit (blue) early: the deck is inferred while he is entered.
BEN = ["red-12", "green-0", "blue-0", "blue-4", "blue-5", "blue-6", "blue-7", "blue-8", "blue-9",
       "blue-10", "blue-11", "blue-12"]
CID = ["green-4", "green-5", "green-6", "green-7", "green-8", "green-9", "green-10", "green-11",
       "green-12"]


def new_match(server: Any, players: list[str], **extra: Any) -> dict[str, Any]:
    made: dict[str, Any] = server.post("/api/v1/matches",
                                       {"game": "sea-change", "players": players, **extra})
    return made


def guide(server: Any, match: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
    answer: dict[str, Any] = server.post(f"/api/v1/matches/{match['id']}/guide", entry,
                                         match["token"])["guide"]
    return answer


def points_text(points: int) -> str:
    """A pile's points as the app says them: "1 point", "-1 point", "5 points"."""
    return f"{points} point" if abs(points) == 1 else f"{points} points"


def tap_cards(page: Any, cards: list[str]) -> None:
    for card in cards:
        page.locator(f"[data-card='{card}']").click()
        expect(page.locator(f"[data-card='{card}']")).to_have_attribute("aria-pressed", "true")


def test_a_card_mode_round_is_entered_through_the_grid_with_the_guides_running_numbers(
        phone: Any, server: Any) -> None:
    match = new_match(server, ["Ann", "Ben", "Cid"])
    phone.open(f"#/m/{match['id']}?t={match['token']}")
    page = phone.page
    page.get_by_role("radio", name="Cards", exact=True).click()
    rows = page.locator(".card-grid .card-row")
    # Which 3 of the 5 suits are in play is not known yet: the app asks before it shows cards.
    expect(page.get_by_text("3 suits are in play: tap the ones that are not.")).to_be_visible()
    expect(rows).to_have_count(0)
    page.click("[data-suit=purple]")
    page.click("[data-suit=yellow]")
    expect(rows).to_have_count(3)
    expect(page.locator(".card")).to_have_count(30)
    expect(page.locator("[data-path=final_trump] [role=radio]")).to_have_count(3)
    page.click("[data-path=final_trump] [data-value=red]")
    tap_cards(page, ANN)
    page.click("[data-path='captured[1]']")
    tap_cards(page, BEN[:3])
    # Once the cards show the three suits, the guide knows the deck and the question goes.
    expect(page.get_by_text("3 suits are in play: tap the ones that are not.")).to_have_count(0)
    expect(rows).to_have_count(3)
    expect(page.locator("[data-path='captured[1]']")).to_have_attribute("aria-checked", "true")
    tap_cards(page, BEN[3:])
    partial = guide(server, match, {"final_trump": "red", "captured": [ANN, BEN, []]})
    free = page.locator(".card.free")
    expect(free).to_have_count(len(partial["unassigned"]))
    assert sorted(free.evaluate_all("cards => cards.map((c) => c.dataset.card)")) == sorted(
        partial["unassigned"])
    for side, points in enumerate(partial["pile_points"][:2]):
        expect(page.locator(f"[data-path='captured[{side}]'] .note")).to_have_text(
            points_text(points))
    page.click("[data-path='captured[2]']")
    page.get_by_role("button", name=f"Give the {len(CID)} remaining cards to Cid").click()
    expect(free).to_have_count(0)
    whole = guide(server, match, {"final_trump": "red", "captured": [ANN, BEN, CID]})
    assert whole["complete"] is True
    expect(page.locator("[data-path='captured[2]'] .note")).to_have_text(
        points_text(whole["pile_points"][2]))
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".entry-head h2")).to_contain_text("Round 2")
    stored = server.get(f"/api/v1/matches/{match['id']}")["rounds"]
    assert [sorted(pile) for pile in stored[0]["entry"]["captured"]] == [
        sorted(ANN), sorted(BEN), sorted(CID)]
    assert stored[0]["result"]["scores"] == whole["pile_points"]


def test_a_card_pressed_while_the_guides_answer_redraws_the_grid_still_counts(
        phone: Any, server: Any) -> None:
    """A phone's tap takes a moment: the guide's answer to the tap before may arrive between the
    finger going down and coming up (seen on a loaded machine as a tap that did nothing)."""
    match = new_match(server, ["Ann", "Ben", "Cid"], options={"suits": ["red", "green", "blue"]})
    phone.open(f"#/m/{match['id']}?t={match['token']}")
    # Once the service worker has taken over, nothing redraws the screen but the guide.
    phone.wait_for_service_worker()
    page = phone.page
    page.get_by_role("radio", name="Cards", exact=True).click()
    with page.expect_response(lambda answer: "/guide" in answer.url):
        tap_cards(page, ANN[:1])
    # The guide's questions are held in the page (not by routing: a page a service worker
    # controls sends its requests past Playwright's routes) until the card is pressed. The
    # waits are promises with a time limit (wait_for_function evaluates a string: the app's
    # CSP forbids it).
    page.evaluate("""() => {
      const network = window.fetch;
      window.held = [];
      window.firstHeld = new Promise((heard) => { window.heardFirst = heard; });
      window.fetch = (url, init) => (window.held && String(url).includes('/guide')
        ? new Promise((answer, fail) => {
          window.held.push(() => network(url, init).then(answer, fail));
          window.heardFirst();
        })
        : network(url, init));
      window.within = (promise, what) => Promise.race([promise, new Promise(
        (_, late) => setTimeout(() => late(new Error(`no ${what} within 10 s`)), 10000))]);
    }""")
    page.locator(f"[data-card='{ANN[2]}']").click()
    page.evaluate("() => window.within(window.firstHeld, 'question to the guide')")
    second = box_of(page.locator(f"[data-card='{ANN[1]}']"))
    page.mouse.move(second["x"] + second["width"] / 2, second["y"] + second["height"] / 2)
    page.mouse.down()
    # Every question held goes on now, in order (the last one asked is the one the screen
    # takes), and so does any asked from here on; the grid is redrawn while the card is down.
    page.evaluate("""() => {
      const redrawn = new Promise((seen) => new MutationObserver(seen).observe(
        document.querySelector('.card-grid'),
        { subtree: true, childList: true, attributes: true }));
      const held = window.held;
      window.held = null;
      held.forEach((go) => go());
      return window.within(redrawn, 'redraw');
    }""")
    page.mouse.up()
    expect(page.locator(f"[data-card='{ANN[1]}']")).to_have_attribute("aria-pressed", "true")


def solo_round(page: Any, mine: int, eight: bool) -> None:
    page.click("[data-path=final_trump] [data-value=blue]")
    page.get_by_label("Points of Ann").fill(str(mine))
    expect(page.get_by_label("Points of AI")).to_have_value(str(8 - mine))
    page.click("[data-path=trump_zero] [data-value='0']")
    page.get_by_label("I captured an 8").set_checked(eight)
    page.get_by_role("button", name="Save round").click()


def test_a_solo_match_against_the_ai_is_played_to_the_winner_screen(
        phone: Any, server: Any) -> None:
    match = new_match(server, ["Ann"])
    phone.open(f"#/m/{match['id']}?t={match['token']}")
    page = phone.page
    page.get_by_role("radio", name="Points", exact=True).click()
    # The higher score without an 8 in the pile: the round's VP goes to the AI.
    solo_round(page, 6, eight=False)
    expect(page.locator(".strip li[data-rank='1']")).to_contain_text("AI")
    for round_number in (2, 3, 4):
        expect(page.locator(".entry-head h2")).to_contain_text(f"Round {round_number}")
        solo_round(page, 6, eight=True)
    expect(page.locator("#winner-names")).to_have_text("Ann wins!")
    finished = server.get(f"/api/v1/matches/{match['id']}")
    assert finished["status"] == "finished"
    assert {row["name"]: row["vp"] for row in finished["standings"]} == {"Ann": 3, "AI": 1}
    assert [r["entry"]["has_eight"] for r in finished["rounds"]] == [False, True, True, True]


def test_a_team_match_made_on_the_new_match_screen_saves_a_round_per_team(
        phone: Any, server: Any) -> None:
    phone.open("#/new")
    page = phone.page
    page.click("[data-value=sea-change]")
    while page.locator(".players li").count() < 4:
        page.get_by_role("button", name="Add player").click()
    for seat, name in enumerate(["Ann", "Ben", "Cid", "Dan"]):
        page.get_by_label(f"Player {seat + 1}", exact=True).fill(name)
    page.locator("#opt-teams").select_option(label="Ann & Cid · Ben & Dan")
    page.get_by_role("button", name="Start match").click()
    page.click("[data-path=final_trump] [data-value=green]")
    page.get_by_role("radio", name="Points", exact=True).click()
    page.get_by_label("Points of Ann & Cid").fill("7")
    expect(page.get_by_label("Points of Ben & Dan")).to_have_value("2")  # 4 players: checksum 9
    page.click("[data-path=trump_zero] [data-value='1']")
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".entry-head h2")).to_contain_text("Round 2")
    match = server.get(f"/api/v1/matches/{page.url.split('#/m/')[1].split('/')[0]}")
    assert match["options"]["teams"] == [[0, 2], [1, 3]]
    assert match["rounds"][0]["entry"]["scores"] == [7, 2]
    assert match["rounds"][0]["result"]["vp"] == [1, 0]
    assert [row["name"] for row in match["standings"]] == ["Ann & Cid", "Ben & Dan"]


def test_a_private_match_is_read_only_with_its_view_link_and_writable_with_its_edit_link(
        phone: Any, second_phone: Any, server: Any) -> None:
    match = new_match(server, ["Ann", "Ben", "Cid"], private=True)
    with pytest.raises(urllib.error.HTTPError) as refused:
        server.get(f"/api/v1/matches/{match['id']}")
    assert refused.value.code in (401, 403)
    phone.open(f"#/m/{match['id']}?v={match['view_token']}")
    viewer = phone.page
    # A view link opens on the standings: a viewer has no round to enter.
    expect(viewer.locator("[data-tab=standings]")).to_have_attribute("aria-current", "page")
    expect(viewer.get_by_text("View only: you need the edit link to enter rounds.")).to_be_visible()
    assert viewer.locator("form.entry-form").count() == 0
    second_phone.open(f"#/m/{match['id']}?t={match['token']}")
    editor = second_phone.page
    editor.click("[data-path=final_trump] [data-value=red]")
    editor.get_by_role("radio", name="Points", exact=True).click()
    editor.get_by_label("Points of Ann").fill("5")
    editor.get_by_label("Points of Ben").fill("2")
    expect(editor.get_by_label("Points of Cid")).to_have_value("1")
    editor.click("[data-path=trump_zero] [data-value='0']")
    editor.get_by_role("button", name="Save round").click()
    expect(editor.locator(".entry-head h2")).to_contain_text("Round 2")
    # The viewer follows the private match live with its view token, still without entry.
    expect(viewer.locator(".standings tr[data-rank='1']")).to_contain_text("Ann", timeout=2000)
    assert viewer.locator("form.entry-form").count() == 0
    viewer.goto(f"{server.base}/#/m/{match['id']}/history")
    expect(viewer.locator(".sheet [data-round='1']")).to_be_visible()
    expect(viewer.get_by_role("link", name="Edit round 1")).to_have_count(0)
    expect(viewer.get_by_role("button", name="Undo round 1")).to_have_count(0)
    stored = server.get(f"/api/v1/matches/{match['id']}", match["view_token"])
    assert [r["entry"]["scores"] for r in stored["rounds"]] == [[5, 2, 1]]
