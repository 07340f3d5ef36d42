"""Local search over a whole seating plan: a greedy start, then tabu search on swaps.

The plan seats players 0..n-1 for a number of rounds at the same table sizes every round. Its
cost is a sum over meetings at a table: a meeting of a pair that has met M times before (in
the history or in another round of the plan, in whatever order) costs
``repeat + spread × (M − 1)`` when M ≥ 1, nothing when M = 0; a pair's ``fixed`` cost
(club-mates) is paid at every meeting, and its ``first`` cost (met in the round just played)
at a meeting in the plan's first round.

- **Greedy start** (after Triska & Musliu): round by round, each table is opened by the
  unseated player with the fewest unseated players it can still meet for free, and filled with
  the player who adds the least cost, ties going to the one that leaves the table the most
  unseated players who could still join it for free (the table's *freedom*).
- **Tabu search** (after Dotú & Van Hentenryck): a move swaps two players of one round at
  different tables, one of them in conflict (paying a cost at its table). Every move in the
  neighbourhood is priced in constant time from per-round tables of what each player would pay
  at each table; the best move that is not tabu is made (ties at random), a tabu move only when
  it beats the best plan so far. A swapped pair stays tabu in that round for a random tenure
  (``tenure`` to 3 × ``tenure`` moves); after ``stall`` moves without a new best the search
  restarts from the best plan with a few random swaps, more after each restart in a row that
  found nothing better.
- **Budget**: the search stops at a cost the caller knows to be optimal (``good_enough``), when
  its *effort* (moves priced) is spent, or after several restarts in a row found nothing
  better, and returns the best plan seen. Counting work, not
  time, makes every result reproducible for a seed on any machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

Plan = list[list[list[int]]]  # rounds → tables → players


@dataclass(frozen=True, slots=True)
class Costs:
    """Per pair (n × n, symmetric): earlier meetings, cost per meeting, extra in round one."""

    met: Sequence[Sequence[int]]
    fixed: Sequence[Sequence[int]]
    first: Sequence[Sequence[int]]
    repeat: int
    spread: int


def greedy_plan(costs: Costs, split: Sequence[int], rounds: int, rng: random.Random,
                start: Sequence[Sequence[Sequence[int]]] = ()) -> Plan:
    """``start`` (rounds already chosen) followed by greedily seated rounds up to ``rounds``."""
    count = len(costs.met)
    met = [list(row) for row in costs.met]
    plan: Plan = [[list(t) for t in part] for part in start]
    for part in plan:
        _meet(met, part, 1)
    while len(plan) < rounds:
        first = not plan
        price = [[(costs.fixed[p][q] + (costs.first[p][q] if first else 0)
                   + (costs.repeat + costs.spread * (met[p][q] - 1) if met[p][q] else 0))
                  for q in range(count)] for p in range(count)]
        free = [sum(1 << q for q in range(count) if q != p and not price[p][q])
                for p in range(count)]
        order = list(range(count))
        rng.shuffle(order)
        part = _greedy_round(price, free, order, split)
        _meet(met, part, 1)
        plan.append(part)
    return plan


def _greedy_round(price: Sequence[Sequence[int]], free: Sequence[int], order: Sequence[int],
                  split: Sequence[int]) -> list[list[int]]:
    unseated = sum(1 << p for p in order)
    part = []
    for size in split:
        opener = min((p for p in order if unseated >> p & 1),
                     key=lambda p: (free[p] & unseated).bit_count())
        unseated &= ~(1 << opener)
        table, fits = [opener], free[opener]
        while len(table) < size:
            chosen, best = -1, (0, 0)
            for p in order:
                if unseated >> p & 1:
                    rank = (sum(price[p][q] for q in table),
                            -(fits & free[p] & unseated).bit_count())
                    if chosen < 0 or rank < best:
                        chosen, best = p, rank
            unseated &= ~(1 << chosen)
            table.append(chosen)
            fits &= free[chosen]
        part.append(table)
    return part


def random_plan(count: int, split: Sequence[int], rounds: int, rng: random.Random) -> Plan:
    """Rounds of a seeded shuffle cut into tables: the plain search's start."""
    plan: Plan = []
    for _ in range(rounds):
        order = list(range(count))
        rng.shuffle(order)
        part, at = [], 0
        for size in split:
            part.append(order[at:at + size])
            at += size
        plan.append(part)
    return plan


