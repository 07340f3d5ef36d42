"""Tschau Sepp: a Swiss shedding game with the 36-card Jass deck (rules.md §3).

One round entry is one game: who went out (``winner``) and what the others were left holding,
given card by card (``hands``), as numbers of cards (``cards_left``, with the ``count`` table) or
as penalty points (``penalty``, any table).

Decisions, beyond rules.md:
- Decks: ``decks`` defaults to 1 for 2–5 players and 2 for 6–8; one deck with 6 or more players is
  an error, two decks with fewer players are allowed.
- Options that are ``null`` count as not given, so ``options_json`` output reads back unchanged.
- ``card_faces`` (``swiss``, the default, or ``french``) says which names the cards go by wherever
  the service names them (Rosen-Ass or Herz-Ass); the card ids stay the Swiss ones.
- How the match ends: after ``games`` games, or earlier as soon as someone reaches ``limit``
  penalty points (penalty scoring) or ``wins_needed`` wins (wins scoring). With a ``limit`` or
  ``wins_needed`` and no ``games``, there is no game count (``games`` is ``null``). ``limit`` is an
  error with wins scoring, ``wins_needed`` with penalty scoring.
- ``card_values`` (whole numbers 0–100 for all nine ranks) is required with the ``custom`` table
  and an error with any other table.
- ``cards_left`` needs the ``count`` table under penalty scoring: a number of cards has no
  penalty under another table. Under wins scoring it is accepted with any table (the contract
  keeps counts for the record); its penalty is then the count with the ``count`` table, else 0.
- A game needs one of ``hands``, ``cards_left`` or ``penalty`` under penalty scoring; under wins
  scoring they are optional, checked the same way and kept for the record: the round's ``penalty``
  is then computed from them (zeros without them) and summed in the standings for information.
- What the deck allows: the winner's last card lies on the pile and every other player holds at
  least one card, so one player holds at most ``deck − others`` cards and all of them together
  at most ``deck − 1``. Penalty points entered for a player who did not go out must be what some
  hand of 1 to ``deck − others`` cards of the deck is worth under the match's table (a subset sum
  over the deck's values, :func:`hand_totals`): with ``face`` no hand is worth 0, 1, 2 or 5, with
  ``count`` none is worth 0, with ``jass`` a hand of sixes to nines is worth 0. All of them
  together are checked against the most the deck can leave; whether the hands could all have
  been dealt from one deck at once is not checked beyond that.
- Ranking, penalty scoring: fewest penalty points, ties broken by more games won, then shared.
  Wins scoring: most games won, ties shared. Standings ranks follow the same keys.
- ``score_share``: penalty scoring: the table's average penalty minus the seat's penalty (points
  better than the table); wins scoring: the seat's wins divided by the games played (0 before the
  first game).
- ``null`` in the entry counts as not given; ``guide`` reports fields not given yet (``missing``,
  ``needs_cards``, empty hands) apart from real errors.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring.errors import Errors, FieldError, InvalidEntry, InvalidOptions, at
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
from scoring.games._tschau_sepp_cards import (
    CARD,
    CARD_INDEX,
    CARDS,
    CARDS_PER_DECK,
    FACES,
    FRENCH_RANK,
    FRENCH_SUIT,
    FRENCH_SUIT_IDS,
    HAND_SIZE,
    MAX_PLAYERS,
    MAX_PLAYERS_ONE_DECK,
    MIN_PLAYERS,
    RANK,
    RANK_BY_FACES,
    RANKS,
    SUIT,
    TABLES,
    card_points,
    hand_totals,
    penalty_bounds,
)
from scoring.match import names_of
from scoring.measures import Measure, Priced
from scoring.messages import ENGLISH, SEAT, Listed, Message, Vocabulary, Wording
from scoring.ranking import best, shared_ranks
from scoring.reading import (
    JSON,
    MISSING,
    read_choice,
    read_int,
    read_list,
    read_object,
    read_str,
    unknown_choice,
)
from scoring.registry import game_name
from scoring.shapes import (
    ENTRY_PROBLEM,
    GameShapes,
    array,
    boolean,
    integer,
    mapping,
    nullable,
    obj,
    partly_entered,
    per_seat,
    standing,
    string,
)

SCORINGS = ("penalty", "wins")
TABLE_NAMES = (*TABLES, "custom")
MAX_CARD_VALUE = 100
DEFAULT_GAMES, MAX_GAMES = 5, 100
MAX_LIMIT = 10_000
MAX_WINS_NEEDED = 100
OPTION_NAMES = ("scoring", "table", "card_values", "games", "limit", "wins_needed", "decks",
                "card_faces")
FORMS = ("hands", "cards_left", "penalty")
ENTRY_FIELDS = ("winner", *FORMS)
NOT_YET_GIVEN = frozenset({"missing", "needs_cards", "empty_hand"})

TABLE_LABELS = {"face": "Face value", "jass": "Jass values", "count": "1 per card",
                "custom": "Your own values"}
PENALTY_TABLE = Vocabulary("a table of penalty points per card", TABLE_LABELS)

OPTION_SPECS = (
    OptionSpec("scoring", "choice", "Scoring",
               "Penalty points for the cards left in hand, or only who went out counts.",
               default="penalty", choices=SCORINGS,
               choice_labels={"penalty": "Penalty points", "wins": "Games won"}),
    OptionSpec("table", "choice", "Penalty points per card",
               "How many penalty points each card left in hand is worth.",
               default="face", choices=TABLE_NAMES, choice_labels=TABLE_LABELS),
    OptionSpec("card_values", "values_by_rank", "Your own values",
               "Penalty points per rank for your own table.",
               minimum=0, maximum=MAX_CARD_VALUE, available="table == 'custom'"),
    OptionSpec("games", "int", "Number of games", "How many games the match lasts.",
               default=DEFAULT_GAMES,
               default_rule="5; no fixed number when the match ends at a penalty limit or at a "
               "number of wins", minimum=1, maximum=MAX_GAMES),
    OptionSpec("limit", "int", "Penalty limit",
               "The match ends after the game in which someone reaches this many penalty points.",
               minimum=1, maximum=MAX_LIMIT, available="scoring == 'penalty'"),
    OptionSpec("wins_needed", "int", "Wins needed",
               "The match ends as soon as someone has won this many games.",
               minimum=1, maximum=MAX_WINS_NEEDED, available="scoring == 'wins'"),
    OptionSpec("decks", "int", "Decks", "Jass decks shuffled together: two for 6 to 8 players.",
               default_rule="1 for 2 to 5 players, 2 for 6 to 8 players", minimum=1, maximum=2),
    OptionSpec("card_faces", "choice", "Card faces",
               "The suits on your cards: Swiss German (roses, bells, shields, acorns) or French "
               "(hearts, diamonds, spades, clubs).", default="swiss", choices=FACES,
               choice_labels={"swiss": "Swiss German suits", "french": "French suits"}),
)

# The choices named inside a sentence ("choose penalty points or games won"), where the option's
# labels would start with a capital.
SCORING_NAMES = Vocabulary("how a Tschau Sepp match is counted",
                           {"penalty": "penalty points", "wins": "games won"})
FACES_NAMES = Vocabulary("the suits printed on a Jass deck",
                         {"swiss": "Swiss German suits", "french": "French suits"})
UNKNOWN_SCORING = unknown_choice(SCORING_NAMES)
UNKNOWN_TABLE = unknown_choice(PENALTY_TABLE)
UNKNOWN_FACES = unknown_choice(FACES_NAMES)

COLUMNS = Vocabulary("a column of the Tschau Sepp score sheet", {
    "penalty": "penalty points", "winner": "went out", "wins": "games won", "games": "games",
    "game": "game",
})
# A round is a game (rules.md §3: "an agreed number of games"), on the sheet as in the options.
SHEET = SheetColumns(COLUMNS, seats=frozenset({"winner"}), round="game")
NOT_WITH_TABLE = Message("not_with_table",
                         "Penalty points per rank are set only with your own values, not with "
                         "{table}.", kinds={"table": PENALTY_TABLE})
CARD_VALUES_NEEDED = Message("missing", "With your own values, give the penalty points of every "
                             "rank.")
RANK_VALUE_NEEDED = Message("missing", "Still missing: the penalty points of {field}.",
                            kinds={"field": RANK_BY_FACES})
TOO_FEW_DECKS = Message("too_few_decks", "{players} players need two decks.")
LIMIT_NOT_WITH_SCORING = Message("not_with_scoring",
                                 "A penalty limit applies only when penalty points are counted.")
WINS_NEEDED_NOT_WITH_SCORING = Message("not_with_scoring",
                                       "A number of wins to reach applies only when games won "
                                       "are counted.")
NOT_ENTERED = Message("missing", "Not entered yet.")
WINNER_NOT_OUT = Message("winner_not_out", "{seat} went out and has no cards left.",
                         kinds={"seat": SEAT})
EMPTY_HAND = Message("empty_hand", "{seat} did not go out, so they still hold at least one card.",
                     kinds={"seat": SEAT})
TOO_MANY_CARDS_ONE = Message("too_many_cards",
                             "One player can be left with at most {maximum} cards; this is "
                             "{actual}.")
TOO_MANY_POINTS_ONE = Message("too_many_points",
                              "One player can be left with at most {maximum} penalty points; "
                              "this is {actual}.")
TOO_MANY_CARDS_TOGETHER = Message("too_many_cards",
                                  "Together the players can be left with at most {maximum} "
                                  "cards; these are {actual}.")
TOO_FEW_POINTS = Message("too_few_points",
                         "{seat} did not go out, so their cards are worth at least {least} "
                         "penalty points; this is {actual}.", kinds={"seat": SEAT})
NO_SUCH_HAND = Message("no_such_hand",
                       "No hand of cards is worth exactly {actual} penalty points ({table}).",
                       kinds={"table": PENALTY_TABLE})
TOO_MANY_POINTS_TOGETHER = Message("too_many_points",
                                   "Together the players can be left with at most {maximum} "
                                   "penalty points; these are {actual}.")
UNKNOWN_CARD = Message("unknown_card", '"{value}" is not a Jass card.')
DUPLICATE_CARD = Message("duplicate_card", "{card} is in the deck only once.",
                         plural="{card} is in the decks only {copies} times.", count="copies",
                         kinds={"card": CARD})
HANDS_TOO_MANY_CARDS = Message("too_many_cards",
                               "Together the players can hold at most {maximum} cards; these "
                               "are {actual}.")
ONE_FORM_ONLY = Message("one_form_only",
                        "Enter the cards left in one way only: as cards, as numbers of cards or "
                        "as penalty points.")
NEEDS_CARDS = Message("needs_cards",
                      "Enter what the others were left holding: their cards, their numbers of "
                      "cards or their penalty points.")
NEEDS_COUNT_TABLE = Message("needs_count_table",
                            "Numbers of cards left count only with 1 point per card; enter the "
                            "cards or the penalty points instead.")

_NAMES = {"winners": Listed(), "tied": Listed(), "reached": Listed()}
FEWEST_PENALTY = Message(
    "fewest_penalty", "After 1 game: {winners} has the fewest penalty points ({penalty}).",
    plural="After {games} games: {winners} has the fewest penalty points ({penalty}).",
    count="games", kinds=_NAMES)
FEWEST_PENALTY_AT_LIMIT = Message(
    "fewest_penalty", "{reached} reached the penalty limit ({limit}) in game {games}: {winners} "
    "has the fewest penalty points ({penalty}).", kinds=_NAMES, when={"ended_by": "limit"})
PENALTY_TIE_MORE_WINS = Message(
    "penalty_tie_more_wins", "After 1 game: {tied} are tied on penalty points ({penalty}); "
    "{winners} won more games ({wins}).",
    plural="After {games} games: {tied} are tied on penalty points ({penalty}); {winners} won "
    "more games ({wins}).", count="games", kinds=_NAMES)
PENALTY_TIE_MORE_WINS_AT_LIMIT = Message(
    "penalty_tie_more_wins", "{reached} reached the penalty limit ({limit}) in game {games}: "
    "{tied} are tied on penalty points ({penalty}); {winners} won more games ({wins}).",
    kinds=_NAMES, when={"ended_by": "limit"})
SHARED_FEWEST_PENALTY = Message(
    "shared_fewest_penalty", "After 1 game: {winners} share the win with the fewest penalty "
    "points ({penalty}) and as many games won ({wins}).",
    plural="After {games} games: {winners} share the win with the fewest penalty points "
    "({penalty}) and as many games won ({wins}).", count="games", kinds=_NAMES)
SHARED_FEWEST_PENALTY_AT_LIMIT = Message(
    "shared_fewest_penalty", "{reached} reached the penalty limit ({limit}) in game {games}: "
    "{winners} share the win with the fewest penalty points ({penalty}) and as many games won "
    "({wins}).", kinds=_NAMES, when={"ended_by": "limit"})
MOST_WINS = Message("most_wins", "After 1 game: {winners} won the most games ({wins}).",
                    plural="After {games} games: {winners} won the most games ({wins}).",
                    count="games", kinds=_NAMES)
MOST_WINS_REACHED = Message("most_wins", "{winners} reached 1 win first, in game {games}.",
                            plural="{winners} reached {wins_needed} wins first, in game {games}.",
                            count="wins_needed", kinds=_NAMES,
                            when={"ended_by": "wins_needed"})
SHARED_MOST_WINS = Message(
    "shared_most_wins", "After 1 game: {winners} share the win with the most games won ({wins}).",
    plural="After {games} games: {winners} share the win with the most games won ({wins}).",
    count="games", kinds=_NAMES)


@dataclass(frozen=True, slots=True)
class Options:
    """A match's options; ``values`` are the table's penalty points per rank, in ``RANKS`` order."""

    scoring: str
    table: str
    values: tuple[int, ...]
    games: int | None
    limit: int | None
    wins_needed: int | None
    decks: int
    card_faces: str = "swiss"


@dataclass(frozen=True, slots=True)
class Entry:
    """One game: the winner and, in at most one form, what the others were left with.

    ``hands`` are card indexes into ``CARDS``, per seat.
    """

    winner: int
    hands: tuple[tuple[int, ...], ...] | None = None
    cards_left: tuple[int, ...] | None = None
    penalty: tuple[int, ...] | None = None


@dataclass(frozen=True, slots=True)
class RoundResult:
    penalty: tuple[int, ...]
    winner: int

    def as_json(self) -> dict[str, JSON]:
        return {"penalty": list(self.penalty), "winner": self.winner}


@dataclass(frozen=True, slots=True)
class Totals:
    penalty: tuple[int, ...]
    wins: tuple[int, ...]
    games: int

    def as_json(self) -> dict[str, JSON]:
        return {"penalty": list(self.penalty), "wins": list(self.wins), "games": self.games}


@dataclass(frozen=True, slots=True)
class _Reading:
    """As much of an entry as could be read; the errors say what is wrong or still missing."""

    winner: int | None = None
    form: str | None = None
    hands: tuple[tuple[int, ...], ...] | None = None
    numbers: tuple[int | None, ...] | None = None


def _deck_size(options: Options) -> int:
    return CARDS_PER_DECK * options.decks


def _read_values(given: Mapping[str, JSON], table: str | None, errors: Errors
                 ) -> tuple[int, ...] | None:
    raw = given.get("card_values")
    if table is None:
        return None
    if table != "custom":
        if raw is not None:
            errors.add("card_values", NOT_WITH_TABLE, table=table)
        return TABLES[table]
    if raw is None:
        errors.add("card_values", CARD_VALUES_NEEDED, field="card_values")
        return None
    ranks = read_object(raw, "card_values", errors, allowed=RANKS)
    if ranks is None:
        return None
    values: list[int | None] = []
    for rank in RANKS:
        path = at("card_values", rank)
        if ranks.get(rank) is None:
            errors.add(path, RANK_VALUE_NEEDED, field=rank)
            values.append(None)
        else:
            values.append(read_int(ranks[rank], path, errors, minimum=0, maximum=MAX_CARD_VALUE))
    known = tuple(value for value in values if value is not None)
    return known if len(known) == len(RANKS) else None


def _read_decks(given: Mapping[str, JSON], players: int, errors: Errors) -> int | None:
    if "decks" not in given:
        return 1 if players <= MAX_PLAYERS_ONE_DECK else 2
    decks = read_int(given["decks"], "decks", errors, minimum=1, maximum=2)
    if decks == 1 and players > MAX_PLAYERS_ONE_DECK:
        errors.add("decks", TOO_FEW_DECKS, players=players, minimum=2)
        return None
    return decks


def _read_optional(given: Mapping[str, JSON], name: str, maximum: int, errors: Errors,
                   scoring: str | None, needs: str) -> int | None:
    if name not in given:
        return None
    if scoring is not None and scoring != needs:
        errors.add(name, LIMIT_NOT_WITH_SCORING if needs == "penalty"
                   else WINS_NEEDED_NOT_WITH_SCORING, scoring=scoring)
        return None
    return read_int(given[name], name, errors, minimum=1, maximum=maximum)


def _read_numbers(value: JSON, path: str, players: int, errors: Errors
                  ) -> tuple[int | None, ...] | None:
    items = read_list(value, path, errors, length=players)
    if items is None:
        return None
    numbers: list[int | None] = []
    for seat, item in enumerate(items):
        if item is None:
            errors.add(at(path, seat), NOT_ENTERED, seat=seat)
            numbers.append(None)
        else:
            numbers.append(read_int(item, at(path, seat), errors, minimum=0))
    return tuple(numbers)


def _check_left(form: str, numbers: Sequence[int | None], winner: int | None, options: Options,
                errors: Errors) -> None:
    """Cards or points left: none for the winner, what a hand can hold or be worth for the
    others, and no more than the deck can leave."""
    losers = len(numbers) - 1
    if form == "cards_left":
        one, together = _deck_size(options) - losers, _deck_size(options) - 1
        too_many_one, too_many_together = TOO_MANY_CARDS_ONE, TOO_MANY_CARDS_TOGETHER
        totals = frozenset(range(1, one + 1))
    else:
        one, together = penalty_bounds(options.values, options.decks, losers)
        too_many_one, too_many_together = TOO_MANY_POINTS_ONE, TOO_MANY_POINTS_TOGETHER
        totals = hand_totals(options.values, options.decks, losers)
    found = len(errors)
    for seat, left in enumerate(numbers):
        path = at(form, seat)
        if left is None:
            continue
        if seat == winner:
            if left:
                errors.add(path, WINNER_NOT_OUT, seat=seat)
        elif left > one:
            errors.add(path, too_many_one, maximum=one, actual=left)
        elif left in totals or (left == 0 and winner is None):
            # Without a winner yet a 0 may be the winner's: nothing to say about it.
            continue
        elif form == "cards_left":
            errors.add(path, EMPTY_HAND, seat=seat)
        elif left < min(totals):
            errors.add(path, TOO_FEW_POINTS, seat=seat, least=min(totals), actual=left)
        else:
            errors.add(path, NO_SUCH_HAND, actual=left, table=options.table)
    known = [left for left in numbers if left is not None]
    if len(errors) == found and len(known) == len(numbers) and sum(known) > together:
        errors.add(form, too_many_together, maximum=together, actual=sum(known))


def _read_hands(value: JSON, winner: int | None, setup: Setup[Options], errors: Errors
                ) -> tuple[tuple[int, ...], ...] | None:
    rows = read_list(value, "hands", errors, length=len(setup.players))
    if rows is None:
        return None
    decks = setup.options.decks
    copies = [0] * CARDS_PER_DECK
    hands: list[tuple[int, ...]] = []
    for seat, row in enumerate(rows):
        path = at("hands", seat)
        cards = read_list(row, path, errors)
        held: list[int] = []
        for place, card in enumerate(cards or ()):
            card_path = at(path, place)
            card_id = read_str(card, card_path, errors)
            index = CARD_INDEX.get(card_id) if card_id is not None else None
            if index is None:
                if card_id is not None:
                    errors.add(card_path, UNKNOWN_CARD, value=card_id)
                continue
            copies[index] += 1
            if copies[index] > decks:
                errors.add(card_path, DUPLICATE_CARD, card=card_id, copies=decks)
            held.append(index)
        hands.append(tuple(held))
        if cards is not None and winner is not None:
            if seat == winner and cards:
                errors.add(path, WINNER_NOT_OUT, seat=seat)
            elif seat != winner and not cards:
                errors.add(path, EMPTY_HAND, seat=seat)
    held_cards = sum(copies)
    most = _deck_size(setup.options) - 1
    if held_cards > most:
        errors.add("hands", HANDS_TOO_MANY_CARDS, maximum=most, actual=held_cards)
    return tuple(hands)


def _read(raw: JSON, setup: Setup[Options], errors: Errors) -> _Reading:
    entry = read_object(raw, "", errors, allowed=ENTRY_FIELDS)
    if entry is None:
        return _Reading()
    options = setup.options
    winner = None
    if entry.get("winner") is None:
        errors.add("winner", MISSING, field="winner")
    else:
        winner = read_int(entry["winner"], "winner", errors, minimum=0,
                          maximum=len(setup.players) - 1)
    forms = [form for form in FORMS if entry.get(form) is not None]
    if len(forms) > 1:
        for form in forms:
            errors.add(form, ONE_FORM_ONLY, given=tuple(forms))
        return _Reading(winner)
    if not forms:
        if options.scoring == "penalty":
            errors.add("", NEEDS_CARDS, choices=FORMS)
        return _Reading(winner)
    form = forms[0]
    if form == "hands":
        return _Reading(winner, form, hands=_read_hands(entry[form], winner, setup, errors))
    numbers = _read_numbers(entry[form], form, len(setup.players), errors)
    if form == "cards_left" and options.table != "count" and options.scoring == "penalty":
        errors.add("cards_left", NEEDS_COUNT_TABLE, table=options.table)
        return _Reading(winner, form, numbers=numbers)
    if numbers is not None:
        _check_left(form, numbers, winner, options, errors)
    return _Reading(winner, form, numbers=numbers)


def _ranges(totals: frozenset[int]) -> list[JSON]:
    """Whole numbers as the runs they form: {3, 4, 6, 7, 8} → [[3, 4], [6, 8]]."""
    runs: list[tuple[int, int]] = []
    for total in sorted(totals):
        if runs and runs[-1][1] == total - 1:
            runs[-1] = (runs[-1][0], total)
        else:
            runs.append((total, total))
    return [[first, last] for first, last in runs]


def _complete(numbers: tuple[int | None, ...] | None) -> tuple[int, ...] | None:
    if numbers is None:
        return None
    return tuple(number for number in numbers if number is not None)


def _partial_penalty(reading: _Reading, options: Options, players: int) -> list[int | None]:
    if reading.hands is not None:
        points = card_points(options.values)
        return [sum(points[card] for card in hand) for hand in reading.hands]
    if reading.numbers is not None and (reading.form == "penalty" or options.table == "count"):
        return list(reading.numbers)
    return [None] * players


def _partial_cards(reading: _Reading, options: Options, players: int) -> list[int | None]:
    if reading.hands is not None:
        return [len(hand) for hand in reading.hands]
    if reading.numbers is not None and (reading.form == "cards_left" or options.table == "count"):
        return list(reading.numbers)
    return [None] * players


_SEAT = integer(minimum=0, maximum=MAX_PLAYERS - 1)
_CARD = string(CARDS)
_PER_SEAT_COUNT = per_seat(integer(minimum=0))
ENTRY = obj({"winner": _SEAT}, {
    "hands": nullable(per_seat(array(_CARD), "The cards each seat was left with")),
    "cards_left": nullable(per_seat(integer(minimum=0), "Cards left per seat (with penalty "
                                                        "scoring, the count table only)")),
    "penalty": nullable(per_seat(integer(minimum=0), "Penalty points per seat")),
}, title="TschauSeppEntry",
    description="One game: who went out, and what the others were left with in at most one "
                "form (hands, cards_left or penalty)")
TOTALS = obj({"penalty": _PER_SEAT_COUNT, "wins": _PER_SEAT_COUNT, "games": integer(minimum=0)},
             title="TschauSeppTotals")
_SO_FAR = "Per seat, null where it is not known yet"
SHAPES = GameShapes(
    entry=ENTRY,
    result=obj({"penalty": _PER_SEAT_COUNT, "winner": _SEAT}, title="TschauSeppResult"),
    totals=TOTALS,
    standing=standing("TschauSeppStanding", {"penalty": integer(minimum=0),
                                             "wins": integer(minimum=0)}),
    partial_entry=partly_entered(ENTRY, title="TschauSeppPartialEntry"),
    guide=obj({
        "winner": nullable(_SEAT),
        "form": nullable(string(FORMS, "How the cards left are entered")),
        "cards": per_seat(nullable(integer(minimum=0)), f"Cards left so far. {_SO_FAR}"),
        "penalty": per_seat(nullable(integer(minimum=0)), f"Penalty points so far. {_SO_FAR}"),
        "unassigned": array(_CARD, description="Cards with a copy in no hand yet"),
        "remaining": mapping(integer(minimum=0), "Per card, the copies in no hand yet"),
        "duplicates": array(obj({"card": _CARD, "seats": array(_SEAT, min_items=1),
                                 "copies": integer(minimum=1)}, title="TschauSeppDuplicate",
                                description="A card in more hands than the decks hold copies")),
        "totals": TOTALS,
        "would_finish": boolean("The match would end with this game"),
        "hand_points": obj({
            "possible": array(array(integer(minimum=0), min_items=2, max_items=2),
                              min_items=1, description="The penalty points one hand can be "
                              "worth, as runs [from, to] of whole numbers"),
            "together": integer(minimum=0, description="The most all hands together can be "
                                                       "worth"),
        }, title="TschauSeppHandPoints",
            description="What a player who did not go out can be left with, in points"),
        "hand_cards": obj({
            "most": integer(minimum=1, description="The most cards one hand can hold"),
            "together": integer(minimum=1, description="The most cards all hands together "
                                                       "can hold"),
        }, title="TschauSeppHandCards",
            description="What a player who did not go out can be left with, in cards"),
        "complete": boolean("The game would be accepted as it is"),
        "missing": array(ENTRY_PROBLEM, description="What is not entered yet"),
        "errors": array(ENTRY_PROBLEM, description="What is wrong already"),
    }, title="TschauSeppGuide",
        description="A game being entered: the cards and points so far and the totals if it "
                    "counted"),
)


class TschauSepp:
    """Tschau Sepp as a :class:`scoring.game.Game`: one round is one game."""

    id = "tschau-sepp"
    name = "Tschau Sepp"
    sheet = SHEET
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    shapes = SHAPES
    measures: tuple[Measure, ...] = (Measure("penalty_per_game", "penalty", "round", "lower"),
                                      Measure("games_won_per_match", "wins", "match", "higher"))

    def describe(self, wording: Wording = ENGLISH) -> dict[str, JSON]:
        suits: list[JSON] = [
            {"id": suit, "name": wording.term(SUIT, suit, ""),
             "french": {"id": french, "name": wording.term(FRENCH_SUIT, suit, "")}}
            for suit, french in FRENCH_SUIT_IDS.items()
        ]
        ranks: list[JSON] = [
            {"id": rank, "name": wording.term(RANK, rank, ""),
             "french": {"name": wording.term(FRENCH_RANK, rank, "")}}
            for rank in RANKS
        ]
        tables: dict[str, JSON] = {
            table: dict(zip(RANKS, values, strict=True)) for table, values in TABLES.items()
        }
        deck_points: dict[str, JSON] = {
            table: sum(card_points(values)) for table, values in TABLES.items()
        }
        players = range(MIN_PLAYERS, MAX_PLAYERS + 1)
        return {
            "id": self.id, "name": game_name(self, wording), "min_players": self.min_players,
            "max_players": self.max_players,
            "options": [spec.as_json(wording) for spec in OPTION_SPECS],
            "suits": suits, "ranks": ranks, "cards": list(CARDS),
            "cards_per_deck": CARDS_PER_DECK, "hand_size": HAND_SIZE,
            "tables": tables, "deck_points": deck_points,
            "decks_by_players": {
                str(count): {"default": 1 if count <= MAX_PLAYERS_ONE_DECK else 2,
                             "allowed": [1, 2] if count <= MAX_PLAYERS_ONE_DECK else [2]}
                for count in players
            },
            "entry_forms": list(FORMS),
        }

    def read_options(self, raw: Mapping[str, JSON], players: int) -> Options:
        errors = Errors()
        read_object(dict(raw), "", errors, allowed=OPTION_NAMES)
        given = {key: value for key, value in raw.items() if value is not None}
        scoring = read_choice(given.get("scoring", "penalty"), "scoring", errors, SCORINGS,
                              unknown=UNKNOWN_SCORING)
        table = read_choice(given.get("table", "face"), "table", errors, TABLE_NAMES,
                            unknown=UNKNOWN_TABLE)
        values = _read_values(given, table, errors)
        games = (read_int(given["games"], "games", errors, minimum=1, maximum=MAX_GAMES)
                 if "games" in given else None)
        limit = _read_optional(given, "limit", MAX_LIMIT, errors, scoring, "penalty")
        wins_needed = _read_optional(given, "wins_needed", MAX_WINS_NEEDED, errors, scoring,
                                     "wins")
        decks = _read_decks(given, players, errors)
        faces = read_choice(given.get("card_faces", FACES[0]), "card_faces", errors, FACES,
                            unknown=UNKNOWN_FACES)
        errors.raise_as(InvalidOptions)
        # Every reader that returned None recorded an error, raised just above.
        assert scoring is not None
        assert table is not None
        assert values is not None
        assert decks is not None
        assert faces is not None
        if games is None and limit is None and wins_needed is None:
            games = DEFAULT_GAMES
        return Options(scoring, table, values, games, limit, wins_needed, decks, faces)

    def options_json(self, options: Options) -> dict[str, JSON]:
        card_values: JSON = (dict(zip(RANKS, options.values, strict=True))
                             if options.table == "custom" else None)
        return {
            "scoring": options.scoring, "table": options.table, "card_values": card_values,
            "games": options.games, "limit": options.limit, "wins_needed": options.wins_needed,
            "decks": options.decks, "card_faces": options.card_faces,
        }

    def read_entry(self, raw: JSON, setup: Setup[Options], earlier: Sequence[Entry]) -> Entry:
        errors = Errors()
        reading = _read(raw, setup, errors)
        errors.raise_as(InvalidEntry)
        # Without errors the winner was read, and every number of the form given.
        assert reading.winner is not None
        numbers = _complete(reading.numbers)
        return Entry(
            reading.winner, reading.hands,
            cards_left=numbers if reading.form == "cards_left" else None,
            penalty=numbers if reading.form == "penalty" else None,
        )

    def score_round(self, entry: Entry, setup: Setup[Options]) -> RoundResult:
        if entry.hands is not None:
            points = card_points(setup.options.values)
            penalty = tuple(sum(points[card] for card in hand) for hand in entry.hands)
        elif entry.penalty is not None:
            penalty = entry.penalty
        elif entry.cards_left is not None and setup.options.table == "count":
            penalty = entry.cards_left
        else:
            penalty = (0,) * len(setup.players)
        return RoundResult(penalty, entry.winner)

    def first_totals(self, setup: Setup[Options]) -> Totals:
        zeros = (0,) * len(setup.players)
        return Totals(zeros, zeros, 0)

    def add_round(self, totals: Totals, result: RoundResult, setup: Setup[Options]) -> Totals:
        penalty = tuple(
            total + points for total, points in zip(totals.penalty, result.penalty, strict=True)
        )
        wins = tuple(
            count + (seat == result.winner) for seat, count in enumerate(totals.wins)
        )
        return Totals(penalty, wins, totals.games + 1)

    def is_over(self, totals: Totals, rounds: Sequence[RoundResult], setup: Setup[Options]
                ) -> bool:
        ended_by, _ = self._ended_by(totals, setup)
        return bool(ended_by)

    def _ended_by(self, totals: Totals, setup: Setup[Options]) -> tuple[str, tuple[int, ...]]:
        """What ended the match ("" while it goes on) and the seats that reached a limit."""
        options = setup.options
        if options.limit is not None:
            reached = tuple(s for s, points in enumerate(totals.penalty) if points >= options.limit)
            if reached:
                return "limit", reached
        if options.wins_needed is not None:
            reached = tuple(s for s, wins in enumerate(totals.wins) if wins >= options.wins_needed)
            if reached:
                return "wins_needed", reached
        if options.games is not None and totals.games >= options.games:
            return "games", ()
        return "", ()

    def _keys(self, totals: Totals, setup: Setup[Options]) -> list[tuple[int, ...]]:
        if setup.options.scoring == "wins":
            return [(-wins,) for wins in totals.wins]
        return [(points, -wins) for points, wins in zip(totals.penalty, totals.wins, strict=True)]

    def judge(self, totals: Totals, rounds: Sequence[RoundResult], setup: Setup[Options]
              ) -> Verdict:
        keys = self._keys(totals, setup)
        ranks = shared_ranks(keys)
        standings = tuple(
            Standing(seat, (seat,), setup.players[seat], ranks[seat],
                     {"penalty": totals.penalty[seat], "wins": totals.wins[seat]})
            for seat in sorted(range(len(keys)), key=lambda seat: (ranks[seat], seat))
        )
        ended_by, reached = self._ended_by(totals, setup)
        if not ended_by:
            return Verdict(standings, finished=False)
        winners = best(keys)
        return Verdict(standings, True, winners, self._reason(totals, setup, winners, ended_by,
                                                              reached))

    def _reason(self, totals: Totals, setup: Setup[Options], winners: tuple[int, ...],
                ended_by: str, reached: tuple[int, ...]) -> Reason:
        options = setup.options
        first = winners[0]
        penalty, wins = totals.penalty[first], totals.wins[first]
        params: dict[str, JSON] = {
            "winners": [setup.players[seat] for seat in winners], "seats": list(winners),
            "penalty": penalty, "wins": wins, "games": totals.games, "ended_by": ended_by,
            "reached": [setup.players[seat] for seat in reached],
        }
        at_limit = ended_by == "limit"
        if at_limit:
            params["limit"] = options.limit
        elif ended_by == "wins_needed":
            params["wins_needed"] = options.wins_needed
        if options.scoring == "wins":
            if len(winners) > 1:
                return Reason(SHARED_MOST_WINS, params)
            return Reason(MOST_WINS_REACHED if ended_by == "wins_needed" else MOST_WINS, params)
        if len(winners) > 1:
            return Reason(SHARED_FEWEST_PENALTY_AT_LIMIT if at_limit else SHARED_FEWEST_PENALTY,
                          params)
        tied = tuple(seat for seat, points in enumerate(totals.penalty) if points == penalty)
        if len(tied) > 1:
            params["tied"] = [setup.players[seat] for seat in tied]
            return Reason(PENALTY_TIE_MORE_WINS_AT_LIMIT if at_limit else PENALTY_TIE_MORE_WINS,
                          params)
        return Reason(FEWEST_PENALTY_AT_LIMIT if at_limit else FEWEST_PENALTY, params)

    def paper(self, options: Options, players: int) -> PaperSheet:
        """Per player and game the penalty points (played for wins: a mark for who went out),
        totalled. A row per game agreed; played to a number of wins, as many games as it can
        take (everyone one short, then one more); played to a penalty limit only, a full page,
        said to go on (a game may cost nobody anything, so no count is sure)."""
        column = "winner" if options.scoring == "wins" else "penalty"
        if options.games is not None:
            rows, more = paper_rows(options.games)
        elif options.wins_needed is not None:
            rows, more = paper_rows(players * (options.wins_needed - 1) + 1)
        else:
            rows, more = paper_rows(PAPER_ROWS + 1)
        return PaperSheet((column,), frozenset({column}), rows, "game",
                          tuple((seat,) for seat in range(players)), more)

    def priced(self, setup: Setup[Options]) -> Priced:
        """Played for wins, the games won; else the penalty points."""
        if setup.options.scoring == "wins":
            return Priced("wins", lower_is_better=False)
        return Priced("penalty", lower_is_better=True)

    def score_share(self, totals: Totals, setup: Setup[Options]) -> tuple[float, ...]:
        """Penalty scoring: table average penalty − seat's penalty; wins: wins / games played."""
        if setup.options.scoring == "wins":
            played = totals.games
            return tuple(wins / played if played else 0.0 for wins in totals.wins)
        average = sum(totals.penalty) / len(totals.penalty)
        return tuple(average - points for points in totals.penalty)

    def guide(self, raw: JSON, setup: Setup[Options], earlier: Sequence[Entry],
              wording: Wording = ENGLISH) -> dict[str, JSON]:
        """Per seat the cards and penalty given so far, the cards still free (``remaining``
        copies per card), duplicates, the totals if this game counted, and what is missing or
        wrong so far.

        ``hand_points`` says what a player who did not go out can be left with under the
        match's table: the penalty points one hand can be worth, as ranges ``[from, to]`` of
        whole numbers (``possible``), and the most all of them ``together`` can be left with;
        ``hand_cards`` the same in cards (``most`` for one hand, ``together``)."""
        options = setup.options
        names = names_of(self, setup)
        players = len(setup.players)
        errors = Errors()
        reading = _read(raw, setup, errors)
        found: list[FieldError] = []
        try:
            errors.raise_as(InvalidEntry)
        except InvalidEntry as invalid:
            found = list(invalid.errors)
        penalty = _partial_penalty(reading, options, players)
        cards = _partial_cards(reading, options, players)
        holders: list[list[int]] = [[] for _ in CARDS]
        for seat, hand in enumerate(reading.hands or ()):
            for card in hand:
                holders[card].append(seat)
        remaining: dict[str, JSON] = {
            card: max(options.decks - len(holders[index]), 0) for index, card in enumerate(CARDS)
        }
        duplicates: list[JSON] = [
            {"card": CARDS[index], "seats": list(dict.fromkeys(seats)), "copies": options.decks}
            for index, seats in enumerate(holders) if len(seats) > options.decks
        ]
        totals = self.first_totals(setup)
        results = [self.score_round(entry, setup) for entry in earlier]
        for result in results:
            totals = self.add_round(totals, result, setup)
        # Seat -1 while nobody is named as the winner: the game then adds no win.
        partial = RoundResult(tuple(points or 0 for points in penalty),
                              -1 if reading.winner is None else reading.winner)
        totals = self.add_round(totals, partial, setup)
        losers = players - 1
        return {
            "winner": reading.winner, "form": reading.form,
            "cards": list(cards), "penalty": list(penalty),
            "unassigned": [card for card, left in remaining.items() if left],
            "remaining": remaining,
            "duplicates": duplicates,
            "totals": totals.as_json(),
            "would_finish": self.is_over(totals, [*results, partial], setup),
            "hand_points": {
                "possible": _ranges(hand_totals(options.values, options.decks, losers)),
                "together": penalty_bounds(options.values, options.decks, losers)[1],
            },
            "hand_cards": {"most": _deck_size(options) - losers,
                           "together": _deck_size(options) - 1},
            "complete": not found,
            "missing": [e.as_json(wording, names) for e in found if e.code in NOT_YET_GIVEN],
            "errors": [e.as_json(wording, names) for e in found if e.code not in NOT_YET_GIVEN],
        }


GAME = TschauSepp()
