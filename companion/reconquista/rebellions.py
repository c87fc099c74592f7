"""Phase 1: Rebellions, as a prompt procedure.

The region die picks a region (a 6: roll for the region again and roll twice on
the table there); the table die gives one of the five results of
``board.tables.rebellion``, each with the fallbacks the rulebook gives. A result
is first worked out on a copy of the state, its random picks included: if it
would eliminate the last Christian-controlled or Muslim-controlled city it does
not stand and the table is rolled again ("To prevent the game from ending
because of a rebellion"); an accepted result is told as one board instruction
and then becomes the real state. docs/rules-notes.md ("Phase 1") lists every reading.

Topics (``companion.prompts``): ``reconquista.rebellions.region`` (the region die; the
re-roll after a 6 has ``double`` True), ``.strike`` (the region struck), ``.table`` (the table
die: ``region``, ``again`` True only on the roll asked again after a refused result, whose
``rejected`` and ``sides`` say what was refused), ``.area`` (a result's area die or the only
area: ``result`` and ``wanted``), ``.refused`` and ``.result`` (the board instruction: the
``result`` rolled, the one carried out ``as``, its ``area`` and units).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any, NamedTuple

from companion.prompts import Roll, Tell
from companion.reconquista.battle import Proc, describe, pick_area
from companion.reconquista.board import Board
from companion.reconquista.control import city_controller
from companion.reconquista.selection import About
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

PHASE_RULE = "Phase 1: Rebellions"
#: The rulebook's rows of the table, by result: the rule a result's steps follow.
RESULT_RULES = {
    "rebels": f"{PHASE_RULE} — 1 or 2 Rebels",
    "proselytism": f"{PHASE_RULE} — 3 Proselytism",
    "peasant_revolt": f"{PHASE_RULE} — 4 Peasant Revolt",
    "rebel_governor": f"{PHASE_RULE} — 5 Rebel Governor",
    "regional_revolt": f"{PHASE_RULE} — 6 Regional Revolt",
}


class Outcome(NamedTuple):
    """A worked-out result: a short name for a refusal ("Proselytism in León"), the one
    board instruction told when it stands, and the facts of that instruction (its data)."""

    short: str
    text: str
    facts: dict[str, Any]


def phase(board: Board, state: GameState) -> Proc:
    """Phase 1: roll for the region (again on a 6, then two results), then the table."""
    region, double = yield from _region_die(board)
    name = board.regions[region].name
    topic, data = "reconquista.rebellions.strike", {"region": name, "double": double}
    if double:
        yield Tell(
            f"Rebellions strike {name} twice (the region die showed 6): "
            "place the Double Result marker there; roll twice on the rebellion table.",
            topic=topic,
            data=data,
            rule=f"{PHASE_RULE} — If the result to determine the region is a 6",
        )
    else:
        yield Tell(
            f"Rebellions strike {name}: roll on the rebellion table.",
            topic=topic,
            data=data,
            rule=f"{PHASE_RULE} — Roll a D6 to select the affected region",
        )
    for n in range(2 if double else 1):
        which = "" if not double else (" (first of two results)" if n == 0 else " (second of two results)")
        yield from _table(board, state, region, which, double=double, second=n == 1)
    if double and not state.under_v2():  # rules version 2 never told it
        # "Double Result - Can be used to remember a result that has a double effect": once
        # both results stand, there is nothing left to remember.
        yield Tell(
            f"Both rebellion results in {name} are done: remove the Double Result marker.",
            topic="reconquista.rebellions.double_over",
            data={"region": name},
            rule=f"{PHASE_RULE} — If the result to determine the region is a 6",
            reason="the marker keeps count of the two results, and both have been rolled",
        )


def _region_die(board: Board) -> Proc:
    """ "Roll a D6 to select the affected region [...] If the result to determine the
    region is a 6, roll again to determine the region and roll twice on the table";
    a further 6 is rolled again too (there is no sixth region). Returns (region, double)."""
    regions = ", ".join(f"{n} {board.regions[n].name}" for n in sorted(board.regions))
    topic, rule = "reconquista.rebellions.region", f"{PHASE_RULE} — Roll a D6 to select the affected region"
    faces = {str(n): board.regions[n].name for n in sorted(board.regions)}
    face = (
        yield Roll(
            1,
            6,
            f"Rebellions: region die ({regions}; 6: two results)",
            topic=topic,
            data={"faces": faces, "double": False},
            rule=rule,
        )
    )[0]
    double = False
    while face not in board.regions:
        double = True
        face = (
            yield Roll(
                1,
                6,
                f"Rebellions: region die again (a {face}: roll for the region, two results in it)",
                topic=topic,
                data={"faces": faces, "double": True, "rolled": face},
                rule=f"{PHASE_RULE} — If the result to determine the region is a 6",
                reason=f"a {face} names no region: roll again for the region, and two results there",
            )
        )[0]
    return face, double


def _table(
    board: Board, state: GameState, region: int, which: str, *, double: bool = False, second: bool = False
) -> Proc:
    """Roll the table for ``region`` until a result stands, then tell it and apply it.
    ``double``: the region is struck twice; ``second``: this is the second of the two."""
    name = board.regions[region].name
    why = f"Rebellions: table die for {name}{which} ({_table_key(board)})"
    facts: dict[str, Any] = {"region": name, "double": double, "second": second}
    again: dict[str, Any] = {"again": False}
    reason = ""
    while True:
        face = (
            yield Roll(
                1,
                6,
                why,
                topic="reconquista.rebellions.table",
                data=facts | again,
                rule=f"{PHASE_RULE} — then roll another D6 and consult the table",
                reason=reason,
            )
        )[0]
        result = board.tables.rebellion[face]
        # Worked out on a copy: the rule looks at what the result "would" do, random picks
        # included, and a refused result must leave the table as it was.
        trial = trial_copy(state)
        outcome = yield from _resolve(board, trial, region, result)
        short = outcome.short
        lost = [
            side
            for side in ("christian", "muslim")
            if _controls_a_city(state, side) and not _controls_a_city(trial, side)
        ]
        if lost:
            whose = " and ".join(SIDE_NAMES[side] for side in lost)
            said = short[0].lower() + short[1:]
            reason = f"{said} would have eliminated the last {whose}-controlled city"
            yield Tell(
                f"Rebellions: {short} would eliminate the last city under {whose} "
                "control, so it does not happen and nothing changes on the board; "
                "the rulebook says roll again.",
                topic="reconquista.rebellions.refused",
                data=facts | {"result": result, "sides": lost},
                rule=f"{PHASE_RULE} — To prevent the game from ending because of a rebellion",
                reason=f"{said} would eliminate the last {whose}-controlled city",
            )
            why = f"Rebellions: table die for {name}{which}, rolled again ({short} would have eliminated the last {whose}-controlled city)"
            again = {"again": True, "rejected": result, "sides": lost}
            continue
        # The driver holds this very state object: the copy's board goes back into it.
        state.areas = trial.areas
        state.revolt = trial.revolt
        yield Tell(
            outcome.text,
            topic="reconquista.rebellions.result",
            data=facts | {"result": result} | outcome.facts,
            rule=RESULT_RULES[result],
            reason=_result_reason(outcome.facts),
        )
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


def _pick_area(
    board: Board,
    region: int,
    qualifies: Callable[[str], bool],
    why: str,
    *,
    title: str,
    only: str,
    result: str,
    wanted: str,
) -> Proc:
    """An area of ``region`` by the area die (``battle.pick_area``), its prompts saying which
    result asks for it and what it looks for (``wanted``)."""
    about = About(
        "reconquista.rebellions.area",
        {"region": board.regions[region].name, "result": result, "wanted": wanted},
        RESULT_RULES[result],
    )
    return (yield from pick_area(board, region, qualifies, why, title=title, only=only, about=about))


def _result_reason(facts: dict[str, Any]) -> str:
    """Why the result comes out as it does, where the rulebook's fallbacks chose for it."""
    reasons = []
    if facts.get("instead_of") and facts.get("as") == "rebels":
        reasons.append(
            {
                "proselytism": "there is no city in the region, so it counts as rebels",
                "rebel_governor": "there is no city in the region, so it counts as rebels",
                "peasant_revolt": "no area has garrisons without an army or military order, so it counts as rebels",
            }[facts["instead_of"]]
        )
    if "removed" in facts and facts.get("as") == "rebels":
        reasons.append(
            "no area is without a garrison, army or military order, so one unit is lost, "
            "the first by the combat removal order"
        )
    return "; ".join(reasons)


