"""Invitations kept as their SHA-256: a copy of the database no longer opens the tables.

Revision ID: 0003
Revises: 0002

The downgrade keeps the hashes under the old name: the tokens cannot be recovered from
them, and nothing reads the column (replaying the stream, ``maumau projector --rebuild``,
writes the projection again).
"""

import sqlalchemy as sa
from alembic import op

from services.readmodels.tables.projection import invitation_hash

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    # in Python: SQLite has no SHA-256 of its own
    conn = op.get_bind()
    tokens = conn.execute(sa.text("SELECT token FROM invitations")).scalars().all()
    if tokens:
        conn.execute(sa.text("UPDATE invitations SET token = :hashed WHERE token = :token"),
                     [{"hashed": invitation_hash(t), "token": t} for t in tokens])
    with op.batch_alter_table("invitations") as table:  # SQLite renames by copying the table
        table.alter_column("token", new_column_name="token_sha256", existing_type=sa.String(64),
                           existing_nullable=False)


def downgrade() -> None:
    with op.batch_alter_table("invitations") as table:
        table.alter_column("token_sha256", new_column_name="token", existing_type=sa.String(64),
                           existing_nullable=False)
