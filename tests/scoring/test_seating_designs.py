"""Zero-repeat schedules: finite fields, affine and cyclic constructions, and the catalogue."""

from __future__ import annotations

import time
from dataclasses import replace
from itertools import combinations, product

import pytest

from scoring.tournament import Player, TableSizes, plan_for_cli, plan_mix
from scoring.tournament.designs import (
    KNOWN,
    Development,
    Known,
    affine_schedule,
    develop,
    zero_repeat_schedule,
)
from scoring.tournament.fields import galois_field, prime_power
from scoring.tournament.translations import Translation, is_zero_repeat, translated
from tests.scoring.seating_checks import (
    assert_no_pair_meets_twice,
    assert_seats_everyone_once,
    recount_repeats,
)

# --- finite fields ---------------------------------------------------------------------------


@pytest.mark.parametrize("q", [2, 3, 4, 5, 7, 8, 9, 11, 13, 16, 25, 27])
def test_every_field_has_inverses_and_distributes(q: int) -> None:
    field = galois_field(q)
    elements = range(q)
    assert all(field.add[a][field.neg[a]] == 0 for a in elements)
    assert all(any(field.mul[a][b] == 1 for b in elements) for a in elements if a)
    for a, b, c in product(elements, repeat=3):
        assert field.mul[a][field.add[b][c]] == field.add[field.mul[a][b]][field.mul[a][c]]
        assert field.mul[field.mul[a][b]][c] == field.mul[a][field.mul[b][c]]
    assert field.sub(field.add[1][1], 1) == 1


def test_only_prime_powers_have_fields() -> None:
    assert prime_power(8) == (2, 3)
    assert prime_power(9) == (3, 2)
    assert prime_power(6) is None
    assert prime_power(1) is None
    with pytest.raises(ValueError, match="no field of order 12"):
        galois_field(12)


# --- constructions ---------------------------------------------------------------------------


@pytest.mark.parametrize(("order", "size", "rounds"), [
    (3, 3, 4), (4, 4, 5), (5, 5, 6), (7, 7, 8),  # affine planes: everyone meets everyone once
    (4, 3, 4), (5, 4, 5), (7, 5, 7), (8, 5, 8),  # transversal designs
    (8, 4, 9), (9, 3, 13),  # their columns seated again: GF(9) with tables of 3 is a KTS(27)
    (6, 6, 3),  # over Z_6 only the slopes 0 and 1 keep lines apart
])
def test_affine_schedules_meet_every_pair_at_most_once(order: int, size: int, rounds: int) -> None:
    schedule = affine_schedule(order, size)
    assert len(schedule) == rounds
    assert_no_pair_meets_twice(schedule, order * size, size)


def test_an_affine_schedule_needs_as_many_tables_as_seats() -> None:
    with pytest.raises(ValueError, match="tables of 5 need at least 5 tables"):
        affine_schedule(4, 5)


def test_a_development_without_a_base_round_in_its_budget_gives_nothing() -> None:
    assert develop(Development(7, 2, 1, 3), budget=0) is None


def test_a_development_searched_to_the_end_without_a_base_round_gives_nothing() -> None:
    # 18 players as Z_4 × 4 rows and two fixed players, base rounds invariant under x → 3x:
    # the whole (small) space is searched and holds no schedule.
    assert develop(Development(4, 4, 2, 3, base_rounds=2, multiplier=3)) is None


def test_a_development_seed_only_changes_the_search_order() -> None:
    development = Development(11, 2, 2, 3, seed=5)
    again = develop(replace(development, seed=1))
    assert again is not None
    assert len(again) == development.rounds == 11
    assert_no_pair_meets_twice(again, 24, 3)
    assert again != develop(development)


# --- rounds invariant under translations ----------------------------------------------------


def test_aguados_32_players_at_tables_of_4_for_10_rounds_are_found_and_verified() -> None:
    start = time.process_time()
    schedule = translated(Translation(3, 4, 4, 10))
    assert time.process_time() - start < 30  # the promise; about 1.5 s here
    assert schedule is not None
    assert len(schedule) == 10
    assert_no_pair_meets_twice(schedule, 32, 4)
    met = {frozenset(pair) for part in schedule for table in part
           for pair in combinations(table, 2)}
    assert len(met) == 480  # everyone meets 30 of the other 31, the most 10 rounds allow
    for part in schedule:  # every round is seated the same after any translation x -> x ^ g
        tables = {frozenset(table) for table in part}
        assert all({frozenset(p ^ g for p in table) for table in part} == tables
                   for g in range(8))


