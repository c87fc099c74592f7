"""The game shell: what every game screen does alike, whatever its board looks like.

A game screen (Reconquista, Terra de Castells, Battle of Simancas, the Dice tray) is this
base plus its own widgets. The base holds the session's driver and gives them one way to
answer each kind of prompt (``answer``, ``roll``, ``ack``, ``choose``, ``type_text``: every one
goes through the driver, so it is committed before the next question shows), the undo the
game's own rule decides (``Game.undo_from``), and the rule key (f2, or ? where no text field
has the focus: a field takes the ? as typed) that shows, for the step on screen, the
rulebook section it follows and why (``Prompt.rule`` and ``Prompt.reason``).

Undo says everything it takes back before it acts (every die, choice and correction by
hand among the steps), takes them back in one replay and one logged rewind
(``Driver.rewind_to``), and ends as a correction does: with the changes to make on the
physical table, where the game can tell them (``Game.board_changes``).
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.text import Text
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import Input

from companion.driver import Driver, Step
from companion.errors import CompanionError, StoreError
from companion.games import rolls_dice
from companion.prompts import CORRECTION, BadAnswer, Check, Choose, Edit, Prompt, Roll, Tell, answer_text
from companion.text import visible
from screens.plain import notify_plain
from screens.shell.board_checks import due, run_checks
from screens.shell.branching import branch_here
from screens.shell.dialogs import ConfirmDialog, MessageDialog
from screens.shell.dice_names import name_the_dice
from screens.shell.notes import write_note
from screens.shell.prompt_panel import PromptPanel, done_index
from screens.shell.session_actions import abandon_question, abandoned_text, ask_then
from screens.shell.step_dialogs import UndoToDialog

#: Said after every undo: what was taken back is not lost.
REDO_HINT = " ctrl+y: redo."

#: Of the steps an undo takes back, how many are listed by name (the rest are counted).
LISTED = 8


def taken_back_lines(steps: Sequence[Step]) -> list[str]:
    """What an undo takes back, one line a die, choice, typed text or correction by hand; the
    instructions confirmed among them counted in one line."""
    lines: list[str] = []
    told = 0
    for s in steps:
        p = s.prompt
        if isinstance(p, Tell):
            told += 1
        elif isinstance(p, Roll):
            who = "rolled by the app" if s.source == "app" else "typed from the table"
            lines.append(f"the dice {answer_text(s.answer)} ({who}) for {p.why or p.label}")
        elif isinstance(p, Edit):
            lines.append(f"your correction by hand: {p.describe()}")
        else:
            lines.append(f"the answer {answer_text(s.answer)!r} to {p.describe()}")
    if len(lines) > LISTED:
        more = len(lines) - LISTED
        lines = [*lines[:LISTED], f"and {more} more answer{'s' if more != 1 else ''}"]
    if told:
        lines.append(f"{told} instruction{'s' if told != 1 else ''} you confirmed on the board")
    return lines


def needs_asking(steps: Sequence[Step], dice: bool = True) -> bool:
    """Whether an undo of ``steps`` asks first: when it takes back more than the one answer
    (dice the app rolled after a choice, several answers), a correction by hand, or (``dice``)
    dice at all, which may have to be rolled again on the table. A single choice or text with
    the instructions after it is taken back at once, and said."""
    answers = [s for s in steps if not isinstance(s.prompt, Tell)]
    kinds = (Roll, Edit) if dice else (Edit,)
    return len(answers) > 1 or any(isinstance(s.prompt, kinds) for s in answers)


def rule_text(prompt: Prompt, answered: Step | None = None) -> Text:
    """The rule behind a step, for the rule key and History: the question, the rulebook
    section it follows and the reason, as plain text (it quotes names from data files)."""
    body = Text()
    body.append(prompt.describe(), style="bold")
    if answered is not None:
        body.append(f"\n→ {answer_text(answered.answer, none='done')} ({answered.source})")
    body.append("\n\n")
    if prompt.rule:
        body.append("Rule: ", style="bold")
        body.append(prompt.rule)
    else:
        body.append("No rulebook section is cited for this step.", style="dim")
    if prompt.reason:
        body.append("\nWhy: ", style="bold")
        body.append(prompt.reason)
    return body


def faces_line(faces: Sequence[tuple[str, str]]) -> str:
    """A table's results in one paragraph that wraps: "2 French Intervention · 3 Bribery · ..."."""
    return " · ".join(f"{result} {meaning}" for result, meaning in faces)


