"""Disputes and staff: the disputes' projection, the accounts' staff role, annulled matches and seats.

Revision ID: 0008
Revises: 0007

Existing rows get false: no account was staff and no match was annulled before (docs/disputes.md).
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"

_FLAGS = (("accounts", "staff"), ("match_results", "annulled"), ("match_seats", "annulled"))


def upgrade() -> None:
    for table, column in _FLAGS:
        with op.batch_alter_table(table) as batch:
            batch.add_column(sa.Column(column, sa.Boolean, nullable=False, server_default=sa.false()))
        with op.batch_alter_table(table) as batch:
            batch.alter_column(column, server_default=None)
    op.create_table(
        "disputes",
        sa.Column("dispute_id", sa.String(32), primary_key=True),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("table_seq", sa.BigInteger, nullable=False),
        sa.Column("match_no", sa.Integer, nullable=False),
        sa.Column("reporter", sa.String(64), nullable=False),
        sa.Column("reporter_name", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer, nullable=False),
        sa.Column("text", sa.Text, nullable=False),
        sa.Column("opened_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("verdict", sa.String(16), nullable=False),
        sa.Column("note", sa.Text, nullable=False),
        sa.Column("closed_by", sa.String(64), nullable=False),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("annulled", sa.Boolean, nullable=False),
        sa.Column("looks", sa.Integer, nullable=False),
        sa.Column("seq", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_disputes_status", "disputes", ["status", "opened_at"])
    op.create_index("ix_disputes_reporter", "disputes", ["reporter", "opened_at"])


def downgrade() -> None:
    op.drop_table("disputes")
    for table, column in reversed(_FLAGS):
        with op.batch_alter_table(table) as batch:
            batch.drop_column(column)
