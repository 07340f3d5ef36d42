"""Schemathesis over every operation of the served OpenAPI schema: no server errors, no answer
that breaks the schema, for valid and invalid requests, against unknown matches and against a
real match of every game with its token. The live event stream is left out: it never ends by
design.

Every operation is tried on SQLite and on PostgreSQL, one class per database: ``--dist
loadscope`` gives each class a worker of its own, so the two runs go side by side. Ten examples
per operation and database (twenty in all, where SQLite alone had twenty-five): every operation's
answers are also proven by example on both databases in the other modules of tests/api, so the
generated cases only have to find what no example thought of."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from litestar.testing import TestClient
from schemathesis import GenerationMode
from schemathesis.core.result import Ok
from schemathesis.openapi import from_asgi

from api.app import create_app
from api.server.settings import Settings

pytestmark = pytest.mark.slow
EXAMPLES_PER_OPERATION = 10
# A backup to import is a whole tournament or club in one body: generating and checking 25 of
# them took more than half of this test (three minutes of eight under load). Three per database
# still send every kind of body at the two imports; their refusals and round trips are proven by
# example (tests/api/test_club_exports.py, test_tournaments.py, test_names.py).
EXAMPLES_PER_IMPORT = 3
IMPORTS = {"importClub", "importTournament"}
# A schema can say which JSON is well formed, not which rounds can happen at a table: a
# schema-valid entry that breaks the game's rules is rightly 422, a stale If-Match 412.
ACCEPTABLE_ANSWERS_TO_VALID_DATA = ["2xx", "401", "403", "404", "409", "412", "422"]
# A round sent with a stale If-Match is refused 412 before its body is read (RFC 9110 13.2.1
# lets a server evaluate preconditions first), so 412 rejects schema-violating data too.
REJECTIONS_OF_INVALID_DATA = ["400", "401", "403", "404", "405", "406", "409", "412", "415",
                              "422", "428", "429"]


def new_match(client: TestClient[Any], game: str, players: list[str],
              first_round: dict[str, Any] | None,
              options: dict[str, Any] | None = None) -> dict[str, Any]:
    """A match of ``game`` with its token, and its first round when one is given: answers
    with each game's results and standings for the schema to be checked against."""
    match: dict[str, Any] = client.post("/api/v1/matches", json={
        "game": game, "players": players, "options": options or {}}).json()
    if first_round is not None:
        recorded = client.post(f"/api/v1/matches/{match['id']}/rounds", json=first_round,
                               headers={"Authorization": f"Bearer {match['token']}"})
        assert recorded.status_code == 201, recorded.text
    return match


TOURNAMENT_DAY = {"checkIn", "setClock", "getClock", "getTournamentPlayer", "getTournament",
                  "changePlayer"}
"""Tried on a running tournament with check-in and its clock started too, with its organiser's
token: the clock and the player's view answer their real shapes."""


def tournament_day(client: TestClient[Any]) -> dict[str, Any]:
    tournament: dict[str, Any] = client.post("/api/v1/tournaments", json={
        "name": "Day", "game": "tschau-sepp", "rounds": 2, "table_size": 4, "check_in": True,
        "late_check_in": True}).json()
    organiser = {"Authorization": f"Bearer {tournament['token']}"}
    for name in ("Ann", "Bea", "Cem", "Dan"):
        client.post(f"/api/v1/tournaments/{tournament['id']}/check-in",
                    json={"code": tournament["check_in_code"], "name": name})
    client.post(f"/api/v1/tournaments/{tournament['id']}/rounds", headers=organiser)
    started = client.post(f"/api/v1/tournaments/{tournament['id']}/clock", headers=organiser,
                          json={"action": "start", "minutes": 30})
    assert started.status_code == 200, started.text
    return tournament


