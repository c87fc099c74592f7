"""``companion reconquista``: the battle and siege calculators on the command line.

``siege`` resolves one siege roll, ``battle`` one round of battle (the first: the
mountain counts), ``odds siege`` / ``odds battle`` give the exact odds of the whole
thing. Forces are SPECs (``units.parse_spec``: 2A1G), dice are comma-separated
faces matched to the units in the order the SPEC writes them. Human text by
default, JSON on stdout with ``--json``; bad input is one sentence and exit 2.
Only the pure engines are imported here: no Textual, no SQL. The combat modules
are imported by the handlers, so that building the command's parser (on every
start of the app) costs nothing.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from companion.errors import EXIT_OK, UsageError

if TYPE_CHECKING:
    from companion.reconquista import combat

from companion.reconquista.units import HIT_ON, Kind, SpecError, format_spec, parse_spec, spec_counts

_NOBODY = {"", "none", "0", "-"}


def register(subparsers: Any) -> None:
    """Add ``reconquista`` and its calculators to the ``companion`` command's sub-commands."""
    top = subparsers.add_parser(
        "reconquista", help="Reconquista calculators: a siege roll, a battle round, odds"
    )
    calcs = top.add_subparsers(dest="calculator", metavar="CALCULATOR", required=True)

    p = calcs.add_parser("siege", help="resolve one siege roll with the dice rolled")
    _siege_options(p)
    p.add_argument(
        "--after-tie",
        action="store_true",
        help="this roll continues a siege after a tie (an emptied city of the other religion still defends)",
    )
    p.add_argument("--dice", metavar="B,D", help="the besieger's die, then the defender's (e.g. 4,3)")
    _json_option(p)
    p.set_defaults(handler=_siege)

    p = calcs.add_parser("battle", help="resolve the first round of a battle with the dice rolled")
    _battle_options(p)
    p.add_argument(
        "--attacker-dice", metavar="D,..", required=True, help="one die per attacking unit, in SPEC order"
    )
    p.add_argument(
        "--defender-dice", metavar="D,..", required=True, help="one die per defending unit, in SPEC order"
    )
    _json_option(p)
    p.set_defaults(handler=_battle)

    p = calcs.add_parser("board", help="check a board file and print the board it describes")
    p.add_argument("--map", metavar="PATH", help="your own map file (default: the shipped board)")
    p.add_argument(
        "--tables", metavar="PATH", help="your own rules tables file (default: the shipped tables)"
    )
    _json_option(p)
    p.set_defaults(handler=_board)

    p = calcs.add_parser("odds", help="the exact odds of a whole siege or battle")
    kinds = p.add_subparsers(dest="odds_of", metavar="WHAT", required=True)
    q = kinds.add_parser("siege", help="the odds of a whole siege, ties and all")
    _siege_options(q)
    _json_option(q)
    q.set_defaults(handler=_siege_odds)
    q = kinds.add_parser("battle", help="the odds of a whole battle")
    _battle_options(q)
    _json_option(q)
    q.set_defaults(handler=_battle_odds)


def _json_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print JSON on stdout")


def _siege_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--besiegers", metavar="SPEC", required=True, help="the besieging force, e.g. 3A2G")
    p.add_argument(
        "--defenders", metavar="SPEC", required=True, help="the force inside, e.g. 2A1G, or 'none'"
    )
    p.add_argument(
        "--city", action="store_true", help="there is a city (+1 to the defence; it can be sacked)"
    )
    p.add_argument("--fortress", action="store_true", help="there is a fortress (doubles the defence)")
    p.add_argument("--el-cid", choices=["besieger", "defender"], help="the side El Cid is with (+2)")
    p.add_argument(
        "--same-religion",
        action="store_true",
        help="the city is of the besieger's religion (it surrenders once a tie empties it)",
    )


def _battle_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--attackers", metavar="SPEC", required=True, help="the moving force, e.g. 2A1G")
    p.add_argument("--defenders", metavar="SPEC", required=True, help="the force in the area, e.g. 1G2A")
    p.add_argument(
        "--city", action="store_true", help="the defenders hold a city in the area they can retreat into"
    )
    p.add_argument("--mountain", action="store_true", help="a mountainous area (the defenders strike first)")
    p.add_argument(
        "--el-cid", choices=["attacker", "defender"], help="the side El Cid is with (it strikes first)"
    )


# -- input -------------------------------------------------------------------------------------


