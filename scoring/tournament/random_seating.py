"""Random seating: a seeded shuffle cut into tables.

Decision: everything (who sits together, table numbers, seat order) comes from the shuffle, so
the same players, table sizes and seed always give the same plan; the caller passes a different
seed per round (e.g. derived from the tournament's seed and the round number).
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from scoring.tournament.history import Meetings, Player, Round, check_roster
from scoring.tournament.report import RoundPlan, assessed, finish_round
from scoring.tournament.tables import TableSizes


def seat_random(
    players: Sequence[Player], sizes: TableSizes, seed: int | str, history: Sequence[Round] = (),
) -> RoundPlan:
    """One round seated at random; ``history`` only feeds the report."""
    check_roster(players)
    split = sizes.split(len(players))
    order = [p.id for p in players]
    random.Random(seed).shuffle(order)  # noqa: S311 - seating is reproducible, not secret
    groups: list[list[int | str]] = []
    start = 0
    for size in split:
        groups.append(order[start:start + size])
        start += size
    plan = finish_round(
        groups, players, Meetings(history), number_tables=False, rotate_leads=False,
    )
    return assessed([plan], players, split, history)[0]
