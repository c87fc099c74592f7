"""Phase 1: Rebellions, as a prompt procedure.

The region die picks a region (a 6: roll for the region again and roll twice on
the table there); the table die gives one of the five results of
``board.tables.rebellion``, each with the fallbacks the rulebook gives. A result
is first worked out on a copy of the state, its random picks included: if it
would eliminate the last Christian-controlled or Muslim-controlled city it does
not stand and the table is rolled again ("To prevent the game from ending
because of a rebellion"); an accepted result is told as one board instruction
and then becomes the real state. docs/rules-notes.md ("Phase 1") lists every reading.
"""

from __future__ import annotations

import dataclasses

from companion.prompts import Roll, Tell
from companion.reconquista.battle import Proc, describe, pick_area
from companion.reconquista.board import Board
from companion.reconquista.control import city_controller
from companion.reconquista.state import (
    SIDE_NAMES,
    SIDES,
    AreaState,
    GameState,
    unit_name,
)
from companion.reconquista.units import ARMY_KINDS, CASUALTY_ORDER, Kind

#: "a Garrison, Army or Military Order": armies of every kind count, neutral ones too.
HOLDING_KINDS = ARMY_KINDS | {Kind.GARRISON, Kind.ORDER}
#: Peasant Revolt: "with Garrison(s), but without an Army or Military Order".
FIELD_KINDS = ARMY_KINDS | {Kind.ORDER}

RESULT_NAMES = {
    "rebels": "Rebels",
    "proselytism": "Proselytism",
    "peasant_revolt": "Peasant Revolt",
    "rebel_governor": "Rebel Governor",
    "regional_revolt": "Regional Revolt",
}

_RANK = {kind: i for i, kind in enumerate(CASUALTY_ORDER)}

#: A worked-out result: a short name for a refusal ("Proselytism in León") and the
#: one board instruction told when it stands.
Outcome = tuple[str, str]


def phase(board: Board, state: GameState) -> Proc:
    """Phase 1: roll for the region (again on a 6, then two results), then the table."""
    region, double = yield from _region_die(board)
    name = board.regions[region].name
    if double:
        yield Tell(
            f"Rebellions strike {name} twice (the region die showed 6): "
            "place the Double Result marker there; roll twice on the rebellion table."
        )
    else:
        yield Tell(f"Rebellions strike {name}: roll on the rebellion table.")
    for n in range(2 if double else 1):
        which = "" if not double else (" (first of two results)" if n == 0 else " (second of two results)")
        yield from _table(board, state, region, which)


def _region_die(board: Board) -> Proc:
    """ "Roll a D6 to select the affected region [...] If the result to determine the
    region is a 6, roll again to determine the region and roll twice on the table";
    a further 6 is rolled again too (there is no sixth region). Returns (region, double)."""
    regions = ", ".join(f"{n} {board.regions[n].name}" for n in sorted(board.regions))
    face = (yield Roll(1, 6, f"Rebellions: region die ({regions}; 6: two results)"))[0]
    double = False
    while face not in board.regions:
        double = True
        face = (
            yield Roll(
                1, 6, f"Rebellions: region die again (a {face}: roll for the region, two results in it)"
            )
        )[0]
    return face, double


def _table(board: Board, state: GameState, region: int, which: str) -> Proc:
    """Roll the table for ``region`` until a result stands, then tell it and apply it."""
    name = board.regions[region].name
    why = f"Rebellions: table die for {name}{which} ({_table_key(board)})"
    while True:
        face = (yield Roll(1, 6, why))[0]
        result = board.tables.rebellion[face]
        # Worked out on a copy: the rule looks at what the result "would" do, random picks
        # included, and a refused result must leave the table as it was.
        trial = trial_copy(state)
        short, text = yield from _resolve(board, trial, region, result)
        lost = [
            side
            for side in ("christian", "muslim")
            if _controls_a_city(state, side) and not _controls_a_city(trial, side)
        ]
        if lost:
            whose = " and ".join(SIDE_NAMES[side] for side in lost)
            yield Tell(
                f"Rebellions: {short} would eliminate the last city under {whose} "
                "control, so it does not happen and nothing changes on the board; "
                "the rulebook says roll again."
            )
            why = f"Rebellions: table die for {name}{which}, rolled again ({short} would have eliminated the last {whose}-controlled city)"
            continue
        # The driver holds this very state object: the copy's board goes back into it.
        state.areas = trial.areas
        state.revolt = trial.revolt
        yield Tell(text)
        return


