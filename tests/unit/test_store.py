"""Tests of the SQLite store: sessions, the event log, the migrations and every kind of bad database."""

from __future__ import annotations

import os
import random
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlmodel import SQLModel

from companion import dicetray
from companion.driver import Driver, step_key
from companion.errors import StoreError
from companion.prompts import Roll
from companion.sessions import resume_session
from companion.store import preflight
from companion.store.db import Store

TRAY = dicetray.GAME
MIGRATIONS = Path(__file__).resolve().parents[2] / "companion" / "store" / "migrations"


def play(store: Store, session_id: int, seed: int = 1) -> Driver:
    """A dice tray session with typed and app dice, recorded in ``store``."""
    driver = Driver(TRAY, seed, recorder=store.recorder(session_id))
    driver.type("2d6 Attack")
    driver.type("3 5")
    driver.type("1d20 Save")
    driver.roll()
    return driver


def assert_one_sentence(message: str) -> None:
    assert message.endswith("."), message
    assert "\n" not in message, message
    assert "Traceback" not in message


# -- sessions ----------------------------------------------------------------------------


def test_create_session_starts_empty_and_active(store: Store) -> None:
    sid = store.create_session("dice", 42, {"players": 1})
    info = store.session(sid)
    assert (info.id, info.game, info.seed) == (sid, "dice", 42)
    assert info.status == "active"
    assert info.steps == 0
    assert info.dice_mode == ""
    assert info.ended is None
    assert info.config == {"players": 1}
    assert store.log(sid).steps == []
    assert store.events(sid) == []


def test_session_ids_are_distinct(store: Store) -> None:
    ids = [store.create_session("dice", k) for k in range(3)]
    assert len(set(ids)) == 3


def test_recording_through_the_driver(store: Store) -> None:
    sid = store.create_session("dice", 1)
    driver = play(store, sid)
    info = store.session(sid)
    assert info.steps == 4
    assert info.summary == "2 rolls"
    assert store.state(sid) == driver.snapshot()
    log = store.log(sid)
    assert log.steps == driver.steps
    assert [e.step for e in log.events] == [0, 1, 2, 3]
    assert [e.source for e in log.events] == ["player", "physical", "player", "app"]
    assert all(e.kind == "answer" for e in log.events)


def test_sessions_most_recently_active_first(store: Store) -> None:
    a = store.create_session("dice", 1)
    b = store.create_session("dice", 2)
    c = store.create_session("dice", 3)
    assert [s.id for s in store.sessions()] == [c, b, a]
    play(store, a)
    assert [s.id for s in store.sessions()] == [a, c, b]


def test_sessions_filter_by_game_and_status(store: Store) -> None:
    dice = store.create_session("dice", 1)
    other = store.create_session("reconquista", 2)
    done = store.create_session("dice", 3)
    driver = Driver(TRAY, 3, recorder=store.recorder(done))
    driver.type("end")
    assert {s.id for s in store.sessions(game="dice")} == {dice, done}
    assert [s.id for s in store.sessions(game="reconquista")] == [other]
    assert store.sessions(game="castells") == []
    assert [s.id for s in store.sessions(status="finished")] == [done]
    assert {s.id for s in store.sessions(status="active")} == {dice, other}
    assert [s.id for s in store.sessions(game="dice", status="active")] == [dice]


def test_unknown_session_raises_store_error(store: Store) -> None:
    with pytest.raises(StoreError) as info:
        store.session(404)
    assert "404" in str(info.value)
    assert_one_sentence(str(info.value))
    with pytest.raises(StoreError):
        store.state(404)


def test_memory_database_works(clock: Any) -> None:
    store = Store(":memory:", clock=clock)
    assert store.sessions() == []
    sid = store.create_session("dice", 5)
    driver = play(store, sid, seed=5)
    assert store.log(sid).steps == driver.steps
    assert [s.id for s in store.sessions()] == [sid]


