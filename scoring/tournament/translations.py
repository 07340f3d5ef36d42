"""Zero-repeat schedules whose every round is invariant under the translations of GF(2)^k.

Players are (x, row) for x a vector of GF(2)^k (an integer of k bits) and ``rows`` rows, player
number ``row · 2^k + x``, so the translation by g is simply ``player ^ g`` for g < 2^k. A round
seated the same after every translation seats a pair {p, q} together exactly when it seats every
translate {p ^ g, q ^ g}; the pairs therefore fall into *classes* (row, row', x ⊕ x') that a round
covers whole or not at all, and a set of such rounds has no repeat exactly when no class is
covered twice. That turns the search for a schedule into a small exact-packing problem:

1. list every invariant round (:func:`_invariant_rounds`): seat the lowest unseated player with
   some unseated mates and seat the table's whole orbit at once (its tables must not overlap),
   until everyone is seated; each round is kept with the bit mask of the classes it covers;
2. choose ``rounds`` of them whose masks are disjoint (:class:`_Packing`): depth-first, always on
   the uncovered class with the fewest rounds still able to cover it, trying those rounds in
   ascending order of their masks; a class may also be left
   uncovered while the pairs left out stay within the count no schedule can avoid leaving out
   (all pairs minus the meetings of ``rounds`` rounds).

The search is plain, deterministic (the rounds are listed in a fixed order) and bounded by a
node budget. Why this structure: 32 players at tables of 4 for 10 rounds (Aguado's schedule,
each player meets 30 of the other 31) has no cyclic development we could find, while with k = 3
and 4 rows there are only 13,497 invariant rounds (listing them is most of the work, about a
second of one core) and the packing finds ten after 67 nodes. Other orders tried: rounds with
the fewest table orbits first (1,388 nodes), descending masks (nothing within 5,000).
:func:`is_zero_repeat` checks any schedule from scratch; the designs module runs it on every
schedule it hands out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations

Table = tuple[int, ...]
Round = tuple[Table, ...]
Schedule = tuple[Round, ...]

_SEARCH_NODES = 20_000


@dataclass(frozen=True, slots=True)
class Translation:
    """Rounds of tables of ``size`` for ``rows × 2^dimension`` players, invariant under GF(2)^k."""

    dimension: int
    rows: int
    size: int
    rounds: int

    @property
    def players(self) -> int:
        return self.rows << self.dimension


def translated(translation: Translation, budget: int = _SEARCH_NODES) -> Schedule | None:
    """The schedule of ``translation.rounds`` invariant rounds, or None if the search ends first."""
    if _slack(translation) < 0:
        return None
    classes, weights = _pair_classes(translation)
    listed = _invariant_rounds(translation, classes)
    packing = _Packing(translation, weights, listed, budget)
    chosen = packing.run()
    if chosen is None:
        return None
    schedule = tuple(listed[mask] for mask in chosen)
    return schedule if is_zero_repeat(schedule, translation.players, translation.size) else None


def is_zero_repeat(schedule: Sequence[Sequence[Sequence[int]]], players: int, size: int) -> bool:
    """Every round seats players 0..players-1 once at tables of ``size``; no pair meets twice."""
    everyone = list(range(players))
    met: set[tuple[int, int]] = set()
    for part in schedule:
        if sorted(p for table in part for p in table) != everyone:
            return False
        for table in part:
            if len(table) != size:
                return False
            for p, q in combinations(sorted(table), 2):
                if (p, q) in met:
                    return False
                met.add((p, q))
    return True


def _slack(t: Translation) -> int:
    """Pairs that never meet in any schedule of ``t.rounds`` rounds (negative: no schedule)."""
    count, tables = t.players, t.players // t.size
    return count * (count - 1) // 2 - t.rounds * tables * (t.size * (t.size - 1) // 2)


def _pair_classes(t: Translation) -> tuple[list[list[int]], list[int]]:
    """Class number of every pair (symmetric matrix), and the number of pairs in each class."""
    order, count = 1 << t.dimension, t.players
    number: dict[tuple[int, int, int], int] = {}
    weights: list[int] = []
    classes = [[-1] * count for _ in range(count)]
    for p, q in combinations(range(count), 2):
        key = (p >> t.dimension, q >> t.dimension, (p ^ q) & (order - 1))
        if key not in number:
            number[key] = len(weights)
            weights.append(0)
        c = number[key]
        weights[c] += 1
        classes[p][q] = classes[q][p] = c
    return classes, weights


def _invariant_rounds(t: Translation, classes: Sequence[Sequence[int]]) -> dict[int, Round]:
    """Every round invariant under the translations, keyed by the mask of classes it covers.

    Two rounds covering the same classes are interchangeable for the packing: the first listed
    is kept.
    """
    order, count = 1 << t.dimension, t.players
    found: dict[int, Round] = {}
    tables: list[Table] = []

    def orbit(table: Table, unseated: int) -> list[Table] | None:
        images = {tuple(sorted(p ^ g for p in table)) for g in range(order)}
        seats = 0
        for image in images:
            for p in image:
                if not unseated >> p & 1 or seats >> p & 1:
                    return None
                seats |= 1 << p
        return sorted(images)

    def seat(unseated: int) -> None:
        if not unseated:
            mask = 0
            for table in tables:
                for p, q in combinations(table, 2):
                    mask |= 1 << classes[p][q]
            found.setdefault(mask, tuple(tables))
            return
        first = (unseated & -unseated).bit_length() - 1
        others = [p for p in range(first + 1, count) if unseated >> p & 1]
        for mates in combinations(others, t.size - 1):
            images = orbit((first, *mates), unseated)
            if images is None:
                continue
            seated = sum(1 << p for image in images for p in image)
            tables.extend(images)
            seat(unseated & ~seated)
            del tables[len(tables) - len(images):]

    seat((1 << count) - 1)
    return found


class _OutOfBudget(Exception):
    pass


class _Packing:
    """Depth-first choice of rounds whose class masks are disjoint."""

    def __init__(self, t: Translation, weights: Sequence[int], listed: dict[int, Round],
                 budget: int) -> None:
        self.rounds = t.rounds
        self.weights = weights
        self.slack = _slack(t)
        self.covering: list[list[int]] = [[] for _ in weights]
        for mask in sorted(listed):  # of the fixed orders tried, ascending masks ends soonest
            for c in range(len(weights)):
                if mask >> c & 1:
                    self.covering[c].append(mask)
        self.budget = budget
        self.chosen: list[int] = []

    def run(self) -> list[int] | None:
        try:
            return list(self.chosen) if self._extend(0, 0) else None
        except _OutOfBudget:
            return None

    def _extend(self, covered: int, left_out: int) -> bool:
        self.budget -= 1
        if self.budget < 0:
            raise _OutOfBudget
        if len(self.chosen) == self.rounds:
            return True
        options: list[int] = []
        target = -1
        for c in range(len(self.weights)):
            if covered >> c & 1:
                continue
            fits = [mask for mask in self.covering[c] if not mask & covered]
            if target < 0 or len(fits) < len(options):
                target, options = c, fits
                if not fits:
                    break
        if target < 0:
            return False
        for mask in options:
            self.chosen.append(mask)
            if self._extend(covered | mask, left_out):
                return True
            self.chosen.pop()
        if left_out + self.weights[target] <= self.slack:
            return self._extend(covered | 1 << target, left_out + self.weights[target])
        return False