def trial_copy(state: GameState) -> GameState:
    """A copy of ``state`` whose areas can change without touching ``state``: every area
    and its unit counts are new objects (kinds are immutable; the effects object is shared,
    and a rebellion never changes it). It equals ``copy.deepcopy(state)`` for what a
    rebellion changes (areas, revolt)."""
    return dataclasses.replace(state, areas={name: a.copy() for name, a in state.areas.items()})


def _table_key(board: Board) -> str:
    """'1-2 Rebels, 3 Proselytism, ...' from board.tables.rebellion."""
    table = board.tables.rebellion
    runs: list[tuple[int, int, str]] = []
    for face in sorted(table):
        if runs and runs[-1][2] == table[face] and runs[-1][1] == face - 1:
            runs[-1] = (runs[-1][0], face, table[face])
        else:
            runs.append((face, face, table[face]))
    return ", ".join((f"{a}-{b}" if a != b else f"{a}") + f" {RESULT_NAMES[r]}" for a, b, r in runs)


def _controls_a_city(state: GameState, side: str) -> bool:
    return any(city_controller(a) == side for a in state.areas.values())


def _resolve(board: Board, state: GameState, region: int, result: str) -> Proc:
    """Carry out one table result on ``state`` (a copy); yields only the Rolls of its
    random picks (or the Tell naming the only area a pick can give) and returns the Outcome."""
    rname = board.regions[region].name
    lead = f"Rebellions in {rname}, {RESULT_NAMES[result]}: "
    if result == "rebels":
        return (yield from _rebels(board, state, region, lead))
    if result == "proselytism":
        return (yield from _proselytism(board, state, region, lead))
    if result == "peasant_revolt":
        return (yield from _peasant_revolt(board, state, region, lead))
    if result == "rebel_governor":
        return (yield from _rebel_governor(board, state, region, lead))
    return _regional_revolt(board, state, region, lead)


# -- 1-2 Rebels -----------------------------------------------------------------------


def _rebels(board: Board, state: GameState, region: int, lead: str) -> Proc:
    """ "Place a Rebel unit in a randomly determined area that does not contain a Garrison,
    Army or Military Order. If no viable area exists, randomly select a single area and
    remove a single unit (priority according to the combat removal rules).\""""
    rname = board.regions[region].name

    def viable(name: str) -> bool:
        a = state.areas[name]
        return not any(a.count(s, k) for s in a.sides() for k in HOLDING_KINDS)

    area = yield from pick_area(
        board,
        region,
        viable,
        f"Rebellions, Rebels: area die for {rname} (an area without a Garrison, Army or Military Order)",
        title="Rebellions, Rebels",
        only=f"an area of {rname} without a Garrison, Army or Military Order",
    )
    if area is not None:
        a = state.areas[area]
        before = city_controller(a)
        a.add("rebel", Kind.REBEL)
        _rebels_hold(a)
        return (
            f"Rebels in {area}",
            f"{lead}place 1 Rebel in {area}.{_fell(a, area, before)}",
        )
    # No viable area: every area holds a Garrison, Army or Military Order, so any
    # area with a unit will do (all of them, in fact).
    area = yield from pick_area(
        board,
        region,
        lambda name: state.areas[name].total() > 0,
        f"Rebellions, Rebels: every area of {rname} holds a Garrison, Army or Military Order; area die for the area that loses a unit",
        title="Rebellions, Rebels",
        only=f"an area of {rname} with a unit to lose",
    )
    if area is None:  # a region with no unit at all always has a viable area
        return (f"Rebels in {rname}", f"{lead}nothing happens.")
    a = state.areas[area]
    side, kind = first_casualty(a)
    a.remove(side, kind)
    return (
        f"Rebels in {area} (a unit lost)",
        (
            f"{lead}no area of {rname} is without a Garrison, Army or Military Order, so {area} "
            f"loses a unit instead: remove {unit_name(side, kind)} from {area}."
        ),
    )


