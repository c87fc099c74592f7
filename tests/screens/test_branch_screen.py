"""Branch here on the screens (#37, item 6), at 80x24 and 200x55: b in History's log branches
at the step highlighted, f9 on a game screen at the step on screen; the app asks first, opens
the branch, and the session branched from stays as it was; History lists the branch by its
origin."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import store_ready, wait_until
from test_history_screens import open_log
from textual.widgets import DataTable

from companion.dicetray import GAME
from companion.driver import Driver
from companion.store.db import Store
from screens.app import CompanionApp
from screens.dicetray import DiceTrayScreen
from screens.shell.dialogs import ConfirmDialog

SIZES = [(80, 24), (200, 55)]


def tray(path: Path, clock: Any) -> int:
    store = Store(str(path), clock=clock)
    sid = store.create_session("dice", 4)
    d = Driver(GAME, 4, recorder=store.recorder(sid))
    for faces in ("1", "2", "3"):
        d.type("1d6")
        d.type(faces)
    store.close()
    return sid


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
async def test_b_in_history_s_log_branches_at_the_step_highlighted(
    tmp_path: Path, clock: Any, size: Any
) -> None:
    db = tmp_path / "c.db"
    sid = tray(db, clock)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=size) as pilot:
        screen = await open_log(pilot, sid)
        screen.query_one(DataTable).move_cursor(row=3)
        await pilot.press("b")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        assert "up to step 4" in app.screen.question
        await pilot.press("n")  # no: nothing made
        await pilot.pause()
        assert len(Store(str(db)).sessions()) == 1
        await pilot.press("b")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, DiceTrayScreen))
        branch = app.screen
        assert isinstance(branch, DiceTrayScreen) and branch.session_id != sid
        assert branch.driver is not None and len(branch.driver.steps) == 4
    store = Store(str(db))
    info = store.session(branch.session_id)
    assert info.branch_of == f"session {sid} at step 4" and store.session(sid).steps == 6


@pytest.mark.slow
async def test_f9_on_a_game_screen_branches_at_the_step_on_screen(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    sid = tray(db, clock)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await store_ready(pilot)
        app.resume_session(sid)
        await wait_until(
            pilot, lambda: isinstance(app.screen, DiceTrayScreen) and app.screen.driver is not None
        )
        first = app.screen
        await pilot.press("f9")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, DiceTrayScreen) and app.screen is not first)
        branch = app.screen
        assert (
            isinstance(branch, DiceTrayScreen) and branch.driver is not None and len(branch.driver.steps) == 6
        )
        # History lists it by where it came from.
        await pilot.press("escape")
        await pilot.pause()
        app.action_history()
        await wait_until(pilot, lambda: getattr(app.screen, "loaded", False))
        table = app.screen.query_one("#sessions-table", DataTable)
        rows = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
        assert any(f"⑂ session {sid} at step 6" in " ".join(r) for r in rows)
