"""What every game screen does with its session alike: open its driver from the app's store,
and correct a die typed earlier (Driver.correct, through the correction dialog)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.screen import Screen

from companion.driver import Driver
from companion.errors import CompanionError
from companion.games import Game
from companion.prompts import BadAnswer, Roll
from screens.reconquista.dialogs import CorrectionDialog, MessageDialog, correction_text


def open_driver(screen: Screen[Any], session_id: int, game: Game) -> Driver | None:
    """The session's driver, its next answers committed to the app's store; None when the
    session cannot be opened, after saying why in one sentence and leaving ``screen``."""
    app: Any = screen.app
    try:
        driver: Driver = app.store().resume(session_id, game)
    except CompanionError as exc:
        app.notify(str(exc), severity="error")
        app.pop_screen()
        return None
    return driver


def correct_a_die(
    screen: Screen[Any],
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
        try:
            report = driver.correct(index, values, "physical")
        except (BadAnswer, CompanionError) as exc:
            show(str(exc), error=True)
            return
        corrected(index)
        screen.app.push_screen(MessageDialog("Correction", correction_text(driver, index, values, report)))

    screen.app.push_screen(CorrectionDialog(driver.steps), apply)
