"""Migrations build the schema the models describe, take it away again, and mend what older
versions stored."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient
from sqlalchemy import Table, insert, inspect, select, update
from sqlalchemy.ext.asyncio import AsyncEngine
from sqlmodel import SQLModel

from api.app import create_app
from api.db.engine import create_engine
from api.server import cli, schema
from api.server.settings import Settings
from tests.api.test_tournaments import bearer, ok

TABLES = {"match", "round", "audit", "idempotency", "tournament", "tournament_player",
          "tournament_round", "tournament_table", "club", "club_member", "club_match",
          "club_seat", "club_member_game", "club_rating", "club_tournament",
          "club_tournament_player", "club_season", "club_payment", "import_lease",
          "club_audit"}


async def _tables(engine: AsyncEngine) -> set[str]:
    try:
        async with engine.connect() as connection:
            return set(await connection.run_sync(lambda c: inspect(c).get_table_names()))
    finally:
        await engine.dispose()


def tables(url: str) -> set[str]:
    return asyncio.run(_tables(create_engine(url))) - {"alembic_version"}


def upgrade_check_downgrade(url: str) -> None:
    schema.upgrade(url)
    assert tables(url) == TABLES
    assert schema.check(url) is None
    schema.downgrade(url)
    assert tables(url) == set()
    schema.upgrade(url)
    assert tables(url) == TABLES


def test_an_empty_sqlite_file_migrates_to_head_without_drift_and_back(tmp_path: Path) -> None:
    upgrade_check_downgrade(f"sqlite+aiosqlite:///{tmp_path / 'fresh.db'}")


@pytest.mark.postgres
def test_a_postgresql_database_migrates_to_head_without_drift_and_back(postgres_url: str) -> None:
    upgrade_check_downgrade(postgres_url)


def test_db_check_fails_when_the_database_lags_behind(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'behind.db'}"
    schema.upgrade(url)
    schema.downgrade(url)
    assert schema.check(url) is not None


def test_the_cli_runs_upgrade_check_and_downgrade(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TAFELRUNDE_DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'cli.db'}")
    assert cli.main(["db", "upgrade"]) == 0
    assert cli.main(["db", "check"]) == 0
    assert cli.main(["db", "downgrade"]) == 0
    assert cli.main(["db", "check"]) == 1


BEFORE_WHOLE_NUMBERS = "0003"
"""The last revision whose data may hold whole numbers stored as floats."""
ROUNDS: Table = SQLModel.metadata.tables["round"]
MATCHES: Table = SQLModel.metadata.tables["match"]
TOURNAMENTS: Table = SQLModel.metadata.tables["tournament"]
PLAYERS = ["Ann", "Bea", "Cem"]


def new_match(client: TestClient[Any], first_round: dict[str, Any],
              options: dict[str, Any] | None = None) -> dict[str, Any]:
    match: dict[str, Any] = ok(client.post("/api/v1/matches", json={
        "game": "tschau-sepp", "players": PLAYERS, "options": options or {"games": 3}}), 201)
    ok(client.post(f"/api/v1/matches/{match['id']}/rounds", json=first_round,
                   headers=bearer(match["token"])), 201)
    return match


def record(client: TestClient[Any], match: dict[str, Any], entry: dict[str, Any]) -> Any:
    return client.post(f"/api/v1/matches/{match['id']}/rounds", json=entry,
                       headers=bearer(match["token"]))


async def _store_as_a_lenient_server_did(url: str, entries: dict[str, dict[str, Any]],
                                         match_options: dict[str, dict[str, Any]],
                                         tournament_options: dict[str, dict[str, Any]],
                                         later_rounds: dict[str, list[Any]]) -> None:
    """Round 1 of each match in ``entries`` (in the round table and in the match's stored
    answer), match options, tournament options and rounds after the first written as the server
    stored them before it read bodies strictly: JSON floats where whole numbers belong."""
    engine = create_engine(url)
    try:
        async with engine.begin() as connection:
            for match_id, entry in entries.items():
                await connection.execute(update(ROUNDS).where(
                    ROUNDS.c.match_id == match_id, ROUNDS.c.number == 1).values(entry=entry))
            for match_id in {*entries, *match_options}:
                snapshot = (await connection.execute(select(MATCHES.c.snapshot).where(
                    MATCHES.c.id == match_id))).scalar_one()
                if match_id in entries:
                    snapshot["rounds"][0]["entry"] = entries[match_id]
                options = match_options.get(match_id, snapshot["options"])
                snapshot["options"] = options
                await connection.execute(update(MATCHES).where(MATCHES.c.id == match_id).values(
                    snapshot=snapshot, options=options))
            for tournament_id, options in tournament_options.items():
                await connection.execute(update(TOURNAMENTS).where(
                    TOURNAMENTS.c.id == tournament_id).values(options=options))
            for match_id, later in later_rounds.items():
                await connection.execute(insert(ROUNDS), [
                    {"match_id": match_id, "number": number, "entry": entry, "result": {},
                     "totals": {}} for number, entry in enumerate(later, start=2)])
    finally:
        await engine.dispose()
    assert sorted(await _stored_entries(url, [*entries])) == sorted(
        json.dumps(entry) for entry in entries.values())


async def _stored_entries(url: str, match_ids: list[str]) -> list[str]:
    """The round entries of the matches as stored, as JSON text."""
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            stored = (await connection.execute(
                select(ROUNDS.c.entry).where(ROUNDS.c.match_id.in_(match_ids))
                .order_by(ROUNDS.c.match_id, ROUNDS.c.number))).scalars().all()
    finally:
        await engine.dispose()
    return [json.dumps(entry) for entry in stored]


def test_whole_numbers_stored_as_floats_become_integers_and_the_match_goes_on(
    database_url: str,
) -> None:
    settings = Settings(database_url=database_url)
    second_round = {"winner": 0, "penalty": [0, 3, 4]}
    with TestClient(app=create_app(settings)) as client:
        whole = new_match(client, {"winner": 1, "penalty": [3, 0, 6]})
        fraction = new_match(client, {"winner": 1, "penalty": [3, 0, 6]})
        options = new_match(client, {"winner": 1, "penalty": [3, 0, 6]})
        long = new_match(client, {"winner": 1, "penalty": [3, 0, 6]})
        tournament = ok(client.post("/api/v1/tournaments", json={
            "name": "Club night", "game": "tschau-sepp", "options": {"games": 1}, "rounds": 1,
            "table_size": 3}), 201)
        organiser = bearer(tournament["token"])
        for name in PLAYERS:
            ok(client.post(f"/api/v1/tournaments/{tournament['id']}/players",
                           json={"name": name}, headers=organiser), 201)
    schema.downgrade(database_url, BEFORE_WHOLE_NUMBERS)
    asyncio.run(_store_as_a_lenient_server_did(
        database_url,
        entries={whole["id"]: {"winner": 1.0, "penalty": [3.0, -0.0, 6.0]},
                 fraction["id"]: {"winner": 1, "penalty": [3, 0.5, 6]}},
        match_options={options["id"]: {**options["options"], "games": 3.0}},
        tournament_options={tournament["id"]: {"games": 1.0}},
        # More rounds than the migration reads at a time: every page is mended.
        later_rounds={long["id"]: [{"winner": float(number % 3), "penalty": [1e20, 2.0]}
                                   for number in range(1_200)]}))

    with TestClient(app=create_app(settings)) as client:
        before = ok(client.get(f"/api/v1/matches/{whole['id']}"), 200)
        # Writes and the tournament's start are tried after the upgrade only: this code reads
        # matches and tournament tables with columns of later revisions (0005, 0006), which a
        # database at 0003 lacks; that such a round refused the next write is shown below by
        # the one that stays refused (``fraction``).

    schema.upgrade(database_url)
    assert schema.check(database_url) is None
    with TestClient(app=create_app(settings)) as client:
        after = ok(client.get(f"/api/v1/matches/{whole['id']}"), 200)
        assert after == {**before, "played_at": before["created_at"], "location": None,
                         "stakes": None, "settlement": None}
        assert json.dumps(after["rounds"][0]["entry"]) == '{"winner": 1, "penalty": [3, 0, 6]}'
        written = ok(record(client, whole, second_round), 201)
        assert written["totals"] == {"penalty": [3, 3, 10], "wins": [1, 1, 0], "games": 2}

        still = ok(record(client, fraction, second_round), 409)
        assert [problem["path"] for problem in still["errors"]] == ["rounds[1].penalty[1]"]
        unguided = ok(client.post(f"/api/v1/matches/{fraction['id']}/guide?lang=de",
                                  json={}, headers=bearer(fraction["token"])), 409)
        assert unguided["detail"] == ("Die eingetragene Runde 1 ist nicht gültig; korrigiere sie "
                                      "zuerst.")
        assert [problem["path"] for problem in unguided["errors"]] == ["rounds[1].penalty[1]"]
        kept = ok(client.get(f"/api/v1/matches/{fraction['id']}"), 200)
        assert kept["rounds"][0]["entry"]["penalty"] == [3, 0.5, 6]

        read_again = ok(client.get(f"/api/v1/matches/{options['id']}"), 200)
        assert json.dumps(read_again["options"]["games"]) == "3"
        ok(record(client, options, second_round), 201)

        ok(client.post(f"/api/v1/tournaments/{tournament['id']}/rounds", headers=organiser),
           201)
    assert asyncio.run(_stored_entries(database_url, [long["id"]]))[1:] == [
        json.dumps({"winner": number % 3, "penalty": [10**20, 2]}) for number in range(1_200)]


BEFORE_PLAYED_AT = "0005"
"""The last revision without ``played_at``, ``location`` and the club's ``time_zone``."""


