"""The driver: runs a game procedure against answers, and keeps the one log.

Every front end goes through this class. The ordered list of steps (prompt,
answer, source) *is* the session: resume, replay, undo and correction are all
"start the procedure again and feed it logged answers".

Durability: an answer is sent to the engine, and the step with the state it
produced is handed to the recorder (the store commits it) before the next prompt
is shown. If the engine or the recorder fails, the driver is rebuilt from the
log without that answer, so what is on screen always equals what is stored.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from companion.dice import app_roll
from companion.errors import CompanionError, ReplayDivergence
from companion.interface import Game
from companion.interface import Step as Step  # the step the driver logs, importable with it
from companion.prompts import Answer, BadAnswer, Check, Edit, Prompt, Roll, Tell, fits

#: Where an answer came from: dice typed from the table, dice the app rolled,
#: a choice or text typed by the player, or an acknowledged instruction.
SOURCES = ("physical", "app", "player", "ack", "edit")


class EngineFault(CompanionError):
    """The game engine failed on an answer; nothing was recorded."""


@dataclass(frozen=True)
class Record:
    """What the recorder commits for one step: the step and the state it led to."""

    index: int
    step: Step
    turn: int | None
    phase: str | None
    digest: str
    state_json: str  # the state after the step, as canonical JSON (the digest is of this text)
    finished: bool
    summary: str


def not_a_roll(index: int) -> str:
    """The sentence for a test-roll mark asked of step ``index``, which rolled no dice."""
    return f"Step {index + 1} is not a roll of dice: only a roll can be marked as a test roll."


class Recorder(Protocol):
    """Where steps go as they happen (the store); every call must be durable on return."""

    def record(self, record: Record) -> None: ...

    def mark_test(self, index: int, test: bool) -> None:
        """Mark the roll standing at step ``index`` as a test roll, or take the mark off."""
        ...

    def rewind(
        self, index: int, state_json: str, finished: bool, summary: str, correction: bool = False
    ) -> None:
        """Withdraw every step from ``index`` on; ``state_json`` is the state left.
        ``correction``: the rewind of a correction (the answer at ``index`` is replaced; the
        facts of the table after it are kept ahead: ``Driver.ahead``)."""


class PromptDivergence(ReplayDivergence):
    """A replay whose game asks another question than the logged one at ``step`` (``asked``
    None: the game had ended there)."""

    def __init__(self, step: int, message: str, logged: Prompt, asked: Prompt | None) -> None:
        super().__init__(step, message)
        self.logged = logged
        self.asked = asked


@dataclass
class Correction:
    """What a correction did: answers kept, instructions now implied, answers dropped."""

    index: int
    reused: int = 0
    new_tells: list[Tell] = field(default_factory=list)
    dropped: list[Step] = field(default_factory=list)
    #: The facts of the table after it not asked yet, kept for when the game asks them.
    kept: list[Step] = field(default_factory=list)


def canonical(snapshot: dict[str, Any]) -> str:
    """A state snapshot as JSON text: equal snapshots give equal text."""
    return json.dumps(snapshot, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(snapshot: dict[str, Any] | str) -> str:
    """A short fingerprint of a state snapshot (or of its canonical text), stored with each step."""
    text = snapshot if isinstance(snapshot, str) else canonical(snapshot)
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def same_roll(logged: Prompt, asked: Prompt) -> bool:
    """Whether ``asked`` asks for the roll ``logged`` answered: the same topic, the same number
    and kind of dice (the facts around it may differ). A correction keeps such a die."""
    return (
        isinstance(logged, Roll)
        and isinstance(asked, Roll)
        and bool(asked.topic)
        and logged.topic == asked.topic
        and (logged.n, logged.sides) == (asked.n, asked.sides)
    )


def step_key(prompt: dict[str, Any], answer: Any, source: str | None) -> str:
    """One step as text, the same for a step in memory and the one its event row stores: how
    redo tells an answer made again from a new one (``Driver.redo``, ``Store.log``)."""
    return json.dumps([prompt, answer, source], sort_keys=True, ensure_ascii=False)


def _key(step: Step) -> str:
    return step_key(step.prompt.to_dict(), step.answer, step.source)


def fact_key(topic: str, answer: Any, source: str | None) -> str:
    """What an answer recorded: its topic, answer and source. An answer with the same key as
    a step kept ahead by a correction is that step given again (``Driver.ahead``)."""
    return json.dumps([topic, answer, source], sort_keys=True, ensure_ascii=False)


def _fact_of(step: Step) -> str:
    return fact_key(step.prompt.topic, step.answer, step.source)


class Driver:
    """A live session: the game, its seed, the steps so far and the prompt waiting.

    ``redo_groups`` holds what undos took back, the last undo's steps last: ``redo`` answers
    them again. An answer given again as it was (by redo, or by hand) is taken off it; any
    other answer, a correction or an edit empties it, as a new move does in any editor. The
    store rebuilds it from the log by the same rule (``Store.log``), so it survives a restart.
    """

    def __init__(
        self,
        game: Game,
        seed: int,
        config: dict[str, Any] | None = None,
        recorder: Recorder | None = None,
    ) -> None:
        self.game = game
        self.seed = seed
        self.config = dict(config or {})
        self.recorder = recorder
        self.redo_groups: list[list[Step]] = []
        #: The facts of the table (dice, a token drawn, a move made on the board) among the steps
        #: a correction withdrew after the one it replaced, not yet given again: answered again
        #: as the game asks for them (``fill_facts``). The store reads them back (``keep_ahead``).
        #: Only facts are kept: a decision is never given again by the driver, and an answer's
        #: key names its topic, so no decision's answer could take a fact off the list.
        self.ahead: list[Step] = []
        self._ahead_keys: list[str] = []  # ``_fact_of`` each of ``ahead``, made once
        #: The facts ``fill_facts`` answered since the screen last took them (``take_filled``).
        self.filled: list[Step] = []
        self._filling = False  # answers given now are the driver's own: no facts filled after them
        #: The last correction: (its step, the steps it replaced, the log it left), until an
        #: undo or the next correction; ``correction_to_undo`` says whether it may be undone.
        self.last_correction: tuple[int, list[Step], list[Step]] | None = None
        #: The name of the dice the player rolls on the table now (dice.die_name), which each
        #: roll typed from the table is logged with; None: unnamed. The screen sets it from the
        #: session (``Store.set_die``).
        self.die: str | None = None
        self._start()

    # -- building ---------------------------------------------------------

    @classmethod
    def resume(
        cls,
        game: Game,
        seed: int,
        config: dict[str, Any] | None,
        steps: Iterable[Step],
        recorder: Recorder | None = None,
    ) -> Driver:
        """The session as it stood after ``steps``; ReplayDivergence if the game asks otherwise."""
        driver = cls(game, seed, config)
        driver._feed(steps)
        driver.recorder = recorder
        return driver

    def _start(self) -> None:
        self.state: Any = self.game.new_state(self.seed, self.config)
        self.steps: list[Step] = []
        self.result: Any = None
        self.pending: Prompt | None = None
        self._gen = self.game.procedure(self.state)
        self._send(None, first=True)

    def _send(self, value: Answer, first: bool = False) -> None:
        try:
            self.pending = next(self._gen) if first else self._gen.send(value)
        except StopIteration as stop:
            self.pending = None
            self.result = stop.value

    def _feed(self, steps: Iterable[Step]) -> None:
        for step in steps:
            i = len(self.steps)
            if isinstance(step.prompt, Check):  # a question about the table: the game never sees it
                self.steps.append(step)
                continue
            if isinstance(step.prompt, Edit):
                try:
                    self._apply_edit(step.prompt)
                except BadAnswer as exc:
                    raise ReplayDivergence(
                        i, f"Step {i + 1}: the logged correction no longer applies: {exc}"
                    ) from None
                self.steps.append(step)
                continue
            same = step.prompt == self.pending  # as logged: the common case, compared once
            if self.pending is None or not (same or fits(step.prompt, self.pending)):
                asked = self.pending.describe() if self.pending else "nothing (the session had ended)"
                logged = step.prompt.describe()
                said = (
                    f"the log has '{logged}' with other facts than the game asks it with"
                    if logged == asked
                    else f"the log has '{logged}' but the game asks {asked}"
                )
                raise PromptDivergence(
                    i,
                    f"Step {i + 1}: {said}.",
                    step.prompt,
                    self.pending,
                )
            try:
                answer = step.prompt.check(step.answer)
            except BadAnswer as exc:
                raise ReplayDivergence(i, f"Step {i + 1}: the logged answer does not fit: {exc}") from None
            if not same:
                # Kept with the prompt as the game asks it now: a step logged before prompts
                # carried topics gets the game's topic, data and rule, one logged before the
                # game gave some of its facts or reworded it gets them (prompts.fits). A step
                # logged as asked keeps its object: that spares a replay a Step a prompt
                # (bench/replay.py: a 20-turn game's resume, 40 -> 25 ms).
                step = Step(self.pending, step.answer, step.source, step.die, step.test)
            self._send(answer)
            self.steps.append(step)

    def feed_fitting(self, steps: Iterable[Step]) -> ReplayDivergence | None:
        """Replay further logged steps as far as they fit the game's rules: the driver is left
        after the last step that fits, and the divergence at the next one is returned (None when
        every step fits). An engine failing on a logged answer is a divergence at that step:
        rules that changed may not take an answer the old ones did."""
        for step in steps:
            i = len(self.steps)
            try:
                self._feed([step])
            except ReplayDivergence as exc:
                if isinstance(step.prompt, Edit):  # a refused correction may have been half applied
                    self._rebuild(self.steps[:i])
                return exc
            except Exception as exc:  # noqa: BLE001 -- any failure of the engine is reported the same way
                self._rebuild(self.steps[:i])
                return ReplayDivergence(
                    i, f"Step {i + 1}: the game engine fails on the logged answer ({type(exc).__name__})."
                )
        return None

    def _rebuild(self, steps: list[Step]) -> None:
        recorder, self.recorder = self.recorder, None
        try:
            self._start()
            self._feed(steps)
        finally:
            self.recorder = recorder

    # -- state ------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.pending is None

    def snapshot(self) -> dict[str, Any]:
        return self.game.snapshot(self.state)

    # -- answering --------------------------------------------------------

    def submit(self, value: Any, source: str, like: Step | None = None) -> Step:
        """Answer the waiting prompt; BadAnswer (nothing changed) if it does not fit. ``like``:
        the step this answer gives again (a redo, a kept fact), whose die and test mark it keeps."""
        prompt = self._waiting()
        if source not in SOURCES:
            raise ValueError(f"unknown answer source {source!r}")
        return self._answer(prompt, prompt.check(value), source, like)

    def _answer(self, prompt: Prompt, answer: Answer, source: str, like: Step | None = None) -> Step:
        """``submit`` past the checks: ``answer`` fits ``prompt`` (checked, or made to fit)."""
        where = self.game.where(self.state) if self.recorder is not None else (None, None)
        if not isinstance(prompt, Roll):
            step = Step(prompt, answer, source)
        elif like is not None and like.source == source:  # given again: the same dice, its mark
            step = Step(prompt, answer, source, like.die, like.test)
        else:
            die = self.die if source == "physical" else None
            step = Step(prompt, answer, source, die, like is not None and like.test)
        try:
            # ``_send`` written out: this runs once a prompt, a thousand times a headless game.
            self.pending = self._gen.send(answer)
        except StopIteration as stop:
            self.pending = None
            self.result = stop.value
        except Exception as exc:  # any failure of the engine is reported the same way
            # self.steps is untouched until the answer is in: it is still "before".
            self._rebuild(list(self.steps))
            raise EngineFault(
                f"The game engine failed on that answer ({exc}); nothing was recorded."
            ) from exc
        self._commit(step, where)
        if self.ahead and not self._filling:
            self.fill_facts()
        return step

    def _commit(self, step: Step, where: tuple[Any, Any]) -> Step:
        """Hand ``step`` and the state it led to to the recorder, then keep it in the log. If
        the recorder fails, the session is rebuilt without the step and the error goes on:
        what is on screen always equals what is stored."""
        if self.recorder is not None:
            index = len(self.steps)
            try:
                self.recorder.record(self._record(index, step, where))
            except BaseException:
                self._rebuild(self.steps[:index])
                raise
        self.steps.append(step)
        self._redo_follows(step)
        if self.ahead:
            key = _fact_of(step)
            if key in self._ahead_keys:
                at = self._ahead_keys.index(key)
                del self.ahead[at], self._ahead_keys[at]
        return step

    def keep_ahead(self, steps: list[Step]) -> None:
        """Keep the facts among ``steps`` ahead (after a correction, or as the store read them)."""
        self.ahead = [s for s in steps if self.is_fact(s.prompt)]
        self._ahead_keys = [_fact_of(s) for s in self.ahead]

    def is_fact(self, prompt: Prompt) -> bool:
        """Whether an answer to ``prompt`` records a fact of the table, which a correction keeps:
        dice rolled, and what the game names (``fact_topics``: a token drawn from the bag, a move
        made on the board); any other answer is a decision, asked again."""
        return isinstance(prompt, Roll) or prompt.topic in getattr(self.game, "fact_topics", ())

    def fill_facts(self) -> list[Step]:
        """Answer the questions of fact waiting with the facts a correction kept ahead: while
        the game asks a die, a draw or a move that a kept step answered (the same topic, a die
        of the same dice, an answer the question still offers), that answer, from its source.
        The steps answered so (also in ``filled``)."""
        filled: list[Step] = []
        self._filling = True
        try:
            while self.ahead and self.pending is not None and self.is_fact(self.pending):
                asked = self.pending
                kept = next((s for s in self.ahead if self._answers(s, asked)), None)
                if kept is None:
                    break
                try:
                    filled.append(self.submit(kept.answer, kept.source, kept))
                except BadAnswer:  # no longer an answer to it: not tried again
                    at = self.ahead.index(kept)
                    del self.ahead[at], self._ahead_keys[at]
        finally:
            self._filling = False
        self.filled.extend(filled)
        return filled

    def take_filled(self) -> list[Step]:
        """The facts answered again since the last call (for the screen to say), forgotten."""
        filled, self.filled = self.filled, []
        return filled

    def _answers(self, kept: Step, asked: Prompt) -> bool:
        if not self.is_fact(kept.prompt) or kept.prompt.topic != asked.topic or not asked.topic:
            return False
        if isinstance(asked, Roll):
            return same_roll(kept.prompt, asked)
        try:  # a choice: one of its options still; a text: one it takes
            asked.check(kept.answer)
        except BadAnswer:
            return False
        return True

    def _redo_follows(self, step: Step) -> None:
        """Keep ``redo_groups`` true to the log after ``step`` was committed."""
        if not self.redo_groups:
            return
        group = self.redo_groups[-1]
        if _key(group[0]) != _key(step):
            self.redo_groups = []  # a new answer: what was taken back is no longer ahead
        elif len(group) > 1:
            self.redo_groups[-1] = group[1:]
        else:
            self.redo_groups.pop()

    def _record(self, index: int, step: Step, where: tuple[Any, Any]) -> Record:
        """The Record of ``step``, logged at ``index``, with the state it led to (the state now)."""
        text = canonical(self.snapshot())  # once: the digest and the stored state share it
        return Record(
            index, step, where[0], where[1], digest(text), text, self.finished, self.game.summary(self.state)
        )

    def board_check(self, prompt: Check, value: Any) -> Step:
        """Log the answer to a board check (what the table shows); the game is not touched and
        the waiting prompt stays waiting. BadAnswer (nothing changed) if it does not fit."""
        answer = prompt.check(value)
        where = self.game.where(self.state) if self.recorder is not None else (None, None)
        return self._commit(Step(prompt, answer, "player"), where)

    def mark_test(self, index: int, test: bool = True) -> Step:
        """Mark the roll at step ``index`` as a test roll (``test``), which the luck ledger leaves
        out, or take the mark off; durably. The game is not touched: the roll stands as it was.
        BadAnswer (one sentence, nothing changed) for a step that is not a roll."""
        if not 0 <= index < len(self.steps):
            raise BadAnswer(f"There is no step {index + 1}; the log has {len(self.steps)}.")
        step = self.steps[index]
        if not isinstance(step.prompt, Roll):
            raise BadAnswer(not_a_roll(index))
        if step.test != test:
            if self.recorder is not None:
                self.recorder.mark_test(index, test)
            self.steps[index] = Step(step.prompt, step.answer, step.source, step.die, test)
        return self.steps[index]

    def edit(self, prompt: Edit) -> Step:
        """Log and apply a manual correction of the table; the waiting prompt stays waiting.
        BadAnswer (nothing changed) if the game refuses it or has no corrections."""
        where = self.game.where(self.state) if self.recorder is not None else (None, None)
        self._apply_edit(prompt)
        return self._commit(Step(prompt, None, "edit"), where)

    def _apply_edit(self, prompt: Edit) -> None:
        apply = self.game.apply_edit
        if apply is None:
            raise BadAnswer(f"{self.game.title} takes no manual corrections.")
        try:
            apply(self.state, json.loads(prompt.change))
        except ValueError as exc:
            raise BadAnswer(str(exc)) from None

    def type(self, text: str) -> Step:
        """Answer with text a person typed: dice from the table, a choice, or free text."""
        prompt = self._waiting()
        answer = prompt.parse(text)
        source = {"roll": "physical", "tell": "ack"}.get(prompt.kind, "player")
        return self.submit(answer, source)

    def roll(self) -> Step:
        """Let the app roll the dice the waiting Roll prompt asks for."""
        prompt = self.pending
        if not isinstance(prompt, Roll):  # None too: ``_waiting`` says the session has ended
            self._waiting()
            raise BadAnswer("Nothing is being rolled now, so the app has nothing to roll.")
        # The app's dice are the number and kind asked for: they need no check.
        return self._answer(prompt, app_roll(self.seed, len(self.steps), prompt.n, prompt.sides), "app")

    def ack(self) -> Step:
        """Confirm the waiting instruction was carried out on the board."""
        prompt = self.pending
        if not isinstance(prompt, Tell):  # None too: ``_waiting`` says the session has ended
            self._waiting()
            raise BadAnswer("There is no instruction waiting to be confirmed.")
        return self._answer(prompt, None, "ack")

    def _waiting(self) -> Prompt:
        if self.pending is None:
            raise BadAnswer("This session has ended; nothing more is asked.")
        return self.pending

    # -- undo and correction ----------------------------------------------

    def undo(self) -> Step | None:
        """Take back the last answer; None when there is nothing to take back."""
        if not self.steps:
            return None
        return self.rewind_to(len(self.steps) - 1)[0]

    def rewind_to(self, index: int) -> list[Step]:
        """Go back to the state before step ``index``, taking back it and every later step, in
        one replay and one logged rewind; the steps taken back, in order. BadAnswer (nothing
        changed) when the log has no step ``index``."""
        if not 0 <= index < len(self.steps):
            raise BadAnswer(f"There is no step {index + 1} to go back to; the log has {len(self.steps)}.")
        taken = self.steps[index:]
        self._rewind(index)
        self.redo_groups.append(taken)
        self.last_correction = None
        return taken

    def correction_to_undo(self) -> tuple[int, list[Step]] | None:
        """The last correction, (its step, the steps it replaced), while nothing but the dice
        the app rolls by itself has been answered since: ``restore`` then puts the log back
        exactly as it was before it. None otherwise."""
        last = self.last_correction
        if last is None:
            return None
        index, replaced, left = last
        after = self.steps[len(left) :]
        if len(self.steps) < len(left) or any(a is not b for a, b in zip(self.steps, left, strict=False)):
            return None
        return (index, replaced) if all(s.source == "app" for s in after) else None

    def redo(self) -> list[Step]:
        """Answer again what the last undo took back, each step as it was (dice, draws and
        choices alike; each recorded as a new answer); the steps answered. It stops at a step
        the game no longer asks (then nothing more is left to redo). BadAnswer (nothing
        changed) when there is nothing to redo."""
        if not self.redo_groups:
            raise BadAnswer("There is nothing to redo: redo brings back what an undo took back.")
        group = list(self.redo_groups[-1])
        done: list[Step] = []
        self._filling = True  # the steps as they were, in order: nothing filled between them
        try:
            self._redo_steps(group, done)
        finally:
            self._filling = False
        if len(done) < len(group):
            self.redo_groups = []
        return done

    def restore(self, index: int, steps: list[Step]) -> list[Step]:
        """Go back to before step ``index`` and answer ``steps`` there again, each as it was:
        the log as it stood before a correction (``steps``: its steps from ``index`` on); the
        steps answered, up to the first the game does not ask as logged."""
        self.rewind_to(index)
        done: list[Step] = []
        self._filling = True
        try:
            self._redo_steps(steps, done)
        finally:
            self._filling = False
        return done

    def _redo_steps(self, group: list[Step], done: list[Step]) -> None:
        for step in group:
            if isinstance(step.prompt, Check):
                self.board_check(step.prompt, step.answer)
            elif isinstance(step.prompt, Edit):
                self.edit(step.prompt)
            elif self.pending is not None and fits(step.prompt, self.pending):
                self.submit(step.answer, step.source, step)
            else:
                break
            done.append(step)

    def _rewind(self, index: int) -> None:
        """Go back to the state before step ``index``, durably."""
        before = list(self.steps)
        self._rebuild(before[:index])
        if self.recorder is not None:
            try:
                self.recorder.rewind(
                    index, canonical(self.snapshot()), self.finished, self.game.summary(self.state)
                )
            except BaseException:
                self._rebuild(before)
                raise

    def correct(self, index: int, value: Any, source: str) -> Correction:
        """Replace answer ``index`` and re-run, keeping later answers still asked the same way.

        Later answers are matched in order: an answer is kept while the game asks
        the very prompt it answered, and a die while the game asks for the same roll
        (its topic and dice) even if the facts around it changed: the dice rolled on
        the table stand (a corrected rebellion region still rolls its table die, then
        the events' 2D6). A new instruction is acknowledged and reported in
        ``new_tells`` (the board change the correction implies); an instruction no
        longer given is dropped. At the first die or choice asked differently the
        reuse stops, and the user is asked from there on: an old choice is never
        applied to a different question.
        """
        if not 0 <= index < len(self.steps):
            raise BadAnswer(f"There is no step {index + 1}; the log has {len(self.steps)}.")
        old = list(self.steps)
        old[index].prompt.check(value)
        # As the log has it, a rewind to ``index`` then the answers: the redo rule follows them,
        # and the steps after ``index`` are kept ahead until given again.
        saved = self.redo_groups, self.ahead, self._ahead_keys
        self.redo_groups = [*self.redo_groups, old[index:]]
        self.keep_ahead(old[index + 1 :])
        self._filling = True  # the later answers are matched in order first (below)
        try:
            self._replace(index, value, source)
        except BaseException:
            self.redo_groups, self.ahead, self._ahead_keys = saved
            self._filling = False
            raise
        report = Correction(index)
        try:
            self._reuse(old[index + 1 :], report)
        finally:
            self._filling = False
        # Past the first decision asked otherwise, the facts of the table still stand: they
        # answer the game again as it asks for them, now and after each answer.
        report.reused += len(self.fill_facts())
        report.kept = list(self.ahead)
        self.last_correction = (index, old[index:], list(self.steps))
        return report

    def _reuse(self, tail: list[Step], report: Correction) -> None:
        """The later answers of a correction given again while the game asks them as logged."""
        p = 0
        while self.pending is not None and p < len(tail):
            asked = self.pending
            logged = tail[p].prompt
            if isinstance(logged, Check):
                # What the table showed then stays where it was, as a correction by hand does.
                self.board_check(logged, tail[p].answer)
                report.reused += 1
                p += 1
            elif isinstance(logged, Edit):
                # A correction made by hand stays where it was: the table had it.
                try:
                    self.edit(logged)
                    report.reused += 1
                except BadAnswer:
                    report.dropped.append(tail[p])
                p += 1
            elif fits(logged, asked) or same_roll(logged, asked):
                self.submit(tail[p].answer, tail[p].source, tail[p])
                report.reused += 1
                p += 1
            elif isinstance(asked, Tell):
                self.submit(None, "ack")
                report.new_tells.append(asked)
            elif isinstance(tail[p].prompt, Tell):
                report.dropped.append(tail[p])
                p += 1
            else:
                break
        report.dropped.extend(tail[p:])

    def _replace(self, index: int, value: Any, source: str) -> None:
        """Go back to before step ``index`` and answer it with ``value``, durably. The answer
        is tried in memory first (the game re-run once, up to ``index``), and only then is
        the recorder told: an engine failure leaves the whole log as it was, and a recorder
        failure leaves what is on screen equal to what is stored."""
        old = list(self.steps)
        recorder, self.recorder = self.recorder, None
        try:
            self._rebuild(old[:index])
            where = self.game.where(self.state)
            left = canonical(self.snapshot()), self.finished, self.game.summary(self.state)
            # A die corrected is the same roll: rolled with the same dice, marked as it was.
            step = self.submit(value, source, old[index])
        except BaseException:
            self._rebuild(old)
            raise
        finally:
            self.recorder = recorder
        if recorder is None:
            return
        try:
            recorder.rewind(index, *left, correction=True)
        except BaseException:
            self._rebuild(old)
            raise
        try:
            recorder.record(self._record(index, step, where))
        except BaseException:
            self._rebuild(old[:index])
            raise


def verify(
    game: Game,
    seed: int,
    config: dict[str, Any] | None,
    steps: list[Step],
    digests: list[str],
    final: dict[str, Any] | None,
) -> Driver:
    """Re-run a logged session and check it reproduces every logged state.

    Raises ReplayDivergence at the first step whose prompt or resulting state
    differs from the log (or that the engine fails on), or if the final state differs
    from ``final``.
    """
    driver = Driver(game, seed, config)
    for i, (step, logged) in enumerate(zip(steps, digests, strict=True)):
        divergence = driver.feed_fitting([step])
        if divergence is not None:
            raise divergence
        got = digest(driver.snapshot())
        if got != logged:
            raise ReplayDivergence(
                i, f"Step {i + 1}: '{step.prompt.describe()}' now leads to a different state."
            )
    if final is not None and driver.snapshot() != final:
        raise ReplayDivergence(len(steps), "The replayed final state differs from the stored one.")
    return driver


@dataclass(frozen=True)
class Fit:
    """How far a logged session replays under the game's rules as they are now."""

    driver: Driver  # the session after the steps that fit (``len(driver.steps)`` of them)
    divergence: ReplayDivergence | None  # why the next step does not fit; None when every step does
    digests: list[str]  # the digest of the state after each step that fits, under these rules


def replay_fitting(game: Game, seed: int, config: dict[str, Any] | None, steps: Iterable[Step]) -> Fit:
    """Replay ``steps`` as far as they fit ``game``'s rules (see ``Driver.feed_fitting``), with the
    digest of the state after each: what resuming a session recorded under earlier rules keeps."""
    driver = Driver(game, seed, config)
    digests: list[str] = []
    for step in steps:
        divergence = driver.feed_fitting([step])
        if divergence is not None:
            return Fit(driver, divergence, digests)
        digests.append(digest(driver.snapshot()))
    return Fit(driver, None, digests)


def _quoted(text: str, width: int = 60, start: int = 0) -> str:
    """A question quoted in a sentence, from ``start`` and cut at ``width``: in double quotes,
    as questions often hold single ones."""
    lead = "…" if start else ""
    text = text[start:]
    return "“" + lead + (text if len(text) <= width else text[: width - 1] + "…") + "”"


def _quoted_pair(asked: str, logged: str, width: int = 60) -> tuple[str, str]:
    """The two questions quoted where they differ: when they share a long beginning, both
    start a few words before the first difference, so the reader sees what changed."""
    same = 0
    while same < min(len(asked), len(logged)) and asked[same] == logged[same]:
        same += 1
    start = 0
    if same > width - 20:
        # back to the start of a word, about 20 characters before the difference
        cut = asked.rfind(" ", 0, same - 20)
        start = cut + 1 if cut > 0 else same - 20
    return _quoted(asked, width, start), _quoted(logged, width, start)


def departure(divergence: ReplayDivergence) -> str:
    """What differs where a log parts from the game's rules, as a clause to go in a sentence:
    "the current rules ask “Roll 1d6: …” where the log has “Choose …”"."""
    if isinstance(divergence, PromptDivergence):
        if divergence.asked is None:
            logged = _quoted(divergence.logged.describe())
            return f"the current rules end the game where the log goes on with {logged}"
        asked, logged = _quoted_pair(divergence.asked.describe(), divergence.logged.describe())
        if asked == logged:  # the same words: the topic or the facts behind them differ
            return f"the current rules ask {asked} with other facts than the log has"
        return f"the current rules ask {asked} where the log has {logged}"
    text = re.sub(r"^Step \d+: ", "", str(divergence)).rstrip(".")
    return text[:1].lower() + text[1:]
