"""The table as it stood at one step of a logged session, for the step-through replay.

Each game has a view, in its own screens (``screens/<game>/views.py``, named by its registry
entry): a ``StateView`` whose ``show(driver)`` draws the driver's state the way the game's own
screen does (the Reconquista board, the Simancas table, the Castells players, bag and castles,
the Dice tray's rolls); a game without one of its own gets the generic view here, the state's
snapshot as labelled lines. The driver is the one the log was replayed into
(``Driver.resume`` on the first N logged steps), so the picture is the engine's own
state, never a second reading of the log.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.widget import Widget
from textual.widgets import Static

from companion.driver import Driver
from companion.games import GameNotAvailable
from screens.plain import plain


class StateView(Widget):
    """The base: a view that redraws itself from a driver."""

    DEFAULT_CSS = """
    StateView {
        height: auto;
    }
    StateView .cv-block {
        padding-top: 1;
    }
    """

    def __init__(self, driver: Driver, **kwargs: Any) -> None:
        # The session the view shows: a view may need what it started with (the map of a game).
        super().__init__(**kwargs)

    def show(self, driver: Driver) -> None:
        raise NotImplementedError


class SnapshotView(StateView):
    """Any other game: its state snapshot, one labelled line a value."""

    def compose(self) -> ComposeResult:
        yield Static(id="gv-lines")

    def show(self, driver: Driver) -> None:
        self.query_one("#gv-lines", Static).update(snapshot_text(driver.snapshot()))


def snapshot_text(snap: dict[str, Any], indent: int = 0) -> RenderableType:
    lines: list[RenderableType] = []
    pad = "  " * indent
    for key, value in snap.items():
        label = str(key).replace("_", " ")
        # A game's state holds the players' text (names, labels): as text, control characters escaped.
        if isinstance(value, dict) and value:
            lines.append(plain(f"{pad}{label}", "bold"))
            lines.append(snapshot_text(value, indent + 1))
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            lines.append(plain(f"{pad}{label}: {len(value)}", "bold"))
        else:
            shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
            lines.append(Text.assemble(plain(f"{pad}{label}: ", "dim"), plain(shown or "-")))
    return Group(*lines)


def view_for(game_id: str, driver: Driver) -> StateView:
    """The view of ``game_id``'s state its registry entry names (the generic one for a game
    without its own)."""
    from screens.registry import replay_view_class

    try:
        view: type[StateView] = replay_view_class(game_id)
    except GameNotAvailable:
        view = SnapshotView
    return view(driver, id="state-view")
