"""A club's season: place points per match, evenings by date, the best N, shared ranks."""

from __future__ import annotations

from datetime import date
from fractions import Fraction

import pytest

from scoring.seasons import (
    Evening,
    MatchResult,
    SeasonRow,
    Side,
    TournamentResult,
    place_points,
    season_standings,
    shown,
)
from scoring.tournament import TableResult, tournament_standings

MONDAY = date(2026, 1, 5)
TUESDAY = date(2026, 1, 6)
WEDNESDAY = date(2026, 1, 7)
THURSDAY = date(2026, 1, 8)


def match(evening: date, *ranked: tuple[int, ...], ranks: tuple[int, ...] = ()) -> MatchResult:
    """A match of one-member sides (or teams) given best first; ``ranks`` ties some of them."""
    places = ranks or tuple(range(1, len(ranked) + 1))
    return MatchResult(evening, tuple(Side(r, m) for r, m in zip(places, ranked, strict=True)))


def solo(evening: date, *members: int, ranks: tuple[int, ...] = ()) -> MatchResult:
    return match(evening, *((m,) for m in members), ranks=ranks)


def by_member(rows: tuple[SeasonRow, ...]) -> dict[int, SeasonRow]:
    return {row.player: row for row in rows}


def test_a_four_player_match_gives_one_two_thirds_one_third_and_nothing() -> None:
    assert place_points(solo(MONDAY, 1, 2, 3, 4)) == {
        1: 1,
        2: Fraction(2, 3),
        3: Fraction(1, 3),
        4: 0,
    }


def test_tied_sides_share_half_a_side_each_and_only_the_comparison_of_ranks_counts() -> None:
    # Two tied for second beat one side and tie with one: (1 + ½) / 3 = ½ each.
    expected = {1: 1, 2: Fraction(1, 2), 3: Fraction(1, 2), 4: 0}
    assert place_points(solo(MONDAY, 1, 2, 3, 4, ranks=(1, 2, 2, 4))) == expected
    assert place_points(solo(MONDAY, 1, 2, 3, 4, ranks=(1, 2, 2, 3))) == expected
    assert place_points(solo(MONDAY, 1, 2, 3, ranks=(1, 1, 1))) == dict.fromkeys((1, 2, 3), 0.5)


def test_a_two_player_match_is_one_for_the_winner_and_a_draw_half_each() -> None:
    assert place_points(solo(MONDAY, 1, 2)) == {1: 1, 2: 0}
    assert place_points(solo(MONDAY, 1, 2, ranks=(1, 1))) == {1: Fraction(1, 2), 2: Fraction(1, 2)}


def test_every_member_of_a_team_gets_the_team_s_points() -> None:
    assert place_points(match(MONDAY, (1, 2), (3, 4))) == {1: 1, 2: 1, 3: 0, 4: 0}
    assert place_points(match(MONDAY, (1, 2), (3, 4), (5, 6))) == {
        1: 1,
        2: 1,
        3: Fraction(1, 2),
        4: Fraction(1, 2),
        5: 0,
        6: 0,
    }


def test_a_side_of_guests_counts_as_a_side_beaten_but_scores_for_nobody() -> None:
    assert place_points(match(MONDAY, (1,), (), (2,))) == {1: 1, 2: 0}
    assert place_points(match(MONDAY, (), (1,))) == {1: 0}


def test_a_match_needs_two_sides_and_each_member_once() -> None:
    with pytest.raises(ValueError, match="at least 2 sides"):
        place_points(solo(MONDAY, 1))
    with pytest.raises(ValueError, match="member 1 is twice"):
        place_points(match(MONDAY, (1, 2), (1,)))


def test_an_evening_adds_up_every_match_of_its_date() -> None:
    rows = by_member(season_standings([solo(MONDAY, 1, 2, 3, 4), solo(MONDAY, 2, 1)]))
    assert rows[1].points == Fraction(1)
    assert rows[2].points == Fraction(5, 3)
    assert rows[2].line == (Evening(MONDAY, Fraction(5, 3), counted=True),)
    assert rows[2].evenings == 1


def test_a_tournament_s_points_count_on_its_evening_beside_the_matches() -> None:
    tournament = TournamentResult(TUESDAY, {1: Fraction(5, 2), 3: Fraction(1)})
    rows = by_member(season_standings([solo(MONDAY, 1, 3), tournament, solo(TUESDAY, 3, 1)]))
    assert [(e.date, e.points) for e in rows[1].line] == [(MONDAY, 1), (TUESDAY, Fraction(5, 2))]
    assert [(e.date, e.points) for e in rows[3].line] == [(MONDAY, 0), (TUESDAY, 2)]
    assert rows[1].points == Fraction(7, 2)


