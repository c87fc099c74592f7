"""The loop the data migrations share: read the event rows whose prompt a migration may change,
a batch at a time, and write back the ones its function changes.

A row whose prompt is JSON that SQLite's ``json_valid`` takes and Python's reader refuses (a
number of thousands of digits, nesting past the recursion limit) is a damaged row: it is left
as it is, for the log's own checks to name, and does not stop the database from opening.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa

#: Rows read and written at a time: a database of many long games is not held in memory.
BATCH = 2000

#: A migration's change: (the session's game, the prompt's JSON object) -> the prompt to store,
#: or the very object it was given, to leave the row as it is.
Change = Callable[[str, dict[str, Any]], dict[str, Any]]


def rewrite_prompts(con: sa.Connection, where: str, change: Change) -> None:
    """Apply ``change`` to the prompt of every event row that is a JSON object and meets
    ``where`` (SQL over ``e``, the event row; SQLite's JSON functions may be used)."""
    select = sa.text(
        f"""
SELECT e.id, s.game, e.prompt FROM event AS e JOIN session AS s ON s.id = e.session_id
WHERE e.id > :after AND e.prompt IS NOT NULL AND json_valid(e.prompt)
  AND json_type(e.prompt) = 'object' AND ({where})
ORDER BY e.id LIMIT :n
"""
    )
    update = sa.text("UPDATE event SET prompt = :prompt WHERE id = :id")
    after = 0
    while rows := con.execute(select, {"after": after, "n": BATCH}).all():
        changes = []
        for row_id, game, text in rows:
            try:
                prompt = json.loads(text)
            except (ValueError, RecursionError):
                continue  # a damaged row (above)
            changed = change(str(game), prompt)
            if changed is not prompt:
                changes.append({"id": row_id, "prompt": json.dumps(changed, ensure_ascii=False)})
        if changes:
            con.execute(update, changes)
        after = rows[-1][0]
