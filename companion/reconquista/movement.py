"""Phase 4 of Reconquista, "Movement of Armies", as a prompt procedure.

The player selects one region; then, move after move, picks an origin area of that
region, a legal destination and the units that go. A force entering enemy forces
stops there and ``battle.engage`` decides battle, siege or nothing; a force that won or
was beaten back may move on afterwards, one that stopped to besiege stays until Phase 6.
The readings taken are in docs/rules-notes.md ("Phase 4").

Every prompt carries a topic (``reconquista.movement.*``, the ``*_TOPIC`` names below)
and its facts: areas and regions by name, units as counts by their SPEC letters.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from itertools import product

from companion.prompts import Choose, Tell
from companion.reconquista.battle import Proc, describe, engage, move_units
from companion.reconquista.board import Board
from companion.reconquista.control import enemy_forces, free_of_muslim_forces
from companion.reconquista.state import SIDE_KINDS, GameState
from companion.reconquista.units import Kind

SIDE = "christian"

#: Every Christian unit may move inside the selected region, in Kind order (A, G, MO,
#: MC, CR): the order SPECs and descriptions use.
MOVABLE: tuple[Kind, ...] = tuple(k for k in Kind if k in SIDE_KINDS[SIDE])

#: The units that may take a road: "Armies can [...] move along a Road to another
#: Region"; hired mercenaries and crusaders are armies (docs/design.md) and a Military
#: Order is army-like (docs/rules-notes.md, battles reading 1). Garrisons never.
ROAD_KINDS = frozenset({Kind.ARMY, Kind.ORDER, Kind.MERCENARY, Kind.CRUSADER})

NO_MOVEMENT = "No movement"
DONE = "Done"
EL_CID_GOES = "El Cid goes with them"

#: The topics of the phase's prompts (companion/prompts.py): the bot and the screens read
#: these, never the wording.
NOTHING_MOVABLE_TOPIC = "reconquista.movement.nothing_movable"
REGION_TOPIC = "reconquista.movement.region"
NO_MOVEMENT_TOPIC = "reconquista.movement.no_movement"
LIMIT_TOPIC = "reconquista.movement.limit"
NONE_LEFT_TOPIC = "reconquista.movement.none_left"
ORIGIN_TOPIC = "reconquista.movement.origin"
DESTINATION_TOPIC = "reconquista.movement.destination"
UNITS_TOPIC = "reconquista.movement.units"
EL_CID_TOPIC = "reconquista.movement.el_cid"
MOVE_TOPIC = "reconquista.movement.move"

RULE = "Phase 4: Movement of Armies"
_SELECT_RULE = f"{RULE} — Select a single region"
_ONLY_THIS_REGION_RULE = (
    f"{RULE} — Only the Christian Armies, Garrisons and Military Orders in this Region may move"
)
_DESTINATION_RULE = f"{RULE} — Armies can move to any area of the same region"
_TOGETHER_RULE = f"{RULE} — Armies and Garrisons may move together or separately"
_ROAD_RULE = f"{RULE} — In addition, they can move along a Road to another Region"
_STOP_RULE = f"{RULE} — If the moving force enters an area that contains enemy forces, it must stop"
# The rulebook's El Cid is the Quick Reference Sheet's event 8; that he leads one force
# of his side is docs/design.md's reading.
_EL_CID_RULE = "Quick Reference Sheet — 8 El Cid"

#: A step budget: a careless player (or bot) could shuffle units back and forth for
#: ever; after this many moves in one phase the phase ends, with a Tell.
MAX_MOVES = 200

Counts = dict[Kind, int]


def movable_units(state: GameState, area: str) -> Counts:
    """The Christian units in ``area`` that may move: all of them, unless they besiege it.
    A force that stopped to besiege stays until Phase 6: "Otherwise, the moving forces stop
    and wait for the Siege Phase"; "the moving force remains in place awaiting the Siege
    Phase" (Battle); "the Christian force must remain in place to besiege the city"
    (Example of a Complex Battle 1)."""
    a = state.areas[area]
    if a.besieger == SIDE:
        return {}
    return dict(a.units.get(SIDE, {}))


def destinations(board: Board, state: GameState, origin: str) -> list[str]:
    """Where units of ``origin`` may go ("Phase 4: Movement of Armies").

    Every other area of the same region ("Garrisons can move to any area of the same
    region", armies too); along a road to another region only for army-like units and
    only "provided that the Area they come from is totally free of Muslim forces (the
    exception being a Muslim city, provided it contains at least one Christian army
    and / or Garrison)"; never into the region in revolt ("No one can move into it").
    """
    region = board.areas[origin].region
    units = movable_units(state, origin)
    if not units or region == state.revolt:
        return []
    out = [a for a in board.regions[region].areas if a != origin]
    if any(k in ROAD_KINDS for k in units) and free_of_muslim_forces(state.areas[origin]):
        out += [
            d for d in board.roads_in_map_order[origin] if board.areas[d].region not in (region, state.revolt)
        ]
    return out


def movable_regions(board: Board, state: GameState) -> list[int]:
    """The regions, not in revolt, holding Christian units that have somewhere to go."""
    return [
        n
        for n in sorted(board.regions)
        if n != state.revolt and any(destinations(board, state, a) for a in board.regions[n].areas)
    ]


def counts_data(units: Mapping[Kind, int]) -> dict[str, int]:
    """Units as a prompt's data gives them: {'A': 2, 'G': 1}, kinds in Kind order."""
    return {k.value: units[k] for k in MOVABLE if units.get(k)}


