"""Fair play and reserved chips: what pairs of accounts earned from each other per day, the matches
fair play settled for nothing (the staff's marks), and the chips held by seats in competitive lobbies.

Revision ID: 0009
Revises: 0008

All three start empty: the pairs' earnings count from the upgrade's day, and a lobby open at the
upgrade holds its seats' chips from its next join, leave or start (each rewrites all its rows);
``maumau projector --rebuild`` fills them as if they had always been.
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"


def upgrade() -> None:
    op.create_table(
        "pair_earnings",
        sa.Column("day", sa.String(10), primary_key=True),
        sa.Column("earner", sa.String(64), primary_key=True),
        sa.Column("payer", sa.String(64), primary_key=True),
        sa.Column("xp", sa.Integer, nullable=False),
        sa.Column("chips", sa.Integer, nullable=False),
    )
    op.create_table(
        "fair_play_marks",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("match_no", sa.Integer, primary_key=True),
        sa.Column("reason", sa.String(16), nullable=False),
        sa.Column("players", sa.JSON, nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_fair_play_marks_ended_at", "fair_play_marks", ["ended_at"])
    op.create_table(
        "chip_reservations",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("identity", sa.String(64), primary_key=True),
        sa.Column("amount", sa.Integer, nullable=False),
    )
    op.create_index("ix_chip_reservations_identity", "chip_reservations", ["identity"])


def downgrade() -> None:
    op.drop_table("chip_reservations")
    op.drop_table("fair_play_marks")
    op.drop_table("pair_earnings")
