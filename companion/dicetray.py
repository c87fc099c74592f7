"""The Dice tray: a session of free rolls, each logged with its source.

It is the simplest game the driver runs: ask what to roll (NdS and a label),
ask for the dice, record them, and again, until the player ends the session.
Its quick picks live in ``data/dice_tray.toml``.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field, field_validator

from companion.datafiles import load_shipped
from companion.interface import Asks, Procedure
from companion.prompts import BadAnswer, Enter, Roll

if TYPE_CHECKING:
    from companion.interface import Step

MAX_DICE = 20
MAX_SIDES = 100
_N = r"(?:[1-9]|1[0-9]|20)"
_S = r"(?:[2-9]|[1-9][0-9]|100)"
#: NdS, then an optional label; or the word 'end'.
SPEC_PATTERN = rf"(?i)(?:{_N}\s*d\s*{_S}(?:\s+\S.*)?|end)"
SPEC_HINT = (
    f"Type the dice as NdS and a label, like '2d6 Attack': 1 to {MAX_DICE} dice "
    f"of 2 to {MAX_SIDES} sides (or 'end' to end the session)."
)
_SPEC = re.compile(r"(?i)\s*(\d+)\s*d\s*(\d+)\s*(.*)")
#: The tray's two prompts: the spec asked for, and the roll of it (data: the label it is logged under).
SPEC_TOPIC = "dice.tray.spec"
ROLL_TOPIC = "dice.tray.roll"


class Preset(BaseModel):
    dice: str = Field(description="NdS, e.g. 2d6")
    label: str

    @field_validator("dice")
    @classmethod
    def _dice(cls, v: str) -> str:
        if not re.fullmatch(rf"(?i){_N}d{_S}", v.strip()):
            raise ValueError(f"'{v}' is not NdS with 1-{MAX_DICE} dice of 2-{MAX_SIDES} sides")
        return v.strip().lower()


class TrayData(BaseModel):
    preset: list[Preset] = Field(max_length=9)


@cache
def presets() -> list[Preset]:
    """The quick picks shipped in data/dice_tray.toml."""
    return load_shipped("dice_tray.toml", TrayData).preset


def parse_spec(text: str) -> tuple[int, int, str]:
    """'2d6 Attack' -> (2, 6, 'Attack'); the text must already match SPEC_PATTERN."""
    m = _SPEC.fullmatch(text)
    if m is None:
        raise ValueError(f"not a dice spec: {text!r}")
    n, sides, label = int(m[1]), int(m[2]), m[3].strip()
    return n, sides, label or f"{n}d{sides}"


def roll_for(text: str) -> Roll:
    """The Roll a dice spec asks for; BadAnswer with SPEC_HINT if it is not one."""
    text = text.strip()
    if text.casefold() == "end" or not re.fullmatch(SPEC_PATTERN, text):
        raise BadAnswer(SPEC_HINT)
    n, sides, label = parse_spec(text)
    return Roll(n, sides, label, topic=ROLL_TOPIC, data={"label": label})


@dataclass
class TrayRoll:
    label: str
    n: int
    sides: int
    values: list[int]

    @property
    def total(self) -> int:
        return sum(self.values)


#: The rolls a snapshot lists, the newest: the snapshot is digested and stored after every
#: step, so listing every roll made a session of n rolls cost n² (30,000 steps: 10 minutes
#: to replay); 50 still cost 7 s, 5 cost 2 s (bench/long_sessions.py). The chain digest
#: stands for all of them; the screens read the rolls from the state itself.
SNAPSHOT_ROLLS = 5


@dataclass
class TrayState:
    rolls: list[TrayRoll] = field(default_factory=list)
    next_spec: str = "2d6"
    ended: bool = False
    chain: str = ""  # a digest of every roll so far, each folded into the last

    def add(self, roll: TrayRoll) -> None:
        self.rolls.append(roll)
        # repr, not json.dumps: a third of the cost, and the label's quotes keep it unambiguous
        link = repr((self.chain, roll.label, roll.n, roll.sides, roll.values))
        self.chain = hashlib.blake2b(link.encode(), digest_size=8).hexdigest()


class DiceTray:
    """The Game interface for the Dice tray."""

    id = "dice"
    title = "Dice tray"
    #: 2: the snapshot lists the newest rolls and a chain digest, not every roll.
    rules_version = 2
    #: No corrections by hand, and no board to put back after an undo.
    apply_edit = None
    board_changes = None
    earlier_rules = None  # its version 1 logs replay as far as they fit version 2
    #: Any dice NdS within the limits the spec allows (``SPEC_PATTERN``).
    asks = Asks(
        frozenset({SPEC_TOPIC, ROLL_TOPIC}),
        patterns=frozenset({SPEC_PATTERN}),
        sides=frozenset(range(2, MAX_SIDES + 1)),
        most_dice=MAX_DICE,
    )

    @staticmethod
    def undo_from(steps: Sequence[Step], automatic_dice: bool) -> int | None:
        """One ctrl+z takes back the last roll, with a spec typed after it: the tray's log is its rolls."""
        return next((i for i in range(len(steps) - 1, -1, -1) if isinstance(steps[i].prompt, Roll)), None)

    def new_state(self, seed: int, config: dict[str, Any]) -> TrayState:
        presets()  # the quick picks are the tray's data file: a broken one is found here (cached)
        return TrayState()

    def procedure(self, state: TrayState) -> Procedure:
        while True:
            text = yield Enter(
                "What to roll: dice and a label",
                SPEC_PATTERN,
                SPEC_HINT,
                state.next_spec,
                topic=SPEC_TOPIC,
                data={"rolls": len(state.rolls)},
            )
            if text.casefold() == "end":
                state.ended = True
                return self.summary(state)
            roll = roll_for(text)
            values = yield roll
            label = str(roll.data["label"])
            state.add(TrayRoll(label, roll.n, roll.sides, list(values)))
            state.next_spec = f"{roll.n}d{roll.sides} {label}"

    def snapshot(self, state: TrayState) -> dict[str, Any]:
        """The count of rolls, the chain digest of all of them, and the newest SNAPSHOT_ROLLS."""
        return {
            "count": len(state.rolls),
            "chain": state.chain,
            "rolls": [
                {"label": r.label, "n": r.n, "sides": r.sides, "values": r.values}
                for r in state.rolls[-SNAPSHOT_ROLLS:]
            ],
            "next_spec": state.next_spec,
            "ended": state.ended,
        }

    def where(self, state: TrayState) -> tuple[int | None, str | None]:
        return None, None

    def summary(self, state: TrayState) -> str:
        count = len(state.rolls)
        said = f"{count} roll" + ("" if count == 1 else "s")
        return f"ended after {said}" if state.ended else said


GAME = DiceTray()
