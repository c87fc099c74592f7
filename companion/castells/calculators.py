"""``companion castells odds``: the exact chance of a Terra de Castells roll with rerolls.

N dice (default 5), a success on 5 or 6, every failed die rerolled up to R rolls in
all (default 3): the chance of at least K successes. ``--json`` prints it on stdout
with the key "probability". Bad input is one sentence and exit 2.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from companion.errors import EXIT_OK, UsageError

MAX_DICE = 12
MAX_ROLLS = 10


def register(subparsers: Any) -> None:
    """Add ``castells`` and its calculator to the ``companion`` command's sub-commands."""
    top = subparsers.add_parser("castells", help="Terra de Castells: the odds of a battle roll")
    calcs = top.add_subparsers(dest="calculator", metavar="CALCULATOR", required=True)
    p = calcs.add_parser(
        "odds",
        help="the chance that N dice reach K successes (5-6), rerolling the failed dice up to R rolls in all",
        description=(
            "The exact chance that N dice reach at least K successes (a 5 or 6), when every failed "
            "die is rerolled, up to R rolls in all: a defender's chance to hold against K."
        ),
    )
    p.add_argument("--need", metavar="K", required=True, help="the successes to reach (1 to N)")
    p.add_argument("--dice", metavar="N", default="5", help="how many dice (default 5; 6 with the black die)")
    p.add_argument("--rolls", metavar="R", default="3", help="rolls in all, the first included (default 3)")
    p.add_argument("--json", action="store_true", help="print JSON on stdout")
    p.set_defaults(handler=_odds)


def _whole(text: str, what: str, low: int, high: int) -> int:
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        raise UsageError(f"{what} is a whole number from {low} to {high}, not '{text}'.")
    return int(text)


def _odds(args: argparse.Namespace) -> int:
    from companion.castells.odds import percent, reach

    dice = _whole(args.dice, "--dice", 1, MAX_DICE)
    rolls = _whole(args.rolls, "--rolls", 1, MAX_ROLLS)
    need = _whole(args.need, "--need", 0, MAX_DICE)
    if need > dice:
        raise UsageError(f"{dice} dice cannot reach {need} successes: --need is at most --dice.")
    p = reach(need, dice, rolls)
    if args.json:
        data = {
            "need": need,
            "dice": dice,
            "rolls": rolls,
            "probability": float(p),
            "fraction": f"{p.numerator}/{p.denominator}",
        }
        print(json.dumps(data, indent=2))
        return EXIT_OK
    print(
        f"{dice} dice, up to {rolls} roll{'s' if rolls > 1 else ''}, at least {need} "
        f"success{'es' if need != 1 else ''} on 5-6: {percent(p)} ({float(p):.6f}, exactly {p.numerator}/{p.denominator})"
    )
    return EXIT_OK
