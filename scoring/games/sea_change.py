"""Sea Change (Inside Up Games 2021): trick-taking for 1–8 players, victory points per round.

Sides are seats; with the ``teams`` option one side per team in ``teams`` order; solo the sides
are ``[you, ai]``. A round is entered card by card (``captured``: one pile per side, the whole
deck) or as points (``scores`` per side, ``trump_zero``, optional ``tricks``; solo ``has_eight``).

Decisions where the rules are silent (rules.md §1 settles the others):
- The suits in play (1–4 players) come from the option ``suits``, else from the first round
  entered card by card; every later card round must use the same suits (``suits_changed``).
  A points-only round before that checks only that ``final_trump`` is a suit at all. With cards
  of more suits than are in play, the suits holding the most cards count as in play.
- With 5+ players all five suits are in play; ``suits`` may be given but must then list all five.
- A duplicate card is reported at its second place, with the first place as ``first``.
- Points mode checks what the entry allows: scores add up to the checksum; when ``tricks`` are
  given they add up to the round's tricks, and a side without a trick scores 0, cannot hold the
  trump 0 and (solo) cannot hold an 8.
- ``tricks`` (or a card entry) is demanded only by the round that ends the game in a tie no one
  broke with the trump 0 (``tricks_needed``), so a table types them only when they matter.
- Still tied on fewest cards collected: the tied sides share the win.
- Standings rank by VP; once finished the winners rank first, even above a side with the same VP
  that lost a tiebreak.
- Solo standings have two rows: you (seat 0) and the AI (side 1, no seats, named "AI"); the AI's
  win is reported as winner side 1.
- ``score_share`` per seat: its side's VP / all VP awarded at the table (0.0 before any VP);
  team members share their team's value; solo it is your VP / (your VP + the AI's).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from scoring.errors import Errors, FieldError, InvalidEntry, InvalidOptions, at
from scoring.game import (
    OptionSpec,
    PaperSheet,
    Reason,
    Setup,
    SheetColumns,
    Standing,
    Verdict,
    paper_rows,
)
from scoring.games._sea_change_deck import (
    CARD_IDS,
    CARD_POINTS,
    DECK_RULES,
    EIGHTS,
    POINTS_OF,
    SUIT,
    SUITS,
    TRUMP_ZERO_POINTS,
    UNKNOWN_SUIT,
    ZERO_OF,
    Table,
    table_of,
)
from scoring.games._sea_change_entry import (
    CARD_FIELDS,
    POINTS_FIELDS,
    CardEntry,
    Entry,
    KnownSuits,
    PointsEntry,
    read_round,
)
from scoring.match import names_of
from scoring.measures import Measure, Priced
from scoring.messages import ENGLISH, SEAT, SIDE, Listed, Message, Names, Vocabulary, Wording
from scoring.ranking import shared_ranks
from scoring.reading import JSON, read_choice, read_int, read_list, read_object
from scoring.registry import game_name
from scoring.shapes import (
    ENTRY_PROBLEM,
    GameShapes,
    array,
    boolean,
    integer,
    nullable,
    obj,
    one_of,
    partly_entered,
    per_seat,
    standing,
    string,
)

MAX_TARGET_VP = 10
DEFAULT_TARGET_VP = 3
AI_NAME = "AI"
OPTION_FIELDS = ("target_vp", "teams", "suits")

SIDES = Listed(SIDE)
TEAMS_NEED_FOUR_PLAYERS = Message("teams_need_four_players",
                                  "Teams need at least 4 players; there are {players}.")
TOO_FEW_TEAMS = Message("too_few_teams", "Make at least 2 teams.")
SEAT_TWICE = Message("seat_twice", "{seat} is already in a team.", kinds={"seat": SEAT})
SEAT_WITHOUT_TEAM = Message("seat_without_team", "{seat} is in no team.", kinds={"seat": SEAT})
UNEQUAL_TEAMS = Message("unequal_teams", "All teams must be the same size.")
TEAMS_NOT_ALTERNATING = Message(
    "teams_not_alternating",
    "Team members sit alternately around the table, so this team would be {expected}.",
    kinds={"seats": Listed(SEAT), "expected": Listed(SEAT)})
SUIT_TWICE = Message("suit_twice", "{suit} is listed twice.", kinds={"suit": SUIT})
TRICKS_NEEDED = Message(
    "tricks_needed",
    "{sides} reach {target_vp} VP together and none of them captured the trump 0: enter the "
    "tricks each side took, as the fewest cards collected decide.", kinds={"sides": SIDES})
COLUMNS = Vocabulary("a column of the Sea Change score sheet", {
    "scores": "points", "vp": "VP", "cards": "cards collected", "trump_zero": "trump 0",
    "points": "points", "final_trump": "trump at round end", "round": "round",
})
SHEET = SheetColumns(COLUMNS, sides=frozenset({"trump_zero"}), entry=("final_trump",),
                     values={"final_trump": SUIT})
SIDES_RULE = Message("sides_rule", "One side per player; with teams, one per team, in the order "
                     "the teams are given; solo, you and the AI.")
TARGET_REACHED = Message("target_reached", "{side} reached {vp} VP.", kinds={"side": SIDE})
TRUMP_ZERO_TIEBREAK = Message("trump_zero_tiebreak",
                              "Tied on {vp} VP; {side} captured the trump 0.",
                              kinds={"side": SIDE, "tied": SIDES})
SHARED_WIN = Message("shared_win", "Tied on {vp} VP; {tied} share the win.",
                     kinds={"tied": SIDES})
FEWEST_CARDS_TIEBREAK = Message("fewest_cards_tiebreak",
                                "Tied on {vp} VP; {side} collected the fewest cards ({cards}).",
                                kinds={"side": SIDE, "tied": SIDES})
SHARED_WIN_FEWEST_CARDS = Message(
    "shared_win", "Tied on {vp} VP; {winners} collected the fewest cards ({cards}) and share "
    "the win.", kinds={"winners": SIDES, "tied": SIDES})


@dataclass(frozen=True, slots=True)
class Options:
    target_vp: int
    teams: tuple[tuple[int, ...], ...] | None
    suits: tuple[str, ...] | None  # None: inferred from the first round entered card by card
    table: Table


@dataclass(frozen=True, slots=True)
class RoundResult:
    scores: tuple[int, ...]
    vp: tuple[int, ...]
    cards: tuple[int, ...] | None  # cards collected per side; None when only points were entered
    trump_zero: int  # the side that captured the final trump's 0

    def as_json(self) -> dict[str, JSON]:
        return {
            "scores": list(self.scores), "vp": list(self.vp),
            "cards": None if self.cards is None else list(self.cards),
            "trump_zero": self.trump_zero,
        }


@dataclass(frozen=True, slots=True)
class Totals:
    vp: tuple[int, ...]
    points: tuple[int, ...]

    def as_json(self) -> dict[str, JSON]:
        return {"vp": list(self.vp), "points": list(self.points)}


# --- options -------------------------------------------------------------------------------


def _read_teams(value: JSON, players: int, errors: Errors) -> tuple[tuple[int, ...], ...] | None:
    """Teams of equal size (at least 2), every seat exactly once, seated alternately."""
    found_before = len(errors)
    groups = read_list(value, "teams", errors)
    if groups is None:
        return None
    if players < 4:
        errors.add("teams", TEAMS_NEED_FOUR_PLAYERS, players=players)
        return None
    if len(groups) < 2:
        errors.add("teams", TOO_FEW_TEAMS, actual=len(groups))
    teams: list[tuple[int, ...]] = []
    placed: set[int] = set()
    for index, group in enumerate(groups):
        path = at("teams", index)
        members = read_list(group, path, errors, min_length=2)
        if members is None:
            continue
        seats: list[int] = []
        for position, raw_seat in enumerate(members):
            seat = read_int(raw_seat, at(path, position), errors, minimum=0, maximum=players - 1)
            if seat is None:
                continue
            if seat in placed:
                errors.add(at(path, position), SEAT_TWICE, seat=seat)
            placed.add(seat)
            seats.append(seat)
        teams.append(tuple(seats))
    for seat in range(players):
        if seat not in placed:
            errors.add("teams", SEAT_WITHOUT_TEAM, seat=seat)
    if len(errors) > found_before:
        return None
    sizes = tuple(len(team) for team in teams)
    if len(set(sizes)) > 1:
        errors.add("teams", UNEQUAL_TEAMS, sizes=sizes)
        return None
    count = len(teams)
    for index, team in enumerate(teams):
        if len({seat % count for seat in team}) > 1:
            expected = tuple(range(team[0] % count, players, count))
            errors.add(at("teams", index), TEAMS_NOT_ALTERNATING, seats=team, expected=expected)
    return None if len(errors) > found_before else tuple(teams)


def _read_suits(value: JSON, players: int, errors: Errors) -> tuple[str, ...] | None:
    """The suits in play: as many as the player count uses, each once."""
    count = DECK_RULES[players].suit_count
    items = read_list(value, "suits", errors, length=count)
    if items is None:
        return None
    found_before = len(errors)
    suits: list[str] = []
    for index, item in enumerate(items):
        suit = read_choice(item, at("suits", index), errors, SUITS, unknown=UNKNOWN_SUIT)
        if suit in suits:
            errors.add(at("suits", index), SUIT_TWICE, suit=suit)
        elif suit is not None:
            suits.append(suit)
    return None if len(errors) > found_before else tuple(s for s in SUITS if s in suits)


def read_options(raw: Mapping[str, JSON], players: int) -> Options:
    errors = Errors()
    read_object(dict(raw), "", errors, allowed=OPTION_FIELDS)
    teams = None if raw.get("teams") is None else _read_teams(raw["teams"], players, errors)
    given_suits = None if raw.get("suits") is None else _read_suits(raw["suits"], players, errors)
    team_size = len(teams[0]) if teams else 0
    target: int | None = team_size + 1 if team_size else DEFAULT_TARGET_VP
    if raw.get("target_vp") is not None:
        target = read_int(raw["target_vp"], "target_vp", errors, minimum=1,
                          maximum=MAX_TARGET_VP)
    errors.raise_as(InvalidOptions)
    assert target is not None  # a bad target was reported above
    suits = SUITS if DECK_RULES[players].suit_count == len(SUITS) else given_suits
    return Options(target, teams, suits, table_of(players, teams))


# --- rounds --------------------------------------------------------------------------------


def known_suits(options: Options, earlier: Sequence[Entry]) -> KnownSuits:
    """The suits in play before a round: from the options, else the first card-mode round."""
    if options.suits is not None:
        return KnownSuits(options.suits)
    for entry in earlier:
        if isinstance(entry, CardEntry):
            return KnownSuits(entry.suits, from_earlier=True)
    return KnownSuits(None)


def read_entry(raw: JSON, setup: Setup[Options], earlier: Sequence[Entry]) -> Entry:
    errors = Errors()
    options = setup.options
    reading = read_round(raw, options.table, known_suits(options, earlier), errors,
                         partial=False)
    errors.raise_as(InvalidEntry)
    assert reading.entry is not None  # nothing wrong was found, so the entry is complete
    return reading.entry


def victory_points(scores: Sequence[int], has_eight: bool, table: Table) -> tuple[int, ...]:
    """One VP for every side with the highest score; solo one VP, to you only with an 8."""
    if table.solo:
        return (1, 0) if scores[0] > scores[1] and has_eight else (0, 1)
    top = max(scores)
    return tuple(1 if score == top else 0 for score in scores)


def pile_points(pile: Sequence[str], final_trump: str | None) -> int:
    """The points in one pile; the 0 of the final trump adds 5."""
    points = sum(map(POINTS_OF.__getitem__, pile))
    if final_trump is not None and ZERO_OF[final_trump] in pile:
        points += TRUMP_ZERO_POINTS
    return points


def score_round(entry: Entry, setup: Setup[Options]) -> RoundResult:
    table = setup.options.table
    if isinstance(entry, PointsEntry):
        cards = (None if entry.tricks is None
                 else tuple(t * table.rule.cards_per_trick for t in entry.tricks))
        vp = victory_points(entry.scores, bool(entry.has_eight), table)
        return RoundResult(entry.scores, vp, cards, entry.trump_zero)
    piles = entry.piles
    zero = ZERO_OF[entry.final_trump]
    scores = tuple(pile_points(pile, entry.final_trump) for pile in piles)
    trump_zero = next(side for side, pile in enumerate(piles) if zero in pile)
    has_eight = table.solo and not EIGHTS.isdisjoint(piles[0])
    cards = tuple(len(pile) for pile in piles)
    return RoundResult(scores, victory_points(scores, has_eight, table), cards, trump_zero)


def first_totals(setup: Setup[Options]) -> Totals:
    sides = setup.options.table.sides
    return Totals((0,) * sides, (0,) * sides)


def side_names(setup: Setup[Options]) -> tuple[str, ...]:
    table = setup.options.table
    if table.solo:
        return (setup.players[0], AI_NAME)
    return tuple(" & ".join(setup.players[seat] for seat in seats) for seats in table.side_seats)


def add_round(totals: Totals, result: RoundResult, setup: Setup[Options]) -> Totals:
    """The totals after a round; a game-ending tie that only cards can break needs them."""
    vp = tuple(a + b for a, b in zip(totals.vp, result.vp, strict=True))
    points = tuple(a + b for a, b in zip(totals.points, result.scores, strict=True))
    target = setup.options.target_vp
    reached = [side for side, v in enumerate(vp) if v >= target]
    if len(reached) > 1 and result.trump_zero not in reached and result.cards is None:
        raise InvalidEntry((FieldError(
            "tricks", TRICKS_NEEDED, {"sides": tuple(reached), "target_vp": target}),))
    return Totals(vp, points)


def is_over(totals: Totals, rounds: Sequence[RoundResult], setup: Setup[Options]) -> bool:
    return max(totals.vp) >= setup.options.target_vp


def _decide(
    reached: Sequence[int], last: RoundResult, vp: int, names: Names
) -> tuple[tuple[int, ...], Reason]:
    """Who wins among the sides that reached the target in the last round, and why."""
    if len(reached) == 1:
        side = reached[0]
        return (side,), Reason(TARGET_REACHED, {"side": side, "name": names.sides[side],
                                                "vp": vp}, names)
    tied: dict[str, JSON] = {"vp": vp, "tied": list(reached)}
    if last.trump_zero in reached:
        side = last.trump_zero
        return (side,), Reason(TRUMP_ZERO_TIEBREAK,
                               {**tied, "side": side, "name": names.sides[side]}, names)
    if last.cards is None:  # only a fold that skipped add_round's check gets here
        return tuple(reached), Reason(
            SHARED_WIN, {**tied, "names": [names.sides[side] for side in reached]}, names)
    fewest = min(last.cards[side] for side in reached)
    winners = tuple(side for side in reached if last.cards[side] == fewest)
    winner_names = [names.sides[side] for side in winners]
    if len(winners) == 1:
        return winners, Reason(
            FEWEST_CARDS_TIEBREAK,
            {**tied, "side": winners[0], "name": winner_names[0], "cards": fewest}, names)
    return winners, Reason(
        SHARED_WIN_FEWEST_CARDS,
        {**tied, "names": list(winner_names), "cards": fewest, "winners": list(winners)}, names)


def judge(totals: Totals, rounds: Sequence[RoundResult], setup: Setup[Options]) -> Verdict:
    table = setup.options.table
    names = side_names(setup)
    target = setup.options.target_vp
    reached = [side for side, v in enumerate(totals.vp) if v >= target]
    winners: tuple[int, ...] = ()
    reason = None
    if reached:
        computer = frozenset({1}) if table.solo else frozenset()
        winners, reason = _decide(reached, rounds[-1], totals.vp[reached[0]],
                                  Names(setup.players, names, computer=computer))
    # Winners rank as if one VP above the target: first, even over a side a tiebreak beat.
    # (Any: ranking's comparable protocol wants __lt__(object), which int's stub lacks.)
    keys: list[Any] = [-(target + 1) if side in winners else -v
                       for side, v in enumerate(totals.vp)]
    ranks = shared_ranks(keys)
    standings = tuple(sorted(
        (Standing(side, table.side_seats[side], names[side], ranks[side],
                  {"vp": totals.vp[side], "points": totals.points[side]}, is_team=table.teams,
                  computer=table.solo and side == 1)
         for side in range(table.sides)),
        key=lambda standing: (standing.rank, standing.side),
    ))
    return Verdict(standings, bool(reached), winners, reason)


def score_share(totals: Totals, setup: Setup[Options]) -> tuple[float, ...]:
    """Per seat: its side's VP / all VP at the table; 0.0 while nobody has a VP."""
    awarded = sum(totals.vp)
    return tuple(totals.vp[side] / awarded if awarded else 0.0
                 for side in setup.options.table.side_of_seat)


