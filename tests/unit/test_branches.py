"""Branches (#37, items 6-7): a new session whose log is another's up to a step
(``sessions.branch_session``), marked as its branch, and an ordinary session from there on:
it replays to the parent's state at that step, resumes, undoes, corrects, exports and imports
(its origin kept as text, never as a link). A branch of a damaged session, or at a step the log
does not have, is one sentence and makes nothing."""

from __future__ import annotations

import json
import sqlite3

import pytest
from sentences import assert_one_sentence
from test_review_helpers import advance, new_driver, play_reconquista, reconquista_chooser

from companion.cli import main
from companion.driver import Driver, canonical
from companion.errors import EXIT_OK, EXIT_USAGE, StoreError
from companion.games import load
from companion.prompts import Roll
from companion.review.exchange import export_data, export_json, import_session
from companion.sessions import branch_session, resume_session
from companion.store.db import Store

RECONQUISTA = load("reconquista")


def step_at_turn(store: Store, sid: int, turn: int) -> int:
    """The number of steps up to the first step of ``turn`` (the parent's log, as stored)."""
    return next(i for i, ev in enumerate(store.log(sid).events) if ev.turn == turn)


@pytest.mark.slow
def test_a_branch_at_turn_5_replays_to_the_parent_s_state_at_that_step(store: Store) -> None:
    sid, _driver = play_reconquista(store, 6)
    parent = store.log(sid)
    steps = step_at_turn(store, sid, 5)
    assert 0 < steps < len(parent.steps)
    new = branch_session(store, sid, steps)
    branch = store.log(new)
    assert [(s.prompt, s.answer, s.source) for s in branch.steps] == [
        (s.prompt, s.answer, s.source) for s in parent.steps[:steps]
    ]
    assert branch.digests == parent.digests[:steps]
    at_step = Driver.resume(
        RECONQUISTA, store.session(sid).seed, store.session(sid).config, parent.steps[:steps]
    )
    assert json.loads(canonical(at_step.snapshot())) == store.state(new)
    info = store.session(new)
    assert (info.parent_id, info.branch_step, info.branch_of) == (
        sid,
        steps,
        f"session {sid} at step {steps}",
    )
    assert info.status == "active" and info.steps == steps and info.seed == store.session(sid).seed
    assert store.branches(sid) == [(new, steps)] and store.branches(new) == []


@pytest.mark.slow
def test_a_branch_goes_on_as_a_session_of_its_own(store: Store) -> None:
    sid, _driver = play_reconquista(store, 6)
    before = store.log(sid)
    new = branch_session(store, sid, step_at_turn(store, sid, 3))
    driver = resume_session(store, new, RECONQUISTA).driver
    advance(driver, reconquista_chooser(driver, 41), None, lambda _p: len(driver.steps) > 260)
    driver.undo()
    rolled = [i for i, s in enumerate(driver.steps) if isinstance(s.prompt, Roll) and s.source == "app"]
    if rolled:
        k = rolled[-1]
        assert isinstance(driver.steps[k].prompt, Roll)
        driver.correct(k, [1] * driver.steps[k].prompt.n, "physical")
    # Resumed again, it stands where it was left; the parent's log is untouched.
    again = resume_session(store, new, RECONQUISTA).driver
    assert again.snapshot() == driver.snapshot()
    assert [(s.prompt, s.answer) for s in store.log(sid).steps] == [
        (s.prompt, s.answer) for s in before.steps
    ]


def test_a_branch_keeps_the_names_marks_and_notes_of_its_steps(store: Store) -> None:
    sid, driver = new_driver(store, "dice", 5)
    driver.die = "red"
    for faces in ("1", "2", "3"):
        driver.type("1d6")
        driver.type(faces)
    driver.mark_test(1)
    store.set_note(sid, 1, "first roll")
    store.set_note(sid, 5, "last roll")
    store.set_die(sid, "red")
    new = branch_session(store, sid, 4)
    steps = store.log(new).steps
    assert [(s.die, s.test) for s in steps] == [(None, False), ("red", True), (None, False), ("red", False)]
    assert [(n.step, n.text) for n in store.notes(new)] == [(1, "first roll")]
    assert store.session(new).die == "red"


