"""What every seating plan must satisfy, checked from scratch (shared by the seating tests)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

from scoring.tournament import Player, PlayerId, RoundPlan


def assert_seats_everyone_once(plans: Sequence[RoundPlan], players: Sequence[Player],
                               split: Sequence[int]) -> None:
    """Every round seats each active player exactly once, at tables of the planned sizes."""
    expected = sorted(str(p.id) for p in players)
    for plan in plans:
        assert sorted(str(p) for table in plan.tables for p in table) == expected
        assert sorted((len(t) for t in plan.tables), reverse=True) == sorted(split, reverse=True)


def recount_repeats(plans: Sequence[RoundPlan],
                    history: Sequence[Sequence[Sequence[PlayerId]]] = ()) -> int:
    """Meetings in ``plans`` of pairs that had met before (in history or an earlier round)."""
    met: Counter[frozenset[PlayerId]] = Counter()
    for played in history:
        for table in played:
            met.update(frozenset(pair) for pair in combinations(table, 2))
    repeats = 0
    for plan in plans:
        for table in plan.tables:
            for pair in combinations(table, 2):
                repeats += met[frozenset(pair)] > 0
                met[frozenset(pair)] += 1
    return repeats


def assert_no_pair_meets_twice(schedule: Sequence[Sequence[Sequence[int]]], players: int,
                               size: int) -> None:
    """A zero-repeat schedule: each round a partition into tables of ``size``, pairs once."""
    seen: set[frozenset[int]] = set()
    for part in schedule:
        assert sorted(p for table in part for p in table) == list(range(players))
        assert all(len(table) == size for table in part)
        for table in part:
            for pair in combinations(table, 2):
                assert frozenset(pair) not in seen
                seen.add(frozenset(pair))
