"""F1's help on every screen (screens/help.py): the keys of the screen read from its bindings,
what it is for, the rule of the question of the moment, a remapped key, the help of a dialog,
the keys that close it, and its snapshot on a game screen at three sizes."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import screen_text, store_ready, wait_until
from rich.console import Console
from textual.binding import Binding
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import Input, Static

from companion import games
from companion.driver import Driver
from companion.prompts import Choose, Enter, Roll, Tell
from companion.store.db import Store
from screens.app import CompanionApp
from screens.castells.game_screen import CastellsScreen
from screens.dicetray import DiceTrayScreen
from screens.help import HelpDialog, key_text
from screens.history import HistoryScreen, SessionLogScreen
from screens.home import HomeScreen
from screens.reconquista.game_screen import ReconquistaScreen
from screens.review import LuckScreen, StatisticsScreen
from screens.shell.dialogs import ConfirmDialog
from screens.shell.game_screen import GameScreen
from screens.simancas.game_screen import SimancasScreen

SIZE = (120, 60)  # tall enough that the keys and the rule are on screen without scrolling
SIZES = [(80, 24), (120, 40), (200, 55)]


def asked_with_rule(d: Driver) -> bool:
    """A question (not an instruction) waits, and it cites its rule."""
    p = d.pending
    return p is not None and not isinstance(p, Tell) and bool(p.rule)


def recorded(path: Path, clock: Any, game_id: str, until: Callable[[Driver], bool], seed: int = 5) -> int:
    """A session of ``game_id`` in the database at ``path``: app dice, the first option of every
    choice, every default taken, until ``until`` holds."""
    store = Store(str(path), clock=clock)
    config = dict(games.entry(game_id).settings)
    sid = store.create_session(game_id, seed, config)
    d = Driver(games.load(game_id), seed, config, store.recorder(sid))
    while d.pending is not None and not until(d):
        p = d.pending
        if isinstance(p, Roll):
            d.roll()
        elif isinstance(p, Tell):
            d.ack()
        elif isinstance(p, Choose):
            d.submit(p.options[0], "player")
        else:
            assert isinstance(p, Enter)
            d.type(p.default or "2d6 Attack")
    store.close()
    return sid


async def open_screen(pilot: Pilot[Any], sid: int, kind: type[GameScreen]) -> GameScreen:
    await store_ready(pilot)
    app: Any = pilot.app
    app.open_session(sid)
    await wait_until(pilot, lambda: isinstance(app.screen, kind) and app.screen.driver is not None)
    return app.screen  # type: ignore[no-any-return]


def help_text(app: CompanionApp) -> str:
    """What the open help says, all of it (scrolled out of sight or not), one line a row."""
    dialog = app.screen
    assert isinstance(dialog, HelpDialog)
    out = io.StringIO()
    console = Console(file=out, width=110, color_system=None)
    for static in dialog.query(Static):
        console.print(static.content)
    return out.getvalue()


def bound(screen: Screen[Any], action: str) -> Binding:
    """The binding of ``action`` among the screen's active ones (its keymap applied)."""
    found = [a.binding for a in screen.active_bindings.values() if a.binding.action == action]
    assert found, f"{action} is not bound on {type(screen).__name__} now"
    return found[0]


def line_with(text: str, *parts: str) -> str:
    """The one line of ``text`` holding every one of ``parts``."""
    lines = [line for line in text.splitlines() if all(p in line for p in parts)]
    assert lines, f"no line has {parts!r} in:\n{text}"
    return lines[0]


async def press_help(pilot: Pilot[Any], key: str = "f1") -> str:
    await pilot.press(key)
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, HelpDialog))
    return help_text(pilot.app)  # type: ignore[arg-type]


def assert_keys_listed(text: str, screen: Screen[Any], actions: list[str]) -> None:
    """Each action's key and description, as the screen binds them now, on one line of the help."""
    for action in actions:
        b = bound(screen, action)
        assert b.description
        line_with(text, key_text(screen.app, b), b.description)


# -- every screen lists its own keys ----------------------------------------------------


async def test_f1_on_home_lists_its_keys_and_what_it_is_for(tmp_path: Path, clock: Any) -> None:
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        home = app.screen
        assert isinstance(home, HomeScreen)
        text = await press_help(pilot)
        assert "Help: Home" in text
        assert "resume an unfinished session" in text  # HomeScreen.HELP
        assert_keys_listed(text, home, ["app.dice_tray", "app.history", "quit", "help"])
        # The list's own keys, in the help's words: the one of Textual's a player needs here.
        line_with(text, "enter", "Take the highlighted one")


