"""Tests of the driver: determinism, resume and replay, undo, correction, recording and faults."""

from __future__ import annotations

import dataclasses
import hashlib
import json
from dataclasses import asdict, dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion import dicetray
from companion.dice import app_roll
from companion.driver import (
    Driver,
    EngineFault,
    PromptDivergence,
    Record,
    Step,
    departure,
    digest,
    replay_fitting,
    verify,
)
from companion.errors import ReplayDivergence
from companion.interface import Procedure
from companion.prompts import BadAnswer, Choose, Roll, Tell

TRAY = dicetray.GAME

# -- a tiny game whose later prompts depend on earlier answers ------------------------

ADVANCE = Tell("Advance the army one space.")
REMOVE = Tell("Remove one enemy block.")
STANCE = Choose(("attack", "defend"), "Stance")
#: After a turn of attack the stance offers a third option.
STANCE_AFTER_ATTACK = Choose(("attack", "defend", "regroup"), "Stance")
BATTLE = Roll(2, 6, "Battle")
NEXT = Choose(("continue", "stop"), "Next")


def morale(battle: list[int]) -> Roll:
    """The morale roll: one die after a battle total under 8, two after a bigger one."""
    return Roll(1 if sum(battle) < 8 else 2, 6, "Morale")


@dataclass
class SkirmishState:
    seed: int
    turn: int = 1
    phase: str = "stance"
    stance: str = ""
    hits: int = 0
    log: list[list[Any]] = field(default_factory=list)
    over: bool = False


class Skirmish:
    """Each turn: a stance (attack brings a Tell; the next turn's stance has a third
    option), a battle roll (a six brings a Tell), a morale roll whose size depends on
    the battle total, then continue or stop."""

    id = "skirmish"
    title = "Skirmish"

    def new_state(self, seed: int, config: dict[str, Any]) -> SkirmishState:
        return SkirmishState(seed)

    def procedure(self, state: SkirmishState) -> Procedure:
        while True:
            state.phase = "stance"
            stance = yield (STANCE_AFTER_ATTACK if state.stance == "attack" else STANCE)
            state.stance = stance
            if stance == "attack":
                yield ADVANCE
            state.phase = "battle"
            battle = yield BATTLE
            state.log.append(["battle", stance, list(battle)])
            if 6 in battle:
                yield REMOVE
                state.hits += 1
            state.phase = "morale"
            got = yield morale(battle)
            state.log.append(["morale", list(got)])
            state.phase = "end"
            go = yield NEXT
            if go == "stop":
                state.over = True
                return state.hits
            state.turn += 1

    def snapshot(self, state: SkirmishState) -> dict[str, Any]:
        return asdict(state)

    def where(self, state: SkirmishState) -> tuple[int | None, str | None]:
        return state.turn, state.phase

    def summary(self, state: SkirmishState) -> str:
        return f"turn {state.turn}, {state.hits} hits" + (", over" if state.over else "")


class Faulty(Skirmish):
    """Skirmish whose engine breaks on a battle of double six."""

    def procedure(self, state: SkirmishState) -> Procedure:
        stance = yield STANCE
        state.stance = stance
        battle = yield BATTLE
        state.log.append(["battle", stance, list(battle)])
        if list(battle) == [6, 6]:
            raise ZeroDivisionError("double six is not in the tables")
        yield NEXT
        return 0


SKIRMISH = Skirmish()


class FakeRecorder:
    """Keeps what the driver hands over; can be told to fail on one step index."""

    def __init__(self, fail_at: int | None = None) -> None:
        self.records: list[Record] = []
        self.rewinds: list[tuple[int, dict[str, Any], bool, str]] = []
        self.fail_at = fail_at

    def record(self, record: Record) -> None:
        if record.index == self.fail_at:
            raise OSError("the disk is full")
        self.records.append(record)

    def rewind(
        self, index: int, state_json: str, finished: bool, summary: str, correction: bool = False
    ) -> None:
        self.rewinds.append((index, json.loads(state_json), finished, summary))


def play_skirmish(driver: Driver, answers: list[str]) -> None:
    """Answer by typing each text in turn (Tells take any text)."""
    for text in answers:
        driver.type(text)


#: Turn 1: defend, battle 3 3 (no six, total 6: morale 1d6) = 4, continue;
#: turn 2: attack (Tell), battle 5 6 (a six: Tell; total 11: morale 2d6) = 2 2, stop.
SKIRMISH_ANSWERS = ["defend", "3 3", "4", "continue", "attack", "", "5 6", "", "2 2", "stop"]


def tray_session(driver: Driver) -> None:
    """A dice tray session mixing typed and app dice."""
    driver.type("2d6 Attack")
    driver.type("3 5")
    driver.type("")  # the default: the same dice again
    driver.roll()
    driver.type("1d20 Save")
    driver.roll()
    driver.type("3d6")
    driver.type("6 6 1")


def state_tuple(driver: Driver) -> tuple[list[Step], Any, dict[str, Any]]:
    return list(driver.steps), driver.pending, driver.snapshot()


# -- determinism -----------------------------------------------------------------------


def test_same_seed_and_answers_give_the_same_state_and_dice() -> None:
    a, b = Driver(TRAY, 7), Driver(TRAY, 7)
    tray_session(a)
    tray_session(b)
    assert a.snapshot() == b.snapshot()
    assert a.steps == b.steps
    app_a = [s.answer for s in a.steps if s.source == "app"]
    assert len(app_a) == 2
    assert app_a == [s.answer for s in b.steps if s.source == "app"]


