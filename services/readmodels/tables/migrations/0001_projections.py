"""The first projections: table directory, match results, invitations, positions.

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "table_directory",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("ruleset", sa.String(16), nullable=False),
        sa.Column("options", sa.JSON, nullable=False),
        sa.Column("capacity", sa.Integer, nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("on_turn", sa.Integer),
        sa.Column("match_no", sa.Integer, nullable=False),
        sa.Column("rounds_played", sa.Integer, nullable=False),
        sa.Column("scores", sa.JSON, nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("last_move_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("seq", sa.BigInteger, nullable=False),
    )
    op.create_index("ix_table_directory_status", "table_directory", ["status"])
    op.create_table(
        "match_results",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("match_no", sa.Integer, primary_key=True),
        sa.Column("ruleset", sa.String(16), nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("scores", sa.JSON, nullable=False),
        sa.Column("winners", sa.JSON, nullable=False),
        sa.Column("ended_by", sa.String(16), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "invitations",
        sa.Column("token", sa.String(64), primary_key=True),
        sa.Column("table_id", sa.String(64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "projection_positions",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("seq", sa.BigInteger, nullable=False),
    )


def downgrade() -> None:
    for name in ("projection_positions", "invitations", "match_results", "table_directory"):
        op.drop_table(name)
