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

import json

import sqlalchemy as sa
from alembic import op

from companion.store.legacy import derive

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

#: Rows read and written at a time: a database of many long games is not held in memory.
_BATCH = 2000


def upgrade() -> None:
    con = op.get_bind()
    select = sa.text(
        """
SELECT e.id, s.game, e.prompt FROM event AS e JOIN session AS s ON s.id = e.session_id
WHERE e.id > :after AND e.prompt IS NOT NULL AND json_valid(e.prompt)
  AND json_type(e.prompt) = 'object' AND json_type(e.prompt, '$.topic') IS NULL
ORDER BY e.id LIMIT :n
"""
    )
    update = sa.text("UPDATE event SET prompt = :prompt WHERE id = :id")
    after = 0
    while rows := con.execute(select, {"after": after, "n": _BATCH}).all():
        changes = []
        for row_id, game, text in rows:
            try:
                prompt = json.loads(text)
            except (ValueError, RecursionError):
                # JSON that SQLite's json_valid takes and Python's reader refuses (a number of
                # thousands of digits, nesting past the recursion limit): a damaged row, left as
                # it is for the log's own checks to name, not a database that cannot be opened.
                continue
            derived = derive(str(game), prompt)
            if derived is not prompt:
                changes.append({"id": row_id, "prompt": json.dumps(derived, ensure_ascii=False)})
        if changes:
            con.execute(update, changes)
        after = rows[-1][0]


def downgrade() -> None:
    # The topics stay: a schema of revision 0003 reads a prompt with a topic as one without.
    pass
