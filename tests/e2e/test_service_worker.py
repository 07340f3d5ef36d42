"""The service worker in chromium against a real server: after one online visit what a phone at
a table needs opens offline, a match's entry form included though it was never opened, and an
organiser's screen (a tournament's dashboard, a club's ladder) once it was opened online; a
changed file on the server becomes the app's new version after a reload, an organiser's screen
opened before stays kept, and a round waiting in the outbox survives the update and is sent once.
"""

from __future__ import annotations

import re
import shutil
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from api.server.settings import REPO_ROOT
from bench.pwa_weight import critical_path
from tests.conftest import ServerFactory
from tests.e2e.conftest import Server, phone_in_use, qr_link

pytestmark = pytest.mark.browser


def versions(page: Any) -> list[str]:
    return list(page.evaluate("async () => (await caches.keys()).filter(n => n !== "
                              "'tafelrunde-answers')"))


def wait_for_versions(page: Any, expected: list[str]) -> None:
    """Until the app's caches are exactly ``expected`` (the new worker has activated and dropped
    the old version's cache)."""
    deadline = time.monotonic() + 15
    while (found := versions(page)) != expected:
        if time.monotonic() > deadline:
            raise AssertionError(f"the app's caches are {found}, not {expected}")
        time.sleep(0.1)


def precache_version(base: str) -> str:
    with urllib.request.urlopen(f"{base}/precache.js", timeout=10) as response:
        module = response.read().decode()
    return module.split('VERSION = "', 1)[1].split('"', 1)[0]


def test_a_tournament_and_a_match_open_offline_after_one_online_visit(
        phone: Any, server: Server) -> None:
    tournament = server.post("/api/v1/tournaments", {
        "name": "Offline cup", "game": "tschau-sepp", "rounds": 2, "table_size": 4})
    for name in ("Ann", "Ben", "Cid", "Dora"):
        server.post(f"/api/v1/tournaments/{tournament['id']}/players", {"name": name},
                    tournament["token"])
    match = server.post("/api/v1/matches", {"game": "tschau-sepp", "players": ["Ann", "Ben"]})
    page = phone.page
    phone.open("#/")
    phone.wait_for_service_worker()
    # Read by every match screen, and kept by the page once read: the worker fetches them itself.
    assert f"{server.base}/api/v1/games" in page.evaluate(
        "async () => (await (await caches.open('tafelrunde-answers')).keys()).map(r => r.url)")
    screens = {
        f"#/t/{tournament['id']}": page.get_by_role("heading", name="Offline cup"),
        f"#/t/{tournament['id']}/board": page.locator(".board-ranking"),
        # Not just .standings: the tournament screens have a table of that class too.
        f"#/m/{match['id']}/standings": page.locator(".match-head + div table.standings"),
    }
    for route, shown in screens.items():
        phone.open(route)
        expect(shown).to_be_visible()

    phone.context.set_offline(True)
    for route, shown in screens.items():
        page.goto(f"{server.base}/{route}")
        page.reload()
        page.wait_for_selector("body[data-ready]")
        expect(shown).to_be_visible()
        expect(page.locator("#net")).to_have_text("Offline")


# What the page showed when it registered the worker: no worker, no precache before this.
WATCH_REGISTRATION = """(() => {
  const register = ServiceWorkerContainer.prototype.register;
  ServiceWorkerContainer.prototype.register = function (...args) {
    window.registeredOver = { ready: document.body.dataset.ready || null,
      screen: document.querySelector('main .hero h1')?.textContent || null };
    return register.apply(this, args);
  };
})()"""


def test_the_worker_fetches_the_rest_of_the_app_only_after_the_first_screen_shows(
        phone: Any, server: Server) -> None:
    """The first visit's first screen does not share the network with the worker's install:
    every file the start screen needs (bench/pwa_weight.py finds them from app.js's static
    imports) is fetched by the page before the worker asks for anything, and the page registers
    the worker once the start screen is drawn."""
    page = phone.page
    heard: list[tuple[str, bool]] = []
    phone.context.on("request", lambda request: heard.append(
        (urlsplit(request.url).path, request.service_worker is not None)))
    page.add_init_script(WATCH_REGISTRATION)
    phone.open("#/")
    phone.wait_for_service_worker()
    assert page.evaluate("() => window.registeredOver") == {"ready": "en",
                                                             "screen": "Keep score at the table"}

    first_screen = {transfer.path for transfer in critical_path(server.base, "en")}
    by_worker = [index for index, (_, worker) in enumerate(heard) if worker]
    assert len(by_worker) > 20  # the installed files, some asked again to revalidate them
    by_page_before = {path for path, worker in heard[:by_worker[0]] if not worker}
    assert first_screen <= by_page_before, heard


