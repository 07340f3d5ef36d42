"""A club's own audit (``club_audit``): what the organiser did to its members that no match's
audit shows, first of all a member forgotten (GDPR art. 17), naming the member by id only.
Nothing else changes. Downgrade drops the table.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "club_audit",
        sa.Column("club_id", sa.String(length=16), nullable=False),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=True),
        sa.Column("token_kind", sa.String(length=16), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["club.id"], name=op.f("fk_club_audit_club_id_club")),
        sa.PrimaryKeyConstraint("club_id", "id", name=op.f("pk_club_audit")),
    )


def downgrade() -> None:
    op.drop_table("club_audit")
