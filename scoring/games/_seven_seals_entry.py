"""Reading one round of Die sieben Siegel: the bids played out against the seal supply.

A round entry is checked the way the table lived it: the bids in playing order against the middle,
then the seals left and the black seals against what each player held after the predictions.
The same reading serves a finished entry (:func:`read_round` with ``partial=False``) and the seal
board of a round still being entered (``partial=True``: missing bids, seals left and black seals
are not yet errors).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from scoring.errors import Errors, at
from scoring.messages import SEAT, Message, Vocabulary
from scoring.reading import (
    JSON,
    read_bool,
    read_choice,
    read_int,
    read_ints,
    read_list,
    read_object,
    require,
    unknown_choice,
)

COLOURS = ("red", "yellow", "green", "blue", "violet")
KINDS = (*COLOURS, "white")
"""The seals a player can hold after the predictions; black seals are counted apart."""
WHITE = KINDS.index("white")
SUPPLY = (5, 3, 3, 3, 3, 4)
"""Seals in the middle at the start of a round, in ``KINDS`` order."""
BLACK_SUPPLY = 6
TRICKS = 15

ENTRY_FIELDS = frozenset({"bids", "remaining", "black", "tricks", "first_bidder"})
PREDICTION_FIELDS = frozenset({"seals", "taken_from", "saboteur"})
_KIND_INDEX = {kind: index for index, kind in enumerate(KINDS)}

SEAL = Vocabulary("a seal's colour, as its name (red)", {
    "red": "red", "yellow": "yellow", "green": "green", "blue": "blue", "violet": "violet",
    "white": "white", "black": "black",
}, forms={"one": "describing one seal: 1 red seal", "many": "describing seals: 3 red seals"})
_SEAT_AND_SEAL = {"seat": SEAT, "colour": SEAL}
UNKNOWN_SEAL = unknown_choice(SEAL)
EXCEEDS_SUPPLY = Message("exceeds_supply",
                         "There are only {supply} {colour:many} seals; this prediction takes "
                         "{wanted}.", kinds={"colour": SEAL})
COLOUR_NOT_BID = Message("colour_not_bid",
                         "No {colour:one} seal is predicted, so none comes from another player.",
                         kinds={"colour": SEAL})
MIDDLE_HAS_COLOUR = Message(
    "middle_has_colour", "The middle still has 1 {colour:one} seal: take it from there.",
    plural="The middle still has {middle} {colour:many} seals: take them from there.",
    count="middle", kinds={"colour": SEAL})
TAKEN_FROM_NEEDED = Message(
    "taken_from_needed",
    "The middle has no {colour:many} seals left: say whom the {colour:one} seal came from.",
    plural="The middle has no {colour:many} seals left: say whom the {count} {colour:many} "
    "seals came from.", count="count", kinds={"colour": SEAL})
GIVERS_WRONG_LENGTH = Message(
    "wrong_length", "1 {colour:one} seal came from another player: name 1 player, not {actual}.",
    plural="{expected} {colour:many} seals came from other players: name one player per seal, "
    "not {actual}.", count="expected", kinds={"colour": SEAL})
OUT_OF_TURN = Message("out_of_turn", "{waiting_for} predicts before {seat}: enter that first.",
                      kinds={"waiting_for": SEAT, "seat": SEAT})
SABOTEUR_TAKEN = Message("saboteur_taken", "{saboteur} is already the saboteur this round.",
                         kinds={"saboteur": SEAT})
OWN_SEAT = Message("own_seat", "Nobody can take a seal from themselves.")
GIVER_IS_SABOTEUR = Message("saboteur_holds_no_seals",
                            "{seat} is the saboteur and holds no seals.", kinds={"seat": SEAT})
NOT_YET_BID = Message("not_yet_bid", "{seat} has not predicted yet and holds no seals.",
                      kinds={"seat": SEAT})
GIVER_NOT_HELD = Message("not_held", "{seat} holds only 1 {colour:one} seal.",
                         plural="{seat} holds only {held} {colour:many} seals.", count="held",
                         kinds=_SEAT_AND_SEAL)
NO_WHITE_LEFT = Message("no_white_left", "No white seal is left to give in exchange.")
SABOTEUR_TAKES_NO_SEALS = Message("saboteur_takes_no_seals", "The saboteur takes no seals.")
SABOTEUR_HOLDS_NO_SEALS = Message("saboteur_holds_no_seals",
                                  "The saboteur holds no seals, so none can be left.")
SEALS_LEFT_NEEDED = Message("seals_left_needed",
                            "Enter the seals {seat} has left (none, if all went back).",
                            kinds={"seat": SEAT})
LEFT_NOT_HELD = Message("not_held", "{seat} held only 1 {colour:one} seal after the predictions.",
                        plural="{seat} held only {held} {colour:many} seals after the "
                        "predictions.", count="held", kinds=_SEAT_AND_SEAL)
TOO_MANY_BLACK = Message("too_many_black", "Only {supply} black seals exist; you entered {total}.")
TRICKS_TOTAL = Message("tricks_total",
                       "The tricks add up to {total}, but a round has {expected} tricks.")
SABOTEUR_TAKES_NO_BLACK = Message("saboteur_takes_no_black",
                                  "The saboteur never takes a black seal.")
BLACK_WHILE_HOLDING_WHITE = Message(
    "black_while_holding_white",
    "{seat} still holds a white seal, so they never had to take a black one.",
    kinds={"seat": SEAT})
TOO_MANY_TRICKS = Message("too_many_tricks",
                          "The seals given back and the black seals add up to {tricks} tricks, "
                          "but a round has only {maximum}.")
TRICKS_MISMATCH = Message("tricks_mismatch",
                          "Tricks won by {seat}: {tricks}; but the seals given back and the "
                          "black seals taken add up to {accounted}.", kinds={"seat": SEAT})
_COLOUR_INDEX = {colour: index for index, colour in enumerate(COLOURS)}

Seals = tuple[int, ...]
"""How many seals of each kind, in ``KINDS`` order."""
Givers = int | tuple[int, ...] | None
"""Whom a bidder took one colour from: one seat for all of them, one seat per seal, or nobody."""


@dataclass(frozen=True, slots=True)
class Bid:
    """One player's choice before play: seals per colour with their givers, or the saboteur."""

    saboteur: bool
    seals: tuple[int, ...] = (0,) * len(COLOURS)
    """Seals predicted per colour, in ``COLOURS`` order."""
    taken_from: tuple[Givers, ...] = (None,) * len(COLOURS)
    """Per colour, whom the seals the middle could not give came from."""


