"""Board checks of Reconquista: spot questions about the physical table, where it is likeliest
to have drifted from the app's.

At the end of a turn (the player sets how often: the ``board_checks`` setting) the app asks
one to three questions: "How many Muslim armies are in Granada on your table?". It asks of
the areas the game's steps named most since the last check (``spots.named_most``: an area's
name in a step's facts, where units moved, fought, rose or were bought), a question of the
largest force there. A check is a step of the log of its own topic that the game never sees
(``prompts.Check``): it changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.interface import Step
from companion.prompts import Check, Prompt
from companion.reconquista.state import SIDE_NAMES, SIDES, GameState
from companion.reconquista.units import Kind, noun_for
from companion.spots import named_in, named_most

CHECK_TOPIC = "reconquista.check"
#: The facts of a prompt that name an area: where something happened on the board.
_AREA_KEYS = ("area", "to", "from", "origin", "target")


def places(prompt: Prompt) -> set[str]:
    """The areas a step's question names in its facts."""
    return named_in(prompt, _AREA_KEYS, ("areas",))


def touches(prompt: Prompt, place: str) -> bool:
    """Whether a step's question concerns ``place`` (to find a step skipped on the table)."""
    return place in places(prompt)


def board_checks(state: GameState, steps: Sequence[Step]) -> list[Check]:
    """The questions of a check now, after the logged ``steps``: the areas named most since the
    last check (ties: in the board's order), a question each of its largest force; an area
    with no unit asks after the Christian armies there (0)."""
    chosen = named_most(steps, places, state.areas)
    return [_question(state, area) for area in chosen]


def _question(state: GameState, area: str) -> Check:
    a = state.areas[area]
    forces = [(a.count(side, kind), -SIDES.index(side), -list(Kind).index(kind), side, kind)
              for side in a.sides() for kind in Kind if a.count(side, kind)]  # fmt: skip
    n, _, _, side, kind = max(forces) if forces else (0, 0, 0, "christian", Kind.ARMY)
    what = f"{SIDE_NAMES[side]} {noun_for(kind, 2)}"
    return Check(
        f"How many {what} are in {area} on your table?",
        str(n),
        topic=CHECK_TOPIC,
        # "turn" as ``where`` says it (the next check counts from it); "place" for the reports.
        data={"area": area, "place": area, "side": side, "kind": kind.noun, "turn": state.turn},
    )
