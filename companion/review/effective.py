"""The effective steps of the logs, in SQL: the rows that ``Store.log`` keeps.

The event table is append-only: an answer at step s replaces whatever stood at
s and after, and a rewind at step k withdraws every step from k on. So an answer
row stands exactly when no later row of its session (higher ``seq``) has a
``step`` at or below its own. ``effective_cte`` computes that with one window (the
smallest step of the rows that follow, per session), which reads each session's
rows once in ``seq`` order instead of comparing every pair, and only for the
sessions that need it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Scope:
    """Which sessions a figure covers: all, one game's, or one session."""

    game: str | None = None
    session_id: int | None = None

    def where(self, alias: str = "s") -> str:
        """A SQL condition on the session table (aliased ``alias``); binds :game and :session."""
        parts = ["1 = 1"]
        if self.game is not None:
            parts.append(f"{alias}.game = :game")
        if self.session_id is not None:
            parts.append(f"{alias}.id = :session")
        return " AND ".join(parts)

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


def effective_cte(scope: Scope) -> str:
    """``WITH`` clauses defining ``effective``: the effective answer rows of the sessions in
    ``scope``, with their session's game and config (columns of the event table plus
    ``game`` and ``config``). Append ``SELECT ... FROM effective ...``.

    A session whose rows are all answers numbered ``step == seq`` (never undone nor
    corrected: most of them) has every row effective, since each later row has a higher
    step; only the others go through the window, which costs a sort of their rows.
    """
    return f"""
WITH folded AS (
    SELECT e.session_id
    FROM event AS e JOIN session AS s ON s.id = e.session_id
    WHERE {scope.where("s")}
    GROUP BY e.session_id
    HAVING SUM(e.kind != 'answer' OR e.step != e.seq) > 0
),
marked AS (
    SELECT e.session_id, e.seq, e.step, e.kind,
           MIN(e.step) OVER (
               PARTITION BY e.session_id ORDER BY e.seq DESC
               ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING
           ) AS later_min
    FROM event AS e
    WHERE e.session_id IN folded
),
effective AS (
    SELECT {_COLUMNS}
    FROM event AS e JOIN session AS s ON s.id = e.session_id
    WHERE {scope.where("s")} AND e.session_id NOT IN folded
    UNION ALL
    SELECT {_COLUMNS}
    FROM marked AS m
    JOIN event AS e ON e.session_id = m.session_id AND e.seq = m.seq
    JOIN session AS s ON s.id = e.session_id
    WHERE m.kind = 'answer' AND (m.later_min IS NULL OR m.later_min > m.step)
)
"""


_COLUMNS = (
    "e.session_id, e.seq, e.step, e.kind, e.turn, e.phase, e.prompt, e.answer, "
    "e.source, e.digest, e.at, s.game, s.config"
)
