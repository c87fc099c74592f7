"""The History screen (filters, search, orders, paging, resume) and the step-through
replay of an opened session (the table as it stood at each step, by phase, by turn)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import screen_text, wait_until
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, Select, Static

from companion import dicetray
from companion.driver import Driver
from companion.prompts import Tell
from companion.reconquista.bot import Bot
from companion.reconquista.game import GAME as RECONQUISTA
from companion.reconquista.simulate import bot_answer
from companion.simancas.game import GAME as SIMANCAS
from companion.store.db import Store
from screens.app import CompanionApp
from screens.history import PAGE, HistoryScreen, SessionLogScreen, duration_text
from screens.replay_views import StateView

SIZE = (100, 30)
WIDE = (170, 45)


def dice_session(store: Store, seed: int, rolls: list[str], end: bool = False) -> int:
    sid = store.create_session("dice", seed)
    d = Driver(dicetray.GAME, seed, recorder=store.recorder(sid))
    for spec in rolls:
        d.type(spec)
        d.roll()
    if end:
        d.type("end")
    return sid


def simancas_session(store: Store, actions: list[str]) -> int:
    sid = store.create_session("simancas", 1)
    d = Driver(SIMANCAS, 1, recorder=store.recorder(sid))
    for a in actions:
        while isinstance(d.pending, Tell):
            d.ack()
        d.submit(a, "player")
    return sid


def reconquista_session(store: Store, seed: int, steps: int) -> int:
    """A Reconquista game played by the bot with app dice, stopped after ``steps`` answers."""
    sid = store.create_session("reconquista", seed, {"dice": "app"})
    d = Driver(RECONQUISTA, seed, {"dice": "app"}, recorder=store.recorder(sid))
    bot, board = Bot(seed), RECONQUISTA.board_of(d.state)
    for _ in range(steps):
        bot_answer(d, bot, board)
    return sid


def mixed_db(path: Path, clock: Any) -> Path:
    """Five sessions of three games: two dice trays (one ended), two Simancas, one Reconquista."""
    store = Store(str(path), clock=clock)
    dice_session(store, 1, ["2d6 Attack", "1d6 Siege"])
    dice_session(store, 2, ["3d6 Famine"], end=True)
    simancas_session(store, ["Moors place Jund Cavalry"])
    simancas_session(store, ["Christians place Knights", "Moors pass", "Christians pass"])
    reconquista_session(store, 5, 160)
    store.close()
    return path


async def open_history(pilot: Pilot[Any]) -> HistoryScreen:
    app: Any = pilot.app
    await wait_until(pilot, lambda: app.store_ready)
    app.action_history()
    await wait_until(pilot, lambda: isinstance(app.screen, HistoryScreen) and app.screen.loaded)
    return app.screen  # type: ignore[no-any-return]


async def open_log(pilot: Pilot[Any], session_id: int) -> SessionLogScreen:
    app: Any = pilot.app
    await wait_until(pilot, lambda: app.store_ready)
    app.push_screen(SessionLogScreen(session_id))
    await wait_until(pilot, lambda: isinstance(app.screen, SessionLogScreen) and app.screen.loaded)
    return app.screen  # type: ignore[no-any-return]


def ids(screen: Any) -> list[int]:
    table = screen.query_one("#sessions-table", DataTable)
    return [int(str(table.get_row_at(i)[0])) for i in range(table.row_count)]


def status(screen: Any) -> str:
    return str(screen.query_one("#history-status", Static).render())


# -- the list of sessions -------------------------------------------------------------------


def test_durations_read_as_a_player_says_them() -> None:
    from datetime import datetime, timedelta

    t = datetime(2026, 1, 1)
    assert duration_text(t, t + timedelta(seconds=30)) == "< 1 min"
    assert duration_text(t, t + timedelta(minutes=45)) == "45 min"
    assert duration_text(t, t + timedelta(minutes=125)) == "2 h 05 min"
    assert duration_text(t, t + timedelta(days=3, hours=4, minutes=10)) == "3 d 4 h"


@pytest.mark.slow
async def test_filters_by_game_and_status_and_search(tmp_path: Path, clock: Any) -> None:
    app = CompanionApp(db_path=str(mixed_db(tmp_path / "c.db", clock)), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_history(pilot)
        assert ids(screen) == [5, 4, 3, 2, 1] and status(screen) == "5 sessions."
        screen.query_one("#filter-game", Select).value = "dice"
        await pilot.pause()
        assert ids(screen) == [2, 1]
        screen.query_one("#filter-status", Select).value = "finished"
        await pilot.pause()
        assert ids(screen) == [2]
        screen.query_one("#filter-game", Select).value = ""
        await pilot.pause()
        assert ids(screen) == [2]  # a Simancas match with one hand played is not finished
        screen.query_one("#filter-status", Select).value = ""
        await pilot.press("slash", *"famine")  # no summary says famine: nothing matches
        await pilot.pause()
        assert ids(screen) == [] and status(screen) == "No session matches these filters."
        field = screen.query_one("#filter-search", Input)
        field.value = "#3"
        await pilot.pause()
        assert ids(screen) == [3]
        field.value = "HAND"  # the summary of a Simancas session, in any case
        await pilot.pause()
        assert set(ids(screen)) == {3, 4}


async def test_orders_cycle_with_s_and_follow_a_clicked_column(tmp_path: Path, clock: Any) -> None:
    app = CompanionApp(db_path=str(mixed_db(tmp_path / "c.db", clock)), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_history(pilot)
        store = Store(str(tmp_path / "c.db"))
        by_steps = [s.id for s in sorted(store.sessions(), key=lambda s: (-s.steps, -s.id))]
        await pilot.press("s")  # started, newest first: the same as the ids here
        await pilot.pause()
        assert screen.order == "started" and ids(screen) == [5, 4, 3, 2, 1]
        await pilot.press("s")
        await pilot.pause()
        assert screen.order == "oldest" and ids(screen) == [1, 2, 3, 4, 5]
        assert "start, oldest first" in str(screen.query_one("#history-help", Static).render())
        table = screen.query_one("#sessions-table", DataTable)
        table.post_message(
            DataTable.HeaderSelected(table, table.ordered_columns[5].key, 5, table.ordered_columns[5].label)
        )
        await pilot.pause()
        assert screen.order == "steps" and ids(screen) == by_steps
        assert ids(screen)[0] == 5  # the Reconquista game has the most steps


@pytest.mark.slow
async def test_a_long_history_is_read_a_page_at_a_time(tmp_path: Path, clock: Any) -> None:
    store = Store(str(tmp_path / "c.db"), clock=clock)
    for i in range(PAGE * 2 + 30):
        store.create_session("dice", i)
    store.close()
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_history(pilot)
        table = screen.query_one("#sessions-table", DataTable)
        assert table.row_count == PAGE
        assert status(screen) == f"{PAGE * 2 + 30} sessions (the first {PAGE} read; more as you scroll down)."
        table.move_cursor(row=PAGE - 1)
        await pilot.pause()
        assert table.row_count == PAGE * 2
        table.move_cursor(row=PAGE * 2 - 1)
        await pilot.pause()
        assert table.row_count == PAGE * 2 + 30 and status(screen) == f"{PAGE * 2 + 30} sessions."
        assert ids(screen) == list(range(PAGE * 2 + 30, 0, -1))  # every session once, newest first


@pytest.mark.slow
async def test_resume_an_unfinished_session_from_history(tmp_path: Path, clock: Any) -> None:
    app = CompanionApp(db_path=str(mixed_db(tmp_path / "c.db", clock)), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_history(pilot)
        screen.query_one("#filter-game", Select).value = "dice"
        await pilot.pause()
        await pilot.press("r")  # session 2, ended: refused, the history stays
        await pilot.pause()
        assert isinstance(app.screen, HistoryScreen)
        await pilot.press("down", "r")
        await wait_until(pilot, lambda: not isinstance(app.screen, HistoryScreen))
        assert type(app.screen).__name__ == "DiceTrayScreen"


# -- the step-through replay ---------------------------------------------------------------


def replayed(db: Path, session_id: int, count: int) -> dict[str, Any]:
    """The state after ``count`` steps, replayed here by the driver, for comparison."""
    from companion import games

    store = Store(str(db))
    info, log = store.session(session_id), store.log(session_id)
    return Driver.resume(games.load(info.game), info.seed, info.config, log.steps[:count]).snapshot()


async def test_stepping_through_a_dice_tray_shows_each_roll_arrive(tmp_path: Path, clock: Any) -> None:
    db = mixed_db(tmp_path / "c.db", clock)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=WIDE) as pilot:
        screen = await open_log(pilot, 1)
        await wait_until(pilot, lambda: screen.at == 1)
        view = screen.query_one(StateView)
        assert "No rolls yet." in str(view.query_one(Static).render())
        await pilot.press("down")
        await wait_until(pilot, lambda: screen.at == 2)
        assert screen.driver is not None and screen.driver.snapshot() == replayed(db, 1, 2)
        assert screen.query_one("#log-state").border_title == "After step 2 of 4"
        await pilot.press("end")
        await wait_until(pilot, lambda: screen.at == 4)
        assert screen.driver.snapshot() == replayed(db, 1, 4)
        assert len(screen.driver.snapshot()["rolls"]) == 2
        await pilot.press("home")  # back to the start: replayed from the beginning
        await wait_until(pilot, lambda: screen.at == 1)
        assert screen.driver.snapshot() == replayed(db, 1, 1)


@pytest.mark.slow
async def test_a_reconquista_log_reads_by_phase_and_by_turn(tmp_path: Path, clock: Any) -> None:
    db = mixed_db(tmp_path / "c.db", clock)
    store = Store(str(db))
    places = [(e.turn, e.phase) for e in store.log(5).events]  # where each question was asked
    starts = [i for i in range(len(places)) if i == 0 or places[i] != places[i - 1]]
    turn2 = next(i for i, (t, _) in enumerate(places) if t == 2)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=WIDE) as pilot:
        screen = await open_log(pilot, 5)
        table = screen.query_one("#log-table", DataTable)
        # The turn and phase are written where they change, and only there.
        shown = [(str(table.get_row_at(i)[1]), str(table.get_row_at(i)[2])) for i in range(starts[2] + 1)]
        assert shown[0] == (str(places[0][0]), places[0][1])
        assert all(row == ("", "") for i, row in enumerate(shown) if i not in starts)
        await pilot.press("right_square_bracket")
        assert table.cursor_row == starts[1]
        await pilot.press("right_square_bracket", "right_square_bracket", "left_square_bracket")
        assert table.cursor_row == starts[2]
        await pilot.press("t", "2", "enter")
        await pilot.pause()
        assert table.cursor_row == turn2
        await wait_until(pilot, lambda: screen.at == turn2 + 1)
        assert screen.driver is not None and screen.driver.snapshot() == replayed(db, 5, turn2 + 1)
        assert screen.query_one("#log-state").border_subtitle.startswith("turn 2")
        await pilot.press("t", "9", "enter")  # no turn 9 in this log: refused, the cursor stays
        await pilot.pause()
        assert table.cursor_row == turn2
        assert screen.query_one("#log-jump", Input).display
        await pilot.press("escape")  # closes the turn field, not the screen
        await pilot.pause()
        assert isinstance(app.screen, SessionLogScreen) and not screen.query_one("#log-jump", Input).display


async def test_a_narrow_terminal_shows_the_log_or_the_table(tmp_path: Path, clock: Any) -> None:
    db = mixed_db(tmp_path / "c.db", clock)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_log(pilot, 4)
        assert not screen.query_one("#log-state").display and screen.at == -1  # nothing replayed yet
        await pilot.press("v")
        await wait_until(pilot, lambda: screen.at == 1)
        assert screen.query_one("#log-state").display and not screen.query_one("#log-left").display
        await pilot.press("down")  # the arrows still step with the log hidden
        await wait_until(pilot, lambda: screen.at == 2)
        assert screen.driver is not None and screen.driver.snapshot() == replayed(db, 4, 2)
        await pilot.press("v")
        await pilot.pause()
        assert screen.query_one("#log-left").display and screen.query_one("#log-table").has_focus


# -- snapshots ---------------------------------------------------------------------------------


def test_snapshot_history_filtered(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    app = CompanionApp(db_path=str(mixed_db(tmp_path / "c.db", clock)), seed=1, clock=clock)

    async def before(pilot: Pilot[Any]) -> None:
        screen = await open_history(pilot)
        screen.query_one("#filter-status", Select).value = "active"
        await pilot.press("s", "s", "s")
        await pilot.pause()

    assert snap_compare(app, terminal_size=SIZE, run_before=before)


@pytest.mark.slow
def test_snapshot_reconquista_replay(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    app = CompanionApp(db_path=str(mixed_db(tmp_path / "c.db", clock)), seed=1, clock=clock)

    async def before(pilot: Pilot[Any]) -> None:
        screen = await open_log(pilot, 5)
        await pilot.press("t", "2", "enter")
        await wait_until(pilot, lambda: screen.at > 1)

    assert snap_compare(app, terminal_size=WIDE, run_before=before)


def test_snapshot_simancas_replay_narrow(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    app = CompanionApp(db_path=str(mixed_db(tmp_path / "c.db", clock)), seed=1, clock=clock)

    async def before(pilot: Pilot[Any]) -> None:
        screen = await open_log(pilot, 4)
        await pilot.press("v", "down")
        await wait_until(pilot, lambda: screen.at == 2)

    assert snap_compare(app, terminal_size=SIZE, run_before=before)


#: The sizes the History screens are drawn at: the smallest terminal, a common one, a wide one.
SIZES = [(80, 24), (120, 40), (200, 55)]


@pytest.mark.parametrize("size", SIZES)
def test_snapshot_history_sizes(snap_compare: Any, tmp_path: Path, clock: Any, size: tuple[int, int]) -> None:
    """Every column but the ones a narrow screen leaves out, the results whole (wrapped); an
    abandoned session among them."""
    db = mixed_db(tmp_path / "c.db", clock)
    Store(str(db)).abandon(3)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)

    async def before(pilot: Pilot[Any]) -> None:
        await open_history(pilot)

    assert snap_compare(app, terminal_size=size, run_before=before)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_snapshot_reconquista_replay_sizes(
    snap_compare: Any, tmp_path: Path, clock: Any, size: tuple[int, int]
) -> None:
    """The board at turn 2: beside the log on a wide screen, on its own (v) on a narrower one,
    where it scrolls (shift+down) to Al-Ándalus below Castilla."""
    app = CompanionApp(db_path=str(mixed_db(tmp_path / "c.db", clock)), seed=1, clock=clock)

    async def before(pilot: Pilot[Any]) -> None:
        screen = await open_log(pilot, 5)
        await pilot.press("t", "2", "enter")
        if not screen.has_class("-wide"):
            await pilot.press("v")
        await wait_until(pilot, lambda: screen.at > 1)
        if not screen.has_class("-wide"):
            await pilot.press("shift+down", "shift+down", "shift+down")
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=before)


# -- statistics and the luck ledger --------------------------------------------------------


def review_db(path: Path, clock: Any) -> Path:
    """mixed_db plus a dice tray of typed d6 rolls, all sixes but one."""
    mixed_db(path, clock)
    store = Store(str(path), clock=clock)
    sid = store.create_session("dice", 9)
    d = Driver(dicetray.GAME, 9, recorder=store.recorder(sid))
    d.type("5d6 Loaded")
    d.type("6 6 6 6 1")
    store.close()
    return path


def review_text(screen: Any) -> str:
    from io import StringIO

    from rich.console import Console

    out = StringIO()
    console = Console(file=out, width=120, color_system=None)
    for w in screen.query("#review-body Static"):
        console.print(w.content)
    return out.getvalue()


@pytest.mark.slow
async def test_statistics_show_the_figures_of_the_store(tmp_path: Path, clock: Any) -> None:
    from companion.review.stats import statistics
    from screens.review import StatisticsScreen

    db = review_db(tmp_path / "c.db", clock)
    expected = statistics(Store(str(db)))
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_history(pilot)
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, StatisticsScreen) and app.screen.ready)
        # It opens on the game of the last game played (the Reconquista one): every game on asking.
        assert app.screen.game == "reconquista" and "Hands won" not in review_text(app.screen)
        app.screen.query_one(Select).value = ""
        await wait_until(pilot, lambda: app.screen.ready and "Hands won" in review_text(app.screen))
        text = review_text(app.screen)
        assert expected.of("simancas") is not None
        hands = {c.label: c.count for c in expected.of("simancas").hands}
        assert hands["Christians"] == 1  # the one hand ended: Knights alone
        assert "Hands won" in text and f"Christians {hands['Christians']}" in " ".join(text.split())
        assert "Reconquista" in text and "1 game, 0 finished: no finished game yet." in text
        app.screen.query_one(Select).value = "simancas"
        await wait_until(pilot, lambda: app.screen.ready)
        assert "Reconquista" not in review_text(app.screen) and "Hands won" in review_text(app.screen)


@pytest.mark.slow
async def test_statistics_open_on_a_game_that_has_sessions(tmp_path: Path, clock: Any) -> None:
    """Not on a game never played (History filtered by one, or by the Dice tray, which has no
    statistics): on the game of the session played last; on History's game when it has some."""
    from screens.review import StatisticsScreen

    db = review_db(tmp_path / "c.db", clock)
    store = Store(str(db), clock=clock)
    store.create_session("reconquista", 7)  # started after the others, nothing recorded yet
    store.close()
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        history = await open_history(pilot)
        for filtered, opened in [
            ("castells", "reconquista"),
            ("dice", "reconquista"),
            ("simancas", "simancas"),
        ]:
            history.query_one("#filter-game", Select).value = filtered
            await pilot.pause()
            await pilot.press("t")
            await wait_until(pilot, lambda: isinstance(app.screen, StatisticsScreen) and app.screen.ready)
            assert app.screen.game == opened and app.screen.query_one(Select).value == opened
            title = {"reconquista": "Reconquista", "simancas": "Battle of Simancas"}[opened]
            assert review_text(app.screen).startswith(title)
            await pilot.press("escape")
            await wait_until(pilot, lambda: app.screen is history)


