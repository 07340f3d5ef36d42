"""Mix seating: everyone meets as many different players as possible.

What a plan costs (:class:`MixWeights`): club-mates at one table cost ``club`` each time; a
pair meeting at a table after M ≥ 1 earlier meetings (history and the plan's other rounds)
costs ``repeat + spread × (M − 1)``; a pair meeting again right after the round just played
costs ``consecutive`` more. The default weights are far apart, so in practice the order is
strict: club-mates apart first (what organisers ask for explicitly), then the fewest repeated
meetings, then repeats spread over different pairs (two second meetings rather than one third)
and not in consecutive rounds. Table revisits are settled afterwards, when the groups get
their table numbers, and the lead rotates (see :mod:`scoring.tournament.report`).

Decisions:

- **Planning ahead** (:func:`plan_mix`, a fixed roster and round count, fields of up to
  :data:`PLAN_AHEAD_PLAYERS`):

  1. *Construction.* When no two active players have met yet and the tables are all of one
     size s, or of s and s − 1, the plan comes from the longest zero-repeat schedule known for
     that many tables of s (:mod:`scoring.tournament.designs`): the players missing from full
     tables become *holes*, points of the schedule that never meet one another in the rounds
     used, so each of their tables is one short; each club is placed on points that never
     meet either, so club-mates never share a table; everyone else takes the remaining points
     in a seeded order. If the schedule covers every round and the holes and clubs fit, this
     is the plan: no repeat, clubs apart.
  2. *Search.* Otherwise the start is the plan made before the roster changed (``planned``,
     fitted to the new roster: players who left free their seats, new players take free seats,
     tables are filled or emptied to the new table sizes), or else the rounds the construction
     did cover; the rounds still missing are seated greedily, and the whole plan goes to the
     tabu search of
     :mod:`scoring.tournament.tabu`. Its effort is counted in moves priced
     (:data:`PLAN_EFFORT`), not in seconds, so the same roster, history and seed always give
     the same plan on any machine; it stops early once the repeats reach the lower bound of
     :mod:`scoring.tournament.bounds` with no more club-mates together than the pigeonhole
     forces, and otherwise returns the best plan found within the effort.
  3. *Order.* The first round is the one priced against the round just played; the others
     follow, each the remaining round sharing the fewest pairs with the one before.

- **One round** (:func:`seat_mix`): for fields up to :data:`PLAN_AHEAD_PLAYERS` the same
  engine plans a single round. Larger fields get a greedy placement with pair-cost lookups
  that opens each table with the next player of a seeded shuffle and fills it with the first
  of a bounded window of unseated players who costs nothing there (else the cheapest), then
  improves by swapping players with a conflict against players at other tables while the cost
  drops: about linear time in the field for fixed table sizes and history (1,000 players in
  well under a second). Planning ahead for such fields seats round after round that way.
- **Roster changes**: call :func:`plan_mix` again with the rounds played so far as history, the
  new roster, the rounds left and the rounds planned for them before (``planned``): the rounds
  ahead are re-planned around what happened, starting from the old plan, so a late entry who
  takes a dropped player's seat keeps a plan without repeats, and most players keep the
  tables they were told.
- Everything is deterministic given the seed.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from scoring.errors import FieldError, InvalidInput
from scoring.reading import TOO_SMALL
from scoring.tournament.bounds import even_pairs
from scoring.tournament.designs import zero_repeat_schedule
from scoring.tournament.history import Meetings, Player, PlayerId, Round, check_roster
from scoring.tournament.report import RoundPlan, assessed, finish_round, lower_bound
from scoring.tournament.tables import TableSizes
from scoring.tournament.tabu import Costs, Effort, Plan, greedy_plan, tabu_search

PLAN_AHEAD_PLAYERS = 64
PLAN_EFFORT = Effort(moves=4_000_000)
_WINDOW = 48
_IMPROVEMENT_PASSES = 4
_PLACEMENT_NODES = 20_000
_REFIT_NODES = 5_000


@dataclass(frozen=True, slots=True)
class MixWeights:
    """What one meeting at a table costs a plan (see the module's rules)."""

    club: int = 1_000_000
    repeat: int = 1_000
    spread: int = 3
    consecutive: int = 2


def seat_mix(
    players: Sequence[Player], sizes: TableSizes, history: Sequence[Round] = (),
    seed: int | str = 0, weights: MixWeights = MixWeights(), effort: Effort = PLAN_EFFORT,
) -> RoundPlan:
    """The next round for the active ``players`` after the rounds in ``history``."""
    check_roster(players)
    if len(players) <= PLAN_AHEAD_PLAYERS:
        return plan_mix(players, sizes, 1, history, seed, weights, effort=effort)[0]
    split = sizes.split(len(players))
    meetings = Meetings(history)
    groups, _ = _one_round(players, split, meetings, weights, random.Random(seed))  # noqa: S311 - seeded for replay
    plan = finish_round(groups, players, meetings, number_tables=True, rotate_leads=True)
    return assessed([plan], players, split, history)[0]


def plan_mix(
    players: Sequence[Player], sizes: TableSizes, rounds: int, history: Sequence[Round] = (),
    seed: int | str = 0, weights: MixWeights = MixWeights(), *, planned: Sequence[Round] = (),
    effort: Effort = PLAN_EFFORT,
) -> tuple[RoundPlan, ...]:
    """``rounds`` rounds ahead for a fixed roster, after the rounds already in ``history``.

    ``planned``: the rounds planned earlier for these rounds (before the roster changed), to
    start from; ``effort``: how hard the search may try (see :mod:`scoring.tournament.tabu`).
    """
    check_roster(players)
    if rounds < 0:
        raise InvalidInput((FieldError("rounds", TOO_SMALL, {"minimum": 0}),))
    split = sizes.split(len(players))
    rng = random.Random(seed)  # noqa: S311 - seating is reproducible, not secret
    if len(players) <= PLAN_AHEAD_PLAYERS:
        schedule = _plan_ahead(players, split, rounds, history, weights, rng, planned, effort)
    else:
        schedule = _one_by_one(players, split, rounds, history, weights, rng)
    meetings = Meetings(history)
    plans = [finish_round(sorted(groups, key=len, reverse=True), players, meetings,
                          number_tables=True, rotate_leads=True) for groups in schedule]
    return assessed(plans, players, split, history)


Groups = list[list[PlayerId]]


def _plan_ahead(
    players: Sequence[Player], split: Sequence[int], rounds: int, history: Sequence[Round],
    weights: MixWeights, rng: random.Random, planned: Sequence[Round], effort: Effort,
) -> list[Groups]:
    if rounds == 0:
        return []
    count = len(players)
    index = {p.id: i for i, p in enumerate(players)}
    meetings = Meetings(history)
    met = [[0] * count for _ in range(count)]
    first = [[0] * count for _ in range(count)]
    for i, player in enumerate(players):
        for other, times in meetings.met.get(player.id, {}).items():
            if other in index:
                met[i][index[other]] = times
        for other in meetings.last_round.get(player.id, ()):
            if other in index:
                first[i][index[other]] = weights.consecutive
    clubs = _clubs(players)
    fixed = [[0] * count for _ in range(count)]
    for mates in clubs:
        for a in mates:
            for b in mates:
                if a != b:
                    fixed[a][b] = weights.club
    costs = Costs(met, fixed, first, weights.repeat, weights.spread)
    start, exact = _constructed(count, split, rounds, met, clubs, rng)
    if planned and not exact:
        start = _Refit(planned[:rounds], index, split, met).plan()
    if exact:
        plan = start
    else:
        bound = lower_bound(players, split, rounds, meetings)
        bound_apart = lower_bound(players, split, rounds, meetings, clubs_apart=True)
        club_bound = rounds * sum(even_pairs(len(mates), len(split)) for mates in clubs)

        def good_enough(plan: Plan) -> bool:
            # Clubs come first: a plan that keeps them apart needs only the bound for such plans.
            repeats, together = _tally(met, clubs, plan)
            if not together:
                return repeats <= bound_apart
            return repeats <= bound and together <= club_bound

        plan, _ = tabu_search(costs, greedy_plan(costs, split, rounds, rng, start), rng,
                              effort, good_enough)
    ids = [p.id for p in players]
    return [[[ids[p] for p in table] for table in part] for part in _ordered(plan, first)]


def _clubs(players: Sequence[Player]) -> list[list[int]]:
    """The indexes of each club's players, for clubs with two or more active players."""
    members: dict[str, list[int]] = {}
    for i, player in enumerate(players):
        if player.club is not None:
            members.setdefault(player.club, []).append(i)
    return [mates for mates in members.values() if len(mates) > 1]


def _tally(met: Sequence[Sequence[int]], clubs: Sequence[Sequence[int]], plan: Plan) -> tuple[
    int, int
]:
    """The plan's repeats (after ``met``) and the times club-mates share a table."""
    club_of = {p: c for c, mates in enumerate(clubs) for p in mates}
    seen: dict[tuple[int, int], int] = {}
    repeats = together = 0
    for part in plan:
        for table in part:
            for i, p in enumerate(table):
                for q in table[i + 1:]:
                    pair = (min(p, q), max(p, q))
                    times = seen.get(pair, met[p][q])
                    repeats += times > 0
                    seen[pair] = times + 1
                    together += p in club_of and club_of[p] == club_of.get(q)
    return repeats, together


def _constructed(
    count: int, split: Sequence[int], rounds: int, met: Sequence[Sequence[int]],
    clubs: Sequence[Sequence[int]], rng: random.Random,
) -> tuple[Plan, bool]:
    """Rounds taken from a zero-repeat schedule, and whether they are the whole plan.

    Empty when the players have met or the table sizes do not come from one schedule.
    """
    size = max(split)
    holes = sum(size - s for s in split)
    if any(s < size - 1 for s in split) or any(any(row) for row in met):
        return [], False
    schedule = zero_repeat_schedule(len(split), size, rounds)[:rounds]
    points = count + holes
    apart = [0] * points  # points that never share a table in the rounds used
    for point in range(points):
        apart[point] = (1 << points) - 1 & ~(1 << point)
    for part in schedule:
        for table in part:
            mask = sum(1 << p for p in table)
            for p in table:
                apart[p] &= ~mask
    ghost = list(range(count, count + holes))
    groups = sorted([ghost, *clubs] if holes else list(clubs), key=len, reverse=True)
    placed = _place(groups, apart, points, rng)
    clubs_apart = placed is not None
    if placed is None:
        placed = _place([ghost], apart, points, rng) if holes else {}
        if placed is None:
            return [], False
    free_points = [p for p in range(points) if p not in placed.values()]
    rng.shuffle(free_points)
    unplaced = [p for p in range(count + holes) if p not in placed]
    point_of = dict(placed) | dict(zip(unplaced, free_points, strict=True))
    player_at = {point: p for p, point in point_of.items() if p < count}
    plan = [[[player_at[x] for x in table if x in player_at] for table in part]
            for part in schedule]
    return plan, clubs_apart and len(plan) == rounds


def _place(groups: Sequence[Sequence[int]], apart: Sequence[int], points: int,
           rng: random.Random) -> dict[int, int] | None:
    """Each group's players on points that pairwise never meet, disjointly; None if not found."""
    placed: dict[int, int] = {}
    budget = [_PLACEMENT_NODES]

    def place(g: int, taken: int) -> bool:
        if g == len(groups):
            return True
        group = groups[g]

        def extend(chosen: list[int], candidates: int) -> bool:
            if len(chosen) == len(group):
                for player, point in zip(group, chosen, strict=True):
                    placed[player] = point
                if place(g + 1, taken | sum(1 << p for p in chosen)):
                    return True
                for player in group:
                    del placed[player]
                return False
            options = [p for p in range(points) if candidates >> p & 1]
            rng.shuffle(options)
            for point in options:
                budget[0] -= 1
                if budget[0] < 0:
                    return False
                if extend([*chosen, point], candidates & apart[point]):
                    return True
            return False

        return extend([], ((1 << points) - 1) & ~taken)

    return placed if place(0, 0) else None


class _Refit:
    """Rounds planned for another roster, fitted to this roster and its table sizes.

    Players still here keep their tables; tables take the new sizes in order of their size (a
    table beyond the new count, and players beyond their table's new size, are *displaced*).
    Each new player then takes one free seat per round, chosen by a small search so that they
    meet nobody twice (or as few as it finds); displaced players take the free seat where they
    have met the fewest players, round by round. A free seat may move to another table of the
    same size, since those tables could have taken the larger size as well.
    """

    def __init__(self, planned: Sequence[Round], index: dict[PlayerId, int],
                 split: Sequence[int], met: Sequence[Sequence[int]]) -> None:
        self.met = [list(row) for row in met]
        self.tables: list[list[list[int]]] = []
        self.sizes: list[list[int]] = []
        self.displaced: list[list[int]] = []
        present: set[int] = set()
        for part in planned:
            kept = sorted(([index[p] for p in table if p in index] for table in part),
                          key=len, reverse=True)
            present.update(p for table in kept for p in table)
            tables = [kept[t][:size] if t < len(kept) else [] for t, size in enumerate(split)]
            displaced = [p for t, size in enumerate(split) if t < len(kept)
                         for p in kept[t][size:]]
            displaced += [p for table in kept[len(split):] for p in table]
            self.tables.append(tables)
            self.sizes.append(list(split))
            self.displaced.append(displaced)
        self.new = [p for p in index.values() if p not in present]

    def plan(self) -> Plan:
        for player in self.new:
            for r, t in enumerate(self._seats_for(player)):
                self._seat(r, t, player)
        for r, displaced in enumerate(self.displaced):
            for player in displaced:
                met = self.met[player]
                costs = {t: sum(met[q] for q in self.tables[r][t]) for t in self._free(r)}
                self._seat(r, min(costs, key=costs.__getitem__), player)
            for table in self.tables[r]:
                for i, p in enumerate(table):
                    for q in table[i + 1:]:
                        self.met[p][q] += 1
                        self.met[q][p] += 1
        return self.tables

    def _free(self, r: int) -> list[int]:
        """Tables of round r that can take one more player (moving a free seat if need be)."""
        tables, sizes = self.tables[r], self.sizes[r]
        short = {len(t) for t, size in zip(tables, sizes, strict=True) if len(t) < size}
        return [t for t in range(len(tables)) if len(tables[t]) in short]

    def _seat(self, r: int, t: int, player: int) -> None:
        tables, sizes = self.tables[r], self.sizes[r]
        if len(tables[t]) == sizes[t]:  # take the free seat of a table this size
            spare = next(s for s in range(len(tables))
                         if len(tables[s]) == len(tables[t]) and len(tables[s]) < sizes[s])
            sizes[t], sizes[spare] = sizes[spare], sizes[t]
        tables[t].append(player)

    def _seats_for(self, player: int) -> list[int]:
        """A table per round for a new player, meeting as few players twice as found."""
        met = self.met[player]
        best: tuple[int, list[int]] = (len(self.tables) * len(met) + 1, [])
        budget = [_REFIT_NODES]

        def search(r: int, partners: set[int], cost: int, chosen: list[int]) -> None:
            nonlocal best
            if cost >= best[0] or budget[0] <= 0:
                return
            if r == len(self.tables):
                best = (cost, list(chosen))
                return
            budget[0] -= 1
            added = {t: sum(met[q] + (q in partners) for q in self.tables[r][t])
                     for t in self._free(r)}
            for t in sorted(added, key=added.__getitem__):
                chosen.append(t)
                search(r + 1, partners | set(self.tables[r][t]), cost + added[t], chosen)
                chosen.pop()
                if best[0] == 0:
                    return

        search(0, set(), 0, [])
        return best[1]


def _ordered(plan: Plan, first: Sequence[Sequence[int]]) -> Plan:
    """The first round stays first; each next one shares the fewest pairs with the one before."""
    def shared(part: Sequence[Sequence[int]], after: Sequence[Sequence[int]]) -> int:
        table_of = {p: t for t, table in enumerate(after) for p in table}
        return sum(table_of[p] == table_of[q] for table in part
                   for i, p in enumerate(table) for q in table[i + 1:])

    ordered, left = plan[:1], plan[1:]
    while left:
        following = min(left, key=lambda part: shared(part, ordered[-1]))
        left.remove(following)
        ordered.append(following)
    return ordered


def _one_by_one(
    players: Sequence[Player], split: Sequence[int], rounds: int, history: Sequence[Round],
    weights: MixWeights, rng: random.Random,
) -> list[Groups]:
    meetings = Meetings(history)
    schedule: list[Groups] = []
    for _ in range(rounds):
        groups, _ = _one_round(players, split, meetings, weights, rng)
        meetings.add(groups)
        schedule.append(groups)
    return schedule


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
        mine = {index[q]: weights.repeat + weights.spread * (n - 1)
                for q, n in meetings.met.get(player.id, {}).items() if q in index}
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
