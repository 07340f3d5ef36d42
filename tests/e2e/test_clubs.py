"""A club in the app, in chromium at 360×640 against a real server.

From creating a club to its ladder: two Tschau Sepp matches started from the club, the first
with names typed, the second with members picked by a tap; the ladder and its chart show
openskill's ratings of those results, the statistics and the head-to-head their counts; the
history opens a match; the club's QR codes decode to links that work on other phones, the view
link without a single write control. And the club's screens in German, French and Italian
without a word of English.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from openskill.models import PlackettLuce
from playwright.sync_api import expect

from tests.e2e.conftest import Phone, Server, phone_in_use, qr_link
from tests.e2e.test_languages import api_english, english_on_screen, words

pytestmark = pytest.mark.browser

# A save travels through the outbox, the API and the winner's reads before the next screen; a
# club screen is loaded when first opened: on a loaded machine either can take more than 5 s.
SAVED = 15000
# Each club screen (under #/c/<id>) and what shows once it is drawn.
SCREENS = {
    "": ".members li[data-member]",
    "/ladder": "figure.chart",
    "/history": ".club-history li[data-entry]",
    "/p/1": "section[data-game] [data-fact=played]",
    "/p/1/vs/3": ".head-to-head [data-fact=played]",
    "/share": ".share-view .qr img",
    "/settlement": ".settlement h2",
    "/kasse": ".kasse h2",
}


def tschau_sepp_for_the_club(page: Any, penalties: dict[str, int]) -> None:
    """Start the match set up on the new-match screen (one game) and play its only game: the
    player with no penalty goes out, the others keep the points given."""
    page.fill("#opt-games", "1")
    page.get_by_role("button", name="Start match").click()
    expect(page.locator("form.entry-form")).to_be_visible()
    out = next(name for name, points in penalties.items() if points == 0)
    page.locator("[data-path=winner] [role=radio]", has_text=out).click()
    page.get_by_role("radio", name="Points", exact=True).click()
    for name, points in penalties.items():
        if points:
            page.get_by_label(f"Penalty points of {name}", exact=True).fill(str(points))
    page.get_by_role("button", name="Save game").click()
    expect(page.locator("#winner-names")).to_have_text(f"{out} wins!", timeout=SAVED)


def held_club(page: Any) -> dict[str, Any]:
    clubs: list[dict[str, Any]] = json.loads(page.evaluate(
        "() => localStorage.getItem('tafelrunde.clubs')"))
    return clubs[0]


def expected_ordinals(results: list[list[str]]) -> dict[str, float]:
    """openskill's own ratings (Plackett-Luce, its defaults) after matches given as finishing
    orders, best first."""
    model = PlackettLuce()
    ratings: dict[str, Any] = {}
    for order in results:
        teams = [[ratings.get(name) or model.rating(name=name)] for name in order]
        rated = model.rate(teams, ranks=list(range(1, len(order) + 1)))
        ratings.update({name: team[0] for name, team in zip(order, rated, strict=True)})
    return {name: rating.ordinal() for name, rating in ratings.items()}


def shown_rating(value: float) -> str:
    return f"{value:.1f}"


def test_a_club_from_its_creation_to_the_ladder_statistics_history_and_links(
        phone: Phone, browser: Any, server: Server, tmp_path: Any) -> None:
    page = phone.page
    phone.open("#/")
    page.get_by_role("link", name="New club").click()
    page.get_by_label("Name of the club").fill("Donnerstagsrunde")
    page.get_by_role("button", name="Create club").click()
    expect(page.locator(".share-member .qr img")).to_be_visible()
    club = held_club(page)
    assert club["name"] == "Donnerstagsrunde"
    assert club["token"]
    assert club["view"]

    # The first match: nobody is a member yet, the names are typed.
    page.get_by_role("link", name="Members").click()
    expect(page.locator(".members")).to_contain_text("No members yet")
    page.get_by_role("link", name="New match for the club").click()
    page.click("[data-value=tschau-sepp]")
    page.get_by_role("button", name="Add player").click()
    for seat, name in enumerate(["Ann", "Ben", "Cid"]):
        page.get_by_label(f"Player {seat + 1}", exact=True).fill(name)
    tschau_sepp_for_the_club(page, {"Ann": 0, "Ben": 7, "Cid": 10})

    # The second: two taps on members, in the order they sit; the third player is typed.
    phone.open(f"#/c/{club['id']}/new")
    page.click("[data-value=tschau-sepp]")
    picker = page.get_by_role("group", name="Members")
    picker.get_by_role("button", name="Cid").click()
    picker.get_by_role("button", name="Ann").click()
    expect(page.get_by_label("Player 1", exact=True)).to_have_value("Cid")
    expect(page.get_by_label("Player 2", exact=True)).to_have_value("Ann")
    expect(picker.get_by_role("button", name="Cid")).to_have_attribute("aria-pressed", "true")
    picker.get_by_role("button", name="Ben").click()
    picker.get_by_role("button", name="Ben").click()  # a second tap takes Ben off again
    expect(page.locator(".players li")).to_have_count(2)
    page.get_by_role("button", name="Add player").click()
    page.get_by_label("Player 3", exact=True).fill("dora ")
    tschau_sepp_for_the_club(page, {"Cid": 0, "Ann": 7, "dora": 10})

    # Members, ladder and its chart: openskill's numbers for these two results.
    phone.open(f"#/c/{club['id']}")
    members = page.locator(".members li[data-member]")
    expect(members).to_have_count(4)
    expect(members.first).to_contain_text("Ann")
    page.get_by_role("link", name="Ladder").click()
    ordinals = expected_ordinals([["Ann", "Ben", "Cid"], ["Cid", "Ann", "dora"]])
    ladder = page.locator("table.ladder tbody tr")
    expect(ladder).to_have_count(4)
    by_rating = sorted(ordinals, key=lambda name: -ordinals[name])
    for row, name in enumerate(by_rating):
        expect(ladder.nth(row).locator("th")).to_have_text(name)
        expect(ladder.nth(row).locator("td").nth(1)).to_have_text(shown_rating(ordinals[name]))
    chart = page.locator("figure.chart")
    expect(chart.locator("svg .chart-series")).to_have_count(4)
    table = chart.locator("table.chart-data")
    expect(table.locator("tbody tr")).to_have_count(2)  # club matches no. 1 and 2
    heads = [text.strip() for text in table.locator("thead th").all_inner_texts()]
    second = [text.strip() for text in table.locator("tbody tr[data-x='2'] td").all_inner_texts()]
    assert dict(zip(heads[1:], second, strict=True)) == {
        name: "" if name == "Ben" else shown_rating(ordinals[name]) for name in heads[1:]}

    # Ann's statistics, and Ann against Cid: one win each, each once ahead.
    ladder.locator("th a", has_text="Ann").click()
    stats = page.locator("section[data-game=tschau-sepp]")
    expect(stats.locator("[data-fact=played] td")).to_have_text("2")
    expect(stats.locator("[data-fact=won] td")).to_have_text("1")
    expect(stats.locator("[data-fact=win_rate] td")).to_have_text("50%")
    expect(stats.locator("[data-fact=penalty_per_game] td")).to_have_text("3.5")
    expect(stats.locator("[data-fact=rating] td")).to_have_text(shown_rating(ordinals["Ann"]))
    page.get_by_label("Head-to-head against").select_option(label="Cid")
    versus = page.locator(".head-to-head")
    expect(versus.locator("h2")).to_have_text("Ann against Cid")
    for fact, count in (("played", "2"), ("player_ahead", "1"), ("opponent_ahead", "1"),
                        ("player_won", "1"), ("opponent_won", "1"), ("tied", "0")):
        expect(versus.locator(f"[data-fact={fact}] td")).to_have_text(count)

    # The history, filtered by a member, opens a match.
    page.get_by_role("link", name="History").click()
    expect(page.get_by_role("heading", name="Matches and tournaments")).to_be_visible()
    entries = page.locator(".club-history li[data-entry]")
    expect(entries).to_have_count(2)
    page.get_by_label("Member", exact=True).select_option(label="Ben")
    expect(entries).to_have_count(1)
    expect(entries.first).to_contain_text("★ Ann (1st), Ben (2nd), Cid (3rd)")
    entries.first.locator("a").click()
    expect(page.locator(".match-head h1")).to_contain_text("Ann, Ben, Cid")
    opened = page.url.split("#/m/")[1].split("/")[0]
    # A member's phone corrects a club match with the club token.
    page.goto(f"{server.base}/#/m/{opened}/history")
    expect(page.locator(f".sheet a[href='#/m/{opened}/rounds/1']")).to_be_visible()
    expect(page.locator("button.undo")).to_be_visible()

    # The QR codes: the member link starts matches on another phone, the view link reads only.
    page.goto(f"{server.base}/#/c/{club['id']}/share")
    member_link = qr_link(page.locator(".share-member .qr"), tmp_path / "member.png")
    view_link = qr_link(page.locator(".share-view .qr"), tmp_path / "view.png")
    assert member_link.endswith(f"#/c/{club['id']}?t={club['token']}&v={club['view']}")
    assert view_link.endswith(f"#/c/{club['id']}?v={club['view']}")
    with phone_in_use(browser, server) as member:
        member.page.goto(member_link)
        member.page.wait_for_selector("body[data-ready]")
        expect(member.page.get_by_role("link", name="New match for the club")).to_be_visible()
        expect(member.page.get_by_role("button", name="Edit Ann")).to_be_visible()
    with phone_in_use(browser, server) as viewer:
        viewer.page.goto(view_link)
        viewer.page.wait_for_selector("body[data-ready]")
        screen = viewer.page
        expect(screen.locator(".members li[data-member]")).to_have_count(4)
        expect(screen.locator(".read-only")).to_be_visible()
        assert screen.url.endswith(f"#/c/{club['id']}")  # the token left the address
        for path, shown in SCREENS.items():
            screen.goto(f"{server.base}/#/c/{club['id']}{path}")
            expect(screen.locator(shown).first).to_be_visible(timeout=SAVED)
            # No way to start a match or tournament, change a member or back the club up.
            expect(screen.locator("a[href*='/new']")).to_have_count(0)
            expect(screen.locator("button[aria-expanded], .member-edit")).to_have_count(0)
            expect(screen.get_by_role("button", name="Backup of the club")).to_have_count(0)
        expect(screen.locator(".share-member")).to_have_count(0)  # the view link only
        screen.goto(f"{server.base}/#/c/{club['id']}/history")
        screen.locator(".club-history li[data-entry] a").first.click()
        expect(screen.locator("#winner-names")).to_have_text("Cid wins!")
        screen.get_by_role("link", name="History").click()
        expect(screen.locator(".sheet")).to_contain_text("dora")
        expect(screen.locator(".sheet a, button.undo")).to_have_count(0)


def test_a_live_update_still_on_its_way_when_the_screen_is_left_never_covers_the_next(
        phone: Phone, server: Server) -> None:
    """The ladder redraws when a match finishes elsewhere; a phone that opens the history while
    that redraw waits for its answer keeps the history (seen: the late ladder covered it)."""
    club = server.post("/api/v1/clubs", {"name": "Freitagsrunde"})
    play_for(server, club, ["Ann", "Ben"], [0, 7])
    page = phone.page
    phone.open(f"#/c/{club['id']}/ladder?v={club['view_token']}")
    expect(page.locator("table.ladder tbody tr")).to_have_count(2)
    phone.wait_for_service_worker()  # its takeover redraws the screen
    # The ladder's reads are held in the page (a page its service worker controls sends its
    # requests past Playwright's routes); the waits are promises with a time limit.
    page.evaluate("""() => {
      const network = window.fetch;
      window.held = [];
      window.firstHeld = new Promise((heard) => { window.heardFirst = heard; });
      window.pending = 0;  // the ladder's reads not answered yet, held or not
      const counted = (reading) => {
        window.pending += 1;
        return reading.finally(() => { window.pending -= 1; });
      };
      window.fetch = (url, init) => (!String(url).includes('/ratings') ? network(url, init)
        : counted(window.held ? new Promise((answer, fail) => {
          window.held.push(() => network(url, init).then(answer, fail));
          window.heardFirst();
        }) : network(url, init)));
      window.within = (promise, what) => Promise.race([promise, new Promise(
        (_, late) => setTimeout(() => late(new Error(`no ${what} within 10 s`)), 10000))]);
    }""")
    play_for(server, club, ["Eve", "Ann"], [0, 7])  # on another phone
    page.evaluate("() => window.within(window.firstHeld, 'ladder read')")
    page.get_by_role("link", name="History").click()
    expect(page.locator(".club-history li[data-entry]")).to_have_count(2)
    # Every ladder read goes on and is answered (the chart's too), and the late ladder drawn.
    page.evaluate("""() => {
      const held = window.held;
      window.held = null;
      held.forEach((go) => go());
      return window.within(new Promise((answered) => {
        const look = () => setTimeout(window.pending === 0 ? answered : look, 50);
        look();
      }), 'ladder answers');
    }""")
    page.wait_for_timeout(100)
    expect(page.locator("table.ladder")).to_have_count(0)
    expect(page.locator(".club-history li[data-entry]")).to_have_count(2)


def play_for(server: Server, club: dict[str, Any], players: list[str],
             penalties: list[int]) -> None:
    """A one-game Tschau Sepp match of the club, through the API."""
    made = server.post("/api/v1/matches", {"game": "tschau-sepp", "players": players,
                                           "options": {"games": 1}, "club": club["id"]},
                       club["token"])
    server.post(f"/api/v1/matches/{made['id']}/rounds",
                {"winner": penalties.index(0), "penalty": penalties}, made["token"])


def test_the_club_screens_speak_the_phones_language_without_english(
        server: Server, local_phone: Phone, lang: str) -> None:
    club = server.post("/api/v1/clubs", {"name": "Jassrunde"})
    play_for(server, club, ["Ann", "Ben", "Cid"], [0, 7, 10])
    play_for(server, club, ["Cid", "Ann"], [0, 7])
    page = local_phone.page
    local_phone.open(f"#/c/{club['id']}?t={club['token']}&v={club['view_token']}")
    base = f"#/c/{club['id']}"
    api = api_english(server, lang, f"/clubs/{club['id']}/history", token=club["token"])
    for path, shown in {**SCREENS, "/new": ".member-picker"}.items():
        page.goto(f"{server.base}/{base}{path}")
        page.wait_for_selector("body[data-ready]")
        expect(page.locator(shown).first).to_be_visible(timeout=SAVED)
        assert english_on_screen(page, lang, api) == [], path
    page.goto(f"{server.base}/{base}")
    page.get_by_role("button", name=words(lang, "club.edit_member", name="Ann")).click()
    page.get_by_role("button", name=words(lang, "club.remove")).click()
    expect(page.get_by_text(words(lang, "club.remove_ask", name="Ann"))).to_be_visible()
    assert english_on_screen(page, lang) == []
    local_phone.open("#/c/new")
    page.get_by_role("button", name=words(lang, "club.create")).click()
    expect(page.locator("[data-path=name] + .field-error, .form-errors").first).to_be_visible()
    refused = api_english(server, lang, "/clubs", {"name": ""})
    assert english_on_screen(page, lang, refused) == []


def club_members(server: Server, club: dict[str, Any]) -> dict[str, Any]:
    answer = server.get(f"/api/v1/clubs/{club['id']}/players", club["token"])
    return {member["name"]: member for member in answer}


def test_members_are_renamed_merged_and_removed_after_a_second_ask_and_a_rematch_stays_the_clubs(
        phone: Phone, server: Server) -> None:
    club = server.post("/api/v1/clubs", {"name": "Mittwochsjass"})
    play_for(server, club, ["Ann", "Ben", "Cid"], [0, 7, 10])
    play_for(server, club, ["Anne", "Cid"], [0, 7])
    page = phone.page
    phone.open(f"#/c/{club['id']}?t={club['token']}&v={club['view_token']}")
    rows = page.locator(".members li[data-member]")
    names = page.locator(".members .member-link strong")  # regulars first, then by name
    expect(names).to_have_text(["Cid", "Ann", "Anne", "Ben"])

    def edit(name: str) -> Any:
        page.get_by_role("button", name=f"Edit {name}", exact=True).click()
        return page.get_by_role("group", name=f"Edit {name}", exact=True)

    panel = edit("Ben")
    panel.get_by_label("New spelling of the name").fill("Benjamin")
    panel.get_by_role("button", name="Rename").click()
    expect(panel).to_contain_text("Rename Ben to Benjamin?")
    assert "Benjamin" not in club_members(server, club)  # nothing is sent before the second ask
    panel.get_by_role("button", name="Rename").click()
    expect(names).to_have_text(["Cid", "Ann", "Anne", "Benjamin"])
    assert "Benjamin" in club_members(server, club)

    panel = edit("Anne")
    panel.get_by_label("Same person as").select_option(label="Ann")
    panel.get_by_role("button", name="Merge").click()
    expect(panel).to_contain_text("Merge Anne into Ann?")
    panel.get_by_role("button", name="Merge").click()
    expect(names).to_have_text(["Ann", "Cid", "Benjamin"])
    expect(rows.first).to_contain_text("also: Anne")
    assert club_members(server, club)["Ann"]["games"]["tschau-sepp"]["played"] == 2

    panel = edit("Cid")
    panel.get_by_role("button", name="Remove from the club").click()
    panel.get_by_role("button", name="Cancel").click()
    panel.get_by_role("button", name="Remove from the club").click()
    expect(panel).to_contain_text("Remove Cid from the club?")
    panel.get_by_role("button", name="Remove from the club").click()
    expect(names).to_have_text(["Ann", "Benjamin"])
    assert set(club_members(server, club)) == {"Ann", "Benjamin"}
    history = server.get(f"/api/v1/clubs/{club['id']}/history", club["token"])
    assert len(history["entries"]) == 2  # the removed member's results stay

    # A match opened from the club's history is played again for the club.
    page.get_by_role("link", name="History").click()
    page.locator(".club-history li[data-entry] a").first.click()
    page.get_by_role("button", name="Play again").click()
    expect(page.locator(".member-picker")).to_be_visible()
    # The names as that match was typed: Anne is Ann's second spelling, so the seat is Ann's;
    # the removed Cid's seat is empty, for another member.
    expect(page.get_by_label("Player 1", exact=True)).to_have_value("Anne")
    expect(page.get_by_label("Player 2", exact=True)).to_have_value("")
    expect(page.get_by_role("group", name="Members").get_by_role("button", name="Ann")
           ).to_have_attribute("aria-pressed", "true")
    page.get_by_role("group", name="Members").get_by_role("button", name="Benjamin").click()
    expect(page.get_by_label("Player 2", exact=True)).to_have_value("Benjamin")
    page.get_by_role("button", name="Start match").click()
    expect(page.locator("form.entry-form")).to_be_visible()
    history = server.get(f"/api/v1/clubs/{club['id']}/history", club["token"])
    assert len(history["entries"]) == 3
    assert history["entries"][0]["players"][0]["player"] == club_members(server, club)["Ann"]["id"]

    # A tournament for the club.
    phone.open(f"#/c/{club['id']}")
    page.get_by_role("link", name="New tournament for the club").click()
    expect(page.locator(".club-of")).to_contain_text("Mittwochsjass")
    page.get_by_label("Name of the tournament").fill("Wintercup")
    page.get_by_role("button", name="Create tournament").click()
    expect(page.locator("h1").filter(has_text="Wintercup")).to_be_visible(timeout=SAVED)
    # Its players are the club's members: they are offered as a name is typed.
    expect(page.locator("#tt-members option")).to_have_count(2)
    assert sorted(page.locator("#tt-members option").evaluate_all(
        "options => options.map((o) => o.value)")) == ["Ann", "Benjamin"]
    expect(page.locator("#tt-player-name")).to_have_attribute("list", "tt-members")
    history = server.get(f"/api/v1/clubs/{club['id']}/history", club["token"])
    assert [entry["name"] for entry in history["entries"] if entry["kind"] == "tournament"
            ] == ["Wintercup"]


def test_the_ladder_and_the_history_follow_matches_finished_on_other_phones(
        phone: Phone, server: Server) -> None:
    club = server.post("/api/v1/clubs", {"name": "Freitagsrunde"})
    play_for(server, club, ["Ann", "Ben"], [0, 7])
    page = phone.page
    phone.open(f"#/c/{club['id']}/ladder?v={club['view_token']}")
    expect(page.locator("table.ladder tbody tr")).to_have_count(2)
    play_for(server, club, ["Eve", "Ann"], [0, 7])  # on another phone
    expect(page.locator("table.ladder tbody tr")).to_have_count(3, timeout=SAVED)
    expect(page.locator("table.ladder tbody tr").first.locator("th")).to_have_text("Eve")
    page.get_by_role("link", name="History").click()
    expect(page.locator(".club-history li[data-entry]")).to_have_count(2)
    play_for(server, club, ["Ben", "Eve"], [0, 7])
    expect(page.locator(".club-history li[data-entry]")).to_have_count(3, timeout=SAVED)
    expect(page.locator(".club-head h1")).to_contain_text("3 matches played")
