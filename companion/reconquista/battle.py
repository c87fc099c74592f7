"""Battles and sieges on the board: prompt procedures over the game state.

``combat`` does the arithmetic of one round or one siege roll; here the dice are
asked for (Roll), the board changes are told (Tell) and applied to the state,
and every outcome is carried out: retreats, sieges, captures, eliminations.
Later phases call these with ``yield from``.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from typing import Any

from companion.prompts import Choose, Prompt, Roll, Tell
from companion.reconquista import combat
from companion.reconquista.board import Board
from companion.reconquista.control import city_controller, free_of_enemy, hostile
from companion.reconquista.selection import area_die
from companion.reconquista.state import SIDE_NAMES, AreaState, GameState, unit_name
from companion.reconquista.units import Kind
from companion.text import upper_first

#: A procedure: it yields prompts and is sent their answers. The answer is typed Any
#: because no type can tie it to the prompt yielded: the driver has checked it against
#: that prompt (a Roll's answer is a list of its faces, a Choose's one of its options).
Proc = Generator[Prompt, Any, Any]


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
    board: Board, region: int, qualifies: Callable[[str], bool], why: str, *, title: str, only: str
) -> Proc:
    """Pick an area of ``region`` at random by the area die, rolling again until the area
    qualifies (``selection.area_die``): the only one that qualifies is named without a roll
    (``title``, ``only``: the Tell's words); None, and no roll, when no area qualifies."""
    return (
        yield from area_die(
            board,
            region,
            lambda area: None if qualifies(area) else "which does not qualify",
            why,
            title=title,
            only=only,
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
                f"of {area}: it will surrender in Phase 6."
            )
        return None
    if walls and defender != a.besieger and not combat.battle_or_siege(a.force(defender), True):
        a.besieger = side
        what = describe(defender, a.force(defender))
        yield Tell(f"No battle in {area} ({what} inside): the {name} force stops and besieges it (Phase 6).")
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
    if relief:
        walls = "city" if a.city is not None else "fortress"
        join = f": the {att_name} units in the {walls} join the battle" if joined else ""
        yield Tell(
            f"The {att_name} force comes to relieve the {walls} of {area}, besieged by "
            f"{describe(defender, a.force(defender))}{join}."
        )
    rounds = 0
    while True:
        rounds += 1
        att, dfn = a.force(attacker), a.force(defender)
        first = combat.first_striker(mountain, el_cid, rounds == 1)
        label = f"Battle in {area}, round {rounds}"
        if first is None:
            att_dice = yield Roll(len(att), 6, f"{label}: {att_name} dice ({_letters(att)})")
            def_dice = yield Roll(len(dfn), 6, f"{label}: {def_name} dice ({_letters(dfn)})")
        elif first == "defender":
            def_dice = yield Roll(len(dfn), 6, f"{label}: {def_name} dice first ({_letters(dfn)})")
            left = combat.remove_casualties(att, combat.hits(dfn, def_dice))
            att_dice = (
                (
                    yield Roll(
                        len(left),
                        6,
                        f"{label}: {att_name} survivors' dice ({_letters(left)})",
                    )
                )
                if left
                else []
            )
        else:
            att_dice = yield Roll(len(att), 6, f"{label}: {att_name} dice first ({_letters(att)})")
            left = combat.remove_casualties(dfn, combat.hits(att, att_dice))
            def_dice = (
                (
                    yield Roll(
                        len(left),
                        6,
                        f"{label}: {def_name} survivors' dice ({_letters(left)})",
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
            + (f"Remove {'; remove '.join(losses)} from {area}." if losses else "No losses.")
        )
        if relief and into_walls and r.result in ("continue", "attacker_retreats"):
            walls = "city" if a.city is not None else "fortress"
            how = "A tie" if r.result == "continue" else f"The {att_name} force is beaten"
            yield Tell(
                f"{how}: the surviving {att_name} force ({describe(attacker, a.force(attacker))}) "
                f"withdraws into the {walls} of {area}; the {def_name} force keeps the siege (Phase 6)."
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
            )
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
) -> Proc:
    """Carry out the last round's ``result``. ``besieging``: the defenders were the besiegers
    of the walls there; ``relief``: the attackers came to relieve walls of their side (from
    ``relieves``), ``joined`` with units of theirs inside them."""
    a = state.areas[area]
    att_name, def_name = SIDE_NAMES[attacker], SIDE_NAMES[defender]
    walls = "city" if a.city is not None else "fortress"
    relieved = f" The {walls} of {area} is relieved." if relief else ""
    # The defenders are the besiegers of the walls there, or the force that holds the area.
    who, has, goes = (
        (f"The {def_name} besiegers", "have", "retreat")
        if besieging
        else (f"The {def_name} force", "has", "retreats")
    )
    if result == "defender_retreats":
        units = a.force(defender)
        dest = retreat_area(board, state, area, defender)
        if dest is None:
            a.set_force(defender, [])
            yield Tell(
                f"{who} {has} nowhere to retreat: remove {describe(defender, units)} from {area}.{relieved}"
            )
        else:
            move_units(state, defender, units, area, dest)
            cid = _el_cid_follows(state, defender, area, dest)
            yield Tell(
                f"{who} {goes}: move {describe(defender, units)} from {area} to {dest}.{cid}{relieved}"
            )
        if not relief:  # relieved walls are the attackers' own: nothing to besiege
            gone = "retreated" if dest is not None else "been removed"
            yield from _besiege_holders(a, area, attacker, defender, gone=gone)
        return BattleOutcome(result, rounds, area, tuple(a.force(attacker)))
    if result == "defender_into_city":
        a.besieger = attacker
        yield Tell(
            f"The {def_name} force withdraws into the city of {area}; the {att_name} force "
            "stays outside and besieges it (Phase 6)."
        )
        return BattleOutcome(result, rounds, area, tuple(a.force(attacker)))
    if result == "attacker_retreats":
        units = a.force(attacker)
        options = list(dict.fromkeys(o for o in origins if o != area))
        # "the retreat may be to that city": the besieged city, unless another side holds it
        # (then the attackers would stand inside beside their enemies).
        third = [s for s in a.sides() if s not in (attacker, defender)]
        if a.city is not None and a.besieger == defender and not third:
            options.append(area)
        dest = options[0] if len(options) == 1 else None
        if dest is None and options:
            dest = yield Choose(options, f"The {att_name} force lost in {area}: retreat to which area?")
        if dest is None:
            a.set_force(attacker, [])
            yield Tell(
                f"The {att_name} force has nowhere to retreat: remove {describe(attacker, units)} from {area}."
            )
            return BattleOutcome(result, rounds, None)
        if dest == area:
            yield Tell(f"The {att_name} force retreats into the city of {area}.")
        else:
            move_units(state, attacker, units, area, dest)
            cid = _el_cid_follows(state, attacker, area, dest)
            yield Tell(
                f"The {att_name} force retreats: move {describe(attacker, units)} from {area} to {dest}.{cid}"
            )
        return BattleOutcome(result, rounds, dest, tuple(units))
    if result == "defender_destroyed":
        if relief:
            yield Tell(f"The {def_name} besiegers are destroyed.{relieved}")
        elif besieging and _held_against(a, attacker):
            yield from _besiege_holders(a, area, attacker, defender, gone="been destroyed")
        elif besieging:
            yield Tell(f"The {def_name} besiegers of the {walls} of {area} are destroyed.")
        elif a.city is not None:
            yield Tell(
                f"The {def_name} force is destroyed and the city of {area} is captured (any fortress stays)."
            )
        else:
            yield Tell(f"The {def_name} force in {area} is destroyed.")
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
            yield Tell(f"{gone}; the {def_name} siege of the {empty}{walls} of {area} goes on.")
        else:
            yield Tell(f"The {att_name} force in {area} is destroyed.")
        return BattleOutcome(result, rounds, None)
    yield Tell(f"Both forces in {area} are destroyed.")
    return BattleOutcome(result, rounds, None)


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
        f"{held} (Phase 6)."
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
    b_name = SIDE_NAMES[besieger]
    inside = [s for s in a.sides() if s != besieger]
    defender = inside[0] if inside else city_controller(a) or "muslim"
    d_name = SIDE_NAMES[defender]
    same_religion = not city or a.city == besieger
    cid = state.el_cid_side if state.el_cid_area == area else None
    el_cid: combat.SiegeSide | None = (
        "besieger" if cid == besieger else "defender" if cid == defender else None
    )
    after_tie = False
    while True:
        b_units, d_units = a.force(besieger), a.force(defender)
        if combat.surrenders(d_units, city=city, same_religion=same_religion, after_tie=after_tie):
            a.besieger = None
            yield Tell(
                f"Nobody defends {place}: it surrenders to the {b_name} force "
                f"({describe(besieger, b_units)}) (any fortress stays)."
            )
            return "besieger"
        dice = yield Roll(
            2,
            6,
            f"Siege of {area}: the {b_name} (besieger) die, then the {d_name} (defender) die",
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
        if r.result in ("captured", "sacked"):
            a.besieger = None
            a.fortress = a.fortress and not r.fortress_destroyed
            if r.sacked:
                a.city = None
            eliminated = describe(defender, list(r.defender_losses)) if r.defender_losses else ""
            winners = f"{b_name} force ({describe(besieger, list(r.besieger_survivors))})"
            won = _siege_won(area, r, dice[0], city, eliminated, winners)
            yield Tell(f"Siege of {area}: {sums}. {won}")
            return "besieger"
        if r.result == "besieger_retreats":
            a.besieger = None
            yield Tell(f"Siege of {area}: {sums}. The defenders hold: remove {losses} from {area}.")
            if r.besieger_survivors:
                yield from _siege_retreat(board, state, area, besieger, list(r.besieger_survivors))
            return "defender"
        yield Tell(f"Siege of {area}: {sums}, a tie. Remove {losses or 'nothing'} from {area}.")
        if r.result == "defender_holds":
            yield Tell(f"The {b_name} besiegers are gone: {place} holds.")
            return "defender"
        if r.result == "surrendered":
            a.besieger = None
            yield Tell(
                f"{upper_first(place)} has no defenders left and surrenders to the {b_name} force "
                f"({describe(besieger, a.force(besieger))})."
            )
            return "besieger"
        a.besieger = besieger  # 'continue': the siege goes on with the survivors
        after_tie = True


def _siege_won(area: str, r: combat.SiegeRoll, die: int, city: bool, losses: str, winners: str) -> str:
    """What a won siege roll leaves, told in order: "If the besieger beats the defender's
    roll, all defenders are eliminated, as well as any Fortress, if present. On an even
    result, the City is also eliminated (sacked and destroyed!)" (Phase 6). ``losses``: the
    defenders as counters ('' when none were left); ``winners``: 'Christian force (...)'."""
    removed = [f"{losses} (every defender is eliminated)"] if losses else []
    if r.fortress_destroyed:
        removed.append("the fortress (it is destroyed)")
    text = "The besiegers win" + (f": remove {' and '.join(removed)} from {area}." if removed else ".")
    if not city:
        return f"{text} {area} is left with no fortress; the {winners} stays there."
    if r.sacked:
        gone = "no city and no fortress" if r.fortress_destroyed else "no city"
        return (
            f"{text} Their die is even ({die}): the city is sacked and destroyed: remove the city of "
            f"{area}. {area} is left with {gone}; the {winners} stays there."
        )
    return f"{text} Their die is odd ({die}): the city is spared; the {winners} takes the city of {area}."


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
    )
    if dest is None:
        roads = [d for d in board.roads_in_map_order[area] if ok(d) and board.areas[d].region != state.revolt]
        dest = roads[0] if roads else None
    if dest is None:
        state.areas[area].set_force(side, [])
        yield Tell(f"The {name} besiegers have nowhere to go: remove {describe(side, units)} from {area}.")
        return None
    move_units(state, side, units, area, dest)
    cid = _el_cid_follows(state, side, area, dest)
    yield Tell(f"The {name} besiegers retreat: move {describe(side, units)} from {area} to {dest}.{cid}")
    return dest