def spec(units: Counts) -> str:
    """{A: 2, G: 1} -> '2A1G', kinds in Kind order."""
    return "".join(f"{units[k]}{k.value}" for k in MOVABLE if units.get(k))


def parts(units: Counts) -> list[Counts]:
    """Every non-empty part of ``units``, largest first; among equals, more of the earlier
    kinds first (2A1G: 2A1G, 2A, 1A1G, 1A, 1G)."""
    kinds = [k for k in MOVABLE if units.get(k)]
    out = [
        {k: n for k, n in zip(kinds, combo, strict=True) if n}
        for combo in product(*(range(units[k], -1, -1) for k in kinds))
        if any(combo)
    ]
    # product() already gives each size's parts with the earlier kinds' counts falling;
    # a stable sort by size keeps that order among equals.
    out.sort(key=lambda part: -sum(part.values()))
    return out


def sub_forces(units: Counts) -> list[str]:
    """``parts`` written as SPECs: ['2A1G', '2A', '1A1G', '1A', '1G']."""
    return [spec(part) for part in parts(units)]


def phase(board: Board, state: GameState) -> Proc:
    """Phase 4: select a region, then move its Christian forces until "Done"."""
    regions = movable_regions(board, state)
    if not regions:
        yield Tell(
            "Phase 4: no Christian force can move this turn.",
            topic=NOTHING_MOVABLE_TOPIC,
            rule=_SELECT_RULE,
        )
        return
    names = {board.regions[n].name: n for n in regions}
    answer = yield Choose(
        [*names, NO_MOVEMENT],
        "Phase 4: select the one region whose Christian forces move this turn",
        topic=REGION_TOPIC,
        data={"regions": list(names), "done": True},
        rule=_SELECT_RULE,
    )
    if answer == NO_MOVEMENT:
        yield Tell("Phase 4: no movement this turn.", topic=NO_MOVEMENT_TOPIC, rule=_SELECT_RULE)
        return
    region = names[answer]
    # Only the areas of this region are ever origins: units that took a road stand in
    # another region and "cannot move at all in this phase"; beaten back into this region,
    # they may move again ("the moving force can continue moving").
    moves = 0
    while True:
        if moves >= MAX_MOVES:
            yield Tell(
                f"Phase 4 ends after {MAX_MOVES} moves (a limit that keeps every game finite).",
                topic=LIMIT_TOPIC,
                data={"region": answer, "moves": moves},
                rule=RULE,
            )
            return
        origins = [a for a in board.regions[region].areas if destinations(board, state, a)]
        if not origins:
            yield Tell(
                f"No Christian unit in {answer} can move any more: Phase 4 ends.",
                topic=NONE_LEFT_TOPIC,
                data={"region": answer, "moves": moves},
                rule=_ONLY_THIS_REGION_RULE,
            )
            return
        origin = yield Choose(
            [*origins, DONE],
            f"Move {moves + 1} in {answer}: from which area?",
            topic=ORIGIN_TOPIC,
            data={"region": answer, "move": moves + 1, "done": True},
            rule=_ONLY_THIS_REGION_RULE,
        )
        if origin == DONE:
            return
        dest = yield Choose(
            destinations(board, state, origin),
            f"The units of {origin} go to which area?",
            topic=DESTINATION_TOPIC,
            data={"origin": origin},
            rule=_DESTINATION_RULE,
        )
        road = board.areas[dest].region != region
        units = movable_units(state, origin)
        if road:
            units = {k: n for k, n in units.items() if k in ROAD_KINDS}
        # SPEC -> part, in ``parts`` order. Counts, not parse_spec: a SPEC is read for people
        # and capped at 60 units.
        forces = {spec(part): part for part in parts(units)}
        chosen = next(iter(forces))
        if len(forces) > 1:
            chosen = yield Choose(
                list(forces),
                f"Move from {origin} to {dest}: which units?",
                topic=UNITS_TOPIC,
                data={"origin": origin, "destination": dest},
                rule=_ROAD_RULE if road else _TOGETHER_RULE,
            )
        moving = [k for k in MOVABLE for _ in range(forces[chosen].get(k, 0))]
        yield from _move(board, state, origin, dest, moving, road=road)
        moves += 1


