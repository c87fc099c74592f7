"""Shared test settings: snapshots in the top-level snapshots/ folder, UTC times, a fixed clock."""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import pytest_textual_snapshot
from syrupy.location import PyTestLocation

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = ROOT / "snapshots"

# Screens show local times: pin the zone so snapshots do not depend on the machine.
os.environ["TZ"] = "UTC"
time.tzset()


class TopLevelSVGExtension(pytest_textual_snapshot.SVGImageExtension):
    """Keep the SVG snapshots in ROOT/snapshots/<test module>/ as the project layout asks."""

    @classmethod
    def dirname(cls, *, test_location: PyTestLocation) -> str:
        return str(SNAPSHOTS / Path(test_location.filepath).stem)


# snap_compare looks the extension up in its module when called: point it at ours.
pytest_textual_snapshot.SVGImageExtension = TopLevelSVGExtension  # type: ignore[misc]


class FixedClock:
    """A clock for the store that starts at a fixed moment and advances a minute a call."""

    def __init__(self, start: datetime = datetime(2026, 3, 14, 18, 0, tzinfo=UTC)) -> None:
        self.t = start

    def __call__(self) -> datetime:
        self.t += timedelta(minutes=1)
        return self.t


@pytest.fixture
def clock() -> Any:
    return FixedClock()
