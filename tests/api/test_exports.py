"""The CSV exports as a spreadsheet receives them, on SQLite and PostgreSQL: one charset, empty
cells for absent values, numbers as numbers."""

from __future__ import annotations

import csv
import io
from typing import Any

from litestar import Litestar
from litestar.testing import AsyncTestClient

from api.shared.spreadsheet import Layout, csv_bytes
from tests.api.test_tournaments import BASE, new_tournament, play_round, register
from tests.conftest import problem

Client = AsyncTestClient[Litestar]


async def sea_change_match(client: Client, players: list[str]) -> str:
    """A Sea Change match with one round in points mode: no cards counted, a negative score."""
    created = (await client.post("/api/v1/matches", json={
        "game": "sea-change", "players": players})).json()
    entry = {"final_trump": "yellow", "scores": [5, 3, -1, 2], "trump_zero": 0}
    recorded = await client.post(f"/api/v1/matches/{created['id']}/rounds", json=entry,
                                 headers={"Authorization": f"Bearer {created['token']}"})
    assert recorded.status_code == 201, recorded.text
    return f"/api/v1/matches/{created['id']}"


def table(response: Any, separator: str = ",") -> list[dict[str, str]]:
    assert response.status_code == 200, response.text
    text = response.content.decode("utf-8").removeprefix("\ufeff")
    return list(csv.DictReader(io.StringIO(text), delimiter=separator))


async def test_every_text_answer_of_the_exports_names_its_charset_once(client: Client) -> None:
    match = await sea_change_match(client, ["Ann", "Bea", "Cem", "Dan"])
    tournament = await new_tournament(client)
    answers = {
        "text/csv; charset=utf-8": [f"{match}/export", f"{BASE}/{tournament['id']}/export"],
        "text/html; charset=utf-8": [f"{BASE}/{tournament['id']}/export?format=html"],
        "text/css; charset=utf-8": [f"{BASE}/print.css"],
    }
    for media_type, urls in answers.items():
        for url in urls:
            assert (await client.get(url)).headers["content-type"] == media_type, url


async def test_an_absent_value_is_an_empty_cell_and_a_negative_score_a_number(
    client: Client,
) -> None:
    match = await sea_change_match(client, ["Ann", "Bea", "Cem", "Dan"])
    (played,) = table(await client.get(f"{match}/export"))
    assert played["Cards collected"] == ""
    assert played["Cem: points"] == "-1"

    tournament = await new_tournament(client)
    await register(client, tournament, ["Ann", "Bea", "Cem", "Dan"], ["Bern", None, None, None])
    await play_round(client, tournament)
    rows = table(await client.get(f"{BASE}/{tournament['id']}/export"))
    assert {row["Name"]: row["Club"] for row in rows} == {
        "Ann": "Bern", "Bea": "", "Cem": "", "Dan": ""}


async def test_a_solo_match_has_a_column_for_you_and_one_for_the_ai_in_its_language(
    client: Client,
) -> None:
    """Two sides for one player: each side's points are its own cells, not ``[2, 6]``."""
    created = (await client.post("/api/v1/matches", json={
        "game": "sea-change", "players": ["Ann"], "options": {"suits": ["blue", "red", "green"]},
    })).json()
    entry = {"final_trump": "red", "scores": [2, 6], "trump_zero": 1, "has_eight": False}
    recorded = await client.post(f"/api/v1/matches/{created['id']}/rounds", json=entry,
                                 headers={"Authorization": f"Bearer {created['token']}"})
    assert recorded.status_code == 201, recorded.text
    (played,) = table(await client.get(f"/api/v1/matches/{created['id']}/export?lang=de"))
    assert played.pop("Gespielt am") == created["played_at"][:16].replace("T", " ")  # UTC
    assert played.pop("Ort") == ""
    assert played == {"Runde": "1", "Trumpf am Rundenende": "Rot", "Gesammelte Karten": "",
                      "Trumpf-0": "KI", "Sieger der Partie": "",
                      "Ann: Punkte": "2", "Ann: SP": "0", "Ann: SP gesamt": "0",
                      "Ann: Punkte gesamt": "2", "KI: Punkte": "6", "KI: SP": "1",
                      "KI: SP gesamt": "1", "KI: Punkte gesamt": "6"}


# --- formula injection (OWASP "CSV Injection") ------------------------------------------------

HOSTILE = ["=cmd|' /C calc'!A0", '=HYPERLINK("https://ex.org","Jörg")', "+41 79", "-Dan",
           "@SUM(A1:A9)"]


def test_text_that_a_spreadsheet_would_run_gets_a_leading_quote_and_numbers_stay_numbers() -> None:
    row = ["=1+2", "+1", "-Dan", "@SUM(A1)", "\tTab", "\rCR", "Jörg", "'Ann", "a=b", -1, -0.5,
           2.25, 0, None]
    text = csv_bytes([row], Layout()).decode("utf-8").removeprefix("\ufeff")
    assert next(csv.reader(io.StringIO(text))) == [
        "'=1+2", "'+1", "'-Dan", "'@SUM(A1)", "'\tTab", "'\rCR", "Jörg", "'Ann", "a=b", "-1",
        "-0.5", "2.25", "0", ""]


async def test_hostile_player_names_reach_the_match_export_as_text(client: Client) -> None:
    match = await sea_change_match(client, HOSTILE[:4])
    (played,) = table(await client.get(f"{match}/export"))
    for name, score in zip(HOSTILE[:4], (5, 3, -1, 2), strict=True):
        assert played[f"'{name}: points"] == str(score)


async def test_hostile_player_and_club_names_reach_the_standings_export_as_text(
    client: Client,
) -> None:
    tournament = await new_tournament(client)
    clubs = HOSTILE[1:]
    await register(client, tournament, HOSTILE[:4], clubs)
    await play_round(client, tournament)
    rows = table(await client.get(f"{BASE}/{tournament['id']}/export"))
    assert {(row["Name"], row["Club"]) for row in rows} == {
        (f"'{name}", f"'{club}") for name, club in zip(HOSTILE[:4], clubs, strict=True)}
    # Losers' score shares are negative numbers, written as numbers.
    assert min(float(row["Score share"]) for row in rows) < 0


# --- layouts ----------------------------------------------------------------------------------


async def test_each_layout_writes_fractions_with_the_decimal_mark_it_names(client: Client) -> None:
    tournament = await new_tournament(client)
    await register(client, tournament, ["Ann", "Bea", "Cem", "Dan"])
    await play_round(client, tournament)
    url = f"{BASE}/{tournament['id']}/export"
    english = table(await client.get(url))
    assert sorted(row["Points"] for row in english) == ["0", "0.333", "0.667", "1"]
    for query, separator in (("sep=;&decimal=,", ";"), ("sep=;&decimal=.", ";"),
                             ("decimal=,", ",")):
        decimal = query[-1]
        rows = table(await client.get(f"{url}?{query}"), separator)
        assert [row["Points"] for row in rows] == [
            row["Points"].replace(".", decimal) for row in english], query
    page = (await client.get(url, params={"format": "html"})).text
    assert "0.667" in page
    bad = problem(await client.get(url, params={"decimal": ";"}), 400)
    assert [error["path"] for error in bad["errors"]] == ["decimal"]
