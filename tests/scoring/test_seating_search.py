"""Planning ahead with mix: constructions with holes and clubs, the tabu search, re-planning."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import InvalidInput
from scoring.tournament import (
    Player,
    PlayerId,
    RoundPlan,
    SeatingImpossible,
    TableSizes,
    plan_mix,
    seat_mix,
    seat_random,
)
from scoring.tournament.tabu import Costs, Effort, Plan, greedy_plan, random_plan, tabu_search
from tests.scoring.seating_checks import assert_seats_everyone_once, recount_repeats

SMALL_EFFORT = Effort(moves=30_000)


def roster(count: int, clubs: dict[int, str] | None = None) -> list[Player]:
    return [Player(i, (clubs or {}).get(i)) for i in range(count)]


def club_pairs_together(plans: tuple[RoundPlan, ...], players: list[Player]) -> int:
    club = {p.id: p.club for p in players if p.club is not None}
    return sum(1 for plan in plans for table in plan.tables for a, b in combinations(table, 2)
               if a in club and club[a] == club.get(b))


# --- constructions fitted to rosters ---------------------------------------------------------

def test_players_missing_from_full_tables_become_holes_of_a_design() -> None:
    # 22 players at tables of 4 sit 4, 4, 4, 4, 3, 3: the design for 24 with two holes.
    players = roster(22)
    plans = plan_mix(players, TableSizes(4, 3, 5), 7, seed=2)
    assert_seats_everyone_once(plans, players, (4, 4, 4, 4, 3, 3))
    assert recount_repeats(plans) == 0
    # 21 players sit 5, 4, 4, 4, 4: the affine plane of order 5 with four holes on one line.
    players = roster(21)
    plans = plan_mix(players, TableSizes(4, 3, 5), 5, seed=2)
    assert_seats_everyone_once(plans, players, (5, 4, 4, 4, 4))
    assert recount_repeats(plans) == 0


def test_holes_that_would_have_to_meet_leave_the_plan_to_the_search() -> None:
    # 13 players at tables of 3 or 2 sit 3, 3, 3, 2, 2: Kirkman's 15 schoolgirls with two
    # holes, but in all 7 rounds every two of the 15 meet, so the search plans instead.
    players = roster(13)
    plans = plan_mix(players, TableSizes(3, 2, 3), 7, seed=0, effort=SMALL_EFFORT)
    assert_seats_everyone_once(plans, players, (3, 3, 3, 2, 2))
    quality = plans[0].report.plan
    assert quality is not None
    assert quality.lower_bound <= quality.repeats == recount_repeats(plans)


def test_clubs_sit_on_points_that_never_meet() -> None:
    clubs = {0: "Nord", 1: "Nord", 2: "Nord", 3: "Süd", 4: "Süd", 5: "Ost", 6: "Ost", 7: "Ost",
             8: "Ost"}
    players = roster(24, clubs)
    plans = plan_mix(players, TableSizes(4, 4, 4), 6, seed=5)
    assert recount_repeats(plans) == 0
    assert club_pairs_together(plans, players) == 0
    assert all(not plan.report.club_mates_together for plan in plans)


def test_a_club_too_large_to_keep_apart_shares_tables_as_little_as_the_pigeonhole_forces() -> None:
    # Five club-mates at four tables: two of them share a table every round, no more.
    players = roster(16, dict.fromkeys(range(5), "West"))
    plans = plan_mix(players, TableSizes(4, 4, 4), 3, seed=1)
    assert club_pairs_together(plans, players) == 3
    assert recount_repeats(plans) == 0


# --- re-planning -----------------------------------------------------------------------------

def test_a_late_entry_in_a_dropped_players_seat_keeps_a_kirkman_plan_without_repeats() -> None:
    sizes = TableSizes(3, 3, 3)
    first = plan_mix(roster(21), sizes, 10, seed=4)
    played = [p.tables for p in first[:3]]
    ahead = [p.tables for p in first[3:]]
    new_roster = [p for p in roster(21) if p.id != 7] + [Player("late")]
    rest = plan_mix(new_roster, sizes, 7, history=played, seed=4, planned=ahead)
    assert_seats_everyone_once(rest, new_roster, (3,) * 7)
    assert recount_repeats(rest, played) == 0
    # Everyone who did not share a table with the dropped player keeps the tablemates they
    # were told.
    def mates(tables: tuple[tuple[PlayerId, ...], ...]) -> dict[PlayerId, frozenset[PlayerId]]:
        return {p: frozenset(t) - {p} for t in tables for p in t}

    for old, new in zip(ahead, rest, strict=True):
        before, after = mates(old), mates(new.tables)
        assert all(after[p] == mates_before for p, mates_before in before.items()
                   if 7 not in mates_before and p != 7)


def test_a_drop_out_leaves_a_short_table_and_no_repeat() -> None:
    sizes = TableSizes(4, 3, 5)
    first = plan_mix(roster(28), sizes, 9, seed=8)
    played = [p.tables for p in first[:4]]
    new_roster = [p for p in roster(28) if p.id != 11]
    rest = plan_mix(new_roster, sizes, 5, history=played, seed=8,
                    planned=[p.tables for p in first[4:]])
    assert_seats_everyone_once(rest, new_roster, (4, 4, 4, 4, 4, 4, 3))
    assert recount_repeats(rest, played) == 0


def test_two_late_entries_join_the_plan_without_repeats() -> None:
    sizes = TableSizes(4, 3, 5)
    first = plan_mix(roster(24), sizes, 7, seed=1)
    played = [p.tables for p in first[:2]]
    new_roster = [*roster(24), Player("late"), Player("later")]
    rest = plan_mix(new_roster, sizes, 5, history=played, seed=1,
                    planned=[p.tables for p in first[2:]])
    assert_seats_everyone_once(rest, new_roster, sizes.split(26))
    assert recount_repeats(rest, played) == 0


def test_one_late_entry_takes_the_free_seat_where_they_meet_nobody_twice() -> None:
    sizes = TableSizes(4, 3, 5)
    first = plan_mix(roster(24), sizes, 6, seed=6)
    played = [p.tables for p in first[:1]]
    new_roster = [*roster(24), Player("late")]
    rest = plan_mix(new_roster, sizes, 5, history=played, seed=6,
                    planned=[p.tables for p in first[1:]])
    assert_seats_everyone_once(rest, new_roster, (5, 4, 4, 4, 4, 4))
    assert recount_repeats(rest, played) == 0


def test_a_planned_round_with_more_tables_than_now_is_merged() -> None:
    sizes = TableSizes(4, 4, 4)
    first = plan_mix(roster(16), sizes, 3, seed=2)
    players = roster(8)
    rest = plan_mix(players, sizes, 2, history=[first[0].tables], seed=2,
                    planned=[p.tables for p in first[1:]])
    assert_seats_everyone_once(rest, players, (4, 4))


def test_a_planned_round_with_fewer_tables_than_now_is_filled_from_new_players() -> None:
    sizes = TableSizes(4, 4, 4)
    played = [[[0, 1, 2, 3]]]
    players = [*roster(4), *(Player(f"new {i}") for i in range(4))]
    rest = plan_mix(players, sizes, 1, history=played, seed=0, planned=played)
    assert_seats_everyone_once(rest, players, (4, 4))
    # The four who met must split over two tables: two pairs meet again, and no fewer.
    assert recount_repeats(rest, played) == 2
    assert rest[0].report.plan is not None
    assert rest[0].report.plan.lower_bound == 2


# --- the tabu search -------------------------------------------------------------------------

def plan_cost(costs: Costs, plan: Plan) -> int:
    """The module's objective recomputed meeting by meeting, in the order of rounds."""
    met = Counter({(p, q): costs.met[p][q] for p in range(len(costs.met))
                   for q in range(len(costs.met)) if p < q})
    total = 0
    for number, part in enumerate(plan):
        for table in part:
            for p, q in combinations(sorted(table), 2):
                before = met[p, q]
                if before:
                    total += costs.repeat + costs.spread * (before - 1)
                total += costs.fixed[p][q] + (costs.first[p][q] if number == 0 else 0)
                met[p, q] += 1
    # Meetings in later rounds are priced by all meetings so far, so the order of rounds
    # does not matter to the sum; check that by pricing the rounds backwards too.
    return total