def first_casualty(a: AreaState) -> tuple[str, Kind]:
    """The unit a rebellion removes from ``a``: the first by the casualty order among all
    its units; when several sides have a unit of that kind, the side holding the place
    (not its besieger), then the side with more units there, then the order of SIDES."""
    return min(
        ((s, k) for s in a.sides() for k in a.units[s]),
        key=lambda sk: (_RANK[sk[1]], sk[0] == a.besieger, -a.count(sk[0]), SIDES.index(sk[0])),
    )


# -- 3 Proselytism ---------------------------------------------------------------------


def _proselytism(board: Board, state: GameState, region: int, lead: str) -> Proc:
    """ "Select a city at random in the Region. If it is Muslim, change that city to
    Christian. If it is Christian, change that city to Muslim. If there are no cities in
    the region, treat this result as Rebels (a result of 1 or 2).\""""
    rname = board.regions[region].name
    area = yield from _random_city(board, state, region, "Rebellions, Proselytism")
    if area is None:
        return (
            yield from _rebels(
                board, state, region, f"{lead}there is no city in {rname}, so it counts as Rebels: "
            )
        )
    a = state.areas[area]
    old = a.city
    assert old is not None  # _random_city picks an area with a city
    new = "christian" if old == "muslim" else "muslim"
    a.city = new
    return (
        f"Proselytism in {area}",
        (
            f"{lead}the city of {area} changes religion: replace the {SIDE_NAMES[old]} city of {area} "
            f"with a {SIDE_NAMES[new]} city{' (the fortress stays)' if a.fortress else ''}."
        ),
    )


def _random_city(board: Board, state: GameState, region: int, title: str) -> Proc:
    """ "Select a city at random in the Region": an area of the region with a city."""
    rname = board.regions[region].name
    return (
        yield from pick_area(
            board,
            region,
            lambda name: state.areas[name].city is not None,
            f"{title}: area die for a city of {rname}",
            title=title,
            only=f"an area of {rname} with a city",
        )
    )


# -- 4 Peasant Revolt -------------------------------------------------------------------


def _peasant_revolt(board: Board, state: GameState, region: int, lead: str) -> Proc:
    """ "Randomly select an area with Garrison(s), but without an Army or Military Order.
    Remove all Garrisons and replace them with a single Rebel unit. If there are no
    Garrisons, treat this result as Rebels (a result of 1 or 2)." Garrisons of every side
    go; with no such area (no Garrison, or each beside an army), Rebels."""
    rname = board.regions[region].name

    def qualifies(name: str) -> bool:
        a = state.areas[name]
        sides = a.sides()
        return any(a.count(s, Kind.GARRISON) for s in sides) and not any(
            a.count(s, k) for s in sides for k in FIELD_KINDS
        )

    area = yield from pick_area(
        board,
        region,
        qualifies,
        f"Rebellions, Peasant Revolt: area die for {rname} (an area with Garrisons and no Army or Military Order)",
        title="Rebellions, Peasant Revolt",
        only=f"an area of {rname} with Garrisons and no Army or Military Order",
    )
    if area is None:
        return (
            yield from _rebels(
                board,
                state,
                region,
                f"{lead}no area of {rname} has Garrisons without an Army or Military Order, so it counts as Rebels: ",
            )
        )
    a = state.areas[area]
    before = city_controller(a)
    gone = [
        unit_name(s, Kind.GARRISON, a.count(s, Kind.GARRISON)) for s in a.sides() if a.count(s, Kind.GARRISON)
    ]
    for s in a.sides():
        a.remove(s, Kind.GARRISON, a.count(s, Kind.GARRISON))
    a.add("rebel", Kind.REBEL)
    _rebels_hold(a)
    return (
        f"Peasant Revolt in {area}",
        f"{lead}remove {_and(gone)} from {area} and place 1 Rebel there.{_fell(a, area, before)}",
    )