def test_a_translation_search_out_of_budget_or_asked_too_much_gives_nothing() -> None:
    assert translated(Translation(3, 4, 4, 10), budget=0) is None
    assert translated(Translation(3, 4, 4, 11)) is None  # 11 rounds would need 528 of 496 pairs


def test_the_planner_runs_the_search_only_for_rounds_the_other_constructions_lack() -> None:
    assert len(zero_repeat_schedule(8, 4, 9)) == 9  # the transversal design, no search
    assert len(zero_repeat_schedule(8, 4, 10)) == 10
    assert len(zero_repeat_schedule(8, 4)) == 10


def test_the_checker_refuses_every_way_a_schedule_can_be_wrong() -> None:
    good = ((0, 1), (2, 3)), ((0, 2), (1, 3))
    assert is_zero_repeat(good, 4, 2)
    assert not is_zero_repeat((*good, ((0, 1), (2, 3))), 4, 2)  # a pair meets twice
    assert not is_zero_repeat((((0, 1), (1, 3)),), 4, 2)  # player 1 twice, 2 never
    assert not is_zero_repeat((((0, 1, 2), (3,)),), 4, 2)  # a table of the wrong size
    assert not is_zero_repeat((((0, 1),),), 4, 2)  # players 2 and 3 left out


# --- the catalogue: every instance we treat as known -----------------------------------------


@pytest.mark.parametrize("known", KNOWN, ids=lambda k: f"{k.players}/{k.size}/{k.rounds}")
def test_every_known_schedule_is_built_and_is_a_design(known: Known) -> None:
    schedule = zero_repeat_schedule(known.tables, known.size)
    assert len(schedule) >= known.rounds
    assert_no_pair_meets_twice(schedule, known.players, known.size)


@pytest.mark.parametrize("known", KNOWN, ids=lambda k: f"{k.players}/{k.size}/{k.rounds}")
def test_mix_plans_every_known_instance_without_a_repeat(known: Known) -> None:
    players = [Player(i) for i in range(known.players)]
    sizes = TableSizes(known.size, known.size, known.size)
    plans = plan_mix(players, sizes, known.rounds, seed=3)
    assert_seats_everyone_once(plans, players, (known.size,) * known.tables)
    assert recount_repeats(plans) == 0
    assert sum(plan.report.repeats for plan in plans) == 0
    quality = plans[0].report.plan
    assert quality is not None
    assert (quality.repeats, quality.lower_bound, quality.rounds) == (0, 0, known.rounds)


def test_the_catalogue_covers_every_field_up_to_40_players_at_tables_of_3_to_6() -> None:
    listed = {(k.tables, k.size) for k in KNOWN}
    assert listed == {(tables, size) for size in range(3, 7)
                      for tables in range(2, 40 // size + 1)}


@pytest.mark.parametrize("tables", range(2, 21))
def test_mix_seats_pairs_as_a_round_robin(tables: int) -> None:
    """Tables of 2, the social golfer table's first column: 2g − 1 rounds, everyone meets
    everyone once (the README's comparison with the published table)."""
    players = [Player(i) for i in range(2 * tables)]
    plans = plan_mix(players, TableSizes(2, 2, 2), 2 * tables - 1, seed=3)
    assert_seats_everyone_once(plans, players, (2,) * tables)
    assert recount_repeats(plans) == 0


@pytest.mark.parametrize(("players", "size", "rounds"), [
    (24, 4, 6), (24, 4, 7), (32, 4, 8), (21, 3, 10), (36, 4, 9),  # the table
    (9, 3, 4), (15, 3, 7), (16, 4, 5), (20, 4, 5), (25, 5, 6),  # what held before
])
def test_the_cli_plans_the_published_schedules_without_a_repeat(
    players: int, size: int, rounds: int,
) -> None:
    planned = plan_for_cli(players=players, table_size=size, rounds=rounds, mode="mix", seed=0)
    assert planned["repeats"] == 0
    assert planned["lower_bound"] == 0
    rounds_planned = planned["rounds"]
    assert isinstance(rounds_planned, list)
    assert len(rounds_planned) == rounds
