"""The screen tests: the app driven by Textual's Pilot at the sizes a player has, and the SVG
snapshots. Each is marked ``screen``; the longest (a whole game by keys) are marked ``slow`` too."""

from __future__ import annotations

from pathlib import Path

import pytest
from tiers import mark_folder


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    mark_folder(items, Path(__file__).parent, "screen")
