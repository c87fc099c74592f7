"""Naming the dice rolled on the table, and marking a roll as a test roll.

A player may name the dice they roll ("red d6"): each roll typed from the table is then
logged with that name, and the luck ledger tests each named die on its own. The name is
chosen in a dialog (a name used before, no name, or a new one), kept with the session
(``Store.set_die``) until changed. A roll marked as a test roll (``Driver.mark_test``, or
``Store.mark_test`` for a session not open) is left out of the ledger. The game screens with
dice and the Dice tray share these; History's log marks its own steps.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from companion.dice import DIE_NAME_MAX, die_name
from companion.errors import CompanionError
from companion.prompts import BadAnswer
from screens.context import companion_app
from screens.plain import TYPED_MAX, plain
from screens.shell.dialogs import DIALOG_CSS
from screens.shell.prompt_panel import PromptPanel

if TYPE_CHECKING:
    from companion.driver import Step
    from screens.shell.game_screen import GameScreen

#: The option that logs the dice with no name.
NO_NAME = "No name (the dice are logged unnamed)"


class DiceNameDialog(ModalScreen[tuple[str | None] | None]):
    """Which dice are on the table: a name used before, no name, or a new one typed. Dismissed
    with (the name,) (None: no name), or None when nothing changes (escape)."""

    HELP = (
        "Name the dice you roll on the table, so the luck ledger tests each die on its own: "
        "pick a name used before or 'no name', or type a new one and press Enter."
    )
    DEFAULT_CSS = (
        DIALOG_CSS.format(name="DiceNameDialog")
        + """
    DiceNameDialog #dn-error { color: $text-error; }
    """
    )
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, now: str | None, names: list[str]) -> None:
        super().__init__()
        self.now = now
        self.names = [n for n in names if n != now]
        if now is not None:
            self.names.insert(0, now)

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Which dice do you roll on the table?", classes="dialog-title")
            yield Static(
                Text.assemble(
                    "The luck ledger tests each named die on its own. Now: ",
                    (self.now or "no name", "bold"),
                    ".",
                )
            )
            yield OptionList(
                Option(NO_NAME, id="none"),
                *(Option(plain(name), id=f"n{i}") for i, name in enumerate(self.names)),
                id="dn-names",
            )
            # Longer than a name may be: a name too long is said in one sentence, not cut short.
            yield Input(placeholder="or a new name, like red d6", id="dn-new", max_length=TYPED_MAX)
            yield Static("", id="dn-error")
            yield Static(
                f"↑ ↓ and Enter pick a name; tab, then a new name (at most {DIE_NAME_MAX} characters) "
                "and Enter; escape changes nothing.",
                classes="dialog-hint",
            )

    def on_mount(self) -> None:
        names = self.query_one("#dn-names", OptionList)
        names.highlighted = 0 if self.now is None else 1
        # No name given yet: the player is here to type one.
        (names if self.names else self.query_one("#dn-new", Input)).focus()

    @on(OptionList.OptionSelected, "#dn-names")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        option_id = event.option.id or "none"
        self.dismiss((None,) if option_id == "none" else (self.names[int(option_id[1:])],))

    @on(Input.Submitted, "#dn-new")
    def _typed(self, event: Input.Submitted) -> None:
        try:
            name = die_name(event.value)
        except ValueError as exc:
            self.query_one("#dn-error", Static).update(plain(str(exc)))
            return
        self.dismiss((name,))

    def action_cancel(self) -> None:
        self.dismiss(None)


def name_the_dice(screen: GameScreen) -> None:
    """Ask which dice are on the table and log the next rolls typed from it with their name."""
    driver = screen.driver
    if driver is None:
        return
    app = companion_app(screen)
    try:
        names = app.store().die_names()
    except CompanionError as exc:
        screen.show_game(str(exc), error=True)
        return

    def chosen(result: tuple[str | None] | None) -> None:
        if result is None or driver is not screen.driver:
            return
        try:
            name = app.store().set_die(screen.session_id, result[0])
        except (ValueError, CompanionError) as exc:
            screen.show_game(str(exc), error=True)
            return
        show_die(screen, name)
        screen.show_game(
            f"The dice typed from the table are logged as '{name}' from now on."
            if name is not None
            else "The dice typed from the table are logged with no name from now on."
        )

    screen.app.push_screen(DiceNameDialog(driver.die, names), chosen)


def show_die(screen: GameScreen, name: str | None) -> None:
    """Log the rolls typed from the table from now on with ``name``, and say so by the dice field."""
    if screen.driver is not None:
        screen.driver.die = name
    for panel in screen.query(PromptPanel):
        panel.die = name


def mark_test_roll(screen: GameScreen, index: int, called: str | None = None) -> None:
    """Mark the roll at step ``index`` as a test roll, or take the mark off (a second press);
    ``called``: what the screen calls that roll ('Roll 3'), by default its step."""
    driver = screen.driver
    if driver is None:
        return
    try:
        test = not driver.steps[index].test if 0 <= index < len(driver.steps) else True
        driver.mark_test(index, test)
    except (BadAnswer, CompanionError) as exc:
        screen.show_game(str(exc), error=True)
        return
    screen.show_game(test_mark_text(index, test, called))


def test_mark_text(index: int, test: bool, called: str | None = None) -> str:
    """What a test-roll mark did to the roll at step ``index`` (``called`` so), in one sentence."""
    roll = called or f"Step {index + 1}"
    if test:
        return f"{roll} is marked as a test roll: the luck ledger leaves it out."
    return f"{roll} is no longer a test roll: the luck ledger counts it."


def source_text(step: Step) -> str:
    """Where a step's answer came from, with the name of the dice and the test mark of a roll:
    'physical (red d6) · test'."""
    return step.source + die_words(step.die) + (" · test" if step.test else "")


def die_words(die: str | None) -> str:
    """' (red d6)' after the dice typed from the table, or nothing for unnamed dice."""
    return "" if die is None else f" ({die})"
