"""Accounts: one row per account of the ACCOUNTS stream, for look-ups by name and identity.

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("account_id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("name_normalised", sa.String(128), nullable=False),
        sa.Column("avatar", sa.String(32), nullable=False),
        sa.Column("identity", sa.String(64), nullable=False),
        sa.Column("registered_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seq", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_accounts_name_normalised", "accounts", ["name_normalised"])
    op.create_index("ix_accounts_identity", "accounts", ["identity"])


def downgrade() -> None:
    op.drop_table("accounts")
