"""Tournament points by place and the tiebreak chain."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import InvalidInput, InvalidOptions
from scoring.tournament import (
    TableResult,
    TournamentScoring,
    table_points,
    tournament_standings,
)


def table(players: tuple[int | str, ...], places: tuple[int, ...],
          shares: tuple[float, ...] | None = None, confirmed: bool = True) -> TableResult:
    return TableResult(players, places, shares or (0.0,) * len(players), confirmed)


places_at_a_table = st.integers(2, 6).flatmap(
    lambda size: st.lists(st.integers(1, size), min_size=size, max_size=size)
)


@settings(deadline=None, max_examples=200)
@given(places=places_at_a_table)
def test_winning_a_table_alone_is_worth_one_and_last_place_alone_zero(places: list[int]) -> None:
    points = table_points(places)
    for place, earned in zip(places, points, strict=True):
        if places.count(place) == 1 and place == min(places):
            assert earned == 1
        if places.count(place) == 1 and place == max(places):
            assert earned == 0
        assert 0 <= earned <= 1
    assert sum(points) == pytest.approx(len(places) / 2)


def test_points_count_players_beaten_and_half_the_players_tied() -> None:
    assert table_points([1, 2, 2, 4]) == pytest.approx((1, 1.5 / 3, 1.5 / 3, 0))
    assert table_points([1, 1, 1]) == pytest.approx((0.5, 0.5, 0.5))


def test_tied_places_share_the_average_of_their_points_per_place() -> None:
    per_place = {4: (4.0, 2.0, 1.0, 0.0), 3: (4.0, 2.0, 0.0)}
    assert table_points([1, 1, 3, 4], per_place) == (3.0, 3.0, 1.0, 0.0)
    assert table_points([2, 1, 3], per_place) == (2.0, 4.0, 0.0)


def test_a_table_size_missing_from_the_points_per_place_is_an_error() -> None:
    with pytest.raises(InvalidInput) as caught:
        table_points([1, 2], {4: (4.0, 2.0, 1.0, 0.0)})
    assert caught.value.errors[0].code == "missing_table_size"


def test_points_per_place_need_one_value_per_place_and_known_tiebreaks() -> None:
    with pytest.raises(InvalidOptions) as caught:
        TournamentScoring({4: (4.0, 2.0, 1.0)}, ("points", "luck", "points"))
    assert [(e.path, e.code) for e in caught.value.errors] == [
        ("place_points.4", "place_points"), ("tiebreaks[1]", "unknown_choice"),
        ("tiebreaks[2]", "duplicate"),
    ]


def test_only_confirmed_tables_count() -> None:
    rows = tournament_standings([
        table(("a", "b"), (1, 2)), table(("a", "b"), (2, 1), confirmed=False),
    ])
    assert [(r.player, r.points, r.tables_played) for r in rows] == [("a", 1, 1), ("b", 0, 1)]


def test_registered_players_without_tables_are_listed_last_with_nothing() -> None:
    rows = tournament_standings([table(("a", "b"), (1, 2))], players=["c", "a", "b"])
    assert rows[-1].player == "c"
    assert rows[-1].tables_played == 0
    assert rows[-1].tiebreaks["opponents_strength"] == 0


def test_score_share_breaks_a_tie_on_points() -> None:
    rows = tournament_standings([
        table((1, 2), (1, 2), (0.6, 0.4)), table((3, 4), (1, 2), (0.9, 0.1)),
    ])
    assert [(r.rank, r.player) for r in rows] == [(1, 3), (2, 1), (3, 2), (4, 4)]
    assert list(rows[0].tiebreaks) == ["points", "score_share", "opponents_strength",
                                       "table_wins"]


def test_opponents_strength_averages_the_points_of_everyone_sat_with() -> None:
    # 1 beats 2 and 3 beats 4 in round one; then 1 and 4 draw with each other, 2 and 3 too.
    rows = tournament_standings([
        table((1, 2), (1, 2)), table((3, 4), (1, 2)),
        table((1, 4), (1, 1)), table((2, 3), (1, 1)),
    ])
    by_player = {r.player: r for r in rows}
    assert by_player[1].points == by_player[3].points == 1.5
    assert by_player[1].tiebreaks["opponents_strength"] == pytest.approx((0.5 + 0.5) / 2)
    assert by_player[3].tiebreaks["opponents_strength"] == pytest.approx((0.5 + 0.5) / 2)
    assert by_player[1].rank == by_player[3].rank == 1  # equal on the whole chain: shared
    assert by_player[1].tiebreaks["table_wins"] == 2  # a shared first counts as a win


def test_the_tiebreak_chain_is_applied_in_the_order_given() -> None:
    tables = [
        table((1, 2, 3), (1, 2, 3), (0.1, 0.5, 0.4)),
        table((4, 5, 6), (1, 2, 3), (0.2, 0.3, 0.5)),
    ]
    by_points = tournament_standings(tables)
    assert [r.player for r in by_points][:2] == [4, 1]
    by_share = tournament_standings(tables, TournamentScoring(tiebreaks=("score_share", "points")))
    assert [r.player for r in by_share][:3] == [2, 6, 3]
    assert list(by_share[0].tiebreaks) == ["score_share", "points"]


def test_sums_of_thirds_tie_despite_floating_point_noise() -> None:
    # 5/6 at one table against 1/6 + 2/3 over two: equal, but not as floating-point sums.
    tables = [table((1, 2, 3, 4), (1, 1, 3, 4)), table((8, 9, 10, 11), (3, 1, 2, 3)),
              table((8, 12, 13, 14), (2, 1, 3, 4))]
    rows = {r.player: r for r in tournament_standings(
        tables, TournamentScoring(tiebreaks=("points",)))}
    assert rows[1].points != rows[8].points
    assert rows[1].points == pytest.approx(rows[8].points)
    assert rows[1].rank == rows[8].rank


def test_a_malformed_table_is_refused_naming_every_field() -> None:
    with pytest.raises(InvalidInput) as caught:
        tournament_standings([table((1, 2), (1, 2)), TableResult((1, 1), (1, 3), (0.5,))])
    assert [(e.path, e.code) for e in caught.value.errors] == [
        ("tables[1].players", "duplicate_player"),
        ("tables[1].score_shares", "wrong_length"),
        ("tables[1].places[1]", "place_out_of_range"),
    ]


def test_standings_of_two_thousand_players_over_twelve_rounds_rank_every_player() -> None:
    """At the size bench/tournament.py times (speed is measured there, not asserted here)."""
    tables = [
        table(tuple(range(start, start + 4)), ((r + start) % 4 + 1, 2, 3, 4 - (r % 2)),
              (0.4, 0.3, 0.2, 0.1))
        for r in range(12) for start in range(0, 2000, 4)
    ]
    rows = tournament_standings(tables)
    assert len(rows) == 2000
    assert [row.rank for row in rows] == sorted(row.rank for row in rows)
