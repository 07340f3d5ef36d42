"""A club's Jass evening on the score pad, in chromium at 360×640 against a real server.

The club played Jass before (157 points a round, to 1000): "new match" offers that pad first,
naming the last evening's four members, and one tap starts it with them in their seats; its ✎
takes it into the form instead, with the club's stakes for that pad (not the game picked before).
A round of four players is three numbers typed into the focused first field (Enter moves on, the
fourth is filled from the round total) and one tap on Save; the running totals stand in a line
under the fields; the ± key makes a number negative where the keyboard has no minus. The
evening is played to 1000 and the winner screen says why. A pad without an end of its own is
finished by hand, and six players' fields fit one screen with Save. Offline a round waits in the
outbox, its last field filled from the round total. A tournament of a pad is named by its title
on the organiser's dashboard and on the projector's board; a club's pad is a game of its own on
the club's ladder.
"""

from __future__ import annotations

import json
import urllib.request
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Phone, Server, box_of, phone_in_use
from tests.e2e.test_check_in import as_organiser
from tests.e2e.test_sync import wait_until_kept

pytestmark = pytest.mark.browser

SAVED = 15000
PLAYERS = ["Ann", "Ben", "Cid", "Dan"]
JASS = {"title": "Jass", "round_total": 157, "target": 1000}


def club_with_a_jass_evening(server: Server) -> dict[str, Any]:
    """A club whose last evening was a Jass to 1000 of its four members, finished; the first
    evening the same four sat in another order."""
    club = server.post("/api/v1/clubs", {"name": "Jassrunde"})
    week_ago = (datetime.now(UTC) - timedelta(days=7)).isoformat()
    server.post("/api/v1/matches", {"game": "score-pad", "players": PLAYERS[::-1],
                                    "options": JASS, "club": club["id"], "played_at": week_ago},
                club["token"])
    last = server.post("/api/v1/matches", {"game": "score-pad", "players": PLAYERS,
                                           "options": JASS, "club": club["id"]}, club["token"])
    for _ in range(7):
        server.post(f"/api/v1/matches/{last['id']}/rounds", {"points": [150, 7, 0, 0]},
                    last["token"])
    return club


def count_taps(page: Any) -> None:
    """Counts every tap (pointerdown) on the page from now on, in ``window.taps``."""
    page.evaluate("""() => { window.taps = 0;
      document.addEventListener('pointerdown', () => { window.taps += 1; }, true); }""")


def on_screen(page: Any, selector: str) -> bool:
    box = box_of(page.locator(selector))
    return box["y"] >= 0 and box["y"] + box["height"] <= 640


