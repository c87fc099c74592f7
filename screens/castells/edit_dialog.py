"""The dialog of a correction by hand on the Terra de Castells screen: one line typed, checked by the engine."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from screens.plain import TYPED_MAX, plain
from screens.shell.dialogs import DIALOG_CSS


class EditDialog(ModalScreen[str | None]):
    """Type what the table shows: a castle's owner, a player's army points, the Saracen's place.

    ``apply(text)`` makes the correction and returns None, or the sentence that refuses it:
    then the dialog stays open with the line as typed and the reason under it. An empty line
    logs nothing. The dialog ends with the sentence to show on the screen (None: escape)."""

    # The app's dialog frame, a little wider for the examples, and the refusal in the theme's colour.
    DEFAULT_CSS = (
        DIALOG_CSS.format(name="EditDialog")
        + """
    EditDialog > Vertical { width: 76; }
    EditDialog #ed-error { color: $text-error; height: auto; }
    """
    )
    # F1's line (screens/help.py); the field's placeholder is the engine's HELP, imported above.
    HELP = "Fix by hand: a castle's owner, a player's army points or the Saracen's place, as the table shows."
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, apply: Callable[[str], str | None]) -> None:
        super().__init__()
        self.apply = apply

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
                    "       the Saracen figure is on Miravet\n",
                    ("  saracen start", "bold"),
                    "         it is back on its own space",
                )
            )
            # HELP is longer than the field at 80 columns: the examples above say it whole.
            yield Input(
                placeholder="castle …, army … or saracen …, as above", id="ed-line", max_length=TYPED_MAX
            )
            yield Static(id="ed-error")
            yield Static(
                "Enter applies it (logged as a step of its own); escape cancels.", classes="dialog-hint"
            )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value
        if not text.strip():
            self.show_error("Type one line like those above, or escape to leave the table as it is.")
            return
        refusal = self.apply(text)
        if refusal is not None:
            self.show_error(refusal)  # the line stays as typed, to be fixed
            return
        self.dismiss("")

    def show_error(self, text: str) -> None:
        self.query_one("#ed-error", Static).update(plain(text))

    def action_cancel(self) -> None:
        self.dismiss(None)
