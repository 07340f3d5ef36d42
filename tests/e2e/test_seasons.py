"""A club's season in the app, in chromium against a real server: the season table at 360×640
with each member's counted evenings marked and the dropped ones greyed, a member's season line
with its chart, a season made on the phone, the board at 1280×720 that follows a late sheet by
itself; and on the member screen the data export and forgetting, asked first."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Phone, Server, phone_in_use
from tests.e2e.test_languages import english_on_screen, words

pytestmark = pytest.mark.browser

HD = {"width": 1280, "height": 720}
LIVE = 20000  # a change travels through the API and the club's event stream to the board


def club_with_evenings(server: Server) -> dict[str, Any]:
    """Ann, Bea and Cem over three November evenings, and a season counting the best two."""
    club = server.post("/api/v1/clubs", {"name": "Jassrunde"})
    sheets = [(["Ann", "Bea", "Cem"], [0, 3, 6], "05"), (["Bea", "Ann"], [0, 3], "12"),
              (["Ann", "Cem"], [0, 3], "19")]
    for players, penalties, day in sheets:
        sheet(server, club, players, penalties, day)
    server.post(f"/api/v1/clubs/{club['id']}/seasons",
                {"name": "Herbst 2026", "from": "2026-11-01", "to": "2026-11-30", "best": 2},
                club["token"])
    return club


def sheet(server: Server, club: dict[str, Any], players: list[str], penalties: list[int],
          day: str) -> None:
    match = server.post("/api/v1/matches", {
        "game": "tschau-sepp", "players": players, "options": {"games": 1}, "club": club["id"],
        "played_at": f"2026-11-{day}T20:00:00+01:00"}, club["token"])
    server.post(f"/api/v1/matches/{match['id']}/rounds",
                {"winner": penalties.index(0), "penalty": penalties}, match["token"])


def open_club(phone: Phone, club: dict[str, Any], route: str) -> None:
    phone.open(f"#/c/{club['id']}{route}?t={club['token']}&v={club['view_token']}")


def test_the_season_table_marks_counted_evenings_and_greys_the_dropped_ones(
        phone: Phone, server: Server) -> None:
    club = club_with_evenings(server)
    page = phone.page
    open_club(phone, club, "/season")
    expect(page.locator(".club-head .tabs a[aria-current=page]")).to_have_text("Season")
    table = page.locator(".season-table")
    expect(table.locator("tbody tr")).to_have_count(3)
    standings = server.get(f"/api/v1/clubs/{club['id']}/seasons/1/standings", club["token"])
    for row in standings:
        line = table.locator(f"tr[data-member='{row['player']}']")
        expect(line.locator("td[data-points]")).to_have_text(row["points"])
        for night in row["line"]:
            chip = line.locator(f".evening[data-date='{night['date']}']")
            expect(chip).to_have_attribute("data-counted", str(night["counted"]).lower())
            expect(chip).to_contain_text(night["points"])
    ann = next(row for row in standings if row["name"] == "Ann")
    assert [night["counted"] for night in ann["line"]].count(False) == 1  # three, best two
    dropped = table.locator(f"tr[data-member='{ann['player']}'] .evening-dropped")
    counted = table.locator(f"tr[data-member='{ann['player']}'] .evening-counted").first
    assert dropped.evaluate("e => getComputedStyle(e).textDecorationLine") == "line-through"
    assert dropped.evaluate("e => getComputedStyle(e).color") != counted.evaluate(
        "e => getComputedStyle(e).color")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 360  # no sideways
    # A4: the printout keeps the table and leaves the buttons and tabs out.
    page.emulate_media(media="print")
    expect(page.locator(".season-actions")).to_be_hidden()
    expect(page.locator(".club-head .tabs")).to_be_hidden()
    expect(table).to_be_visible()
    page.emulate_media(media="screen")

    # The member's season line: evening by evening, and the chart.
    table.get_by_role("link", name="Ann").click()
    rows = page.locator(".season-evenings tbody tr")
    expect(rows).to_have_count(3)
    expect(page.locator(".season-evenings tr.evening-dropped")).to_have_count(1)
    expect(page.locator(".season-line figure.chart svg")).to_be_visible()
    expect(page.locator(".season-summary")).to_contain_text(ann["points"])


def test_a_season_is_made_on_the_phone_and_its_csv_downloads(
        phone: Phone, server: Server) -> None:
    club = club_with_evenings(server)
    page = phone.page
    open_club(phone, club, "/season")
    page.fill("#season-name", "November")
    page.fill("#season-from", "2026-11-10")
    page.fill("#season-to", "2026-11-01")
    page.get_by_role("button", name="Create season").click()
    expect(page.get_by_role("alert")).to_contain_text("before the first")
    expect(page.locator("#season-to")).to_have_attribute("aria-invalid", "true")
    page.fill("#season-to", "2026-11-30")
    page.get_by_role("button", name="Create season").click()
    expect(page.locator(".season h2")).to_have_text("November")
    expect(page.locator(".season-table tbody tr")).to_have_count(3)
    with page.expect_download() as download:
        page.get_by_role("button", name="Table (CSV)").click()
    saved = download.value
    assert saved.suggested_filename == f"club-{club['id']}-season-2.csv"
    text = Path(saved.path()).read_text(encoding="utf-8-sig")
    assert text.splitlines()[0].startswith("Rank,Member no.,Name,Points")


def test_the_board_shows_the_season_at_1280_by_720_and_follows_a_late_sheet(
        browser: Any, server: Server) -> None:
    club = club_with_evenings(server)
    with phone_in_use(browser, server, viewport=HD) as screen:
        open_club(screen, club, "/season/1/board")
        page = screen.page
        expect(page.locator(".season-board h1")).to_contain_text("Herbst 2026")
        expect(page.locator(".board-standings tbody tr")).to_have_count(3)
        expect(page.locator(".bar")).to_be_hidden()
        size = page.evaluate("() => [document.documentElement.scrollWidth, "
                             "document.documentElement.scrollHeight]")
        assert size[0] <= HD["width"]
        assert size[1] <= HD["height"]
        font = page.locator(".board-screen").evaluate(
            "e => parseFloat(getComputedStyle(e).fontSize)")
        assert font >= 14
        sheet(server, club, ["Dan", "Bea"], [0, 3], "26")  # Dan's first evening, typed in late
        expect(page.locator(".board-standings tbody tr")).to_have_count(4, timeout=LIVE)
        expect(page.locator(".board-standings .board-name", has_text="Dan")).to_be_visible()


def test_the_organiser_exports_a_members_data_and_forgets_them_after_being_asked(
        phone: Phone, server: Server) -> None:
    club = club_with_evenings(server)
    cem = next(m for m in server.get(f"/api/v1/clubs/{club['id']}", club["token"])["players"]
               if m["name"] == "Cem")
    page = phone.page
    open_club(phone, club, f"/p/{cem['id']}")
    with page.expect_download() as download:
        page.get_by_role("button", name="Export data").click()
    data = json.loads(Path(download.value.path()).read_text(encoding="utf-8"))
    assert data["member"]["name"] == "Cem"
    assert len(data["matches"]) == 2
    page.get_by_role("button", name="Forget").click()
    dialog = page.get_by_role("alertdialog")
    expect(dialog).to_contain_text(f"Former member {cem['id']}")
    expect(dialog).to_contain_text("cannot be undone")
    dialog.get_by_role("button", name="Cancel").click()
    assert server.get(f"/api/v1/clubs/{club['id']}/players/{cem['id']}", club["token"])
    page.get_by_role("button", name="Forget").click()
    page.get_by_role("alertdialog").get_by_role("button", name="Forget for good").click()
    expect(page.locator(".members li[data-member]")).to_have_count(2)
    expect(page.locator(".members")).not_to_contain_text("Cem")
    audit = server.get(f"/api/v1/clubs/{club['id']}/audit", club["token"])
    assert [(r["action"], r["member"]) for r in audit] == [("member_forgotten", cem["id"])]
    open_club(phone, club, "/season")
    expect(page.locator(f".season-table tr[data-member='{cem['id']}'] th a")).to_have_text(
        f"Former member {cem['id']}")


def test_the_organiser_sets_the_clubs_time_zone(phone: Phone, browser: Any,
                                                server: Server) -> None:
    club = server.post("/api/v1/clubs", {"name": "Tokio-Runde"})
    page = phone.page
    open_club(phone, club, "")
    zone = page.locator("#club-zone")
    expect(zone).to_have_value("Europe/Zurich")
    assert zone.locator("option").count() > 100  # every zone the browser knows
    zone.select_option("Asia/Tokyo")
    page.get_by_role("button", name="Save", exact=True).click()
    expect(page.locator(".toast")).to_contain_text("Asia/Tokyo")
    assert server.get(f"/api/v1/clubs/{club['id']}", club["token"])["time_zone"] == "Asia/Tokyo"
    # The view link reads the club but has no zone to set.
    with phone_in_use(browser, server) as viewer:
        viewer.open(f"#/c/{club['id']}?v={club['view_token']}")
        expect(viewer.page.locator(".members")).to_be_visible()
        expect(viewer.page.locator("#club-zone")).to_have_count(0)


def test_the_season_screens_speak_the_phones_language_without_english(
        server: Server, local_phone: Phone, lang: str) -> None:
    club = club_with_evenings(server)
    page = local_phone.page
    open_club(local_phone, club, "/season")
    base = f"{server.base}/#/c/{club['id']}"
    for path, shown in {"/season": ".season-table", "/season/1/p/1": "figure.chart",
                        "/p/3": ".member-data", "": "#club-zone"}.items():
        page.goto(f"{base}{path}")
        page.wait_for_selector("body[data-ready]")
        expect(page.locator(shown).first).to_be_visible()
        assert english_on_screen(page, lang) == [], path
    page.goto(f"{base}/p/3")
    page.get_by_role("button", name=words(lang, "member.forget"), exact=True).click()
    expect(page.get_by_role("alertdialog")).to_be_visible()
    assert english_on_screen(page, lang) == []
