"""Phase 2: Events, as a prompt procedure.

2D6 on ``board.tables.events`` gives one of eleven events. Each asks for the dice
it needs, is told in one Tell naming the event and what it does this turn, and
records in ``state.effects`` what later phases use (bribery, mercenaries,
crusaders, taxes, expulsion, jihad). The French and the Rebel armies are placed
and then moved at once by ``march.move_force`` (or the stand-in a test gives as
``move``); the Military Order and El Cid are placed; famine takes its losses. The
region in revolt is spared: "If it is affected by a random event, roll again to have
the event in another Region".
docs/rules-notes.md ("Phase 2") lists every reading.

Topics (``companion.prompts``): ``reconquista.events.roll`` (the 2D6), then one per event for
its Tell (``.french``, ``.bribery``, ``.mercenaries``, ``.rebels``, ``.military_order``,
``.famine``, ``.el_cid``, ``.taxes``, ``.jihad``, ``.crusade``, ``.expulsion``) and one per
question it asks (``.french_count``, ``.french_start``, ``.mercenaries_count``,
``.rebels_count``, ``.rebels_start``, ``.military_order_city``, ``.el_cid_side``,
``.el_cid_force``, ``.crusade_count``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from companion.prompts import Choose, Prompt, Roll, Tell
from companion.reconquista import combat
from companion.reconquista.battle import Proc, describe, lost
from companion.reconquista.board import Board
from companion.reconquista.control import city_controller
from companion.reconquista.march import move_force
from companion.reconquista.selection import About, by_die, by_two_dice
from companion.reconquista.state import GameState, unit_name
from companion.reconquista.units import ARMY_KINDS, Kind

EVENT_NAMES = {
    "french_intervention": "French Intervention",
    "bribery": "Bribery",
    "mercenaries": "Mercenaries",
    "rebel_armies": "Rebels",
    "military_order": "Military Order",
    "famine": "Famine",
    "el_cid": "El Cid",
    "taxes": "Taxes",
    "jihad": "Jihad",
    "crusade": "Crusade",
    "expulsion": "Expulsion of Jews / Moriscos",
}


#: The Phase 2 roll: its total picks the event.
ROLL_TOPIC = "reconquista.events.roll"


def roll_faces(board: Board, prompt: Prompt) -> list[tuple[str, str]]:
    """What each result of a roll waiting means, where a table decides it: the events' 2D6,
    each total and its event ("Phase 2: Events — Roll two dice (2D6), add them together and
    consult the Events table"); empty for any other roll (a region die names its faces in its
    question already)."""
    if prompt.topic == ROLL_TOPIC:
        return [
            (str(total), EVENT_NAMES[board.tables.events[total]]) for total in sorted(board.tables.events)
        ]
    return []


#: What moves the French or Rebel armies an event has placed: (board, state, side, area).
Mover = Callable[[Board, GameState, str, str], Proc]

#: The rule each event follows: events 2 to 5 are told in full under "Phase 2: Events",
#: the others only on the Quick Reference Sheet.
_QUICK = "Quick Reference Sheet — Phase 2 - Random event: "
RULES = {
    "french_intervention": "Phase 2: Events — 2 French Intervention",
    "bribery": "Phase 2: Events — 3 Bribery",
    "mercenaries": "Phase 2: Events — 4 Mercenaries",
    "rebel_armies": "Phase 2: Events — 5 Rebels",
    "military_order": _QUICK + "6 Military Order",
    "famine": _QUICK + "7 Famine",
    "el_cid": _QUICK + "8 El Cid",
    "taxes": _QUICK + "9 Taxes",
    "jihad": _QUICK + "10 Jihad",
    "crusade": _QUICK + "11 Crusade",
    "expulsion": _QUICK + "12 Expulsion of Jews / Moriscos",
}


def phase(board: Board, state: GameState, move: Mover | None = None) -> Proc:
    """Phase 2: roll 2D6, look the total up and carry the event out. ``move`` moves the
    French or Rebel armies an event places: ``march.move_force`` unless a test gives
    a stand-in, to check the event's own part apart from the march."""
    dice = yield Roll(
        2,
        6,
        "Events: 2D6, the total picks the event",
        topic=ROLL_TOPIC,
        rule="Phase 2: Events — Roll two dice (2D6), add them together",
    )
    event = board.tables.events[sum(dice)]
    state.effects.event = event
    if event == "french_intervention":
        yield from french_intervention(board, state, move)
    elif event == "rebel_armies":
        yield from rebel_armies(board, state, move)
    else:
        yield from HANDLERS[event](board, state)


