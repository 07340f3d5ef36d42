"""Every error and reason the engine can give is said in every language (issue 11).

The messages come from the engine itself (:func:`scoring.messages.declared`), not from a list
kept here; Hypothesis then runs the engine over random entries and real matches and checks that
every code it produced is one of those, and that a stored reason is found again from its code
and parameters alone.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from string import Formatter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from api.i18n import Phrase, negotiate, words_for
from scoring.errors import FieldError, InvalidInput, MatchFinished
from scoring.game import Setup
from scoring.match import fold_match, set_up
from scoring.messages import (
    ByOption,
    Kind,
    Listed,
    Message,
    Named,
    Names,
    Person,
    Vocabulary,
    declared,
    engine_modules,
    most_specific,
    placeholders,
)
from scoring.registry import all_games
from tests.scoring import test_score_pad as score_pad
from tests.scoring import test_sea_change_properties as sea_change
from tests.scoring import test_seven_seals_properties as seven_seals
from tests.scoring import test_tschau_sepp_properties as tschau_sepp

OTHER_LANGUAGES = ("de", "fr", "it")
DECLARED = declared()
BY_CODE: dict[str, list[Message]] = {}
for _message in DECLARED:
    BY_CODE.setdefault(_message.code, []).append(_message)


def _parts() -> set[int]:
    """Messages that name a thing inside a sentence ("seat 2", a card): not said alone."""
    found: set[int] = set()

    def walk(kind: Kind | None) -> None:
        if isinstance(kind, Person | Named):
            found.add(id(kind.message))
        elif isinstance(kind, Listed):
            walk(kind.item)
        elif isinstance(kind, ByOption):
            for inner in kind.kinds.values():
                walk(inner)

    for message in DECLARED:
        for kind in message.kinds.values():
            walk(kind)
    return found


PARTS = _parts()
SAID_ALONE = [m for m in DECLARED if id(m) not in PARTS and not m.code.startswith("option ")]
"""The errors and reasons: whole sentences a player reads."""


def test_the_engine_declares_its_errors_and_reasons() -> None:
    codes = {message.code for message in SAID_ALONE}
    assert {"too_many_black", "checksum_mismatch", "duplicate_card", "target_reached",
            "fewest_penalty_points", "penalty_tie_more_wins", "tricks_needed"} <= codes
    assert len(SAID_ALONE) > 100


def _sample(kind: Kind | None, options: dict[str, Any]) -> Any:
    if isinstance(kind, ByOption):
        return _sample(kind.chosen(options), options)
    if isinstance(kind, Listed):
        return [_sample(kind.item, options), _sample(kind.item, options)]
    if isinstance(kind, Vocabulary):
        return next(iter(kind.names))
    if isinstance(kind, Person):
        return 1
    if isinstance(kind, Named):
        return next(card for card in ("purple-10", "rosen-ass") if kind.split(card))
    return 3


def _params(message: Message, count: int) -> dict[str, Any]:
    options = {"card_faces": "swiss"}
    params = {name: _sample(message.kinds.get(name), options)
              for name in placeholders(message.text) | placeholders(message.plural or "")}
    if message.count:
        params[message.count] = count
    return params


def _forms(message: Message) -> list[int]:
    return [1, 2] if message.plural else [2]


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
@pytest.mark.parametrize("message", SAID_ALONE, ids=lambda m: f"{m.code}:{m.text[:24]}")
def test_every_error_and_reason_is_said_in_the_language(message: Message, language: str) -> None:
    words = words_for(negotiate(language))
    english = words_for(negotiate("en"))
    names = Names(("Anna", "Ben", "Cleo"), ("Anna", "Ben", "Cleo"), {"card_faces": "swiss"})
    for count in _forms(message):
        template = words.template(message, {message.count or "": count})
        english_template = message.template({message.count or "": count})
        assert template != english_template, "not translated"
        assert placeholders(template) <= placeholders(message.text) | placeholders(
            message.plural or ""), template
        params = _params(message, count)
        said = words(Phrase(message, params, names))
        assert said != english(Phrase(message, params, names))
        assert "{" not in said
        assert "}" not in said


@pytest.mark.parametrize("language", OTHER_LANGUAGES)
@pytest.mark.parametrize("message", DECLARED, ids=lambda m: f"{m.code}:{m.text[:24]}")
def test_a_translation_asks_only_for_forms_its_terms_have(message: Message, language: str) -> None:
    """``{colour:many}`` must name a form the colour's vocabulary declares."""
    words = words_for(negotiate(language))
    for count in _forms(message):
        template = words.template(message, {message.count or "": count})
        for _text, name, form, _conversion in Formatter().parse(template):
            if name and form:
                kind = message.kinds.get(name)
                kinds = kind.kinds.values() if isinstance(kind, ByOption) else [kind]
                assert all(isinstance(k, Vocabulary) and form in k.forms for k in kinds), (
                    name, form)


# --- what the engine really produces --------------------------------------------------------

ENGINE = {id(message) for message in DECLARED}
LEAVES = st.none() | st.booleans() | st.integers(-3, 40) | st.sampled_from([
    "red", "white", "black", "purple", "blue-3", "red-0", "purple-10", "rosen-ass", "schellen-6",
    "x", "", "penalty", "wins", "custom", "count", "swiss", "french"])
