"""The march of a robot force: the Muslim force of Phase 5, and the French and Rebel armies
of events 2 and 5, which move "according to the Muslim reaction rules (Phase 5), except
that this [...] force is hostile to all other forces".

The force is the armies that march, followed as they move: the armies it meets are added
to it ("If the Force enters (or starts in) an area with other Muslim Armies, these are
added"), never the besiegers a siege of its side keeps, and what it leaves behind stays
behind. It steps to the next higher-numbered area until it enters an area of another
side's control, else towards the nearest road to a region with one; every arrival among
another side's units is fought through ``battle.engage``, the same battles the player's
forces fight, with the reaction's clarifications (a force relieving walls of its side
withdraws into them when beaten or tied; a siege keeps one army per unit there; a beaten
force goes back to the area it came from and on).

Every step is a Tell with its reason, and a ``reconquista.march.*`` topic whose data say
whose force it is ("side"), where it is and goes, and how many units move; its rule is the
Phase 5 paragraph followed (for the French and the Rebel armies, their event's too). The
march always ends: no area is entered twice while looking for an enemy, and
``STEP_BUDGET`` moves is the last guard. The readings of the rules are in
docs/rules-notes.md, "Phase 5".
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.prompts import Choose, Tell
from companion.reconquista.battle import BattleOutcome, Proc, describe, engage, lost, move_units
from companion.reconquista.board import Board
from companion.reconquista.control import hostile
from companion.reconquista.state import SIDE_NAMES, AreaState, GameState
from companion.reconquista.units import ARMY_KINDS, Kind, noun_for

#: The last guard on a march: at most this many moves (steps from area to area and
#: battles) for one force. Never reached by a march that follows the rules (each area
#: is entered once between two engagements); told when it is.
STEP_BUDGET = 60

#: The sides ``move_force`` moves (the events' neutral armies).
MARCHERS = ("french", "rebel_army")

_PHASE = "Phase 5: The Muslim Reaction"
#: The paragraphs of "Movement of the Muslim force" a march step follows (``rule``).
MOVEMENT = "Movement of the Muslim force"
EACH_MOVE = "Each time the force moves"
PICK_UP = "If the Force enters (or starts in) an area with other Muslim Armies"
ENEMY = "Once the Force enters an enemy-controlled area"
SIEGE = "If the Battle results in a siege situation"
VICTORY = "If the Battle results in a Muslim victory and there is no siege"
RETREAT = "If the Muslim force has to retreat"
LANDING = "In the case of reinforcements from North Africa"
#: The events that move the French and the Rebel armies "according to the Muslim reaction rules".
EVENT_RULES = {
    "french": "Phase 2: Events — 2 French Intervention",
    "rebel_army": "Phase 2: Events — 5 Rebels",
}
RULE_EL_CID = "Quick Reference Sheet — 8 El Cid"


def rule_for(side: str, part: str) -> str:
    """The rule a march step of ``side`` follows: the Phase 5 paragraph ``part``, after the
    event that moves the force when it is not the Muslims'."""
    phase5 = f"{_PHASE} — {part}"
    return phase5 if side not in EVENT_RULES else f"{EVENT_RULES[side]}; {phase5}"


def force_name(side: str) -> str:
    """'Muslim force', 'French force', 'Rebel army force'."""
    return f"{SIDE_NAMES[side]} force"


def armies(a: AreaState, side: str) -> list[Kind]:
    """The units of ``side`` in ``a`` that march: armies of every kind ("Muslim Garrisons
    never move"), regular armies before mercenaries (``AreaState.force`` order), so that the
    first of the list is the one left behind first."""
    return [k for k in a.force(side) if k in ARMY_KINDS]


def walls(a: AreaState) -> str:
    return "city" if a.city is not None else "fortress"


def hostile_here(a: AreaState, side: str, arriving: int = 0) -> bool:
    """Whether ``a`` holds forces hostile to ``side`` (``control.enemy_forces``: units of
    another side, or an empty city of another religion), not counting the ``arriving``
    units of ``side`` that have just come in (so a force standing in an empty enemy city
    still sees it as empty)."""
    if any(hostile(side, s) for s in a.units):
        return True
    return a.city is not None and a.city != side and a.total() - arriving == 0