def _in_revolt(board: Board, state: GameState, area: str) -> bool:
    return state.revolt is not None and board.areas[area].region == state.revolt


def _revolt_name(board: Board, state: GameState) -> str:
    return board.regions[state.revolt].name if state.revolt is not None else ""


def _revolt_refusal(board: Board, state: GameState, area: str) -> str | None:
    """Why a starting area is rolled again: "If it is affected by a random event, roll again
    to have the event in another Region" (Phase 1, Regional Revolt)."""
    if _in_revolt(board, state, area):
        return f"in {_revolt_name(board, state)}, which is in revolt"
    return None


def _revolt_or_none(board: Board, state: GameState) -> str | None:
    """The region in revolt by name, for a prompt's data (None: no region is)."""
    return _revolt_name(board, state) or None


def _face_names(table: dict[int, str]) -> dict[str, str]:
    """A die table as data: {"1": "Oviedo", ...} (JSON keys are strings)."""
    return {str(face): name for face, name in sorted(table.items())}


def _only_city(area: str, state: GameState) -> str:
    where = " outside the region in revolt" if state.revolt is not None else ""
    return f"{area} is the only city under christian control{where}, so the order goes there"


def _start_outside_revolt(board: Board, state: GameState) -> str:
    """What a starting area must be, for the Tell that names the only one."""
    if state.revolt is None:
        return "a starting area of the table"
    return f"a starting area outside {_revolt_name(board, state)}, which is in revolt"


def _faces(table: dict[int, str]) -> str:
    """{1: 'Oviedo', 2: 'Oviedo', 3: 'Pamplona'} -> '1-2 Oviedo, 3 Pamplona'."""
    runs: list[tuple[int, int, str]] = []
    for face in sorted(table):
        if runs and runs[-1][2] == table[face] and runs[-1][1] == face - 1:
            runs[-1] = (runs[-1][0], face, table[face])
        else:
            runs.append((face, face, table[face]))
    return ", ".join(f"{a}-{b} {n}" if a != b else f"{a} {n}" for a, b, n in runs)


def _counts(units: list[Kind]) -> dict[str, int]:
    """[A, A, G] -> {"A": 2, "G": 1}: units as the state's snapshot names them."""
    out: dict[str, int] = {}
    for k in units:
        out[k.value] = out.get(k.value, 0) + 1
    return out


def _points(n: int) -> str:
    return f"{n} income point{'s' if n != 1 else ''}"


def _list(faces: list[int]) -> str:
    """[1, 2, 3] -> '1-3'; [1, 3] -> '1, 3'."""
    ordered = sorted(faces)
    if ordered == list(range(ordered[0], ordered[-1] + 1)) and len(ordered) > 1:
        return f"{ordered[0]}-{ordered[-1]}"
    return ", ".join(map(str, ordered))


# -- 2 French Intervention ---------------------------------------------------------------


def french_intervention(board: Board, state: GameState, move: Mover | None = None) -> Proc:
    """ "Roll a D6. This is the number of French Armies that appear [...] Roll another D6
    to determine their starting location [...] move this French force according to the
    Muslim reaction rules (Phase 5), except that this French force is hostile to all other
    forces". A start in the region in revolt is rolled again."""
    title = EVENT_NAMES["french_intervention"]
    rule = RULES["french_intervention"]
    table = board.tables.french_start
    if all(_in_revolt(board, state, a) for a in table.values()):
        yield Tell(
            f"{title}: every starting area of the French is in {_revolt_name(board, state)}, in revolt: the French do not appear.",
            topic="reconquista.events.french",
            data={"appear": False, "armies": 0, "area": None, "revolt": _revolt_name(board, state)},
            rule="Phase 1: Rebellions — 6 Regional Revolt",
            reason=f"every starting area of the french is in {_revolt_name(board, state)}, which is in revolt",
        )
        return
    n = (
        yield Roll(
            1,
            6,
            f"{title}: how many French armies appear (D6)",
            topic="reconquista.events.french_count",
            rule=f"{rule} — Roll a D6. This is the number of French Armies",
        )
    )[0]
    area = yield from by_die(
        table,
        lambda a: _revolt_refusal(board, state, a),
        f"{title}: the French starting area (D6: {_faces(table)})",
        title=title,
        only=_start_outside_revolt(board, state),
        about=About(
            "reconquista.events.french_start",
            {"faces": _face_names(table), "revolt": _revolt_or_none(board, state)},
            f"{rule} — Roll another D6 to determine their starting location",
        ),
    )
    assert area is not None  # checked above: a starting area lies outside the revolt
    state.areas[area].add("french", Kind.FRENCH, n)
    yield Tell(
        f"{title}: place {unit_name('french', Kind.FRENCH, n)} (Neutral Army counters) in {area}. "
        "They are hostile to everyone (Christians, Muslims and Rebels), move now by the Muslim "
        "reaction rules, and are removed at the end of the turn.",
        topic="reconquista.events.french",
        data={"appear": True, "armies": n, "area": area, "revolt": _revolt_or_none(board, state)},
        rule=rule,
    )
    yield from (move or move_force)(board, state, "french", area)


