"""Coin toss: its screen (any Textual screen built with a session id will do)."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Static


class CoinTossScreen(Screen[None]):
    def __init__(self, session_id: int) -> None:
        super().__init__()
        self.session_id = session_id

    def compose(self) -> ComposeResult:
        yield Static(f"Coin toss, session {self.session_id}", id="toy-title")
