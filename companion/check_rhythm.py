"""When the board checks are due: every so many turns (the ``board_checks`` setting), counted
from the last check of the log, or from the first turn.

The questions are the game's (its registry entry's ``checks`` module, which chooses them with
``spots``); the app's game screens and its plain lines mode both ask what ``checks_due`` gives,
and log each answer through ``Driver.board_check``. Not for the engines: it reads the registry.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from companion.interface import Step
from companion.prompts import Check

if TYPE_CHECKING:
    from companion.driver import Driver

#: The first turn of every game with board checks (Reconquista's turn 1, Castells' century 1):
#: the first check comes as many turns after it as the setting says.
FIRST_TURN = 1


def checks_module(game_id: str) -> Any:
    """The game's board checks module (its registry entry's ``checks``), or None."""
    from companion import games  # the registry: imported when a check may be due, not before
    from companion.errors import CompanionError

    try:
        found = games.entry(game_id).checks
    except CompanionError:
        return None
    return None if found is None else games.named(found)


def last_checked(steps: Sequence[Step]) -> int | None:
    """The turn of the last board check of a log (its data's ``turn``), None before the first."""
    for step in reversed(steps):
        if isinstance(step.prompt, Check):
            turn = step.prompt.data.get("turn")
            return turn if isinstance(turn, int) else None
    return None


def checks_due(driver: Driver, every: int) -> list[Check]:
    """The questions of a board check due now, ``every`` turns being the rhythm (0: never): a
    turn begun (the game's ``where``) that many turns after the last check, or after the first
    turn; none otherwise. Each question's data holds that turn, which the next check counts
    from (the game's checks module writes it)."""
    if not every or driver.finished:
        return []
    turn = driver.game.where(driver.state)[0]
    if turn is None or turn - (last_checked(driver.steps) or FIRST_TURN) < every:
        return []
    module = checks_module(driver.game.id)
    return [] if module is None else list(module.board_checks(driver.state, driver.steps))
