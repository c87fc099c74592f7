"""Phase 5 of Reconquista, the Muslim reaction: the reinforcements, then their march.

The region die (a 6 brings the force from North Africa, landing by the port die), the
reinforcement table (jihad rolls it twice; unhired mercenaries join the armies), each
result placed by the area die with the rulebook's fallbacks; then every army force raised
marches (``march.march``, which the French and Rebel armies of events 2 and 5 follow too).

Every step is a Tell with its reason; every re-roll is a new Roll saying why. The readings
of the rules are in docs/rules-notes.md, "Phase 5". Every prompt has a ``reconquista.reaction.*``
topic (the march's are ``reconquista.march.*``), its facts and the rule it follows.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion.prompts import Roll, Tell
from companion.reconquista.battle import Proc, describe
from companion.reconquista.board import Board, Reinforcement, parse_reinforcement
from companion.reconquista.control import city_controller, free_of_enemy
from companion.reconquista.march import contents, is_target, march
from companion.reconquista.selection import About, area_die, by_die
from companion.reconquista.state import SIDE_NAMES, AreaState, GameState, unit_name
from companion.reconquista.units import Kind

#: The region die face that brings the force from North Africa.
NORTH_AFRICA = 6

MUSLIM = "muslim"

_PHASE = "Phase 5: The Muslim Reaction"
RULE_REGION = f"{_PHASE} — Roll a D6 to select a region"
RULE_TABLE = f"{_PHASE} — Reinforcements by number of Muslim-controlled cities in the region"
RULE_MOVES = f"{_PHASE} — Once the Muslim force has been created, it will move"
RULE_PORT = f"{_PHASE} — For a force coming from North Africa"
#: The rule of each table result, by ``Reinforcement.kind``: the paragraph it begins.
RULE_RESULT = {
    "city": f"{_PHASE} — Establish city",
    "fortress": f"{_PHASE} — Build Fortress",
    "garrison": f"{_PHASE} — Garrison",
    "army": f"{_PHASE} — 1 to 6 Army / Armies",
}
RULE_MERCENARIES = "Phase 2: Events — 4 Mercenaries"
RULE_JIHAD = "Quick Reference Sheet — 10 Jihad"

#: The topic of the Tell placing each table result, by ``Reinforcement.kind``.
PLACED_TOPIC = {
    "city": "reconquista.reaction.establish_city",
    "fortress": "reconquista.reaction.build_fortress",
    "garrison": "reconquista.reaction.garrison",
    "army": "reconquista.reaction.armies",
}


# -- small helpers ------------------------------------------------------------------------


def _region_name(board: Board, region: int) -> str:
    return "North Africa" if region == NORTH_AFRICA else board.regions[region].name


def _region_fact(board: Board, region: int) -> str | None:
    """The region in a prompt's data: its name, None for North Africa (no region of the map)."""
    return None if region == NORTH_AFRICA else board.regions[region].name


def _revolt_fact(board: Board, state: GameState) -> str | None:
    return board.regions[state.revolt].name if state.revolt else None


@dataclass(frozen=True)
class _Tier:
    """One choice of a placement rule: what it is, why an area does not fit it, and its
    short name in the prompts' data (``key``)."""

    label: str
    refuse: Callable[[str], str | None]
    key: str


def _pick_tiered(board: Board, region: int, result: Reinforcement, tiers: list[_Tier]) -> Proc:
    """The first tier with an area that fits, picked by the area die; (area, tier) or None.
    Each tier passed over is told ("no such area: ... instead"); within the tier used, its
    only area is named without a roll."""
    title = str(result)
    rname = board.regions[region].name
    rule = RULE_RESULT[result.kind]
    for i, tier in enumerate(tiers):
        if all(tier.refuse(n) is not None for n in board.regions[region].areas):
            if i + 1 < len(tiers):
                yield Tell(
                    f"{title}: no area of {rname} is {tier.label}; {tiers[i + 1].label} instead.",
                    topic="reconquista.reaction.fallback",
                    data={
                        "result": result.kind,
                        "region": rname,
                        "passed": tier.key,
                        "instead": tiers[i + 1].key,
                    },
                    rule=rule,
                    reason=f"no area of {rname} is {tier.label}, so the rule's next choice applies",
                )
            continue
        area = yield from area_die(
            board,
            region,
            tier.refuse,
            f"Muslim reaction, {title}: area die for {tier.label} in {rname}",
            title=f"Muslim reaction, {title}",
            only=f"{tier.label} in {rname}",
            about=_area_about(result.kind, rname, tier.key, rule),
        )
        return area, tier
    return None