# --- guide and description -----------------------------------------------------------------


def _replay(setup: Setup[Options], earlier: Sequence[Entry]) -> Totals:
    totals = first_totals(setup)
    for entry in earlier:
        totals = add_round(totals, score_round(entry, setup), setup)
    return totals


def _last_score(raw: Mapping[str, JSON], sides: int, checksum: int) -> dict[str, JSON] | None:
    """The one score not typed yet, from the checksum, when all others are whole numbers."""
    scores = raw.get("scores")
    if not isinstance(scores, list) or len(scores) != sides:
        return None
    missing = [side for side, score in enumerate(scores) if score is None]
    typed = [s for s in scores if isinstance(s, int) and not isinstance(s, bool)]
    if len(missing) != 1 or len(typed) != sides - 1:
        return None
    return {"side": missing[0], "score": checksum - sum(typed)}


def guide(raw: JSON, setup: Setup[Options], earlier: Sequence[Entry],
          wording: Wording = ENGLISH) -> dict[str, JSON]:
    """Running numbers for the entry screen of a partly entered round.

    Always: ``mode``, ``checksum``, ``sides``, ``cards_per_trick``, ``tricks``, ``suits`` and
    ``deck`` (null while unknown), ``needs_tricks`` (two or more sides one VP short of the
    target, so the round may end in a tie only cards collected can break), ``complete`` (the
    entry would be accepted as it is) and ``errors`` (what is wrong already).
    Card mode adds ``unassigned`` cards of the deck, per side ``pile_points`` (with the given
    ``final_trump``) and ``pile_cards``, ``duplicates`` and ``trump_zero`` (side or null).
    Points mode adds ``last_score`` ({side, score} for the one missing score, or null).
    """
    options = setup.options
    table = options.table
    rule = table.rule
    known = known_suits(options, earlier)
    errors = Errors()
    reading = read_round(raw, table, known, errors, partial=True)
    problems = list(errors)
    totals = _replay(setup, earlier)
    complete = True
    try:
        entry = read_entry(raw, setup, earlier)
    except InvalidEntry:
        complete = False
    else:
        try:
            add_round(totals, score_round(entry, setup), setup)
        except InvalidEntry as needed:
            complete = False
            problems.extend(needed.errors)
    short = sum(1 for v in totals.vp if v == options.target_vp - 1)
    deck = reading.piles.deck if reading.piles else None
    suits = deck.suits if deck else known.suits
    guided: dict[str, JSON] = {
        "mode": reading.mode, "checksum": rule.checksum, "sides": table.sides,
        "cards_per_trick": rule.cards_per_trick, "tricks": rule.tricks,
        "suits": None if suits is None else list(suits),
        "deck": None if deck is None else list(deck.ids),
        "needs_tricks": reading.mode != "cards" and short >= 2,
    }
    body = raw if isinstance(raw, dict) else {}
    if reading.piles is not None:
        trump = body.get("final_trump")
        final_trump = trump if isinstance(trump, str) and trump in ZERO_OF else None
        kept = reading.piles.kept
        assigned = {card for pile in kept for card in pile}
        zero = None if final_trump is None else ZERO_OF[final_trump]
        guided.update(
            unassigned=None if deck is None else [c for c in deck.ids if c not in assigned],
            pile_points=[pile_points(pile, final_trump) for pile in kept],
            pile_cards=[len(pile) for pile in kept],
            duplicates=list(reading.piles.duplicates),
            trump_zero=next((side for side, pile in enumerate(kept) if zero in pile), None),
        )
    if reading.mode == "points":
        guided["last_score"] = _last_score(body, table.sides, rule.checksum)
    names = names_of(GAME, setup)
    guided.update(complete=complete,
                  errors=[problem.as_json(wording, names) for problem in problems])
    return guided


