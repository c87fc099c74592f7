"""Manual corrections of the Reconquista table: one area set to what the board shows.

A correction is written as a short line a player can type, e.g.
``city muslim; fortress; M 1A1G; C 2A; siege by C`` — the area's whole content:
``city christian|muslim`` or ``no city``; ``fortress`` or ``no fortress``; a side
tag (C Christian, M Muslim, R Rebels, F French, RA Rebel armies) followed by a
SPEC of its units; ``siege by TAG`` or ``no siege``. A side not named has no
units there. The driver logs it as an Edit step and replays it in its place.
"""

from __future__ import annotations

from typing import Any

from companion.reconquista.state import SIDE_KINDS, SIDE_NAMES, SIDES, AreaState, GameState, unit_name
from companion.reconquista.units import MAX_FORCE, Kind, SpecError, parse_spec

TAGS = {"C": "christian", "M": "muslim", "R": "rebel", "F": "french", "RA": "rebel_army"}
TAG_OF = {side: tag for tag, side in TAGS.items()}


def area_text(area: AreaState) -> str:
    """The line that describes ``area`` as it stands (what the edit box starts from)."""
    parts = [f"city {area.city}" if area.city else "no city", "fortress" if area.fortress else "no fortress"]
    for side in area.sides():
        units = "".join(
            f"{n}{k.value}"
            for k, n in sorted(area.units[side].items(), key=lambda kv: list(Kind).index(kv[0]))
        )
        parts.append(f"{TAG_OF[side]} {units}")
    parts.append(f"siege by {TAG_OF[area.besieger]}" if area.besieger else "no siege")
    return "; ".join(parts)


def parse_area_text(text: str) -> dict[str, Any]:
    """The change a line asks for (see the module docstring); ValueError with one sentence."""
    change: dict[str, Any] = {"city": None, "fortress": False, "units": {}, "besieger": None}
    for raw in text.split(";"):
        part = " ".join(raw.split())
        if not part:
            continue
        low = part.casefold()
        if low == "no city":
            change["city"] = None
        elif low in ("city christian", "city muslim"):
            change["city"] = low.split()[1]
        elif low in ("fortress", "no fortress"):
            change["fortress"] = low == "fortress"
        elif low == "no siege":
            change["besieger"] = None
        elif low.startswith("siege by "):
            tag = part.split()[-1].upper()
            if tag not in TAGS:
                raise ValueError(f"'{part}': the besieger is one of {', '.join(TAGS)}.")
            change["besieger"] = TAGS[tag]
        else:
            tag, _, spec = part.partition(" ")
            side = TAGS.get(tag.upper())
            if side is None or not spec:
                raise ValueError(
                    f"'{part}' is not understood: write city, fortress, siege, or a side (C, M, R, F, RA) and its units."
                )
            try:
                units = parse_spec(spec)
            except SpecError as exc:
                raise ValueError(str(exc)) from None
            counts: dict[str, int] = {}
            for k in units:
                counts[k.value] = counts.get(k.value, 0) + 1
            change["units"][side] = counts
    return change


