"""The app served to phones over the club's network (README, "At the table"): plain http at an
address that is not the phone's own, so the browser gives it no secure context (no service
worker, no crypto.randomUUID). A match is still created and played there, and the share and
table-card links and QR codes carry the address the phones opened, never 127.0.0.1; a page
opened at 127.0.0.1 says that the links it shares work on no phone.

Chromium resolves the made-up host name below to the test server on 127.0.0.1: the browser
treats it as any other machine on the network, and the test needs no network of its own."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import Chromium, Server, phone_in_use, qr_link

pytestmark = pytest.mark.browser

HOST = "club-laptop.test"


@pytest.fixture(scope="module")
def lan_browser(chromium: Chromium) -> Iterator[Any]:
    """A chromium of its own: the host name is mapped when the browser starts."""
    launched = chromium.launch(f"--host-resolver-rules=MAP {HOST} 127.0.0.1")
    yield launched
    launched.close()


@pytest.fixture
def lan(server: Server) -> Server:
    """The test server as a phone on the network reaches it."""
    return Server(server.base.replace("127.0.0.1", HOST))


def test_a_phone_on_the_club_network_plays_and_shares_links_with_that_address(
        lan_browser: Any, server: Server, lan: Server, tmp_path: Path) -> None:
    with phone_in_use(lan_browser, lan) as phone:
        phone.open("#/")
        page = phone.page
        assert page.evaluate("() => [isSecureContext, 'randomUUID' in crypto]") == [False, False]
        page.get_by_role("link", name="New match").click()
        page.click("[data-value=tschau-sepp]")
        page.get_by_label("Player 1", exact=True).fill("Ann")
        page.get_by_label("Player 2", exact=True).fill("Ben")
        page.fill("#opt-games", "2")
        page.get_by_role("button", name="Start match").click()
        page.locator("[data-path=winner] [data-value='0']").click()
        page.get_by_role("radio", name="Points", exact=True).click()
        page.get_by_label("Penalty points of Ben").fill("7")
        page.get_by_role("button", name="Save game").click()
        expect(page.locator(".entry-head h2")).to_contain_text("Game 2")
        match = page.evaluate("() => location.hash.split('/')[2]")
        assert len(server.get(f"/api/v1/matches/{match}")["rounds"]) == 1

        page.goto(f"{lan.base}/#/m/{match}/share")
        link = qr_link(page.locator(".share-edit .qr"), tmp_path / "edit.png")
        assert link.startswith(f"{lan.base}/#/m/{match}?t=")
        assert page.locator(".share-edit input.link").input_value() == link
        expect(page.locator(".unreachable-links")).to_have_count(0)


def test_table_cards_carry_the_address_the_organiser_opened(
        lan_browser: Any, server: Server, lan: Server, tmp_path: Path) -> None:
    tournament = server.post("/api/v1/tournaments", {
        "name": "Club night", "game": "tschau-sepp", "rounds": 1, "table_size": 4})
    for name in ("Ann", "Ben", "Cid", "Dora"):
        server.post(f"/api/v1/tournaments/{tournament['id']}/players", {"name": name},
                    tournament["token"])
    server.post(f"/api/v1/tournaments/{tournament['id']}/rounds", {}, tournament["token"])
    with phone_in_use(lan_browser, lan) as phone:
        phone.open("#/")
        phone.page.evaluate(
            """(t) => localStorage.setItem('tafelrunde.tournaments', JSON.stringify([{
                 id: t.id, name: 'Club night', game: 'tschau-sepp', token: t.token,
                 view: null }]))""",
            tournament)
        phone.open(f"#/t/{tournament['id']}/r/1/cards")
        card = phone.page.locator(".table-card").first
        href = card.locator(".table-link").get_attribute("href")
        assert href is not None
        assert href.startswith(f"{lan.base}/#/m/")
        assert qr_link(card.locator(".qr"), tmp_path / "card.png") == href
        expect(phone.page.locator(".unreachable-links")).to_have_count(0)


def test_links_shared_from_a_page_opened_at_127_0_0_1_are_said_to_be_unreachable(
        lan_browser: Any, server: Server) -> None:
    made = server.post("/api/v1/matches", {"game": "tschau-sepp", "players": ["Ann", "Ben"]})
    with phone_in_use(lan_browser, server) as phone:
        phone.open(f"#/m/{made['id']}/share?t={made['token']}")
        warnings = phone.page.locator(".unreachable-links")
        expect(warnings).to_have_count(2)
        port = server.base.rsplit(":", 1)[1]
        expect(warnings.first).to_contain_text(f"Phones cannot open links to 127.0.0.1:{port}")
