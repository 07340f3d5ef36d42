"""Leases of imports under way (``import_lease``): the kind and hidden key of an import, the
process writing it and its last heartbeat, so that several ``serve`` processes on one database
sweep only the imports whose process died. Imports hidden before this revision have no lease
and are swept as before. Downgrade drops the table.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-05
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "import_lease",
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("key", sa.String(length=32), nullable=False),
        sa.Column("holder", sa.String(length=128), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("heartbeat_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("kind", "key", name=op.f("pk_import_lease")),
    )


def downgrade() -> None:
    op.drop_table("import_lease")