def test_app_dice_are_app_roll_of_seed_and_step() -> None:
    driver = Driver(TRAY, 1234)
    tray_session(driver)
    for i, step in enumerate(driver.steps):
        if step.source == "app":
            assert isinstance(step.prompt, Roll)
            assert step.answer == app_roll(1234, i, step.prompt.n, step.prompt.sides)


def test_app_roll_is_the_documented_hash_of_seed_step_and_block() -> None:
    """docs/design.md, "The driver": each app roll is "BLAKE2b of "<seed>:<step>:<block>", 16
    bits a draw, rejection sampling so every face is equally likely". Derived here from that
    sentence alone, for a d6 (drawn values at or over 65532 are rejected) and a d20 past one block."""

    def documented(seed: int, step: int, n: int, sides: int) -> list[int]:
        limit = 65536 - 65536 % sides
        faces: list[int] = []
        for block in range(100):
            digest = hashlib.blake2b(f"{seed}:{step}:{block}".encode(), digest_size=64).digest()
            draws = [int.from_bytes(digest[i : i + 2], "big") for i in range(0, 64, 2)]
            faces += [d % sides + 1 for d in draws if d < limit]
            if len(faces) >= n:
                return faces[:n]
        raise AssertionError("no roll in 100 blocks")

    assert app_roll(5, 3, 4, 6) == documented(5, 3, 4, 6)
    assert app_roll(-7, 0, 40, 20) == documented(-7, 0, 40, 20)  # 40 draws: a second block
    assert app_roll(2**63 - 1, 999, 3, 1) == [1, 1, 1]


def test_app_roll_depends_on_seed_and_step() -> None:
    by_step = [app_roll(5, step, 5, 20) for step in range(6)]
    assert len({tuple(r) for r in by_step}) > 1
    by_seed = [app_roll(seed, 3, 5, 20) for seed in range(6)]
    assert len({tuple(r) for r in by_seed}) > 1
    assert all(1 <= v <= 20 for r in by_step + by_seed for v in r)


def test_different_seeds_roll_different_app_dice() -> None:
    rolls = []
    for seed in (1, 2):
        driver = Driver(TRAY, seed)
        for _ in range(4):
            driver.type("5d20")
            driver.roll()
        rolls.append([s.answer for s in driver.steps if s.source == "app"])
    assert rolls[0] != rolls[1]


def test_resumed_driver_rolls_what_the_uninterrupted_one_would() -> None:
    live = Driver(TRAY, 99)
    for _ in range(3):
        live.type("4d6 Fire")
        live.roll()
    for k in (1, 3, 5):  # stop just before each app roll
        resumed = Driver.resume(TRAY, 99, None, live.steps[:k])
        assert resumed.pending == live.steps[k].prompt
        step = resumed.roll()
        assert step == live.steps[k]


def test_replay_from_steps_equals_the_live_snapshot() -> None:
    live = Driver(TRAY, 3)
    tray_session(live)
    replayed = Driver.resume(TRAY, 3, None, live.steps)
    assert replayed.snapshot() == live.snapshot()
    assert replayed.pending == live.pending
    assert replayed.steps == live.steps


def test_replay_of_skirmish_equals_the_live_snapshot_and_result() -> None:
    live = Driver(SKIRMISH, 8)
    play_skirmish(live, SKIRMISH_ANSWERS)
    assert live.finished
    assert live.result == 1
    replayed = Driver.resume(SKIRMISH, 8, {}, live.steps)
    assert replayed.finished
    assert replayed.result == 1
    assert replayed.snapshot() == live.snapshot()


def test_type_picks_the_source_from_the_prompt() -> None:
    driver = Driver(SKIRMISH, 1)
    play_skirmish(driver, ["attack", "ok", "3 4"])
    assert [s.source for s in driver.steps] == ["player", "ack", "physical"]
    driver.roll()
    assert driver.steps[-1].source == "app"


# -- bad answers ---------------------------------------------------------------------------


@pytest.mark.parametrize("text", ["7 1", "0 2", "abc", "1 2 3", ""])
def test_bad_typed_dice_change_nothing(text: str) -> None:
    driver = Driver(TRAY, 5)
    driver.type("2d6")
    before = state_tuple(driver)
    with pytest.raises(BadAnswer):
        driver.type(text)
    assert state_tuple(driver) == before


def test_bad_typed_spec_changes_nothing() -> None:
    driver = Driver(TRAY, 5)
    driver.type("2d6")
    driver.type("3 4")
    before = state_tuple(driver)
    with pytest.raises(BadAnswer) as info:
        driver.type("banana")
    assert str(info.value) == dicetray.SPEC_HINT
    assert state_tuple(driver) == before


def test_bad_submitted_answer_changes_nothing_and_records_nothing() -> None:
    recorder = FakeRecorder()
    driver = Driver(SKIRMISH, 5, recorder=recorder)
    before = state_tuple(driver)
    with pytest.raises(BadAnswer):
        driver.submit("charge", "player")
    assert state_tuple(driver) == before
    assert recorder.records == []


def test_roll_and_ack_refuse_the_wrong_prompt() -> None:
    driver = Driver(SKIRMISH, 5)
    with pytest.raises(BadAnswer):
        driver.roll()
    with pytest.raises(BadAnswer):
        driver.ack()
    assert driver.steps == []


