"""Errors in the games' own words.

Every check of an option or a round entry reports *all* problems at once, each naming the exact
field path (``captured[2][5]``, ``bids[1].taken_from.yellow``) and the declared
:class:`~scoring.messages.Message` it breaks, with that message's parameters: a stable code, and
plain English the API says again in the reader's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NoReturn

from scoring.messages import ENGLISH, NO_NAMES, Message, Names, Param, Wording

if TYPE_CHECKING:
    from scoring.reading import JSON

__all__ = ["Errors", "FieldError", "InvalidEntry", "InvalidInput", "InvalidOptions",
           "MatchFinished", "Param", "ScoringError", "at"]


@dataclass(frozen=True, slots=True)
class FieldError:
    """One invalid field: where (``path``), the rule's message it breaks and its values."""

    path: str
    template: Message
    params: Mapping[str, Param] = field(default_factory=dict)

    @property
    def code(self) -> str:
        return self.template.code

    @property
    def message(self) -> str:
        """The problem in plain English."""
        return self.template.render(self.params)

    def as_json(self, wording: Wording = ENGLISH, names: Names = NO_NAMES) -> dict[str, JSON]:
        """The error as the API shows it, said with ``wording``; ``names`` says who its seats
        and sides are."""
        params: dict[str, JSON] = {
            key: list(value) if isinstance(value, tuple) else value
            for key, value in self.params.items()
        }
        said = wording.say(wording.template(self.template, self.params), self.params,
                           self.template.kinds, names)
        return {"path": self.path, "code": self.code, "message": said, "params": params}


class ScoringError(Exception):
    """Base of every error this package raises on purpose."""


class InvalidInput(ScoringError):
    """Input that breaks the rules; ``errors`` lists every problem found."""

    def __init__(self, errors: tuple[FieldError, ...]) -> None:
        self.errors = errors
        super().__init__("; ".join(f"{e.path or '(entry)'}: {e.message}" for e in errors))


class InvalidOptions(InvalidInput):
    """Match options (or the player list) that the game does not allow."""


class InvalidEntry(InvalidInput):
    """A round entry that cannot have happened at a real table.

    ``round_number`` says which round of a match it was, when the entry was checked in a fold.
    """

    def __init__(self, errors: tuple[FieldError, ...], round_number: int | None = None) -> None:
        super().__init__(errors)
        self.round_number = round_number


class MatchFinished(ScoringError):
    """A round was entered after the match had already been decided."""

    def __init__(self, rounds_played: int) -> None:
        self.rounds_played = rounds_played
        super().__init__(f"the match was decided after round {rounds_played}; no further round")


class Errors(list[FieldError]):
    """Collects the problems of one check so they can all be reported together.

    A list underneath, because the games ask ``len(errors)`` many times per entry (to tell whether
    a part of it added a problem) and folding must stay fast.
    """

    def add(self, path: str, message: Message, **params: Param) -> None:
        self.append(FieldError(path, message, params))

    @property
    def found(self) -> tuple[FieldError, ...]:
        return tuple(self)


    def raise_all(self, kind: type[InvalidInput]) -> NoReturn:
        """Raise everything collected as ``kind``; for callers that know something was found."""
        raise kind(tuple(self))

    def raise_as(self, kind: type[InvalidInput]) -> None:
        """Raise ``kind`` with everything collected so far, if anything was."""
        if self:
            raise kind(tuple(self))


def at(path: str, key: str | int) -> str:
    """The path of ``key`` inside the value at ``path``: ``captured`` + 2 → ``captured[2]``."""
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key
