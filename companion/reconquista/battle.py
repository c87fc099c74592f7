"""Battles and sieges on the board: prompt procedures over the game state.

``combat`` does the arithmetic of one round or one siege roll; here the dice are
asked for (Roll), the board changes are told (Tell) and applied to the state,
and every outcome is carried out: retreats, sieges, captures, eliminations.
Later phases call these with ``yield from``.

Every prompt says what it is (``companion.prompts``): the topics are ``reconquista.battle.*``
for a battle (the player's in Phase 4, and the robot forces' in Phase 5 and the events'
marches, which follow the same rules with the reaction's clarifications) and
``reconquista.sieges.*`` for Phase 6. Units in ``data`` are counted by the kind's noun
({"army": 2, "garrison": 1}), sides are the engine's names ("christian", "rebel_army").
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.prompts import Choose, Prompt, Roll, Tell
from companion.reconquista import combat
from companion.reconquista.board import Board
from companion.reconquista.control import city_controller, free_of_enemy, hostile
from companion.reconquista.selection import About, area_die
from companion.reconquista.state import SIDE_NAMES, AreaState, GameState, unit_name
from companion.reconquista.units import CASUALTY_ORDER, Kind, noun_for
from companion.text import upper_first

#: A procedure: it yields prompts and is sent their answers. The answer is typed Any
#: because no type can tie it to the prompt yielded: the driver has checked it against
#: that prompt (a Roll's answer is a list of its faces, a Choose's one of its options).
Proc = Generator[Prompt, Any, Any]
#: The topic of every die of a Phase 6 siege (the screen's odds read it).
SIEGE_ROLL_TOPIC = "reconquista.sieges.roll"


#: The rulebook sections the battle steps follow, in its own words.
BATTLE = "Phase 4: Movement of Armies — Battle"
NO_BATTLE = "Phase 4: Movement of Armies — If the enemy area has a City and / or Fortress"
ATTACKER_BEATEN = "Phase 4: Movement of Armies — If the enemy force has hit more times than your moving force"
DEFENDER_BEATEN = "Phase 4: Movement of Armies — If your moving force hits more than the enemy"
WIPED_OUT = "Phase 4: Movement of Armies — If one side completely eliminates the other"
CAPTURED = "Phase 4: Movement of Armies — If your moving force eliminates the entire enemy force"
TIE = "Phase 4: Movement of Armies — If both sides inflict equal losses"
COMPLEX_1 = "Phase 4: Movement of Armies — Example of a Complex Battle 1"
#: Walls nobody else holds are their religion's: no side besieges walls it controls.
HELD_WALLS = (
    "Important Definitions — A City without forces of either side is considered to be controlled by the "
    "religion of the city"
)
#: The Muslim reaction's clarifications, which the French and Rebel armies' marches follow too.
ROBOT_WALLS = (
    "Phase 5: The Muslim Reaction — If the area contains a Christian force and a City under Muslim control"
)
ROBOT_REBEL_CITY = "Phase 5: The Muslim Reaction — If the area contains a Christian force and a Rebel City"
ROBOT_RETREAT = "Phase 5: The Muslim Reaction — If the Muslim force has to retreat"
#: Phase 6, by the paragraph each step follows.
SIEGE_ROLL = "Phase 6: Resolve Sieges — Roll a D6 for the besieging force"
SIEGE_WON = "Phase 6: Resolve Sieges — If the besieger beats the defender's roll"
SIEGE_LOST = "Phase 6: Resolve Sieges — If the defender obtains a higher result"
SIEGE_TIE = "Phase 6: Resolve Sieges — If both sides roll the same result"
SIEGE_SURRENDER = "Phase 6: Resolve Sieges — If the City / Fortress had no force inside"


#: The side the player moves; every other attacker is a robot force.
PLAYER = "christian"


def force_counts(units: Sequence[Kind]) -> dict[str, int]:
    """{"army": 2, "garrison": 1}: a force for a prompt's data, kinds in the order first met."""
    out: dict[str, int] = {}
    for k in units:
        out[k.noun] = out.get(k.noun, 0) + 1
    return out


def casualty_reason(side: str, before: Sequence[Kind], gone: Sequence[Kind]) -> str:
    """Why these units of ``side`` were removed and not others: '' when there was no choice
    (nothing lost, everything lost, or all of one kind). "Garrisons and/or Rebels are removed
    first, then Military Orders, and finally Armies" (Battle); mercenaries "are the first unit
    eliminated in a battle or siege" (event 4); ``units.CASUALTY_ORDER``."""
    kept = lost(before, gone)
    if not gone or not kept or len(set(before)) == 1:
        return ""
    name = SIDE_NAMES[side]
    if Kind.MERCENARY in gone and any(k is not Kind.MERCENARY for k in kept):
        return f"{name} mercenaries are the first unit eliminated"
    kinds = [k for k in CASUALTY_ORDER if k in before]
    return f"{name} casualties by priority: " + " before ".join(noun_for(k, 2) for k in kinds)


def _reasons(*parts: str) -> str:
    return "; ".join(p for p in parts if p)


def describe(side: str, units: list[Kind]) -> str:
    """'1 Muslim garrison and 2 Muslim armies' for a list of units of one side."""
    counts: dict[Kind, int] = {}
    for k in units:
        counts[k] = counts.get(k, 0) + 1
    parts = [unit_name(side, k, n) for k, n in counts.items()]
    if not parts:
        return "nothing"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def lost(before: Sequence[Kind], after: Sequence[Kind]) -> list[Kind]:
    """The units of ``before`` that are not in ``after`` (as a multiset)."""
    left = list(after)
    gone = []
    for k in before:
        if k in left:
            left.remove(k)
        else:
            gone.append(k)
    return gone


