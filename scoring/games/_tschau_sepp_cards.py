"""The Jass deck of Tschau Sepp: suits, ranks, card ids, display names and penalty tables.

Everything here is computed once, at import or once per table.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache

SUITS = ("rosen", "schellen", "schilten", "eicheln")
RANKS = ("6", "7", "8", "9", "banner", "under", "ober", "koenig", "ass")
CARDS = tuple(f"{suit}-{rank}" for suit in SUITS for rank in RANKS)
CARD_INDEX = {card: index for index, card in enumerate(CARDS)}
CARD_RANK = tuple(index % len(RANKS) for index in range(len(CARDS)))
CARDS_PER_DECK = len(CARDS)
HAND_SIZE = 5
MIN_PLAYERS, MAX_PLAYERS = 2, 8
MAX_PLAYERS_ONE_DECK = 5

SUIT_NAMES = {
    "rosen": ("Rosen", "Roses", "herz", "Herz", "Hearts"),
    "schellen": ("Schellen", "Bells", "karo", "Karo", "Diamonds"),
    "schilten": ("Schilten", "Shields", "pik", "Pik", "Spades"),
    "eicheln": ("Eicheln", "Acorns", "kreuz", "Kreuz", "Clubs"),
}
RANK_NAMES = {
    "6": ("6", "6", "6", "6"),
    "7": ("7", "7", "7", "7"),
    "8": ("8", "8", "8", "8"),
    "9": ("9", "9", "9", "9"),
    "banner": ("Banner", "Banner", "10", "10"),
    "under": ("Under", "Under", "Bube", "Jack"),
    "ober": ("Ober", "Ober", "Dame", "Queen"),
    "koenig": ("König", "King", "König", "King"),
    "ass": ("Ass", "Ace", "Ass", "Ace"),
}

TABLES: Mapping[str, tuple[int, ...]] = {
    "face": (6, 7, 8, 9, 10, 20, 3, 4, 11),
    "jass": (0, 0, 0, 0, 10, 2, 3, 4, 11),
    "count": (1, 1, 1, 1, 1, 1, 1, 1, 1),
}


@cache
def card_points(values: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(values[rank] for rank in CARD_RANK)


@cache
def penalty_bounds(values: tuple[int, ...], decks: int, losers: int) -> tuple[int, int]:
    """The most points one loser's hand, and all losers' hands together, can be worth.

    The winner's last card lies on the pile and each other loser holds a card, so one loser
    holds at most ``deck - losers`` cards and all losers together ``deck - 1``.
    """
    points = sorted(card_points(values) * decks, reverse=True)
    return sum(points[:len(points) - losers]), sum(points[:-1])