def test_a_jass_evening_of_four_is_three_numbers_and_one_tap_a_round(
        phone: Phone, server: Server) -> None:
    club = club_with_a_jass_evening(server)
    page = phone.page
    phone.open(f"#/c/{club['id']}?t={club['token']}&v={club['view_token']}")
    phone.open(f"#/c/{club['id']}/new")

    # The club's Jass is offered before every game, naming the four members of the last
    # evening in their seats; one tap starts it with its options; the first field is focused,
    # so round 1 is three numbers typed (Enter moving on, the fourth filled from 157) and Save.
    count_taps(page)
    pads = page.locator("fieldset.pads button[data-pad]")
    expect(pads).to_have_count(1)
    expect(pads.first).to_have_text("Jass — Ann, Ben, Cid, Dan2 matches")
    assert box_of(page.locator("fieldset.pads"))["y"] < box_of(
        page.locator("fieldset[data-path=game]"))["y"]
    pads.first.click()
    expect(page.locator("form.entry-form")).to_be_visible(timeout=SAVED)
    expect(page.locator(".match-head h1")).to_contain_text("Jass")
    match_id = page.url.split("#/m/")[1].split("?")[0].split("/")[0]
    started = server.get(f"/api/v1/matches/{match_id}")
    assert [p["name"] for p in started["players"]] == PLAYERS
    assert {name: started["options"][name] for name in JASS} == JASS
    assert "stakes" not in started or started["stakes"] is None

    fields = [page.get_by_label(f"Points of {name}", exact=True) for name in PLAYERS]
    for field, points in zip(fields, ("80", "40", "20"), strict=False):
        expect(field).to_be_focused()
        page.keyboard.type(points)
        page.keyboard.press("Enter")
    expect(fields[3]).to_have_value("17")
    expect(fields[3]).to_have_class("auto")
    expect(page.locator(".pad-totals")).to_contain_text("Ann 80")
    expect(page.locator(".pad-totals")).to_contain_text("Dan 17")
    assert on_screen(page, "button.save")
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".entry-head h2")).to_contain_text("Round 2", timeout=SAVED)
    expect(page.locator(".pad-totals")).to_contain_text("Ann 80")
    expect(page.locator(".pad-totals")).to_contain_text("Dan 17")
    # From "new match" to a saved round: the pad's tap and Save's.
    assert page.evaluate("() => window.taps") == 2
    # The next round's form opens with its first field focused too.
    expect(fields[0]).to_be_focused()

    # Round 2: the ± key where the keyboard has no minus; a sum off 157 is refused at points.
    fields[0].fill("200")
    page.get_by_role("button", name="Change the sign of Ben's points").click()
    expect(fields[1]).to_have_value("-")
    expect(fields[1]).to_be_focused()
    page.keyboard.type("10")
    expect(fields[1]).to_have_value("-10")
    fields[2].fill("0")
    expect(fields[3]).to_have_value("-33")
    fields[3].fill("0")
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".field-error").first).to_contain_text(
        "every round adds up to 157", timeout=SAVED)
    for field, points in zip(fields, ("100", "57", "0", "0"), strict=True):
        field.fill(points)
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".entry-head h2")).to_contain_text("Round 3", timeout=SAVED)

    # Rounds 3 to 7 (Ann to 880) from another phone at the table; round 8 here ends it.
    token = page.evaluate(f"() => JSON.parse(localStorage.getItem('tafelrunde.tokens'))"
                          f"['{match_id}'].token")
    for _ in range(5):
        server.post(f"/api/v1/matches/{match_id}/rounds", {"points": [140, 17, 0, 0]}, token)
    expect(page.locator(".entry-head h2")).to_contain_text("Round 8", timeout=SAVED)
    for field, points in zip(fields, ("150", "7", "0"), strict=False):
        field.fill(points)
    expect(fields[3]).to_have_value("0")
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("#winner-reason")).to_have_text("Ann reached 1,030 of 1,000.",
                                                        timeout=SAVED)
    expect(page.locator("#winner-names")).to_have_text("Ann wins!")

    # The club counts the evening as a Jass of its own.
    ladder = server.get(f"/api/v1/clubs/{club['id']}/ratings?game=score-pad:Jass",
                        club["token"])
    assert ladder[0]["name"] == "Ann"


