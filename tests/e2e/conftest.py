"""The app as a user runs it: the real `companion` command in a pseudo-terminal (killed and
resumed), in a browser (`companion serve`), and installed by uv and pipx. Each starts processes
of its own: all ``slow``; the installs that reach the package index are ``online`` too."""

from __future__ import annotations

from pathlib import Path

import pytest
from tiers import mark_folder


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    mark_folder(items, Path(__file__).parent, "slow")
