"""Branch here: a new session from a session's log up to a step, to play another line.

The game screen branches at the step on screen (its whole log so far), History's log at the
step highlighted (``sessions.branch_session``). The app asks first, naming the session and the
step, then opens the branch: the session branched from stays as it was.
"""

from __future__ import annotations

from typing import Any

from textual.screen import Screen

from companion.errors import CompanionError
from screens.context import companion_app
from screens.plain import notify_plain
from screens.shell.dialogs import ConfirmDialog


def branch_here(screen: Screen[Any], session_id: int, steps: int, where: str = "") -> None:
    """Ask, then start a branch of ``session_id`` with its first ``steps`` steps and open it.
    ``where``: the turn or phase of that step, for the question ("turn 3, Phase 5")."""
    app = companion_app(screen)
    at = f"step {steps}" + (f" ({where})" if where else "")

    def answered(yes: bool | None) -> None:
        if not yes:
            return
        from companion.sessions import branch_session  # the store is open by now

        try:
            new = branch_session(app.store(), session_id, steps)
        except CompanionError as exc:
            notify_plain(app, str(exc), severity="error")
            return
        notify_plain(
            app,
            f"Session {new} is a branch of session {session_id} at {at}: it goes on from there, "
            f"and session {session_id} stays as it was.",
            title="Branch",
        )
        app.open_session(new)

    app.push_screen(
        ConfirmDialog(
            f"Start a new session from session {session_id}'s log up to {at}, to play another line? "
            f"Session {session_id} stays as it is."
        ),
        answered,
    )