KEYS = st.sampled_from([
    "final_trump", "captured", "scores", "trump_zero", "tricks", "has_eight", "bids", "remaining",
    "black", "first_bidder", "seals", "taken_from", "saboteur", "winner", "hands", "cards_left",
    "penalty", "red", "yellow", "teams", "suits", "target_vp", "rounds", "saboteur_base",
    "scoring", "table", "card_values", "games", "limit", "wins_needed", "decks", "card_faces",
    "ass", "under", "other"])
JSON_VALUES = st.recursive(LEAVES, lambda inner: st.lists(inner, max_size=6) | st.dictionaries(
    KEYS, inner, max_size=6), max_leaves=30)
FUZZ = settings(deadline=None, max_examples=150, suppress_health_check=[HealthCheck.too_slow])


def _refused(call: Callable[[], object]) -> tuple[FieldError, ...]:
    """What the engine refused in ``call``, nothing if it accepted it."""
    try:
        call()
    except InvalidInput as refused:
        return refused.errors
    return ()


@FUZZ
@given(st.sampled_from(sorted(all_games())), st.integers(1, 8), JSON_VALUES, JSON_VALUES)
def test_every_error_the_engine_gives_for_anything_sent_is_declared(
    game_id: str, players: int, options: Any, entry: Any,
) -> None:
    game = all_games()[game_id]
    names = [f"P{seat}" for seat in range(players)]
    refused = _refused(lambda: set_up(game, names, options))
    assert all(id(error.template) in ENGINE for error in refused)
    if refused:
        return
    setup: Setup[Any] = set_up(game, names, options)
    assert all(id(error.template) in ENGINE
               for error in _refused(lambda: game.read_entry(entry, setup, [])))
    guided: Any = game.guide(entry, setup, [])
    assert all(problem["code"] in BY_CODE for problem in guided["errors"])


def _check_reason(game_id: str, setup: Setup[Any], entries: list[Any]) -> None:
    folded = fold_match(all_games()[game_id], setup, entries)
    reason = folded.verdict.reason
    if reason is None:
        return
    assert id(reason.template) in ENGINE
    assert most_specific(BY_CODE[reason.code], reason.params) is reason.template


REASONS = settings(deadline=None, max_examples=60, suppress_health_check=[HealthCheck.too_slow])


@REASONS
@given(sea_change.matches())
def test_every_sea_change_reason_is_declared_and_found_again(match: Any) -> None:
    (setup, _suits), entries = match
    _check_reason("sea-change", setup, entries)


@REASONS
@given(seven_seals.matches())
def test_every_seven_seals_reason_is_declared_and_found_again(match: Any) -> None:
    setup, entries = match
    _check_reason("seven-seals", setup, entries)


@REASONS
@given(tschau_sepp.matches())
def test_every_tschau_sepp_reason_is_declared_and_found_again(match: Any) -> None:
    setup, entries = match
    _check_reason("tschau-sepp", setup, entries)


@REASONS
@given(st.data())
def test_every_score_pad_reason_is_declared_and_found_again(data: st.DataObject) -> None:
    """Each way a pad ends (target, rounds, by hand; alone or shared, most or fewest)."""
    setup = data.draw(score_pad.setups())
    entries = data.draw(score_pad.rounds_of(setup))
    pad = all_games()["score-pad"]
    try:
        folded = fold_match(pad, setup, entries)
    except MatchFinished as finished:
        entries = entries[:finished.rounds_played]
        folded = fold_match(pad, setup, entries)
    if entries and not folded.finished:
        setup = replace(setup, options=score_pad.GAME.finished_by_hand(setup.options,
                                                                      len(entries)))
    _check_reason("score-pad", setup, entries)


def test_a_pads_target_reached_is_said_in_the_pads_words_not_sea_changes() -> None:
    """The pad's ``target_reached`` shares its code with Sea Change's: each game's stored reason
    comes back as its own game's sentence, in every language."""
    pad = fold_match(all_games()["score-pad"],
                     set_up(all_games()["score-pad"], ["Ann", "Bea"],
                            {"title": "Jass", "target": 300}), [{"points": [310, 0]}])
    sea = fold_match(*sea_change_won_by_ann())
    names = Names(("Ann", "Bea", "Cem"), ("Ann", "Bea", "Cem"), {})
    said = {}
    for game, folded in (("pad", pad), ("sea", sea)):
        reason = folded.verdict.reason
        assert reason is not None
        assert reason.code == "target_reached"
        found = most_specific(BY_CODE[reason.code], reason.params)
        assert found is reason.template
        said[game] = {language: words_for(negotiate(language))(Phrase(found, reason.params, names))
                      for language in ("en", *OTHER_LANGUAGES)}
    assert said == {
        "pad": {"en": "Ann reached 310 of 300.", "de": "Ann hat 310 von 300 erreicht.",
                "fr": "Ann a atteint 310 sur 300.", "it": "Ann ha raggiunto 310 su 300."},
        "sea": {"en": "Ann reached 3 VP.", "de": "Ann hat 3 SP erreicht.",
                "fr": "Ann a atteint 3 PV.", "it": "Ann ha raggiunto 3 PV."}}


def sea_change_won_by_ann() -> tuple[Any, Setup[Any], list[Any]]:
    """A Sea Change of three to 3 VP, won by Ann in three hands."""
    game = all_games()["sea-change"]
    setup = set_up(game, ["Ann", "Bea", "Cem"], {})
    return game, setup, [{"final_trump": "blue", "scores": [5, 2, 1], "trump_zero": 0}] * 3


def test_declared_walks_every_engine_module() -> None:
    assert {module.__name__ for module in engine_modules()} >= {
        "scoring.games.sea_change", "scoring.games.tschau_sepp", "scoring.tournament.tables"}
