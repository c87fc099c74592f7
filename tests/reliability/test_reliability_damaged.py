"""Damaged rows in our own database: each damaged session is named in one sentence, and the
rest of the history still lists and opens (issue "Nothing lost, nobody let in", item 8)."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from companion.cli import main
from companion.driver import Driver
from companion.errors import EXIT_OK, EXIT_USAGE
from companion.games import load
from companion.sessions import resume_session
from companion.store.db import Store

#: (column, damaged value, the words the sentence names it by)
DAMAGE = [
    ("config", "not json", "settings"),
    ("config", "[1, 2]", "settings"),
    ("started", "garbage", "start time"),
    ("last_activity", "", "last activity"),
    ("ended", "2026-13-45", "end time"),
    ("seed", "forty-one", "seed"),
    ("steps", "many", "step count"),
    ("steps", -4, "step count"),
    ("summary", b"\x00\xff", "summary"),
    ("status", "exploded", "status"),
    ("rules_version", 0, "rules version"),
    # Issue #33 item 4: JSON nested thousands deep, a start in year 1 (no local time to show).
    ("config", "[" * 5000 + "]" * 5000, "settings"),
    ("config", '{"a":' * 3000 + "1" + "}" * 3000, "settings"),
    ("started", "0001-01-01 00:00:00", "start time"),
]


def two_sessions(db: Path) -> tuple[int, int]:
    store = Store(str(db))
    try:
        ids = []
        for seed in (3, 4):
            sid = store.create_session("dice", seed, {})
            driver = Driver(load("dice"), seed, recorder=store.recorder(sid))
            driver.type("2d6 Attack")
            driver.type("3 4")
            ids.append(sid)
    finally:
        store.close()
    return ids[0], ids[1]


def write(db: Path, sql: str, params: tuple[object, ...]) -> None:
    """Change the database behind the app's back, as a crash, a disk or a person might."""
    con = sqlite3.connect(db)
    con.execute(sql, params)
    con.commit()
    con.close()


def damage(db: Path, sid: int, column: str, value: object) -> None:
    write(db, f"UPDATE session SET {column} = ? WHERE id = ?", (value, sid))


@pytest.mark.parametrize(("column", "value", "words"), DAMAGE)
def test_a_damaged_session_is_named_and_the_others_still_list_and_open(
    column: str,
    value: object,
    words: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    figures: Counter[str],
) -> None:
    db = tmp_path / "c.db"
    bad, good = two_sessions(db)
    damage(db, bad, column, value)
    sentence = f"Session {bad} is damaged (its {words} cannot be read)"
    assert main(["--db", str(db), "history"]) == EXIT_OK
    out = capsys.readouterr().out
    lines = {line.split()[0]: line for line in out.splitlines()[1:]}
    assert set(lines) == {str(bad), str(good)}
    assert f"damaged: {words}" in lines[str(bad)] and "1 roll" in lines[str(good)]
    assert main(["--db", str(db), "history", "--json"]) == EXIT_OK
    listed = {s["id"]: s for s in json.loads(capsys.readouterr().out)}
    assert listed[bad]["damaged"].startswith(sentence) and "damaged" not in listed[good]
    for command in (["show", str(bad)], ["replay", str(bad)], ["export", str(bad)]):
        assert main(["--db", str(db), *command]) == EXIT_USAGE, command
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err and sentence in err, (command, err)
    for command in (["show", str(good)], ["replay", str(good)], ["export", str(good)]):
        assert main(["--db", str(db), *command]) == EXIT_OK, command
    capsys.readouterr()
    figures["damaged_rows"] += 1