@settings(deadline=None, max_examples=20)
@given(count=st.sampled_from([6, 9, 12, 13]), rounds=st.integers(1, 4), seed=st.integers(0, 99))
def test_the_search_reports_the_cost_of_the_plan_it_returns(count: int, rounds: int,
                                                            seed: int) -> None:
    rng = random.Random(seed)
    split = {6: (3, 3), 9: (3, 3, 3), 12: (4, 4, 4), 13: (4, 3, 3, 3)}[count]
    met = [[0] * count for _ in range(count)]
    fixed = [[0] * count for _ in range(count)]
    first = [[0] * count for _ in range(count)]
    for _ in range(count):
        a, b = rng.sample(range(count), 2)
        met[a][b] = met[b][a] = rng.randint(1, 2)
        a, b = rng.sample(range(count), 2)
        fixed[a][b] = fixed[b][a] = 50
        a, b = rng.sample(range(count), 2)
        first[a][b] = first[b][a] = 7
    costs = Costs(met, fixed, first, repeat=20, spread=3)
    start = random_plan(count, split, rounds, rng)
    plan, cost = tabu_search(costs, start, rng, Effort(moves=5_000, stall=50))
    assert cost == plan_cost(costs, plan) <= plan_cost(costs, start)
    assert [sorted(map(len, part), reverse=True) for part in plan] == [list(split)] * rounds


