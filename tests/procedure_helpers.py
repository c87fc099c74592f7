"""Drive any game's prompt procedure with scripted answers, as the rule tests of every game do."""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import Any

import pytest

from companion.prompts import Answer, Prompt, Tell


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
