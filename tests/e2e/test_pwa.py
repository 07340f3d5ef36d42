"""The PWA end to end in chromium at 360×640 against a real server: every game to its winner,
a correction, offline entry sent exactly once, two phones, both languages, share codes."""

from __future__ import annotations

import shutil
import time
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import phone_in_use, qr_link

pytestmark = pytest.mark.browser


def create_match(phone: Any, game: str, players: list[str], options: dict[str, Any] | None = None
                 ) -> None:
    phone.open("#/")
    phone.page.get_by_role("link", name="New match").click()
    phone.page.click(f"[data-value={game}]")
    page = phone.page
    while page.locator(".players li").count() < len(players):
        page.get_by_role("button", name="Add player").click()
    for seat, name in enumerate(players):
        page.get_by_label(f"Player {seat + 1}", exact=True).fill(name)
    for name, value in (options or {}).items():
        page.fill(f"#opt-{name}", str(value))
    page.get_by_role("button", name="Start match").click()
    expect(page.locator("form.entry-form")).to_be_visible()


def sea_change_points(page: Any, first: int, second: int, filled: str, trump_zero: int) -> None:
    page.click("[data-path=final_trump] [data-value=yellow]")
    page.get_by_label("Points of Ann").fill(str(first))
    page.get_by_label("Points of Ben").fill(str(second))
    expect(page.get_by_label("Points of Cid")).to_have_value(filled)
    page.click(f"[data-path=trump_zero] [data-value='{trump_zero}']")


def save_typed_round(page: Any, scores: tuple[int, int, int], trump_zero: int) -> None:
    """Types a Sea Change round of Ann, Ben and Cid on the screen, every pile by hand (red the
    final trump), and presses Save."""
    page.click("[data-path=final_trump] [data-value=red]")
    for name, points in zip(("Ann", "Ben", "Cid"), scores, strict=True):
        page.get_by_label(f"Points of {name}").fill(str(points))
    page.click(f"[data-path=trump_zero] [data-value='{trump_zero}']")
    page.get_by_role("button", name="Save round").click()


def match_id(page: Any) -> str:
    return str(page.url.split("#/m/")[1].split("/")[0].split("?")[0])


def api_match(server: Any, base: str, token: str | None = None) -> Any:
    return server.get(f"/api/v1/matches/{base}", token)


def test_a_sea_change_game_is_played_to_the_winner_screen(phone: Any, server: Any) -> None:
    create_match(phone, "sea-change", ["Ann", "Ben", "Cid"])
    page = phone.page
    # A typo the paper would not catch: the scores of a round always add up to the checksum.
    sea_change_points(page, 5, 2, "1", 0)
    page.get_by_label("Points of Cid").fill("4")
    page.get_by_role("button", name="Save round").click()
    expect(page.locator("[data-error-path=scores]")).to_contain_text("add up to 11")
    page.get_by_label("Points of Cid").fill("")
    for round_number in range(1, 4):
        sea_change_points(page, 5, 2, "1", 0)
        page.get_by_role("button", name="Save round").click()
        if round_number < 3:  # the next round opens under the new standings
            expect(page.locator(".entry-head h2")).to_contain_text(f"Round {round_number + 1}")
            expect(page.locator(".dealer")).to_be_visible()
    expect(page.locator("#winner-names")).to_have_text("Ann wins!")
    expect(page.locator("#winner-reason")).to_have_text("Ann reached 3 VP.")
    assert api_match(server, match_id(page))["status"] == "finished"


def test_a_seven_seals_game_is_played_to_the_winner_screen(phone: Any, server: Any) -> None:
    create_match(phone, "seven-seals", ["Ann", "Ben", "Cid"], {"rounds": 2})
    page = phone.page
    for round_number in (1, 2):
        ann = page.locator("[data-path='bids[0]']")
        cid = page.locator("[data-path='bids[2]']")
        page.locator("[data-path='bids[1]']").get_by_role("button", name="Saboteur").click()
        if round_number == 1:  # Ann bids first: Cid finds blue out and takes Ann's
            ann.locator("[data-colour=red]").click()
            ann.locator("[data-colour=blue]").click()
            for _ in range(3):
                cid.locator("[data-colour=blue]").click()
        else:  # Cid bids before Ann now: Ann takes one of Cid's blue seals
            for _ in range(3):
                cid.locator("[data-colour=blue]").click()
            ann.locator("[data-colour=red]").click()
            ann.locator("[data-colour=blue]").click()
        expect(page.locator(".middle")).to_contain_text("White 3")
        expect(page.locator(".middle")).to_contain_text("Blue 0")
        page.locator("[data-path='black[2]']").get_by_label("One more: Black seals").click()
        page.get_by_role("button", name="Save round").click()
        if round_number == 1:
            expect(page.locator(".entry-head h2")).to_contain_text("Round 2")
    expect(page.locator("#winner-names")).to_have_text("Ann wins!")
    standings = api_match(server, match_id(page))["standings"]
    assert {row["name"]: row["penalty"] for row in standings} == {"Ann": 0, "Ben": 6, "Cid": 6}