GAME_SCREENS = [
    ("reconquista", ReconquistaScreen, ["undo", "dice_mode", "rule", "correct", "edit", "back"]),
    ("simancas", SimancasScreen, ["undo", "reference", "rule", "discard_pile", "guide", "back"]),
    ("castells", CastellsScreen, ["undo", "rule", "back"]),
]


@pytest.mark.slow
@pytest.mark.parametrize(("game_id", "kind", "actions"), GAME_SCREENS, ids=[g[0] for g in GAME_SCREENS])
async def test_f1_on_a_game_screen_lists_its_keys_and_the_rule_of_the_question(
    tmp_path: Path, clock: Any, game_id: str, kind: type[GameScreen], actions: list[str]
) -> None:
    sid = recorded(tmp_path / "c.db", clock, game_id, asked_with_rule)
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        game = await open_screen(pilot, sid, kind)
        assert game.driver is not None
        pending = game.driver.pending
        assert pending is not None and pending.rule
        steps = len(game.driver.steps)
        text = await press_help(pilot)
        assert f"Help: {games.entry(game_id).title}" in text
        assert_keys_listed(text, game, actions)
        assert "The question of the moment" in text
        flat = " ".join(text.split())
        assert f"Rule: {' '.join(pending.rule.split())}" in flat
        if pending.reason:
            assert f"Why: {' '.join(pending.reason.split())}" in flat
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is game and len(game.driver.steps) == steps  # nothing answered


@pytest.mark.slow
async def test_f1_on_the_dice_tray_lists_its_keys_and_says_no_rule_is_cited(
    tmp_path: Path, clock: Any
) -> None:
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, DiceTrayScreen))
        tray = app.screen
        text = await press_help(pilot)
        assert "Help: Dice tray" in text
        assert_keys_listed(text, tray, ["end_session", "undo", "back"])
        assert "No rulebook section is cited for this step." in text
        assert "That quick pick" not in text  # the values field takes the digits as typed
        await pilot.press("escape")
        tray.query_one("#presets").focus()
        await pilot.pause()
        # In the quick picks the digits pick one: nine bindings with no description, one line.
        line_with(await press_help(pilot), "1–9", "That quick pick")


@pytest.mark.slow
async def test_f1_on_history_its_log_statistics_and_luck(tmp_path: Path, clock: Any) -> None:
    recorded(tmp_path / "c.db", clock, "dice", lambda d: len(d.steps) >= 4)
    sid = recorded(tmp_path / "c.db", clock, "reconquista", asked_with_rule)
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        await pilot.press("h")
        await wait_until(pilot, lambda: isinstance(app.screen, HistoryScreen) and app.screen.loaded)
        history = app.screen
        text = await press_help(pilot)
        assert "Help: History" in text
        assert_keys_listed(text, history, ["sort", "statistics", "luck", "back"])
        await pilot.press("escape")
        await pilot.pause()

        for key, kind, name in [("t", StatisticsScreen, "Statistics"), ("l", LuckScreen, "Luck ledger")]:
            await pilot.press(key)
            await wait_until(pilot, lambda kind=kind: isinstance(app.screen, kind))  # type: ignore[misc]
            review = app.screen
            text = await press_help(pilot)
            assert f"Help: {name}" in text
            assert_keys_listed(text, review, ["back"])
            await pilot.press("escape", "escape")
            await wait_until(pilot, lambda: isinstance(app.screen, HistoryScreen))

        app.push_screen(SessionLogScreen(sid))
        await wait_until(pilot, lambda: isinstance(app.screen, SessionLogScreen) and app.screen.loaded)
        log = app.screen
        assert isinstance(log, SessionLogScreen)
        text = await press_help(pilot)
        assert "Help: A session's log" in text
        assert_keys_listed(text, log, ["toggle_view", "jump", "phase(-1)", "phase(1)", "rule"])
        # The step under the cursor, and its rule: as the rule key shows it.
        moment = log.rule_of_the_moment()
        assert moment is not None and "Rule:" in moment[1].plain
        assert moment[0] in text
        assert " ".join(moment[1].plain.split()) in " ".join(text.split())