def cached_files(page: Any) -> set[str]:
    """The app's files its current version's cache holds, as paths without the leading slash."""
    return set(page.evaluate("""async () => {
        const [name] = (await caches.keys()).filter((n) => n !== 'tafelrunde-answers');
        const requests = await (await caches.open(name)).keys();
        return requests.map((r) => new URL(r.url).pathname.slice(1));
    }"""))


def test_a_matchs_entry_form_never_opened_works_offline_after_the_install(
        phone: Any, server: Server) -> None:
    match = server.post("/api/v1/matches", {"game": "tschau-sepp", "players": ["Ann", "Ben"]})
    page = phone.page
    phone.open(f"#/m/{match['id']}/standings?t={match['token']}")
    expect(page.locator(".match-head + div table.standings")).to_be_visible()
    phone.wait_for_service_worker()
    cached = cached_files(page)
    assert {"js/screens/sheet.js", "js/games/tschau-sepp.js", "js/games/sea-change.js",
            "js/tournaments/confirm.js"} <= cached
    # The organiser's screens wait until they are first opened.
    assert not {"js/tournaments/dashboard.js", "js/clubs/ladder.js"} & cached
    phone.open(f"#/m/{match['id']}/standings")  # read again, now through the worker

    phone.context.set_offline(True)
    page.goto(f"{server.base}/#/m/{match['id']}")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#net")).to_have_text("Offline")
    page.locator("[data-path=winner] [data-value='0']").click()
    page.get_by_role("radio", name="Points").click()
    page.get_by_label("Penalty points of Ben").fill("9")
    page.get_by_role("button", name="Save game").click()
    expect(page.locator(".pending-round")).to_have_text("Game 1: waiting to be sent")


def test_a_clubs_ladder_opened_once_online_shows_offline(phone: Any, server: Server) -> None:
    club = server.post("/api/v1/clubs", {"name": "Offline club"})
    made = server.post("/api/v1/matches", {"game": "tschau-sepp", "players": ["Ann", "Ben"],
                                           "options": {"games": 1}, "club": club["id"]},
                       club["token"])
    server.post(f"/api/v1/matches/{made['id']}/rounds", {"winner": 0, "penalty": [0, 7]},
                made["token"])
    page = phone.page
    phone.open("#/")
    phone.wait_for_service_worker()
    assert "js/clubs/ladder.js" not in cached_files(page)
    route = f"#/c/{club['id']}/ladder"
    phone.open(f"{route}?v={club['view_token']}")
    expect(page.locator("table.ladder tbody tr")).to_have_count(2)
    assert "js/clubs/ladder.js" in cached_files(page)

    phone.context.set_offline(True)
    page.goto(f"{server.base}/{route}")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#net")).to_have_text("Offline")
    expect(page.locator("table.ladder tbody tr")).to_have_count(2)


def kept_words(page: Any) -> list[str]:
    """The languages whose words the app's cache holds."""
    return list(page.evaluate("""async () => {
        const [name] = (await caches.keys()).filter((n) => n !== 'tafelrunde-answers');
        const paths = (await (await caches.open(name)).keys()).map((r) => new URL(r.url).pathname);
        return paths.filter((p) => p.startsWith('/i18n/')).map((p) => p.slice(6, 8)).sort();
    }"""))


