"""Season properties over random evenings of random matches and tournaments.

Every property checks :func:`season_standings` against a count written here another way: place
points from side-by-side comparisons, evenings as a flat list of (member, date, points), the best
evenings by trying every choice of them, and ranks by counting who is strictly better.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, timedelta
from fractions import Fraction
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.seasons import (
    MatchResult,
    Result,
    SeasonRow,
    Side,
    TournamentResult,
    season_standings,
    shown,
)

PROPERTY = settings(deadline=None, max_examples=150)
FIRST_EVENING = date(2026, 1, 5)
MEMBERS = st.integers(1, 10)

evenings = st.integers(0, 7).map(lambda n: FIRST_EVENING + timedelta(days=n))


@st.composite
def matches(draw: st.DrawFn) -> MatchResult:
    """2 to 5 sides (a side may be guests only), members dealt to them, ranks with ties."""
    count = draw(st.integers(2, 5))
    members = draw(st.lists(MEMBERS, unique=True, max_size=10))
    dealt = [draw(st.integers(0, count - 1)) for _ in members]
    sides = tuple(
        Side(
            rank=draw(st.integers(1, count)),
            members=tuple(m for m, s in zip(members, dealt, strict=True) if s == side),
        )
        for side in range(count)
    )
    return MatchResult(draw(evenings), sides)


# Tournament points from 0 to 12 in twelfths or coarser. Drawn as a denominator and a numerator:
# st.fractions draws through flatmap, which made generating a season most of these tests' time.
tournament_points = st.tuples(st.integers(1, 12), st.integers(0, 144)).map(
    lambda drawn: Fraction(min(drawn[1], 12 * drawn[0]), drawn[0])
)
tournaments = st.builds(
    TournamentResult,
    evening=evenings,
    points=st.dictionaries(MEMBERS, tournament_points, max_size=10),
)
seasons = st.lists(st.one_of(matches(), tournaments), max_size=14)
bests = st.none() | st.integers(1, 5)


def earned(match: MatchResult) -> list[tuple[int, date, Fraction]]:
    """Each member's points: a full point per side beaten, half per side tied, averaged over
    the other sides, counted one other side at a time."""
    records = []
    for side in match.sides:
        others = [other for other in match.sides if other is not side]
        score = Fraction(0)
        for other in others:
            if side.rank < other.rank:
                score += 1
            elif side.rank == other.rank:
                score += Fraction(1, 2)
        records += [(member, match.evening, score / len(others)) for member in side.members]
    return records


def records(season: Sequence[Result]) -> list[tuple[int, date, Fraction]]:
    flat: list[tuple[int, date, Fraction]] = []
    for result in season:
        if isinstance(result, MatchResult):
            flat += earned(result)
        else:
            flat += [(m, result.evening, p) for m, p in result.points.items()]
    return flat


def nights_of(member: int, season: Sequence[Result]) -> dict[date, Fraction]:
    flat = records(season)
    days = {day for who, day, _ in flat if who == member}
    return {
        day: sum((p for w, d, p in flat if w == member and d == day), Fraction(0)) for day in days
    }


def best_total(nights: dict[date, Fraction], best: int | None) -> Fraction:
    """The most any choice of ``best`` evenings adds up to (every evening when ``best`` is None
    or more than were played)."""
    size = len(nights) if best is None else min(best, len(nights))
    return max(sum(chosen, Fraction(0)) for chosen in combinations(nights.values(), size))


def better(a: SeasonRow, b: SeasonRow) -> bool:
    if a.points != b.points:
        return a.points > b.points
    if a.best_evening != b.best_evening:
        return a.best_evening > b.best_evening
    return a.evenings > b.evenings


@PROPERTY
@given(season=seasons, best=bests)
def test_every_member_who_played_has_one_row(season: list[Result], best: int | None) -> None:
    rows = season_standings(season, best)
    assert len({row.player for row in rows}) == len(rows)
    assert {row.player for row in rows} == {member for member, _, _ in records(season)}


@PROPERTY
@given(season=seasons, best=bests)
def test_a_member_s_evenings_are_the_sums_of_each_date_s_points(
    season: list[Result], best: int | None
) -> None:
    for row in season_standings(season, best):
        nights = nights_of(row.player, season)
        assert {e.date: e.points for e in row.line} == nights
        assert [e.date for e in row.line] == sorted(nights)
        assert row.evenings == len(nights)
        assert row.best_evening == max(nights.values())


@PROPERTY
@given(season=seasons, best=bests)
def test_the_points_are_the_best_evenings_and_nothing_dropped_beats_a_counted_one(
    season: list[Result], best: int | None
) -> None:
    for row in season_standings(season, best):
        nights = nights_of(row.player, season)
        counted = [e for e in row.line if e.counted]
        dropped = [e for e in row.line if not e.counted]
        assert row.counted == tuple(e.date for e in counted)
        assert row.points == sum((e.points for e in counted), Fraction(0))
        assert row.points == best_total(nights, best)
        assert len(counted) == (len(nights) if best is None else min(best, len(nights)))
        for drop in dropped:
            for kept in counted:
                assert drop.points <= kept.points
                if drop.points == kept.points:
                    assert kept.date < drop.date  # equal at the cut: the earlier counts


@PROPERTY
@given(season=seasons, best=bests)
def test_ranks_count_the_members_strictly_better_and_equals_share_them(
    season: list[Result], best: int | None
) -> None:
    rows = season_standings(season, best)
    assert [(r.rank, r.player) for r in rows] == sorted((r.rank, r.player) for r in rows)
    for row in rows:
        assert row.rank == 1 + sum(1 for other in rows if better(other, row))
        for other in rows:
            same = (other.points, other.best_evening, other.evenings) == (
                row.points,
                row.best_evening,
                row.evenings,
            )
            assert (other.rank == row.rank) == same


@PROPERTY
@given(season=seasons)
def test_counting_fewer_evenings_never_adds_points(season: list[Result]) -> None:
    every = {row.player: row.points for row in season_standings(season)}
    for best in (1, 2, 3):
        for row in season_standings(season, best):
            assert row.points <= every[row.player]


@PROPERTY
@given(points=st.fractions(min_value=-50, max_value=50, max_denominator=1000))
def test_shown_points_are_the_nearest_hundredth(points: Fraction) -> None:
    text = shown(points)
    assert text.split(".")[1].isdigit()
    assert len(text.split(".")[1]) == 2
    assert abs(Fraction(text) - points) <= Fraction(1, 200)


@PROPERTY
@given(
    places=st.lists(
        st.integers(2, 8).flatmap(
            lambda size: st.tuples(st.just(size), st.integers(0, 2 * size - 2))
        ),
        max_size=20,
    )
)
def test_float_tournament_points_are_read_back_exactly(places: list[tuple[int, int]]) -> None:
    """Sums of (beaten + ½ × tied) / (table size − 1), added up as floats, as the tournament
    engine does, are read as the exact fraction."""
    exact = sum((Fraction(half, 2 * (size - 1)) for size, half in places), Fraction(0))
    summed = 0.0
    for size, half in places:
        summed += half / 2 / (size - 1)
    assert TournamentResult.from_floats(FIRST_EVENING, {1: summed}).points == {1: exact}
