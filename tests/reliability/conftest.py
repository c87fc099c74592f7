"""The reliability suite's figures: each test adds what it tried, and the run ends with one summary line.

The line (pytest's terminal summary) reads, for example:
``reliability: 50 crash runs, 9 faults tried (full disk: tmpfs mount), 1234 random inputs tried,
2 instances x 120 events, events lost = 0, duplicated = 0``.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

FIGURES: Counter[str] = Counter()
NOTES: dict[str, str] = {}


@pytest.fixture
def figures() -> Counter[str]:
    """The suite's counters: crash_runs, faults, inputs, events_checked, events_lost, events_duplicated."""
    return FIGURES


@pytest.fixture
def notes() -> dict[str, str]:
    """Words for the summary line, e.g. which full-disk method ran."""
    return NOTES


def summary_line() -> str:
    f = FIGURES
    full_disk = f" (full disk: {NOTES['full_disk']})" if "full_disk" in NOTES else ""
    return (
        f"reliability: {f['crash_runs']} crash runs (SIGKILL), {f['faults']} faults tried{full_disk}, "
        f"{f['inputs']} random inputs tried, {f['instance_events']} events written by 2 instances at once; "
        f"events checked = {f['events_checked']}, events lost = {f['events_lost']}, "
        f"duplicated = {f['events_duplicated']}"
    )


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if sum(FIGURES.values()):
        terminalreporter.write_sep("-", "reliability figures")
        terminalreporter.write_line(summary_line())
