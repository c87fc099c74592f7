"""Notes and bookmarks on the steps of a session (#37, items 4-5): the text checked
(companion/notes.py), kept by the store (the newest note of a step stands, an empty one takes
it off), found by History's search, carried by every export and an import, and written from the
command line; bad input is one sentence and changes nothing."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

import pytest
from sentences import assert_one_sentence
from test_review_helpers import new_driver, play_reconquista

from companion.cli import main
from companion.errors import EXIT_OK, EXIT_USAGE, StoreError
from companion.notes import NOTE_MAX, first_line, is_note, note_text
from companion.review.bbcode import bbcode_report
from companion.review.exchange import (
    ImportRefused,
    export_data,
    export_json,
    export_markdown,
    import_session,
)
from companion.store.db import Store


def tray(store: Store, rolls: int = 2) -> int:
    sid, driver = new_driver(store, "dice", 3)
    for _ in range(rolls):
        driver.type("1d6")
        driver.roll()
    return sid


# -- the text ----------------------------------------------------------------------------------


def test_a_note_is_kept_as_typed_but_the_spaces_around_its_lines() -> None:
    assert note_text("  red die fell off  ") == "red die fell off"
    assert note_text("\n\nfirst\n\tsecond  \n\n") == "first\nsecond"
    assert note_text("[b]bold[/b] <i>") == "[b]bold[/b] <i>"  # text, never markup: kept as written
    assert is_note("a") and not is_note(" a") and not is_note("") and not is_note(None)
    assert first_line("one\ntwo") == "one…" and first_line("x" * 80, 10) == "x" * 9 + "…"


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("", "cannot be empty"),
        (" \n \t ", "cannot be empty"),
        ("x" * 10_000, f"at most {NOTE_MAX:,} characters; that one has 10,000"),
        ("\n".join("line" for _ in range(20)), "at most 12 lines; that one has 20"),
        ("bell\x07", "control characters"),
        ("escape \x1b[2J", "control characters"),
    ],
)
def test_a_bad_note_is_assert_one_sentence(typed: str, said: str) -> None:
    with pytest.raises(ValueError) as info:
        note_text(typed)
    assert_one_sentence(str(info.value))
    assert said in str(info.value)


# -- the store -----------------------------------------------------------------------------------


def test_the_newest_note_of_a_step_stands_and_is_found_by_search(store: Store) -> None:
    sid = tray(store)
    other = tray(store)
    store.set_note(sid, 1, "the red die fell off the table")
    store.set_note(sid, 3, "a good roll")
    store.set_note(sid, 1, "the red die rolled off the table")
    assert [(n.step, n.text) for n in store.notes(sid)] == [
        (1, "the red die rolled off the table"),
        (3, "a good roll"),
    ]
    assert [s.id for s in store.sessions(search="ROLLED OFF")] == [sid]
    assert store.sessions(search="fell off") == []  # what was replaced is no longer found
    store.remove_note(sid, 1)
    assert [n.step for n in store.notes(sid)] == [3] and store.sessions(search="rolled off") == []
    assert store.notes(other) == []
    # A note looking like a SQL pattern matches as text.
    store.set_note(other, 0, "100% sure_")
    assert [s.id for s in store.sessions(search="0% sure_")] == [other]
    assert store.sessions(search="1_0") == []


def test_bad_notes_change_nothing(store: Store) -> None:
    sid = tray(store)
    for bad in ("", "x" * 10_000):
        with pytest.raises(ValueError):
            store.set_note(sid, 0, bad)
    for step in (-1, 4, 99):
        with pytest.raises(StoreError) as info:
            store.set_note(sid, step, "fine")
        assert_one_sentence(str(info.value))
    with pytest.raises(StoreError) as info2:
        store.remove_note(sid, 0)
    assert_one_sentence(str(info2.value))
    empty, _driver = new_driver(store, "dice", 4)
    with pytest.raises(StoreError):
        store.set_note(empty, 0, "nothing happened yet")
    with sqlite3.connect(store.path) as con:
        assert con.execute("SELECT COUNT(*) FROM note").fetchone() == (0,)


def test_a_note_edited_by_hand_into_no_note_is_shown_as_none(store: Store) -> None:
    sid = tray(store)
    store.set_note(sid, 0, "fine")
    with sqlite3.connect(store.path) as con:
        con.execute("UPDATE note SET text = ?", ("\x1b]52;c;evil\x07",))
    assert store.notes(sid) == []


def test_deleting_a_session_deletes_its_notes(store: Store) -> None:
    sid = tray(store)
    store.set_note(sid, 0, "fine")
    store.abandon(sid)
    store.delete_session(sid)
    with sqlite3.connect(store.path) as con:
        assert con.execute("SELECT COUNT(*) FROM note").fetchone() == (0,)


# -- the exports ------------------------------------------------------------------------------


def test_notes_go_through_every_export_and_an_import(store: Store) -> None:
    answered = iter(range(60))
    sid, _driver = play_reconquista(store, 3, until=lambda _prompt: next(answered, None) is None)
    store.set_note(sid, 4, "Granada held *again* [b]x[/b]\nsecond line")
    store.set_note(sid, 10, "turning point")
    data = export_data(store, sid)
    assert [(i, s["note"]) for i, s in enumerate(data["steps"]) if "note" in s] == [
        (4, "Granada held *again* [b]x[/b]\nsecond line"),
        (10, "turning point"),
    ]
    md = export_markdown(store, sid)
    assert "  - *Note:* Granada held \\*again\\* \\[b\\]x\\[/b\\] / second line" in md
    bb = bbcode_report(data)
    assert "[i]Note: Granada held *again* [\u200bb]x[\u200b/b] / second line[/i]" in bb
    fresh = Store(":memory:")
    done = import_session(fresh, export_json(store, sid), "game.json")
    assert [(n.step, n.text) for n in fresh.notes(done.session_id)] == [
        (n.step, n.text) for n in store.notes(sid)
    ]


@pytest.mark.parametrize(
    ("note", "said"), [("", "cannot be empty"), ("x" * 10_000, "at most"), (5, "string")]
)
def test_a_bad_note_in_an_import_is_assert_one_sentence(store: Store, note: Any, said: str) -> None:
    sid = tray(store)
    doc = export_data(store, sid)
    doc["steps"][1]["note"] = note
    fresh = Store(":memory:")
    with pytest.raises(ImportRefused) as info:
        import_session(fresh, json.dumps(doc), "bad.json")
    assert_one_sentence(str(info.value))
    assert said in str(info.value) and fresh.sessions() == []


# -- the command line ----------------------------------------------------------------------------


def test_companion_note_writes_on_the_last_step_or_the_one_named(
    db: str, store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    sid = tray(store)
    assert main(["note", "--db", db, str(sid), "the last roll"]) == EXIT_OK
    assert main(["note", "--db", db, str(sid), "the first", "--step", "1"]) == EXIT_OK
    capsys.readouterr()
    assert [(n.step, n.text) for n in store.notes(sid)] == [(0, "the first"), (3, "the last roll")]
    assert main(["show", "--db", db, str(sid), "--json"]) == EXIT_OK
    shown = json.loads(capsys.readouterr().out)
    assert [(n["step"], n["text"]) for n in shown["notes"]] == [(1, "the first"), (4, "the last roll")]
    assert main(["show", "--db", db, str(sid)]) == EXIT_OK
    assert "✎ the last roll" in capsys.readouterr().out
    for args in (
        [str(sid), ""],
        [str(sid), "x" * 10_000],
        [str(sid), "x", "--step", "9"],
        [str(sid)],
        [str(sid), "--remove", "--step", "2"],
        ["99", "x"],
    ):
        assert main(["note", "--db", db, *args]) == EXIT_USAGE
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.rstrip().endswith("."), err
    assert main(["note", "--db", db, str(sid), "--remove", "--step", "1"]) == EXIT_OK
    assert [n.step for n in store.notes(sid)] == [3]
