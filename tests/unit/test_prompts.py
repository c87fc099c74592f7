"""Tests of the prompts: how typed answers are read and checked, and how prompts are logged."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from companion.prompts import (
    BadAnswer,
    Choose,
    Enter,
    Prompt,
    Roll,
    Tell,
    answer_text,
    fits,
    plain_data,
    prompt_from_dict,
)


def assert_one_sentence(message: str) -> None:
    """A message for a person: one sentence, ending in a full stop, on one line."""
    assert message.endswith("."), message
    assert "\n" not in message, message
    # No sentence break inside: a '.', '!' or '?' followed by a space and a capital.
    assert not re.search(r"[.!?]\s+[A-Z]", message[:-1]), message


# -- Roll.parse ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3 5", [3, 5]),
        ("3,5", [3, 5]),
        ("3, 5", [3, 5]),
        ("  3   5  ", [3, 5]),
        ("35", [3, 5]),
        ("61", [6, 1]),
    ],
)
def test_roll_parse_2d6(text: str, expected: list[int]) -> None:
    assert Roll(2, 6).parse(text) == expected


def test_roll_parse_keeps_the_order_typed() -> None:
    assert Roll(3, 6).parse("623") == [6, 2, 3]


def test_roll_parse_two_digit_faces_need_a_separator() -> None:
    assert Roll(2, 10).parse("10 3") == [10, 3]


def test_roll_parse_d20_single_die() -> None:
    assert Roll(1, 20).parse("17") == [17]


def test_roll_parse_joined_digits_are_not_split_for_d10() -> None:
    # '13' on 2d10 is one number, not 1 and 3: the die count is wrong.
    with pytest.raises(BadAnswer) as info:
        Roll(2, 10).parse("13")
    assert "not 1." in str(info.value)
    assert_one_sentence(str(info.value))


@pytest.mark.parametrize(
    ("roll", "text", "bad"),
    [
        (Roll(2, 6), "0 3", "0"),
        (Roll(2, 6), "3 7", "7"),
        (Roll(1, 6), "7", "7"),
        (Roll(2, 6), "abc", "abc"),
        (Roll(2, 6), "3 x", "x"),
        (Roll(2, 6), "3 4 5", "3"),  # three dice where two are asked
        (Roll(2, 6), "4", "1"),  # one die where two are asked
        (Roll(2, 10), "11 3", "11"),
    ],
)
def test_roll_parse_rejects_with_one_sentence_naming_the_value(roll: Roll, text: str, bad: str) -> None:
    with pytest.raises(BadAnswer) as info:
        roll.parse(text)
    message = str(info.value)
    assert_one_sentence(message)
    assert bad in message


def test_roll_parse_wrong_count_says_how_many_are_needed() -> None:
    with pytest.raises(BadAnswer) as info:
        Roll(2, 6).parse("3 4 5")
    assert str(info.value) == "2d6 needs 2 dice, not 3."


@pytest.mark.parametrize(("roll", "text", "gives"), [(Roll(2, 6), "111", 3), (Roll(3, 6), "12", 2)])
def test_roll_parse_joined_digits_of_the_wrong_count_say_how_many_dice_they_give(
    roll: Roll, text: str, gives: int
) -> None:
    """'111' for 2d6 is three one-digit dice, one too many, not the number 111 read as one die."""
    with pytest.raises(BadAnswer) as info:
        roll.parse(text)
    assert str(info.value) == f"{roll.n} dice are rolled, and '{text}' gives {gives}."
    assert_one_sentence(str(info.value))


def test_roll_parse_empty_text_asks_for_the_dice() -> None:
    for text in ("", "   "):
        with pytest.raises(BadAnswer) as info:
            Roll(2, 6).parse(text)
        message = str(info.value)
        assert_one_sentence(message)
        assert "2 dice" in message


@pytest.mark.parametrize("text", ["3 ²", "٣ ٥"])
def test_roll_parse_unicode_digits_give_bad_answer(text: str) -> None:
    """Any text a person types gives BadAnswer (or dice), never another error."""
    try:
        result = Roll(2, 6).parse(text)
    except BadAnswer as exc:
        assert_one_sentence(str(exc))
    else:
        assert all(1 <= v <= 6 for v in result)


def test_bad_answer_is_a_value_error() -> None:
    assert issubclass(BadAnswer, ValueError)


# -- Roll.check ------------------------------------------------------------------


def test_roll_check_accepts_a_list_and_returns_a_list() -> None:
    assert Roll(2, 6).check((2, 4)) == [2, 4]


@pytest.mark.parametrize("value", [None, "3 5", [3, "5"], [True, 2], 3])
def test_roll_check_rejects_non_lists_of_ints(value: Any) -> None:
    with pytest.raises(BadAnswer) as info:
        Roll(2, 6).check(value)
    assert_one_sentence(str(info.value))


def test_roll_label_and_describe() -> None:
    roll = Roll(3, 8, "Fire")
    assert roll.label == "3d8"
    assert roll.describe() == "Roll 3d8: Fire"
    assert Roll(1, 6).describe() == "Roll 1d6"


# -- Choose ------------------------------------------------------------------------


def test_choose_parse_by_text_in_any_case() -> None:
    choose = Choose(["Attack", "Defend"])
    assert choose.parse("attack") == "Attack"
    assert choose.parse("DEFEND") == "Defend"
    assert choose.parse("  aTTack ") == "Attack"


def test_choose_parse_by_number_from_one() -> None:
    choose = Choose(["Attack", "Defend", "Retreat"])
    assert choose.parse("1") == "Attack"
    assert choose.parse("3") == "Retreat"


@pytest.mark.parametrize("text", ["0", "4", "flee", ""])
def test_choose_parse_rejects_other_text(text: str) -> None:
    choose = Choose(["Attack", "Defend", "Retreat"])
    with pytest.raises(BadAnswer) as info:
        choose.parse(text)
    message = str(info.value)
    assert_one_sentence(message)
    assert f"'{text}'" in message
    assert "Attack, Defend, Retreat" in message


def test_choose_parse_unicode_digit_gives_bad_answer() -> None:
    with pytest.raises(BadAnswer):
        Choose(["Attack", "Defend"]).parse("²")


def test_choose_check_wants_the_exact_option() -> None:
    choose = Choose(["Attack", "Defend"])
    assert choose.check("Attack") == "Attack"
    with pytest.raises(BadAnswer):
        choose.check("attack")
    with pytest.raises(BadAnswer):
        choose.check(1)


def test_choose_needs_options() -> None:
    with pytest.raises(ValueError):
        Choose([])


def test_choose_options_are_kept_as_strings_in_a_tuple() -> None:
    choose = Choose([1, 2])
    assert choose.options == ("1", "2")
    assert choose == Choose(("1", "2"))


# -- Enter ----------------------------------------------------------------------------


def test_enter_parse_matches_the_whole_pattern() -> None:
    enter = Enter("Your name", r"[A-Za-z]+", "Type letters only.")
    assert enter.parse("  Ada ") == "Ada"
    with pytest.raises(BadAnswer) as info:
        enter.parse("Ada1")
    assert str(info.value) == "Type letters only."


def test_enter_parse_takes_the_default_on_empty_text() -> None:
    enter = Enter("How many", r"\d+", "Type a number.", default="7")
    assert enter.parse("") == "7"
    assert enter.parse("   ") == "7"
    assert enter.parse("12") == "12"


def test_enter_parse_empty_without_default_is_rejected() -> None:
    enter = Enter("How many", r"\d+", "Type a number.")
    with pytest.raises(BadAnswer) as info:
        enter.parse("")
    assert str(info.value) == "Type a number."


def test_enter_check_rejects_non_text() -> None:
    with pytest.raises(BadAnswer):
        Enter("How many", r"\d+", "Type a number.").check(12)


# -- Tell ---------------------------------------------------------------------------------


def test_tell_takes_only_an_acknowledgement() -> None:
    tell = Tell("Move the army to Toledo.")
    assert tell.check(None) is None
    assert tell.parse("anything at all") is None
    assert tell.describe() == "Move the army to Toledo."
    with pytest.raises(BadAnswer) as info:
        tell.check("done")
    assert_one_sentence(str(info.value))


# -- logged form -------------------------------------------------------------------------

PROMPTS: list[Prompt] = [
    Roll(),
    Roll(3, 10, "Siege"),
    Choose(["Attack", "Defend"], "Stance"),
    Choose(["only"]),
    Tell("Remove one block."),
    Enter("What to roll", r"\d+d\d+", "Type NdS.", "2d6"),
    Enter("Name", r".+", "Type a name."),
]


@pytest.mark.parametrize("prompt", PROMPTS, ids=lambda p: f"{p.kind}")
def test_prompt_from_dict_round_trips(prompt: Prompt) -> None:
    data = prompt.to_dict()
    assert data["kind"] == prompt.kind
    rebuilt = prompt_from_dict(data)
    assert rebuilt == prompt
    assert type(rebuilt) is type(prompt)
    assert rebuilt.to_dict() == data


def test_every_kind_is_covered_by_the_round_trip() -> None:
    assert {p.kind for p in PROMPTS} == {"roll", "choose", "tell", "enter"}


@pytest.mark.parametrize(
    "data", [{"kind": "shout"}, {}, {"kind": None}, {"kind": "ROLL", "n": 1, "sides": 6}]
)
def test_prompt_from_dict_rejects_unknown_kinds(data: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="unknown prompt kind"):
        prompt_from_dict(data)


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "roll", "n": 2},
        {"kind": "choose"},
        {"kind": "tell"},
        {"kind": "enter", "why": "x", "pattern": ".*"},
    ],
)
def test_prompt_from_dict_rejects_missing_fields(data: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="lacks a field"):
        prompt_from_dict(data)


@pytest.mark.parametrize("text", ["-1", "3 -1", "3+4"])
def test_roll_parse_refuses_signs(text: str) -> None:
    """A minus or plus is not a separator: '-1' on a d6 is a mistake, not a 1."""
    with pytest.raises(BadAnswer) as err:
        Roll(2 if " " in text or "+" in text else 1, 6).parse(text)
    assert "not a die face" in str(err.value)


def test_answer_text_reads_as_the_log_shows_it() -> None:
    """One writing of an answer for `companion show` and the exports: dice by spaces, a choice as
    it is, an acknowledged instruction as the caller says (`show` writes 'done', CSV nothing)."""
    assert answer_text([3, 5]) == "3 5"
    assert answer_text("Oviedo") == "Oviedo"
    assert answer_text(None) == ""
    assert answer_text(None, none="done") == "done"


# -- what a prompt is: topic, data, rule and reason ------------------------------------------

STRUCTURED = [
    Roll(1, 6, "Region die", topic="game.part.region", data={"again": True, "candidates": ["A", "B"]}),
    Choose(["a", "b"], "Which?", topic="game.part.pick", data={"options": ["x", "y"]}, rule="Phase 1"),
    Tell("Move it.", topic="game.part.move", data={"from": "A"}, rule="Phase 5", reason="the highest number"),
    Enter("Name", r".+", "Type a name.", topic="game.setup.name", data={"seat": 1}),
]


@pytest.mark.parametrize("prompt", STRUCTURED, ids=lambda p: f"{p.kind}")
def test_topic_data_rule_and_reason_are_logged_and_read_back(prompt: Prompt) -> None:
    logged = prompt.to_dict()
    assert logged["topic"] == prompt.topic and logged["data"] == prompt.data
    rebuilt = prompt_from_dict(json.loads(json.dumps(logged)))
    assert rebuilt == prompt
    assert (rebuilt.rule, rebuilt.reason) == (prompt.rule, prompt.reason)


def test_a_prompt_without_structure_logs_as_before() -> None:
    assert Roll(2, 6, "Morale").to_dict() == {"kind": "roll", "n": 2, "sides": 6, "why": "Morale"}
    assert Tell("Go.").to_dict() == {"kind": "tell", "text": "Go."}


def test_data_with_tuples_fits_the_same_prompt_read_from_the_log() -> None:
    """The log writes tuples as lists and keys as text: the prompt an engine yields fits the
    one read back from the log."""
    live = Tell("Go.", topic="g.p.go", data={"areas": ("A", "B"), "n": 2, "faces": {1: "A"}})
    logged = prompt_from_dict(json.loads(json.dumps(live.to_dict())))
    assert logged.data == {"areas": ["A", "B"], "n": 2, "faces": {"1": "A"}}
    assert fits(logged, live)
    assert not fits(
        prompt_from_dict(json.loads(json.dumps(Tell("Go.", topic="g.p.go", data={"n": 3}).to_dict()))), live
    )
    hash(live)  # a prompt stays usable as a key although its data is a dict


def test_data_must_be_json_to_be_logged() -> None:
    """A value JSON does not hold is refused when the step is logged (an engine's mistake,
    which the whole-game tests would find): never written as something else."""
    with pytest.raises(TypeError):
        Tell("Go.", topic="g.p.go", data={"odds": float("nan")}).to_dict()
    with pytest.raises(TypeError):
        Tell("Go.", topic="g.p.go", data={"when": object()}).to_dict()
    assert plain_data({"a": (1, {"b": (2,)}), 3: None}) == {"a": [1, {"b": [2]}], "3": None}


def test_topic_and_data_are_part_of_the_question_rule_and_reason_are_not() -> None:
    base = Roll(1, 6, "Die", topic="g.p.die", data={"area": "A"}, rule="Phase 1", reason="r")
    assert base == Roll(1, 6, "Die", topic="g.p.die", data={"area": "A"}, rule="Phase 2", reason="other")
    assert base != Roll(1, 6, "Die", topic="g.p.other", data={"area": "A"})
    assert base != Roll(1, 6, "Die", topic="g.p.die", data={"area": "B"})


def test_a_logged_step_fits_the_prompt_asked_by_topic_and_data_or_if_legacy_by_wording() -> None:
    asked = Choose(["a", "b"], "Which?", topic="g.p.pick", data={"options": ["x", "y"]})
    assert fits(asked, asked)
    assert not fits(Choose(["a", "b"], "Which?", topic="g.p.other"), asked)
    assert not fits(Choose(["a", "b"], "Which?", topic="g.p.pick", data={"options": ["y", "x"]}), asked)
    legacy = Choose(["a", "b"], "Which?", topic="g.legacy.choose", legacy=True)
    assert fits(legacy, asked)
    # A legacy step still needs the same wording.
    assert not fits(Choose(["a", "c"], "Which?", topic="g.legacy.choose", legacy=True), asked)
    assert not fits(Roll(1, 6, "Which?", topic="g.legacy.roll", legacy=True), asked)


def test_a_logged_step_fits_a_prompt_that_gives_more_facts_but_none_other() -> None:
    """A game that learns to give a fact more with a question (the Phase 4 menus' "done", so
    that d finishes them) asks the same question: the steps logged before still answer it. A
    fact changed or gone is another question."""
    asked = Choose(["a", "b"], "Which?", topic="g.p.pick", data={"regions": ["A"], "done": True})
    then = prompt_from_dict(
        json.loads(
            json.dumps(Choose(["a", "b"], "Which?", topic="g.p.pick", data={"regions": ("A",)}).to_dict())
        )
    )
    assert fits(then, asked)
    assert not fits(asked, then)  # a fact the game no longer gives
    assert not fits(Choose(["a", "b"], "Which?", topic="g.p.pick", data={"regions": ["B"]}), asked)
    assert not fits(Choose(["a", "c"], "Which?", topic="g.p.pick", data={"regions": ["A"]}), asked)


def test_a_question_is_known_by_its_topic_facts_and_answers_not_its_wording() -> None:
    """Issue #34, part 5: "Replay compares a step's topic and data, not its English text, so an
    engine may reword any sentence without a rules-version bump." What the answer must be stays
    part of the question: a choice's options, the dice, a text's pattern and default."""
    tell = Tell("Move the army.", topic="g.p.move", data={"to": "León"})
    assert fits(tell, Tell("Now move the army to León.", topic="g.p.move", data={"to": "León"}))
    assert not fits(tell, Tell("Move the army.", topic="g.p.move", data={"to": "Toledo"}))
    roll = Roll(2, 6, "Siege of León", topic="g.p.siege", data={"area": "León"})
    assert fits(
        roll,
        Roll(2, 6, "León: the besieger's die, then the defender's", topic="g.p.siege", data={"area": "León"}),
    )
    assert not fits(roll, Roll(1, 6, "Siege of León", topic="g.p.siege", data={"area": "León"}))
    choose = Choose(["Asturias", "Aragón"], "Which region?", topic="g.p.region")
    assert fits(choose, Choose(["Asturias", "Aragón"], "Phase 4: which region moves?", topic="g.p.region"))
    assert not fits(choose, Choose(["Aragón", "Asturias"], "Which region?", topic="g.p.region"))
    enter = Enter("Army points?", r"\d+", "a number", default="3", topic="g.p.army")
    assert fits(enter, Enter("How many army points?", r"\d+", "whole points", default="3", topic="g.p.army"))
    assert not fits(enter, Enter("Army points?", r"\d+", "a number", default="4", topic="g.p.army"))
    # Without a topic, the wording is all there is to know a question by.
    assert not fits(Tell("Move the army."), Tell("Now move the army."))
    assert not fits(Roll(1, 6, "roll 1"), Roll(1, 6, "roll 2"))