def pick_area(
    board: Board,
    region: int,
    qualifies: Callable[[str], bool],
    why: str,
    *,
    title: str,
    only: str,
    about: About,
) -> Proc:
    """Pick an area of ``region`` at random by the area die, rolling again until the area
    qualifies (``selection.area_die``): the only one that qualifies is named without a roll
    (``title``, ``only``: the Tell's words); None, and no roll, when no area qualifies.
    ``about``: the caller's topic, data and rule for the selection's prompts."""
    return (
        yield from area_die(
            board,
            region,
            lambda area: None if qualifies(area) else "which does not qualify",
            why,
            title=title,
            only=only,
            about=about,
        )
    )


def el_cid_with(state: GameState, area: str, side: str) -> bool:
    return state.el_cid_area == area and state.el_cid_side == side


def retreat_area(board: Board, state: GameState, area: str, side: str) -> str | None:
    """Where a beaten defender without a city retreats ("Battle"): "the next higher-numbered
    area that is free of hostile forces", wrapping to the lowest; else along a road to an
    area free of hostile forces (the first road in map order); else None (eliminated).
    A region in revolt cannot be entered."""
    here = board.areas[area].region
    nxt = board.next_area(area)
    while nxt != area:
        if free_of_enemy(state.areas[nxt], side):
            return nxt
        nxt = board.next_area(nxt)
    for dest in board.roads_in_map_order[area]:
        if board.areas[dest].region != here and board.areas[dest].region == state.revolt:
            continue
        if free_of_enemy(state.areas[dest], side):
            return dest
    return None


def _numbered(board: Board, area: str) -> str:
    """'Zaragoza 5-6', 'Tarragona 4': an area with its numbers on the map."""
    faces = board.areas[area].faces
    return f"{area} {faces[0]}" + (f"-{faces[-1]}" if len(faces) > 1 else "")


def retreat_route(board: Board, state: GameState, area: str, side: str) -> tuple[str | None, str | None, str]:
    """``retreat_area`` with how the way was found and why: (the area or None, "next_area",
    "road" or None, the reason)."""
    dest = retreat_area(board, state, area, side)
    region = board.region_of(area).name
    if dest is None:
        return None, None, f"no area of {region} is free of hostile forces and no road leads to one"
    if board.areas[dest].region != board.areas[area].region:
        return dest, "road", f"no other area of {region} is free of hostile forces: along the road to {dest}"
    wraps = board.areas[dest].order < board.areas[area].order
    return (
        dest,
        "next_area",
        f"the next higher-numbered area free of hostile forces: {_numbered(board, area)} → "
        f"{_numbered(board, dest)}" + (", wrapping round" if wraps else ""),
    )


def move_units(state: GameState, side: str, units: list[Kind], src: str, dest: str) -> None:
    for k in units:
        state.areas[src].remove(side, k)
        state.areas[dest].add(side, k)


def _el_cid_follows(state: GameState, side: str, src: str, dest: str) -> str:
    """El Cid "joins a force of its side" (docs/design.md): when the last units of his side
    leave ``src`` for ``dest`` (a retreat), he goes with them. Returns the words for the
    Tell ('' when he stays where he is)."""
    if el_cid_with(state, src, side) and not state.areas[src].count(side):
        state.el_cid_area = dest
        return f" El Cid goes with them to {dest}."
    return ""


@dataclass(frozen=True)
class BattleOutcome:
    """How a battle ended and where the attacking force stands.

    ``result`` is the last round's (never 'continue'), or 'attacker_into_walls': a force come
    to relieve walls of its own side, beaten or tied, withdrew into them (Phase 5: "If the
    Muslim forces are forced to retreat, or the Battle is a tie, the entire surviving force
    retreats into the City"). ``survivors``: the attackers standing in ``attacker_area`` after
    it (the board holds them too: not compared)."""

    result: str
    rounds: int
    attacker_area: str | None  # None when the attackers were destroyed
    survivors: tuple[Kind, ...] = field(default=(), compare=False)


def defending_side(area: AreaState, attacker: str) -> str | None:
    """The side the attackers fight in ``area``: the besiegers if a siege is on (the
    city's own force stays inside: "Complex Battle 1"), else the hostile side present."""
    if area.besieger and hostile(attacker, area.besieger):
        return area.besieger
    for s in area.sides():
        if hostile(attacker, s):
            return s
    return None


def engage(
    board: Board,
    state: GameState,
    area: str,
    side: str,
    origins: list[str],
    movers: Sequence[Kind] | None = None,
    *,
    into_walls: bool = False,
) -> Proc:
    """A force of ``side`` (``movers``: the units that came in; default every unit of the
    side there) has entered ``area`` from ``origins``: battle, siege, or nothing. This is the
    one decision every arrival among another side's units goes through.

    "If the enemy area has a City and / or Fortress, then there may be a battle - this
    only happens if there is more than one enemy unit (Garrison or Army) and at least
    one is an army (Rebels are not armies). Otherwise, the moving forces stop and wait
    for the Siege Phase. If the enemy Area has no City or Fortress then there will be a
    battle." ("Phase 4: Movement of Armies"). Returns a BattleOutcome, or None when no
    battle was fought. ``into_walls``: the Muslim reaction's rule for a force that comes to
    relieve walls of its side (``battle``).
    """
    a = state.areas[area]
    name = SIDE_NAMES[side]
    defender = defending_side(a, side)
    walls = a.city is not None or a.fortress
    if defender is None:
        # The moving force is already in the area, so city_controller would name it as
        # the holder: an empty city is judged by its religion. (Engage is called for a
        # force entering an area with enemy forces, and "a Muslim city with no other
        # units present" is one: the movers "stop and wait for the Siege Phase".)
        if a.city is not None and hostile(side, a.city):
            a.besieger = side
            yield Tell(
                f"The {name} force ({describe(side, a.force(side))}) besieges the empty city "
                f"of {area}: it will surrender in Phase 6.",
                topic="reconquista.battle.no_battle",
                data={"area": area, "side": side, "holder": None, "inside": {}, "walls": "city"},
                rule=NO_BATTLE,
                reason=f"nobody is inside the {SIDE_NAMES[a.city]} city to give battle",
            )
        return None
    if (
        walls
        and defender != a.besieger
        and not combat.battle_or_siege(a.force(defender), True, v2=state.under_v2())
    ):
        a.besieger = side
        inside = a.force(defender)
        what = describe(defender, inside)
        yield Tell(
            f"No battle in {area} ({what} inside): the {name} force stops and besieges it (Phase 6).",
            topic="reconquista.battle.no_battle",
            data={
                "area": area,
                "side": side,
                "holder": defender,
                "inside": force_counts(inside),
                "walls": "city" if a.city is not None else "fortress",
            },
            rule=NO_BATTLE,
            reason=(
                f"only {what} inside: a battle needs more than one enemy unit"
                if len(inside) <= 1
                else f"no army inside ({what}): a battle needs at least one"
                + (" (Rebels are not armies)" if Kind.REBEL in inside else "")
            ),
        )
        return None
    return (yield from battle(board, state, area, side, origins, movers, into_walls=into_walls))


