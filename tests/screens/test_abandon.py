"""Sessions a player can put away: abandon from Home (x) or from a game (ctrl+x), resume or
delete from History, each after a question naming the session."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import screen_text, store_ready, wait_until
from textual.pilot import Pilot
from textual.widgets import DataTable, OptionList, Select

from companion import dicetray
from companion.driver import Driver
from companion.store.db import Store
from screens.app import CompanionApp, screen_commands
from screens.history import HistoryScreen
from screens.home import HomeScreen
from screens.shell.dialogs import ConfirmDialog
from screens.shell.game_screen import GameScreen

SIZE = (80, 24)


def tray_session(store: Store, seed: int, end: bool = False) -> int:
    sid = store.create_session("dice", seed)
    d = Driver(dicetray.GAME, seed, recorder=store.recorder(sid))
    d.type("2d6 Attack")
    d.roll()
    if end:
        d.type("end")
    return sid


def three_sessions(path: Path, clock: Any) -> Path:
    """Two unfinished dice tray sessions (1, 2) and a finished one (3)."""
    store = Store(str(path), clock=clock)
    for seed in (1, 2):
        tray_session(store, seed)
    tray_session(store, 3, end=True)
    store.close()
    return path


def unfinished(app: Any) -> list[str]:
    listing = app.screen.query_one("#sessions", OptionList)
    return [str(listing.get_option_at_index(i).id) for i in range(listing.option_count)]


def notes(app: Any) -> list[str]:
    return [n.message for n in app._notifications]


def footer(pilot: Pilot[Any]) -> str:
    return screen_text(pilot).splitlines()[-1]


# -- Home -------------------------------------------------------------------------------------


async def test_x_on_home_abandons_the_highlighted_session_after_a_question(
    tmp_path: Path, clock: Any
) -> None:
    db = three_sessions(tmp_path / "c.db", clock)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        assert unfinished(app) == ["2", "1"]
        # The games list has the focus: x has no session to act on and does nothing.
        await pilot.press("x")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert app.screen.check_action("abandon", ()) is None  # shown, dimmed
        await pilot.press("tab")  # to the unfinished sessions: the top one highlighted
        await pilot.pause()
        assert app.screen.check_action("abandon", ()) is True
        assert "Abandon" in footer(pilot)
        await pilot.press("down", "x")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert "Abandon session 1, Dice tray" in screen_text(pilot)
        await pilot.press("n")  # no: nothing changes
        await pilot.pause()
        assert unfinished(app) == ["2", "1"]
        assert Store(str(db)).session(1).status == "active"
        await pilot.press("x", "y")
        await wait_until(pilot, lambda: unfinished(app) == ["2"])
        assert any("Abandoned session 1" in said for said in notes(app))
    assert Store(str(db)).session(1).status == "abandoned"
    assert Store(str(db)).session(2).status == "active"


# -- every game screen ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "game",
    ["dice", *(pytest.param(g, marks=pytest.mark.slow) for g in ("reconquista", "simancas", "castells"))],
)
async def test_ctrl_x_abandons_the_game_on_screen(tmp_path: Path, clock: Any, game: str) -> None:
    db = tmp_path / "c.db"
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        app.start_game(game, {"dice": "app"} if game == "reconquista" else None)
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.driver is not None)
        screen = app.screen
        assert "Abandon this session" in [c.title.split(" (")[0] for c in screen_commands(screen)]
        # ctrl+x works with the focus in a text field too (the dice tray's, Simancas' entry).
        await pilot.press("ctrl+x")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        await pilot.press("escape")  # no
        await pilot.pause()
        assert app.screen is screen
        await pilot.press("ctrl+x", "y")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen))
        assert unfinished(app) == []
        assert any("Abandoned session 1" in said for said in notes(app))
    assert Store(str(db)).session(1).status == "abandoned"


async def test_a_finished_game_has_nothing_to_abandon(tmp_path: Path, clock: Any) -> None:
    db = three_sessions(tmp_path / "c.db", clock)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        app.open_session(3)
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen) and app.screen.driver is not None)
        await pilot.press("ctrl+x")
        await pilot.pause()
        assert isinstance(app.screen, GameScreen)  # no question: nothing to abandon
        assert "there is nothing left to" in screen_text(pilot)
    assert Store(str(db)).session(3).status == "finished"


# -- History ----------------------------------------------------------------------------------


def history_ids(screen: Any) -> list[int]:
    table = screen.query_one("#sessions-table", DataTable)
    return [int(str(table.get_row_at(i)[0])) for i in range(table.row_count)]


async def open_history(pilot: Pilot[Any]) -> HistoryScreen:
    app: Any = pilot.app
    await store_ready(pilot)
    app.action_history()
    await wait_until(pilot, lambda: isinstance(app.screen, HistoryScreen) and app.screen.loaded)
    return app.screen  # type: ignore[no-any-return]


@pytest.mark.slow
async def test_history_filters_resumes_and_deletes_abandoned_sessions(tmp_path: Path, clock: Any) -> None:
    db = three_sessions(tmp_path / "c.db", clock)
    store = Store(str(db))
    store.abandon(1)
    store.abandon(2)
    store.close()
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_history(pilot)
        assert "abandoned" in screen_text(pilot)
        screen.query_one("#filter-status", Select).value = "abandoned"
        await wait_until(pilot, lambda: history_ids(screen) == [2, 1])
        # delete on an abandoned row: asks, naming it; no keeps it
        assert screen.check_action("delete_session", ()) is True
        assert "del Delete" in footer(pilot)
        await pilot.press("delete")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert "Delete session 2, Dice tray" in screen_text(pilot)
        await pilot.press("n")
        await pilot.pause()
        assert history_ids(screen) == [2, 1]
        await pilot.press("delete", "y")
        await wait_until(pilot, lambda: history_ids(screen) == [1])
        assert any("Deleted session 2" in said for said in notes(app))
        # r on the abandoned one resumes it: unfinished again
        await pilot.press("r")
        await wait_until(pilot, lambda: isinstance(app.screen, GameScreen))
        assert app.screen.session_id == 1  # type: ignore[attr-defined]
    store = Store(str(db))
    assert {s.id for s in store.sessions()} == {1, 3}
    assert store.session(1).status == "active"


async def test_delete_is_offered_on_an_abandoned_session_only(tmp_path: Path, clock: Any) -> None:
    db = three_sessions(tmp_path / "c.db", clock)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_history(pilot)
        for _ in range(3):  # unfinished and finished rows: delete does nothing
            assert screen.check_action("delete_session", ()) is False
            assert "Delete" not in footer(pilot)
            await pilot.press("delete")
            await pilot.pause()
            assert app.screen is screen
            await pilot.press("down")
            await pilot.pause()
    assert len(Store(str(db)).sessions()) == 3
