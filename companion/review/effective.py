"""The effective steps of the logs, in SQL: the rows that ``Store.log`` keeps.

The event table is append-only: an answer at step s replaces whatever stood at
s and after, and a rewind at step k withdraws every step from k on. That rule is
the store's (``companion.store.standing``), read here through the SQL aggregate
the store registers on its connections; ``effective_cte`` also says which
sessions need it, the others standing whole. Which sessions a figure covers is a
``Scope``, and a session whose rows cannot be read is left out by name.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, TypeVar

from sqlalchemy import text

from companion.errors import DamagedRow

if TYPE_CHECKING:
    from companion.store.db import Store

#: The most faces of any die a game rolls (the dice tray's d100): a logged roll of a larger
#: die is damage, and counting its faces would take the memory of a face per side.
MOST_SIDES = 100

T = TypeVar("T")


@dataclass(frozen=True)
class Scope:
    """Which sessions a figure covers: all, one game's, or one session."""

    game: str | None = None
    session_id: int | None = None
    #: Sessions left out: their rows cannot be read (``readable``).
    skip: frozenset[int] = field(default=frozenset())

    def where(self, alias: str = "s") -> str:
        """A SQL condition on the session table (aliased ``alias``); binds :game and :session."""
        parts = ["1 = 1"]
        if self.game is not None:
            parts.append(f"{alias}.game = :game")
        if self.session_id is not None:
            parts.append(f"{alias}.id = :session")
        parts.append(self.kept(f"{alias}.id"))
        return " AND ".join(parts)

    def kept(self, column: str) -> str:
        """A SQL condition: ``column`` (a session id) is not one ``skip`` leaves out. On the
        event table's own column too: SQLite tests a condition in the loop over the table it
        names, before a JSON function reads the rows of a session left out."""
        if not self.skip:
            return "1 = 1"
        # Whole numbers the store gave: written into the SQL, as many as there are.
        return f"{column} NOT IN ({', '.join(str(int(i)) for i in sorted(self.skip))})"

    def params(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.game is not None:
            out["game"] = self.game
        if self.session_id is not None:
            out["session"] = self.session_id
        return out

    def describe(self) -> str:
        if self.session_id is not None:
            return f"session {self.session_id}"
        if self.game is not None:
            return f"every {self.game} session"
        return "every session"


def counted(store: Store, scope: Scope, work: Callable[[Scope, tuple[str, ...]], T]) -> T:
    """``work(scope, notes)``: the figures of ``scope``; where a row of it cannot be read, the
    figures of the sessions that can, with a sentence naming each left out (``readable``).
    The rows are looked at only when the figures fail: a database of a million steps is read
    once, as it was before sessions could be left out (a look first cost stats 4x, luck 2x)."""
    try:
        return work(scope, ())
    except DamagedRow:
        kept, notes = readable(store, scope)
        return work(kept, notes)


def readable(store: Store, scope: Scope) -> tuple[Scope, tuple[str, ...]]:
    """``scope`` without the sessions whose rows the figures cannot read, and a sentence naming
    each: a question, an answer or a state that is not JSON (SQLite fails a whole query on one
    such value, and calls it malformed), a roll of a die no game rolls. Edited by hand or
    brought by another program: the other sessions are counted, never held up by one."""
    from companion.store.preflight import not_json

    where = scope.where("s")
    sql = f"""
SELECT e.session_id, MIN(e.step) + 1, 'log' FROM event AS e JOIN session AS s ON s.id = e.session_id
WHERE {where} AND ({not_json("e.prompt")} OR {not_json("e.answer", nullable=True)})
GROUP BY e.session_id
UNION ALL
SELECT e.session_id, MIN(e.step) + 1, 'die' FROM event AS e JOIN session AS s ON s.id = e.session_id
WHERE {where} AND NOT {not_json("e.prompt")}
  AND json_extract(e.prompt, '$.kind') = 'roll'
  AND NOT (json_type(e.prompt, '$.sides') = 'integer' AND json_extract(e.prompt, '$.sides') BETWEEN 2 AND {MOST_SIDES})
GROUP BY e.session_id
UNION ALL
SELECT s.id, NULL, 'state' FROM session AS s
WHERE {where} AND {not_json("s.state", nullable=True)}
"""
    found: dict[int, str] = {}
    with store.reading() as con:
        rows = con.execute(text(sql), scope.params()).all()
    for sid, step, what in sorted(rows, key=lambda r: (r[0], r[2] != "log")):
        if sid in found:
            continue
        found[int(sid)] = (
            f"Session {sid} is left out: its log is damaged at step {step} (it cannot be read)."
            if what == "log"
            else f"Session {sid} is left out: step {step} rolls a die no game has."
            if what == "die"
            else f"Session {sid} is left out: its saved state is damaged (it cannot be read)."
        )
    if not found:
        return scope, ()
    return replace(scope, skip=scope.skip | frozenset(found)), tuple(found.values())


def effective_cte(scope: Scope) -> str:
    """``WITH`` clauses defining ``effective``: the effective answer rows of the sessions in
    ``scope``, with their session's game and config (columns of the event table plus
    ``game`` and ``config``). Append ``SELECT ... FROM effective ...``.

    Which rows stand is the store's one rule, the aggregate ``standing`` (store/standing.py).
    A session whose rows are all answers numbered ``step == seq`` (never undone nor
    corrected: most of them) has every row standing, since each later row has a higher
    step; only the others are read through the aggregate, one call a row. The CROSS JOINs
    fix the order SQLite joins in: left to choose, it read the whole array of a session for
    each of its rows (a minute on a million rows); in this order, 4 s where the window that
    wrote the rule a second time in SQL took 5-7 s.
    """
    return f"""
WITH folded AS (
    SELECT e.session_id
    FROM event AS e JOIN session AS s ON s.id = e.session_id
    WHERE {scope.where("s")}
    GROUP BY e.session_id
    HAVING SUM(e.kind != 'answer' OR e.step != e.seq) > 0
),
stood AS (
    SELECT e.session_id, standing(e.seq, e.step, e.kind) AS seqs
    FROM event AS e
    WHERE e.session_id IN folded
    GROUP BY e.session_id
),
effective AS (
    SELECT {_COLUMNS}
    FROM event AS e JOIN session AS s ON s.id = e.session_id
    WHERE {scope.where("s")} AND {scope.kept("e.session_id")} AND e.session_id NOT IN folded
    UNION ALL
    SELECT {_COLUMNS}
    FROM stood AS k CROSS JOIN json_each(k.seqs) AS j
    CROSS JOIN event AS e ON e.session_id = k.session_id AND e.seq = j.value
    JOIN session AS s ON s.id = e.session_id
    WHERE {scope.kept("e.session_id")}
)
"""


_COLUMNS = (
    "e.session_id, e.seq, e.step, e.kind, e.turn, e.phase, e.prompt, e.answer, "
    "e.source, e.digest, e.at, e.die, s.game, s.config"
)