def relieves(a: AreaState, attacker: str, movers: Sequence[Kind]) -> bool:
    """Whether ``movers`` of ``attacker``, just come into ``a``, come to the rescue of walls
    their side holds and another side besieges: their side is inside (units there besides
    the movers) or the city is of their religion and empty, and no third side is there.
    Phase 5: "If the area contains a Christian force and a City under Muslim control, then
    the forces of the Muslim City join the battle"; Complex Battle 1: "If the force in the
    city were Christian, it would join the battle" (rules-notes, Phase 5, reading 14)."""
    if a.besieger is None or a.besieger == attacker or (a.city is None and not a.fortress):
        return False
    if any(s not in (attacker, a.besieger) for s in a.sides()):
        return False
    return a.count(attacker) > len(movers) or a.city == attacker


def battle(
    board: Board,
    state: GameState,
    area: str,
    attacker: str,
    origins: list[str],
    movers: Sequence[Kind] | None = None,
    *,
    into_walls: bool = False,
) -> Proc:
    """Fight the battle in ``area`` between ``attacker`` (``movers`` just moved in from
    ``origins``) and the force there, round after round, and carry out its outcome
    ("Battle"). The attacker's units already there fight with the movers. With
    ``into_walls`` (the Muslim reaction's rule, which the French and Rebel armies follow
    too), a force relieving walls of its side that is beaten or ties withdraws into them."""
    a = state.areas[area]
    defender = defending_side(a, attacker)
    if defender is None:
        return BattleOutcome("defender_destroyed", 0, area, tuple(a.force(attacker)))
    came = list(movers) if movers is not None else a.force(attacker)
    relief = relieves(a, attacker, came)
    # The defenders hold the city unless they are the ones besieging it. (city_controller
    # cannot say: the attackers are in the area too, and it would give a city of the
    # attackers' religion to them even when the defenders hold it.)
    city = a.city is not None and defender != a.besieger
    # Read before the first round: once the besiegers have no unit left, the area forgets
    # who besieged it (AreaState.set_force), and the outcome must still name them.
    besieging = defender == a.besieger
    joined = relief and a.count(attacker) > len(came)
    mountain = board.areas[area].mountain
    cid = state.el_cid_side if state.el_cid_area == area else None
    el_cid: combat.Side | None = "attacker" if cid == attacker else "defender" if cid == defender else None
    att_name, def_name = SIDE_NAMES[attacker], SIDE_NAMES[defender]
    robot = attacker != PLAYER
    if relief:
        walls = "city" if a.city is not None else "fortress"
        join = f": the {att_name} units in the {walls} join the battle" if joined else ""
        yield Tell(
            f"The {att_name} force comes to relieve the {walls} of {area}, besieged by "
            f"{describe(defender, a.force(defender))}{join}.",
            topic="reconquista.battle.relief",
            data={
                "area": area,
                "side": attacker,
                "walls": walls,
                "besieger": defender,
                "besiegers": force_counts(a.force(defender)),
                "joined": joined,
            },
            rule=ROBOT_WALLS if robot else COMPLEX_1,
            reason=(
                f"{att_name} units hold the {walls}: they join the battle"
                if joined
                else f"the empty city is {att_name}: the force comes to its rescue"
            ),
        )
    rounds = 0
    while True:
        rounds += 1
        att, dfn = a.force(attacker), a.force(defender)
        first = combat.first_striker(mountain, el_cid, rounds == 1)
        label = f"Battle in {area}, round {rounds}"
        dice = _Round(area, rounds, first, el_cid)
        if first is None:
            att_dice = yield dice.roll(
                "attacker", attacker, att, f"{label}: {att_name} dice ({_letters(att)})"
            )
            def_dice = yield dice.roll(
                "defender", defender, dfn, f"{label}: {def_name} dice ({_letters(dfn)})"
            )
        elif first == "defender":
            def_dice = yield dice.roll(
                "defender", defender, dfn, f"{label}: {def_name} dice first ({_letters(dfn)})"
            )
            left = combat.remove_casualties(att, combat.hits(dfn, def_dice))
            att_dice = (
                (
                    yield dice.roll(
                        "attacker",
                        attacker,
                        left,
                        f"{label}: {att_name} survivors' dice ({_letters(left)})",
                        survivors=True,
                    )
                )
                if left
                else []
            )
        else:
            att_dice = yield dice.roll(
                "attacker", attacker, att, f"{label}: {att_name} dice first ({_letters(att)})"
            )
            left = combat.remove_casualties(dfn, combat.hits(att, att_dice))
            def_dice = (
                (
                    yield dice.roll(
                        "defender",
                        defender,
                        left,
                        f"{label}: {def_name} survivors' dice ({_letters(left)})",
                        survivors=True,
                    )
                )
                if left
                else []
            )
        r = combat.battle_round(att, dfn, list(att_dice), list(def_dice), city=city, first=first)
        a.set_force(attacker, r.attacker_survivors)
        a.set_force(defender, r.defender_survivors)
        losses = [
            f"{describe(side, gone)}"
            for side, gone in (
                (attacker, lost(att, r.attacker_survivors)),
                (defender, lost(dfn, r.defender_survivors)),
            )
            if gone
        ]
        # Who rolled each die: after a first strike only the survivors roll.
        att_rolled = att if first != "defender" else combat.remove_casualties(att, combat.hits(dfn, def_dice))
        def_rolled = dfn if first != "attacker" else combat.remove_casualties(dfn, combat.hits(att, att_dice))
        yield Tell(
            f"{label}: {att_name} {combat.dice_by_unit(att_rolled, att_dice) or 'no dice'}: "
            f"{r.attacker_hits} hit{'s' * (r.attacker_hits != 1)}; "
            f"{def_name} {combat.dice_by_unit(def_rolled, def_dice) or 'no dice'}: "
            f"{r.defender_hits} hit{'s' * (r.defender_hits != 1)}. "
            + (f"Remove {'; remove '.join(losses)} from {area}." if losses else "No losses."),
            topic="reconquista.battle.losses",
            data={
                "area": area,
                "round": rounds,
                "attacker": attacker,
                "defender": defender,
                "attacker_dice": list(att_dice),
                "defender_dice": list(def_dice),
                "attacker_hits": r.attacker_hits,
                "defender_hits": r.defender_hits,
                "attacker_losses": force_counts(r.attacker_losses),
                "defender_losses": force_counts(r.defender_losses),
                "result": r.result,
            },
            rule=BATTLE,
            reason=_reasons(
                casualty_reason(attacker, att, r.attacker_losses),
                casualty_reason(defender, dfn, r.defender_losses),
            ),
        )
        if relief and into_walls and r.result in ("continue", "attacker_retreats"):
            walls = "city" if a.city is not None else "fortress"
            how = "A tie" if r.result == "continue" else f"The {att_name} force is beaten"
            yield Tell(
                f"{how}: the surviving {att_name} force ({describe(attacker, a.force(attacker))}) "
                f"withdraws into the {walls} of {area}; the {def_name} force keeps the siege (Phase 6).",
                topic="reconquista.battle.into_walls",
                data={
                    "area": area,
                    "side": attacker,
                    "walls": walls,
                    "besieger": defender,
                    "units": force_counts(a.force(attacker)),
                    "tie": r.result == "continue",
                },
                rule=ROBOT_WALLS,
                reason=(
                    f"a tie relieving walls of its side: the surviving force retreats into the {walls}"
                    if r.result == "continue"
                    else f"forced to retreat relieving walls of its side: it retreats into the {walls}"
                ),
            )
            return BattleOutcome("attacker_into_walls", rounds, area, tuple(a.force(attacker)))
        if r.result == "continue":
            continue
        return (
            yield from _carry_out(
                board,
                state,
                area,
                attacker,
                defender,
                origins,
                r.result,
                rounds,
                besieging=besieging,
                relief=relief,
                joined=joined,
                tie=r.attacker_hits == r.defender_hits,
            )
        )