def rule_line(prompt: Prompt) -> Text:
    """The rule and the reason of a step in two short lines, for History's step-through;
    empty when the step cites none."""
    out = Text()
    if prompt.rule:
        out.append("Rule: ", style="bold")
        out.append(prompt.rule)
    if prompt.reason:
        out.append("\nWhy: " if prompt.rule else "Why: ", style="bold")
        out.append(prompt.reason)
    return out


#: A choice with more options than this is named by its question alone in a dialog.
LISTED_OPTIONS = 9


def asked_now(prompt: Prompt) -> str:
    """The question waiting, for a dialog: a long choice (a Simancas turn offers 130 actions,
    which pushed the dialog's own last line off the screen) by its question alone."""
    if isinstance(prompt, Choose) and len(prompt.options) > LISTED_OPTIONS:
        return f"{prompt.why or 'Choose'} (one of {len(prompt.options)} answers, on the screen)"
    return prompt.describe()


class GameScreen(Screen[None]):
    """One session of a game at the table: the subclass draws it (``show_game``) and binds its
    keys to the actions here (``undo``, ``rule``, ``back``)."""

    AUTO_FOCUS: ClassVar[str | None] = None  # the question of the moment decides where the focus goes
    #: Every game screen's; out of the footer (full at 80 columns), in the palette (app.py).
    BINDINGS = [
        Binding("ctrl+x", "abandon", "Abandon this session", show=False, priority=True, id="game.abandon"),
        Binding("ctrl+y", "redo", "Redo", show=False, priority=True, id="game.redo"),
        Binding("f6", "undo_to", "Undo to a step", show=False, id="game.undo_to"),
        Binding("f7", "name_dice", "Name the dice", show=False, id="game.name_dice"),
        Binding("f5", "note", "Note", show=False, id="game.note"),
        Binding("f9", "branch", "Branch here", show=False, id="game.branch"),
    ]
    #: Undo asks before it takes back dice (they may have to be rolled again on the table).
    ASK_BEFORE_DICE: ClassVar[bool] = True

    def __init__(self, session_id: int) -> None:
        super().__init__()
        self._layout_seen: str | None = None  # layout_changed
        self.session_id = session_id
        self.driver: Driver | None = None
        #: The player's notes on the session's steps (step, 0 first -> text): the bookmarks.
        self.notes: dict[int, str] = {}

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # While text is typed (a player's name) r is a letter, not "let the app roll":
        # "Bernat" keeps its r. The footer shows the key off meanwhile, and while the dice
        # are the table's alone (physical dice) it offers no roll by the app at all.
        if action == "name_dice":
            # Only where dice are rolled, and while the game goes on.
            d = self.driver
            return d is not None and not d.finished and rolls_dice(d.game.id)
        if action == "done":
            # d only where the choice waiting has an option that finishes it.
            return done_index(self.driver.pending if self.driver is not None else None) is not None
        if action == "roll":
            # Nothing is left to roll or draw once the game is over, and r is offered only
            # while something waits to be rolled (an instruction or a choice rolls nothing).
            if not self.app_may_roll() or (self.driver is not None and self.driver.finished):
                return False
            if not self.rolls_now():
                return False
            if isinstance(self.focused, Input):
                d = self.driver
                return d is not None and isinstance(d.pending, Roll)
        return True

    def layout_changed(self) -> bool:
        """Whether the layout class the screen's ``HORIZONTAL_BREAKPOINTS`` give it is another than
        when last asked, so that what is drawn for a layout is drawn again. Textual sets the class
        as the width changes; on the first call (the screen mounted, not yet resized) it is set
        here for the width the screen has, so the first drawing is already in its layout. A
        screen whose layout follows the width alone declares breakpoints; one that weighs the
        height too chooses with ``use_layout``."""
        points = sorted(self.HORIZONTAL_BREAKPOINTS or ())
        if self._layout_seen is None and points:
            width = self.size.width or self.app.size.width
            wanted = next((name for least, name in reversed(points) if width >= least), "")
            self.use_layout(wanted, [name for _, name in points])
        now = next((name for _, name in points if self.has_class(name)), "")
        changed = now != self._layout_seen
        self._layout_seen = now
        return changed

    def use_layout(self, chosen: str, layouts: Sequence[str]) -> bool:
        """Put the screen in the layout ``chosen`` of ``layouts`` (each a class its tcss
        styles; '' none of them: the default); whether it changed, so that what is drawn for
        a layout is drawn again."""
        changed = False
        for name in layouts:
            if self.has_class(name) != (name == chosen):
                self.set_class(name == chosen, name)
                changed = True
        return changed

    # -- what the subclass gives -----------------------------------------------------

    def show_game(self, message: str = "", error: bool = False) -> None:
        """Redraw the session, with ``message`` under the question (red when ``error``)."""
        raise NotImplementedError

    def automatic_dice(self) -> bool:
        """Whether the app rolls every die without being asked (the dice mode 'app')."""
        return False

    def app_may_roll(self) -> bool:
        """Whether r lets the app roll (not while every die is rolled on the table)."""
        return True

    def rolls_now(self) -> bool:
        """Whether r has something to roll now: by default a roll waiting (a subclass whose r
        does more, a draw from a bag, or answers what it needs on the way, says so)."""
        return self.driver is not None and isinstance(self.driver.pending, Roll)

    def after_undo(self, taken: list[Step]) -> None:
        """What the subclass forgets when steps are taken back (its checklist, a cache)."""

    def after_redo(self, done: list[Step]) -> None:
        """What the subclass does once ``done`` are answered again (its log, its fields)."""

    def undone_message(self, taken: list[Step]) -> str:
        """The line shown once ``taken`` are taken back."""
        first = taken[0]
        if isinstance(first.prompt, Edit):
            what = f"{CORRECTION}: {first.prompt.describe()}"
        elif isinstance(first.prompt, Tell):
            what = first.prompt.describe()
        else:
            what = answer_text(first.answer)
        return f"Took back {len(taken)} step{'s' if len(taken) != 1 else ''}, from: {what}."

    # -- answering: one way for every kind of prompt -----------------------------------

    def before_answer(self) -> None:
        """Called before an answer goes to the driver (the subclass notes where the game stood)."""

    def answered(self, step: Step) -> str:
        """Called after an answer was committed; the message to show under the next question."""
        return ""

    def refused(self, exc: Exception) -> None:
        """An answer, an undo or a redo that did not happen: its one sentence under the question.
        A StoreError is not a wrong answer but a game that can no longer be saved (a database
        locked, full, or replaced under the app): said whole in a notice too, where a long
        question cannot hide it."""
        self.show_game(str(exc), error=True)
        if isinstance(exc, StoreError):
            self.app.notify(visible(str(exc)), severity="error", timeout=60, markup=False)

    def answer(self, act: Callable[[], Step]) -> Step | None:
        """Run one answer through the driver (``act`` returns its Step); a refused one (one
        sentence on screen) changes nothing."""
        if self.driver is None or self.driver.pending is None:
            return None
        self.before_answer()
        try:
            step = act()
        except (BadAnswer, CompanionError) as exc:
            self.refused(exc)
            return None
        said = self.answered(step)
        filled = self.driver.take_filled() if self.driver is not None else []
        if filled:
            # Facts of the table a correction kept, given again as the game asked them.
            self.after_filled(filled)
            kept = ", ".join(answer_text(s.answer, none="done") for s in filled)
            said = f"{said} Kept from before the correction: {kept}.".strip()
        self.show_game(said)
        # A turn begun: the board checks due (none while one is answered: its turn is the same).
        if not isinstance(step.prompt, Check):
            run_checks(self, due(self))
        return step

    def after_filled(self, filled: list[Step]) -> None:
        """What the subclass does once facts kept by a correction answered the game again."""

    def roll(self, typed: str | None = None) -> Step | None:
        """The dice of the waiting Roll: typed from the table, or (None) rolled by the app."""
        d = self.driver
        if d is None:
            return None
        pending = d.pending
        if typed is not None and not typed.strip() and isinstance(pending, Roll) and not self.app_may_roll():
            # The prompt's own sentence offers the app's roll, which physical dice do not.
            dice = "die" if pending.n == 1 else "dice"
            self.show_game(f"Type the {pending.n} {dice} you rolled on the table.", error=True)
            return None
        step = self.answer(d.roll if typed is None else (lambda: d.type(typed)))
        if step is None and typed is not None:
            # Dice refused are not left to be sent again: the field is cleared (as the Dice
            # tray's is), and the sentence under it says why.
            self.query_one(PromptPanel).clear_typed()
        return step

    def choose(self, option: str, source: str = "player") -> Step | None:
        """One of the waiting Choose's options (``source`` 'app' when the app drew it)."""
        d = self.driver
        if d is None or not isinstance(d.pending, Choose):
            return None
        return self.answer(lambda: d.submit(option, source))

    def typed_number(self, digit: int) -> int | None:
        """A digit typed at the waiting Choose: the index it picks, or None (nothing waits for a
        choice, or the digit is the first of a number of two: PromptPanel.number_typed)."""
        d = self.driver
        if d is None or not isinstance(d.pending, Choose):
            return None
        return self.query_one(PromptPanel).number_typed(
            digit, len(d.pending.options), self.option_numbers(d.pending)
        )

    def option_numbers(self, prompt: Choose) -> list[int] | None:
        """Each option's own number, where a screen keeps numbers that do not follow the list
        (None: an option is picked by its place)."""
        return None

    def action_done(self) -> None:
        """d: the option that finishes the choice waiting ("Done", "No movement", the end of a
        turn), where it has one."""
        d = self.driver
        index = done_index(d.pending if d is not None else None)
        if index is not None:
            self.choose_index(index)

    def choose_index(self, index: int) -> Step | None:
        """The option at ``index`` (0 first) of the waiting Choose; nothing past its end."""
        d = self.driver
        if d is None or not isinstance(d.pending, Choose) or not 0 <= index < len(d.pending.options):
            return None
        return self.choose(d.pending.options[index])

    def ack(self) -> Step | None:
        d = self.driver
        if d is None or not isinstance(d.pending, Tell):
            return None
        return self.answer(d.ack)

    def type_text(self, text: str) -> Step | None:
        """Text typed for the waiting prompt: dice, a choice by its name or number, free text."""
        d = self.driver
        if d is None:
            return None
        return self.answer(lambda: d.type(text))

    # -- undo -------------------------------------------------------------------------

    def action_undo(self) -> None:
        d = self.driver
        if d is None:
            return
        last = d.correction_to_undo()
        if last is not None:
            # Right after a correction, one ctrl+z takes it back whole; asked once (no: the
            # next ctrl+z is an undo as any other).
            d.last_correction = None
            at, replaced = last
            question = (
                f"Take back the correction of step {at + 1}? The log comes back as it was "
                f"before it, the dice {answer_text(replaced[0].answer)} with it."
            )
            self.app.push_screen(
                ConfirmDialog(question), lambda yes: self._uncorrect(at, replaced) if yes else None
            )
            return
        index = d.game.undo_from(d.steps, self.automatic_dice())
        if index is None:
            self.show_game("There is nothing to take back.", error=True)
            return
        taken = d.steps[index:]
        lines = taken_back_lines(taken)
        if needs_asking(taken, self.ASK_BEFORE_DICE):
            question = "Take back all of this?\n" + "\n".join(f"  • {line}" for line in lines)
            self.app.push_screen(ConfirmDialog(question), lambda yes: self._undo(index) if yes else None)
        else:
            self._undo(index)

    def _uncorrect(self, index: int, replaced: list[Step]) -> None:
        """The log as it stood before the correction of step ``index``, and the changes to
        make on the table to go back to it."""
        d = self.driver
        if d is None:
            return
        now = d.state  # the rewind builds a new state: this one stays as the table shows it
        try:
            done = d.restore(index, replaced)
        except (BadAnswer, CompanionError) as exc:
            self.refused(exc)
            return
        self.after_undo(done)
        left = "" if len(done) == len(replaced) else f" ({len(replaced) - len(done)} no longer asked)"
        self.show_game(f"Took back the correction of step {index + 1}: {len(done)} steps as they were{left}.")
        self.tell_changes(now, "Correction taken back")

    def action_undo_to(self) -> None:
        """Pick a step of the log and go back to before it, after a question listing all that
        it takes back (dice among them stand in the log: redo brings them back)."""
        d = self.driver
        if d is None:
            return
        if not d.steps:
            self.show_game("There is nothing to take back.", error=True)
            return

        def picked(index: int | None) -> None:
            if index is None or self.driver is not d or not 0 <= index < len(d.steps):
                return
            lines = taken_back_lines(d.steps[index:])
            question = f"Go back to before step {index + 1}, taking back all of this?\n" + "\n".join(
                f"  • {line}" for line in lines
            )
            self.app.push_screen(ConfirmDialog(question), lambda yes: self._undo(index) if yes else None)

        self.app.push_screen(UndoToDialog(list(d.steps)), picked)

    def _undo(self, index: int) -> None:
        d = self.driver
        if d is None:
            return
        now = d.state  # a rewind builds a new state: this one stays as the table shows it
        try:
            taken = d.rewind_to(index)
        except (BadAnswer, CompanionError) as exc:
            self.refused(exc)
            return
        self.after_undo(taken)
        self.query_one(PromptPanel).hold_highlight()
        self.show_game(self.undone_message(taken) + REDO_HINT)
        self.tell_changes(now, "Undone")

    def action_redo(self) -> None:
        """Answer again what the last undo took back: the same dice, draws and choices, each
        logged anew; then the changes to make on the table again."""
        d = self.driver
        if d is None:
            return
        if not d.redo_groups:
            self.show_game("There is nothing to redo: ctrl+y brings back what an undo took back.", error=True)
            return
        now = copy.deepcopy(d.state)  # answers change the state in place: this is the table now
        try:
            done = d.redo()
        except (BadAnswer, CompanionError) as exc:
            self.refused(exc)
            return
        if not done:
            self.show_game(
                "Nothing could be redone: the game no longer asks what was taken back.", error=True
            )
            return
        self.after_redo(done)
        more = " (ctrl+y again: the undo before)" if d.redo_groups else ""
        self.show_game(f"Redone: {len(done)} step{'s' if len(done) != 1 else ''}, as they were{more}.")
        self.tell_changes(now, "Redone", undo=False)

    def tell_changes(self, now: object, title: str, undo: bool = True) -> None:
        """A dialog of the changes to make on the table to go from ``now`` (the state the
        table shows) to the game's state: back as it was (``undo``), or forward again (a redo);
        nothing when nothing changes or the game cannot tell."""
        d = self.driver
        tell = d.game.board_changes if d is not None else None
        if d is None or tell is None:
            return
        changes = tell(now, d.state, undo=undo)
        if not changes:
            return
        heading = "Put the table back as it was:\n" if undo else "Make these changes on the table again:\n"
        body = Text(heading, style="bold")
        for line in changes:
            body.append(f"  • {line}\n", style="")
        if not undo and isinstance(d.pending, Tell):
            # The game changed its state as it gave the instruction: its change is listed
            # above, and is not to be made twice.
            body.append(
                "\nThe instruction waiting may be one of them: make each change once, then confirm it."
            )
        elif d.pending is not None:
            body.append(f"\nThe game now asks: {asked_now(d.pending)}")
        self.app.push_screen(MessageDialog(title, body))

    # -- the rule behind the step on screen ----------------------------------------------

    def rule_of_the_moment(self) -> tuple[str, Text] | None:
        """The step on screen and its rule (heading, text): the question waiting, or when the
        game is over, its last step; for the rule key and F1's help (screens/help.py)."""
        d = self.driver
        if d is None:
            return None
        if d.pending is not None:
            text = rule_text(d.pending)
            faces = getattr(d.game, "roll_faces", None)
            rows = faces(d.state, d.pending) if faces is not None and isinstance(d.pending, Roll) else []
            if rows:
                text.append("\n\nThe table it is rolled on:\n", style="bold")
                text.append(faces_line(rows))
            return "The question of the moment", text
        if d.steps:
            return "The last step", rule_text(d.steps[-1].prompt, d.steps[-1])
        return None

    def action_rule(self) -> None:
        """The rulebook section and the reason of the step on screen."""
        moment = self.rule_of_the_moment()
        if moment is not None:
            self.app.push_screen(MessageDialog("The rule behind this step", moment[1]))

    def action_back(self) -> None:
        self.app.pop_screen()

    def action_name_dice(self) -> None:
        name_the_dice(self)

    def action_note(self) -> None:
        write_note(self)

    def action_branch(self) -> None:
        """A new session from this one's log so far, to try another line from here."""
        d = self.driver
        if d is None:
            return
        if not d.steps:
            self.show_game(
                "Nothing has been answered yet: a branch starts from a step once there is one.", error=True
            )
            return
        turn, phase = d.game.where(d.state)
        where = ", ".join(x for x in (f"turn {turn}" if turn is not None else "", phase or "") if x)
        branch_here(self, self.session_id, len(d.steps), where)

    def noted(self, index: int) -> None:
        """The note on step ``index`` was written or taken off (``notes`` says which): the
        subclass shows it in its log."""

    # -- abandoning the session -----------------------------------------------------------

    def action_abandon(self) -> None:
        """Ask, naming the session, then put it away and leave it: off Home's unfinished list,
        in History marked abandoned, where it is resumed or deleted."""
        d = self.driver
        if d is None:
            return
        if d.finished:
            self.show_game("This session has ended: there is nothing left to abandon.", error=True)
            return

        def done(name: str) -> None:
            self.app.pop_screen()
            notify_plain(self.app, abandoned_text(name))

        ask_then(self, self.session_id, abandon_question, lambda store, sid: store.abandon(sid), done)
