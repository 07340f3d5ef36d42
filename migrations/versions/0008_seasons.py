"""A club's seasons (``club_season``): a name, the first and last evening, a game or all, and
how many of each member's best evenings count. Standings are counted on read, so nothing else
changes. Downgrade drops the table.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "club_season",
        sa.Column("club_id", sa.String(length=16), nullable=False),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("from_date", sa.Date(), nullable=False),
        sa.Column("to_date", sa.Date(), nullable=False),
        sa.Column("game", sa.String(length=64), nullable=True),
        sa.Column("best", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["club.id"], name=op.f("fk_club_season_club_id_club")),
        sa.PrimaryKeyConstraint("club_id", "id", name=op.f("pk_club_season")),
    )


def downgrade() -> None:
    op.drop_table("club_season")
