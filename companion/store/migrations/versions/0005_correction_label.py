"""A correction by hand logged by an earlier build is given without the label its text carried.

A data migration: the logged text of a correction by hand was "Correction by hand: Tortosa is
now Anna's"; now it is the change alone, and the reports, logs and messages add the
label, so an older row showed it twice. Each event row whose prompt is a correction whose text
begins with the label gets it without (``companion.store.legacy.unlabelled``, the one place
that reads old wording). Nothing a replay compares changes: a correction is replayed by its
change, not its text. Rows whose prompt is not a JSON object Python can read (a damaged row)
are left as they are. The schema does not change.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

from companion.store.legacy import unlabelled

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

#: Rows read and written at a time: a database of many long games is not held in memory.
_BATCH = 2000


def upgrade() -> None:
    con = op.get_bind()
    select = sa.text(
        """
SELECT e.id, e.prompt FROM event AS e
WHERE e.id > :after AND e.prompt IS NOT NULL AND json_valid(e.prompt)
  AND json_type(e.prompt) = 'object' AND json_extract(e.prompt, '$.kind') = 'edit'
ORDER BY e.id LIMIT :n
"""
    )
    update = sa.text("UPDATE event SET prompt = :prompt WHERE id = :id")
    after = 0
    while rows := con.execute(select, {"after": after, "n": _BATCH}).all():
        changes = []
        for row_id, text in rows:
            try:
                prompt = json.loads(text)
            except (ValueError, RecursionError):
                # JSON that SQLite's json_valid takes and Python's reader refuses (a number of
                # thousands of digits, nesting past the recursion limit): a damaged row, left as
                # it is for the log's own checks to name, not a database that cannot be opened.
                continue
            plain = unlabelled(prompt)
            if plain is not prompt:
                changes.append({"id": row_id, "prompt": json.dumps(plain, ensure_ascii=False)})
        if changes:
            con.execute(update, changes)
        after = rows[-1][0]


def downgrade() -> None:
    # The texts stay without the label: a schema of revision 0004 shows them as this build logs them.
    pass