async def _columns_and_snapshots(url: str) -> tuple[dict[str, set[str]], list[set[str]]]:
    """The columns of the tables 0006 and 0007 change, and the keys of every match's stored
    answer."""
    engine = create_engine(url)
    try:
        async with engine.connect() as connection:
            columns = await connection.run_sync(lambda c: {
                table: {column["name"] for column in inspect(c).get_columns(table)}
                for table in ("match", "club_match", "club")})
            snapshots = (await connection.execute(select(MATCHES.c.snapshot))).scalars().all()
    finally:
        await engine.dispose()
    return columns, [set(snapshot) for snapshot in snapshots]


def test_matches_stored_before_were_played_when_created_and_clubs_are_in_zurich(
    database_url: str,
) -> None:
    settings = Settings(database_url=database_url)
    with TestClient(app=create_app(settings)) as client:
        club = ok(client.post("/api/v1/clubs", json={"name": "Jassrunde"}), 201)
        ok(client.patch(f"/api/v1/clubs/{club['id']}", json={"time_zone": "UTC"},
                        headers=bearer(club["token"])), 200)
        typed_in = ok(client.post("/api/v1/matches", headers=bearer(club["token"]), json={
            "game": "tschau-sepp", "players": PLAYERS, "options": {"games": 1},
            "club": club["id"], "played_at": "2026-11-20T20:00:00Z", "location": "Rössli"}),
            201)
        plain = new_match(client, {"winner": 1, "penalty": [3, 0, 6]})
    schema.downgrade(database_url, BEFORE_PLAYED_AT)
    columns, snapshots = asyncio.run(_columns_and_snapshots(database_url))
    assert not {"played_at", "location"} & columns["match"]
    assert "played_at" not in columns["club_match"]
    assert "time_zone" not in columns["club"]
    assert all(not {"played_at", "location"} & keys for keys in snapshots)

    schema.upgrade(database_url)
    assert schema.check(database_url) is None
    columns, snapshots = asyncio.run(_columns_and_snapshots(database_url))
    assert all({"played_at", "location"} <= keys for keys in snapshots)
    with TestClient(app=create_app(settings)) as client:
        for made in (typed_in, plain):
            match = ok(client.get(f"/api/v1/matches/{made['id']}",
                                  headers=bearer(made["token"])), 200)
            assert (match["played_at"], match["location"]) == (made["created_at"], None)
        read = ok(client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])), 200)
        assert read["time_zone"] == "Europe/Zurich"
        (entry,) = ok(client.get(f"/api/v1/clubs/{club['id']}/history",
                                 headers=bearer(club["token"])), 200)["entries"]
        assert (entry["played_at"], entry["location"]) == (typed_in["created_at"], None)
        ok(record(client, plain, {"winner": 0, "penalty": [0, 3, 4]}), 201)