def apply_edit(state: GameState, change: dict[str, Any]) -> None:
    """Set one area to ``change`` (area, city, fortress, units, besieger), all checked first:
    a change that does not fit the rules of the table is refused whole (ValueError)."""
    name = change.get("area")
    if name not in state.areas:
        raise ValueError(f"'{name}' is not an area of the map.")
    city = change.get("city")
    if city not in (None, "christian", "muslim"):
        raise ValueError(f"A city is Christian or Muslim, not {city!r}.")
    units: dict[str, dict[Kind, int]] = {}
    for side, counts in dict(change.get("units") or {}).items():
        if side not in SIDES:
            raise ValueError(f"'{side}' is not a side.")
        for letter, n in dict(counts).items():
            try:
                kind = Kind(letter)
            except ValueError:
                raise ValueError(f"'{letter}' is not a kind of unit.") from None
            if kind not in SIDE_KINDS[side]:
                raise ValueError(f"The {SIDE_NAMES[side]} side cannot field a {kind.noun}.")
            # Bounded as a typed SPEC is (units.MAX_FORCE): a change may also come from an imported
            # log, and a side's units are made into a list of that many for every battle.
            if not isinstance(n, int) or not 0 <= n <= MAX_FORCE:
                raise ValueError(f"{n!r} is not a number of units from 0 to {MAX_FORCE}.")
            if n:
                units.setdefault(side, {})[kind] = n
        total = sum(units.get(side, {}).values())
        if total > MAX_FORCE:
            raise ValueError(
                f"{total} {SIDE_NAMES[side]} units in {name} are too many: a side has at most {MAX_FORCE} in an area."
            )
    besieger = change.get("besieger")
    if besieger is not None:
        if besieger not in units:
            raise ValueError(
                f"A {SIDE_NAMES.get(besieger, besieger)} siege needs {SIDE_NAMES.get(besieger, besieger)} units in {name}."
            )
        if city is None and not change.get("fortress"):
            raise ValueError(f"A siege needs a city or a fortress in {name}.")
    # The rules of the table (game.check_invariants): hostile sides share an area only as
    # besieger and besieged, never three of them; a correction played on must keep it so.
    names = [SIDE_NAMES[side] for side in units]
    if len(units) > 2:
        raise ValueError(
            f"{', '.join(names[:-1])} and {names[-1]} units cannot all stand in {name}: only a besieger and the side it besieges share an area."
        )
    if len(units) == 2 and besieger is None:
        raise ValueError(
            f"{' and '.join(names)} units cannot stand side by side in {name} without a siege: say which besieges, e.g. 'siege by {TAG_OF[next(iter(units))]}'."
        )
    area = state.areas[name]
    # Changed in place: a procedure in the middle of a phase may hold this very object.
    area.city = city
    area.fortress = bool(change.get("fortress"))
    area.units = units
    area.besieger = besieger


def board_changes(now: GameState, back: GameState, *, undo: bool = True) -> list[str]:
    """What to change on the table to go from ``now`` to ``back``: for each area that differs,
    in map order, the counters to put (back) and to take away, e.g. "Galicia: put back 1
    Muslim army; take away 1 Christian garrison". El Cid is named where he moves. ``undo``:
    ``back`` is how the table was ("put back", "back to"); otherwise it is new (a
    correction, a redo: "put", "to")."""
    put_word, to = ("put back", "back to") if undo else ("put", "to")
    out: list[str] = []
    for name, was in back.areas.items():
        is_ = now.areas[name]
        if was.snapshot() == is_.snapshot():
            continue
        put: list[str] = []
        take: list[str] = []
        for side in SIDES:
            for kind in sorted(SIDE_KINDS[side], key=list(Kind).index):
                delta = was.count(side, kind) - is_.count(side, kind)
                if delta > 0:
                    put.append(unit_name(side, kind, delta))
                elif delta < 0:
                    take.append(unit_name(side, kind, -delta))
        if was.city != is_.city:
            if was.city is None:
                take.append(f"the {SIDE_NAMES[is_.city or '']} city")
            elif is_.city is None:
                put.append(f"a {SIDE_NAMES[was.city]} city")
            else:
                put.append(f"the city as {SIDE_NAMES[was.city]} (it shows {SIDE_NAMES[is_.city]})")
        if was.fortress != is_.fortress:
            (put if was.fortress else take).append("a fortress" if was.fortress else "the fortress")
        if was.besieger != is_.besieger:
            put.append(f"the siege by the {SIDE_NAMES[was.besieger]}" if was.besieger else "no siege marker")
        parts = ([f"{put_word} {', '.join(put)}"] if put else []) + (
            [f"take away {', '.join(take)}"] if take else []
        )
        out.append(f"{name}: {'; '.join(parts)}")
    if now.el_cid_area != back.el_cid_area:
        out.append(f"El Cid: {to + ' ' + back.el_cid_area if back.el_cid_area else 'take him off the map'}")
    if now.turn != back.turn:
        out.append(f"Turn marker: {to} {back.turn}")
    return out