def _area_about(result: str, rname: str, tier: str, rule: str) -> About:
    """The area die placing a table result (``result``: a ``Reinforcement.kind``, or
    'mercenaries'), looking for ``tier`` in the region ``rname``."""
    return About("reconquista.reaction.area", {"result": result, "region": rname, "tier": tier}, rule)


# -- the region die and the reinforcement table ---------------------------------------------


def _free_for_muslims(a: AreaState) -> bool:
    """ "free of Christian or Rebel or Neutral Army forces": no unit of another side, and
    not an empty city of another religion (``control.free_of_enemy``, rules-notes
    "Enemy forces for every side")."""
    return free_of_enemy(a, MUSLIM)


def _ports_open(board: Board, state: GameState) -> list[str]:
    return [p for p in board.ports.values() if board.areas[p].region != state.revolt]


def _region_refusal(board: Board, state: GameState, face: int) -> str | None:
    """Why the region die face ``face`` (a region, or 6 North Africa) must be rolled again,
    or None."""
    if face == NORTH_AFRICA:
        if _ports_open(board, state):
            return None
        return f"but every port is in {board.regions[state.revolt or 0].name}, which is in revolt"
    if face == state.revolt:
        return "which is in revolt"
    if not any(_free_for_muslims(state.areas[n]) for n in board.regions[face].areas):
        return "which has no area free of Christian, Rebel and neutral forces"
    return None


def _region_die(board: Board, state: GameState) -> Proc:
    """ "Roll a D6 to select a region [...] a result of 6 when rolling for the region means
    the force arrives from North Africa. If the selected region does not contain areas free
    of Christian or Rebel or Neutral Army forces, roll again." A region in revolt: "If it is
    selected for Muslim troop movements, re-roll". None (no roll) when no face can do; the
    only face that can is named without a roll."""
    return (
        yield from by_die(
            {face: face for face in range(1, 7)},
            lambda face: _region_refusal(board, state, face),
            "Muslim reaction: region die (1-5 that region, 6 North Africa)",
            title="Muslim reaction, the region die",
            only=(
                "a region not in revolt with an area free of Christian, Rebel and neutral forces, "
                "or North Africa with a port outside the region in revolt"
            ),
            name=lambda face: _region_name(board, face),
            about=About("reconquista.reaction.region", {"revolt": _revolt_fact(board, state)}, RULE_REGION),
        )
    )


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
    cities: int | None = None
    if region == NORTH_AFRICA:
        column, detail = "North Africa", ""
        col = -1
        because = "the force comes from North Africa: the North Africa column"
    else:
        cities = _muslim_cities(board, state, region)
        col = min(cities, 3)
        column = "'" + ("0 cities", "1 city", "2 cities", "3 or more cities")[col] + "'"
        held = f"{board.regions[region].name} has {cities} Muslim-controlled {'city' if cities == 1 else 'cities'}"
        detail = f" ({held})"
        because = f"{held}: the column {column}"
    why = f"Muslim reaction: reinforcement table, column {column}{detail}"
    facts: dict[str, Any] = {"column": col, "region": _region_fact(board, region), "cities": cities}
    prompt, again = why, dict[str, Any](again=False)
    while True:
        roll = Roll(
            1,
            t.die,
            prompt,
            topic="reconquista.reaction.reinforcement",
            data=facts | again,
            rule=RULE_TABLE,
            reason=because,
        )
        face = (yield roll)[0]
        if face in rows:
            break
        prompt = f"{why}, rolled again (a {face} is not a row of the table)"
        again = {"again": True, "rejected": face}
        because = f"a {face} is not a row of the table, so it is rolled again"
    row = rows[face]
    result = Reinforcement("army", row.north_africa) if col < 0 else parse_reinforcement(row.by_cities[col])
    yield Tell(
        f"Muslim reinforcements: a {face} in the column {column} gives {result}.",
        topic="reconquista.reaction.reinforcement_result",
        data=facts | {"face": face, "result": result.kind, "count": result.count},
        rule=RULE_TABLE,
        reason=f"the table's row {face} in the column {column}",
    )
    return result