def test_a_tschau_sepp_match_is_played_to_the_winner_screen(phone: Any, server: Any) -> None:
    create_match(phone, "tschau-sepp", ["Ann", "Ben"], {"games": 2})
    page = phone.page
    page.locator("[data-path=winner] [data-value='0']").click()
    page.locator("[data-card=rosen-ass]").click()
    page.locator("[data-card=eicheln-under]").click()
    expect(page.locator("[data-path='hands[1]']")).to_contain_text("31 points")
    page.get_by_role("button", name="Save game").click()
    expect(page.locator(".entry-head h2")).to_contain_text("Game 2")
    page.locator("[data-path=winner] [data-value='1']").click()
    page.get_by_role("radio", name="Points", exact=True).click()
    page.get_by_label("Penalty points of Ann").fill("7")
    page.get_by_role("button", name="Save game").click()
    expect(page.locator("#winner-names")).to_have_text("Ann wins!")
    expect(page.locator("#winner-reason")).to_contain_text("Ann")


def new_api_match(server: Any) -> tuple[str, str]:
    made = server.post("/api/v1/matches", {"game": "sea-change", "players": ["Ann", "Ben", "Cid"]})
    return made["id"], made["token"]


def points_round(ann: int, ben: int, cid: int) -> dict[str, Any]:
    return {"final_trump": "red", "scores": [ann, ben, cid], "trump_zero": 0}


def test_an_earlier_round_is_corrected_and_later_rounds_follow(phone: Any, server: Any) -> None:
    match, token = new_api_match(server)
    server.post(f"/api/v1/matches/{match}/rounds", points_round(5, 2, 1), token)
    server.post(f"/api/v1/matches/{match}/rounds", points_round(1, 5, 2), token)
    phone.open(f"#/m/{match}/history?t={token}")
    page = phone.page
    assert "?t=" not in page.url
    page.get_by_role("link", name="Edit round 1").click()
    expect(page.get_by_label("Points of Ben")).to_have_value("2")
    page.get_by_label("Points of Ann").fill("0")
    page.get_by_label("Points of Ben").fill("6")
    page.get_by_label("Points of Cid").fill("2")
    page.get_by_role("button", name="Save correction").click()
    expect(page.get_by_role("heading", name="History")).to_be_visible()
    after = api_match(server, match)
    assert after["rounds"][0]["entry"]["scores"] == [0, 6, 2]
    assert {row["name"]: row["vp"] for row in after["standings"]} == {"Ann": 0, "Ben": 2, "Cid": 0}


def test_a_round_entered_offline_is_sent_exactly_once(phone: Any, server: Any) -> None:
    match, token = new_api_match(server)
    phone.open(f"#/m/{match}?t={token}")
    phone.wait_for_service_worker()
    page = phone.page
    phone.context.set_offline(True)
    save_typed_round(page, (4, 3, 1), trump_zero=1)
    expect(page.locator(".pending-round")).to_have_text("Round 1: waiting to be sent")
    assert api_match(server, match)["rounds"] == []
    phone.context.set_offline(False)
    expect(page.locator(".pending-round")).to_have_count(0, timeout=15000)
    page.reload()
    page.wait_for_selector("body[data-ready]")
    time.sleep(0.5)  # a replay on start must not send it again
    rounds = api_match(server, match)["rounds"]
    assert [r["entry"]["scores"] for r in rounds] == [[4, 3, 1]]


