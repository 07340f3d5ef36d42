"""The tables. JSON columns hold what the scoring package reads and writes, as given.

Every ``str`` column has an explicit ``sa_type`` so migrations render real lengths, and the shared
metadata has a naming convention so batch migrations on SQLite can address every constraint.
A round's primary key is (match, number): two writers can never store the same round twice.

``match.played_at`` is when the match was played, as its creator said (a paper sheet typed in
the next day), else when it was created; ``match.location`` where, if said; ``match.stakes``
what it is played for, in minor units (:mod:`api.matches.stakes`), null if not for money.

``match.snapshot`` is the read model: the match exactly as ``GET /matches/{id}`` shows it, written
in the same transaction as the rounds it is made from, so a read is one row. The ``round`` table
stays the record the writes fold from.
"""

from datetime import datetime
from typing import Any

from sqlalchemy import JSON, Boolean, DateTime, Integer, String, UniqueConstraint
from sqlmodel import Field, SQLModel

SQLModel.metadata.naming_convention = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

MATCH_ID_LENGTH = 16
TOKEN_HASH_LENGTH = 64
IDEMPOTENCY_KEY_LENGTH = 200
CLUB_ID_LENGTH = 16  # here, not in api.clubs: a match's and a tournament's body may name a club
LOCATION_LENGTH = 80


class MatchRow(SQLModel, table=True):
    __tablename__ = "match"

    id: str = Field(primary_key=True, sa_type=String(MATCH_ID_LENGTH))
    game: str = Field(sa_type=String(64))
    players: Any = Field(sa_type=JSON)
    options: Any = Field(sa_type=JSON)
    private: bool = Field(sa_type=Boolean)
    write_token_hash: str = Field(sa_type=String(TOKEN_HASH_LENGTH))
    view_token_hash: str = Field(sa_type=String(TOKEN_HASH_LENGTH))
    version: int = Field(sa_type=Integer)
    status: str = Field(sa_type=String(16))
    winners: Any = Field(sa_type=JSON)
    reason: Any = Field(default=None, sa_type=JSON, nullable=True)
    standings: Any = Field(sa_type=JSON)
    next_dealer: int = Field(sa_type=Integer)
    snapshot: Any = Field(sa_type=JSON)
    created_at: datetime = Field(sa_type=DateTime(timezone=True))
    updated_at: datetime = Field(sa_type=DateTime(timezone=True))
    played_at: datetime = Field(sa_type=DateTime(timezone=True))
    """When the match was played (the evening it belongs to): given, or when it was created."""
    location: str | None = Field(default=None, sa_type=String(LOCATION_LENGTH), nullable=True)
    stakes: Any = Field(default=None, sa_type=JSON, nullable=True)


class RoundRow(SQLModel, table=True):
    __tablename__ = "round"

    match_id: str = Field(
        primary_key=True, sa_type=String(MATCH_ID_LENGTH), foreign_key="match.id",
    )
    number: int = Field(primary_key=True, sa_type=Integer)
    entry: Any = Field(sa_type=JSON)
    result: Any = Field(sa_type=JSON)
    totals: Any = Field(sa_type=JSON)


class AuditRow(SQLModel, table=True):
    __tablename__ = "audit"

    id: int | None = Field(default=None, primary_key=True, sa_type=Integer)
    match_id: str = Field(sa_type=String(MATCH_ID_LENGTH), foreign_key="match.id", index=True)
    at: datetime = Field(sa_type=DateTime(timezone=True))
    action: str = Field(sa_type=String(32))
    round: int | None = Field(default=None, sa_type=Integer, nullable=True)
    old_entry: Any = Field(default=None, sa_type=JSON, nullable=True)
    new_entry: Any = Field(default=None, sa_type=JSON, nullable=True)
    token_kind: str = Field(sa_type=String(16))


class IdempotencyRow(SQLModel, table=True):
    __tablename__ = "idempotency"
    __table_args__ = (UniqueConstraint("match_id", "key"),)

    id: int | None = Field(default=None, primary_key=True, sa_type=Integer)
    match_id: str = Field(sa_type=String(MATCH_ID_LENGTH), foreign_key="match.id")
    key: str = Field(sa_type=String(IDEMPOTENCY_KEY_LENGTH))
    fingerprint: str = Field(sa_type=String(64))
    status: int = Field(sa_type=Integer)
    body: Any = Field(sa_type=JSON)



IMPORT_KIND_LENGTH = 16
IMPORT_KEY_LENGTH = 32
IMPORT_HOLDER_LENGTH = 128


class ImportLeaseRow(SQLModel, table=True):
    """An import under way (:mod:`api.shared.imports`): what it hides (its kind and the key its
    rows are hidden under), the process that writes it, and when that process last said it
    still does, by the database's clock. A sweep removes only what no live lease covers."""

    __tablename__ = "import_lease"

    kind: str = Field(primary_key=True, sa_type=String(IMPORT_KIND_LENGTH))
    key: str = Field(primary_key=True, sa_type=String(IMPORT_KEY_LENGTH))
    holder: str = Field(sa_type=String(IMPORT_HOLDER_LENGTH))
    started_at: datetime = Field(sa_type=DateTime(timezone=True))
    heartbeat_at: datetime = Field(sa_type=DateTime(timezone=True))