# -- placing the results ----------------------------------------------------------------------


def _refuse_army_area(state: GameState) -> Callable[[str], str | None]:
    def refuse(n: str) -> str | None:
        a = state.areas[n]
        return None if _free_for_muslims(a) else f"which holds {contents(a, MUSLIM)}"

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
            return f"which also holds {contents(a, MUSLIM)}"
        return None

    def empty(n: str) -> str | None:
        a = state.areas[n]
        if a.city is not None:
            return "which already has a city"
        return f"which holds {describe_all(a)}" if a.total() else None

    return [
        _Tier("an area without a city with a Muslim army or garrison", with_muslims, "muslim_forces"),
        _Tier("an area without a city and with no units", empty, "no_units"),
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
        _Tier("a Muslim-controlled city without a fortress", city, "muslim_city"),
        _Tier("an area without a fortress with a Muslim army or garrison", with_muslims, "muslim_forces"),
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
        return f"which holds {contents(a, MUSLIM)} and no Muslim unit"

    return [
        _Tier("a Muslim-controlled city without a Muslim garrison", city, "muslim_city"),
        _Tier(
            "an area with Muslim forces or free of Christian and Rebel forces",
            muslim_or_free,
            "muslim_or_free",
        ),
    ]


def _port(board: Board, state: GameState) -> Proc:
    """ "roll a D6 to see in which Area it lands - as indicated by the port symbol": a port in
    the region in revolt is rolled again (nobody moves into it)."""
    ports = ", ".join(f"{f} {n}" for f, n in board.ports.items())
    port = yield from by_die(
        board.ports,
        lambda area: (
            f"in {board.region_of(area).name}, which is in revolt"
            if board.areas[area].region == state.revolt
            else None
        ),
        f"Muslim reaction, North Africa: port die ({ports})",
        title="Muslim reaction, North Africa",
        only="a port outside the region in revolt",
        about=About("reconquista.reaction.port", {"revolt": _revolt_fact(board, state)}, RULE_PORT),
    )
    assert port is not None  # the region die gives North Africa only while a port is open
    return port


def _place(board: Board, state: GameState, region: int, result: Reinforcement) -> Proc:
    """Place one table result; returns the area where it was placed, else None."""
    if region == NORTH_AFRICA:
        port = yield from _port(board, state)
        a = state.areas[port]
        a.add(MUSLIM, Kind.ARMY, result.count)
        enemy = is_target(a, MUSLIM, result.count)
        fight = (
            f" {port} holds {contents(a, MUSLIM)}: they land all the same and fight there." if enemy else ""
        )
        why = f"the port die gave {port}"
        if enemy:
            why += ", and they appear there even if the area is controlled by the enemy"
        yield Tell(
            f"{result} from North Africa: place {unit_name(MUSLIM, Kind.ARMY, result.count)} in {port} (the port die).{fight}",
            topic="reconquista.reaction.landing",
            data={"area": port, "region": board.region_of(port).name, "units": result.count, "enemy": enemy},
            rule=RULE_PORT,
            reason=why,
        )
        return port
    rname = board.regions[region].name
    rule = RULE_RESULT[result.kind]
    title = str(result)
    if result.kind == "army":
        free = f"an area of {rname} free of Christian and Rebel forces"
        where = yield from area_die(
            board, region, _refuse_army_area(state),
            f"Muslim reaction, {title}: area die for {free}",
            title=f"Muslim reaction, {title}", only=free,
            about=_area_about(result.kind, rname, "free", rule),
        )  # fmt: skip
        if where is None:
            yield Tell(
                f"{title}: no area of {rname} is free of Christian and Rebel forces: nothing happens.",
                topic="reconquista.reaction.nothing_happens",
                data={"result": result.kind, "region": rname, "count": result.count},
                rule=rule,
                reason=f"no area of {rname} is free of Christian and Rebel forces",
            )
            return None
        state.areas[where].add(MUSLIM, Kind.ARMY, result.count)
        yield Tell(
            f"{title}: place {unit_name(MUSLIM, Kind.ARMY, result.count)} in {where} (free of Christian and Rebel forces).",
            topic=PLACED_TOPIC[result.kind],
            data={"area": where, "region": rname, "units": result.count, "tier": "free"},
            rule=rule,
            reason=f"{where} is {free}",
        )
        return where
    tiers = {"city": _city_tiers, "fortress": _fortress_tiers, "garrison": _garrison_tiers}[result.kind](
        state
    )
    picked = yield from _pick_tiered(board, region, result, tiers)
    if picked is None:
        yield Tell(
            f"{title}: no area of {rname} is {tiers[-1].label}: nothing happens.",
            topic="reconquista.reaction.nothing_happens",
            data={"result": result.kind, "region": rname, "count": result.count},
            rule=rule,
            reason=f"no area of {rname} is {' nor '.join(t.label for t in tiers)}",
        )
        return None
    where, tier = picked
    a = state.areas[where]
    if result.kind == "city":
        a.city = MUSLIM
        text = f"{title}: place a Muslim city in {where} ({tier.label})."
    elif result.kind == "fortress":
        a.fortress = True
        text = f"{title}: place a fortress in {where} ({tier.label})."
    else:
        a.add(MUSLIM, Kind.GARRISON)
        text = f"{title}: place 1 Muslim garrison in {where} ({tier.label})."
    why = f"{where} is {tier.label}"
    if tier is not tiers[0]:
        why += f", and no area of {rname} is {tiers[0].label}"
    yield Tell(
        text,
        topic=PLACED_TOPIC[result.kind],
        data={"area": where, "region": rname, "tier": tier.key, "fallback": tier is not tiers[0]},
        rule=rule,
        reason=why,
    )
    return where


def _mercenaries(
    board: Board, state: GameState, region: int, army_areas: list[str], placed: list[str]
) -> Proc:
    """ "Any Mercenary units that are not hired are added to the Muslim forces that rise in
    Phase 5": they join the first army placed, and march with it. With no army placed
    ("If the result was a City, Fortress, or Garrison, then nothing else happens") they are
    placed where that result was, else (nothing placed) as an army result would be, and
    stay there. Returns the area of the army force they joined, else None."""
    n = state.effects.mercenaries
    if n <= 0:
        return None
    state.effects.mercenaries = 0  # they are all used (or gone) now
    who = unit_name(MUSLIM, Kind.MERCENARY, n)

    def told(text: str, area: str | None, joins: str, reason: str) -> Tell:
        # ``joins``: 'force' (the army raised), 'result' (the city, fortress or garrison
        # placed), 'placed' (nothing was raised: the area die), 'leave' (nowhere to go).
        return Tell(
            text,
            topic="reconquista.reaction.mercenaries",
            data={"units": n, "area": area, "joins": joins, "marches": joins == "force"},
            rule=RULE_MERCENARIES,
            reason=reason,
        )

    if army_areas:
        first = army_areas[0]
        state.areas[first].add(MUSLIM, Kind.MERCENARY, n)
        yield told(
            f"Unhired mercenaries: they join the Muslim force in {first}: place {who} there.",
            first,
            "force",
            f"unhired mercenaries are added to the Muslim force that rises, the first raised in {first}",
        )
        return first
    stay = "no army was raised, so nothing moves: they stay there"
    if placed:
        first = placed[0]
        state.areas[first].add(MUSLIM, Kind.MERCENARY, n)
        yield told(
            f"Unhired mercenaries: they join the Muslims in {first}: place {who} there ({stay}).",
            first,
            "result",
            f"no army was raised: they join what was placed in {first}, and nothing else happens",
        )
        return None
    rname = _region_name(board, region)
    free = f"an area of {rname} free of Christian and Rebel forces"
    where = yield from area_die(
        board, region, _refuse_army_area(state),
        f"Muslim reaction, unhired mercenaries (nothing was raised): area die for {free}",
        title="Muslim reaction, unhired mercenaries (nothing was raised)",
        only=free,
        about=_area_about("mercenaries", rname, "free", RULE_MERCENARIES),
    )  # fmt: skip
    if where is None:
        yield told(
            f"Unhired mercenaries: no area of {rname} is free of Christian and Rebel forces: they leave.",
            None,
            "leave",
            f"nothing was raised and no area of {rname} is free of Christian and Rebel forces",
        )
        return None
    state.areas[where].add(MUSLIM, Kind.MERCENARY, n)
    yield told(
        f"Unhired mercenaries: nothing was raised; place {who} in {where} (free of Christian and Rebel forces; {stay}).",
        where,
        "placed",
        f"nothing was raised: they are placed as armies would be, in {where}, {free}",
    )
    return None


def phase(board: Board, state: GameState) -> Proc:
    """Phase 5: The Muslim Reaction. The region die, the table (twice under a jihad), the
    results placed, the unhired mercenaries added, then every army force raised marches."""
    region = yield from _region_die(board, state)
    if region is None:
        yield Tell(
            "Muslim reaction: no region has an area free of Christian, Rebel and neutral forces, and no port can be reached: the Muslims raise nothing this turn.",
            topic="reconquista.reaction.no_region",
            data={"revolt": _revolt_fact(board, state)},
            rule=RULE_REGION,
            reason="no face of the region die can be used, so nothing is rolled",
        )
        return None
    jihad = state.effects.jihad
    yield Tell(
        f"Muslim reaction: the reinforcements rise in {_region_name(board, region)}"
        + (" (Jihad: the table is rolled twice, both results are placed)." if jihad else "."),
        topic="reconquista.reaction.rise",
        data={"region": _region_fact(board, region), "north_africa": region == NORTH_AFRICA, "jihad": jihad},
        rule=RULE_JIHAD if jihad else _PHASE,
        reason="a Jihad this turn: the table is rolled twice" if jihad else "",
    )
    army_areas: list[str] = []
    placed: list[str] = []
    # Which areas held an enemy of the Muslims before anything was raised: a force judges the
    # area it starts in as it was before its armies came (an empty Christian city is an enemy;
    # one Muslim armies already held is not, whatever a first Jihad force did there since).
    enemy_before = {n: is_target(a, MUSLIM) for n, a in state.areas.items()}
    for _ in range(2 if jihad else 1):
        result = yield from _table(board, state, region)
        where = yield from _place(board, state, region, result)
        if where is None:
            continue
        if region == NORTH_AFRICA or result.kind == "army":
            if where not in army_areas:
                army_areas.append(where)
        else:
            placed.append(where)
    yield from _mercenaries(board, state, region, army_areas, placed)
    if not army_areas:
        yield Tell(
            "No Muslim army was raised: nothing moves; the Muslim reaction is over.",
            topic="reconquista.reaction.nothing_raised",
            data={"region": _region_fact(board, region), "placed": placed},
            rule=RULE_MOVES,
            reason="the force moves only if armies were created; a city, fortress or garrison does nothing else",
        )
        return None
    for i, start in enumerate(army_areas):
        if i:
            yield Tell(
                f"Jihad: now the second Muslim force, raised in {start}.",
                topic="reconquista.reaction.jihad",
                data={"area": start, "force": i + 1},
                rule=RULE_JIHAD,
                reason="each army result of the two table rolls is a force, and they march in the order rolled",
            )
        yield from march(
            board,
            state,
            MUSLIM,
            start,
            landed=region == NORTH_AFRICA,
            start_enemy=None if state.under_v2() else enemy_before[start],
        )
    return None
