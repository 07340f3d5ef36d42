"""The club tables: the club, its members, which matches are its own and who sat where, and what
its statistics and ratings keep so that reading them never replays a match.

- ``club_member``: members are numbered 1, 2, 3 ... per club. ``key`` is the name as matched
  (``casefold`` of the name without surrounding spaces), unique per club. A member merged into
  another keeps its row and key (``merged_into``), so the old spelling still finds the person;
  a removed member has neither name nor key any more (``removed_at``), and a new member may take
  the name.
- ``club_match``: a match that counts for a club, with its number in the order the club's
  matches finished (``finish``, from the club's counter; none while the match is not finished)
  and when it was played (``played_at``, copied from the match). The club's order, which its
  history, statistics and ratings go by, is ``played_at``, then ``finish``
  (:data:`api.clubs.ledger.ORDER`).
- ``club.time_zone``: the IANA name of the zone whose local date is a match's evening.
- ``club.stakes``: the club's default stakes per game key, each as a match stores them (minor
  units, :func:`api.matches.stakes.stored`); null: none.
- ``club_seat``: the member at each seat of a club match; once the match is finished also the
  seat's side, final rank, whether it won and the game's measures for it. ``game`` and
  ``finish`` are copied from the match so that a member's results are one index range.
- ``club_member_game``: per member and game the running statistics (sums, bests, streak, last
  results) and the current rating, updated when a match finishes.
- ``club_season``: a club's seasons, numbered per club; their standings are counted on read.
- ``club_rating``: each finished match's rating change of every member who played it, with the
  rating before and after; the rating history and the starting point of a replay.
"""

from datetime import date, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    Boolean,
    Date,
    DateTime,
    Float,
    ForeignKeyConstraint,
    Index,
    Integer,
    String,
    UniqueConstraint,
)
from sqlmodel import Field, SQLModel

from api.db.models import CLUB_ID_LENGTH, MATCH_ID_LENGTH, TOKEN_HASH_LENGTH
from api.tournaments.models import CLUB_LENGTH, TOURNAMENT_ID_LENGTH
from scoring.match import MAX_NAME_LENGTH

CLUB_NAME_LENGTH = CLUB_LENGTH
MEMBER_NAME_LENGTH = MAX_NAME_LENGTH  # a member's name is a match player's name
MEMBER_KEY_LENGTH = 3 * MAX_NAME_LENGTH  # casefold can lengthen a name ("ﬃ" → "ffi")
GAME_ID_LENGTH = 64
TIME_ZONE_LENGTH = 64
SEASON_NAME_LENGTH = 80


class ClubRow(SQLModel, table=True):
    __tablename__ = "club"

    id: str = Field(primary_key=True, sa_type=String(CLUB_ID_LENGTH))
    name: str = Field(sa_type=String(CLUB_NAME_LENGTH))
    token_hash: str = Field(sa_type=String(TOKEN_HASH_LENGTH))
    view_token_hash: str = Field(sa_type=String(TOKEN_HASH_LENGTH))
    finished: int = Field(sa_type=Integer)
    """How many of its matches have finished so far: the last ``finish`` given out."""
    version: int = Field(sa_type=Integer)
    created_at: datetime = Field(sa_type=DateTime(timezone=True))
    updated_at: datetime = Field(sa_type=DateTime(timezone=True))
    time_zone: str = Field(sa_type=String(TIME_ZONE_LENGTH))
    """The IANA name of the club's time zone: which evening (local date) a match belongs to."""
    stakes: Any = Field(default=None, sa_type=JSON, nullable=True)
    """Default stakes per game key, each stored as a match stores its own."""


class ClubMemberRow(SQLModel, table=True):
    __tablename__ = "club_member"
    __table_args__ = (UniqueConstraint("club_id", "key"),)

    club_id: str = Field(primary_key=True, sa_type=String(CLUB_ID_LENGTH), foreign_key="club.id")
    id: int = Field(primary_key=True, sa_type=Integer)
    name: str | None = Field(default=None, sa_type=String(MEMBER_NAME_LENGTH), nullable=True)
    key: str | None = Field(default=None, sa_type=String(MEMBER_KEY_LENGTH), nullable=True)
    merged_into: int | None = Field(default=None, sa_type=Integer, nullable=True)
    removed_at: datetime | None = Field(default=None, sa_type=DateTime(timezone=True),
                                        nullable=True)
    created_at: datetime = Field(sa_type=DateTime(timezone=True))


