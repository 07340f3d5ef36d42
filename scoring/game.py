"""The protocol every game implements, and the value types a match fold returns.

A game is one module in ``scoring.games`` that defines ``GAME``, an object satisfying
:class:`Game`. The registry (:mod:`scoring.registry`) finds it there; nothing else needs to change
to add a game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, runtime_checkable

from scoring.measures import Measure, Priced
from scoring.messages import ENGLISH, NO_NAMES, Message, Names, Vocabulary, Wording
from scoring.reading import JSON
from scoring.shapes import (
    GameShapes,
    anything,
    array,
    integer,
    mapping,
    obj,
    string,
)

Opt = TypeVar("Opt")  # a game's options, filled in and validated
E = TypeVar("E")  # a game's round entry, validated
R = TypeVar("R", bound="Result")  # a game's round result
T = TypeVar("T", bound="Result")  # a game's running totals after a round


class Result(Protocol):
    """Anything a fold hands to the outside world renders itself as JSON."""

    def as_json(self) -> dict[str, JSON]: ...


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One match option as the app shows it: name, kind, a short ``label``, a one-line
    ``description`` (help), the default and, when it depends on the players, ``default_rule``
    (said as a person would: "3, or team size + 1 when playing in teams"); ``choice_labels``
    name each of the ``choices``. Words are plain English, said in the reader's language by the
    ``wording`` given to :meth:`as_json`.

    ``kind`` is one of ``int``, ``bool``, ``choice``, ``seat_groups`` (lists of seats),
    ``choices`` (a list drawn from ``choices``), ``values_by_rank`` (an object rank → number),
    ``text`` (a name, ``minimum`` to ``maximum`` characters).
    ``default`` is ``None`` when the default depends on the players; ``default_rule`` then says how.
    ``available`` states when the option applies, e.g. ``"players == 3"`` (for programs).
    """

    name: str
    kind: str
    label: str
    description: str
    default: JSON = None
    default_rule: str | None = None
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    available: str | None = None
    choice_labels: Mapping[str, str] = field(default_factory=dict)

    def _text(self, text: str) -> Message:
        return Message(f"option {self.name}", text)

    def declared_messages(self) -> tuple[Message, ...]:
        """The option's words as messages (context ``option <name>``), for the catalogues."""
        texts = [self.label, self.description, *self.choice_labels.values()]
        if self.default_rule is not None:
            texts.append(self.default_rule)
        return tuple(self._text(text) for text in texts)

    def as_json(self, wording: Wording = ENGLISH) -> dict[str, JSON]:
        def said(text: str) -> str:
            return wording.phrase(self._text(text))

        described: dict[str, JSON] = {
            "name": self.name, "kind": self.kind, "label": said(self.label),
            "description": said(self.description), "default": self.default,
        }
        if self.default_rule is not None:
            described["default_rule"] = said(self.default_rule)
        if self.choices:
            described["choices"] = list(self.choices)
        if self.choice_labels:
            described["choice_labels"] = {
                choice: said(label) for choice, label in self.choice_labels.items()}
        if self.minimum is not None:
            described["minimum"] = self.minimum
        if self.maximum is not None:
            described["maximum"] = self.maximum
        if self.available is not None:
            described["available"] = self.available
        return described


@dataclass(frozen=True, slots=True)
class SheetColumns:
    """How a game's round results and running totals read as score-sheet columns: a heading
    for each key (:class:`~scoring.messages.Vocabulary`, said in the reader's language), and the
    keys whose values are a seat or a side, shown as that player's or side's name; ``entry``:
    keys of the round's entry shown as columns too (what was said at the table and the result
    does not repeat, such as Sea Change's trump at round end); ``values``: keys whose value is a
    term of a vocabulary (a suit), said in the reader's language; ``round``: the heading key of
    the column that numbers the rounds (``round`` from the export's own headings, or one of
    ``headings``: a Tschau Sepp round is a game)."""

    headings: Vocabulary
    seats: frozenset[str] = frozenset()
    sides: frozenset[str] = frozenset()
    entry: tuple[str, ...] = ()
    values: Mapping[str, Vocabulary] = field(default_factory=dict)
    round: str = "round"


PAPER_ROWS = 20
"""The most rows a paper score sheet prints: an A4 page holds 20 well, and a match that may run
longer goes on to a second sheet."""


@dataclass(frozen=True, slots=True)
class PaperSheet:
    """A blank paper score sheet of one table, for when the phones fail: per side (a seat, or a
    team's seats) the ``columns`` written each row (keys of the game's :class:`SheetColumns`
    headings), one row per round or game (``row``, a heading key too) for the longest match the
    options allow (at most :data:`PAPER_ROWS`), and a totals row under the ``totalled`` columns.
    ``more`` says the match may need more rows than printed (it ends on a limit, not a count)."""

    columns: tuple[str, ...]
    totalled: frozenset[str]
    rows: int
    row: str
    sides: tuple[tuple[int, ...], ...]
    more: bool = False