@dataclass(frozen=True, slots=True)
class SealRound:
    """A checked round: what each seat held after the predictions and what was left at the end.

    ``remaining`` is ``None`` for the saboteur, who holds nothing.
    """

    order: tuple[int, ...]
    held: tuple[Seals, ...]
    remaining: tuple[Seals | None, ...]
    black: tuple[int, ...]
    tricks: tuple[int, ...] | None
    saboteur: int | None


@dataclass(slots=True)
class Bidding:
    """The table while the bids are placed: the middle, each seat's seals, who has bid."""

    order: tuple[int, ...]
    middle: list[int]
    holdings: list[list[int]]
    seated: list[int] = field(default_factory=list)
    saboteur: int | None = None
    waiting_for: int | None = None
    blocked: bool = False

    @classmethod
    def start(cls, order: tuple[int, ...]) -> Bidding:
        """The table before the first bid: every seal in the middle."""
        return cls(order, list(SUPPLY), [[0] * len(KINDS) for _ in order])

    @property
    def complete(self) -> bool:
        """Every seat has bid and no bid broke a rule, so the holdings are certain."""
        return not self.blocked and len(self.seated) == len(self.order)


@dataclass(frozen=True, slots=True)
class Reading:
    bidding: Bidding
    round: SealRound | None
    black: tuple[int, ...] | None


def playing_order(first_bidder: int, seats: int) -> tuple[int, ...]:
    return tuple((first_bidder + step) % seats for step in range(seats))


