"""A game begun in plain lines (#38, item 3) resumes in the app at the next question: the same
driver, the same log."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import store_ready, wait_until

from companion.cli import main
from companion.errors import EXIT_OK
from screens.app import CompanionApp
from screens.reconquista.game_screen import ReconquistaScreen

sys.path.insert(0, str(Path(__file__).parents[1] / "unit"))
from test_plain_mode import answers


@pytest.mark.slow
async def test_a_game_begun_in_plain_lines_resumes_in_the_app_at_the_next_question(
    tmp_path: Path, clock: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "c.db")
    settings = tmp_path / "settings.toml"
    settings.write_text("board_checks = 0\n", encoding="utf-8")  # the piped answers are the game's own
    monkeypatch.setenv("COMPANION_SETTINGS", str(settings))
    lines, driver = answers(9, most=80)
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["play", "reconquista", "--plain", "--dice", "app", "--seed", "9", "--db", db]) == EXIT_OK
    capsys.readouterr()
    app = CompanionApp(db_path=db, seed=1, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await store_ready(pilot)
        app.open_session(1)
        await wait_until(
            pilot, lambda: isinstance(app.screen, ReconquistaScreen) and app.screen.driver is not None
        )
        screen = app.screen
        assert isinstance(screen, ReconquistaScreen) and screen.driver is not None
        assert screen.driver.pending == driver.pending
        assert screen.driver.snapshot() == driver.snapshot()
