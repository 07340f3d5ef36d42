"""The engine's words: every message it can say, declared once, in plain English.

A :class:`Message` is a stable ``code`` with an English template (and its plural, chosen by one
parameter); every field error and every reason the engine produces is made from one, so the set
of codes and what they say can be read from the engine itself (:func:`declared`). The templates
name their parameters (``{supply}``); a parameter that is not a plain number or text says what
it is through a :class:`Kind`: a seat, a side, a seal colour, a card. The engine renders English
(:class:`English`); the API renders the same message in the reader's language from its
catalogues, with the same parameters.

Writing a message: a whole sentence in the players' words, saying what is wrong at the table and
what they entered ("Only 6 black seals exist; you entered 7."), never a field name, ``null`` or
an option's id.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from string import Formatter
from types import ModuleType
from typing import Any, TypeAlias

Param: TypeAlias = "str | int | float | bool | tuple[str | int, ...] | None"


class Kind:
    """What a parameter stands for, when it is more than a number or a text."""


@dataclass(frozen=True, slots=True, eq=False)
class Vocabulary(Kind):
    """Ids of one kind of thing (seal colours, suits, ranks) and their English names.

    ``context`` tells a translator what the words are; ``forms`` names the extra grammatical
    forms a language may need in a sentence (``{colour:plural}``), each with a note for the
    translator. English uses the name in every form.
    """

    context: str
    names: Mapping[str, str]
    forms: Mapping[str, str] = field(default_factory=dict)

    def english(self, value: object) -> str:
        return self.names.get(str(value), str(value))


@dataclass(frozen=True, slots=True, eq=False)
class Person(Kind):
    """A seat (or a side of the table) by its number: the player's name where the names are
    known, else ``message`` with the ``number``."""

    message: Message


@dataclass(frozen=True, slots=True, eq=False)
class Listed(Kind):
    """A list whose items are of ``item`` kind (``None``: numbers or texts), joined with "and"
    or with "or"."""

    item: Kind | None = None
    joiner: str = "and"


@dataclass(frozen=True, slots=True, eq=False)
class Named(Kind):
    """An id named by a message of its own: a card id ``rosen-ass`` split into ``suit`` and
    ``rank`` and said as "Ace of Roses"."""

    message: Message
    split: Callable[[str], Mapping[str, Param] | None]


@dataclass(frozen=True, slots=True, eq=False)
class ByOption(Kind):
    """A kind that depends on a match option: Jass cards with Swiss or French faces."""

    option: str
    kinds: Mapping[str, Kind]
    default: str

    def chosen(self, options: Mapping[str, Any] | None) -> Kind:
        value = (options or {}).get(self.option)
        return self.kinds.get(value if isinstance(value, str) else self.default,
                              self.kinds[self.default])


@dataclass(frozen=True, slots=True, eq=False)
class Message:
    """A code with its English template; ``plural`` is used unless ``params[count]`` is 1.

    ``kinds`` says what the parameters that are not plain numbers or texts stand for.
    """

    code: str
    text: str
    plural: str | None = None
    count: str | None = None
    kinds: Mapping[str, Kind] = field(default_factory=dict)
    when: Mapping[str, Param] = field(default_factory=dict)
    """Parameter values that single this message out among those of its code (a reason that
    says how the match ended): see :func:`most_specific`."""

    def __post_init__(self) -> None:
        if (self.plural is None) != (self.count is None):
            raise ValueError(f"{self.code}: a plural needs the parameter that counts, and back")

    def template(self, params: Mapping[str, object]) -> str:
        """The English template that fits ``params``: singular or plural."""
        if self.plural is None or params.get(self.count or "") == 1:
            return self.text
        return self.plural

    def render(self, params: Mapping[str, object], names: Names | None = None) -> str:
        """The message in plain English; ``names`` says who its seats and sides are."""
        return ENGLISH.say(self.template(params), params, self.kinds, names)


SEAT = Person(Message("seat", "seat {number}"))
SIDE = Person(Message("side", "side {number}"))
YES_NO = Vocabulary("an answer in a table cell", {"True": "yes", "False": "no"})
COMPUTER = Vocabulary("the name of the computer's side of the table in a solo game",
                      {"AI": "AI"})


@cache
def placeholders(template: str) -> frozenset[str]:
    """The parameter names a template uses (``{colour:plural}`` → ``colour``)."""
    return frozenset(name for _, name, _, _ in Formatter().parse(template) if name)


class Wording:
    """How one language writes numbers, terms, seats and lists into a template.

    Which of those a parameter is comes from its :class:`Kind`; this class and its subclasses
    only say how each is written. English here; the API's wording speaks the reader's language.
    """

    def say(self, template: str, params: Mapping[str, object], kinds: Mapping[str, Kind],
            names: Names | None = None) -> str:
        """``template`` filled in, its first letter capitalised (it starts a sentence)."""
        text = _Filler(self, kinds, names or NO_NAMES).vformat(template, (), params)
        return text[:1].upper() + text[1:]

    def template(self, message: Message, params: Mapping[str, object]) -> str:
        """The template of ``message`` for ``params`` in this language."""
        return message.template(params)

    def phrase(self, message: Message) -> str:
        """A message without parameters (a label, a line of help)."""
        return self.template(message, {})

    def part(self, message: Message, params: Mapping[str, object], names: Names) -> str:
        """A message inside a sentence (a card's name, "seat 3"): not capitalised."""
        template = self.template(message, params)
        return _Filler(self, message.kinds, names).vformat(template, (), params)

    def term(self, vocabulary: Vocabulary, value: object, form: str) -> str:
        return vocabulary.english(value)

    def number(self, value: int | float) -> str:
        return str(value)

    def joined(self, items: Sequence[str], joiner: str) -> str:
        if len(items) < 2:
            return "".join(items)
        return f"{', '.join(items[:-1])} {joiner} {items[-1]}"


@dataclass(frozen=True, slots=True)
class Names:
    """Who the seats and sides of a message are, and the match's options (for kinds that
    depend on one)."""

    players: Sequence[str] = ()
    sides: Sequence[str] = ()
    options: Mapping[str, Any] = field(default_factory=dict)
    computer: frozenset[int] = frozenset()
    """Sides played by no one at the table (Sea Change solo's AI), named by :data:`COMPUTER`."""

    def name(self, kind: Person, number: int) -> str | None:
        names = self.sides if kind is SIDE else self.players
        return names[number] if 0 <= number < len(names) else None


NO_NAMES = Names()


class _Filler(Formatter):
    """One filling of a template: each placeholder written by its parameter's kind."""

    def __init__(self, wording: Wording, kinds: Mapping[str, Kind], names: Names) -> None:
        super().__init__()
        self.wording, self.kinds, self.names = wording, kinds, names

    def get_value(self, key: int | str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        return (self.kinds.get(str(key)), kwargs[str(key)])

    def format_field(self, value: Any, format_spec: str) -> str:
        kind, raw = value
        return self.value(raw, kind, format_spec)

    def value(self, raw: object, kind: Kind | None, form: str) -> str:
        wording = self.wording
        if isinstance(kind, ByOption):
            kind = kind.chosen(self.names.options)
        if isinstance(kind, Listed):
            items = raw if isinstance(raw, list | tuple) else [raw]
            return wording.joined([self.value(item, kind.item, form) for item in items],
                                  kind.joiner)
        if isinstance(kind, Vocabulary):
            return wording.term(kind, raw, form)
        if isinstance(kind, Person) and isinstance(raw, int) and not isinstance(raw, bool):
            if kind is SIDE and raw in self.names.computer:
                return wording.term(COMPUTER, self.names.sides[raw], form)
            name = self.names.name(kind, raw)
            return name if name is not None else wording.part(kind.message, {"number": raw},
                                                              self.names)
        if isinstance(kind, Named) and isinstance(raw, str):
            parts = kind.split(raw)
            if parts is not None:
                return wording.part(kind.message, parts, self.names)
        if isinstance(raw, bool):
            return wording.term(YES_NO, str(raw), form)
        if isinstance(raw, int | float):
            return wording.number(raw)
        if isinstance(raw, list | tuple):
            return wording.joined([self.value(item, None, form) for item in raw], "and")
        return "" if raw is None else str(raw)


ENGLISH = Wording()


def declared_in(module: ModuleType) -> Iterator[Message | Vocabulary]:
    """Every message and vocabulary a module declares at its top level (also inside tuples,
    mappings and kinds, e.g. the vocabularies a message's kinds refer to)."""
    seen: dict[int, object] = {}  # holding each object keeps its id from being reused

    def walk(value: object) -> Iterator[Message | Vocabulary]:
        if isinstance(value, Message | Kind):
            if id(value) in seen:
                return
            seen[id(value)] = value
        if isinstance(value, Message):
            yield value
            yield from walk(tuple(value.kinds.values()))
        elif isinstance(value, Vocabulary):
            yield value
        elif isinstance(value, Listed):
            yield from walk(value.item)
        elif isinstance(value, Named | Person):
            yield from walk(value.message)
        elif isinstance(value, ByOption):
            yield from walk(tuple(value.kinds.values()))
        elif isinstance(value, tuple | list):
            for item in value:
                yield from walk(item)
        elif not isinstance(value, type) and callable(
                declared_messages := getattr(value, "declared_messages", None)):
            yield from walk(declared_messages())
        elif isinstance(value, Mapping):
            for item in value.values():
                yield from walk(item)

    for name, value in vars(module).items():
        if not name.startswith("__"):
            yield from walk(value)


def most_specific(messages: Sequence[Message], params: Mapping[str, object]) -> Message | None:
    """Of the messages that share a code, the one that fits ``params`` best: its ``when``
    conditions hold and every placeholder is given; of those, the one with the most conditions,
    then the most placeholders. A stored reason is said again this way from its code and
    parameters alone (a test checks that this finds the message of every reason the engine
    gives)."""
    def used(message: Message) -> frozenset[str]:
        return placeholders(message.text) | placeholders(message.plural or "")

    fitting = [message for message in messages
               if used(message) <= params.keys()
               and all(params.get(key) == value for key, value in message.when.items())]
    return max(fitting, key=lambda message: (len(message.when), len(used(message))),
               default=None)


def engine_modules() -> Iterator[ModuleType]:
    """Every module of the ``scoring`` package, imported."""
    import scoring

    for info in pkgutil.walk_packages(scoring.__path__, prefix="scoring."):
        yield importlib.import_module(info.name)


def declared() -> tuple[Message, ...]:
    """Every message the engine can produce, from the modules that declare them."""
    found: dict[int, Message] = {}
    for module in engine_modules():
        for item in declared_in(module):
            if isinstance(item, Message):
                found.setdefault(id(item), item)
    return tuple(found.values())
