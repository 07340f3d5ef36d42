"""The club's Kasse (``club_payment``): money members paid into the club's pot or were paid out
of it, in minor units, with a note, when and by whom it was recorded. Settlements are computed
when read, so nothing else changes. Downgrade drops the table.

Revision ID: 0010
Revises: 0008
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0010"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "club_payment",
        sa.Column("club_id", sa.String(length=16), nullable=False),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("currency", sa.String(length=3), nullable=False),
        sa.Column("note", sa.String(length=200), nullable=False),
        sa.Column("recorded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("recorded_by", sa.String(length=80), nullable=True),
        sa.Column("device", sa.String(length=100), nullable=True),
        sa.ForeignKeyConstraint(["club_id"], ["club.id"],
                                name=op.f("fk_club_payment_club_id_club")),
        sa.ForeignKeyConstraint(["club_id", "member_id"],
                                ["club_member.club_id", "club_member.id"],
                                name="fk_club_payment_member_club_member"),
        sa.PrimaryKeyConstraint("club_id", "id", name=op.f("pk_club_payment")),
    )


def downgrade() -> None:
    op.drop_table("club_payment")
