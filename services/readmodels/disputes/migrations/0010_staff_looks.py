"""Every staff look listed on the desk: ``staff_looks`` (docs/disputes.md, "Who looked").

Revision ID: 0010
Revises: 0009

Filled from the DISPUTES stream by the disputes projector; looks stored before it are listed
after a rebuild (``maumau projector --rebuild``).
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"


def upgrade() -> None:
    op.create_table(
        "staff_looks",
        sa.Column("seq", sa.BigInteger, primary_key=True),
        sa.Column("account_id", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("dispute_id", sa.String(32), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_staff_looks_at", "staff_looks", ["at"])


def downgrade() -> None:
    op.drop_table("staff_looks")
