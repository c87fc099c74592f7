"""Plain transcript mode: a game as plain lines on standard output, answered from standard input.

``companion play GAME --plain`` and ``companion resume ID --plain`` play a session through the
same driver and the same store as the app: every step goes to the same log, so a game begun
here resumes in the app and the other way round. No colour, no cursor movement: a screen
reader reads it, a serial console shows it, a script pipes a whole game into it. Each question
is printed with what it takes (and at the end of a turn, the board checks the settings ask
for): an instruction (an empty line says it is done), the dice (typed,
or where the dice mode lets the app roll, an empty line), a choice (its number or its text),
a typed answer. ``?`` prints why and the rule, ``u`` takes back the last answer, ``q`` quits;
the end of the input quits too. Every answer is saved as it is given. Bad input gets the same
one sentence the app gives, and the question again.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

from companion.check_rhythm import checks_due
from companion.dice import chosen_dice_mode
from companion.driver import Driver
from companion.errors import CompanionError
from companion.prompts import BadAnswer, Check, Choose, Enter, Prompt, Roll, Tell, answer_text
from companion.text import visible

#: The lines that are commands, not answers.
WHY, UNDO, QUIT = "?", "u", "q"


def prompt_lines(prompt: Prompt, mode: str) -> list[str]:
    """The lines that put ``prompt`` to the player, and how to answer it."""
    if isinstance(prompt, Tell):
        return [f"On the board: {prompt.text}", "(Enter when done.)"]
    if isinstance(prompt, Roll):
        how = f"type the {prompt.n} {'die' if prompt.n == 1 else 'dice'} you rolled"
        if mode != "physical":
            how += ", or Enter and the app rolls"
        return [f"Roll {prompt.n}d{prompt.sides}: {prompt.why}", f"({how}.)"]
    if isinstance(prompt, Choose):
        lines = [prompt.why]
        lines += [f"  {i}. {option}" for i, option in enumerate(prompt.options, start=1)]
        return [*lines, "(the number or the text of an option.)"]
    if isinstance(prompt, Enter):
        default = f" Enter alone: {prompt.default}." if prompt.default else ""
        return [prompt.why, f"(type it.{default})"]
    if isinstance(prompt, Check):
        return [prompt.why]
    return [prompt.describe()]


def why_lines(prompt: Prompt) -> list[str]:
    """What ``?`` prints: the reason the robot acts so, and the rule the step follows."""
    out = []
    if prompt.reason:
        out.append(f"Why: {prompt.reason}.")
    if prompt.rule:
        out.append(f"Rule: {prompt.rule}")
    return out or ["This step cites no rule."]


class PlainSession:
    """One session played in plain lines: ``run`` reads answers until the game ends or the
    input does; every answer goes through the driver (and so to the store) as it is given."""

    def __init__(self, driver: Driver, session_id: int, inp: IO[str], out: IO[str], checks: int = 0) -> None:
        self.driver = driver
        self.checks = checks  # every how many turns the board checks come (0: never)
        self.session_id = session_id
        self.inp = inp
        self.out = out
        self.mode = chosen_dice_mode(driver.config) or "mixed"

    def say(self, *lines: str) -> None:
        for line in lines:
            # Text from data files, imports and players: printed with its control characters
            # shown as escapes, never obeyed by the terminal.
            print(visible(line), file=self.out, flush=True)

    def _lines(self) -> Iterator[str]:
        """The lines typed; an input that cannot be read (closed, not a terminal's, text that
        is not UTF-8) ends as the end of the input does: the game saved."""
        try:
            for line in self.inp:
                yield line.rstrip("\r\n")
        except (OSError, ValueError):
            return

    def run(self) -> int:
        d = self.driver
        self.say(
            f"Session {self.session_id}: {d.game.title}, {d.game.summary(d.state).rstrip('.')}. "
            f"{WHY} says why and the rule, {UNDO} takes back the last answer, {QUIT} quits (every answer is saved)."
        )
        lines = self._lines()
        asked: Prompt | None = None
        while d.pending is not None:
            if not self._board_checks(lines):
                return self._saved()
            prompt = d.pending
            if isinstance(prompt, Roll) and self.mode == "app":
                self._answer(d.roll)  # the app rolls every die: nothing to ask
                continue
            if prompt is not asked:
                self.say("", *prompt_lines(prompt, self.mode))
                asked = prompt
            line = next(lines, None)
            if line is None or line.strip() == QUIT:
                return self._saved()
            text = line.strip()
            if text == WHY:
                self.say(*why_lines(prompt))
            elif text == UNDO:
                self._undo()
                asked = None
            else:
                self._give(prompt, text)
        self.say("", f"The game is over: {d.game.summary(d.state).rstrip('.')}.")
        return 0

    def _saved(self) -> int:
        self.say(
            "", f"Saved. Session {self.session_id} resumes with: companion resume {self.session_id} --plain"
        )
        return 0

    def _board_checks(self, lines: Iterator[str]) -> bool:
        """Ask the board checks due now (check_rhythm), each answer logged; False if the input
        ended (or the player quit) among them."""
        d = self.driver
        for q in checks_due(d, self.checks):
            takes = f"one of: {', '.join(q.options)}" if q.options else "the number your table shows"
            self.say("", f"Board check: {q.why}", f"({takes}.)")
            while True:
                line = next(lines, None)
                if line is None or line.strip() == QUIT:
                    return False
                try:
                    step = d.board_check(q, line)
                except (BadAnswer, CompanionError) as exc:
                    self.say(str(exc))
                    continue
                break
            if q.matched(step.answer):
                self.say(f"✓ {step.answer}, as the app has.")
            else:
                self.say(
                    f"✗ your table {step.answer}, the app {q.expected}: set one of them right (in the app: e)."
                )
        return True

    def _give(self, prompt: Prompt, text: str) -> None:
        d = self.driver
        if isinstance(prompt, Tell):
            if text:
                self.say("An empty line says the instruction is done.")
                return
            self._answer(d.ack)
        elif isinstance(prompt, Roll) and not text:
            if self.mode == "physical":
                self.say(f"Type the {prompt.n} {'die' if prompt.n == 1 else 'dice'} you rolled on the table.")
                return
            self._answer(d.roll)
        elif isinstance(prompt, Choose):
            self._answer(lambda: d.submit(choice(prompt, text), "player"))
        else:
            self._answer(lambda: d.type(text))

    def _answer(self, act: Any) -> None:
        try:
            step = act()
        except (BadAnswer, CompanionError) as exc:
            self.say(str(exc))
            return
        if isinstance(step.prompt, Roll):
            who = "the app rolled" if step.source == "app" else "logged"
            self.say(f"{who}: {answer_text(step.answer)}")

    def _undo(self) -> None:
        d = self.driver
        index = d.game.undo_from(d.steps, self.mode == "app")
        if index is None:
            self.say("There is nothing to take back.")
            return
        try:
            taken = d.rewind_to(index)
        except (BadAnswer, CompanionError) as exc:
            self.say(str(exc))
            return
        for step in taken:
            self.say(f"took back: {step.prompt.describe()} -> {answer_text(step.answer, none='done')}")


def choice(prompt: Choose, text: str) -> str:
    """An option of ``prompt`` by its text (any case) or its number; BadAnswer otherwise."""
    found = next((o for o in prompt.options if o.casefold() == text.casefold()), None)
    if found is not None:
        return found
    if text.isascii() and text.isdigit() and len(text) <= 4 and 1 <= int(text) <= len(prompt.options):
        return prompt.options[int(text) - 1]
    raise BadAnswer(f"Type the number of an option, 1 to {len(prompt.options)}, or its text.")
