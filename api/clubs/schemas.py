"""The request and response bodies of the club endpoints.

Request bodies forbid unknown fields (400), like every body. Struct names are unique across the
API (they become OpenAPI component names): a club's player is a ``ClubMember``.
Members are numbered 1, 2, 3 ... within their club (``player`` in answers, as in the HTTP
contract's ratings).
"""

from datetime import datetime
from typing import Annotated, Literal

import msgspec

from api.clubs.models import CLUB_NAME_LENGTH, MEMBER_NAME_LENGTH

MAX_MEMBER_ID = 1_000_000
ClubName = Annotated[str, msgspec.Meta(max_length=CLUB_NAME_LENGTH)]
MemberName = Annotated[str, msgspec.Meta(max_length=MEMBER_NAME_LENGTH)]
MemberId = Annotated[int, msgspec.Meta(ge=1, le=MAX_MEMBER_ID)]
MatchStatus = Literal["in_progress", "finished"]


class NewClub(msgspec.Struct, forbid_unknown_fields=True):
    name: ClubName


class ClubChange(msgspec.Struct, forbid_unknown_fields=True):
    """A new name for the club."""

    name: ClubName


class MemberChange(msgspec.Struct, forbid_unknown_fields=True):
    """A new spelling of a member's name."""

    name: MemberName


class MemberMerge(msgspec.Struct, forbid_unknown_fields=True):
    """Merge the member of the path into ``into``: two spellings of one person."""

    into: MemberId


class ClubRating(msgspec.Struct):
    """openskill's Plackett-Luce rating; ``ordinal`` = mu − 3·sigma."""

    mu: float
    sigma: float
    ordinal: float


class MeasureStatistics(msgspec.Struct):
    """One of the game's measures (``vp_per_round``, ``penalty_per_round``, ...): the average
    over all the member's finished matches and the best single match."""

    id: str
    per: Literal["round", "match"]
    better: Literal["higher", "lower"]
    average: float | None
    best: float | None


class LastResult(msgspec.Struct):
    match: str
    finish: int
    rank: int
    won: bool


class MemberGameStatistics(msgspec.Struct):
    """A member's statistics in one game, over finished club matches.

    ``streak``: +n for the last n matches won, −n for the last n not won.
    ``rating`` is none only in statistics over a date range (ratings are the whole history's).
    """

    played: int
    won: int
    win_rate: float
    rounds: int
    streak: int
    longest_streak: int
    measures: list[MeasureStatistics]
    last: list[LastResult]
    rating: ClubRating | None
    rated: int


class ClubMember(msgspec.Struct):
    """A member with their statistics and rating per game played (``GET .../players``)."""

    id: int
    name: str
    aliases: list[str]
    games: dict[str, MemberGameStatistics]


class ClubMemberSummary(msgspec.Struct):
    id: int
    name: str
    aliases: list[str]
    played: int


class Club(msgspec.Struct):
    id: str
    name: str
    players: list[ClubMemberSummary]
    games: list[str]
    finished_matches: int
    version: int
    created_at: datetime
    updated_at: datetime


class CreatedClub(Club):
    token: str
    view_token: str


class LadderRow(msgspec.Struct):
    """One line of a game's ladder (``GET .../ratings``), best ``ordinal`` first; equal
    ordinals share a rank."""

    player: int
    name: str
    rank: int
    mu: float
    sigma: float
    ordinal: float
    played: int
    won: int
    rated: int


class RatingPoint(msgspec.Struct):
    """A member's rating after one finished match."""

    finish: int
    match: str
    finished_at: datetime
    mu: float
    sigma: float
    ordinal: float


class RatingHistory(msgspec.Struct):
    player: int
    name: str
    points: list[RatingPoint]


class StatisticsRow(MemberGameStatistics):
    player: int
    name: str
    game: str


class HistorySeat(msgspec.Struct):
    """A member at a match (or a tournament's player): rank and win once it is finished."""

    player: int
    name: str
    rank: int | None
    won: bool | None


class HistoryEntry(msgspec.Struct):
    """A club match or tournament; ``kind`` says which view ``id`` opens."""

    kind: Literal["match", "tournament"]
    id: str
    game: str
    name: str | None
    status: Literal["in_progress", "finished", "registering", "running"]
    played_at: datetime
    finished_at: datetime | None
    finish: int | None
    """A finished match's place in the order the club's matches finished (ratings follow it)."""
    players: list[HistorySeat]


class ClubHistory(msgspec.Struct):
    """One page of the club's history, newest first; ``next_offset`` asks for the next."""

    entries: list[HistoryEntry]
    next_offset: int | None


class HeadToHeadGame(msgspec.Struct):
    """Two members' finished matches together in one game: who finished ahead, who won."""

    game: str
    played: int
    player_ahead: int
    opponent_ahead: int
    tied: int
    partners: int
    player_won: int
    opponent_won: int


class MemberRef(msgspec.Struct):
    id: int
    name: str


class HeadToHead(msgspec.Struct):
    player: MemberRef
    opponent: MemberRef
    games: list[HeadToHeadGame]
    matches: list[HistoryEntry]


CLOSED_REQUEST_BODIES = (NewClub, ClubChange, MemberChange, MemberMerge)
