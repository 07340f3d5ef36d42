"""The seating engine: table sizes, the three modes, planning ahead, reports and the CLI plan."""

from __future__ import annotations

from collections import Counter
from itertools import combinations
from typing import cast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import InvalidInput
from scoring.reading import JSON
from scoring.tournament import (
    Meetings,
    Player,
    RoundPlan,
    SeatingImpossible,
    TableRevisit,
    TableSizes,
    plan_for_cli,
    plan_mix,
    seat_mix,
    seat_random,
    seat_round,
    seat_swiss,
    table_sizes,
)
from scoring.tournament.report import finish_round


def roster(count: int) -> list[Player]:
    return [Player(i) for i in range(count)]


def pair_counts(plans: list[RoundPlan] | tuple[RoundPlan, ...]) -> Counter[frozenset[int | str]]:
    return Counter(
        frozenset(pair) for plan in plans for table in plan.tables
        for pair in combinations(table, 2)
    )


def assert_everyone_seated_once(plan: RoundPlan, players: list[Player]) -> None:
    seated = [p for table in plan.tables for p in table]
    assert sorted(map(str, seated)) == sorted(str(p.id) for p in players)


# --- table sizes -----------------------------------------------------------------------------

def test_players_that_fill_preferred_tables_get_only_preferred_tables() -> None:
    assert table_sizes(16, 4, 3, 5) == (4, 4, 4, 4)


def test_the_split_closest_to_the_preferred_size_wins() -> None:
    assert table_sizes(9, 4, 3, 5) == (5, 4)
    assert table_sizes(10, 4, 2, 5) == (4, 3, 3)
    assert table_sizes(6, 4, 2, 5) == (3, 3)
    assert table_sizes(13, 4, 3, 5) == (5, 4, 4)


def test_too_few_players_for_one_table_is_a_clear_error() -> None:
    with pytest.raises(SeatingImpossible) as caught:
        table_sizes(2, 4, 3, 5)
    assert caught.value.code == "too_few_players"
    assert caught.value.params == {"players": 2, "minimum": 3}


def test_sizes_that_cannot_add_up_are_a_clear_error() -> None:
    with pytest.raises(SeatingImpossible) as caught:
        table_sizes(7, 4, 4, 4)
    assert caught.value.code == "no_table_split"
    assert caught.value.errors[0].path == "players"


def test_table_sizes_outside_the_games_range_are_refused() -> None:
    with pytest.raises(SeatingImpossible) as caught:
        TableSizes.for_game(3, 6, preferred=4, maximum=7)
    assert caught.value.code == "table_sizes"
    assert TableSizes.for_game(3, 6, preferred=4) == TableSizes(4, 3, 6)


@settings(deadline=None, max_examples=200)
@given(
    players=st.integers(0, 300), minimum=st.integers(2, 6), spread=st.integers(0, 3),
    offset=st.integers(0, 3),
)
def test_every_split_covers_all_players_with_sizes_in_range(
    players: int, minimum: int, spread: int, offset: int,
) -> None:
    maximum = minimum + spread
    preferred = minimum + min(offset, spread)
    try:
        sizes = table_sizes(players, preferred, minimum, maximum)
    except SeatingImpossible:
        # Impossible exactly when no number of tables can hold the players.
        assert not any(k * minimum <= players <= k * maximum for k in range(1, players + 1))
        return
    assert sum(sizes) == players
    assert all(minimum <= s <= maximum for s in sizes)
    assert list(sizes) == sorted(sizes, reverse=True)


# --- the three modes -------------------------------------------------------------------------

modes = st.sampled_from(["random", "swiss", "mix"])


@settings(deadline=None, max_examples=40)
@given(
    mode=modes, count=st.integers(4, 40), seed=st.integers(0, 2**32),
    played=st.integers(0, 3), clubs=st.integers(0, 4),
)
def test_every_active_player_is_seated_exactly_once_at_a_table_in_range(
    mode: str, count: int, seed: int, played: int, clubs: int,
) -> None:
    players = [Player(i, f"club {i % clubs}" if clubs else None) for i in range(count)]
    sizes = TableSizes(4, 3, 5)
    history = [seat_random(players, sizes, seed + r).tables for r in range(played)]
    plan = seat_round(mode, players, sizes, seed=seed, history=history,
                      standing=list(reversed(range(count))))
    assert_everyone_seated_once(plan, players)
    assert all(3 <= len(t) <= 5 for t in plan.tables)


