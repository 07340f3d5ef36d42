"""Seating schedules in which no two players ever meet twice, built from finite geometry.

A *schedule* for ``tables × size`` players (numbered 0..n-1) is a tuple of rounds, a round a
tuple of tables, a table a tuple of players; in a zero-repeat schedule every pair of players
shares a table at most once. :func:`zero_repeat_schedule` gives the longest one this module can
build for a table count and size; the planner (:mod:`scoring.tournament.mix`) takes its first
rounds and relabels the players. Two kinds of construction, both plain code:

- **Affine** (:func:`affine_schedule`): players are points (column, y) of ``size`` columns of
  the plane over GF(q), q = tables a prime power; each slope s gives a round whose tables are the
  lines y = s·x + c, so two players in different columns meet on exactly one slope (a resolvable
  transversal design). When ``size`` divides q, the columns themselves are seated with the
  schedule for ``q / size`` tables, adding its rounds: with ``size == q`` this is the affine
  plane AG(2, q) (q + 1 rounds, everyone meets everyone), and GF(9) with tables of 3 gives a
  Kirkman triple system of order 27. Over Z_m (m not a prime power) only slopes 0..p-1 (p the
  smallest prime factor of m) keep lines apart: 36 players at tables of 6 get 3 rounds.
- **Cyclic development** (:class:`Development`): players are (x, row) for x in Z_m plus a few
  fixed players ∞; a *base round* is shifted x → x + i for every i in Z_m, each shift a round,
  and *orbit rounds* are the m shifts of one table holding a player of every row. No pair meets
  twice exactly when the pairs of the base tables fall into different, unused classes of pairs
  under the shift (the classical "difference" condition, with ±d within a row). The base round
  is found by a seeded depth-first search (:func:`develop`) that may also ask the base round to
  be invariant under x → u·x, which shrinks the search to a few tables; the search is bounded by
  a node budget, deterministic, verified by the tests, and cached per process.

Which instances are known, and built here (every one up to 40 players at tables of 3 to 6 with
two or more tables; :data:`KNOWN` is the list the tests enumerate): the maximum number of rounds
without a repeat from the social golfer table kept with CSPLib problem 10 (Warwick Harvey) and
the design literature, for tables of

- 3: 9 → 4 (AG(2,3)), 12 → 4, 15 → 7 (Kirkman's schoolgirls), 18 → 8, 21 → 10, 24 → 11,
  27 → 13, 30 → 14, 33 → 16, 36 → 17, 39 → 19: Kirkman triple systems for v ≡ 3 (mod 6) and
  nearly Kirkman triple systems for v ≡ 0 (mod 6), all reaching ⌊(v−1)/2⌋ rounds;
- 4: 16 → 5 (AG(2,4)), 20 → 5, 24 → 7, 28 → 9 and 40 → 13 (resolvable 2-(v,4,1) designs,
  v ≡ 4 mod 12), 32 → 10 (Aguado's schedule, everyone meets 30 of the other 31: ours has
  every round invariant under the translations of GF(2)^3, found by
  :mod:`scoring.tournament.translations`; the transversal design over GF(8) plus its columns
  gives 9 without a search), 36 → 11 (everyone meets 33 of the other 35, the most any schedule
  allows: resolvable 4-GDDs of type 3^12 show it exists; ours is a cyclic development over Z_11
  with three fixed players);
- 5: 25 → 6 (AG(2,5)), 30 → 6, 35 → 7, 40 → 8 (transversal designs over GF(7), GF(8));
- 6: 36 → 3 (a Latin square; no two orthogonal ones of order 6 exist);
- fewer tables than seats at a table: 1 round (in round 2 some table holds two players of one
  earlier table).

Every schedule handed out is first checked from scratch
(:func:`scoring.tournament.translations.is_zero_repeat`). Each count above is the published
maximum (the README compares them with the table and names its sources), except 35 and 40 at
5: there 7 and 8 are the longest schedules found published, one under the counting bound, and
whether an 8th or a 9th round exists is open as far as those sources go; the local search in
:mod:`scoring.tournament.tabu` tries more rounds there like any other instance.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations

from scoring.tournament.fields import galois_field, prime_power
from scoring.tournament.translations import Translation, is_zero_repeat, translated

Table = tuple[int, ...]
Round = tuple[Table, ...]
Schedule = tuple[Round, ...]


@dataclass(frozen=True, slots=True)
class Known:
    """``tables × size`` players can play ``rounds`` rounds without meeting anyone twice."""

    tables: int
    size: int
    rounds: int
    source: str

    @property
    def players(self) -> int:
        return self.tables * self.size


@dataclass(frozen=True, slots=True)
class Development:
    """A cyclic development: players (x, row), x in Z_``modulus``, then ``fixed`` players ∞.

    Player numbers: (x, row) is ``row * modulus + x``; the fixed ones follow. The schedule has
    ``base_rounds × modulus + orbit_rounds`` rounds. ``multiplier`` u asks each base round to be
    invariant under x → u·x; ``seed`` orders the search (one that finds the base round quickly).
    """

    modulus: int
    rows: int
    fixed: int
    size: int
    base_rounds: int = 1
    orbit_rounds: int = 0
    multiplier: int = 1
    seed: int = 0

    @property
    def players(self) -> int:
        return self.modulus * self.rows + self.fixed

    @property
    def rounds(self) -> int:
        return self.base_rounds * self.modulus + self.orbit_rounds


KNOWN: tuple[Known, ...] = (
    Known(3, 3, 4, "affine plane AG(2,3)"),
    Known(4, 3, 4, "transversal design over GF(4)"),
    Known(5, 3, 7, "Kirkman triple system KTS(15)"),
    Known(6, 3, 8, "nearly Kirkman triple system NKTS(18)"),
    Known(7, 3, 10, "Kirkman triple system KTS(21)"),
    Known(8, 3, 11, "nearly Kirkman triple system NKTS(24)"),
    Known(9, 3, 13, "Kirkman triple system KTS(27)"),
    Known(10, 3, 14, "nearly Kirkman triple system NKTS(30)"),
    Known(11, 3, 16, "Kirkman triple system KTS(33)"),
    Known(12, 3, 17, "nearly Kirkman triple system NKTS(36)"),
    Known(13, 3, 19, "Kirkman triple system KTS(39)"),
    Known(4, 4, 5, "affine plane AG(2,4)"),
    Known(5, 4, 5, "transversal design over GF(5)"),
    Known(6, 4, 7, "social golfer 6-4-7"),
    Known(7, 4, 9, "resolvable 2-(28,4,1) design"),
    Known(8, 4, 10, "Aguado's schedule (a resolvable 4-GDD of type 2^16)"),
    Known(9, 4, 11, "social golfer 9-4-11 (cf. resolvable 4-GDDs of type 3^12)"),
    Known(10, 4, 13, "resolvable 2-(40,4,1) design"),
    Known(5, 5, 6, "affine plane AG(2,5)"),
    Known(6, 5, 6, "social golfer 6-5-6"),
    Known(7, 5, 7, "transversal design over GF(7)"),
    Known(8, 5, 8, "transversal design over GF(8)"),
    Known(6, 6, 3, "Latin square of order 6"),
    *(Known(tables, size, 1, "one round") for size in range(3, 7)
      for tables in range(2, size)),
)

# The developments that reach the counts in KNOWN where the affine construction falls short.
# Each was chosen (structure, multiplier, seed) so that its search ends within a few hundred
# nodes; the tests rebuild and verify every one.
_DEVELOPMENTS: dict[tuple[int, int], Development] = {
    (5, 3): Development(7, 2, 1, 3, seed=2),
    (6, 3): Development(4, 4, 2, 3, base_rounds=2, seed=5),
    (7, 3): Development(7, 3, 0, 3, orbit_rounds=3, seed=3),
    (8, 3): Development(11, 2, 2, 3, seed=5),
    (9, 3): Development(13, 2, 1, 3),
    (10, 3): Development(14, 2, 2, 3, seed=3),
    (11, 3): Development(11, 3, 0, 3, orbit_rounds=5, seed=2),
    (12, 3): Development(17, 2, 2, 3, seed=4),
    (13, 3): Development(19, 2, 1, 3, multiplier=7, seed=2),
    (6, 4): Development(7, 3, 3, 4),
    (7, 4): Development(9, 3, 1, 4, multiplier=8, seed=5),
    # 36 at tables of 4: the hardest search here (7,930 nodes, a fraction of a second once per
    # process); no seed below 6,000 nodes was found.
    (9, 4): Development(11, 3, 3, 4, seed=10),
    (10, 4): Development(13, 3, 1, 4, multiplier=3, seed=2),
    (6, 5): Development(6, 5, 0, 5, seed=4),
}

_SEARCH_NODES = 200_000


# Rounds invariant under the translations of GF(2)^k, where nothing cheaper reaches KNOWN. The
# search takes about a second and a half of one core, so it runs only when a plan asks for more
# rounds than the other constructions give (or when asked for the longest schedule).
_TRANSLATIONS: dict[tuple[int, int], Translation] = {
    (8, 4): Translation(3, 4, 4, 10),  # Aguado's 32 players at tables of 4 for 10 rounds
}


def zero_repeat_schedule(tables: int, size: int, rounds: int | None = None) -> Schedule:
    """A zero-repeat schedule for ``tables × size`` players, verified from scratch.

    Without ``rounds`` the longest this module builds; with it, one of at least ``rounds``
    rounds if the module builds one, found without the slower searches when they are not needed.
    """
    built = _constructed(tables, size)
    if rounds is not None and len(built) >= rounds:
        return built
    searched = _searched(tables, size)
    return searched if searched is not None and len(searched) > len(built) else built


@cache
def _constructed(tables: int, size: int) -> Schedule:
    candidates = [_one_round(tables, size)]
    development = _DEVELOPMENTS.get((tables, size))
    if development is not None:
        developed = develop(development)
        if developed is not None:
            candidates.append(developed)
    if size <= tables:
        candidates.append(affine_schedule(tables, size))
    return max((c for c in candidates if is_zero_repeat(c, tables * size, size)), key=len)


@cache
def _searched(tables: int, size: int) -> Schedule | None:
    translation = _TRANSLATIONS.get((tables, size))
    return None if translation is None else translated(translation)  # verified by translated


def _one_round(tables: int, size: int) -> Schedule:
    return (tuple(tuple(range(t * size, (t + 1) * size)) for t in range(tables)),)


def affine_schedule(order: int, size: int) -> Schedule:
    """Lines of ``size`` columns of the plane over GF(``order``) (or Z_order), then columns.

    Needs ``size <= order``. Player (column i, y) is ``i * order + y``.
    """
    if not 1 <= size <= order:
        raise ValueError(f"tables of {size} need at least {size} tables, not {order}")
    if prime_power(order) is not None:
        field = galois_field(order)
        add, mul = field.add, field.mul
        slopes = range(order)
    else:
        add = tuple(tuple((a + b) % order for b in range(order)) for a in range(order))
        mul = tuple(tuple(a * b % order for b in range(order)) for a in range(order))
        smallest_prime = next(p for p in range(2, order + 1) if order % p == 0)
        slopes = range(smallest_prime)  # differences of these are units of Z_order
    rounds: list[Round] = [
        tuple(tuple(column * order + add[mul[slope][column]][c] for column in range(size))
              for c in range(order))
        for slope in slopes
    ]
    if order % size == 0:
        for inner in zero_repeat_schedule(order // size, size):
            rounds.append(tuple(tuple(column * order + y for y in table)
                                for column in range(size) for table in inner))
    return tuple(rounds)


class _OutOfBudget(Exception):
    pass


def develop(development: Development, budget: int = _SEARCH_NODES) -> Schedule | None:
    """The development's schedule, or None when its search ends without a base round."""
    found = _BaseRoundSearch(development, budget).run()
    if found is None:
        return None
    transversals, base_rounds = found
    m, rows = development.modulus, development.rows

    def shifted(table: Sequence[int], i: int) -> Table:
        return tuple(p if p >= m * rows else p - p % m + (p % m + i) % m for p in table)

    schedule = [tuple(shifted(t, i) for t in base) for base in base_rounds for i in range(m)]
    schedule += [tuple(shifted(t, i) for i in range(m)) for t in transversals]
    return tuple(schedule)


