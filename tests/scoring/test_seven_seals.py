"""Die sieben Siegel: every rule and Decision of rules.md §2, one test each."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.errors import InvalidEntry, InvalidOptions, MatchFinished
from scoring.game import Setup
from scoring.games.seven_seals import GAME, SealsOptions
from scoring.match import fold_match, set_up
from scoring.registry import game_by_id

FOUR = ("Ann", "Bob", "Cid", "Dan")
SABOTEUR: dict[str, Any] = {"saboteur": True}


def table(players: int = 4, **options: Any) -> Setup[SealsOptions]:
    names = ("Ann", "Bob", "Cid", "Dan", "Eric")[:players]
    return Setup(names, GAME.read_options(options, players))


def predict(*seals: str, **taken_from: Any) -> dict[str, Any]:
    bid: dict[str, Any] = {"seals": list(seals)}
    if taken_from:
        bid["taken_from"] = taken_from
    return bid


def entry(bids: list[Any], remaining: list[Any], black: list[int], **more: Any) -> dict[str, Any]:
    return {"bids": bids, "remaining": remaining, "black": black, **more}


# Round 1 at four seats: Ann takes two red and a blue; Bob takes the last two blues from the
# middle and Ann's blue, so Ann receives a white; Cid sabotages; Dan takes a yellow.
BIDS = [predict("red", "red", "blue"), predict("blue", "blue", "blue", blue=0), SABOTEUR,
        predict("yellow")]


def example(**changes: Any) -> dict[str, Any]:
    """Ann keeps the white (4), Bob pays all blues and takes a black (3), Cid's sabotage
    caught one black (4 - 1), Dan never wins a yellow trick (2)."""
    base = entry(BIDS, [["white"], [], None, ["yellow"]], [0, 1, 0, 0], tricks=[2, 4, 9, 0])
    return {**base, **changes}


def problems(raw: Any, setup: Setup[SealsOptions] | None = None,
             round_index: int = 0) -> set[tuple[str, str]]:
    """The (path, code) of every problem found in an entry; empty when it is valid."""
    setup = setup or table(len(raw["bids"]) if isinstance(raw, dict)
                           and isinstance(raw.get("bids"), list) else 4)
    earlier = [GAME.read_entry(example(), table(), [])] * round_index
    try:
        GAME.read_entry(raw, setup, earlier)
    except InvalidEntry as invalid:
        return {(problem.path, problem.code) for problem in invalid.errors}
    return set()


def penalties(raw: Any, setup: Setup[SealsOptions] | None = None) -> tuple[int, ...]:
    setup = setup or table(len(raw["bids"]))
    return GAME.score_round(GAME.read_entry(raw, setup, []), setup).penalty


def board(raw: Any, setup: Setup[SealsOptions] | None = None, round_index: int = 0) -> Any:
    earlier = [GAME.read_entry(example(), table(), [])] * round_index
    return GAME.guide(raw, setup or table(), earlier)


def keeping(*left: list[str]) -> dict[str, Any]:
    """A round where everyone predicted exactly the seals they were left with."""
    return entry([predict(*seals) for seals in left], list(left), [0] * len(left))


# Options


def test_rounds_default_to_the_number_of_players() -> None:
    assert table(4).options.rounds == 4
    assert table(5).options.rounds == 5


def test_three_players_play_six_rounds() -> None:
    assert table(3).options.rounds == 6


def test_rounds_may_be_any_whole_number_from_1_to_20() -> None:
    assert table(4, rounds=1).options.rounds == 1
    assert table(4, rounds=20).options.rounds == 20
    with pytest.raises(InvalidOptions) as raised:
        GAME.read_options({"rounds": 21}, 4)
    assert [(e.path, e.code) for e in raised.value.errors] == [("rounds", "too_large")]


def test_the_saboteur_base_is_4_by_default() -> None:
    assert GAME.options_json(table(4).options) == {"rounds": 4, "saboteur_base": 4}


def test_a_saboteur_base_of_5_is_allowed_with_three_players() -> None:
    assert table(3, saboteur_base=5).options.saboteur_base == 5


def test_a_saboteur_base_of_5_needs_three_players() -> None:
    with pytest.raises(InvalidOptions) as raised:
        set_up(GAME, list(FOUR), {"saboteur_base": 5})
    assert [(e.path, e.code) for e in raised.value.errors] == [
        ("options.saboteur_base", "three_players_only")]


def test_the_saboteur_base_is_4_or_5() -> None:
    with pytest.raises(InvalidOptions) as raised:
        GAME.read_options({"saboteur_base": 3, "rounds": "four", "colour": 1}, 3)
    assert {(e.path, e.code) for e in raised.value.errors} == {
        ("saboteur_base", "too_small"), ("rounds", "not_an_integer"), ("colour", "unknown_field")}


# Bidding order


def test_seat_0_bids_first_in_round_1_and_the_next_seat_in_each_later_round() -> None:
    assert board({})["order"] == [0, 1, 2, 3]
    assert board({}, round_index=1)["order"] == [1, 2, 3, 0]
    assert board({}, round_index=5)["order"] == [1, 2, 3, 0]


def test_the_playing_order_decides_who_can_be_taken_from() -> None:
    bids = [predict("yellow", "yellow", "yellow"), predict("yellow", yellow=0),
            predict(), predict()]
    raw = entry(bids, [["white", "yellow", "yellow"], ["yellow"], [], []], [0, 0, 0, 0])
    assert problems(raw) == set()
    assert problems(raw, round_index=1) == {("bids[1].taken_from.yellow", "middle_has_colour")}


def test_first_bidder_overrides_the_playing_order() -> None:
    bids = [predict("yellow", yellow=3), predict(), predict(),
            predict("yellow", "yellow", "yellow")]
    raw = entry(bids, [["yellow"], [], [], ["white", "yellow", "yellow"]], [0, 0, 0, 0])
    assert problems(raw) == {("bids[0].taken_from.yellow", "middle_has_colour")}
    assert problems({**raw, "first_bidder": 3}) == set()
    assert board({"first_bidder": 2})["order"] == [2, 3, 0, 1]


# Taking a colour from another player


def test_a_colour_is_taken_from_another_player_only_when_the_middle_has_none_left() -> None:
    raw = entry([predict("yellow"), predict("yellow", yellow=0), predict(), predict()],
                [[], [], [], []], [0, 0, 0, 0])
    assert problems(raw) == {("bids[1].taken_from.yellow", "middle_has_colour")}


def test_a_bidder_empties_the_middle_before_taking_from_others() -> None:
    seen = board({"bids": [predict("yellow", "yellow"), predict("yellow", "yellow", yellow=0)]})
    assert seen["errors"] == []
    assert seen["middle"]["yellow"] == 0
    assert seen["holdings"][0]["yellow"] == 1
    assert seen["holdings"][1]["yellow"] == 2


def test_the_player_taken_from_receives_a_white_seal() -> None:
    seen = board({"bids": [predict("yellow", "yellow", "yellow"), predict("yellow", yellow=0)]})
    assert seen["holdings"][0] == {"red": 0, "yellow": 2, "green": 0, "blue": 0, "violet": 0,
                                   "white": 1}
    assert seen["middle"]["white"] == 3


def test_taken_from_is_needed_when_the_middle_is_out_of_a_colour() -> None:
    raw = entry([predict("yellow", "yellow", "yellow"), predict("yellow"), predict(), predict()],
                [[], [], [], []], [0, 0, 0, 0])
    assert problems(raw) == {("bids[1].taken_from.yellow", "taken_from_needed")}


def test_taken_from_may_not_name_a_colour_that_is_not_predicted() -> None:
    raw = entry([predict("yellow", "yellow", "yellow"), predict("green", yellow=0), predict(),
                 predict()], [[], [], [], []], [0, 0, 0, 0])
    assert problems(raw) == {("bids[1].taken_from.yellow", "colour_not_bid")}


def test_one_seat_in_taken_from_gives_every_seal_of_that_colour_the_middle_lacks() -> None:
    seen = board({"bids": [predict("yellow", "yellow", "yellow"),
                           predict("yellow", "yellow", yellow=0)]})
    assert (seen["holdings"][0]["yellow"], seen["holdings"][0]["white"]) == (1, 2)
    assert seen["holdings"][1]["yellow"] == 2


def test_taken_from_may_list_one_seat_per_seal_taken_from_others() -> None:
    seen = board({"bids": [predict("yellow", "yellow"), predict("yellow"),
                           predict("yellow", "yellow", yellow=[0, 1])]})
    assert seen["errors"] == []
    assert [(h["yellow"], h["white"]) for h in seen["holdings"][:3]] == [(1, 1), (0, 1), (2, 0)]


def test_a_list_in_taken_from_names_exactly_one_seat_per_seal_taken_from_others() -> None:
    seen = board({"bids": [predict("yellow", "yellow"), predict("yellow"),
                           predict("yellow", "yellow", yellow=[0])]})
    assert [(e["path"], e["code"]) for e in seen["errors"]] == [
        ("bids[2].taken_from.yellow", "wrong_length")]


def test_the_player_taken_from_must_hold_that_colour_at_that_moment() -> None:
    seen = board({"bids": [predict("yellow", "yellow"), predict("yellow"),
                           predict("yellow", "yellow", yellow=[1, 1])]})
    assert [(e["path"], e["code"], e["params"]) for e in seen["errors"]] == [
        ("bids[2].taken_from.yellow[1]", "not_held", {"seat": 1, "colour": "yellow", "held": 1})]
    taken_twice = board({"bids": [predict("yellow", "yellow", "yellow"), predict(),
                                  predict("yellow", "yellow", yellow=1)]})
    assert [(e["path"], e["code"]) for e in taken_twice["errors"]] == [
        ("bids[2].taken_from.yellow", "not_held")]


def test_a_player_later_in_the_playing_order_holds_nothing_yet() -> None:
    seen = board({"bids": [predict("yellow", "yellow", "yellow"), predict("yellow", yellow=2)]})
    assert [(e["path"], e["code"]) for e in seen["errors"]] == [
        ("bids[1].taken_from.yellow", "not_yet_bid")]


def test_a_bidder_cannot_take_from_themselves() -> None:
    seen = board({"bids": [predict("yellow", "yellow", "yellow"), predict("yellow", yellow=1)]})
    assert [(e["path"], e["code"]) for e in seen["errors"]] == [
        ("bids[1].taken_from.yellow", "own_seat")]


def test_the_saboteur_cannot_be_taken_from() -> None:
    seen = board({"bids": [SABOTEUR, predict("yellow", "yellow", "yellow"),
                           predict("yellow", yellow=0)]})
    assert [(e["path"], e["code"]) for e in seen["errors"]] == [
        ("bids[2].taken_from.yellow", "saboteur_holds_no_seals")]


def test_no_more_than_four_white_seals_are_handed_out() -> None:
    first = predict("yellow", "yellow", "yellow", "green", "green", "green")
    second = predict("yellow", "yellow", "green", "green", yellow=0, green=[0, 0])
    seen = board({"bids": [first, second, predict("green", green=1)]})
    assert seen["holdings"][0]["white"] == 4
    assert [(e["path"], e["code"]) for e in seen["errors"]] == [
        ("bids[2].taken_from.green", "no_white_left")]
    assert seen["take_from"]["green"] == []


def test_a_prediction_cannot_take_more_seals_of_a_colour_than_exist() -> None:
    raw = entry([predict(*["yellow"] * 4, yellow=1), predict(), predict(), predict()],
                [[], [], [], []], [0, 0, 0, 0])
    assert problems(raw) == {("bids[0].seals", "exceeds_supply")}


def test_the_holdings_of_later_bids_are_not_checked_after_a_bid_breaks_a_rule() -> None:
    raw = entry([predict("yellow", yellow=1), predict("yellow", yellow=3), predict(), predict()],
                [["blue"], [], [], []], [0, 0, 0, 0])
    assert problems(raw) == {("bids[0].taken_from.yellow", "middle_has_colour")}


# The saboteur


def test_at_most_one_player_is_the_saboteur() -> None:
    raw = entry([SABOTEUR, SABOTEUR, predict(), predict()], [None, None, [], []], [0, 0, 0, 0])
    assert problems(raw) == {("bids[1].saboteur", "saboteur_taken")}
    assert problems({**raw, "first_bidder": 1}) == {("bids[0].saboteur", "saboteur_taken")}


def test_the_saboteur_takes_no_seals() -> None:
    raw = entry([{"saboteur": True, "seals": []}, predict(), predict(), predict()],
                [None, [], [], []], [0, 0, 0, 0])
    assert problems(raw) == {("bids[0].seals", "saboteur_takes_no_seals")}


def test_a_prediction_may_be_empty_and_is_exact_when_no_trick_is_won() -> None:
    setup = table()
    raw = entry([predict(), SABOTEUR, predict("red"), predict()], [[], None, ["red"], []],
                [0, 0, 0, 0])
    result = GAME.score_round(GAME.read_entry(raw, setup, []), setup)
    assert result.penalty == (0, 4, 2, 0)
    assert result.exact == (True, False, False, True)


# Seals left and black seals


def test_the_seals_left_were_held_after_the_predictions() -> None:
    assert problems(example(remaining=[["white", "white"], [], None, ["yellow"]])) == {
        ("remaining[0][1]", "not_held")}


def test_a_seal_taken_away_by_another_player_cannot_be_left() -> None:
    assert problems(example(remaining=[["blue"], [], None, ["yellow"]], tricks=None)) == {
        ("remaining[0][0]", "not_held")}


def test_the_saboteur_has_no_seals_left() -> None:
    assert problems(example(remaining=[["white"], [], ["red"], ["yellow"]])) == {
        ("remaining[2]", "saboteur_holds_no_seals")}
    assert problems(example(remaining=[["white"], [], [], ["yellow"]])) == set()


def test_a_predicting_players_seals_left_are_needed() -> None:
    assert problems(example(remaining=[["white"], [], None, None])) == {
        ("remaining[3]", "seals_left_needed")}


def test_at_most_six_black_seals_are_taken() -> None:
    raw = example(black=[0, 4, 0, 3], tricks=None)
    assert problems(raw) == {("black", "too_many_black")}


def test_the_saboteur_never_takes_a_black_seal() -> None:
    assert problems(example(black=[0, 1, 1, 0], tricks=None)) == {
        ("black[2]", "saboteur_takes_no_black")}


def test_a_player_still_holding_a_white_seal_never_took_a_black_one() -> None:
    assert problems(example(black=[1, 1, 0, 0], tricks=None)) == {
        ("black[0]", "black_while_holding_white")}


def test_seals_given_back_and_black_seals_cannot_make_more_than_15_tricks() -> None:
    many = predict(*["red"] * 5, *["yellow"] * 3, *["green"] * 3)
    raw = entry([many, predict(*["blue"] * 3, *["violet"] * 3), predict(), predict()],
                [[], [], [], []], [0, 0, 0, 0])
    assert problems(raw) == {("remaining", "too_many_tricks")}


# Tricks


def test_tricks_are_optional() -> None:
    assert problems(example(tricks=None)) == set()


def test_the_tricks_add_up_to_15() -> None:
    assert problems(example(tricks=[2, 4, 8, 0])) == {("tricks", "tricks_total")}


def test_seals_given_back_and_black_seals_equal_the_tricks_won() -> None:
    assert problems(example(tricks=[3, 3, 9, 0])) == {
        ("tricks[0]", "tricks_mismatch"), ("tricks[1]", "tricks_mismatch")}


def test_fewer_black_seals_than_unpaid_tricks_only_when_all_six_are_out() -> None:
    assert problems(example(black=[0, 1, 0, 5], tricks=[2, 4, 2, 7])) == set()
    assert problems(example(black=[0, 1, 0, 4], tricks=[2, 4, 2, 7])) == {
        ("tricks[3]", "tricks_mismatch")}
    assert problems(example(black=[0, 1, 0, 5], tricks=[2, 3, 3, 7])) == {
        ("tricks[1]", "tricks_mismatch")}


# Scoring


def test_a_predicting_player_pays_2_per_coloured_4_per_white_and_3_per_black_seal() -> None:
    raw = entry([predict("red", "blue"), predict("blue", "blue", "blue", blue=0), predict(),
                 predict()],
                [["white", "red"], [], [], []], [0, 0, 2, 1])
    assert penalties(raw) == (6, 0, 6, 3)


def test_the_saboteur_pays_the_base_less_the_black_seals_the_others_took() -> None:
    assert penalties(example()) == (4, 3, 3, 2)


def test_the_saboteur_pays_nothing_once_the_others_took_as_many_black_seals_as_the_base() -> None:
    assert penalties(example(black=[0, 1, 0, 5], tricks=None))[2] == 0


def test_with_three_players_the_saboteur_base_may_be_5() -> None:
    raw = entry([SABOTEUR, predict(), predict()], [None, [], []], [0, 0, 1])
    assert penalties(raw, table(3, saboteur_base=5)) == (4, 0, 3)
    assert penalties(raw, table(3)) == (3, 0, 3)


def test_a_prediction_is_exact_with_no_seal_left_and_no_black_seal() -> None:
    setup = table()
    result = GAME.score_round(GAME.read_entry(example(
        remaining=[["white"], [], None, []], black=[0, 0, 0, 0], tricks=None), setup, []), setup)
    assert result.exact == (False, True, False, True)
    assert result.as_json() == {"penalty": [4, 0, 4, 0], "exact": [False, True, False, True],
                                "saboteur": 2}


# The match


def test_the_match_ends_after_the_chosen_number_of_rounds() -> None:
    setup = set_up(GAME, list(FOUR), {"rounds": 2})
    rounds = [keeping([], ["red"], [], []), keeping(["red"], [], [], ["blue"])]
    assert not fold_match(GAME, setup, rounds[:1]).finished
    assert fold_match(GAME, setup, rounds).finished
    with pytest.raises(MatchFinished):
        fold_match(GAME, setup, [*rounds, keeping([], [], [], [])])


def test_the_fewest_penalty_points_win() -> None:
    setup = set_up(GAME, list(FOUR), {"rounds": 1})
    verdict = fold_match(GAME, setup, [keeping([], ["red"], ["red", "red"], ["blue"])]).verdict
    assert verdict.winners == (0,)
    assert verdict.reason is not None
    assert verdict.reason.code == "fewest_penalty_points"
    assert verdict.reason.message == "Ann has the fewest penalty points (0)."
    assert [(line.name, line.rank, dict(line.totals)) for line in verdict.standings] == [
        ("Ann", 1, {"penalty": 0, "exact": 1}), ("Bob", 2, {"penalty": 2, "exact": 0}),
        ("Dan", 2, {"penalty": 2, "exact": 0}), ("Cid", 4, {"penalty": 4, "exact": 0})]


def test_a_tie_on_the_fewest_penalty_points_is_a_shared_win() -> None:
    setup = set_up(GAME, [*FOUR, "Eric"], {"rounds": 1})
    verdict = fold_match(GAME, setup, [keeping(["red"], [], ["red"], ["blue"], [])]).verdict
    assert verdict.winners == (1, 4)
    assert [line.rank for line in verdict.standings] == [1, 1, 3, 3, 3]
    assert verdict.reason is not None
    assert verdict.reason.code == "shared_fewest_penalty_points"
    assert verdict.reason.message == "Bob and Eric share the win on 0 penalty points."
    three = fold_match(GAME, setup, [keeping([], [], ["red"], ["blue"], [])]).verdict
    assert three.reason is not None
    assert three.reason.message == "Ann, Bob and Eric share the win on 0 penalty points."


def test_an_unfinished_match_has_standings_but_no_winner() -> None:
    setup = set_up(GAME, list(FOUR), {})
    folded = fold_match(GAME, setup, [example()])
    assert not folded.finished
    assert folded.verdict.winners == ()
    assert folded.verdict.reason is None
    assert folded.rounds[0].totals.as_json() == {"penalty": [4, 3, 3, 2], "exact": [0, 0, 0, 0],
                                                 "rounds": 1}


def test_the_score_share_is_the_table_average_penalty_less_the_seats_penalty() -> None:
    setup = set_up(GAME, list(FOUR), {})
    totals = fold_match(GAME, setup, [example()]).rounds[-1].totals
    assert GAME.score_share(totals, setup) == (-1.0, 0.0, 0.0, 1.0)


def test_an_invalid_round_in_a_match_names_its_round_number() -> None:
    setup = set_up(GAME, list(FOUR), {})
    with pytest.raises(InvalidEntry) as raised:
        fold_match(GAME, setup, [example(), example(first_bidder=0, black=[0, 0, 1, 0])])
    assert raised.value.round_number == 2


# Shape of an entry


@pytest.mark.parametrize(("raw", "path", "code"), [
    pytest.param([], "", "not_an_object", id="entry is an object"),
    pytest.param(example(colour=1), "colour", "unknown_field", id="unknown entry field"),
    pytest.param({"remaining": [], "black": []}, "bids", "missing", id="bids needed"),
    pytest.param(example(bids=BIDS[:3]), "bids", "wrong_length", id="one bid per seat"),
    pytest.param(example(bids=[*BIDS[:3], None]), "bids[3]", "not_an_object", id="bid object"),
    pytest.param(example(bids=[*BIDS[:3], {"seals": [], "colour": 1}]), "bids[3].colour",
                 "unknown_field", id="unknown bid field"),
    pytest.param(example(bids=[*BIDS[:3], {}]), "bids[3].seals", "missing", id="seals needed"),
    pytest.param(example(bids=[*BIDS[:3], {"seals": "red"}]), "bids[3].seals", "not_a_list",
                 id="seals list"),
    pytest.param(example(bids=[*BIDS[:3], predict("white")]), "bids[3].seals[0]",
                 "unknown_choice", id="seal colour"),
    pytest.param(example(bids=[*BIDS[:2], {"saboteur": "yes"}, BIDS[3]]), "bids[2].saboteur",
                 "not_a_boolean", id="saboteur flag"),
    pytest.param(example(bids=[*BIDS[:3], predict("red", white=0)]), "bids[3].taken_from.white",
                 "unknown_field", id="taken_from colours"),
    pytest.param(example(bids=[*BIDS[:3], {"seals": [], "taken_from": 1}]), "bids[3].taken_from",
                 "not_an_object", id="taken_from object"),
    pytest.param(example(bids=[BIDS[0], predict("blue", "blue", "blue", blue=4), *BIDS[2:]]),
                 "bids[1].taken_from.blue", "too_large", id="taken_from seat"),
    pytest.param(example(bids=[BIDS[0], predict("blue", "blue", "blue", blue=["0"]), *BIDS[2:]]),
                 "bids[1].taken_from.blue[0]", "not_an_integer", id="taken_from list seat"),
    pytest.param(example(first_bidder=4), "first_bidder", "too_large", id="first bidder seat"),
    pytest.param({"bids": BIDS, "black": [0] * 4}, "remaining", "missing", id="remaining needed"),
    pytest.param(example(remaining=[["white"], [], None]), "remaining", "wrong_length",
                 id="remaining per seat"),
    pytest.param(example(remaining=[["white"], "", None, ["yellow"]]), "remaining[1]",
                 "not_a_list", id="remaining list"),
    pytest.param(example(remaining=[["white"], ["black"], None, ["yellow"]]), "remaining[1][0]",
                 "unknown_choice", id="remaining kinds"),
    pytest.param({"bids": BIDS, "remaining": []}, "black", "missing", id="black needed"),
    pytest.param(example(black=[0, 0, 0, 7]), "black[3]", "too_large", id="black per seat"),
    pytest.param(example(black=None), "black", "not_a_list", id="black list"),
    pytest.param(example(tricks=[2, 4, 9, 16]), "tricks[3]", "too_large", id="tricks per seat"),
])
def test_an_entry_of_the_wrong_shape_names_the_field(raw: Any, path: str, code: str) -> None:
    assert (path, code) in problems(raw, table())


# The guide for a round being entered


def test_the_guide_of_an_empty_round_shows_the_full_supply_and_the_first_bidder() -> None:
    seen = board({}, round_index=2)
    assert seen["round"] == 3
    assert seen["next_bidder"] == 2
    assert seen["middle"] == {"red": 5, "yellow": 3, "green": 3, "blue": 3, "violet": 3,
                              "white": 4, "black": 6}
    assert seen["saboteur_available"] is True
    assert seen["take_from"] == {}
    assert seen["result"] is None


def test_the_guide_shows_the_middle_and_each_seats_seals_after_the_bids_so_far() -> None:
    seen = board({"bids": BIDS[:2]})
    assert seen["next_bidder"] == 2
    assert seen["middle"]["red"] == 3
    assert seen["middle"]["blue"] == 0
    assert seen["holdings"][0] == {"red": 2, "yellow": 0, "green": 0, "blue": 0, "violet": 0,
                                   "white": 1}


def test_the_guide_says_whether_the_saboteur_is_still_available() -> None:
    seen = board({"bids": BIDS[:3]})
    assert (seen["saboteur"], seen["saboteur_available"]) == (2, False)


def test_the_guide_names_who_may_be_taken_from_for_a_colour_that_is_out() -> None:
    seen = board({"bids": [predict("blue", "blue"), predict("blue", "yellow"), SABOTEUR]})
    assert seen["take_from"] == {"blue": [0, 1]}


def test_the_guide_lists_the_errors_so_far_without_raising() -> None:
    seen = board({"bids": [predict("yellow"), predict("yellow", yellow=0)], "black": "none"})
    assert [(e["path"], e["code"]) for e in seen["errors"]] == [
        ("bids[1].taken_from.yellow", "middle_has_colour"), ("black", "not_a_list")]
    assert (seen["next_bidder"], seen["bids_complete"]) == (None, False)
    assert board([])["errors"][0]["code"] == "not_an_object"


def test_the_guide_flags_a_bid_entered_before_an_earlier_seat_has_bid() -> None:
    seen = board({"bids": [predict(), None, predict("red")]})
    assert seen["next_bidder"] == 1
    assert [(e["path"], e["code"], e["params"]) for e in seen["errors"]] == [
        ("bids[2]", "out_of_turn", {"waiting_for": 1, "seat": 2})]


def test_the_guide_counts_the_black_seals_taken_and_scores_a_complete_round() -> None:
    seen = board(example())
    assert (seen["next_bidder"], seen["bids_complete"]) == (None, True)
    assert seen["middle"]["black"] == 5
    assert seen["result"] == {"penalty": [4, 3, 3, 2], "exact": [False] * 4, "saboteur": 2}


def test_the_guide_waits_for_seals_left_still_to_be_entered() -> None:
    seen = board(example(remaining=[["white"], None, None, None]))
    assert seen["errors"] == []
    assert seen["result"] is None


def test_the_guide_lists_params_that_are_tuples_as_lists() -> None:
    seen = board({"bids": [predict("orange")]})
    assert seen["errors"][0]["params"]["choices"] == ["blue", "green", "red", "violet", "yellow"]


# How the game presents itself


def test_the_registry_knows_the_game_by_its_id() -> None:
    assert game_by_id("seven-seals") is GAME
    assert (GAME.name, GAME.min_players, GAME.max_players) == ("The Seven Seals", 3, 5)


def test_the_description_gives_seals_supply_cards_tricks_and_options() -> None:
    described: Any = GAME.describe()
    assert described["colours"] == ["red", "yellow", "green", "blue", "violet"]
    assert described["supply"] == {"red": 5, "yellow": 3, "green": 3, "blue": 3, "violet": 3,
                                   "white": 4, "black": 6}
    assert described["cards"] == {"3": {"values": [1, 9], "count": 45},
                                  "4": {"values": [1, 12], "count": 60},
                                  "5": {"values": [1, 15], "count": 75}}
    assert described["tricks"] == 15
    assert described["rounds"] == {"3": 6, "4": 4, "5": 5}
    assert [(o["name"], o["default"]) for o in described["options"]] == [
        ("rounds", None), ("saboteur_base", 4)]
    assert all(o["description"] for o in described["options"])
