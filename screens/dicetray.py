"""The Dice tray screen: pick NdS and a label, type the dice rolled on the table or press r.

Every roll goes through the driver, so it is logged with its source (physical
or app) before it appears in the list, and the session resumes where it stood.
``DiceView`` shows the rolls in History's step-through.
"""

from __future__ import annotations

from typing import Any

from rich.table import Table as RichTable
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import DataTable, Header, Input, Label, OptionList, Static
from textual.widgets.option_list import Option

from companion.dicetray import GAME, parse_spec, presets, roll_for
from companion.driver import Driver, Step
from companion.errors import CompanionError
from companion.prompts import BadAnswer, Enter, Roll, answer_text
from companion.text import visible
from screens.plain import TYPED_MAX, plain
from screens.replay_views import StateView
from screens.shell.dialogs import ConfirmDialog
from screens.shell.dice_names import die_words, mark_test_roll
from screens.shell.footer import KeysFooter
from screens.shell.game_screen import GameScreen
from screens.shell.prompt_panel import PromptPanel
from screens.shell.session import open_driver

SOURCE_TEXT = {"physical": "table", "app": "app"}


class DiceTrayScreen(GameScreen):
    """One dice tray session."""

    HELP = "Dice tray: say the dice (NdS) and a label, then type the dice you rolled on the table or let the app roll; every roll is logged."

    #: ctrl+z is "Undo roll" here: taking back the last roll is what it says, at once.
    ASK_BEFORE_DICE = False

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # Once the session is ended nothing is left to roll or to end (the shell's check says so).
        if (
            action in ("roll", "end_session", "name_dice")
            and self.driver is not None
            and self.driver.finished
        ):
            return False
        # The values field's r asks the app to roll; in the dice and label fields r is a letter.
        if action == "roll" and isinstance(self.focused, Input):
            return self.focused is self.query_one(PromptPanel).field
        return True

    BINDINGS = [
        Binding("r", "roll", "Roll (app)", id="game.roll"),
        Binding("ctrl+z", "undo", "Undo roll", priority=True, id="game.undo"),
        Binding("ctrl+o", "end_session", "End session", priority=True, id="dice.end_session"),
        Binding("f8", "test_roll", "Test roll", show=False, id="dice.test_roll"),
        Binding("f2,question_mark", "rule", "Rule", show=False, priority=True, id="game.rule"),
        Binding("escape", "back", "Back", id="game.back"),
        *(Binding(str(i), f"preset({i})", show=False) for i in range(1, 10)),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="tray-body"):
            with Vertical(classes="panel", id="presets-panel"):
                yield Static("Quick picks", classes="panel-title")
                yield OptionList(
                    *(
                        Option(Text.assemble((str(i), "bold"), f" {p.dice:<5} ", plain(p.label)), id=str(i))
                        for i, p in enumerate(presets(), start=1)
                    ),
                    id="presets",
                )
            with Vertical(id="tray-main"):
                with Horizontal(id="tray-form"):
                    yield Label("Dice", classes="field-label")
                    yield Input(placeholder="2d6", id="dice", max_length=TYPED_MAX)
                    yield Label("Label", classes="field-label")
                    yield Input(placeholder="what the roll is for", id="label", max_length=TYPED_MAX)
                # The roll the fields above describe, and the field its values are typed in.
                yield PromptPanel(id="tray-prompt")
                yield DataTable(id="rolls", cursor_type="row", zebra_stripes=True)
                yield Static(id="tray-summary")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = f"Dice tray · session {self.session_id}"
        self.driver = open_driver(self, self.session_id, GAME)
        if self.driver is None:
            return
        self._fill_fields()
        self._show()

    # -- showing ---------------------------------------------------------------

    def _fill_fields(self) -> None:
        """Put the dice and label the session waits for into the fields."""
        assert self.driver is not None
        pending = self.driver.pending
        if isinstance(pending, Roll):
            dice, label = f"{pending.n}d{pending.sides}", pending.why
        else:
            n, sides, label = parse_spec(self.driver.state.next_spec)
            dice = f"{n}d{sides}"
        self.query_one("#dice", Input).value = dice
        # An imported label may hold control characters, which an Input prints as they are.
        self.query_one("#label", Input).value = visible(label)

    def _show(self, message: str = "", error: bool = False) -> None:
        assert self.driver is not None
        driver = self.driver
        panel = self.query_one(PromptPanel)
        if driver.finished:
            for field in self.query("#tray-form Input"):
                field.disabled = True
            over = Text.assemble(
                ("This session has ended", "bold"), f" ({GAME.summary(driver.state)}). Escape goes back."
            )
            panel.show(None, [], over=over)
        else:
            panel.show(self._roll_asked(), [])
        # The message quotes the label (or a refused answer): text, never markup.
        panel.message(message, error)
        self._fill_table()

    def _roll_asked(self) -> Roll:
        """The roll the fields describe (the one the values typed answer), or while they do not
        describe one, the roll the session waits for."""
        assert self.driver is not None
        spec = (
            f"{self.query_one('#dice', Input).value.strip()} {self.query_one('#label', Input).value.strip()}"
        )
        try:
            return roll_for(spec.strip())
        except BadAnswer:
            pending = self.driver.pending
            return pending if isinstance(pending, Roll) else roll_for(self.driver.state.next_spec)

    @on(Input.Changed, "#dice, #label")
    def _fields_changed(self, event: Input.Changed) -> None:
        """The question follows the fields as they are typed; the focus and the values stay."""
        if self.driver is None or self.driver.finished:
            return
        field = self.query_one(PromptPanel).field
        typed = field.value
        # The player is typing in that field: it keeps the focus, or the next letters typed
        # (fast, or pasted in a browser) would land in the values field.
        self.query_one(PromptPanel).show(self._roll_asked(), [], take_focus=False)
        field.value = typed

    def on_resize(self) -> None:
        if self.driver is not None:
            self.call_after_refresh(self._fill_table)  # the label's room follows the width

    def _fill_table(self) -> None:
        assert self.driver is not None
        table = self.query_one("#rolls", DataTable)
        at = [k for k, s in enumerate(self.driver.steps) if s.prompt.kind == "roll"]
        roll_steps = [self.driver.steps[k] for k in at]
        rolls = self.driver.state.rolls
        # A roll with a note (on its roll, or on the dice asked for it) is marked: f5 wrote it.
        noted = [k in self.notes or k - 1 in self.notes for k in at]
        rows: list[list[Any]] = [
            [
                str(i),
                plain(("✎ " if noted[i - 1] else "") + roll.label),  # a str cell is read as markup
                f"{roll.n}d{roll.sides}",
                " ".join(str(v) for v in roll.values),
                str(roll.total),
                # The die's name is the player's text: a str cell is read as markup.
                plain(
                    SOURCE_TEXT.get(step.source, step.source)
                    + die_words(step.die)
                    + (" · test" if step.test else "")
                ),
            ]
            for i, (roll, step) in enumerate(zip(rolls, roll_steps, strict=True), start=1)
        ]
        # The label takes the room the other columns leave, cut with an ellipsis beyond it, so
        # that a long label never pushes the values off the screen.
        labels = ["#", "Label", "Dice", "Values", "Total", "Source"]
        widths = [max([len(label), *(len(str(r[c])) for r in rows)]) for c, label in enumerate(labels)]
        pad = 2 * table.cell_padding
        room = table.size.width - sum(w + pad for c, w in enumerate(widths) if c != 1) - pad - 2
        if table.size.width > 0:
            widths[1] = max(5, min(widths[1], room))
        table.clear(columns=True)
        for label, key, width in zip(
            labels, ["n", "label", "dice", "values", "total", "source"], widths, strict=True
        ):
            table.add_column(label, key=key, width=width)
        for row in rows:
            row[1].no_wrap, row[1].overflow = True, "ellipsis"
            table.add_row(*row, key=row[0])
        if rolls:
            table.move_cursor(row=len(rolls) - 1)
        typed = sum(1 for s in roll_steps if s.source == "physical")
        tests = sum(1 for s in roll_steps if s.test)
        self.query_one("#tray-summary", Static).update(
            f"{len(rolls)} roll{'s' if len(rolls) != 1 else ''} · {typed} from the table · "
            f"{len(rolls) - typed} by the app"
            + (
                f" · {tests} test roll{'s' if tests != 1 else ''}, left out of the luck ledger"
                if tests
                else ""
            )
        )

    # -- answering -------------------------------------------------------------

    @on(PromptPanel.Typed)
    def _typed(self, event: PromptPanel.Typed) -> None:
        self._answer(event.value)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        # Enter in the dice or the label field: on to the answer field.
        self.query_one(PromptPanel).field.focus()

    def rolls_now(self) -> bool:
        """r answers the dice asked on the way and rolls them: always something to roll."""
        return True

    def action_roll(self) -> None:
        self._answer(None)

    def _answer(self, typed: str | None) -> None:
        """Answer the spec (if asked) and then the dice: typed values, or the app's roll (None)."""
        driver = self.driver
        if driver is None or driver.finished:
            return
        dice = self.query_one("#dice", Input).value.strip()
        label = self.query_one("#label", Input).value.strip()
        spec = f"{dice} {label}".strip()
        try:
            wanted = roll_for(spec)
            if typed is not None:
                wanted.parse(typed)  # check the dice before anything is recorded
            pending = driver.pending
            if isinstance(pending, Roll) and pending != wanted:
                driver.undo()  # the fields changed since the dice were asked for: ask anew
            if isinstance(driver.pending, Enter):
                driver.type(spec)
            step = driver.roll() if typed is None else driver.type(typed)
        except (BadAnswer, CompanionError) as exc:
            self.refused(exc)
            return
        values = " ".join(str(v) for v in step.answer or [])
        who = "rolled by the app" if step.source == "app" else "typed from the table" + die_words(step.die)
        self._show(f"Logged {wanted.why}: {values} ({who}).")

    def show_game(self, message: str = "", error: bool = False) -> None:
        self._show(message, error)

    def after_undo(self, taken: list[Step]) -> None:
        self._fill_fields()

    def after_redo(self, done: list[Step]) -> None:
        self._fill_fields()

    def undone_message(self, taken: list[Step]) -> str:
        roll = next(s for s in taken if isinstance(s.prompt, Roll))
        assert isinstance(roll.prompt, Roll)
        return f"Took back {roll.prompt.why}: {answer_text(roll.answer)}."

    def action_end_session(self) -> None:
        """Ask first: an ended session cannot be resumed, and ctrl+o is one key press."""
        driver = self.driver
        if driver is None or driver.finished:
            return

        def answered(yes: bool | None) -> None:
            if yes:
                self._end_session()

        self.app.push_screen(
            ConfirmDialog("End this dice tray session? It stays in History but cannot be resumed."),
            answered,
        )

    def _end_session(self) -> None:
        driver = self.driver
        if driver is None or driver.finished:
            return
        try:
            if isinstance(driver.pending, Roll):
                driver.undo()  # the dice asked for were never rolled
            driver.type("end")
        except CompanionError as exc:
            self.refused(exc)
            return
        self._show("Session ended; it stays in History.")

    def noted(self, index: int) -> None:
        self._fill_table()

    def action_test_roll(self) -> None:
        """Mark the roll highlighted in the list as a test roll, or take the mark off."""
        driver = self.driver
        if driver is None:
            return
        rolls = [i for i, s in enumerate(driver.steps) if isinstance(s.prompt, Roll)]
        if not rolls:
            self._show("No roll yet to mark as a test roll.", error=True)
            return
        row = self.query_one("#rolls", DataTable).cursor_row
        row = row if 0 <= row < len(rolls) else len(rolls) - 1
        mark_test_roll(self, rolls[row], f"Roll {row + 1}")

    def action_preset(self, number: int) -> None:
        picks = presets()
        if 1 <= number <= len(picks):
            self._use_preset(number)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self._use_preset(int(event.option.id))

    def _use_preset(self, number: int) -> None:
        pick = presets()[number - 1]
        self.query_one("#dice", Input).value = pick.dice
        self.query_one("#label", Input).value = pick.label
        self.query_one(PromptPanel).field.focus()


class DiceView(StateView):
    """Every roll of the tray so far, the newest first."""

    def compose(self) -> ComposeResult:
        yield Static(id="dv-rolls")

    def show(self, driver: Driver) -> None:
        # The tray's own state: its snapshot lists only the newest rolls (companion/dicetray.py).
        rolls = driver.state.rolls
        if not rolls:
            self.query_one("#dv-rolls", Static).update(Text("No rolls yet.", style="dim italic"))
            return
        table = RichTable(box=None, pad_edge=False, header_style="bold underline")
        table.add_column("#", justify="right", style="dim")
        table.add_column("Dice")
        table.add_column("Label")
        table.add_column("Faces", style="bold")
        table.add_column("Sum", justify="right")
        for i, r in reversed(list(enumerate(rolls, start=1))):
            table.add_row(
                str(i),
                f"{r.n}d{r.sides}",
                plain(r.label),  # the player's label: a str cell of a Rich table is read as markup
                " ".join(map(str, r.values)),
                str(r.total),
            )
        self.query_one("#dv-rolls", Static).update(table)