def is_target(a: AreaState, side: str, arriving: int = 0) -> bool:
    """An area where the march stops: hostile to ``side`` ("an area of non-Muslim control":
    a Christian army and/or garrison, a Rebel, a Christian city without other units, a
    neutral army not under Muslim control), and not already besieged by ``side`` (that
    enemy has been dealt with: "The rest continue moving to find a new enemy")."""
    return a.besieger != side and hostile_here(a, side, arriving)


def contents(a: AreaState, side: str) -> str:
    """What makes ``a`` hostile to ``side``, for a Tell."""
    parts = [describe(s, a.force(s)) for s in a.sides() if hostile(side, s)]
    if not parts and a.city is not None and a.city != side:
        parts = [f"an empty {SIDE_NAMES[a.city]} city"]
    return "; ".join(parts) or "nothing hostile"


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


# -- the way to an enemy ----------------------------------------------------------------------


@dataclass(frozen=True)
class Step:
    """One move of a marching force: where it goes, and why there (``reason``, in the move's
    Tell). ``how`` names the way the move was chosen ('enemy_in_region', 'road',
    'toward_road', 'after_retreat'; empty from a router of the tests) and ``facts`` the
    regions and areas that chose it, for the Tell's data."""

    dest: str
    reason: str
    how: str = ""
    facts: Mapping[str, Any] = field(default_factory=dict)


#: What picks a marching force's next move: (board, state, side, area, arrived) -> the move, or
#: None; ``arrived``: the force has come into the area by a move of this march (or fought there).
Router = Callable[[Board, GameState, str, str, bool], "Step | None"]


def _targets(board: Board, state: GameState, side: str, region: int, exclude: str | None = None) -> list[str]:
    """The areas of ``region`` the force is looking for (none in the region in revolt:
    nobody moves into it); ``exclude``: the area the force stands in."""
    if region == state.revolt:
        return []
    return [n for n in board.regions[region].areas if n != exclude and is_target(state.areas[n], side)]


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


def _road_out(board: Board, hops: dict[int, int], here: str, d: int, arrived: bool) -> tuple[str, str] | None:
    """Where a force in ``here`` (its region ``d`` roads from the enemy) leaves its region: the
    first area, from ``here`` if it has ``arrived`` there, else from the next, with a road to a
    region one road nearer (the first such road in map order), passing to the next
    higher-numbered area until one has it; (that area, the road's end), or None if none has."""

    def road_from(area: str) -> str | None:
        return next(
            (x for x in board.roads_in_map_order[area] if hops.get(board.areas[x].region) == d - 1),
            None,
        )

    exit_area, road = here, road_from(here) if arrived else None
    while road is None:
        exit_area = board.next_area(exit_area)
        road = road_from(exit_area)
        if exit_area == here and road is None:
            return None
    return exit_area, road


def _leads_to(board: Board, hops: dict[int, int], area: str) -> int:
    """The region with an enemy that a force coming into ``area`` reaches by ``route``'s rule,
    region after region (none of those it passes holds an enemy, so nothing else turns it)."""
    here = area
    for _ in range(len(board.regions)):
        d = hops[board.areas[here].region]
        found = _road_out(board, hops, here, d, True) if d > 0 else None
        if found is None:
            break
        here = found[1]
    return board.areas[here].region