# -- 1-2 Rebels -----------------------------------------------------------------------


def _rebels(board: Board, state: GameState, region: int, lead: str, result: str = "rebels") -> Proc:
    """ "Place a Rebel unit in a randomly determined area that does not contain a Garrison,
    Army or Military Order. If no viable area exists, randomly select a single area and
    remove a single unit (priority according to the combat removal rules)." ``result`` is
    the result rolled, when it counts as Rebels."""
    rname = board.regions[region].name
    fallback = {"instead_of": result} if result != "rebels" else {}

    def viable(name: str) -> bool:
        a = state.areas[name]
        return not any(a.count(s, k) for s in a.sides() for k in HOLDING_KINDS)

    area = yield from _pick_area(
        board,
        region,
        viable,
        f"Rebellions, Rebels: area die for {rname} (an area without a Garrison, Army or Military Order)",
        title="Rebellions, Rebels",
        only=f"an area of {rname} without a Garrison, Army or Military Order",
        result="rebels",
        wanted="no_garrison_army_or_order",
    )
    if area is not None:
        a = state.areas[area]
        before = city_controller(a)
        a.add("rebel", Kind.REBEL)
        _rebels_hold(a)
        return Outcome(
            f"Rebels in {area}",
            f"{lead}place 1 Rebel in {area}.{_fell(a, area, before)}",
            {"as": "rebels", **fallback, "area": area, "placed": 1, "fell": _falls(a, before)},
        )
    # No viable area: every area holds a Garrison, Army or Military Order, so any
    # area with a unit will do (all of them, in fact).
    area = yield from _pick_area(
        board,
        region,
        lambda name: state.areas[name].total() > 0,
        f"Rebellions, Rebels: every area of {rname} holds a Garrison, Army or Military Order; area die for the area that loses a unit",
        title="Rebellions, Rebels",
        only=f"an area of {rname} with a unit to lose",
        result="rebels",
        wanted="a_unit_to_lose",
    )
    if area is None:  # a region with no unit at all always has a viable area
        return Outcome(
            f"Rebels in {rname}", f"{lead}nothing happens.", {"as": "rebels", **fallback, "area": None}
        )
    a = state.areas[area]
    side, kind = first_casualty(a)
    a.remove(side, kind)
    return Outcome(
        f"Rebels in {area} (a unit lost)",
        (
            f"{lead}no area of {rname} is without a Garrison, Army or Military Order, so {area} "
            f"loses a unit instead: remove {unit_name(side, kind)} from {area}."
        ),
        {"as": "rebels", **fallback, "area": area, "removed": {side: {kind.value: 1}}},
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
    area = yield from _random_city(board, state, region, "Rebellions, Proselytism", "proselytism")
    if area is None:
        return (
            yield from _rebels(
                board,
                state,
                region,
                f"{lead}there is no city in {rname}, so it counts as Rebels: ",
                "proselytism",
            )
        )
    a = state.areas[area]
    old = a.city
    assert old is not None  # _random_city picks an area with a city
    new = "christian" if old == "muslim" else "muslim"
    a.city = new
    return Outcome(
        f"Proselytism in {area}",
        (
            f"{lead}the city of {area} changes religion: replace the {SIDE_NAMES[old]} city of {area} "
            f"with a {SIDE_NAMES[new]} city{' (the fortress stays)' if a.fortress else ''}."
        ),
        {"as": "proselytism", "area": area, "from": old, "to": new},
    )


def _random_city(board: Board, state: GameState, region: int, title: str, result: str) -> Proc:
    """ "Select a city at random in the Region": an area of the region with a city."""
    rname = board.regions[region].name
    return (
        yield from _pick_area(
            board,
            region,
            lambda name: state.areas[name].city is not None,
            f"{title}: area die for a city of {rname}",
            title=title,
            only=f"an area of {rname} with a city",
            result=result,
            wanted="a_city",
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

    area = yield from _pick_area(
        board,
        region,
        qualifies,
        f"Rebellions, Peasant Revolt: area die for {rname} (an area with Garrisons and no Army or Military Order)",
        title="Rebellions, Peasant Revolt",
        only=f"an area of {rname} with Garrisons and no Army or Military Order",
        result="peasant_revolt",
        wanted="garrisons_without_army_or_order",
    )
    if area is None:
        return (
            yield from _rebels(
                board,
                state,
                region,
                f"{lead}no area of {rname} has Garrisons without an Army or Military Order, so it counts as Rebels: ",
                "peasant_revolt",
            )
        )
    a = state.areas[area]
    before = city_controller(a)
    gone = [
        unit_name(s, Kind.GARRISON, a.count(s, Kind.GARRISON)) for s in a.sides() if a.count(s, Kind.GARRISON)
    ]
    removed = {
        s: {Kind.GARRISON.value: a.count(s, Kind.GARRISON)} for s in a.sides() if a.count(s, Kind.GARRISON)
    }
    for s in a.sides():
        a.remove(s, Kind.GARRISON, a.count(s, Kind.GARRISON))
    a.add("rebel", Kind.REBEL)
    _rebels_hold(a)
    return Outcome(
        f"Peasant Revolt in {area}",
        f"{lead}remove {_and(gone)} from {area} and place 1 Rebel there.{_fell(a, area, before)}",
        {"as": "peasant_revolt", "area": area, "removed": removed, "placed": 1, "fell": _falls(a, before)},
    )


# -- 5 Rebel Governor --------------------------------------------------------------------


def _rebel_governor(board: Board, state: GameState, region: int, lead: str) -> Proc:
    """ "Select a city at random in the Region. Replace all Armies, Military Orders and
    Garrisons in the city with the same number of Rebel counters. If no units are
    present, or the city is already under Rebel control, place a single Rebel unit. If
    there are no cities in the Region, treat this result as Rebels." The units in the
    city are those of the side inside; besiegers stand outside and stay."""
    rname = board.regions[region].name
    area = yield from _random_city(board, state, region, "Rebellions, Rebel Governor", "rebel_governor")
    if area is None:
        return (
            yield from _rebels(
                board,
                state,
                region,
                f"{lead}there is no city in {rname}, so it counts as Rebels: ",
                "rebel_governor",
            )
        )
    a = state.areas[area]
    before = city_controller(a)
    inside = [s for s in a.sides() if s != a.besieger and s != "rebel"]
    outside = a.besieger
    facts: dict[str, Any] = {"as": "rebel_governor", "area": area}
    if before == "rebel" or not inside:
        a.add("rebel", Kind.REBEL)
        _rebels_hold(a)
        why = "already under Rebel control" if before == "rebel" else "no units in it"
        text = f"{lead}the city of {area} has {why}: place 1 Rebel in the city of {area}."
        facts |= {"replaced": {}, "placed": 1}
    else:
        replaced = [describe(s, a.force(s)) for s in inside]
        facts["replaced"] = {s: {k.value: n for k, n in sorted(a.units[s].items())} for s in inside}
        n = sum(a.count(s) for s in inside)
        for s in inside:
            a.set_force(s, [])
        a.add("rebel", Kind.REBEL, n)
        _rebels_hold(a)
        text = (
            f"{lead}the governor of {area} rebels: replace {_and(replaced)} in the city of {area} "
            f"with {unit_name('rebel', Kind.REBEL, n)}."
        )
        facts["placed"] = n
    stays = outside is not None and a.besieger == outside
    if stays:
        assert outside is not None
        text += f" The {SIDE_NAMES[outside]} force outside stays and now besieges the Rebels."
    facts |= {"besieger": outside if stays else None, "fell": _falls(a, before)}
    return Outcome(f"Rebel Governor in {area}", text + _fell(a, area, before), facts)


# -- 6 Regional Revolt ------------------------------------------------------------------


def _regional_revolt(board: Board, state: GameState, region: int, lead: str) -> Outcome:
    """ "This entire region is excluded from the game for this entire turn. It generates no
    income. No one can move into it or build." A second 6 in a double: it stays in revolt."""
    rname = board.regions[region].name
    if state.revolt == region:
        return Outcome(
            f"Regional Revolt in {rname}",
            f"{lead}{rname} is already in revolt this turn and stays in revolt.",
            {"as": "regional_revolt", "already": True},
        )
    state.revolt = region
    return Outcome(
        f"Regional Revolt in {rname}",
        (
            f"{lead}place the Region in Revolt marker on {rname}: the region is out of the game this turn "
            "(no income from it, no one moves into it or builds there; random events and the Muslim "
            "reaction go elsewhere)."
        ),
        {"as": "regional_revolt", "already": False},
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
    if not _falls(a, before):
        return ""
    return f" The city of {area} falls into Rebel hands" + (" (the fortress stays)." if a.fortress else ".")


def _falls(a: AreaState, before: str | None) -> bool:
    """Whether the city of ``a`` has just fallen into Rebel hands (what ``_fell`` tells)."""
    return a.city is not None and before != "rebel" and city_controller(a) == "rebel"


def _and(parts: list[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


__all__ = ["HOLDING_KINDS", "RESULT_NAMES", "first_casualty", "phase", "trial_copy"]
