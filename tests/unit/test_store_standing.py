"""The rule of which logged steps stand (companion/store/standing.py), read in Python and SQL."""

from __future__ import annotations

import json
import sqlite3

from hypothesis import given
from hypothesis import strategies as st

from companion.store.standing import ANSWER, REWIND, Standing, register


def test_an_answer_replaces_its_step_and_every_later_one() -> None:
    """'an answer at step s replaces whatever stood at s and after'."""
    standing: Standing[str] = Standing()
    for step, row in enumerate("abcd"):
        assert standing.add(step, ANSWER, row) == []
    assert standing.add(1, ANSWER, "B") == ["b", "c", "d"]
    assert standing.rows == ["a", "B"]


def test_a_rewind_withdraws_from_its_step_on_and_stands_nowhere() -> None:
    """'a rewind at step k withdraws every step from k on'."""
    standing: Standing[str] = Standing()
    for step, row in enumerate("abc"):
        standing.add(step, ANSWER, row)
    assert standing.add(2, REWIND, "undo") == ["c"]
    assert standing.rows == ["a", "b"]
    assert standing.add(2, REWIND, "undo again") == []
    assert standing.rows == ["a", "b"]


def _sql(rows: list[tuple[object, object, object]]) -> list[int]:
    con = sqlite3.connect(":memory:")
    register(con)
    con.execute("CREATE TABLE ev (seq, step, kind)")
    con.executemany("INSERT INTO ev VALUES (?, ?, ?)", rows)
    (out,) = con.execute("SELECT standing(seq, step, kind) FROM ev").fetchone()
    con.close()
    return [] if out is None else list(json.loads(out))  # no rows at all: SQL's NULL


def test_the_sql_aggregate_reads_rows_in_seq_order_whatever_order_it_is_given() -> None:
    rows: list[tuple[object, object, object]] = [
        (0, 0, "answer"),
        (1, 1, "answer"),
        (2, 1, "rewind"),
        (3, 1, "answer"),
    ]
    assert _sql(rows) == [0, 3]
    assert _sql(list(reversed(rows))) == [0, 3]


def test_a_row_no_one_can_read_stands_nowhere_and_withdraws_nothing() -> None:
    """A step that is text, negative or missing, or a kind of neither, is damage: the figures
    count what can be read, and no error escapes the aggregate (SQLite would fail the query)."""
    rows: list[tuple[object, object, object]] = [
        (0, 0, "answer"),
        (1, 1, "answer"),
        (2, "0", "answer"),
        (3, -1, "answer"),
        (4, None, "rewind"),
        (5, 0, "note"),
        ("6", 0, "rewind"),
    ]
    assert _sql(rows) == [0, 1]


EVENTS = st.lists(st.tuples(st.integers(0, 6), st.sampled_from([ANSWER, REWIND])), max_size=40)


@given(EVENTS)
def test_python_and_sql_agree_with_the_rule_stated_as_a_predicate(events: list[tuple[int, str]]) -> None:
    """The rule stated independently: an answer stands exactly when no later row of the log has
    a step at or below its own. (Steps as a store numbers them: never past the next one.)"""
    rows: list[tuple[int, int, str]] = []
    stood = 0  # how many steps stand, to number the next row as the driver would
    for seq, (step, kind) in enumerate(events):
        step = min(step, stood)
        rows.append((seq, step, kind))
        stood = step + (kind == ANSWER)
    predicate = [
        seq
        for seq, step, kind in rows
        if kind == ANSWER and all(later > step for _, later, _ in rows[seq + 1 :])
    ]
    standing: Standing[int] = Standing()
    for seq, step, kind in rows:
        standing.add(step, kind, seq)
    assert standing.rows == predicate
    assert _sql(list(rows)) == predicate