def route(board: Board, state: GameState, side: str, here: str, arrived: bool = True) -> Step | None:
    """The next move of a force in ``here`` and why, or None when no enemy can be reached.

    Phase 5: "move the Force toward the area with the highest number. Repeat the movement
    until the force enters an area of non-Muslim control [...] If there is no
    enemy-controlled area in the Region, pass the Muslim force to the next highest-numbered
    area, repeating the process until reaching an area where there is a road leading to a
    region with an enemy-controlled area. If there is still none, then move to the first
    road that leads to a Region that then leads to another Region with an enemy-controlled
    area." Read breadth-first: the road towards a region fewest roads from an enemy; of two
    such roads from one area, the one to the area first in map order. "Pass [...] to the next
    highest-numbered area, repeating the process until reaching an area where there is a
    road": the force first passes on, and takes the first such road it reaches; a force that
    has come into its area (``arrived``) has reached it and takes its road, one that starts
    there (raised, landed, left after a siege) passes on first, round the region back to it
    if it is the only one (rules-notes, Phase 5, reading 10).
    """
    region = board.areas[here].region
    rname = board.regions[region].name
    found = _targets(board, state, side, region, here)
    if found:
        return Step(
            board.next_area(here),
            f"the enemy is in {rname} ({', '.join(found)}), so on to the next higher-numbered area",
            "enemy_in_region",
            {"goal": rname, "enemy": found},
        )
    hops = _hops(board, state, side, here)
    links = board.region_links
    # Standing in the region in revolt (not in ``hops``): its roads out.
    d = hops[region] if region in hops else min((hops[s] + 1 for s in links[region] if s in hops), default=0)
    if d <= 0:  # no region with an enemy can be reached
        return None

    found_road = _road_out(board, hops, here, d, arrived)
    if found_road is None:
        return None  # no road out of this region leads on (cannot happen when d > 0)
    exit_area, road = found_road
    nreg = board.areas[road].region
    # ``goal``, ``enemy``: a region one road nearer at each step, the first of the region's links
    # (the facts logged since rules II, kept so that logs still fit); the way the march then
    # takes, road after road by this rule, is ``leads_to``'s, and the sentence names that one.
    goal = nreg
    while hops[goal] > 0:
        goal = next(s for s in links[goal] if hops.get(s) == hops[goal] - 1)
    enemy = _targets(board, state, side, goal, here)
    # Rules version 2 named the first region of the links (its logs, some of them from before
    # prompts had topics and so known by their words, keep replaying).
    leads = goal if state.under_v2() else _leads_to(board, hops, road)
    reached = _targets(board, state, side, leads, here)
    where = f"{board.regions[leads].name}, where the enemy is in {', '.join(reached)}"
    towards = where if nreg == leads else f"{board.regions[nreg].name}, on the way to {where}"
    facts = {
        "goal": board.regions[goal].name,
        "enemy": enemy,
        "road": [exit_area, road],
        "roads_away": d,
        "leads_to": board.regions[leads].name,
        "leads_to_enemy": reached,
    }
    if exit_area == here and arrived:
        return Step(road, f"no enemy in {rname}: by the road to {towards}", "road", facts)
    return Step(
        board.next_area(here),
        f"no enemy in {rname}: on towards the road from {exit_area} to {road} ({towards})",
        "toward_road",
        facts,
    )


def _faces(board: Board, area: str) -> str:
    """'Granada 5-6', 'Toledo 3': an area with the area-die faces that number it."""
    faces = board.areas[area].faces
    return f"{area} {faces[0]}" if len(faces) == 1 else f"{area} {faces[0]}-{faces[-1]}"


def move_reason(board: Board, here: str, step: Step) -> str:
    """Why the force goes from ``here`` to ``step.dest``, for the trace: the step's own
    reason, then the move itself: along a road, or up the region's numbers (wrapping round
    from the highest-numbered area to the lowest)."""
    if board.areas[step.dest].region != board.areas[here].region:
        return f"{step.reason}: takes the road {here} → {step.dest}"
    wraps = board.areas[step.dest].order < board.areas[here].order
    way = f"{_faces(board, here)} → {_faces(board, step.dest)}"
    return f"{step.reason}: {way}" + (", wrapping round" if wraps else "")


# -- the march --------------------------------------------------------------------------------


