"""When and where a match was played, and the club's time zone.

- ``match.played_at`` (not null) and ``match.location`` (null: not said); every match stored
  before gets ``played_at = created_at``, and its stored answer (``match.snapshot``) shows both
  (``played_at`` as its ``created_at`` is written there, ``location`` null).
- ``club_match.played_at``, copied from its match: the club's history is ordered by it, so its
  index replaces the one by ``created_at``.
- ``club.time_zone``, ``Europe/Zurich`` for every club.

Downgrade takes all of it away again, the keys of the stored answers too.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-04
"""

from collections.abc import Iterator, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PAGE = 500
"""Stored answers read at a time: a large database is walked without holding it in memory."""
MATCHES = sa.table("match", sa.column("id", sa.String), sa.column("snapshot", sa.JSON),
                   sa.column("created_at", sa.DateTime(timezone=True)),
                   sa.column("played_at", sa.DateTime(timezone=True)))
CLUB_MATCHES = sa.table("club_match", sa.column("match_id", sa.String),
                        sa.column("played_at", sa.DateTime(timezone=True)))
CLUBS = sa.table("club", sa.column("time_zone", sa.String))


def _snapshots(connection: sa.Connection) -> Iterator[tuple[str, dict[str, Any]]]:
    """Every match's id and stored answer, in id order, a page at a time."""
    last: str | None = None
    while True:
        query = sa.select(MATCHES.c.id, MATCHES.c.snapshot).order_by(MATCHES.c.id).limit(PAGE)
        if last is not None:
            query = query.where(MATCHES.c.id > last)
        page = [(str(match_id), snapshot) for match_id, snapshot in connection.execute(query)]
        yield from page
        if len(page) < PAGE:
            return
        last = page[-1][0]


def _rewrite_snapshots(connection: sa.Connection, change: Any) -> None:
    update = MATCHES.update().where(MATCHES.c.id == sa.bindparam("key_id"))
    for match_id, snapshot in _snapshots(connection):
        connection.execute(update, {"key_id": match_id, "snapshot": change(snapshot)})


def _with_played_at(snapshot: dict[str, Any]) -> dict[str, Any]:
    return {**snapshot, "played_at": snapshot["created_at"], "location": None}


def _without_played_at(snapshot: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in snapshot.items() if key not in {"played_at", "location"}}


def upgrade() -> None:
    connection = op.get_bind()
    with op.batch_alter_table("match") as batch_op:
        batch_op.add_column(sa.Column("played_at", sa.DateTime(timezone=True), nullable=True))
        batch_op.add_column(sa.Column("location", sa.String(length=80), nullable=True))
    connection.execute(MATCHES.update().values(played_at=MATCHES.c.created_at))
    with op.batch_alter_table("match") as batch_op:
        batch_op.alter_column("played_at", existing_type=sa.DateTime(timezone=True),
                              nullable=False)
    _rewrite_snapshots(connection, _with_played_at)

    with op.batch_alter_table("club_match") as batch_op:
        batch_op.add_column(sa.Column("played_at", sa.DateTime(timezone=True), nullable=True))
    connection.execute(CLUB_MATCHES.update().values(played_at=sa.select(
        MATCHES.c.played_at).where(MATCHES.c.id == CLUB_MATCHES.c.match_id).scalar_subquery()))
    with op.batch_alter_table("club_match") as batch_op:
        batch_op.alter_column("played_at", existing_type=sa.DateTime(timezone=True),
                              nullable=False)
        batch_op.drop_index("ix_club_match_club_id_created_at")
        batch_op.create_index("ix_club_match_club_id_played_at", ["club_id", "played_at"])

    with op.batch_alter_table("club") as batch_op:
        batch_op.add_column(sa.Column("time_zone", sa.String(length=64), nullable=True))
    connection.execute(CLUBS.update().values(time_zone="Europe/Zurich"))
    with op.batch_alter_table("club") as batch_op:
        batch_op.alter_column("time_zone", existing_type=sa.String(length=64), nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("club") as batch_op:
        batch_op.drop_column("time_zone")
    with op.batch_alter_table("club_match") as batch_op:
        batch_op.drop_index("ix_club_match_club_id_played_at")
        batch_op.create_index("ix_club_match_club_id_created_at", ["club_id", "created_at"])
        batch_op.drop_column("played_at")
    _rewrite_snapshots(op.get_bind(), _without_played_at)
    with op.batch_alter_table("match") as batch_op:
        batch_op.drop_column("location")
        batch_op.drop_column("played_at")