@pytest.mark.parametrize("state", ["{not json", '{"a":' * 3000 + "1" + "}" * 3000], ids=["not JSON", "deep"])
def test_a_damaged_stored_state_is_one_sentence(
    state: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "c.db"
    bad, _good = two_sessions(db)
    damage(db, bad, "state", state)
    for command in (["replay", str(bad)], ["export", str(bad)]):
        assert main(["--db", str(db), *command]) == EXIT_USAGE
        err = capsys.readouterr().err
        assert err == f"companion: Session {bad} is damaged (its stored state cannot be read).\n"


@pytest.mark.slow
async def test_history_lists_a_damaged_session_and_opening_it_is_one_sentence(
    tmp_path: Path, clock: object
) -> None:
    from pilot_helpers import wait_until
    from textual.widgets import DataTable

    from screens.app import CompanionApp
    from screens.history import HistoryScreen

    db = tmp_path / "c.db"
    bad, good = two_sessions(db)
    damage(db, bad, "started", "garbage")
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    shown: list[str] = []
    notify = app.notify

    def record(message: str, **kwargs: object) -> None:
        shown.append(message)
        notify(message, **kwargs)  # type: ignore[arg-type]

    app.notify = record  # type: ignore[method-assign]
    async with app.run_test(size=(120, 30)) as pilot:
        await wait_until(pilot, lambda: app.store_ready)
        await pilot.press("h")
        await wait_until(pilot, lambda: isinstance(app.screen, HistoryScreen))
        table = app.screen.query_one(DataTable)
        await wait_until(pilot, lambda: table.row_count == 2)
        rows = [" ".join(str(c) for c in table.get_row_at(i)) for i in range(table.row_count)]
        assert any("damaged: start time" in r for r in rows) and any("1 roll" in r for r in rows)
        app.open_session(bad)
        await wait_until(pilot, lambda: any(f"Session {bad} is damaged" in m for m in shown))
        assert isinstance(app.screen, HistoryScreen)  # still there, still listing
        app.open_session(good)
        await wait_until(pilot, lambda: type(app.screen).__name__ == "DiceTrayScreen")


def test_a_log_with_a_missing_step_is_damaged_at_that_step(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], figures: Counter[str]
) -> None:
    db = tmp_path / "c.db"
    bad, good = two_sessions(db)
    write(db, "DELETE FROM event WHERE session_id = ? AND step = 0", (bad,))
    for command in (["show", str(bad)], ["replay", str(bad)], ["export", str(bad)]):
        assert main(["--db", str(db), *command]) == EXIT_USAGE, command
        err = capsys.readouterr().err
        assert err == (
            f"companion: Session {bad}'s log is damaged at step 1: the next logged step is step 2.\n"
        ), err
    assert main(["--db", str(db), "show", str(good)]) == EXIT_OK
    capsys.readouterr()
    # history says so too, without reading every log: the event index's shape per session
    assert main(["--db", str(db), "history", "--json"]) == EXIT_OK
    listed = {s["id"]: s for s in json.loads(capsys.readouterr().out)}
    assert listed[bad]["summary"] == "damaged: log" and "damaged" not in listed[good]
    assert (
        listed[bad]["damaged"]
        == f"Session {bad}'s log is damaged (a step is missing); the other sessions are not."
    )
    figures["damaged_rows"] += 1


def test_resuming_a_log_that_no_longer_replays_names_the_step(tmp_path: Path, figures: Counter[str]) -> None:
    """A logged question changed in the database, under the rules it was recorded with:
    damage, named at its step; nothing is changed."""
    from companion.errors import StoreError

    db = tmp_path / "c.db"
    bad, _good = two_sessions(db)
    write(
        db,
        "UPDATE event SET prompt = ? WHERE session_id = ? AND step = 1",
        (json.dumps({"kind": "roll", "n": 3, "sides": 6, "why": "Attack"}), bad),
    )
    store = Store(str(db))
    try:
        with pytest.raises(StoreError) as err:
            resume_session(store, bad, load("dice"))
        assert str(err.value).startswith(f"Session {bad}'s log is damaged at step 2 (")
        assert "\n" not in str(err.value)
    finally:
        store.close()
    figures["damaged_rows"] += 1