def _besiege(board: Board, state: GameState, side: str, here: str, force: list[Kind]) -> Proc:
    """ "If the Battle results in a siege situation [...] the Muslim force will leave behind a
    number of armies equal to the number of units in the area and the rest will continue
    the movement [...] for a City with a Fortress and a Garrison, 3 Armies will stay."
    Returns the armies that move on (none: the whole force stays)."""
    a = state.areas[here]
    parts = (["the city"] if a.city is not None else []) + (["the fortress"] if a.fortress else [])
    parts += [describe(s, a.force(s)) for s in a.sides() if s != side]
    need = (a.city is not None) + a.fortress + sum(a.count(s) for s in a.sides() if s != side)
    fname = force_name(side)
    count = f"{need} unit{'s' * (need != 1)} there: {', '.join(parts)}"
    whole = len(force) <= need
    stay, rest = (force, []) if whole else (force[:need], force[need:])
    facts = _facts(board, side, here, force) | {"needed": need, "stay": len(stay), "moving_on": len(rest)}
    if whole:
        yield Tell(
            f"The whole {fname} ({describe(side, force)}) stays in {here} to besiege it ({count}); its movement ends.",
            topic="reconquista.march.besiege",
            data=facts,
            rule=rule_for(side, SIEGE),
            reason=f"one army stays per unit in the area ({count}), and the force has no more than {need}",
        )
        return []
    yield Tell(
        f"{describe(side, stay)} of the {fname} stay{'s' * (len(stay) == 1)} in {here} to besiege it, one army per unit ({count}); "
        f"the other {describe(side, rest)} move{'s' * (len(rest) == 1)} on.",
        topic="reconquista.march.besiege",
        data=facts,
        rule=rule_for(side, SIEGE),
        reason=f"one army stays per unit in the area ({count}); the rest continue the movement",
    )
    return rest


def _facts(board: Board, side: str, here: str, force: Sequence[Kind]) -> dict[str, Any]:
    """What every march prompt's data starts with: whose force, the area it stands in (and
    its region), how many units it has."""
    return {"side": side, "area": here, "region": board.region_of(here).name, "units": len(force)}


def _stop(text: str, facts: dict[str, Any], cause: str, rule: str, reason: str) -> Tell:
    """A Tell ending the march (or the force's part in it); ``cause`` names why, for the data:
    'no_army', 'landed', 'budget', 'no_enemy', 'circle', 'last_army', 'nowhere_back',
    'shut_in', 'still_enemy'."""
    return Tell(text, topic="reconquista.march.stop", data=facts | {"cause": cause}, rule=rule, reason=reason)


def _must_hold(a: AreaState, side: str, force: Sequence[Kind]) -> bool:
    """ "if it leaves an area with a City or Fortress in which there is not already a Muslim
    Garrison present, it must leave behind an Army" (a garrison of its own side, for the
    French and the Rebel armies, who have none); unless armies of its side that are not
    part of the force already stay there (the besiegers a siege left)."""
    if a.city is None and not a.fortress:
        return False
    if a.count(side, Kind.GARRISON):
        return False
    return len(armies(a, side)) <= len(force)


def _others(a: AreaState, side: str, force: Sequence[Kind]) -> list[Kind]:
    """The armies of ``side`` in ``a`` that are not the force: those it picks up on entering
    (none where its side besieges: they stay at the siege)."""
    if a.besieger == side:
        return []
    return lost(armies(a, side), force)


def _more(side: str, n: int) -> str:
    """'1 more Muslim army joins' / '2 more Muslim armies join' (the subject and its verb)."""
    return f"{n} more {SIDE_NAMES[side]} {noun_for(Kind.ARMY, n)} join{'s' * (n == 1)}"