# -- 3 Bribery, 4 Mercenaries ---------------------------------------------------------------


def bribery(board: Board, state: GameState) -> Proc:
    """ "In Phase 3 (Income) you may use 2 income points to replace all Rebels in a single
    Area with a Christian Garrison.\""""
    state.effects.bribery = True
    yield Tell(
        f"{EVENT_NAMES['bribery']}: in Phase 3 you may pay {_points(board.tables.costs.bribery)} "
        "to replace all the Rebels in one area with a Christian garrison.",
        topic="reconquista.events.bribery",
        data={"cost": board.tables.costs.bribery},
        rule=RULES["bribery"],
    )


def mercenaries(board: Board, state: GameState) -> Proc:
    """ "Roll a D6. This is the number of mercenaries available [...] you may hire any number
    of them at a cost of 1 income point each [...] Any Mercenary units that are not hired are
    added to the Muslim forces that rise in Phase 5.\""""
    title = EVENT_NAMES["mercenaries"]
    rule = RULES["mercenaries"]
    n = (
        yield Roll(
            1,
            6,
            f"{title}: how many mercenaries are available (D6)",
            topic="reconquista.events.mercenaries_count",
            rule=f"{rule} — Roll a D6. This is the number of mercenaries available",
        )
    )[0]
    state.effects.mercenaries = n
    yield Tell(
        f"{title}: {n} mercenar{'y is' if n == 1 else 'ies are'} available (Neutral Army counters). "
        f"In Phase 3 you may hire any of them at {_points(board.tables.costs.mercenary)} each and "
        "place them as armies; those not hired join the Muslim reaction in Phase 5. They are the first "
        "lost in a battle or siege and are removed at the end of the turn.",
        topic="reconquista.events.mercenaries",
        data={"mercenaries": n, "cost": board.tables.costs.mercenary},
        rule=rule,
    )


# -- 5 Rebels (Rebel armies) --------------------------------------------------------------