@settings(deadline=None, max_examples=25)
@given(mode=modes, count=st.integers(4, 30), seed=st.integers(0, 2**32))
def test_the_same_seed_gives_the_same_plan(mode: str, count: int, seed: int) -> None:
    players = roster(count)
    sizes = TableSizes(4, 3, 5)
    history = [seat_random(players, sizes, seed).tables]
    first = seat_round(mode, players, sizes, seed=seed, history=history, standing=range(count))
    again = seat_round(mode, players, sizes, seed=seed, history=history, standing=range(count))
    assert first == again


def test_random_seating_changes_with_the_seed() -> None:
    players = roster(20)
    plans = {seat_random(players, TableSizes(4, 4, 4), seed).tables for seed in range(5)}
    assert len(plans) > 1


def test_swiss_puts_the_leaders_at_the_top_table_when_they_have_not_met() -> None:
    plan = seat_swiss(roster(12), TableSizes(4, 4, 4), standing=[11, 10, 9, 8, 7, 6, 5, 4, 3])
    assert set(plan.tables[0]) == {11, 10, 9, 8}
    assert set(plan.tables[2]) == {0, 1, 2, 3}  # late entries follow in roster order


def test_swiss_avoids_a_repeat_while_a_seating_without_one_exists() -> None:
    history = [[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]]]
    plan = seat_swiss(roster(16), TableSizes(4, 4, 4), standing=range(16), history=history)
    assert plan.report.repeats == 0
    assert set(plan.tables[0]) == {0, 4, 8, 12}


def test_swiss_relaxes_the_bound_only_when_it_must() -> None:
    history = [[[0, 1, 2, 3], [4, 5, 6], [7, 8, 9]]]
    plan = seat_swiss(roster(10), TableSizes(4, 3, 5), standing=range(10), history=history)
    assert_everyone_seated_once(plan, roster(10))
    # Player 0 can meet at most one new player from each of the two other tables.
    assert 1 <= plan.report.repeats <= 3


def test_swiss_keeps_club_mates_apart_when_it_can() -> None:
    players = [Player(i, "Nord" if i in (0, 1) else None) for i in range(8)]
    plan = seat_swiss(players, TableSizes(4, 4, 4), standing=range(8))
    assert not plan.report.club_mates_together
    assert plan.report.kept_apart[0].players == (0, 1)


def test_mix_keeps_club_mates_apart_and_reports_it() -> None:
    players = [Player(i, "Ost" if i < 3 else None) for i in range(12)]
    plan = seat_mix(players, TableSizes(4, 4, 4), seed=3)
    assert not plan.report.club_mates_together
    assert plan.report.kept_apart[0].club == "Ost"
    assert sorted(plan.report.kept_apart[0].players) == [0, 1, 2]


def test_club_mates_who_must_share_a_table_are_reported_together() -> None:
    players = [Player(i, "Süd" if i < 5 else None) for i in range(8)]
    plan = seat_mix(players, TableSizes(4, 4, 4), seed=1)
    together = plan.report.club_mates_together
    assert sum(len(c.players) for c in together) >= 3
    assert all(c.club == "Süd" and c.table in (1, 2) for c in together)


def test_the_report_names_each_repeated_pair_with_its_earlier_meetings() -> None:
    history = [[[0, 1, 2]], [[0, 1, 2]]]
    plan = seat_mix(roster(3), TableSizes(3, 3, 3), history=history, seed=0)
    repeated = {frozenset(r.players): r for r in plan.report.repeated_pairs}
    assert set(repeated) == {frozenset(p) for p in combinations(range(3), 2)}
    assert all(r.met_before == 2 and r.met_last_round for r in repeated.values())
    assert plan.report.repeats == 3


def test_the_lead_rotates_so_nobody_always_sits_first() -> None:
    plans = plan_mix(roster(3), TableSizes(3, 3, 3), rounds=6, seed=5)
    leads = Counter(plan.tables[0][0] for plan in plans)
    assert leads == {0: 2, 1: 2, 2: 2}


def test_groups_get_table_numbers_their_players_have_not_used() -> None:
    meetings = Meetings([[[0, 1], [2, 3]], [[0, 2], [1, 3]]])
    plan = finish_round([[0, 1], [2, 3]], roster(4), meetings, number_tables=True,
                        rotate_leads=False)
    assert plan.tables == ((2, 3), (0, 1))
    assert plan.report.table_revisits == (
        TableRevisit(2, 1, 1), TableRevisit(1, 2, 1),
    )


