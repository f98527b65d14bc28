"""Rankings: every seat of every finished match, and the people's totals per ruleset, category and period.

Revision ID: 0005
Revises: 0004

Filled from the streams: a new database, or one dropped with ``maumau projector --rebuild``,
gets them by replaying the TABLES stream from its start.
"""

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    op.create_table(
        "match_seats",
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("match_no", sa.Integer, primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("identity", sa.String(64), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("bot", sa.Boolean, nullable=False),
        sa.Column("ruleset", sa.String(16), nullable=False),
        sa.Column("category", sa.String(16), nullable=False),
        sa.Column("won", sa.Boolean, nullable=False),
        sa.Column("left", sa.Boolean, nullable=False),
        sa.Column("end_reason", sa.String(16), nullable=False),
        sa.Column("ended_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_match_seats_identity", "match_seats", ["identity", "ended_at"])
    op.create_table(
        "ranking_totals",
        sa.Column("ruleset", sa.String(16), primary_key=True),
        sa.Column("category", sa.String(16), primary_key=True),
        sa.Column("period", sa.String(8), primary_key=True),
        sa.Column("period_key", sa.String(16), primary_key=True),
        sa.Column("identity", sa.String(64), primary_key=True),
        sa.Column("played", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
    )
    op.create_index("ix_ranking_totals_wins", "ranking_totals",
                    ["ruleset", "category", "period", "period_key", "wins", "identity"])
    op.create_index("ix_ranking_totals_identity", "ranking_totals", ["identity", "period"])


def downgrade() -> None:
    op.drop_table("ranking_totals")
    op.drop_table("match_seats")