def rebel_armies(board: Board, state: GameState, move: Mover | None = None) -> Proc:
    """ "Roll a D6. This is the number of Rebel armies that appear [...] Roll two dice (2D6)
    to determine their starting location [...] move these Rebel forces according to the
    Muslim reaction rules (Phase 5), except that this Rebel force is hostile to all other
    forces". The first die picks the column (1-3, 4-6), the second the row; a start in the
    region in revolt is rolled again."""
    title = EVENT_NAMES["rebel_armies"]
    rule = RULES["rebel_armies"]
    table = board.tables.rebel_army_start
    starts = [*table.low.values(), *table.high.values()]
    if all(_in_revolt(board, state, a) for a in starts):
        yield Tell(
            f"{title}: every starting area of the Rebel armies is in {_revolt_name(board, state)}, in revolt: they do not appear.",
            topic="reconquista.events.rebels",
            data={"appear": False, "armies": 0, "area": None, "revolt": _revolt_name(board, state)},
            rule="Phase 1: Rebellions — 6 Regional Revolt",
            reason=f"every starting area of the rebel armies is in {_revolt_name(board, state)}, which is in revolt",
        )
        return
    n = (
        yield Roll(
            1,
            6,
            f"{title}: how many Rebel armies appear (D6)",
            topic="reconquista.events.rebels_count",
            rule=f"{rule} — Roll a D6. This is the number of Rebel armies",
        )
    )[0]
    area = yield from by_two_dice(
        starts,
        lambda first, second: (table.low if first <= 3 else table.high)[second],
        lambda a: _revolt_refusal(board, state, a),
        f"{title}: the Rebel armies' starting area (2D6: the first die picks the column, 1-3 or 4-6, the second the row)",
        title=title,
        only=_start_outside_revolt(board, state),
        about=About(
            "reconquista.events.rebels_start",
            {
                "columns": {"1-3": _face_names(table.low), "4-6": _face_names(table.high)},
                "revolt": _revolt_or_none(board, state),
            },
            f"{rule} — Starting location of the Rebel armies (event 5)",
        ),
    )
    assert area is not None  # checked above: a starting area lies outside the revolt
    state.areas[area].add("rebel_army", Kind.REBEL_ARMY, n)
    yield Tell(
        f"{title}: place {unit_name('rebel_army', Kind.REBEL_ARMY, n)} (Neutral Army counters) in {area}. "
        "They are hostile to everyone (Christians, Muslims and Rebels), move now by the Muslim "
        "reaction rules, and are removed at the end of the turn.",
        topic="reconquista.events.rebels",
        data={"appear": True, "armies": n, "area": area, "revolt": _revolt_or_none(board, state)},
        rule=rule,
    )
    yield from (move or move_force)(board, state, "rebel_army", area)


# -- 6 Military Order ----------------------------------------------------------------------


def military_order(board: Board, state: GameState) -> Proc:
    """ "Place 1 Military Order in a city." (Quick Reference.) The player chooses among the
    cities under Christian control outside the region in revolt; with none, nothing happens."""
    title = EVENT_NAMES["military_order"]
    rule = RULES["military_order"]
    options = [
        a
        for a in board.area_order
        if city_controller(state.areas[a]) == "christian" and not _in_revolt(board, state, a)
    ]
    revolt = _revolt_or_none(board, state)
    if not options:
        where = " outside the region in revolt" if state.revolt is not None else ""
        yield Tell(
            f"{title}: no city is under Christian control{where}, so no Military Order appears.",
            topic="reconquista.events.military_order",
            data={"appear": False, "area": None, "cities": [], "revolt": revolt},
            rule=rule,
            reason=f"no city is under christian control{where}",
        )
        return
    area = options[0]
    if len(options) > 1:
        area = yield Choose(
            options,
            f"{title}: place the Military Order in which city under Christian control?",
            topic="reconquista.events.military_order_city",
            data={"cities": options, "revolt": revolt},
            rule=rule,
        )
    state.areas[area].add("christian", Kind.ORDER)
    yield Tell(
        f"{title}: place 1 Military Order in the city of {area}.",
        topic="reconquista.events.military_order",
        data={"appear": True, "area": area, "cities": options, "revolt": revolt},
        rule=rule,
        reason=_only_city(area, state) if len(options) == 1 else "",
    )


# -- 7 Famine ------------------------------------------------------------------------------


def famine(board: Board, state: GameState) -> Proc:
    """ "Eliminate 1 unit out of every 3 per area." (Quick Reference.) The units of an area are
    counted together: floor(all its units / 3) are lost there. Where two sides share the area
    (a siege), each loss falls on the side with more units left (on equal numbers, the side
    inside the walls, cut off), a side's losses by the casualty order (docs/design.md,
    "Famine"). The region in revolt is spared. Under rules version 2 each side of an area was
    counted apart (``_famine_v2``)."""
    if state.under_v2():
        return (yield from _famine_v2(board, state))
    title = EVENT_NAMES["famine"]
    removals: list[str] = []
    removed: list[dict[str, Any]] = []
    for name in board.area_order:
        if _in_revolt(board, state, name):
            continue
        a = state.areas[name]
        starving = a.total() // 3
        if not starving:
            continue
        before = {side: a.force(side) for side in a.sides()}
        for _ in range(starving):
            side = max(a.sides(), key=lambda s: (a.count(s), s != a.besieger))
            a.set_force(side, combat.remove_casualties(a.force(side), 1))
        for side, was in before.items():
            gone = lost(was, a.force(side))
            if gone:
                removals.append(f"{describe(side, gone)} from {name}")
                removed.append({"area": name, "side": side, "units": _counts(gone)})
    spared = f" ({_revolt_name(board, state)}, in revolt, is spared)" if state.revolt is not None else ""
    facts = {"removed": removed, "spared": _revolt_or_none(board, state)}
    if removals:
        yield Tell(
            f"{title}: 1 unit in 3 is lost in every area{spared}: remove " + "; remove ".join(removals) + ".",
            topic="reconquista.events.famine",
            data=facts,
            rule=RULES["famine"],
            reason=(
                "a third of the units of each area, rounded down, starve: where two sides share it, "
                "the side with more units loses first, each by the casualty order"
            ),
        )
    else:
        yield Tell(
            f"{title}: no area holds 3 units{spared}, so nobody starves.",
            topic="reconquista.events.famine",
            data=facts,
            rule=RULES["famine"],
            reason="no area holds 3 units",
        )


