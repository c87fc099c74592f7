"""What the board checks of a session found: "3 checks, 1 drift found: turn 7, Granada".

A board check (``prompts.Check``) is a step of the log: the question, what the app had
(``expected``) and what the table showed (the answer). Counted here from a session's steps,
for History's log, ``companion show`` and the reports; from the stored steps or an export's.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Drift:
    """A check the table did not pass: where and when, what the table showed and the app had."""

    turn: int | None
    place: str
    table: str
    app: str


def tally(steps: Iterable[tuple[Any, Any, Any]]) -> tuple[int, list[Drift]]:
    """The checks among ``steps`` ((turn, the prompt as logged, the answer) each) and the drifts
    they found, in order."""
    checks, drifts = 0, []
    for turn, prompt, answer in steps:
        if not isinstance(prompt, dict) or prompt.get("kind") != "check":
            continue
        checks += 1
        expected = prompt.get("expected")
        if answer != expected:
            data = prompt.get("data")
            data = data if isinstance(data, dict) else {}
            place = str(data.get("place") or "?")
            drifts.append(Drift(turn if isinstance(turn, int) else None, place, str(answer), str(expected)))
    return checks, drifts


def checks_text(checks: int, drifts: list[Drift]) -> str:
    """'3 checks, 1 drift found: turn 7, Granada'; '' without a check."""
    if not checks:
        return ""
    said = f"{checks} board check{'s' if checks != 1 else ''}"
    if not drifts:
        return said + ", the table as the app had it every time"
    where = "; ".join(f"turn {d.turn}, {d.place}" if d.turn is not None else d.place for d in drifts)
    return f"{said}, {len(drifts)} drift{'s' if len(drifts) != 1 else ''} found: {where}"