def read_round(
    raw: JSON, seats: int, round_index: int, errors: Errors, *, partial: bool,
) -> Reading:
    """Check an entry; the round is returned only when it is complete and nothing is wrong."""
    found = len(errors)
    entry = read_object(raw, "", errors, allowed=ENTRY_FIELDS)
    if entry is None:
        return Reading(Bidding.start(playing_order(round_index % seats, seats)), None, None)
    first = round_index % seats
    if "first_bidder" in entry:
        chosen = read_int(entry["first_bidder"], "first_bidder", errors, minimum=0,
                          maximum=seats - 1)
        first = first if chosen is None else chosen
    bidding = Bidding.start(playing_order(first, seats))
    _place_bids(bidding, _read_bids(entry, seats, errors, partial), errors)
    remaining = _read_remaining(entry, seats, errors, partial)
    black = _read_per_seat(entry, "black", seats, errors, partial, BLACK_SUPPLY)
    tricks = _read_per_seat(entry, "tricks", seats, errors, True, TRICKS)
    if black is not None and sum(black) > BLACK_SUPPLY:
        errors.add("black", TOO_MANY_BLACK, total=sum(black), supply=BLACK_SUPPLY)
    if tricks is not None and sum(tricks) != TRICKS:
        errors.add("tricks", TRICKS_TOTAL, total=sum(tricks), expected=TRICKS)
    if not bidding.complete:
        return Reading(bidding, None, black)
    held = tuple(tuple(seals) for seals in bidding.holdings)
    before = len(errors)
    left = _check_remaining(bidding, held, remaining, errors, partial)
    if black is not None:
        _check_black(bidding.saboteur, left, black, errors)
        # Seals left that were never held would count as tricks never won.
        if left is not None and len(errors) == before:
            _check_tricks(bidding.saboteur, held, left, black, tricks, errors)
    if left is None or black is None or len(errors) > found:
        return Reading(bidding, None, black)
    return Reading(bidding, SealRound(bidding.order, held, left, black, tricks, bidding.saboteur),
                   black)


def _field(
    entry: Mapping[str, JSON], key: str, errors: Errors, optional: bool,
) -> tuple[bool, JSON]:
    """Whether a field is given, and its value; a missing required field is reported."""
    if key in entry and not (optional and entry[key] is None):
        return True, entry[key]
    if not optional:
        require(entry, key, "", errors)
    return False, None


_SABOTEUR = Bid(saboteur=True)
_NOBODY: tuple[Givers, ...] = (None,) * len(COLOURS)
_WAITING = "waiting"
"""A seat whose bid is not entered yet (only while a round is being entered)."""
_BROKEN = "broken"
"""A seat whose bid cannot be read, so nothing after it in playing order can be placed."""


def _read_bids(
    entry: Mapping[str, JSON], seats: int, errors: Errors, partial: bool,
) -> list[Bid | str]:
    given, raw = _field(entry, "bids", errors, partial)
    if not given:
        return [_WAITING if partial else _BROKEN] * seats
    bids = (read_list(raw, "bids", errors, max_length=seats) if partial
            else read_list(raw, "bids", errors, length=seats))
    if bids is None:
        return [_BROKEN] * seats
    read: list[Bid | str] = [_WAITING] * seats
    for seat, value in enumerate(bids):
        if value is not None or not partial:
            read[seat] = _read_bid(value, f"bids[{seat}]", seats, errors) or _BROKEN
    return read


def _read_bid(value: JSON, path: str, seats: int, errors: Errors) -> Bid | None:
    bid = read_object(value, path, errors, allowed=PREDICTION_FIELDS)
    if bid is None:
        return None
    found = len(errors)
    saboteur = bid.get("saboteur", False)
    if not isinstance(saboteur, bool):
        read_bool(saboteur, at(path, "saboteur"), errors)
        return None
    if saboteur:
        for key in ("seals", "taken_from"):
            if key in bid:
                errors.add(at(path, key), SABOTEUR_TAKES_NO_SEALS, field=key)
        return None if len(errors) > found else _SABOTEUR
    raw_seals = bid.get("seals")
    if not isinstance(raw_seals, list):
        read_list(require(bid, "seals", path, errors), at(path, "seals"), errors)
        raw_seals = []
    counts = [0] * len(COLOURS)
    for index, raw in enumerate(raw_seals):
        colour = _COLOUR_INDEX.get(raw) if isinstance(raw, str) else None
        if colour is None:
            read_choice(raw, f"{path}.seals[{index}]", errors, _COLOUR_INDEX, unknown=UNKNOWN_SEAL)
        else:
            counts[colour] += 1
    givers = (_read_taken_from(bid["taken_from"], at(path, "taken_from"), seats, errors)
              if "taken_from" in bid else _NOBODY)
    if len(errors) > found:
        return None
    return Bid(False, tuple(counts), givers)


def _read_taken_from(value: JSON, path: str, seats: int, errors: Errors) -> tuple[Givers, ...]:
    givers: list[Givers] = [None] * len(COLOURS)
    taken = read_object(value, path, errors, allowed=_COLOUR_INDEX)
    for colour, raw in (taken or {}).items():
        if colour not in _COLOUR_INDEX:
            continue
        where = at(path, colour)
        if isinstance(raw, list):
            seat_list = [read_int(seat, at(where, index), errors, minimum=0, maximum=seats - 1)
                         for index, seat in enumerate(raw)]
            givers[_COLOUR_INDEX[colour]] = tuple(s for s in seat_list if s is not None)
        else:
            givers[_COLOUR_INDEX[colour]] = read_int(raw, where, errors, minimum=0,
                                                     maximum=seats - 1)
    return tuple(givers)


