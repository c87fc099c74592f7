"""A player's notes on the steps of a session, and bookmarks (a step with a note).

``note`` holds them, append-only like the events: the newest row for a step says its note
(an empty text: the note removed). Sessions recorded before this revision have none.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # A table there already (a copy of this schema relabelled) is taken as it is, as in 0008.
    if "note" not in sa.inspect(op.get_bind()).get_table_names():
        op.create_table(
            "note",
            sa.Column("id", sa.Integer(), primary_key=True),
            sa.Column("session_id", sa.Integer(), sa.ForeignKey("session.id"), nullable=False),
            sa.Column("step", sa.Integer(), nullable=False),
            sa.Column("text", sa.String(), nullable=False),
            sa.Column("at", sa.DateTime(), nullable=False),
        )
        op.create_index("ix_note_session_id", "note", ["session_id"])


def downgrade() -> None:
    op.drop_index("ix_note_session_id", table_name="note")
    op.drop_table("note")