def send(server: Server, method: str, path: str, body: Any, token: str) -> None:
    request = urllib.request.Request(
        server.base + path, data=None if body is None else json.dumps(body).encode(),
        method=method, headers={"Content-Type": "application/json",
                                "Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status in (200, 204)


def test_a_pads_pen_takes_it_into_the_form_with_the_clubs_stakes_for_that_pad(
        phone: Phone, server: Server) -> None:
    club = club_with_a_jass_evening(server)
    send(server, "PATCH", f"/api/v1/clubs/{club['id']}", {"stakes": {
        "tschau-sepp": {"currency": "CHF", "per_point": "0.50"},
        "score-pad:Jass": {"currency": "CHF", "per_point": "0.01"}}}, club["token"])
    # Hearts, last played by Eva who has left the club since: it cannot start at once.
    month_ago = (datetime.now(UTC) - timedelta(days=30)).isoformat()
    server.post("/api/v1/matches", {"game": "score-pad", "players": ["Eva", "Ann", "Ben"],
                                    "options": {"title": "Hearts", "winner": "fewest"},
                                    "club": club["id"], "played_at": month_ago}, club["token"])
    eva = next(m for m in server.get(f"/api/v1/clubs/{club['id']}/players", club["token"])
               if m["name"] == "Eva")
    send(server, "DELETE", f"/api/v1/clubs/{club['id']}/players/{eva['id']}", None,
         club["token"])
    page = phone.page
    phone.open(f"#/c/{club['id']}?t={club['token']}&v={club['view_token']}")
    phone.open(f"#/c/{club['id']}/new")
    expect(page.locator(".pads button[data-pad]")).to_have_count(2)
    expect(page.locator(".pads button.pad-start")).to_have_count(1)
    page.click("[data-value=tschau-sepp]")
    expect(page.locator("#stakes-hint")).to_contain_text("CHF\xa00.50 a point")

    # ✎ takes the Jass into the form: its options, its players, the club's stakes for Jass.
    page.get_by_role("button", name="Jass: change players or options first").click()
    expect(page.locator("[data-value=score-pad]")).to_have_attribute("aria-checked", "true")
    expect(page.locator("[data-pad-change=Jass]")).to_have_attribute("aria-pressed", "true")
    expect(page.locator("#opt-title")).to_have_value("Jass")
    expect(page.locator("#opt-round_total")).to_have_value("157")
    for seat, name in enumerate(PLAYERS):
        expect(page.get_by_label(f"Player {seat + 1}", exact=True)).to_have_value(name)
    expect(page.locator("#stakes-on")).to_be_checked()
    expect(page.locator("#stakes-hint")).to_contain_text("CHF\xa00.01 a point")
    expect(page.locator("#stakes-per_point")).to_have_value("0.01")

    # Hearts has no stakes of its own: the Jass's are not kept; Eva's seat waits for someone.
    page.locator("button[data-pad=Hearts]").click()
    expect(page.locator("#opt-title")).to_have_value("Hearts")
    expect(page.locator("#stakes-on")).not_to_be_checked()
    expect(page.get_by_label("Player 1", exact=True)).to_be_focused()
    expect(page.get_by_label("Player 1", exact=True)).to_have_value("")
    expect(page.get_by_label("Player 2", exact=True)).to_have_value("Ann")

    # Back to the Jass, a fifth player added in the form, and Start: for the Jass's stakes.
    page.get_by_role("button", name="Jass: change players or options first").click()
    page.get_by_role("button", name="Add player").click()
    page.get_by_label("Player 5", exact=True).fill("Eli")
    page.get_by_role("button", name="Start match").click()
    expect(page.locator("form.entry-form")).to_be_visible(timeout=SAVED)
    match_id = page.url.split("#/m/")[1].split("?")[0].split("/")[0]
    started = server.get(f"/api/v1/matches/{match_id}")
    assert [p["name"] for p in started["players"]] == [*PLAYERS, "Eli"]
    assert started["options"]["title"] == "Jass"
    assert (started["stakes"]["currency"], started["stakes"]["per_point"]) == ("CHF", "0.01")


def test_each_pad_title_is_a_game_of_its_own_on_the_clubs_ladder_and_statistics(
        phone: Phone, server: Server) -> None:
    club = server.post("/api/v1/clubs", {"name": "Jassrunde"})
    for players, options, points in (
            (PLAYERS, {"title": "Jass", "round_total": 157, "rounds": 1}, [100, 57, 0, 0]),
            (PLAYERS[:3], {"title": "Hearts", "winner": "fewest", "rounds": 1}, [10, 0, 16])):
        made = server.post("/api/v1/matches", {"game": "score-pad", "players": players,
                                               "options": options, "club": club["id"]},
                           club["token"])
        server.post(f"/api/v1/matches/{made['id']}/rounds", {"points": points}, made["token"])
    page = phone.page
    phone.open(f"#/c/{club['id']}?t={club['token']}&v={club['view_token']}")
    phone.open(f"#/c/{club['id']}/ladder")
    games = page.locator("[data-path=game] [role=radio]")
    expect(games).to_have_text(["Hearts", "Jass"])
    page.get_by_role("radio", name="Jass", exact=True).click()
    expect(page.get_by_role("heading", name="Ladder: Jass")).to_be_visible()
    ladder = page.locator("table.ladder tbody tr")
    expect(ladder).to_have_count(4)
    expect(ladder.first.locator("th")).to_have_text("Ann")
    expect(page.locator("figure.chart figcaption")).to_contain_text("Jass")

    # Ann's statistics: Jass and Hearts each under its title, one match each.
    ladder.first.locator("th a").click()
    for game, won in (("Jass", "1"), ("Hearts", "0")):
        stats = page.locator(f"section[data-game='score-pad:{game}']")
        expect(stats.locator("h2")).to_have_text(game)
        expect(stats.locator("[data-fact=played] td")).to_have_text("1")
        expect(stats.locator("[data-fact=won] td")).to_have_text(won)


def test_six_players_fit_one_screen_and_a_pad_without_an_end_is_finished_by_hand(
        phone: Phone, server: Server) -> None:
    names = ["Ann", "Ben", "Cid", "Dan", "Eva", "Fay"]
    made = server.post("/api/v1/matches", {"game": "score-pad", "players": names,
                                           "options": {"title": "Wizard"}})
    page = phone.page
    phone.open(f"#/m/{made['id']}?t={made['token']}")
    expect(page.locator("form.entry-form")).to_be_visible()
    for name, points in zip(names, (30, 20, -10, 0, 50, 10), strict=True):
        page.get_by_label(f"Points of {name}", exact=True).fill(str(points))
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".entry-head h2")).to_contain_text("Round 2", timeout=SAVED)
    # With a round played (the Finish button, the totals) six fields and Save are one screen.
    expect(page.locator(".pad-totals")).to_contain_text("Eva 50")
    page.evaluate("() => window.scrollTo(0, 0)")
    for shown in ("[aria-label='Points of Fay']", ".pad-totals", "button.save", "button.finish"):
        assert on_screen(page, shown), shown
    save = box_of(page.locator(".action-bar"))
    for above in ("[aria-label='Points of Fay']", ".pad-totals"):
        box = box_of(page.locator(above))
        assert box["y"] + box["height"] <= save["y"], above
    finish = page.get_by_role("button", name="Finish the match")
    finish.click()
    expect(page.locator("button.finish")).to_have_text("Finish after 1 round? Tap again")
    page.locator("button.finish").click()
    expect(page.locator("#winner-reason")).to_have_text(
        "Finished after 1 round; Eva wins with 50.", timeout=SAVED)