def _place_bids(bidding: Bidding, bids: Sequence[Bid | str], errors: Errors) -> None:
    """Play the bids out in playing order until one is missing or breaks a rule."""
    for turn, seat in enumerate(bidding.order):
        bid = bids[seat]
        if bid == _WAITING:
            bidding.waiting_for = seat
            for later in bidding.order[turn + 1:]:
                if bids[later] != _WAITING:
                    errors.add(f"bids[{later}]", OUT_OF_TURN, waiting_for=seat, seat=later)
            return
        if not isinstance(bid, Bid) or not _place_bid(bidding, seat, bid, errors):
            bidding.blocked = True
            return


def _place_bid(bidding: Bidding, seat: int, bid: Bid, errors: Errors) -> bool:
    path = f"bids[{seat}]"
    if bid.saboteur:
        if bidding.saboteur is not None:
            errors.add(at(path, "saboteur"), SABOTEUR_TAKEN, saboteur=bidding.saboteur)
            return False
        bidding.saboteur = seat
        bidding.seated.append(seat)
        return True
    found = len(errors)
    middle = bidding.middle
    whites = middle[WHITE]
    takings: list[tuple[int, int, int]] = []
    for colour, wanted in enumerate(bid.seals):
        givers = bid.taken_from[colour]
        if givers is None and wanted <= middle[colour]:
            continue
        for giver, count in _take_from_others(bidding, seat, colour, wanted, givers, whites,
                                              path, errors):
            whites -= count
            takings.append((colour, giver, count))
    if len(errors) > found:
        return False
    holding = bidding.holdings[seat]
    for colour, wanted in enumerate(bid.seals):
        if wanted:
            holding[colour] += wanted
            middle[colour] = max(0, middle[colour] - wanted)
    for colour, giver, count in takings:
        bidding.holdings[giver][colour] -= count
        bidding.holdings[giver][WHITE] += count
        bidding.middle[WHITE] -= count
    bidding.seated.append(seat)
    return True


def _take_from_others(
    bidding: Bidding, seat: int, colour: int, wanted: int, givers: Givers, whites: int,
    path: str, errors: Errors,
) -> list[tuple[int, int]]:
    """The (giver, seals) a bidder takes of one colour beyond what the middle still has."""
    name = COLOURS[colour]
    where = f"{path}.taken_from.{name}"
    short = wanted - bidding.middle[colour]
    if wanted > SUPPLY[colour]:
        errors.add(at(path, "seals"), EXCEEDS_SUPPLY, colour=name, supply=SUPPLY[colour],
                   wanted=wanted)
        return []
    if short <= 0:
        # Only reached with givers named: the bid asks for no more than the middle has.
        if wanted == 0:
            errors.add(where, COLOUR_NOT_BID, colour=name)
        else:
            errors.add(where, MIDDLE_HAS_COLOUR, colour=name, middle=bidding.middle[colour])
        return []
    if givers is None:
        errors.add(where, TAKEN_FROM_NEEDED, colour=name, count=short)
        return []
    if isinstance(givers, int):
        asked = [(givers, short, where)]
    elif len(givers) != short:
        errors.add(where, GIVERS_WRONG_LENGTH, expected=short, actual=len(givers), colour=name)
        return []
    else:
        asked = [(giver, 1, at(where, index)) for index, giver in enumerate(givers)]
    taken: dict[int, int] = {}
    for giver, count, giver_path in asked:
        before = taken.get(giver, 0)
        if _may_give(bidding, seat, giver, colour, before + count, count <= whites, giver_path,
                     errors):
            taken[giver] = before + count
            whites -= count
    return list(taken.items())


def _may_give(
    bidding: Bidding, seat: int, giver: int, colour: int, count: int, whites_enough: bool,
    path: str, errors: Errors,
) -> bool:
    """Whether ``giver`` can hand over ``count`` seals of ``colour`` in all, each for a white."""
    name = COLOURS[colour]
    held = bidding.holdings[giver][colour]
    if giver == seat:
        errors.add(path, OWN_SEAT, seat=giver)
    elif giver == bidding.saboteur:
        errors.add(path, GIVER_IS_SABOTEUR, seat=giver)
    elif giver not in bidding.seated:
        errors.add(path, NOT_YET_BID, seat=giver)
    elif held < count:
        errors.add(path, GIVER_NOT_HELD, seat=giver, colour=name, held=held)
    elif not whites_enough:
        errors.add(path, NO_WHITE_LEFT, seat=giver)
    else:
        return True
    return False


