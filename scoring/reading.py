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

JSON: TypeAlias = "bool | int | float | str | list[JSON] | dict[str, JSON] | None"
JSONObject: TypeAlias = "dict[str, JSON]"


def read_object(
    value: JSON, path: str, errors: Errors, *, allowed: Collection[str]
) -> Mapping[str, JSON] | None:
    """An object whose keys are all in ``allowed``; unknown keys are each reported."""
    if not isinstance(value, dict):
        errors.add(path, "not_an_object", "must be a JSON object")
        return None
    for key in value:
        if key not in allowed:
            errors.add(at(path, key), "unknown_field", f"unknown field {key!r}", field=key)
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
        errors.add(path, "not_an_integer", "must be a whole number")
        return None
    if minimum is not None and value < minimum:
        errors.add(path, "too_small", f"must be at least {minimum}", minimum=minimum)
        return None
    if maximum is not None and value > maximum:
        errors.add(path, "too_large", f"must be at most {maximum}", maximum=maximum)
        return None
    return value


def read_bool(value: JSON, path: str, errors: Errors) -> bool | None:
    if not isinstance(value, bool):
        errors.add(path, "not_a_boolean", "must be true or false")
        return None
    return value


def read_str(value: JSON, path: str, errors: Errors) -> str | None:
    if not isinstance(value, str):
        errors.add(path, "not_a_string", "must be a string")
        return None
    return value


def read_choice(value: JSON, path: str, errors: Errors, choices: Collection[str]) -> str | None:
    """One of ``choices`` (ids such as suits, seal colours, scoring modes)."""
    text = read_str(value, path, errors)
    if text is None:
        return None
    if text not in choices:
        listed = tuple(sorted(choices))
        errors.add(
            path, "unknown_choice", f"{text!r} is not one of {', '.join(listed)}",
            value=text, choices=listed,
        )
        return None
    return text


def read_list(
    value: JSON, path: str, errors: Errors, *, length: int | None = None,
    min_length: int | None = None, max_length: int | None = None,
) -> Sequence[JSON] | None:
    """A list, optionally of an exact length or within length bounds."""
    if not isinstance(value, list):
        errors.add(path, "not_a_list", "must be a list")
        return None
    if length is not None and len(value) != length:
        errors.add(
            path, "wrong_length", f"must have {length} elements, not {len(value)}",
            expected=length, actual=len(value),
        )
        return None
    if min_length is not None and len(value) < min_length:
        errors.add(path, "too_short", f"must have at least {min_length} elements",
                   minimum=min_length, actual=len(value))
        return None
    if max_length is not None and len(value) > max_length:
        errors.add(path, "too_long", f"must have at most {max_length} elements",
                   maximum=max_length, actual=len(value))
        return None
    return value


def require(obj: Mapping[str, JSON], key: str, path: str, errors: Errors) -> JSON | None:
    """The value of a required field, or ``None`` after reporting it missing."""
    if key not in obj:
        errors.add(at(path, key), "missing", f"{key!r} is required", field=key)
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
