"""The measures a game declares for club statistics: totals of its standings line."""

import pytest

from scoring.match import set_up
from scoring.measures import Measure, Priced
from scoring.reading import JSON
from scoring.registry import all_games, game_by_id

VP_PER_ROUND = Measure("vp_per_round", "vp", "round", "higher")
PENALTY = Measure("penalty_per_match", "penalty", "match", "lower")


def test_a_per_round_measure_divides_the_total_by_the_rounds_played() -> None:
    assert VP_PER_ROUND.value({"vp": 3, "points": 40}, 4) == 0.75
    assert VP_PER_ROUND.units(4) == 4
    assert VP_PER_ROUND.value({"vp": 0}, 0) == 0.0


def test_a_per_match_measure_is_the_total_itself_and_counts_one_match() -> None:
    assert PENALTY.value({"penalty": 12}, 5) == 12.0
    assert PENALTY.units(5) == 1


def test_better_means_higher_or_lower_as_the_game_says() -> None:
    assert VP_PER_ROUND.is_better(1.0, 0.5)
    assert not VP_PER_ROUND.is_better(0.5, 0.5)
    assert PENALTY.is_better(3.0, 4.0)
    assert not PENALTY.is_better(4.0, 3.0)


@pytest.mark.parametrize("total", [True, "3", None])
def test_a_total_that_is_not_a_number_is_a_programming_error(total: object) -> None:
    with pytest.raises(TypeError):
        PENALTY.value({"penalty": total}, 1)  # type: ignore[dict-item]


def test_the_description_says_what_a_client_needs_to_label_a_measure() -> None:
    assert VP_PER_ROUND.as_json() == {"id": "vp_per_round", "total": "vp", "per": "round",
                                      "better": "higher"}


@pytest.mark.parametrize("game_id", sorted(all_games()))
def test_every_game_measures_totals_its_standings_line_has(game_id: str) -> None:
    game = game_by_id(game_id)
    assert game is not None
    assert game.measures
    shape = game.shapes.standing
    assert isinstance(shape, dict)
    properties = shape["properties"]
    assert isinstance(properties, dict)
    for measure in game.measures:
        assert measure.total in properties
    assert len({m.id for m in game.measures}) == len(game.measures)


@pytest.mark.parametrize(("game_id", "options", "players", "priced"), [
    ("sea-change", {}, 2, Priced("vp", lower_is_better=False)),
    ("seven-seals", {}, 3, Priced("penalty", lower_is_better=True)),
    ("tschau-sepp", {}, 3, Priced("penalty", lower_is_better=True)),
    ("tschau-sepp", {"scoring": "wins"}, 3, Priced("wins", lower_is_better=False)),
])
def test_a_match_for_money_pays_by_the_games_main_total(
        game_id: str, options: dict[str, JSON], players: int, priced: Priced) -> None:
    game = game_by_id(game_id)
    assert game is not None
    setup = set_up(game, [f"P{seat}" for seat in range(players)], options)
    assert game.priced(setup) == priced
    shape = game.shapes.standing
    assert isinstance(shape, dict)
    properties = shape["properties"]
    assert isinstance(properties, dict)
    assert priced.total in properties


def test_solo_sea_change_is_not_played_for_money_against_the_computer() -> None:
    game = game_by_id("sea-change")
    assert game is not None
    assert game.priced(set_up(game, ["Ann"], {})) is None
