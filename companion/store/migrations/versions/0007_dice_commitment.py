"""Each session's nonce, for the commitment to its seed the app shows when the session starts.

A session's app dice come from its seed (companion/dice.py). When a session starts, the app
shows a commitment to that seed, SHA-256 of a random nonce and the seed
(``dice.commitment``); the reports reveal the seed and the nonce once the session has ended,
and ``companion verify`` checks both the commitment and every app roll against them. The
nonce is kept here. Sessions recorded before this revision have none: they are checked
against their seed alone, and the check says so.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A plain ALTER TABLE ADD COLUMN, nullable: a batch operation would copy the session table,
    # which the events' foreign keys refuse in a database that holds games (as in 0003).
    # A database labelled with an older revision that has the column already (a copy of this
    # schema relabelled, or restored over) is taken as it is.
    columns = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("session")}
    if "dice_nonce" not in columns:
        op.add_column("session", sa.Column("dice_nonce", sa.String(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("session") as batch:
        batch.drop_column("dice_nonce")
