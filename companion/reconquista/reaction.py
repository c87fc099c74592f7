"""Phase 5, the Muslim reaction, and the march the French and Rebel-army events reuse.

``phase``: the region die (a 6 brings the force from North Africa, landing by the
port die), the reinforcement table (jihad rolls it twice; unhired mercenaries join
the armies), each result placed by the area die with the rulebook's fallbacks, then
the march of every army force raised: to the next higher-numbered area until it
enters an area of non-Muslim control, else towards the nearest road to a region
with one; battles and sieges through ``battle.engage`` with the reaction's
clarifications (a besieged Muslim city's forces fight and fall back into it, a
siege keeps one army per unit there, a beaten force goes back and on).

``move_force``: the same march for the French and the Rebel armies of the events,
hostile to every other side, with no reinforcements, nothing left behind and
nothing picked up.

Every step is a Tell with its reason. The march always ends: no area is entered
twice while looking for an enemy, and ``STEP_BUDGET`` moves is the last guard.
Every reading of the rules taken here is in docs/rules-notes.md, "Phase 5".
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from companion.prompts import Choose, Roll, Tell
from companion.reconquista import combat
from companion.reconquista.battle import (
    BattleOutcome,
    Proc,
    describe,
    engage,
    move_units,
    retreat_area,
)
from companion.reconquista.board import Board, Reinforcement, parse_reinforcement
from companion.reconquista.control import city_controller, free_of_enemy, hostile
from companion.reconquista.state import SIDE_NAMES, AreaState, GameState, unit_name
from companion.reconquista.units import ARMY_KINDS, Kind

#: The last guard on a march: at most this many moves (steps from area to area and
#: battles) for one force. Never reached by a march that follows the rules (each area
#: is entered once between two engagements); told when it is.
STEP_BUDGET = 60

#: The region die face that brings the force from North Africa.
NORTH_AFRICA = 6

#: The sides ``move_force`` moves (the events' neutral armies).
MARCHERS = ("french", "rebel_army")

MUSLIM = "muslim"


# -- small helpers ------------------------------------------------------------------------


def _force_name(side: str) -> str:
    """'Muslim force', 'French force', 'Rebel army force'."""
    return f"{SIDE_NAMES[side]} force"


def _movers(a: AreaState, side: str) -> list[Kind]:
    """The units of ``side`` in ``a`` that march: armies of every kind ("Muslim Garrisons
    never move"). ``AreaState.force`` lists regular armies before mercenaries, so the
    first of the list is the one left behind first (see ``_leave``)."""
    return [k for k in a.force(side) if k in ARMY_KINDS]


def _walls(a: AreaState) -> str:
    return "city" if a.city is not None else "fortress"


def _hostile_here(a: AreaState, side: str, arriving: int = 0) -> bool:
    """Whether ``a`` holds forces hostile to ``side`` (``control.enemy_forces``: units of
    another side, or an empty city of another religion), not counting the ``arriving``
    units of ``side`` that have just come in (so a force standing in an empty enemy city
    still sees it as empty)."""
    if any(hostile(side, s) for s in a.units):
        return True
    return a.city is not None and a.city != side and a.total() - arriving == 0


def _is_target(a: AreaState, side: str, arriving: int = 0) -> bool:
    """An area where the march stops: hostile to ``side`` ("an area of non-Muslim control":
    a Christian army and/or garrison, a Rebel, a Christian city without other units, a
    neutral army not under Muslim control), and not already besieged by ``side`` (that
    enemy has been dealt with: "The rest continue moving to find a new enemy")."""
    return a.besieger != side and _hostile_here(a, side, arriving)


def _contents(a: AreaState, side: str) -> str:
    """What makes ``a`` hostile to ``side``, for a Tell."""
    parts = [describe(s, a.force(s)) for s in a.sides() if hostile(side, s)]
    if not parts and a.city is not None and a.city != side:
        parts = [f"an empty {SIDE_NAMES[a.city]} city"]
    return "; ".join(parts) or "nothing hostile"


def _names(areas: list[str]) -> str:
    return ", ".join(areas)


def _region_name(board: Board, region: int) -> str:
    return "North Africa" if region == NORTH_AFRICA else board.regions[region].name


def _robot(proc: Proc, prefer: str | None) -> Proc:
    """Run a battle procedure for the robot side: a Choose it asks (the beaten attackers'
    retreat, when a besieged city is a second option) is answered here, never shown:
    ``prefer`` (the area the force came from: "withdraw the force back to the area it
    came from") if offered, else the first option. Deterministic, so a replay agrees."""
    try:
        prompt = next(proc)
        while True:
            if isinstance(prompt, Choose):
                answer = prefer if prefer in prompt.options else prompt.options[0]
                prompt = proc.send(answer)
            else:
                prompt = proc.send((yield prompt))
    except StopIteration as stop:
        return stop.value


def _pick(board: Board, region: int, refuse: Callable[[str], str | None], why: str) -> Proc:
    """An area of ``region`` by the area die, rolled again (a new Roll saying why) until
    ``refuse`` has nothing against it; None, and no roll, when it refuses every area."""
    if all(refuse(n) is not None for n in board.regions[region].areas):
        return None
    prompt = why
    while True:
        face = (yield Roll(1, 6, prompt))[0]
        area = board.area_for(region, face)
        against = refuse(area)
        if against is None:
            return area
        prompt = f"{why}, rolled again (a {face} gave {area}, {against})"


@dataclass(frozen=True)
class _Tier:
    """One choice of a placement rule: what it is, and why an area does not fit it."""

    label: str
    refuse: Callable[[str], str | None]


def _pick_tiered(board: Board, region: int, title: str, tiers: list[_Tier]) -> Proc:
    """The first tier with an area that fits, picked by the area die; (area, tier) or None.
    Each tier passed over is told ("no such area: ... instead")."""
    for i, tier in enumerate(tiers):
        if all(tier.refuse(n) is not None for n in board.regions[region].areas):
            if i + 1 < len(tiers):
                yield Tell(
                    f"{title}: no area of {board.regions[region].name} is {tier.label}; "
                    f"{tiers[i + 1].label} instead."
                )
            continue
        area = yield from _pick(
            board,
            region,
            tier.refuse,
            f"Muslim reaction, {title}: area die for {tier.label} in {board.regions[region].name}",
        )
        return area, tier
    return None


# -- the region die and the reinforcement table ---------------------------------------------


def _free_for_muslims(a: AreaState) -> bool:
    """ "free of Christian or Rebel or Neutral Army forces": no unit of another side, and
    not an empty city of another religion (``control.free_of_enemy``, rules-notes
    "Enemy forces for every side")."""
    return free_of_enemy(a, MUSLIM)


def _ports_open(board: Board, state: GameState) -> list[str]:
    return [p for p in board.ports.values() if board.areas[p].region != state.revolt]


def _region_refusal(board: Board, state: GameState, face: int) -> str | None:
    """Why the region die face ``face`` must be rolled again, or None."""
    if face == NORTH_AFRICA:
        if _ports_open(board, state):
            return None
        return (
            f"North Africa, but every port is in {board.regions[state.revolt or 0].name}, which is in revolt"
        )
    name = board.regions[face].name
    if face == state.revolt:
        return f"{name}, which is in revolt"
    if not any(_free_for_muslims(state.areas[n]) for n in board.regions[face].areas):
        return f"{name}, which has no area free of Christian, Rebel and neutral forces"
    return None


def _region_die(board: Board, state: GameState) -> Proc:
    """ "Roll a D6 to select a region [...] a result of 6 when rolling for the region means
    the force arrives from North Africa. If the selected region does not contain areas free
    of Christian or Rebel or Neutral Army forces, roll again." A region in revolt: "If it is
    selected for Muslim troop movements, re-roll". None (no roll) when no face can do."""
    if all(_region_refusal(board, state, f) is not None for f in range(1, 7)):
        return None
    why = "Muslim reaction: region die (1-5 that region, 6 North Africa)"
    prompt = why
    while True:
        face = (yield Roll(1, 6, prompt))[0]
        against = _region_refusal(board, state, face)
        if against is None:
            return face
        prompt = f"{why}, rolled again (a {face} gave {against})"


def _muslim_cities(board: Board, state: GameState, region: int) -> int:
    """ "by number of Muslim-controlled cities in the region (including any besieged)":
    ``city_controller`` gives a besieged city to the side inside it."""
    return sum(1 for n in board.regions[region].areas if city_controller(state.areas[n]) == MUSLIM)


def _table(board: Board, state: GameState, region: int) -> Proc:
    """Roll on the reinforcement table (again on its ``reroll`` faces, docs/design.md) and
    return the result: the column by the Muslim-controlled cities (3 or more: the last),
    or the North Africa column (armies)."""
    t = board.tables.reinforcements
    rows = {r.roll: r for r in t.rows}
    if region == NORTH_AFRICA:
        column, detail = "North Africa", ""
        col = -1
    else:
        n = _muslim_cities(board, state, region)
        col = min(n, 3)
        column = "'" + ("0 cities", "1 city", "2 cities", "3 or more cities")[col] + "'"
        detail = f" ({board.regions[region].name} has {n} Muslim-controlled {'city' if n == 1 else 'cities'})"
    why = f"Muslim reaction: reinforcement table, column {column}{detail}"
    prompt = why
    while True:
        face = (yield Roll(1, t.die, prompt))[0]
        if face in rows:
            break
        prompt = f"{why}, rolled again (a {face} is not a row of the table)"
    row = rows[face]
    result = Reinforcement("army", row.north_africa) if col < 0 else parse_reinforcement(row.by_cities[col])
    yield Tell(f"Muslim reinforcements: a {face} in the column {column} gives {result}.")
    return result


# -- placing the results ----------------------------------------------------------------------


def _refuse_army_area(state: GameState) -> Callable[[str], str | None]:
    def refuse(n: str) -> str | None:
        a = state.areas[n]
        return None if _free_for_muslims(a) else f"which holds {_contents(a, MUSLIM)}"

    return refuse


def _city_tiers(state: GameState) -> list[_Tier]:
    """ "Establish city - randomly select an area with a Muslim army / Garrison, or else with
    no units. Place a Muslim city in this area." (One city per area: never where one is.)"""

    def with_muslims(n: str) -> str | None:
        a = state.areas[n]
        if a.city is not None:
            return "which already has a city"
        if not (a.count(MUSLIM, Kind.ARMY) or a.count(MUSLIM, Kind.GARRISON)):
            return "which has no Muslim army or garrison"
        if a.sides() != [MUSLIM]:
            return f"which also holds {_contents(a, MUSLIM)}"
        return None

    def empty(n: str) -> str | None:
        a = state.areas[n]
        if a.city is not None:
            return "which already has a city"
        return f"which holds {describe_all(a)}" if a.total() else None

    return [
        _Tier("an area without a city with a Muslim army or garrison", with_muslims),
        _Tier("an area without a city and with no units", empty),
    ]


def describe_all(a: AreaState) -> str:
    """Every unit in ``a``, side by side: '1 Christian army; 2 Rebels'."""
    return "; ".join(describe(s, a.force(s)) for s in a.sides()) or "nothing"


def _fortress_tiers(state: GameState) -> list[_Tier]:
    """ "Build Fortress - Randomly select a Muslim-controlled city without a Fortress [...] If
    no such area exists, randomly select an area without a Fortress that contains a Muslim
    Army and / or Garrison [...] If no such area exists, nothing happens." """

    def city(n: str) -> str | None:
        a = state.areas[n]
        if a.city is None:
            return "which has no city"
        if a.fortress:
            return "which already has a fortress"
        holder = city_controller(a)
        return (
            None if holder == MUSLIM else f"whose city is under {SIDE_NAMES[holder or 'christian']} control"
        )

    def with_muslims(n: str) -> str | None:
        a = state.areas[n]
        if a.fortress:
            return "which already has a fortress"
        if not a.count(MUSLIM):
            return "which has no Muslim army or garrison"
        if a.besieger == MUSLIM:
            # The walls would stand round the enemy the Muslims besiege there.
            return "where the Muslims are besiegers outside the walls"
        return None

    return [
        _Tier("a Muslim-controlled city without a fortress", city),
        _Tier("an area without a fortress with a Muslim army or garrison", with_muslims),
    ]


def _garrison_tiers(state: GameState) -> list[_Tier]:
    """ "Garrison - Place a Muslim Garrison in a randomly selected Muslim-controlled city
    without a Garrison. If there is no such city, place a Muslim Garrison in a randomly
    selected area that contains Muslim forces or that is free of all Christian / Rebel
    forces. If this is not possible, then nothing happens." """

    def city(n: str) -> str | None:
        a = state.areas[n]
        if a.city is None:
            return "which has no city"
        holder = city_controller(a)
        if holder != MUSLIM:
            return f"whose city is under {SIDE_NAMES[holder or 'christian']} control"
        return "which already has a Muslim garrison" if a.count(MUSLIM, Kind.GARRISON) else None

    def muslim_or_free(n: str) -> str | None:
        a = state.areas[n]
        if a.count(MUSLIM) or _free_for_muslims(a):
            return None
        return f"which holds {_contents(a, MUSLIM)} and no Muslim unit"

    return [
        _Tier("a Muslim-controlled city without a Muslim garrison", city),
        _Tier("an area with Muslim forces or free of Christian and Rebel forces", muslim_or_free),
    ]


def _port(board: Board, state: GameState) -> Proc:
    """ "roll a D6 to see in which Area it lands - as indicated by the port symbol": a port in
    the region in revolt is rolled again (nobody moves into it)."""
    ports = ", ".join(f"{f} {n}" for f, n in board.ports.items())
    why = f"Muslim reaction, North Africa: port die ({ports})"
    prompt = why
    while True:
        face = (yield Roll(1, 6, prompt))[0]
        area = board.ports[face]
        if board.areas[area].region != state.revolt:
            return area
        prompt = (
            f"{why}, rolled again (a {face} gave {area}, in {board.region_of(area).name}, which is in revolt)"
        )


def _place(board: Board, state: GameState, region: int, result: Reinforcement) -> Proc:
    """Place one table result; returns the area where armies were placed, else None."""
    if region == NORTH_AFRICA:
        port = yield from _port(board, state)
        a = state.areas[port]
        a.add(MUSLIM, Kind.ARMY, result.count)
        enemy = (
            f" {port} holds {_contents(a, MUSLIM)}: they land all the same and fight there."
            if _is_target(a, MUSLIM, result.count)
            else ""
        )
        yield Tell(
            f"{result} from North Africa: place {unit_name(MUSLIM, Kind.ARMY, result.count)} in {port} (the port die).{enemy}"
        )
        return port
    rname = board.regions[region].name
    if result.kind == "army":
        title = str(result)
        where = yield from _pick(
            board, region, _refuse_army_area(state),
            f"Muslim reaction, {title}: area die for an area of {rname} free of Christian and Rebel forces",
        )  # fmt: skip
        if where is None:
            yield Tell(f"{title}: no area of {rname} is free of Christian and Rebel forces: nothing happens.")
            return None
        state.areas[where].add(MUSLIM, Kind.ARMY, result.count)
        yield Tell(
            f"{title}: place {unit_name(MUSLIM, Kind.ARMY, result.count)} in {where} (free of Christian and Rebel forces)."
        )
        return where
    title = str(result)
    tiers = {"city": _city_tiers, "fortress": _fortress_tiers, "garrison": _garrison_tiers}[result.kind](
        state
    )
    picked = yield from _pick_tiered(board, region, title, tiers)
    if picked is None:
        yield Tell(f"{title}: no area of {rname} is {tiers[-1].label}: nothing happens.")
        return None
    where, tier = picked
    a = state.areas[where]
    if result.kind == "city":
        a.city = MUSLIM
        yield Tell(f"{title}: place a Muslim city in {where} ({tier.label}).")
    elif result.kind == "fortress":
        a.fortress = True
        yield Tell(f"{title}: place a fortress in {where} ({tier.label}).")
    else:
        a.add(MUSLIM, Kind.GARRISON)
        yield Tell(f"{title}: place 1 Muslim garrison in {where} ({tier.label}).")
    return None


def _mercenaries(board: Board, state: GameState, region: int, army_areas: list[str]) -> Proc:
    """ "Any Mercenary units that are not hired are added to the Muslim forces that rise in
    Phase 5": they join the first army placed; with no army placed they are placed as an
    army result would be, and march. Returns the area they went to, else None."""
    n = state.effects.mercenaries
    if n <= 0:
        return None
    state.effects.mercenaries = 0  # they are all used (or gone) now
    who = unit_name(MUSLIM, Kind.MERCENARY, n)
    if army_areas:
        where = army_areas[0]
        state.areas[where].add(MUSLIM, Kind.MERCENARY, n)
        yield Tell(f"Unhired mercenaries: they join the Muslim force in {where}: place {who} there.")
        return where
    rname = _region_name(board, region)
    where = yield from _pick(
        board, region, _refuse_army_area(state),
        f"Muslim reaction, unhired mercenaries (no army was raised): area die for an area of {rname} free of Christian and Rebel forces",
    )  # fmt: skip
    if where is None:
        yield Tell(
            f"Unhired mercenaries: no area of {rname} is free of Christian and Rebel forces: they leave."
        )
        return None
    state.areas[where].add(MUSLIM, Kind.MERCENARY, n)
    yield Tell(
        f"Unhired mercenaries: no army was raised, so they are the Muslim force: place {who} in {where} (free of Christian and Rebel forces)."
    )
    return where


def phase(board: Board, state: GameState) -> Proc:
    """Phase 5: The Muslim Reaction. The region die, the table (twice under a jihad), the
    results placed, the unhired mercenaries added, then every army force raised marches."""
    region = yield from _region_die(board, state)
    if region is None:
        yield Tell(
            "Muslim reaction: no region has an area free of Christian, Rebel and neutral forces, and no port can be reached: the Muslims raise nothing this turn."
        )
        return None
    jihad = state.effects.jihad
    yield Tell(
        f"Muslim reaction: the reinforcements rise in {_region_name(board, region)}"
        + (" (Jihad: the table is rolled twice, both results are placed)." if jihad else ".")
    )
    army_areas: list[str] = []
    for _ in range(2 if jihad else 1):
        result = yield from _table(board, state, region)
        where = yield from _place(board, state, region, result)
        if where is not None and where not in army_areas:
            army_areas.append(where)
    merc_area = yield from _mercenaries(board, state, region, army_areas)
    if merc_area is not None and merc_area not in army_areas:
        army_areas.append(merc_area)
    if not army_areas:
        yield Tell("No Muslim army was raised: nothing moves; the Muslim reaction is over.")
        return None
    for i, start in enumerate(army_areas):
        if i:
            yield Tell(f"Jihad: now the second Muslim force, raised in {start}.")
        yield from march(board, state, MUSLIM, start, reaction=True)
    return None


def move_force(board: Board, state: GameState, side: str, area: str) -> Proc:
    """Move the whole force of ``side`` ('french' or 'rebel_army') standing in ``area``
    "according to the Muslim reaction rules (Phase 5), except that this [...] force is
    hostile to all other forces" (Phase 2, events 2 and 5). A start among hostile forces
    is fought there first. Returns the area where what is left of it stops, else None."""
    if side not in MARCHERS:
        raise ValueError(f"move_force moves the French or the Rebel armies, not {side!r}")
    return (yield from march(board, state, side, area, reaction=False))


# -- the march --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Step:
    """One move of a marching force: where it goes, and why there."""

    dest: str
    reason: str


#: What picks a marching force's next move: (board, state, side, area) -> the move, or None.
Router = Callable[[Board, GameState, str, str], "_Step | None"]


def _targets(board: Board, state: GameState, side: str, region: int, exclude: str | None = None) -> list[str]:
    """The areas of ``region`` the force is looking for (none in the region in revolt:
    nobody moves into it); ``exclude``: the area the force stands in."""
    if region == state.revolt:
        return []
    return [n for n in board.regions[region].areas if n != exclude and _is_target(state.areas[n], side)]


def _hops(board: Board, state: GameState, side: str, exclude: str | None = None) -> dict[int, int]:
    """Roads from each region to the nearest region holding a target (0: it holds one),
    breadth-first over the regions; the region in revolt is never entered, so never on a
    way. Regions from which no target can be reached are left out."""
    links = board.region_links
    hops = {n: 0 for n in sorted(board.regions) if _targets(board, state, side, n, exclude)}
    frontier = sorted(hops)
    while frontier:
        nxt: list[int] = []
        for r in frontier:
            for s in links[r]:
                if s not in hops and s != state.revolt:
                    hops[s] = hops[r] + 1
                    nxt.append(s)
        frontier = nxt
    return hops


def _route(board: Board, state: GameState, side: str, here: str) -> _Step | None:
    """The next move of a force in ``here`` and why, or None when no enemy can be reached.

    Phase 5: "move the Force toward the area with the highest number. Repeat the movement
    until the force enters an area of non-Muslim control [...] If there is no
    enemy-controlled area in the Region, pass the Muslim force to the next highest-numbered
    area, repeating the process until reaching an area where there is a road leading to a
    region with an enemy-controlled area. If there is still none, then move to the first
    road that leads to a Region that then leads to another Region with an enemy-controlled
    area." Read breadth-first: the road towards a region fewest roads from an enemy; the
    force takes the first such road met going up from where it stands (its own area
    first); of two such roads from one area, the one to the area first in map order.
    """
    region = board.areas[here].region
    rname = board.regions[region].name
    found = _targets(board, state, side, region, here)
    if found:
        return _Step(
            board.next_area(here),
            f"the enemy is in {rname} ({_names(found)}), so on to the next higher-numbered area",
        )
    hops = _hops(board, state, side, here)
    links = board.region_links
    # Standing in the region in revolt (not in ``hops``): its roads out.
    d = hops[region] if region in hops else min((hops[s] + 1 for s in links[region] if s in hops), default=0)
    if d <= 0:  # no region with an enemy can be reached
        return None

    def road_from(area: str) -> str | None:
        # The first road in map order to a region one road nearer the enemy.
        return next(
            (x for x in board.roads_in_map_order[area] if hops.get(board.areas[x].region) == d - 1),
            None,
        )

    exit_area, road = here, road_from(here)
    while road is None:
        exit_area = board.next_area(exit_area)
        if exit_area == here:
            return None  # no road out of this region leads on (cannot happen when d > 0)
        road = road_from(exit_area)
    nreg = board.areas[road].region
    goal = nreg
    while hops[goal] > 0:
        goal = next(s for s in links[goal] if hops.get(s) == hops[goal] - 1)
    where = f"{board.regions[goal].name}, where the enemy is in {_names(_targets(board, state, side, goal, here))}"
    towards = where if nreg == goal else f"{board.regions[nreg].name}, on the way to {where}"
    if exit_area == here:
        return _Step(road, f"no enemy in {rname}: by the road to {towards}")
    return _Step(
        board.next_area(here),
        f"no enemy in {rname}: on towards the road from {exit_area} to {road} ({towards})",
    )


def _relieving(a: AreaState, side: str, arriving: int) -> bool:
    """Whether the force arriving in ``a`` comes to the rescue of walls its side holds and
    another side besieges: "If the area contains a Christian force and a City under Muslim
    control" (read for any besieger, and for a fortress without a city as for a city)."""
    if a.besieger is None or a.besieger == side or (a.city is None and not a.fortress):
        return False
    if any(s not in (side, a.besieger) for s in a.sides()):
        return False  # a third side holds the walls
    return a.count(side) - arriving > 0 or a.city == side


def _round_dice(
    att: list[Kind], dfn: list[Kind], first: str | None, label: str, att_name: str, def_name: str
) -> Proc:
    """The dice of one battle round, asked as ``battle.battle`` asks them (a first striker's
    hits are removed before the other side rolls with its survivors)."""

    def letters(units: list[Kind]) -> str:
        return ", ".join(k.value for k in units)

    if first is None:
        att_dice = yield Roll(len(att), 6, f"{label}: {att_name} dice ({letters(att)})")
        def_dice = yield Roll(len(dfn), 6, f"{label}: {def_name} dice ({letters(dfn)})")
    elif first == "defender":
        def_dice = yield Roll(len(dfn), 6, f"{label}: {def_name} dice first ({letters(dfn)})")
        left = combat.remove_casualties(att, combat.hits(dfn, def_dice))
        att_dice = (
            (yield Roll(len(left), 6, f"{label}: {att_name} survivors' dice ({letters(left)})"))
            if left
            else []
        )
    else:
        att_dice = yield Roll(len(att), 6, f"{label}: {att_name} dice first ({letters(att)})")
        left = combat.remove_casualties(dfn, combat.hits(att, att_dice))
        def_dice = (
            (yield Roll(len(left), 6, f"{label}: {def_name} survivors' dice ({letters(left)})"))
            if left
            else []
        )
    return list(att_dice), list(def_dice)


def _relief(board: Board, state: GameState, side: str, area: str) -> Proc:
    """The battle for walls of ``side`` besieged by another side. "the forces of the Muslim
    City join the battle. If the Muslim forces are forced to retreat, or the Battle is a
    tie, the entire surviving force retreats into the City." ``battle.battle`` would play a
    tie on (the besiegers hold no city) and take the city's units along in a retreat, so the
    rounds are played here. Returns 'on' (the besiegers are beaten) or 'stop'."""
    a = state.areas[area]
    enemy = a.besieger or ""
    name, ename = SIDE_NAMES[side], SIDE_NAMES[enemy]
    walls = _walls(a)
    yield Tell(
        f"The {name} force comes to relieve the {walls} of {area}, besieged by "
        f"{describe(enemy, a.force(enemy))}: the {name} units in the {walls} join the battle."
    )
    mountain = board.areas[area].mountain
    cid = state.el_cid_side if state.el_cid_area == area else None
    el_cid: combat.Side | None = "attacker" if cid == side else "defender" if cid == enemy else None
    rounds = 0
    while True:
        rounds += 1
        att, dfn = a.force(side), a.force(enemy)
        first = combat.first_striker(mountain, el_cid, rounds == 1)
        label = f"Battle in {area}, round {rounds}"
        att_dice, def_dice = yield from _round_dice(att, dfn, first, label, name, ename)
        r = combat.battle_round(att, dfn, att_dice, def_dice, city=False, first=first)
        a.set_force(side, list(r.attacker_survivors))
        a.set_force(enemy, list(r.defender_survivors))
        losses = [
            describe(s, list(g)) for s, g in ((side, r.attacker_losses), (enemy, r.defender_losses)) if g
        ]
        yield Tell(
            f"{label}: {name} {r.attacker_hits} hit{'s' * (r.attacker_hits != 1)}, {ename} {r.defender_hits}. "
            + (f"Remove {'; remove '.join(losses)} from {area}." if losses else "No losses.")
        )
        if r.result == "both_destroyed":
            yield Tell(f"Both forces in {area} are destroyed.")
            return "stop"
        if r.result == "attacker_destroyed":
            yield Tell(
                f"The {name} force and the defenders of {area} are destroyed; the {ename} siege goes on."
            )
            return "stop"
        if r.result == "defender_destroyed":
            yield Tell(f"The {ename} besiegers are destroyed: {area} is relieved.")
            return "on"
        if r.result == "defender_retreats":
            units = a.force(enemy)
            dest = retreat_area(board, state, area, enemy)
            if dest is None:
                a.set_force(enemy, [])
                yield Tell(
                    f"The {ename} besiegers have nowhere to retreat: remove {describe(enemy, units)} from {area}. {area} is relieved."
                )
            else:
                move_units(state, enemy, units, area, dest)
                follows = ""
                if state.el_cid_area == area and state.el_cid_side == enemy:
                    state.el_cid_area = dest
                    follows = " El Cid goes with them."
                yield Tell(
                    f"The {ename} besiegers retreat: move {describe(enemy, units)} from {area} to {dest}.{follows} {area} is relieved."
                )
            return "on"
        # 'attacker_retreats' or a tie ('continue'): into the walls, the siege stays.
        how = "A tie" if r.result == "continue" else f"The {name} force is beaten"
        yield Tell(
            f"{how}: the surviving {name} force ({describe(side, a.force(side))}) withdraws into the "
            f"{walls} of {area}; the {ename} force keeps the siege (Phase 6)."
        )
        return "stop"


def _besiege(state: GameState, side: str, here: str, force: list[Kind]) -> Proc:
    """ "If the Battle results in a siege situation [...] the Muslim force will leave behind a
    number of armies equal to the number of units in the area and the rest will continue
    the movement [...] for a City with a Fortress and a Garrison, 3 Armies will stay."
    Returns the armies that move on (none: the whole force stays)."""
    a = state.areas[here]
    parts = (["the city"] if a.city is not None else []) + (["the fortress"] if a.fortress else [])
    parts += [describe(s, a.force(s)) for s in a.sides() if s != side]
    need = (a.city is not None) + a.fortress + sum(a.count(s) for s in a.sides() if s != side)
    fname = _force_name(side)
    count = f"{need} unit{'s' * (need != 1)} there: {', '.join(parts)}"
    if len(force) <= need:
        yield Tell(
            f"The whole {fname} ({describe(side, force)}) stays in {here} to besiege it ({count}); its movement ends."
        )
        return []
    stay, rest = force[:need], force[need:]
    yield Tell(
        f"{describe(side, stay)} of the {fname} stay{'s' * (len(stay) == 1)} in {here} to besiege it, one army per unit ({count}); "
        f"the other {describe(side, rest)} move{'s' * (len(rest) == 1)} on."
    )
    return rest


def _must_hold(a: AreaState, side: str, force: list[Kind]) -> bool:
    """ "if it leaves an area with a City or Fortress in which there is not already a Muslim
    Garrison present, it must leave behind an Army" (unless armies of its own already stay
    there: the besiegers a siege left)."""
    if a.city is None and not a.fortress:
        return False
    if a.count(side, Kind.GARRISON):
        return False
    return len(_movers(a, side)) <= len(force)


def march(
    board: Board,
    state: GameState,
    side: str,
    start: str,
    *,
    reaction: bool,
    budget: int = STEP_BUDGET,
    route: Router = _route,
) -> Proc:
    """Move the force of ``side`` standing in ``start`` (every army of that side there)
    until it stops; ``reaction``: the Muslim rules (an army left behind in a city or
    fortress without a Muslim garrison, Muslim armies met picked up, El Cid). ``phase``
    and ``move_force`` call it. Returns the area where what is left of the moving force
    stops, else None. ``budget`` and ``route`` are parameters so that the tests of the
    guards against a march without end can give a small budget or a circling route."""
    fname = _force_name(side)
    here = start
    a = state.areas[here]
    if a.besieger == side:
        yield Tell(f"The {SIDE_NAMES[side]} units in {here} besiege it and stay there.")
        return None
    force = _movers(a, side)
    if not force:
        yield Tell(f"No {SIDE_NAMES[side]} army stands in {here} any more: nothing moves from there.")
        return None
    with_cid = False

    def el_cid_joins(area: str) -> Proc:
        nonlocal with_cid
        if reaction and not with_cid and state.el_cid_side == side and state.el_cid_area == area:
            with_cid = True
            yield Tell(
                f"El Cid, with the {SIDE_NAMES[side]}s, is in {area}: he joins the {fname} and moves with it."
            )

    every = f"every {SIDE_NAMES[side]} army there, " if reaction else ""
    yield Tell(f"The {fname} marches from {here} with {every}{describe(side, force)}.")
    yield from el_cid_joins(here)
    steps = 0
    visited = {here}
    prev: str | None = None
    forced: str | None = None  # after a retreat: the next higher-numbered area
    arrived = True
    while True:
        a = state.areas[here]
        if arrived and _is_target(a, side, len(force)):
            steps += 1
            if prev is None:
                yield Tell(f"{here} holds {_contents(a, side)}: the {fname} fights where it stands.")
            # Armies of the side already in the area it came from join it if it falls back there.
            waiting = len(_movers(state.areas[prev], side)) if prev else 0
            status, where = yield from _fight(board, state, side, here, prev, len(force))
            if status == "stop":
                return None if not _movers(state.areas[here], side) else here
            if status == "retreated":
                extra = waiting
                here, prev = where, None
                force = _movers(state.areas[here], side)
                if reaction and extra > 0:
                    yield Tell(f"{_more(side, extra)} the {fname} in {here}: now {describe(side, force)}.")
                if with_cid:
                    state.el_cid_area = here
                # "withdraw the force back to the area it came from. The Army continues to
                # the next highest-numbered area": the search starts again from there.
                forced, visited = board.next_area(here), set()
                if forced == here:
                    forced = None
            else:
                force = _movers(state.areas[here], side)
                if not force:
                    # A relief won by the city's garrisons alone: "Muslim Garrisons never move".
                    yield Tell(
                        f"No {SIDE_NAMES[side]} army is left in {here} to march on (garrisons never move)."
                    )
                    return here
                if state.areas[here].besieger == side:
                    force = yield from _besiege(state, side, here, force)
                    if not force:
                        return here
                else:
                    yield Tell(f"The {fname} ({describe(side, force)}) has won in {here} and marches on.")
                visited = {here}
        arrived = False
        if steps >= budget:
            yield Tell(
                f"The {fname} has made {budget} moves, the most the app allows one march (a guard "
                f"against a march without end): it stops in {here} ({describe(side, force)})."
            )
            return here
        if forced is not None:
            step: _Step | None = _Step(
                forced, "after its retreat the force goes on to the next higher-numbered area"
            )
            forced = None
        else:
            step = route(board, state, side, here)
        if step is None:
            yield Tell(
                f"No enemy can be reached from {here}: the {fname} ({describe(side, force)}) stays there."
            )
            return here
        dest = step.dest
        if dest in visited:
            yield Tell(
                f"The {fname} would enter {dest} a second time without meeting an enemy: it stops in "
                f"{here} ({describe(side, force)})."
            )
            return here
        a = state.areas[here]
        left = ""
        if reaction and _must_hold(a, side, force):
            keep = force[0]
            no_gar = f"a {_walls(a)} with no {SIDE_NAMES[side]} garrison keeps an army"
            if len(force) == 1:
                yield Tell(
                    f"The {fname} would move on ({step.reason}), but {here} is {no_gar}: "
                    f"its last army ({describe(side, force)}) stays there; its movement ends."
                )
                return here
            force = force[1:]
            left = f", leaving {describe(side, [keep])} in {here} ({no_gar})"
        move_units(state, side, force, here, dest)
        steps += 1
        cid = ""
        if with_cid:
            state.el_cid_area = dest
            cid = " El Cid goes with it."
        yield Tell(
            f"{fname} moves {here} -> {dest}: {step.reason}. Move {describe(side, force)} from {here} to {dest}{left}.{cid}"
        )
        prev, here = here, dest
        visited.add(here)
        arrived = True
        a = state.areas[here]
        if _is_target(a, side, len(force)):
            yield Tell(f"{here} holds {_contents(a, side)}: the {fname} stops there.")
            continue
        if reaction and a.besieger != side:
            # "If the Force enters (or starts in) an area with other Muslim Armies, these are
            # added to the force" (never the besiegers a siege left: they stay at it).
            extra = len(_movers(a, side)) - len(force)
            if extra > 0:
                force = _movers(a, side)
                yield Tell(f"{_more(side, extra)} the {fname} in {here}: now {describe(side, force)}.")
        yield from el_cid_joins(here)


def _more(side: str, n: int) -> str:
    """'1 more Muslim army joins' / '2 more Muslim armies join' (the subject and its verb)."""
    return f"{n} more {SIDE_NAMES[side]} arm{'y' if n == 1 else 'ies'} join{'s' * (n == 1)}"


def _fight(board: Board, state: GameState, side: str, here: str, prev: str | None, arriving: int) -> Proc:
    """The force has entered (or starts in) ``here``, which holds an enemy: relieve walls of
    its side, or ``battle.engage``. Returns ('on' | 'stop' | 'retreated', area)."""
    a = state.areas[here]
    fname = _force_name(side)
    if _relieving(a, side, arriving):
        status = yield from _relief(board, state, side, here)
        return status, here
    out = yield from _robot(engage(board, state, here, side, [prev] if prev else []), prev)
    if isinstance(out, BattleOutcome) and out.result == "attacker_retreats":
        if out.attacker_area is None:
            if prev is None:
                yield Tell(
                    f"The {fname} came into {here} from no area of the map, so it has nowhere to fall back to."
                )
            return "stop", here
        if out.attacker_area != here:
            return "retreated", out.attacker_area
        yield Tell(f"The {fname} is shut in the city of {here}: its movement ends.")
        return "stop", here
    if not _movers(a, side):
        return "stop", here
    if _is_target(a, side):
        # Not expected (engage leaves a siege or a won area): never loop on it.
        yield Tell(f"{here} still holds {_contents(a, side)}: the {fname} stops there.")
        return "stop", here
    return "on", here
