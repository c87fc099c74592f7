"""The first schema: session and event tables.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "session",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("game", sa.String(), nullable=False),
        sa.Column("seed", sa.Integer(), nullable=False),
        sa.Column("dice_mode", sa.String(), nullable=False, server_default=""),
        sa.Column("status", sa.String(), nullable=False, server_default="active"),
        sa.Column("started", sa.DateTime(), nullable=False),
        sa.Column("last_activity", sa.DateTime(), nullable=False),
        sa.Column("ended", sa.DateTime(), nullable=True),
        sa.Column("steps", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("summary", sa.String(), nullable=False, server_default=""),
        sa.Column("config", sa.String(), nullable=False, server_default="{}"),
        sa.Column("state", sa.String(), nullable=False, server_default="{}"),
    )
    op.create_index("ix_session_game", "session", ["game"])
    op.create_index("ix_session_status", "session", ["status"])
    op.create_table(
        "event",
        sa.Column("id", sa.Integer(), primary_key=True),
        sa.Column("session_id", sa.Integer(), sa.ForeignKey("session.id"), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=True),
        sa.Column("phase", sa.String(), nullable=True),
        sa.Column("prompt", sa.String(), nullable=False),
        sa.Column("answer", sa.String(), nullable=False),
        sa.Column("source", sa.String(), nullable=True),
        sa.Column("digest", sa.String(), nullable=True),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("session_id", "seq", name="uq_event_session_seq"),
    )


def downgrade() -> None:
    op.drop_table("event")
    op.drop_index("ix_session_status", "session")
    op.drop_index("ix_session_game", "session")
    op.drop_table("session")