@pytest.mark.slow
async def test_a_key_a_field_takes_as_typed_is_not_offered(tmp_path: Path, clock: Any) -> None:
    # Castells asks the territory drawn from the bag in a field, where c and e are letters.
    sid = recorded(tmp_path / "c.db", clock, "castells", asked_with_rule)
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        game = await open_screen(pilot, sid, CastellsScreen)
        assert isinstance(game.focused, Input)
        declared = {b.action: b for b in game.BINDINGS if isinstance(b, Binding)}
        assert declared["correct"].description and declared["edit"].description
        text = await press_help(pilot)
        assert declared["correct"].description not in text
        assert declared["edit"].description not in text
        await pilot.press("escape")
        game.set_focus(None)  # out of the field, the letters are keys again
        await pilot.pause()
        text = await press_help(pilot)
        assert_keys_listed(text, game, ["correct", "edit"])


# -- a remapped key, a dialog, closing ----------------------------------------------------


async def test_a_remapped_help_key_shows_its_new_key(tmp_path: Path, clock: Any) -> None:
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        app.set_keymap({"app.help": "f10"})  # the binding's id (screens/app.py)
        await pilot.press("f1")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)  # f1 no longer opens it
        text = await press_help(pilot, "f10")
        assert "f10" in line_with(text, "Help", "this help")
        assert "f1 " not in line_with(text, "Help", "this help")
        assert "f10, enter or esc closes" in text
        await pilot.press("f10")
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)


@pytest.mark.slow
async def test_f1_in_a_dialog_lists_the_dialogs_keys_and_goes_back_to_it(tmp_path: Path, clock: Any) -> None:
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        await pilot.press("d")
        await wait_until(pilot, lambda: isinstance(app.screen, DiceTrayScreen))
        await pilot.press("ctrl+o")  # end the session: it asks first
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        dialog = app.screen
        text = await press_help(pilot)
        assert "Help: A question" in text
        assert_keys_listed(text, dialog, ["answer(True)", "answer(False)"])
        assert "Dice tray" not in text  # the keys of the dialog, not of the screen under it
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is dialog  # the help closed, the question still waits


@pytest.mark.slow
@pytest.mark.parametrize("key", ["escape", "enter", "f1"])
async def test_each_closing_key_closes_the_help_and_answers_nothing(
    tmp_path: Path, clock: Any, key: str
) -> None:
    # An instruction waits: enter on the game screen would confirm it, in the help it must not.
    sid = recorded(tmp_path / "c.db", clock, "reconquista", lambda d: isinstance(d.pending, Tell))
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        game = await open_screen(pilot, sid, ReconquistaScreen)
        assert game.driver is not None
        steps = len(game.driver.steps)
        await press_help(pilot)
        await pilot.press(key)
        await pilot.pause()
        assert app.screen is game
        assert len(game.driver.steps) == steps


@pytest.mark.slow
async def test_the_help_scrolls_at_80x24_with_its_title_and_hint_in_sight(tmp_path: Path, clock: Any) -> None:
    sid = recorded(tmp_path / "c.db", clock, "reconquista", asked_with_rule)
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_screen(pilot, sid, ReconquistaScreen)
        await press_help(pilot)
        body = app.screen.query_one("#help-body")
        assert body.max_scroll_y > 0  # longer than the terminal
        shown = screen_text(pilot)
        assert "Help: Reconquista" in shown and "enter or esc closes" in shown
        assert "Rule:" not in shown
        await pilot.press("end")
        await pilot.pause()
        shown = screen_text(pilot)
        assert body.scroll_y == body.max_scroll_y
        assert "Rule:" in shown and "Help: Reconquista" in shown and "enter or esc closes" in shown


async def test_the_palette_offers_the_help(tmp_path: Path, clock: Any) -> None:
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        assert "Help" in {c.title for c in app.get_system_commands(app.screen)}


# -- the snapshot -------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_snapshot_help_on_a_game_screen(
    snap_compare: Any, tmp_path: Path, clock: Any, size: tuple[int, int]
) -> None:
    sid = recorded(tmp_path / "c.db", clock, "reconquista", asked_with_rule)
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)

    async def before(pilot: Pilot[Any]) -> None:
        await open_screen(pilot, sid, ReconquistaScreen)
        await press_help(pilot)

    assert snap_compare(app, terminal_size=size, run_before=before)
