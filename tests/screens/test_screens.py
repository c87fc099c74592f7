"""The screens driven as a user would (Pilot), and their snapshots (SVGs in snapshots/)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import screen_text, store_ready, wait_until
from rich.text import Text
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, OptionList, Static

from companion.dicetray import GAME
from companion.driver import Driver
from companion.store.db import Store
from screens.app import CompanionApp
from screens.dicetray import DiceTrayScreen
from screens.history import HistoryScreen, SessionLogScreen
from screens.home import HomeScreen

SIZE = (100, 30)


def seeded_db(path: Path, clock: Any) -> Path:
    """A database with one unfinished dice tray session (3 rolls) and one ended one."""
    store = Store(str(path), clock=clock)
    sid = store.create_session("dice", 11)
    d = Driver(GAME, 11, recorder=store.recorder(sid))
    d.type("2d6 Attack")
    d.type("3 5")
    d.type("")
    d.roll()
    d.type("1d20 Initiative")
    d.type("17")
    done = store.create_session("dice", 12)
    d2 = Driver(GAME, 12, recorder=store.recorder(done))
    d2.type("3d6 Famine")
    d2.roll()
    d2.type("end")
    store.close()
    return path


def app_for(path: Path, clock: Any) -> CompanionApp:
    return CompanionApp(db_path=str(path), seed=99, clock=clock)


def message(app: CompanionApp) -> str:
    return str(app.screen.query_one("#pp-message", Static).render())


def table_rows(app: CompanionApp, selector: str) -> list[list[str]]:
    table = app.screen.query_one(selector, DataTable)
    return [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]


# -- Pilot tests ---------------------------------------------------------------


async def test_home_lists_games_and_only_unfinished_sessions(tmp_path: Path, clock: Any) -> None:
    app = app_for(seeded_db(tmp_path / "c.db", clock), clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        games = app.screen.query_one("#games", OptionList)
        titles = [str(games.get_option_at_index(i).prompt) for i in range(games.option_count)]
        assert any("Reconquista" in t for t in titles)
        assert any("Dice tray" in t for t in titles)
        sessions = app.screen.query_one("#sessions", OptionList)
        assert [sessions.get_option_at_index(i).id for i in range(sessions.option_count)] == ["1"]


def drawn_highlight(pilot: Pilot[Any], listing: OptionList) -> str | None:
    """The text of the option ``listing`` draws highlighted on the screen (the first line
    of its prompt, where its background differs from the list's own), or None."""
    strips = pilot.app.screen._compositor.render_strips()
    region = listing.region
    blank = next(iter(strips[region.bottom - 1].crop(region.x, region.x + 1))).style
    highlighted = listing.highlighted
    if highlighted is None:
        return None
    first = Text.from_markup(str(listing.get_option_at_index(highlighted).prompt)).plain.splitlines()[0]
    for y in range(region.y, region.bottom):
        row = strips[y].crop(region.x, region.right)
        text = "".join(seg.text for seg in row)
        x = text.find(first.strip()[:12])
        if x >= 0:
            cell = next(iter(row.crop(x, x + 1))).style
            return first.strip() if cell and blank and cell.bgcolor != blank.bgcolor else None
    return None


async def test_back_on_home_the_one_highlight_is_where_enter_goes(tmp_path: Path, clock: Any) -> None:
    """Back from a game, only the list with the focus draws a highlight, and Down + Enter
    opens what it then draws (not a session of the other list, drawn highlighted as well)."""
    from screens.castells.game_screen import CastellsScreen
    from screens.simancas.game_screen import SimancasScreen

    app = app_for(tmp_path / "c.db", clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        games = app.screen.query_one("#games", OptionList)
        sessions = app.screen.query_one("#sessions", OptionList)
        await pilot.press("down", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, SimancasScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen) and sessions.option_count == 1)
        assert drawn_highlight(pilot, games) == "Battle of Simancas"
        assert drawn_highlight(pilot, sessions) is None  # the session #1 is not drawn as chosen
        await pilot.press("down")
        await pilot.pause()
        assert (
            drawn_highlight(pilot, games) == "Terra de Castells" and drawn_highlight(pilot, sessions) is None
        )
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, CastellsScreen))
        assert app.screen.session_id == 2  # a new Terra de Castells game, not Simancas resumed


