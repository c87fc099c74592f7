"""The reliability suite's figures: each test adds what it tried, and the run ends with one summary line.

The line (pytest's terminal summary) reads, for example:
``reliability: 50 crash runs (SIGKILL), 23 faults tried (full disk: tmpfs mount), 1757 random inputs
tried, 968 events written by 2 instances at once; events checked = ..., events lost = 0, duplicated = 0``.

The counters live in tests/conftest.py (ReliabilityFigures), which sums them over the xdist
workers, so the line is the same whether the suite ran in one process or in several.
"""

from __future__ import annotations

from collections import Counter

import pytest


@pytest.fixture
def figures(request: pytest.FixtureRequest) -> Counter[str]:
    """The suite's counters: crash_runs, faults, inputs, markup (texts of markup shown as text),
    instance_events, events_checked, events_lost, events_duplicated."""
    counters: Counter[str] = request.config.pluginmanager.get_plugin("reliability-figures").figures
    return counters


@pytest.fixture
def notes(request: pytest.FixtureRequest) -> dict[str, str]:
    """Words for the summary line, e.g. which full-disk method ran."""
    words: dict[str, str] = request.config.pluginmanager.get_plugin("reliability-figures").notes
    return words
