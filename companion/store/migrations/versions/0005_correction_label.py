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

from typing import Any

from alembic import op

from companion.store.legacy import unlabelled
from companion.store.migrations.rewrite import rewrite_prompts

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def _unlabelled(_game: str, prompt: dict[str, Any]) -> dict[str, Any]:
    return unlabelled(prompt)


def upgrade() -> None:
    rewrite_prompts(op.get_bind(), "json_extract(e.prompt, '$.kind') = 'edit'", _unlabelled)


def downgrade() -> None:
    # The texts stay without the label: a schema of revision 0004 shows them as this build logs them.
    pass
