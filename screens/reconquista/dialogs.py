"""The dialogs of the Reconquista screen alone: a new game's dice, a correction of an area by hand."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from companion import dice
from companion.settings import DEFAULTS, Settings
from screens.colours import tone
from screens.plain import TYPED_MAX, plain
from screens.shell.dialogs import DIALOG_CSS

#: What each dice mode means (the modes themselves, and their order, are companion.dice's).
DICE_MODES = dict(
    zip(
        dice.DICE_MODES,
        (
            "Mixed: type each roll from the table, or press r and the app rolls",
            "Physical dice: you roll on the table and type every die",
            "App dice: the app rolls everything; you make the choices",
        ),
        strict=True,
    )
)


class NewGameDialog(ModalScreen[dict[str, Any] | None]):
    """How the dice of a new Reconquista game are rolled: the session's settings ({"dice": mode}).
    The mode of the user's settings (``dice_mode``) is highlighted first."""

    HELP = "New Reconquista game: how the dice are rolled (it can be changed at any time in the game)."

    DEFAULT_CSS = DIALOG_CSS.format(name="NewGameDialog")
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, settings: Settings = DEFAULTS) -> None:
        super().__init__()
        self.preselected = settings.dice_mode

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("New Reconquista game", classes="dialog-title")
            yield Static("How are the dice rolled? (ctrl+d changes it at any time in the game)")
            yield OptionList(*(Option(text, id=mode) for mode, text in DICE_MODES.items()))
            yield Static("Enter starts the game; escape goes back.", classes="dialog-hint")

    def on_mount(self) -> None:
        modes = list(DICE_MODES)
        if self.preselected in modes:
            self.query_one(OptionList).highlighted = modes.index(self.preselected)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        # A new game opens with the setup as a checklist (games recorded before it have none).
        self.dismiss({"dice": event.option.id, "setup": True})

    def action_cancel(self) -> None:
        self.dismiss(None)


class DiceModeDialog(ModalScreen[str | None]):
    """ctrl+d in a game: how the dice are rolled from now on, the mode in use highlighted and
    marked. It only chooses: the question waiting stays waiting (a change applies from the next
    roll), and escape changes nothing. Dismissed with the mode picked, or None."""

    HELP = "Dice mode: how the dice are rolled from the next roll on (the roll waiting stays as it is)."
    DEFAULT_CSS = DIALOG_CSS.format(name="DiceModeDialog")
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, current: str) -> None:
        super().__init__()
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Dice mode", classes="dialog-title")
            yield Static("How are the dice rolled from the next roll on?")
            yield OptionList(
                *(
                    Option(f"{text}  (now)" if mode == self.current else text, id=mode)
                    for mode, text in DICE_MODES.items()
                )
            )
            yield Static("Enter keeps the mode picked; escape leaves it as it is.", classes="dialog-hint")

    def on_mount(self) -> None:
        modes = list(DICE_MODES)
        if self.current in modes:
            self.query_one(OptionList).highlighted = modes.index(self.current)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)


class EditAreaDialog(ModalScreen[str | None]):
    """Pick an area and write what the table really shows there (a manual correction).

    ``apply(area, text)`` makes the correction and returns None, or the sentence that refuses
    it: then the dialog stays open with the line as typed and the reason under it, to be
    fixed or left with escape. An empty line logs nothing. The dialog ends with the sentence
    to show on the board screen."""

    HELP = "Fix the board: pick an area and write what your table shows there; the correction is logged."
    DEFAULT_CSS = DIALOG_CSS.format(name="EditAreaDialog")
    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    HINT = "e.g. city muslim; fortress; M 1A1G; C 2A; siege by C  (sides: C M R F RA; 'no city', 'no siege')"

    def __init__(self, areas: dict[str, str], apply: Callable[[str, str], str | None]) -> None:
        super().__init__()
        self.areas = areas  # area -> its current text
        self.apply = apply
        self.picked: str | None = None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Correct the board by hand", classes="dialog-title")
            yield Static("Pick the area, then write everything it holds on your table.")
            yield OptionList(
                *(Option(Text.assemble((a, "bold"), f"  {t}"), id=a) for a, t in self.areas.items()),
                id="edit-areas",
            )
            yield Input(id="edit-text", max_length=TYPED_MAX)
            yield Static(self.HINT, id="edit-message", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#edit-text", Input).display = False

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.picked = event.option.id
        box = self.query_one("#edit-text", Input)
        box.value = self.areas.get(self.picked or "", "")
        box.display = True
        box.focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        area = self.picked
        if area is None:
            return
        text = event.value
        if not text.strip():
            # An empty line would empty the area: nothing is logged without a word typed.
            self.show_error(
                f"Write what {area} holds (an empty area: 'no city; no fortress'), or escape to leave it."
            )
            return
        if " ".join(text.split()) == " ".join(self.areas.get(area, "").split()):
            self.dismiss(f"{area} is as it was: nothing changed.")
            return
        refusal = self.apply(area, text)
        if refusal is not None:
            self.show_error(refusal)  # the line stays as typed, to be fixed
            return
        self.dismiss(f"{area} corrected.")

    def show_error(self, text: str) -> None:
        self.query_one("#edit-message", Static).update(plain(text, tone(self, "error", "bold")))

    def action_cancel(self) -> None:
        self.dismiss(None)
