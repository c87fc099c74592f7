"""Reconquista luck in game units: the hits of each battle roll against the hits expected.

A battle roll (topic ``reconquista.battle.roll``) logs the units that rolled, a die a unit in
the order listed; the hits they scored are ``combat.hits``, and the chance of each number of
hits before the dice fell is ``odds.hit_distribution``, both the rules the game plays by. The
player is the Christian side: its hits are its good luck, the others' hits its bad luck.
Sieges are not weighed here yet: their result is a comparison of two modified dice.
"""

from __future__ import annotations

from typing import Any

from companion.interface import RollLuck
from companion.reconquista import combat
from companion.reconquista.odds import hit_distribution
from companion.reconquista.state import SIDE_NAMES
from companion.reconquista.units import KIND_NAMES, Kind

_KIND_BY_NOUN = {noun: kind for kind, noun in KIND_NAMES.items()}


def roll_luck(topic: str, data: dict[str, Any], dice: list[int]) -> RollLuck | None:
    """The luck of one logged roll, or None for a roll that is not a battle's or whose facts
    cannot be read (a step logged before topics, a damaged one)."""
    if topic != "reconquista.battle.roll":
        return None
    nouns, side = data.get("units"), data.get("side")
    if not isinstance(nouns, list) or not isinstance(side, str) or side not in SIDE_NAMES:
        return None
    units: list[Kind] = []
    for noun in nouns:
        kind = _KIND_BY_NOUN.get(noun) if isinstance(noun, str) else None
        if kind is None:
            return None
        units.append(kind)
    if len(units) != len(dice) or not all(1 <= d <= 6 for d in dice):
        return None
    area, number = data.get("area"), data.get("round")
    where = (
        f"{area}, round {number}" if isinstance(area, str) and isinstance(number, int) else str(area or "")
    )
    return RollLuck(
        side=f"the {SIDE_NAMES[side]} side",
        mine=side == "christian",
        unit="hits",
        got=combat.hits(units, dice),
        dist=hit_distribution(units),
        where=where,
    )