# -- 5 Rebel Governor --------------------------------------------------------------------


def _rebel_governor(board: Board, state: GameState, region: int, lead: str) -> Proc:
    """ "Select a city at random in the Region. Replace all Armies, Military Orders and
    Garrisons in the city with the same number of Rebel counters. If no units are
    present, or the city is already under Rebel control, place a single Rebel unit. If
    there are no cities in the Region, treat this result as Rebels." The units in the
    city are those of the side inside; besiegers stand outside and stay."""
    rname = board.regions[region].name
    area = yield from _random_city(board, state, region, "Rebellions, Rebel Governor")
    if area is None:
        return (
            yield from _rebels(
                board, state, region, f"{lead}there is no city in {rname}, so it counts as Rebels: "
            )
        )
    a = state.areas[area]
    before = city_controller(a)
    inside = [s for s in a.sides() if s != a.besieger and s != "rebel"]
    outside = a.besieger
    if before == "rebel" or not inside:
        a.add("rebel", Kind.REBEL)
        _rebels_hold(a)
        why = "already under Rebel control" if before == "rebel" else "no units in it"
        text = f"{lead}the city of {area} has {why}: place 1 Rebel in the city of {area}."
    else:
        replaced = [describe(s, a.force(s)) for s in inside]
        n = sum(a.count(s) for s in inside)
        for s in inside:
            a.set_force(s, [])
        a.add("rebel", Kind.REBEL, n)
        _rebels_hold(a)
        text = (
            f"{lead}the governor of {area} rebels: replace {_and(replaced)} in the city of {area} "
            f"with {unit_name('rebel', Kind.REBEL, n)}."
        )
    if outside is not None and a.besieger == outside:
        text += f" The {SIDE_NAMES[outside]} force outside stays and now besieges the Rebels."
    return (f"Rebel Governor in {area}", text + _fell(a, area, before))


# -- 6 Regional Revolt ------------------------------------------------------------------


def _regional_revolt(board: Board, state: GameState, region: int, lead: str) -> Outcome:
    """ "This entire region is excluded from the game for this entire turn. It generates no
    income. No one can move into it or build." A second 6 in a double: it stays in revolt."""
    rname = board.regions[region].name
    if state.revolt == region:
        return (
            f"Regional Revolt in {rname}",
            f"{lead}{rname} is already in revolt this turn and stays in revolt.",
        )
    state.revolt = region
    return (
        f"Regional Revolt in {rname}",
        (
            f"{lead}place the Region in Revolt marker on {rname}: the region is out of the game this turn "
            "(no income from it, no one moves into it or builds there; random events and the Muslim "
            "reaction go elsewhere)."
        ),
    )


# -- helpers -------------------------------------------------------------------------------


def _rebels_hold(a: AreaState) -> None:
    """A Rebel placed by a rebellion is inside the city or fortress: Rebels that were
    besieging it join him and hold the place ("A City is under Rebel control if it
    contains Rebel forces")."""
    if a.besieger == "rebel":
        a.besieger = None


def _fell(a: AreaState, area: str, before: str | None) -> str:
    """ " In all cases, if a city falls into Rebel hands, any Fortress present stays in place.\""""
    if a.city is None or before == "rebel" or city_controller(a) != "rebel":
        return ""
    return f" The city of {area} falls into Rebel hands" + (" (the fortress stays)." if a.fortress else ".")


def _and(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


__all__ = ["HOLDING_KINDS", "RESULT_NAMES", "first_casualty", "phase", "trial_copy"]