def test_a_tournament_s_float_points_are_read_as_the_thirds_they_stand_for() -> None:
    tables = [
        TableResult((1, 2, 3, 4), (1, 2, 3, 4), (0.0,) * 4),
        TableResult((1, 2, 3, 4), (3, 1, 2, 4), (0.0,) * 4),
        TableResult((1, 2, 3, 4), (4, 2, 1, 3), (0.0,) * 4),
    ]
    floats = {int(row.player): row.points for row in tournament_standings(tables)}
    assert floats[2] != 7 / 3  # 2/3 + 1 + 2/3, summed as floats
    result = TournamentResult.from_floats(WEDNESDAY, floats)
    assert result.points == {1: Fraction(4, 3), 2: Fraction(7, 3), 3: 2, 4: Fraction(1, 3)}


def test_the_best_n_evenings_count_and_the_others_are_dropped() -> None:
    season = [
        solo(MONDAY, 1, 2, 3),  # 1: 1
        solo(TUESDAY, 2, 3, 1),  # 1: 0
        solo(WEDNESDAY, 2, 1, 3),  # 1: ½
    ]
    row = by_member(season_standings(season, best=2))[1]
    assert row.points == Fraction(3, 2)
    assert row.counted == (MONDAY, WEDNESDAY)
    assert row.evenings == 3
    assert [(e.date, e.counted) for e in row.line] == [
        (MONDAY, True),
        (TUESDAY, False),
        (WEDNESDAY, True),
    ]
    assert row.best_evening == 1


def test_evenings_equal_at_the_cut_are_counted_earliest_first() -> None:
    season = [solo(MONDAY, 2, 1), solo(TUESDAY, 1, 2), solo(WEDNESDAY, 2, 1), solo(THURSDAY, 1, 2)]
    rows = by_member(season_standings(season, best=1))
    assert rows[1].counted == (TUESDAY,)
    assert rows[2].counted == (MONDAY,)


def test_without_best_every_evening_counts_and_fewer_evenings_than_best_all_count() -> None:
    season = [solo(MONDAY, 1, 2), solo(TUESDAY, 2, 1), solo(WEDNESDAY, 1, 2)]
    assert by_member(season_standings(season))[1].counted == (MONDAY, TUESDAY, WEDNESDAY)
    assert by_member(season_standings(season, best=5))[2].points == 1


@pytest.mark.parametrize("best", [0, -1])
def test_best_counts_at_least_one_evening(best: int) -> None:
    with pytest.raises(ValueError, match="at least 1 evening"):
        season_standings([solo(MONDAY, 1, 2)], best=best)


def test_equal_points_are_broken_by_the_best_single_evening() -> None:
    # 1 and 3 each win one evening (1 + 0); 2 comes second twice at a 3-table (½ + ½).
    season = [solo(MONDAY, 1, 2, 3), solo(TUESDAY, 3, 2, 1)]
    rows = season_standings(season)
    assert [(r.player, r.rank, r.points, r.best_evening) for r in rows] == [
        (1, 1, 1, 1),
        (3, 1, 1, 1),
        (2, 3, 1, Fraction(1, 2)),
    ]


def test_then_the_evenings_played_break_the_tie() -> None:
    # 1 and 2 each win one evening; 1 also lost one: more evenings played ranks first.
    season = [solo(MONDAY, 1, 3), solo(TUESDAY, 3, 1), solo(WEDNESDAY, 2, 4)]
    rows = season_standings(season)
    assert [(r.player, r.rank) for r in rows][:3] == [(1, 1), (3, 1), (2, 3)]
    assert by_member(rows)[1].evenings == 2 > by_member(rows)[2].evenings


def test_members_equal_in_all_three_share_a_rank_listed_by_member_id() -> None:
    season = [solo(MONDAY, 7, 4), solo(TUESDAY, 4, 7), solo(MONDAY, 2, 9)]
    rows = season_standings(season)
    assert [(r.player, r.rank) for r in rows] == [(4, 1), (7, 1), (2, 3), (9, 4)]


def test_a_row_is_shown_with_two_decimals_and_iso_dates() -> None:
    [first, *_] = season_standings([solo(MONDAY, 1, 2, 3, 4), solo(TUESDAY, 2, 1)], best=1)
    assert first.as_json() == {
        "player": 1,
        "rank": 1,
        "points": "1.00",
        "evenings": 2,
        "counted": ["2026-01-05"],
        "best_evening": "1.00",
        "line": [
            {"date": "2026-01-05", "points": "1.00", "counted": True},
            {"date": "2026-01-06", "points": "0.00", "counted": False},
        ],
    }


@pytest.mark.parametrize(
    ("points", "text"),
    [
        (Fraction(7, 3), "2.33"),
        (Fraction(2, 3), "0.67"),
        (Fraction(1, 8), "0.13"),
        (Fraction(12), "12.00"),
        (Fraction(-5, 4), "-1.25"),
        (Fraction(-1, 8), "-0.13"),
        (Fraction(-1, 1000), "0.00"),
    ],
)
def test_points_are_shown_with_two_decimals_halves_away_from_zero(
    points: Fraction, text: str
) -> None:
    assert shown(points) == text


def test_a_season_without_results_has_no_rows() -> None:
    assert season_standings([]) == ()