class _BaseRoundSearch:
    """Depth-first search for the orbit-round tables and base rounds of a development.

    Every pair of players belongs to one class under the shift: (row, row', x' − x) for two
    rows, (row, ±d) within a row, (∞, row) with a fixed player. A class whose shift maps a pair
    onto itself (d = m/2 within a row) and pairs of fixed players are never used; every other
    class is used at most once, which is exactly "no pair meets twice" over all rounds.
    """

    def __init__(self, development: Development, budget: int) -> None:
        self.d = development
        self.count = development.players
        self.classes = _pair_classes(development)
        self.used = bytearray(max(max(row) for row in self.classes) + 1)
        self.multiples = _powers(development.multiplier, development.modulus)
        self.random = random.Random(development.seed)  # noqa: S311 - a reproducible search order
        self.budget = budget
        self.transversals: list[Table] = []
        self.base_rounds: list[list[Table]] = []

    def run(self) -> tuple[list[Table], list[list[Table]]] | None:
        try:
            found = self._orbit_tables()
        except _OutOfBudget:
            return None
        return (self.transversals, self.base_rounds) if found else None

    def _claim(self, images: Sequence[Table]) -> list[int] | None:
        """Mark the classes of the pairs in ``images`` used; None (nothing marked) if any is."""
        classes = [self.classes[a][b] for image in images for a, b in combinations(image, 2)]
        if any(c < 0 or self.used[c] for c in classes) or len(set(classes)) < len(classes):
            return None
        self.budget -= 1
        if self.budget < 0:
            raise _OutOfBudget
        for c in classes:
            self.used[c] = 1
        return classes

    def _release(self, classes: list[int]) -> None:
        for c in classes:
            self.used[c] = 0

    def _orbit_tables(self) -> bool:
        if len(self.transversals) == self.d.orbit_rounds:
            return self._base_round((1 << self.count) - 1)
        for table in self._transversals():
            claimed = self._claim([table])
            if claimed is None:
                continue
            self.transversals.append(table)
            if self._orbit_tables():
                return True
            self.transversals.pop()
            self._release(claimed)
        return False

    def _transversals(self) -> Iterator[Table]:
        """Tables (0, row 0), (x1, row 1), ...: one player per row, in unused classes."""
        m = self.d.modulus

        def extend(table: list[int], taken: list[int]) -> Iterator[Table]:
            if len(table) == self.d.size:
                yield tuple(table)
                return
            row = len(table)
            shifts = list(range(m))
            self.random.shuffle(shifts)
            for x in shifts:
                mark = len(taken)
                if self._fits(table, row * m + x, taken):
                    table.append(row * m + x)
                    yield from extend(table, taken)
                    table.pop()
                    del taken[mark:]

        yield from extend([0], [])

    def _fits(self, table: Sequence[int], player: int, taken: list[int]) -> bool:
        """Whether ``player`` meets everyone at ``table`` in new classes (added to ``taken``)."""
        row = self.classes[player]
        mark = len(taken)
        for other in table:
            c = row[other]
            if c < 0 or self.used[c] or c in taken:
                del taken[mark:]
                return False
            taken.append(c)
        return True

    def _base_round(self, free: int) -> bool:
        if not free:
            if len(self.base_rounds) == self.d.base_rounds:
                return True
            free = (1 << self.count) - 1
        if free == (1 << self.count) - 1:
            self.base_rounds.append([])
            if self._fill(free):
                return True
            self.base_rounds.pop()
            return False
        return self._fill(free)

    def _fill(self, free: int) -> bool:
        opener, mates = self._most_constrained(free)
        if len(mates) < self.d.size - 1:
            return False
        self.random.shuffle(mates)
        base = self.base_rounds[-1]
        for table in self._tables(opener, mates):
            images = self._images(table, free)
            claimed = None if images is None else self._claim(images)
            if images is None or claimed is None:
                continue
            base.extend(images)
            if self._base_round(free & ~sum(1 << p for image in images for p in image)):
                return True
            del base[-len(images):]
            self._release(claimed)
        return False

    def _most_constrained(self, free: int) -> tuple[int, list[int]]:
        """The free player with the fewest free players it may still meet, and those."""
        players = [p for p in range(self.count) if free >> p & 1]
        best: tuple[int, list[int]] | None = None
        for p in players:
            row = self.classes[p]
            mates = [q for q in players if q != p and row[q] >= 0 and not self.used[row[q]]]
            if best is None or len(mates) < len(best[1]):
                best = (p, mates)
        assert best is not None  # free is not empty
        return best

    def _tables(self, opener: int, mates: list[int]) -> Iterator[Table]:
        def extend(table: list[int], taken: list[int], start: int) -> Iterator[Table]:
            if len(table) == self.d.size:
                yield tuple(table)
                return
            for position in range(start, len(mates) - (self.d.size - len(table)) + 1):
                player = mates[position]
                mark = len(taken)
                if self._fits(table, player, taken):
                    table.append(player)
                    yield from extend(table, taken, position + 1)
                    table.pop()
                    del taken[mark:]

        yield from extend([opener], [], 0)

    def _images(self, table: Table, free: int) -> list[Table] | None:
        """``table`` under x → u^j·x, each image once; None if they overlap or leave ``free``."""
        m, rows = self.d.modulus, self.d.rows
        images: list[Table] = []
        seen: set[frozenset[int]] = set()
        covered = 0
        for u in self.multiples:
            image = tuple(p if p >= m * rows else p - p % m + p % m * u % m for p in table)
            key = frozenset(image)
            if key in seen:
                continue
            seen.add(key)
            for p in image:
                if covered >> p & 1 or not free >> p & 1:
                    return None
                covered |= 1 << p
            images.append(image)
        return images


def _powers(u: int, m: int) -> list[int]:
    powers = [1]
    while powers[-1] * u % m != 1 and len(powers) < m:
        powers.append(powers[-1] * u % m)
    return powers


def _pair_classes(d: Development) -> list[list[int]]:
    """Per pair of players its class number under the shift, -1 for pairs never to meet."""
    m, rows = d.modulus, d.rows
    within = m // 2 + 1
    between = rows * within
    row_pairs = {pair: i for i, pair in enumerate(combinations(range(rows), 2))}
    with_fixed = between + len(row_pairs) * m
    classes = [[-1] * d.players for _ in range(d.players)]
    for p, q in combinations(range(d.players), 2):
        if q >= m * rows:
            if p >= m * rows:
                continue
            c = with_fixed + (q - m * rows) * rows + p // m
        else:
            (row, x), (row2, x2) = divmod(p, m), divmod(q, m)
            if row == row2:
                step = min((x2 - x) % m, (x - x2) % m)
                if 2 * step == m:
                    continue
                c = row * within + step
            else:
                c = between + row_pairs[row, row2] * m + (x2 - x) % m
        classes[p][q] = classes[q][p] = c
    return classes
