"""Helpers shared by the Reconquista tests: drive a prompt procedure with scripted answers,
and set an area of a state to exactly what a test needs."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from companion.prompts import Answer, Choose, Prompt, Roll, Tell
from companion.reconquista.battle import Proc
from companion.reconquista.state import AreaState, GameState
from companion.reconquista.units import Kind

Script = Sequence[list[int] | str]
Units = list[tuple[str, Kind, int]]


def place(
    state: GameState,
    name: str,
    units: Units | None = None,
    *,
    city: str | None = None,
    fortress: bool = False,
    besieger: str | None = None,
) -> AreaState:
    """Replace area ``name`` with exactly this: a city, a fortress, units (side, kind, count)."""
    area = AreaState(city=city, fortress=fortress)
    for side, kind, n in units or []:
        area.add(side, kind, n)
    area.besieger = besieger
    state.areas[name] = area
    return area


def drive(proc: Proc, answers: Script) -> tuple[list[Prompt], Any]:
    """Run ``proc`` to the end: Rolls and Chooses take the scripted answers in order (each
    checked against its prompt, so a wrong number of dice fails), Tells are acknowledged
    with None. Returns every prompt and the procedure's return value; fails the test if
    the procedure wants more answers than scripted or leaves some unused."""
    pending = list(answers)
    prompts: list[Prompt] = []
    result: Any = None
    try:
        prompt = next(proc)
        while True:
            prompts.append(prompt)
            answer: Answer = None
            if not isinstance(prompt, Tell):
                if not pending:
                    pytest.fail(f"the procedure asked for more answers than scripted: {prompt.describe()}")
                answer = prompt.check(pending.pop(0))
            prompt = proc.send(answer)
    except StopIteration as stop:
        result = stop.value
    if pending:
        pytest.fail(f"{len(pending)} scripted answer(s) left unused: {pending}")
    return prompts, result


def rolls(prompts: list[Prompt]) -> list[Roll]:
    return [p for p in prompts if isinstance(p, Roll)]


def chooses(prompts: list[Prompt]) -> list[Choose]:
    return [p for p in prompts if isinstance(p, Choose)]


def tells(prompts: list[Prompt]) -> list[str]:
    return [p.text for p in prompts if isinstance(p, Tell)]
