"""A club's season ("Jahreswertung"): place points per match, evenings by date, the best N.

The API hands over the season's finished club matches (:class:`MatchResult`) and finished club
tournaments (:class:`TournamentResult`), already chosen by period and game, each with the date
of its evening in the club's time zone; :func:`season_standings` answers one row per member.

Decisions where the contract is silent:

- **Place points.** A match's sides are compared by their final ``rank`` only (a smaller rank is
  better, equal ranks are tied), so ``1, 1, 3`` and ``1, 1, 2`` mean the same. Each member of a
  side gets (sides beaten + ½ × sides tied) / (sides − 1): winning alone is 1, last alone 0, a
  2-player draw ½ each, whatever the number of sides. Every member of a team gets the team's
  points. A side without members (guests only) still counts as a side beaten or tied; its
  players are simply nobody's.
- **Exact arithmetic.** Points are :class:`fractions.Fraction` throughout, so thirds add up
  and compare exactly (no rounding before ranking). :func:`shown` writes a value with two
  decimals, halves rounded away from zero (``2/3`` → ``"0.67"``, ``1/8`` → ``"0.13"``); two
  different values may look alike there, and the rank tells them apart.
  :meth:`TournamentResult.from_floats` reads the tournament engine's float points as the
  nearest fraction with a denominator up to 10⁶, which recovers sums of thirds, quarters and
  sixths exactly.
- **Evenings.** A member's evening is the sum of all points of that date (several matches and
  tournaments alike); an evening worth 0 is still an evening played.
- **Best N.** With ``best``, a member's ``best`` highest evenings count (all of them when the
  member played fewer); ``best=None`` counts every evening. Evenings equal in points at the cut
  are taken earliest first, so the same results always count the same dates. ``best`` below 1
  is a ``ValueError``: the API refuses it before asking.
- **Ranking.** By points, then best single evening, then evenings played (all evenings, the
  dropped ones too), each higher first; members equal in all three share a rank (1, 1, 3) and
  are listed by member id within it.
- **Who is listed.** Every member with at least one evening in the results; members who did not
  play in the season have no row (the API may list them after the table if it wants).
- **Malformed results** (fewer than 2 sides, a member twice in one match) are a ``ValueError``:
  the API builds these values from matches it has already checked.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import date
from fractions import Fraction
from math import floor
from typing import TypeAlias

from scoring.ranking import shared_ranks
from scoring.reading import JSON

MemberId: TypeAlias = int
FLOAT_DENOMINATOR = 10**6
"""The largest denominator :meth:`TournamentResult.from_floats` looks for."""


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a finished match: its final rank (1 = best) and the club members on it."""

    rank: int
    members: tuple[MemberId, ...]


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished club match: the date of its evening and its sides' final standings."""

    evening: date
    sides: tuple[Side, ...]


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """A finished club tournament: the date of its evening and each member's points."""

    evening: date
    points: Mapping[MemberId, Fraction]

    @classmethod
    def from_floats(cls, evening: date, points: Mapping[MemberId, float]) -> TournamentResult:
        """The result from float tournament points, each read as the fraction it stands for."""
        return cls(
            evening,
            {
                member: Fraction(value).limit_denominator(FLOAT_DENOMINATOR)
                for member, value in points.items()
            },
        )


Result: TypeAlias = "MatchResult | TournamentResult"


@dataclass(frozen=True, slots=True)
class Evening:
    """One evening of a member's season: its date, points, and whether it counts."""

    date: date
    points: Fraction
    counted: bool

    def as_json(self) -> dict[str, JSON]:
        return {
            "date": self.date.isoformat(),
            "points": shown(self.points),
            "counted": self.counted,
        }


@dataclass(frozen=True, slots=True)
class SeasonRow:
    """A member's line in the season table.

    ``points`` sums the ``counted`` evenings (their dates, earliest first); ``evenings`` is how
    many were played; ``line`` is every evening by date, for the member's season line.
    """

    player: MemberId
    rank: int
    points: Fraction
    evenings: int
    counted: tuple[date, ...]
    best_evening: Fraction
    line: tuple[Evening, ...]

    def as_json(self) -> dict[str, JSON]:
        """The row with dates as ISO strings and points as :func:`shown` writes them."""
        return {
            "player": self.player,
            "rank": self.rank,
            "points": shown(self.points),
            "evenings": self.evenings,
            "counted": [day.isoformat() for day in self.counted],
            "best_evening": shown(self.best_evening),
            "line": [evening.as_json() for evening in self.line],
        }


def shown(points: Fraction) -> str:
    """``points`` with two decimals, halves away from zero: ``Fraction(7, 3)`` → ``"2.33"``."""
    hundredths = floor(abs(points) * 100 + Fraction(1, 2))
    sign = "-" if points < 0 and hundredths else ""
    return f"{sign}{hundredths // 100}.{hundredths % 100:02d}"


def place_points(match: MatchResult) -> dict[MemberId, Fraction]:
    """Each member's points from one match: (sides beaten + ½ × sides tied) / (sides − 1)."""
    sides = match.sides
    if len(sides) < 2:
        raise ValueError(f"a match needs at least 2 sides, not {len(sides)}")
    points: dict[MemberId, Fraction] = {}
    for side in sides:
        beaten = sum(1 for other in sides if other.rank > side.rank)
        tied = sum(1 for other in sides if other.rank == side.rank) - 1
        earned = Fraction(2 * beaten + tied, 2 * (len(sides) - 1))
        for member in side.members:
            if member in points:
                raise ValueError(f"member {member} is twice in one match")
            points[member] = earned
    return points


def season_standings(results: Iterable[Result], best: int | None = None) -> tuple[SeasonRow, ...]:
    """The season table: one row per member who played, by rank, then member id.

    ``best`` counts each member's best ``best`` evenings (``None``: all); below 1 it is a
    ``ValueError``, as is a malformed match (see :func:`place_points`).
    """
    if best is not None and best < 1:
        raise ValueError(f"best counts at least 1 evening, not {best}")
    nights = _evenings(results)
    rows = [_row(member, nights[member], best) for member in sorted(nights)]
    ranks = shared_ranks([(-row.points, -row.best_evening, -row.evenings) for row in rows])
    ranked = [replace(row, rank=rank) for row, rank in zip(rows, ranks, strict=True)]
    return tuple(sorted(ranked, key=lambda row: (row.rank, row.player)))


def _evenings(results: Iterable[Result]) -> dict[MemberId, dict[date, Fraction]]:
    nights: defaultdict[MemberId, defaultdict[date, Fraction]] = defaultdict(
        lambda: defaultdict(Fraction)
    )
    for result in results:
        earned = place_points(result) if isinstance(result, MatchResult) else result.points
        for member, points in earned.items():
            nights[member][result.evening] += points
    return {member: dict(by_date) for member, by_date in nights.items()}


def _row(member: MemberId, nights: Mapping[date, Fraction], best: int | None) -> SeasonRow:
    """The member's row with rank 0: ranks need every row."""
    strongest = sorted(nights, key=lambda day: (-nights[day], day))
    counted = frozenset(strongest[:best])
    line = tuple(Evening(day, nights[day], day in counted) for day in sorted(nights))
    return SeasonRow(
        player=member,
        rank=0,
        points=sum((nights[day] for day in counted), Fraction(0)),
        evenings=len(nights),
        counted=tuple(sorted(counted)),
        best_evening=nights[strongest[0]],
        line=line,
    )