def describe(wording: Wording = ENGLISH) -> dict[str, JSON]:
    decks: dict[str, JSON] = {
        str(players): {
            "suits_in_play": rule.suit_count, "values": list(rule.values), "cards": rule.cards,
            "tricks": rule.tricks, "cards_per_trick": rule.cards_per_trick,
            "checksum": rule.checksum, "sides": 2 if players == 1 else players,
        }
        for players, rule in DECK_RULES.items()
    }
    return {
        "id": GAME.id, "name": game_name(GAME, wording), "min_players": GAME.min_players,
        "max_players": GAME.max_players,
        "options": [spec.as_json(wording) for spec in OPTION_SPECS],
        "suits": list(SUITS), "values": list(range(len(CARD_POINTS))), "card_ids": list(CARD_IDS),
        "decks": decks,
        "card_points": [{"value": value, "points": points}
                        for value, points in enumerate(CARD_POINTS)],
        "trump_zero_points": TRUMP_ZERO_POINTS,
        "entry_modes": {
            "cards": {"fields": [*sorted(CARD_FIELDS)],
                      "required": ["final_trump", "captured"]},
            "points": {
                "fields": [*sorted(POINTS_FIELDS | {"has_eight"})],
                "required": ["final_trump", "scores", "trump_zero"],
                "solo_required": ["has_eight"],
                "optional": ["tricks"],
            },
        },
        "sides": wording.phrase(SIDES_RULE),
    }


