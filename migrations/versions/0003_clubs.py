"""Clubs: the club, its members, its matches and tournaments with who sat where, and the
statistics and ratings kept per member and game.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

INDEXES = {
    "club_match": [("ix_club_match_club_id_created_at", ["club_id", "created_at"]),
                   ("ix_club_match_club_id_finish", ["club_id", "finish"]),
                   ("ix_club_match_tournament_id", ["tournament_id"])],
    "club_tournament": [("ix_club_tournament_club_id_created_at", ["club_id", "created_at"])],
    "club_rating": [("ix_club_rating_club_id_game_finish", ["club_id", "game", "finish"])],
    "club_seat": [("ix_club_seat_club_id_game_finish", ["club_id", "game", "finish"]),
                  ("ix_club_seat_member", ["club_id", "member_id", "game", "finish"])],
    "club_tournament_player": [("ix_club_tournament_player_member", ["club_id", "member_id"])],
}


def _club_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["club_id"], ["club.id"], name=op.f(f"fk_{table}_club_id_club"))


def _member_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["club_id", "member_id"],
                                   ["club_member.club_id", "club_member.id"],
                                   name=f"fk_{table}_member_club_member")


def _match_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["match_id"], ["match.id"],
                                   name=op.f(f"fk_{table}_match_id_match"))


def _tournament_fk(table: str) -> sa.ForeignKeyConstraint:
    return sa.ForeignKeyConstraint(["tournament_id"], ["tournament.id"],
                                   name=op.f(f"fk_{table}_tournament_id_tournament"))


def upgrade() -> None:
    op.create_table(
        "club",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("name", sa.String(length=60), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("view_token_hash", sa.String(length=64), nullable=False),
        sa.Column("finished", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_club")),
    )
    op.create_table(
        "club_member",
        sa.Column("club_id", sa.String(length=16), nullable=False),
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=True),
        sa.Column("key", sa.String(length=120), nullable=True),
        sa.Column("merged_into", sa.Integer(), nullable=True),
        sa.Column("removed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        _club_fk("club_member"),
        sa.PrimaryKeyConstraint("club_id", "id", name=op.f("pk_club_member")),
        sa.UniqueConstraint("club_id", "key", name=op.f("uq_club_member_club_id_key")),
    )
    op.create_table(
        "club_match",
        sa.Column("match_id", sa.String(length=16), nullable=False),
        sa.Column("club_id", sa.String(length=16), nullable=False),
        sa.Column("tournament_id", sa.String(length=16), nullable=True),
        sa.Column("game", sa.String(length=64), nullable=False),
        sa.Column("finish", sa.Integer(), nullable=True),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        _club_fk("club_match"),
        _match_fk("club_match"),
        _tournament_fk("club_match"),
        sa.PrimaryKeyConstraint("match_id", name=op.f("pk_club_match")),
    )
    op.create_table(
        "club_tournament",
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("club_id", sa.String(length=16), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        _club_fk("club_tournament"),
        _tournament_fk("club_tournament"),
        sa.PrimaryKeyConstraint("tournament_id", name=op.f("pk_club_tournament")),
    )
    op.create_table(
        "club_member_game",
        sa.Column("club_id", sa.String(length=16), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=64), nullable=False),
        sa.Column("statistics", sa.JSON(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rated", sa.Integer(), nullable=False),
        _member_fk("club_member_game"),
        sa.PrimaryKeyConstraint("club_id", "member_id", "game",
                                name=op.f("pk_club_member_game")),
    )
    op.create_table(
        "club_rating",
        sa.Column("club_id", sa.String(length=16), nullable=False),
        sa.Column("finish", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=64), nullable=False),
        sa.Column("match_id", sa.String(length=16), nullable=False),
        sa.Column("mu_before", sa.Float(), nullable=False),
        sa.Column("sigma_before", sa.Float(), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        _member_fk("club_rating"),
        _club_fk("club_rating"),
        _match_fk("club_rating"),
        sa.PrimaryKeyConstraint("club_id", "finish", "member_id", name=op.f("pk_club_rating")),
    )
    op.create_table(
        "club_seat",
        sa.Column("match_id", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.String(length=16), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=64), nullable=False),
        sa.Column("finish", sa.Integer(), nullable=True),
        sa.Column("side", sa.Integer(), nullable=True),
        sa.Column("rank", sa.Integer(), nullable=True),
        sa.Column("won", sa.Boolean(), nullable=True),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("measures", sa.JSON(), nullable=True),
        _member_fk("club_seat"),
        sa.ForeignKeyConstraint(["match_id"], ["club_match.match_id"],
                                name=op.f("fk_club_seat_match_id_club_match")),
        sa.PrimaryKeyConstraint("match_id", "seat", name=op.f("pk_club_seat")),
    )
    op.create_table(
        "club_tournament_player",
        sa.Column("tournament_id", sa.String(length=16), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.String(length=16), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        _member_fk("club_tournament_player"),
        sa.ForeignKeyConstraint(
            ["tournament_id", "player_id"],
            ["tournament_player.tournament_id", "tournament_player.id"],
            name="fk_club_tournament_player_player_tournament_player"),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["club_tournament.tournament_id"],
            name=op.f("fk_club_tournament_player_tournament_id_club_tournament")),
        sa.PrimaryKeyConstraint("tournament_id", "player_id",
                                name=op.f("pk_club_tournament_player")),
    )
    for table, indexes in INDEXES.items():
        for name, columns in indexes:
            op.create_index(name, table, columns)


def downgrade() -> None:
    for table, indexes in INDEXES.items():
        for name, _ in indexes:
            op.drop_index(name, table_name=table)
    for table in ("club_tournament_player", "club_seat", "club_rating", "club_member_game",
                  "club_tournament", "club_match", "club_member", "club"):
        op.drop_table(table)