def _read_remaining(
    entry: Mapping[str, JSON], seats: int, errors: Errors, partial: bool,
) -> list[list[int] | None] | None:
    """Per seat, the kinds of the seals left in the order given (``None``: saboteur or unknown)."""
    given, raw = _field(entry, "remaining", errors, partial)
    if not given:
        return None
    rows = read_list(raw, "remaining", errors, length=seats)
    if rows is None:
        return None
    remaining: list[list[int] | None] = []
    for seat, row in enumerate(rows):
        path = f"remaining[{seat}]"
        if row is None:
            remaining.append(None)
            continue
        kinds: list[int] = []
        for index, kind in enumerate(read_list(row, path, errors) or ()):
            known = _KIND_INDEX.get(kind) if isinstance(kind, str) else None
            if known is None:
                read_choice(kind, at(path, index), errors, _KIND_INDEX, unknown=UNKNOWN_SEAL)
            else:
                kinds.append(known)
        remaining.append(kinds)
    return remaining


def _read_per_seat(
    entry: Mapping[str, JSON], key: str, seats: int, errors: Errors, optional: bool, most: int,
) -> tuple[int, ...] | None:
    given, raw = _field(entry, key, errors, optional)
    if not given:
        return None
    if isinstance(raw, list) and len(raw) == seats:
        numbers = tuple(n for n in raw if type(n) is int and 0 <= n <= most)
        if len(numbers) == seats:
            return numbers
    return read_ints(raw, key, errors, length=seats, minimum=0, maximum=most)


def _check_remaining(
    bidding: Bidding, held: Sequence[Seals], remaining: list[list[int] | None] | None,
    errors: Errors, partial: bool,
) -> tuple[Seals | None, ...] | None:
    """Seals left per seat, each within what the seat held after the predictions."""
    if remaining is None:
        return None
    left: list[Seals | None] = []
    for seat, kinds in enumerate(remaining):
        path = f"remaining[{seat}]"
        if seat == bidding.saboteur:
            if kinds:
                errors.add(path, SABOTEUR_HOLDS_NO_SEALS)
            left.append(None)
            continue
        if kinds is None:
            if not partial:
                errors.add(path, SEALS_LEFT_NEEDED, seat=seat)
            left.append(None)
            continue
        counts = [0] * len(KINDS)
        for index, kind in enumerate(kinds):
            counts[kind] += 1
            if counts[kind] > held[seat][kind]:
                errors.add(at(path, index), LEFT_NOT_HELD, colour=KINDS[kind],
                           held=held[seat][kind], seat=seat)
        left.append(tuple(counts))
    if any(seals is None for seat, seals in enumerate(left) if seat != bidding.saboteur):
        return None
    return tuple(left)


def _check_black(
    saboteur: int | None, left: Sequence[Seals | None] | None, black: Sequence[int],
    errors: Errors,
) -> None:
    for seat, taken in enumerate(black):
        if not taken:
            continue
        if seat == saboteur:
            errors.add(f"black[{seat}]", SABOTEUR_TAKES_NO_BLACK)
        elif left is not None and (seals := left[seat]) is not None and seals[WHITE]:
            # A white seal fits every trick and no seal comes back during play, so a player
            # who ends with a white one always had one to give.
            errors.add(f"black[{seat}]", BLACK_WHILE_HOLDING_WHITE, black=taken,
                       white=seals[WHITE], seat=seat)


def _check_tricks(
    saboteur: int | None, held: Sequence[Seals], left: Sequence[Seals | None],
    black: Sequence[int], tricks: Sequence[int] | None, errors: Errors,
) -> None:
    """Every seal given back and every black seal stands for one trick won."""
    accounted = [0 if seals is None else sum(held[seat]) - sum(seals) + black[seat]
                 for seat, seals in enumerate(left)]
    if sum(accounted) > TRICKS:
        errors.add("remaining", TOO_MANY_TRICKS, tricks=sum(accounted), maximum=TRICKS)
    if tricks is None:
        return
    all_black_out = sum(black) == BLACK_SUPPLY
    for seat, won in enumerate(tricks):
        if seat == saboteur:
            continue
        if accounted[seat] > won or (accounted[seat] < won and not all_black_out):
            errors.add(f"tricks[{seat}]", TRICKS_MISMATCH, tricks=won,
                       returned=accounted[seat] - black[seat], black=black[seat],
                       accounted=accounted[seat], seat=seat)
