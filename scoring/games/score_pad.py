"""The score pad: any other game (Jass, Rommé, Skat, Doppelkopf, Wizard, Hearts), one whole
number per side per round.

Sides are seats; with the ``teams`` option (as in Sea Change: equal teams seated alternately)
one side per team in ``teams`` order. Options: ``title`` (required, the game's name wherever the
match is shown), ``winner`` (``most`` or ``fewest`` points win), ``target``, ``rounds``,
``round_total`` (what every round's points add up to: 157 for Jass, 0 for a zero-sum game).

Decisions where the contract is silent:
- The match ends after the round in which a side's total reaches ``target`` (at least the
  target), whichever way the pad is won: with ``winner: fewest`` (Hearts) the side that reaches
  it ends the match and the fewest points win. With both ``target`` and ``rounds``, whichever
  comes first ends it. Without either the match ends only when finished by hand.
- Finished by hand (``POST /matches/{id}/finish``) is the option ``finished_after``, the number
  of rounds played then (:func:`finished_by_hand`): a correction keeps it, a further round is
  refused as after any decided match, and the API drops it (:func:`reopened`) when the last
  round is undone, so the match is open again and goes on as long as the table plays.
  It is accepted at creation as well (a backup's match comes back as it was), where it acts as
  ``rounds`` does.
- Equal totals share a rank, and at the end the win: every side ranked first wins.
- The reason names the side that reached the target (the highest total when several did) and
  its total, and who wins with how many points.
- Points per side are whole numbers from −1 000 000 to 1 000 000; ``target`` from 1 to
  1 000 000, ``rounds`` from 1 to 1 000, ``round_total`` within ±1 000 000.
- A club's statistics measure ``margin``: a side's points ahead of the best other side (with
  ``winner: fewest``, the best other side's points minus its own), so higher is better in every
  pad; the winner's margin is how clearly it won, a loser's how far it stayed behind.
- ``score_share`` (a tournament's tiebreak) per seat: its side's points against the table's
  average, turned so that higher is better.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.errors import Errors, InvalidEntry, InvalidOptions, at
from scoring.game import (
    PAPER_ROWS,
    OptionSpec,
    PaperSheet,
    Reason,
    Setup,
    SheetColumns,
    Standing,
    Verdict,
    paper_rows,
)
from scoring.games.sea_change import _read_teams
from scoring.match import names_of
from scoring.measures import Measure, Priced
from scoring.messages import ENGLISH, SIDE, Listed, Message, Names, Vocabulary, Wording
from scoring.ranking import shared_ranks
from scoring.reading import (
    JSON,
    read_choice,
    read_int,
    read_list,
    read_name,
    read_object,
    require,
)
from scoring.registry import game_name
from scoring.shapes import (
    ENTRY_PROBLEM,
    GameShapes,
    integer,
    nullable,
    obj,
    partly_entered,
    per_seat,
    standing,
)

MAX_TITLE = 60
MAX_PLAYERS = 20
MAX_POINTS = 1_000_000
MAX_ROUNDS = 1_000
WINNERS = ("most", "fewest")
OPTION_FIELDS = ("title", "winner", "target", "rounds", "round_total", "teams", "finished_after")

SIDES = Listed(SIDE)
TITLE_NEEDED = Message("blank_title", "Name the game you are playing, e.g. Jass.")
WRONG_SUM = Message(
    "round_total",
    "The points add up to {sum}; every round adds up to {expected}.")
TARGET_REACHED = Message("target_reached", "{side} reached {reached} of {target}.",
                         kinds={"side": SIDE})
TARGET_SHARED = Message("target_shared",
                        "{winners} reached {reached} of {target} and share the win.",
                        kinds={"winners": SIDES})
TARGET_FEWEST = Message("target_fewest",
                        "{side} reached {reached} of {target}; {winner} wins with {points}.",
                        kinds={"side": SIDE, "winner": SIDE})
TARGET_FEWEST_SHARED = Message(
    "target_fewest_shared",
    "{side} reached {reached} of {target}; {winners} share the win with {points} each.",
    kinds={"side": SIDE, "winners": SIDES})
ROUNDS_PLAYED = Message("rounds_played", "After 1 round {winner} wins with {points}.",
                        plural="After {rounds} rounds {winner} wins with {points}.",
                        count="rounds", kinds={"winner": SIDE})
ROUNDS_SHARED = Message(
    "rounds_shared", "After 1 round {winners} share the win with {points} each.",
    plural="After {rounds} rounds {winners} share the win with {points} each.",
    count="rounds", kinds={"winners": SIDES})
FINISHED = Message("finished_by_hand", "Finished after 1 round; {winner} wins with {points}.",
                   plural="Finished after {rounds} rounds; {winner} wins with {points}.",
                   count="rounds", kinds={"winner": SIDE})
FINISHED_SHARED = Message(
    "finished_shared", "Finished after 1 round; {winners} share the win with {points} each.",
    plural="Finished after {rounds} rounds; {winners} share the win with {points} each.",
    count="rounds", kinds={"winners": SIDES})
COLUMNS = Vocabulary("a column of a score pad (any card game's score sheet)", {
    "points": "points", "round": "round",
})
SHEET = SheetColumns(COLUMNS)


@dataclass(frozen=True, slots=True)
class Options:
    title: str
    winner: str
    target: int | None
    rounds: int | None
    round_total: int | None
    teams: tuple[tuple[int, ...], ...] | None
    side_seats: tuple[tuple[int, ...], ...]
    finished_after: int | None = None

    @property
    def fewest(self) -> bool:
        return self.winner == "fewest"


@dataclass(frozen=True, slots=True)
class Entry:
    points: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class RoundResult:
    points: tuple[int, ...]

    def as_json(self) -> dict[str, JSON]:
        return {"points": list(self.points)}


@dataclass(frozen=True, slots=True)
class Totals:
    points: tuple[int, ...]

    def as_json(self) -> dict[str, JSON]:
        return {"points": list(self.points)}


# --- options -------------------------------------------------------------------------------


def read_options(raw: Mapping[str, JSON], players: int) -> Options:
    errors = Errors()
    read_object(dict(raw), "", errors, allowed=OPTION_FIELDS)
    title = read_name(raw.get("title"), "title", errors, maximum=MAX_TITLE, blank=TITLE_NEEDED) \
        if raw.get("title") is not None else None
    if raw.get("title") is None:
        errors.add("title", TITLE_NEEDED)
    winner: str | None = "most"
    if raw.get("winner") is not None:
        winner = read_choice(raw["winner"], "winner", errors, WINNERS)
    target = rounds = round_total = finished_after = None
    if raw.get("target") is not None:
        target = read_int(raw["target"], "target", errors, minimum=1, maximum=MAX_POINTS)
    if raw.get("rounds") is not None:
        rounds = read_int(raw["rounds"], "rounds", errors, minimum=1, maximum=MAX_ROUNDS)
    if raw.get("round_total") is not None:
        round_total = read_int(raw["round_total"], "round_total", errors, minimum=-MAX_POINTS,
                               maximum=MAX_POINTS)
    if raw.get("finished_after") is not None:
        finished_after = read_int(raw["finished_after"], "finished_after", errors, minimum=1,
                                  maximum=MAX_ROUNDS)
    teams = None if raw.get("teams") is None else _read_teams(raw["teams"], players, errors)
    errors.raise_as(InvalidOptions)
    assert title is not None
    assert winner is not None
    side_seats = teams if teams is not None else tuple((seat,) for seat in range(players))
    return Options(title, winner, target, rounds, round_total, teams, side_seats,
                   finished_after)


def options_json(options: Options) -> dict[str, JSON]:
    answer: dict[str, JSON] = {
        "title": options.title, "winner": options.winner, "target": options.target,
        "rounds": options.rounds, "round_total": options.round_total,
        "teams": None if options.teams is None else [list(team) for team in options.teams],
    }
    if options.finished_after is not None:
        answer["finished_after"] = options.finished_after
    return answer


def finished_by_hand(options: Options, rounds: int) -> Options:
    """The options of a match finished by hand after ``rounds`` rounds."""
    return Options(options.title, options.winner, options.target, options.rounds,
                   options.round_total, options.teams, options.side_seats, rounds)


def reopened(options: Options) -> Options:
    """The options of a match finished by hand, open again."""
    return Options(options.title, options.winner, options.target, options.rounds,
                   options.round_total, options.teams, options.side_seats)


# --- rounds --------------------------------------------------------------------------------


def read_entry(raw: JSON, setup: Setup[Options]) -> Entry:
    errors = Errors()
    entry = _read(raw, setup, errors)
    errors.raise_as(InvalidEntry)
    assert entry is not None  # nothing wrong was found
    return entry


def _read(raw: JSON, setup: Setup[Options], errors: Errors) -> Entry | None:
    body = read_object(raw, "", errors, allowed=("points",))
    if body is None:
        return None
    given = require(body, "points", "", errors)
    if given is None:
        return None
    sides = len(setup.options.side_seats)
    items = read_list(given, "points", errors, length=sides)
    if items is None:
        return None
    numbers = [read_int(item, at("points", side), errors, minimum=-MAX_POINTS,
                        maximum=MAX_POINTS) for side, item in enumerate(items)]
    points = tuple(number for number in numbers if number is not None)
    if len(points) != sides:
        return None
    expected = setup.options.round_total
    if expected is not None and sum(points) != expected:
        errors.add("points", WRONG_SUM, sum=sum(points), expected=expected)
        return None
    return Entry(points)


def score_round(entry: Entry, setup: Setup[Options]) -> RoundResult:
    return RoundResult(entry.points)


def first_totals(setup: Setup[Options]) -> Totals:
    return Totals((0,) * len(setup.options.side_seats))


def add_round(totals: Totals, result: RoundResult, setup: Setup[Options]) -> Totals:
    return Totals(tuple(a + b for a, b in zip(totals.points, result.points, strict=True)))


def _reached(totals: Totals, options: Options) -> bool:
    return options.target is not None and max(totals.points) >= options.target


def is_over(totals: Totals, rounds: Sequence[RoundResult], setup: Setup[Options]) -> bool:
    options = setup.options
    played = len(rounds)
    return bool(rounds) and (
        _reached(totals, options)
        or (options.rounds is not None and played >= options.rounds)
        or (options.finished_after is not None and played >= options.finished_after))


def side_names(setup: Setup[Options]) -> tuple[str, ...]:
    return tuple(" & ".join(setup.players[seat] for seat in seats)
                 for seats in setup.options.side_seats)


def _keys(points: Sequence[int], options: Options) -> list[Any]:
    """Sort keys, smaller is better (Any: ranking wants ``__lt__(object)``)."""
    return [p if options.fewest else -p for p in points]


def _reason(totals: Totals, winners: tuple[int, ...], played: int, options: Options,
            names: Names) -> Reason:
    points = totals.points[winners[0]]
    won: dict[str, JSON] = (
        {"winner": winners[0], "name": names.sides[winners[0]]} if len(winners) == 1
        else {"winners": list(winners), "names": [names.sides[side] for side in winners]})
    won["points"] = points
    single = len(winners) == 1
    if _reached(totals, options):
        assert options.target is not None
        top = max(totals.points)
        side = totals.points.index(top)
        reached: dict[str, JSON] = {"side": side, "reached": top, "target": options.target}
        if not options.fewest:
            if single:
                return Reason(TARGET_REACHED, {**reached, "name": names.sides[side]}, names)
            return Reason(TARGET_SHARED, {**reached, **won}, names)
        return Reason(TARGET_FEWEST if single else TARGET_FEWEST_SHARED,
                      {**reached, "reached_name": names.sides[side], **won}, names)
    if options.rounds is not None and played >= options.rounds:
        return Reason(ROUNDS_PLAYED if single else ROUNDS_SHARED, {"rounds": played, **won},
                      names)
    return Reason(FINISHED if single else FINISHED_SHARED, {"rounds": played, **won}, names)


def margins(points: Sequence[int], options: Options) -> tuple[int, ...]:
    """Per side: its points ahead of the best other side (higher is better either way)."""
    if len(points) < 2:
        return (0,) * len(points)
    found = []
    for side, own in enumerate(points):
        others = [p for other, p in enumerate(points) if other != side]
        found.append(min(others) - own if options.fewest else own - max(others))
    return tuple(found)


def judge(totals: Totals, rounds: Sequence[RoundResult], setup: Setup[Options]) -> Verdict:
    options = setup.options
    names = side_names(setup)
    ranks = shared_ranks(_keys(totals.points, options))
    finished = is_over(totals, rounds, setup)
    winners: tuple[int, ...] = ()
    reason = None
    if finished:
        winners = tuple(side for side, rank in enumerate(ranks) if rank == 1)
        reason = _reason(totals, winners, len(rounds), options,
                         Names(setup.players, names, options_json(options)))
    margin = margins(totals.points, options)
    standings = tuple(sorted(
        (Standing(side, seats, names[side], ranks[side],
                  {"points": totals.points[side], "margin": margin[side]},
                  is_team=options.teams is not None)
         for side, seats in enumerate(options.side_seats)),
        key=lambda line: (line.rank, line.side)))
    return Verdict(standings, finished, winners, reason)


def score_share(totals: Totals, setup: Setup[Options]) -> tuple[float, ...]:
    options = setup.options
    average = sum(totals.points) / len(totals.points)
    per_side = [(average - p) if options.fewest else (p - average) for p in totals.points]
    side_of = {seat: side for side, seats in enumerate(options.side_seats) for seat in seats}
    return tuple(per_side[side_of[seat]] for seat in range(len(setup.players)))


# --- guide and description -----------------------------------------------------------------


def guide(raw: JSON, setup: Setup[Options], earlier: Sequence[Entry],
          wording: Wording = ENGLISH) -> dict[str, JSON]:
    """Running numbers for the entry screen of a partly entered round.

    ``sides``, ``round_total`` (or null), ``typed`` (the sum of the whole numbers typed so far),
    ``last_points`` ({side, points}: the one side not typed yet, from ``round_total``, or null),
    ``totals`` (before this round), ``totals_after`` (with this round as typed, an empty field
    counting as 0 and the last one as ``last_points``), ``complete`` and ``errors``.
    """
    options = setup.options
    sides = len(options.side_seats)
    totals = first_totals(setup)
    for entry in earlier:
        totals = add_round(totals, score_round(entry, setup), setup)
    body = raw if isinstance(raw, dict) else {}
    given = body.get("points")
    typed_points: list[int | None] = [None] * sides
    if isinstance(given, list):
        for side, value in enumerate(given[:sides]):
            if isinstance(value, int) and not isinstance(value, bool):
                typed_points[side] = value
    typed = sum(p for p in typed_points if p is not None)
    missing = [side for side, p in enumerate(typed_points) if p is None]
    last: dict[str, JSON] | None = None
    if options.round_total is not None and len(missing) == 1 and isinstance(given, list) \
            and len(given) == sides:
        last = {"side": missing[0], "points": options.round_total - typed}
    filled = [p if p is not None else 0 for p in typed_points]
    if last is not None:
        filled[missing[0]] = options.round_total - typed  # type: ignore[operator]
    errors = Errors()
    complete = _read(raw, setup, errors) is not None and not errors
    names = names_of(GAME, setup)
    return {
        "sides": sides, "round_total": options.round_total, "typed": typed,
        "last_points": last, "totals": list(totals.points),
        "totals_after": [a + b for a, b in zip(totals.points, filled, strict=True)],
        "complete": complete,
        "errors": [problem.as_json(wording, names) for problem in errors],
    }


OPTION_SPECS = (
    OptionSpec("title", "text", "Game", "The name of the game you keep score of, e.g. Jass.",
               None, minimum=1, maximum=MAX_TITLE),
    OptionSpec("winner", "choice", "Who wins", "Whether the most or the fewest points win.",
               "most", choices=WINNERS,
               choice_labels={"most": "Most points", "fewest": "Fewest points"}),
    OptionSpec("target", "int", "Play to",
               "The match ends after the round in which a side reaches this many points.", None,
               default_rule="no target", minimum=1, maximum=MAX_POINTS),
    OptionSpec("rounds", "int", "Rounds",
               "The match ends after this many rounds (or at the target, if that comes first).",
               None, default_rule="until finished by hand", minimum=1, maximum=MAX_ROUNDS),
    OptionSpec("round_total", "int", "Points per round",
               "Every round's points add up to exactly this (157 in Jass, 0 when one side's "
               "gain is another's loss); the last field fills itself in.", None,
               default_rule="any total", minimum=-MAX_POINTS, maximum=MAX_POINTS),
    OptionSpec("teams", "seat_groups", "Teams",
               "Play in teams of equal size, team mates sitting alternately; one score per "
               "team.", None, available="players >= 4"),
)


def describe(wording: Wording = ENGLISH) -> dict[str, JSON]:
    return {
        "id": GAME.id, "name": game_name(GAME, wording), "min_players": GAME.min_players,
        "max_players": GAME.max_players,
        "options": [spec.as_json(wording) for spec in OPTION_SPECS],
        "points_range": {"minimum": -MAX_POINTS, "maximum": MAX_POINTS},
        "finish": True,
    }


_SIDE = integer(minimum=0, maximum=MAX_PLAYERS - 1)
_POINTS = integer(minimum=-MAX_POINTS, maximum=MAX_POINTS)
ENTRY = obj({"points": per_seat(_POINTS, "Each side's points in the round, in side order")},
            title="ScorePadEntry")
SHAPES = GameShapes(
    entry=ENTRY,
    result=obj({"points": per_seat(_POINTS)}, title="ScorePadResult"),
    totals=obj({"points": per_seat(integer())}, title="ScorePadTotals"),
    standing=standing("ScorePadStanding", {
        "points": integer(),
        "margin": integer(description="Points ahead of the best other side (behind it when "
                                      "negative), turned so that higher is better")}),
    partial_entry=partly_entered(ENTRY, title="ScorePadPartialEntry"),
    guide=obj({
        "sides": integer(minimum=1),
        "round_total": nullable(integer(description="What every round adds up to")),
        "typed": integer(description="The sum of the points typed so far"),
        "last_points": nullable(obj({"side": _SIDE, "points": integer()},
                                    title="ScorePadLastPoints",
                                    description="The one side not typed yet, from round_total")),
        "totals": per_seat(integer(), "Each side's total before this round"),
        "totals_after": per_seat(integer(), "Each side's total with this round as typed"),
        "complete": {"type": "boolean", "description": "The round would be accepted as it is"},
        "errors": {"type": "array", "items": ENTRY_PROBLEM, "description": "What is wrong "
                   "already"},
    }, title="ScorePadGuide", description="Running numbers for a round being entered"),
)


class ScorePad:
    """The score pad as a :class:`scoring.game.Game`."""

    id = "score-pad"
    name = "Score pad"
    sheet = SHEET
    min_players = 1
    max_players = MAX_PLAYERS
    shapes = SHAPES
    measures: tuple[Measure, ...] = (Measure("margin_per_match", "margin", "match", "higher"),)

    def describe(self, wording: Wording = ENGLISH) -> dict[str, JSON]:
        return describe(wording)

    def read_options(self, raw: Mapping[str, JSON], players: int) -> Options:
        return read_options(raw, players)

    def options_json(self, options: Options) -> dict[str, JSON]:
        return options_json(options)

    def read_entry(self, raw: JSON, setup: Setup[Options], earlier: Sequence[Entry]) -> Entry:
        return read_entry(raw, setup)

    def score_round(self, entry: Entry, setup: Setup[Options]) -> RoundResult:
        return score_round(entry, setup)

    def first_totals(self, setup: Setup[Options]) -> Totals:
        return first_totals(setup)

    def add_round(self, totals: Totals, result: RoundResult, setup: Setup[Options]) -> Totals:
        return add_round(totals, result, setup)

    def is_over(self, totals: Totals, rounds: Sequence[RoundResult], setup: Setup[Options]) -> bool:
        return is_over(totals, rounds, setup)

    def judge(
        self, totals: Totals, rounds: Sequence[RoundResult], setup: Setup[Options]
    ) -> Verdict:
        return judge(totals, rounds, setup)

    def paper(self, options: Options, players: int) -> PaperSheet:
        """Per side and round its points, totalled. A row per round when the pad is played for
        a number of rounds; to a target or until finished by hand no count is sure: a full
        page, said to go on."""
        rows, more = paper_rows(options.rounds if options.rounds is not None else PAPER_ROWS + 1)
        return PaperSheet(("points",), frozenset({"points"}), rows, "round", options.side_seats,
                          more)

    def priced(self, setup: Setup[Options]) -> Priced | None:
        return Priced("points", lower_is_better=setup.options.fewest)

    def score_share(self, totals: Totals, setup: Setup[Options]) -> tuple[float, ...]:
        return score_share(totals, setup)

    def guide(self, raw: JSON, setup: Setup[Options], earlier: Sequence[Entry],
              wording: Wording = ENGLISH) -> dict[str, JSON]:
        return guide(raw, setup, earlier, wording)

    # A game without an end of its own is finished by hand (scoring.game.FinishedByHand).

    def variant(self, options: JSON) -> str:
        """The title: each is a game of its own in a club (spaces around it are not kept)."""
        title = options.get("title") if isinstance(options, dict) else None
        return title.strip() if isinstance(title, str) else ""

    def can_finish(self, setup: Setup[Options], rounds: int) -> bool:
        return rounds > 0

    def finished_by_hand(self, options: Options, rounds: int) -> Options:
        return finished_by_hand(options, rounds)

    def reopened(self, options: Options) -> Options:
        return reopened(options)


GAME = ScorePad()
