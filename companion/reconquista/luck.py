"""Reconquista luck in game units: the hits of each battle roll, and each siege roll won,
against what they would give on average.

A battle roll (topic ``reconquista.battle.roll``) logs the units that rolled, a die a unit in
the order listed; the hits they scored are ``combat.hits``, and the chance of each number of
hits before the dice fell is ``odds.hit_distribution``, both the rules the game plays by. A
siege roll (``reconquista.sieges.roll``) logs the besieger's die then the defender's and both
modifiers; the besieger wins it if its result beats the defender's ("If the besieger beats
the defender's roll"), a chance counted over the 36 pairs of dice. A roll logged before its
modifiers were is weighed with them worked out from the forces it logged (``siege_modifiers``).
The player is the Christian side: its hits and sieges won are its good luck, the others' its
bad luck.
"""

from __future__ import annotations

from typing import Any

from companion.interface import RollLuck
from companion.reconquista import combat
from companion.reconquista.battle import SIEGE_ROLL_TOPIC
from companion.reconquista.odds import hit_distribution
from companion.reconquista.state import SIDE_NAMES
from companion.reconquista.units import KIND_NAMES, Kind

_KIND_BY_NOUN = {noun: kind for kind, noun in KIND_NAMES.items()}


def roll_luck(topic: str, data: dict[str, Any], dice: list[int]) -> RollLuck | None:
    """The luck of one logged roll, or None for a roll that is not a battle's or a siege's or
    whose facts cannot be read (a step logged before topics, a damaged one)."""
    if topic == SIEGE_ROLL_TOPIC:
        return siege_luck(data, dice)
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


def _force(counts: object) -> list[Kind] | None:
    """A force as a prompt's data logs it ({"army": 2, "garrison": 1}), or None."""
    if not isinstance(counts, dict):
        return None
    units: list[Kind] = []
    for noun, n in counts.items():
        kind = _KIND_BY_NOUN.get(noun)
        if kind is None or type(n) is not int or not 0 <= n <= 99:
            return None
        units += [kind] * n
    return units


def _siege_modifiers(data: dict[str, Any]) -> tuple[int, int] | None:
    """The besieger's and the defender's modifiers of a siege roll: as logged, or worked out
    from the forces, walls and El Cid it logged; None if neither can be read."""
    logged = data.get("besieger_modifier"), data.get("defender_modifier")
    if all(type(m) is int for m in logged):
        return logged  # type: ignore[return-value]
    besiegers, defenders = _force(data.get("besieger_units")), _force(data.get("defender_units"))
    walls, fortress, cid = data.get("walls"), data.get("fortress"), data.get("el_cid")
    if (
        besiegers is None
        or defenders is None
        or walls not in ("city", "fortress")
        or type(fortress) is not bool
    ):
        return None
    role: combat.SiegeSide | None = (
        None
        if cid is None
        else "besieger"
        if cid == data["besieger"]
        else "defender"
        if cid == data["defender"]
        else None
    )
    mods = combat.siege_modifiers(besiegers, defenders, city=walls == "city", fortress=fortress, el_cid=role)
    return mods.besieger_total, mods.defender_total


def siege_luck(data: dict[str, Any], dice: list[int]) -> RollLuck | None:
    """One siege roll: won by the besieger (1) or not (0: a tie or the defender's roll higher),
    against the chance of winning it over the 36 pairs of dice."""
    besieger, defender = data.get("besieger"), data.get("defender")
    if not (isinstance(besieger, str) and isinstance(defender, str)) or len(dice) != 2:
        return None
    if besieger not in SIDE_NAMES or defender not in SIDE_NAMES:
        return None
    if not all(1 <= d <= 6 for d in dice):
        return None
    mods = _siege_modifiers(data)
    if mods is None:
        return None
    b_mod, d_mod = mods
    won = sum(1 for b in range(1, 7) for d in range(1, 7) if b + b_mod > d + d_mod) / 36
    area, number = data.get("area"), data.get("roll")
    where = f"siege of {area}" if isinstance(area, str) else "a siege"
    if isinstance(number, int) and number > 1:
        where += f", roll {number}"
    return RollLuck(
        side=f"the {SIDE_NAMES[besieger]} side",
        mine=besieger == "christian",
        unit="sieges won",
        got=int(dice[0] + b_mod > dice[1] + d_mod),
        dist=(1 - won, won),
        where=where,
    )