def test_ended_session_takes_no_more_answers() -> None:
    driver = Driver(TRAY, 5)
    driver.type("end")
    assert driver.finished
    with pytest.raises(BadAnswer, match="ended"):
        driver.type("2d6")


# -- undo --------------------------------------------------------------------------------


def test_undo_takes_back_exactly_the_last_answer() -> None:
    driver = Driver(SKIRMISH, 4)
    play_skirmish(driver, SKIRMISH_ANSWERS[:7])
    last = driver.steps[-1]
    assert driver.undo() == last
    shorter = Driver(SKIRMISH, 4)
    play_skirmish(shorter, SKIRMISH_ANSWERS[:6])
    assert state_tuple(driver) == state_tuple(shorter)


def test_undo_then_answer_again_goes_on_from_there() -> None:
    driver = Driver(TRAY, 4)
    driver.type("2d6")
    driver.type("1 1")
    driver.undo()
    driver.type("6 6")
    assert driver.snapshot()["rolls"][-1]["values"] == [6, 6]
    assert len(driver.snapshot()["rolls"]) == 1


def test_undo_after_the_end_reopens_the_session() -> None:
    driver = Driver(TRAY, 4)
    driver.type("end")
    driver.undo()
    assert not driver.finished
    assert driver.snapshot()["ended"] is False


def test_undo_on_an_empty_log_returns_none() -> None:
    recorder = FakeRecorder()
    driver = Driver(TRAY, 4, recorder=recorder)
    before = state_tuple(driver)
    assert driver.undo() is None
    assert state_tuple(driver) == before
    assert recorder.rewinds == []


# -- redo ----------------------------------------------------------------------------------


def test_redo_answers_again_what_the_undo_took_back_with_its_sources() -> None:
    driver = skirmish(SKIRMISH_ANSWERS[:5])  # ... continue, attack (an instruction follows)
    driver.ack()
    driver.roll()  # an app die among them: it stands as rolled
    after = state_tuple(driver)
    taken = driver.rewind_to(3)
    assert driver.redo_groups == [taken]
    done = driver.redo()
    assert done == taken
    assert state_tuple(driver) == after
    assert [s.source for s in driver.steps][-3:] == ["player", "ack", "app"]
    assert driver.redo_groups == []


def test_redo_brings_back_the_last_undo_first_then_the_one_before() -> None:
    driver = skirmish(SKIRMISH_ANSWERS)
    whole = state_tuple(driver)
    driver.undo()
    driver.undo()
    middle = state_tuple(driver)
    driver.rewind_to(2)
    driver.redo()
    assert state_tuple(driver) == middle  # the last undo (back to step 3) redone first
    driver.redo()
    driver.redo()
    assert state_tuple(driver) == whole
    with pytest.raises(BadAnswer):
        driver.redo()


def test_a_new_answer_ends_what_can_be_redone_and_the_same_answer_keeps_it() -> None:
    driver = skirmish(SKIRMISH_ANSWERS[:6])
    driver.rewind_to(1)  # battle 3 3, morale 4, continue, attack, its instruction taken back
    driver.type("3 3")  # given again by hand, as it was: the rest can still be redone
    assert [len(g) for g in driver.redo_groups] == [4]
    driver.redo()
    assert state_tuple(driver) == state_tuple(skirmish(SKIRMISH_ANSWERS[:6]))
    driver.rewind_to(1)
    driver.type("2 2")  # another answer: what was taken back is no longer ahead
    assert driver.redo_groups == []
    with pytest.raises(BadAnswer):
        driver.redo()


def test_a_correction_ends_what_can_be_redone() -> None:
    driver = skirmish(SKIRMISH_ANSWERS)
    driver.undo()
    driver.correct(1, [2, 3], "player")
    assert driver.redo_groups == []


def test_redo_is_recorded_as_new_answers() -> None:
    recorder = FakeRecorder()
    driver = skirmish(SKIRMISH_ANSWERS[:5], recorder)
    driver.rewind_to(1)
    driver.redo()
    assert [r.index for r in recorder.records] == [0, 1, 2, 3, 4, 1, 2, 3, 4]
    assert recorder.rewinds[-1][0] == 1


# -- correction ------------------------------------------------------------------------------


def skirmish(answers: list[str], recorder: FakeRecorder | None = None) -> Driver:
    driver = Driver(SKIRMISH, 11, recorder=recorder)
    play_skirmish(driver, answers)
    return driver


def test_correction_reuses_later_answers_asked_the_same_way() -> None:
    # Turn 1 battle 3 3 -> 2 3: no six and a small total, so everything after is reused.
    driver = skirmish(SKIRMISH_ANSWERS)
    report = driver.correct(1, [2, 3], "physical")
    assert report.index == 1
    assert report.reused == len(SKIRMISH_ANSWERS) - 2
    assert report.new_tells == []
    assert report.dropped == []
    expected = skirmish(["defend", "2 3", *SKIRMISH_ANSWERS[2:]])
    assert driver.snapshot() == expected.snapshot()
    assert driver.finished


def test_correction_keeps_the_sources_of_reused_answers() -> None:
    driver = Driver(SKIRMISH, 11)
    play_skirmish(driver, ["defend", "3 3"])
    driver.roll()
    old = list(driver.steps)
    driver.correct(1, [1, 2], "physical")
    assert driver.steps[2] == old[2]
    assert driver.steps[2].source == "app"


