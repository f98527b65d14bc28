"""XP and chips of competitive matches: per seat, in the totals, and the chips' moves and balances.

Revision ID: 0006
Revises: 0005

Existing rows get 0: matches before competitive tables moved neither.
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    with op.batch_alter_table("match_seats") as batch:
        batch.add_column(sa.Column("xp", sa.Integer, nullable=False, server_default="0"))
        batch.add_column(sa.Column("chips", sa.Integer, nullable=False, server_default="0"))
    with op.batch_alter_table("ranking_totals") as batch:
        batch.add_column(sa.Column("xp", sa.Integer, nullable=False, server_default="0"))
    for table, column in (("match_seats", "xp"), ("match_seats", "chips"), ("ranking_totals", "xp")):
        with op.batch_alter_table(table) as batch:
            batch.alter_column(column, server_default=None)
    op.create_index("ix_ranking_totals_xp", "ranking_totals",
                    ["ruleset", "category", "period", "period_key", "xp", "identity"])
    op.create_table(
        "chip_moves",
        sa.Column("identity", sa.String(64), primary_key=True),
        sa.Column("table_id", sa.String(64), primary_key=True),
        sa.Column("match_no", sa.Integer, primary_key=True),
        sa.Column("kind", sa.String(8), primary_key=True),
        sa.Column("amount", sa.Integer, nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_table(
        "chip_balances",
        sa.Column("identity", sa.String(64), primary_key=True),
        sa.Column("balance", sa.Integer, nullable=False),
        sa.Column("changed_on", sa.String(10), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chip_balances")
    op.drop_table("chip_moves")
    op.drop_index("ix_ranking_totals_xp", "ranking_totals")
    with op.batch_alter_table("ranking_totals") as batch:
        batch.drop_column("xp")
    with op.batch_alter_table("match_seats") as batch:
        batch.drop_column("chips")
        batch.drop_column("xp")
