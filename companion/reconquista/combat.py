"""Reconquista battles and sieges: pure arithmetic on forces given as lists of ``units.Kind``.

A force is a list of unit kinds; the order matters only to match dice to units
(die i is rolled by unit i). Nothing here knows the board or whose side a unit is
on: the caller (the state engine or the calculators) says who attacks, whether
there is a city, who has El Cid. Every reading of the rulebook made here is
written down in docs/rules-notes.md ("Reconquista: battles and sieges").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from companion.reconquista.units import (
    ARMY_KINDS,
    CASUALTY_ORDER,
    HIT_ON,
    SIEGE_ATTACK,
    SIEGE_DEFENCE,
    Kind,
    plural,
)

Side = Literal["attacker", "defender"]
SiegeSide = Literal["besieger", "defender"]
RoundOutcome = Literal[
    "both_destroyed",
    "defender_destroyed",
    "attacker_destroyed",
    "attacker_retreats",
    "defender_retreats",
    "defender_into_city",
    "continue",
]
SiegeOutcome = Literal["besieger", "defender", "tie"]
SiegeResult = Literal["surrendered", "captured", "sacked", "besieger_retreats", "continue", "defender_holds"]


_RANK = {kind: i for i, kind in enumerate(CASUALTY_ORDER)}

#: El Cid's siege bonus ("+2 in siege", Quick Reference, random event 8).
EL_CID_SIEGE = 2


# -- battle ----------------------------------------------------------------------------------


def battle_or_siege(defenders: Sequence[Kind], city_or_fortress: bool, *, v2: bool = False) -> bool:
    """True if entering the area gives battle, False if the movers stop to besiege.

    "If the enemy area has a City and / or Fortress, then there may be a battle - this
    only happens if there is more than one enemy unit (Garrison or Army) and at least
    one is an army (Rebels are not armies). [...] If the enemy Area has no City or
    Fortress then there will be a battle." (Phase 4: Movement of Armies) Every unit counts
    towards "more than one"; only an army of some kind is "an army": not a Rebel, nor a
    Military Order, a counter of its own ("The Counters": Armies, Rebels, Military Orders)
    (docs/rules-notes.md, battles reading 1). ``v2``: as rules version 2 read it, a Military
    Order counting as an army."""
    if not city_or_fortress:
        if not defenders:
            raise ValueError("An area with no city, no fortress and no enemy unit holds no enemy to fight.")
        return True
    armies = ARMY_KINDS | {Kind.ORDER} if v2 else ARMY_KINDS
    return len(defenders) > 1 and any(kind in armies for kind in defenders)


def _check_dice(who: str, dice: Sequence[int]) -> None:
    for die in dice:
        # bool is an int in Python; a die is not.
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
            raise ValueError(f"The {who} rolled {die!r}, which is not a die: a die shows 1 to 6.")


def hits(units: Sequence[Kind], dice: Sequence[int], *, who: str = "units") -> int:
    """The hits scored: die i, rolled by unit i, hits if it reaches that kind's to-hit face."""
    if len(dice) != len(units):
        raise ValueError(
            f"The {who} need {len(units)} {'die' if len(units) == 1 else 'dice'}, one per unit "
            f"in the order the units are listed, not {len(dice)}."
        )
    _check_dice(who, dice)
    return sum(1 for kind, die in zip(units, dice, strict=True) if die >= HIT_ON[kind])


def casualty_indices(units: Sequence[Kind], n: int) -> list[int]:
    """Positions of the units lost to n hits, by the casualty order (never more than the units)."""
    if n < 0:
        raise ValueError(f"A force cannot take {n} casualties; the number of hits is never negative.")
    # Among units of the same kind the last listed goes first: any choice gives the same kinds.
    by_priority = sorted(range(len(units)), key=lambda i: (_RANK[units[i]], -i))
    return sorted(by_priority[: min(n, len(units))])


def remove_casualties(units: Sequence[Kind], n: int) -> list[Kind]:
    """The survivors of n hits, in their original relative order (units.CASUALTY_ORDER)."""
    lost = set(casualty_indices(units, n))
    return [kind for i, kind in enumerate(units) if i not in lost]


