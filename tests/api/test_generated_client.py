"""The OpenAPI document's first client: ``openapi-python-client`` generates a Python client from
it without a warning, and that client plays a match and a tournament round against a served
instance, every answer parsed into the document's models."""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from litestar.testing import TestClient

from api.app import create_app
from api.server.settings import Settings
from tests.conftest import ServerFactory

pytestmark = pytest.mark.slow
PACKAGE = "tafelrunde_client"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The client package generated from the served document, in a folder of its own."""
    folder = tmp_path_factory.mktemp("client")
    app = create_app(Settings(database_url=f"sqlite+aiosqlite:///{folder / 'unused.db'}"))
    with TestClient(app=app) as client:
        (folder / "openapi.json").write_text(client.get("/schema/openapi.json").text)
    # The generator reads JSON, octet-streams and text/*; an SVG (GET /api/v1/qr) is XML text.
    (folder / "config.json").write_text(json.dumps({
        "post_hooks": [], "content_type_overrides": {"image/svg+xml": "text/plain"}}))
    generator = Path(sys.executable).parent / "openapi-python-client"
    run = subprocess.run(
        [str(generator), "generate", "--path", "openapi.json", "--output-path", PACKAGE,
         "--meta", "none", "--config", "config.json"],
        cwd=folder, capture_output=True, text=True, timeout=300, check=False)
    assert run.returncode == 0, run.stdout + run.stderr
    said = [line for line in (run.stdout + run.stderr).splitlines() if line.strip()]
    assert said == [f"Generating {PACKAGE}"]  # and not a single warning
    return folder


@pytest.fixture
def client_package(generated: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    monkeypatch.syspath_prepend(str(generated))
    for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
        monkeypatch.delitem(sys.modules, name)
    return importlib.import_module(PACKAGE)


def module(name: str) -> Any:
    return importlib.import_module(f"{PACKAGE}.{name}")


def test_the_generated_client_plays_a_match_and_a_tournament_round(
    client_package: Any, serve: ServerFactory, tmp_path: Path, database_url: str,
) -> None:
    models = module("models")
    matches, tournaments = module("api.matches"), module("api.tournaments")
    for name in ("create_match", "record_round", "get_match", "guide_round"):
        module(f"api.matches.{name}")
    for name in ("create_tournament", "add_player", "start_round", "confirm_table",
                 "tournament_standings"):
        module(f"api.tournaments.{name}")
    with serve(tmp_path, database_url) as base, ExitStack() as clients:
        anyone = clients.enter_context(
            client_package.Client(base_url=base, raise_on_unexpected_status=True))

        def as_holder_of(token: str) -> Any:
            return clients.enter_context(client_package.AuthenticatedClient(
                base_url=base, token=token, raise_on_unexpected_status=True))

        created = matches.create_match.sync(client=anyone, body=models.NewMatch(
            game=models.NewMatchGame.TSCHAU_SEPP, players=["Ann", "Bea", "Cem"],
            options=models.NewMatchOptions.from_dict({"games": 2})))
        assert isinstance(created, models.CreatedMatch)
        table = as_holder_of(created.token)
        guided = matches.guide_round.sync(
            match_id=created.id, client=table,
            body=models.TschauSeppPartialEntry(winner=0, penalty=[3, 4, None]))
        assert isinstance(guided, models.Guide), guided
        assert isinstance(guided.guide, models.TschauSeppGuide)
        assert isinstance(guided.guide.totals, models.TschauSeppTotals)
        assert (guided.guide.penalty, guided.guide.totals.penalty) == ([3, 4, None], [3, 4, 0])
        (wrong,), (missing,) = guided.guide.errors, guided.guide.missing
        assert isinstance(wrong, models.EntryProblem)
        assert (wrong.path, wrong.code, missing.path) == ("penalty[0]", "winner_not_out",
                                                          "penalty[2]")
        for winner in (0, 0):
            written = matches.record_round.sync(
                match_id=created.id, client=table,
                body=models.TschauSeppEntry(winner=winner, penalty=[0, 4, 9]))
            assert isinstance(written, models.RoundWritten), written
            assert isinstance(written.result, models.TschauSeppResult)
        match = matches.get_match.sync(match_id=created.id, client=anyone)
        assert isinstance(match, models.Match)
        assert (match.status, match.winners) == (models.MatchStatus.FINISHED, [0])
        assert [type(line) for line in match.standings] == [models.TschauSeppStanding] * 3
        assert [line.penalty for line in match.standings] == [0, 8, 18]

        tournament = tournaments.create_tournament.sync(client=anyone, body=models.NewTournament(
            name="Donnerstag", game=models.NewTournamentGame.TSCHAU_SEPP, rounds=1,
            table_size=3))
        assert isinstance(tournament, models.CreatedTournament)
        organiser = as_holder_of(tournament.token)
        for name in ("Ann", "Bea", "Cem", "Dan", "Eva", "Fay"):
            added = tournaments.add_player.sync(tournament_id=tournament.id, client=organiser,
                                                body=models.NewPlayer(name=name))
            assert isinstance(added, models.TournamentPlayer)
        started = tournaments.start_round.sync(tournament_id=tournament.id, client=organiser)
        assert isinstance(started, models.StartedRound)
        for seated in started.tables:
            for _ in range(5):
                written = matches.record_round.sync(
                    match_id=seated.match_id, client=as_holder_of(seated.table_token),
                    body=models.TschauSeppEntry(winner=0, penalty=[0, 3, 6]))
                assert isinstance(written, models.RoundWritten), written
            confirmed = tournaments.confirm_table.sync(
                tournament_id=tournament.id, number=1, table=seated.table, client=organiser)
            assert isinstance(confirmed, models.Table)
        standings = tournaments.tournament_standings.sync(tournament_id=tournament.id,
                                                          client=anyone)
        assert isinstance(standings, models.Standings)
        assert standings.through_round == 1
        assert len(standings.rows) == 6
        assert {row.points for row in standings.rows} == {1.0, 0.5, 0.0}