OPTION_SPECS = (
    OptionSpec("target_vp", "int", "Victory points to win",
               "The game ends after the round in which someone reaches this many victory "
               "points.", None, default_rule="3, or team size + 1 when playing in teams",
               minimum=1, maximum=MAX_TARGET_VP),
    OptionSpec("teams", "seat_groups", "Teams",
               "Play in teams of equal size, team mates sitting alternately; one of them "
               "collects the team's tricks.", None, available="players >= 4"),
    OptionSpec("suits", "choices", "Suits in play",
               "Which suits are in play when fewer than five are used.", None,
               default_rule="all five with 5 or more players; otherwise the suits of the first "
               "round entered card by card", choices=SUITS, available="players <= 4"),
)


def options_json(options: Options) -> dict[str, JSON]:
    return {
        "target_vp": options.target_vp,
        "teams": None if options.teams is None else [list(team) for team in options.teams],
        "suits": None if options.suits is None else list(options.suits),
    }


MAX_PLAYERS = 8
_SIDE = integer(minimum=0, maximum=MAX_PLAYERS - 1)
_SUIT = string(SUITS)
_CARD = string(CARD_IDS)
ENTRY = one_of(
    obj({"final_trump": _SUIT,
         "captured": per_seat(array(_CARD), "Each side's pile, the whole deck")},
        title="SeaChangeCardEntry"),
    obj({"final_trump": _SUIT, "scores": per_seat(integer(), "Each side's score"),
         "trump_zero": _SIDE},
        {"tricks": nullable(per_seat(integer(minimum=0), "Tricks taken per side")),
         "has_eight": boolean("Solo: whether your pile holds an 8")},
        title="SeaChangePointsEntry"),
    title="SeaChangeEntry", description="A round entered card by card, or as points")
