"""The first tables: matches, their rounds, the audit log and idempotency keys.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _match_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["match_id"], ["match.id"], name=op.f(f"fk_{table}_match_id_match"),
    )


def upgrade() -> None:
    op.create_table(
        "match",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("game", sa.String(length=64), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("write_token_hash", sa.String(length=64), nullable=False),
        sa.Column("view_token_hash", sa.String(length=64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("winners", sa.JSON(), nullable=False),
        sa.Column("reason", sa.JSON(), nullable=True),
        sa.Column("standings", sa.JSON(), nullable=False),
        sa.Column("next_dealer", sa.Integer(), nullable=False),
        sa.Column("snapshot", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_match")),
    )
    op.create_table(
        "audit",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.String(length=16), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("action", sa.String(length=32), nullable=False),
        sa.Column("round", sa.Integer(), nullable=True),
        sa.Column("old_entry", sa.JSON(), nullable=True),
        sa.Column("new_entry", sa.JSON(), nullable=True),
        sa.Column("token_kind", sa.String(length=16), nullable=False),
        _match_fk("audit"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_audit")),
    )
    with op.batch_alter_table("audit") as batch_op:
        batch_op.create_index(batch_op.f("ix_audit_match_id"), ["match_id"], unique=False)
    op.create_table(
        "idempotency",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.String(length=16), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("fingerprint", sa.String(length=64), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        _match_fk("idempotency"),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_idempotency")),
        sa.UniqueConstraint("match_id", "key", name=op.f("uq_idempotency_match_id_key")),
    )
    op.create_table(
        "round",
        sa.Column("match_id", sa.String(length=16), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("entry", sa.JSON(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=False),
        sa.Column("totals", sa.JSON(), nullable=False),
        _match_fk("round"),
        sa.PrimaryKeyConstraint("match_id", "number", name=op.f("pk_round")),
    )


def downgrade() -> None:
    op.drop_table("round")
    op.drop_table("idempotency")
    with op.batch_alter_table("audit") as batch_op:
        batch_op.drop_index(batch_op.f("ix_audit_match_id"))
    op.drop_table("audit")
    op.drop_table("match")