def first_striker(mountain: bool, el_cid: Side | None, first_round: bool) -> Side | None:
    """The side that rolls and removes its hits first this round, or None if simultaneous.

    "Normally, this occurs simultaneously for both sides, except in mountainous Areas,
    where the enemy forces roll to hit first, or if one side has El Cid" (Battle); the
    mountain counts in the first round only ("this time the defenders do not hit first
    in a mountainous area"), El Cid every round and over the mountain (docs/design.md).
    """
    if el_cid is not None:
        return el_cid
    return "defender" if mountain and first_round else None


def round_outcome(
    attacker_hits: int, defender_hits: int, attackers_left: int, defenders_left: int, *, city: bool
) -> RoundOutcome:
    """What a round of battle leads to, from the hits scored and the units left on each side."""
    if not attackers_left and not defenders_left:
        return "both_destroyed"
    # "If one side completely eliminates the other, it does not need to retreat,
    # even if it did not win the battle."
    if not defenders_left:
        return "defender_destroyed"
    if not attackers_left:
        return "attacker_destroyed"
    if defender_hits > attacker_hits:
        return "attacker_retreats"
    if attacker_hits > defender_hits:
        return "defender_into_city" if city else "defender_retreats"
    return "defender_into_city" if city else "continue"


@dataclass(frozen=True)
class RoundResult:
    """One round of battle: hits scored, units lost and left on each side, and what follows."""

    attacker_hits: int
    defender_hits: int
    attacker_survivors: tuple[Kind, ...]
    defender_survivors: tuple[Kind, ...]
    attacker_losses: tuple[Kind, ...]
    defender_losses: tuple[Kind, ...]
    first: Side | None
    result: RoundOutcome


def _split(units: Sequence[Kind], n: int) -> tuple[tuple[Kind, ...], tuple[Kind, ...]]:
    lost = set(casualty_indices(units, n))
    kept = tuple(k for i, k in enumerate(units) if i not in lost)
    gone = tuple(k for i, k in enumerate(units) if i in lost)
    return kept, gone


def battle_round(
    attackers: Sequence[Kind],
    defenders: Sequence[Kind],
    attacker_dice: Sequence[int],
    defender_dice: Sequence[int],
    *,
    city: bool,
    first: Side | None,
) -> RoundResult:
    """Resolve one round of battle with the dice given (Battle).

    ``city``: the defenders hold a city in the area they can retreat into. ``first``:
    the side that rolls and removes its hits first (see ``first_striker``); the other
    side then rolls only with its survivors, so it gives one die per survivor.
    """
    if not attackers or not defenders:
        raise ValueError("A battle needs at least one unit on each side.")
    if first is None:
        a_hits = hits(attackers, attacker_dice, who="attackers")
        d_hits = hits(defenders, defender_dice, who="defenders")
        a_left, a_lost = _split(attackers, d_hits)
        d_left, d_lost = _split(defenders, a_hits)
    elif first == "defender":
        d_hits = hits(defenders, defender_dice, who="defenders")
        a_left, a_lost = _split(attackers, d_hits)
        _check_survivor_dice("attackers", "defenders", attackers, a_left, attacker_dice)
        a_hits = hits(a_left, attacker_dice, who="attackers")
        d_left, d_lost = _split(defenders, a_hits)
    elif first == "attacker":
        a_hits = hits(attackers, attacker_dice, who="attackers")
        d_left, d_lost = _split(defenders, a_hits)
        _check_survivor_dice("defenders", "attackers", defenders, d_left, defender_dice)
        d_hits = hits(d_left, defender_dice, who="defenders")
        a_left, a_lost = _split(attackers, d_hits)
    else:
        raise ValueError(f"The first striker is 'attacker', 'defender' or nobody, not {first!r}.")
    result = round_outcome(a_hits, d_hits, len(a_left), len(d_left), city=city)
    return RoundResult(a_hits, d_hits, a_left, d_left, a_lost, d_lost, first, result)


def _check_survivor_dice(
    who: str, striker: str, units: Sequence[Kind], left: Sequence[Kind], dice: Sequence[int]
) -> None:
    if len(dice) != len(left):
        raise ValueError(
            f"The {who} need {len(left)} {'die' if len(left) == 1 else 'dice'}, one per unit left "
            f"after the {striker} struck first ({len(units) - len(left)} of {len(units)} lost), "
            f"not {len(dice)}."
        )