@dataclass(frozen=True)
class _Round:
    """A round of battle, for the Rolls of its dice: ``first``, the side that strikes first
    (``combat.first_striker``), ``el_cid``, the side he is with."""

    area: str
    number: int
    first: combat.Side | None
    el_cid: combat.Side | None

    def roll(
        self, role: combat.Side, side: str, units: list[Kind], why: str, *, survivors: bool = False
    ) -> Roll:
        """One side's dice, a die a unit in the order listed; ``survivors``: only the units
        left after the other side's first strike roll."""
        if survivors:
            reason = "only the units left after the first strike roll"
        elif self.first == role and self.el_cid == role:
            reason = f"El Cid is with the {SIDE_NAMES[side]} side: it strikes first"
        elif self.first == role:
            reason = f"{self.area} is mountainous: the defenders strike first in the first round"
        else:
            reason = ""
        return Roll(
            len(units),
            6,
            why,
            topic="reconquista.battle.roll",
            data={
                "area": self.area,
                "round": self.number,
                "side": side,
                "role": role,
                "units": [k.noun for k in units],
                "first_strike": self.first,
                "survivors": survivors,
            },
            rule=BATTLE,
            reason=reason,
        )


def _carry_out(
    board: Board,
    state: GameState,
    area: str,
    attacker: str,
    defender: str,
    origins: list[str],
    result: str,
    rounds: int,
    *,
    besieging: bool,
    relief: bool,
    joined: bool,
    tie: bool,
) -> Proc:
    """Carry out the last round's ``result``. ``besieging``: the defenders were the besiegers
    of the walls there; ``relief``: the attackers came to relieve walls of their side (from
    ``relieves``), ``joined`` with units of theirs inside them; ``tie``: the round's hits were
    equal."""
    a = state.areas[area]
    att_name, def_name = SIDE_NAMES[attacker], SIDE_NAMES[defender]
    robot = attacker != PLAYER
    walls = "city" if a.city is not None else "fortress"
    relieved = f" The {walls} of {area} is relieved." if relief else ""
    # The defenders are the besiegers of the walls there, or the force that holds the area.
    who, has, goes = (
        (f"The {def_name} besiegers", "have", "retreat")
        if besieging
        else (f"The {def_name} force", "has", "retreats")
    )

    def retreat(
        side: str, role: str, units: list[Kind], to: str | None, via: str | None, **more: Any
    ) -> dict[str, Any]:
        return {
            "area": area,
            "side": side,
            "role": role,
            "units": force_counts(units),
            "to": to,
            "via": via,
        } | more

    if result == "defender_retreats":
        units = a.force(defender)
        dest, via, why = retreat_route(board, state, area, defender)
        facts = {"besiegers": besieging, "relieved": relief}
        if dest is None:
            a.set_force(defender, [])
            yield Tell(
                f"{who} {has} nowhere to retreat: remove {describe(defender, units)} from {area}.{relieved}",
                topic="reconquista.battle.retreat",
                data=retreat(defender, "defender", units, None, None, el_cid=False, **facts),
                rule=DEFENDER_BEATEN,
                reason=why,
            )
        else:
            move_units(state, defender, units, area, dest)
            cid = _el_cid_follows(state, defender, area, dest)
            yield Tell(
                f"{who} {goes}: move {describe(defender, units)} from {area} to {dest}.{cid}{relieved}",
                topic="reconquista.battle.retreat",
                data=retreat(defender, "defender", units, dest, via, el_cid=bool(cid), **facts),
                rule=DEFENDER_BEATEN,
                reason=why,
            )
        if not relief:  # relieved walls are the attackers' own: nothing to besiege
            gone = "retreated" if dest is not None else "been removed"
            yield from _besiege_holders(a, area, attacker, defender, gone=gone)
        return BattleOutcome(result, rounds, area, tuple(a.force(attacker)))
    if result == "defender_into_city":
        a.besieger = attacker
        yield Tell(
            f"The {def_name} force withdraws into the city of {area}; the {att_name} force "
            "stays outside and besieges it (Phase 6).",
            topic="reconquista.battle.into_city",
            data={
                "area": area,
                "side": defender,
                "besieger": attacker,
                "units": force_counts(a.force(defender)),
                "besiegers": force_counts(a.force(attacker)),
                "tie": tie,
            },
            rule=TIE if tie else DEFENDER_BEATEN,
            reason=(
                f"a tie with a city in the area: the {def_name} force retreats into it"
                if tie
                else f"beaten with a city in the area: the {def_name} force retreats into it"
            ),
        )
        return BattleOutcome(result, rounds, area, tuple(a.force(attacker)))
    if result == "attacker_retreats":
        units = a.force(attacker)
        options = list(dict.fromkeys(o for o in origins if o != area))
        # "the retreat may be to that city": the besieged city, unless another side holds it
        # (then the attackers would stand inside beside their enemies).
        third = [s for s in a.sides() if s not in (attacker, defender)]
        city = a.city is not None and a.besieger == defender and not third
        if city:
            options.append(area)
        rule = ROBOT_RETREAT if robot else ATTACKER_BEATEN
        dest = options[0] if len(options) == 1 else None
        asked = dest is None and bool(options)
        if asked:
            dest = yield Choose(
                options,
                f"The {att_name} force lost in {area}: retreat to which area?",
                topic="reconquista.battle.retreat_to",
                data={
                    "area": area,
                    "side": attacker,
                    "origins": [o for o in options if o != area],
                    "city": city,
                },
                rule=rule,
            )
        if dest is None:
            a.set_force(attacker, [])
            yield Tell(
                f"The {att_name} force has nowhere to retreat: remove {describe(attacker, units)} from {area}.",
                topic="reconquista.battle.retreat",
                data=retreat(attacker, "attacker", units, None, None, el_cid=False),
                rule=rule,
                reason="no area it came from to retreat to, and no city of its side there",
            )
            return BattleOutcome(result, rounds, None)
        # The player's own choice needs no reason; the robot's, or the only way, does.
        if dest == area:
            reason = "" if asked and not robot else f"the besieged city of {area} is the only way to retreat"
            yield Tell(
                f"The {att_name} force retreats into the city of {area}.",
                topic="reconquista.battle.retreat",
                data=retreat(attacker, "attacker", units, area, "city", el_cid=False),
                rule=rule,
                reason=reason,
            )
        else:
            move_units(state, attacker, units, area, dest)
            cid = _el_cid_follows(state, attacker, area, dest)
            reason = (
                ""
                if asked and not robot
                else f"back to the area it came from: {dest}"
                if robot
                else f"the only area it came from: {dest}"
            )
            yield Tell(
                f"The {att_name} force retreats: move {describe(attacker, units)} from {area} to {dest}.{cid}",
                topic="reconquista.battle.retreat",
                data=retreat(attacker, "attacker", units, dest, "origin", el_cid=bool(cid)),
                rule=rule,
                reason=reason,
            )
        return BattleOutcome(result, rounds, dest, tuple(units))

    def destroyed(*sides: str, captured: bool = False) -> dict[str, Any]:
        winner = next((s for s in (attacker, defender) if s not in sides), None)
        return {
            "area": area,
            "destroyed": list(sides),
            "winner": winner,
            "besiegers": besieging and defender in sides,
            "captured": captured,
            "relieved": relief and winner == attacker,
        }

    if result == "defender_destroyed":
        # The attackers besieged these walls (a first attack ended in a siege) and have now
        # destroyed every defender inside: "this city is assumed captured [...] and the moving
        # force can continue moving": the siege is over, nobody is left to besiege.
        took = a.besieger == attacker and not state.under_v2()  # rules version 2 kept the siege
        if took:
            a.besieger = None
        over = " The siege is over." if took else ""
        if relief:
            yield Tell(
                f"The {def_name} besiegers are destroyed.{relieved}",
                topic="reconquista.battle.destroyed",
                data=destroyed(defender),
                rule=WIPED_OUT,
            )
        elif besieging and _held_against(a, attacker):
            yield from _besiege_holders(a, area, attacker, defender, gone="been destroyed")
        elif besieging:
            yield Tell(
                f"The {def_name} besiegers of the {walls} of {area} are destroyed.",
                topic="reconquista.battle.destroyed",
                data=destroyed(defender),
                rule=WIPED_OUT,
            )
        elif a.city is not None:
            yield Tell(
                f"The {def_name} force is destroyed and the city of {area} is captured (any fortress stays).{over}",
                topic="reconquista.battle.destroyed",
                data=destroyed(defender, captured=True) | {"siege_over": took},
                rule=CAPTURED,
            )
        else:
            yield Tell(
                f"The {def_name} force in {area} is destroyed.{over}",
                topic="reconquista.battle.destroyed",
                data=destroyed(defender) | {"siege_over": took},
                rule=WIPED_OUT,
            )
        return BattleOutcome(result, rounds, area, tuple(a.force(attacker)))
    if result == "attacker_destroyed":
        if relief:
            # The units inside fought in the relief: when there were any, they are gone too.
            gone = (
                f"The {att_name} force and the {att_name} units inside are destroyed"
                if joined
                else f"The {att_name} force is destroyed"
            )
            empty = "" if joined else "empty "
            if besieges_walls_it_controls(a) and not state.under_v2():
                # Nobody is left inside, and the walls are the besiegers' own: "A City without
                # forces of either side is considered to be controlled by the religion of the
                # city" (or a fortress alone). No side besieges walls it controls.
                a.besieger = None
                yield Tell(
                    f"{gone}; the {_own_walls(a, area)} now stands with the {def_name} force alone: "
                    f"it is under {def_name} control, and no siege is left there.",
                    topic="reconquista.battle.destroyed",
                    data=destroyed(attacker) | {"siege_over": True},
                    rule=HELD_WALLS,
                )
            else:
                yield Tell(
                    f"{gone}; the {def_name} siege of the {empty}{walls} of {area} goes on.",
                    topic="reconquista.battle.destroyed",
                    data=destroyed(attacker) | {"siege_over": False},
                    rule=WIPED_OUT,
                )
        else:
            yield Tell(
                f"The {att_name} force in {area} is destroyed.",
                topic="reconquista.battle.destroyed",
                data=destroyed(attacker),
                rule=WIPED_OUT,
            )
        return BattleOutcome(result, rounds, None)
    yield Tell(
        f"Both forces in {area} are destroyed.",
        topic="reconquista.battle.destroyed",
        data=destroyed(attacker, defender),
        rule=WIPED_OUT,
    )
    return BattleOutcome(result, rounds, None)