def _famine_v2(board: Board, state: GameState) -> Proc:
    """Famine as rules version 2 played it, for a game begun under them: in each area, each
    side loses floor(its units / 3), by the casualty order."""
    title = EVENT_NAMES["famine"]
    removals: list[str] = []
    removed: list[dict[str, Any]] = []
    for name in board.area_order:
        if _in_revolt(board, state, name):
            continue
        a = state.areas[name]
        for side in a.sides():
            n = a.count(side) // 3
            if not n:
                continue
            before = a.force(side)
            survivors = combat.remove_casualties(before, n)
            a.set_force(side, survivors)
            gone = lost(before, survivors)
            removals.append(f"{describe(side, gone)} from {name}")
            removed.append({"area": name, "side": side, "units": _counts(gone)})
    spared = f" ({_revolt_name(board, state)}, in revolt, is spared)" if state.revolt is not None else ""
    facts = {"removed": removed, "spared": _revolt_or_none(board, state)}
    if removals:
        yield Tell(
            f"{title}: each side loses 1 unit in 3 in every area{spared}: remove "
            + "; remove ".join(removals)
            + ".",
            topic="reconquista.events.famine",
            data=facts,
            rule=RULES["famine"],
            reason="each side loses a third of its units in an area, rounded down, the first by the casualty order",
        )
    else:
        yield Tell(
            f"{title}: no side has 3 units in one area{spared}, so nobody starves.",
            topic="reconquista.events.famine",
            data=facts,
            rule=RULES["famine"],
            reason="no side has 3 units in one area",
        )


# -- 8 El Cid ------------------------------------------------------------------------------


def el_cid(board: Board, state: GameState) -> Proc:
    """ "D6: 1-3 Christian, 4-6 Muslim. Attacks first. +2 in siege." (Quick Reference.)
    docs/design.md: he joins a force of his side: the player chooses for the Christians; for
    the Muslims, the area with the most Muslim armies, lowest region/area on ties. Never
    in the region in revolt; with no force to join, he does not appear."""
    title = EVENT_NAMES["el_cid"]
    rule = RULES["el_cid"]
    sides = board.tables.el_cid
    face = (
        yield Roll(
            1,
            6,
            f"{title}: which side he leads (D6: {_list(sides.christian)} Christian, {_list(sides.muslim)} Muslim)",
            topic="reconquista.events.el_cid_side",
            data={"christian": sorted(sides.christian), "muslim": sorted(sides.muslim)},
            rule=rule,
        )
    )[0]
    side = "christian" if face in sides.christian else "muslim"
    areas = [a for a in board.area_order if not _in_revolt(board, state, a)]
    effect = "his side strikes first in every battle and adds +2 in sieges this turn; he is removed at the end of the turn"
    facts: dict[str, Any] = {"side": side, "face": face, "revolt": _revolt_or_none(board, state)}
    reason = ""
    if side == "christian":
        options = [a for a in areas if state.areas[a].count("christian")]
        if not options:
            yield Tell(
                f"{title} would lead the Christians, but no Christian force is on the map outside the region in revolt: he does not appear.",
                topic="reconquista.events.el_cid",
                data=facts | {"appear": False, "area": None},
                rule=rule,
                reason="no christian force is on the map outside the region in revolt",
            )
            return
        area = options[0]
        if len(options) > 1:
            area = yield Choose(
                options,
                f"{title} leads the Christians: which Christian force does he join?",
                topic="reconquista.events.el_cid_force",
                data={"side": side, "areas": options},
                rule=rule,
            )
        else:
            outside = " outside the region in revolt" if state.revolt is not None else ""
            reason = f"{area} holds the only christian force on the map{outside}"
        where = f"with the Christian force in {area}"
    else:
        armies = {a: sum(state.areas[a].count("muslim", k) for k in ARMY_KINDS) for a in areas}
        most = max(armies.values(), default=0)
        if not most:
            yield Tell(
                f"{title} would lead the Muslims, but no Muslim army is on the map outside the region in revolt: he does not appear.",
                topic="reconquista.events.el_cid",
                data=facts | {"appear": False, "area": None},
                rule=rule,
                reason="no muslim army is on the map outside the region in revolt",
            )
            return
        area = next(a for a in areas if armies[a] == most)  # all_areas order: lowest region/area first
        where = f"with the Muslim force in {area}, the area with the most Muslim armies ({most})"
        tied = sum(1 for n in armies.values() if n == most)
        reason = f"{area} has the most muslim armies ({most})" + (
            ", the lowest region and area among the tied" if tied > 1 else ""
        )
        facts["armies"] = most
    state.el_cid_area, state.el_cid_side = area, side
    yield Tell(
        f"{title} (a {face}: he leads the {'Christians' if side == 'christian' else 'Muslims'}): place El Cid {where}; {effect}.",
        topic="reconquista.events.el_cid",
        data=facts | {"appear": True, "area": area},
        rule=rule,
        reason=reason,
    )