# -- siege -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Modifier:
    """One line of a side's siege modifier: what it is for and how much it adds."""

    label: str
    amount: int


@dataclass(frozen=True)
class SiegeModifiers:
    """Both sides' siege modifiers, itemised; a side's modifier is the sum of its lines."""

    besieger: tuple[Modifier, ...]
    defender: tuple[Modifier, ...]

    @property
    def besieger_total(self) -> int:
        return sum(m.amount for m in self.besieger)

    @property
    def defender_total(self) -> int:
        return sum(m.amount for m in self.defender)


def arithmetic(die: int, lines: Sequence[Modifier], total: int) -> str:
    """A side's siege sum written out: '4 (die) + 6 (3 armies) + 2 (El Cid) = 12', a
    fortress shown as '[ ... ] x 2 (fortress)'."""
    fortress = bool(lines) and lines[-1].label.startswith("fortress")
    items = lines[:-1] if fortress else lines
    parts = " + ".join(f"{m.amount} ({m.label})" for m in items) or "0"
    if fortress:
        return f"{die} (die) + [{parts}] x 2 (fortress) = {total}"
    return f"{die} (die) + {parts} = {total}" if items else f"{die} (die) = {total}"


def dice_by_unit(units: Sequence[Kind], dice: Sequence[int]) -> str:
    """Each die with the unit that rolled it and whether it hit: 'A 5 hit, A 3, G 4'."""
    return ", ".join(
        f"{k.value} {d}" + (" hit" if d >= HIT_ON[k] else "") for k, d in zip(units, dice, strict=False)
    )


def _unit_lines(units: Sequence[Kind], bonus: dict[Kind, int]) -> list[Modifier]:
    counts: dict[Kind, int] = {}
    for kind in units:
        counts[kind] = counts.get(kind, 0) + 1
    return [Modifier(plural(kind, n), n * bonus[kind]) for kind, n in counts.items()]


def siege_modifiers(
    besiegers: Sequence[Kind],
    defenders: Sequence[Kind],
    *,
    city: bool,
    fortress: bool,
    el_cid: SiegeSide | None = None,
) -> SiegeModifiers:
    """The itemised modifiers of a siege roll (Phase 6: Resolve Sieges; docs/design.md "Siege modifiers").

    Besieger: +1 a Garrison or Rebel, +2 an army of any kind, +3 a Military Order, +2
    El Cid. Defender: +1 the city (only if there is one), +1 a Garrison or Rebel, +2 an
    army or Military Order, +2 El Cid; all of it doubled by a Fortress, shown as a last
    line worth the undoubled sum. El Cid counts only while his side has a unit.
    """
    attack = _unit_lines(besiegers, SIEGE_ATTACK)
    if el_cid == "besieger" and besiegers:
        attack.append(Modifier("El Cid", EL_CID_SIEGE))
    defence = [Modifier("city", 1)] if city else []
    defence += _unit_lines(defenders, SIEGE_DEFENCE)
    if el_cid == "defender" and defenders:
        defence.append(Modifier("El Cid", EL_CID_SIEGE))
    if fortress:
        # "Double the modifier if a Fortress is present": the whole defender modifier.
        defence.append(Modifier("fortress (doubles the defence)", sum(m.amount for m in defence)))
    return SiegeModifiers(tuple(attack), tuple(defence))


@dataclass(frozen=True)
class SiegeRoll:
    """One roll of a siege and what follows from it.

    ``outcome`` is who won the roll ('besieger' also when the place surrendered
    without a roll); ``result`` what it means for the siege: 'surrendered' (taken,
    any fortress kept), 'captured' (won by the roll, the fortress destroyed),
    'sacked' (won with an even result, die and modifiers: the city destroyed too), 'besieger_retreats',
    'continue' (a tie: roll again with the survivors and ``after_tie=True``) or
    'defender_holds' (a tie left the besiegers with nobody).
    """

    besieger_die: int | None
    defender_die: int | None
    besieger_total: int | None
    defender_total: int | None
    outcome: SiegeOutcome
    result: SiegeResult
    sacked: bool
    surrendered: bool
    fortress_destroyed: bool
    modifiers: SiegeModifiers
    besieger_survivors: tuple[Kind, ...]
    defender_survivors: tuple[Kind, ...]
    besieger_losses: tuple[Kind, ...]
    defender_losses: tuple[Kind, ...]


