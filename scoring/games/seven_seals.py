"""Die sieben Siegel (Amigo 2003, Stefan Dorra): predictions with seals, penalty points.

Rules: ``rules.md`` §2. Each round every player, in playing order, either predicts tricks by
taking seals of the colours they expect to win (taking a colour from another player, who gets a
white seal, once the middle has none left) or becomes the round's one saboteur. Seals left at the
end cost 2 (coloured) or 4 (white), each black seal 3; the saboteur pays
``max(0, saboteur_base - black seals the others took)``. Fewest penalty points after the last
round win.

Decisions (where the rules are silent):

- Bidding order: round r starts at seat ``(r - 1) mod players`` (left of that round's dealer, as
  ``FoldedMatch.next_dealer`` deals); ``first_bidder`` in an entry overrides it for tables that
  deal differently. The order matters: a player can only take a colour from someone who bid
  earlier in the same round.
- ``taken_from`` maps a colour to one seat (every seal of that colour the middle could not give
  came from that seat) or to a list with one seat per such seal. Naming a colour the middle could
  still give, or one not predicted, is an error, as is a missing giver.
- Only the seals predicted beyond what the middle holds come from others: a bidder empties the
  middle first.
- The saboteur's ``remaining`` is ``null`` (``[]`` is accepted too: it also says "nothing left").
- A player who still holds a white seal at the end cannot have taken a black one: white fits
  every trick and no seal comes back during play.
- The checks that depend on the holdings (later bids, seals left, tricks) stop at the first bid
  that breaks a rule: what anyone held after it would be guesswork. Shape errors are all reported.
- ``exact`` is true for a predicting player with no seal left and no black seal, false for the
  saboteur; it is counted in the standings for information, not as a tiebreak.
- A tie on the fewest penalty points is a shared win (shared rank 1).
- ``score_share`` (tournament tiebreak) is the table's average penalty minus the seat's penalty:
  positive for a seat that did better than its table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from scoring.errors import Errors, InvalidEntry, InvalidOptions
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
from scoring.games._seven_seals_entry import (
    BLACK_SUPPLY,
    COLOURS,
    KINDS,
    SUPPLY,
    TRICKS,
    WHITE,
    Bidding,
    SealRound,
    read_round,
)
from scoring.match import names_of
from scoring.measures import Measure, Priced
from scoring.messages import ENGLISH, Listed, Message, Vocabulary, Wording
from scoring.ranking import best, shared_ranks
from scoring.reading import JSON, read_int, read_object
from scoring.registry import game_name
from scoring.shapes import (
    ENTRY_PROBLEM,
    GameShapes,
    array,
    boolean,
    constant,
    integer,
    nullable,
    obj,
    one_of,
    partly_entered,
    per_seat,
    standing,
    string,
)

CARD_VALUES = {3: 9, 4: 12, 5: 15}
"""Highest card value in play per number of players; every colour runs from 1."""
COLOURED_PENALTY = 2
WHITE_PENALTY = 4
BLACK_PENALTY = 3
SABOTEUR_BASE = 4
SABOTEUR_BASE_THREE_PLAYERS = 5
MAX_ROUNDS = 20
_OPTION_FIELDS = frozenset({"rounds", "saboteur_base"})

COLUMNS = Vocabulary("a column of the Die sieben Siegel score sheet", {
    "penalty": "penalty points", "exact": "exact predictions", "saboteur": "saboteur",
    "rounds": "rounds", "round": "round", "seals": "seals taken", "left": "seals left",
    "black": "black seals",
})
SHEET = SheetColumns(COLUMNS, seats=frozenset({"saboteur"}))
ROUNDS_RULE = Message("rounds_rule", "As many rounds as players; 6 with 3 players.")
THREE_PLAYERS_ONLY = Message("three_players_only",
                             "A saboteur base of 5 is a rule for 3 players only; there are "
                             "{players}.")
FEWEST_PENALTY_POINTS = Message("fewest_penalty_points",
                                "{names} has the fewest penalty points ({penalty}).",
                                kinds={"names": Listed()})
SHARED_FEWEST_PENALTY_POINTS = Message("shared_fewest_penalty_points",
                                       "{names} share the win on {penalty} penalty points.",
                                       kinds={"names": Listed()})


def default_rounds(players: int) -> int:
    return 6 if players == 3 else players


@dataclass(frozen=True, slots=True)
class SealsOptions:
    rounds: int
    saboteur_base: int


@dataclass(frozen=True, slots=True)
class SealsResult:
    """One round: penalty points per seat, whose prediction came true, who sabotaged."""

    penalty: tuple[int, ...]
    exact: tuple[bool, ...]
    saboteur: int | None

    def as_json(self) -> dict[str, JSON]:
        return {"penalty": list(self.penalty), "exact": list(self.exact),
                "saboteur": self.saboteur}


@dataclass(frozen=True, slots=True)
class SealsTotals:
    """Penalty points and exact predictions per seat after ``rounds`` rounds."""

    penalty: tuple[int, ...]
    exact: tuple[int, ...]
    rounds: int

    def as_json(self) -> dict[str, JSON]:
        return {"penalty": list(self.penalty), "exact": list(self.exact), "rounds": self.rounds}


def seal_penalty(left: tuple[int, ...], black: int) -> int:
    """A predicting player's penalty for the seals left (``KINDS`` counts) and black seals."""
    return (COLOURED_PENALTY * (sum(left) - left[WHITE]) + WHITE_PENALTY * left[WHITE]
            + BLACK_PENALTY * black)


