"""Players and what earlier rounds say about them: who met whom, who led, who sat at which table.

Inputs are plain values: a player is an id (int or string) with an optional club or team; a round
is its tables in table-number order, each table its players in seat order (seat 0 leads).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeAlias

from scoring.errors import Errors, InvalidInput, at
from scoring.messages import Message

PlayerId: TypeAlias = "int | str"
Table: TypeAlias = "Sequence[PlayerId]"
Round: TypeAlias = "Sequence[Table]"

DUPLICATE_PLAYER = Message("duplicate_player", "Player {player} is listed twice.")


@dataclass(frozen=True, slots=True)
class Player:
    """An active player; club-mates (same ``club``) are kept apart where possible."""

    id: PlayerId
    club: str | None = None


def check_roster(players: Sequence[Player]) -> None:
    """Each player id once; raises ``InvalidInput`` naming every repeated id."""
    errors = Errors()
    seen: set[PlayerId] = set()
    for index, player in enumerate(players):
        if player.id in seen:
            errors.add(at(at("players", index), "id"), DUPLICATE_PLAYER, player=player.id)
        seen.add(player.id)
    errors.raise_as(InvalidInput)


class Meetings:
    """An index over earlier rounds, updated round by round while a plan is made."""

    __slots__ = ("last_round", "met", "rounds", "seat_counts", "seat_last", "table_visits")

    def __init__(self, history: Sequence[Round] = ()) -> None:
        self.met: defaultdict[PlayerId, dict[PlayerId, int]] = defaultdict(dict)
        self.last_round: dict[PlayerId, frozenset[PlayerId]] = {}
        self.seat_counts: defaultdict[PlayerId, dict[int, int]] = defaultdict(dict)
        self.seat_last: defaultdict[PlayerId, dict[int, int]] = defaultdict(dict)
        self.table_visits: defaultdict[PlayerId, dict[int, int]] = defaultdict(dict)
        self.rounds = 0
        for played in history:
            self.add(played)

    def add(self, played: Round) -> None:
        """Record one more round (tables in table-number order, players in seat order)."""
        self.rounds += 1
        last: dict[PlayerId, frozenset[PlayerId]] = {}
        for number, table in enumerate(played, start=1):
            mates = frozenset(table)
            for seat, player in enumerate(table):
                last[player] = mates - {player}
                counts = self.seat_counts[player]
                counts[seat] = counts.get(seat, 0) + 1
                self.seat_last[player][seat] = self.rounds
                visits = self.table_visits[player]
                visits[number] = visits.get(number, 0) + 1
                met = self.met[player]
                for other in table:
                    if other != player:
                        met[other] = met.get(other, 0) + 1
        self.last_round = last

    def times_met(self, player: PlayerId, other: PlayerId) -> int:
        return self.met[player].get(other, 0) if player in self.met else 0
