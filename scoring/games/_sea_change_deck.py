"""Sea Change's cards, decks and table shapes, computed once at import.

A card id is ``<suit>-<value>`` (``purple-10``). Lookups are plain dicts keyed by card id so that
checking and scoring an 80-card round is a few C-level set and dict operations.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from scoring.messages import Message, Named, Param, Vocabulary
from scoring.reading import unknown_choice

SUITS = ("blue", "green", "red", "purple", "yellow")
VALUES = tuple(range(16))

SUIT = Vocabulary("a Sea Change suit, by its colour (water, seaweed, flags, helmets, suns)", {
    "blue": "blue", "green": "green", "red": "red", "purple": "purple", "yellow": "yellow",
})
UNKNOWN_SUIT = unknown_choice(SUIT)

# Points printed on a card, by value; the 0 of the final trump adds TRUMP_ZERO_POINTS instead.
CARD_POINTS = (0, 0, -1, 2, 0, 0, 0, 0, -4, 2, 1, 1, 1, -2, 2, 1)
TRUMP_ZERO_POINTS = 5
EIGHT = 8

CARD_IDS = tuple(f"{suit}-{value}" for suit in SUITS for value in VALUES)
SUIT_OF = {f"{suit}-{value}": suit for suit in SUITS for value in VALUES}
VALUE_OF = {f"{suit}-{value}": value for suit in SUITS for value in VALUES}
POINTS_OF = {card: CARD_POINTS[value] for card, value in VALUE_OF.items()}
ZERO_OF = {suit: f"{suit}-0" for suit in SUITS}
EIGHTS = frozenset(f"{suit}-{EIGHT}" for suit in SUITS)

_LOW = (0, *range(4, 13))


def _card_parts(card: str) -> Mapping[str, Param] | None:
    return {"suit": SUIT_OF[card], "value": VALUE_OF[card]} if card in SUIT_OF else None


CARD = Named(Message("sea_change_card", "{suit} {value}", kinds={"suit": SUIT}), _card_parts)
"""A Sea Change card by its id (``purple-10``): "purple 10"."""


@dataclass(frozen=True, slots=True)
class DeckRule:
    """What the player count fixes: how many suits, which values, and how tricks are made."""

    players: int
    suit_count: int
    values: tuple[int, ...]
    tricks: int
    cards_per_trick: int

    @property
    def cards(self) -> int:
        return self.suit_count * len(self.values)

    @property
    def checksum(self) -> int:
        """Every card is captured, so the round scores of all sides always add up to this."""
        return self.suit_count * sum(CARD_POINTS[v] for v in self.values) + TRUMP_ZERO_POINTS


DECK_RULES = {
    1: DeckRule(1, 3, _LOW, 10, 3),  # solo: the AI leads, you play, the AI plays again
    2: DeckRule(2, 3, _LOW, 15, 2),  # 10 cards each, the rest is drawn from after every card
    3: DeckRule(3, 3, _LOW, 10, 3),
    4: DeckRule(4, 4, _LOW, 10, 4),
    5: DeckRule(5, 5, _LOW, 10, 5),
    6: DeckRule(6, 5, (0, *range(3, 14)), 10, 6),
    7: DeckRule(7, 5, (0, *range(2, 15)), 10, 7),
    8: DeckRule(8, 5, VALUES, 10, 8),
}


@dataclass(frozen=True, slots=True)
class Deck:
    suits: tuple[str, ...]
    ids: tuple[str, ...]
    cards: frozenset[str]


@cache
def deck_of(players: int, suits: tuple[str, ...]) -> Deck:
    """The deck in play for ``players`` with these suits, in suit then value order."""
    values = DECK_RULES[players].values
    ordered = tuple(s for s in SUITS if s in suits)
    ids = tuple(f"{suit}-{value}" for suit in ordered for value in values)
    return Deck(ordered, ids, frozenset(ids))


@dataclass(frozen=True, slots=True)
class Table:
    """The shape of one match: its deck rule and its sides (seats, teams, or you and the AI)."""

    rule: DeckRule
    side_seats: tuple[tuple[int, ...], ...]
    side_of_seat: tuple[int, ...]
    solo: bool
    teams: bool

    @property
    def sides(self) -> int:
        return len(self.side_seats)


def table_of(players: int, teams: tuple[tuple[int, ...], ...] | None) -> Table:
    rule = DECK_RULES[players]
    if players == 1:
        return Table(rule, ((0,), ()), (0,), solo=True, teams=False)
    if teams:
        side_of_seat = [0] * players
        for side, members in enumerate(teams):
            for seat in members:
                side_of_seat[seat] = side
        return Table(rule, teams, tuple(side_of_seat), solo=False, teams=True)
    seats = tuple((seat,) for seat in range(players))
    return Table(rule, seats, tuple(range(players)), solo=False, teams=False)
