"""The screens in a light and a dark theme (snapshots), and no colour written in Python where the
theme has one: the screens take theirs from screens/colours.py."""

from __future__ import annotations

import ast
import re
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import store_ready, wait_until
from test_castells_screen import SARACEN_ATTACK
from test_castells_screen import snapshot_of as castells_snapshot
from test_reconquista_screen import asks, open_game, recorded_game
from test_simancas_screen import BOTH_SIDES
from test_simancas_screen import snapshot_of as simancas_snapshot
from textual.pilot import Pilot
from textual.widgets import Static

from screens.app import CompanionApp
from screens.colours import BOARD, tone
from screens.reconquista.game_screen import ReconquistaScreen

ROOT = Path(__file__).resolve().parents[2]
THEMES = ["textual-light", "textual-dark"]

COLOUR_WORDS = {"red", "green", "yellow", "blue", "magenta", "cyan", "white", "black", "orange", "purple"}
STYLE_WORDS = {"bold", "italic", "dim", "underline", "reverse", "strike", "not", "on", "b", "i"}
HEX = re.compile(r"^#[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?$")


def colour_styles(path: Path) -> list[tuple[int, str]]:
    """The strings of ``path`` that are a Rich style naming a colour ("bold red", "#ffb347")."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            words = node.value.lower().split()
            colours = [w for w in words if w in COLOUR_WORDS or HEX.match(w)]
            if colours and all(w in STYLE_WORDS or w in colours for w in words):
                found.append((node.lineno, node.value))
    return sorted(found)


def test_no_screen_writes_a_colour_of_its_own() -> None:
    offenders = {
        str(path.relative_to(ROOT)): hits
        for path in sorted((ROOT / "screens").rglob("*.py"))
        if path.name != "colours.py" and (hits := colour_styles(path))
    }
    assert offenders == {}


def test_the_check_finds_what_it_looks_for(tmp_path: Path) -> None:
    sample = tmp_path / "x.py"
    sample.write_text('a = "bold red"\nb = ("✓ ", "green")\nc = "italic #ffb347"\nd = "the red army"\n')
    assert [text for _line, text in colour_styles(sample)] == ["bold red", "green", "italic #ffb347"]


async def test_the_tones_follow_the_theme(tmp_path: Path) -> None:
    app = CompanionApp(db_path=str(tmp_path / "c.db"))
    async with app.run_test() as pilot:
        status = app.screen.query_one("#home-status", Static)
        app.theme = "textual-dark"
        await pilot.pause()
        dark = tone(status, "error", "bold")
        app.theme = "textual-light"
        await pilot.pause()
        light = tone(status, "error", "bold")
        assert dark.bold and light.bold and dark.color != light.color
        assert light.color is not None and light.color.triplet is not None
        assert light.color.triplet.hex.upper() == app.theme_variables["text-error"].upper()
    assert all(dark != light for dark, light, _style in BOARD.values())


@pytest.mark.slow
async def test_a_theme_picked_redraws_the_board(tmp_path: Path, clock: Any) -> None:
    sid = recorded_game(tmp_path / "c.db", clock, 9, asks("Phase 4: select"))
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=(160, 45)) as pilot:
        await open_game(pilot, sid)
        legend = app.screen.query_one("#rq-legend", Static)
        before = str(legend.render().spans)  # type: ignore[attr-defined]
        app.theme = "textual-light"
        await wait_until(pilot, lambda: str(legend.render().spans) != before)  # type: ignore[attr-defined]


# -- snapshots ----------------------------------------------------------------------------------


@pytest.mark.parametrize("theme", THEMES)
def test_snapshot_home(snap_compare: Any, tmp_path: Path, clock: Any, theme: str) -> None:
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    app.theme = theme

    async def before(pilot: Pilot[Any]) -> None:
        await store_ready(pilot)

    assert snap_compare(app, terminal_size=(100, 30), run_before=before)


@pytest.mark.slow
@pytest.mark.parametrize("theme", THEMES)
def test_snapshot_reconquista(snap_compare: Any, tmp_path: Path, clock: Any, theme: str) -> None:
    """The board with every side's counters, the odds under a move's options, the log's marks."""
    sid = recorded_game(tmp_path / "c.db", clock, 9, asks("Move from"))
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    app.theme = theme

    async def before(pilot: Pilot[Any]) -> None:
        await open_game(pilot, sid)
        assert isinstance(app.screen, ReconquistaScreen)
        await pilot.press("w")  # refused outside Phase 3: a message in the error tone
        await pilot.pause()

    assert snap_compare(app, terminal_size=(160, 45), run_before=before)


def test_snapshot_castells_light(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    """A battle in the light theme: the successes, the odds, the Saracen's place and the tokens
    that wake the Saracens in the theme's own colours, read on a light background."""
    assert castells_snapshot(
        snap_compare, tmp_path, clock, SARACEN_ATTACK, size=(120, 40), theme="textual-light"
    )


def test_snapshot_simancas_light(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    """A hand in the light theme: the modifiers' gains and losses and a destroyed card."""
    actions = [*BOTH_SIDES, "Moors discard Terrain to destroy Knights"]
    assert simancas_snapshot(snap_compare, tmp_path, clock, actions, size=(120, 40), theme="textual-light")