def test_a_branch_exports_and_imports_with_its_origin_as_text(store: Store) -> None:
    sid, driver = new_driver(store, "dice", 5)
    driver.type("1d6")
    driver.roll()
    new = branch_session(store, sid, 2)
    doc = export_data(store, new)
    assert doc["session"]["branch_of"] == f"session {sid} at step 2" and doc["session"]["branch_step"] == 2
    fresh = Store(":memory:")
    fresh.create_session("dice", 1)  # a session numbered as the parent was: never linked to
    done = import_session(fresh, export_json(store, new), "branch.json")
    info = fresh.session(done.session_id)
    assert info.parent_id is None and info.branch_of == f"session {sid} at step 2 (imported)"
    assert fresh.branches(sid) == []
    # Exported and imported again, it says so once.
    again = Store(":memory:")
    twice = import_session(again, export_json(fresh, done.session_id), "again.json")
    assert again.session(twice.session_id).branch_of == f"session {sid} at step 2 (imported)"
    for bad in ("", "x" * 500, "a\x1bb", 5):
        doc2 = export_data(store, new)
        doc2["session"]["branch_of"] = bad
        with pytest.raises(Exception) as info2:
            import_session(Store(":memory:"), json.dumps(doc2), "bad.json")
        assert_one_sentence(str(info2.value))


@pytest.mark.slow
def test_a_branch_of_a_damaged_session_or_a_step_it_has_not_is_assert_one_sentence(store: Store) -> None:
    sid, _driver = play_reconquista(store, 6)
    count = len(store.sessions())
    for steps in (0, 10_000):
        with pytest.raises(StoreError) as info:
            branch_session(store, sid, steps)
        assert_one_sentence(str(info.value))
    with sqlite3.connect(store.path) as con:  # a state recorded that the log does not lead to
        con.execute("UPDATE event SET digest = '0000000000000000' WHERE session_id = ? AND step = 30", (sid,))
    with pytest.raises(StoreError) as info:
        branch_session(store, sid, 40)
    assert_one_sentence(str(info.value))
    assert "cannot be branched" in str(info.value) and "step 31" in str(info.value)
    branch_session(store, sid, 20)  # before the damage: a branch can be made
    with sqlite3.connect(store.path) as con:
        con.execute("UPDATE event SET prompt = '{not json' WHERE session_id = ? AND step = 3", (sid,))
    with pytest.raises(StoreError) as info:
        branch_session(store, sid, 20)
    assert_one_sentence(str(info.value))
    assert len(store.sessions()) == count + 1


def test_deleting_the_parent_leaves_the_branch_with_its_origin_in_words(store: Store) -> None:
    sid, driver = new_driver(store, "dice", 5)
    driver.type("1d6")
    driver.roll()
    new = branch_session(store, sid, 2)
    store.abandon(sid)
    store.delete_session(sid)
    info = store.session(new)
    assert info.parent_id is None and info.branch_of == f"session {sid} at step 2"


def test_companion_branch_prints_the_new_session(
    db: str, store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    sid, driver = new_driver(store, "dice", 5)
    driver.type("1d6")
    driver.roll()
    assert main(["branch", "--db", db, str(sid), "--step", "1"]) == EXIT_OK
    new = int(capsys.readouterr().out)
    assert store.session(new).branch_of == f"session {sid} at step 1" and store.session(new).steps == 1
    assert main(["branch", "--db", db, str(sid)]) == EXIT_OK
    assert store.session(int(capsys.readouterr().out)).steps == 2
    for args in ([str(sid), "--step", "9"], ["99"], [str(sid), "--step", "0"]):
        assert main(["branch", "--db", db, *args]) == EXIT_USAGE
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.rstrip().endswith("."), err
    assert main(["show", "--db", db, str(new)]) == EXIT_OK
    assert f"A branch of session {sid} at step 1" in capsys.readouterr().out


def test_history_lists_a_branch_under_its_parent() -> None:
    """The rows of a page of History: each branch right under its parent (and a branch of a
    branch under that), the others in their order; a cycle edited by hand leaves none out."""
    from types import SimpleNamespace

    from screens.history import under_parents

    def s(i: int, parent: int | None = None) -> SimpleNamespace:
        return SimpleNamespace(id=i, parent_id=parent)

    page = [s(5, 1), s(4), s(3, 5), s(2, 9), s(1), s(7, 8), s(8, 7)]
    assert [x.id for x in under_parents(page)] == [4, 2, 1, 5, 3, 7, 8]
    assert sorted(x.id for x in under_parents(page)) == sorted(x.id for x in page)