BEFORE_STAKES = "0006"
"""The last revision without stakes."""


def test_matches_stored_before_stakes_were_not_played_for_money(database_url: str) -> None:
    settings = Settings(database_url=database_url)
    with TestClient(app=create_app(settings)) as client:
        club = ok(client.post("/api/v1/clubs", json={"name": "Jassrunde"}), 201)
        ok(client.patch(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"]), json={
            "stakes": {"tschau-sepp": {"currency": "CHF", "per_point": "0.05"}}}), 200)
        for_money = ok(client.post("/api/v1/matches", headers=bearer(club["token"]), json={
            "game": "tschau-sepp", "players": PLAYERS, "options": {"games": 1},
            "club": club["id"]}), 201)
        assert for_money["stakes"] is not None
    schema.downgrade(database_url, BEFORE_STAKES)
    columns, snapshots = asyncio.run(_columns_and_snapshots(database_url))
    assert "stakes" not in columns["match"] | columns["club"]
    assert all(not {"stakes", "settlement"} & keys for keys in snapshots)

    schema.upgrade(database_url)
    assert schema.check(database_url) is None
    columns, snapshots = asyncio.run(_columns_and_snapshots(database_url))
    assert all({"stakes", "settlement"} <= keys for keys in snapshots)
    with TestClient(app=create_app(settings)) as client:
        match = ok(client.get(f"/api/v1/matches/{for_money['id']}",
                              headers=bearer(for_money["token"])), 200)
        assert (match["stakes"], match["settlement"]) == (None, None)
        read = ok(client.get(f"/api/v1/clubs/{club['id']}", headers=bearer(club["token"])), 200)
        assert read["stakes"] == {}
