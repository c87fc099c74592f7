"""Naming the dice and marking test rolls on the screens (#36, item 5): f7 on the screens that
roll dice (the Dice tray, Reconquista, Terra de Castells; not the Battle of Simancas, which
rolls none), f8 in the Dice tray and in History's log, at the smallest and the largest size;
a bad name or a mark on a step that is no roll gets one sentence and changes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import store_ready, wait_until
from test_history_screens import open_log
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Static

from companion.dicetray import GAME
from companion.driver import Driver
from companion.store.db import Store
from screens.app import CompanionApp
from screens.dicetray import DiceTrayScreen
from screens.review import LuckScreen
from screens.shell.dice_names import DiceNameDialog

SIZES = [(80, 24), (200, 55)]


def message(app: CompanionApp) -> str:
    return str(app.screen.query_one("#pp-message", Static).render())


async def open_tray(pilot: Pilot[Any]) -> DiceTrayScreen:
    await store_ready(pilot)
    await pilot.press("d")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, DiceTrayScreen))
    return pilot.app.screen  # type: ignore[return-value]


async def name(pilot: Pilot[Any], typed: str) -> None:
    """f7, then a new name typed and Enter."""
    await pilot.press("f7")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, DiceNameDialog))
    field = pilot.app.screen.query_one("#dn-new", Input)
    field.focus()
    field.value = typed
    await pilot.press("enter")
    await pilot.pause()


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
async def test_the_dice_named_in_the_tray_go_with_each_roll_typed(
    tmp_path: Path, clock: Any, size: Any
) -> None:
    db = tmp_path / "c.db"
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=size) as pilot:
        screen = await open_tray(pilot)
        await pilot.press("4", "space", "2", "enter")
        for bad, said in (("   ", "cannot be empty"), ("x" * 500, "at most 40 characters")):
            await name(pilot, bad)
            assert isinstance(app.screen, DiceNameDialog)  # asked again, nothing changed
            shown = str(app.screen.query_one("#dn-error", Static).render())
            assert said in shown and shown.endswith(".")
            await pilot.press("escape")
            await pilot.pause()
        assert screen.driver is not None and screen.driver.die is None
        await name(pilot, "  red   d6 ")
        assert app.screen is screen and "'red d6'" in message(app)
        why = str(screen.query_one("#pp-why", Static).render())
        assert "(red d6)" in why  # the field says which dice it asks for
        await pilot.press("6", "space", "6", "enter")
        await pilot.press("r")
        await pilot.pause()
        table = screen.query_one("#rolls", DataTable)
        sources = [str(table.get_row_at(i)[5]) for i in range(table.row_count)]
        assert sources == ["table", "table (red d6)", "app"]
        # f8: the roll highlighted (the last) is a test roll; again: it is not.
        await pilot.press("f8")
        await pilot.pause()
        assert "Roll 3 is marked as a test roll" in message(app)
        assert str(table.get_row_at(2)[5]) == "app · test"
        await pilot.press("f8")
        await pilot.pause()
        assert "Roll 3 is no longer a test roll" in message(app)
        await pilot.press("f8")
        await pilot.pause()
        # A name used before is offered first and picked with Enter.
        await pilot.press("f7")
        await wait_until(pilot, lambda: isinstance(app.screen, DiceNameDialog))
        await pilot.press("up", "enter")  # "No name"
        await pilot.pause()
        assert screen.driver.die is None and "no name" in message(app)
    store = Store(str(db))
    rolls = [s for s in store.log(1).steps if s.prompt.kind == "roll"]
    assert [(s.die, s.test) for s in rolls] == [(None, False), ("red d6", False), (None, True)]
    assert store.session(1).die is None and store.die_names() == ["red d6"]


async def test_the_name_is_kept_with_the_session_and_shown_again(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    store = Store(str(db), clock=clock)
    sid = store.create_session("dice", 4)
    Driver(GAME, 4, recorder=store.recorder(sid)).type("1d6")
    store.set_die(sid, "blue")
    store.close()
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await store_ready(pilot)
        app.resume_session(sid)
        await wait_until(
            pilot, lambda: isinstance(app.screen, DiceTrayScreen) and app.screen.driver is not None
        )
        screen = app.screen
        assert (
            isinstance(screen, DiceTrayScreen) and screen.driver is not None and screen.driver.die == "blue"
        )
        assert "(blue)" in str(screen.query_one("#pp-why", Static).render())
        await pilot.press("3", "enter")
        await pilot.pause()
    assert Store(str(db)).log(sid).steps[-1].die == "blue"


@pytest.mark.parametrize("size", SIZES)
async def test_history_marks_a_roll_and_refuses_a_step_that_is_none(
    tmp_path: Path, clock: Any, size: Any
) -> None:
    db = tmp_path / "c.db"
    store = Store(str(db), clock=clock)
    sid = store.create_session("dice", 4)
    d = Driver(GAME, 4, recorder=store.recorder(sid))
    d.type("2d6")
    d.type("1 1")
    store.close()
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=size) as pilot:
        screen = await open_log(pilot, sid)
        status = screen.query_one("#log-status", Static)
        table = screen.query_one(DataTable)
        table.move_cursor(row=0)
        await pilot.press("f8")
        await pilot.pause()
        said = str(status.render())
        assert "Step 1 is not a roll of dice" in said and said.endswith(".")
        table.move_cursor(row=1)
        await pilot.press("f8")
        await pilot.pause()
        assert "Step 2 is marked as a test roll" in str(status.render())
        assert str(table.get_row_at(1)[-1 if size[0] < 100 else -2]).endswith("· test")
    steps = Store(str(db)).log(sid).steps
    assert [s.test for s in steps] == [False, True]


@pytest.mark.slow
async def test_f7_is_offered_where_dice_are_rolled(tmp_path: Path, clock: Any) -> None:
    from screens.reconquista.game_screen import ReconquistaScreen
    from screens.simancas.game_screen import SimancasScreen

    db = tmp_path / "c.db"
    store = Store(str(db), clock=clock)
    games = [
        (store.create_session("reconquista", 1), ReconquistaScreen, True),
        (store.create_session("simancas", 1, {"guide": False, "setup": True}), SimancasScreen, False),
    ]
    store.close()
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await store_ready(pilot)
        for sid, kind, rolls in games:
            app.open_session(sid)
            await wait_until(
                pilot, lambda kind=kind: isinstance(app.screen, kind) and app.screen.driver is not None
            )
            assert app.screen.check_action("name_dice", ()) is rolls
            app.pop_screen()
            await pilot.pause()


def named_dice_db(path: Path, clock: Any) -> Path:
    """A tray of d6 rolls: a red die, a blue one (five sixes in a row), unnamed dice, the app's,
    and a test roll of twenty ones that the ledger leaves out."""
    store = Store(str(path), clock=clock)
    sid = store.create_session("dice", 8)
    d = Driver(GAME, 8, recorder=store.recorder(sid))
    for die, faces in (
        (None, "1 2 3 4 5 6"),
        ("red d6", "3 1 4 1 5 2 6 5 3 5 2 6"),
        ("blue d6", "6 6 6 6 6 2 1 3"),
    ):
        d.die = die
        for face in faces.split():
            d.type("1d6")
            d.type(face)
    for _ in range(6):
        d.type("1d6")
        d.roll()
    d.type("20d6 Test")
    d.type(" ".join(["1"] * 20))
    d.mark_test(len(d.steps) - 1)
    store.close()
    return path


@pytest.mark.slow
@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_snapshot_luck_ledger_named_dice(snap_compare: Any, tmp_path: Path, clock: Any, size: Any) -> None:
    from test_history_screens import open_history

    app = CompanionApp(db_path=str(named_dice_db(tmp_path / "c.db", clock)), seed=1, clock=clock)

    async def before(pilot: Pilot[Any]) -> None:
        await open_history(pilot)
        await pilot.press("l")
        await wait_until(pilot, lambda: isinstance(app.screen, LuckScreen) and app.screen.ready)

    assert snap_compare(app, terminal_size=size, run_before=before)
