"""Swiss seating: tables filled from the top of the standings, avoiding repeat meetings.

Decisions:

- The standing order ranks the active players (best first); active players missing from it
  (late entries) follow in roster order; ranked players who are no longer active are skipped.
- Table 1 is the top table. Each table is opened by the best unseated player and filled with the
  best-ranked unseated players such that the earlier meetings of all pairs at the table add up
  to at most ``bound``; club-mates count as having met once more, so they are kept apart while
  the bound is 0.
- The search backtracks (later choices first) when a table cannot be filled. The bound starts at 0
  and rises by one only when no seating within it is found within a search budget proportional to
  the field, so large fields never stall; the report shows which pairs meet again.
- Seat order rotates the lead (see :mod:`scoring.tournament.report`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from scoring.tournament.history import Meetings, Player, PlayerId, Round, check_roster
from scoring.tournament.report import RoundPlan, assessed, finish_round
from scoring.tournament.tables import TableSizes

_NODES_PER_TABLE = 40


class _OutOfBudget(Exception):
    pass


def seat_swiss(
    players: Sequence[Player], sizes: TableSizes, standing: Sequence[PlayerId],
    history: Sequence[Round] = (),
) -> RoundPlan:
    """One round seated by ``standing`` (player ids, best first)."""
    check_roster(players)
    split = sizes.split(len(players))
    active = {p.id: p for p in players}
    ranked = list(dict.fromkeys(p for p in standing if p in active))
    placed = set(ranked)
    ranked += [p.id for p in players if p.id not in placed]
    meetings = Meetings(history)
    index = {p: i for i, p in enumerate(ranked)}
    clubs: dict[str, list[int]] = {}
    for i, player in enumerate(ranked):
        club = active[player].club
        if club is not None:
            clubs.setdefault(club, []).append(i)
    met: list[dict[int, int]] = []
    for i, player in enumerate(ranked):
        counts = {index[q]: n for q, n in meetings.met.get(player, {}).items() if q in index}
        club = active[player].club
        for mate in clubs.get(club, []) if club is not None else []:
            if mate != i:
                counts[mate] = counts.get(mate, 0) + 1
        met.append(counts)
    bound = 0
    tables = _fill(len(ranked), split, met, bound)
    while tables is None:
        # At the highest count every table is allowed, so the fill succeeds by then.
        bound += 1
        tables = _fill(len(ranked), split, met, bound)
    groups = [[ranked[i] for i in table] for table in tables]
    plan = finish_round(groups, players, meetings, number_tables=False, rotate_leads=True)
    return assessed([plan], players, split, history)[0]


def _fill(
    count: int, split: Sequence[int], met: Sequence[dict[int, int]], bound: int,
) -> list[list[int]] | None:
    seated = [False] * count
    budget = _NODES_PER_TABLE * len(split) + 1000
    tables: list[list[int]] = []
    options = [_tables(list(range(count)), split[0], met, bound)]
    while options:
        table = next(options[-1], None)
        if table is None:
            options.pop()
            if tables:
                for i in tables.pop():
                    seated[i] = False
            continue
        budget -= 1
        if budget < 0:
            return None
        for i in table:
            seated[i] = True
        tables.append(table)
        if len(tables) == len(split):
            return tables
        unseated = [i for i in range(count) if not seated[i]]
        options.append(_tables(unseated, split[len(tables)], met, bound))
    return None


def _tables(
    unseated: Sequence[int], size: int, met: Sequence[dict[int, int]], bound: int,
) -> Iterator[list[int]]:
    """The ways to fill one table, best-ranked first; the opener is the best unseated player."""

    def extend(members: list[int], start: int, repeats: int) -> Iterator[list[int]]:
        if len(members) == size:
            yield list(members)
            return
        for position in range(start, len(unseated) - (size - len(members)) + 1):
            candidate = unseated[position]
            counts = met[candidate]
            more = repeats + sum(counts.get(m, 0) for m in members)
            if more <= bound:
                members.append(candidate)
                yield from extend(members, position + 1, more)
                members.pop()

    yield from extend([unseated[0]], 1, 0)