def score(sealed: SealRound, saboteur_base: int) -> SealsResult:
    black_total = sum(sealed.black)
    penalty: list[int] = []
    exact: list[bool] = []
    for seat, left in enumerate(sealed.remaining):
        if left is None:
            penalty.append(max(0, saboteur_base - black_total))
            exact.append(False)
        else:
            penalty.append(seal_penalty(left, sealed.black[seat]))
            exact.append(not any(left) and not sealed.black[seat])
    return SealsResult(tuple(penalty), tuple(exact), sealed.saboteur)


def _seal_counts(seals: Sequence[int], kinds: Sequence[str]) -> dict[str, JSON]:
    return dict(zip(kinds, seals, strict=False))


MAX_PLAYERS = 5
_SEAT = integer(minimum=0, maximum=MAX_PLAYERS - 1)
_GIVERS = one_of(_SEAT, array(_SEAT, min_items=1),
                 description="The seat all seals of this colour came from, or one seat per seal")
_PREDICTION = obj({"seals": array(string(COLOURS), description="One colour per trick predicted")},
                  {"taken_from": obj({}, dict.fromkeys(COLOURS, _GIVERS),
                                     description="Per colour the middle was out of, whom the "
                                                 "seals came from"),
                   "saboteur": boolean("false, or left out, for a prediction")},
                  title="SevenSealsPrediction")
_SABOTEUR_BID = obj({"saboteur": constant(True)}, title="SevenSealsSaboteur")
ENTRY = obj({
    "bids": per_seat(one_of(_PREDICTION, _SABOTEUR_BID), "Each seat's bid, in seat order"),
    "remaining": per_seat(nullable(array(string(KINDS))),
                          "The seals each seat was left with; null for the saboteur"),
    "black": per_seat(integer(minimum=0, maximum=BLACK_SUPPLY), "Black seals per seat"),
}, {
    "tricks": nullable(per_seat(integer(minimum=0, maximum=TRICKS), "Tricks won per seat")),
    "first_bidder": _SEAT,
}, title="SevenSealsEntry")
RESULT = obj({"penalty": per_seat(integer(minimum=0)), "exact": per_seat(boolean()),
              "saboteur": nullable(_SEAT)}, title="SevenSealsResult")
_SEALS = obj(dict.fromkeys(KINDS, integer(minimum=0)), title="SevenSealsSeals",
             description="Seals per kind")
SHAPES = GameShapes(
    entry=ENTRY,
    result=RESULT,
    totals=obj({"penalty": per_seat(integer(minimum=0)), "exact": per_seat(integer(minimum=0)),
                "rounds": integer(minimum=0)}, title="SevenSealsTotals"),
    standing=standing("SevenSealsStanding", {"penalty": integer(minimum=0),
                                             "exact": integer(minimum=0)}),
    partial_entry=partly_entered(ENTRY, title="SevenSealsPartialEntry"),
    guide=obj({
        "round": integer(minimum=1, description="The round being entered"),
        "order": per_seat(_SEAT, "The seats in playing order"),
        "next_bidder": nullable(_SEAT),
        "bids_complete": boolean("Every seat has bid and every bid is valid"),
        "middle": obj({**dict.fromkeys(KINDS, integer(minimum=0)),
                       "black": integer(minimum=0, maximum=BLACK_SUPPLY)},
                      title="SevenSealsMiddle", description="Seals left in the middle per kind"),
        "holdings": per_seat(_SEALS, "Per seat, the seals held after the bids so far"),
        "saboteur": nullable(_SEAT),
        "saboteur_available": boolean(),
        "take_from": obj({}, dict.fromkeys(COLOURS, array(_SEAT)),
                         description="Per colour the middle is out of, the seats the next bidder "
                                     "may take it from"),
        "result": nullable(RESULT),
        "errors": array(ENTRY_PROBLEM, description="What is wrong already"),
    }, title="SevenSealsGuide", description="The seal board of a round being entered"),
)


