"""Board checks of Terra de Castells: "Who holds Miravet?", asked where the table is likeliest
to have drifted from the app's.

At the end of a century (the player sets how often: the ``board_checks`` setting) the app asks
one to three questions, of the castles the game's steps named most since the last check
(``spots.named_most``: a castle's name in a step's facts: built, attacked, taken, lost). The answer is a player's name,
"the Saracens" for the castle they sit in, or "nobody". A check is a step of the log of its own
topic that the game never sees (``prompts.Check``): it changes nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion.castells.state import SARACENS, CastellsState
from companion.interface import Step
from companion.prompts import Check, Prompt
from companion.spots import named_in, named_most

CHECK_TOPIC = "castells.check"
NOBODY = "nobody"


def places(prompt: Prompt) -> set[str]:
    """The castles a step's question names in its facts."""
    return named_in(prompt, ("castle",), ("castles",))


def touches(prompt: Prompt, place: str) -> bool:
    """Whether a step's question concerns ``place`` (to find a step skipped on the table)."""
    return place in places(prompt)


def board_checks(state: CastellsState, steps: Sequence[Step]) -> list[Check]:
    """The questions of a check now: the castles named most since the last check (ties: in
    the board's order), who holds each."""
    chosen = named_most(steps, places, state.owners)
    holders = tuple(dict.fromkeys([*(p.name for p in state.players), SARACENS, NOBODY]))
    return [_question(state, castle, holders) for castle in chosen]


def _question(state: CastellsState, castle: str, holders: tuple[str, ...]) -> Check:
    owner = state.owners[castle]
    held = owner if owner is not None else SARACENS if castle == state.saracen else NOBODY
    return Check(
        f"Who holds {castle} on your table?",
        held,
        holders,
        topic=CHECK_TOPIC,
        # "turn" as ``where`` says it, the century (the next check counts from it); "place" for the reports.
        data={"castle": castle, "place": castle, "century": state.century + 1, "turn": state.century + 1},
    )
