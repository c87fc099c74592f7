"""Which steps of a log stand: the one rule, read by the store and by SQL.

The event table is append-only. An answer at step s replaces whatever stood at s
and after; a rewind at step k (an undo, a correction) withdraws every step from k
on. ``Standing`` is that rule, written once: it reads a session's rows in ``seq``
order and keeps the answers that stand. ``Store.log`` reads a session through it
(and keeps what each row withdrew, for the driver's redo); the statistics and the
luck ledger read it in SQL as the aggregate ``standing(seq, step, kind)``, which
``register`` adds to every connection the store opens: the same class, so the two
cannot come to disagree about which steps count.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Generic, TypeVar

T = TypeVar("T")

#: The kinds of event row: an answered prompt, or a withdrawal of every step from its own.
ANSWER = "answer"
REWIND = "rewind"
KINDS = (ANSWER, REWIND)


class Standing(Generic[T]):
    """The rows that stand, as a session's rows are read in ``seq`` order."""

    def __init__(self) -> None:
        self.rows: list[T] = []  # rows[i] is the row standing at step i

    def add(self, step: int, kind: str, row: T) -> list[T]:
        """Read the next row: it withdraws every row standing at ``step`` or after, and stands
        itself if it is an answer. Returns the rows it withdrew, in step order."""
        withdrawn = self.rows[step:]
        del self.rows[step:]
        if kind == ANSWER:
            self.rows.append(row)
        return withdrawn


class _StandingSeqs:
    """The SQL aggregate ``standing(seq, step, kind)``: the ``seq`` of each row of a session
    that stands, as a JSON array in step order (read back with ``json_each``).

    SQLite gives an aggregate its rows in no promised order, so they are sorted by ``seq``
    here. A row the store could not read either (a step that is not a whole number at or
    above 0, a kind of neither) stands nowhere and withdraws nothing: a figure counts what
    can be read, and ``Store.log`` refuses the session in one sentence.
    """

    def __init__(self) -> None:
        self.rows: list[tuple[int, int, str]] = []

    def step(self, seq: object, step: object, kind: object) -> None:
        if type(seq) is int and type(step) is int and step >= 0 and kind in KINDS:
            self.rows.append((seq, step, str(kind)))

    def finalize(self) -> str:
        standing: Standing[int] = Standing()
        for seq, step, kind in sorted(self.rows):
            standing.add(step, kind, seq)
        return json.dumps(standing.rows)


def register(con: sqlite3.Connection) -> None:
    """Add the aggregate ``standing`` to a connection (the store calls it on each it opens)."""
    con.create_aggregate("standing", 3, _StandingSeqs)  # type: ignore[arg-type]