def besieges_walls_it_controls(a: AreaState) -> bool:
    """Whether the siege in ``a`` is of walls the besiegers' own side controls: no unit of
    another side is left in the area, and the walls are a fortress alone or a city of the
    besiegers' religion ("A City without forces of either side is considered to be
    controlled by the religion of the city"). No side besieges walls it controls (an empty
    city of another religion stays besieged: it surrenders in Phase 6)."""
    return a.besieger is not None and not _held_against(a, a.besieger)


def _own_walls(a: AreaState, area: str) -> str:
    """'Christian city of León', 'fortress of Badajoz': walls that are their holders' own."""
    return f"{SIDE_NAMES[a.city]} city of {area}" if a.city is not None else f"fortress of {area}"


def end_siege_of_own_walls(board: Board, state: GameState, area: str) -> Proc:
    """Lift the siege of ``area`` if its besiegers now control the walls (a rebellion turned
    the city to their religion, a famine took the last defender): told, with its reason."""
    a = state.areas[area]
    if not besieges_walls_it_controls(a):
        return
    side = a.besieger or ""
    a.besieger = None
    name = SIDE_NAMES[side]
    yield Tell(
        f"No one is left in the {_own_walls(a, area)} but the {name} force: it is under {name} "
        "control, and no siege is left there (Phase 6 has nothing to resolve in it).",
        topic="reconquista.end.siege",
        data={
            "area": area,
            "side": side,
            "walls": "city" if a.city is not None else "fortress",
            "city": a.city,
        },
        rule=HELD_WALLS,
        reason=(
            f"a {SIDE_NAMES[a.city]} city with no other forces is controlled by its religion"
            if a.city is not None
            else "a fortress with only one side's units in the area is that side's"
        ),
    )