def test_correction_reports_a_new_tell() -> None:
    # Turn 1 battle 3 3 -> 1 6: a six, so the remove instruction is now given;
    # the total is still under 8, so the morale roll and all the rest are reused.
    driver = skirmish(SKIRMISH_ANSWERS)
    report = driver.correct(1, [1, 6], "physical")
    assert report.new_tells == [REMOVE]
    assert report.reused == len(SKIRMISH_ANSWERS) - 2
    assert report.dropped == []
    assert driver.steps[2] == Step(REMOVE, None, "ack")
    expected = skirmish(["defend", "1 6", "", *SKIRMISH_ANSWERS[2:]])
    assert driver.steps == expected.steps
    assert driver.snapshot() == expected.snapshot()
    assert driver.snapshot()["hits"] == 2


def test_correction_drops_a_tell_no_longer_given() -> None:
    # Turn 2 attack -> defend: the advance instruction is no longer given.
    driver = skirmish(SKIRMISH_ANSWERS)
    old = list(driver.steps)
    report = driver.correct(4, "defend", "player")
    assert report.dropped == [old[5]]
    assert old[5].prompt == ADVANCE
    assert report.new_tells == []
    assert report.reused == len(SKIRMISH_ANSWERS) - 6  # battle, its Tell, morale, stop
    expected = skirmish([*SKIRMISH_ANSWERS[:4], "defend", *SKIRMISH_ANSWERS[6:]])
    assert driver.steps == expected.steps
    assert driver.snapshot() == expected.snapshot()


def test_correction_stops_at_the_first_roll_asked_differently() -> None:
    # Turn 1 battle 3 3 -> 6 5: a six brings the remove Tell, then morale is 2d6, not 1d6.
    driver = skirmish(SKIRMISH_ANSWERS)
    old = list(driver.steps)
    report = driver.correct(1, [6, 5], "physical")
    assert report.new_tells == [REMOVE]
    assert report.reused == 0
    assert driver.pending == Roll(2, 6, "Morale")
    assert report.dropped == old[2:]
    assert [s.prompt for s in driver.steps] == [STANCE, BATTLE, REMOVE]
    assert driver.steps[1].answer == [6, 5]
    assert not driver.finished


def test_correction_stops_at_the_first_choice_asked_differently() -> None:
    # Turn 1 defend -> attack: the advance Tell is new, battle, morale and 'continue'
    # are reused, then turn 2's stance has three options: the reuse stops there.
    driver = skirmish(SKIRMISH_ANSWERS)
    old = list(driver.steps)
    report = driver.correct(0, "attack", "player")
    assert report.new_tells == [ADVANCE]
    assert report.reused == 3
    assert driver.pending == STANCE_AFTER_ATTACK
    assert report.dropped == old[4:]
    assert driver.steps[2:] == old[1:4]


def test_correction_to_the_same_answer_keeps_everything() -> None:
    driver = skirmish(SKIRMISH_ANSWERS)
    old = state_tuple(driver)
    report = driver.correct(3, "continue", "player")
    assert report.reused == len(SKIRMISH_ANSWERS) - 4
    assert report.dropped == [] and report.new_tells == []
    assert state_tuple(driver) == old


def test_correction_that_ends_the_game_drops_the_rest() -> None:
    driver = skirmish(SKIRMISH_ANSWERS)
    old = list(driver.steps)
    report = driver.correct(3, "stop", "player")
    assert driver.finished
    assert report.reused == 0
    assert report.dropped == old[4:]


def test_correction_records_a_rewind_and_the_new_answers() -> None:
    recorder = FakeRecorder()
    driver = skirmish(SKIRMISH_ANSWERS, recorder)
    n = len(recorder.records)
    driver.correct(4, "defend", "player")
    assert recorder.rewinds[-1][0] == 4
    new = recorder.records[n:]
    assert [r.index for r in new] == list(range(4, len(driver.steps)))
    assert [r.step for r in new] == driver.steps[4:]
    assert new[-1].digest == digest(driver.snapshot())


@pytest.mark.parametrize("index", [-1, 10, 99])
def test_correction_out_of_range_raises_bad_answer(index: int) -> None:
    driver = skirmish(SKIRMISH_ANSWERS)
    before = state_tuple(driver)
    with pytest.raises(BadAnswer) as info:
        driver.correct(index, "attack", "player")
    assert "10" in str(info.value)
    assert state_tuple(driver) == before


def test_correction_with_an_answer_that_does_not_fit_changes_nothing() -> None:
    recorder = FakeRecorder()
    driver = skirmish(SKIRMISH_ANSWERS, recorder)
    before = state_tuple(driver)
    with pytest.raises(BadAnswer):
        driver.correct(1, [7, 7], "physical")
    assert state_tuple(driver) == before
    assert recorder.rewinds == []


def test_correction_that_breaks_the_engine_keeps_the_log() -> None:
    """A failed correction must not cost the player the answers after it."""
    recorder = FakeRecorder()
    driver = Driver(Faulty(), 2, recorder=recorder)
    play_skirmish(driver, ["attack", "1 2", "continue"])
    before, records = state_tuple(driver), len(recorder.records)
    with pytest.raises(EngineFault):
        driver.correct(1, [6, 6], "physical")
    assert state_tuple(driver) == before
    assert recorder.rewinds == [] and len(recorder.records) == records  # the store was not told


