"""Tournament results from stored table rows: places and shares from a fold, then standings.

Standings never re-fold a match: every write to a table's match stores each seat's place (its
rank in the match standings; a team's rank for each of its seats) and score share (the game's
``score_share`` of the final totals) on the table row, and standings read only those.

Decisions:

- Only confirmed tables count. ``through_round`` is the last round with a counted table.
- With ``hide_standings``, readers other than the organiser see the standings through the last
  complete round only, while a round is being played; the organiser always sees every confirmed
  table (the dashboard needs them).
- Tiebreak names at the API are ``points``, ``average_points``, ``score_share``, ``opponents``
  (the opponents' strength) and ``table_wins``; a row's ``tiebreaks`` shows every criterion of
  the chain except ``points``, which is a field of its own.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.game import AnyGame
from scoring.match import FoldedMatch
from scoring.tournament import StandingRow, TableResult, TournamentScoring, tournament_standings

ENGINE_CRITERIA = {
    "points": "points", "average_points": "average_points", "score_share": "score_share",
    "opponents": "opponents_strength", "table_wins": "table_wins",
}
API_CRITERIA = {engine: api for api, engine in ENGINE_CRITERIA.items()}


def table_result(game: AnyGame, folded: FoldedMatch) -> tuple[list[int], list[float]]:
    """Per seat: the place at the table (1 = best, ties shared) and the score share."""
    places = [0] * len(folded.setup.players)
    for standing in folded.verdict.standings:
        for seat in standing.seats:
            places[seat] = standing.rank
    totals = folded.rounds[-1].totals if folded.rounds else game.first_totals(folded.setup)
    return places, list(game.score_share(totals, folded.setup))


def place_points(points: Any) -> dict[int, tuple[float, ...]] | None:
    """The stored ``points`` setting as the engine's points per place (None: the share formula)."""
    if points == "share":
        return None
    return {int(size): tuple(values) for size, values in points["per_place"].items()}


def scoring_of(points: Any, tiebreaks: Sequence[str]) -> TournamentScoring:
    """The engine's scoring for the stored settings; raises ``InvalidOptions`` like the engine."""
    return TournamentScoring(place_points(points), tuple(ENGINE_CRITERIA[t] for t in tiebreaks))


@dataclass(frozen=True, slots=True)
class StoredTable:
    """What a table row holds for the standings."""

    round: int
    table: int
    match_id: str
    players: tuple[int, ...]
    places: tuple[int, ...]
    shares: tuple[float, ...]
    confirmed: bool


def complete_rounds(tables: Iterable[StoredTable]) -> set[int]:
    """Rounds whose every table is confirmed."""
    rounds: dict[int, bool] = {}
    for table in tables:
        rounds[table.round] = rounds.get(table.round, True) and table.confirmed
    return {number for number, complete in rounds.items() if complete}


def last_counted_round(tables: Sequence[StoredTable], hidden: bool) -> int | None:
    """The last round whose tables may count (None: every round); see the module's rules."""
    if not hidden:
        return None
    complete = complete_rounds(tables)
    started = {t.round for t in tables}
    if complete == started:
        return None
    return max((n for n in complete if all(m in complete for m in range(1, n + 1))), default=0)


def counts(table: StoredTable, through: int | None) -> bool:
    return table.confirmed and (through is None or table.round <= through)


def standings(
    tables: Sequence[StoredTable], players: Iterable[int], scoring: TournamentScoring,
    through: int | None,
) -> tuple[int, tuple[StandingRow, ...]]:
    """``(through_round, rows)`` from the counted tables; every registered player has a row."""
    results = [
        TableResult(t.players, t.places, t.shares, counts(t, through)) for t in tables
    ]
    rows = tournament_standings(results, scoring, players)
    through_round = max((t.round for t in tables if counts(t, through)), default=0)
    return through_round, rows
