"""Tournaments: the tournament, its players, its rounds and their tables (each linked to a match).

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def _tournament_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(
        ["tournament_id"], ["tournament.id"], name=op.f(f"fk_{table}_tournament_id_tournament"),
    )


def upgrade() -> None:
    op.create_table(
        "tournament",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=100), nullable=False),
        sa.Column("game", sa.String(length=64), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("table_size", sa.Integer(), nullable=False),
        sa.Column("seating", sa.String(length=16), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("points", sa.JSON(), nullable=False),
        sa.Column("tiebreaks", sa.JSON(), nullable=False),
        sa.Column("hide_standings", sa.Boolean(), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False),
        sa.Column("organiser_token_hash", sa.String(length=64), nullable=False),
        sa.Column("view_token_hash", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("current_round", sa.Integer(), nullable=False),
        sa.Column("plan", sa.JSON(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament")),
    )
    op.create_table(
        "tournament_player",
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("club", sa.String(length=60), nullable=True),
        sa.Column("active", sa.Boolean(), nullable=False),
        _tournament_fk("tournament_player"),
        sa.PrimaryKeyConstraint("tournament_id", "id", name=op.f("pk_tournament_player")),
    )
    op.create_table(
        "tournament_round",
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("report", sa.JSON(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        _tournament_fk("tournament_round"),
        sa.PrimaryKeyConstraint("tournament_id", "number", name=op.f("pk_tournament_round")),
    )
    op.create_table(
        "tournament_table",
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.String(length=16), nullable=False),
        sa.Column("players", sa.JSON(), nullable=False),
        sa.Column("rounds_played", sa.Integer(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("places", sa.JSON(), nullable=False),
        sa.Column("shares", sa.JSON(), nullable=False),
        sa.Column("confirmed", sa.Boolean(), nullable=False),
        sa.Column("confirmed_by", sa.String(length=16), nullable=True),
        sa.Column("entered_by_device", sa.String(length=100), nullable=True),
        sa.ForeignKeyConstraint(
            ["match_id"], ["match.id"], name=op.f("fk_tournament_table_match_id_match"),
        ),
        sa.ForeignKeyConstraint(
            ["tournament_id", "round"],
            ["tournament_round.tournament_id", "tournament_round.number"],
            name=op.f("fk_tournament_table_round_tournament_round"),
        ),
        sa.PrimaryKeyConstraint("tournament_id", "round", "table",
                                name=op.f("pk_tournament_table")),
        sa.UniqueConstraint("match_id", name=op.f("uq_tournament_table_match_id")),
    )


def downgrade() -> None:
    op.drop_table("tournament_table")
    op.drop_table("tournament_round")
    op.drop_table("tournament_player")
    op.drop_table("tournament")
