"""Tournament standings: tournament points by place at each table, and a tiebreak chain.

Decisions:

- Only confirmed tables count; an unconfirmed table adds nothing (not even a table played).
- A place is read only by comparison with the other places at the table (1 = best; ties share
  a place), so competition ranks (1, 1, 3) and dense ranks (1, 1, 2) mean the same thing.
- Default points: (players beaten + ½ × players tied) / (table size − 1): winning any table is
  worth 1, last place 0, whatever the table size. With a points-per-place table
  (``{4: (4, 2, 1, 0), 3: (4, 2, 0)}``) tied players share the average of the points of the
  places they occupy together (two tied for first at a 4-table get (4 + 2) / 2 = 3 each).
- Tiebreak criteria, all "higher is better": ``points`` (sum of tournament points),
  ``average_points`` (per table played, fair to late entries), ``score_share`` (sum of the
  game's score share at each table), ``opponents_strength`` (average of the final tournament
  points of every tablemate, counted once per table shared; 0 without tables) and
  ``table_wins`` (first places, a shared first counting as a win). The default chain is points →
  score share → opponents' strength → table wins; players equal on the whole chain share a rank.
- A player with no counted table ranks after every player who has one, whatever the chain says:
  nothing is known of them yet, and a tiebreak such as the score share can be below zero for a
  player who played (issue 23). They share the rank after the last player who played.
- Values are compared rounded to 9 decimal places, so sums of thirds that differ only by
  floating-point noise still tie; rows show the unrounded values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from scoring.errors import Errors, FieldError, InvalidInput, InvalidOptions, at
from scoring.messages import Message, Vocabulary
from scoring.ranking import shared_ranks
from scoring.reading import JSON, WRONG_LENGTH, unknown_choice
from scoring.tournament.history import PlayerId

CRITERIA = ("points", "average_points", "score_share", "opponents_strength", "table_wins")
DEFAULT_TIEBREAKS = ("points", "score_share", "opponents_strength", "table_wins")
_DIGITS = 9

CRITERION = Vocabulary("a tournament tiebreak criterion", {
    "points": "tournament points", "average_points": "average points per table",
    "score_share": "score share", "opponents_strength": "opponents' strength",
    "table_wins": "table wins",
})
UNKNOWN_CRITERION = unknown_choice(CRITERION)
PLACE_POINTS = Message("place_points",
                       "A table of {size} needs {size} values, one per place; there are {values}.")
NO_TIEBREAK = Message("too_short", "Name at least one tiebreak.")
TIEBREAK_TWICE = Message("duplicate", "{value} is named twice.", kinds={"value": CRITERION})
MISSING_TABLE_SIZE = Message("missing_table_size",
                             "The points per place name no table of {size}.")
TABLE_TOO_SMALL = Message("too_short", "A table needs at least 2 players.")
PLAYER_TWICE_AT_TABLE = Message("duplicate_player", "A player sits twice at this table.")
PLACE_OUT_OF_RANGE = Message("place_out_of_range",
                             "At a table of {size}, places go from 1 to {size}.")


@dataclass(frozen=True, slots=True)
class TableResult:
    """One played table: players in seat order, each seat's place and score share."""

    players: tuple[PlayerId, ...]
    places: tuple[int, ...]
    score_shares: tuple[float, ...]
    confirmed: bool = True


@dataclass(frozen=True, slots=True)
class TournamentScoring:
    """Points per place (``None``: the default formula) and the tiebreak chain."""

    place_points: Mapping[int, tuple[float, ...]] | None = None
    tiebreaks: tuple[str, ...] = DEFAULT_TIEBREAKS

    def __post_init__(self) -> None:
        errors = Errors()
        for size, points in (self.place_points or {}).items():
            if size < 2 or len(points) != size:
                errors.add(at("place_points", str(size)), PLACE_POINTS, size=size,
                           values=len(points))
        if not self.tiebreaks:
            errors.add("tiebreaks", NO_TIEBREAK, minimum=1)
        for i, name in enumerate(self.tiebreaks):
            if name not in CRITERIA:
                errors.add(at("tiebreaks", i), UNKNOWN_CRITERION, value=name, choices=CRITERIA)
            elif name in self.tiebreaks[:i]:
                errors.add(at("tiebreaks", i), TIEBREAK_TWICE, value=name)
        errors.raise_as(InvalidOptions)