def surrenders(
    defenders: Sequence[Kind], *, city: bool, same_religion: bool, after_tie: bool, v2: bool = False
) -> bool:
    """Whether the place gives itself up without (another) roll.

    "If the City / Fortress had no force inside, or if it is of the same religion as the
    attacker and now lacks units, then it surrenders and is captured (any Fortress
    present is kept)." (Phase 6: Resolve Sieges). Nobody inside at the start of the
    siege: it surrenders. Emptied by a tie: only a city of the besieger's religion
    surrenders; a city of the other religion, and a fortress with no city (it has no
    religion), fight on alone ("the siege continues; roll the dice again"). ``v2``: as rules
    version 2 read it, a fortress with no city surrendering too.
    """
    if defenders:
        return False
    return not after_tie or (city and same_religion) or (v2 and not city)


def _check_siege(besiegers: Sequence[Kind], city: bool, fortress: bool) -> None:
    if not besiegers:
        raise ValueError("A siege needs at least one besieging unit.")
    if not (city or fortress):
        raise ValueError("A siege needs a city or a fortress to besiege.")


def siege_roll(
    besiegers: Sequence[Kind],
    defenders: Sequence[Kind],
    *,
    city: bool,
    fortress: bool,
    el_cid: SiegeSide | None = None,
    same_religion: bool = False,
    after_tie: bool = False,
    besieger_die: int,
    defender_die: int,
    v2: bool = False,
) -> SiegeRoll:
    """Resolve one siege roll (Phase 6: Resolve Sieges).

    ``same_religion``: the city is of the besieger's religion (it surrenders once a
    tie leaves it without units). ``after_tie``: this roll continues a siege after a
    tie, so an empty place no longer surrenders just for being empty. The dice are
    ignored when the place surrenders without a roll. ``v2``: as rules version 2 played it
    (``surrenders``; the city sacked on an even die, not an even result).
    """
    _check_siege(besiegers, city, fortress)
    mods = siege_modifiers(besiegers, defenders, city=city, fortress=fortress, el_cid=el_cid)
    kept_b, kept_d = tuple(besiegers), tuple(defenders)
    if surrenders(defenders, city=city, same_religion=same_religion, after_tie=after_tie, v2=v2):
        return SiegeRoll(
            None, None, None, None, "besieger", "surrendered", False, True, False, mods, kept_b, (), (), ()
        )
    _check_dice("besieger", [besieger_die])
    _check_dice("defender", [defender_die])
    b_total = besieger_die + mods.besieger_total
    d_total = defender_die + mods.defender_total
    if b_total > d_total:
        # "all defenders are eliminated, as well as any Fortress [...] On an even result,
        # the City is also eliminated": the besieger's result, the die with its modifiers, as
        # "result" means in "If both sides roll the same result" (docs/design.md).
        sacked = city and (besieger_die if v2 else b_total) % 2 == 0
        return SiegeRoll(
            besieger_die, defender_die, b_total, d_total, "besieger", "sacked" if sacked else "captured",
            sacked, False, fortress, mods, kept_b, (), (), kept_d,
        )  # fmt: skip
    if d_total > b_total:
        left_b, lost_b = _split(besiegers, 1)
        return SiegeRoll(
            besieger_die, defender_die, b_total, d_total, "defender", "besieger_retreats",
            False, False, False, mods, left_b, kept_d, lost_b, (),
        )  # fmt: skip
    # "both sides lose 1 unit [...] and the siege continues" (an empty side loses nothing).
    left_b, lost_b = _split(besiegers, 1)
    left_d, lost_d = _split(defenders, 1)
    if not left_b:
        result: SiegeResult = "defender_holds"
    elif surrenders(left_d, city=city, same_religion=same_religion, after_tie=True, v2=v2):
        result = "surrendered"
    else:
        result = "continue"
    return SiegeRoll(
        besieger_die, defender_die, b_total, d_total, "tie", result,
        False, result == "surrendered", False, mods, left_b, left_d, lost_b, lost_d,
    )  # fmt: skip
