"""The JSON values that reach the engine, and typed reads of them that record what is wrong.

The API passes entries and options through exactly as the client sent them, so every shape
check lives here, next to the rules, and reports the field path the client used.
Each reader returns ``None`` after recording a problem, so a caller can keep checking the rest
of an entry and report every problem at once.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import TypeAlias

from scoring.errors import Errors, at
from scoring.messages import Listed, Message, Vocabulary

JSON: TypeAlias = "bool | int | float | str | list[JSON] | dict[str, JSON] | None"
JSONObject: TypeAlias = "dict[str, JSON]"

FIELDS = Vocabulary("what a round entry or a match's settings hold, as a player would name it", {
    "players": "the players", "options": "the match's options",
    "final_trump": "the trump at the end of the round", "captured": "the cards each side captured",
    "scores": "the points of each side", "trump_zero": "who captured the trump 0",
    "tricks": "the tricks each side took", "has_eight": "whether you captured an 8",
    "bids": "the predictions", "seals": "the seals predicted",
    "remaining": "the seals left at the end of the round",
    "black": "the black seals each player took", "first_bidder": "who predicted first",
    "winner": "who went out", "hands": "the cards left in each hand",
    "cards_left": "the number of cards left in each hand",
    "penalty": "the penalty points of each player",
    "card_values": "the penalty points of each rank",
})
"""Fields by what they mean at the table, for messages that must name one."""

NOT_AN_OBJECT = Message("not_an_object", "Expected an object with named fields here.")
UNKNOWN_FIELD = Message("unknown_field", 'There is no field "{field}" here.')
NOT_AN_INTEGER = Message("not_an_integer", "Enter a whole number here.")
TOO_SMALL = Message("too_small", "The smallest number allowed here is {minimum}.")
TOO_LARGE = Message("too_large", "The largest number allowed here is {maximum}.")
NOT_A_BOOLEAN = Message("not_a_boolean", "Answer yes or no here.")
NOT_A_STRING = Message("not_a_string", "Enter a text here.")
UNKNOWN_CHOICE = Message("unknown_choice", '"{value}" is not possible here; choose {choices}.',
                         kinds={"choices": Listed(joiner="or")})
NOT_A_LIST = Message("not_a_list", "Expected a list here.")
WRONG_LENGTH = Message("wrong_length", "This needs exactly 1 entry; there are {actual}.",
                       plural="This needs exactly {expected} entries; there are {actual}.",
                       count="expected")
TOO_SHORT = Message("too_short", "This needs at least 1 entry; there are {actual}.",
                    plural="This needs at least {minimum} entries; there are {actual}.",
                    count="minimum")
TOO_LONG = Message("too_long", "This takes at most 1 entry; there are {actual}.",
                   plural="This takes at most {maximum} entries; there are {actual}.",
                   count="maximum")
MISSING = Message("missing", "Still missing: {field}.", kinds={"field": FIELDS})
BLANK_NAME = Message("blank_name", "Every player needs a name.")
TOURNAMENT_NAME_NEEDED = Message("blank_name", "The tournament needs a name.")
NAME_TOO_LONG = Message("name_too_long", "A name can have at most {maximum} characters.")
CONTROL_CHARACTER = Message(
    "control_character",
    "A name cannot contain invisible control characters; this one holds {character}.")

BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
"""The embeddings, overrides and isolates that reorder the text around them."""
NOT_IN_NAMES = frozenset(
    {*map(chr, range(0x20)), *map(chr, range(0x7f, 0xa0)), "\u2028", "\u2029", *BIDI_CONTROLS})
"""What a name a person reads never holds: C0 and C1 controls, line and paragraph separators,
and bidirectional controls. They hide or reorder what the table sees, start a new line in a log,
and PostgreSQL cannot store a NUL."""


def read_object(
    value: JSON, path: str, errors: Errors, *, allowed: Collection[str]
) -> Mapping[str, JSON] | None:
    """An object whose keys are all in ``allowed``; unknown keys are each reported."""
    if not isinstance(value, dict):
        errors.add(path, NOT_AN_OBJECT)
        return None
    for key in value:
        if key not in allowed:
            errors.add(at(path, key), UNKNOWN_FIELD, field=key)
    return value


def read_int(
    value: JSON, path: str, errors: Errors, *, minimum: int | None = None,
    maximum: int | None = None,
) -> int | None:
    """A whole number within the given bounds.

    Strictly an integer: ``true``/``false`` are not numbers, and neither is ``1.0`` or ``-0.0``
    (stored as given, a float where a seat belongs would be read back as a float).
    """
    if isinstance(value, bool) or not isinstance(value, int):
        errors.add(path, NOT_AN_INTEGER)
        return None
    if minimum is not None and value < minimum:
        errors.add(path, TOO_SMALL, minimum=minimum)
        return None
    if maximum is not None and value > maximum:
        errors.add(path, TOO_LARGE, maximum=maximum)
        return None
    return value


def read_bool(value: JSON, path: str, errors: Errors) -> bool | None:
    if not isinstance(value, bool):
        errors.add(path, NOT_A_BOOLEAN)
        return None
    return value


def read_str(value: JSON, path: str, errors: Errors) -> str | None:
    if not isinstance(value, str):
        errors.add(path, NOT_A_STRING)
        return None
    return value


def read_name(value: JSON, path: str, errors: Errors, *, maximum: int,
              blank: Message = BLANK_NAME) -> str | None:
    """A name a person reads (a player's, a club's, a tournament's): without surrounding spaces,
    not blank (``blank`` says so), at most ``maximum`` characters, and nothing of
    ``NOT_IN_NAMES`` anywhere (``character`` names the first as ``U+0000``)."""
    text = read_str(value, path, errors)
    if text is None:
        return None
    for position, character in enumerate(text):
        if character in NOT_IN_NAMES:
            errors.add(path, CONTROL_CHARACTER, character=f"U+{ord(character):04X}",
                       position=position)
            return None
    name = text.strip()
    if not name:
        errors.add(path, blank)
        return None
    if len(name) > maximum:
        errors.add(path, NAME_TOO_LONG, maximum=maximum)
        return None
    return name


def unknown_choice(names: Vocabulary) -> Message:
    """:data:`UNKNOWN_CHOICE` that says the choices by their names (``blue`` as "Blau" in
    German), not by their ids: declare it next to ``names`` and give it to :func:`read_choice`."""
    return Message(UNKNOWN_CHOICE.code, UNKNOWN_CHOICE.text,
                   kinds={"choices": Listed(names, joiner="or")})


def read_choice(value: JSON, path: str, errors: Errors, choices: Collection[str], *,
                unknown: Message = UNKNOWN_CHOICE) -> str | None:
    """One of ``choices`` (ids such as suits, seal colours, scoring modes); ``unknown`` says
    what else is possible (:func:`unknown_choice`, where the ids have names)."""
    text = read_str(value, path, errors)
    if text is None:
        return None
    if text not in choices:
        listed = tuple(sorted(choices))
        errors.add(path, unknown, value=text, choices=listed)
        return None
    return text


def read_list(
    value: JSON, path: str, errors: Errors, *, length: int | None = None,
    min_length: int | None = None, max_length: int | None = None,
) -> Sequence[JSON] | None:
    """A list, optionally of an exact length or within length bounds."""
    if not isinstance(value, list):
        errors.add(path, NOT_A_LIST)
        return None
    if length is not None and len(value) != length:
        errors.add(path, WRONG_LENGTH, expected=length, actual=len(value))
        return None
    if min_length is not None and len(value) < min_length:
        errors.add(path, TOO_SHORT, minimum=min_length, actual=len(value))
        return None
    if max_length is not None and len(value) > max_length:
        errors.add(path, TOO_LONG, maximum=max_length, actual=len(value))
        return None
    return value


def require(obj: Mapping[str, JSON], key: str, path: str, errors: Errors) -> JSON | None:
    """The value of a required field, or ``None`` after reporting it missing."""
    if key not in obj:
        errors.add(at(path, key), MISSING, field=key)
        return None
    return obj[key]


def read_ints(
    value: JSON, path: str, errors: Errors, *, length: int, minimum: int | None = None,
    maximum: int | None = None,
) -> tuple[int, ...] | None:
    """A list of exactly ``length`` whole numbers (one per side or per seat)."""
    items = read_list(value, path, errors, length=length)
    if items is None:
        return None
    numbers = [read_int(v, at(path, i), errors, minimum=minimum, maximum=maximum)
               for i, v in enumerate(items)]
    if any(n is None for n in numbers):
        return None
    return tuple(n for n in numbers if n is not None)