def test_memory_databases_are_separate() -> None:
    one, two = Store(":memory:"), Store(":memory:")
    one.create_session("dice", 1)
    assert two.sessions() == []


# -- the effective log ------------------------------------------------------------------------


def test_undo_keeps_the_rewind_event_and_withdraws_the_answer(store: Store) -> None:
    sid = store.create_session("dice", 1)
    driver = play(store, sid)
    driver.undo()
    events = store.events(sid)
    assert [e.kind for e in events] == ["answer"] * 4 + ["rewind"]
    assert events[-1].step == 3
    assert [e.seq for e in events] == list(range(5))
    log = store.log(sid)
    assert log.steps == driver.steps
    assert len(log.steps) == 3
    info = store.session(sid)
    assert info.steps == 3
    assert store.state(sid) == driver.snapshot()


def test_answer_after_undo_replaces_the_withdrawn_one(store: Store) -> None:
    sid = store.create_session("dice", 1)
    driver = play(store, sid)
    driver.undo()
    driver.type("20")
    log = store.log(sid)
    assert log.steps == driver.steps
    assert log.steps[-1].answer == [20]
    assert log.steps[-1].source == "physical"
    assert len(store.events(sid)) == 6


def test_log_after_correction(store: Store) -> None:
    sid = store.create_session("dice", 1)
    driver = play(store, sid)
    report = driver.correct(1, [6, 6], "physical")
    assert report.reused == 2
    events = store.events(sid)
    assert [e.kind for e in events] == ["answer"] * 4 + ["rewind"] + ["answer"] * 3
    assert events[4].step == 1
    log = store.log(sid)
    assert log.steps == driver.steps
    assert log.steps[1].answer == [6, 6]
    assert store.state(sid) == driver.snapshot()
    assert store.session(sid).steps == 4


def test_digests_in_the_log_verify(store: Store) -> None:
    from companion.driver import verify

    sid = store.create_session("dice", 8)
    driver = play(store, sid, seed=8)
    driver.undo()
    driver.roll()
    log = store.log(sid)
    replayed = verify(TRAY, 8, {}, log.steps, log.digests, store.state(sid))
    assert replayed.snapshot() == driver.snapshot()


# -- dice mode and status ------------------------------------------------------------------------


def test_dice_mode_physical(store: Store) -> None:
    sid = store.create_session("dice", 1)
    driver = Driver(TRAY, 1, recorder=store.recorder(sid))
    driver.type("2d6")
    assert store.session(sid).dice_mode == ""
    driver.type("1 1")
    assert store.session(sid).dice_mode == "physical"


def test_dice_mode_app(store: Store) -> None:
    sid = store.create_session("dice", 1)
    driver = Driver(TRAY, 1, recorder=store.recorder(sid))
    driver.type("2d6")
    driver.roll()
    driver.type("")
    driver.roll()
    assert store.session(sid).dice_mode == "app"


def test_dice_mode_mixed(store: Store) -> None:
    sid = store.create_session("dice", 1)
    play(store, sid)
    assert store.session(sid).dice_mode == "mixed"


def test_dice_mode_survives_a_new_recorder(store: Store) -> None:
    sid = store.create_session("dice", 1)
    driver = Driver(TRAY, 1, recorder=store.recorder(sid))
    driver.type("2d6")
    driver.roll()
    resumed = Driver.resume(TRAY, 1, {}, store.log(sid).steps, recorder=store.recorder(sid))
    resumed.type("1d6")
    resumed.type("4")
    assert store.session(sid).dice_mode == "mixed"


def test_status_finished_after_end(store: Store) -> None:
    sid = store.create_session("dice", 1)
    driver = play(store, sid)
    driver.type("end")
    info = store.session(sid)
    assert info.status == "finished"
    assert info.ended is not None
    assert info.summary == "ended after 2 rolls"


