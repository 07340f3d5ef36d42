"""The scoring package as a whole: pure, discoverable, and consistent across games."""

import ast
import sys
from pathlib import Path
from typing import Any

import pytest

import scoring
from scoring.errors import Errors, InvalidEntry, InvalidOptions, MatchFinished
from scoring.game import DESCRIPTION_SHAPE, AnyGame
from scoring.match import fold_match, set_up
from scoring.ranking import best, shared_ranks
from scoring.reading import JSON, read_int, read_name
from scoring.registry import all_games, game_by_id
from tests.scoring.shapes import assert_fits

PACKAGE = Path(scoring.__file__).parent


def required_options(game: AnyGame) -> dict[str, JSON]:
    """The least a game needs to be set up: a text option without a default (the score pad's
    title) is the one kind of option without one."""
    described: Any = game.describe()
    return {option["name"]: "Pad" for option in described["options"]
            if option["kind"] == "text" and option["default"] is None}


def test_scoring_imports_nothing_but_the_standard_library_and_itself() -> None:
    allowed = set(sys.stdlib_module_names) | {"scoring"}
    outside = []
    for source in PACKAGE.rglob("*.py"):
        for node in ast.walk(ast.parse(source.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            outside += [f"{source.name}: {n}" for n in names if n.split(".")[0] not in allowed]
    assert outside == []


def test_the_registry_finds_the_three_games_by_their_ids() -> None:
    assert set(all_games()) >= {"sea-change", "seven-seals", "tschau-sepp"}
    assert game_by_id("no-such-game") is None


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_every_game_describes_itself_for_clients_without_game_knowledge(game_id: str) -> None:
    description = all_games()[game_id].describe()
    assert description["id"] == game_id
    assert isinstance(description["name"], str)
    assert isinstance(description["min_players"], int)
    assert isinstance(description["max_players"], int)
    assert description["min_players"] <= description["max_players"]
    options = description["options"]
    assert isinstance(options, list)
    for option in options:
        assert isinstance(option, dict)
        assert option["description"]


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_too_many_players_are_refused_with_the_game_s_range(game_id: str) -> None:
    game = all_games()[game_id]
    with pytest.raises(InvalidOptions) as refused:
        set_up(game, ["P"] * (game.max_players + 1), {})
    [problem] = refused.value.errors
    assert (problem.path, problem.code) == ("players", "player_count")
    assert problem.params["maximum"] == game.max_players


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_blank_names_and_a_non_object_options_are_all_reported_at_once(game_id: str) -> None:
    game = all_games()[game_id]
    players = ["Ann"] * game.min_players
    players[0] = " "
    with pytest.raises(InvalidOptions) as refused:
        set_up(game, players, ["not", "an", "object"])
    assert [(e.path, e.code) for e in refused.value.errors] == [
        ("players[0]", "blank_name"), ("options", "not_an_object"),
    ]


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_an_option_error_names_its_path_inside_options(game_id: str) -> None:
    game = all_games()[game_id]
    with pytest.raises(InvalidOptions) as refused:
        set_up(game, ["P"] * game.min_players, {**required_options(game), "no_such_option": 1})
    assert [(e.path, e.code) for e in refused.value.errors] == [
        ("options.no_such_option", "unknown_field"),
    ]


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_an_invalid_entry_in_a_fold_names_its_round(game_id: str) -> None:
    game = all_games()[game_id]
    setup = set_up(game, [f"P{seat}" for seat in range(game.min_players)],
                   required_options(game))
    with pytest.raises(InvalidEntry) as refused:
        fold_match(game, setup, ["not an entry"])
    assert refused.value.round_number == 1
    assert refused.value.errors


def test_a_match_without_rounds_is_in_progress_with_everyone_sharing_first_place() -> None:
    for game in all_games().values():
        setup = set_up(game, [f"P{seat}" for seat in range(game.min_players)],
                       required_options(game))
        folded = fold_match(game, setup, [])
        assert not folded.finished
        assert folded.verdict.winners == ()
        assert {line.rank for line in folded.verdict.standings} == {1}


def test_the_next_dealer_moves_one_seat_on_each_round() -> None:
    game = all_games()["tschau-sepp"]
    setup = set_up(game, ["Ann", "Ben", "Cleo"], {})
    assert fold_match(game, setup, []).next_dealer == 2
    entry = {"winner": 0, "penalty": [0, 6, 7]}
    assert fold_match(game, setup, [entry]).next_dealer == 0
    assert fold_match(game, setup, [entry, entry]).next_dealer == 1


def test_no_round_can_follow_the_round_that_decided_the_match() -> None:
    game = all_games()["tschau-sepp"]
    setup = set_up(game, ["Ann", "Ben"], {"games": 1})
    with pytest.raises(MatchFinished) as refused:
        fold_match(game, setup, [{"winner": 0, "penalty": [0, 6]}] * 2)
    assert refused.value.rounds_played == 1


def test_equal_keys_share_the_best_rank_of_their_group_and_the_next_rank_skips() -> None:
    assert shared_ranks([(-3,), (-1,), (-3,), (0,)]) == (1, 3, 1, 4)


def test_best_lists_every_side_with_the_best_key() -> None:
    assert best([4, 2, 2, 9]) == (1, 2)


@pytest.mark.parametrize("value", [1.0, -0.0, 2.5, True, False, "1", None])
def test_a_whole_number_is_an_integer_and_nothing_else(value: object) -> None:
    errors = Errors()
    assert read_int(value, "winner", errors) is None  # type: ignore[arg-type]
    assert [(error.path, error.code) for error in errors] == [("winner", "not_an_integer")]


@pytest.mark.parametrize(("name", "character"), [
    ("An\x00n", "U+0000"), ("Ann\n", "U+000A"), ("\tAnn", "U+0009"), ("A\x7fnn", "U+007F"),
    ("A\x9bnn", "U+009B"), ("\u202eAnn", "U+202E"), ("Ann\u2069", "U+2069"),
    ("Ann\u2028Bea", "U+2028"),
])
def test_a_name_holds_no_control_character_line_separator_or_bidi_override(
    name: str, character: str,
) -> None:
    errors = Errors()
    assert read_name(name, "players[1]", errors, maximum=40) is None
    assert [(e.path, e.code, e.params["character"]) for e in errors] == [
        ("players[1]", "control_character", character)]


def test_a_name_is_trimmed_not_blank_and_not_too_long() -> None:
    errors = Errors()
    assert read_name("  Zoë Ünal 🃏 ", "name", errors, maximum=12) == "Zoë Ünal 🃏"
    assert read_name("   ", "blank", errors, maximum=12) is None
    assert read_name("x" * 13, "long", errors, maximum=12) is None
    assert [(e.path, e.code) for e in errors] == [("blank", "blank_name"),
                                                  ("long", "name_too_long")]


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_every_game_describes_itself_as_the_description_shape_says(game_id: str) -> None:
    assert_fits(DESCRIPTION_SHAPE, all_games()[game_id].describe())
