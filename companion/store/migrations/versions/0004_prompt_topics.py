"""Every logged step gets a topic: the steps recorded before prompts carried one.

A data migration: each event row whose prompt has no ``topic`` is given the one
``companion.store.legacy.derive`` reads from its old wording (and the facts the statistics
read), marked ``legacy``. Rows whose prompt is not a JSON object Python can read (a damaged
row) are left as they are; the log's own checks name them. The schema does not change.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

from alembic import op

from companion.store.legacy import derive
from companion.store.migrations.rewrite import rewrite_prompts

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    rewrite_prompts(op.get_bind(), "json_type(e.prompt, '$.topic') IS NULL", derive)


def downgrade() -> None:
    # The topics stay: a schema of revision 0003 reads a prompt with a topic as one without.
    pass
