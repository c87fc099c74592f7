"""Reconquista in History's step-through: the five regions, drawn by the game screen's own
board widget, under the turn, the phase and the victory points."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.widgets import Static

from companion.driver import Driver
from companion.reconquista.game import Reconquista
from screens.replay_views import StateView


class ReconquistaView(StateView):
    """The five regions, drawn by the Reconquista screen's own board widget."""

    def __init__(self, driver: Driver, **kwargs: Any) -> None:
        super().__init__(driver, **kwargs)
        self.board = Reconquista.board_of(driver.state)  # the session's own map, if it has one

    def compose(self) -> ComposeResult:
        from screens.reconquista.board_view import BoardView

        yield Static(id="rv-status")
        yield BoardView(self.board, id="rv-board")

    def show(self, driver: Driver) -> None:
        from companion.games import entry
        from companion.reconquista.control import victory_points
        from screens.reconquista.board_view import BoardView

        state = driver.state
        self.query_one(BoardView).show(state)
        vp = victory_points(self.board, state).total
        self.query_one("#rv-status", Static).update(
            Text.assemble(
                ("Turn ", "dim"),
                (str(state.turn), "bold"),
                ("  ·  ", "dim"),
                (entry("reconquista").phase_title(state.phase), "bold"),
                ("  ·  victory points ", "dim"),
                (str(vp), "bold"),
            )
        )
