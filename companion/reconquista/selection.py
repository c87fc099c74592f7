"""Random selections by the dice: "randomly select an area", "roll a D6 to select a region".

The die is rolled, and rolled again (a new Roll saying why) while it gives a candidate
that does not qualify. When exactly one candidate qualifies, every roll would end on it:
no roll is asked, a Tell names it and says why (docs/rules-notes.md, "Random selections").
The candidates are what the faces give, not the faces: Granada on 5 and 6 is one area.
With no candidate nothing is rolled and None is returned; each caller says what follows.

Every prompt of a selection carries the caller's ``topic``, ``data`` and ``rule``; the Rolls add
``candidates`` (the names that qualify) and, for a roll asked again, ``again`` True and
``rejected`` (what the last dice gave); the Tell adds ``picked`` and ``only`` True.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

from companion.prompts import Prompt, Roll, Tell
from companion.reconquista.board import Board

T = TypeVar("T")

#: A selection: it yields Rolls (or the one Tell) and returns the candidate picked, or None.
Selection = Generator[Prompt, Any, T | None]


@dataclass(frozen=True)
class About:
    """What a selection's prompts are (``companion.prompts``): the topic, the facts, the rule."""

    topic: str
    data: Mapping[str, Any] = field(default_factory=dict)
    rule: str = ""


def by_die(
    faces: Mapping[int, T],
    refuse: Callable[[T], str | None],
    why: str,
    *,
    title: str,
    only: str,
    about: About,
    name: Callable[[T], str] = str,
) -> Selection[T]:
    """One D6, ``faces`` saying what each face gives. ``refuse`` says why a candidate does not
    qualify ("which holds 1 Christian army"), None when it does; ``why`` is the Roll's;
    ``title`` and ``only`` (what qualifies) make the Tell when one candidate is left:
    "<title>: only <name> qualifies (<only>): no roll needed."."""
    return (
        yield from _select(
            1, faces.values(), lambda dice: faces[dice[0]], refuse, why, title, only, about, name
        )
    )


def by_two_dice(
    options: Iterable[T],
    read: Callable[[int, int], T],
    refuse: Callable[[T], str | None],
    why: str,
    *,
    title: str,
    only: str,
    about: About,
    name: Callable[[T], str] = str,
) -> Selection[T]:
    """2D6 read as a pair (``read(first, second)``), over the candidates ``options`` the dice
    can give; otherwise as ``by_die``."""
    return (
        yield from _select(
            2, options, lambda dice: read(dice[0], dice[1]), refuse, why, title, only, about, name
        )
    )


def area_die(
    board: Board,
    region: int,
    refuse: Callable[[str], str | None],
    why: str,
    *,
    title: str,
    only: str,
    about: About,
) -> Selection[str]:
    """An area of ``region`` by the area die (each area has its faces on the map)."""
    faces = {face: board.area_for(region, face) for face in range(1, 7)}
    return (yield from by_die(faces, refuse, why, title=title, only=only, about=about))


def _select(
    n: int,
    options: Iterable[T],
    read: Callable[[list[int]], T],
    refuse: Callable[[T], str | None],
    why: str,
    title: str,
    only: str,
    about: About,
    name: Callable[[T], str],
) -> Selection[T]:
    candidates = list(dict.fromkeys(o for o in options if refuse(o) is None))
    if not candidates:
        return None
    facts = dict(about.data)
    if len(candidates) == 1:
        picked = name(candidates[0])
        yield Tell(
            f"{title}: only {picked} qualifies ({only}): no roll needed.",
            topic=about.topic,
            data=facts | {"picked": picked, "only": True},
            rule=about.rule,
            reason=f"only {picked} qualifies ({only}), so every roll would give it",
        )
        return candidates[0]
    facts["candidates"] = [name(c) for c in candidates]
    prompt, again = why, dict[str, Any]()
    while True:
        dice = list((yield Roll(n, 6, prompt, topic=about.topic, data=facts | again, rule=about.rule)))
        got = read(dice)
        against = refuse(got)
        if against is None:
            return got
        faces = f"a {dice[0]}" if n == 1 else " and ".join(map(str, dice))
        prompt = f"{why}, rolled again ({faces} gave {name(got)}, {against})"
        again = {"again": True, "rejected": name(got)}
