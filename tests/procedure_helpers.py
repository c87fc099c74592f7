"""Drive any game's prompt procedure: with scripted answers, as the rule tests of every game do, or at
random (``drive_randomly``), as a property test does."""

from __future__ import annotations

import random
from collections.abc import Generator, Sequence
from typing import Any

import pytest

from companion.prompts import Answer, Choose, Prompt, Roll, Tell


def drive(proc: Generator[Prompt, Any, Any], answers: Sequence[Any] = ()) -> tuple[list[Prompt], Any]:
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


#: A procedure that asks more than this, answered at random, has gone wrong (a loop).
MAX_PROMPTS = 5000


def drive_randomly(proc: Generator[Prompt, Any, Any], rng: random.Random) -> tuple[list[Prompt], Any]:
    """Run ``proc`` to the end with random answers: each die a face drawn by ``rng``, each
    choice any option offered, each Tell acknowledged. Returns every prompt and the procedure's
    return value; fails the test past MAX_PROMPTS prompts, naming the last."""
    prompts: list[Prompt] = []
    try:
        prompt = next(proc)
        while True:
            prompts.append(prompt)
            if len(prompts) > MAX_PROMPTS:
                pytest.fail(f"no end after {MAX_PROMPTS} prompts; the last: {prompt.describe()}")
            answer: Answer = None
            if isinstance(prompt, Roll):
                answer = [rng.randint(1, prompt.sides) for _ in range(prompt.n)]
            elif isinstance(prompt, Choose):
                answer = rng.choice(prompt.options)
            prompt = proc.send(answer)
    except StopIteration as stop:
        return prompts, stop.value