class FailingRewind(FakeRecorder):
    def rewind(
        self, index: int, state_json: str, finished: bool, summary: str, correction: bool = False
    ) -> None:
        raise OSError("the disk is full")


def test_correction_whose_rewind_fails_keeps_the_whole_log() -> None:
    """The store could not withdraw the later answers: nothing was changed there, so the
    session stays as it was, every answer in place."""
    recorder = FailingRewind()
    driver = skirmish(SKIRMISH_ANSWERS, recorder)
    before = state_tuple(driver)
    with pytest.raises(OSError, match="disk is full"):
        driver.correct(4, "defend", "player")
    assert state_tuple(driver) == before


def test_correction_whose_new_answer_cannot_be_recorded_stops_before_it() -> None:
    """The later answers were withdrawn, then the corrected answer failed to be stored: the
    session is what the store holds, the steps before the corrected one, asking it again."""
    recorder = FakeRecorder(fail_at=4)
    driver = Driver(SKIRMISH, 7, recorder=FakeRecorder())
    play_skirmish(driver, SKIRMISH_ANSWERS)
    driver.recorder = recorder
    old = list(driver.steps)
    with pytest.raises(OSError, match="disk is full"):
        driver.correct(4, "defend", "player")
    assert recorder.rewinds[-1][0] == 4
    assert driver.steps == old[:4]
    assert driver.pending == old[4].prompt
    assert driver.snapshot() == Driver.resume(SKIRMISH, 7, None, old[:4]).snapshot()


# -- resume and verify -----------------------------------------------------------------------


def test_resume_raises_divergence_when_a_logged_prompt_differs() -> None:
    live = Driver(TRAY, 6)
    tray_session(live)
    steps = list(live.steps)
    steps[3] = dataclasses.replace(steps[3], prompt=Roll(3, 6, "Attack"), answer=[1, 2, 3])
    with pytest.raises(ReplayDivergence) as info:
        Driver.resume(TRAY, 6, None, steps)
    assert info.value.step == 3
    assert "Step 4" in str(info.value)


def test_resume_past_the_end_raises_divergence() -> None:
    live = Driver(TRAY, 6)
    live.type("end")
    steps = [*live.steps, Step(live.steps[0].prompt, "end", "player")]
    with pytest.raises(ReplayDivergence) as info:
        Driver.resume(TRAY, 6, None, steps)
    assert info.value.step == 1
    assert "ended" in str(info.value)


def test_resume_of_an_answer_that_does_not_fit_is_a_divergence() -> None:
    """A log whose answer no longer fits its prompt diverges; it is not a typing error."""
    live = Driver(TRAY, 6)
    tray_session(live)
    steps = list(live.steps)
    steps[1] = dataclasses.replace(steps[1], answer=[9, 9])
    with pytest.raises(ReplayDivergence) as info:
        Driver.resume(TRAY, 6, None, steps)
    assert info.value.step == 1


def test_feed_fitting_stops_after_the_last_step_that_fits() -> None:
    """Replayed as far as the log fits: the driver is left there, the divergence returned."""
    live = Driver(TRAY, 6)
    tray_session(live)
    steps = list(live.steps)
    steps[3] = dataclasses.replace(steps[3], prompt=Roll(3, 6, "Attack"), answer=[1, 2, 3])
    driver = Driver(TRAY, 6)
    divergence = driver.feed_fitting(steps)
    assert isinstance(divergence, PromptDivergence)
    assert (divergence.step, divergence.logged, divergence.asked) == (
        3,
        steps[3].prompt,
        live.steps[3].prompt,
    )
    assert driver.steps == steps[:3]
    assert driver.snapshot() == Driver.resume(TRAY, 6, None, steps[:3]).snapshot()
    assert (
        departure(divergence)
        == "the current rules ask “Roll 2d6: Attack” where the log has “Roll 3d6: Attack”"
    )
    assert Driver(TRAY, 6).feed_fitting(live.steps) is None
    fit = replay_fitting(TRAY, 6, None, steps)
    assert fit.divergence is not None and fit.divergence.step == 3 and len(fit.driver.steps) == 3
    assert fit.digests == [digest(Driver.resume(TRAY, 6, None, steps[:k]).snapshot()) for k in (1, 2, 3)]


def test_a_departure_quotes_the_two_questions_where_they_differ() -> None:
    """Two long questions that share their beginning are quoted from a few words before the
    first difference, so the sentence shows what changed (not twice the same beginning)."""
    common = "Rebellions, Rebel Governor: area die for a city of Asturias held by "
    logged = Roll(1, 6, common + "the Christians (Oviedo, León)")
    asked = Roll(1, 6, common + "the Muslims (Galicia)")
    text = departure(PromptDivergence(5, "differs", logged, asked))
    assert text == (
        "the current rules ask “…Asturias held by the Muslims (Galicia)” "
        "where the log has “…Asturias held by the Christians (Oviedo, León)”"
    )
    short = departure(PromptDivergence(5, "differs", Roll(3, 6, "Attack"), Roll(2, 6, "Attack")))
    assert short == "the current rules ask “Roll 2d6: Attack” where the log has “Roll 3d6: Attack”"


class Brittle(Skirmish):
    """Skirmish whose engine fails on a stop: rules that no longer take an answer the old ones did."""

    def procedure(self, state: SkirmishState) -> Procedure:
        inner = super().procedure(state)
        answer = None
        while True:
            prompt = inner.send(answer)
            answer = yield prompt
            if prompt == NEXT and answer == "stop":
                raise KeyError("stop")