# -- 9 Taxes, 10 Jihad, 11 Crusade, 12 Expulsion ---------------------------------------------


def taxes(board: Board, state: GameState) -> Proc:
    """ "Taxes: 2 additional income. This turn only.\""""
    state.effects.taxes = True
    yield Tell(
        f"{EVENT_NAMES['taxes']}: +{board.tables.income.taxes} income in Phase 3, this turn only.",
        topic="reconquista.events.taxes",
        data={"income": board.tables.income.taxes},
        rule=RULES["taxes"],
    )


def jihad(board: Board, state: GameState) -> Proc:
    """ "Jihad: During the Muslim reaction, roll twice for forces in the region.\""""
    state.effects.jihad = True
    yield Tell(
        f"{EVENT_NAMES['jihad']}: during the Muslim reaction (Phase 5), roll twice for the forces raised in the region.",
        topic="reconquista.events.jihad",
        rule=RULES["jihad"],
    )


def crusade(board: Board, state: GameState) -> Proc:
    """ "Crusade: D6 Crusaders available." docs/design.md: free, placed by the player in Phase 3
    as if built, removed in Phase 7."""
    title = EVENT_NAMES["crusade"]
    n = (
        yield Roll(
            1,
            6,
            f"{title}: how many crusader armies come (D6)",
            topic="reconquista.events.crusade_count",
            rule=RULES["crusade"],
        )
    )[0]
    state.effects.crusaders = n
    yield Tell(
        f"{title}: {unit_name('christian', Kind.CRUSADER, n)} come (Neutral Army counters): in Phase 3 "
        "place them, free, as if built; they fight as Christian armies and are removed at the end of the turn.",
        topic="reconquista.events.crusade",
        data={"crusaders": n},
        rule=RULES["crusade"],
    )


def expulsion(board: Board, state: GameState) -> Proc:
    """ "Expulsion of Jews / Moriscos: Reduce income by 2. This turn only.\""""
    state.effects.expulsion = True
    yield Tell(
        f"{EVENT_NAMES['expulsion']}: income is reduced by {-board.tables.income.expulsion} in Phase 3 (never below 0), this turn only.",
        topic="reconquista.events.expulsion",
        data={"income": board.tables.income.expulsion},
        rule=RULES["expulsion"],
    )


HANDLERS = {
    "french_intervention": french_intervention,
    "bribery": bribery,
    "mercenaries": mercenaries,
    "rebel_armies": rebel_armies,
    "military_order": military_order,
    "famine": famine,
    "el_cid": el_cid,
    "taxes": taxes,
    "jihad": jihad,
    "crusade": crusade,
    "expulsion": expulsion,
}

__all__ = ["EVENT_NAMES", "HANDLERS", "phase"]
