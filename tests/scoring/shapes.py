"""Whether what a game reads and writes fits the shapes it describes (``GAME.shapes``)."""

from __future__ import annotations

from typing import Any

from jsonschema import Draft202012Validator

from scoring.game import AnyGame
from scoring.match import FoldedMatch


def assert_fits(shape: dict[str, Any], value: Any) -> None:
    Draft202012Validator.check_schema(shape)
    Draft202012Validator(shape).validate(value)


def assert_folded_match_fits_its_shapes(game: AnyGame, folded: FoldedMatch) -> None:
    """Every entry, result and totals of the match and every standings line fits the game's
    shapes."""
    for played in folded.rounds:
        assert_fits(game.shapes.entry, played.entry)
        assert_fits(game.shapes.result, played.result.as_json())
        assert_fits(game.shapes.totals, played.totals.as_json())
    for standing in folded.verdict.standings:
        assert_fits(game.shapes.standing, standing.as_json())
