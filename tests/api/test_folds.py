"""A kept fold makes a write cheaper and never different: it is carried on only when the stored
entries are the ones it folded."""

from __future__ import annotations

from typing import Any

import pytest

from api.matches import folds as folds_module
from api.matches.folds import RecentFolds
from scoring.errors import InvalidEntry
from scoring.game import AnyGame, Setup
from scoring.games.tschau_sepp import GAME
from scoring.match import FoldedMatch, fold_match, set_up
from scoring.reading import JSON

PLAYERS: list[JSON] = ["Ann", "Bea", "Cem"]
OPTIONS: dict[str, JSON] = GAME.options_json(set_up(GAME, PLAYERS, {}).options)
ROUNDS: list[JSON] = [{"winner": 0, "penalty": [0, 3, 4]}, {"winner": 1, "penalty": [6, 0, 3]},
                      {"winner": 2, "penalty": [7, 4, 0]}]


@pytest.fixture
def from_scratch(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many entries each fold from scratch folded."""
    counted: list[int] = []

    def counting(game: AnyGame, setup: Setup[Any], entries: Any) -> FoldedMatch:
        counted.append(len(entries))
        return fold_match(game, setup, entries)

    monkeypatch.setattr(folds_module, "fold_match", counting)
    return counted


def expected(entries: list[JSON], options: dict[str, JSON] = OPTIONS) -> FoldedMatch:
    return fold_match(GAME, set_up(GAME, PLAYERS, options), entries)


def test_a_round_after_the_kept_ones_is_folded_on_its_own(from_scratch: list[int]) -> None:
    folds = RecentFolds()
    folds.fold("m", GAME, PLAYERS, OPTIONS, ROUNDS[:2])
    assert folds.fold("m", GAME, PLAYERS, OPTIONS, ROUNDS) == expected(ROUNDS)
    assert from_scratch == [2]


def test_entries_other_than_the_kept_ones_are_folded_afresh(from_scratch: list[int]) -> None:
    folds = RecentFolds()
    folds.fold("m", GAME, PLAYERS, OPTIONS, ROUNDS[:2])  # say its write was rolled back
    corrected: list[JSON] = [ROUNDS[0], {"winner": 2, "penalty": [4, 4, 0]}, ROUNDS[2]]
    assert folds.fold("m", GAME, PLAYERS, OPTIONS, corrected) == expected(corrected)
    assert folds.fold("m", GAME, PLAYERS, OPTIONS, ROUNDS[:1]) == expected(ROUNDS[:1])
    assert from_scratch == [2, 3, 1]


def test_the_same_numbers_of_another_json_type_are_not_the_kept_entries(
    from_scratch: list[int],
) -> None:
    folds = RecentFolds()
    folds.fold("m", GAME, PLAYERS, OPTIONS, [{"winner": 1, "penalty": [3, 0, 4]}])
    with pytest.raises(InvalidEntry):
        folds.fold("m", GAME, PLAYERS, OPTIONS, [{"winner": True, "penalty": [3, 0, 4]}])
    assert from_scratch == [1, 1]


def test_other_players_or_options_are_folded_afresh(from_scratch: list[int]) -> None:
    folds = RecentFolds()
    folds.fold("m", GAME, PLAYERS, OPTIONS, ROUNDS[:2])
    other: dict[str, JSON] = {**OPTIONS, "games": 3}
    assert folds.fold("m", GAME, PLAYERS, other, ROUNDS) == expected(ROUNDS, other)
    assert folds.fold("m", GAME, ["Ann", "Bea", "Dora"], other, ROUNDS).setup.players[2] == "Dora"
    assert from_scratch == [2, 3, 3]


def test_only_the_most_recently_written_matches_are_kept(from_scratch: list[int]) -> None:
    folds = RecentFolds(size=2)
    for match_id in ("a", "b", "c"):
        folds.fold(match_id, GAME, PLAYERS, OPTIONS, ROUNDS[:1])
    for match_id in ("c", "b", "a"):
        folds.fold(match_id, GAME, PLAYERS, OPTIONS, ROUNDS[:2])
    assert from_scratch == [1, 1, 1, 2]