@pytest.mark.slow
async def test_the_luck_ledger_tells_typed_dice_from_app_dice(tmp_path: Path, clock: Any) -> None:
    from companion.review.luck import luck
    from screens.review import LuckScreen

    db = review_db(tmp_path / "c.db", clock)
    ledger = luck(Store(str(db)))
    d6 = next(d for d in ledger.dice if d.sides == 6)
    assert d6.physical.counts == (1, 0, 0, 0, 0, 4)
    assert [(g.game, g.unit) for g in ledger.games] == [
        ("reconquista", "hits"),
        ("reconquista", "sieges won"),
    ]
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_history(pilot)
        await pilot.press("l")
        await wait_until(pilot, lambda: isinstance(app.screen, LuckScreen) and app.screen.ready)
        lines = [" ".join(line.split()) for line in review_text(app.screen).splitlines()]
        assert "typed 1 0 0 0 0 4 5 -" in lines or any(
            line.startswith("typed 1 0 0 0 0 4 5") for line in lines
        )
        assert any(line.startswith("app " + " ".join(map(str, d6.app.counts))) for line in lines)
        text = " ".join(review_text(app.screen).split())  # a long verdict wraps
        assert d6.physical.verdict[1:] in text
        for line in d6.physical.lines():  # the largest gap, the power, the streaks
            assert line[1:] in text
        for game in ledger.games:  # luck in game units: the Reconquista games of the database
            for line in game.lines()[1:]:
                assert line.strip()[1:] in text


