"""Mix seating: everyone meets as many different players as possible.

The cost of a round is the sum over pairs at a table of ``2 × times met before`` (the growth of
Σ over pairs of (times met)², leaving out the constant 1 per pair), plus ``weights.consecutive``
for a pair that also met in the round just before, plus ``weights.club`` for club-mates at one
table. Table revisits are settled afterwards, when the groups get their table numbers, and the
lead rotates (see :mod:`scoring.tournament.report`).

Decisions:

- Club-mates weigh more than a second meeting: keeping a club apart is what organisers ask for
  explicitly, while repeats are a matter of degree.
- **Planning ahead** (:func:`plan_mix`, fixed roster and round count): for fields of up to
  :data:`EXACT_PLAYERS` players a depth-first search looks for rounds in which nobody meets a
  player they met before or a club-mate. It fills one table at a time, opening it with the player
  who has the fewest possible tablemates left, and breaks the symmetries of the problem (tables
  are unordered; rounds are ordered by player 1's lowest tablemate; without history or clubs the
  first round is fixed). It restarts with a new seeded relabelling after a node budget, since
  such searches are heavy-tailed. This finds the classical designs (9 players in 4 rounds of 3,
  Kirkman's 15 schoolgirls in 7 rounds of 3, 16 players in 5 rounds of 4) in well under a second.
  When it fails (no such plan exists, or none was found in time), the rounds are planned one by
  one with the per-round planner, restarted a few times for small fields, keeping the cheapest
  plan.
- **One round** (:func:`seat_mix`, and each round of a fallback plan): a greedy placement with
  pair-cost lookups opens each table with the next player of a seeded shuffle and fills it with
  the first of a bounded window of unseated players who costs nothing there (else the cheapest),
  then improves by swapping players with a conflict against players at other tables while the
  cost drops. Both steps cost about linear time in the field for fixed table sizes and history.
- **Roster changes**: call :func:`plan_mix` again with the rounds played so far as history, the
  new roster and the rounds left; the rounds ahead are re-planned around what happened.
- Everything is deterministic given the seed.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import islice

from scoring.errors import FieldError, InvalidInput
from scoring.reading import TOO_SMALL
from scoring.tournament.history import Meetings, Player, PlayerId, Round, check_roster
from scoring.tournament.report import RoundPlan, finish_round
from scoring.tournament.tables import TableSizes

EXACT_PLAYERS = 64
_EXACT_NODES = 120_000
_EXACT_ATTEMPTS = 8
_WINDOW = 48
_RESTARTS_SMALL_FIELD = 8
_IMPROVEMENT_PASSES = 4


@dataclass(frozen=True, slots=True)
class MixWeights:
    """Extra costs on top of 2 per earlier meeting of a pair at one table."""

    consecutive: int = 3
    club: int = 10


def seat_mix(
    players: Sequence[Player], sizes: TableSizes, history: Sequence[Round] = (),
    seed: int | str = 0, weights: MixWeights = MixWeights(),
) -> RoundPlan:
    """The next round for the active ``players`` after the rounds in ``history``."""
    check_roster(players)
    split = sizes.split(len(players))
    meetings = Meetings(history)
    groups, _ = _one_round(players, split, meetings, weights, random.Random(seed))  # noqa: S311 - seeded for replay
    return finish_round(groups, players, meetings, number_tables=True, rotate_leads=True)


def plan_mix(
    players: Sequence[Player], sizes: TableSizes, rounds: int, history: Sequence[Round] = (),
    seed: int | str = 0, weights: MixWeights = MixWeights(),
) -> tuple[RoundPlan, ...]:
    """``rounds`` rounds ahead for a fixed roster, after the rounds already in ``history``."""
    check_roster(players)
    if rounds < 0:
        raise InvalidInput((FieldError("rounds", TOO_SMALL, {"minimum": 0}),))
    split = sizes.split(len(players))
    rng = random.Random(seed)  # noqa: S311 - seating is reproducible, not secret
    schedule = None
    if len(players) <= EXACT_PLAYERS:
        schedule = _exact(players, split, rounds, Meetings(history), rng)
    if schedule is None:
        schedule = _one_by_one(players, split, rounds, history, weights, rng)
    meetings = Meetings(history)
    return tuple(
        finish_round(groups, players, meetings, number_tables=True, rotate_leads=True)
        for groups in schedule
    )


Groups = list[list[PlayerId]]


def _one_by_one(
    players: Sequence[Player], split: Sequence[int], rounds: int, history: Sequence[Round],
    weights: MixWeights, rng: random.Random,
) -> list[Groups]:
    best: tuple[int, list[Groups]] | None = None
    for _ in range(_RESTARTS_SMALL_FIELD if len(players) <= EXACT_PLAYERS else 1):
        meetings = Meetings(history)
        total = 0
        schedule: list[Groups] = []
        for _ in range(rounds):
            groups, cost = _one_round(players, split, meetings, weights, rng)
            meetings.add(groups)
            schedule.append(groups)
            total += cost
        if best is None or total < best[0]:
            best = (total, schedule)
    assert best is not None  # at least one attempt ran
    return best[1]


def _one_round(
    players: Sequence[Player], split: Sequence[int], meetings: Meetings, weights: MixWeights,
    rng: random.Random,
) -> tuple[Groups, int]:
    """Groups for one round (largest first) and their cost."""
    ids = [p.id for p in players]
    index = {p: i for i, p in enumerate(ids)}
    cost = _pair_costs(players, index, meetings, weights)
    order = list(range(len(ids)))
    rng.shuffle(order)
    tables = _greedy(order, split, cost)
    total = _improve(tables, cost)
    return [[ids[i] for i in table] for table in tables], total


def _pair_costs(
    players: Sequence[Player], index: dict[PlayerId, int], meetings: Meetings,
    weights: MixWeights,
) -> list[dict[int, int]]:
    """Per player, the cost of sitting with each player it costs anything to sit with."""
    cost: list[dict[int, int]] = []
    clubs: dict[str, list[int]] = {}
    for i, player in enumerate(players):
        if player.club is not None:
            clubs.setdefault(player.club, []).append(i)
    for i, player in enumerate(players):
        mine = {index[q]: 2 * n for q, n in meetings.met.get(player.id, {}).items() if q in index}
        for q in meetings.last_round.get(player.id, ()):
            if q in index:
                mine[index[q]] = mine.get(index[q], 0) + weights.consecutive
        for mate in clubs.get(player.club, []) if player.club is not None else []:
            if mate != i:
                mine[mate] = mine.get(mate, 0) + weights.club
        cost.append(mine)
    return cost


def _greedy(order: list[int], split: Sequence[int], cost: Sequence[dict[int, int]]) -> list[
    list[int]
]:
    left = order[::-1]  # taken from the end, so each removal is cheap
    tables: list[list[int]] = []
    for size in split:
        table = [left.pop()]
        while len(table) < size:
            best, best_cost = len(left) - 1, -1
            for position in range(len(left) - 1, max(-1, len(left) - 1 - _WINDOW), -1):
                candidate = cost[left[position]]
                extra = sum(candidate.get(m, 0) for m in table)
                if best_cost < 0 or extra < best_cost:
                    best, best_cost = position, extra
                    if extra == 0:
                        break
            table.append(left.pop(best))
        tables.append(table)
    return tables


def _improve(tables: list[list[int]], cost: Sequence[dict[int, int]]) -> int:
    """Swap players between tables while that lowers the cost; returns the final cost."""

    def at(player: int, table: list[int], without: int) -> int:
        mine = cost[player]
        return sum(mine.get(m, 0) for m in table if m != player and m != without)

    for _ in range(_IMPROVEMENT_PASSES):
        improved = False
        for home in tables:
            for player in list(home):
                now = at(player, home, -1)
                if now == 0:
                    continue
                best_gain, best_swap = 0, None
                for away in tables:
                    if away is home:
                        continue
                    for other in away:
                        gain = (now + at(other, away, -1)
                                - at(player, away, other) - at(other, home, player))
                        if gain > best_gain:
                            best_gain, best_swap = gain, (away, other)
                if best_swap is not None:
                    away, other = best_swap
                    home[home.index(player)] = other
                    away[away.index(other)] = player
                    improved = True
        if not improved:
            break
    return sum(at(p, t, -1) for t in tables for p in t) // 2


class _OutOfBudget(Exception):
    pass


def _exact(
    players: Sequence[Player], split: Sequence[int], rounds: int, meetings: Meetings,
    rng: random.Random,
) -> list[Groups] | None:
    """Rounds in which no pair meets again and no club-mates meet, or None if none was found."""
    count = len(players)
    index = {p.id: i for i, p in enumerate(players)}
    conflicts = [0] * count
    for i, player in enumerate(players):
        for other in meetings.met.get(player.id, {}):
            if other in index:
                conflicts[i] |= 1 << index[other]
        if player.club is not None:
            for j, mate in enumerate(players):
                if j != i and mate.club == player.club:
                    conflicts[i] |= 1 << j
    partners_needed = rounds * (min(split) - 1)
    if any(count - 1 - c.bit_count() < partners_needed for c in conflicts):
        return None
    # Without history or clubs every relabelling searches the same (isomorphic) tree: one
    # long attempt; otherwise several shorter ones, since each relabelling orders tablemates anew.
    attempts = _EXACT_ATTEMPTS if any(conflicts) else 1
    for _ in range(attempts):
        labels = list(range(count))
        rng.shuffle(labels)  # label -> player
        position = {seat: label for label, seat in enumerate(labels)}
        relabelled = [0] * count
        for seat, bits in enumerate(conflicts):
            for other in range(count):
                if bits >> other & 1:
                    relabelled[position[seat]] |= 1 << position[other]
        try:
            found = _Search(count, split, rounds, relabelled, rng, _EXACT_NODES // attempts).run()
        except _OutOfBudget:
            continue
        if found is None:
            return None  # the whole space was searched: no such plan exists
        return [[[players[labels[lab]].id for lab in t] for t in part] for part in found]
    return None


class _Search:
    """Depth-first search for ``rounds`` conflict-free partitions of players 0..count-1."""

    def __init__(
        self, count: int, split: Sequence[int], rounds: int, conflicts: list[int],
        rng: random.Random, budget: int,
    ) -> None:
        self.count = count
        # Tablemates are tried in a random order per attempt: on its own the search would walk
        # the same (isomorphic) dead ends on every restart.
        self.order = list(range(count))
        if any(conflicts):
            rng.shuffle(self.order)
        self.rounds = rounds
        self.sizes: dict[int, int] = {}
        for size in split:
            self.sizes[size] = self.sizes.get(size, 0) + 1
        self.pairs_per_round = sum(size * (size - 1) // 2 for size in split)
        self.conflicts = conflicts
        self.budget = budget
        self.fixed_first = not any(conflicts)

    def run(self) -> list[list[tuple[int, ...]]] | None:
        return self._rounds(0, self.conflicts, -1)

    def _rounds(
        self, number: int, conflicts: list[int], floor: int,
    ) -> list[list[tuple[int, ...]]] | None:
        if number == self.rounds:
            return []
        options: Iterator[list[tuple[int, ...]]] = self._tables(
            (1 << self.count) - 1, conflicts, floor, dict(self.sizes),
        )
        fixed = number == 0 and self.fixed_first
        if fixed:
            options = islice(options, 1)
        for partition in options:
            after = list(conflicts)
            for table in partition:
                bits = sum(1 << p for p in table)
                for p in table:
                    after[p] |= bits & ~(1 << p)
            if not self._coverable(after, self.rounds - number - 1):
                continue
            # A fixed first round stays out of the order of the interchangeable rounds.
            rest = self._rounds(number + 1, after, -1 if fixed else min(partition[0][1:]))
            if rest is not None:
                return [partition, *rest]
        return None

    def _coverable(self, conflicts: list[int], rounds_left: int) -> bool:
        """Whether the pairs yet to meet can still all be used, when every one of them must be.

        When the rounds left need exactly as many new pairs as are left, each such pair must
        sit at a table of at least three with a third player new to both: a cheap test that cuts
        hopeless branches of complete designs (Kirkman's schoolgirls) a whole round early.
        """
        full = (1 << self.count) - 1
        free_pairs = sum(self.count - 1 - c.bit_count() for c in conflicts) // 2
        if free_pairs > rounds_left * self.pairs_per_round or min(self.sizes) < 3:
            return True
        for player, clash in enumerate(conflicts):
            new = full & ~clash & ~(1 << player)
            rest = new
            while rest:
                low = rest & -rest
                rest ^= low
                other = low.bit_length() - 1
                if other > player and not new & ~conflicts[other] & ~low:
                    return False
        return True

    def _tables(
        self, free: int, conflicts: list[int], floor: int | None, sizes: dict[int, int],
    ) -> Iterator[list[tuple[int, ...]]]:
        """Partitions of ``free`` into ``sizes`` (size → tables left, owned by this round).

        The first table (``floor`` set) is player 0's, with tablemates above ``floor``.
        """
        if not free:
            yield []
            return
        smallest = min(size for size, left in sizes.items() if left)
        if floor is not None:
            opener = 0
            candidates = free & ~conflicts[0] & ~((2 << max(floor, 0)) - 1)
        else:
            opener, fewest = -1, self.count
            rest = free
            while rest:
                low = rest & -rest
                player = low.bit_length() - 1
                rest ^= low
                options = (free & ~conflicts[player]).bit_count() - 1
                if options < fewest:
                    opener, fewest = player, options
            if fewest < smallest - 1:
                return
            candidates = free & ~conflicts[opener] & ~(1 << opener)
        for size in sorted((s for s, left in sizes.items() if left), reverse=True):
            sizes[size] -= 1
            ranked = [p for p in self.order if candidates >> p & 1]
            for mates in _cliques(ranked, size - 1, conflicts):
                self.budget -= 1
                if self.budget < 0:
                    raise _OutOfBudget
                table = (opener, *mates)
                taken = sum(1 << p for p in table)
                for rest_tables in self._tables(free & ~taken, conflicts, None, sizes):
                    yield [table, *rest_tables]
            sizes[size] += 1


def _cliques(ranked: list[int], size: int, conflicts: list[int]) -> Iterator[tuple[int, ...]]:
    """``size`` players from ``ranked`` who all may meet, each set once, in ``ranked`` order."""
    if size == 0:
        yield ()
        return
    for position in range(len(ranked) - size + 1):
        player = ranked[position]
        clash = conflicts[player]
        rest = [p for p in ranked[position + 1:] if not clash >> p & 1]
        if len(rest) >= size - 1:
            for mates in _cliques(rest, size - 1, conflicts):
                yield (player, *mates)
