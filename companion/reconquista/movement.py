"""Phase 4 of Reconquista, "Movement of Armies", as a prompt procedure.

The player selects one region; then, move after move, picks an origin area of that
region, a legal destination and the units that go. A force entering enemy forces
stops there and ``battle.engage`` decides battle, siege or nothing; the force may
move on afterwards. The readings taken are in docs/rules-notes.md ("Phase 4").
"""

from __future__ import annotations

from itertools import product

from companion.prompts import Choose, Tell
from companion.reconquista.battle import (
    BattleOutcome,
    Proc,
    describe,
    engage,
    move_units,
)
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

#: A step budget: a careless player (or bot) could shuffle units back and forth for
#: ever; after this many moves in one phase the phase ends, with a Tell.
MAX_MOVES = 200

Counts = dict[Kind, int]


def _counts(units: list[Kind]) -> Counts:
    out: Counts = {}
    for k in units:
        out[k] = out.get(k, 0) + 1
    return out


def movable_units(state: GameState, spent: dict[str, Counts], area: str) -> Counts:
    """The Christian units in ``area`` that may still move: all of them, less those
    that have left the selected region by road this phase (``spent``)."""
    here = state.areas[area].units.get(SIDE, {})
    gone = spent.get(area, {})
    return {k: n - gone.get(k, 0) for k, n in here.items() if n > gone.get(k, 0)}


def destinations(board: Board, state: GameState, spent: dict[str, Counts], origin: str) -> list[str]:
    """Where units of ``origin`` may go ("Phase 4: Movement of Armies").

    Every other area of the same region ("Garrisons can move to any area of the same
    region", armies too); along a road to another region only for army-like units and
    only "provided that the Area they come from is totally free of Muslim forces (the
    exception being a Muslim city, provided it contains at least one Christian army
    and / or Garrison)"; never into the region in revolt ("No one can move into it").
    """
    region = board.areas[origin].region
    units = movable_units(state, spent, origin)
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
        if n != state.revolt and any(destinations(board, state, {}, a) for a in board.regions[n].areas)
    ]


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
        yield Tell("Phase 4: no Christian force can move this turn.")
        return
    names = {board.regions[n].name: n for n in regions}
    answer = yield Choose(
        [*names, NO_MOVEMENT],
        "Phase 4: select the one region whose Christian forces move this turn",
    )
    if answer == NO_MOVEMENT:
        yield Tell("Phase 4: no movement this turn.")
        return
    region = names[answer]
    # Units that left the region by road and came back (a lost battle sends a force back
    # to where it came from) may not move again: "Armies [...] in other regions cannot
    # move at all in this phase". Kept by area and kind: units of a kind are alike.
    spent: dict[str, Counts] = {}
    moves = 0
    while True:
        if moves >= MAX_MOVES:
            yield Tell(f"Phase 4 ends after {MAX_MOVES} moves (a limit that keeps every game finite).")
            return
        origins = [a for a in board.regions[region].areas if destinations(board, state, spent, a)]
        if not origins:
            yield Tell(f"No Christian unit in {answer} can move any more: Phase 4 ends.")
            return
        origin = yield Choose([*origins, DONE], f"Move {moves + 1} in {answer}: from which area?")
        if origin == DONE:
            return
        dest = yield Choose(
            destinations(board, state, spent, origin),
            f"The units of {origin} go to which area?",
        )
        road = board.areas[dest].region != region
        units = movable_units(state, spent, origin)
        if road:
            units = {k: n for k, n in units.items() if k in ROAD_KINDS}
        # SPEC -> part, in ``parts`` order. Counts, not parse_spec: a SPEC is read for people
        # and capped at 60 units.
        forces = {spec(part): part for part in parts(units)}
        chosen = next(iter(forces))
        if len(forces) > 1:
            chosen = yield Choose(list(forces), f"Move from {origin} to {dest}: which units?")
        moving = [k for k in MOVABLE for _ in range(forces[chosen].get(k, 0))]
        yield from _move(board, state, spent, origin, dest, moving, road)
        moves += 1


def _move(
    board: Board,
    state: GameState,
    spent: dict[str, Counts],
    origin: str,
    dest: str,
    units: list[Kind],
    road: bool,
) -> Proc:
    """Move ``units`` from ``origin`` to ``dest``, with El Cid if he goes, and engage
    whatever enemy forces were there."""
    src = state.areas[origin]
    # Judged before the move: once the movers stand in an empty Muslim city it no longer
    # reads as "a Muslim city with no other units present".
    hostile_there = enemy_forces(state.areas[dest], SIDE)
    besieging = src.besieger == SIDE
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
                )
            ) == EL_CID_GOES
        if goes:
            state.el_cid_area = dest
            cid = " El Cid goes with them."
    move_units(state, SIDE, units, origin, dest)
    lifted = f" The siege of {origin} is lifted." if besieging and src.besieger is None else ""
    yield Tell(f"Move {describe(SIDE, units)} from {origin} to {dest}.{lifted}{cid}")
    if not hostile_there:
        return
    before = _counts(state.areas[origin].force(SIDE))
    outcome = yield from engage(board, state, dest, SIDE, [origin])
    if isinstance(outcome, BattleOutcome) and outcome.attacker_area == origin:
        # The force lost and retreated to its origin, in the selected region.
        after = _counts(state.areas[origin].force(SIDE))
        back = {k: after.get(k, 0) - before.get(k, 0) for k in after}
        here = spent.setdefault(origin, {})
        there = spent.get(dest, {})
        for k, n in back.items():
            if n <= 0:
                continue
            # Units that took the road are done for the phase; units that stayed in the
            # region keep whatever they were (spent ones stay spent).
            extra = n if road else min(n, there.get(k, 0))
            here[k] = here.get(k, 0) + extra
            if not road and k in there:
                there[k] -= extra
    _clamp(state, spent, (origin, dest))


def _clamp(state: GameState, spent: dict[str, Counts], areas: tuple[str, ...]) -> None:
    """Battles kill units: never count more spent units than an area holds."""
    for area in areas:
        by_kind = spent.get(area)
        if not by_kind:
            continue
        for k in list(by_kind):
            by_kind[k] = min(by_kind[k], state.areas[area].count(SIDE, k))
            if by_kind[k] <= 0:
                del by_kind[k]
        if not by_kind:
            del spent[area]
