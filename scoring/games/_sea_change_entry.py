"""Reading one Sea Change round entry: card mode (every pile) or points mode (a score per side).

The same reader serves a round being saved (``partial=False``: everything must be there) and a
round still being typed in (``partial=True``, for the guide): then what is not entered yet is no
error, but whatever is already wrong is.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeAlias, cast

from scoring.errors import Errors, at
from scoring.games._sea_change_deck import (
    CARD,
    SUIT,
    SUIT_OF,
    SUITS,
    UNKNOWN_SUIT,
    VALUE_OF,
    Deck,
    Table,
    deck_of,
)
from scoring.messages import SIDE, Listed, Message
from scoring.reading import (
    JSON,
    NOT_AN_OBJECT,
    read_bool,
    read_choice,
    read_int,
    read_list,
    read_object,
    read_str,
    require,
)

CARD_FIELDS = frozenset({"final_trump", "captured"})
POINTS_FIELDS = frozenset({"final_trump", "scores", "trump_zero", "tricks"})
SOLO_POINTS_FIELDS = POINTS_FIELDS | {"has_eight"}

SUITS_LISTED = Listed(SUIT)
NO_MODE = Message("no_mode", "Enter the round card by card or as points.")
BOTH_MODES = Message("both_modes", "Enter the round either card by card or as points, not both.")
SUIT_NOT_IN_PLAY = Message("suit_not_in_play",
                           "{suit} is not in play in this match; the suits in play are {suits}.",
                           kinds={"suit": SUIT, "suits": SUITS_LISTED})
PILE_NOT_WHOLE_TRICKS = Message(
    "pile_not_whole_tricks",
    "A pile holds whole tricks of {cards_per_trick} cards; this one has 1 card.",
    plural="A pile holds whole tricks of {cards_per_trick} cards; this one has {cards} cards.",
    count="cards")
UNKNOWN_CARD = Message("unknown_card", '"{card}" is not a Sea Change card.')
DUPLICATE_CARD = Message("duplicate_card", "{card} is already in {first_side}'s pile.",
                         kinds={"card": CARD, "first_side": SIDE})
DUPLICATE_CARD_SAME_PILE = Message("duplicate_card", "{card} is already in this pile.",
                                   kinds={"card": CARD})
NOT_IN_DECK_FOR_PLAYERS = Message(
    "not_in_deck", "{card} is not in the deck for 1 player.",
    plural="{card} is not in the deck for {players} players.", count="players",
    kinds={"card": CARD})
NOT_IN_PLAY = Message("not_in_deck", "{card} is not in play; the suits in play are {suits}.",
                      kinds={"card": CARD, "suits": SUITS_LISTED})
MISSING_CARD = Message("missing_card", "{card} is in no pile.", kinds={"card": CARD})
SUITS_CHANGED = Message("suits_changed",
                        "Earlier rounds were played with {suits}; this round has cards of "
                        "{found} as well.", kinds={"suits": SUITS_LISTED, "found": SUITS_LISTED})
TOO_FEW_SUITS = Message(
    "too_few_suits", "With 1 player, {expected} suits are in play; the piles hold only {actual}.",
    plural="With {players} players, {expected} suits are in play; the piles hold only {actual}.",
    count="players")
TOO_MANY_SUITS = Message(
    "too_many_suits", "With 1 player, only {expected} suits are in play; the piles hold {actual}.",
    plural="With {players} players, only {expected} suits are in play; the piles hold "
    "{actual}.", count="players")
CHECKSUM_MISMATCH = Message("checksum_mismatch",
                            "The points add up to {actual}, but the points of a round always add "
                            "up to {expected}.")
TRICKS_TOTAL = Message("tricks_total",
                       "The tricks add up to {actual}, but a round has {expected} tricks.")
SCORE_WITHOUT_TRICKS = Message("score_without_tricks",
                               "{side} took no trick, so their points are 0.",
                               kinds={"side": SIDE})
TRUMP_ZERO_WITHOUT_TRICKS = Message("trump_zero_without_tricks",
                                    "{side} took no trick, so they cannot have captured the "
                                    "trump 0.", kinds={"side": SIDE})
EIGHT_WITHOUT_TRICKS = Message("eight_without_tricks",
                               "You took no trick, so your pile holds no 8.")


@dataclass(frozen=True, slots=True)
class CardEntry:
    """A round entered card by card: one pile per side, and the suits its deck was made of."""

    final_trump: str
    piles: tuple[tuple[str, ...], ...]
    suits: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class PointsEntry:
    """A round entered as one score per side; ``tricks`` only when a tiebreak may need them."""

    final_trump: str
    scores: tuple[int, ...]
    trump_zero: int
    tricks: tuple[int, ...] | None
    has_eight: bool | None  # solo only: whether your pile holds an 8


Entry: TypeAlias = "CardEntry | PointsEntry"


@dataclass(frozen=True, slots=True)
class KnownSuits:
    """The suits in play before this round, if known, and whether an earlier round showed them."""

    suits: tuple[str, ...] | None
    from_earlier: bool = False


@dataclass(frozen=True, slots=True)
class PileReading:
    """Per side the valid card ids entered (first occurrences), the deck if known, duplicates."""

    kept: tuple[tuple[str, ...], ...]
    deck: Deck | None
    duplicates: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class RoundReading:
    mode: str | None  # "cards", "points", or None while it cannot be told
    entry: Entry | None  # only for a complete entry with nothing wrong
    piles: PileReading | None


def read_round(
    raw: JSON, table: Table, known: KnownSuits, errors: Errors, *, partial: bool
) -> RoundReading:
    if not isinstance(raw, dict):
        errors.add("", NOT_AN_OBJECT)
        return RoundReading(None, None, None)
    points_fields = SOLO_POINTS_FIELDS if table.solo else POINTS_FIELDS
    mode: str | None = None
    if "captured" in raw and "scores" in raw:
        errors.add("", BOTH_MODES)
    elif "captured" in raw:
        mode = "cards"
    elif "scores" in raw:
        mode = "points"
    elif not partial:
        errors.add("", NO_MODE)
    allowed = {"cards": CARD_FIELDS, "points": points_fields}.get(
        mode or "", CARD_FIELDS | points_fields)
    read_object(raw, "", errors, allowed=allowed)
    trump = (read_choice(raw["final_trump"], "final_trump", errors, SUITS, unknown=UNKNOWN_SUIT)
             if _present(raw, "final_trump", errors, partial=partial) else None)
    if mode == "cards":
        return _read_card_round(raw, trump, table, known, errors, partial=partial)
    if trump is not None and known.suits is not None:
        _check_trump_in_play(trump, known.suits, errors)
    if mode == "points":
        entry = _read_points(raw, table, errors, partial=partial)
        if entry is not None and trump is not None and not errors:
            return RoundReading(mode, PointsEntry(trump, *entry), None)
    return RoundReading(mode, None, None)


def _present(raw: Mapping[str, JSON], key: str, errors: Errors, *, partial: bool) -> bool:
    """Whether a required field was given; a missing one is an error unless still being typed."""
    if key in raw and not (partial and raw[key] is None):
        return True
    if not partial:
        require(raw, key, "", errors)
    return False


def _check_trump_in_play(trump: str, suits: tuple[str, ...], errors: Errors) -> None:
    if trump not in suits:
        errors.add("final_trump", SUIT_NOT_IN_PLAY, suit=trump, suits=suits)


def _read_card_round(
    raw: Mapping[str, JSON], trump: str | None, table: Table, known: KnownSuits, errors: Errors,
    *, partial: bool,
) -> RoundReading:
    piles = read_piles(raw["captured"], table, known, errors, partial=partial)
    if trump is not None and piles.deck is not None:
        _check_trump_in_play(trump, piles.deck.suits, errors)
    if partial or errors or trump is None or piles.deck is None:
        return RoundReading("cards", None, piles)
    return RoundReading("cards", CardEntry(trump, piles.kept, piles.deck.suits), piles)


def read_piles(
    value: JSON, table: Table, known: KnownSuits, errors: Errors, *, partial: bool
) -> PileReading:
    """The captured piles: each card of the deck exactly once, each pile whole tricks."""
    rule = table.rule
    items = read_list(value, "captured", errors, length=table.sides)
    if items is None:
        deck = None if known.suits is None else deck_of(rule.players, known.suits)
        return PileReading((), deck, ())
    if known.suits is not None and not partial:
        deck = deck_of(rule.players, known.suits)
        whole = _whole_deck(items, deck, rule.cards_per_trick)
        if whole is not None:
            return PileReading(whole, deck, ())
    return _read_piles_card_by_card(items, table, known, errors, partial=partial)


def _whole_deck(
    piles: Sequence[JSON], deck: Deck, cards_per_trick: int
) -> tuple[tuple[str, ...], ...] | None:
    """The piles when they are exactly the deck in whole tricks: the usual case, checked with
    set operations only; anything else goes card by card to name each problem."""
    seen: set[JSON] = set()
    total = 0
    for pile in piles:
        if not isinstance(pile, list) or len(pile) % cards_per_trick:
            return None
        try:
            seen.update(pile)
        except TypeError:  # a list or object where a card should be
            return None
        total += len(pile)
    if total != len(deck.ids) or seen != deck.cards:
        return None
    return tuple(tuple(cast("list[str]", pile)) for pile in piles)


def _read_piles_card_by_card(
    items: Sequence[JSON], table: Table, known: KnownSuits, errors: Errors, *, partial: bool
) -> PileReading:
    rule = table.rule
    first_at: dict[str, tuple[str, int]] = {}  # card → where first entered, and whose pile
    placed: list[list[tuple[str, str]]] = []
    duplicates: dict[str, None] = {}
    for side, pile in enumerate(items):
        pile_path = at("captured", side)
        found: list[tuple[str, str]] = []
        placed.append(found)
        cards = read_list(pile, pile_path, errors)
        if cards is None:
            continue
        if not partial and len(cards) % rule.cards_per_trick:
            errors.add(pile_path, PILE_NOT_WHOLE_TRICKS, cards=len(cards),
                       cards_per_trick=rule.cards_per_trick)
        for position, card in enumerate(cards):
            path = at(pile_path, position)
            text = read_str(card, path, errors)
            if text is None:
                continue
            if text not in SUIT_OF:
                errors.add(path, UNKNOWN_CARD, card=text)
            elif text in first_at:
                first, first_side = first_at[text]
                if first_side == side:
                    errors.add(path, DUPLICATE_CARD_SAME_PILE, card=text, first=first,
                               first_side=first_side)
                else:
                    errors.add(path, DUPLICATE_CARD, card=text, first=first,
                               first_side=first_side)
                duplicates[text] = None
            else:
                first_at[text] = (path, side)
                found.append((path, text))
    deck = _deck_in_play(table, known, first_at, errors, partial=partial)
    values = frozenset(rule.values)
    for found in placed:
        for path, card in found:
            if VALUE_OF[card] not in values:
                errors.add(path, NOT_IN_DECK_FOR_PLAYERS, card=card, values=rule.values,
                           players=rule.players)
            elif deck is not None and card not in deck.cards:
                errors.add(path, NOT_IN_PLAY, card=card, suits=deck.suits)
    if deck is not None and not partial:
        for card in deck.ids:
            if card not in first_at:
                errors.add("captured", MISSING_CARD, card=card)
    kept = tuple(tuple(card for _, card in found) for found in placed)
    return PileReading(kept, deck, tuple(duplicates))


def _deck_in_play(
    table: Table, known: KnownSuits, cards: Collection[str], errors: Errors, *, partial: bool
) -> Deck | None:
    """The deck of this round: from the options or an earlier round, else from its own cards."""
    rule = table.rule
    counts = Counter(SUIT_OF[card] for card in cards)
    if known.suits is not None:
        changed = tuple(suit for suit in SUITS if suit in counts and suit not in known.suits)
        if known.from_earlier and changed:
            errors.add("captured", SUITS_CHANGED, suits=known.suits, found=changed)
        return deck_of(rule.players, known.suits)
    # Decision: with cards of too many suits, the suits holding the most cards are in play and
    # the others' cards are reported one by one.
    in_play = sorted(counts, key=lambda suit: (-counts[suit], SUITS.index(suit)))
    if len(in_play) < rule.suit_count:
        if not partial:
            errors.add("captured", TOO_FEW_SUITS, expected=rule.suit_count,
                       actual=len(in_play), players=rule.players)
        return None
    if len(in_play) > rule.suit_count:
        errors.add("captured", TOO_MANY_SUITS, expected=rule.suit_count, actual=len(in_play),
                   players=rule.players)
    return deck_of(rule.players, tuple(in_play[: rule.suit_count]))


def _read_points(
    raw: Mapping[str, JSON], table: Table, errors: Errors, *, partial: bool
) -> tuple[tuple[int, ...], int, tuple[int, ...] | None, bool | None] | None:
    """Scores, trump 0, tricks and (solo) the 8, each checked alone and against each other."""
    rule = table.rule
    sides = table.sides
    scores = _read_per_side(raw, "scores", sides, errors, partial=partial, required=True)
    tricks = _read_per_side(raw, "tricks", sides, errors, partial=partial, required=False,
                            minimum=0)
    trump_zero = (read_int(raw["trump_zero"], "trump_zero", errors, minimum=0,
                           maximum=sides - 1)
                  if _present(raw, "trump_zero", errors, partial=partial) else None)
    has_eight = (read_bool(raw["has_eight"], "has_eight", errors)
                 if table.solo and _present(raw, "has_eight", errors, partial=partial) else None)
    full_scores = _complete(scores)
    if full_scores is not None and sum(full_scores) != rule.checksum:
        errors.add("scores", CHECKSUM_MISMATCH, expected=rule.checksum,
                   actual=sum(full_scores))
    full_tricks = _complete(tricks)
    if full_tricks is not None:
        _check_tricks(full_tricks, scores, trump_zero, has_eight, table, errors)
    if full_scores is None or trump_zero is None or (table.solo and has_eight is None):
        return None
    if tricks is not None and full_tricks is None:
        return None
    return full_scores, trump_zero, full_tricks, has_eight


def _check_tricks(
    tricks: tuple[int, ...], scores: tuple[int | None, ...] | None, trump_zero: int | None,
    has_eight: bool | None, table: Table, errors: Errors,
) -> None:
    """Tricks add up to the round's tricks, and a side without a trick captured nothing."""
    rule = table.rule
    if sum(tricks) != rule.tricks:
        errors.add("tricks", TRICKS_TOTAL, expected=rule.tricks, actual=sum(tricks))
    for side, taken in enumerate(tricks):
        if taken:
            continue
        if scores is not None and scores[side]:
            errors.add(at("scores", side), SCORE_WITHOUT_TRICKS, side=side)
        if trump_zero == side:
            errors.add("trump_zero", TRUMP_ZERO_WITHOUT_TRICKS, side=side)
        if side == 0 and has_eight:
            errors.add("has_eight", EIGHT_WITHOUT_TRICKS)


def _read_per_side(
    raw: Mapping[str, JSON], key: str, sides: int, errors: Errors, *, partial: bool,
    required: bool, minimum: int | None = None,
) -> tuple[int | None, ...] | None:
    """One whole number per side; while typing, ``null`` marks a side not entered yet."""
    if required:
        if not _present(raw, key, errors, partial=partial):
            return None
    elif raw.get(key) is None:
        return None
    items = read_list(raw[key], key, errors, length=sides)
    if items is None:
        return None
    return tuple(
        None if partial and item is None
        else read_int(item, at(key, side), errors, minimum=minimum)
        for side, item in enumerate(items)
    )


def _complete(numbers: tuple[int | None, ...] | None) -> tuple[int, ...] | None:
    if numbers is None or None in numbers:
        return None
    return cast("tuple[int, ...]", numbers)
