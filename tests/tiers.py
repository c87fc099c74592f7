"""The suite's tiers: which tests each mark names, given by each folder's conftest.

- ``screen``: every test under tests/screens/, and anywhere a test that drives the app (a
  coroutine: Textual's Pilot) or takes a snapshot;
- ``slow``: every test under tests/games/ (whole games) and tests/e2e/ (processes), and, marked
  where they are written, the others of half a second of CPU or more (tests/suite_clock.py
  names those it finds unmarked);
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


def mark_screen_tests(items: list[pytest.Item]) -> None:
    """``screen`` for a test that drives the app or takes a snapshot, wherever its file is."""
    for item in items:
        function = getattr(item, "function", None)
        fixtures = getattr(item, "fixturenames", ())
        if (function is not None and inspect.iscoroutinefunction(function)) or "snap_compare" in fixtures:
            item.add_marker("screen")
