"""What a player does to a whole session from any screen: abandon it, delete it. Each asks
first, naming the session ("session 12, Reconquista (turn 3, movement)"), acts on the store,
and says what it did; a store that refuses is one sentence, and nothing changes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from textual.screen import Screen

from companion.errors import CompanionError
from companion.games import session_name
from screens.context import companion_app
from screens.plain import notify_plain
from screens.shell.dialogs import ConfirmDialog


def abandon_question(name: str) -> str:
    return (
        f"Abandon {name}?\n\nIt leaves the unfinished sessions and stays in History, marked "
        "abandoned: History resumes it, or deletes it."
    )


def abandoned_text(name: str) -> str:
    return f"Abandoned {name}: History has it, to resume or delete."


def delete_question(name: str, session_id: int) -> str:
    return (
        f"Delete {name} and every step of its log?\n\nThis cannot be undone. To keep a copy, "
        f"answer n and run: companion export {session_id}"
    )


def ask_then(
    screen: Screen[Any],
    session_id: int,
    question: Callable[[str], str],
    act: Callable[[Any, int], object],
    done: Callable[[str], None],
) -> None:
    """Ask ``question(name)``; on yes, ``act(store, session_id)`` then ``done(name)``."""
    app = companion_app(screen)
    try:
        info = app.store().session(session_id)
    except CompanionError as exc:
        notify_plain(app, str(exc), severity="error")
        return
    name = session_name(info.id, info.game, info.summary)

    def answered(yes: bool | None) -> None:
        if not yes:
            return
        try:
            act(app.store(), session_id)
        except CompanionError as exc:
            notify_plain(app, str(exc), severity="error")
            return
        done(name)

    app.push_screen(ConfirmDialog(question(name)), answered)
