"""The suite's tiers: which tests each mark names, given by each folder's conftest.

- ``screen``: every test under tests/screens/, and anywhere a test that drives the app (a
  coroutine: Textual's Pilot) or takes a snapshot;
- ``slow``: every test under tests/e2e/ (processes), the whole games of tests/games/ (but the
  readable transcripts, in the fast tier on purpose) and the others marked where they are written, and any test whose CPU in the last run that timed it reached
  ``SLOW_BY_TIME`` (``mark_slow_by_time``, from the times tests/suite_clock.py keeps): a test
  grown slow leaves the fast tier by itself on the next run (a fresh clone keeps no times, so
  there the marks written are all);
- ``online``: the tests that reach the package index (tests/e2e/test_packaging.py).

``pytest -m "not slow"`` is the fast tier; ``pytest`` runs every tier.
"""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest


def mark_folder(items: list[pytest.Item], folder: Path, *marks: str) -> None:
    """Give every test collected under ``folder`` the ``marks``."""
    for item in items:
        if item.path.is_relative_to(folder):
            for mark in marks:
                item.add_marker(mark)


#: The CPU, in seconds, from which a test timed in an earlier run is ``slow``.
SLOW_BY_TIME = 0.5


def mark_slow_by_time(items: list[pytest.Item], kept: dict[str, list[float]]) -> None:
    """``slow`` for each test whose kept [wall, CPU] has a CPU of ``SLOW_BY_TIME`` or more."""
    for item in items:
        times = kept.get(item.nodeid)
        if isinstance(times, list) and len(times) == 2 and times[1] >= SLOW_BY_TIME:
            item.add_marker("slow")


def mark_screen_tests(items: list[pytest.Item]) -> None:
    """``screen`` for a test that drives the app or takes a snapshot, wherever its file is."""
    for item in items:
        function = getattr(item, "function", None)
        fixtures = getattr(item, "fixturenames", ())
        if (function is not None and inspect.iscoroutinefunction(function)) or "snap_compare" in fixtures:
            item.add_marker("screen")