def march(
    board: Board,
    state: GameState,
    side: str,
    start: str,
    *,
    budget: int = STEP_BUDGET,
    router: Router = route,
    landed: bool = False,
    start_enemy: bool | None = None,
) -> Proc:
    """Move the force of ``side`` standing in ``start`` (every army of that side there) until
    it stops. Returns the area where what is left of the moving force stops, else None.
    ``landed``: the force has just landed from North Africa, and if ``start`` is "under
    enemy control [...] the Muslim force does not move and will give battle or besiege the
    area where it landed". ``start_enemy``: whether ``start`` held an enemy of the force
    before its armies were raised, landed or placed there this phase (None: judged now,
    counting every army of the force as just come): an empty city of another religion is an
    enemy to fight where it stands, one that armies of the side already held is not. ``budget``
    and ``router`` are parameters so that the tests of the guards against a march without end
    can give a small budget or a circling route.

    Each area is judged once, as the force comes into it (or starts in it), counting the
    armies that came as not there yet: "until the force enters an area of non-Muslim
    control". The armies of its side it then picks up were there before it and held the area
    with it; they make the area no enemy's (rules-notes, Phase 5, reading 12)."""
    fname = force_name(side)
    sname = SIDE_NAMES[side]
    here = start
    a = state.areas[here]
    force = armies(a, side)
    every = ""
    if a.besieger == side and force:
        # Its side besieges the start: as after a battle that "results in a siege situation",
        # one army per unit there stays and "the rest will continue the movement".
        force = yield from _besiege(board, state, side, here, force)
        if not force:
            return here
        every = "the other "
    if not force:
        yield _stop(
            f"No {sname} army stands in {here} any more: nothing moves from there.",
            _facts(board, side, here, force),
            "no_army",
            rule_for(side, PICK_UP),
            f"no {sname} army is in {here}, and garrisons never move",
        )
        return None
    with_cid = False

    def el_cid_joins(area: str) -> Proc:
        nonlocal with_cid
        if not with_cid and state.el_cid_side == side and state.el_cid_area == area:
            with_cid = True
            yield Tell(
                f"El Cid, with the {sname}s, is in {area}: he joins the {fname} and moves with it.",
                topic="reconquista.march.el_cid",
                data=_facts(board, side, area, force),
                rule=RULE_EL_CID,
                reason=f"El Cid is on the {sname} side and stands where the force is",
            )

    def joined(extra: list[Kind]) -> Tell:
        return Tell(
            f"{_more(side, len(extra))} the {fname} in {here}: now {describe(side, force)}.",
            topic="reconquista.march.join",
            data=_facts(board, side, here, force) | {"joined": len(extra)},
            rule=rule_for(side, PICK_UP),
            reason=f"other {sname} armies in {here} are added to the force and move with it",
        )

    yield Tell(
        f"The {fname} marches from {here} with {every}{describe(side, force)}.",
        topic="reconquista.march.start",
        data=_facts(board, side, here, force) | {"from": here, "landed": landed, "after_siege": bool(every)},
        rule=rule_for(side, MOVEMENT),
        reason=(
            f"the armies its side keeps at the siege of {here} stay; the others move"
            if every
            else f"every {sname} army in {here} is the force, and it moves"
        ),
    )
    yield from el_cid_joins(here)
    steps = 0
    visited = {here}
    prev: str | None = None
    forced: str | None = None  # after a retreat: the next higher-numbered area
    came_in = False  # whether the force came into ``here`` by a move of this march
    fight = is_target(state.areas[here], side, len(force))  # an enemy where the force stands or came in
    if start_enemy is not None:
        fight = fight and start_enemy
    # Rules version 2 (a game begun under them) judged the area again, the whole force counted
    # as come, at its start and after every move, and took a road from the area it stood in.
    v2 = state.under_v2()
    fresh = True
    while True:
        if v2:
            fight, fresh = fresh and is_target(state.areas[here], side, len(force)), False
        if fight:
            fight = False
            steps += 1
            if prev is None:
                what = contents(state.areas[here], side)
                yield Tell(
                    f"{here} holds {what}: the {fname} fights where it stands.",
                    topic="reconquista.march.enemy",
                    data=_facts(board, side, here, force) | {"at_start": True},
                    rule=rule_for(side, LANDING if landed else ENEMY),
                    reason=f"{here} holds {what}, hostile to the {fname}: it gives battle or besieges where it stands",
                )
            status, force = yield from _fight(board, state, side, here, prev, force)
            if status == "stop":
                return here if state.areas[here].count(side) else None
            if landed and prev is None:
                stays = armies(state.areas[here], side)
                yield _stop(
                    f"The {fname} landed from North Africa where the enemy stood: it does not move, "
                    f"and stays in {here} ({describe(side, stays)}).",
                    _facts(board, side, here, stays),
                    "landed",
                    rule_for(side, LANDING),
                    "a force that lands in an area under enemy control does not move: it gives battle or besieges there",
                )
                return here
            if status == "retreated":
                assert prev is not None  # a force with nowhere back has stopped
                here, prev = prev, None
                if with_cid:
                    state.el_cid_area = here
                extra = _others(state.areas[here], side, force)
                if extra:
                    force = [*force, *extra]
                    yield joined(extra)
                # "withdraw the force back to the area it came from. The Army continues to
                # the next highest-numbered area": the search starts again from there.
                forced, visited = board.next_area(here), set()
                if forced == here:
                    forced = None
            elif state.areas[here].besieger == side:
                force = yield from _besiege(board, state, side, here, force)
                if not force:
                    return here
                visited = {here}
            else:
                yield Tell(
                    f"The {fname} ({describe(side, force)}) has won in {here} and marches on.",
                    topic="reconquista.march.won",
                    data=_facts(board, side, here, force),
                    rule=rule_for(side, VICTORY),
                    reason=f"the way through {here} is clear and no siege is left there, so the movement goes on",
                )
                visited = {here}
        if steps >= budget:
            yield _stop(
                f"The {fname} has made {budget} moves, the most the app allows one march (a guard "
                f"against a march without end): it stops in {here} ({describe(side, force)}).",
                _facts(board, side, here, force) | {"budget": budget},
                "budget",
                rule_for(side, MOVEMENT),
                f"{budget} moves made: the app's last guard against a march without end",
            )
            return here
        if forced is not None:
            step: Step | None = Step(
                forced,
                "after its retreat the force goes on to the next higher-numbered area",
                "after_retreat",
            )
            forced = None
        else:
            step = router(board, state, side, here, came_in or v2)
        if step is None:
            yield _stop(
                f"No enemy can be reached from {here}: the {fname} ({describe(side, force)}) stays there.",
                _facts(board, side, here, force),
                "no_enemy",
                rule_for(side, MOVEMENT),
                f"no road leads from {board.region_of(here).name} to a region with an enemy, "
                "even through other regions",
            )
            return here
        dest = step.dest
        # "repeating the process until reaching an area where there is a road": the way round
        # the region may come back to the area of the road it started from, once.
        back_to_the_road = step.how == "toward_road" and list(step.facts.get("road", ()))[:1] == [dest]
        if dest in visited and (v2 or not back_to_the_road):
            yield _stop(
                f"The {fname} would enter {dest} a second time without meeting an enemy: it stops in "
                f"{here} ({describe(side, force)}).",
                _facts(board, side, here, force) | {"to": dest},
                "circle",
                rule_for(side, MOVEMENT),
                f"{dest} was already entered since the last battle or siege: the app's guard against circling",
            )
            return here
        a = state.areas[here]
        left, kept = "", ""
        if _must_hold(a, side, force):
            keep = force[0]
            no_gar = f"a {walls(a)} with no {SIDE_NAMES[side]} garrison keeps an army"
            if len(force) == 1:
                yield _stop(
                    f"The {fname} would move on ({step.reason}), but {here} is {no_gar}: "
                    f"its last army ({describe(side, force)}) stays there; its movement ends.",
                    _facts(board, side, here, force) | {"to": dest},
                    "last_army",
                    rule_for(side, EACH_MOVE),
                    f"{here} is a {walls(a)} without a {sname} garrison, so it must keep an army, "
                    "and the force has only one",
                )
                return here
            force = force[1:]
            left = f", leaving {describe(side, [keep])} in {here} ({no_gar})"
            kept = f"; leaves {describe(side, [keep])} in {here}: a {walls(a)} without a {sname} garrison"
        move_units(state, side, force, here, dest)
        steps += 1
        cid = ""
        if with_cid:
            state.el_cid_area = dest
            cid = " El Cid goes with it."
        yield Tell(
            f"{fname} moves {here} -> {dest}: {step.reason}. Move {describe(side, force)} from {here} to {dest}{left}.{cid}",
            topic="reconquista.march.move",
            data=_facts(board, side, here, force)
            | {
                "from": here,
                "to": dest,
                "to_region": board.region_of(dest).name,
                "how": step.how,
                "left": 1 if left else 0,
                "el_cid": with_cid,
            }
            | dict(step.facts),
            rule=rule_for(side, RETREAT if step.how == "after_retreat" else MOVEMENT),
            reason=move_reason(board, here, step) + kept,
        )
        prev, here = here, dest
        visited.add(here)
        came_in = fresh = True
        a = state.areas[here]
        if is_target(a, side, len(force)):
            yield Tell(
                f"{here} holds {contents(a, side)}: the {fname} stops there.",
                topic="reconquista.march.enemy",
                data=_facts(board, side, here, force) | {"at_start": False, "from": prev},
                rule=rule_for(side, ENEMY),
                reason=f"{here} holds {contents(a, side)}, hostile to the {fname}: it stops, to give battle or besiege it",
            )
            fight = True
            continue
        # "If the Force enters (or starts in) an area with other Muslim Armies, these are
        # added to the force" (never the besiegers a siege left: they stay at it).
        extra = _others(a, side, force)
        if extra:
            force = [*force, *extra]
            yield joined(extra)
        yield from el_cid_joins(here)


