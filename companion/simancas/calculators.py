"""``companion simancas``: the force totals of a Battle of Simancas hand on the command line.

``total`` takes the cards each side has placed and the ones destroyed, checks the
table (each card once, each side's restriction, Mercenaries' one enemy troop) and
prints every card's score itemised, both totals and the winner; ``--json`` prints
the same on stdout. Names match ignoring case, accents and surrounding spaces; a
bad name or table is one sentence and exit 2. The deck and the engine (pydantic)
are imported by the handler, so building the parser on every start costs nothing.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from companion.errors import EXIT_OK

if TYPE_CHECKING:
    from companion.simancas.table import CardScore


def register(subparsers: Any) -> None:
    """Add ``simancas`` and its calculator to the ``companion`` command's sub-commands."""
    top = subparsers.add_parser("simancas", help="Battle of Simancas: the force totals of a hand")
    calcs = top.add_subparsers(dest="calculator", metavar="CALCULATOR", required=True)
    p = calcs.add_parser(
        "total",
        help="the force of every placed card, both totals and the winner of the hand",
        description=(
            "The force totals of the cards on the table. Name the cards each side placed "
            "(comma-separated, any case, accents optional) and the ones destroyed; Rout's "
            "victim is simply one of the destroyed cards."
        ),
    )
    p.add_argument(
        "--moors", metavar="NAMES", default="", help='the cards the Moors placed, e.g. "Jund Cavalry, Woods"'
    )
    p.add_argument(
        "--christians", metavar="NAMES", default="", help='the cards the Christians placed, e.g. "Knights"'
    )
    p.add_argument(
        "--destroyed", metavar="NAMES", default="", help="the placed cards that were destroyed, either side's"
    )
    p.add_argument("--json", action="store_true", help="print JSON on stdout")
    p.set_defaults(handler=_total)


def _names(text: str) -> list[str]:
    return [n.strip() for n in text.split(",") if n.strip()]


def _total(args: argparse.Namespace) -> int:
    from companion.simancas.cards import default_deck
    from companion.simancas.table import SIDE_NAMES, Table

    table = Table.from_lists(
        default_deck(), _names(args.moors), _names(args.christians), _names(args.destroyed)
    )
    scores = table.scores()
    totals = table.totals()
    winner = table.winner()
    if args.json:
        data = {
            "moors": totals["moors"],
            "christians": totals["christians"],
            "winner": winner or "tie",
            "cards": [s.to_json() for s in scores],
        }
        print(json.dumps(data, indent=2, ensure_ascii=False))
        return EXIT_OK
    for s in scores:
        print(f"{SIDE_NAMES[s.side]}: {_line(s)}")
    result = f"the {SIDE_NAMES[winner]} win the hand." if winner else "a tie: neither side wins the hand."
    print(f"Moors {totals['moors']}, Christians {totals['christians']}: {result}")
    return EXIT_OK


def _line(s: CardScore) -> str:
    """'Jund Cavalry 5 +1 (Cavalry Detachments) -1 (Woods) = 5'."""
    if s.destroyed:
        return f"{s.name} {s.base}, destroyed = 0"
    mods = "".join(f" {b.amount:+d} ({b.source})" for b in s.modifiers)
    floor = " (floored at 0)" if s.floored else ""
    return f"{s.name} {s.base}{mods} = {s.score}{floor}"