def test_a_second_phone_sees_a_new_round_within_two_seconds(
        phone: Any, second_phone: Any, server: Any) -> None:
    match, token = new_api_match(server)
    second_phone.open(f"#/m/{match}/standings")
    expect(second_phone.page.locator(".standings")).to_be_visible()
    phone.open(f"#/m/{match}?t={token}")
    sea_change_points(phone.page, 5, 2, "1", 0)
    phone.page.get_by_role("button", name="Save round").click()
    expect(second_phone.page.locator("[data-round='1']")).to_be_visible(timeout=2000)
    assert second_phone.page.get_by_role("link", name="Enter round 2").count() == 0


def test_the_ui_speaks_german_when_the_browser_prefers_it_and_switches_to_english(
        german_phone: Any, server: Any) -> None:
    made = server.post("/api/v1/matches", {"game": "tschau-sepp", "players": ["Ann", "Ben"]})
    german_phone.open(f"#/m/{made['id']}?t={made['token']}")
    page = german_phone.page
    # Tschau Sepp counts games (rules.md §3), as its options and reasons say.
    expect(page.get_by_role("button", name="Spiel speichern")).to_be_visible()
    expect(page.locator(".entry-head h2")).to_contain_text("Spiel 1")
    page.locator("[data-path=winner] [data-value='0']").click()
    expect(page.get_by_role("group", name="Rosen")).to_be_visible()
    expect(page.get_by_role("group", name="Schilten")).to_be_visible()
    expect(page.get_by_label("Eicheln-Under")).to_be_visible()
    page.get_by_role("combobox", name="Sprache").select_option("en")
    expect(page.get_by_role("button", name="Save game")).to_be_visible()
    page.goto(f"{server.base}/#/")
    expect(page.get_by_role("heading", name="Keep score at the table")).to_be_visible()


@pytest.mark.skipif(shutil.which("zbarimg") is None,
                    reason="zbarimg (Debian zbar-tools) decodes the QR")
def test_the_share_codes_decode_to_the_view_and_edit_links(phone: Any, server: Any,
                                                            tmp_path: Any) -> None:
    match, token = new_api_match(server)
    phone.open(f"#/m/{match}/share?t={token}")
    for kind, expected in (("view", f"#/m/{match}"), ("edit", f"#/m/{match}?t={token}")):
        decoded = qr_link(phone.page.locator(f".share-{kind} .qr"), tmp_path / f"{kind}.png")
        assert decoded.endswith(expected)
        assert decoded.startswith(server.base)


@pytest.mark.parametrize(("locale", "layout"), [
    ("en-US", "&sep=%2C&decimal=.&lang=en-US"), ("de-CH", "&sep=%3B&decimal=.&lang=de-CH"),
    ("de-DE", "&sep=%3B&decimal=%2C&lang=de-DE")])
def test_the_csv_export_is_laid_out_for_the_spreadsheet_of_the_phones_locale(
        browser: Any, server: Any, locale: str, layout: str) -> None:
    match, token = new_api_match(server)
    with phone_in_use(browser, server, locale) as phone:
        phone.open(f"#/m/{match}/share?t={token}")
        expect(phone.page.locator("a.export")).to_have_attribute(
            "href", f"/api/v1/matches/{match}/export?format=csv{layout}")


# The boxes of what shows before the app's script runs, with and without the screens' sheet.
SHELL_BOXES = """() => {
  const sheet = [...document.styleSheets].find((s) => s.href?.endsWith('/css/app.css'));
  const boxes = () => ['.bar', '.brand', '#lang', 'main'].map((selector) => {
    const box = document.querySelector(selector).getBoundingClientRect();
    return selector === 'main' ? [box.x, box.y, box.width] : [box.x, box.y, box.width, box.height];
  });
  const styled = boxes();
  sheet.disabled = true;
  const shell = boxes();
  sheet.disabled = false;
  const colour = getComputedStyle(document.querySelector('.bar')).backgroundColor;
  return { styled, shell, colour };
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_app_bar_stands_still_when_the_screens_stylesheet_applies(
        phone: Any, scheme: str) -> None:
    """The page styles its bar itself (index.html), so that css/app.css holds up no paint: when
    that sheet applies, before the first screen is drawn, nothing of the page moves."""
    phone.page.emulate_media(color_scheme=scheme)
    phone.open("#/")
    found = phone.page.evaluate(SHELL_BOXES)
    assert found["styled"] == found["shell"]
    assert found["colour"] == {"light": "rgb(29, 92, 63)", "dark": "rgb(127, 209, 164)"}[scheme]