def _meet(met: list[list[int]], part: Sequence[Sequence[int]], step: int) -> None:
    for table in part:
        for i, p in enumerate(table):
            for q in table[i + 1:]:
                met[p][q] += step
                met[q][p] += step


@dataclass(frozen=True, slots=True)
class Effort:
    """How hard the tabu search tries: moves priced in all, moves without a new best before a
    restart, random swaps at a restart, the shortest tabu tenure, and restarts in a row without
    a new best before it gives up (small plans are settled long before the moves run out)."""

    moves: int
    stall: int = 2_000
    restart_swaps: int = 3
    tenure: int = 4
    patience: int = 8


def tabu_search(
    costs: Costs, start: Plan, rng: random.Random, effort: Effort,
    good_enough: Callable[[Plan], bool] = lambda plan: False,
) -> tuple[Plan, int]:
    """The best plan found from ``start`` and its cost (see the module's rules)."""
    search = _Search(costs, start)
    return search.run(rng, effort, good_enough)


class _Search:
    """The plan's state with the prices that make every swap's cost change a few lookups.

    ``total[p][q]``: meetings of p and q so far (history and every round of the plan).
    ``pay[r][p][t]``: what p pays for the players at table t of round r, counting their
    meetings outside round r, as if p sat there (for p's own table: what p pays now).
    ``apart[r][p][q]``: what p pays for meeting q in round r when they sit apart in round r.
    """

    def __init__(self, costs: Costs, start: Plan) -> None:
        self.costs = costs
        self.count = count = len(costs.met)
        self.rounds = len(start)
        self.plan = [[list(t) for t in part] for part in start]
        self.table_of = [[0] * count for _ in range(self.rounds)]
        for r, part in enumerate(self.plan):
            for t, table in enumerate(part):
                for p in table:
                    self.table_of[r][p] = t
        self.total = [list(row) for row in costs.met]
        for part in self.plan:
            _meet(self.total, part, 1)
        longest = max((max(row) for row in costs.met), default=0) + self.rounds + 1
        self.price = [0] + [costs.repeat + costs.spread * (m - 1) for m in range(1, longest)]
        later = [[self.price[self.total[p][q]] + costs.fixed[p][q] for q in range(count)]
                 for p in range(count)]
        opening = [[later[p][q] + costs.first[p][q] for q in range(count)] for p in range(count)]
        self.apart = [opening] + [later] * (self.rounds - 1)
        self.pay = [[self._pays_at(r, p) for p in range(count)] for r in range(self.rounds)]
        self.cost = self._cost()

    def _cost(self) -> int:
        """Each meeting's price in the order of rounds, and the fixed and first-round costs."""
        costs, price, count = self.costs, self.price, self.count
        running = [0]
        for m in price:
            running.append(running[-1] + m)
        cost = sum(running[self.total[p][q]] - running[costs.met[p][q]]
                   for p in range(count) for q in range(p + 1, count))
        for r, part in enumerate(self.plan):
            for table in part:
                for i, p in enumerate(table):
                    for q in table[i + 1:]:
                        cost += costs.fixed[p][q] + (costs.first[p][q] if r == 0 else 0)
        return cost

    def _pair(self, r: int, p: int, q: int, together: bool) -> int:
        """What p pays for meeting q in round r, given whether they sit together in round r."""
        if not together:
            return self.apart[r][p][q]
        return self.apart[r][p][q] - self.price[self.total[p][q]] + self.price[
            self.total[p][q] - 1]

    def _pays_at(self, r: int, p: int) -> list[int]:
        mine = self.table_of[r][p]
        return [sum(self._pair(r, p, q, t == mine) for q in table if q != p)
                for t, table in enumerate(self.plan[r])]

    def run(self, rng: random.Random, effort: Effort,
            good_enough: Callable[[Plan], bool]) -> tuple[Plan, int]:
        best_cost, best = self.cost, self._copy()
        if best_cost == 0 or good_enough(best):
            return best, best_cost
        count, rounds = self.count, self.rounds
        tabu = [[[0] * count for _ in range(count)] for _ in range(rounds)]
        spent, step, since_best, restarts = 0, 0, 0, 0
        while spent < effort.moves and restarts <= effort.patience:
            step += 1
            moves: list[tuple[int, int, int]] = []
            lowest = _NO_MOVE
            for r in range(rounds):
                where, pay, part, apart = self.table_of[r], self.pay[r], self.plan[r], self.apart[r]
                forbidden = tabu[r]
                for a in range(count):
                    home = where[a]
                    mine = pay[a]
                    stay = mine[home]
                    if not stay:
                        continue
                    apart_a, forbidden_a = apart[a], forbidden[a]
                    for t, table in enumerate(part):
                        if t == home:
                            continue
                        spent += len(table)
                        gain = mine[t] - stay
                        for b in table:
                            theirs = pay[b]
                            change = gain + theirs[home] - theirs[t] - 2 * apart_a[b]
                            if change > lowest or (forbidden_a[b] > step
                                                   and self.cost + change >= best_cost):
                                continue
                            if change < lowest:
                                lowest, moves = change, [(r, a, b)]
                            else:
                                moves.append((r, a, b))
            if not moves:  # every conflicting swap is tabu: only possible in tiny plans
                restarts += 1
                self._restart(best, rng, effort.restart_swaps * restarts)
                since_best = 0
                continue
            r, a, b = rng.choice(moves)
            self._swap(r, a, b)
            tabu[r][a][b] = tabu[r][b][a] = step + effort.tenure + rng.randrange(effort.tenure * 2)
            if self.cost < best_cost:
                best_cost, best, since_best, restarts = self.cost, self._copy(), 0, 0
                if best_cost == 0 or good_enough(best):
                    break
            else:
                since_best += 1
                if since_best >= effort.stall:
                    restarts += 1
                    self._restart(best, rng, effort.restart_swaps * restarts)
                    since_best = 0
        return best, best_cost

    def _copy(self) -> Plan:
        return [[list(t) for t in part] for part in self.plan]

    def _restart(self, best: Plan, rng: random.Random, swaps: int) -> None:
        fresh = _Search(self.costs, best)
        for _ in range(swaps):
            r = rng.randrange(self.rounds)
            a, b = rng.sample(range(self.count), 2)
            if fresh.table_of[r][a] != fresh.table_of[r][b]:
                fresh._swap(r, a, b)
        self.plan, self.table_of, self.total = fresh.plan, fresh.table_of, fresh.total
        self.apart, self.pay, self.cost = fresh.apart, fresh.pay, fresh.cost

    def _swap(self, r: int, a: int, b: int) -> None:
        where, part, pay = self.table_of[r], self.plan[r], self.pay[r]
        home, away = where[a], where[b]
        between = self.apart[r][a][b]
        self.cost += (pay[a][away] - pay[a][home] + pay[b][home] - pay[b][away] - 2 * between)
        # Round r: a leaves home for away, b the other way; meetings outside r do not change.
        for p in range(self.count):
            if p in (a, b):
                continue
            mine = pay[p]
            there = where[p]
            leaving = self._pair(r, p, a, there == home)
            arriving = self._pair(r, p, b, there == away)
            mine[home] += arriving - leaving
            mine[away] += leaving - arriving
        pay[a][home] += between
        pay[a][away] -= between
        pay[b][away] += between
        pay[b][home] -= between
        # Every round: the meetings of the pairs that changed, and so their prices.
        total, price = self.total, self.price
        old_home = [p for p in part[home] if p != a]
        old_away = [p for p in part[away] if p != b]
        changes = ([(a, q, 1) for q in old_away] + [(a, q, -1) for q in old_home]
                   + [(b, q, 1) for q in old_home] + [(b, q, -1) for q in old_away])
        for p, q, step in changes:
            before = total[p][q]
            total[p][q] = total[q][p] = before + step
            moved = price[before + step] - price[before]
            for other in range(self.rounds):
                apart = self.apart[other]
                if other < 2:  # round 0 and the rows later rounds share
                    apart[p][q] += moved
                    apart[q][p] += moved
                if other == r:
                    continue
                where_p, where_q = self.table_of[other][p], self.table_of[other][q]
                change = moved
                if where_p == where_q:
                    change = price[before + step - 1] - price[before - 1]
                self.pay[other][p][where_q] += change
                self.pay[other][q][where_p] += change
        part[home][part[home].index(a)] = b
        part[away][part[away].index(b)] = a
        where[a], where[b] = away, home


_NO_MOVE = 1 << 62