def paper_rows(rows: int) -> tuple[int, bool]:
    """``rows`` capped at :data:`PAPER_ROWS`, and whether the cap cut any."""
    return min(rows, PAPER_ROWS), rows > PAPER_ROWS


OPTION_KINDS = ("int", "bool", "choice", "seat_groups", "choices", "values_by_rank", "text")
OPTION_SHAPE = obj(
    {"name": string(), "kind": string(OPTION_KINDS), "label": string(), "description": string(),
     "default": anything("null when the default depends on the players (see default_rule)")},
    {"default_rule": string(), "choices": array(string()),
     "choice_labels": mapping(string(), "A label per choice"), "minimum": integer(),
     "maximum": integer(),
     "available": string(description="When the option applies, e.g. players == 3")},
    title="GameOption")
DESCRIPTION_SHAPE = obj(
    {"id": string(), "name": string(description="The game's name in the request's language "
                                     "(the id never changes)"),
     "min_players": integer(minimum=1),
     "max_players": integer(minimum=1), "options": array(OPTION_SHAPE)},
    title="GameDescription", closed=False,
    description="A game as a client offers it; each game adds what its entry screens need "
                "(card ids, suits, decks, seals, tables of points)")
"""What every game's :meth:`Game.describe` answers, at least."""


@dataclass(frozen=True, slots=True)
class Setup(Generic[Opt]):
    """What a match fixes before its first round: the players in seat order and the options."""

    players: tuple[str, ...]
    options: Opt


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a match was decided, for the winner screen: a declared message, its parameters, and
    who the seats and sides it names are."""

    template: Message
    params: Mapping[str, JSON] = field(default_factory=dict)
    names: Names = NO_NAMES

    @property
    def code(self) -> str:
        return self.template.code

    @property
    def message(self) -> str:
        return self.template.render(self.params, self.names)

    def as_json(self) -> dict[str, JSON]:
        return {"code": self.code, "message": self.message, "params": dict(self.params)}


@dataclass(frozen=True, slots=True)
class Standing:
    """One side's line in the standings: a seat, or a team of seats, with its totals."""

    side: int
    seats: tuple[int, ...]
    name: str
    rank: int
    totals: Mapping[str, JSON]
    is_team: bool = False
    computer: bool = False
    """A side no one at the table plays (Sea Change solo's AI): its line says ``player: false``
    and its ``name`` is a :data:`scoring.messages.COMPUTER` id."""

    def as_json(self) -> dict[str, JSON]:
        line: dict[str, JSON] = (
            {"team": self.side, "seats": list(self.seats)} if self.is_team else {"seat": self.side}
        )
        line.update(name=self.name, rank=self.rank)
        if self.computer:
            line["player"] = False
        line.update(self.totals)
        return line


@dataclass(frozen=True, slots=True)
class Verdict:
    """Standings sorted by rank; once finished, the winners (seats or teams) and the reason."""

    standings: tuple[Standing, ...]
    finished: bool
    winners: tuple[int, ...] = ()
    reason: Reason | None = None


class Game(Protocol[Opt, E, R, T]):
    """What a game module provides. Sides are seats, or teams where a game has them.

    The fold (:func:`scoring.match.fold_match`) drives these in order: options once, then for each
    round ``read_entry`` → ``score_round`` → ``add_round``, asking ``is_over`` in between, and
    ``judge`` at the end.
    """

    id: str
    name: str
    """The game's name in English: the catalogues' key of its name in every language
    (:func:`scoring.registry.game_name`)."""
    min_players: int
    max_players: int
    sheet: SheetColumns
    shapes: GameShapes
    """The JSON shapes of a round entry, round result, totals and standings line."""
    measures: tuple[Measure, ...]
    """What a club's statistics average per member: totals of the standings line."""

    def describe(self, wording: Wording = ENGLISH) -> dict[str, JSON]:
        """Everything a client needs to offer this game: options, card ids, seal ids, decks;
        its words (option labels and help, names of suits and ranks) said with ``wording``."""
        ...

    def read_options(self, raw: Mapping[str, JSON], players: int) -> Opt:
        """Validated options with defaults filled in; raises ``InvalidOptions``."""
        ...

    def options_json(self, options: Opt) -> dict[str, JSON]:
        """Every option, defaults filled in, as the API returns them."""
        ...

    def read_entry(self, raw: JSON, setup: Setup[Opt], earlier: Sequence[E]) -> E:
        """A validated round entry; raises ``InvalidEntry`` naming every bad field."""
        ...

    def score_round(self, entry: E, setup: Setup[Opt]) -> R:
        ...

    def first_totals(self, setup: Setup[Opt]) -> T:
        """The totals before any round."""
        ...

    def add_round(self, totals: T, result: R, setup: Setup[Opt]) -> T:
        """The totals after one more round.

        May raise ``InvalidEntry`` when the entry lacks something only the match so far shows to
        be needed (Sea Change: ``tricks`` to break a game-end tie by cards collected).
        """
        ...

    def is_over(self, totals: T, rounds: Sequence[R], setup: Setup[Opt]) -> bool:
        """Whether the match is decided after ``rounds`` (all results so far)."""
        ...

    def judge(self, totals: T, rounds: Sequence[R], setup: Setup[Opt]) -> Verdict:
        """Standings with shared ranks; winners and reason once the match is over."""
        ...

    def paper(self, options: Opt, players: int) -> PaperSheet:
        """The blank paper score sheet of a table of ``players`` playing with ``options``."""
        ...

    def priced(self, setup: Setup[Opt]) -> Priced | None:
        """The total a match of this setup played for money pays by; ``None`` where stakes
        make no sense (a side no one at the table plays)."""
        ...

    def score_share(self, totals: T, setup: Setup[Opt]) -> tuple[float, ...]:
        """Per seat, the seat's game result relative to its table, higher is better.

        Tournaments use it as a tiebreak: VP share, or penalty points against the table average.
        """
        ...

    def guide(self, raw: JSON, setup: Setup[Opt], earlier: Sequence[E],
              wording: Wording = ENGLISH) -> dict[str, JSON]:
        """Help for a partly entered round, e.g. cards still unassigned, seals left in the middle.

        Never raises for an incomplete entry: it says what it can and lists the problems so far,
        each said with ``wording``.
        """
        ...


