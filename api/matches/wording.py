"""A match's words in the reader's language: the reason it was decided, and the name of the
computer's side (Sea Change solo).

The engine stores a reason as its code, its parameters and an English message; the reason is
said again here from the code and parameters (:func:`scoring.messages.most_specific` finds the
engine's message among those of that code), naming seats and sides as the standings do.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache
from typing import Any, TypeVar

import msgspec

from api.i18n import Phrase, Words
from api.matches import schemas as s
from api.shared.spreadsheet import SheetWords
from scoring import registry
from scoring.messages import COMPUTER, Message, Names, declared, most_specific

M = TypeVar("M", bound=s.Match)


@cache
def _by_code() -> Mapping[str, tuple[Message, ...]]:
    found: dict[str, list[Message]] = {}
    for message in declared():
        found.setdefault(message.code, []).append(message)
    return {code: tuple(messages) for code, messages in found.items()}


def names_in(standings: Sequence[Mapping[str, Any]], options: Mapping[str, Any]) -> Names:
    """Who the seats and sides of the standings are."""
    sides: dict[int, str] = {}
    players: dict[int, str] = {}
    computer: set[int] = set()
    for line in standings:
        side = line.get("team", line.get("seat"))
        if not isinstance(side, int):
            continue
        sides[side] = str(line.get("name", ""))
        if line.get("player") is False:
            computer.add(side)
        elif "team" not in line:
            players[side] = sides[side]
    def in_order(names: dict[int, str]) -> tuple[str, ...]:
        return tuple(names.get(index, "") for index in range(max(names, default=-1) + 1))

    return Names(in_order(players), in_order(sides), options, frozenset(computer))


def said_reason(words: Words, reason: s.Reason | None, names: Names) -> s.Reason | None:
    if reason is None:
        return None
    message = most_specific(_by_code().get(reason.code, ()), reason.params)
    if message is None:
        return reason
    return s.Reason(reason.code, words(Phrase(message, reason.params, names)), reason.params)


def said_standings(words: Words, standings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The standings with the computer's side named in the reader's language."""
    return [{**line, "name": words.term(COMPUTER, line.get("name"), "")}
            if line.get("player") is False else line for line in standings]


def said_match(words: Words, match: M) -> M:
    names = names_in(match.standings, match.options)
    return msgspec.structs.replace(match, reason=said_reason(words, match.reason, names),
                                   standings=said_standings(words, match.standings))


def said_written(words: Words, written: s.RoundWritten) -> s.RoundWritten:
    names = names_in(written.standings, {})
    return msgspec.structs.replace(written, reason=said_reason(words, written.reason, names),
                                   standings=said_standings(words, written.standings))


def sheet_words(words: Words, match: s.Match) -> SheetWords:
    """The score sheet's words: its game's column headings, seats and sides by name."""
    names = names_in(match.standings, match.options)
    names = replace(names, players=tuple(player.name for player in match.players))
    game = registry.game_by_id(match.game)
    sheet = SheetWords(words)
    if game is None:
        return sheet
    return sheet.with_columns(game.sheet.headings, names=names, seats=game.sheet.seats,
                              sides=game.sheet.sides, values=game.sheet.values)


class _Words(msgspec.Struct):
    """The parts of a stored match that hold words."""

    reason: s.Reason | None
    standings: list[dict[str, Any]]


def said_snapshot(words: Words, snapshot: bytes) -> bytes:
    """A stored match (``GET`` answer) in the reader's language; unchanged, without decoding it
    all, when it has nothing to say yet (no reason, no computer side)."""
    found = msgspec.json.decode(snapshot, type=_Words)
    if found.reason is None and all(line.get("player") is not False for line in found.standings):
        return snapshot
    return msgspec.json.encode(said_match(words, msgspec.json.decode(snapshot, type=s.Match)))
