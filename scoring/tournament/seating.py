"""One entry point per seating mode, and the organiser CLI's planning function.

Decisions for :func:`plan_for_cli` (``tafelrunde seating``): players are the indexes
0..N-1 without clubs; ``--table-size K`` is the preferred size and tables may hold 2 to K+1
players. When K divides N this yields only tables of K (the split closest to K, see
:mod:`scoring.tournament.tables`); otherwise the fewest tables off by one. ``mix`` plans all
rounds ahead; ``random`` seats each round from a seed drawn from ``--seed``; ``swiss`` (no
results exist yet when planning ahead) ranks players by index and avoids repeats top down.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from scoring.errors import FieldError, InvalidInput
from scoring.reading import JSON, TOO_SMALL, UNKNOWN_CHOICE
from scoring.tournament.history import Meetings, Player, PlayerId, Round
from scoring.tournament.mix import plan_mix, seat_mix
from scoring.tournament.random_seating import seat_random
from scoring.tournament.report import RoundPlan, lower_bound
from scoring.tournament.swiss import seat_swiss
from scoring.tournament.tables import TableSizes

MODES = ("random", "swiss", "mix")


def seat_round(
    mode: str, players: Sequence[Player], sizes: TableSizes, *, seed: int | str,
    history: Sequence[Round] = (), standing: Sequence[PlayerId] = (),
) -> RoundPlan:
    """The next round in ``mode``; ``standing`` (best first) is used by ``swiss`` only."""
    if mode == "random":
        return seat_random(players, sizes, seed, history)
    if mode == "swiss":
        return seat_swiss(players, sizes, standing, history)
    if mode == "mix":
        return seat_mix(players, sizes, history, seed)
    raise _unknown_mode(mode)


def plan_for_cli(players: int, table_size: int, rounds: int, mode: str, seed: int) -> dict[
    str, JSON
]:
    """``{"rounds": [[[player indexes of one table], ...], ...], "repeats": n,
    "lower_bound": m}``.

    ``repeats`` counts pair meetings beyond each pair's first over the whole plan;
    ``lower_bound`` is the fewest any plan of these rounds could have
    (:mod:`scoring.tournament.bounds`).
    """
    if mode not in MODES:
        raise _unknown_mode(mode)
    if rounds < 0:
        raise InvalidInput((FieldError("rounds", TOO_SMALL, {"minimum": 0}),))
    roster = [Player(i) for i in range(players)]
    sizes = TableSizes(table_size, min(2, table_size), table_size + 1)
    plans: list[RoundPlan]
    if mode == "mix":
        plans = list(plan_mix(roster, sizes, rounds, seed=seed))
    else:
        seeds = random.Random(seed)  # noqa: S311 - seating is reproducible, not secret
        plans = []
        for _ in range(rounds):
            history = [p.tables for p in plans]
            plans.append(seat_round(
                mode, roster, sizes, seed=seeds.getrandbits(64), history=history,
                standing=range(players),
            ))
    return {
        "rounds": [[[int(p) for p in table] for table in plan.tables] for plan in plans],
        "repeats": sum(plan.report.repeats for plan in plans),
        "lower_bound": lower_bound(roster, sizes.split(players), rounds, Meetings()),
    }


def _unknown_mode(mode: str) -> InvalidInput:
    return InvalidInput((FieldError("mode", UNKNOWN_CHOICE, {"value": mode, "choices": MODES}),))
