"""A tournament's version counted at its tables: no row every table's write must lock.

Every write to a table's match bumped ``tournament.version`` in the match write's transaction,
so on PostgreSQL the writes of all tables queued on the tournament's row, one after another (a
burst of 150 tables at the end of a round took 5 s). Now each write counts up its own table's
``tournament_table.writes`` and stamps ``written_at``; the tournament's version is its own
``version`` (moved by the organiser's changes) plus the writes of all its tables, and its
``updated_at`` the later of its own and its tables' (see :mod:`api.tournaments.access`).

Tables stored before start at 0 writes: the tournament's version is what it was. Going down
folds the tables' writes and times back into the tournament's row, so no version goes back.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_table") as batch_op:
        batch_op.add_column(sa.Column("writes", sa.Integer(), nullable=False,
                                      server_default="0"))
        batch_op.add_column(sa.Column("written_at", sa.DateTime(timezone=True), nullable=True))


def downgrade() -> None:
    op.execute(
        "UPDATE tournament SET version = version + (SELECT coalesce(sum(t.writes), 0) "
        "FROM tournament_table AS t WHERE t.tournament_id = tournament.id)")
    op.execute(
        "UPDATE tournament SET updated_at = (SELECT max(t.written_at) FROM tournament_table "
        "AS t WHERE t.tournament_id = tournament.id) WHERE updated_at < (SELECT "
        "max(t.written_at) FROM tournament_table AS t WHERE t.tournament_id = tournament.id)")
    with op.batch_alter_table("tournament_table") as batch_op:
        batch_op.drop_column("written_at")
        batch_op.drop_column("writes")