@pytest.mark.slow
async def test_back_from_a_resumed_session_the_highlight_stays_on_it(tmp_path: Path, clock: Any) -> None:
    from screens.simancas.game_screen import SimancasScreen

    app = app_for(tmp_path / "c.db", clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        games = app.screen.query_one("#games", OptionList)
        sessions = app.screen.query_one("#sessions", OptionList)
        for keys in (("down", "enter"), ("down", "enter")):  # a Simancas match, then a Castells game
            await pilot.press(*keys)
            await wait_until(pilot, lambda: not isinstance(app.screen, HomeScreen))
            await pilot.press("escape")
            await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen))
        await wait_until(pilot, lambda: sessions.option_count == 2)
        # The list was read again with the Castells game on top: its highlight stayed on #1.
        assert sessions.get_option_at_index(sessions.highlighted or 0).id == "1"
        await pilot.press("tab")
        await pilot.pause()
        assert drawn_highlight(pilot, games) is None
        assert (drawn_highlight(pilot, sessions) or "").startswith("#1 Battle of Simancas")  # listed second
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, SimancasScreen))
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen))
        await pilot.pause()
        assert app.focused is sessions and sessions.get_option_at_index(sessions.highlighted or 0).id == "1"
        # The list is read again (#1 is now the most recent), and the highlight stays on #1.
        assert drawn_highlight(pilot, games) is None
        assert (drawn_highlight(pilot, sessions) or "").startswith("#1 Battle of Simancas")
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, SimancasScreen))
        assert app.screen.session_id == 1


