"""Stakes: what a match is played for, and a club's default per game.

- ``match.stakes`` (JSON, null: not for money), in whole minor units; every match stored before
  is not for money, and its stored answer (``match.snapshot``) says so (``stakes`` and
  ``settlement`` null).
- ``club.stakes`` (JSON, null: no defaults), per game key the stakes as a match stores them.

Downgrade takes all of it away again, the keys of the stored answers too.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04
"""

from collections.abc import Callable, Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PAGE = 500
"""Stored answers read at a time: a large database is walked without holding it in memory."""
MATCHES = sa.table("match", sa.column("id", sa.String), sa.column("snapshot", sa.JSON))
KEYS = ("stakes", "settlement")


def _rewrite_snapshots(change: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """Every match's stored answer changed, in id order, a page at a time."""
    connection = op.get_bind()
    update = MATCHES.update().where(MATCHES.c.id == sa.bindparam("key_id"))
    last = ""
    while True:
        page = list(connection.execute(
            sa.select(MATCHES.c.id, MATCHES.c.snapshot).where(MATCHES.c.id > last)
            .order_by(MATCHES.c.id).limit(PAGE)))
        for match_id, snapshot in page:
            connection.execute(update, {"key_id": match_id, "snapshot": change(snapshot)})
        if len(page) < PAGE:
            return
        last = str(page[-1][0])


def upgrade() -> None:
    with op.batch_alter_table("match") as batch_op:
        batch_op.add_column(sa.Column("stakes", sa.JSON(), nullable=True))
    with op.batch_alter_table("club") as batch_op:
        batch_op.add_column(sa.Column("stakes", sa.JSON(), nullable=True))
    _rewrite_snapshots(lambda snapshot: {**snapshot, **dict.fromkeys(KEYS)})


def downgrade() -> None:
    _rewrite_snapshots(lambda snapshot: {
        key: value for key, value in snapshot.items() if key not in KEYS})
    with op.batch_alter_table("club") as batch_op:
        batch_op.drop_column("stakes")
    with op.batch_alter_table("match") as batch_op:
        batch_op.drop_column("stakes")
