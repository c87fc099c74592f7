"""Games recorded under earlier rules (docs/design.md, "The store", "The driver"): the rules
version a session records, its migration, resuming a session whose log no longer fits the
rules (replayed as far as it does, the rest withdrawn, one sentence), History and the command
line reading it as recorded, and old exports importing.

The divergence is built with a small game of this file, ``Shifting``, whose rules change
between version 1 and version 2: version 2 asks another question at step 4. It is put in
the registry for these tests only (``companion.games.load`` patched), as the real games are
looked up."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Generator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from pilot_helpers import wait_until
from textual.widgets import DataTable, Static

from companion import games
from companion.cli import main
from companion.driver import Driver, digest
from companion.errors import EXIT_DIVERGED, EXIT_OK, StoreError
from companion.interface import Asks
from companion.prompts import Choose, Prompt, Roll, Tell
from companion.review.exchange import ImportRefused, export_data, import_session
from companion.sessions import resume_session
from companion.store import preflight
from companion.store.db import Store
from screens.app import CompanionApp
from screens.history import SessionLogScreen

EXPORTS = Path(__file__).resolve().parents[1] / "exports"
WIDE = (170, 45)
NEW_QUESTION = "Step 4 under the new rules: which way?"


@dataclass
class Tally:
    answers: list[Any] = field(default_factory=list)
    ended: bool = False


class Shifting:
    """Seven questions, then an instruction. Version 1 asks seven rolls; version 2 asks a choice
    instead of the fourth roll (``asks_again``); ``counts_twice`` keeps a state version 1 did
    not (the same questions, a different state)."""

    id = "shifting"
    title = "Shifting rules"

    def __init__(self, rules_version: int, asks_again: bool = True, counts_twice: bool = False) -> None:
        self.rules_version = rules_version
        self.earlier_rules = None  # it no longer plays version 1: its logs replay as far as they fit
        #: Its questions have no topic (on import, a step without one is given the store's
        #: <game>.legacy.<kind>); it rolls one d6 at a time.
        self.asks = Asks(frozenset({""}), sides=frozenset({6}), most_dice=1)
        self.asks_again = asks_again and rules_version >= 2
        self.counts_twice = counts_twice

    def new_state(self, seed: int, config: dict[str, Any]) -> Tally:
        return Tally()

    def procedure(self, state: Tally) -> Generator[Prompt, Any, None]:
        for i in range(7):
            prompt: Prompt = (
                Choose(["left", "right"], NEW_QUESTION)
                if i == 3 and self.asks_again
                else Roll(1, 6, f"roll {i + 1}")
            )
            state.answers.append((yield prompt))
        yield Tell("Put the dice away.")
        state.ended = True

    def snapshot(self, state: Tally) -> dict[str, Any]:
        snap: dict[str, Any] = {"answers": state.answers, "ended": state.ended}
        if self.counts_twice:
            snap["count"] = 2 * len(state.answers)
        return snap

    def where(self, state: Tally) -> tuple[int | None, str | None]:
        return 1 + len(state.answers) // 4, "play"

    def summary(self, state: Tally) -> str:
        return "put away" if state.ended else f"{len(state.answers)} answers"


class Rules:
    """Which version of Shifting the app plays now; ``games.load('shifting')`` gives it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.versions: dict[int, Shifting] = {1: Shifting(1), 2: Shifting(2)}
        self.now = 1
        real = games.load
        monkeypatch.setattr(
            games, "load", lambda game_id: self.game if game_id == "shifting" else real(game_id)
        )

    @property
    def game(self) -> Shifting:
        return self.versions[self.now]


@pytest.fixture
def rules(monkeypatch: pytest.MonkeyPatch) -> Rules:
    return Rules(monkeypatch)


def recorded(store: Store, rules: Rules, rolls: list[int]) -> int:
    """A Shifting session recorded under the rules ``rules`` plays now, one typed die a step."""
    sid = store.create_session("shifting", 7)
    driver = Driver(rules.game, 7, recorder=store.recorder(sid))
    for face in rolls:
        driver.type(str(face))
    return sid


def rows(db: str, table: str) -> list[tuple[Any, ...]]:
    con = sqlite3.connect(db)
    try:
        return con.execute(f"SELECT * FROM {table} ORDER BY id").fetchall()
    finally:
        con.close()


def assert_one_sentence(message: str) -> None:
    assert message.endswith("."), message
    assert "\n" not in message and "Traceback" not in message, message


