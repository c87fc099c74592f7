"""The Dice tray's engine (companion/dicetray.py): a session asks for the next roll's dice as
typed ("2d6 Attack"; an empty entry rolls the last ones again), rolls them and logs each roll
under its label, and the shell's undo takes back the last roll.

Its two prompts say what they are: the Enter asking for the next roll (``dice.tray.spec``,
data: the rolls made so far) and the Roll of it (``dice.tray.roll``, data: the label it is
logged under), so the screens and the exports need not read the Roll's wording to know its
label; a logged roll reads back, and replays, with its topic and label."""

from __future__ import annotations

import pytest

from companion import dicetray
from companion.driver import Driver
from companion.prompts import Enter, Roll, prompt_from_dict


@pytest.mark.parametrize(
    ("typed", "n", "sides", "label"),
    [
        ("2d6 Attack", 2, 6, "Attack"),
        ("3D8   Fire ball ", 3, 8, "Fire ball"),
        ("1d20", 1, 20, "1d20"),  # no label typed: the roll is logged as its dice
    ],
)
def test_the_roll_carries_the_label_it_is_logged_under(typed: str, n: int, sides: int, label: str) -> None:
    d = Driver(dicetray.GAME, 3)
    d.type(typed)
    roll = d.pending
    assert isinstance(roll, Roll) and (roll.n, roll.sides) == (n, sides)
    assert roll.topic == dicetray.ROLL_TOPIC == "dice.tray.roll"
    assert roll.data == {"label": label}
    assert roll == dicetray.roll_for(typed)  # what the screen builds to check a typed spec
    d.roll()
    assert d.state.rolls[-1].label == label
    assert d.state.next_spec == f"{n}d{sides} {label}"


def test_the_spec_question_counts_the_rolls_made() -> None:
    d = Driver(dicetray.GAME, 3)
    counts = []
    for spec in ("2d6 Attack", "", "1d20 Save"):
        asked = d.pending
        assert isinstance(asked, Enter) and asked.topic == dicetray.SPEC_TOPIC == "dice.tray.spec"
        counts.append(asked.data["rolls"])
        d.type(spec)
        d.roll()
    assert counts == [0, 1, 2]
    # An empty entry took the last spec: the same label again.
    assert [r.label for r in d.state.rolls] == ["Attack", "Attack", "Save"]


def test_a_logged_roll_reads_back_with_its_topic_and_label() -> None:
    d = Driver(dicetray.GAME, 3)
    d.type("4d6 Stats")
    d.roll()
    logged = prompt_from_dict(d.steps[1].prompt.to_dict())
    assert logged == d.steps[1].prompt and logged.data == {"label": "Stats"}
    again = Driver.resume(dicetray.GAME, 3, {}, d.steps)
    assert [s.prompt for s in again.steps] == [s.prompt for s in d.steps]
    assert not any(getattr(s.prompt, "legacy", False) for s in again.steps)


def test_the_trays_undo_takes_back_the_last_roll_and_what_was_typed_after_it() -> None:
    """Game.undo_from, the shell's ctrl+z: the tray's log is its rolls, so the last roll goes,
    with a spec typed after it; a log with no roll has nothing to take back."""
    d = Driver(dicetray.GAME, 3)
    assert dicetray.GAME.undo_from(d.steps, False) is None
    d.type("2d6 Attack")
    assert dicetray.GAME.undo_from(d.steps, False) is None  # a spec alone is no roll
    d.roll()
    d.type("1d20 Save")
    assert [type(s.prompt).__name__ for s in d.steps] == ["Enter", "Roll", "Enter"]
    assert dicetray.GAME.undo_from(d.steps, False) == 1