def _held_against(a: AreaState, attacker: str) -> bool:
    """Whether walls in ``a`` stand against ``attacker`` once the besiegers are beaten: a
    side hostile to it inside, or an empty city of another religion ("a Muslim city with
    no other units present" is an enemy force)."""
    if a.city is None and not a.fortress:
        return False
    if any(hostile(attacker, s) for s in a.sides()):
        return True
    return a.city is not None and hostile(attacker, a.city)


def _besiege_holders(a: AreaState, area: str, attacker: str, defender: str, gone: str) -> Proc:
    """After beating the besiegers of a city held by a third side: "Complex Battle 1": the
    force in the city stayed out of the battle; now the winners "must remain in place to
    besiege the city". An empty city of another religion is besieged the same way (it is an
    enemy force: "a Muslim city with no other units present"). Nothing when nothing hostile
    is left in the city or fortress. Never for relieved walls: they are the attackers' own."""
    if not _held_against(a, attacker):
        return
    holder = [s for s in a.sides() if hostile(attacker, s)]
    a.besieger = attacker
    place = "city" if a.city is not None else "fortress"
    held = (
        f"held by {describe(holder[0], a.force(holder[0]))}"
        if holder
        else f"(an empty {SIDE_NAMES[a.city or '']} city: it will surrender)"
    )
    yield Tell(
        f"The {SIDE_NAMES[defender]} besiegers have {gone}: the {SIDE_NAMES[attacker]} force "
        f"({describe(attacker, a.force(attacker))}) stays in {area} and besieges the {place} "
        f"{held} (Phase 6).",
        topic="reconquista.battle.besiege",
        data={
            "area": area,
            "side": attacker,
            "beaten": defender,
            "walls": place,
            "holder": holder[0] if holder else None,
            "inside": force_counts(a.force(holder[0])) if holder else {},
            "units": force_counts(a.force(attacker)),
        },
        rule=ROBOT_REBEL_CITY if attacker != PLAYER else COMPLEX_1,
        reason=(
            f"the {place} is held by the {SIDE_NAMES[holder[0]]} side, which took no part in the battle"
            if holder
            else f"the empty city is {SIDE_NAMES[a.city or '']}: an enemy force"
        ),
    )