def _move(board: Board, state: GameState, origin: str, dest: str, units: list[Kind], *, road: bool) -> Proc:
    """Move ``units`` from ``origin`` to ``dest`` (along a road when ``road``), with El Cid
    if he goes, and engage whatever enemy forces were there."""
    src = state.areas[origin]
    # Judged before the move: once the movers stand in an empty Muslim city it no longer
    # reads as "a Muslim city with no other units present".
    hostile_there = enemy_forces(state.areas[dest], SIDE)
    cid = ""
    if state.el_cid_area == origin and state.el_cid_side == SIDE:
        # El Cid "joins a force of its side" (docs/design.md): alone he cannot stay behind;
        # with Christians staying, the player says whom he leads.
        goes = True
        if src.count(SIDE) > len(units):
            goes = (
                yield Choose(
                    [EL_CID_GOES, f"El Cid stays in {origin}"],
                    f"El Cid is in {origin}: does he go with the force moving to {dest}?",
                    topic=EL_CID_TOPIC,
                    data={"origin": origin, "destination": dest, "units": counts_data(Counter(units))},
                    rule=_EL_CID_RULE,
                )
            ) == EL_CID_GOES
        if goes:
            state.el_cid_area = dest
            cid = " El Cid goes with them."
    move_units(state, SIDE, units, origin, dest)
    yield Tell(
        f"Move {describe(SIDE, units)} from {origin} to {dest}.{cid}",
        topic=MOVE_TOPIC,
        data={
            "origin": origin,
            "destination": dest,
            "units": counts_data(Counter(units)),
            "road": road,
            "el_cid": bool(cid),
            "enemy": hostile_there,
        },
        rule=_STOP_RULE if hostile_there else _ROAD_RULE if road else _DESTINATION_RULE,
    )
    if hostile_there:
        # The movers, apart from the Christians already there: a garrison holding walls that
        # others besiege "would join the battle" (Complex Battle 1) as walls relieved, whatever
        # the city's religion ("It does not matter whether the City itself is Muslim or Christian").
        # (Rules version 2 handed the battle every Christian unit there.)
        yield from engage(board, state, dest, SIDE, [origin], None if state.under_v2() else units)
