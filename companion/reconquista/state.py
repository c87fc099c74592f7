"""The Reconquista game state: a plain, serialisable, comparable picture of the table.

Per area: a city (none, Christian or Muslim), a fortress, the units there by
side and kind, and which side, if any, besieges the city or fortress. For the
whole game: turn, phase, the region in revolt and this turn's event effects.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from companion.reconquista.units import KIND_NAMES, Kind, noun_for

#: The sides a unit can fight for. Rebels, French and Rebel armies are hostile to all.
SIDES = ("christian", "muslim", "rebel", "french", "rebel_army")

SIDE_NAMES = {
    "christian": "Christian",
    "muslim": "Muslim",
    "rebel": "Rebel",
    "french": "French",
    "rebel_army": "Rebel army",
}

#: Which kinds each side can field. Hired mercenaries and crusaders fight as
#: Christian armies; unhired mercenaries join the Muslim reaction.
SIDE_KINDS: dict[str, frozenset[Kind]] = {
    "christian": frozenset({Kind.ARMY, Kind.GARRISON, Kind.ORDER, Kind.MERCENARY, Kind.CRUSADER}),
    "muslim": frozenset({Kind.ARMY, Kind.GARRISON, Kind.MERCENARY}),
    "rebel": frozenset({Kind.REBEL}),
    "french": frozenset({Kind.FRENCH}),
    "rebel_army": frozenset({Kind.REBEL_ARMY}),
}

PHASES = ("setup", "rebellions", "events", "income", "movement", "reaction", "sieges", "end", "over")


def unit_name(side: str, kind: Kind, n: int = 1) -> str:
    """'2 Muslim armies', '1 Christian garrison', '1 Rebel', '3 French armies'."""
    noun = noun_for(kind, n)
    if side in ("christian", "muslim") and kind in (Kind.ARMY, Kind.GARRISON):
        noun = f"{SIDE_NAMES[side]} {noun}"
    elif side == "muslim" and kind is Kind.MERCENARY:
        noun += " (with the Muslims)"
    return f"{n} {noun}"


@dataclass
class AreaState:
    """One area of the map and what stands on it."""

    city: str | None = None  # 'christian' or 'muslim'
    fortress: bool = False
    units: dict[str, dict[Kind, int]] = field(default_factory=dict)  # side -> kind -> count > 0
    besieger: str | None = None  # the side besieging the city/fortress, if any

    def count(self, side: str, kind: Kind | None = None) -> int:
        by_kind = self.units.get(side)
        if not by_kind:
            return 0
        return by_kind.get(kind, 0) if kind is not None else sum(by_kind.values())

    def total(self) -> int:
        """Every unit in the area, of every side."""
        return sum(sum(by_kind.values()) for by_kind in self.units.values())

    def sides(self) -> list[str]:
        """The sides with units here, in SIDES order."""
        return [s for s in SIDES if s in self.units]

    def add(self, side: str, kind: Kind, n: int = 1) -> None:
        if kind not in SIDE_KINDS[side]:
            raise ValueError(f"the {SIDE_NAMES[side]} side cannot field a {KIND_NAMES[kind]}")
        if n < 0:
            raise ValueError("cannot add a negative number of units")
        if n:
            by_kind = self.units.setdefault(side, {})
            by_kind[kind] = by_kind.get(kind, 0) + n

    def remove(self, side: str, kind: Kind, n: int = 1) -> None:
        if n < 0:
            raise ValueError("cannot remove a negative number of units")
        have = self.count(side, kind)
        if n > have:
            raise ValueError(f"only {have} {KIND_NAMES[kind]} of that side here, not {n}")
        if n:
            by_kind = self.units[side]
            by_kind[kind] = have - n
            if not by_kind[kind]:
                del by_kind[kind]
            if not by_kind:
                del self.units[side]
                if self.besieger == side:
                    self.besieger = None

    def force(self, side: str) -> list[Kind]:
        """The side's units here as a list of kinds, in a fixed order (for combat)."""
        by_kind = self.units.get(side, {})
        return [k for k in Kind if k in by_kind for _ in range(by_kind[k])]

    def set_force(self, side: str, units: Sequence[Kind]) -> None:
        """Replace the side's units here with ``units`` (the survivors of a combat)."""
        for k in units:
            if k not in SIDE_KINDS[side]:
                raise ValueError(f"the {SIDE_NAMES[side]} side cannot field a {KIND_NAMES[k]}")
        besieger = self.besieger
        self.units.pop(side, None)
        for k in units:
            self.add(side, k)
        self.besieger = besieger if besieger in self.units else None

    def copy(self) -> AreaState:
        """A copy whose units can change without touching this area (kinds are immutable)."""
        return AreaState(
            self.city,
            self.fortress,
            {side: dict(by_kind) for side, by_kind in self.units.items()},
            self.besieger,
        )

    def snapshot(self) -> dict[str, Any]:
        return {
            "city": self.city,
            "fortress": self.fortress,
            "units": {s: {k.value: n for k, n in sorted(u.items())} for s, u in sorted(self.units.items())},
            "besieger": self.besieger,
        }


@dataclass
class Effects:
    """What this turn's random event (and the rebellions) leave for later phases."""

    event: str | None = None
    bribery: bool = False
    mercenaries: int = 0  # available to hire in Phase 3; the unhired join Phase 5
    crusaders: int = 0  # to be placed in Phase 3
    taxes: bool = False
    expulsion: bool = False
    jihad: bool = False

    def snapshot(self) -> dict[str, Any]:
        return asdict(self)


#: The phases as the rules name them, by the name the state carries: the board screen's
#: status line, the replay and the game report all say them this way.


@dataclass
class GameState:
    """The whole table."""

    areas: dict[str, AreaState]
    turn: int = 1
    phase: str = "setup"
    revolt: int | None = None  # the region in revolt this turn
    effects: Effects = field(default_factory=Effects)
    el_cid_area: str | None = None
    el_cid_side: str | None = None
    income: int = 0  # this turn's points left to spend
    # The board files the session was started with (None: the shipped ones). Not part
    # of the snapshot: they do not change during a game.
    map_file: str | None = field(default=None, compare=False)
    tables_file: str | None = field(default=None, compare=False)
    # Whether the game opens with the setup as a checklist (a new game's config "setup";
    # games recorded before it have none). Not part of the snapshot: it does not change.
    checklist: bool = field(default=False, compare=False)
    # The turns numbered below this one are played under rules version 2: a game begun under
    # them replays as recorded and goes on under the current rules from a later turn
    # (game.going_on). 0 in a game of the current rules. Not part of the snapshot.
    v2_until: int = field(default=0, compare=False)

    def under_v2(self) -> bool:
        """Whether the turn in play is one of a game begun under rules version 2 played under
        them (docs/rules-notes.md, "Reconquista: the turn, the end of the game and headless play", reading 8)."""
        return self.turn < self.v2_until

    def snapshot(self) -> dict[str, Any]:
        return {
            "turn": self.turn,
            "phase": self.phase,
            "revolt": self.revolt,
            "effects": self.effects.snapshot(),
            "el_cid": [self.el_cid_area, self.el_cid_side] if self.el_cid_area else None,
            "income": self.income,
            "areas": {name: a.snapshot() for name, a in self.areas.items()},
        }
