"""Where a table is likeliest to have drifted from the app's: the places a log's steps named
most since its last board check (``prompts.Check``).

Each game's checks module (its registry entry's ``checks``) says which places a step names (an
area, a castle, in the step's facts) and asks its questions of the places this finds: each step
that names a place is a change the player made on the board there, or should have; a correction
by hand counts as EDIT_WEIGHT of them, so the next check looks there first (did it take on
both?). When a check is due is ``check_rhythm``'s. Pure: the engines use it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Sequence
from typing import Any

from companion.interface import Step
from companion.prompts import Check, Edit, Prompt

#: The most questions one check asks.
MOST_QUESTIONS = 3
#: A correction by hand counts as this many steps naming its place.
EDIT_WEIGHT = 100


def named_in(prompt: Prompt, keys: Sequence[str], lists: Sequence[str]) -> set[str]:
    """The places a step's facts name: one under each of ``keys``, several under each of ``lists``."""
    data: Any = getattr(prompt, "data", None)
    if not isinstance(data, dict):
        return set()
    found = {v for k in keys if isinstance(v := data.get(k), str)}
    for k in lists:
        if isinstance(names := data.get(k), list):
            found |= {n for n in names if isinstance(n, str)}
    return found


def since_last_check(steps: Sequence[Step]) -> Sequence[Step]:
    """The steps after the last board check (all of them before the first)."""
    last = next((i for i in range(len(steps) - 1, -1, -1) if isinstance(steps[i].prompt, Check)), -1)
    return steps[last + 1 :]


def named_most(
    steps: Sequence[Step], places: Callable[[Prompt], set[str]], known: Collection[str]
) -> list[str]:
    """The places of ``known`` that the steps since the last check named most, at most
    MOST_QUESTIONS of them; ties in the order of ``known`` (the board's)."""
    named: Counter[str] = Counter()
    for step in since_last_check(steps):
        weight = EDIT_WEIGHT if isinstance(step.prompt, Edit) else 1
        for place in places(step.prompt):
            if place in known:
                named[place] += weight
    order = {p: i for i, p in enumerate(known)}
    return sorted(named, key=lambda p: (-named[p], order[p]))[:MOST_QUESTIONS]