def test_undo_of_end_makes_the_session_active_again(store: Store) -> None:
    sid = store.create_session("dice", 1)
    driver = play(store, sid)
    driver.type("end")
    driver.undo()
    info = store.session(sid)
    assert info.status == "active"
    assert info.ended is None


# -- abandoning and deleting ---------------------------------------------------------------------


def test_an_abandoned_session_leaves_the_unfinished_and_keeps_its_log(store: Store) -> None:
    sid = store.create_session("dice", 1)
    play(store, sid)
    steps = len(store.log(sid).steps)
    info = store.abandon(sid)
    assert info.status == "abandoned"
    assert [s.id for s in store.sessions(status="active")] == []
    assert [s.id for s in store.sessions(status="abandoned")] == [sid]
    assert len(store.log(sid).steps) == steps  # nothing of the table is lost by putting it away


def test_reopen_makes_an_abandoned_session_unfinished_and_leaves_others_as_they_were(store: Store) -> None:
    abandoned, finished = store.create_session("dice", 1), store.create_session("dice", 2)
    play(store, abandoned)
    play(store, finished).type("end")
    store.abandon(abandoned)
    store.reopen(abandoned)
    store.reopen(finished)  # reopen takes up an abandoned session only
    assert store.session(abandoned).status == "active"
    assert store.session(finished).status == "finished"


def test_a_step_played_on_an_abandoned_session_makes_it_unfinished_again(store: Store) -> None:
    sid = store.create_session("dice", 1)
    driver = play(store, sid)
    store.abandon(sid)  # e.g. from the command line while the game is open in the app
    driver.type("2d6")
    assert store.session(sid).status == "active"


def test_a_finished_session_cannot_be_abandoned(store: Store) -> None:
    sid = store.create_session("dice", 1)
    play(store, sid).type("end")
    with pytest.raises(StoreError) as err:
        store.abandon(sid)
    assert_one_sentence(str(err.value))
    assert store.session(sid).status == "finished"
    with pytest.raises(StoreError):
        store.abandon(sid + 100)


def test_only_an_abandoned_session_can_be_deleted(store: Store) -> None:
    active, finished = store.create_session("dice", 1), store.create_session("dice", 2)
    play(store, active)
    play(store, finished).type("end")
    for sid in (active, finished, finished + 100):
        with pytest.raises(StoreError) as err:
            store.delete_session(sid)
        assert_one_sentence(str(err.value))
    assert {s.id for s in store.sessions()} == {active, finished}
    assert len(store.log(active).steps) == 4  # spec, dice, spec, roll


def test_deleting_an_abandoned_session_removes_its_row_and_every_event(store: Store) -> None:
    gone, kept = store.create_session("dice", 1), store.create_session("dice", 2)
    play(store, gone).undo()  # a rewind row too
    play(store, kept)
    store.abandon(gone)
    store.delete_session(gone)
    assert [s.id for s in store.sessions()] == [kept]
    with pytest.raises(StoreError):
        store.session(gone)
    con = sqlite3.connect(store.path)
    try:
        left = con.execute("SELECT count(*) FROM event WHERE session_id = ?", (gone,)).fetchone()[0]
        kept_events = con.execute("SELECT count(*) FROM event WHERE session_id = ?", (kept,)).fetchone()[0]
    finally:
        con.close()
    assert left == 0 and kept_events > 0


def test_the_status_order_puts_the_unfinished_then_the_abandoned_then_the_finished(store: Store) -> None:
    finished, abandoned, active = (store.create_session("dice", n) for n in (1, 2, 3))
    play(store, finished).type("end")
    play(store, abandoned)
    play(store, active)
    store.abandon(abandoned)
    assert [s.id for s in store.sessions(sort="status")] == [active, abandoned, finished]


# -- redo, read back from the log -----------------------------------------------------------------


def _keys(groups: list[list[Any]]) -> list[list[str]]:
    return [[step_key(s.prompt.to_dict(), s.answer, s.source) for s in g] for g in groups]


