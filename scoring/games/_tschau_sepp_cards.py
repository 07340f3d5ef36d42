"""The Jass deck of Tschau Sepp: suits, ranks, card ids, display names and penalty tables.

Everything here is computed once, at import or once per table.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, lru_cache

from scoring.messages import ByOption, Message, Named, Param, Vocabulary

SUITS = ("rosen", "schellen", "schilten", "eicheln")
RANKS = ("6", "7", "8", "9", "banner", "under", "ober", "koenig", "ass")
CARDS = tuple(f"{suit}-{rank}" for suit in SUITS for rank in RANKS)
CARD_INDEX = {card: index for index, card in enumerate(CARDS)}
CARD_RANK = tuple(index % len(RANKS) for index in range(len(CARDS)))
CARDS_PER_DECK = len(CARDS)
HAND_SIZE = 5
MIN_PLAYERS, MAX_PLAYERS = 2, 8
MAX_PLAYERS_ONE_DECK = 5

FRENCH_SUIT_IDS = {"rosen": "herz", "schellen": "karo", "schilten": "pik", "eicheln": "kreuz"}
"""The French-suited deck's suit for each Swiss one (rules.md: herz, karo, pik, kreuz)."""

_OF = {"of": "in a card's name, after the rank: Ace of Roses"}
SUIT = Vocabulary("a suit of the Swiss German Jass deck", {
    "rosen": "Roses", "schellen": "Bells", "schilten": "Shields", "eicheln": "Acorns",
}, forms=_OF)
RANK = Vocabulary("a rank of the Swiss German Jass deck", {
    "6": "6", "7": "7", "8": "8", "9": "9", "banner": "Banner", "under": "Under", "ober": "Ober",
    "koenig": "King", "ass": "Ace",
})
FRENCH_SUIT = Vocabulary("a suit of the French-suited Jass deck", {
    "rosen": "Hearts", "schellen": "Diamonds", "schilten": "Spades", "eicheln": "Clubs",
}, forms=_OF)
FRENCH_RANK = Vocabulary("a rank of the French-suited Jass deck", {
    "6": "6", "7": "7", "8": "8", "9": "9", "banner": "10", "under": "Jack", "ober": "Queen",
    "koenig": "King", "ass": "Ace",
})


def _card_parts(card: str) -> Mapping[str, Param] | None:
    suit, _, rank = card.partition("-")
    return {"suit": suit, "rank": rank} if card in CARD_INDEX else None


FACES = ("swiss", "french")
"""The faces a deck may have: Swiss German suits, or French ones (the ``card_faces`` option)."""
CARD = ByOption("card_faces", {
    "swiss": Named(Message("jass_card", "{rank} of {suit:of}",
                           kinds={"rank": RANK, "suit": SUIT}), _card_parts),
    "french": Named(Message("french_jass_card", "{rank} of {suit:of}",
                            kinds={"rank": FRENCH_RANK, "suit": FRENCH_SUIT}), _card_parts),
}, default="swiss")
"""A card by its id (``rosen-ass``): "Ace of Roses", or "Ace of Hearts" with French faces."""
RANK_BY_FACES = ByOption("card_faces", {"swiss": RANK, "french": FRENCH_RANK}, default="swiss")

TABLES: Mapping[str, tuple[int, ...]] = {
    "face": (6, 7, 8, 9, 10, 20, 3, 4, 11),
    "jass": (0, 0, 0, 0, 10, 2, 3, 4, 11),
    "count": (1, 1, 1, 1, 1, 1, 1, 1, 1),
}


@cache
def card_points(values: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(values[rank] for rank in CARD_RANK)


@lru_cache(maxsize=256)
def hand_totals(values: tuple[int, ...], decks: int, losers: int) -> frozenset[int]:
    """Every number of penalty points one loser's hand can be worth.

    A loser holds at least one card, and at most ``deck - losers`` (the winner's last card lies
    on the pile and every other loser holds one), so these are the sums of 1 to that many cards
    of the deck: a subset sum over the cards' values, counting cards as it goes.
    """
    most_cards = CARDS_PER_DECK * decks - losers
    # worth[k]: bit s is set when some k cards of the deck are worth s points together.
    worth = [1] + [0] * most_cards
    for points in card_points(values) * decks:
        for cards in range(most_cards, 0, -1):
            worth[cards] |= worth[cards - 1] << points
    reachable = 0
    for sums in worth[1:]:
        reachable |= sums
    return frozenset(total for total in range(reachable.bit_length()) if reachable >> total & 1)


def penalty_bounds(values: tuple[int, ...], decks: int, losers: int) -> tuple[int, int]:
    """The most points one loser's hand, and all losers' hands together, can be worth.

    All losers together hold at most ``deck - 1`` cards: the winner's last card lies on the pile.
    """
    points = sorted(card_points(values) * decks, reverse=True)
    return max(hand_totals(values, decks, losers)), sum(points[:-1])