def test_the_worker_keeps_the_phones_words_and_a_language_once_it_was_shown(
        phone: Any, server: Server) -> None:
    page = phone.page
    phone.open("#/")
    phone.wait_for_service_worker()
    assert kept_words(page) == ["en"]  # the phone's language; the others wait until shown
    page.locator("#lang").select_option("fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert kept_words(page) == ["en", "fr"]
    phone.context.set_offline(True)
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#net")).to_have_text("Hors ligne")


def test_a_qr_code_shown_once_shows_offline_and_one_never_shown_says_why(
        phone: Any, server: Server, tmp_path: Path) -> None:
    shared = server.post("/api/v1/matches", {"game": "tschau-sepp", "players": ["Ann", "Ben"]})
    other = server.post("/api/v1/matches", {"game": "tschau-sepp", "players": ["Cid", "Dora"]})
    page = phone.page
    phone.open(f"#/m/{shared['id']}/share?t={shared['token']}")
    phone.wait_for_service_worker()
    phone.open(f"#/m/{shared['id']}/share")
    link = qr_link(page.locator(".share-edit .qr"), tmp_path / "online.png")
    phone.open(f"#/m/{other['id']}/standings?t={other['token']}")
    expect(page.locator("table.standings")).to_be_visible()

    phone.context.set_offline(True)
    phone.open(f"#/m/{shared['id']}/share")
    assert qr_link(page.locator(".share-edit .qr"), tmp_path / "offline.png") == link
    phone.open(f"#/m/{other['id']}/share")
    expect(page.locator(".share-edit .qr")).to_have_text(
        "Shown once there is a connection to the server: the QR code comes from there.")
    expect(page.locator(".share-edit input.link")).to_have_value(re.compile(other["token"]))


def test_a_printable_export_opens_as_itself_under_the_service_worker(
        phone: Any, server: Server) -> None:
    tournament = server.post("/api/v1/tournaments", {
        "name": "Print night", "game": "tschau-sepp", "rounds": 1, "table_size": 4})
    phone.open("#/")
    phone.wait_for_service_worker()
    phone.page.goto(f"{server.base}/api/v1/tournaments/{tournament['id']}/export?format=html")
    expect(phone.page.locator("body")).to_contain_text("Print night")
    assert phone.page.locator("#app").count() == 0


@pytest.fixture(scope="module")
def editable_app(tmp_path_factory: pytest.TempPathFactory,
                 serve: ServerFactory) -> Iterator[tuple[Server, Path]]:
    """A server of its own, serving a copy of the app that a test may change."""
    workdir = tmp_path_factory.mktemp("editable")
    pwa = workdir / "pwa"
    shutil.copytree(REPO_ROOT / "pwa", pwa)
    with serve(workdir, f"sqlite+aiosqlite:///{workdir / 'app.db'}",
               {"TAFELRUNDE_PWA_DIR": str(pwa)}) as base:
        yield Server(base), pwa


def test_a_changed_file_becomes_the_new_version_and_the_outbox_survives_it(
        browser: Any, editable_app: tuple[Server, Path]) -> None:
    server, pwa = editable_app
    made = server.post("/api/v1/matches", {"game": "tschau-sepp", "players": ["Ann", "Ben"]})
    with phone_in_use(browser, server) as phone:
        page = phone.page
        phone.open(f"#/m/{made['id']}?t={made['token']}")
        phone.wait_for_service_worker()
        first = versions(page)
        assert first == [precache_version(server.base)]

        # The server refuses nothing, but no round gets through until the end of the test.
        phone.context.route("**/api/v1/matches/*/rounds", lambda route: route.abort())
        page.locator("[data-path=winner] [data-value='0']").click()
        page.get_by_role("radio", name="Points").click()
        page.get_by_label("Penalty points of Ben").fill("12")
        page.get_by_role("button", name="Save game").click()
        expect(page.locator(".pending-round")).to_have_text("Game 1: waiting to be sent")

        strings = pwa / "i18n" / "en.json"
        strings.write_text(strings.read_text(encoding="utf-8").replace(
            '"Save game"', '"Record game"'), encoding="utf-8")
        changed = precache_version(server.base)
        assert changed not in first

        page.reload()  # the browser checks for a new worker; this page is still the old version
        page.wait_for_selector("body[data-ready]")
        expect(page.get_by_role("button", name="Save game")).to_be_visible()
        wait_for_versions(page, [changed])

        # The next screen opened loads the new version whole.
        page.get_by_role("link", name="History").click()
        page.wait_for_selector("body[data-ready]")
        page.get_by_role("link", name="Enter").click()
        expect(page.get_by_role("button", name="Record game")).to_be_visible()
        expect(page.locator(".pending-round")).to_have_text("Game 1: waiting to be sent")
        assert server.get(f"/api/v1/matches/{made['id']}")["rounds"] == []

        phone.context.unroute("**/api/v1/matches/*/rounds")
        phone.context.set_offline(True)
        phone.context.set_offline(False)  # 'online': the page sends what waits
        expect(page.locator(".pending-round")).to_have_count(0, timeout=15000)
    rounds = server.get(f"/api/v1/matches/{made['id']}")["rounds"]
    assert [r["entry"]["penalty"] for r in rounds] == [[0, 12]]


def test_an_organisers_screen_opened_before_an_update_is_kept_by_the_new_version(
        browser: Any, editable_app: tuple[Server, Path]) -> None:
    server, pwa = editable_app
    with phone_in_use(browser, server) as phone:
        page = phone.page
        phone.open("#/")
        phone.wait_for_service_worker()
        phone.open("#/t/new")
        expect(page.locator("form")).to_be_visible()
        assert "js/tournaments/new.js" in cached_files(page)
        assert "js/tournaments/board.js" not in cached_files(page)
        first = versions(page)

        style = pwa / "css" / "app.css"
        style.write_text(style.read_text(encoding="utf-8") + "\n/* changed */\n",
                         encoding="utf-8")
        changed = precache_version(server.base)
        assert changed not in first
        page.reload()
        page.wait_for_selector("body[data-ready]")
        wait_for_versions(page, [changed])
        cached = cached_files(page)
        assert "js/tournaments/new.js" in cached
        assert "js/tournaments/board.js" not in cached