def test_offline_a_pad_round_waits_in_the_outbox_with_its_last_field_filled(
        phone: Phone, server: Server) -> None:
    made = server.post("/api/v1/matches", {"game": "score-pad", "players": PLAYERS,
                                           "options": JASS})
    page = phone.page
    phone.open(f"#/m/{made['id']}?t={made['token']}")
    phone.wait_for_service_worker()
    wait_until_kept(page, f"/api/v1/matches/{made['id']}")
    phone.context.set_offline(True)
    for name, points in zip(PLAYERS, ("90", "60", "7"), strict=False):
        page.get_by_label(f"Points of {name}", exact=True).fill(points)
    expect(page.get_by_label("Points of Dan", exact=True)).to_have_value("0")
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".pending-round")).to_have_text("Round 1: waiting to be sent")

    phone.context.set_offline(False)
    expect(page.locator(".pending-round")).to_have_count(0, timeout=SAVED)
    rounds = server.get(f"/api/v1/matches/{made['id']}")["rounds"]
    assert [r["entry"]["points"] for r in rounds] == [[90, 60, 7, 0]]


def test_the_score_chart_draws_a_pads_running_points_with_negatives(
        phone: Phone, server: Server) -> None:
    made = server.post("/api/v1/matches", {"game": "score-pad", "players": PLAYERS[:3],
                                           "options": {"title": "Skat", "round_total": 0}})
    for points in ([24, -12, -12], [-36, 18, 18], [10, 10, -20]):
        server.post(f"/api/v1/matches/{made['id']}/rounds", {"points": points}, made["token"])
    page = phone.page
    phone.open(f"#/m/{made['id']}/standings")
    figure = page.locator(".score-chart figure")
    expect(figure.locator("figcaption")).to_have_text("Running totals: Points")
    read = figure.evaluate("""(figure) => [...figure.querySelector('table').tBodies[0].rows]
      .map((row) => [...row.cells].map((cell) => cell.textContent))""")
    assert read == [["1", "24", "-12", "-12"], ["2", "-12", "6", "6"], ["3", "-2", "16", "-14"]]
    box = box_of(figure.locator("svg"))
    assert box["x"] + box["width"] <= 360


def test_a_pad_tournaments_dashboard_and_board_name_it_by_its_title(
        browser: Any, phone: Phone, server: Server) -> None:
    made = server.post("/api/v1/tournaments", {
        "name": "Jassturnier", "game": "score-pad",
        "options": {"title": "Schieber", "round_total": 157, "rounds": 2}, "rounds": 1,
        "table_size": 4, "seating": "random", "seed": 3})
    for name in PLAYERS:
        server.post(f"/api/v1/tournaments/{made['id']}/players", {"name": name}, made["token"])
    server.post(f"/api/v1/tournaments/{made['id']}/rounds", {}, made["token"])
    as_organiser(phone, made)
    phone.open(f"#/t/{made['id']}")
    expect(phone.page.locator(".match-head h1")).to_have_text("Jassturnier · Schieber")
    phone.open("#/")
    expect(phone.page.locator(f"a[href='#/t/{made['id']}'] .note")).to_have_text(
        "Schieber · organiser")
    with phone_in_use(browser, server, viewport={"width": 1280, "height": 720}) as screen:
        screen.open(f"#/t/{made['id']}/board")
        expect(screen.page.locator(".board-title h1")).to_have_text("Jassturnier · Schieber")
