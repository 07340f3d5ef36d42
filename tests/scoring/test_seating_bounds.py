"""The lower bound on repeats holds against exhaustive search, and mix reaches the optimum."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.tournament import Meetings, Player, TableSizes, plan_mix, seat_random
from scoring.tournament.bounds import even_pairs, repeat_lower_bound
from scoring.tournament.report import lower_bound
from scoring.tournament.tabu import Effort
from tests.scoring.seating_checks import recount_repeats

Partition = tuple[tuple[int, ...], ...]
SMALL_EFFORT = Effort(moves=60_000)


@cache
def partitions(count: int, split: tuple[int, ...]) -> tuple[Partition, ...]:
    """Every way to seat players 0..count-1 at tables of the sizes in ``split``."""

    def seat(left: tuple[int, ...], sizes: tuple[int, ...]) -> Iterator[Partition]:
        if not left:
            yield ()
            return
        opener, rest = left[0], left[1:]
        for size in sorted(set(sizes)):
            others = list(sizes)
            others.remove(size)
            for mates in combinations(rest, size - 1):
                remaining = tuple(p for p in rest if p not in mates)
                for tables in seat(remaining, tuple(others)):
                    yield ((opener, *mates), *tables)

    return tuple(seat(tuple(range(count)), split))


def fewest_repeats(count: int, split: tuple[int, ...], rounds: int,
                   met: Sequence[Sequence[int]], apart: Sequence[Sequence[int]] = ()) -> int:
    """The optimum over every plan that keeps each group in ``apart`` from sharing a table, by
    exhaustive search (the first round fixed when nothing tells players apart)."""
    club_of = {p: c for c, group in enumerate(apart) for p in group}
    options = tuple(part for part in partitions(count, split)
                    if all(len({club_of[p] for p in t if p in club_of})
                           == sum(p in club_of for p in t) for t in part))
    counts = [list(row) for row in met]
    best = [rounds * count * count]

    def go(number: int, so_far: int) -> None:
        if so_far >= best[0]:
            return
        if number == rounds:
            best[0] = so_far
            return
        fixed = number == 0 and not any(any(row) for row in met) and not apart
        for part in options[:1] if fixed else options:
            pairs = [pair for table in part for pair in combinations(table, 2)]
            added = sum(counts[p][q] > 0 for p, q in pairs)
            for p, q in pairs:
                counts[p][q] += 1
            go(number + 1, so_far + added)
            for p, q in pairs:
                counts[p][q] -= 1

    go(0, 0)
    return best[0]


def history_counts(count: int, history: Sequence[Sequence[Sequence[int]]]) -> list[list[int]]:
    met = [[0] * count for _ in range(count)]
    for played in history:
        for table in played:
            for p, q in combinations([p for p in table if p < count], 2):
                met[p][q] += 1
                met[q][p] += 1
    return met


# A few hand-picked small plans: (players, table sizes, rounds, history).
SMALL = [
    (6, (3, 3), 2, ()),
    (6, (3, 3), 3, ()),
    (6, (2, 2, 2), 3, ()),
    (7, (4, 3), 2, ()),
    (7, (4, 3), 3, ()),
    (8, (4, 4), 3, ()),
    (8, (3, 3, 2), 2, ()),
    (9, (3, 3, 3), 3, ()),
    (7, (4, 3), 2, ([(0, 1, 2, 3), (4, 5, 6)],)),
    (6, (3, 3), 2, ([(0, 1, 2), (3, 4, 5)], [(0, 3, 4), (1, 2, 5)])),
    (7, (3, 2, 2), 2, ([(0, 1, 2, 3), (4, 5)],)),  # player 6 is a late entry
]


@pytest.mark.parametrize(("count", "split", "rounds", "history"), SMALL)
def test_the_bound_never_exceeds_the_optimum_and_mix_reaches_it(
    count: int, split: tuple[int, ...], rounds: int, history: tuple[list[tuple[int, ...]], ...],
) -> None:
    optimum = fewest_repeats(count, split, rounds, history_counts(count, history))
    players = [Player(i) for i in range(count)]
    bound = lower_bound(players, split, rounds, Meetings(history))
    assert bound <= optimum
    sizes = TableSizes(max(split), min(split), max(split))
    plans = plan_mix(players, sizes, rounds, history=history, seed=1)
    assert recount_repeats(plans, history) == optimum


@pytest.mark.parametrize(("count", "split", "rounds", "clubs"), [
    (6, (3, 3), 2, [(0, 1)]),
    (8, (4, 4), 2, [(0, 1), (2, 3)]),
    (9, (3, 3, 3), 3, [(0, 1, 2)]),
    (8, (4, 4), 3, [(0, 1)]),
])
def test_the_bound_for_plans_keeping_clubs_apart_holds_and_mix_reaches_the_optimum(
    count: int, split: tuple[int, ...], rounds: int, clubs: list[tuple[int, ...]],
) -> None:
    optimum = fewest_repeats(count, split, rounds, [[0] * count] * count, clubs)
    club_of = {p: f"club {c}" for c, group in enumerate(clubs) for p in group}
    players = [Player(i, club_of.get(i)) for i in range(count)]
    assert lower_bound(players, split, rounds, Meetings(), clubs_apart=True) <= optimum
    sizes = TableSizes(max(split), min(split), max(split))
    plans = plan_mix(players, sizes, rounds, seed=2)
    assert all(not plan.report.club_mates_together for plan in plans)
    assert recount_repeats(plans) == optimum
    quality = plans[0].report.plan
    assert quality is not None
    assert quality.lower_bound == lower_bound(players, split, rounds, Meetings(),
                                              clubs_apart=True)


def test_the_pigeonhole_bound_is_exact_when_tables_outnumber_nothing() -> None:
    # 12 players at 3 tables of 4: in round 2 every table holds two players of one earlier
    # table, so at least 3 repeats a round after the first.
    assert repeat_lower_bound((4, 4, 4), 3, [11] * 12) == 6
    assert fewest_repeats(6, (3, 3), 2, [[0] * 6] * 6) == repeat_lower_bound((3, 3), 2, [5] * 6)


def test_the_partner_bound_counts_fresh_partners_after_history() -> None:
    # Four players who all met already at one table of four must meet again: 6 pairs a round.
    assert repeat_lower_bound((4,), 2, [0, 0, 0, 0]) == 12
    # With a table of 3 and one of 2, the players short of fresh partners take the pair table.
    assert repeat_lower_bound((3, 2), 1, [1, 1, 4, 4, 4]) == 0
    assert repeat_lower_bound((3, 2), 1, [1, 1, 1, 4, 4]) == 1


def test_no_rounds_no_repeats() -> None:
    assert repeat_lower_bound((3, 3), 0, [5] * 6) == 0
    assert even_pairs(7, 3) == 1 + 1 + 3  # 3, 2, 2 players from three groups


@settings(deadline=None, max_examples=25)
@given(
    count=st.integers(4, 8), preferred=st.integers(2, 4), rounds=st.integers(1, 2),
    played=st.integers(0, 2), dropped=st.integers(0, 2), seed=st.integers(0, 1000),
)
def test_the_bound_holds_for_small_plans_after_any_history(
    count: int, preferred: int, rounds: int, played: int, dropped: int, seed: int,
) -> None:
    # The history was played by a roster missing the last ``dropped`` players (late entries)
    # and holding two players who have left since (ids count, count + 1).
    earlier = [Player(i) for i in range(count - dropped)] + [Player(count), Player(count + 1)]
    sizes = TableSizes(preferred, 2, preferred + 1)
    history = [list(seat_random(earlier, sizes, seed + r).tables) for r in range(played)]
    players = [Player(i) for i in range(count)]
    split = sizes.split(count)
    met = history_counts(count, [[[int(p) for p in t] for t in r] for r in history])
    optimum = fewest_repeats(count, split, rounds, met)
    assert lower_bound(players, split, rounds, Meetings(history)) <= optimum
    plans = plan_mix(players, sizes, rounds, history=history, seed=seed, effort=SMALL_EFFORT)
    found = recount_repeats(plans, history)
    assert found >= optimum
    quality = plans[0].report.plan
    assert quality is not None
    assert quality.repeats == found
    assert quality.lower_bound <= optimum