# -- the rules version a session records ------------------------------------------------------


def test_a_new_session_records_the_rules_it_is_played_under(store: Store, rules: Rules) -> None:
    assert store.session(store.create_session("shifting", 1)).rules_version == 1
    rules.now = 2
    assert store.session(store.create_session("shifting", 1)).rules_version == 2
    assert store.session(store.create_session("shifting", 1, rules_version=1)).rules_version == 1
    assert store.session(store.create_session("dice", 1)).rules_version == games.load("dice").rules_version


def test_every_game_declares_its_rules_version() -> None:
    for entry in games.GAMES:
        version = games.load(entry.id).rules_version
        assert isinstance(version, int) and version >= 1, entry.id


def database_at(db: str, revision: str) -> None:
    """A database as this app's migrations leave it at ``revision`` (before the later ones)."""
    from sqlalchemy import create_engine

    cfg = Config()
    cfg.set_main_option("script_location", "companion.store:migrations")
    engine = create_engine(f"sqlite:///{db}")
    with engine.begin() as con:
        cfg.attributes["connection"] = con
        command.upgrade(cfg, revision)
    engine.dispose()


def test_the_migration_gives_the_sessions_of_the_previous_schema_version_1(db: str) -> None:
    """A database of schema 0002 (before the column) with a session in it, opened by this app."""
    database_at(db, "0002")
    con = sqlite3.connect(db)
    con.execute("PRAGMA foreign_keys=ON")  # as the app opens it
    con.execute(
        "INSERT INTO session (game, seed, dice_mode, status, started, last_activity, steps, summary, config, state)"
        " VALUES ('dice', 3, '', 'active', '2026-01-01 10:00:00', '2026-01-01 10:00:00', 1, '', '{}', '{}')"
    )
    # A step of the game: the events refer to their session, which a migration that copies
    # the session table would have to drop under them.
    con.execute(
        "INSERT INTO event (session_id, seq, step, kind, prompt, answer, at)"
        """ VALUES (1, 0, 0, 'answer', '{"kind": "tell", "text": "Roll."}', 'null', '2026-01-01 10:00:00')"""
    )
    con.commit()
    con.close()
    assert preflight.check(db) == "0002"
    store = Store(db)
    try:
        assert preflight.check(db) == preflight.HEAD == "0010"
        [info] = store.sessions()
        assert (info.game, info.seed, info.rules_version) == ("dice", 3, 1)
    finally:
        store.close()
    con = sqlite3.connect(db)
    try:
        column = next(c for c in con.execute("PRAGMA table_info(session)") if c[1] == "rules_version")
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert con.execute("SELECT count(*) FROM event WHERE session_id = 1").fetchone() == (1,)
    finally:
        con.close()
    assert not {t for t in tables if t.startswith("_alembic")}
    assert column[3] == 1 and column[4] == "1"  # NOT NULL, default 1


