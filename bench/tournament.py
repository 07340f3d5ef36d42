"""Benchmark: a 12-round tournament in SQLite, read and seated the way the API does it.

For 200, 500, 1,000 and 2,000 players (tables of 4, Tschau Sepp, one game per match): rounds 1
to 9 are written straight into a temporary database (random seating; every table's result comes
from folding a random game with the scoring package, stored as places and score shares, like
the API stores them). Then it times

- starting round 10 through the API's service (``mix`` seating from the stored history, plus one
  match per table written in the same transaction), and
- reading the standings from the database after rounds 10 to 12 are filled in the same way
  (best of three reads; the API computes them from the stored per-table results).

and prints each figure with its growth against the previous field (a ratio near the ratio of
field sizes means close to linear). Targets: standings of 2,000 players in at most 0.5 s, round
10 of 1,000 players in at most 3 s.

Run: ``.venv/bin/python bench/tournament.py [--smoke]`` (``--smoke``: 20 and 40 players, to see
that the bench still runs; CI does that).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# Run as a script, this folder comes first on the path, and bench/scoring.py would hide the
# scoring package: put the repository root there instead.
sys.path[0] = str(Path(__file__).resolve().parent.parent)

import msgspec  # noqa: E402
from sqlalchemy import insert, update  # noqa: E402
from sqlalchemy.ext.asyncio import AsyncSession  # noqa: E402
from sqlmodel import col  # noqa: E402

from api.app import tournament_host  # noqa: E402
from api.db.database import Database  # noqa: E402
from api.db.engine import create_engine  # noqa: E402
from api.matches.folds import MatchRecord  # noqa: E402
from api.matches.service import MATCHES, new_match_row, now  # noqa: E402
from api.server import schema  # noqa: E402
from api.tournaments import schemas as s  # noqa: E402
from api.tournaments import service  # noqa: E402
from api.tournaments.models import (  # noqa: E402
    TournamentPlayerRow,
    TournamentRoundRow,
    TournamentRow,
    TournamentTableRow,
)
from api.tournaments.results import table_result  # noqa: E402
from scoring import registry  # noqa: E402
from scoring.game import AnyGame  # noqa: E402
from scoring.match import fold_match, set_up  # noqa: E402
from scoring.tournament import Player, TableSizes, seat_random  # noqa: E402

FIELDS = (200, 500, 1000, 2000)
SMOKE_FIELDS = (20, 40)
ROUNDS = 12
SEATED_ROUND = 10
GAME: AnyGame = registry.all_games()["tschau-sepp"]


def random_game(size: int, rng: random.Random) -> dict[str, Any]:
    winner = rng.randrange(size)
    return {"winner": winner,
            "penalty": [0 if seat == winner else rng.randrange(6, 40) for seat in range(size)]}


def played_table(tournament_id: str, number: int, table: int, seats: list[int],
                 rng: random.Random) -> tuple[dict[str, Any], dict[str, Any]]:
    """A finished, confirmed table: its match row and its table row, as the API stores them."""
    names = [f"P{p}" for p in seats]
    setup = set_up(GAME, list[Any](names), {"games": 1})
    folded = fold_match(GAME, setup, [random_game(len(seats), rng)])
    at = now()
    match_id = f"b{tournament_id[:5]}{number:02d}{table:04d}"
    record = MatchRecord(
        id=match_id, game=GAME.id, players=list[Any](names),
        options=GAME.options_json(setup.options), private=False, write_token_hash="0" * 64,
        view_token_hash="0" * 64, version=2, created_at=at, played_at=at, location=None,
    )
    match, _ = new_match_row(record, folded, at)
    places, shares = table_result(GAME, folded)
    row = {"tournament_id": tournament_id, "round": number, "table": table,
           "match_id": match_id, "players": seats, "rounds_played": 1, "finished": True,
           "places": places, "shares": shares, "confirmed": True, "confirmed_by": "table",
           "entered_by_device": "bench"}
    return match, row


async def fill_rounds(session: AsyncSession, tournament_id: str, count: int,
                      numbers: range, rng: random.Random) -> None:
    players = [Player(p) for p in range(1, count + 1)]
    sizes = TableSizes(4, 3, 5)
    for number in numbers:
        plan = seat_random(players, sizes, f"bench/{number}")
        await session.execute(insert(TournamentRoundRow), [{
            "tournament_id": tournament_id, "number": number, "report": {
                "repeats": [], "kept_apart": [], "club_mates_together": [],
                "table_revisits": []}, "started_at": now()}])
        built = [played_table(tournament_id, number, t, [int(p) for p in seats], rng)
                 for t, seats in enumerate(plan.tables, start=1)]
        await session.execute(insert(MATCHES), [m for m, _ in built])
        await session.execute(insert(TournamentTableRow), [t for _, t in built])


async def confirm_round(session: AsyncSession, tournament_id: str, number: int,
                        rng: random.Random) -> None:
    tables = await service.tables_of(session, tournament_id, number)
    for table in tables:
        _, row = played_table(tournament_id, number, table.table, list(table.players), rng)
        table.places, table.shares = row["places"], row["shares"]
        table.finished = table.confirmed = True
        table.rounds_played = 1


async def measure(count: int, url: str) -> tuple[float, float, int]:
    database = Database(create_engine(url))
    sessions = database.sessions
    rng = random.Random(count)
    try:
        async with sessions() as session:
            created = await service.create_tournament(session, tournament_host(), s.NewTournament(
                name=f"Bench {count}", game="tschau-sepp", rounds=ROUNDS, table_size=4,
                options={"games": 1}, seating="mix", seed=7))
        async with sessions() as session:
            await session.execute(insert(TournamentPlayerRow), [
                {"tournament_id": created.id, "id": p, "name": f"P{p}", "club": None,
                 "active": True} for p in range(1, count + 1)])
            await fill_rounds(session, created.id, count, range(1, SEATED_ROUND), rng)
            await session.execute(update(TournamentRow).where(
                col(TournamentRow.id) == created.id).values(
                current_round=SEATED_ROUND - 1, status="running"))
            await session.commit()
        async with sessions() as session:
            start = time.perf_counter()
            started = msgspec.json.decode(
                (await service.seat_round(database, session, tournament_host(), created.id,
                                          f"Bearer {created.token}")).body, type=s.StartedRound)
            seating = time.perf_counter() - start
        async with sessions() as session:
            await confirm_round(session, created.id, SEATED_ROUND, rng)
            await fill_rounds(session, created.id, count, range(SEATED_ROUND + 1, ROUNDS + 1),
                              rng)
            await session.commit()
        reads = []
        for _ in range(3):
            async with sessions() as session:
                start = time.perf_counter()
                standings = await service.read_standings(session, created.id, None)
                reads.append(time.perf_counter() - start)
        assert len(standings.rows) == count
        assert sum(r.tables for r in standings.rows) == count * ROUNDS
        return min(reads), seating, len(started.report.repeats)
    finally:
        await database.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--smoke", action="store_true",
                        help="tiny fields, to check that the bench still runs")
    fields = SMOKE_FIELDS if parser.parse_args().smoke else FIELDS
    print(f"{'players':>8} {'standings s':>12} {'growth':>16} {'round 10 s':>11} "
          f"{'growth':>16} {'repeats':>8}")
    previous: tuple[int, float, float] | None = None
    with tempfile.TemporaryDirectory() as folder:
        for count in fields:
            url = f"sqlite+aiosqlite:///{Path(folder) / f'bench-{count}.db'}"
            schema.upgrade(url)  # alembic runs its own event loop
            reading, seating, repeats = asyncio.run(measure(count, url))
            growth = ("", "")
            if previous is not None:
                n = f"(n x{count / previous[0]:.1f})"
                growth = (f"x{reading / previous[1]:.2f} {n}", f"x{seating / previous[2]:.2f} {n}")
            print(f"{count:>8} {reading:>12.3f} {growth[0]:>16} {seating:>11.3f} "
                  f"{growth[1]:>16} {repeats:>8}")
            previous = (count, reading, seating)


if __name__ == "__main__":
    main()
