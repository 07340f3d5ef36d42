"""Paper when the phones fail: the round's score sheets, who sits where and the standings,
printed to PDF by Chromium from the links on the tournament dashboard and read back with
``pdftotext -layout``: every name on its page, one table per page, the round and the date."""

from __future__ import annotations

import shutil
import subprocess
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from babel.dates import format_date

from tests.e2e.conftest import PHONES, Server, phone_in_use

SEALS = ["Zoë", "Élodie", "anna", "Bruno", "Chiara", "Dario", "Emil", "Fabienne", "Gianni",
         "Hélène", "Ivo"]
"""Eleven players: tables of 4, 4 and 3; accents and a lower-case name to sort among them."""
ALPHABETICAL = ["anna", "Bruno", "Chiara", "Dario", "Élodie", "Emil", "Fabienne", "Gianni",
                "Hélène", "Ivo", "Zoë"]


@pytest.fixture(scope="module", autouse=True)
def _pdftotext() -> None:
    if shutil.which("pdftotext") is None:
        pytest.fail("pdftotext is missing (Debian package poppler-utils)")


def tournament(server: Server, game: str, names: list[str], **options: Any) -> dict[str, Any]:
    made: dict[str, Any] = server.post("/api/v1/tournaments", {
        "name": "Siegelnacht", "game": game, "options": options, "rounds": 3, "table_size": 4,
        "seating": "random", "seed": 3})
    for name in names:
        server.post(f"/api/v1/tournaments/{made['id']}/players", {"name": name}, made["token"])
    server.post(f"/api/v1/tournaments/{made['id']}/rounds", {}, made["token"])
    played: dict[str, Any] = server.get(f"/api/v1/tournaments/{made['id']}")
    return played


def printed(browser: Any, server: Server, url: str, pdf: Path, locale: str = "en-US") -> list[str]:
    """The pages of ``url`` as Chromium prints them on A4, each as pdftotext lays it out."""
    with phone_in_use(browser, server, locale) as screen:
        response = screen.page.goto(url)
        assert response is not None, url
        assert response.ok, url
        screen.page.pdf(path=str(pdf), prefer_css_page_size=True, print_background=True)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True,
                          text=True, check=True).stdout
    return [page for page in text.split("\f") if page.strip()]


def dashboard_links(browser: Any, server: Server, tournament_id: str) -> dict[str, str]:
    """The paper links under the current round of the dashboard, as a player's phone shows it."""
    with phone_in_use(browser, server) as phone:
        phone.open(f"#/t/{tournament_id}")
        phone.page.wait_for_selector(".paper a[data-paper]")
        links = {a.get_attribute("data-paper"): a.get_attribute("href")
                 for a in phone.page.locator(".paper a[data-paper]").all()}
        links["standings"] = phone.page.locator("a[data-export=html]").get_attribute("href")
    return {sheet: href if href.startswith("http") else server.base + href
            for sheet, href in links.items()}


def seated(played: dict[str, Any]) -> list[list[str]]:
    names = {p["id"]: p["name"] for p in played["players"]}
    return [[names[p] for p in table["players"]] for table in played["round_list"][0]["tables"]]


def test_each_table_has_its_seven_seals_sheet_on_a_page_of_its_own_with_its_names_in_seat_order(
    browser: Any, server: Server, tmp_path: Path,
) -> None:
    played = tournament(server, "seven-seals", SEALS)
    tables = seated(played)
    assert sorted(map(len, tables)) == [3, 4, 4]
    links = dashboard_links(browser, server, played["id"])
    pages = printed(browser, server, links["scores"], tmp_path / "scores.pdf")
    assert len(pages) == len(tables)
    for number, (page, names) in enumerate(zip(pages, tables, strict=True), 1):
        assert "Siegelnacht" in page
        assert f"Round 1 · table {number}" in page
        header = next(line for line in page.splitlines() if names[0] in line)
        assert [header.index(name) for name in names] == sorted(header.index(n) for n in names)
        for others in tables:
            for name in others:
                assert (name in page) == (name in names), (number, name)
        # Every player's seal columns (a heading may wrap in its narrow column, so its last
        # word is counted), a row per round (as many rounds as players, 6 for three), a total.
        for word in ("taken", "left", "black", "penalty"):
            assert page.split().count(word) == len(names), word
        rows = [line.split()[0] for line in page.splitlines()
                if line.strip() and line.split()[0].isdigit()]
        assert rows == [str(r) for r in range(1, (6 if len(names) == 3 else len(names)) + 1)]
        assert "Total" in page


def test_who_sits_where_lists_everyone_alphabetically_with_table_and_seat_in_each_language(
    browser: Any, server: Server, tmp_path: Path,
) -> None:
    played = tournament(server, "seven-seals", SEALS)
    place = {name: (t, s) for t, names in enumerate(seated(played), 1)
             for s, name in enumerate(names, 1)}
    url = dashboard_links(browser, server, played["id"])["seats"]
    headings = {"en": "Who sits where · round 1", "de": "Wer sitzt wo · Runde 1",
                "fr": "Qui est assis où · ronde 1", "it": "Chi siede dove · turno 1"}
    for lang, heading in headings.items():
        (page,) = printed(browser, server, url.replace("lang=en", f"lang={lang}"),
                          tmp_path / f"seats-{lang}.pdf", PHONES.get(lang, "en-US"))
        assert heading in page
        lines = [line.split() for line in page.splitlines()]
        listed = [(words[0], int(words[1]), int(words[2])) for words in lines
                  if len(words) == 3 and words[0] in place]
        assert [name for name, _t, _s in listed] == ALPHABETICAL
        assert all(place[name] == (t, s) for name, t, s in listed)


def test_the_standings_print_with_every_name_the_round_and_the_date(
    browser: Any, server: Server, tmp_path: Path,
) -> None:
    played = tournament(server, "seven-seals", SEALS)
    url = dashboard_links(browser, server, played["id"])["standings"]
    updated = datetime.fromisoformat(played["updated_at"]).astimezone(UTC).date()
    for lang, round_words in {"en": "before the first result",
                              "de": "vor dem ersten Ergebnis"}.items():
        pages = printed(browser, server, url.replace("lang=en", f"lang={lang}"),
                        tmp_path / f"standings-{lang}.pdf")
        text = "\n".join(pages)
        for name in SEALS:
            assert name in text
        assert round_words in text
        assert format_date(updated, format="long", locale=lang) in pages[0]


@pytest.mark.parametrize(("game", "options", "columns", "rows"), [
    ("sea-change", {}, ("points", "VP"), 9),
    ("tschau-sepp", {"games": 5}, ("penalty",), 5),
    ("tschau-sepp", {"scoring": "wins", "wins_needed": 2}, ("went",), 5),
])
def test_sea_change_and_tschau_sepp_sheets_have_their_own_columns_and_match_length(
    browser: Any, server: Server, tmp_path: Path, game: str, options: dict[str, Any],
    columns: tuple[str, ...], rows: int,
) -> None:
    played = tournament(server, game, SEALS[:8], **options)
    tables = seated(played)
    url = dashboard_links(browser, server, played["id"])["scores"]
    pages = printed(browser, server, url, tmp_path / "scores.pdf")
    assert len(pages) == len(tables) == 2
    for page, names in zip(pages, tables, strict=True):
        assert all(name in page for name in names)
        for column in columns:  # a column's heading, under every player
            assert page.split().count(column) == len(names), column
        numbered = [line.split()[0] for line in page.splitlines()
                    if line.strip() and line.split()[0].isdigit()]
        assert numbered == [str(r) for r in range(1, rows + 1)]