@pytest.mark.parametrize("seed", range(12))
def test_what_can_be_redone_reads_back_from_the_log_as_the_driver_has_it(store: Store, seed: int) -> None:
    """Answers, undos to any step, redos and corrections in a random order: after each, the
    log's redo (what a resumed session may redo) is the live driver's, and a session resumed
    there redoes to the very state the live one does."""
    rng = random.Random(seed)
    sid = store.create_session("dice", seed)
    driver = Driver(TRAY, seed, recorder=store.recorder(sid))
    redone = 0
    for _ in range(60):
        move = rng.random()
        rolls = [i for i, s in enumerate(driver.steps) if isinstance(s.prompt, Roll)]
        if move < 0.5:
            prompt = driver.pending
            if isinstance(prompt, Roll) and rng.random() < 0.5:
                driver.roll()
            elif isinstance(prompt, Roll):
                driver.type(" ".join(str(rng.randint(1, prompt.sides)) for _ in range(prompt.n)))
            else:
                driver.type(rng.choice(["2d6 Attack", "1d6", "3d6 Famine", ""]))
        elif move < 0.65 and driver.steps:
            driver.rewind_to(rng.randrange(len(driver.steps)))
        elif move < 0.9 and driver.redo_groups:
            redone += len(driver.redo())
        elif rolls:
            index = rng.choice(rolls)
            roll = driver.steps[index].prompt
            assert isinstance(roll, Roll)
            driver.correct(index, [rng.randint(1, roll.sides) for _ in range(roll.n)], "physical")
        assert _keys(store.log(sid).redo) == _keys(driver.redo_groups)
    assert redone > 0  # the order drawn did redo
    resumed = resume_session(store, sid, TRAY).driver
    assert _keys(resumed.redo_groups) == _keys(driver.redo_groups)
    driver.recorder = None  # the resumed one records its redos: the log stays one session's
    while driver.redo_groups:
        driver.redo()
        resumed.redo()
        assert resumed.snapshot() == driver.snapshot()


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(6))
def test_what_a_correction_keeps_ahead_reads_back_from_the_log_as_the_driver_has_it(
    store: Store, seed: int
) -> None:
    """A Terra de Castells game (bag draws and Saracen moves are facts a correction keeps),
    answered, undone, redone and corrected in a random order: after each move the log's steps
    kept ahead and to redo are the live driver's, and so are a resumed session's."""
    from reliability.reliability_script import answer_one

    from companion import games

    game = games.load("castells")
    rng = random.Random(seed)
    sid = store.create_session("castells", seed, {})
    driver = Driver(game, seed, {}, recorder=store.recorder(sid))
    corrected = ahead = 0
    for _ in range(160):
        if driver.pending is None:
            break
        move = rng.random()
        rolls = [i for i, s in enumerate(driver.steps) if isinstance(s.prompt, Roll)]
        if move < 0.8 or not driver.steps:
            answer_one(driver)
        elif move < 0.86:
            driver.rewind_to(rng.randrange(max(0, len(driver.steps) - 8), len(driver.steps)))
        elif move < 0.92 and driver.redo_groups:
            driver.redo()
        elif rolls:
            index = rng.choice(rolls[-5:])
            roll = driver.steps[index].prompt
            assert isinstance(roll, Roll)
            driver.correct(index, [rng.randint(1, roll.sides) for _ in range(roll.n)], "physical")
            corrected += 1
        log = store.log(sid)
        # The driver keeps the facts among the steps the log keeps ahead.
        assert _keys([[s for s in log.ahead if driver.is_fact(s.prompt)]]) == _keys([driver.ahead])
        assert _keys(log.redo) == _keys(driver.redo_groups)
        ahead += bool(driver.ahead)
    assert corrected > 0 and ahead > 0
    resumed = resume_session(store, sid, game).driver
    assert _keys([resumed.ahead]) == _keys([driver.ahead])


# -- reopening -----------------------------------------------------------------------------------