def _fight(board: Board, state: GameState, side: str, here: str, prev: str | None, force: list[Kind]) -> Proc:
    """The force has entered (or starts in) ``here``, which holds an enemy: ``battle.engage``,
    with the reaction's rule for walls of its own side. Returns (status, the force now):
    'on' (the way is clear, or a siege is set: the caller counts who stays), 'retreated'
    (the force stands again in ``prev``) or 'stop'."""
    fname = force_name(side)
    out = yield from _robot(
        engage(board, state, here, side, [prev] if prev else [], force, into_walls=True), prev
    )
    a = state.areas[here]
    if isinstance(out, BattleOutcome):
        if out.result == "attacker_into_walls" or out.attacker_area is None:
            if out.result == "attacker_retreats" and prev is None:
                yield _stop(
                    f"The {fname} came into {here} from no area of the map, so it has nowhere to fall back to.",
                    _facts(board, side, here, out.survivors),
                    "nowhere_back",
                    rule_for(side, RETREAT),
                    "a beaten force withdraws to the area it came from, and it came from no area of the map",
                )
            return "stop", []
        if out.result == "attacker_retreats":
            if out.attacker_area != here:
                return "retreated", list(out.survivors)
            yield _stop(
                f"The {fname} is shut in the city of {here}: its movement ends.",
                _facts(board, side, here, out.survivors),
                "shut_in",
                rule_for(side, RETREAT),
                f"beaten, the force withdrew into the besieged city of {here}",
            )
            return "stop", []
    # The battle is won, or there was none (a siege is set): the force is every army of its
    # side here now (the armies of walls it relieved join it).
    force = armies(a, side)
    if not force:
        yield _stop(
            f"No {SIDE_NAMES[side]} army is left in {here} to march on (garrisons never move).",
            _facts(board, side, here, force),
            "no_army",
            rule_for(side, PICK_UP),
            f"no {SIDE_NAMES[side]} army is left in {here}, and garrisons never move",
        )
        return "stop", []
    if is_target(a, side):
        # Not expected (engage leaves a siege or a won area): never loop on it.
        yield _stop(
            f"{here} still holds {contents(a, side)}: the {fname} stops there.",
            _facts(board, side, here, force),
            "still_enemy",
            rule_for(side, ENEMY),
            f"{here} still holds {contents(a, side)} after the battle: the force goes no further",
        )
        return "stop", []
    return "on", force


def move_force(board: Board, state: GameState, side: str, area: str) -> Proc:
    """Move the whole force of ``side`` ('french' or 'rebel_army') standing in ``area``
    "according to the Muslim reaction rules (Phase 5), except that this [...] force is
    hostile to all other forces" (Phase 2, events 2 and 5). A start among hostile forces
    is fought there first. Returns the area where what is left of it stops, else None."""
    if side not in MARCHERS:
        raise ValueError(f"move_force moves the French or the Rebel armies, not {side!r}")
    return (yield from march(board, state, side, area))