class ClubMatchRow(SQLModel, table=True):
    __tablename__ = "club_match"
    __table_args__ = (Index("ix_club_match_club_id_finish", "club_id", "finish"),
                      Index("ix_club_match_club_id_played_at", "club_id", "played_at"))

    match_id: str = Field(primary_key=True, sa_type=String(MATCH_ID_LENGTH),
                          foreign_key="match.id")
    club_id: str = Field(sa_type=String(CLUB_ID_LENGTH), foreign_key="club.id")
    tournament_id: str | None = Field(default=None, sa_type=String(TOURNAMENT_ID_LENGTH),
                                      foreign_key="tournament.id", nullable=True, index=True)
    game: str = Field(sa_type=String(GAME_ID_LENGTH))
    finish: int | None = Field(default=None, sa_type=Integer, nullable=True)
    finished_at: datetime | None = Field(default=None, sa_type=DateTime(timezone=True),
                                         nullable=True)
    created_at: datetime = Field(sa_type=DateTime(timezone=True))
    played_at: datetime = Field(sa_type=DateTime(timezone=True))


class ClubSeatRow(SQLModel, table=True):
    __tablename__ = "club_seat"
    __table_args__ = (
        ForeignKeyConstraint(["club_id", "member_id"], ["club_member.club_id", "club_member.id"],
                             name="fk_club_seat_member_club_member"),
        Index("ix_club_seat_member", "club_id", "member_id", "game", "finish"),
        Index("ix_club_seat_club_id_game_finish", "club_id", "game", "finish"),
    )

    match_id: str = Field(primary_key=True, sa_type=String(MATCH_ID_LENGTH),
                          foreign_key="club_match.match_id")
    seat: int = Field(primary_key=True, sa_type=Integer)
    club_id: str = Field(sa_type=String(CLUB_ID_LENGTH))
    member_id: int = Field(sa_type=Integer)
    game: str = Field(sa_type=String(GAME_ID_LENGTH))
    finish: int | None = Field(default=None, sa_type=Integer, nullable=True)
    side: int | None = Field(default=None, sa_type=Integer, nullable=True)
    rank: int | None = Field(default=None, sa_type=Integer, nullable=True)
    won: bool | None = Field(default=None, sa_type=Boolean, nullable=True)
    rounds: int | None = Field(default=None, sa_type=Integer, nullable=True)
    measures: Any = Field(default=None, sa_type=JSON, nullable=True)


class ClubMemberGameRow(SQLModel, table=True):
    __tablename__ = "club_member_game"
    __table_args__ = (
        ForeignKeyConstraint(["club_id", "member_id"], ["club_member.club_id", "club_member.id"],
                             name="fk_club_member_game_member_club_member"),
    )

    club_id: str = Field(primary_key=True, sa_type=String(CLUB_ID_LENGTH))
    member_id: int = Field(primary_key=True, sa_type=Integer)
    game: str = Field(primary_key=True, sa_type=String(GAME_ID_LENGTH))
    statistics: Any = Field(sa_type=JSON)
    mu: float = Field(sa_type=Float)
    sigma: float = Field(sa_type=Float)
    rated: int = Field(sa_type=Integer)


class ClubRatingRow(SQLModel, table=True):
    __tablename__ = "club_rating"
    __table_args__ = (
        ForeignKeyConstraint(["club_id", "member_id"], ["club_member.club_id", "club_member.id"],
                             name="fk_club_rating_member_club_member"),
        Index("ix_club_rating_club_id_game_finish", "club_id", "game", "finish"),
    )

    club_id: str = Field(primary_key=True, sa_type=String(CLUB_ID_LENGTH),
                         foreign_key="club.id")
    finish: int = Field(primary_key=True, sa_type=Integer)
    member_id: int = Field(primary_key=True, sa_type=Integer)
    game: str = Field(sa_type=String(GAME_ID_LENGTH))
    match_id: str = Field(sa_type=String(MATCH_ID_LENGTH), foreign_key="match.id")
    mu_before: float = Field(sa_type=Float)
    sigma_before: float = Field(sa_type=Float)
    mu: float = Field(sa_type=Float)
    sigma: float = Field(sa_type=Float)


class ClubTournamentRow(SQLModel, table=True):
    """A tournament played for a club: its players are members, its tables' matches count."""

    __tablename__ = "club_tournament"
    __table_args__ = (Index("ix_club_tournament_club_id_created_at", "club_id", "created_at"),)

    tournament_id: str = Field(primary_key=True, sa_type=String(TOURNAMENT_ID_LENGTH),
                               foreign_key="tournament.id")
    club_id: str = Field(sa_type=String(CLUB_ID_LENGTH), foreign_key="club.id")
    created_at: datetime = Field(sa_type=DateTime(timezone=True))


