"""The dialog of a correction by hand on the Terra de Castells screen: one line typed, checked by the engine."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from companion.castells.edits import HELP
from screens.plain import plain


class EditDialog(ModalScreen[str | None]):
    """Type what the table shows: a castle's owner, a player's army points, the Saracen's place."""

    DEFAULT_CSS = """
    EditDialog { align: center middle; }
    EditDialog > Vertical {
        width: 76; height: auto; border: thick $accent; background: $surface; padding: 1 2;
    }
    EditDialog .dialog-title { text-style: bold; color: $accent; margin-bottom: 1; }
    EditDialog .dialog-hint { color: $text-muted; margin-top: 1; }
    EditDialog #ed-error { color: $error; height: auto; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Correct the table by hand", classes="dialog-title")
            yield Static(
                Text.assemble(
                    "One line, for example:\n",
                    ("  castle Tortosa Anna", "bold"),
                    "   Anna holds Tortosa\n",
                    ("  castle Tortosa empty", "bold"),
                    "  nobody holds it\n",
                    ("  army Anna 4", "bold"),
                    "           Anna has 4 army points\n",
                    ("  saracen Miravet", "bold"),
                    "       the Saracen figure is on Miravet (or: saracen start)",
                )
            )
            yield Input(placeholder=HELP, id="ed-line")
            yield Static(id="ed-error")
            yield Static(
                "Enter applies it (logged as a step of its own); escape cancels.", classes="dialog-hint"
            )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def show_error(self, text: str) -> None:
        self.query_one("#ed-error", Static).update(plain(text))

    def action_cancel(self) -> None:
        self.dismiss(None)
