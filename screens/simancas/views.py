"""The Battle of Simancas in History's step-through: both sides' cards with their scores, as
on the game screen."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widgets import Static

from companion.driver import Driver
from companion.simancas.table import SIDE_NAMES, SIDES
from screens.replay_views import StateView


class SimancasView(StateView):
    """Both sides' cards with their scores, as on the Simancas screen."""

    DEFAULT_CSS = """
    SimancasView Horizontal {
        height: auto;
    }
    SimancasView .sv-side {
        width: 1fr;
        height: auto;
        border: round $primary;
        padding: 0 1;
    }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="sv-status")
        with Horizontal():
            with Vertical(classes="sv-side", id="sv-moors"):
                yield Static(id="sv-moors-cards")
            with Vertical(classes="sv-side", id="sv-christians"):
                yield Static(id="sv-christians-cards")

    def show(self, driver: Driver) -> None:
        from screens.simancas.game_screen import side_table, table_shown

        match = driver.state
        table = table_shown(driver)
        totals = table.totals()
        for side in SIDES:
            title = SIDE_NAMES[side]
            panel = self.query_one(f"#sv-{side}")
            panel.border_title = title
            panel.border_subtitle = f"total {totals[side]}"
            self.query_one(f"#sv-{side}-cards", Static).update(side_table(self, table, side))
        m, c = match.wins["moors"], match.wins["christians"]
        self.query_one("#sv-status", Static).update(
            Text.assemble(
                ("Hand ", "dim"),
                (str(match.hand), "bold"),
                ("  ·  hands won: ", "dim"),
                (f"Moors {m}, Christians {c}", "bold"),
            )
        )
