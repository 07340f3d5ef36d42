"""Tournament day: check-in by QR, paid players, the round clock.

- ``tournament.check_in`` (players register themselves with ``check_in_code``, kept as it is:
  the organiser's dashboard shows it again), ``late_check_in`` (check-in stays open once round 1
  has started), ``warn_minutes`` (5: when the clock turns to its warning), ``clock`` (JSON, null:
  never started).
- ``tournament_player.paid`` (false) and ``token_hash`` (the player token's, null for players
  the organiser registered), indexed: a player token is found by its hash.

Every tournament stored before has no check-in, a clock never started and nobody paid.
Downgrade drops the columns.

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournament") as batch_op:
        batch_op.add_column(sa.Column("check_in", sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
        batch_op.add_column(sa.Column("check_in_code", sa.String(length=16), nullable=True))
        batch_op.add_column(sa.Column("late_check_in", sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
        batch_op.add_column(sa.Column("warn_minutes", sa.Integer(), nullable=False,
                                      server_default="5"))
        batch_op.add_column(sa.Column("clock", sa.JSON(), nullable=True))
    with op.batch_alter_table("tournament_player") as batch_op:
        batch_op.add_column(sa.Column("paid", sa.Boolean(), nullable=False,
                                      server_default=sa.false()))
        batch_op.add_column(sa.Column("token_hash", sa.String(length=64), nullable=True))
        batch_op.create_index(batch_op.f("ix_tournament_player_token_hash"), ["token_hash"])


def downgrade() -> None:
    with op.batch_alter_table("tournament_player") as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_player_token_hash"))
        batch_op.drop_column("token_hash")
        batch_op.drop_column("paid")
    with op.batch_alter_table("tournament") as batch_op:
        for column in ("clock", "warn_minutes", "late_check_in", "check_in_code", "check_in"):
            batch_op.drop_column(column)