@pytest.mark.slow
def test_snapshot_statistics(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    from screens.review import StatisticsScreen

    app = CompanionApp(db_path=str(review_db(tmp_path / "c.db", clock)), seed=1, clock=clock)

    async def before(pilot: Pilot[Any]) -> None:
        await open_history(pilot)
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, StatisticsScreen) and app.screen.ready)

    assert snap_compare(app, terminal_size=(100, 50), run_before=before)


@pytest.mark.slow
def test_snapshot_luck_ledger(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    from screens.review import LuckScreen

    app = CompanionApp(db_path=str(review_db(tmp_path / "c.db", clock)), seed=1, clock=clock)

    async def before(pilot: Pilot[Any]) -> None:
        await open_history(pilot)
        await pilot.press("l")
        await wait_until(pilot, lambda: isinstance(app.screen, LuckScreen) and app.screen.ready)

    assert snap_compare(app, terminal_size=(100, 40), run_before=before)


def castells_db(path: Path, clock: Any) -> tuple[Path, int]:
    """A Terra de Castells game with a Saracen attack on Tortosa, recorded."""
    from test_castells_screen import SARACEN_ATTACK, recorded

    return path, recorded(path, clock, SARACEN_ATTACK)


async def test_a_castells_log_replays_the_bag_and_the_battle(tmp_path: Path, clock: Any) -> None:
    db, sid = castells_db(tmp_path / "c.db", clock)
    steps = len(Store(str(db)).log(sid).steps)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=WIDE) as pilot:
        screen = await open_log(pilot, sid)
        await pilot.press("end")
        await wait_until(pilot, lambda: screen.at == steps)
        assert screen.driver is not None and screen.driver.snapshot() == replayed(db, sid, steps)
        bag = str(screen.query_one("#cv-bag", Static).render())
        assert "Migdia 3" in bag  # one Migdia token drawn of the default four
        shown = screen_text(pilot)
        # The defender still to decide on a reroll: the castle holds so far (Migdia's row).
        assert any("Migdia " in line and "Tortosa Anna" in line for line in shown.splitlines())
        assert "The Saracens attack Tortosa" in shown and "Anna needs 3 successes" in shown
        # The battle as the game screen draws it: the dice set apart from their count, not run together.
        row = next(
            line
            for line in shown.splitlines()
            if "Saracens " in line and "success" in line and "attack" not in line
        )
        assert "→" in row and row.index("→") < row.index("success")
        await pilot.press("home")
        await wait_until(pilot, lambda: screen.at == 1)
        assert "Migdia 4" in str(screen.query_one("#cv-bag", Static).render())