def no_input_breaks_the_server_or_the_schema(database_url: str) -> None:
    # Schemathesis tries its own wrong tokens on the one club again and again; the refused-token
    # limit would turn them into 429 (tests/reliability/test_hardening.py proves the limit).
    app = create_app(Settings(database_url=database_url, auth_failures_per_minute=0))
    with TestClient(app=app) as client:
        matches = [new_match(client, "tschau-sepp", ["Ann", "Bea"], {"winner": 0,
                                                                       "penalty": [0, 3]})]
        checksum = client.get("/api/v1/games/sea-change").json()["decks"]["4"]["checksum"]
        matches.append(new_match(client, "sea-change", ["Ann", "Bea", "Cem", "Dan"], {
            "final_trump": "red", "scores": [checksum, 0, 0, 0], "trump_zero": 0}))
        matches.append(new_match(client, "seven-seals", ["Ann", "Bea", "Cem"], None))
        # A pad decided by its first round: its token finishes nothing (409), as a 2xx with
        # a token Schemathesis did not make itself counts as auth ignored.
        matches.append(new_match(client, "score-pad", ["Ann", "Bea", "Cem", "Dan"],
                                 {"points": [100, 57, 0, 0]},
                                 {"title": "Jass", "round_total": 157, "target": 100}))
        club: dict[str, Any] = client.post("/api/v1/clubs", json={"name": "Club"}).json()
        club_auth = {"Authorization": f"Bearer {club['token']}"}
        club_match = client.post("/api/v1/matches", headers=club_auth, json={
            "game": "tschau-sepp", "players": ["Ann", "Bea"], "options": {"games": 1},
            "club": club["id"]}).json()
        client.post(f"/api/v1/matches/{club_match['id']}/rounds",
                    json={"winner": 0, "penalty": [0, 3]}, headers=club_auth)
        tournament = tournament_day(client)
    schema = from_asgi("/schema/openapi.json", app)
    schema.config.checks.positive_data_acceptance.expected_statuses = (
        ACCEPTABLE_ANSWERS_TO_VALID_DATA)
    schema.config.checks.negative_data_rejection.expected_statuses = REJECTIONS_OF_INVALID_DATA
    tested = []
    for found in schema.exclude(operation_id="matchEvents").get_all_operations():
        assert isinstance(found, Ok), found
        operation = found.ok()
        strategies = [operation.as_strategy(mode) for mode in GenerationMode]
        if "{match_id}" in operation.path:
            strategies += [operation.as_strategy(
                mode, path_parameters={"match_id": match["id"]},
                headers={"Authorization": f"Bearer {match['token']}"},
            ) for mode in GenerationMode for match in matches]
        if operation.definition.raw.get("operationId") in TOURNAMENT_DAY:
            strategies += [operation.as_strategy(
                mode, path_parameters={"tournament_id": tournament["id"]},
                headers={"Authorization": f"Bearer {tournament['token']}"},
            ) for mode in GenerationMode]
        # A club's event stream never ends either: only its refusals are tried.
        if "{club_id}" in operation.path and not operation.path.endswith("/events"):
            strategies += [operation.as_strategy(
                mode, path_parameters={"club_id": club["id"]}, headers=club_auth,
            ) for mode in GenerationMode]

        @given(case=st.one_of(strategies))
        @settings(max_examples=EXAMPLES_PER_IMPORT if operation.definition.raw.get(
                      "operationId") in IMPORTS else EXAMPLES_PER_OPERATION, deadline=None,
                  suppress_health_check=list(HealthCheck), database=None)
        def call(case: schemathesis.Case[Any]) -> None:
            case.call_and_validate()

        call()
        tested.append(operation.label)
    assert len(tested) >= 10, tested


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
class TestOnSQLite:
    def test_no_input_breaks_the_server_or_the_schema(self, database_url: str) -> None:
        no_input_breaks_the_server_or_the_schema(database_url)


@pytest.mark.parametrize(
    "database_url", [pytest.param("postgresql", marks=pytest.mark.postgres)], indirect=True)
class TestOnPostgreSQL:
    def test_no_input_breaks_the_server_or_the_schema(self, database_url: str) -> None:
        no_input_breaks_the_server_or_the_schema(database_url)
