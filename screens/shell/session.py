"""What every game screen does with its session alike: open its driver from the app's store
(saying so when a game recorded under earlier rules goes on from an earlier step), and correct
a die typed earlier (Driver.correct, through the correction dialog)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual.screen import Screen

from companion.driver import Driver
from companion.errors import CompanionError
from companion.interface import Game
from companion.prompts import BadAnswer, Roll
from screens.context import companion_app
from screens.plain import notify_plain
from screens.shell.dialogs import MessageDialog
from screens.shell.prompt_panel import PromptPanel
from screens.shell.step_dialogs import CorrectionDialog, correction_text

if TYPE_CHECKING:  # the store (SQLAlchemy) loads after the first paint, not with the screens
    from companion.sessions import Resumed
    from screens.shell.game_screen import GameScreen

#: How long the notice of a game recorded under earlier rules stays on screen: long enough to read.
NOTICE_SECONDS = 30


def resume(screen: Screen[Any], session_id: int, game: Game) -> Resumed | None:
    """The session resumed from the app's store (``resume_session``), its next answers committed
    there; None when it cannot be opened, after saying why in one sentence and leaving
    ``screen``. A game recorded under earlier rules that goes on from an earlier step than its
    log says so in a notification (``Resumed.notice``), on screen for NOTICE_SECONDS."""
    from companion.sessions import resume_session  # the store is open by now

    app = companion_app(screen)
    try:
        resumed: Resumed = resume_session(app.store(), session_id, game)
    except CompanionError as exc:
        notify_plain(app, str(exc), severity="error")
        app.pop_screen()
        return None
    if resumed.notice:
        notify_plain(app, resumed.notice, title="Earlier rules", severity="warning", timeout=NOTICE_SECONDS)
    return resumed


def open_driver(screen: Screen[Any], session_id: int, game: Game) -> Driver | None:
    """The session's driver (see ``resume``); None when the session cannot be opened."""
    resumed = resume(screen, session_id, game)
    if resumed is None:
        return None
    for panel in screen.query(PromptPanel):  # the dice on the table, named where they are typed
        panel.die = resumed.driver.die
    if hasattr(screen, "notes"):  # a game screen: its bookmarks
        screen.notes = resumed.notes
    return resumed.driver


def correct_a_die(
    screen: GameScreen,
    driver: Driver | None,
    show: Callable[..., None],
    corrected: Callable[[int], None],
) -> None:
    """Ask which die typed earlier was wrong and its right faces; replay the game from it
    (later answers kept where they still fit) and report what changes on the table.
    ``show(message, error=True)`` says why nothing changed; ``corrected(index)`` lets the
    screen redraw before the report opens."""
    if driver is None or not any(isinstance(s.prompt, Roll) for s in driver.steps):
        show("No die has been rolled yet.", error=True)
        return

    def apply(result: tuple[int, list[int]] | None) -> None:
        if result is None:
            return
        index, values = result
        now = driver.state  # a correction re-runs the game into a new state: this one is the table's
        try:
            report = driver.correct(index, values, "physical")
        except (BadAnswer, CompanionError) as exc:
            show(str(exc), error=True)
            return
        driver.take_filled()  # counted in the report, said in its dialog
        corrected(index)
        tell = driver.game.board_changes
        changes = tell(now, driver.state, undo=False) if tell is not None else None
        text = correction_text(driver, index, values, report, changes)
        screen.app.push_screen(MessageDialog("Correction", text))

    screen.app.push_screen(CorrectionDialog(driver.steps), apply)
