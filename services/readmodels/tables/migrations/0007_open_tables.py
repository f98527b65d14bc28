"""Open tables: the directory says which tables are listed for anyone to join.

Revision ID: 0007
Revises: 0006

Tables created before were all by invitation: false.
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    with op.batch_alter_table("table_directory") as batch:
        batch.add_column(sa.Column("open", sa.Boolean, nullable=False, server_default=sa.false()))
    with op.batch_alter_table("table_directory") as batch:
        batch.alter_column("open", server_default=None)
    op.create_index("ix_table_directory_open", "table_directory", ["open", "status"])


def downgrade() -> None:
    op.drop_index("ix_table_directory_open", "table_directory")
    with op.batch_alter_table("table_directory") as batch:
        batch.drop_column("open")