def _force(flag: str, text: str, *, may_be_empty: bool = False) -> list[Kind]:
    if may_be_empty and text.strip().lower() in _NOBODY:
        return []
    try:
        return parse_spec(text)
    except SpecError as exc:
        raise UsageError(f"{flag}: {exc}") from None


def _dice(flag: str, text: str) -> list[int]:
    faces = [part.strip() for part in text.split(",")]
    dice: list[int] = []
    for face in faces:
        if not (face.isascii() and face.isdigit()):
            raise UsageError(
                f"{flag}: '{face}' is not a die; give faces 1 to 6 separated by commas, like 5,3,4."
            )
        if not 1 <= int(face) <= 6:
            raise UsageError(f"{flag}: {int(face)} is not a die face; a die shows 1 to 6.")
        dice.append(int(face))
    return dice


def _count(flag: str, dice: list[int], units: list[Kind], who: str) -> None:
    if len(dice) != len(units):
        raise UsageError(
            f"{flag} has {len(dice)} {'die' if len(dice) == 1 else 'dice'} but the {who} "
            f"({format_spec(units)}) have {len(units)} {'unit' if len(units) == 1 else 'units'}: "
            "one die per unit, in the order the SPEC lists them."
        )


def _emit(args: argparse.Namespace, data: dict[str, Any], lines: list[str]) -> int:
    if args.json:
        print(json.dumps(data, indent=2, ensure_ascii=False))
    else:
        print("\n".join(lines))
    return EXIT_OK


# -- siege -------------------------------------------------------------------------------------


def _place(city: bool, fortress: bool) -> str:
    if city and fortress:
        return "a city with a fortress"
    return "a city" if city else "a fortress"


def _check_place(args: argparse.Namespace) -> None:
    if not (args.city or args.fortress):
        raise UsageError("A siege needs --city, --fortress or both: there is nothing to besiege.")


def _mod_json(mods: combat.SiegeModifiers) -> dict[str, list[dict[str, Any]]]:
    return {
        "besieger": [{"label": m.label, "amount": m.amount} for m in mods.besieger],
        "defender": [{"label": m.label, "amount": m.amount} for m in mods.defender],
    }


def _sum_text(die: int, lines: tuple[combat.Modifier, ...], total: int) -> str:
    from companion.reconquista import combat

    return combat.arithmetic(die, lines, total)


