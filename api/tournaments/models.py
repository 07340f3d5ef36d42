"""The tournament tables. Results are stored per table, so standings never re-fold a match.

A table row links one match to its tournament, round and table number and keeps what the
standings need from the match's last fold: each seat's place and score share, whether the match
is finished, and whether the result is confirmed. Writes to a table's match refresh these
columns in the same transaction (see :mod:`api.tournaments.access`).
"""

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, Column, DateTime, ForeignKeyConstraint, Integer, String
from sqlmodel import Field, SQLModel

from api.db.models import MATCH_ID_LENGTH, TOKEN_HASH_LENGTH
from api.matches.owners import DEVICE_ID_LENGTH, PHONE_ID_LENGTH

TOURNAMENT_ID_LENGTH = 16
NAME_LENGTH = 100
PLAYER_NAME_LENGTH = 40
CLUB_LENGTH = 60
CHECK_IN_CODE_LENGTH = 16


class TournamentRow(SQLModel, table=True):
    __tablename__ = "tournament"

    id: str = Field(primary_key=True, sa_type=String(TOURNAMENT_ID_LENGTH))
    name: str = Field(sa_type=String(NAME_LENGTH))
    game: str = Field(sa_type=String(64))
    options: Any = Field(sa_type=JSON)
    rounds: int = Field(sa_type=Integer)
    table_size: int = Field(sa_type=Integer)
    seating: str = Field(sa_type=String(16))
    seed: int = Field(sa_type=Integer)
    points: Any = Field(sa_type=JSON)
    tiebreaks: Any = Field(sa_type=JSON)
    hide_standings: bool = Field(sa_type=Boolean)
    private: bool = Field(sa_type=Boolean)
    organiser_token_hash: str = Field(sa_type=String(TOKEN_HASH_LENGTH))
    view_token_hash: str = Field(sa_type=String(TOKEN_HASH_LENGTH))
    status: str = Field(sa_type=String(16))
    current_round: int = Field(sa_type=Integer)
    plan: Any = Field(default=None, sa_type=JSON, nullable=True)
    version: int = Field(sa_type=Integer)
    created_at: datetime = Field(sa_type=DateTime(timezone=True))
    updated_at: datetime = Field(sa_type=DateTime(timezone=True))
    check_in: bool = Field(default=False, sa_type=Boolean)
    check_in_code: str | None = Field(
        default=None, sa_type=String(CHECK_IN_CODE_LENGTH), nullable=True)
    """Kept as it is, not hashed: the organiser's dashboard shows it again (see
    :mod:`api.tournaments.day`)."""
    late_check_in: bool = Field(default=False, sa_type=Boolean)
    warn_minutes: int = Field(default=5, sa_type=Integer)
    clock: Any = Field(default=None, sa_type=JSON, nullable=True)
    """The round clock (:mod:`api.tournaments.clock`); null: never started."""


class TournamentPlayerRow(SQLModel, table=True):
    __tablename__ = "tournament_player"

    tournament_id: str = Field(
        primary_key=True, sa_type=String(TOURNAMENT_ID_LENGTH), foreign_key="tournament.id",
    )
    id: int = Field(primary_key=True, sa_type=Integer)
    name: str = Field(sa_type=String(PLAYER_NAME_LENGTH))
    club: str | None = Field(default=None, sa_type=String(CLUB_LENGTH), nullable=True)
    active: bool = Field(sa_type=Boolean)
    paid: bool = Field(default=False, sa_type=Boolean)
    token_hash: str | None = Field(
        default=None, sa_type=String(TOKEN_HASH_LENGTH), nullable=True, index=True)
    """The player token's hash: players who checked in themselves hold one."""


class TournamentRoundRow(SQLModel, table=True):
    __tablename__ = "tournament_round"

    tournament_id: str = Field(
        primary_key=True, sa_type=String(TOURNAMENT_ID_LENGTH), foreign_key="tournament.id",
    )
    number: int = Field(primary_key=True, sa_type=Integer)
    report: Any = Field(sa_type=JSON)
    started_at: datetime = Field(sa_type=DateTime(timezone=True))


class TournamentTableRow(SQLModel, table=True):
    __tablename__ = "tournament_table"
    __table_args__ = (
        ForeignKeyConstraint(
            ["tournament_id", "round"],
            ["tournament_round.tournament_id", "tournament_round.number"],
            name="fk_tournament_table_round_tournament_round",
        ),
    )

    tournament_id: str = Field(primary_key=True, sa_type=String(TOURNAMENT_ID_LENGTH))
    round: int = Field(primary_key=True, sa_type=Integer)
    table: int = Field(primary_key=True, sa_type=Integer)
    match_id: str = Field(
        sa_type=String(MATCH_ID_LENGTH), foreign_key="match.id", unique=True,
    )
    players: Any = Field(sa_type=JSON)
    rounds_played: int = Field(sa_type=Integer)
    finished: bool = Field(sa_type=Boolean)
    places: Any = Field(sa_type=JSON)
    shares: Any = Field(sa_type=JSON)
    confirmed: bool = Field(sa_type=Boolean)
    confirmed_by: str | None = Field(default=None, sa_type=String(16), nullable=True)
    entered_by_device: str | None = Field(
        default=None, sa_type=String(DEVICE_ID_LENGTH), nullable=True,
    )
    entered_by_phone: str | None = Field(
        default=None, sa_type=String(PHONE_ID_LENGTH), nullable=True,
    )
    # The database's default, not SQLAlchemy's: rows inserted in bulk name no count.
    writes: int = Field(default=0, sa_column=Column("writes", Integer, nullable=False,
                                                   server_default="0"))
    """Writes to the table's match and its confirmation: the tournament's version counts them
    (:func:`api.tournaments.access.tournament_version`), so that no table's write locks the
    tournament's row."""
    written_at: datetime | None = Field(default=None, sa_type=DateTime(timezone=True),
                                        nullable=True)