@pytest.mark.slow
def test_snapshot_castells_replay(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    db, sid = castells_db(tmp_path / "c.db", clock)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)

    async def before(pilot: Pilot[Any]) -> None:
        screen = await open_log(pilot, sid)
        await pilot.press("end")
        await wait_until(pilot, lambda: screen.at == len(screen.steps))

    assert snap_compare(app, terminal_size=WIDE, run_before=before)


# -- a game's story in pictures ------------------------------------------------------------


def whole_reconquista_session(store: Store, seed: int) -> int:
    """A Reconquista game played to its end by the bot with app dice."""
    sid = store.create_session("reconquista", seed, {"dice": "app"})
    d = Driver(RECONQUISTA, seed, {"dice": "app"}, recorder=store.recorder(sid))
    bot, board = Bot(seed), RECONQUISTA.board_of(d.state)
    while d.pending is not None:
        bot_answer(d, bot, board)
    return sid


def story_db(path: Path, clock: Any) -> Path:
    """mixed_db, then a whole Reconquista game (session 6) and one with no turn complete (7)."""
    mixed_db(path, clock)
    store = Store(str(path), clock=clock)
    whole_reconquista_session(store, 2)  # a game of 20 turns
    reconquista_session(store, 7, 5)
    store.close()
    return path


