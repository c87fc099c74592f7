"""Migration 0005 and the import of an older export: a correction by hand logged by an earlier build
carried its label in its own text ("Correction by hand: Galicia is now M 2A"); the reports add
the label now, so such a row would say it twice. It is given without the label, once, and
nothing else in the database changes.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

from test_review_helpers import play_reconquista, why_starts

from companion.driver import Driver, digest
from companion.games import load
from companion.prompts import edit_prompt
from companion.reconquista.edits import parse_area_text
from companion.review.exchange import export_bbcode, export_json, export_markdown, import_session
from companion.store import preflight
from companion.store.db import Store
from companion.store.legacy import unlabelled

OLD = "Correction by hand: Galicia is now M 2A"  # as 0.0.x logged it
NEW = "Galicia is now M 2A"  # as it is logged now


def corrected_game(store: Store) -> tuple[int, Driver]:
    """A Reconquista game with two corrections by hand, one worded as an earlier build did, one as now."""
    sid, driver = play_reconquista(store, 2, until=why_starts("Events: 2D6"))
    change = {"area": "Galicia", **parse_area_text("no city; no fortress; M 2A")}
    driver.edit(edit_prompt(OLD, change))
    driver.edit(edit_prompt("Oviedo is now C 1A", {"area": "Oviedo", **parse_area_text("C 1A")}))
    driver.type("4 5")
    return sid, driver


def rows(db: str) -> list[tuple[int, str, str, str | None]]:
    con = sqlite3.connect(db)
    try:
        return con.execute("SELECT id, prompt, answer, digest FROM event ORDER BY id").fetchall()
    finally:
        con.close()


def as_at_revision(db: str, revision: str) -> None:
    """Mark ``db`` as a database of an older schema (the data is as that version wrote it)."""
    con = sqlite3.connect(db)
    try:
        con.execute("UPDATE alembic_version SET version_num = ?", (revision,))
        con.commit()
    finally:
        con.close()


def test_the_migration_drops_the_old_label_and_changes_nothing_else(db: str, clock: object) -> None:
    store = Store(db, clock=clock)
    sid, _driver = corrected_game(store)
    state = store.state(sid)
    store.close()
    before = rows(db)
    assert sum(OLD in p for _i, p, _a, _d in before) == 1
    as_at_revision(db, "0004")

    store = Store(db, clock=clock)  # opening migrates it
    try:
        assert preflight.check(db) == preflight.HEAD == "0010"
        after = rows(db)
        changed = [(b, a) for b, a in zip(before, after, strict=True) if b != a]
        assert len(changed) == 1  # the old correction's row, and only its text
        (old_row, new_row) = changed[0]
        old_prompt, new_prompt = json.loads(old_row[1]), json.loads(new_row[1])
        assert old_prompt["what"] == OLD and new_prompt["what"] == NEW
        assert {**new_prompt, "what": OLD} == old_prompt and old_row[2:] == new_row[2:]
        # The report says the label once, for both corrections.
        md = export_markdown(store, sid).splitlines()
        assert f"- Correction by hand: {NEW}" in md and "- Correction by hand: Oviedo is now C 1A" in md
        assert not any("Correction by hand: Correction by hand" in line for line in md)
        assert "Correction by hand: Correction" not in export_bbcode(store, sid)
        # The game resumes to the same state: a correction is replayed by its change.
        info = store.session(sid)
        log = store.log(sid)
        resumed = Driver.resume(load("reconquista"), info.seed, info.config, log.steps)
        assert digest(resumed.snapshot()) == log.digests[-1]
        assert store.state(sid) == state
    finally:
        store.close()


def test_an_older_export_is_imported_without_the_old_label(store: Store, fresh: Store) -> None:
    sid, _driver = corrected_game(store)
    text = export_json(store, sid)
    assert OLD in text  # this database was not migrated: its row still has the old text
    done = import_session(fresh, text, "old.json")
    steps = fresh.log(done.session_id).steps
    whats = [s.prompt.describe() for s in steps if s.source == "edit"]
    assert whats == [NEW, "Oviedo is now C 1A"]
    assert fresh.state(done.session_id) == store.state(sid)


def test_only_a_correction_that_begins_with_the_label_loses_it() -> None:
    correction = {"kind": "edit", "what": OLD, "change": {"area": "Galicia"}}
    assert unlabelled(correction) == {**correction, "what": NEW}
    for kept in (
        {"kind": "edit", "what": NEW, "change": {}},  # logged since schema 0005
        {"kind": "edit", "what": "Galicia: Correction by hand: x", "change": {}},  # not at the start
        {"kind": "tell", "text": OLD},  # not a correction
        {"kind": "edit", "what": 7, "change": {}},  # a damaged row: left for the log's own checks
    ):
        assert unlabelled(kept) is kept


def test_a_database_from_before_topics_goes_through_0004_and_0005_damaged_rows_left(tmp_path: Path) -> None:
    """A database of schema 0003 (tests/premigration) with a labelled correction and two rows
    whose JSON SQLite takes but Python's reader refuses (a number of 5000 digits): it opens, both
    migrations run, the correction loses its label and the damaged rows are left as they are."""
    db = tmp_path / "old.sqlite"
    shutil.copy(Path(__file__).resolve().parents[1] / "premigration" / "before-topics.sqlite", db)
    assert preflight.check(str(db)) == "0003"
    huge = "9" * 5000
    added = {
        "labelled": json.dumps({"kind": "edit", "what": OLD, "change": {"area": "Galicia"}}),
        "damaged edit": f'{{"kind": "edit", "what": "{OLD}", "n": {huge}}}',
        "damaged roll": f'{{"kind": "roll", "why": "Events: 2D6", "n": {huge}}}',
    }
    con = sqlite3.connect(db)
    try:
        for seq, prompt in enumerate(added.values(), start=10_000):
            con.execute(
                "INSERT INTO event (session_id, seq, step, kind, prompt, answer, source, at)"
                " VALUES (4, ?, ?, 'answer', ?, 'null', 'edit', '2026-11-01 15:00:00')",
                (seq, seq, prompt),
            )
        con.commit()
        assert con.execute(
            "SELECT count(*) FROM event WHERE json_valid(prompt) AND seq >= 10000"
        ).fetchone() == (3,)
    finally:
        con.close()

    Store(str(db)).close()  # opening migrates it

    assert preflight.check(str(db)) == preflight.HEAD
    con = sqlite3.connect(db)
    try:
        got = dict(con.execute("SELECT seq, prompt FROM event WHERE seq >= 10000").fetchall())
    finally:
        con.close()
    assert json.loads(got[10_000])["what"] == NEW
    assert got[10_001] == added["damaged edit"] and got[10_002] == added["damaged roll"]
