"""The Terra de Castells battle results logged before topics get theirs: the statistics count them.

A data migration: migration 0004 gave each step logged before prompts carried topics the one
its wording said, and ``<game>.legacy.<kind>`` where it found none. The statistics of Castells
battles now count the ``castells.battle.result`` steps (their kind and result) instead of the
lines of prose in a session's state, so a result told before topics is given that topic and
those facts, read from its wording (``companion.store.legacy.derive``, the one place that reads
old wording). Every step still marked ``<game>.legacy.<kind>`` is looked at again; those the
derivation finds nothing more for are left as they are, as are damaged rows. The schema does
not change.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-07
"""

from __future__ import annotations

from alembic import op

from companion.store.legacy import derive
from companion.store.migrations.rewrite import rewrite_prompts

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    rewrite_prompts(
        op.get_bind(),
        "json_extract(e.prompt, '$.legacy') = 1 AND json_extract(e.prompt, '$.topic') LIKE '%.legacy.%'",
        derive,
    )


def downgrade() -> None:
    # The topics stay: a schema of revision 0005 reads a battle's result with its topic as any step.
    pass
