"""The phone that entered a table's result, by the key the server gave it.

``tournament_table.entered_by_phone`` holds the public half of the ``X-Table-Phone`` key of the
phone that last wrote the table's match (see :mod:`api.tournaments.access`). Tables entered
before it existed keep ``NULL``: their confirmation follows ``entered_by_device`` as before.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_table") as batch_op:
        batch_op.add_column(sa.Column("entered_by_phone", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("tournament_table") as batch_op:
        batch_op.drop_column("entered_by_phone")