SHAPES = GameShapes(
    entry=ENTRY,
    result=obj({"scores": per_seat(integer()), "vp": per_seat(integer(minimum=0)),
                "cards": nullable(per_seat(integer(minimum=0))), "trump_zero": _SIDE},
               title="SeaChangeResult"),
    totals=obj({"vp": per_seat(integer(minimum=0)), "points": per_seat(integer())},
               title="SeaChangeTotals"),
    standing=standing("SeaChangeStanding", {"vp": integer(minimum=0), "points": integer()}),
    partial_entry=partly_entered(ENTRY, title="SeaChangePartialEntry"),
    guide=obj({
        "mode": nullable(string(("cards", "points"), "How the round is entered; null while "
                                "neither captured nor scores is given")),
        "checksum": integer(description="What the points of a round add up to"),
        "sides": integer(minimum=2), "cards_per_trick": integer(minimum=1),
        "tricks": integer(minimum=1, description="Tricks in a round"),
        "suits": nullable(array(_SUIT, description="The suits in play, null while unknown")),
        "deck": nullable(array(_CARD, description="The round's cards, null while unknown")),
        "needs_tricks": boolean("Two or more sides are one VP short, so enter the tricks: a "
                                "tie may be broken by the fewest cards collected"),
        "complete": boolean("The round would be accepted as it is"),
        "errors": array(ENTRY_PROBLEM, description="What is wrong already"),
    }, {
        "unassigned": nullable(array(_CARD, description="Cards mode: the deck's cards in no "
                                     "pile yet")),
        "pile_points": array(integer(), description="Cards mode: each pile's points so far, "
                             "with the final trump's 0 once final_trump is given"),
        "pile_cards": array(integer(minimum=0), description="Cards mode: cards per pile"),
        "duplicates": array(_CARD, description="Cards mode: cards entered more than once"),
        "trump_zero": nullable(integer(minimum=0, maximum=MAX_PLAYERS - 1,
                                       description="Cards mode: the side whose pile holds the "
                                                   "final trump's 0")),
        "last_score": nullable(obj({"side": _SIDE, "score": integer()},
                                   title="SeaChangeLastScore",
                                   description="Points mode: the one score not typed yet, "
                                               "from the checksum")),
    }, title="SeaChangeGuide", description="Running numbers for a round being entered"),
)


