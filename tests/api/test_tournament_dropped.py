"""Issue 23, item 7: a player who dropped out is said to have dropped out in the standings and
every export, and a player who never played is never ranked among (or above) those who did, on
SQLite and PostgreSQL."""

from __future__ import annotations

import csv
import io

from scoring.tournament import TableResult, TournamentScoring, tournament_standings
from tests.api.test_tournaments import (
    BASE,
    NAMES,
    Client,
    bearer,
    new_tournament,
    ok,
    play_round,
    read,
    register,
)


def test_a_player_without_a_table_ranks_after_everyone_who_played() -> None:
    # Score shares below zero (a game whose scores can be negative): by points and share alone
    # the late entry, at 0 and 0, would rank above both players who lost their tables.
    tables = [TableResult(("a", "b"), (1, 2), (1.5, -0.5)),
              TableResult(("c", "d"), (1, 2), (1.2, -0.2))]
    rows = tournament_standings(tables, TournamentScoring(), ["late", "a", "b", "c", "d"])
    assert [(row.player, row.rank) for row in rows] == [
        ("a", 1), ("c", 2), ("d", 3), ("b", 4), ("late", 5)]
    # Before any table counts nobody has played: all share the first rank.
    assert {row.rank for row in tournament_standings([], TournamentScoring(), ["x", "y"])} == {1}


async def test_dropped_players_are_marked_and_the_late_entry_ranks_last(client: Client) -> None:
    tournament = await new_tournament(client, name="Herbst")
    ids = await register(client, tournament, NAMES[:8])
    await play_round(client, tournament)
    [late] = await register(client, tournament, ["Zoe"])
    auth = bearer(tournament["token"])
    ok(await client.patch(f"{BASE}/{tournament['id']}/players/{ids[0]}", json={"active": False},
                          headers=auth))
    standings = await read(client, tournament, "/standings")
    rows = {row["player"]: row for row in standings["rows"]}
    assert rows[ids[0]]["dropped"] is True
    assert [p for p, row in rows.items() if row["dropped"]] == [ids[0]]
    assert rows[late]["tables"] == 0
    assert rows[late]["rank"] > max(row["rank"] for row in rows.values() if row["tables"])
    assert standings["rows"][-1]["player"] == late

    url = f"{BASE}/{tournament['id']}/export"
    text = (await client.get(url)).content.decode("utf-8").removeprefix("\ufeff")
    header, *lines = list(csv.reader(io.StringIO(text)))
    dropped = header.index("Dropped out")
    assert dropped == len(header) - 2  # before the game (tests/api/test_score_pad.py)
    assert {line[2]: line[dropped] for line in lines} == {
        name: "yes" if name == NAMES[0] else "no" for name in [*NAMES[:8], "Zoe"]}
    german = (await client.get(url, params={"lang": "de"})).content.decode("utf-8")
    assert "Ausgestiegen" in german.splitlines()[0]
    page = (await client.get(url, params={"format": "html", "lang": "en"})).text
    marked = [line for line in page.splitlines() if "<td" in line and ">yes<" in line]
    assert len(marked) == 1
    assert f">{NAMES[0]}<" in marked[0]
    assert ">no<" not in page
