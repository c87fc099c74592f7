"""The screens of a game, found through its entry in the registry (companion.games.GAMES).

An entry names its screen and its replay view as "module:Class"; they are imported when a
session of the game is opened, so the first screen does not pay for the others.
"""

from __future__ import annotations

from typing import Any

from companion.games import entry, named


def load_class(path: str) -> Any:
    """The class that "module:Class" names."""
    return named(path)


def screen_class(game_id: str) -> Any:
    """The game screen of ``game_id``: built with a session id."""
    return load_class(entry(game_id).screen)


def replay_view_class(game_id: str) -> Any:
    """The view History shows ``game_id``'s state in, step by step."""
    return load_class(entry(game_id).replay_view)


def setup_dialog(game_id: str) -> Any | None:
    """The dialog asking a new session's settings, or None when the game asks none."""
    path = entry(game_id).setup
    return load_class(path) if path else None