class ClubTournamentPlayerRow(SQLModel, table=True):
    """The member each player of a club tournament is."""

    __tablename__ = "club_tournament_player"
    __table_args__ = (
        ForeignKeyConstraint(["tournament_id", "player_id"],
                             ["tournament_player.tournament_id", "tournament_player.id"],
                             name="fk_club_tournament_player_player_tournament_player"),
        ForeignKeyConstraint(["club_id", "member_id"], ["club_member.club_id", "club_member.id"],
                             name="fk_club_tournament_player_member_club_member"),
        Index("ix_club_tournament_player_member", "club_id", "member_id"),
    )

    tournament_id: str = Field(primary_key=True, sa_type=String(TOURNAMENT_ID_LENGTH),
                               foreign_key="club_tournament.tournament_id")
    player_id: int = Field(primary_key=True, sa_type=Integer)
    club_id: str = Field(sa_type=String(CLUB_ID_LENGTH))
    member_id: int = Field(sa_type=Integer)


class ClubSeasonRow(SQLModel, table=True):
    """A season of a club: the evenings from ``from_date`` to ``to_date`` (both counted), one
    game or all (``game`` None), each member's best ``best`` evenings or all (None).

    Seasons are numbered 1, 2, 3 ... per club; their standings are never stored, but counted
    from the club's finished matches and tournaments when read (:mod:`api.clubs.seasons`)."""

    __tablename__ = "club_season"

    club_id: str = Field(primary_key=True, sa_type=String(CLUB_ID_LENGTH), foreign_key="club.id")
    id: int = Field(primary_key=True, sa_type=Integer)
    name: str = Field(sa_type=String(SEASON_NAME_LENGTH))
    from_date: date = Field(sa_type=Date)
    to_date: date = Field(sa_type=Date)
    game: str | None = Field(default=None, sa_type=String(GAME_ID_LENGTH), nullable=True)
    best: int | None = Field(default=None, sa_type=Integer, nullable=True)
    created_at: datetime = Field(sa_type=DateTime(timezone=True))


PAYMENT_NOTE_LENGTH = 200
RECORDER_LENGTH = 80
DEVICE_LENGTH = 100  # api.matches.owners.DEVICE_ID_LENGTH


class ClubPaymentRow(SQLModel, table=True):
    """Money a member paid into the club's pot (the Kasse), or was paid out of it (``amount``
    negative), in minor units; numbered 1, 2, 3 ... per club. Never changed or deleted: a
    wrong payment is undone by another one of the opposite amount (:mod:`api.clubs.kasse`);
    only a forgotten member's name leaves its free text (:mod:`api.clubs.privacy`).

    ``recorded_by`` is the name the recording phone gave (its keeper, the treasurer), ``device``
    the phone's ``X-Device-Id``; either may be absent."""

    __tablename__ = "club_payment"
    __table_args__ = (
        ForeignKeyConstraint(["club_id", "member_id"], ["club_member.club_id", "club_member.id"],
                             name="fk_club_payment_member_club_member"),
    )

    club_id: str = Field(primary_key=True, sa_type=String(CLUB_ID_LENGTH), foreign_key="club.id")
    id: int = Field(primary_key=True, sa_type=Integer)
    member_id: int = Field(sa_type=Integer)
    amount: int = Field(sa_type=Integer)
    currency: str = Field(sa_type=String(3))
    note: str = Field(sa_type=String(PAYMENT_NOTE_LENGTH))
    recorded_at: datetime = Field(sa_type=DateTime(timezone=True))
    recorded_by: str | None = Field(default=None, sa_type=String(RECORDER_LENGTH), nullable=True)
    device: str | None = Field(default=None, sa_type=String(DEVICE_LENGTH), nullable=True)


class ClubAuditRow(SQLModel, table=True):
    """What the organiser did to the club's members that no match's own audit shows: a member
    forgotten (GDPR art. 17). It names the member by id only, never by name, so the record of
    forgetting keeps nothing of what was forgotten."""

    __tablename__ = "club_audit"

    club_id: str = Field(primary_key=True, sa_type=String(CLUB_ID_LENGTH), foreign_key="club.id")
    id: int = Field(primary_key=True, sa_type=Integer)
    at: datetime = Field(sa_type=DateTime(timezone=True))
    action: str = Field(sa_type=String(32))
    member_id: int | None = Field(default=None, sa_type=Integer, nullable=True)
    token_kind: str = Field(sa_type=String(16))
