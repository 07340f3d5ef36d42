"""The request and response bodies of the match endpoints.

Request bodies forbid unknown fields (400) and the OpenAPI schema says so
(``additionalProperties: false``, see :mod:`api.openapi`). Round entries, results, totals and
standings are game-specific: the game's ``read_entry`` checks an entry (422 with paths), and the
OpenAPI document shows each game's shapes (:mod:`api.games.schemas`).
"""

from datetime import datetime
from typing import Annotated, Any, Literal

import msgspec

from api.db.models import CLUB_ID_LENGTH
from api.games.schemas import MatchStanding, RoundEntry, RoundGuide, RoundResult, RoundTotals
from api.matches.played import PLAYED_AT_LENGTH

MAX_PLAYERS_IN_BODY = 64
MAX_NAME_IN_BODY = 200
PlayedAt = Annotated[str, msgspec.Meta(max_length=PLAYED_AT_LENGTH, extra_json_schema={
    "format": "date-time"})]


Amount = Annotated[str, msgspec.Meta(
    max_length=16, pattern=r"^-?[0-9]+(\.[0-9]{1,2})?$",
    description='A decimal string with at most two decimals, such as "0.50" (never a number).')]
STAKES_SCHEMA: dict[str, Any] = {
    "type": "object", "additionalProperties": False, "required": ["currency", "per_point"],
    "properties": {
        "currency": {"enum": ["CHF", "EUR"]},
        "per_point": {"type": "string", "description": "Per point of difference."},
        "to": {"enum": ["players", "pot"], "default": "players"},
        "per_match_lost": {"type": "string", "default": "0",
                           "description": "Paid into the pot by each side that did not win."},
    },
}
"""Stakes as a body writes them; read (and every field checked, 422 at its path) by
:func:`scoring.stakes.read_stakes`."""
StakesBody = Annotated[dict[str, Any], msgspec.Meta(extra_json_schema=STAKES_SCHEMA)]


class NewMatch(msgspec.Struct, forbid_unknown_fields=True):
    game: Annotated[str, msgspec.Meta(min_length=1, max_length=64)]
    players: Annotated[
        list[Annotated[str, msgspec.Meta(max_length=MAX_NAME_IN_BODY)]],
        msgspec.Meta(max_length=MAX_PLAYERS_IN_BODY),
    ]
    options: dict[str, Any] = {}
    private: bool = False
    club: Annotated[str, msgspec.Meta(min_length=1, max_length=CLUB_ID_LENGTH)] | None = None
    """A club's id: the match is the club's, each player the club member of that name (the
    request needs the club token)."""
    played_at: PlayedAt | None = None
    """When it was played (RFC 3339 with an offset, not in the future): a sheet typed in later
    keeps its evening. Default: now."""
    location: Annotated[str, msgspec.Meta(max_length=MAX_NAME_IN_BODY)] | None = None
    """Where it was played (up to 80 characters)."""
    stakes: StakesBody | None = None
    """What it is played for; a club's match without them takes the club's default for its
    game."""



class MatchStakes(msgspec.Struct):
    """What a match is played for."""

    currency: Literal["CHF", "EUR"]
    per_point: Amount
    to: Literal["players", "pot"]
    per_match_lost: Amount


class Transfer(msgspec.Struct):
    """One side pays another (side numbers as in the standings)."""

    from_: int = msgspec.field(name="from")
    to: int
    amount: Amount


class Settlement(msgspec.Struct):
    """A finished match's money: per side (in side order) what it pays and receives, what all
    pay into the pot, and the transfers that settle the payments between sides."""

    currency: Literal["CHF", "EUR"]
    pays: list[Amount]
    receives: list[Amount]
    pot: Amount
    transfers: list[Transfer]


class MatchPlayer(msgspec.Struct):
    seat: int
    name: str


class Reason(msgspec.Struct):
    code: str
    message: str
    params: dict[str, Any]


class MatchRound(msgspec.Struct):
    number: int
    entry: RoundEntry
    result: RoundResult
    totals: RoundTotals


class Match(msgspec.Struct):
    id: str
    game: str
    players: list[MatchPlayer]
    options: dict[str, Any]
    private: bool
    status: Literal["in_progress", "finished"]
    winners: list[int]
    reason: Reason | None
    next_dealer: int
    rounds: list[MatchRound]
    standings: list[MatchStanding]
    version: int
    created_at: datetime
    updated_at: datetime
    played_at: datetime
    location: str | None
    stakes: MatchStakes | None
    settlement: Settlement | None
    """Once finished, with stakes: who pays whom."""


class CreatedMatch(Match):
    token: str
    view_token: str


class RoundWritten(msgspec.Struct):
    """A recorded or corrected round with what changed for the match as a whole."""

    number: int
    entry: RoundEntry
    result: RoundResult
    totals: RoundTotals
    version: int
    status: Literal["in_progress", "finished"]
    winners: list[int]
    reason: Reason | None
    next_dealer: int
    standings: list[MatchStanding]
    settlement: Settlement | None


class Guide(msgspec.Struct):
    """The game's help for a round being entered (the game's ``...Guide`` shape)."""

    guide: RoundGuide


class HistoryItem(msgspec.Struct):
    at: datetime
    action: Literal["create", "round_added", "round_corrected", "round_undone", "players_renamed",
                    "finished"]
    round: int | None
    old_entry: RoundEntry | None
    new_entry: RoundEntry | None
    token_kind: str


class ScoreSheet(msgspec.Struct):
    """The JSON export: the match without its tokens, round by round with running totals."""

    match: Match
    exported_at: datetime
