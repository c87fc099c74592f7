"""The kinds of unit and their numbers in combat: to-hit, casualty order, siege modifiers.

Every number here comes from the rulebook's Battle and Phase 6 sections and the
decisions in docs/design.md ("Battle", "Siege modifiers"). A kind is side-less: the
side a unit fights for is kept by the state (see ``state.py``).
"""

from __future__ import annotations

import re
from enum import StrEnum


class Kind(StrEnum):
    """A unit kind, named by the letters the calculators' SPEC uses."""

    ARMY = "A"
    GARRISON = "G"
    ORDER = "MO"  # Military Order (always Christian)
    REBEL = "R"  # Rebel unit (hostile to all)
    MERCENARY = "MC"  # neutral army: a hired or unhired mercenary
    CRUSADER = "CR"  # neutral army: a crusader (Christian)
    FRENCH = "F"  # neutral army: French intervention
    REBEL_ARMY = "RA"  # neutral army: the Rebels event

    @property
    def noun(self) -> str:
        return KIND_NAMES[self]


KIND_NAMES: dict[Kind, str] = {
    Kind.ARMY: "army",
    Kind.GARRISON: "garrison",
    Kind.ORDER: "Military Order",
    Kind.REBEL: "Rebel",
    Kind.MERCENARY: "mercenary",
    Kind.CRUSADER: "crusader",
    Kind.FRENCH: "French army",
    Kind.REBEL_ARMY: "Rebel army",
}

#: Armies of every kind: they hit on 4-6 and count +2 in sieges (docs/design.md).
ARMY_KINDS = frozenset({Kind.ARMY, Kind.MERCENARY, Kind.CRUSADER, Kind.FRENCH, Kind.REBEL_ARMY})

#: Battle: the lowest face that hits. "Garrison or Rebel: 5 or 6. Army: 4, 5 or 6.
#: Military Order: 3, 4, 5 or 6."
HIT_ON: dict[Kind, int] = {
    Kind.GARRISON: 5,
    Kind.REBEL: 5,
    Kind.ORDER: 3,
    **dict.fromkeys(ARMY_KINDS, 4),
}

#: Casualties are removed in this order (docs/design.md: mercenaries first, then
#: Garrisons/Rebels, then Military Orders, then Armies). Among armies, the
#: neutral ones that leave in Phase 7 anyway go before the player's own.
CASUALTY_ORDER: tuple[Kind, ...] = (
    Kind.MERCENARY,
    Kind.GARRISON,
    Kind.REBEL,
    Kind.ORDER,
    Kind.CRUSADER,
    Kind.FRENCH,
    Kind.REBEL_ARMY,
    Kind.ARMY,
)

#: Siege, besieger: "+1 for each Garrison, +2 for each Army, +3 for each Military Order".
SIEGE_ATTACK: dict[Kind, int] = {
    Kind.GARRISON: 1,
    Kind.REBEL: 1,
    Kind.ORDER: 3,
    **dict.fromkeys(ARMY_KINDS, 2),
}

#: Siege, defender: "+1 for each Garrison / Rebel, +2 for each Army / Military Order".
SIEGE_DEFENCE: dict[Kind, int] = {
    Kind.GARRISON: 1,
    Kind.REBEL: 1,
    Kind.ORDER: 2,
    **dict.fromkeys(ARMY_KINDS, 2),
}

_SPEC_PART = re.compile(r"(\d+)(MO|MC|CR|RA|A|G|R|F)")

#: The most units a force, or one side in an area, may have. The whole box holds far fewer
#: counters of a kind, and in 120 whole headless games (bot and random answers) no side ever
#: had more than 21 units in one area: a table can never reach it. The bound is checked on the
#: counts as written, before a list of units is made: '999999999999A' was a MemoryError, and
#: '400000000A' took 19 s and 6 GB before it was refused.
MAX_FORCE = 60


class SpecError(ValueError):
    """A SPEC that cannot be read; the message is one sentence."""


def parse_spec(text: str) -> list[Kind]:
    """'1G2A' -> [G, A, A]: units in the order written, expanded left to right."""
    compact = re.sub(r"\s+", "", text).upper()
    if not compact:
        raise SpecError("A force needs at least one unit, like 2A1G.")
    parts: list[tuple[str, Kind]] = []
    pos = 0
    for m in _SPEC_PART.finditer(compact):
        if m.start() != pos:
            break
        parts.append((m[1], Kind(m[2])))
        pos = m.end()
    if pos != len(compact):
        bad = compact[pos:]
        raise SpecError(
            f"'{text}' is not a force: '{bad}' is not a count and a kind "
            "(A army, G garrison, MO Military Order, R Rebel, MC mercenary, CR crusader, "
            "F French army, RA Rebel army), like 2A1G."
        )
    # A count of more digits than MAX_FORCE has is over it whatever it says: not read by int(),
    # which for thousands of digits is slow (and past 4300 refuses with a message of its own).
    numbers = [digits.lstrip("0") or "0" for digits, _ in parts]
    if any(len(n) > len(str(MAX_FORCE)) for n in numbers):
        raise SpecError(f"'{text}' has more than {MAX_FORCE} units; a force has at most {MAX_FORCE}.")
    counts = [int(n) for n in numbers]
    if sum(counts) > MAX_FORCE:
        raise SpecError(f"'{text}' has {sum(counts)} units; a force has at most {MAX_FORCE}.")
    return [kind for n, (_, kind) in zip(counts, parts, strict=True) for _ in range(n)]


def spec_counts(units: list[Kind] | tuple[Kind, ...]) -> dict[str, int]:
    """[G, A, A] -> {'G': 1, 'A': 2}: SPEC letters and counts, kinds in the order first met."""
    counts: dict[str, int] = {}
    for kind in units:
        counts[kind.value] = counts.get(kind.value, 0) + 1
    return counts


def format_spec(units: list[Kind] | tuple[Kind, ...]) -> str:
    """[G, A, A] -> '1G2A'; no units -> 'none' (the word the calculators accept for nobody)."""
    if not units:
        return "none"
    return "".join(f"{n}{letter}" for letter, n in spec_counts(units).items())


def noun_for(kind: Kind, n: int) -> str:
    """The kind's noun for ``n`` units: 'army' for 1, 'armies', 'French armies', 'Military
    Orders' for more. Every text that counts units says them through here (the plain
    ``noun + "s"`` wrote 'armys')."""
    name = kind.noun
    if n == 1:
        return name
    return f"{name[:-1]}ies" if name.endswith("y") else f"{name}s"


def plural(kind: Kind, n: int) -> str:
    """'1 army', '2 armies', '3 Military Orders': a count of one kind for people to read."""
    return f"{n} {noun_for(kind, n)}"
