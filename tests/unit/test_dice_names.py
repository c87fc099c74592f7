"""The dice a player names and the rolls marked as test rolls (#36, item 5): the name checked
(companion/dice.py), logged with each roll typed from the table and kept through a redo, a
correction and a resume (the driver and the store), the marks kept and taken off, both carried
by an export and an import, and the luck ledger per named die without the test rolls, each
figure against a count made here from the driver's own steps."""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from sentences import assert_one_sentence
from test_review_helpers import new_driver

from companion.dice import DIE_NAME_MAX, die_name, is_die_name
from companion.driver import Driver
from companion.errors import StoreError
from companion.prompts import BadAnswer, Roll
from companion.review.exchange import ImportRefused, export_data, import_session
from companion.review.luck import face_test, luck
from companion.store import preflight
from companion.store.db import Store

# -- the name ----------------------------------------------------------------------------


def test_a_name_is_kept_as_typed_but_its_spaces() -> None:
    assert die_name("  red   d6 ") == "red d6"
    assert die_name("Würfel № 3 🎲") == "Würfel № 3 🎲"
    assert die_name("x" * DIE_NAME_MAX) == "x" * DIE_NAME_MAX
    assert is_die_name("red d6") and not is_die_name(" red d6") and not is_die_name(None)


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("", "cannot be empty"),
        ("   ", "cannot be empty"),
        ("x" * 500, "at most 40 characters; that one has 500"),
        ("red\x1b[31m", "control characters"),
        ("red\u202ed6", "control characters"),
    ],
)
def test_a_bad_name_is_assert_one_sentence(typed: str, said: str) -> None:
    with pytest.raises(ValueError) as info:
        die_name(typed)
    assert_one_sentence(str(info.value))
    assert said in str(info.value)


# -- the driver and the store -------------------------------------------------------------


def tray(store: Store, seed: int = 5) -> tuple[int, Driver]:
    return new_driver(store, "dice", seed)


def test_a_roll_typed_from_the_table_is_logged_with_the_dice_named(store: Store) -> None:
    sid, driver = tray(store)
    driver.type("2d6")
    unnamed = driver.type("3 4")
    assert store.set_die(sid, "  red  d6") == "red d6"
    driver.die = "red d6"
    driver.type("2d6")
    named = driver.type("6 6")
    driver.type("2d6")
    by_app = driver.roll()
    assert (unnamed.die, named.die, by_app.die) == (None, "red d6", None)  # the app's dice are no one's
    log = store.log(sid)
    assert [s.die for s in log.steps if isinstance(s.prompt, Roll)] == [None, "red d6", None]
    assert store.session(sid).die == "red d6" and store.session(sid).to_json()["die"] == "red d6"
    assert store.die_names() == ["red d6"]
    with pytest.raises(ValueError):
        store.set_die(sid, "x" * 500)
    assert store.session(sid).die == "red d6"  # nothing changed


def test_a_resumed_session_rolls_with_the_dice_named_last(store: Store) -> None:
    from companion.dicetray import GAME
    from companion.sessions import resume_session

    sid, _driver = tray(store)
    store.set_die(sid, "blue")
    assert resume_session(store, sid, GAME).driver.die == "blue"
    store.set_die(sid, None)
    assert resume_session(store, sid, GAME).driver.die is None


def test_the_name_and_the_mark_are_facts_of_the_roll_through_redo_and_correction(store: Store) -> None:
    sid, driver = tray(store)
    driver.die = "red"
    driver.type("1d6")
    driver.type("2")
    driver.mark_test(1)
    driver.die = "blue"  # other dice on the table now: the roll was still the red one's
    driver.undo()
    driver.redo()
    assert (driver.steps[1].die, driver.steps[1].test) == ("red", True)
    driver.correct(1, [5], "physical")  # a die mistyped: the same roll, of the same dice
    assert (driver.steps[1].answer, driver.steps[1].die, driver.steps[1].test) == ([5], "red", True)
    step = store.log(sid).steps[1]
    assert (step.answer, step.die, step.test) == ([5], "red", True)


def test_a_mark_is_taken_off_and_the_newest_stands(store: Store) -> None:
    sid, driver = tray(store)
    driver.type("1d6")
    driver.type("2")
    driver.mark_test(1, True)
    assert store.log(sid).steps[1].test
    driver.mark_test(1, False)
    assert not store.log(sid).steps[1].test
    store.mark_test(sid, 1, True)  # History marks a session not open
    assert store.log(sid).steps[1].test


def test_a_mark_on_a_step_that_is_no_roll_is_one_sentence_and_changes_nothing(store: Store) -> None:
    sid, driver = tray(store)
    driver.type("1d6")
    driver.type("2")
    for mark in (lambda: driver.mark_test(0), lambda: driver.mark_test(9)):
        with pytest.raises(BadAnswer) as info:
            mark()
        assert_one_sentence(str(info.value))
    with pytest.raises(StoreError) as info2:
        store.mark_test(sid, 0)
    assert_one_sentence(str(info2.value))
    assert "not a roll" in str(info2.value)
    with pytest.raises(StoreError):
        store.mark_test(sid, 7)
    with sqlite3.connect(store.path) as con:
        assert con.execute("SELECT COUNT(*) FROM roll_mark").fetchone() == (0,)