def test_an_engine_failing_on_a_logged_answer_is_a_divergence_there() -> None:
    live = Driver(SKIRMISH, 8)
    play_skirmish(live, SKIRMISH_ANSWERS)
    driver = Driver(Brittle(), 8)
    divergence = driver.feed_fitting(live.steps)
    assert divergence is not None and divergence.step == len(live.steps) - 1
    assert "the game engine fails on the logged answer (KeyError)" in str(divergence)
    assert driver.steps == live.steps[:-1] and driver.pending == NEXT  # rebuilt before the failure
    with pytest.raises(ReplayDivergence):
        verify(Brittle(), 8, None, live.steps, [""] * len(live.steps), None)


def test_resumed_driver_records_only_new_answers() -> None:
    live = Driver(TRAY, 6)
    tray_session(live)
    recorder = FakeRecorder()
    resumed = Driver.resume(TRAY, 6, None, live.steps, recorder=recorder)
    assert recorder.records == []
    resumed.type("1d6")
    assert [r.index for r in recorder.records] == [len(live.steps)]


def logged(game: Any, seed: int, answers: list[str]) -> tuple[list[Step], list[str], dict[str, Any]]:
    recorder = FakeRecorder()
    driver = Driver(game, seed, recorder=recorder)
    if game is SKIRMISH:
        play_skirmish(driver, answers)
    else:
        tray_session(driver)
    return driver.steps, [r.digest for r in recorder.records], driver.snapshot()


def test_verify_accepts_a_faithful_log() -> None:
    steps, digests, final = logged(SKIRMISH, 3, SKIRMISH_ANSWERS)
    driver = verify(SKIRMISH, 3, None, steps, digests, final)
    assert driver.snapshot() == final


def test_verify_detects_a_changed_digest() -> None:
    steps, digests, final = logged(SKIRMISH, 3, SKIRMISH_ANSWERS)
    digests[4] = "0" * 16
    with pytest.raises(ReplayDivergence) as info:
        verify(SKIRMISH, 3, None, steps, digests, final)
    assert info.value.step == 4
    assert "Step 5" in str(info.value)


def test_verify_detects_a_changed_answer() -> None:
    steps, digests, final = logged(TRAY, 3, [])
    steps[1] = dataclasses.replace(steps[1], answer=[4, 5])  # was 3 5
    with pytest.raises(ReplayDivergence) as info:
        verify(TRAY, 3, None, steps, digests, final)
    assert info.value.step == 1


def test_verify_detects_a_changed_final_state() -> None:
    steps, digests, final = logged(SKIRMISH, 3, SKIRMISH_ANSWERS)
    changed = dict(final, hits=final["hits"] + 1)
    with pytest.raises(ReplayDivergence) as info:
        verify(SKIRMISH, 3, None, steps, digests, changed)
    assert info.value.step == len(steps)
    assert "final state" in str(info.value)


def test_verify_uses_the_logged_app_dice_not_new_ones() -> None:
    steps, digests, final = logged(TRAY, 3, [])
    # The seed only draws new app dice; logged ones are replayed as they are.
    assert verify(TRAY, 4, None, steps, digests, final).snapshot() == final


# -- the recorder -----------------------------------------------------------------------------


def test_recorder_gets_one_record_per_answer() -> None:
    recorder = FakeRecorder()
    driver = Driver(SKIRMISH, 12, recorder=recorder)
    play_skirmish(driver, SKIRMISH_ANSWERS)
    assert [r.index for r in recorder.records] == list(range(len(SKIRMISH_ANSWERS)))
    assert [r.step for r in recorder.records] == driver.steps
    # turn and phase are where the game stood when the prompt was asked
    assert [(r.turn, r.phase) for r in recorder.records[:4]] == [
        (1, "stance"),
        (1, "battle"),
        (1, "morale"),
        (1, "end"),
    ]
    assert recorder.records[4].turn == 2
    assert [r.finished for r in recorder.records] == [False] * 9 + [True]
    assert json.loads(recorder.records[-1].state_json) == driver.snapshot()
    assert recorder.records[-1].digest == digest(driver.snapshot())
    assert recorder.records[-1].summary == "turn 2, 1 hits, over"


def test_each_record_digest_is_the_state_after_its_step() -> None:
    recorder = FakeRecorder()
    driver = Driver(TRAY, 12, recorder=recorder)
    tray_session(driver)
    for record in recorder.records:
        replay = Driver.resume(TRAY, 12, None, driver.steps[: record.index + 1])
        assert record.digest == digest(replay.snapshot())
        assert json.loads(record.state_json) == replay.snapshot()


def test_undo_hands_a_rewind_to_the_recorder() -> None:
    recorder = FakeRecorder()
    driver = Driver(TRAY, 12, recorder=recorder)
    driver.type("2d6")
    driver.type("2 2")
    driver.undo()
    assert len(recorder.rewinds) == 1
    index, snapshot, finished, summary = recorder.rewinds[0]
    assert index == 1
    assert snapshot == driver.snapshot()
    assert snapshot["rolls"] == []
    assert finished is False
    assert summary == "0 rolls"