def _letters(units: list[Kind]) -> str:
    return ", ".join(k.value for k in units)


# -- sieges ---------------------------------------------------------------------


def siege_order(board: Board, state: GameState) -> list[str]:
    """The areas under siege, in the order Phase 6 resolves them: lowest region first,
    then lowest area ("Phase 6: Resolve Sieges")."""
    return [a for a in board.area_order if state.areas[a].besieger is not None]


def siege(board: Board, state: GameState, area: str) -> Proc:
    """Resolve the siege of ``area`` ("Phase 6"); returns 'besieger' or 'defender'.

    ``combat.siege_roll`` does each roll's arithmetic and says what follows; here the
    dice are asked for and the result is carried out on the board.
    """
    a = state.areas[area]
    besieger = a.besieger
    if besieger is None:
        return None
    city = a.city is not None
    place = f"the city of {area}" if city else f"the fortress of {area}"
    walls = "city" if city else "fortress"
    b_name = SIDE_NAMES[besieger]
    inside = [s for s in a.sides() if s != besieger]
    defender = inside[0] if inside else city_controller(a) or "muslim"
    d_name = SIDE_NAMES[defender]
    v2 = state.under_v2()
    # Rules version 2 took a lone fortress as of the besieger's religion.
    same_religion = (not city or a.city == besieger) if v2 else (city and a.city == besieger)
    cid = state.el_cid_side if state.el_cid_area == area else None
    el_cid: combat.SiegeSide | None = (
        "besieger" if cid == besieger else "defender" if cid == defender else None
    )
    sides = {"area": area, "besieger": besieger, "defender": defender}
    after_tie = False
    roll = 0
    while True:
        b_units, d_units = a.force(besieger), a.force(defender)
        if combat.surrenders(d_units, city=city, same_religion=same_religion, after_tie=after_tie, v2=v2):
            a.besieger = None
            yield Tell(
                f"Nobody defends {place}: it surrenders to the {b_name} force "
                f"({describe(besieger, b_units)}) (any fortress stays).",
                topic="reconquista.sieges.surrender",
                data=sides | {"walls": walls, "units": force_counts(b_units), "after_tie": after_tie},
                rule=SIEGE_SURRENDER,
                reason=(
                    f"the {walls} is left with no defender after a tie"
                    + (f" and is of the {b_name} religion" if city else "")
                    if after_tie
                    else f"nobody is inside the {walls}"
                ),
            )
            return "besieger"
        roll += 1
        mods = combat.siege_modifiers(b_units, d_units, city=city, fortress=a.fortress, el_cid=el_cid)
        dice = yield Roll(
            2,
            6,
            f"Siege of {area}: the {b_name} (besieger) die, then the {d_name} (defender) die",
            topic=SIEGE_ROLL_TOPIC,
            data=sides
            | {
                "roll": roll,
                "after_tie": after_tie,
                "walls": walls,
                "fortress": a.fortress,
                "besieger_units": force_counts(b_units),
                "defender_units": force_counts(d_units),
                "besieger_modifier": mods.besieger_total,
                "defender_modifier": mods.defender_total,
                "el_cid": cid if el_cid is not None else None,
            },
            rule=SIEGE_ROLL,
        )
        r = combat.siege_roll(
            b_units,
            d_units,
            city=city,
            fortress=a.fortress,
            el_cid=el_cid,
            same_religion=same_religion,
            after_tie=after_tie,
            besieger_die=dice[0],
            defender_die=dice[1],
            v2=v2,
        )
        a.set_force(besieger, list(r.besieger_survivors))
        a.set_force(defender, list(r.defender_survivors))
        assert r.besieger_total is not None and r.defender_total is not None  # both dice were rolled
        sums = (
            f"{b_name} {combat.arithmetic(dice[0], r.modifiers.besieger, r.besieger_total)} against "
            f"{d_name} {combat.arithmetic(dice[1], r.modifiers.defender, r.defender_total)}"
        )
        losses = " and ".join(
            describe(side, list(gone))
            for side, gone in (
                (besieger, r.besieger_losses),
                (defender, r.defender_losses),
            )
            if gone
        )
        facts = sides | {
            "roll": roll,
            "besieger_die": dice[0],
            "defender_die": dice[1],
            "besieger_total": r.besieger_total,
            "defender_total": r.defender_total,
            "outcome": r.outcome,
            "result": r.result,
            "besieger_losses": force_counts(r.besieger_losses),
            "defender_losses": force_counts(r.defender_losses),
            "sacked": r.sacked,
            "fortress_destroyed": r.fortress_destroyed,
        }
        order = _reasons(
            casualty_reason(besieger, b_units, r.besieger_losses),
            casualty_reason(defender, d_units, r.defender_losses),
        )
        if r.result in ("captured", "sacked"):
            a.besieger = None
            a.fortress = a.fortress and not r.fortress_destroyed
            if r.sacked:
                a.city = None
            eliminated = describe(defender, list(r.defender_losses)) if r.defender_losses else ""
            winners = f"{b_name} force ({describe(besieger, list(r.besieger_survivors))})"
            # The result sacks or spares the city (rules version 2: the die alone).
            total = dice[0] if v2 else r.besieger_total or 0
            won = _siege_won(area, r, total, city, eliminated, winners, "die" if v2 else "result")
            parity = "even" if total % 2 == 0 else "odd"
            yield Tell(
                f"Siege of {area}: {sums}. {won}",
                topic="reconquista.sieges.result",
                data=facts,
                rule=SIEGE_WON,
                reason=(
                    f"the besiegers' result is {parity} ({total}, the die with its modifiers): the city is "
                    + ("sacked and destroyed" if r.sacked else "spared")
                    if city
                    else ""
                ),
            )
            return "besieger"
        if r.result == "besieger_retreats":
            a.besieger = None
            yield Tell(
                f"Siege of {area}: {sums}. The defenders hold: remove {losses} from {area}.",
                topic="reconquista.sieges.result",
                data=facts,
                rule=SIEGE_LOST,
                reason=order,
            )
            if r.besieger_survivors:
                yield from _siege_retreat(board, state, area, besieger, list(r.besieger_survivors))
            return "defender"
        yield Tell(
            f"Siege of {area}: {sums}, a tie. Remove {losses or 'nothing'} from {area}.",
            topic="reconquista.sieges.result",
            data=facts,
            rule=SIEGE_TIE,
            reason=order,
        )
        if r.result == "defender_holds":
            yield Tell(
                f"The {b_name} besiegers are gone: {place} holds.",
                topic="reconquista.sieges.held",
                data=sides | {"walls": walls},
                rule=SIEGE_TIE,
                reason="the tie took the last besieging unit",
            )
            return "defender"
        if r.result == "surrendered":
            a.besieger = None
            yield Tell(
                f"{upper_first(place)} has no defenders left and surrenders to the {b_name} force "
                f"({describe(besieger, a.force(besieger))}).",
                topic="reconquista.sieges.surrender",
                data=sides | {"walls": walls, "units": force_counts(a.force(besieger)), "after_tie": True},
                rule=SIEGE_SURRENDER,
                reason=f"the {walls} is left with no defender after a tie"
                + (f" and is of the {b_name} religion" if city else ""),
            )
            return "besieger"
        a.besieger = besieger  # 'continue': the siege goes on with the survivors
        after_tie = True