def test_deleting_a_session_deletes_its_marks(store: Store) -> None:
    sid, driver = tray(store)
    driver.type("1d6")
    driver.type("2")
    driver.mark_test(1)
    store.abandon(sid)
    store.delete_session(sid)
    with sqlite3.connect(store.path) as con:
        assert con.execute("SELECT COUNT(*) FROM roll_mark").fetchone() == (0,)


def test_a_database_of_0007_gets_names_and_marks(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    store = Store(str(path))
    sid, driver = tray(store)
    driver.type("2d6")
    driver.type("1 2")
    store.close()
    with sqlite3.connect(path) as con:  # as revision 0007 left it
        con.execute("DROP TABLE roll_mark")
        con.execute("ALTER TABLE event DROP COLUMN die")
        con.execute("ALTER TABLE session DROP COLUMN die")
        con.execute("UPDATE alembic_version SET version_num = '0007'")
    assert preflight.check(str(path)) == "0007"
    store = Store(str(path))
    assert preflight.check(str(path)) == preflight.HEAD
    step = store.log(sid).steps[1]
    assert (step.answer, step.die, step.test) == ([1, 2], None, False)
    store.mark_test(sid, 1)
    assert store.log(sid).steps[1].test


def test_a_name_edited_by_hand_into_no_name_counts_as_unnamed(store: Store) -> None:
    sid, driver = tray(store)
    driver.die = "red"
    driver.type("1d6")
    driver.type("3")
    with sqlite3.connect(store.path) as con:
        con.execute("UPDATE event SET die = ? WHERE die = 'red'", ("\x1b[2J" * 30,))
        con.execute("UPDATE session SET die = ?", ("",))
    assert store.log(sid).steps[1].die is None and store.session(sid).die is None
    d6 = luck(store).dice[0]
    assert d6.physical.counts == (0, 0, 1, 0, 0, 0) and d6.physical.die is None and d6.named == ()


# -- the ledger -----------------------------------------------------------------------------


NAMES = (None, "red", "blue", "old green")


def played(store: Store, seed: int, rolls: int) -> tuple[int, Driver]:
    """A tray of d6 and d8 rolls: typed from the table with a name changing now and then, by
    the app, some undone, some marked as test rolls and some of those unmarked."""
    r = random.Random(seed)
    sid, driver = tray(store, seed)
    for _ in range(rolls):
        if r.random() < 0.2:
            driver.die = r.choice(NAMES)
        sides = r.choice((6, 6, 8))
        driver.type(f"{r.randint(1, 2)}d{sides}")
        prompt = driver.pending
        assert isinstance(prompt, Roll)
        if r.random() < 0.3:
            driver.roll()
        else:
            driver.type(" ".join(str(r.randint(1, sides)) for _ in range(prompt.n)))
        if r.random() < 0.1:
            driver.undo()
            driver.roll()
        if r.random() < 0.15:
            driver.mark_test(len(driver.steps) - 1)
        if r.random() < 0.05:
            rolled = [i for i, s in enumerate(driver.steps) if s.test]
            if rolled:
                driver.mark_test(r.choice(rolled), False)
    return sid, driver


def counted_here(drivers: list[Driver]) -> dict[tuple[int, str, str | None], list[int]]:
    """The faces of every roll not marked as a test roll, by (sides, source, name), counted
    from the drivers' own steps."""
    out: dict[tuple[int, str, str | None], list[int]] = {}
    for driver in drivers:
        for step in driver.steps:
            if isinstance(step.prompt, Roll) and not step.test:
                key = (step.prompt.sides, step.source, step.die)
                counts = out.setdefault(key, [0] * step.prompt.sides)
                for face in step.answer:
                    counts[face - 1] += 1
    return out


@pytest.mark.slow
def test_the_ledger_tests_each_named_die_and_leaves_the_test_rolls_out(store: Store) -> None:
    drivers = [played(store, seed, 80)[1] for seed in (1, 2, 3)]
    here = counted_here(drivers)
    ledger = luck(store)
    assert [d.sides for d in ledger.dice] == sorted({k[0] for k in here})
    shown = 0
    for die in ledger.dice:
        typed = [c for (s, src, _), c in here.items() if s == die.sides and src == "physical"]
        assert list(die.physical.counts) == [sum(col) for col in zip(*typed, strict=True)]
        assert list(die.app.counts) == here.get((die.sides, "app", None), [0] * die.sides)
        names = sorted(n for (s, src, n) in here if s == die.sides and src == "physical" and n)
        assert [t.die for t in die.named] == names
        for test in die.named:
            assert list(test.counts) == here[(die.sides, "physical", test.die)]
            # the verdict names the die; the figures are those of its counts tested alone
            alone = face_test(die.sides, "physical", test.counts)
            assert f"'{test.die}'" in test.verdict and test.chi2 == alone.chi2 and test.p == alone.p
        shown += len(die.tests())
    assert any(d.named for d in ledger.dice)  # more than one die of a size was named
    every = [t for d in ledger.dice for t in d.tests() if t.p is not None]
    assert every and all(t.tests == len(every) for t in every) and shown >= len(every)
    js = ledger.to_json()
    assert [t["die"] for t in js["dice"][0]["named"]] == [t.die for t in ledger.dice[0].named]


def test_one_named_die_alone_is_the_typed_dice_by_its_name(store: Store) -> None:
    _sid, driver = tray(store)
    driver.die = "red d6"
    for faces in ("1", "6", "6", "3"):
        driver.type("1d6")
        driver.type(faces)
    d6 = luck(store).dice[0]
    assert d6.physical.die == "red d6" and d6.named == () and d6.physical.name == "red d6"
    assert d6.physical.counts == (1, 0, 1, 0, 0, 2) and "your d6 'red d6'" in d6.physical.verdict


def test_a_test_roll_is_left_out_of_the_counts_and_counted_again_unmarked(store: Store) -> None:
    _sid, driver = tray(store)
    driver.type("3d6")
    driver.type("6 6 6")
    driver.type("1d6")
    driver.type("1")
    assert luck(store).dice[0].physical.counts == (1, 0, 0, 0, 0, 3)
    driver.mark_test(1)
    assert luck(store).dice[0].physical.counts == (1, 0, 0, 0, 0, 0)
    driver.mark_test(1, False)
    assert luck(store).dice[0].physical.counts == (1, 0, 0, 0, 0, 3)


# -- export and import ------------------------------------------------------------------------


def test_names_and_marks_go_through_an_export_and_the_ledger_is_the_same(store: Store) -> None:
    sid, _driver = played(store, 7, 150)
    store.set_die(sid, "blue")
    text = json.dumps(export_data(store, sid))
    fresh = Store(":memory:")
    done = import_session(fresh, text, "game.json")
    a, b = luck(store).to_json(), luck(fresh).to_json()
    a["scope"] = b["scope"] = ""
    assert a == b
    assert [(s.die, s.test) for s in fresh.log(done.session_id).steps] == [
        (s.die, s.test) for s in store.log(sid).steps
    ]
    assert fresh.session(done.session_id).die == "blue"


def test_an_export_without_names_reads_as_before(store: Store) -> None:
    sid, driver = tray(store)
    driver.type("1d6")
    driver.type("4")
    doc = export_data(store, sid)
    assert all("die" not in s and "test_roll" not in s for s in doc["steps"]) and "die" not in doc["session"]


def changed(store: Store, sid: int, step: int, **change: Any) -> str:
    doc = export_data(store, sid)
    doc["steps"][step].update(change)
    return json.dumps(doc)


@pytest.mark.parametrize(
    ("step", "change", "said"),
    [
        (0, {"test_roll": True}, "marked as a test roll but rolls no dice"),
        (1, {"die": ""}, "cannot be empty"),
        (1, {"die": "x" * 500}, "at most 40 characters"),
        (1, {"die": 6}, "string"),
        (1, {"test_roll": "yes"}, "boolean"),
        (3, {"die": "red"}, "not typed from the table"),  # an app roll
    ],
)
def test_a_bad_name_or_mark_in_an_import_is_assert_one_sentence(
    store: Store, step: int, change: Any, said: str
) -> None:
    sid, driver = tray(store)
    driver.type("1d6")
    driver.type("4")
    driver.type("1d6")
    driver.roll()
    fresh = Store(":memory:")
    with pytest.raises(ImportRefused) as info:
        import_session(fresh, changed(store, sid, step, **change), "bad.json")
    assert_one_sentence(str(info.value))
    assert said in str(info.value)
    assert fresh.sessions() == []


def test_a_session_recorded_again_under_new_rules_keeps_its_names_and_marks(store: Store) -> None:
    """A log whose steps lead elsewhere under the current rules is recorded again (refit):
    the same answers, and the same dice and test marks."""
    from companion.dicetray import GAME
    from companion.sessions import resume_session

    sid = store.create_session("dice", 3, rules_version=1)
    driver = Driver(GAME, 3, recorder=store.recorder(sid))
    driver.die = "red"
    driver.type("1d6")
    driver.type("4")
    driver.type("1d6")
    driver.type("5")
    driver.mark_test(3)
    with sqlite3.connect(store.path) as con:  # the states version 1 led to: not this version's
        con.execute("UPDATE event SET digest = '0000000000000000'")
    resumed = resume_session(store, sid, GAME).driver
    with sqlite3.connect(store.path) as con:
        assert con.execute("SELECT COUNT(*) FROM event WHERE kind = 'rewind'").fetchone() == (1,)
    assert [(s.die, s.test) for s in store.log(sid).steps] == [
        (None, False),
        ("red", False),
        (None, False),
        ("red", True),
    ]
    assert [(s.die, s.test) for s in resumed.steps] == [
        (None, False),
        ("red", False),
        (None, False),
        ("red", True),
    ]
    assert luck(store).dice[0].physical.counts == (0, 0, 0, 1, 0, 0)