AnyGame = Game[Any, Any, Any, Any]


@runtime_checkable
class FinishedByHand(Protocol):
    """A game without an end of its own (the score pad): the table says when its match is over.

    The finish is part of the options (the rounds played then), so a fold stays a pure function
    of game, players, options and entries."""

    def can_finish(self, setup: Setup[Any], rounds: int) -> bool:
        """Whether a match of this setup with ``rounds`` rounds can be finished now."""
        ...

    def finished_by_hand(self, options: Any, rounds: int) -> Any:
        """The options of the match finished after ``rounds`` rounds."""
        ...

    def reopened(self, options: Any) -> Any:
        """The options of the match open again (its last round undone)."""
        ...


@runtime_checkable
class Variants(Protocol):
    """A game whose matches are each of a game of its own for a club's statistics and ratings:
    a score pad's ``title``."""

    def variant(self, options: JSON) -> str:
        """The variant of a match whose options are ``options`` (as stored or as given)."""
        ...


VARIANT_SEPARATOR = ":"


class GameVariant:
    """A game's matches of one variant as a game of its own (``score-pad:Jass``): everything as
    the game does, under the variant's key as ``id`` and its name as ``name``; what a club's
    statistics, ratings and history count by."""

    def __init__(self, game: AnyGame, variant: str) -> None:
        self.game = game
        self.variant = variant
        self.id = f"{game.id}{VARIANT_SEPARATOR}{variant}"
        self.name = variant
        self.min_players = game.min_players
        self.max_players = game.max_players
        self.sheet = game.sheet
        self.shapes = game.shapes
        self.measures = game.measures

    def describe(self, wording: Wording = ENGLISH) -> dict[str, JSON]:
        return self.game.describe(wording)

    def read_options(self, raw: Mapping[str, JSON], players: int) -> Any:
        return self.game.read_options(raw, players)

    def options_json(self, options: Any) -> dict[str, JSON]:
        return self.game.options_json(options)

    def read_entry(self, raw: JSON, setup: Setup[Any], earlier: Sequence[Any]) -> Any:
        return self.game.read_entry(raw, setup, earlier)

    def score_round(self, entry: Any, setup: Setup[Any]) -> Any:
        return self.game.score_round(entry, setup)

    def first_totals(self, setup: Setup[Any]) -> Any:
        return self.game.first_totals(setup)

    def add_round(self, totals: Any, result: Any, setup: Setup[Any]) -> Any:
        return self.game.add_round(totals, result, setup)

    def is_over(self, totals: Any, rounds: Sequence[Any], setup: Setup[Any]) -> bool:
        return self.game.is_over(totals, rounds, setup)

    def judge(self, totals: Any, rounds: Sequence[Any], setup: Setup[Any]) -> Verdict:
        return self.game.judge(totals, rounds, setup)

    def paper(self, options: Any, players: int) -> PaperSheet:
        return self.game.paper(options, players)

    def priced(self, setup: Setup[Any]) -> Priced | None:
        return self.game.priced(setup)

    def score_share(self, totals: Any, setup: Setup[Any]) -> tuple[float, ...]:
        return self.game.score_share(totals, setup)

    def guide(self, raw: JSON, setup: Setup[Any], earlier: Sequence[Any],
              wording: Wording = ENGLISH) -> dict[str, JSON]:
        return self.game.guide(raw, setup, earlier, wording)


def counted_as(game: AnyGame, options: JSON) -> AnyGame:
    """The game a match of ``options`` counts for in a club's statistics, ratings and history:
    the game itself, or its variant (:class:`GameVariant`, ``score-pad:Jass``). ``options`` as
    stored (:meth:`Game.options_json`) or as given."""
    if isinstance(game, Variants):
        return GameVariant(game, game.variant(options))
    return game


def game_key(game: AnyGame, options: JSON) -> str:
    """The key of :func:`counted_as`: the game's id, or ``<id>:<variant>``."""
    return counted_as(game, options).id