def test_recorder_failure_rebuilds_the_driver_without_that_answer() -> None:
    recorder = FakeRecorder(fail_at=3)
    driver = Driver(TRAY, 12, recorder=recorder)
    driver.type("2d6")
    driver.type("1 2")
    driver.type("3d6")
    before = state_tuple(driver)
    with pytest.raises(OSError, match="disk is full"):
        driver.roll()
    assert state_tuple(driver) == before
    assert len(recorder.records) == 3
    recorder.fail_at = None
    driver.roll()  # the same prompt is still waiting, and the same app dice come
    assert driver.steps[3].answer == app_roll(12, 3, 3, 6)


def test_recorder_failure_on_the_first_answer() -> None:
    recorder = FakeRecorder(fail_at=0)
    driver = Driver(SKIRMISH, 12, recorder=recorder)
    with pytest.raises(OSError):
        driver.type("attack")
    assert driver.steps == []
    assert driver.pending == STANCE
    assert driver.snapshot() == Driver(SKIRMISH, 12).snapshot()


def test_engine_fault_records_nothing_and_changes_nothing() -> None:
    recorder = FakeRecorder()
    driver = Driver(Faulty(), 2, recorder=recorder)
    driver.type("attack")
    before = state_tuple(driver)
    with pytest.raises(EngineFault) as info:
        driver.type("6 6")
    assert "nothing was recorded" in str(info.value)
    assert isinstance(info.value.__cause__, ZeroDivisionError)
    assert state_tuple(driver) == before
    assert len(recorder.records) == 1
    driver.type("6 5")  # the session goes on
    assert len(recorder.records) == 2


def test_unknown_source_is_refused() -> None:
    driver = Driver(SKIRMISH, 2)
    with pytest.raises(ValueError, match="source"):
        driver.submit("attack", "telepathy")
    assert driver.steps == []


# -- property: replaying the steps gives the live state ------------------------------------

SPECS = st.sampled_from(["", "1d6", "2d6 Attack", "3d6", "1d20 Save", "2d10", "4d8 Fire", "end"])


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32 - 1), data=st.data())
def test_replay_of_any_tray_session_gives_the_live_snapshot(seed: int, data: st.DataObject) -> None:
    live = Driver(TRAY, seed)
    ops = data.draw(st.lists(st.sampled_from(["answer", "roll", "undo"]), max_size=25), label="ops")
    for op in ops:
        prompt = live.pending
        if op == "undo" or prompt is None:
            live.undo()
        elif isinstance(prompt, Roll):
            if op == "roll":
                live.roll()
            else:
                faces = data.draw(
                    st.lists(st.integers(1, prompt.sides), min_size=prompt.n, max_size=prompt.n)
                )
                live.type(" ".join(str(f) for f in faces))
        else:
            live.type(data.draw(SPECS))
        replayed = Driver.resume(TRAY, seed, None, live.steps)
        assert replayed.snapshot() == live.snapshot()
        assert replayed.pending == live.pending


def test_app_dice_are_fair_and_cover_every_face() -> None:
    """The app's dice: every face of a d6 and a d20 comes up, with frequencies a fair die
    gives (a chi-square statistic far below what a bias of a few percent would produce)."""
    from companion.dice import app_roll

    for sides, rolls in ((6, 12_000), (20, 20_000)):
        counts = [0] * sides
        for step in range(rolls):
            counts[app_roll(7, step, 1, sides)[0] - 1] += 1
        expected = rolls / sides
        chi2 = sum((c - expected) ** 2 / expected for c in counts)
        assert min(counts) > 0
        # 99.9th percentile of chi-square: 20.5 for 5 degrees of freedom, 43.8 for 19.
        assert chi2 < {6: 20.5, 20: 43.8}[sides], (sides, counts)


def test_app_roll_gives_many_dice_beyond_one_hash() -> None:
    """More dice than one hash holds still come out, all in range."""
    from companion.dice import app_roll

    faces = app_roll(3, 0, 40, 100)
    assert len(faces) == 40 and all(1 <= f <= 100 for f in faces)


def test_rewind_to_takes_back_several_steps_in_one_replay_and_one_logged_rewind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Going back three steps is one rewind for the recorder and one rebuild of the game, not
    three: the steps taken back come back in order."""
    recorder = FakeRecorder()
    driver = Driver(TRAY, 12, recorder=recorder)
    for typed in ("2d6", "2 2", "3d6", "1 2 3"):
        driver.type(typed)
    before = Driver.resume(TRAY, 12, None, driver.steps[:1])
    starts = 0
    real = Driver._start

    def counted(self: Driver) -> None:
        nonlocal starts
        starts += 1
        real(self)

    monkeypatch.setattr(Driver, "_start", counted)
    last3 = driver.steps[1:]
    taken = driver.rewind_to(1)
    assert taken == last3 and len(driver.steps) == 1
    assert starts == 1 and len(recorder.rewinds) == 1 and recorder.rewinds[0][0] == 1
    assert driver.snapshot() == before.snapshot() and driver.pending == before.pending


@pytest.mark.parametrize("index", [-1, 2, 5])
def test_rewind_to_a_step_the_log_does_not_have_changes_nothing(index: int) -> None:
    recorder = FakeRecorder()
    driver = Driver(TRAY, 12, recorder=recorder)
    driver.type("2d6")
    driver.type("2 2")
    with pytest.raises(BadAnswer, match="There is no step"):
        driver.rewind_to(index)
    assert len(driver.steps) == 2 and recorder.rewinds == []


def test_a_divergence_in_the_facts_alone_says_so() -> None:
    """The same words with another topic or other facts: the sentence does not quote the same
    question twice as if it differed."""
    logged = Roll(1, 6, "Region die", topic="g.p.region", data={"again": False})
    asked = Roll(1, 6, "Region die", topic="g.p.region", data={"again": True})
    said = departure(PromptDivergence(3, "Step 4: …", logged, asked))
    assert said == "the current rules ask “Roll 1d6: Region die” with other facts than the log has"


# -- the facts of the table a correction keeps ---------------------------------------------------

FACT_TOPICS = ("castells.resources.draw", "castells.saracens.destination", "castells.saracens.target")


def castells_to_a_battle_with_draws_after(seed: int) -> tuple[Driver, int] | None:
    """A Terra de Castells game played by the script until a battle die is followed by at
    least two bag draws; the driver and that die's step (None: not within 400 steps)."""
    from reliability.reliability_script import answer_one

    from companion import games

    driver = Driver(games.load("castells"), seed, {})
    while driver.pending is not None and len(driver.steps) < 400:
        answer_one(driver)
        rolls = [i for i, s in enumerate(driver.steps) if s.prompt.topic.startswith("castells.battle.roll")]
        for i in rolls:
            if sum(s.prompt.topic == FACT_TOPICS[0] for s in driver.steps[i + 1 :]) >= 2:
                return driver, i
    return None


