"""The dialogs about the steps of a game: correct a die typed earlier (and what the
correction changes on the table), undo back to a chosen step."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from companion.driver import Correction, Driver, Step
from companion.prompts import BadAnswer, Choose, Edit, Roll, Tell, answer_text
from screens.colours import tone
from screens.plain import TYPED_MAX, plain
from screens.shell.dialogs import DIALOG_CSS


class CorrectionDialog(ModalScreen[tuple[int, list[int]] | None]):
    """Pick an earlier roll and type the dice it should have been."""

    HELP = "Correct a die: pick a roll typed earlier, then type the dice it should have been; the game re-runs from it."

    DEFAULT_CSS = DIALOG_CSS.format(name="CorrectionDialog")
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, steps: list[Step]) -> None:
        super().__init__()
        #: The last 40 rolls: (step index, its Roll, the step).
        self.rolls = [(i, s.prompt, s) for i, s in enumerate(steps) if isinstance(s.prompt, Roll)][-40:]
        self.picked: int | None = None

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Correct a die typed earlier", classes="dialog-title")
            yield Static("Pick the roll, then type the dice it should have been.")
            yield OptionList(
                *(
                    Option(
                        Text.assemble(
                            (f"{i + 1:>4} ", "dim"),
                            plain(roll.why[:48]),
                            " → ",
                            (" ".join(map(str, step.answer or [])), "bold"),
                            (f" ({step.source})", "dim"),
                        ),
                        id=str(i),
                    )
                    for i, roll, step in reversed(self.rolls)
                ),
                id="corr-rolls",
            )
            yield Input(placeholder="the right dice, e.g. 4 2", id="corr-dice", max_length=TYPED_MAX)
            yield Static(id="corr-message", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#corr-dice", Input).display = False

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.picked = int(event.option.id or 0)
        dice = self.query_one("#corr-dice", Input)
        dice.display = True
        dice.focus()
        self.query_one("#corr-message", Static).update(
            plain(f"Step {self.picked + 1}: {self._roll().describe()}")
        )

    def on_input_submitted(self, event: Input.Submitted) -> None:
        if self.picked is None:
            return
        try:
            values = self._roll().parse(event.value)
        except BadAnswer as exc:
            self.query_one("#corr-message", Static).update(plain(exc, tone(self, "error", "bold")))
            return
        self.dismiss((self.picked, values))

    def _roll(self) -> Roll:
        """The Roll of the step picked."""
        return next(roll for i, roll, _ in self.rolls if i == self.picked)

    def action_cancel(self) -> None:
        self.dismiss(None)


def step_line(number: int, step: Step) -> Text:
    """One step of the log on one line, for the step picker: its number, then the die, choice,
    instruction or correction by hand (the game's texts: shown as written)."""
    p = step.prompt
    head = (f"{number:>4} ", "dim")
    if isinstance(p, Tell):
        return Text.assemble(head, "✓ ", plain(p.text))
    if isinstance(p, Edit):
        return Text.assemble(head, "✎ ", plain(p.describe()))
    what = plain((p.why or p.describe()) if isinstance(p, (Roll, Choose)) else p.describe())
    return Text.assemble(head, what, " → ", (answer_text(step.answer), "bold"), (f" ({step.source})", "dim"))


class UndoToDialog(ModalScreen[int | None]):
    """Pick a step of the log: the game goes back to before it (an undo of it and every later
    step, asked again before it is done)."""

    HELP = (
        "Undo to a step: pick the step to take back, with every step after it; the app asks before it does."
    )

    # The list leaves the hint its line on a 24-line terminal.
    DEFAULT_CSS = DIALOG_CSS.format(name="UndoToDialog") + "UndoToDialog OptionList { max-height: 12; }"
    BINDINGS = [Binding("escape", "cancel", "Cancel")]
    #: The steps offered, the newest first: an undo further back is done in several.
    SHOWN = 60

    def __init__(self, steps: list[Step]) -> None:
        super().__init__()
        self.steps = steps

    def compose(self) -> ComposeResult:
        first = max(0, len(self.steps) - self.SHOWN)
        with Vertical():
            yield Static("Undo to a step", classes="dialog-title")
            yield Static("Pick the first step to take back: it and every step after it go.")
            yield OptionList(
                *(
                    Option(step_line(i + 1, self.steps[i]), id=str(i))
                    for i in range(len(self.steps) - 1, first - 1, -1)
                ),
                id="undo-to-steps",
            )
            yield Static("Enter picks; escape: nothing changes.", classes="dialog-hint")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(int(event.option.id or 0))

    def action_cancel(self) -> None:
        self.dismiss(None)


def correction_text(
    driver: Driver, index: int, values: list[int], report: Correction, changes: list[str] | None = None
) -> Text:
    """What a corrected die changed, for the players to carry out on the table: ``changes``,
    the net changes from the table before the correction to the game now (one list: what the
    old instructions did and the new ones do, summed), where the game can tell them; else the
    instructions the correction adds and the ones it drops."""
    body = Text()
    body.append(f"Step {index + 1} is now {' '.join(map(str, values))}. ", style="bold")
    body.append(f"{report.reused} later answer(s) kept.\n")
    if report.kept:
        n = len(report.kept)
        body.append(
            f"{n} later fact{'s' if n != 1 else ''} of the table (dice, draws, moves) "
            f"{'are' if n != 1 else 'is'} kept: the game uses {'them' if n != 1 else 'it'} again "
            "as it asks for them.\n"
        )
    body.append("ctrl+z takes the correction back.\n", style="dim")
    if changes is not None:
        if changes:
            body.append("\nMake these changes on the board:\n", style="bold")
            for line in changes:
                body.append(f"  • {line}\n")
        else:
            body.append("\nNothing changes on the board.\n")
        if isinstance(driver.pending, Tell) and changes:
            body.append(
                "\nThe instruction waiting may be one of them: make each change once, then confirm it."
            )
        elif driver.pending is not None:
            body.append(f"\nThe game now asks: {driver.pending.describe()}")
        return body
    if report.new_tells:
        body.append("\nMake these changes on the board:\n", style="bold")
        for t in report.new_tells:
            body.append(f"  • {t.text}\n")
    undone = [p for p in (s.prompt for s in report.dropped) if isinstance(p, Tell)]
    if undone:
        body.append("\nThese earlier instructions no longer apply (undo them):\n", style="bold")
        for t in undone:
            body.append(f"  • {t.text}\n")
    if driver.pending is not None:
        body.append(f"\nThe game now asks: {driver.pending.describe()}")
    return body