class SevenSeals:
    id = "seven-seals"
    name = "The Seven Seals"
    sheet = SHEET
    min_players = 3
    max_players = MAX_PLAYERS
    shapes = SHAPES
    measures: tuple[Measure, ...] = (Measure("penalty_per_round", "penalty", "round", "lower"),
                                      Measure("exact_per_match", "exact", "match", "higher"))

    def describe(self, wording: Wording = ENGLISH) -> dict[str, JSON]:
        return {
            "id": self.id, "name": game_name(self, wording), "min_players": self.min_players,
            "max_players": self.max_players,
            "options": [spec.as_json(wording) for spec in _OPTION_SPECS],
            "colours": list(COLOURS), "trump": COLOURS[0],
            "seals": [*KINDS, "black"],
            "supply": {**_seal_counts(SUPPLY, KINDS), "black": BLACK_SUPPLY},
            "cards": {str(players): {"values": [1, top], "count": top * len(COLOURS)}
                      for players, top in CARD_VALUES.items()},
            "hand_size": TRICKS, "tricks": TRICKS,
            "rounds": {str(players): default_rounds(players) for players in CARD_VALUES},
            "rounds_rule": wording.phrase(ROUNDS_RULE),
            "penalty": {"coloured": COLOURED_PENALTY, "white": WHITE_PENALTY,
                        "black": BLACK_PENALTY, "saboteur_base": SABOTEUR_BASE},
        }

    def read_options(self, raw: Mapping[str, JSON], players: int) -> SealsOptions:
        errors = Errors()
        read_object(dict(raw), "", errors, allowed=_OPTION_FIELDS)
        rounds: int | None = default_rounds(players)
        if "rounds" in raw:
            rounds = read_int(raw["rounds"], "rounds", errors, minimum=1, maximum=MAX_ROUNDS)
        base: int | None = SABOTEUR_BASE
        if "saboteur_base" in raw:
            base = read_int(raw["saboteur_base"], "saboteur_base", errors,
                            minimum=SABOTEUR_BASE, maximum=SABOTEUR_BASE_THREE_PLAYERS)
        if base == SABOTEUR_BASE_THREE_PLAYERS and players != 3:
            errors.add("saboteur_base", THREE_PLAYERS_ONLY, players=players)
        if rounds is None or base is None:
            errors.raise_all(InvalidOptions)
        errors.raise_as(InvalidOptions)
        return SealsOptions(rounds, base)

    def options_json(self, options: SealsOptions) -> dict[str, JSON]:
        return {"rounds": options.rounds, "saboteur_base": options.saboteur_base}

    def read_entry(
        self, raw: JSON, setup: Setup[SealsOptions], earlier: Sequence[SealRound],
    ) -> SealRound:
        errors = Errors()
        sealed = read_round(raw, len(setup.players), len(earlier), errors, partial=False).round
        errors.raise_as(InvalidEntry)
        assert sealed is not None  # a complete entry without errors is always read in full
        return sealed

    def score_round(self, entry: SealRound, setup: Setup[SealsOptions]) -> SealsResult:
        return score(entry, setup.options.saboteur_base)

    def first_totals(self, setup: Setup[SealsOptions]) -> SealsTotals:
        seats = len(setup.players)
        return SealsTotals((0,) * seats, (0,) * seats, 0)

    def add_round(
        self, totals: SealsTotals, result: SealsResult, setup: Setup[SealsOptions],
    ) -> SealsTotals:
        return SealsTotals(
            tuple(map(int.__add__, totals.penalty, result.penalty)),
            tuple(count + exact for count, exact in zip(totals.exact, result.exact, strict=True)),
            totals.rounds + 1,
        )

    def is_over(
        self, totals: SealsTotals, rounds: Sequence[SealsResult], setup: Setup[SealsOptions],
    ) -> bool:
        return totals.rounds >= setup.options.rounds

    def judge(
        self, totals: SealsTotals, rounds: Sequence[SealsResult], setup: Setup[SealsOptions],
    ) -> Verdict:
        ranks = shared_ranks(totals.penalty)
        standings = tuple(sorted(
            (Standing(seat, (seat,), name, ranks[seat],
                      {"penalty": totals.penalty[seat], "exact": totals.exact[seat]})
             for seat, name in enumerate(setup.players)),
            key=lambda standing: (standing.rank, standing.side),
        ))
        if not self.is_over(totals, rounds, setup):
            return Verdict(standings, False)
        winners = best(totals.penalty)
        points = totals.penalty[winners[0]]
        names = [setup.players[seat] for seat in winners]
        params: dict[str, JSON] = {"winners": list(winners), "names": list(names),
                                   "penalty": points}
        reason = Reason(FEWEST_PENALTY_POINTS if len(winners) == 1
                        else SHARED_FEWEST_PENALTY_POINTS, params)
        return Verdict(standings, True, winners, reason)

    def paper(self, options: SealsOptions, players: int) -> PaperSheet:
        """Per player and round the seals taken (the saboteur writes S), the seals left (white
        ones included), the black seals and the penalty; the penalty is totalled."""
        rows, more = paper_rows(options.rounds)
        return PaperSheet(("seals", "left", "black", "penalty"), frozenset({"penalty"}), rows,
                          "round", tuple((seat,) for seat in range(players)), more)

    def priced(self, setup: Setup[SealsOptions]) -> Priced:
        return Priced("penalty", lower_is_better=True)

    def score_share(self, totals: SealsTotals, setup: Setup[SealsOptions]) -> tuple[float, ...]:
        """Per seat: the table's average penalty minus the seat's penalty (higher is better)."""
        average = sum(totals.penalty) / len(totals.penalty)
        return tuple(average - penalty for penalty in totals.penalty)

    def guide(
        self, raw: JSON, setup: Setup[SealsOptions], earlier: Sequence[SealRound],
        wording: Wording = ENGLISH,
    ) -> dict[str, JSON]:
        """The seal board of a round being entered.

        ``order``: seats in playing order; ``next_bidder``: the seat whose bid is due (``null`` once
        all have bid, or while a bid breaks a rule); ``bids_complete``: every seat has bid and
        every bid is valid; ``middle``: seals left in the middle per kind, black included;
        ``holdings``: per seat the seals held after the bids so far; ``saboteur`` and
        ``saboteur_available``; ``take_from``: for each colour the middle is out of, the seats
        the next bidder may take it from (empty once no white is left to hand out);
        ``result``: the round's penalties once the entry is complete and valid; ``errors``.
        """
        errors = Errors()
        reading = read_round(raw, len(setup.players), len(earlier), errors, partial=True)
        bidding = reading.bidding
        black_out = sum(reading.black) if reading.black is not None else 0
        result = (None if reading.round is None
                  else score(reading.round, setup.options.saboteur_base).as_json())
        return {
            "round": len(earlier) + 1,
            "order": list(bidding.order),
            "next_bidder": bidding.waiting_for,
            "bids_complete": bidding.complete,
            "middle": {**_seal_counts(bidding.middle, KINDS),
                       "black": max(0, BLACK_SUPPLY - black_out)},
            "holdings": [_seal_counts(seals, KINDS) for seals in bidding.holdings],
            "saboteur": bidding.saboteur,
            "saboteur_available": bidding.saboteur is None,
            "take_from": _take_from(bidding),
            "result": result,
            "errors": [problem.as_json(wording, names_of(self, setup)) for problem in errors],
        }


def _take_from(bidding: Bidding) -> dict[str, JSON]:
    """Per colour out of the middle, the seats the next bidder could take it from."""
    can_exchange = bidding.middle[WHITE] > 0
    return {
        colour: [seat for seat in bidding.seated
                 if can_exchange and bidding.holdings[seat][index] > 0]
        for index, colour in enumerate(COLOURS) if not bidding.middle[index]
    }


_OPTION_SPECS = (
    OptionSpec("rounds", "int", "Rounds", "How many rounds the match lasts.", default=None,
               default_rule="as many as there are players; 6 with 3 players", minimum=1,
               maximum=MAX_ROUNDS),
    OptionSpec("saboteur_base", "int", "Saboteur's penalty",
               "The saboteur's penalty points before one is taken off for each black seal the "
               "others took; 5 is the rulebook's option for 3 players.",
               default=SABOTEUR_BASE, minimum=SABOTEUR_BASE,
               maximum=SABOTEUR_BASE_THREE_PLAYERS),
)

GAME = SevenSeals()
