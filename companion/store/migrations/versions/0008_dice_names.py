"""The dice a player names, and rolls marked as test rolls.

A player may name the dice they roll on the table ("red d6"), so the luck ledger tests each
die and not only each size: the session keeps the name in use (``session.die``) and each roll
typed from the table the name it was rolled with (``event.die``). A roll may be marked as a
test roll, which the ledger leaves out: ``roll_mark`` holds the marks, append-only like the
events (the newest row for a roll says whether it is one now). Sessions recorded before this
revision have no names and no marks.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # Plain ALTER TABLE ADD COLUMN, nullable, as 0007 (a batch operation would copy the tables,
    # which the events' foreign keys refuse in a database that holds games); a column or table
    # there already (a copy of this schema relabelled) is taken as it is.
    inspector = sa.inspect(op.get_bind())
    for table in ("session", "event"):
        if "die" not in {c["name"] for c in inspector.get_columns(table)}:
            op.add_column(table, sa.Column("die", sa.String(), nullable=True))
    if "roll_mark" not in inspector.get_table_names():
        op.create_table(
            "roll_mark",
            sa.Column("id", sa.Integer(), primary_key=True),
            sa.Column("session_id", sa.Integer(), sa.ForeignKey("session.id"), nullable=False),
            sa.Column("seq", sa.Integer(), nullable=False),
            sa.Column("test", sa.Boolean(), nullable=False),
            sa.Column("at", sa.DateTime(), nullable=False),
        )
        op.create_index("ix_roll_mark_session_id", "roll_mark", ["session_id"])


def downgrade() -> None:
    op.drop_index("ix_roll_mark_session_id", table_name="roll_mark")
    op.drop_table("roll_mark")
    for table in ("event", "session"):
        with op.batch_alter_table(table) as batch:
            batch.drop_column("die")
