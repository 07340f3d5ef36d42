"""Sea Change: every rule and Decision of rules.md §1, and every validation rule (path and code)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from scoring.errors import InvalidEntry, InvalidOptions, MatchFinished
from scoring.game import Setup
from scoring.games._sea_change_deck import SUITS, deck_of
from scoring.games.sea_change import (
    GAME,
    RoundResult,
    Totals,
    pile_points,
    victory_points,
)
from scoring.match import FoldedMatch, fold_match, set_up
from scoring.registry import game_by_id

# The game as the API drives it: raw JSON in, JSON-shaped values out.
SEA: Any = GAME
NAMES = ("Ann", "Daniel", "Eric", "Warren", "Maya", "Lena", "Tom", "Ida")


def match(players: int, **options: Any) -> Setup[Any]:
    return set_up(GAME, list(NAMES[:players]), options)


def piles(
    setup: Setup[Any], tricks: Sequence[int], holding: Mapping[int, Sequence[str]] | None = None,
    suits: Sequence[str] | None = None,
) -> list[list[str]]:
    """The whole deck split into piles of ``tricks[side]`` tricks; ``holding`` cards go first."""
    table = setup.options.table
    rule = table.rule
    holding = holding or {}
    in_play = tuple(suits or setup.options.suits or SUITS[: rule.suit_count])
    held = {card for cards in holding.values() for card in cards}
    rest = [card for card in deck_of(rule.players, in_play).ids if card not in held]
    dealt = []
    for side, count in enumerate(tricks):
        pile = list(holding.get(side, ()))
        need = count * rule.cards_per_trick - len(pile)
        dealt.append(pile + rest[:need])
        rest = rest[need:]
    assert not rest
    return dealt


def problems(setup: Setup[Any], raw: Any, earlier: Sequence[Any] = ()) -> set[tuple[str, str]]:
    with pytest.raises(InvalidEntry) as invalid:
        SEA.read_entry(raw, setup, list(earlier))
    return {(e.path, e.code) for e in invalid.value.errors}


def option_problems(players: int, **options: Any) -> set[tuple[str, str]]:
    with pytest.raises(InvalidOptions) as invalid:
        match(players, **options)
    return {(e.path, e.code) for e in invalid.value.errors}


def points(scores: list[Any], trump_zero: int, **more: Any) -> dict[str, Any]:
    return {"final_trump": "blue", "scores": scores, "trump_zero": trump_zero, **more}


def fold(setup: Setup[Any], entries: Sequence[Any]) -> FoldedMatch:
    return fold_match(GAME, setup, list(entries))


def result(setup: Setup[Any], raw: Any) -> RoundResult:
    return fold(setup, [raw]).rounds[0].result  # type: ignore[no-any-return]


# --- the game and its description ------------------------------------------------------------


def test_the_registry_finds_sea_change_by_its_id() -> None:
    assert game_by_id("sea-change") is GAME
    assert (GAME.name, GAME.min_players, GAME.max_players) == ("Sea Change", 1, 8)


def test_describe_tells_a_client_the_cards_decks_tables_and_options() -> None:
    described = SEA.describe()
    assert described["id"] == "sea-change"
    assert described["suits"] == ["blue", "green", "red", "purple", "yellow"]
    assert len(described["card_ids"]) == 80
    assert "purple-10" in described["card_ids"]
    assert [o["name"] for o in described["options"]] == ["target_vp", "teams", "suits"]
    assert all(o["description"] for o in described["options"])
    assert described["decks"]["8"]["checksum"] == 20
    assert described["decks"]["2"]["tricks"] == 15
    assert described["card_points"][8] == {"value": 8, "points": -4}
    assert described["trump_zero_points"] == 5
    assert set(described["entry_modes"]) == {"cards", "points"}


@pytest.mark.parametrize(
    ("players", "suits", "values", "cards", "tricks", "per_trick", "checksum"),
    [
        (1, 3, [0, *range(4, 13)], 30, 10, 3, 8),
        (2, 3, [0, *range(4, 13)], 30, 15, 2, 8),
        (3, 3, [0, *range(4, 13)], 30, 10, 3, 8),
        (4, 4, [0, *range(4, 13)], 40, 10, 4, 9),
        (5, 5, [0, *range(4, 13)], 50, 10, 5, 10),
        (6, 5, [0, *range(3, 14)], 60, 10, 6, 10),
        (7, 5, [0, *range(2, 15)], 70, 10, 7, 15),
        (8, 5, list(range(16)), 80, 10, 8, 20),
    ],
)
def test_the_deck_tricks_and_checksum_follow_the_player_count(
    players: int, suits: int, values: list[int], cards: int, tricks: int, per_trick: int,
    checksum: int,
) -> None:
    deck = SEA.describe()["decks"][str(players)]
    assert (deck["suits_in_play"], deck["values"], deck["cards"], deck["tricks"],
            deck["cards_per_trick"], deck["checksum"]) == (
        suits, values, cards, tricks, per_trick, checksum)


# --- card points ------------------------------------------------------------------------------


def test_the_rule_sheet_example_scores_three_points_for_eric() -> None:
    assert pile_points(["yellow-4", "yellow-10", "purple-10", "yellow-12"], "purple") == 3
    setup = match(4, suits=["yellow", "purple", "blue", "red"])
    eric = ["yellow-4", "yellow-10", "purple-10", "yellow-12"]
    round_ = {"final_trump": "purple",
              "captured": piles(setup, [3, 2, 1, 4], holding={2: eric})}
    assert result(setup, round_).scores[2] == 3


@pytest.mark.parametrize(
    ("value", "worth"),
    [(1, 0), (2, -1), (3, 2), (4, 0), (5, 0), (6, 0), (7, 0), (8, -4), (9, 2), (10, 1), (11, 1),
     (12, 1), (13, -2), (14, 2), (15, 1)],
)
def test_each_card_scores_the_points_of_its_value(value: int, worth: int) -> None:
    assert pile_points([f"green-{value}"], "blue") == worth


def test_only_the_zero_of_the_final_trump_scores_five() -> None:
    assert pile_points(["red-0"], "red") == 5
    assert pile_points(["red-0", "blue-0"], "blue") == 5
    assert pile_points(["red-0"], "blue") == 0


def test_a_card_round_scores_every_pile_and_finds_the_trump_zero() -> None:
    setup = match(3, suits=["blue", "green", "red"])
    scored = result(setup, {"final_trump": "green",
                            "captured": piles(setup, [4, 3, 3], holding={1: ["green-0"]})})
    assert sum(scored.scores) == 8
    assert scored.trump_zero == 1
    assert scored.cards == (12, 9, 9)


# --- victory points ---------------------------------------------------------------------------


def test_the_highest_round_score_gets_one_victory_point() -> None:
    assert result(match(3), points([5, 2, 1], 0)).vp == (1, 0, 0)


def test_sides_tied_for_the_highest_score_all_get_a_victory_point() -> None:
    assert result(match(3), points([4, 4, 0], 0)).vp == (1, 1, 0)


def test_the_highest_score_gets_the_victory_point_even_when_negative() -> None:
    table = match(3).options.table
    assert victory_points((-2, -2, -4), False, table) == (1, 1, 0)


def test_the_round_result_names_scores_vp_cards_and_the_trump_zero() -> None:
    assert result(match(3), points([5, 2, 1], 2)).as_json() == {
        "scores": [5, 2, 1], "vp": [1, 0, 0], "cards": None, "trump_zero": 2}
    with_tricks = result(match(3), points([5, 2, 1], 2, tricks=[5, 3, 2]))
    assert with_tricks.as_json()["cards"] == [15, 9, 6]


# --- solo ---------------------------------------------------------------------------------------


def test_solo_you_get_the_vp_with_a_higher_score_and_an_eight() -> None:
    scored = result(match(1), points([6, 2], 0, has_eight=True))
    assert scored.vp == (1, 0)


def test_solo_the_ai_gets_the_vp_without_an_eight_in_your_pile() -> None:
    assert result(match(1), points([6, 2], 0, has_eight=False)).vp == (0, 1)


def test_solo_the_ai_gets_the_vp_on_equal_scores() -> None:
    assert result(match(1), points([4, 4], 0, has_eight=True)).vp == (0, 1)


def test_solo_card_mode_looks_for_an_eight_in_your_pile() -> None:
    setup = match(1, suits=["blue", "green", "red"])
    # Your pile: blue-0 (trump, +5), 9, 10, 11, 12 and two 4s: 11 points but no 8.
    no_eight = ["blue-0", "blue-9", "blue-10", "blue-11", "blue-12", "blue-4", "green-4",
                "red-4", "red-5"]
    scored = result(setup, {"final_trump": "blue", "captured": piles(setup, [3, 7],
                                                                     holding={0: no_eight})})
    assert scored.scores[0] > scored.scores[1]
    assert scored.vp == (0, 1)
    with_eight = [*no_eight[:-1], "red-8"]
    scored = result(setup, {"final_trump": "blue", "captured": piles(setup, [3, 7],
                                                                     holding={0: with_eight})})
    assert scored.scores[0] > scored.scores[1]
    assert scored.vp == (1, 0)


def test_solo_standings_list_you_and_the_ai_and_the_ai_can_win() -> None:
    setup = match(1)
    lost = points([2, 6], 1, has_eight=True)
    folded = fold(setup, [lost, lost, lost])
    assert folded.finished
    assert folded.verdict.winners == (1,)
    assert folded.verdict.reason is not None
    assert folded.verdict.reason.message == "AI reached 3 VP."
    assert [(s.name, s.rank, s.seats) for s in folded.verdict.standings] == [
        ("AI", 1, ()), ("Ann", 2, (0,))]
    assert SEA.score_share(folded.rounds[-1].totals, setup) == (0.0,)


def test_solo_points_mode_needs_has_eight() -> None:
    assert problems(match(1), points([6, 2], 0)) == {("has_eight", "missing")}
    assert problems(match(1), points([6, 2], 0, has_eight="yes")) == {
        ("has_eight", "not_a_boolean")}


def test_has_eight_belongs_to_solo_only() -> None:
    assert problems(match(3), points([5, 2, 1], 0, has_eight=True)) == {
        ("has_eight", "unknown_field")}


def test_solo_piles_are_whole_tricks_of_three() -> None:
    setup = match(1, suits=["blue", "green", "red"])
    dealt = piles(setup, [4, 6])
    dealt[1].append(dealt[0].pop())
    assert problems(setup, {"final_trump": "red", "captured": dealt}) == {
        ("captured[0]", "pile_not_whole_tricks"), ("captured[1]", "pile_not_whole_tricks")}


# --- two players --------------------------------------------------------------------------------


def test_two_players_take_tricks_of_two_cards_fifteen_per_round() -> None:
    setup = match(2, suits=["blue", "green", "red"])
    scored = result(setup, {"final_trump": "red", "captured": piles(setup, [8, 7])})
    assert scored.cards == (16, 14)
    assert result(setup, points([5, 3], 0, tricks=[8, 7])).cards == (16, 14)
    assert problems(setup, points([5, 3], 0, tricks=[5, 5])) == {("tricks", "tricks_total")}


# --- teams --------------------------------------------------------------------------------------


def test_teams_are_one_side_each_named_by_their_members() -> None:
    setup = match(6, teams=[[0, 2, 4], [1, 3, 5]])
    folded = fold(setup, [points([6, 4], 1)])
    assert [s.name for s in folded.verdict.standings] == ["Ann & Eric & Maya",
                                                          "Daniel & Warren & Lena"]
    line = folded.verdict.standings[0].as_json()
    assert (line["team"], line["seats"], line["vp"], line["points"]) == (0, [0, 2, 4], 1, 6)


def test_a_team_pile_holds_whole_tricks_of_one_card_per_player() -> None:
    setup = match(4, suits=["blue", "green", "red", "purple"], teams=[[0, 2], [1, 3]])
    assert result(setup, {"final_trump": "red", "captured": piles(setup, [6, 4])}).cards == (
        24, 16)
    dealt = piles(setup, [6, 4])
    dealt[1] += dealt[0][:2]
    del dealt[0][:2]
    assert problems(setup, {"final_trump": "red", "captured": dealt}) == {
        ("captured[0]", "pile_not_whole_tricks"), ("captured[1]", "pile_not_whole_tricks")}


def test_with_teams_the_default_target_is_team_size_plus_one() -> None:
    assert match(6, teams=[[0, 2, 4], [1, 3, 5]]).options.target_vp == 4
    assert match(8, teams=[[0, 4], [1, 5], [2, 6], [3, 7]]).options.target_vp == 3
    assert match(6, teams=[[0, 3], [1, 4], [2, 5]], target_vp=5).options.target_vp == 5


def test_team_members_share_their_teams_score_share() -> None:
    setup = match(4, teams=[[0, 2], [1, 3]])
    folded = fold(setup, [points([6, 3], 0), points([6, 3], 0), points([3, 6], 1)])
    assert SEA.score_share(folded.rounds[-1].totals, setup) == (2 / 3, 1 / 3, 2 / 3, 1 / 3)


def test_teams_must_sit_alternately() -> None:
    assert option_problems(4, teams=[[0, 1], [2, 3]]) == {
        ("options.teams[0]", "teams_not_alternating"),
        ("options.teams[1]", "teams_not_alternating")}


def test_teams_must_have_equal_sizes() -> None:
    assert option_problems(6, teams=[[0, 2, 4, 1], [3, 5]]) == {("options.teams", "unequal_teams")}


def test_a_team_has_at_least_two_members() -> None:
    assert option_problems(4, teams=[[0, 2, 1], [3]]) == {("options.teams[1]", "too_short"),
                                                          ("options.teams", "seat_without_team")}


def test_there_are_at_least_two_teams() -> None:
    assert option_problems(4, teams=[[0, 1, 2, 3]]) == {("options.teams", "too_few_teams")}


def test_every_seat_is_in_exactly_one_team() -> None:
    assert option_problems(4, teams=[[0, 2], [2, 1]]) == {
        ("options.teams[1][0]", "seat_twice"), ("options.teams", "seat_without_team")}
    assert option_problems(4, teams=[[0, 2], [1, 4]]) == {
        ("options.teams[1][1]", "too_large"), ("options.teams", "seat_without_team")}


def test_teams_need_four_players() -> None:
    assert option_problems(3, teams=[[0, 1], [2]]) == {("options.teams", "teams_need_four_players")}


def test_teams_must_be_a_list_of_lists() -> None:
    assert option_problems(4, teams="0,2/1,3") == {("options.teams", "not_a_list")}
    assert option_problems(4, teams=[[0, 2], 13]) == {("options.teams[1]", "not_a_list"),
                                                      ("options.teams", "seat_without_team")}


# --- options ------------------------------------------------------------------------------------


def test_the_default_target_is_three_and_any_whole_number_from_one_to_ten_may_be_agreed() -> None:
    assert match(3).options.target_vp == 3
    assert match(3, target_vp=10).options.target_vp == 10
    assert option_problems(3, target_vp=0) == {("options.target_vp", "too_small")}
    assert option_problems(3, target_vp=11) == {("options.target_vp", "too_large")}
    assert option_problems(3, target_vp="3") == {("options.target_vp", "not_an_integer")}


def test_unknown_options_are_refused() -> None:
    assert option_problems(3, rounds=5) == {("options.rounds", "unknown_field")}


def test_every_option_problem_is_reported_at_once() -> None:
    assert option_problems(6, rounds=5, teams=[[0, 1, 2], [3, 4, 5]], suits=["red"],
                           target_vp=0) == {
        ("options.rounds", "unknown_field"), ("options.teams[0]", "teams_not_alternating"),
        ("options.teams[1]", "teams_not_alternating"), ("options.suits", "wrong_length"),
        ("options.target_vp", "too_small")}


def test_options_come_back_with_every_default_filled_in() -> None:
    assert SEA.options_json(match(3).options) == {"target_vp": 3, "teams": None, "suits": None}
    assert SEA.options_json(match(5).options) == {"target_vp": 3, "teams": None,
                                                   "suits": list(SUITS)}
    assert SEA.options_json(match(4, teams=[[0, 2], [1, 3]], suits=["red", "blue", "green",
                                                                      "yellow"]).options) == {
        "target_vp": 3, "teams": [[0, 2], [1, 3]], "suits": ["blue", "green", "red", "yellow"]}


def test_the_suits_option_lists_as_many_suits_as_the_player_count_uses() -> None:
    assert option_problems(3, suits=["blue", "red"]) == {("options.suits", "wrong_length")}
    assert option_problems(5, suits=["blue", "red", "green"]) == {("options.suits", "wrong_length")}
    assert option_problems(3, suits=["blue", "red", "pink"]) == {("options.suits[2]",
                                                                 "unknown_choice")}
    assert option_problems(3, suits=["blue", "red", "red"]) == {("options.suits[2]", "suit_twice")}


# --- suits in play ------------------------------------------------------------------------------


def test_the_suits_in_play_are_inferred_from_the_first_round_entered_card_by_card() -> None:
    setup = match(3)
    first = {"final_trump": "red", "captured": piles(setup, [4, 3, 3],
                                                     suits=["red", "purple", "yellow"])}
    entry = SEA.read_entry(first, setup, [])
    assert entry.suits == ("red", "purple", "yellow")
    again = {"final_trump": "yellow", "captured": piles(setup, [2, 5, 3],
                                                        suits=["red", "purple", "yellow"])}
    assert SEA.read_entry(again, setup, [entry]).suits == entry.suits


def test_the_suits_must_stay_the_same_in_later_rounds() -> None:
    setup = match(3)
    entry = SEA.read_entry({"final_trump": "red", "captured": piles(
        setup, [4, 3, 3], suits=["red", "purple", "yellow"])}, setup, [])
    changed = {"final_trump": "red", "captured": piles(setup, [4, 3, 3],
                                                       suits=["red", "purple", "blue"])}
    found = problems(setup, changed, [entry])
    assert ("captured", "suits_changed") in found
    assert ("captured[0][0]", "not_in_deck") in found  # blue-0, first in deck order
    assert ("captured", "missing_card") in found


def test_a_points_round_does_not_fix_the_suits() -> None:
    setup = match(3)
    earlier = [SEA.read_entry(points([5, 2, 1], 0, final_trump="green"), setup, [])]
    card_round = {"final_trump": "red", "captured": piles(setup, [4, 3, 3],
                                                          suits=["red", "purple", "yellow"])}
    assert SEA.read_entry(card_round, setup, earlier).suits == ("red", "purple", "yellow")


def test_the_final_trump_must_be_a_suit_in_play() -> None:
    setup = match(3, suits=["blue", "green", "red"])
    assert problems(setup, points([5, 2, 1], 0, final_trump="yellow")) == {
        ("final_trump", "suit_not_in_play")}
    inferred = match(3)
    card_round = {"final_trump": "blue", "captured": piles(inferred, [4, 3, 3],
                                                           suits=["red", "purple", "yellow"])}
    assert problems(inferred, card_round) == {("final_trump", "suit_not_in_play")}


def test_the_final_trump_is_required_and_a_suit() -> None:
    setup = match(3)
    assert problems(setup, {"scores": [5, 2, 1], "trump_zero": 0}) == {("final_trump", "missing")}
    assert problems(setup, points([5, 2, 1], 0, final_trump="pink")) == {
        ("final_trump", "unknown_choice")}


def test_cards_of_too_many_suits_are_refused() -> None:
    setup = match(3)
    dealt = piles(setup, [4, 3, 3], suits=["red", "purple", "yellow"])
    dealt[0][0] = "blue-4"  # instead of red-0
    found = problems(setup, {"final_trump": "red", "captured": dealt})
    assert found == {("captured", "too_many_suits"), ("captured[0][0]", "not_in_deck"),
                     ("captured", "missing_card")}


def test_cards_of_too_few_suits_are_refused() -> None:
    setup = match(3)
    found = problems(setup, {"final_trump": "red", "captured": [["red-4", "red-5", "red-6"],
                                                                 [], []]})
    assert found == {("captured", "too_few_suits")}


def test_with_five_or_more_players_all_suits_are_in_play() -> None:
    setup = match(5)
    assert setup.options.suits == SUITS
    assert sum(result(setup, {"final_trump": "yellow",
                              "captured": piles(setup, [2, 2, 2, 2, 2])}).scores) == 10


# --- card mode validation ------------------------------------------------------------------------


def test_every_card_of_the_deck_is_in_exactly_one_pile() -> None:
    setup = match(3, suits=["blue", "green", "red"])
    dealt = piles(setup, [4, 3, 3])
    dealt[2][5] = dealt[0][1]  # blue-4 twice, so the card dealt[2][5] is missing
    missing = piles(setup, [4, 3, 3])[2][5]
    with pytest.raises(InvalidEntry) as invalid:
        SEA.read_entry({"final_trump": "red", "captured": dealt}, setup, [])
    found = {(e.path, e.code): e.params for e in invalid.value.errors}
    assert found == {("captured[2][5]", "duplicate_card"): {"card": "blue-4",
                                                             "first": "captured[0][1]",
                                                             "first_side": 0},
                     ("captured", "missing_card"): {"card": missing}}


def test_every_duplicate_is_reported() -> None:
    setup = match(3, suits=["blue", "green", "red"])
    dealt = piles(setup, [4, 3, 3])
    dealt[1][0] = dealt[2][0] = dealt[0][0]
    found = problems(setup, {"final_trump": "red", "captured": dealt})
    assert {("captured[1][0]", "duplicate_card"),
            ("captured[2][0]", "duplicate_card")} <= found


def test_an_unknown_card_is_refused() -> None:
    setup = match(3, suits=["blue", "green", "red"])
    dealt = piles(setup, [4, 3, 3])
    dealt[1][2] = "blue-16"
    assert ("captured[1][2]", "unknown_card") in problems(setup, {"final_trump": "red",
                                                                  "captured": dealt})


def test_a_card_of_a_value_not_in_this_deck_is_refused() -> None:
    setup = match(3, suits=["blue", "green", "red"])
    dealt = piles(setup, [4, 3, 3])
    dealt[0][3] = "green-2"
    assert ("captured[0][3]", "not_in_deck") in problems(setup, {"final_trump": "red",
                                                                 "captured": dealt})


def test_a_card_of_a_suit_not_in_play_is_refused() -> None:
    setup = match(3, suits=["blue", "green", "red"])
    dealt = piles(setup, [4, 3, 3])
    dealt[0][3] = "yellow-5"
    assert ("captured[0][3]", "not_in_deck") in problems(setup, {"final_trump": "red",
                                                                 "captured": dealt})


def test_a_pile_is_made_of_whole_tricks() -> None:
    setup = match(3, suits=["blue", "green", "red"])
    dealt = piles(setup, [4, 3, 3])
    dealt[1].append(dealt[0].pop())
    assert problems(setup, {"final_trump": "red", "captured": dealt}) == {
        ("captured[0]", "pile_not_whole_tricks"), ("captured[1]", "pile_not_whole_tricks")}


def test_there_is_one_pile_per_side_each_a_list_of_card_ids() -> None:
    setup = match(3, suits=["blue", "green", "red"])
    assert problems(setup, {"final_trump": "red", "captured": piles(setup, [5, 5, 0])[:2]}) == {
        ("captured", "wrong_length")}
    dealt: list[Any] = piles(setup, [4, 3, 3])
    dealt[2] = "all the rest"
    dealt[0][0] = 4
    found = problems(setup, {"final_trump": "red", "captured": dealt})
    assert {("captured[2]", "not_a_list"), ("captured[0][0]", "not_a_string")} <= found
    nested: list[list[Any]] = piles(setup, [4, 3, 3])
    nested[0][0] = ["blue-0"]
    assert ("captured[0][0]", "not_a_string") in problems(
        setup, {"final_trump": "red", "captured": nested})


def test_card_mode_takes_no_points_fields() -> None:
    setup = match(3, suits=["blue", "green", "red"])
    raw = {"final_trump": "red", "captured": piles(setup, [4, 3, 3]), "tricks": [4, 3, 3]}
    assert problems(setup, raw) == {("tricks", "unknown_field")}


# --- entry modes --------------------------------------------------------------------------------


def test_an_entry_is_either_card_mode_or_points_mode() -> None:
    setup = match(3, suits=["blue", "green", "red"])
    both = {**points([5, 2, 1], 0), "captured": piles(setup, [4, 3, 3])}
    assert problems(setup, both) == {("", "both_modes")}
    assert problems(setup, {"final_trump": "red"}) == {("", "no_mode")}
    assert problems(setup, ["red"]) == {("", "not_an_object")}


# --- points mode validation ----------------------------------------------------------------------


def test_points_scores_must_add_up_to_the_checksum() -> None:
    with pytest.raises(InvalidEntry) as invalid:
        SEA.read_entry(points([5, 2, 2], 0), match(3), [])
    (error,) = invalid.value.errors
    assert (error.path, error.code, error.params) == ("scores", "checksum_mismatch",
                                                      {"expected": 8, "actual": 9})


def test_points_mode_needs_one_whole_number_per_side() -> None:
    assert problems(match(3), points([5, 3], 0)) == {("scores", "wrong_length")}
    assert problems(match(3), points([5, None, 3], 0)) == {("scores[1]", "not_an_integer")}


def test_points_mode_needs_the_side_that_captured_the_trump_zero() -> None:
    assert problems(match(3), {"final_trump": "red", "scores": [5, 2, 1]}) == {
        ("trump_zero", "missing")}
    assert problems(match(3), points([5, 2, 1], 3)) == {("trump_zero", "too_large")}


def test_tricks_add_up_to_the_tricks_of_a_round_and_are_never_negative() -> None:
    assert problems(match(3), points([5, 2, 1], 0, tricks=[5, 3, 3])) == {
        ("tricks", "tricks_total")}
    assert problems(match(3), points([5, 2, 1], 0, tricks=[12, -1, -1])) == {
        ("tricks[1]", "too_small"), ("tricks[2]", "too_small")}


def test_a_side_without_a_trick_captured_nothing() -> None:
    assert problems(match(3), points([6, 2, 0], 2, tricks=[6, 4, 0])) == {
        ("trump_zero", "trump_zero_without_tricks")}
    assert problems(match(3), points([6, 0, 2], 0, tricks=[6, 4, 0])) == {
        ("scores[2]", "score_without_tricks")}
    assert problems(match(1), points([0, 8], 1, tricks=[0, 10], has_eight=True)) == {
        ("has_eight", "eight_without_tricks")}


# --- game end -----------------------------------------------------------------------------------


def test_one_side_at_the_target_wins() -> None:
    folded = fold(match(3), [points([5, 2, 1], 0)] * 3)
    assert folded.finished
    assert folded.verdict.winners == (0,)
    assert folded.verdict.reason is not None
    assert (folded.verdict.reason.code, folded.verdict.reason.message) == (
        "target_reached", "Ann reached 3 VP.")


def test_a_match_goes_on_until_a_side_reaches_the_target() -> None:
    folded = fold(match(3), [points([5, 2, 1], 0), points([1, 5, 2], 0)])
    assert not folded.finished
    assert folded.verdict.winners == ()
    assert folded.verdict.reason is None
    assert [s.rank for s in folded.verdict.standings] == [1, 1, 3]


def test_no_round_is_taken_after_the_match_is_decided() -> None:
    with pytest.raises(MatchFinished):
        fold(match(3, target_vp=1), [points([5, 2, 1], 0), points([5, 2, 1], 0)])


TIED_AT_TWO = [points([5, 1, 1, 2], 0), points([1, 5, 1, 2], 0), points([3, 3, 1, 2], 0)]


def test_a_tie_at_the_target_goes_to_the_side_that_captured_the_trump_zero() -> None:
    folded = fold(match(4), [*TIED_AT_TWO, points([3, 3, 2, 1], 1)])
    assert folded.verdict.winners == (1,)
    assert folded.verdict.reason is not None
    assert (folded.verdict.reason.code, folded.verdict.reason.message) == (
        "trump_zero_tiebreak", "Tied on 3 VP; Daniel captured the trump 0.")


def test_otherwise_the_side_that_collected_the_fewest_cards_wins() -> None:
    folded = fold(match(4), [*TIED_AT_TWO, points([3, 3, 2, 1], 2, tricks=[2, 4, 3, 1])])
    assert folded.verdict.winners == (0,)
    assert folded.verdict.reason is not None
    assert (folded.verdict.reason.code, folded.verdict.reason.message) == (
        "fewest_cards_tiebreak", "Tied on 3 VP; Ann collected the fewest cards (8).")


def test_still_tied_the_sides_share_the_win() -> None:
    folded = fold(match(4), [*TIED_AT_TWO, points([3, 3, 2, 1], 2, tricks=[3, 3, 3, 1])])
    assert folded.verdict.winners == (0, 1)
    assert folded.verdict.reason is not None
    assert (folded.verdict.reason.code, folded.verdict.reason.message) == (
        "shared_win",
        "Tied on 3 VP; Ann and Daniel collected the fewest cards (12) and share the win.")
    assert [s.rank for s in folded.verdict.standings] == [1, 1, 3, 3]


def test_a_points_round_ending_in_a_tie_only_cards_can_break_needs_tricks() -> None:
    with pytest.raises(InvalidEntry) as invalid:
        fold(match(4), [*TIED_AT_TWO, points([3, 3, 2, 1], 2)])
    assert invalid.value.round_number == 4
    assert [(e.path, e.code) for e in invalid.value.errors] == [("tricks", "tricks_needed")]


def test_a_tie_the_trump_zero_breaks_needs_no_tricks() -> None:
    assert fold(match(4), [*TIED_AT_TWO, points([3, 3, 2, 1], 0)]).verdict.winners == (0,)


def test_a_card_round_breaks_a_tie_by_the_cards_in_the_piles() -> None:
    setup = match(3, suits=["blue", "green", "red"], target_vp=1)
    # Ann: blue 9 & 10 (3 points); Daniel: green 9 & 10 plus zeros worth nothing; Eric: the rest.
    dealt = piles(setup, [1, 2, 7], holding={0: ["blue-9", "blue-10", "blue-4"],
                                             1: ["green-9", "green-10", "green-4", "green-5",
                                                 "green-6", "green-7"]})
    folded = fold(setup, [{"final_trump": "red", "captured": dealt}])
    last = folded.rounds[0].result
    assert last.scores[:2] == (3, 3)
    assert last.scores[2] < 3
    assert folded.verdict.winners == (0,)
    assert folded.verdict.reason is not None
    assert folded.verdict.reason.message == "Tied on 1 VP; Ann collected the fewest cards (3)."


def test_the_winners_rank_first_even_when_a_tiebreak_beat_a_side_on_the_same_vp() -> None:
    folded = fold(match(4), [*TIED_AT_TWO, points([3, 3, 2, 1], 1)])
    assert [(s.name, s.rank) for s in folded.verdict.standings] == [
        ("Daniel", 1), ("Ann", 2), ("Eric", 3), ("Warren", 3)]


def test_judging_a_tie_without_known_cards_shares_the_win() -> None:
    setup = match(3, target_vp=1)
    last = RoundResult((4, 4, 0), (1, 1, 0), None, 2)
    verdict = SEA.judge(Totals((1, 1, 0), (4, 4, 0)), [last], setup)
    assert verdict.winners == (0, 1)
    assert verdict.reason is not None
    assert verdict.reason.message == "Tied on 1 VP; Ann and Daniel share the win."


# --- standings and score share ------------------------------------------------------------------


def test_standings_show_vp_and_the_sum_of_round_scores() -> None:
    folded = fold(match(3), [points([5, 2, 1], 0), points([1, 5, 2], 1)])
    assert folded.rounds[-1].totals.as_json() == {"vp": [1, 1, 0], "points": [6, 7, 3]}
    assert [s.as_json() for s in folded.verdict.standings] == [
        {"seat": 0, "name": "Ann", "rank": 1, "vp": 1, "points": 6},
        {"seat": 1, "name": "Daniel", "rank": 1, "vp": 1, "points": 7},
        {"seat": 2, "name": "Eric", "rank": 3, "vp": 0, "points": 3},
    ]


def test_score_share_is_the_seats_share_of_all_vp_at_the_table() -> None:
    setup = match(3)
    assert SEA.score_share(SEA.first_totals(setup), setup) == (0.0, 0.0, 0.0)
    folded = fold(setup, [points([5, 2, 1], 0), points([4, 4, 0], 0)])
    assert SEA.score_share(folded.rounds[-1].totals, setup) == (2 / 3, 1 / 3, 0.0)


# --- guide --------------------------------------------------------------------------------------


def test_the_guide_lists_unassigned_cards_and_running_pile_points() -> None:
    setup = match(3, suits=["blue", "green", "red"])
    raw = {"final_trump": "red", "captured": [["red-0", "blue-9"], ["green-8", "green-8"], []]}
    guided = SEA.guide(raw, setup, [])
    assert guided["mode"] == "cards"
    assert guided["pile_points"] == [7, -4, 0]
    assert guided["pile_cards"] == [2, 1, 0]
    assert guided["duplicates"] == ["green-8"]
    assert guided["trump_zero"] == 0
    assert len(guided["unassigned"]) == 27
    assert "red-0" not in guided["unassigned"]
    assert guided["complete"] is False
    assert [(e["path"], e["code"]) for e in guided["errors"]] == [
        ("captured[1][1]", "duplicate_card")]


def test_the_guide_infers_the_deck_once_the_cards_show_the_suits() -> None:
    setup = match(3)
    partial = SEA.guide({"captured": [["red-0"], ["purple-4"], []]}, setup, [])
    assert (partial["deck"], partial["unassigned"], partial["errors"]) == (None, None, [])
    shown = SEA.guide({"captured": [["red-0"], ["purple-4"], ["yellow-9"]]}, setup, [])
    assert shown["suits"] == ["red", "purple", "yellow"]
    assert len(shown["unassigned"]) == 27


def test_the_guide_fills_in_the_last_score_from_the_checksum() -> None:
    guided = SEA.guide({"scores": [5, None, 1]}, match(3), [])
    assert guided["mode"] == "points"
    assert guided["last_score"] == {"side": 1, "score": 2}
    assert guided["checksum"] == 8
    assert guided["errors"] == []
    assert SEA.guide({"scores": [5, None, None]}, match(3), [])["last_score"] is None


def test_the_guide_says_when_tricks_may_be_needed() -> None:
    setup = match(4)
    earlier = [SEA.read_entry(raw, setup, []) for raw in TIED_AT_TWO]
    guided = SEA.guide({"final_trump": "blue"}, setup, earlier)
    assert guided["needs_tricks"] is True
    assert SEA.guide({"final_trump": "blue"}, setup, earlier[:1])["needs_tricks"] is False
    tie = SEA.guide(points([3, 3, 2, 1], 2), setup, earlier)
    assert tie["complete"] is False
    assert [(e["path"], e["code"]) for e in tie["errors"]] == [("tricks", "tricks_needed")]
    assert SEA.guide(points([3, 3, 2, 1], 2, tricks=[2, 4, 3, 1]), setup, earlier)["complete"]


def test_the_guide_takes_scores_not_typed_yet_as_null() -> None:
    guided = SEA.guide({"final_trump": "red", "scores": None}, match(3), [])
    assert (guided["mode"], guided["last_score"], guided["errors"]) == ("points", None, [])


def test_the_guide_reports_wrong_values_already_typed() -> None:
    guided = SEA.guide({"scores": [5, "x", None], "colour": 1}, match(3), [])
    assert {(e["path"], e["code"]) for e in guided["errors"]} == {
        ("scores[1]", "not_an_integer"), ("colour", "unknown_field")}
    assert SEA.guide("nothing", match(3), [])["errors"][0]["code"] == "not_an_object"