@dataclass(frozen=True, slots=True)
class StandingRow:
    rank: int
    player: PlayerId
    points: float
    tables_played: int
    tiebreaks: Mapping[str, float] = field(default_factory=dict)

    def as_json(self) -> dict[str, JSON]:
        return {
            "rank": self.rank, "player": self.player, "points": self.points,
            "tables_played": self.tables_played, "tiebreaks": dict(self.tiebreaks),
        }


def table_points(
    places: Sequence[int], place_points: Mapping[int, tuple[float, ...]] | None = None,
) -> tuple[float, ...]:
    """Tournament points for each seat of one table from the seats' places."""
    size = len(places)
    scale = None if place_points is None else place_points.get(size)
    if place_points is not None and scale is None:
        raise InvalidInput((FieldError("place_points", MISSING_TABLE_SIZE, {"size": size}),))
    points: list[float] = []
    for place in places:
        better = sum(1 for other in places if other < place)
        tied = sum(1 for other in places if other == place) - 1
        if scale is None:
            points.append((size - 1 - better - tied + tied / 2) / (size - 1))
        else:
            shared = scale[better:better + tied + 1]
            points.append(sum(shared) / len(shared))
    return tuple(points)


def tournament_standings(
    tables: Iterable[TableResult], scoring: TournamentScoring = TournamentScoring(),
    players: Iterable[PlayerId] = (),
) -> tuple[StandingRow, ...]:
    """Rows by rank; ``players`` adds registered players who have no counted table yet.

    Raises ``InvalidInput`` naming every malformed table (``tables[3].places``).
    """
    counted = [t for t in _checked(tables) if t.confirmed]
    order: dict[PlayerId, int] = {p: i for i, p in enumerate(dict.fromkeys(players))}
    points: dict[PlayerId, float] = dict.fromkeys(order, 0.0)
    played: dict[PlayerId, int] = dict.fromkeys(order, 0)
    shares: dict[PlayerId, float] = dict.fromkeys(order, 0.0)
    wins: dict[PlayerId, int] = dict.fromkeys(order, 0)
    for table in counted:
        earned = table_points(table.places, scoring.place_points)
        for player, place, share, gained in zip(
            table.players, table.places, table.score_shares, earned, strict=True,
        ):
            if player not in order:
                order[player] = len(order)
            points[player] = points.get(player, 0.0) + gained
            played[player] = played.get(player, 0) + 1
            shares[player] = shares.get(player, 0.0) + share
            wins[player] = wins.get(player, 0) + (place == 1)
    mates_points: dict[PlayerId, float] = dict.fromkeys(order, 0.0)
    mates: dict[PlayerId, int] = dict.fromkeys(order, 0)
    for table in counted:
        together = sum(points[p] for p in table.players)
        for player in table.players:
            mates_points[player] += together - points[player]
            mates[player] += len(table.players) - 1
    values: dict[str, dict[PlayerId, float]] = {
        "points": points,
        "average_points": {p: points[p] / played[p] if played[p] else 0.0 for p in order},
        "score_share": shares,
        "opponents_strength": {
            p: mates_points[p] / mates[p] if mates[p] else 0.0 for p in order
        },
        "table_wins": {p: float(wins[p]) for p in order},
    }
    chain = [values[name] for name in scoring.tiebreaks]
    listed = list(order)
    # (Any: ranking's comparable protocol wants __lt__(object), which tuple's stub lacks.)
    keys: list[Any] = [(played[p] == 0, *(-round(c[p], _DIGITS) for c in chain)) for p in listed]
    ranks = shared_ranks(keys)
    rows = [
        StandingRow(
            rank, player, points[player], played[player],
            {name: values[name][player] for name in scoring.tiebreaks},
        )
        for rank, player in zip(ranks, listed, strict=True)
    ]
    return tuple(sorted(rows, key=lambda row: (row.rank, order[row.player])))


def _checked(tables: Iterable[TableResult]) -> list[TableResult]:
    errors = Errors()
    checked = list(tables)
    for i, table in enumerate(checked):
        path = at("tables", i)
        size = len(table.players)
        if size < 2:
            errors.add(at(path, "players"), TABLE_TOO_SMALL, minimum=2, actual=size)
        if len(set(table.players)) != size:
            errors.add(at(path, "players"), PLAYER_TWICE_AT_TABLE)
        for name, column in (("places", table.places), ("score_shares", table.score_shares)):
            if len(column) != size:
                errors.add(at(path, name), WRONG_LENGTH, expected=size, actual=len(column))
        for seat, place in enumerate(table.places):
            if not 1 <= place <= size:
                errors.add(at(at(path, "places"), seat), PLACE_OUT_OF_RANGE, size=size)
    errors.raise_as(InvalidInput)
    return checked
