"""The rules version each session was played under.

A game raises its ``rules_version`` when a change to its rules may make a game recorded
before it ask something else on replay; the session keeps the version its log was
recorded under, so that resuming it can tell a game of earlier rules from a damaged log.
Every session recorded before this revision was played under version 1.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ALTER TABLE ADD COLUMN (SQLite takes NOT NULL with a constant default): a batch
    # operation would copy the session table and drop the old one, which the events'
    # foreign keys refuse in a database that holds games.
    op.add_column(
        "session", sa.Column("rules_version", sa.Integer(), nullable=False, server_default=sa.text("1"))
    )


def downgrade() -> None:
    with op.batch_alter_table("session") as batch:
        batch.drop_column("rules_version")
