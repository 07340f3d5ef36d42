"""How many tables of which size a round needs.

Decisions:

- The organiser names a preferred table size and the allowed range (at most the game's player
  range). Among all ways to split the active players into tables within the range, the split
  closest to the preferred size wins: the smallest sum of squared differences from the preferred
  size; among equally close splits, the one with the most tables of the preferred size; then the
  one with fewer tables. Squared differences keep a 4-player game at 4, 3, 3 for ten players
  rather than 4, 4, 2, and at 4, 5 for nine rather than 3, 3, 3.
- Table sizes are listed largest first; table 1 is the first table.
- When no split exists (too few players, or sizes that cannot add up), :class:`SeatingImpossible`
  is raised before anything is stored, naming the numbers involved.
"""

from __future__ import annotations

from dataclasses import dataclass

from scoring.errors import FieldError, InvalidInput, Param
from scoring.messages import Message

TABLE_SIZES_OUT_OF_ORDER = Message(
    "table_sizes", "The table sizes do not fit together: the smallest ({minimum}) must be at "
    "least 2 and at most the preferred size ({preferred}), and that at most the largest "
    "({maximum}).")
TABLE_SIZES_NOT_FOR_GAME = Message(
    "table_sizes", "Tables of {minimum} to {maximum} players, preferably {preferred}, do not fit "
    "a game for {game_minimum} to {game_maximum} players.")
TOO_FEW_PLAYERS = Message("too_few_players",
                          "1 player cannot fill a table of at least {minimum}.",
                          plural="{players} players cannot fill a table of at least {minimum}.",
                          count="players")
NO_TABLE_SPLIT = Message("no_table_split",
                         "1 player cannot be split into tables of {minimum} to {maximum}.",
                         plural="{players} players cannot be split into tables of {minimum} to "
                         "{maximum}.", count="players")


class SeatingImpossible(InvalidInput):
    """The players cannot be seated at tables the game and the organiser allow.

    ``code`` is stable (``too_few_players``, ``no_table_split``, ``table_sizes``) and ``params``
    carry the numbers for a translated message.
    """

    def __init__(self, path: str, message: Message, **params: Param) -> None:
        self.code = message.code
        self.params = params
        super().__init__((FieldError(path, message, params),))


@dataclass(frozen=True, slots=True)
class TableSizes:
    """The organiser's table sizes: the preferred size and the allowed range."""

    preferred: int
    minimum: int
    maximum: int

    def __post_init__(self) -> None:
        if not 2 <= self.minimum <= self.preferred <= self.maximum:
            raise SeatingImpossible(
                "table_sizes", TABLE_SIZES_OUT_OF_ORDER, preferred=self.preferred,
                minimum=self.minimum, maximum=self.maximum,
            )

    @classmethod
    def for_game(
        cls, min_players: int, max_players: int, preferred: int, minimum: int | None = None,
        maximum: int | None = None,
    ) -> TableSizes:
        """The organiser's choice checked against the game's player range (defaults: the range).

        A preferred size or bound outside the game's range is an error, never silently clamped.
        """
        low = min_players if minimum is None else minimum
        high = max_players if maximum is None else maximum
        if low < min_players or high > max_players or not low <= preferred <= high:
            raise SeatingImpossible(
                "table_sizes", TABLE_SIZES_NOT_FOR_GAME, preferred=preferred, minimum=low,
                maximum=high, game_minimum=min_players, game_maximum=max_players,
            )
        return cls(preferred, max(low, 2), high)

    def split(self, players: int) -> tuple[int, ...]:
        return table_sizes(players, self.preferred, self.minimum, self.maximum)


def table_sizes(players: int, preferred: int, minimum: int, maximum: int) -> tuple[int, ...]:
    """The table sizes for ``players`` active players, largest first (see the module's rules)."""
    TableSizes(preferred, minimum, maximum)
    if players < minimum:
        raise SeatingImpossible("players", TOO_FEW_PLAYERS, players=players, minimum=minimum)
    # best[s]: the closest split of s players, as an additive cost (squared differences,
    # minus preferred tables, tables) and the last table size taken; lexicographic order on
    # additive costs lets the usual subset-sum recurrence find the optimum.
    best: list[tuple[tuple[int, int, int], int] | None] = [None] * (players + 1)
    best[0] = ((0, 0, 0), 0)
    for total in range(minimum, players + 1):
        for size in range(minimum, min(maximum, total) + 1):
            before = best[total - size]
            if before is None:
                continue
            (squares, preferred_tables, tables), _ = before
            cost = (
                squares + (size - preferred) ** 2,
                preferred_tables - (size == preferred),
                tables + 1,
            )
            current = best[total]
            if current is None or cost < current[0]:
                best[total] = (cost, size)
    if best[players] is None:
        raise SeatingImpossible("players", NO_TABLE_SPLIT, players=players, minimum=minimum,
                                maximum=maximum)
    sizes: list[int] = []
    left = players
    while left:
        step = best[left]
        assert step is not None  # every prefix of an optimal split is reachable
        sizes.append(step[1])
        left -= step[1]
    return tuple(sorted(sizes, reverse=True))