def test_a_large_field_is_seated_without_repeats_after_earlier_rounds() -> None:
    players = roster(400)
    sizes = TableSizes(4, 3, 5)
    history = [seat_random(players, sizes, r).tables for r in range(5)]
    plan = seat_mix(players, sizes, history=history, seed=9)
    assert_everyone_seated_once(plan, players)
    assert plan.report.repeats == 0


def test_a_player_listed_twice_is_refused_with_the_path() -> None:
    with pytest.raises(InvalidInput) as caught:
        seat_mix([Player(1), Player(2), Player(1)], TableSizes(3, 3, 3))
    assert caught.value.errors[0].path == "players[2].id"
    assert caught.value.errors[0].code == "duplicate_player"


def test_an_unknown_mode_is_refused() -> None:
    with pytest.raises(InvalidInput) as caught:
        seat_round("chaos", roster(4), TableSizes(4, 4, 4), seed=1)
    assert caught.value.errors[0].code == "unknown_choice"


# --- planning ahead --------------------------------------------------------------------------

@pytest.mark.parametrize(("players", "size", "rounds"), [(9, 3, 4), (15, 3, 7), (16, 4, 5)])
@pytest.mark.parametrize("seed", [0, 7])
def test_mix_finds_a_plan_in_which_no_pair_meets_twice_on_the_classical_instances(
    players: int, size: int, rounds: int, seed: int,
) -> None:
    plans = plan_mix(roster(players), TableSizes(size, size, size), rounds, seed=seed)
    assert len(plans) == rounds
    for plan in plans:
        assert_everyone_seated_once(plan, roster(players))
    counts = pair_counts(plans)
    assert max(counts.values()) == 1
    assert len(counts) == players * (players - 1) // 2  # these designs meet everyone once
    assert sum(plan.report.repeats for plan in plans) == 0


def test_planning_ahead_is_deterministic_given_the_seed() -> None:
    first = plan_mix(roster(15), TableSizes(3, 3, 3), 7, seed=11)
    assert first == plan_mix(roster(15), TableSizes(3, 3, 3), 7, seed=11)
    assert first != plan_mix(roster(15), TableSizes(3, 3, 3), 7, seed=12)


def test_a_changed_roster_is_replanned_around_the_rounds_already_played() -> None:
    sizes = TableSizes(4, 4, 4)
    plans = plan_mix(roster(16), sizes, 5, seed=4)
    played = [p.tables for p in plans[:2]]
    new_roster = [p for p in roster(16) if p.id != 3] + [Player("late")]
    rest = plan_mix(new_roster, sizes, 3, history=played, seed=4)
    for plan in rest:
        assert_everyone_seated_once(plan, new_roster)
    assert sum(plan.report.repeats for plan in rest) == 0


def test_planning_ahead_without_a_perfect_plan_still_keeps_repeats_low() -> None:
    plans = plan_mix(roster(12), TableSizes(4, 4, 4), 3, seed=1)
    # Three tables of four: after round 1 every table holds two players of some earlier table.
    assert 6 <= sum(plan.report.repeats for plan in plans) <= 12


def test_planning_ahead_club_mates_never_meet_when_a_plan_allows_it() -> None:
    players = [Player(i, "Rot" if i % 4 == 0 else None) for i in range(16)]
    plans = plan_mix(players, TableSizes(4, 4, 4), 3, seed=2)
    assert all(not plan.report.club_mates_together for plan in plans)
    assert max(pair_counts(plans).values()) == 1


# --- the organiser CLI -----------------------------------------------------------------------

def cli_rounds(planned: dict[str, JSON]) -> list[list[list[int]]]:
    return cast(list[list[list[int]]], planned["rounds"])


def test_the_cli_plan_lists_rounds_of_tables_of_player_indexes() -> None:
    planned = plan_for_cli(players=9, table_size=3, rounds=4, mode="mix", seed=1)
    assert planned["repeats"] == 0
    rounds = cli_rounds(planned)
    assert len(rounds) == 4
    for tables in rounds:
        assert sorted(p for t in tables for p in t) == list(range(9))


@pytest.mark.parametrize("mode", ["random", "swiss", "mix"])
def test_the_cli_counts_pair_meetings_beyond_the_first(mode: str) -> None:
    planned = plan_for_cli(players=10, table_size=4, rounds=4, mode=mode, seed=3)
    counts: Counter[frozenset[int]] = Counter()
    for tables in cli_rounds(planned):
        for table in tables:
            assert 2 <= len(table) <= 5
            counts.update(frozenset(p) for p in combinations(table, 2))
    assert planned["repeats"] == sum(n - 1 for n in counts.values())
