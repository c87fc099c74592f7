"""The dialogs every screen shares: yes or no, a message to read. The dialogs about the steps
of a game are in ``step_dialogs``: they need the driver, which the first screen does not."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Static

from screens.plain import plain

DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 72; height: auto; max-height: 90%;
    border: thick $accent; background: $surface; padding: 1 2;
}}
{name} OptionList {{ height: auto; max-height: 16; }}
{name} .dialog-title {{ text-style: bold; color: $text-accent; margin-bottom: 1; }}
{name} .dialog-hint {{ color: $text-muted; margin-top: 1; }}
"""


class ConfirmDialog(ModalScreen[bool]):
    """A yes/no question; y or Enter says yes, n or escape no."""

    HELP = "A question: the app asks before it goes on; yes or no."

    DEFAULT_CSS = DIALOG_CSS.format(name="ConfirmDialog")
    BINDINGS = [
        Binding("y,enter", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(plain(self.question), classes="dialog-title")  # it quotes labels and areas
            yield Static("y: yes    n: no", classes="dialog-hint")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)


class MessageDialog(ModalScreen[None]):
    """A few lines to read, closed with Enter or escape."""

    HELP = "A message: lines to read; nothing is asked."

    DEFAULT_CSS = DIALOG_CSS.format(name="MessageDialog")
    BINDINGS = [Binding("enter,escape", "close", "Close")]

    def __init__(self, title: str, body: Text | str) -> None:
        super().__init__()
        self.title_text = title
        self.body = body

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(self.title_text, classes="dialog-title")
            yield Static(plain(self.body) if isinstance(self.body, str) else self.body)
            yield Static("Enter closes.", classes="dialog-hint")

    def action_close(self) -> None:
        self.dismiss(None)