class SeaChange:
    """Sea Change as a :class:`scoring.game.Game`."""

    id = "sea-change"
    name = "Sea Change"
    sheet = SHEET
    min_players = 1
    max_players = MAX_PLAYERS
    shapes = SHAPES
    measures: tuple[Measure, ...] = (Measure("vp_per_round", "vp", "round", "higher"),
                                      Measure("points_per_round", "points", "round", "higher"))

    def describe(self, wording: Wording = ENGLISH) -> dict[str, JSON]:
        return describe(wording)

    def read_options(self, raw: Mapping[str, JSON], players: int) -> Options:
        return read_options(raw, players)

    def options_json(self, options: Options) -> dict[str, JSON]:
        return options_json(options)

    def read_entry(self, raw: JSON, setup: Setup[Options], earlier: Sequence[Entry]) -> Entry:
        return read_entry(raw, setup, earlier)

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
        """Per side (a player, or a team) and round the points and the VP, both totalled; as
        many rows as the match can last: every round gives a VP to at least one side, so after
        ``sides × (target − 1)`` rounds someone has reached the target."""
        sides = options.teams or tuple((seat,) for seat in range(players))
        rows, more = paper_rows(max(len(sides), 2) * (options.target_vp - 1) + 1)
        return PaperSheet(("scores", "vp"), frozenset({"scores", "vp"}), rows, "round",
                          tuple(sides), more)

    def priced(self, setup: Setup[Options]) -> Priced | None:
        return None if setup.options.table.solo else Priced("vp", lower_is_better=False)

    def score_share(self, totals: Totals, setup: Setup[Options]) -> tuple[float, ...]:
        return score_share(totals, setup)

    def guide(self, raw: JSON, setup: Setup[Options], earlier: Sequence[Entry],
              wording: Wording = ENGLISH) -> dict[str, JSON]:
        return guide(raw, setup, earlier, wording)


GAME = SeaChange()