def _siege_won(
    area: str, r: combat.SiegeRoll, total: int, city: bool, losses: str, winners: str, what: str = "result"
) -> str:
    """What a won siege roll leaves, told in order: "If the besieger beats the defender's
    roll, all defenders are eliminated, as well as any Fortress, if present. On an even
    result, the City is also eliminated (sacked and destroyed!)" (Phase 6). ``total``: the
    besiegers' result (die and modifiers); ``losses``: the defenders as counters ('' when
    none were left); ``winners``: 'Christian force (...)'; ``what``: 'result', or 'die' as rules
    version 2 read it (``total`` the die then)."""
    removed = [f"{losses} (every defender is eliminated)"] if losses else []
    if r.fortress_destroyed:
        removed.append("the fortress (it is destroyed)")
    text = "The besiegers win" + (f": remove {' and '.join(removed)} from {area}." if removed else ".")
    if not city:
        return f"{text} {area} is left with no fortress; the {winners} stays there."
    if r.sacked:
        gone = "no city and no fortress" if r.fortress_destroyed else "no city"
        return (
            f"{text} Their {what} is even ({total}): the city is sacked and destroyed: remove the city of "
            f"{area}. {area} is left with {gone}; the {winners} stays there."
        )
    return (
        f"{text} Their {what} is odd ({total}): the city is spared; the {winners} takes the city of {area}."
    )


def _siege_retreat(board: Board, state: GameState, area: str, side: str, units: list[Kind]) -> Proc:
    """A beaten besieger retreats to "a friendly or empty area (it cannot be an area with
    another siege present)" picked at random by the area die; else along a road to such
    an area; else it is eliminated ("Phase 6")."""

    def refuse(name: str) -> str | None:
        there = state.areas[name]
        if name == area:
            return "where the siege was"
        if there.besieger is not None:
            return "which has another siege"
        return None if free_of_enemy(there, side) else "which holds enemy forces"

    def ok(name: str) -> bool:
        return refuse(name) is None

    region = board.areas[area].region
    rname = board.regions[region].name
    name = SIDE_NAMES[side]
    dest = yield from area_die(
        board,
        region,
        refuse,
        f"Retreat of the {name} besiegers of {area}: area die",
        title=f"Retreat of the {name} besiegers of {area}",
        only=f"a friendly or empty area of {rname} with no other siege",
        about=About(
            "reconquista.sieges.retreat_area", {"area": area, "side": side, "region": rname}, SIEGE_LOST
        ),
    )
    via = "area_die"
    qualified = [n for n in board.regions[region].areas if ok(n)]
    reason = (
        f"the only friendly or empty area of {rname} with no other siege"
        if len(qualified) == 1
        else f"selected by the area die among the friendly or empty areas of {rname} with no other siege"
    )
    if dest is None:
        roads = [d for d in board.roads_in_map_order[area] if ok(d) and board.areas[d].region != state.revolt]
        dest = roads[0] if roads else None
        via = "road"
        reason = f"no friendly or empty area of {rname} without a siege: along the road to {dest}"
    if dest is None:
        state.areas[area].set_force(side, [])
        yield Tell(
            f"The {name} besiegers have nowhere to go: remove {describe(side, units)} from {area}.",
            topic="reconquista.sieges.retreat",
            data={
                "area": area,
                "side": side,
                "units": force_counts(units),
                "to": None,
                "via": None,
                "el_cid": False,
            },
            rule=SIEGE_LOST,
            reason=f"no friendly or empty area of {rname} without a siege, and no road to one",
        )
        return None
    move_units(state, side, units, area, dest)
    cid = _el_cid_follows(state, side, area, dest)
    yield Tell(
        f"The {name} besiegers retreat: move {describe(side, units)} from {area} to {dest}.{cid}",
        topic="reconquista.sieges.retreat",
        data={
            "area": area,
            "side": side,
            "units": force_counts(units),
            "to": dest,
            "via": via,
            "el_cid": bool(cid),
        },
        rule=SIEGE_LOST,
        reason=reason,
    )
    return dest