def test_reopening_the_file_finds_everything(db: str) -> None:
    first = Store(db)
    sid = first.create_session("dice", 77, {"note": "évora"})
    live = play(first, sid, seed=77)
    live.undo()
    live.type("3")
    first.close()

    again = Store(db)
    info = again.session(sid)
    assert info.steps == len(live.steps)
    assert info.config == {"note": "évora"}
    log = again.log(sid)
    assert log.steps == live.steps
    resumed = Driver.resume(TRAY, info.seed, info.config, log.steps, recorder=again.recorder(sid))
    assert resumed.snapshot() == live.snapshot() == again.state(sid)
    # and the session goes on where it stood
    resumed.type("1d6")
    assert [e.seq for e in again.events(sid)] == list(range(len(again.events(sid))))
    again.close()


def test_two_recorders_on_one_session_do_not_corrupt_the_log(db: str) -> None:
    """A second app writing the same session is refused with one sentence."""
    store = Store(db)
    sid = store.create_session("dice", 1)
    one = Driver(TRAY, 1, recorder=store.recorder(sid))
    two = Driver(TRAY, 1, recorder=store.recorder(sid))
    one.type("2d6")
    with pytest.raises(StoreError) as info:
        two.type("1d6")
    assert_one_sentence(str(info.value))
    assert two.steps == []
    assert [e.answer for e in store.events(sid)] == ["2d6"]
    store.close()


def test_event_seq_is_unique_per_session(db: str) -> None:
    store = Store(db)
    sid = store.create_session("dice", 1)
    play(store, sid)
    store.close()
    con = sqlite3.connect(db)
    try:
        with pytest.raises(sqlite3.IntegrityError):
            con.execute(
                "INSERT INTO event (session_id, seq, step, kind, prompt, answer, at) "
                "VALUES (?, 0, 0, 'answer', 'null', 'null', '2026-01-01 00:00:00')",
                (sid,),
            )
        # the same seq in another session is fine
        con.execute("INSERT INTO session (game, seed, started, last_activity) VALUES ('dice', 2, 'x', 'x')")
        other = con.execute("SELECT max(id) FROM session").fetchone()[0]
        con.execute(
            "INSERT INTO event (session_id, seq, step, kind, prompt, answer, at) "
            "VALUES (?, 0, 0, 'answer', 'null', 'null', '2026-01-01 00:00:00')",
            (other,),
        )
    finally:
        con.close()


# -- migrations ---------------------------------------------------------------------------------


def test_migration_gives_exactly_the_models_schema(store: Store) -> None:
    with store.engine.connect() as con:
        context = MigrationContext.configure(con, opts={"compare_type": True})
        diff = compare_metadata(context, SQLModel.metadata)
    assert diff == []


def test_migrated_tables_and_indexes(db: str) -> None:
    Store(db).close()
    con = sqlite3.connect(db)
    try:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        indexes = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='index'")}
        version = con.execute("SELECT version_num FROM alembic_version").fetchall()
    finally:
        con.close()
    assert tables == preflight.OUR_TABLES
    assert {"ix_session_game", "ix_session_status"} <= indexes
    assert version == [(preflight.HEAD,)]


def test_revisions_match_the_migration_files() -> None:
    cfg = Config()
    cfg.set_main_option("script_location", "companion.store:migrations")
    script = ScriptDirectory.from_config(cfg)
    oldest_first = [s.revision for s in reversed(list(script.walk_revisions()))]
    assert tuple(oldest_first) == preflight.REVISIONS
    assert script.get_heads() == [preflight.HEAD]
    # every file in versions/ is a revision the app knows
    in_files = set()
    for path in (MIGRATIONS / "versions").glob("*.py"):
        m = re.search(r'^revision = "([^"]+)"', path.read_text(), re.MULTILINE)
        if m:
            in_files.add(m[1])
    assert in_files == set(preflight.REVISIONS)