def test_the_greedy_start_keeps_the_rounds_given_and_adds_rounds_without_repeats() -> None:
    count = 16
    zero = [[0] * count for _ in range(count)]
    start = [[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]]
    plan = greedy_plan(Costs(zero, zero, zero, 1, 1), (4, 4, 4, 4), 3, random.Random(0), start)
    assert plan[0] == start[0]
    assert all(sorted(p for t in part for p in t) == list(range(count)) for part in plan)
    pairs = Counter(frozenset(p) for part in plan for t in part for p in combinations(t, 2))
    assert max(pairs.values()) == 1


def test_the_search_stops_when_its_effort_is_spent_and_is_reproducible() -> None:
    # 20 players at tables of 4 for 6 rounds: no schedule without a repeat is known (five
    # rounds are the most), so the search runs until its effort is spent.
    players = roster(20)
    first = plan_mix(players, TableSizes(4, 4, 4), 6, seed=3, effort=SMALL_EFFORT)
    again = plan_mix(players, TableSizes(4, 4, 4), 6, seed=3, effort=SMALL_EFFORT)
    assert first == again
    quality = first[0].report.plan
    assert quality is not None
    assert quality.repeats == recount_repeats(first) > quality.lower_bound == 0


# --- properties over rosters and table sizes -------------------------------------------------

@settings(deadline=None, max_examples=30)
@given(
    count=st.integers(3, 40), preferred=st.integers(3, 6), below=st.integers(0, 1),
    above=st.integers(0, 1), rounds=st.integers(1, 5), clubs=st.integers(0, 5),
    played=st.integers(0, 2), leaving=st.integers(0, 2), seed=st.integers(0, 2**16),
)
def test_every_plan_seats_everyone_once_and_reports_its_repeats(
    count: int, preferred: int, below: int, above: int, rounds: int, clubs: int, played: int,
    leaving: int, seed: int,
) -> None:
    sizes = TableSizes(preferred, max(2, preferred - below), preferred + above)
    players = [Player(i, f"club {i % clubs}" if clubs and i % 3 == 0 else None)
               for i in range(count)]
    try:
        split = sizes.split(count)
    except SeatingImpossible:
        return  # no table split at all: covered by the table size tests
    # The rounds played so far were seated at random, partly with players who have left.
    earlier = [*players[leaving:], *(Player(f"gone {i}") for i in range(leaving))]
    history = [seat_random(earlier, sizes, seed + r).tables for r in range(played)]
    plans = plan_mix(players, sizes, rounds, history=history, seed=seed, effort=SMALL_EFFORT)
    assert len(plans) == rounds
    assert_seats_everyone_once(plans, players, split)
    found = recount_repeats(plans, history)
    assert sum(plan.report.repeats for plan in plans) == found
    for plan in plans:
        quality = plan.report.plan
        assert quality is not None
        assert (quality.first_round, quality.rounds) == (played + 1, rounds)
        assert quality.lower_bound <= quality.repeats == found


def test_no_rounds_to_plan_gives_no_rounds_and_fewer_than_none_is_refused() -> None:
    assert plan_mix(roster(8), TableSizes(4, 4, 4), 0) == ()
    with pytest.raises(InvalidInput) as refused:
        plan_mix(roster(8), TableSizes(4, 4, 4), -1)
    assert refused.value.errors[0].path == "rounds"


@settings(deadline=None, max_examples=10)
@given(count=st.integers(65, 90), seed=st.integers(0, 99))
def test_large_fields_are_planned_round_by_round(count: int, seed: int) -> None:
    players = roster(count, {i: f"club {i % 7}" for i in range(0, count, 5)})
    sizes = TableSizes(4, 3, 5)
    plans = plan_mix(players, sizes, 2, seed=seed)
    assert_seats_everyone_once(plans, players, sizes.split(count))
    one = seat_mix(players, sizes, [plans[0].tables], seed=seed)
    quality = one.report.plan
    assert quality is not None
    assert (quality.first_round, quality.rounds, quality.lower_bound) == (2, 1, 0)
    assert quality.repeats == one.report.repeats == recount_repeats([one], [plans[0].tables])
