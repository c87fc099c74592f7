"""Whole games: played to their end (the bot's, random answers', the golden transcripts, the
games of earlier rules played on), their every phase checked. Each takes seconds: all ``slow``
(tests/tiers.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from tiers import mark_folder


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    mark_folder(items, Path(__file__).parent, "slow")
