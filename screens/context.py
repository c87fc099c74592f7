"""The app a screen or a widget runs in, typed: ``companion_app(node)`` gives the
CompanionApp (its store, its settings, how it opens sessions) where ``node.app`` is only a
Textual App, so that what a screen asks of the app is checked."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from textual.dom import DOMNode

if TYPE_CHECKING:  # screens.app imports the screens: only its type here
    from screens.app import CompanionApp


def companion_app(node: DOMNode) -> CompanionApp:
    """``node``'s app, as the CompanionApp it is (every screen of ours runs in one)."""
    return cast("CompanionApp", node.app)
