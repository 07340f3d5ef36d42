"""The numbers a club's statistics keep per member and game, declared by each game.

A game names which totals of its standings say how well a side played (Sea Change's VP and card
points, Die sieben Siegel's penalty and exact predictions, Tschau Sepp's penalty and games won),
whether each counts per round or per match, and which way is better. The API sums them per
member over finished matches and shows averages and bests without knowing any game. It names
the total a match played for money pays by the same way (:class:`Priced`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from scoring.reading import JSON

Per = Literal["round", "match"]
Better = Literal["higher", "lower"]


@dataclass(frozen=True, slots=True)
class Measure:
    """``total`` of a side's standings line, averaged per round or per match.

    ``id`` names the measure for clients (``vp_per_round``); a match's value is the total
    divided by its rounds (``per="round"``) or the total itself (``per="match"``).
    """

    id: str
    total: str
    per: Per
    better: Better

    def value(self, totals: Mapping[str, JSON], rounds: int) -> float:
        """This measure for one side of one finished match (its standings line's totals)."""
        total = totals[self.total]
        if isinstance(total, bool) or not isinstance(total, int | float):
            raise TypeError(f"the total {self.total!r} is not a number: {total!r}")
        if self.per == "match":
            return float(total)
        return total / rounds if rounds else 0.0

    def units(self, rounds: int) -> int:
        """What the average divides by for one match: its rounds, or one match."""
        return rounds if self.per == "round" else 1

    def is_better(self, value: float, than: float) -> bool:
        return value > than if self.better == "higher" else value < than

    def as_json(self) -> dict[str, JSON]:
        return {"id": self.id, "total": self.total, "per": self.per, "better": self.better}


@dataclass(frozen=True, slots=True)
class Priced:
    """The total of a side's standings line that a match played for money pays by
    (:mod:`scoring.stakes`), and which way is better."""

    total: str
    lower_is_better: bool
