"""Who sits where: the seats of every person, for "my tables".

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    op.create_table(
        "player_seats",
        sa.Column("identity", sa.String(64), primary_key=True),
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("seat", sa.Integer, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("player_seats")
