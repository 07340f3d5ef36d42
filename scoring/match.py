"""Folding a match: a pure function of (game, players, options, round entries).

A correction of round k is a new list of entries folded again; the fold is cheap enough to run
after every write. A fold can also be carried on with more rounds (:func:`fold_more`), which is
the same as folding every entry again, for the cost of the new rounds only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring.errors import Errors, FieldError, InvalidEntry, InvalidOptions, MatchFinished, at
from scoring.game import AnyGame, Setup, Verdict
from scoring.messages import Message, Names
from scoring.reading import JSON, NOT_AN_OBJECT, read_name
from scoring.registry import GAMES

MAX_NAME_LENGTH = 40

PLAYERS_NOT_A_LIST = Message("not_a_list", "List the players' names here.")
PLAYER_COUNT = Message("player_count",
                       "{game} is for {minimum} to {maximum} players, not {actual}.",
                       kinds={"game": GAMES})


@dataclass(frozen=True, slots=True)
class PlayedRound:
    """One round as folded: its number (from 1), the entry as given, its result and the totals."""

    number: int
    entry: JSON
    result: Any
    totals: Any

    def as_json(self) -> dict[str, JSON]:
        return {
            "number": self.number, "entry": self.entry, "result": self.result.as_json(),
            "totals": self.totals.as_json(),
        }


@dataclass(frozen=True, slots=True)
class FoldedMatch:
    setup: Setup[Any]
    rounds: tuple[PlayedRound, ...]
    verdict: Verdict
    read: tuple[Any, ...]
    """Each round's entry as the game read it (what reading a later round may look back at)."""

    @property
    def finished(self) -> bool:
        return self.verdict.finished

    @property
    def next_dealer(self) -> int:
        """Seat of the next round's dealer: seat 0 sits left of the first dealer."""
        players = len(self.setup.players)
        return (players - 1 + len(self.rounds)) % players


def read_players(game: AnyGame, raw: JSON, errors: Errors) -> tuple[str, ...]:
    """The player names in seat order, checked against the game's player range."""
    if not isinstance(raw, list):
        errors.add("players", PLAYERS_NOT_A_LIST)
        return ()
    if not game.min_players <= len(raw) <= game.max_players:
        errors.add("players", PLAYER_COUNT, minimum=game.min_players,
                   maximum=game.max_players, actual=len(raw), game=game.id)
    names = (read_name(name, f"players[{seat}]", errors, maximum=MAX_NAME_LENGTH)
             for seat, name in enumerate(raw))
    return tuple(name for name in names if name is not None)


def set_up(game: AnyGame, players: JSON, options: JSON) -> Setup[Any]:
    """Check a new match's players and options; raises ``InvalidOptions`` listing every problem.

    Paths are those of the request body: ``players[2]``, ``options.target_vp``.
    """
    errors = Errors()
    names = read_players(game, players, errors)
    if options is None:
        options = {}
    if not isinstance(options, dict):
        errors.add("options", NOT_AN_OBJECT)
    elif not errors:
        try:
            return Setup(names, game.read_options(options, len(names)))
        except InvalidOptions as invalid:
            errors.extend(
                FieldError(at("options", problem.path) if problem.path else "options",
                           problem.template, problem.params)
                for problem in invalid.errors)
    errors.raise_all(InvalidOptions)


def names_of(game: AnyGame, setup: Setup[Any]) -> Names:
    """Who the seats and sides of a match are, and its options: what its messages name."""
    standings = game.judge(game.first_totals(setup), (), setup).standings
    sides = [""] * len(standings)
    for standing in standings:
        sides[standing.side] = standing.name
    return Names(setup.players, tuple(sides), game.options_json(setup.options),
                 frozenset(standing.side for standing in standings if standing.computer))


def fold_match(game: AnyGame, setup: Setup[Any], entries: Sequence[JSON]) -> FoldedMatch:
    """Validate and score every entry in order, then judge the match.

    Raises ``InvalidEntry`` for the first invalid round (its errors carry the round's own paths;
    ``round_number`` tells which) and ``MatchFinished`` for a round after the match was decided.
    """
    return _fold_on(game, setup, (), (), game.first_totals(setup), entries)


def fold_more(game: AnyGame, folded: FoldedMatch, entries: Sequence[JSON]) -> FoldedMatch:
    """``folded`` carried on with ``entries`` as its next rounds: the same as folding all its
    entries and then ``entries`` with :func:`fold_match`, raising the same way."""
    totals = folded.rounds[-1].totals if folded.rounds else game.first_totals(folded.setup)
    return _fold_on(game, folded.setup, folded.rounds, folded.read, totals, entries)


def _fold_on(game: AnyGame, setup: Setup[Any], played: tuple[PlayedRound, ...],
             read: tuple[Any, ...], totals: Any, entries: Sequence[JSON]) -> FoldedMatch:
    rounds = list(played)
    parsed = list(read)
    results = [round_.result for round_ in played]
    for raw in entries:
        if results and game.is_over(totals, results, setup):
            raise MatchFinished(len(results))
        number = len(rounds) + 1
        try:
            entry = game.read_entry(raw, setup, parsed)
            result = game.score_round(entry, setup)
            totals = game.add_round(totals, result, setup)
        except InvalidEntry as invalid:
            raise InvalidEntry(invalid.errors, round_number=number) from None
        parsed.append(entry)
        results.append(result)
        rounds.append(PlayedRound(number, raw, result, totals))
    return FoldedMatch(setup, tuple(rounds), game.judge(totals, results, setup), tuple(parsed))