async def open_story(pilot: Pilot[Any], row: int) -> Any:
    """History, the cursor on ``row`` (0: the newest session), and g."""
    from screens.story import StoryScreen

    app: Any = pilot.app
    screen = await open_history(pilot)
    screen.query_one("#sessions-table", DataTable).move_cursor(row=row)
    await pilot.press("g")
    await wait_until(pilot, lambda: isinstance(app.screen, StoryScreen) and app.screen.ready)
    return app.screen


def story_note(screen: Any) -> str:
    return str(screen.query_one("#story-note", Static).render())


@pytest.mark.slow
async def test_g_opens_the_story_of_a_reconquista_game(tmp_path: Path, clock: Any) -> None:
    """The figures are those of the game replayed; a short terminal shows one chart at a time
    (v switches), a tall one both."""
    from companion.review.story import session_story

    db = story_db(tmp_path / "c.db", clock)
    story = session_story(Store(str(db)), 6)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_story(pilot, 1)  # session 6
        assert screen.story == story and len(story.turns) == 20
        last = story.turns[-1]
        assert story_note(screen).startswith(
            f"After turn 20: {last.vp} VP; cities: Christian {last.cities['christian']}"
        )
        vp, cities = screen.query_one("#story-vp"), screen.query_one("#story-cities")
        luck = screen.query_one("#story-luck")
        assert vp.display and not cities.display and not luck.display and screen.check_action("switch", ())
        await pilot.press("v")
        assert cities.display and not vp.display and not luck.display
        await pilot.press("v")
        assert luck.display and not vp.display and not cities.display
        await pilot.press("v")
        assert vp.display and not luck.display  # round again
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        assert vp.display and cities.display and luck.display and not screen.check_action("switch", ())
        await pilot.press("escape")
        assert isinstance(app.screen, HistoryScreen)


