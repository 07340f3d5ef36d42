"""Club ratings: openskill's Plackett-Luce model with its defaults, one rating per member and game.

A finished club match is one rating event: its sides (a seat, or a Sea Change team) are
openskill's teams, their final ranks in the match standings its ranks (a shared rank is a tie).
A match with fewer than two sides of members (Sea Change solo against the AI) rates nobody.
``ordinal = mu - 3 sigma``, openskill's own ordinal, is what the ladder sorts by.

The rating arithmetic is openskill's alone: this module only turns stored numbers into its
rating objects and back, so a replay of the same matches in the same order gives the same
floats, bit for bit.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
DEFAULT_MU: float = MODEL.mu
DEFAULT_SIGMA: float = MODEL.sigma


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


DEFAULT = Rating()


def rate(sides: Sequence[Sequence[Rating]], ranks: Sequence[int]) -> list[list[Rating]]:
    """Every member's rating after a match: ``sides`` in any order, ``ranks`` 1 = best, equal
    ranks tied. Sides and members come back in the order given."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma) for r in side] for side in sides]
    rated = MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [[Rating(r.mu, r.sigma) for r in side] for side in rated]
