"""Whether what a game reads and writes fits the shapes it describes (``GAME.shapes``), and the
rounds, partly entered or made up, that its guide is asked about."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from scoring.game import AnyGame, Setup
from scoring.match import FoldedMatch
from scoring.reading import JSON
from scoring.shapes import Shape

_VALIDATORS: dict[int, tuple[Shape, Draft202012Validator]] = {}


def assert_fits(shape: Shape, value: Any) -> None:
    kept = _VALIDATORS.get(id(shape))
    if kept is None or kept[0] is not shape:
        Draft202012Validator.check_schema(shape)
        kept = _VALIDATORS[id(shape)] = (shape, Draft202012Validator(shape))
    kept[1].validate(value)


def assert_folded_match_fits_its_shapes(game: AnyGame, folded: FoldedMatch) -> None:
    """Every entry, result and totals of the match and every standings line fits the game's
    shapes."""
    for played in folded.rounds:
        assert_fits(game.shapes.entry, played.entry)
        assert_fits(game.shapes.result, played.result.as_json())
        assert_fits(game.shapes.totals, played.totals.as_json())
    for standing in folded.verdict.standings:
        assert_fits(game.shapes.standing, standing.as_json())


def assert_guided_as_its_shapes_say(game: AnyGame, raw: JSON, setup: Setup[Any],
                                    earlier: Sequence[Any]) -> None:
    """The guide takes any object as a partly entered round, and answers as its shape says."""
    if isinstance(raw, dict):
        assert_fits(game.shapes.partial_entry, raw)
    assert_fits(game.shapes.guide, game.guide(raw, setup, earlier))


def read_rounds(game: AnyGame, setup: Setup[Any], entries: Sequence[JSON]) -> list[Any]:
    """The entries as the game reads them, each after the ones before it."""
    earlier: list[Any] = []
    for raw in entries:
        earlier.append(game.read_entry(raw, setup, earlier))
    return earlier


@st.composite
def partly_entered(draw: st.DrawFn, value: JSON) -> JSON:
    """A round on its way to ``value``: fields left out, lists cut short, values not typed yet
    (``null``)."""
    if isinstance(value, dict):
        return {key: draw(partly_entered(item)) for key, item in value.items()
                if draw(st.integers(0, 3))}
    if isinstance(value, list):
        kept = value[:draw(st.integers(0, len(value)))] if draw(st.booleans()) else value
        return [draw(partly_entered(item)) for item in kept]
    return None if not draw(st.integers(0, 4)) else value


def _words(shape: JSON, keys: set[str], texts: set[str]) -> None:
    if isinstance(shape, list):
        for item in shape:
            _words(item, keys, texts)
    elif isinstance(shape, dict):
        properties = shape.get("properties")
        if isinstance(properties, dict):
            keys.update(properties)
        choices = shape.get("enum")
        if isinstance(choices, list):
            texts.update(value for value in choices if isinstance(value, str))
        for item in shape.values():
            _words(item, keys, texts)


def made_up_rounds(game: AnyGame) -> st.SearchStrategy[JSON]:
    """Any JSON, built from the field names and words of the game's entry (and a few others),
    nested as deep as an entry goes."""
    keys: set[str] = {"entry", "x"}
    texts: set[str] = {"x", ""}
    _words(game.shapes.entry, keys, texts)
    scalars = (st.none() | st.booleans() | st.integers(-2, 40) | st.sampled_from([1.5, -0.5])
               | st.sampled_from(sorted(texts)))
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=9) | st.dictionaries(
        st.sampled_from(sorted(keys)), inner, max_size=6), max_leaves=40)
