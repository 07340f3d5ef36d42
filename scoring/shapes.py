"""The shapes of the JSON a game reads and writes, as plain JSON Schema (2020-12) data.

Each game describes its round entry, round result, running totals and standing line, and what
its guide reads and answers, with these helpers (:class:`GameShapes`), so a client can be told
exactly what to send and what comes back without the API knowing any game: the API turns the
dicts into OpenAPI components, a shape's ``title`` becoming the component's name. A shape says
what is well formed; whether a round can have happened at a table is still the game's
``read_entry`` to decide.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from scoring.reading import JSON

Shape = dict[str, JSON]


def _described(shape: Shape, description: str | None) -> Shape:
    if description is not None:
        shape["description"] = description
    return shape


def integer(minimum: int | None = None, maximum: int | None = None,
            description: str | None = None) -> Shape:
    shape: Shape = {"type": "integer"}
    if minimum is not None:
        shape["minimum"] = minimum
    if maximum is not None:
        shape["maximum"] = maximum
    return _described(shape, description)


def boolean(description: str | None = None) -> Shape:
    return _described({"type": "boolean"}, description)


def number(description: str | None = None) -> Shape:
    return _described({"type": "number"}, description)


def string(choices: Iterable[str] | None = None, description: str | None = None) -> Shape:
    shape: Shape = {"type": "string"}
    if choices is not None:
        shape["enum"] = list(choices)
    return _described(shape, description)


def constant(value: bool | int | str) -> Shape:
    return {"const": value}


def null() -> Shape:
    return {"type": "null"}


def array(items: Shape, *, min_items: int | None = None, max_items: int | None = None,
          description: str | None = None) -> Shape:
    shape: Shape = {"type": "array", "items": items}
    if min_items is not None:
        shape["minItems"] = min_items
    if max_items is not None:
        shape["maxItems"] = max_items
    return _described(shape, description)


def per_seat(items: Shape, description: str | None = None) -> Shape:
    """One value per seat (or per side), in seat order."""
    return array(items, min_items=1, description=description)


def anything(description: str | None = None) -> Shape:
    """Any JSON value."""
    return _described({}, description)


def mapping(values: Shape, description: str | None = None) -> Shape:
    """An object whose keys are ids and whose values all have one shape."""
    return _described({"type": "object", "additionalProperties": values}, description)


def nullable(shape: Shape) -> Shape:
    return {"anyOf": [shape, null()]}


def one_of(*shapes: Shape, title: str | None = None, description: str | None = None) -> Shape:
    shape: Shape = {"oneOf": list(shapes)}
    if title is not None:
        shape = {"title": title, **shape}
    return _described(shape, description)


def obj(required: Mapping[str, Shape], optional: Mapping[str, Shape] | None = None, *,
        title: str | None = None, description: str | None = None,
        closed: bool = True) -> Shape:
    """An object with these fields; ``closed``: no other field is allowed."""
    properties: dict[str, JSON] = {**required, **(optional or {})}
    shape: Shape = {"type": "object", "properties": properties, "required": list(required)}
    if closed:
        shape["additionalProperties"] = False
    if title is not None:
        shape = {"title": title, **shape}
    return _described(shape, description)


def standing(title: str, totals: Mapping[str, Shape]) -> Shape:
    """A standings line (:class:`scoring.game.Standing`): the side, its name and rank, and the
    game's totals for it."""
    return obj({"name": string(), "rank": integer(minimum=1), **totals}, {
        "seat": integer(minimum=0, description="The seat, when the side is one seat"),
        "team": integer(minimum=0, description="The team, in options.teams order"),
        "seats": array(integer(minimum=0), description="The team's seats"),
        "player": boolean(description="false for a side no one at the table plays (Sea Change "
                          "solo's AI); its name is then said in the reader's language"),
    }, title=title)


ENTRY_PROBLEM = obj({
    "path": string(description="Where in the entry, e.g. captured[2][5]; empty for the whole "
                   "entry"),
    "code": string(description="Which rule, the same in every language"),
    "message": string(description="What is wrong or missing, in the reader's language"),
    "params": mapping(anything(), "The values the message names"),
}, title="EntryProblem", description="Something wrong or still missing in a round entry, named "
                                     "like a field of a problem's errors")
"""One item of a guide's ``errors`` (:meth:`scoring.errors.FieldError.as_json`)."""


def partly_entered(entry: Shape, *, title: str) -> Shape:
    """A round as far as it is typed in, as the guide reads it: the fields of ``entry`` (of each
    of its forms), none of them required and each of any value, and other fields too. The guide
    says what is missing or wrong in its answer rather than refusing the round."""
    fields: dict[str, Shape] = {}
    for form in _forms(entry):
        properties = form.get("properties")
        for name, field in (properties.items() if isinstance(properties, dict) else ()):
            if isinstance(field, dict):
                fields.setdefault(name, anything(_description(field)))
    return obj({}, fields, title=title, closed=False,
               description="A round as far as it is entered: any field may be missing, null or "
                           "still wrong; the guide says what")


def _description(shape: Shape) -> str | None:
    """A shape's description, or that of what it makes nullable."""
    described = shape.get("description")
    if isinstance(described, str):
        return described
    options = shape.get("anyOf")
    for option in options if isinstance(options, list) else ():
        found = _description(option) if isinstance(option, dict) else None
        if found is not None:
            return found
    return None


def _forms(shape: Shape) -> list[Shape]:
    """The object shapes a shape allows: itself, or each of its ``oneOf``."""
    forms = shape.get("oneOf")
    if isinstance(forms, list):
        return [form for form in forms if isinstance(form, dict)]
    return [shape]


@dataclass(frozen=True, slots=True)
class GameShapes:
    """What a game's JSON looks like: the round entry it reads, and the round result, the
    running totals after a round and one standings line it writes; the partly entered round its
    guide reads (:func:`partly_entered`) and the guide's answer. Each has a ``title``."""

    entry: Shape
    result: Shape
    totals: Shape
    standing: Shape
    partial_entry: Shape
    guide: Shape
