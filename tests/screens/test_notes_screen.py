"""Notes and bookmarks on the screens (#37, items 4-5), at 80x24 and 200x55: f5 on a game screen
writes a note on the step on screen and its log shows it under the step; History's log marks
the noted steps, shows a note as its step is highlighted, jumps between them (n, N) and writes
one on any step; the story lists them. A bad note is one sentence and changes nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import store_ready, wait_until
from test_history_screens import open_log
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, RichLog, Static

from companion.dicetray import GAME
from companion.driver import Driver
from companion.store.db import Store
from screens.app import CompanionApp
from screens.reconquista.game_screen import ReconquistaScreen
from screens.shell.entry_log import EntryLog
from screens.shell.notes import NoteDialog

SIZES = [(80, 24), (200, 55)]


async def write(pilot: Pilot[Any], typed: str, key: str = "enter") -> None:
    """f5, the note typed, then ``key``."""
    await pilot.press("f5")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, NoteDialog))
    pilot.app.screen.query_one("#nd-text", Input).value = typed
    await pilot.press(key)
    await pilot.pause()


def log_text(log: RichLog) -> str:
    return "\n".join(strip.text for strip in log.lines)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
async def test_a_note_on_the_game_screen_goes_under_its_step(tmp_path: Path, clock: Any, size: Any) -> None:
    db = tmp_path / "c.db"
    sid = Store(str(db), clock=clock).create_session("reconquista", 1)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=size) as pilot:
        await store_ready(pilot)
        app.open_session(sid)
        await wait_until(
            pilot, lambda: isinstance(app.screen, ReconquistaScreen) and app.screen.driver is not None
        )
        screen = app.screen
        assert isinstance(screen, ReconquistaScreen)
        await pilot.press("f5")  # nothing answered yet: one sentence, no dialog
        await pilot.pause()
        assert not isinstance(app.screen, NoteDialog)
        assert "Nothing has been answered yet" in str(screen.query_one("#pp-message", Static).render())
        await pilot.press("enter")  # an instruction of the set-up done
        await wait_until(pilot, lambda: screen.driver is not None and len(screen.driver.steps) == 1)
        for bad, said in (("   ", "cannot be empty"), ("x" * 10_000, "at most 2,000 characters")):
            await write(pilot, bad)
            assert isinstance(app.screen, NoteDialog)
            shown = str(app.screen.query_one("#nd-error", Static).render())
            assert said in shown and shown.endswith(".")
            await pilot.press("escape")
            await pilot.pause()
        assert Store(str(db)).notes(sid) == []
        await write(pilot, "one army short / fixed on the table")
        assert app.screen is screen and "Noted step 1" in str(
            screen.query_one("#pp-message", Static).render()
        )
        assert screen.notes == {0: "one army short\nfixed on the table"}
        screen.query_one("#rq-log", EntryLog).display = True
        await pilot.pause()
        assert "✎ one army short / fixed on the table" in " ".join(
            log_text(screen.query_one("#rq-log", EntryLog)).split()
        )
        # ctrl+r in the dialog takes it off.
        await write(pilot, "", key="ctrl+r")
        assert screen.notes == {} and Store(str(db)).notes(sid) == []
        await write(pilot, "kept")
    assert [(n.step, n.text) for n in Store(str(db)).notes(sid)] == [(0, "kept")]


def noted_tray(path: Path, clock: Any) -> int:
    store = Store(str(path), clock=clock)
    sid = store.create_session("dice", 4)
    d = Driver(GAME, 4, recorder=store.recorder(sid))
    for faces in ("1", "2", "3", "4", "5"):
        d.type("1d6")
        d.type(faces)
    store.set_note(sid, 3, "the second roll")
    store.set_note(sid, 7, "the fourth roll")
    store.close()
    return sid


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
async def test_history_shows_jumps_between_and_writes_notes(tmp_path: Path, clock: Any, size: Any) -> None:
    db = tmp_path / "c.db"
    sid = noted_tray(db, clock)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=size) as pilot:
        screen = await open_log(pilot, sid)
        table = screen.query_one(DataTable)
        status = screen.query_one("#log-status", Static)
        assert [str(table.get_row_at(i)[0]) for i in range(table.row_count)][2:5] == ["3", "4 ✎", "5"]
        assert "2 noted" in str(status.render())
        await pilot.press("n")
        await wait_until(pilot, lambda: table.cursor_row == 3)
        await pilot.pause(0.1)
        assert "step 4: the second roll" in str(status.render())
        await pilot.press("n")
        await wait_until(pilot, lambda: table.cursor_row == 7)
        await pilot.press("n")
        await pilot.pause()
        assert table.cursor_row == 7 and "No note after step 8" in str(status.render())
        await pilot.press("N")
        await wait_until(pilot, lambda: table.cursor_row == 3)
        # t then words: the next noted step whose note has them.
        await pilot.press("t")
        await pilot.pause()
        screen.query_one("#log-jump", Input).value = "FOURTH"
        await pilot.press("enter")
        await wait_until(pilot, lambda: table.cursor_row == 7)
        table.move_cursor(row=9)
        await pilot.pause()
        await write(pilot, "the last roll")
        assert str(table.get_row_at(9)[0]) == "10 ✎" and "step 10: the last roll" in str(status.render())
    assert [n.step for n in Store(str(db)).notes(sid)] == [3, 7, 9]


@pytest.mark.slow
async def test_the_story_lists_the_notes(tmp_path: Path, clock: Any) -> None:
    from screens.story import StoryScreen

    db = tmp_path / "c.db"
    sid = noted_tray(db, clock)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await store_ready(pilot)
        app.push_screen(StoryScreen(sid))
        await wait_until(pilot, lambda: isinstance(app.screen, StoryScreen) and app.screen.ready)
        notes = str(app.screen.query_one("#story-notes", Static).render())
        assert "step 4: the second roll" in notes and "step 8: the fourth roll" in notes


@pytest.mark.slow
async def test_a_note_in_the_dice_tray_marks_its_roll(tmp_path: Path, clock: Any) -> None:
    from screens.dicetray import DiceTrayScreen

    db = tmp_path / "c.db"
    sid = noted_tray(db, clock)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await store_ready(pilot)
        app.resume_session(sid)
        await wait_until(
            pilot, lambda: isinstance(app.screen, DiceTrayScreen) and app.screen.driver is not None
        )
        table = app.screen.query_one("#rolls", DataTable)
        labels = [str(table.get_row_at(i)[1]) for i in range(table.row_count)]
        assert [label.startswith("✎") for label in labels] == [False, True, False, True, False]
        await write(pilot, "the fifth roll")
        labels = [str(table.get_row_at(i)[1]) for i in range(table.row_count)]
        assert labels[4].startswith("✎")
