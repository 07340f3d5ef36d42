"""The score pad: every rule, ending and refusal (path and code), and properties over random
pads."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.errors import InvalidEntry, InvalidOptions, MatchFinished
from scoring.game import FinishedByHand, Setup, game_key
from scoring.games.score_pad import GAME
from scoring.match import FoldedMatch, fold_match, fold_more, set_up
from scoring.measures import Priced
from scoring.reading import JSON
from scoring.registry import game_by_id, game_by_key
from tests.scoring.shapes import (
    assert_folded_match_fits_its_shapes,
    assert_guided_as_its_shapes_say,
    made_up_rounds,
    partly_entered,
    read_rounds,
)

PAD: Any = GAME
NAMES = ("Ann", "Bea", "Cy", "Di", "Eve", "Fay")


def pad(players: int = 4, **options: Any) -> Setup[Any]:
    return set_up(GAME, list(NAMES[:players]), {"title": "Jass", **options})


def fold(setup: Setup[Any], *rounds: Sequence[int]) -> FoldedMatch:
    return fold_match(GAME, setup, [{"points": list(points)} for points in rounds])


def problems(setup: Setup[Any], raw: Any) -> set[tuple[str, str]]:
    with pytest.raises(InvalidEntry) as invalid:
        PAD.read_entry(raw, setup, [])
    return {(e.path, e.code) for e in invalid.value.errors}


def option_problems(players: int, **options: Any) -> set[tuple[str, str]]:
    with pytest.raises(InvalidOptions) as invalid:
        set_up(GAME, list(NAMES[:players]), options)
    return {(e.path, e.code) for e in invalid.value.errors}


def points(folded: FoldedMatch) -> list[tuple[str, int, int]]:
    return [(line.name, line.rank, int(str(line.totals["points"])))
            for line in folded.verdict.standings]


def test_the_registry_finds_the_score_pad_and_its_club_keys() -> None:
    assert game_by_id("score-pad") is GAME
    assert game_key(GAME, PAD.options_json(pad().options)) == "score-pad:Jass"
    assert game_key(GAME, {"title": " Jass "}) == "score-pad:Jass"
    jass = game_by_key("score-pad:Jass")
    assert jass is not None
    assert (jass.id, jass.name, jass.measures) == ("score-pad:Jass", "Jass", GAME.measures)
    assert game_by_key("score-pad") is None
    assert game_by_key("score-pad:") is None
    sea = game_by_id("sea-change")
    assert sea is not None
    assert game_by_key("sea-change") is sea
    assert game_by_key("sea-change:Jass") is None


def test_describe_offers_the_options_with_title_as_text() -> None:
    described: Any = PAD.describe()
    options = {option["name"]: option for option in described["options"]}
    assert list(options) == ["title", "winner", "target", "rounds", "round_total", "teams"]
    assert options["title"]["kind"] == "text"
    assert options["title"]["maximum"] == 60
    assert options["winner"]["default"] == "most"
    assert described["min_players"] == 1
    assert described["max_players"] == 20


def test_the_options_come_back_with_defaults_filled_in() -> None:
    assert PAD.options_json(pad().options) == {
        "title": "Jass", "winner": "most", "target": None, "rounds": None, "round_total": None,
        "teams": None}


@pytest.mark.parametrize(("options", "expected"), [
    ({}, {("title", "blank_title")}),
    ({"title": "   "}, {("title", "blank_title")}),
    ({"title": "x" * 61}, {("title", "name_too_long")}),
    ({"title": 7}, {("title", "not_a_string")}),
    ({"title": "Jass", "winner": "least"}, {("winner", "unknown_choice")}),
    ({"title": "Jass", "target": 0}, {("target", "too_small")}),
    ({"title": "Jass", "target": 1.5}, {("target", "not_an_integer")}),
    ({"title": "Jass", "rounds": 0}, {("rounds", "too_small")}),
    ({"title": "Jass", "rounds": 1001}, {("rounds", "too_large")}),
    ({"title": "Jass", "round_total": "157"}, {("round_total", "not_an_integer")}),
    ({"title": "Jass", "target": 1_000_001}, {("target", "too_large")}),
    ({"title": "Jass", "round_total": 1_000_001}, {("round_total", "too_large")}),
    ({"title": "Jass", "round_total": -1_000_001}, {("round_total", "too_small")}),
    ({"title": "Jass", "finished_after": 0}, {("finished_after", "too_small")}),
    ({"title": "Jass", "finished_after": 1001}, {("finished_after", "too_large")}),
    ({"title": "Jass", "finished_after": "2"}, {("finished_after", "not_an_integer")}),
    ({"title": "Jass", "colour": "red"}, {("colour", "unknown_field")}),
    ({"title": "Jass", "teams": [[0, 1], [2, 3]]}, {("teams[0]", "teams_not_alternating"),
                                                    ("teams[1]", "teams_not_alternating")}),
])
def test_bad_options_are_refused_at_their_field(options: dict[str, Any],
                                                 expected: set[tuple[str, str]]) -> None:
    assert option_problems(4, **options) == {(f"options.{path}", code)
                                             for path, code in expected}


def test_the_limits_themselves_are_accepted() -> None:
    at_most = pad(target=1_000_000, round_total=1_000_000, finished_after=1000).options
    assert (at_most.target, at_most.round_total, at_most.finished_after) == (
        1_000_000, 1_000_000, 1000)
    assert pad(round_total=-1_000_000).options.round_total == -1_000_000
    assert PAD.read_entry({"points": [-1_000_000, 1_000_000, 0, 0]}, pad(), []).points == (
        -1_000_000, 1_000_000, 0, 0)


def test_a_title_is_kept_without_surrounding_spaces() -> None:
    assert pad(title="  Schieber  ").options.title == "Schieber"


def test_one_to_twenty_players() -> None:
    assert len(pad(1).players) == 1
    set_up(GAME, [f"P{seat}" for seat in range(20)], {"title": "Wizard"})
    with pytest.raises(InvalidOptions):
        set_up(GAME, [f"P{seat}" for seat in range(21)], {"title": "Wizard"})


@pytest.mark.parametrize(("raw", "expected"), [
    ({"points": [1, 2, 3]}, {("points", "wrong_length")}),
    ({"points": [1, 2, 3, 4, 5]}, {("points", "wrong_length")}),
    ({"points": [1, 2.5, 3, "4"]}, {("points[1]", "not_an_integer"),
                                    ("points[3]", "not_an_integer")}),
    ({"points": [1, True, 3, 4]}, {("points[1]", "not_an_integer")}),
    ({"points": [1, 2, 3, 1_000_001]}, {("points[3]", "too_large")}),
    ({"points": [-1_000_001, 2, 3, 4]}, {("points[0]", "too_small")}),
    ({}, {("points", "missing")}),
    ({"points": [1, 2, 3, 4], "x": 1}, {("x", "unknown_field")}),
    ([1, 2, 3, 4], {("", "not_an_object")}),
    ({"points": 10}, {("points", "not_a_list")}),
])
def test_a_bad_round_is_refused_at_its_field(raw: Any, expected: set[tuple[str, str]]) -> None:
    assert problems(pad(), raw) == expected


def test_a_round_must_add_up_to_the_round_total_and_the_message_says_both() -> None:
    with pytest.raises(InvalidEntry) as invalid:
        PAD.read_entry({"points": [100, 50, 0, 0]}, pad(round_total=157), [])
    (error,) = invalid.value.errors
    assert (error.path, error.code) == ("points", "round_total")
    assert error.message == "The points add up to 150; every round adds up to 157."
    assert PAD.read_entry({"points": [100, 57, 0, 0]}, pad(round_total=157), []).points == (
        100, 57, 0, 0)


def test_a_zero_sum_pad_takes_negative_points() -> None:
    folded = fold(pad(3, round_total=0), (12, -3, -9), (-20, 10, 10))
    assert points(folded) == [("Bea", 1, 7), ("Cy", 2, 1), ("Ann", 3, -8)]
    assert problems(pad(3, round_total=0), {"points": [1, 1, 1]}) == {("points", "round_total")}


def test_without_target_or_rounds_the_match_stays_open() -> None:
    folded = fold(pad(), *([(10, 20, 30, 40)] * 50))
    assert not folded.finished
    assert folded.verdict.winners == ()
    assert folded.verdict.reason is None
    assert points(folded)[0] == ("Di", 1, 2000)


def test_the_match_ends_after_the_round_a_side_reaches_the_target() -> None:
    setup = pad(round_total=157, target=300)
    folded = fold(setup, (100, 57, 0, 0), (100, 57, 0, 0))
    assert not folded.finished
    folded = fold(setup, (100, 57, 0, 0), (100, 57, 0, 0), (110, 47, 0, 0))
    assert folded.finished
    assert folded.verdict.winners == (0,)
    assert folded.verdict.reason is not None
    assert folded.verdict.reason.message == "Ann reached 310 of 300."
    with pytest.raises(MatchFinished):
        fold(setup, (100, 57, 0, 0), (100, 57, 0, 0), (110, 47, 0, 0), (0, 157, 0, 0))


def test_two_sides_equal_at_the_target_share_the_win() -> None:
    folded = fold(pad(2, target=100), (100, 100))
    assert folded.verdict.winners == (0, 1)
    assert points(folded) == [("Ann", 1, 100), ("Bea", 1, 100)]
    assert folded.verdict.reason is not None
    assert folded.verdict.reason.message == "Ann and Bea reached 100 of 100 and share the win."


def test_with_fewest_the_side_reaching_the_target_ends_it_and_the_fewest_win() -> None:
    folded = fold(pad(winner="fewest", target=100, round_total=26), (26, 0, 0, 0),
                  (26, 0, 0, 0), (26, 0, 0, 0), (26, 0, 0, 0))
    assert folded.finished
    assert folded.verdict.winners == (1, 2, 3)
    assert folded.verdict.reason is not None
    assert folded.verdict.reason.message == (
        "Ann reached 104 of 100; Bea, Cy and Di share the win with 0 each.")
    folded = fold(pad(winner="fewest", target=100, round_total=26), (26, 0, 0, 0),
                  (26, 0, 0, 0), (26, 0, 0, 0), (13, 13, 0, 0), (13, 0, 13, 0))
    assert folded.verdict.winners == (3,)
    assert folded.verdict.reason is not None
    assert folded.verdict.reason.message == "Ann reached 104 of 100; Di wins with 0."
    assert points(folded) == [("Di", 1, 0), ("Bea", 2, 13), ("Cy", 2, 13), ("Ann", 4, 104)]


def test_with_fewest_the_standings_rank_the_lowest_total_first() -> None:
    folded = fold(pad(3, winner="fewest"), (5, 1, 9))
    assert points(folded) == [("Bea", 1, 1), ("Ann", 2, 5), ("Cy", 3, 9)]


def test_a_number_of_rounds_ends_the_match() -> None:
    folded = fold(pad(3, rounds=2), (5, 1, 9), (5, 1, 0))
    assert folded.finished
    assert folded.verdict.winners == (0,)
    assert folded.verdict.reason is not None
    assert folded.verdict.reason.message == "After 2 rounds Ann wins with 10."
    shared = fold(pad(2, rounds=1), (5, 5))
    assert shared.verdict.reason is not None
    assert shared.verdict.reason.message == "After 1 round Ann and Bea share the win with 5 each."


def test_with_target_and_rounds_whichever_comes_first_ends_it() -> None:
    early = fold(pad(2, target=50, rounds=5), (60, 0))
    assert early.finished
    assert early.verdict.reason is not None
    assert early.verdict.reason.code == "target_reached"
    late = fold(pad(2, target=500, rounds=2), (60, 0), (0, 10))
    assert late.finished
    assert late.verdict.reason is not None
    assert late.verdict.reason.code == "rounds_played"


def test_finished_by_hand_ends_the_match_and_a_correction_keeps_it_finished() -> None:
    assert isinstance(GAME, FinishedByHand)
    setup = pad(3)
    assert not PAD.can_finish(setup, 0)
    assert PAD.can_finish(setup, 2)
    closed = Setup(setup.players, PAD.finished_by_hand(setup.options, 2))
    folded = fold(closed, (5, 1, 9), (5, 1, 0))
    assert folded.finished
    assert folded.verdict.winners == (0,)
    assert folded.verdict.reason is not None
    assert folded.verdict.reason.message == "Finished after 2 rounds; Ann wins with 10."
    assert PAD.options_json(closed.options)["finished_after"] == 2
    assert fold(closed, (5, 1, 9), (4, 1, 0)).verdict.winners == (0, 2)
    with pytest.raises(MatchFinished):
        fold(closed, (5, 1, 9), (5, 1, 0), (1, 1, 1))
    assert not fold(closed, (5, 1, 9)).finished
    reopened = Setup(setup.players, PAD.reopened(closed.options))
    assert "finished_after" not in PAD.options_json(reopened.options)
    assert not fold(reopened, (5, 1, 9), (5, 1, 0), (1, 1, 1)).finished


def test_the_stored_options_of_a_finished_pad_read_back_the_same() -> None:
    closed = PAD.finished_by_hand(pad().options, 3)
    again = set_up(GAME, list(NAMES[:4]), PAD.options_json(closed))
    assert again.options == closed


def test_teams_have_one_score_each_named_by_their_members() -> None:
    setup = pad(4, teams=[[0, 2], [1, 3]], round_total=157, target=1000)
    assert problems(setup, {"points": [100, 57, 0, 0]}) == {("points", "wrong_length")}
    folded = fold(setup, *([(100, 57)] * 10))
    assert folded.finished
    assert folded.verdict.winners == (0,)
    assert folded.verdict.standings[0].as_json() == {
        "team": 0, "seats": [0, 2], "name": "Ann & Cy", "rank": 1, "points": 1000,
        "margin": 430}
    assert PAD.score_share(folded.rounds[-1].totals, setup) == (215.0, -215.0, 215.0, -215.0)


def test_the_margin_is_ahead_of_the_best_other_side_and_higher_is_better() -> None:
    most = fold(pad(3), (10, 4, 1))
    assert {line.name: line.totals["margin"] for line in most.verdict.standings} == {
        "Ann": 6, "Bea": -6, "Cy": -9}
    fewest = fold(pad(3, winner="fewest"), (10, 4, 1))
    assert {line.name: line.totals["margin"] for line in fewest.verdict.standings} == {
        "Ann": -9, "Bea": -3, "Cy": 3}
    assert PAD.measures[0].better == "higher"


def test_stakes_pay_by_points_lower_being_better_when_the_fewest_win() -> None:
    assert PAD.priced(pad()) == Priced("points", lower_is_better=False)
    assert PAD.priced(pad(winner="fewest")) == Priced("points", lower_is_better=True)


def test_a_single_player_pad_keeps_score_alone() -> None:
    folded = fold(pad(1, target=10), (12,))
    assert folded.finished
    assert folded.verdict.winners == (0,)
    assert folded.verdict.standings[0].totals == {"points": 12, "margin": 0}


def test_the_guide_fills_the_last_field_from_the_round_total() -> None:
    setup = pad(round_total=157)
    earlier = read_rounds(GAME, setup, [{"points": [100, 57, 0, 0]}])
    guided: Any = PAD.guide({"points": [20, None, 30, 7]}, setup, earlier)
    assert guided["last_points"] == {"side": 1, "points": 100}
    assert guided["typed"] == 57
    assert guided["totals"] == [100, 57, 0, 0]
    assert guided["totals_after"] == [120, 157, 30, 7]
    assert guided["complete"] is False
    assert guided["errors"][0]["path"] == "points[1]"
    whole: Any = PAD.guide({"points": [20, 100, 30, 7]}, setup, earlier)
    assert whole["complete"] is True
    assert whole["errors"] == []
    assert whole["last_points"] is None
    wrong: Any = PAD.guide({"points": [20, 100, 30, 8]}, setup, earlier)
    assert wrong["complete"] is False
    assert wrong["errors"][0]["code"] == "round_total"


def test_the_guide_fills_nothing_without_a_round_total_or_with_two_fields_empty() -> None:
    guided: Any = PAD.guide({"points": [20, None, 30, 7]}, pad(), [])
    assert guided["last_points"] is None
    assert guided["round_total"] is None
    guided = PAD.guide({"points": [20, None, None, 7]}, pad(round_total=157), [])
    assert guided["last_points"] is None
    assert guided["totals_after"] == [20, 0, 0, 7]


# --- properties ---------------------------------------------------------------------------

PROPERTY = settings(deadline=None, max_examples=80)


@st.composite
def setups(draw: st.DrawFn) -> Setup[Any]:
    players = draw(st.integers(1, 8))
    options: dict[str, JSON] = {"title": draw(st.sampled_from(["Jass", "Hearts", "Skat"])),
                                "winner": draw(st.sampled_from(["most", "fewest"]))}
    if draw(st.booleans()):
        options["target"] = draw(st.integers(1, 400))
    if draw(st.booleans()):
        options["rounds"] = draw(st.integers(1, 12))
    if draw(st.booleans()):
        options["round_total"] = draw(st.sampled_from([0, 26, 157]))
    if players in (4, 6, 8) and draw(st.booleans()):
        options["teams"] = [list(range(first, players, 2)) for first in (0, 1)]
    return set_up(GAME, [f"P{seat}" for seat in range(players)], options)


@st.composite
def rounds_of(draw: st.DrawFn, setup: Setup[Any]) -> list[JSON]:
    """Valid rounds: each adds up to the round total when there is one."""
    sides = len(setup.options.side_seats)
    made: list[JSON] = []
    for _ in range(draw(st.integers(0, 14))):
        numbers = draw(st.lists(st.integers(-60, 160), min_size=sides, max_size=sides))
        if setup.options.round_total is not None:
            numbers[-1] = setup.options.round_total - sum(numbers[:-1])
        made.append({"points": list(numbers)})
    return made


@PROPERTY
@given(st.data())
def test_a_pad_folds_the_sum_of_its_rounds_ranks_by_winner_and_ends_by_its_options(
        data: st.DataObject) -> None:
    setup = data.draw(setups())
    entries = data.draw(rounds_of(setup))
    options = setup.options
    try:
        folded = fold_match(GAME, setup, entries)
    except MatchFinished as finished:
        entries = entries[:finished.rounds_played]
        folded = fold_match(GAME, setup, entries)
    assert_folded_match_fits_its_shapes(GAME, folded)
    sides = len(options.side_seats)
    sums = [sum(int(raw["points"][side]) for raw in entries) for side in range(sides)]  # type: ignore[call-overload,index]
    by_side = {line.side: line for line in folded.verdict.standings}
    assert [by_side[side].totals["points"] for side in range(sides)] == sums
    better = (min if options.fewest else max)(sums)
    assert {side for side in range(sides) if by_side[side].rank == 1} == {
        side for side in range(sides) if sums[side] == better}
    reached = options.target is not None and bool(entries) and max(sums) >= options.target
    over_rounds = options.rounds is not None and len(entries) >= options.rounds
    assert folded.finished == (reached or over_rounds)
    if folded.finished:
        assert set(folded.verdict.winners) == {s for s in range(sides) if sums[s] == better}
        assert folded.verdict.reason is not None
        assert folded.verdict.reason.message
    if options.round_total is not None:
        for played in folded.rounds:
            assert sum(played.result.points) == options.round_total
    if entries:
        head = fold_match(GAME, setup, entries[:1])
        assert fold_more(GAME, head, entries[1:]) == folded


@PROPERTY
@given(st.data())
def test_a_round_off_the_round_total_is_refused_naming_its_sum(data: st.DataObject) -> None:
    setup = data.draw(setups())
    total = setup.options.round_total
    sides = len(setup.options.side_seats)
    numbers = data.draw(st.lists(st.integers(-500, 500), min_size=sides, max_size=sides))
    raw: JSON = {"points": list(numbers)}
    if total is None or sum(numbers) == total:
        assert PAD.read_entry(raw, setup, []).points == tuple(numbers)
        return
    with pytest.raises(InvalidEntry) as invalid:
        PAD.read_entry(raw, setup, [])
    (error,) = invalid.value.errors
    assert error.params == {"sum": sum(numbers), "expected": total}


@PROPERTY
@given(st.data())
def test_the_guide_answers_any_partly_entered_round_as_its_shape_says(
        data: st.DataObject) -> None:
    setup = data.draw(setups())
    entries = data.draw(rounds_of(setup))
    earlier = read_rounds(GAME, setup, entries[:3])
    target: JSON = data.draw(st.sampled_from(entries)) if entries else {"points": []}
    raw = data.draw(partly_entered(target) | made_up_rounds(GAME))
    assert_guided_as_its_shapes_say(GAME, raw, setup, earlier)
    guided: Any = PAD.guide(raw, setup, earlier)
    if guided["last_points"] is not None:
        filled = list(raw["points"])  # type: ignore[call-overload,index]
        filled[guided["last_points"]["side"]] = guided["last_points"]["points"]
        assert sum(filled) == setup.options.round_total


def test_a_pads_paper_sheet_has_a_row_per_round_agreed_and_a_column_of_points_per_side() -> None:
    """Paper when the phones fail: a pad played for 8 rounds prints 8 rows of points per side
    (a team is one side); played to a target no count is sure, so a full page says to go on."""
    teams = GAME.read_options({"title": "Jass", "rounds": 8, "teams": [[0, 2], [1, 3]]}, 4)
    sheet = GAME.paper(teams, 4)
    assert (sheet.columns, sheet.totalled, sheet.row) == (("points",), {"points"}, "round")
    assert (sheet.rows, sheet.more, sheet.sides) == (8, False, ((0, 2), (1, 3)))
    to_target = GAME.paper(GAME.read_options({"title": "Jass", "target": 1000}, 3), 3)
    assert (to_target.rows, to_target.more, to_target.sides) == (20, True, ((0,), (1,), (2,)))