@pytest.mark.slow
async def test_a_game_with_no_turn_complete_says_so_in_one_sentence(tmp_path: Path, clock: Any) -> None:
    from textual_plotext import PlotextPlot

    app = CompanionApp(db_path=str(story_db(tmp_path / "c.db", clock)), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        screen = await open_story(pilot, 0)  # session 7: five steps
        assert story_note(screen) == (
            "No turn of this game is complete yet: the story is charted from the end of turn 1."
        )
        assert not screen.query(PlotextPlot) and not screen.check_action("switch", ())


@pytest.mark.slow
async def test_another_game_has_no_story_chart(tmp_path: Path, clock: Any) -> None:
    """From the sessions: g says so in one sentence. In a log: g is not offered, and does nothing."""
    from screens.story import StoryScreen

    app = CompanionApp(db_path=str(story_db(tmp_path / "c.db", clock)), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        history = await open_history(pilot)
        history.query_one("#sessions-table", DataTable).move_cursor(row=ids(history).index(4))  # Simancas
        await pilot.press("g")
        await pilot.pause()
        assert app.screen is history
        said = [n.message for n in app._notifications]
        assert said == ["There is no story chart for Battle of Simancas: only Reconquista sessions have one."]
        log = await open_log(pilot, 4)
        assert not log.check_action("story", ())
        await pilot.press("g")
        await pilot.pause()
        assert app.screen is log
        await pilot.press("escape")
        log = await open_log(pilot, 5)  # Reconquista: offered, and it opens the story
        assert log.check_action("story", ())
        await pilot.press("g")
        await wait_until(pilot, lambda: isinstance(app.screen, StoryScreen) and app.screen.ready)
        assert [t.turn for t in app.screen.story.turns] == [1, 2, 3, 4]  # 160 steps of seed 5: in turn 5


async def test_a_chart_drawn_for_another_size_is_drawn_again_before_it_shows() -> None:
    """A chart's ticks are chosen for its size. Drawn at mount (no size yet) and shown before its
    Resize arrived, on a busy machine it showed without them (a snapshot caught it): its render
    draws it again for the size it has, and only then."""
    from textual.app import App

    from screens.charts import ThemedPlot

    drawn: list[tuple[int, int]] = []

    class OneChart(App[None]):
        def compose(self) -> Any:
            yield ThemedPlot("VP", lambda _plt, _colour, size: drawn.append(size))

    async with OneChart().run_test(size=(60, 20)) as pilot:
        await pilot.pause()
        plot = pilot.app.query_one(ThemedPlot)
        size = (plot.size.width, plot.size.height)
        assert drawn[-1] == size and size[0] > 0
        drawn.clear()
        plot._drawn_for = (0, 0)  # as at mount, before the layout
        plot.render()
        assert drawn == [size]
        plot.render()
        assert drawn == [size]  # the same size: not drawn again


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
def test_snapshot_story_sizes(snap_compare: Any, tmp_path: Path, clock: Any, size: tuple[int, int]) -> None:
    """A whole game's story: one chart at 80x24 (v: the next), the three from 120x40."""
    app = CompanionApp(db_path=str(story_db(tmp_path / "c.db", clock)), seed=1, clock=clock)

    async def before(pilot: Pilot[Any]) -> None:
        await open_story(pilot, 1)
        await pilot.pause()

    assert snap_compare(app, terminal_size=size, run_before=before)


@pytest.mark.slow
def test_snapshot_story_cities_narrow(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    """At 80x24, v: the cities chart, with its legend."""
    app = CompanionApp(db_path=str(story_db(tmp_path / "c.db", clock)), seed=1, clock=clock)

    async def before(pilot: Pilot[Any]) -> None:
        await open_story(pilot, 1)
        await pilot.press("v")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(80, 24), run_before=before)


@pytest.mark.slow
def test_snapshot_statistics_dice_charts(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    """The events' 2D6 and the rebellions' D6 beside fair dice, side by side."""
    from screens.charts import DiceCharts
    from screens.review import StatisticsScreen

    app = CompanionApp(db_path=str(story_db(tmp_path / "c.db", clock)), seed=1, clock=clock)

    async def before(pilot: Pilot[Any]) -> None:
        await open_history(pilot)
        await pilot.press("t")
        await wait_until(pilot, lambda: isinstance(app.screen, StatisticsScreen) and app.screen.ready)
        charts = app.screen.query_one(DiceCharts)
        app.screen.query_one("#review-body").scroll_to_widget(charts, animate=False, top=True)
        await pilot.pause()

    assert snap_compare(app, terminal_size=(120, 40), run_before=before)


async def test_a_session_s_log_shows_its_commitment_where_the_game_rolls_dice(
    tmp_path: Path, clock: Any
) -> None:
    """#36, 10: the commitment to the seed made when the session started, in the log's title
    (its first 12 digits); a Simancas match rolls no dice and shows none."""
    db = mixed_db(tmp_path / "c.db", clock)
    store = Store(str(db))
    tray = store.session(1)
    assert tray.commitment is not None
    simancas = next(s.id for s in store.sessions() if s.game == "simancas")
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        log = await open_log(pilot, 1)
        title = str(log.query_one("#log-title", Static).render())
        assert f"commitment {tray.commitment[:12]}…" in title
        app.pop_screen()
        log = await open_log(pilot, simancas)
        assert "commitment" not in str(log.query_one("#log-title", Static).render())
