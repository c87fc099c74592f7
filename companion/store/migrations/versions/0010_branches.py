"""Branches: a session that starts as another's log up to a step, and goes on as a new line of play.

A branch is an ordinary session; three columns say where it came from: ``parent_id`` (the
session it was branched from, in this database), ``branch_step`` (how many steps of its log the
branch took) and ``branch_of``, the same in words ("session 12 at step 40"), which an export
and an import keep as text, never as a link to a session of another database.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

COLUMNS = (("parent_id", sa.Integer()), ("branch_step", sa.Integer()), ("branch_of", sa.String()))


def upgrade() -> None:
    # Plain ALTER TABLE ADD COLUMN, nullable, as 0007 and 0008; a column there already is kept.
    present = {c["name"] for c in sa.inspect(op.get_bind()).get_columns("session")}
    for name, kind in COLUMNS:
        if name not in present:
            op.add_column("session", sa.Column(name, kind, nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("session") as batch:
        for name, _ in reversed(COLUMNS):
            batch.drop_column(name)
