"""Terra de Castells luck in game units: the successes of each battle roll against those expected.

Every battle roll and reroll logs who rolled (``player``: a player's name, or the Saracens, the
side the app plays) and its dice; a die is a success on 5 or 6 ("A success = result of 5 or
6"), one chance in three, so n dice give binomial(n, 1/3) successes. The black superiority die
is a die like the others.
"""

from __future__ import annotations

from math import comb
from typing import Any

from companion.castells.state import SARACENS, SUCCESS
from companion.interface import RollLuck

#: The rolls of a battle: a side's first roll and its rerolls (free for the Saracens, paid for a player).
TOPICS = frozenset(
    {
        "castells.battle.roll",
        "castells.battle.paid_roll",
        "castells.saracens.roll",
        "castells.saracens.reroll",
    }
)
_P = (7 - SUCCESS) / 6


def roll_luck(topic: str, data: dict[str, Any], dice: list[int]) -> RollLuck | None:
    """The luck of one logged roll, or None for a roll that is no battle's or cannot be read."""
    who = data.get("player")
    if topic not in TOPICS or not isinstance(who, str) or not dice or not all(1 <= d <= 6 for d in dice):
        return None
    n = len(dice)
    castle = data.get("castle")
    return RollLuck(
        side="the Saracens" if who == SARACENS else who,
        mine=who != SARACENS,
        unit="successes",
        got=sum(1 for d in dice if d >= SUCCESS),
        dist=tuple(comb(n, k) * _P**k * (1 - _P) ** (n - k) for k in range(n + 1)),
        where=str(castle) if isinstance(castle, str) else "",
    )