async def test_resume_from_home_shows_the_rolls_so_far(tmp_path: Path, clock: Any) -> None:
    app = app_for(seeded_db(tmp_path / "c.db", clock), clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        await pilot.press("tab", "enter")
        await pilot.pause()
        assert isinstance(app.screen, DiceTrayScreen)
        rows = table_rows(app, "#rolls")
        assert [r[1] for r in rows] == ["Attack", "Attack", "Initiative"]
        assert rows[0][3] == "3 5" and rows[0][5] == "table"
        assert rows[1][5] == "app"
        assert rows[2][3] == "17"


async def test_dice_tray_logs_typed_and_app_rolls_with_their_source(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    app = app_for(db, clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, DiceTrayScreen)
        await pilot.press("4", "2", "enter")
        await pilot.press("r")
        await pilot.pause()
        rows = table_rows(app, "#rolls")
        assert next((r[3], r[5]) for r in rows) == ("4 2", "table")
        assert rows[1][5] == "app"
    store = Store(str(db))
    log = store.log(1)
    rolls = [s for s in log.steps if s.prompt.kind == "roll"]
    assert [s.source for s in rolls] == ["physical", "app"]
    assert rolls[0].answer == [4, 2]
    assert store.session(1).dice_mode == "mixed"


@pytest.mark.slow
async def test_bad_dice_get_one_sentence_and_change_nothing(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    app = app_for(db, clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        await pilot.press("d")
        await pilot.pause()
        for bad, words in [
            ("7 1", "1 to 6"),
            ("0 3", "0 cannot"),
            ("x", "not a die face"),
            ("3", "needs 2"),
            ("111", "2 dice are rolled, and '111' gives 3."),  # three dice typed for two
        ]:
            app.screen.query_one("#pp-dice", Input).value = bad
            await pilot.press("enter")
            await pilot.pause()
            assert words in message(app)
            assert message(app).count(".") >= 1 and "\n" not in message(app)
        assert table_rows(app, "#rolls") == []
    assert Store(str(db)).session(1).steps == 0


async def test_bad_dice_spec_is_refused(tmp_path: Path, clock: Any) -> None:
    app = app_for(tmp_path / "c.db", clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        await pilot.press("d")
        await pilot.pause()
        app.screen.query_one("#dice", Input).value = "2d1"
        await pilot.press("r")
        await pilot.pause()
        assert "NdS" in message(app)
        assert app.screen.driver.steps == []


async def test_changing_the_dice_while_a_roll_waits_asks_for_the_new_dice(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    app = app_for(db, clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        await pilot.press("d")
        await pilot.pause()
        # A failed answer leaves the spec recorded and a 2d6 roll waiting.
        app.screen.query_one("#pp-dice", Input).value = "9 9 9"
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("5")  # quick pick 5 needs the focus off the inputs
        app.screen.query_one("#dice", Input).value = "1d8"
        app.screen.query_one("#label", Input).value = "Loot"
        app.screen.query_one("#pp-dice", Input).value = "8"
        app.screen.query_one("#pp-dice", Input).focus()
        await pilot.press("enter")
        await pilot.pause()
        rows = table_rows(app, "#rolls")
        assert rows == [["1", "Loot", "1d8", "8", "8", "table"]]


async def test_quick_pick_fills_the_dice_and_label(tmp_path: Path, clock: Any) -> None:
    app = app_for(tmp_path / "c.db", clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        await pilot.press("d")
        await pilot.pause()
        app.screen.query_one("#presets", OptionList).focus()
        await pilot.press("4")
        await pilot.pause()
        assert app.screen.query_one("#dice", Input).value == "5d6"
        assert app.screen.query_one("#label", Input).value == "Battle dice"
        assert app.focused is app.screen.query_one("#pp-dice", Input)


async def test_undo_takes_back_the_last_roll_in_the_log(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    app = app_for(db, clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("1", "1", "enter", "6", "6", "enter")
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert [r[3] for r in table_rows(app, "#rolls")] == ["1 1"]
        assert "Took back" in message(app)
    log = Store(str(db)).log(1)
    assert [s.answer for s in log.steps if s.prompt.kind == "roll"] == [[1, 1]]


async def test_end_session_finishes_it_and_it_leaves_the_resume_list(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    app = app_for(db, clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("2", "3", "enter", "ctrl+o", "y")
        await pilot.pause()
        assert all(i.disabled for i in app.screen.query(Input))
        # Nothing is left to roll or end: the footer no longer offers either.
        footer = screen_text(pilot).splitlines()[-1]
        assert "Roll (app)" not in footer and "End session" not in footer
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        assert app.screen.query_one("#sessions", OptionList).option_count == 0
    info = Store(str(db)).session(1)
    assert info.status == "finished" and info.summary == "ended after 1 roll"


@pytest.mark.slow
async def test_end_session_asks_first_and_no_keeps_it_open(tmp_path: Path, clock: Any) -> None:
    from screens.shell.dialogs import ConfirmDialog

    db = tmp_path / "c.db"
    app = app_for(db, clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("2", "3", "enter")
        for no in ("n", "escape"):
            await pilot.press("ctrl+o")
            await pilot.pause()
            assert isinstance(app.screen, ConfirmDialog)  # nothing ended yet: it asks
            await pilot.press(no)
            await pilot.pause()
            assert isinstance(app.screen, DiceTrayScreen) and not app.screen.driver.finished
            assert not any(i.disabled for i in app.screen.query("#tray-form Input"))
        assert Store(str(db)).session(1).status == "active"
        await pilot.press("ctrl+o", "enter")  # Enter says yes
        await pilot.pause()
        assert isinstance(app.screen, DiceTrayScreen) and app.screen.driver.finished
        assert "Session ended" in message(app)
    assert Store(str(db)).session(1).status == "finished"


async def test_history_lists_sessions_and_opens_a_log(tmp_path: Path, clock: Any) -> None:
    app = app_for(seeded_db(tmp_path / "c.db", clock), clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        await pilot.press("h")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        rows = table_rows(app, "#sessions-table")
        assert [(r[0], r[4]) for r in rows] == [("2", "finished"), ("1", "unfinished")]
        await pilot.press("down", "enter")
        await pilot.pause()
        assert isinstance(app.screen, SessionLogScreen)
        log = table_rows(app, "#log-table")
        assert [r[4] for r in log] == ["2d6 Attack", "3 5", "2d6 Attack", log[3][4], "1d20 Initiative", "17"]
        assert [r[5] for r in log][1::2] == ["physical", "app", "physical"]


async def test_finished_session_cannot_be_resumed(tmp_path: Path, clock: Any) -> None:
    app = app_for(seeded_db(tmp_path / "c.db", clock), clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        await pilot.press("h", "r")
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)


async def test_palette_reaches_every_action(tmp_path: Path, clock: Any) -> None:
    app = app_for(tmp_path / "c.db", clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        home = {c.title for c in app.get_system_commands(app.screen)}
        assert {"Dice tray", "History", "Quit"} <= home
        await pilot.press("d")
        await pilot.pause()
        tray = {c.title for c in app.get_system_commands(app.screen)}
        assert {"Roll (app)", "Undo roll", "End session", "Back"} <= tray


async def test_unusable_database_is_one_sentence_on_home(tmp_path: Path, clock: Any) -> None:
    bad = tmp_path / "not.db"
    bad.write_text("these are my notes, not a database")
    app = app_for(bad, clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        text = str(app.screen.query_one("#home-status", Static).render())
        assert "is not a Tabletop Companion database" in text
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)  # nothing opened, nothing lost
    assert bad.read_text() == "these are my notes, not a database"


async def test_q_quits_and_nothing_is_lost(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    app = app_for(db, clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        await pilot.press("d")
        await pilot.pause()
        await pilot.press("5", "5", "enter", "escape", "q")
        await pilot.pause()
        assert not app.is_running
    assert Store(str(db)).log(1).steps[-1].answer == [5, 5]


# -- Snapshots -------------------------------------------------------------------


def test_snapshot_home(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    app = app_for(seeded_db(tmp_path / "c.db", clock), clock)
    assert snap_compare(app, terminal_size=SIZE, run_before=store_ready)


def test_snapshot_home_with_bad_database(
    snap_compare: Any, tmp_path: Path, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # a relative path keeps the picture the same on every machine
    Path("notes.db").write_text("notes")
    app = CompanionApp(db_path="notes.db", seed=1, clock=clock)
    assert snap_compare(app, terminal_size=SIZE, run_before=store_ready)


def test_snapshot_dice_tray(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    app = app_for(seeded_db(tmp_path / "c.db", clock), clock)

    async def before(pilot: Pilot[Any]) -> None:
        await store_ready(pilot)
        pilot.app.open_session(1)
        await pilot.pause()
        await pilot.press("6", "2", "enter", "8", "enter")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=before)


def test_snapshot_history(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    app = app_for(seeded_db(tmp_path / "c.db", clock), clock)

    async def before(pilot: Pilot[Any]) -> None:
        await store_ready(pilot)
        await pilot.press("h")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=before)


@pytest.mark.slow
def test_snapshot_session_log(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    app = app_for(seeded_db(tmp_path / "c.db", clock), clock)

    async def before(pilot: Pilot[Any]) -> None:
        await store_ready(pilot)
        await pilot.press("h", "down", "enter")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=before)


@pytest.mark.parametrize("size", [(80, 24), (140, 40)])
def test_snapshot_dice_tray_sizes(
    snap_compare: Any, tmp_path: Path, clock: Any, size: tuple[int, int]
) -> None:
    app = app_for(seeded_db(tmp_path / "c.db", clock), clock)

    async def before(pilot: Pilot[Any]) -> None:
        await store_ready(pilot)
        pilot.app.open_session(1)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=before)


@pytest.mark.slow
@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 55)])
def test_snapshot_dice_tray_long_label_sizes(
    snap_compare: Any, tmp_path: Path, clock: Any, size: tuple[int, int]
) -> None:
    """A long label is cut in its column, and the values, total and source stay on screen."""
    app = app_for(seeded_db(tmp_path / "c.db", clock), clock)

    async def before(pilot: Pilot[Any]) -> None:
        await store_ready(pilot)
        pilot.app.open_session(1)
        await pilot.pause()
        pilot.app.screen.query_one("#dice", Input).value = "5d6"
        pilot.app.screen.query_one("#label", Input).value = "Battle of Zaragoza: the Christian armies attack"
        pilot.app.screen.query_one("#pp-dice", Input).focus()
        await pilot.press(*"66654", "enter")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=before)