def test_the_luck_ledger_names_a_damaged_roll_and_counts_the_other_sessions(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], figures: Counter[str]
) -> None:
    """A roll whose answer is not JSON failed SQLite's json_each, which read as 'the database
    is corrupt'; then it held up the whole ledger. Issue #33 item 1: "a session they cannot read
    is named and skipped, never fatal": the ledger names it and counts the others' dice."""
    db = tmp_path / "c.db"
    bad, _good = two_sessions(db)
    write(db, "UPDATE event SET answer = '[9' WHERE session_id = ? AND step = 1", (bad,))
    assert main(["--db", str(db), "luck"]) == EXIT_OK
    out, err = capsys.readouterr()
    assert err == "" and "corrupt" not in out
    assert f"Note: Session {bad} is left out: its log is damaged at step 2 (it cannot be read)." in out
    assert "2 dice" in out  # the other session's 2d6
    figures["damaged_rows"] += 1


@pytest.mark.parametrize(
    "prompt",
    ["{not json", '{"kind": "roll", "n": ' + "9" * 5000 + "}", "[" * 5000 + "]" * 5000],
    ids=["not JSON", "a number of 5000 digits", "nested 5000 deep"],
)
def test_an_event_python_cannot_read_is_one_sentence(
    prompt: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], figures: Counter[str]
) -> None:
    """An event's JSON that Python's reader refuses, whether or not SQLite's json_valid takes it
    (a whole number of more than 4300 digits, nesting past the recursion limit): the session is
    named in one sentence, and the other still opens."""
    db = tmp_path / "c.db"
    bad, good = two_sessions(db)
    write(db, "UPDATE event SET prompt = ? WHERE session_id = ? AND step = 0", (prompt, bad))
    for command in (["show", str(bad)], ["replay", str(bad)], ["export", str(bad)]):
        assert main(["--db", str(db), *command]) == EXIT_USAGE, command
        err = capsys.readouterr().err
        assert err == (
            f"companion: Session {bad} has a damaged log entry (an event's question, answer or time "
            "cannot be read).\n"
        ), err
    assert main(["--db", str(db), "show", str(good)]) == EXIT_OK
    capsys.readouterr()
    figures["damaged_rows"] += 1


@pytest.mark.parametrize(
    ("column", "value", "why"),
    [
        ("prompt", "5", "an event's question is not one"),
        ("prompt", "[1, 2]", "an event's question is not one"),
        ("at", "", "an event's question, answer or time cannot be read"),
        ("at", "yesterday", "an event's question, answer or time cannot be read"),
        ("at", "0001-01-01 00:00:00", "an event's question, answer or time cannot be read"),
    ],
)
def test_an_event_row_damaged_by_hand_is_one_sentence(
    column: str,
    value: str,
    why: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    figures: Counter[str],
) -> None:
    """Issue #33 item 4: "an event time of '' or 'yesterday' ... a prompt that is a number or a
    list — today give tracebacks in `history`, `show`, `replay`, `export`". The session is named
    in one sentence by each, History still lists both, and the other still opens."""
    db = tmp_path / "c.db"
    bad, good = two_sessions(db)
    write(db, f"UPDATE event SET {column} = ? WHERE session_id = ? AND step = 1", (value, bad))
    assert main(["--db", str(db), "history"]) == EXIT_OK
    assert {line.split()[0] for line in capsys.readouterr().out.splitlines()[1:]} == {str(bad), str(good)}
    for command in (["show", str(bad)], ["replay", str(bad)], ["export", str(bad)]):
        assert main(["--db", str(db), *command]) == EXIT_USAGE, command
        err = capsys.readouterr().err
        assert err == f"companion: Session {bad} has a damaged log entry ({why}).\n", err
    for command in (["show", str(good)], ["replay", str(good)], ["export", str(good)]):
        assert main(["--db", str(db), *command]) == EXIT_OK, command
    capsys.readouterr()
    figures["damaged_rows"] += 1
