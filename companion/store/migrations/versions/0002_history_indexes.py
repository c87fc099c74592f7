"""Indexes for the History screen: sessions listed by last activity or by start.

With ten thousand sessions the listing reads the newest page through an index
instead of sorting the whole table on every open.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_index("ix_session_last_activity", "session", ["last_activity"])
    op.create_index("ix_session_started", "session", ["started"])


def downgrade() -> None:
    op.drop_index("ix_session_started", "session")
    op.drop_index("ix_session_last_activity", "session")
