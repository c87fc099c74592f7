"""The Battle of Simancas and Terra de Castells killed with SIGKILL mid-game lose nothing:
restarted, each resumes exactly where it was, at the question that waited, and plays on.

The real `companion` command runs in a pseudo-terminal (tests/e2e/test_kill_resume.py's
TerminalApp); a session is prepared in the database, resumed from the home screen, answered
from the keyboard, killed, and resumed again.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from castells_helpers import feed, setup_answers
from test_kill_resume import TerminalApp, committed, wait_for

from companion.castells.game import GAME as CASTELLS
from companion.driver import Driver
from companion.sessions import resume_session
from companion.simancas.game import GAME as SIMANCAS
from companion.store.db import Store

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="uses a Linux pseudo-terminal")

SETUP = setup_answers(["Anna", "Bo"], [2, 1], {"Anna": ["Tortosa", "Mora"], "Bo": ["Lleida", "Siurana"]})


def resume_first_session(app: TerminalApp, shows: bytes) -> None:
    """On the home screen, Tab to the unfinished sessions and Enter resumes the first."""
    wait_for(lambda: b"Unfinished sessions" in app.output, "the home screen")
    wait_for(lambda: b"#1 " in app.output, "the unfinished session listed")
    time.sleep(0.5)  # the store opens in the background
    app.type(b"\t")
    time.sleep(0.3)
    app.type(b"\r")
    wait_for(lambda: shows in app.output, "the resumed game")
    time.sleep(0.5)


def replayed(db: Path, game: object) -> Driver:
    """The session as the store resumes it: its log replayed."""
    store = Store(str(db))
    try:
        return resume_session(store, 1, game).driver  # type: ignore[arg-type]
    finally:
        store.close()


def test_a_simancas_match_killed_resumes_where_it_was(tmp_path: Path) -> None:
    db = tmp_path / "kill.db"
    store = Store(str(db))
    sid = store.create_session("simancas", 3, {"guide": False})
    store.close()
    assert sid == 1
    app = TerminalApp(db, seed=9)
    try:
        resume_first_session(app, b"to play")
        app.type(b"jund\r")
        wait_for(lambda: len(committed(db)) == 1, "the card placed")
    finally:
        app.kill()
    before = committed(db)
    waiting = replayed(db, SIMANCAS).pending
    assert waiting is not None
    app = TerminalApp(db, seed=10)
    try:
        resume_first_session(app, b"to play")
        # The question that waited is the one on screen again: the Christians to play.
        assert b"Christians to play" in app.output
        app.type(b"knights\r")
        wait_for(lambda: len(committed(db)) == 2, "the card placed after the resume")
    finally:
        app.kill()
    after = committed(db)
    assert after[:1] == before and [step for _s, step, _a, _src in after] == [0, 1]
    assert [a for _s, _step, a, _src in after] == ['"Moors place Jund Cavalry"', '"Christians place Knights"']
    table = replayed(db, SIMANCAS).state.table
    assert table.placed == {"moors": ["Jund Cavalry"], "christians": ["Knights"]}


def test_a_castells_game_killed_resumes_where_it_was(tmp_path: Path) -> None:
    db = tmp_path / "kill.db"
    store = Store(str(db))
    sid = store.create_session("castells", 4)
    feed(Driver(CASTELLS, 4, recorder=store.recorder(sid)), SETUP)
    store.close()
    start = len(committed(db))
    pending = replayed(db, CASTELLS).pending
    assert pending is not None and pending.topic == "castells.resources.draw"
    app = TerminalApp(db, seed=9)
    try:
        resume_first_session(app, b"Draw from the bag")
        app.type(b"riu\r")  # the territory that came out of the bag, typed
        wait_for(lambda: len(committed(db)) > start, "the draw")
    finally:
        app.kill()
    before = committed(db)
    assert before[start][2] == '"Riu"' and before[start][3] == "player"
    waiting = replayed(db, CASTELLS).pending
    assert waiting is not None
    app = TerminalApp(db, seed=10)
    try:
        resume_first_session(app, b"Castles")
        app.type(b"\r" if waiting.kind == "tell" else b"1")  # answer what waited, by its key
        wait_for(lambda: len(committed(db)) > len(before), "an answer after the resume")
    finally:
        app.kill()
    after = committed(db)
    assert after[: len(before)] == before, "an answer committed before the kill was lost or changed"
    assert [step for _s, step, _a, _src in after] == list(range(len(after)))
    assert replayed(db, CASTELLS).state.bag["Riu"] == 3  # the token drawn stays out of the bag