def test_a_migration_that_fails_half_way_changes_nothing(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The upgrade is one transaction: when it fails after changing the schema (here: the
    real 0003, then a table of its own, then a failing statement), the database is left as it was, at
    0002, with one sentence for the user, and opens again once the cause is gone."""
    database_at(db, "0002")
    real = command.upgrade

    def half_way(config: Config, revision: str) -> None:
        real(config, revision)
        con = config.attributes["connection"]
        con.exec_driver_sql("CREATE TABLE scratch (x INTEGER)")
        con.exec_driver_sql("INSERT INTO no_such_table VALUES (1)")  # fails

    monkeypatch.setattr(command, "upgrade", half_way)
    with pytest.raises(StoreError) as err:
        Store(db)
    assert "\n" not in str(err.value) and "no such table: no_such_table" in str(err.value)
    con = sqlite3.connect(db)
    try:
        tables = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        columns = {c[1] for c in con.execute("PRAGMA table_info(session)")}
    finally:
        con.close()
    assert "scratch" not in tables and "rules_version" not in columns
    assert preflight.check(db) == "0002"
    monkeypatch.setattr(command, "upgrade", real)
    Store(db).close()
    assert preflight.check(db) == preflight.HEAD


# -- resuming a session recorded under earlier rules ----------------------------------------------


def test_resume_goes_on_from_the_step_where_the_log_parts_from_the_rules(
    db: str, store: Store, rules: Rules
) -> None:
    sid = recorded(store, rules, [1, 2, 3, 4, 5, 6])
    events, session_before = rows(db, "event"), rows(db, "session")
    rules.now = 2
    resumed = resume_session(store, sid, rules.game)
    driver = resumed.driver
    assert [s.answer for s in driver.steps] == [[1], [2], [3]]
    assert driver.pending == Choose(["left", "right"], NEW_QUESTION)
    assert resumed.notice is not None
    assert_one_sentence(resumed.notice)
    assert resumed.notice == (
        "This game was recorded under earlier rules (version 1): from step 4 the current rules ask "
        f"“{NEW_QUESTION} (left / right)” where the log has “Roll 1d6: roll 4”; it goes on from step 4."
    )
    # Steps 4 to 6 are withdrawn by one rewind event; every row written before is as it was.
    after = rows(db, "event")
    assert after[: len(events)] == events and len(after) == len(events) + 1
    rewind = store.events(sid)[-1]
    assert (rewind.kind, rewind.step, rewind.seq) == ("rewind", 3, 6)
    info = store.session(sid)
    assert (info.rules_version, info.steps, info.status, info.summary) == (2, 3, "active", "3 answers")
    assert store.state(sid) == driver.snapshot()
    assert session_before[0] != rows(db, "session")[0]
    # The game goes on under the current rules, to its end.
    driver.type("2")  # 'right'
    for face in (6, 6, 6):
        driver.type(str(face))
    driver.ack()
    assert driver.finished
    assert store.session(sid).status == "finished" and store.session(sid).summary == "put away"
    assert store.log(sid).steps == driver.steps
    # Opened again it replays as logged, and nothing more is written.
    written = rows(db, "event")
    again = resume_session(store, sid, rules.game)
    assert again.notice is None and again.driver.snapshot() == driver.snapshot()
    assert rows(db, "event") == written


def test_a_log_that_fits_the_new_rules_only_takes_their_version(db: str, store: Store, rules: Rules) -> None:
    sid = recorded(store, rules, [4, 4, 4])  # the steps before version 2 asks otherwise
    events, state = rows(db, "event"), store.state(sid)
    last_activity = store.session(sid).last_activity
    rules.now = 2
    resumed = resume_session(store, sid, rules.game)
    assert resumed.notice is None
    assert len(resumed.driver.steps) == 3 and resumed.driver.pending == Choose(
        ["left", "right"], NEW_QUESTION
    )
    assert rows(db, "event") == events  # nothing withdrawn, nothing written
    info = store.session(sid)
    assert (info.rules_version, info.steps, info.last_activity) == (2, 3, last_activity)
    assert store.state(sid) == state
    resumed.driver.type("1")
    assert store.log(sid).steps[-1].answer == "left"


def test_steps_asked_alike_that_lead_elsewhere_are_recorded_again(
    db: str, store: Store, rules: Rules, capsys: pytest.CaptureFixture[str]
) -> None:
    """Version 2 asks the same questions but keeps another state: the log stands, and its
    steps are recorded again with the states they lead to now, so that it replays under them."""
    sid = recorded(store, rules, [1, 2, 3, 4, 5])
    events = rows(db, "event")
    logged = store.log(sid)
    rules.versions[2] = Shifting(2, asks_again=False, counts_twice=True)
    rules.now = 2
    resumed = resume_session(store, sid, rules.game)
    assert resumed.notice is not None
    assert_one_sentence(resumed.notice)
    assert "every step still fits the current rules (version 2)" in resumed.notice
    assert "from step 1 lead to a different state" in resumed.notice
    after = rows(db, "event")
    assert after[: len(events)] == events and len(after) == len(events) + 1 + 5
    log = store.log(sid)
    assert log.steps == logged.steps  # the same answers, sources...
    assert [e.at for e in log.events] == [e.at for e in logged.events]  # ...and times
    assert log.digests != logged.digests
    assert log.digests[-1] == digest(resumed.driver.snapshot())
    assert store.session(sid).rules_version == 2
    assert main(["--db", db, "replay", str(sid)]) == EXIT_OK
    assert "replayed 5 steps; the state is the stored one" in capsys.readouterr().out


def test_a_log_that_diverges_under_its_own_rules_is_damage(db: str, store: Store, rules: Rules) -> None:
    sid = recorded(store, rules, [1, 2, 3, 4, 5])
    con = sqlite3.connect(db)
    con.execute(
        "UPDATE event SET prompt = ? WHERE session_id = ? AND step = 2",
        (json.dumps(Roll(1, 6, "roll 9").to_dict()), sid),
    )
    con.commit()
    con.close()
    events, sessions = rows(db, "event"), rows(db, "session")
    with pytest.raises(StoreError) as info:
        resume_session(store, sid, rules.game)
    assert_one_sentence(str(info.value))
    assert str(info.value).startswith(f"Session {sid}'s log is damaged at step 3 (the current rules ask ")
    assert rows(db, "event") == events and rows(db, "session") == sessions


def test_a_session_of_newer_rules_is_not_resumed(db: str, store: Store, rules: Rules) -> None:
    rules.now = 2
    sid = recorded(store, rules, [1, 2])
    events, sessions = rows(db, "event"), rows(db, "session")
    rules.now = 1
    with pytest.raises(StoreError) as info:
        resume_session(store, sid, rules.game)
    assert_one_sentence(str(info.value))
    assert "newer rules" in str(info.value) and "version 2" in str(info.value)
    assert rows(db, "event") == events and rows(db, "session") == sessions


def test_resume_ended_by_the_new_rules(store: Store, rules: Rules) -> None:
    """The current rules may end the game before its log does: it is over at that step."""
    sid = recorded(store, rules, [1, 2, 3, 4, 5, 6, 1])
    Driver.resume(rules.game, 7, None, store.log(sid).steps, store.recorder(sid)).ack()
    rules.versions[2] = Shortened(2)
    rules.now = 2
    resumed = resume_session(store, sid, rules.game)
    assert resumed.driver.finished and len(resumed.driver.steps) == 7
    assert resumed.notice is not None
    assert "at step 8 the current rules end the game where the log goes on with “Put the dice away.”" in (
        resumed.notice
    )
    assert resumed.notice.endswith("so under them it ended after step 7.")
    assert store.session(sid).status == "finished"


class Shortened(Shifting):
    """Version 2 without the closing instruction."""

    def procedure(self, state: Tally) -> Generator[Prompt, Any, None]:
        for i in range(7):
            state.answers.append((yield Roll(1, 6, f"roll {i + 1}")))
        state.ended = True


# -- History and the command line read it as recorded ------------------------------------------


async def test_history_steps_through_a_diverging_log_as_far_as_it_goes(
    db: str, store: Store, rules: Rules, clock: Any
) -> None:
    sid = recorded(store, rules, [1, 2, 3, 4, 5, 6])
    rules.now = 2
    events = rows(db, "event")
    app = CompanionApp(db_path=db, seed=1, clock=clock)
    async with app.run_test(size=WIDE) as pilot:
        await wait_until(pilot, lambda: app.store_ready)
        app.push_screen(SessionLogScreen(sid))
        await wait_until(pilot, lambda: isinstance(app.screen, SessionLogScreen) and app.screen.loaded)
        screen = app.screen
        assert isinstance(screen, SessionLogScreen)
        assert screen.query_one("#log-table", DataTable).row_count == 6  # every recorded step listed
        await wait_until(pilot, lambda: screen.at == 1)
        parting = screen.query_one("#log-parting", Static)
        assert not parting.display
        await pilot.press("end")
        await wait_until(pilot, lambda: screen.at == 6)
        assert screen.driver is not None and len(screen.driver.steps) == 3
        assert parting.display
        text = str(parting.render())
        assert_one_sentence(text)
        assert text.startswith(f"From step 4 the current rules ask “{NEW_QUESTION}")
        assert "recorded under rules version 1; the app plays version 2" in text
        assert text.endswith("so the table is shown as it stood after step 3.")
        assert screen.query_one("#log-state").border_title.startswith("After step 3 of 6")
        assert str(screen.query_one("#log-status", Static).render()).startswith("6 steps.")  # no error
        await pilot.press("home")
        await wait_until(pilot, lambda: screen.at == 1)
        assert not parting.display and len(screen.driver.steps) == 1
    assert rows(db, "event") == events  # reading changes nothing
    assert store.session(sid).rules_version == 1


def test_history_show_and_replay_on_the_command_line(
    db: str, store: Store, rules: Rules, capsys: pytest.CaptureFixture[str]
) -> None:
    sid = recorded(store, rules, [1, 2, 3, 4, 5, 6])
    rules.now = 2
    assert main(["--db", db, "history", "--json"]) == EXIT_OK
    [listed] = json.loads(capsys.readouterr().out)
    assert (listed["id"], listed["rules_version"]) == (sid, 1)
    assert main(["--db", db, "show", str(sid), "--json"]) == EXIT_OK
    shown = json.loads(capsys.readouterr().out)
    assert shown["session"]["rules_version"] == 1 and len(shown["log"]) == 6
    assert main(["--db", db, "show", str(sid)]) == EXIT_OK
    lines = capsys.readouterr().out.splitlines()
    assert lines[1].startswith("Commitment to its seed, made when it started: ")
    assert len(lines) == 8 and "Roll 1d6: roll 6 -> 6" in lines[-1]  # the log as recorded
    assert main(["--db", db, "replay", str(sid)]) == EXIT_DIVERGED
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith(f"companion: session {sid} was recorded under rules version 1 ")
    assert "does not replay under the current ones (version 2) from step 4: the current rules ask" in err
    assert len(err.splitlines()) == 1 and err.rstrip().endswith(".")


# -- exports -----------------------------------------------------------------------------------


def test_new_exports_carry_the_rules_version(store: Store, rules: Rules) -> None:
    sid = recorded(store, rules, [1])
    assert export_data(store, sid)["session"]["rules_version"] == 1


def test_an_export_written_before_rules_versions_imports(store: Store) -> None:
    """A file written by the app before this change (no rules_version): read as version 1."""
    text = (EXPORTS / "dice-tray-before-rules-versions.json").read_text()
    assert "rules_version" not in text
    done = import_session(store, text, "old.json")
    info = store.session(done.session_id)
    assert (info.game, info.steps, info.status, info.summary) == ("dice", 4, "active", "2 rolls")
    assert info.rules_version == 1
    assert store.log(done.session_id).digests == [s["digest"] for s in json.loads(text)["steps"]]
    game = games.load("dice")
    # The tray's version 2 stores other snapshots, so the states part from the log at once:
    # the file is kept as recorded; every step still asks the same, so it resumes whole.
    assert (done.note is None) == (game.rules_version == 1)
    resumed = resume_session(store, done.session_id, game)
    assert len(resumed.driver.steps) == 4
    assert resumed.notice is not None and "every step still fits the current rules" in resumed.notice
    assert store.session(done.session_id).rules_version == game.rules_version


def test_an_old_reconquista_export_still_imports_and_resumes(store: Store) -> None:
    """A Reconquista game exported before this change: under the rules the app plays now it
    replays (imported as ever) or, rules having changed, is kept as recorded; either way it
    opens for play, from its end or from where the rules part from it."""
    text = (EXPORTS / "reconquista-before-rules-versions.json").read_text()
    done = import_session(store, text, "old.json")
    info = store.session(done.session_id)
    assert info.steps == 60 and info.status == "active"
    game = games.load("reconquista")
    assert (info.rules_version == game.rules_version) == (done.note is None)
    resumed = resume_session(store, done.session_id, game)
    assert resumed.driver.pending is not None
    assert store.session(done.session_id).rules_version == game.rules_version
    assert (resumed.notice is None) == (len(resumed.driver.steps) == 60)


def old_export(store: Store, rules: Rules, rolls: list[int]) -> dict[str, Any]:
    """An export of a Shifting session recorded under version 1, without the rules_version key."""
    data = export_data(store, recorded(store, rules, rolls))
    del data["session"]["rules_version"]
    return data


def test_an_old_export_that_diverges_is_imported_as_recorded(
    tmp_path: Path, store: Store, rules: Rules, clock: Any
) -> None:
    data = old_export(store, rules, [1, 2, 3, 4, 5, 6])
    rules.now = 2
    to = Store(str(tmp_path / "to.db"), clock=clock)
    try:
        done = import_session(to, json.dumps(data), "old.json")
        assert done.note is not None
        assert_one_sentence(done.note)
        assert "recorded under rules version 1" in done.note and "at step 4" in done.note
        info = to.session(done.session_id)
        assert (info.steps, info.status, info.summary, info.rules_version) == (6, "active", "6 answers", 1)
        assert to.state(done.session_id) == data["final_state"]
        log = to.log(done.session_id)
        assert [s.answer for s in log.steps] == [s["answer"] for s in data["steps"]]
        assert log.digests == [s["digest"] for s in data["steps"]]
        events = to.events(done.session_id)
        assert [e.seq for e in events] == list(range(6)) and all(e.kind == "answer" for e in events)
        # Resuming it goes as for any game recorded under earlier rules.
        resumed = resume_session(to, done.session_id, rules.game)
        assert len(resumed.driver.steps) == 3 and resumed.notice is not None
        assert to.session(done.session_id).rules_version == 2
    finally:
        to.close()


def test_companion_import_says_an_old_export_is_kept_as_recorded(
    tmp_path: Path, store: Store, rules: Rules, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "old.json"
    path.write_text(json.dumps(old_export(store, rules, [1, 2, 3, 4, 5])))
    rules.now = 2
    assert main(["--db", str(tmp_path / "to.db"), "import", str(path)]) == EXIT_OK
    assert capsys.readouterr().out == (
        f"Imported {path} as session 1 (shifting, 5 steps, active). It was recorded under rules "
        "version 1 and the current rules (version 2) part from its log at step 4; it is kept as recorded.\n"
    )


def test_an_old_export_that_fits_imports_under_the_current_rules(
    tmp_path: Path, store: Store, rules: Rules, clock: Any
) -> None:
    data = old_export(store, rules, [1, 2, 3])
    rules.now = 2
    to = Store(str(tmp_path / "to.db"), clock=clock)
    try:
        done = import_session(to, json.dumps(data), "old.json")
        assert done.note is None and to.session(done.session_id).rules_version == 2
    finally:
        to.close()


def refused(store: Store, data: dict[str, Any], *words: str) -> None:
    before = (len(store.sessions()), sum(len(store.events(s.id)) for s in store.sessions()))
    with pytest.raises(ImportRefused) as info:
        import_session(store, json.dumps(data), "game.json")
    assert_one_sentence(str(info.value))
    for w in words:
        assert w in str(info.value), str(info.value)
    assert (len(store.sessions()), sum(len(store.events(s.id)) for s in store.sessions())) == before


def test_exports_that_are_refused(tmp_path: Path, store: Store, rules: Rules, clock: Any) -> None:
    old = old_export(store, rules, [1, 2, 3, 4, 5, 6])
    rules.now = 2
    to = Store(str(tmp_path / "to.db"), clock=clock)
    try:
        # Claimed to be of the current rules, and not replaying under them: damage, as ever.
        data = json.loads(json.dumps(old))
        data["session"]["rules_version"] = 2
        refused(to, data, "its log does not replay to the exported game (Step 4:")
        # Of rules newer than the app's.
        data["session"]["rules_version"] = 3
        refused(to, data, "recorded under newer rules of Shifting rules (version 3)", "(version 2)")
        # Kept as recorded only if every answer fits its question...
        data = json.loads(json.dumps(old))
        data["steps"][4]["answer"] = [9]
        refused(to, data, "the answer of step 5 does not fit its question (A d6 shows 1 to 6")
        # ...and the final state is the one the last step logged.
        data = json.loads(json.dumps(old))
        data["final_state"]["answers"][5] = [1]
        refused(to, data, "its final state is not the state its last step logged")
        data = json.loads(json.dumps(old))
        data["session"]["rules_version"] = 0
        refused(to, data, "session.rules_version: input should be greater than or equal to 1")
    finally:
        to.close()


# -- the game screens say it when the game opens -----------------------------------------------


def spoil_prompt(db: str, session_id: int, step: int, prompt: Prompt) -> None:
    """Make the logged question of ``step`` one that earlier rules asked (the rules then change)."""
    con = sqlite3.connect(db)
    con.execute(
        "UPDATE event SET prompt = ? WHERE session_id = ? AND step = ? AND kind = 'answer'",
        (json.dumps(prompt.to_dict()), session_id, step),
    )
    con.commit()
    con.close()


def notes_of(app: CompanionApp) -> list[str]:
    """Every notification the app shows from now on, as its text."""
    shown: list[str] = []
    notify = app.notify

    def record(message: str, **kwargs: Any) -> None:
        shown.append(message)
        notify(message, **kwargs)

    app.notify = record  # type: ignore[method-assign]
    return shown


async def test_the_dice_tray_says_it_goes_on_under_the_current_rules(
    db: str, store: Store, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from companion.dicetray import DiceTray

    sid = store.create_session("dice", 3)
    driver = Driver(games.load("dice"), 3, recorder=store.recorder(sid))
    for text in ("2d6 Attack", "3 5", "1d20 Save", "12"):
        driver.type(text)
    spoil_prompt(db, sid, 1, Roll(2, 6, "Attack of old"))
    recorded_under = DiceTray.rules_version
    monkeypatch.setattr(DiceTray, "rules_version", recorded_under + 1)
    app = CompanionApp(db_path=db, seed=1, clock=clock)
    async with app.run_test(size=WIDE) as pilot:
        shown = notes_of(app)
        await wait_until(pilot, lambda: app.store_ready)
        app.open_session(sid)
        await wait_until(pilot, lambda: type(app.screen).__name__ == "DiceTrayScreen" and bool(shown))
        screen: Any = app.screen
        assert len(screen.driver.steps) == 1
        assert shown == [
            (
                f"This game was recorded under earlier rules (version {recorded_under}): from step 2 the "
                "current rules ask “Roll 2d6: Attack” where the log has “Roll 2d6: Attack of old”; it goes "
                "on from step 2."
            )
        ]
    assert store.session(sid).rules_version == recorded_under + 1 and store.session(sid).steps == 1


async def test_the_reconquista_screen_writes_it_to_its_log(
    db: str, store: Store, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rich.text import Text
    from textual.widgets import RichLog

    from screens.reconquista.game_screen import ReconquistaScreen

    game = games.load("reconquista")
    sid = store.create_session("reconquista", 4, {"dice": "mixed"})
    driver = Driver(game, 4, {"dice": "mixed"}, recorder=store.recorder(sid))
    while len(driver.steps) < 15:
        if isinstance(driver.pending, Roll):
            driver.roll()
        elif isinstance(driver.pending, Tell):
            driver.ack()
        else:
            assert isinstance(driver.pending, Choose)
            driver.submit(driver.pending.options[0], "player")
    k = next(i for i, step in enumerate(driver.steps) if i >= 2 and isinstance(step.prompt, Tell))
    spoil_prompt(db, sid, k, Tell("An instruction of the earlier rules."))
    recorded_under = game.rules_version
    monkeypatch.setattr(game, "rules_version", recorded_under + 1)
    app = CompanionApp(db_path=db, seed=1, clock=clock)
    async with app.run_test(size=WIDE) as pilot:
        shown = notes_of(app)
        await wait_until(pilot, lambda: app.store_ready)
        app.open_session(sid)
        await wait_until(pilot, lambda: isinstance(app.screen, ReconquistaScreen) and bool(shown))
        screen = app.screen
        assert isinstance(screen, ReconquistaScreen) and screen.driver is not None
        assert len(screen.driver.steps) == k
        [notice] = shown
        assert notice.startswith(
            f"This game was recorded under earlier rules (version {recorded_under}): from step {k + 1} "
        )
        assert "where the log has “An instruction of the earlier rules.”" in notice
        panel = screen.query_one("#rq-log", RichLog)
        await pilot.pause()
        text = " ".join(line.text.strip() for line in panel.lines)
        assert Text(notice).plain in text
    assert store.session(sid).rules_version == recorded_under + 1


@pytest.mark.slow  # 1.1 s of CPU: a 134-step match replayed
async def test_history_steps_through_a_simancas_match_of_rules_version_2_to_its_end(
    db: str, store: Store, clock: Any
) -> None:
    """A match written by the app at Simancas rules version 2 (tests/exports) is a game the
    app still plays as recorded (docs/rules-notes.md, Simancas 28): History shows its table
    at its last step, with no parting."""
    import gzip

    text = gzip.decompress((EXPORTS / "simancas-rules-2-finished.json.gz").read_bytes()).decode()
    sid = import_session(store, text, "v2.json").session_id
    count = store.session(sid).steps
    app = CompanionApp(db_path=db, seed=1, clock=clock)
    async with app.run_test(size=WIDE) as pilot:
        await wait_until(pilot, lambda: app.store_ready)
        app.push_screen(SessionLogScreen(sid))
        await wait_until(pilot, lambda: isinstance(app.screen, SessionLogScreen) and app.screen.loaded)
        screen = app.screen
        assert isinstance(screen, SessionLogScreen)
        await wait_until(pilot, lambda: screen.at == 1)
        await pilot.press("end")
        await wait_until(pilot, lambda: screen.at == count)
        assert screen.driver is not None and len(screen.driver.steps) == count
        assert screen.driver.finished
        assert not screen.query_one("#log-parting", Static).display
        assert screen.query_one("#log-state").border_title == f"After step {count} of {count}"
