"""Board checks on the game screens: at the end of a turn, a few spot questions about the table.

The game's ``checks`` module (its registry entry) chooses the questions where the table is
likeliest to have drifted (``board_checks``); the ``board_checks`` setting says every how many
turns. Each answer is logged through the driver (``Driver.board_check``: a step that changes
nothing). A match is ticked; a mismatch offers to correct the app to the table (the screen's
correction by hand, e), to read the steps since the last check that concerned that place (i),
or to go on (Enter).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from companion.check_rhythm import checks_due, checks_module
from companion.prompts import BadAnswer, Check, answer_text
from screens.context import companion_app
from screens.plain import TYPED_MAX, plain
from screens.shell.dialogs import DIALOG_CSS, MessageDialog

if TYPE_CHECKING:
    from screens.shell.game_screen import GameScreen

#: What a check's dialog gives back: (the table's answer, what to do next): "next" (a match, or
#: a mismatch let be), "edit" (correct the app), "steps" (read the steps), or None (escape: the
#: rest of this check is skipped; nothing is logged).
CheckResult = tuple[str, str] | None


class BoardCheckDialog(ModalScreen[CheckResult]):
    """One question of a board check: typed from the table; then, if the table and the app
    disagree, what to do about it."""

    HELP = (
        "A board check: a spot question about your table, where it is likeliest to have drifted "
        "from the app's. Type what your table shows; escape skips the check."
    )
    DEFAULT_CSS = (
        DIALOG_CSS.format(name="BoardCheckDialog")
        + """
    BoardCheckDialog #bc-error { color: $text-error; }
    """
    )
    BINDINGS = [Binding("escape", "skip", "Skip the check")]

    def __init__(self, question: Check, place: str, number: int, of: int, before: str = "") -> None:
        super().__init__()
        self.question = question
        self.place = place
        self.number, self.of = number, of
        self.before = before  # the last question's tick, said above this one
        self.answer: str | None = None  # typed, and not what the app has: what to do is asked

    def compose(self) -> ComposeResult:
        with Vertical():
            title = "Board check" + (f" ({self.number} of {self.of})" if self.of > 1 else "")
            yield Static(title, classes="dialog-title")
            if self.before:
                yield Static(plain(self.before))
            yield Static(plain(self.question.why), id="bc-question")
            hint = f"one of: {', '.join(self.question.options)}" if self.question.options else "a number"
            yield Input(placeholder=hint, id="bc-answer", max_length=TYPED_MAX)
            yield Static("", id="bc-error")
            yield Static(
                "Enter: what your table shows; escape skips the check.", classes="dialog-hint", id="bc-hint"
            )

    def on_mount(self) -> None:
        self.query_one("#bc-answer", Input).focus()

    @on(Input.Submitted, "#bc-answer")
    def _typed(self, event: Input.Submitted) -> None:
        if self.answer is not None:
            self.dismiss((self.answer, "next"))  # Enter again: let it be
            return
        try:
            answer = self.question.parse(event.value)
        except BadAnswer as exc:
            self.query_one("#bc-error", Static).update(plain(str(exc)))
            return
        if self.question.matched(answer):
            self.dismiss((answer, "next"))
            return
        self.answer = answer
        event.input.disabled = True
        self.query_one("#bc-error", Static).update(
            plain(f"Your table shows {answer}; the app has {self.question.expected}.")
        )
        self.query_one("#bc-hint", Static).update(
            plain(
                f"e: correct the app to your table · i: the steps since the last check that concerned "
                f"{self.place} · Enter: go on"
            )
        )
        self.set_focus(None)

    def on_key(self, event: Any) -> None:
        # The choices of a mismatch, once the answer is in (the field is disabled by then).
        if self.answer is None:
            return
        if event.key in ("e", "i", "enter"):
            event.stop()
            self.dismiss((self.answer, {"e": "edit", "i": "steps", "enter": "next"}[event.key]))

    def action_skip(self) -> None:
        if self.answer is not None:
            self.dismiss((self.answer, "next"))  # the answer stands: it is what the table showed
            return
        self.dismiss(None)


def place_of(check: Check) -> str:
    """The place a check asks about (its data's ``place``)."""
    return str(check.data.get("place", ""))


def due(screen: GameScreen) -> list[Check]:
    """The questions of a board check due now, at the rhythm the settings say (spots.checks_due)."""
    d = screen.driver
    return [] if d is None else checks_due(d, companion_app(screen).settings.board_checks)


def run_checks(screen: GameScreen, questions: list[Check]) -> None:
    """Ask ``questions`` one after the other, each answer logged; act on a mismatch."""
    d = screen.driver
    if d is None or not questions:
        return
    ticks: list[str] = []

    def ask(k: int, before: str = "") -> None:
        if k >= len(questions) or d is not screen.driver:
            if ticks:
                screen.show_game(" ".join(ticks))
            return
        q = questions[k]
        place = place_of(q)

        def answered(result: CheckResult) -> None:
            if result is None or d is not screen.driver:
                screen.show_game("Board check skipped." + (" " + " ".join(ticks) if ticks else ""))
                return
            answer, then = result
            if screen.answer(lambda: d.board_check(q, answer)) is None:
                return  # refused (said on screen): nothing was logged
            tick = (
                f"✓ {place}: {answer}, as the app has."
                if q.matched(answer)
                else f"✗ {place}: your table {answer}, the app {q.expected}."
            )
            ticks.append(tick)
            if then == "edit" and hasattr(screen, "action_edit"):
                screen.show_game(" ".join(ticks))
                screen.action_edit()
                return
            if then == "steps":
                screen.show_game(" ".join(ticks))
                screen.app.push_screen(
                    MessageDialog(f"Since the last check: {place}", steps_text(screen, place))
                )
                return
            ask(k + 1, tick)

        screen.app.push_screen(BoardCheckDialog(q, place, k + 1, len(questions), before), answered)

    ask(0)


def steps_text(screen: GameScreen, place: str) -> Text:
    """The steps between the round of checks before and the one just answered that concerned
    ``place``: where to look for a step not made on the table."""
    d = screen.driver
    assert d is not None
    module = checks_module(d.game.id)
    steps = d.steps
    end = len(steps)
    while end and isinstance(steps[end - 1].prompt, Check):
        end -= 1  # the round just answered
    start = next((i for i in range(end - 1, -1, -1) if isinstance(steps[i].prompt, Check)), -1)
    lines = [
        Text(f"step {i + 1}: {steps[i].prompt.describe()} → {answer_text(steps[i].answer, none='done')}")
        for i in range(start + 1, end)
        if module is not None and module.touches(steps[i].prompt, place)
    ]
    if not lines:
        return Text(
            f"No step since the last check concerned {place}: the table drifted before it, or by hand."
        )
    return Text("\n").join(lines)
