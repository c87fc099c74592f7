"""Undo to a step (f6): any step of the log, picked from a list, is taken back with every step
after it, after a question naming them all; ctrl+y brings them all back."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import store_ready, wait_until
from textual.widgets import OptionList

from companion import dicetray
from companion.driver import Driver
from companion.store.db import Store
from screens.app import CompanionApp, screen_commands
from screens.shell.dialogs import ConfirmDialog
from screens.shell.game_screen import GameScreen
from screens.shell.step_dialogs import UndoToDialog

SIZE = (80, 24)


def tray(path: Path, clock: Any) -> Path:
    """A dice tray session of three rolls: six steps (what to roll, the dice) three times."""
    store = Store(str(path), clock=clock)
    sid = store.create_session("dice", 5)
    d = Driver(dicetray.GAME, 5, recorder=store.recorder(sid))
    for spec, dice in (("2d6 Attack", "3 5"), ("1d6 Siege", "4"), ("3d6 Famine", "1 2 3")):
        d.type(spec)
        d.type(dice)
    store.close()
    return path


@pytest.mark.slow
async def test_f6_takes_back_to_the_step_picked_and_ctrl_y_brings_it_all_back(
    tmp_path: Path, clock: Any
) -> None:
    db = tray(tmp_path / "c.db", clock)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        app.open_session(1)
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.driver is not None)
        game: Any = app.screen
        d = game.driver
        whole = (list(d.steps), d.snapshot())
        assert "Undo to a step" in [c.title.split(" (")[0] for c in screen_commands(game)]
        await pilot.press("f6")
        await pilot.pause()
        assert isinstance(app.screen, UndoToDialog)
        listing = app.screen.query_one(OptionList)
        # The newest step first, each by its number.
        ids = [listing.get_option_at_index(i).id for i in range(listing.option_count)]
        assert ids == ["5", "4", "3", "2", "1", "0"]
        assert str(listing.get_option_at_index(0).prompt).split()[:1] == ["6"]
        await pilot.press("down", "down", "down", "enter")  # step 3: the second roll's spec
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert "before step 3" in app.screen.question and "the dice 4" in app.screen.question
        await pilot.press("n")  # no: nothing changes
        await pilot.pause()
        assert len(d.steps) == 6
        await pilot.press("f6", "down", "down", "down", "enter", "y")
        await wait_until(pilot, lambda: len(d.steps) == 2)
        assert [s.answer for s in d.steps] == ["2d6 Attack", [3, 5]]
        await pilot.press("ctrl+y")
        await wait_until(pilot, lambda: len(d.steps) == 6)
        assert (list(d.steps), d.snapshot()) == whole
        await pilot.press("f6", "escape")  # escape: nothing changes
        await pilot.pause()
        assert app.screen is game and len(d.steps) == 6
    assert len(Store(str(db)).log(1).steps) == 6


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 55)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_undo_to_a_step(
    snap_compare: Any, tmp_path: Path, clock: Any, size: tuple[int, int]
) -> None:
    """The step picker over the Dice tray: the newest step first, each numbered, the hint whole."""
    app = CompanionApp(db_path=str(tray(tmp_path / "c.db", clock)), seed=1, clock=clock)

    async def before(pilot: Any) -> None:
        await store_ready(pilot)
        app.open_session(1)
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.driver is not None)
        await pilot.press("f6")
        await wait_until(pilot, lambda: isinstance(app.screen, UndoToDialog))

    assert snap_compare(app, terminal_size=size, run_before=before)