def test_reopening_does_not_migrate_again(db: str) -> None:
    Store(db).close()
    assert preflight.check(db) == preflight.HEAD


# -- bad databases --------------------------------------------------------------------------------


def test_text_file_is_not_a_database(tmp_path: Path) -> None:
    path = tmp_path / "notes.db"
    path.write_text("shopping list: eggs, flour\n" * 100)
    with pytest.raises(StoreError) as info:
        Store(str(path))
    message = str(info.value)
    assert_one_sentence(message)
    assert "not" in message and "SQLite" in message
    assert path.read_text().startswith("shopping list")  # left as it was


def test_corrupt_database(db: str) -> None:
    store = Store(db)
    for seed in range(20):
        sid = store.create_session("dice", seed)
        driver = Driver(TRAY, seed, recorder=store.recorder(sid))
        for _ in range(4):
            driver.type("3d6 " + "long label " * 5)
            driver.roll()
    store.close()
    assert not os.path.exists(db + "-wal") or os.path.getsize(db + "-wal") == 0
    size = os.path.getsize(db)
    page = 4096
    assert size > 4 * page
    with open(db, "r+b") as fh:
        fh.seek(page)  # keep page 1 (the header and the schema), spoil the rest
        fh.write(bytes(range(256)) * ((size - page) // 256))
    with pytest.raises(StoreError) as info:
        Store(db).sessions()
    message = str(info.value)
    assert_one_sentence(message)
    assert "corrupt" in message or "not a database" in message or "not an SQLite" in message


def test_schema_newer_than_the_app(db: str) -> None:
    Store(db).close()
    con = sqlite3.connect(db)
    con.execute("UPDATE alembic_version SET version_num = '9999'")
    con.commit()
    con.close()
    with pytest.raises(StoreError) as info:
        Store(db)
    message = str(info.value)
    assert_one_sentence(message)
    assert "newer" in message and "9999" in message


def test_parent_is_a_regular_file(tmp_path: Path) -> None:
    parent = tmp_path / "plain"
    parent.write_text("I am a file")
    with pytest.raises(StoreError) as info:
        Store(str(parent / "companion.db"))
    message = str(info.value)
    assert_one_sentence(message)
    assert "file, not a folder" in message


def test_folder_instead_of_a_file(tmp_path: Path) -> None:
    with pytest.raises(StoreError) as info:
        Store(str(tmp_path))
    assert "folder" in str(info.value)
    assert_one_sentence(str(info.value))


def test_missing_folders_are_created(tmp_path: Path) -> None:
    path = tmp_path / "a" / "b" / "companion.db"
    store = Store(str(path))
    assert store.sessions() == []
    store.close()
    assert path.is_file()


def test_database_of_another_program(tmp_path: Path) -> None:
    path = tmp_path / "recipes.db"
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE recipe (id INTEGER PRIMARY KEY, name TEXT)")
    con.execute("INSERT INTO recipe (name) VALUES ('gazpacho')")
    con.commit()
    con.close()
    with pytest.raises(StoreError) as info:
        Store(str(path))
    message = str(info.value)
    assert_one_sentence(message)
    assert "another program" in message
    con = sqlite3.connect(path)
    try:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    finally:
        con.close()
    assert tables == {"recipe"}  # nothing was added to it


LOCKER = """
import sqlite3, sys, time
con = sqlite3.connect(sys.argv[1], isolation_level=None)
con.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
time.sleep(30)
"""


def test_database_locked_by_another_process(db: str) -> None:
    Store(db).close()
    proc = subprocess.Popen(
        [sys.executable, "-c", LOCKER, db], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "locked"
        start = time.monotonic()
        with pytest.raises(StoreError) as info:
            Store(db, timeout=0.2)
        elapsed = time.monotonic() - start
    finally:
        proc.kill()
        proc.wait(timeout=10)
    message = str(info.value)
    assert_one_sentence(message)
    assert "locked" in message
    assert elapsed < 2.0
