"""Tschau Sepp: a Swiss shedding game with the 36-card Jass deck (rules.md §3).

One round entry is one game: who went out (``winner``) and what the others were left holding,
given card by card (``hands``), as numbers of cards (``cards_left``, with the ``count`` table) or
as penalty points (``penalty``, any table).

Decisions, beyond rules.md:
- Decks: ``decks`` defaults to 1 for 2–5 players and 2 for 6–8; one deck with 6 or more players is
  an error, two decks with fewer players are allowed.
- Options that are ``null`` count as not given, so ``options_json`` output reads back unchanged.
- How the match ends: after ``games`` games, or earlier as soon as someone reaches ``limit``
  penalty points (penalty scoring) or ``wins_needed`` wins (wins scoring). With a ``limit`` or
  ``wins_needed`` and no ``games``, there is no game count (``games`` is ``null``). ``limit`` is an
  error with wins scoring, ``wins_needed`` with penalty scoring.
- ``card_values`` (whole numbers 0–100 for all nine ranks) is required with the ``custom`` table
  and an error with any other table.
- ``cards_left`` needs the ``count`` table under either scoring: a number of cards has no penalty
  under another table.
- A game needs one of ``hands``, ``cards_left`` or ``penalty`` under penalty scoring; under wins
  scoring they are optional, checked the same way and kept for the record: the round's ``penalty``
  is then computed from them (zeros without them) and summed in the standings for information.
- What the deck allows: the winner's last card lies on the pile and every other player holds at
  least one card, so one player holds at most ``deck − others`` cards and all of them together
  at most ``deck − 1``. Points entered are checked against the most such cards can be worth
  (per seat and in total), not whether some hand adds up to exactly that number: 0 stays
  allowed as the brief asks, although no hand is worth 0 under ``face``.
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
from scoring.game import OptionSpec, Reason, Setup, Standing, Verdict
from scoring.games._tschau_sepp_cards import (
    CARD_INDEX,
    CARDS,
    CARDS_PER_DECK,
    HAND_SIZE,
    MAX_PLAYERS,
    MAX_PLAYERS_ONE_DECK,
    MIN_PLAYERS,
    RANK_NAMES,
    RANKS,
    SUIT_NAMES,
    TABLES,
    card_points,
    penalty_bounds,
)
from scoring.ranking import best, shared_ranks
from scoring.reading import JSON, read_choice, read_int, read_list, read_object, read_str
from scoring.shapes import (
    GameShapes,
    array,
    integer,
    nullable,
    obj,
    per_seat,
    standing,
    string,
)
from scoring.wording import listed

SCORINGS = ("penalty", "wins")
TABLE_NAMES = (*TABLES, "custom")
MAX_CARD_VALUE = 100
DEFAULT_GAMES, MAX_GAMES = 5, 100
MAX_LIMIT = 10_000
MAX_WINS_NEEDED = 100
OPTION_NAMES = ("scoring", "table", "card_values", "games", "limit", "wins_needed", "decks")
FORMS = ("hands", "cards_left", "penalty")
ENTRY_FIELDS = ("winner", *FORMS)
NOT_YET_GIVEN = frozenset({"missing", "needs_cards", "empty_hand"})

OPTION_SPECS = (
    OptionSpec("scoring", "choice", "Penalty points for cards left, or only games won count.",
               default="penalty", choices=SCORINGS),
    OptionSpec("table", "choice", "How many penalty points each card left in hand is worth.",
               default="face", choices=TABLE_NAMES),
    OptionSpec("card_values", "values_by_rank", "Penalty points per rank for the custom table.",
               minimum=0, maximum=MAX_CARD_VALUE, available="table == 'custom'"),
    OptionSpec("games", "int", "Number of games in the match.", default=DEFAULT_GAMES,
               default_rule="5; no game count (null) when limit or wins_needed is set",
               minimum=1, maximum=MAX_GAMES),
    OptionSpec("limit", "int", "The match ends after the game in which someone reaches it.",
               minimum=1, maximum=MAX_LIMIT, available="scoring == 'penalty'"),
    OptionSpec("wins_needed", "int", "The match ends as soon as someone has won this many games.",
               minimum=1, maximum=MAX_WINS_NEEDED, available="scoring == 'wins'"),
    OptionSpec("decks", "int", "Jass decks shuffled together: two for 6 to 8 players.",
               default_rule="1 for 2-5 players, 2 for 6-8 players", minimum=1, maximum=2),
)


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


def _names(setup: Setup[Options], seats: Sequence[int]) -> str:
    return listed([setup.players[seat] for seat in seats])


def _games(count: int) -> str:
    return "1 game" if count == 1 else f"{count} games"


def _read_values(given: Mapping[str, JSON], table: str | None, errors: Errors
                 ) -> tuple[int, ...] | None:
    raw = given.get("card_values")
    if table is None:
        return None
    if table != "custom":
        if raw is not None:
            errors.add("card_values", "not_with_table",
                       "card values are given only with the custom table", table=table)
        return TABLES[table]
    if raw is None:
        errors.add("card_values", "missing", "'card_values' is required with the custom table",
                   field="card_values")
        return None
    ranks = read_object(raw, "card_values", errors, allowed=RANKS)
    if ranks is None:
        return None
    values: list[int | None] = []
    for rank in RANKS:
        path = at("card_values", rank)
        if ranks.get(rank) is None:
            errors.add(path, "missing", f"a value for {rank!r} is required", field=rank)
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
        errors.add("decks", "too_few_decks",
                   f"{players} players need two decks", players=players, minimum=2)
        return None
    return decks


def _read_optional(given: Mapping[str, JSON], name: str, maximum: int, errors: Errors,
                   scoring: str | None, needs: str) -> int | None:
    if name not in given:
        return None
    if scoring is not None and scoring != needs:
        errors.add(name, "not_with_scoring", f"{name!r} applies to {needs} scoring only",
                   scoring=scoring)
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
            errors.add(at(path, seat), "missing", "not entered yet", seat=seat)
            numbers.append(None)
        else:
            numbers.append(read_int(item, at(path, seat), errors, minimum=0))
    return tuple(numbers)


def _check_left(form: str, numbers: Sequence[int | None], winner: int | None, options: Options,
                errors: Errors) -> None:
    """Cards or points left: none for the winner, and no more than the deck can leave."""
    losers = len(numbers) - 1
    if form == "cards_left":
        unit, one, together = "cards", _deck_size(options) - losers, _deck_size(options) - 1
    else:
        unit = "points"
        one, together = penalty_bounds(options.values, options.decks, losers)
    found = len(errors)
    for seat, left in enumerate(numbers):
        path = at(form, seat)
        if left is None:
            continue
        if seat == winner:
            if left:
                errors.add(path, "winner_not_out", "the winner has no cards left", seat=seat)
        elif left == 0 and unit == "cards" and winner is not None:
            errors.add(path, "empty_hand", "every player but the winner holds a card", seat=seat)
        elif left > one:
            errors.add(path, f"too_many_{unit}", f"one player is left with at most {one} {unit}",
                       maximum=one, actual=left)
    known = [left for left in numbers if left is not None]
    if len(errors) == found and len(known) == len(numbers) and sum(known) > together:
        errors.add(form, f"too_many_{unit}",
                   f"the players are left with at most {together} {unit} together",
                   maximum=together, actual=sum(known))


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
                    errors.add(card_path, "unknown_card", f"{card_id!r} is not a Jass card",
                               value=card_id)
                continue
            copies[index] += 1
            if copies[index] > decks:
                errors.add(card_path, "duplicate_card",
                           f"{card_id} is in the deck {'once' if decks == 1 else 'twice'}",
                           card=card_id, copies=decks)
            held.append(index)
        hands.append(tuple(held))
        if cards is not None and winner is not None:
            if seat == winner and cards:
                errors.add(path, "winner_not_out", "the winner has no cards left", seat=seat)
            elif seat != winner and not cards:
                errors.add(path, "empty_hand", "every player but the winner holds a card",
                           seat=seat)
    held_cards = sum(copies)
    most = _deck_size(setup.options) - 1
    if held_cards > most:
        errors.add("hands", "too_many_cards", f"the players hold at most {most} cards",
                   maximum=most, actual=held_cards)
    return tuple(hands)


def _read(raw: JSON, setup: Setup[Options], errors: Errors) -> _Reading:
    entry = read_object(raw, "", errors, allowed=ENTRY_FIELDS)
    if entry is None:
        return _Reading()
    options = setup.options
    winner = None
    if entry.get("winner") is None:
        errors.add("winner", "missing", "who went out is required", field="winner")
    else:
        winner = read_int(entry["winner"], "winner", errors, minimum=0,
                          maximum=len(setup.players) - 1)
    forms = [form for form in FORMS if entry.get(form) is not None]
    if len(forms) > 1:
        for form in forms:
            errors.add(form, "one_form_only",
                       "give the cards left as hands, cards_left or penalty, not several",
                       given=tuple(forms))
        return _Reading(winner)
    if not forms:
        if options.scoring == "penalty":
            errors.add("", "needs_cards",
                       "penalty scoring needs hands, cards_left or penalty", choices=FORMS)
        return _Reading(winner)
    form = forms[0]
    if form == "hands":
        return _Reading(winner, form, hands=_read_hands(entry[form], winner, setup, errors))
    numbers = _read_numbers(entry[form], form, len(setup.players), errors)
    if form == "cards_left" and options.table != "count":
        errors.add("cards_left", "needs_count_table",
                   "numbers of cards left need the count table", table=options.table)
        return _Reading(winner, form, numbers=numbers)
    if numbers is not None:
        _check_left(form, numbers, winner, options, errors)
    return _Reading(winner, form, numbers=numbers)


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
_PER_SEAT_COUNT = per_seat(integer(minimum=0))
SHAPES = GameShapes(
    entry=obj({"winner": _SEAT}, {
        "hands": nullable(per_seat(array(string(CARDS)), "The cards each seat was left with")),
        "cards_left": nullable(per_seat(integer(minimum=0),
                                        "Cards left per seat (count table only)")),
        "penalty": nullable(per_seat(integer(minimum=0), "Penalty points per seat")),
    }, title="TschauSeppEntry",
        description="One game: who went out, and what the others were left with in at most "
                    "one form (hands, cards_left or penalty)"),
    result=obj({"penalty": _PER_SEAT_COUNT, "winner": _SEAT}, title="TschauSeppResult"),
    totals=obj({"penalty": _PER_SEAT_COUNT, "wins": _PER_SEAT_COUNT,
                "games": integer(minimum=0)}, title="TschauSeppTotals"),
    standing=standing("TschauSeppStanding", {"penalty": integer(minimum=0),
                                             "wins": integer(minimum=0)}),
)


class TschauSepp:
    """Tschau Sepp as a :class:`scoring.game.Game`: one round is one game."""

    id = "tschau-sepp"
    name = "Tschau Sepp"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    shapes = SHAPES

    def describe(self) -> dict[str, JSON]:
        suits: list[JSON] = [
            {"id": suit, "name": {"de": de, "en": en},
             "french": {"id": french, "name": {"de": french_de, "en": french_en}}}
            for suit, (de, en, french, french_de, french_en) in SUIT_NAMES.items()
        ]
        ranks: list[JSON] = [
            {"id": rank, "name": {"de": de, "en": en},
             "french": {"name": {"de": french_de, "en": french_en}}}
            for rank, (de, en, french_de, french_en) in RANK_NAMES.items()
        ]
        tables: dict[str, JSON] = {
            table: dict(zip(RANKS, values, strict=True)) for table, values in TABLES.items()
        }
        deck_points: dict[str, JSON] = {
            table: sum(card_points(values)) for table, values in TABLES.items()
        }
        players = range(MIN_PLAYERS, MAX_PLAYERS + 1)
        return {
            "id": self.id, "name": self.name, "min_players": self.min_players,
            "max_players": self.max_players,
            "options": [spec.as_json() for spec in OPTION_SPECS],
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
        scoring = read_choice(given.get("scoring", "penalty"), "scoring", errors, SCORINGS)
        table = read_choice(given.get("table", "face"), "table", errors, TABLE_NAMES)
        values = _read_values(given, table, errors)
        games = (read_int(given["games"], "games", errors, minimum=1, maximum=MAX_GAMES)
                 if "games" in given else None)
        limit = _read_optional(given, "limit", MAX_LIMIT, errors, scoring, "penalty")
        wins_needed = _read_optional(given, "wins_needed", MAX_WINS_NEEDED, errors, scoring,
                                     "wins")
        decks = _read_decks(given, players, errors)
        errors.raise_as(InvalidOptions)
        # Every reader that returned None recorded an error, raised just above.
        assert scoring is not None
        assert table is not None
        assert values is not None
        assert decks is not None
        if games is None and limit is None and wins_needed is None:
            games = DEFAULT_GAMES
        return Options(scoring, table, values, games, limit, wins_needed, decks)

    def options_json(self, options: Options) -> dict[str, JSON]:
        card_values: JSON = (dict(zip(RANKS, options.values, strict=True))
                             if options.table == "custom" else None)
        return {
            "scoring": options.scoring, "table": options.table, "card_values": card_values,
            "games": options.games, "limit": options.limit, "wins_needed": options.wins_needed,
            "decks": options.decks,
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
        elif entry.cards_left is not None:
            # Cards left are only accepted with the count table: one point per card.
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
        names = _names(setup, winners)
        first = winners[0]
        penalty, wins = totals.penalty[first], totals.wins[first]
        params: dict[str, JSON] = {
            "winners": [setup.players[seat] for seat in winners], "seats": list(winners),
            "penalty": penalty, "wins": wins, "games": totals.games, "ended_by": ended_by,
            "reached": [setup.players[seat] for seat in reached],
        }
        if ended_by == "limit":
            ending = (f"{_names(setup, reached)} reached the limit of {options.limit} penalty "
                      f"points in game {totals.games}")
            params["limit"] = options.limit
        elif ended_by == "wins_needed":
            ending = f"{_names(setup, reached)} won {options.wins_needed} of {_games(totals.games)}"
            params["wins_needed"] = options.wins_needed
        else:
            ending = f"After {_games(totals.games)}"
        if options.scoring == "wins":
            if len(winners) > 1:
                return Reason("shared_most_wins",
                              f"{ending}: {names} share the win with {_games(wins)} won each.",
                              params)
            return Reason("most_wins", f"{ending}: {names} won the most games ({wins}).", params)
        if len(winners) > 1:
            return Reason("shared_fewest_penalty",
                          f"{ending}: {names} share the win with {penalty} penalty points and "
                          f"{_games(wins)} won each.", params)
        tied = tuple(seat for seat, points in enumerate(totals.penalty) if points == penalty)
        if len(tied) > 1:
            params["tied"] = [setup.players[seat] for seat in tied]
            return Reason("penalty_tie_more_wins",
                          f"{ending}: {_names(setup, tied)} are tied on {penalty} penalty points; "
                          f"{names} won more games ({wins}).", params)
        return Reason("fewest_penalty",
                      f"{ending}: {names} has the fewest penalty points ({penalty}).", params)

    def score_share(self, totals: Totals, setup: Setup[Options]) -> tuple[float, ...]:
        """Penalty scoring: table average penalty − seat's penalty; wins: wins / games played."""
        if setup.options.scoring == "wins":
            played = totals.games
            return tuple(wins / played if played else 0.0 for wins in totals.wins)
        average = sum(totals.penalty) / len(totals.penalty)
        return tuple(average - points for points in totals.penalty)

    def guide(self, raw: JSON, setup: Setup[Options], earlier: Sequence[Entry]
              ) -> dict[str, JSON]:
        """Per seat the cards and penalty given so far, the cards still free (``remaining``
        copies per card), duplicates, the totals if this game counted, and what is missing or
        wrong so far."""
        options = setup.options
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
        return {
            "winner": reading.winner, "form": reading.form,
            "cards": list(cards), "penalty": list(penalty),
            "unassigned": [card for card, left in remaining.items() if left],
            "remaining": remaining,
            "duplicates": duplicates,
            "totals": totals.as_json(),
            "would_finish": self.is_over(totals, [*results, partial], setup),
            "complete": not found,
            "missing": [e.as_json() for e in found if e.code in NOT_YET_GIVEN],
            "errors": [e.as_json() for e in found if e.code not in NOT_YET_GIVEN],
        }


GAME = TschauSepp()