def is_subsequence(part: list[Any], whole: list[Any]) -> bool:
    it = iter(whole)
    return all(any(x == y for y in it) for x in part)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 7, 8])
def test_a_correction_keeps_the_later_draws_and_saracen_moves_for_when_they_are_asked(seed: int) -> None:
    """Issue #32: "A correction keeps every answer that records a fact of the table — dice
    rolled, a token drawn from the bag, a card played, a Saracen move told — wherever the game
    asks the same kind of question again; it re-asks only decisions." A battle die corrected
    so the battle turns out otherwise: the decisions after it are asked again, and each later
    draw and Saracen move answers the game again, in the order it was made, as it asks them."""
    from reliability.reliability_script import answer_one

    found = castells_to_a_battle_with_draws_after(seed)
    assert found is not None
    driver, index = found
    old = list(driver.steps)
    roll = old[index].prompt
    assert isinstance(roll, Roll)
    other = [1] * roll.n if old[index].answer != [1] * roll.n else [6] * roll.n
    facts_before = [(s.prompt.topic, s.answer) for s in old[index + 1 :] if s.prompt.topic in FACT_TOPICS]
    report = driver.correct(index, other, "physical")
    used = [(s.prompt.topic, s.answer) for s in driver.steps[index + 1 :] if s.prompt.topic in FACT_TOPICS]
    filled = len(driver.take_filled())
    while driver.pending is not None and len(driver.steps) < len(old) + 200 and driver.ahead:
        answer_one(driver)
        now = driver.take_filled()
        filled += len(now)
        used += [(s.prompt.topic, s.answer) for s in now if s.prompt.topic in FACT_TOPICS]
    assert report.dropped and filled > 0  # the reuse stopped at a decision; facts came after it
    draws = [f for f in used if f[0] == FACT_TOPICS[0]]
    assert draws, "no draw made before the correction was used again"
    # Every fact used again is one made before, in the order made (a draw no longer possible,
    # the token gone, is passed over).
    assert is_subsequence(used, facts_before)


def test_a_correction_is_undone_whole_until_the_player_answers_again() -> None:
    """Issue #32: "A correction is itself undone by one ctrl+z, which restores the log exactly
    as before it." Offered while nothing but the app's own dice has been answered since."""
    driver = skirmish(SKIRMISH_ANSWERS[:6])
    before = state_tuple(driver)
    driver.correct(1, [2, 3], "player")
    last = driver.correction_to_undo()
    assert last is not None and last[0] == 1
    driver.restore(*last)
    assert state_tuple(driver) == before
    assert driver.correction_to_undo() is None  # taken back: nothing more to take back so
    driver.correct(1, [2, 3], "player")
    pending = driver.pending
    assert pending is not None
    if isinstance(pending, Roll):
        driver.roll()  # the app's own dice: the correction may still be taken back
        assert driver.correction_to_undo() is not None
    pending = driver.pending
    assert pending is not None and not isinstance(pending, Roll)
    driver.type(pending.options[0] if isinstance(pending, Choose) else "")
    assert driver.correction_to_undo() is None  # the player answered since


def test_a_log_written_before_a_rewording_resumes_with_the_words_of_now() -> None:
    """docs/design.md, "Prompts": a step is known by its topic, facts and answers, so a log
    whose sentences an engine has since reworded still resumes, to the same state, and each
    step then carries the question as it is asked now."""
    from companion.prompts import prompt_from_dict
    from companion.reconquista.game import GAME as RECONQUISTA
    from companion.reconquista.simulate import play

    live = play(3)
    old = []
    for step in live.steps[:200]:
        said = step.prompt.to_dict()
        for key in ("text", "why"):
            if key in said:
                said[key] = "Older words: " + said[key][::-1]
        old.append(dataclasses.replace(step, prompt=prompt_from_dict(said)))
    resumed = Driver.resume(RECONQUISTA, 3, None, old)
    again = Driver.resume(RECONQUISTA, 3, None, live.steps[:200])
    assert resumed.snapshot() == again.snapshot()
    assert [s.prompt for s in resumed.steps] == [s.prompt for s in again.steps]
    assert all("Older words" not in s.prompt.describe() for s in resumed.steps)
