"""A member's statistics in one game, as a fold over their finished club matches in the club's
order: by when they were played (``played_at``), then the order they finished
(:data:`api.clubs.ledger.ORDER`), so that ``streak`` and ``last`` go by evening.

The same :meth:`Statistics.add` updates the stored statistics when a match finishes and rebuilds
them from the member's results after a correction, an undo or a merge, so both ways give the
same numbers. Sums are of the standings' totals and of whole rounds or matches, never of
rounded averages, so adding up never drifts.

Decisions:

- ``won`` counts matches whose ``winners`` include the member's side (a shared win counts).
- ``streak`` is the current run: +n for the last n matches won, -n for the last n not won.
  ``longest_streak`` is the most matches won in a row.
- A measure's ``average`` is its total over all matches divided by its units (rounds for a
  per-round measure, matches for a per-match one): Sea Change's VP per round is all VP won
  over all rounds played. Its ``best`` is the best single match (per round: that match's total
  over its rounds).
- ``last`` keeps the ``LAST_RESULTS`` most recent results, newest first.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from scoring.game import AnyGame
from scoring.measures import Measure

LAST_RESULTS = 10


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One member's result in one finished match."""

    match_id: str
    finish: int
    side: int
    rank: int
    won: bool
    rounds: int
    measures: dict[str, float]
    """The standings totals each of the game's measures is made of, for the member's side."""


@dataclass(slots=True)
class MeasureSum:
    total: float = 0
    units: int = 0
    best: float | None = None


@dataclass(slots=True)
class Statistics:
    played: int = 0
    won: int = 0
    rounds: int = 0
    streak: int = 0
    longest_streak: int = 0
    measures: dict[str, MeasureSum] = field(default_factory=dict)
    last: list[dict[str, Any]] = field(default_factory=list)

    def add(self, result: SeatResult, measures: tuple[Measure, ...]) -> None:
        self.played += 1
        self.rounds += result.rounds
        if result.won:
            self.won += 1
            self.streak = self.streak + 1 if self.streak > 0 else 1
            self.longest_streak = max(self.longest_streak, self.streak)
        else:
            self.streak = self.streak - 1 if self.streak < 0 else -1
        for measure in measures:
            total = result.measures[measure.total]
            kept = self.measures.setdefault(measure.id, MeasureSum())
            kept.total += total
            kept.units += measure.units(result.rounds)
            value = measure.value(result.measures, result.rounds)
            if kept.best is None or measure.is_better(value, kept.best):
                kept.best = value
        self.last.insert(0, {"match": result.match_id, "finish": result.finish,
                             "rank": result.rank, "won": result.won})
        del self.last[LAST_RESULTS:]

    def as_json(self) -> dict[str, Any]:
        return {
            "played": self.played, "won": self.won, "rounds": self.rounds,
            "streak": self.streak, "longest_streak": self.longest_streak,
            "measures": {key: {"total": kept.total, "units": kept.units, "best": kept.best}
                         for key, kept in self.measures.items()},
            "last": self.last,
        }

    @classmethod
    def from_json(cls, stored: dict[str, Any]) -> Statistics:
        return cls(
            played=stored["played"], won=stored["won"], rounds=stored["rounds"],
            streak=stored["streak"], longest_streak=stored["longest_streak"],
            measures={key: MeasureSum(kept["total"], kept["units"], kept["best"])
                      for key, kept in stored["measures"].items()},
            last=list(stored["last"]),
        )


def replayed(results: list[SeatResult], game: AnyGame) -> Statistics:
    """The statistics of ``results`` (in the club's order)."""
    statistics = Statistics()
    for result in results:
        statistics.add(result, game.measures)
    return statistics
