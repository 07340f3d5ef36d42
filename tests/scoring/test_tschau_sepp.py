"""Tschau Sepp (rules.md §3): deck, options, entries, scores, match end, verdict, entry guide."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from scoring.errors import InvalidEntry, InvalidOptions, MatchFinished
from scoring.game import Setup
from scoring.games.tschau_sepp import GAME, Entry, RoundResult, Totals
from scoring.match import fold_match, fold_more, set_up
from scoring.messages import Names
from scoring.reading import JSON
from scoring.registry import game_by_id

THREE: list[JSON] = ["Anna", "Ben", "Cleo"]


def match(options: dict[str, JSON] | None = None, players: list[JSON] | None = None) -> Setup[Any]:
    return set_up(GAME, players or THREE, options or {})


def options_error(options: dict[str, JSON], players: int = 3) -> list[tuple[str, str]]:
    with pytest.raises(InvalidOptions) as refused:
        GAME.read_options(options, players)
    return [(error.path, error.code) for error in refused.value.errors]


def entry_errors(raw: JSON, setup: Setup[Any] | None = None) -> list[tuple[str, str]]:
    with pytest.raises(InvalidEntry) as refused:
        GAME.read_entry(raw, setup or match(), [])
    return [(error.path, error.code) for error in refused.value.errors]


def penalty_of(raw: JSON, setup: Setup[Any] | None = None) -> tuple[int, ...]:
    setup = setup or match()
    return GAME.score_round(GAME.read_entry(raw, setup, []), setup).penalty


def described() -> Any:
    """The description as the client reads it: plain JSON, looked into without type checks."""
    return GAME.describe()


def guide(raw: JSON, setup: Setup[Any], earlier: list[Entry] | None = None) -> Any:
    return GAME.guide(raw, setup, earlier or [])


def one_each(winner: int, *hands: Sequence[JSON]) -> dict[str, JSON]:
    return {"winner": winner, "hands": [list(hand) for hand in hands]}


# --- The game in the registry and its description ---------------------------------------------

def test_the_registry_finds_tschau_sepp_by_its_id() -> None:
    game = game_by_id("tschau-sepp")
    assert game is GAME
    assert (GAME.name, GAME.min_players, GAME.max_players) == ("Tschau Sepp", 2, 8)


def test_the_deck_has_36_cards_named_suit_dash_rank() -> None:
    cards = described()["cards"]
    assert isinstance(cards, list)
    assert len(cards) == len(set(cards)) == 36
    assert cards[0] == "rosen-6"
    assert "eicheln-koenig" in cards
    assert {card.split("-")[0] for card in cards if isinstance(card, str)} == {
        "rosen", "schellen", "schilten", "eicheln"}
    assert {card.split("-")[1] for card in cards if isinstance(card, str)} == {
        "6", "7", "8", "9", "banner", "under", "ober", "koenig", "ass"}


def test_describe_maps_swiss_suits_to_french_ones_with_their_names() -> None:
    suits = described()["suits"]
    assert suits[0] == {"id": "rosen", "name": "Roses",
                        "french": {"id": "herz", "name": "Hearts"}}
    french = [suit["french"]["id"] for suit in suits]
    assert french == ["herz", "karo", "pik", "kreuz"]


def test_describe_names_the_ranks_in_both_decks() -> None:
    ranks = {rank["id"]: rank for rank in described()["ranks"]}
    assert ranks["koenig"]["name"] == "King"
    assert ranks["banner"]["french"] == {"name": "10"}
    assert ranks["under"]["french"] == {"name": "Jack"}
    assert ranks["ober"]["french"] == {"name": "Queen"}


def test_cards_are_named_by_the_faces_the_table_plays_with() -> None:
    with pytest.raises(InvalidEntry) as refused:
        GAME.read_entry(one_each(0, [], ["rosen-ass"], ["rosen-ass"]), match(), [])
    (problem,) = refused.value.errors
    assert problem.message == "Ace of Roses is in the deck only once."
    french = Names(options={"card_faces": "french"})
    assert problem.template.render(problem.params, french) == (
        "Ace of Hearts is in the deck only once.")


def test_describe_gives_every_table_and_the_decks_per_player_count() -> None:
    description = described()
    assert description["tables"] == {
        "face": {"6": 6, "7": 7, "8": 8, "9": 9, "banner": 10, "under": 20, "ober": 3,
                 "koenig": 4, "ass": 11},
        "jass": {"6": 0, "7": 0, "8": 0, "9": 0, "banner": 10, "under": 2, "ober": 3,
                 "koenig": 4, "ass": 11},
        "count": dict.fromkeys(["6", "7", "8", "9", "banner", "under", "ober", "koenig", "ass"], 1),
    }
    assert description["deck_points"] == {"face": 312, "jass": 120, "count": 36}
    decks = description["decks_by_players"]
    assert decks["5"] == {"default": 1, "allowed": [1, 2]}
    assert decks["6"] == {"default": 2, "allowed": [2]}
    assert description["hand_size"] == 5


def test_describe_lists_every_option_with_a_one_line_description() -> None:
    options = {option["name"]: option for option in described()["options"]}
    assert list(options) == [
        "scoring", "table", "card_values", "games", "limit", "wins_needed", "decks",
        "card_faces"]
    assert options["scoring"]["default"] == "penalty"
    assert options["table"]["choices"] == ["face", "jass", "count", "custom"]
    assert options["games"]["default"] == 5
    assert options["card_values"]["available"] == "table == 'custom'"
    assert all(option["description"] and option["label"] for option in options.values())
    assert options["card_faces"]["choice_labels"] == {
        "swiss": "Swiss German suits", "french": "French suits"}


# --- Options -----------------------------------------------------------------------------------

def test_the_defaults_are_penalty_scoring_with_the_face_table_over_five_games() -> None:
    assert GAME.options_json(match().options) == {
        "scoring": "penalty", "table": "face", "card_values": None, "games": 5, "limit": None,
        "wins_needed": None, "decks": 1, "card_faces": "swiss",
    }


@pytest.mark.parametrize(("players", "decks"), [(2, 1), (5, 1), (6, 2), (8, 2)])
def test_one_deck_serves_up_to_five_players_and_two_decks_six_to_eight(
        players: int, decks: int) -> None:
    assert GAME.read_options({}, players).decks == decks


def test_two_decks_may_be_used_with_fewer_players() -> None:
    assert GAME.read_options({"decks": 2}, 3).decks == 2


def test_one_deck_for_six_players_is_refused() -> None:
    assert options_error({"decks": 1}, 6) == [("decks", "too_few_decks")]


def test_a_limit_without_a_game_count_leaves_no_game_count() -> None:
    options = GAME.read_options({"limit": 200}, 3)
    assert (options.games, options.limit) == (None, 200)


def test_wins_needed_without_a_game_count_leaves_no_game_count() -> None:
    options = GAME.read_options({"scoring": "wins", "wins_needed": 3}, 3)
    assert (options.games, options.wins_needed) == (None, 3)


def test_a_game_count_and_a_limit_can_both_be_set() -> None:
    options = GAME.read_options({"games": 10, "limit": 100}, 3)
    assert (options.games, options.limit) == (10, 100)


def test_the_options_as_returned_read_back_unchanged() -> None:
    raws: list[dict[str, JSON]] = [
        {}, {"limit": 150}, {"scoring": "wins", "wins_needed": 2, "games": 9},
        {"table": "custom", "card_values": dict.fromkeys(
            ["6", "7", "8", "9", "banner", "under", "ober", "koenig", "ass"], 2)},
    ]
    for raw in raws:
        options = GAME.read_options(raw, 4)
        assert GAME.read_options(GAME.options_json(options), 4) == options


def test_a_custom_table_takes_a_value_for_every_rank() -> None:
    values: dict[str, JSON] = {"6": 1, "7": 1, "8": 1, "9": 1, "banner": 5, "under": 25,
                               "ober": 5, "koenig": 5, "ass": 15}
    options = GAME.read_options({"table": "custom", "card_values": values}, 3)
    assert options.values == (1, 1, 1, 1, 5, 25, 5, 5, 15)
    assert GAME.options_json(options)["card_values"] == values


def test_a_custom_table_needs_card_values() -> None:
    assert options_error({"table": "custom"}) == [("card_values", "missing")]


def test_card_values_are_refused_with_any_other_table() -> None:
    assert options_error({"table": "jass", "card_values": {}}) == [
        ("card_values", "not_with_table")]


def test_card_values_name_every_rank_with_a_whole_number_from_0_to_100() -> None:
    values: dict[str, JSON] = {"6": 1, "7": 1, "8": 1, "9": -1, "banner": 101, "under": "x",
                               "ober": None, "zehn": 3}
    assert options_error({"table": "custom", "card_values": values}) == [
        ("card_values.zehn", "unknown_field"), ("card_values.9", "too_small"),
        ("card_values.banner", "too_large"), ("card_values.under", "not_an_integer"),
        ("card_values.ober", "missing"), ("card_values.koenig", "missing"),
        ("card_values.ass", "missing"),
    ]


def test_card_values_must_be_an_object() -> None:
    assert options_error({"table": "custom", "card_values": [1, 2]}) == [
        ("card_values", "not_an_object")]


def test_a_limit_belongs_to_penalty_scoring_only() -> None:
    assert options_error({"scoring": "wins", "limit": 100}) == [("limit", "not_with_scoring")]


def test_wins_needed_belongs_to_wins_scoring_only() -> None:
    assert options_error({"wins_needed": 3}) == [("wins_needed", "not_with_scoring")]


@pytest.mark.parametrize(("raw", "expected"), [
    ({"games": 0}, ("games", "too_small")),
    ({"games": 101}, ("games", "too_large")),
    ({"limit": 0}, ("limit", "too_small")),
    ({"limit": 10_001}, ("limit", "too_large")),
    ({"scoring": "wins", "wins_needed": 101}, ("wins_needed", "too_large")),
    ({"decks": 3}, ("decks", "too_large")),
    ({"scoring": "points"}, ("scoring", "unknown_choice")),
    ({"table": "schieber"}, ("table", "unknown_choice")),
    ({"rounds": 4}, ("rounds", "unknown_field")),
])
def test_each_option_is_checked(raw: dict[str, JSON], expected: tuple[str, str]) -> None:
    assert options_error(raw) == [expected]


def test_every_option_problem_is_reported_at_once_with_its_path_inside_options() -> None:
    with pytest.raises(InvalidOptions) as refused:
        set_up(GAME, THREE, {"games": 0, "table": "custom", "decks": "two"})
    assert [(e.path, e.code) for e in refused.value.errors] == [
        ("options.card_values", "missing"), ("options.games", "too_small"),
        ("options.decks", "not_an_integer"),
    ]


# --- Penalty tables ----------------------------------------------------------------------------

def test_the_face_table_counts_6_to_9_at_face_value_banner_10_under_20_ober_3_koenig_4_ass_11(
) -> None:
    hand = ["rosen-6", "rosen-7", "rosen-8", "rosen-9", "rosen-banner", "rosen-under",
            "rosen-ober", "rosen-koenig", "rosen-ass"]
    assert penalty_of(one_each(0, [], hand, ["eicheln-6"])) == (0, 78, 6)


def test_the_jass_table_counts_ass_11_banner_10_koenig_4_ober_3_under_2_and_6_to_9_nothing(
) -> None:
    setup = match({"table": "jass"})
    hand = ["schellen-6", "schellen-9", "schellen-banner", "schellen-under", "schellen-ober",
            "schellen-koenig", "schellen-ass"]
    assert penalty_of(one_each(1, hand, [], ["eicheln-7"]), setup) == (30, 0, 0)


def test_the_count_table_counts_one_per_card() -> None:
    setup = match({"table": "count"})
    assert penalty_of(one_each(2, ["rosen-ass", "schilten-6"], ["eicheln-under"],
                               []), setup) == (2, 1, 0)


def test_a_custom_table_counts_the_agreed_values() -> None:
    values: dict[str, JSON] = dict.fromkeys(
        ["6", "7", "8", "9", "banner", "under", "ober", "koenig"], 0)
    values["ass"] = 50
    setup = match({"table": "custom", "card_values": values})
    assert penalty_of(one_each(0, [], ["rosen-ass", "rosen-7"], ["schellen-ass"]), setup) == (
        0, 50, 50)


# --- Entries -----------------------------------------------------------------------------------

def test_the_order_of_cards_in_a_hand_does_not_matter() -> None:
    first = penalty_of(one_each(0, [], ["rosen-ass", "eicheln-under"], ["schilten-9"]))
    second = penalty_of(one_each(0, [], ["eicheln-under", "rosen-ass"], ["schilten-9"]))
    assert first == second == (0, 31, 9)


def test_numbers_of_cards_left_score_one_point_each_with_the_count_table() -> None:
    setup = match({"table": "count"})
    assert penalty_of({"winner": 1, "cards_left": [3, 0, 1]}, setup) == (3, 0, 1)


def test_penalty_points_can_be_entered_directly_under_any_table() -> None:
    assert penalty_of({"winner": 1, "penalty": [23, 0, 3]}) == (23, 0, 3)
    assert penalty_of({"winner": 1, "penalty": [23, 0, 4]}, match({"table": "jass"})) == (
        23, 0, 4)


def test_the_round_result_names_the_penalty_per_seat_and_the_winner() -> None:
    setup = match()
    result = GAME.score_round(GAME.read_entry({"winner": 2, "penalty": [4, 9, 0]}, setup, []),
                              setup)
    assert result.as_json() == {"penalty": [4, 9, 0], "winner": 2}


def test_a_two_deck_game_allows_each_card_twice() -> None:
    setup = match({"decks": 2})
    raw = one_each(0, [], ["rosen-ass", "rosen-ass"], ["eicheln-6"])
    assert penalty_of(raw, setup) == (0, 22, 6)


def test_with_wins_scoring_the_winner_alone_is_enough_and_penalties_are_zero() -> None:
    setup = match({"scoring": "wins"})
    assert GAME.read_entry({"winner": 1}, setup, []) == Entry(1)
    assert penalty_of({"winner": 1}, setup) == (0, 0, 0)


def test_with_wins_scoring_cards_given_are_checked_and_kept_for_the_record() -> None:
    setup = match({"scoring": "wins"})
    assert penalty_of(one_each(0, [], ["rosen-ass"], ["rosen-6"]), setup) == (0, 11, 6)
    assert entry_errors(one_each(0, [], ["rosen-ass"], ["rosen-ass"]), setup) == [
        ("hands[2][0]", "duplicate_card")]


def test_with_wins_scoring_numbers_of_cards_left_are_kept_with_any_table() -> None:
    # The contract keeps counts for the record; only the count table gives them points.
    raw: dict[str, JSON] = {"winner": 1, "cards_left": [2, 0, 3]}
    for table in ("face", "jass"):
        setup = match({"scoring": "wins", "table": table})
        assert GAME.read_entry(raw, setup, []) == Entry(1, cards_left=(2, 0, 3))
        assert penalty_of(raw, setup) == (0, 0, 0)
    assert penalty_of(raw, match({"scoring": "wins", "table": "count"})) == (2, 0, 3)


def test_with_wins_scoring_numbers_of_cards_left_are_checked_as_ever() -> None:
    setup = match({"scoring": "wins"})
    assert entry_errors({"winner": 1, "cards_left": [0, 0, 3]}, setup) == [
        ("cards_left[0]", "empty_hand")]
    assert entry_errors({"winner": 1, "cards_left": [35, 0, 1]}, setup) == [
        ("cards_left[0]", "too_many_cards")]


# --- Entry validation, one rule each -----------------------------------------------------------

def test_an_entry_must_be_an_object() -> None:
    assert entry_errors([1, 2]) == [("", "not_an_object")]


def test_an_entry_names_no_unknown_field() -> None:
    assert entry_errors({"winner": 0, "penalty": [0, 3, 4], "loser": 1}) == [
        ("loser", "unknown_field")]


def test_the_winner_is_required() -> None:
    assert entry_errors({"penalty": [0, 3, 4]}) == [("winner", "missing")]


def test_the_winner_is_a_seat_of_the_match() -> None:
    assert entry_errors({"winner": 3, "penalty": [0, 3, 4]}) == [("winner", "too_large")]


def test_penalty_scoring_needs_the_cards_left_in_some_form() -> None:
    assert entry_errors({"winner": 0}) == [("", "needs_cards")]


def test_only_one_form_of_cards_left_may_be_given() -> None:
    assert entry_errors({"winner": 0, "hands": [[], ["rosen-6"], ["rosen-7"]],
                         "penalty": [0, 6, 7]}) == [
        ("hands", "one_form_only"), ("penalty", "one_form_only")]


def test_hands_name_one_list_per_seat() -> None:
    assert entry_errors({"winner": 0, "hands": [[], ["rosen-6"]]}) == [("hands", "wrong_length")]


def test_each_hand_is_a_list() -> None:
    assert entry_errors({"winner": 0, "hands": [[], "rosen-6", ["rosen-7"]]}) == [
        ("hands[1]", "not_a_list")]


def test_each_card_is_a_card_id() -> None:
    assert entry_errors(one_each(0, [], ["rosen-10"], [7])) == [
        ("hands[1][0]", "unknown_card"), ("hands[2][0]", "not_a_string")]


def test_with_one_deck_no_card_is_held_twice() -> None:
    assert entry_errors(one_each(0, [], ["rosen-ass"], ["schellen-6", "rosen-ass"])) == [
        ("hands[2][1]", "duplicate_card")]


def test_with_two_decks_no_card_is_held_three_times() -> None:
    setup = match({"decks": 2})
    raw = one_each(0, [], ["rosen-ass", "rosen-ass"], ["rosen-ass"])
    assert entry_errors(raw, setup) == [("hands[2][0]", "duplicate_card")]


def test_the_winner_holds_no_card() -> None:
    assert entry_errors(one_each(0, ["rosen-6"], ["rosen-7"], ["rosen-8"])) == [
        ("hands[0]", "winner_not_out")]


def test_every_other_player_holds_at_least_one_card() -> None:
    assert entry_errors(one_each(0, [], [], ["rosen-8"])) == [("hands[1]", "empty_hand")]


def test_the_players_cannot_hold_the_whole_deck_since_the_last_card_lies_on_the_pile() -> None:
    cards = described()["cards"]
    assert isinstance(cards, list)
    raw: dict[str, JSON] = {"winner": 0, "hands": [[], cards[:20], cards[20:]]}
    assert entry_errors(raw) == [("hands", "too_many_cards")]


def test_cards_left_need_the_count_table() -> None:
    assert entry_errors({"winner": 0, "cards_left": [0, 1, 2]}) == [
        ("cards_left", "needs_count_table")]


def test_cards_left_are_none_for_the_winner_and_at_least_one_for_the_others() -> None:
    setup = match({"table": "count"})
    assert entry_errors({"winner": 0, "cards_left": [1, 0, 2]}, setup) == [
        ("cards_left[0]", "winner_not_out"), ("cards_left[1]", "empty_hand")]


def test_cards_left_per_player_leave_a_card_for_each_other_player_and_the_pile() -> None:
    setup = match({"table": "count"})
    assert entry_errors({"winner": 0, "cards_left": [0, 35, 1]}, setup) == [
        ("cards_left[1]", "too_many_cards")]
    assert penalty_of({"winner": 0, "cards_left": [0, 34, 1]}, setup) == (0, 34, 1)


def test_cards_left_together_leave_the_last_card_on_the_pile() -> None:
    setup = match({"table": "count"})
    assert entry_errors({"winner": 0, "cards_left": [0, 30, 6]}, setup) == [
        ("cards_left", "too_many_cards")]


def test_cards_left_are_whole_numbers_one_per_seat() -> None:
    setup = match({"table": "count"})
    assert entry_errors({"winner": 0, "cards_left": [0, -1, "2"]}, setup) == [
        ("cards_left[1]", "too_small"), ("cards_left[2]", "not_an_integer")]
    assert entry_errors({"winner": 0, "cards_left": [0, 1]}, setup) == [
        ("cards_left", "wrong_length")]


def test_penalty_points_are_none_for_the_winner_and_never_negative() -> None:
    assert entry_errors({"winner": 0, "penalty": [3, -4, None]}) == [
        ("penalty[1]", "too_small"), ("penalty[2]", "missing"), ("penalty[0]", "winner_not_out")]


def test_penalty_points_stay_within_what_one_hand_can_be_worth() -> None:
    # Face table, one deck, three players: one loser holds at most 34 cards, at best all but
    # two obers: 312 - 3 - 3 = 306 points.
    assert entry_errors({"winner": 0, "penalty": [0, 307, 3]}) == [
        ("penalty[1]", "too_many_points")]
    assert penalty_of({"winner": 0, "penalty": [0, 306, 3]}) == (0, 306, 3)


def test_penalty_points_together_stay_within_what_the_deck_can_leave() -> None:
    # All cards but one ober: 312 - 3 = 309 points.
    assert entry_errors({"winner": 0, "penalty": [0, 200, 110]}) == [
        ("penalty", "too_many_points")]
    assert penalty_of({"winner": 0, "penalty": [0, 200, 109]}) == (0, 200, 109)


# --- What a hand left over can be worth --------------------------------------------------------

@pytest.mark.parametrize("points", [0, 1, 2])
def test_with_the_face_table_a_player_who_did_not_go_out_has_at_least_3_points(
        points: int) -> None:
    # Every card is worth at least 3 (the ober), and a player who did not go out holds one.
    assert entry_errors({"winner": 0, "penalty": [0, points, 20]}) == [
        ("penalty[1]", "too_few_points")]
    assert penalty_of({"winner": 0, "penalty": [0, 3, 20]}) == (0, 3, 20)


def test_the_message_says_who_holds_too_few_points_and_the_least_a_hand_is_worth() -> None:
    with pytest.raises(InvalidEntry) as refused:
        GAME.read_entry({"winner": 0, "penalty": [0, 2, 20]}, match(), [])
    assert refused.value.errors[0].as_json(names=Names(players=THREE))["message"] == (
        "Ben did not go out, so their cards are worth at least 3 penalty points; this is 2.")


def test_with_the_face_table_no_hand_is_worth_5_points() -> None:
    # Ober 3 and König 4 are the only cards under 6: 3, 4, 6 and 7 are hands, 5 is none.
    assert entry_errors({"winner": 0, "penalty": [0, 5, 20]}) == [
        ("penalty[1]", "no_such_hand")]
    for points in (4, 6, 7):
        assert penalty_of({"winner": 0, "penalty": [0, points, 20]}) == (0, points, 20)


def test_the_message_names_the_points_and_the_table() -> None:
    with pytest.raises(InvalidEntry) as refused:
        GAME.read_entry({"winner": 0, "penalty": [0, 5, 20]}, match(), [])
    assert refused.value.errors[0].as_json(names=Names(players=THREE))["message"] == (
        "No hand of cards is worth exactly 5 penalty points (Face value).")


def test_a_total_must_be_reachable_with_the_cards_of_the_deck_near_the_top_too() -> None:
    # Two players: the loser holds at most 35 cards, all but one of 312 points. Leaving out one
    # card of 3 or 4 gives 309 or 308; nothing leaves out 5, so 307 is no hand.
    two = match(players=["Anna", "Ben"])
    assert entry_errors({"winner": 0, "penalty": [0, 307]}, two) == [
        ("penalty[1]", "no_such_hand")]
    assert penalty_of({"winner": 0, "penalty": [0, 308]}, two) == (0, 308)
    assert penalty_of({"winner": 0, "penalty": [0, 306]}, two) == (0, 306)


def test_with_the_jass_table_a_hand_of_sixes_to_nines_is_worth_nothing_but_1_is_no_hand(
) -> None:
    jass = match({"table": "jass"})
    assert penalty_of({"winner": 0, "penalty": [0, 0, 2]}, jass) == (0, 0, 2)
    assert entry_errors({"winner": 0, "penalty": [0, 1, 2]}, jass) == [
        ("penalty[1]", "no_such_hand")]


def test_with_the_count_table_a_player_who_did_not_go_out_has_at_least_1_point() -> None:
    counted = match({"table": "count"})
    assert entry_errors({"winner": 0, "penalty": [0, 0, 2]}, counted) == [
        ("penalty[1]", "too_few_points")]


def test_with_your_own_values_the_totals_come_from_those_values() -> None:
    tens = match({"table": "custom", "card_values": dict.fromkeys(
        ["6", "7", "8", "9", "banner", "under", "ober", "koenig", "ass"], 10)})
    assert penalty_of({"winner": 0, "penalty": [0, 30, 10]}, tens) == (0, 30, 10)
    assert entry_errors({"winner": 0, "penalty": [0, 15, 5]}, tens) == [
        ("penalty[1]", "no_such_hand"), ("penalty[2]", "too_few_points")]


def test_without_a_winner_yet_a_0_may_be_the_winners_and_is_not_questioned() -> None:
    shown = guide({"penalty": [0, 5, 20]}, match())
    assert [(e["path"], e["code"]) for e in shown["errors"]] == [
        ("penalty[1]", "no_such_hand")]


def test_with_wins_scoring_penalty_points_kept_for_the_record_are_checked_the_same_way() -> None:
    assert entry_errors({"winner": 0, "penalty": [0, 1, 20]}, match({"scoring": "wins"})) == [
        ("penalty[1]", "too_few_points")]


def test_every_entry_problem_is_reported_at_once() -> None:
    raw: dict[str, JSON] = {"winner": "Anna", "hands": [["rosen-6"], ["herz-ass"], []], "x": 1}
    assert entry_errors(raw) == [
        ("x", "unknown_field"), ("winner", "not_an_integer"), ("hands[1][0]", "unknown_card")]


def test_an_invalid_round_in_a_fold_names_its_round_number() -> None:
    setup = match()
    with pytest.raises(InvalidEntry) as refused:
        fold_match(GAME, setup, [{"winner": 0, "penalty": [0, 3, 4]}, {"winner": 0}])
    assert refused.value.round_number == 2


def test_a_fold_carried_on_numbers_an_invalid_round_as_the_whole_match_does() -> None:
    setup = match()
    played = fold_match(GAME, setup, [{"winner": 0, "penalty": [0, 3, 4]}] * 2)
    with pytest.raises(InvalidEntry) as refused:
        fold_more(GAME, played, [{"winner": 1, "penalty": [3, 0, 4]}, {"winner": 0}])
    assert refused.value.round_number == 4


def test_a_fold_carried_on_past_the_deciding_game_is_refused_as_the_whole_match_is() -> None:
    setup = match({"games": 2})
    decided = fold_match(GAME, setup, [{"winner": 0, "penalty": [0, 3, 4]}] * 2)
    with pytest.raises(MatchFinished) as refused:
        fold_more(GAME, decided, [{"winner": 1, "penalty": [3, 0, 4]}])
    assert refused.value.rounds_played == 2


# --- Totals, match end and verdict ------------------------------------------------------------

def test_totals_add_penalties_and_count_wins_per_seat() -> None:
    setup = match()
    folded = fold_match(GAME, setup, [{"winner": 0, "penalty": [0, 3, 4]},
                                      {"winner": 2, "penalty": [10, 6, 0]}])
    assert folded.rounds[-1].totals == Totals((10, 9, 4), (1, 0, 1), 2)
    assert folded.rounds[-1].as_json()["totals"] == {
        "penalty": [10, 9, 4], "wins": [1, 0, 1], "games": 2}


def test_the_match_ends_after_five_games_by_default() -> None:
    setup = match()
    entry: dict[str, JSON] = {"winner": 0, "penalty": [0, 3, 4]}
    assert not fold_match(GAME, setup, [entry] * 4).finished
    assert fold_match(GAME, setup, [entry] * 5).finished
    with pytest.raises(MatchFinished):
        fold_match(GAME, setup, [entry] * 6)


def test_the_match_ends_after_the_game_in_which_someone_reaches_the_limit() -> None:
    setup = match({"limit": 50})
    entries: list[JSON] = [{"winner": 0, "penalty": [0, 30, 4]}, {"winner": 0,
                                                                   "penalty": [0, 16, 4]}]
    assert not fold_match(GAME, setup, entries).finished
    entries.append({"winner": 2, "penalty": [3, 4, 0]})
    verdict = fold_match(GAME, setup, entries).verdict
    assert verdict.finished
    assert verdict.winners == (0,)
    assert verdict.reason is not None
    assert verdict.reason.message == (
        "Ben reached the penalty limit (50) in game 3: Anna has the fewest penalty points (3).")
    assert verdict.reason.params["ended_by"] == "limit"


def test_with_a_limit_and_a_game_count_the_match_ends_at_whichever_comes_first() -> None:
    setup = match({"limit": 500, "games": 2})
    folded = fold_match(GAME, setup, [{"winner": 0, "penalty": [0, 3, 4]}] * 2)
    assert folded.finished
    assert folded.verdict.reason is not None
    assert folded.verdict.reason.params["ended_by"] == "games"


def test_fewest_penalty_points_win() -> None:
    setup = match({"games": 2})
    verdict = fold_match(GAME, setup, [{"winner": 1, "penalty": [12, 0, 4]},
                                       {"winner": 0, "penalty": [0, 20, 3]}]).verdict
    assert verdict.winners == (2,)
    assert [(line.name, line.rank, dict(line.totals)) for line in verdict.standings] == [
        ("Cleo", 1, {"penalty": 7, "wins": 0}), ("Anna", 2, {"penalty": 12, "wins": 1}),
        ("Ben", 3, {"penalty": 20, "wins": 1}),
    ]
    assert verdict.reason is not None
    assert verdict.reason.code == "fewest_penalty"
    assert verdict.reason.message == "After 2 games: Cleo has the fewest penalty points (7)."


def test_a_penalty_tie_is_broken_by_more_game_wins() -> None:
    setup = match({"games": 3})
    verdict = fold_match(GAME, setup, [{"winner": 0, "penalty": [0, 10, 30]},
                                       {"winner": 0, "penalty": [0, 4, 30]},
                                       {"winner": 1, "penalty": [14, 0, 30]}]).verdict
    assert verdict.winners == (0,)
    assert [line.rank for line in verdict.standings] == [1, 2, 3]
    assert verdict.reason is not None
    assert verdict.reason.code == "penalty_tie_more_wins"
    assert verdict.reason.message == (
        "After 3 games: Anna and Ben are tied on penalty points (14); Anna won more games (2).")


def test_a_tie_on_penalty_points_and_wins_is_shared() -> None:
    setup = match({"games": 2})
    verdict = fold_match(GAME, setup, [{"winner": 0, "penalty": [0, 10, 30]},
                                       {"winner": 1, "penalty": [10, 0, 30]}]).verdict
    assert verdict.winners == (0, 1)
    assert [line.rank for line in verdict.standings] == [1, 1, 3]
    assert verdict.reason is not None
    assert verdict.reason.code == "shared_fewest_penalty"
    assert verdict.reason.message == (
        "After 2 games: Anna and Ben share the win with the fewest penalty points (10) and as many "
        "games won (1).")


def test_with_wins_scoring_the_most_wins_win_and_penalties_do_not_count() -> None:
    setup = match({"scoring": "wins", "games": 3})
    verdict = fold_match(GAME, setup, [{"winner": 1, "penalty": [50, 0, 3]}, {"winner": 1},
                                       {"winner": 0}]).verdict
    assert verdict.winners == (1,)
    leader = verdict.standings[0]
    assert (leader.name, dict(leader.totals)) == ("Ben", {"penalty": 0, "wins": 2})
    assert verdict.reason is not None
    assert verdict.reason.code == "most_wins"
    assert verdict.reason.message == "After 3 games: Ben won the most games (2)."


def test_with_wins_scoring_ties_are_shared() -> None:
    setup = match({"scoring": "wins", "games": 2})
    verdict = fold_match(GAME, setup, [{"winner": 1}, {"winner": 2}]).verdict
    assert verdict.winners == (1, 2)
    assert [line.rank for line in verdict.standings] == [1, 1, 3]
    assert verdict.reason is not None
    assert verdict.reason.code == "shared_most_wins"
    assert verdict.reason.message == (
        "After 2 games: Ben and Cleo share the win with the most games won (1).")


def test_with_wins_scoring_the_match_ends_as_soon_as_someone_has_the_wins_needed() -> None:
    setup = match({"scoring": "wins", "wins_needed": 2})
    entries: list[JSON] = [{"winner": 1}, {"winner": 0}]
    assert not fold_match(GAME, setup, entries).finished
    verdict = fold_match(GAME, setup, [*entries, {"winner": 0}]).verdict
    assert verdict.winners == (0,)
    assert verdict.reason is not None
    assert verdict.reason.message == "Anna reached 2 wins first, in game 3."
    assert verdict.reason.params["wins_needed"] == 2


def test_an_unfinished_match_has_standings_but_no_winners() -> None:
    verdict = fold_match(GAME, match(), [{"winner": 2, "penalty": [3, 4, 0]}]).verdict
    assert not verdict.finished
    assert verdict.winners == ()
    assert verdict.reason is None
    assert [line.name for line in verdict.standings] == ["Cleo", "Anna", "Ben"]


def test_the_verdict_names_players_in_a_list_of_three() -> None:
    setup = match({"scoring": "wins", "games": 3})
    verdict = fold_match(GAME, setup, [{"winner": 0}, {"winner": 1}, {"winner": 2}]).verdict
    assert verdict.reason is not None
    assert verdict.reason.message.startswith("After 3 games: Anna, Ben and Cleo share the win")


def test_after_one_game_the_reason_speaks_of_one_game() -> None:
    setup = match({"games": 1})
    verdict = fold_match(GAME, setup, [{"winner": 0, "penalty": [0, 3, 4]}]).verdict
    assert verdict.reason is not None
    assert verdict.reason.message.startswith("After 1 game:")


# --- Score share -------------------------------------------------------------------------------

def test_the_penalty_score_share_is_the_table_average_minus_the_seat_s_penalty() -> None:
    totals = Totals((10, 20, 30), (1, 1, 0), 2)
    assert GAME.score_share(totals, match()) == (10.0, 0.0, -10.0)


def test_the_wins_score_share_is_the_share_of_games_won() -> None:
    setup = match({"scoring": "wins"})
    assert GAME.score_share(Totals((0, 0, 0), (3, 1, 0), 4), setup) == (0.75, 0.25, 0.0)
    assert GAME.score_share(GAME.first_totals(setup), setup) == (0.0, 0.0, 0.0)


# --- Guide for a partly entered game -----------------------------------------------------------

def test_the_guide_counts_the_cards_given_so_far_and_lists_the_unassigned_ones() -> None:
    shown = guide({"winner": 0, "hands": [[], ["rosen-ass"], []]}, match())
    assert shown["penalty"] == [0, 11, 0]
    assert shown["cards"] == [0, 1, 0]
    unassigned = shown["unassigned"]
    assert isinstance(unassigned, list)
    assert len(unassigned) == 35
    assert "rosen-ass" not in unassigned
    assert shown["complete"] is False
    assert shown["errors"] == []
    assert shown["missing"] == [{"path": "hands[2]", "code": "empty_hand",
                                 "message": "Cleo did not go out, so they still hold at "
                                            "least one card.",
                                 "params": {"seat": 2}}]


def test_the_guide_counts_remaining_copies_with_two_decks() -> None:
    shown = guide({"winner": 0, "hands": [[], ["rosen-ass"], ["rosen-6"]]},
                       match({"decks": 2}), [])
    remaining = shown["remaining"]
    assert isinstance(remaining, dict)
    assert (remaining["rosen-ass"], remaining["rosen-7"]) == (1, 2)
    assert "rosen-ass" in shown["unassigned"]


def test_the_guide_reports_duplicates_with_the_seats_holding_them() -> None:
    shown = guide({"winner": 0, "hands": [[], ["rosen-ass"], ["rosen-ass", "x"]]},
                       match(), [])
    assert shown["duplicates"] == [{"card": "rosen-ass", "seats": [1, 2], "copies": 1}]
    assert [(error["path"], error["code"]) for error in shown["errors"]] == [
        ("hands[2][0]", "duplicate_card"), ("hands[2][1]", "unknown_card")]
    assert shown["remaining"]["rosen-ass"] == 0


def test_the_guide_gives_the_running_totals_as_if_this_game_counted() -> None:
    setup = match({"games": 2})
    earlier = [GAME.read_entry({"winner": 1, "penalty": [12, 0, 4]}, setup, [])]
    shown = guide({"winner": 2, "hands": [["eicheln-under"], ["eicheln-6"], []]}, setup,
                       earlier)
    assert shown["totals"] == {"penalty": [32, 6, 4], "wins": [0, 1, 1], "games": 2}
    assert shown["would_finish"] is True
    assert shown["complete"] is True
    assert shown["missing"] == []


def test_the_guide_without_a_winner_adds_no_win_and_says_the_winner_is_missing() -> None:
    shown = guide({"penalty": [None, 5, 0]}, match())
    assert shown["winner"] is None
    assert shown["penalty"] == [None, 5, 0]
    assert shown["cards"] == [None, None, None]
    assert shown["totals"] == {"penalty": [0, 5, 0], "wins": [0, 0, 0], "games": 1}
    assert [(e["path"], e["code"]) for e in shown["missing"]] == [
        ("winner", "missing"), ("penalty[0]", "missing")]


def test_the_guide_knows_cards_left_but_not_their_points_outside_the_count_table() -> None:
    shown = guide({"winner": 0, "cards_left": [0, 2, 1]}, match())
    assert shown["cards"] == [0, 2, 1]
    assert shown["penalty"] == [None, None, None]
    assert [(e["path"], e["code"]) for e in shown["errors"]] == [
        ("cards_left", "needs_count_table")]
    counted = guide({"winner": 0, "cards_left": [0, 2, 1]}, match({"table": "count"}))
    assert counted["penalty"] == [0, 2, 1]
    assert counted["complete"] is True


def test_the_guide_says_which_totals_a_hand_can_be_worth() -> None:
    assert guide({}, match())["hand_points"] == {"possible": [[3, 4], [6, 306]],
                                                 "together": 309}
    two = guide({}, match(players=["Anna", "Ben"]))
    assert two["hand_points"]["possible"] == [[3, 4], [6, 306], [308, 309]]
    jass = guide({}, match({"table": "jass"}, players=["A", "B", "C", "D"]))
    assert jass["hand_points"] == {"possible": [[0, 0], [2, 118], [120, 120]], "together": 120}


def test_the_guide_says_how_many_cards_a_hand_can_hold() -> None:
    # Four players: each of the three losers holds one card at least, the winner's last card
    # lies on the pile.
    shown = guide({}, match(players=["A", "B", "C", "D"]))
    assert shown["hand_cards"] == {"most": 33, "together": 35}
    assert guide({}, match({"decks": 2}))["hand_cards"] == {"most": 70, "together": 71}


def test_the_guide_reports_an_impossible_total_at_its_field_as_it_is_typed() -> None:
    shown = guide({"winner": 1, "penalty": [2, 0, None]}, match())
    assert [(e["path"], e["code"]) for e in shown["errors"]] == [
        ("penalty[0]", "too_few_points")]
    assert [(e["path"], e["code"]) for e in shown["missing"]] == [("penalty[2]", "missing")]


def test_the_guide_asks_for_the_cards_left_before_anything_is_given() -> None:
    shown = guide({}, match())
    assert [(e["path"], e["code"]) for e in shown["missing"]] == [
        ("winner", "missing"), ("", "needs_cards")]
    assert shown["form"] is None
    assert len(shown["unassigned"]) == 36


def test_the_guide_never_raises_for_something_that_is_not_an_entry() -> None:
    shown = guide("nonsense", match())
    assert [(e["path"], e["code"]) for e in shown["errors"]] == [
        ("", "not_an_object")]
    assert shown["totals"] == {"penalty": [0, 0, 0], "wins": [0, 0, 0], "games": 1}


# --- Values ------------------------------------------------------------------------------------

def test_results_and_totals_are_frozen_values() -> None:
    result = RoundResult((0, 3), 0)
    with pytest.raises(AttributeError):
        result.winner = 1  # type: ignore[misc]