def _siege(args: argparse.Namespace) -> int:
    from companion.reconquista import combat

    besiegers = _force("--besiegers", args.besiegers)
    defenders = _force("--defenders", args.defenders, may_be_empty=True)
    _check_place(args)
    dice: list[int] = []
    if args.dice is not None:
        dice = _dice("--dice", args.dice)
        if len(dice) != 2:
            raise UsageError(
                f"--dice needs 2 dice, the besieger's then the defender's (like 4,3), not {len(dice)}."
            )
    gives_up = combat.surrenders(
        defenders, city=args.city, same_religion=args.same_religion, after_tie=args.after_tie
    )
    if not dice and not gives_up:
        raise UsageError("A siege roll needs --dice B,D: the besieger's die, then the defender's (like 4,3).")
    try:
        roll = combat.siege_roll(
            besiegers,
            defenders,
            city=args.city,
            fortress=args.fortress,
            el_cid=args.el_cid,
            same_religion=args.same_religion,
            after_tie=args.after_tie,
            besieger_die=dice[0] if dice else 1,  # ignored: the place gives up without a roll
            defender_die=dice[1] if dice else 1,
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    data = {
        "besieger_total": roll.besieger_total,
        "defender_total": roll.defender_total,
        "outcome": roll.outcome,
        "sacked": roll.sacked,
        "surrendered": roll.surrendered,
        "result": roll.result,
        "fortress_destroyed": roll.fortress_destroyed,
        "modifiers": _mod_json(roll.modifiers),
        "besieger_survivors": spec_counts(roll.besieger_survivors),
        "defender_survivors": spec_counts(roll.defender_survivors),
    }
    head = f"Siege: {format_spec(besiegers)} besiege {_place(args.city, args.fortress)}"
    head += f" held by {format_spec(defenders)}." if defenders else " with nobody inside."
    lines = [head]
    if roll.besieger_total is None or roll.defender_total is None or roll.besieger_die is None:
        lines.append(
            "Nobody defends it: it surrenders without a roll and is captured (any fortress is kept)."
        )
        return _emit(args, data, lines)
    assert roll.defender_die is not None
    lines.append("Besieger: " + _sum_text(roll.besieger_die, roll.modifiers.besieger, roll.besieger_total))
    lines.append("Defender: " + _sum_text(roll.defender_die, roll.modifiers.defender, roll.defender_total))
    lines.append(_siege_result_text(roll, args.city))
    return _emit(args, data, lines)


def _lost(units: tuple[Kind, ...]) -> str:
    return ", ".join(k.noun for k in units) or "nobody"


def _one(units: tuple[Kind, ...]) -> str:
    return f"1 unit ({units[0].noun})" if units else "nothing (nobody was left)"


def _siege_result_text(roll: combat.SiegeRoll, city: bool) -> str:
    left = (
        f"Besiegers left: {format_spec(roll.besieger_survivors)}; "
        f"defenders left: {format_spec(roll.defender_survivors)}."
    )
    # "all defenders are eliminated, as well as any Fortress, if present. On an even result,
    # the City is also eliminated" (Phase 6): say each, and what is left.
    gone = "every defender is eliminated" if roll.defender_losses else "nobody was left inside"
    gone += " and the fortress is destroyed" if roll.fortress_destroyed else ""
    if roll.result == "sacked":
        left_with = "no city and no fortress" if roll.fortress_destroyed else "no city"
        return (
            f"The besieger wins with an even result: {gone}, and the city is sacked and destroyed; "
            f"the area is left with {left_with}."
        )
    if roll.result == "captured" and not city:
        return f"The besieger wins: {gone}; the area is left with no fortress."
    if roll.result == "captured":
        return f"The besieger wins with an odd result: {gone}; the city is captured."
    if roll.result == "besieger_retreats":
        return f"The defender wins: the besiegers lose 1 unit ({_lost(roll.besieger_losses)}) and retreat. {left}"
    losses = f"the besiegers lose {_one(roll.besieger_losses)}, the defenders {_one(roll.defender_losses)}"
    if roll.result == "surrendered":
        return (
            f"A tie: {losses}; the place, left without units, surrenders and is captured (any fortress kept)."
        )
    if roll.result == "defender_holds":
        return f"A tie: {losses}; no besieger is left, so the defender holds."
    return f"A tie: {losses}; the siege goes on (roll again with --after-tie). {left}"


def _siege_odds(args: argparse.Namespace) -> int:
    from companion.reconquista import odds

    besiegers = _force("--besiegers", args.besiegers)
    defenders = _force("--defenders", args.defenders, may_be_empty=True)
    _check_place(args)
    try:
        result = odds.siege_odds(
            besiegers,
            defenders,
            city=args.city,
            fortress=args.fortress,
            el_cid=args.el_cid,
            same_religion=args.same_religion,
        )
    except ValueError as exc:  # "0A": a siege needs a besieger
        raise UsageError(str(exc)) from None
    held = f"held by {format_spec(defenders)}" if defenders else "with nobody inside"
    lines = [
        f"Siege odds: {format_spec(besiegers)} besiege {_place(args.city, args.fortress)} {held}.",
        f"Besieger takes it: {_pct(result['besieger'])}",
        f"  of which sacked: {_pct(result['sacked'])}",
        f"Defender holds:    {_pct(result['defender'])}",
    ]
    return _emit(args, result, lines)


def _pct(p: float) -> str:
    return f"{100 * p:5.1f}%"


# -- battle ------------------------------------------------------------------------------------

_RESULT_TEXT = {
    "both_destroyed": "both forces are destroyed.",
    "defender_destroyed": "the defenders are destroyed (a city there is captured, any fortress kept).",
    "attacker_destroyed": "the attackers are destroyed.",
    "attacker_retreats": "the defenders scored more hits: the attackers retreat.",
    "defender_retreats": "the attackers scored more hits: the defenders retreat.",
    "defender_into_city": "the defenders go into the city; the attackers stay to besiege it.",
    "continue": "a tie: the battle goes on, roll again.",
}


def _rolls_text(units: tuple[Kind, ...] | list[Kind], dice: list[int]) -> str:
    return ", ".join(
        f"{k.noun} {d} {'hit' if d >= HIT_ON[k] else 'miss'}" for k, d in zip(units, dice, strict=True)
    )


def _battle(args: argparse.Namespace) -> int:
    from companion.reconquista import combat

    attackers = _force("--attackers", args.attackers)
    defenders = _force("--defenders", args.defenders)
    a_dice = _dice("--attacker-dice", args.attacker_dice)
    d_dice = _dice("--defender-dice", args.defender_dice)
    first = combat.first_striker(args.mountain, args.el_cid, first_round=True)
    # The side striking first rolls with every unit; the other side's count is checked
    # by the engine, which knows how many survived.
    if first != "defender":
        _count("--attacker-dice", a_dice, attackers, "attackers")
    if first != "attacker":
        _count("--defender-dice", d_dice, defenders, "defenders")
    try:
        rnd = combat.battle_round(attackers, defenders, a_dice, d_dice, city=args.city, first=first)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    data = {
        "attacker_hits": rnd.attacker_hits,
        "defender_hits": rnd.defender_hits,
        "attacker_survivors": spec_counts(rnd.attacker_survivors),
        "defender_survivors": spec_counts(rnd.defender_survivors),
        "result": rnd.result,
        "first": rnd.first,
    }
    # The side struck first rolls with its survivors, and it loses nothing after rolling.
    a_rolled = list(rnd.attacker_survivors) if first == "defender" else attackers
    d_rolled = list(rnd.defender_survivors) if first == "attacker" else defenders
    why = {
        None: "both sides roll together",
        "defender": "the defenders strike first",
        "attacker": "the attackers strike first",
    }[first]
    if first is not None:
        why += " (El Cid)" if args.el_cid else " (mountain)"
    lines = [
        f"Battle, first round: {format_spec(attackers)} attack {format_spec(defenders)}; {why}.",
        f"Attackers: {_rolls_text(a_rolled, a_dice) or 'no unit left to roll'} -> {_hits(rnd.attacker_hits)}.",
        f"Defenders: {_rolls_text(d_rolled, d_dice) or 'no unit left to roll'} -> {_hits(rnd.defender_hits)}.",
        f"Attackers lose {_lost(rnd.attacker_losses)}; left: {format_spec(rnd.attacker_survivors)}.",
        f"Defenders lose {_lost(rnd.defender_losses)}; left: {format_spec(rnd.defender_survivors)}.",
        "Result: " + _RESULT_TEXT[rnd.result],
    ]
    return _emit(args, data, lines)


def _hits(n: int) -> str:
    return f"{n} hit" if n == 1 else f"{n} hits"


def _battle_odds(args: argparse.Namespace) -> int:
    from companion.reconquista import odds

    attackers = _force("--attackers", args.attackers)
    defenders = _force("--defenders", args.defenders)
    try:
        result = odds.battle_odds(
            attackers, defenders, city=args.city, mountain=args.mountain, el_cid=args.el_cid
        )
    except ValueError as exc:  # "0A": a battle needs a unit on each side
        raise UsageError(str(exc)) from None
    where = " by a city" if args.city else ""
    where += " in the mountains" if args.mountain else ""
    cid = f"; El Cid with the {args.el_cid}s" if args.el_cid else ""
    lines = [
        f"Battle odds: {format_spec(attackers)} attack {format_spec(defenders)}{where}{cid}.",
        f"Attackers win:        {_pct(result['attacker_wins'])}",
        f"Defenders win:        {_pct(result['defender_wins'])}",
        f"Defenders into city:  {_pct(result['siege'])}",
        f"Both destroyed:       {_pct(result['both_destroyed'])}",
    ]
    return _emit(args, result, lines)


# -- board ---------------------------------------------------------------------------------------


def _board(args: argparse.Namespace) -> int:
    """Validate a map (and tables) file and print what the app will play on."""
    from companion.reconquista.board import load_board

    board = load_board(args.map, args.tables)
    data = {
        "source": board.source,
        "regions": [
            {
                "number": r.number,
                "name": r.name,
                "areas": [
                    {
                        "name": a,
                        "faces": list(board.areas[a].faces),
                        "mountain": board.areas[a].mountain,
                        "port": board.areas[a].port,
                        "roads": list(board.roads[a]),
                    }
                    for a in r.areas
                ],
            }
            for r in board.regions.values()
        ],
    }
    lines = [f"Board from {board.source}: valid."]
    for r in board.regions.values():
        lines.append(f"{r.number} {r.name}")
        for a in r.areas:
            area = board.areas[a]
            faces = (
                "-".join(str(f) for f in (area.faces[0], area.faces[-1]))
                if len(area.faces) > 1
                else str(area.faces[0])
            )
            marks = [m for m, on in (("mountain", area.mountain), (f"port {area.port}", area.port)) if on]
            roads = f"  roads to {', '.join(board.roads[a])}" if board.roads[a] else ""
            extra = f" ({', '.join(marks)})" if marks else ""
            lines.append(f"    {faces:<4} {a}{extra}{roads}")
    return _emit(args, data, lines)
