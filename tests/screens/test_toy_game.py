"""Adding a game is one package and one registry entry (docs/design.md, "Adding a game";
issue #34, part 2): a toy game, tests/toy/, with its entry added to the registry, is offered on
Home and in the palette, a session of it opens on its own screen, History lists it, and its
statistics are on the Statistics screen and in `companion stats`, with no other change."""

from __future__ import annotations

import dataclasses
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import screen_text, wait_until
from rich.console import Console
from textual.widgets import DataTable, Select, Static

from companion import games
from companion.cli import main
from companion.driver import Driver
from companion.errors import EXIT_OK
from companion.games import GameEntry
from companion.review.stats import statistics
from companion.store.db import Store
from screens.app import CompanionApp

TOY = GameEntry(
    "toy",
    "Coin toss",
    "Toss a coin three times; two heads win.",
    "toy.game",
    screen="toy.screen:CoinTossScreen",
    stats="toy.stats:coin_stats",
)


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> GameEntry:
    """The registry with the toy game's one entry added."""
    monkeypatch.setattr(games, "GAMES", (*games.GAMES, TOY))
    return TOY


def tossed(db: Path, faces: list[int]) -> int:
    """A finished Coin toss session of ``faces``, recorded through the driver as any game is."""
    store = Store(str(db))
    sid = store.create_session("toy", 1, {}, games.load("toy").rules_version)
    driver = Driver(games.load("toy"), 1, recorder=store.recorder(sid))
    for face in faces:
        driver.type(str(face))
    driver.ack()
    store.close()
    return sid


def text_of(widgets: Any) -> str:
    out = StringIO()
    console = Console(file=out, width=120, color_system=None)
    for w in widgets:
        if isinstance(w, Static):
            console.print(w.render())
    return out.getvalue()


async def test_a_toy_game_with_one_entry_is_on_home_in_the_palette_in_history_and_in_the_statistics(
    toy: GameEntry, tmp_path: Path
) -> None:
    db = tmp_path / "c.db"
    sid = tossed(db, [1, 2, 1])
    assert Store(str(db)).session(sid).summary == "2 heads of 3, won"
    app = CompanionApp(db_path=str(db), seed=1)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.store_ready)
        assert "Coin toss" in screen_text(pilot)  # Home offers it
        command = next(c for c in app.get_system_commands(app.screen) if c.title == "New Coin toss")
        assert command.help == TOY.blurb
        command.callback()  # the palette starts a session of it, on its own screen
        await wait_until(pilot, lambda: type(app.screen).__name__ == "CoinTossScreen")
        new = app.screen.session_id  # type: ignore[attr-defined]
        assert new != sid and Store(str(db)).session(new).game == "toy"
        app.pop_screen()
        app.action_history()
        await wait_until(pilot, lambda: type(app.screen).__name__ == "HistoryScreen" and app.screen.loaded)
        table = app.screen.query_one("#sessions-table", DataTable)
        rows = [[str(c) for c in table.get_row_at(i)] for i in range(table.row_count)]
        assert any("Coin toss" in row and "2 heads of 3, won" in " ".join(row) for row in rows), rows
        await pilot.press("t")
        await wait_until(pilot, lambda: type(app.screen).__name__ == "StatisticsScreen" and app.screen.ready)
        screen: Any = app.screen
        assert "toy" in screen.games_shown()
        screen.query_one(Select).value = "toy"
        await wait_until(pilot, lambda: screen.ready and screen.game == "toy")
        shown = text_of(screen.query_one("#review-body").children)
        assert "Coin toss" in shown and "Coin toss: 2 sessions, 2 heads tossed." in shown


def test_the_command_line_reads_the_toy_game_from_its_entry(
    toy: GameEntry, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "c.db"
    tossed(db, [2, 2, 1])
    assert main(["--db", str(db), "stats", "--game", "toy"]) == EXIT_OK
    out = capsys.readouterr().out
    assert "Coin toss: 1 sessions, 1 heads tossed." in out
    assert main(["--db", str(db), "history", "--game", "toy"]) == EXIT_OK
    assert "1 heads of 3" in capsys.readouterr().out  # listed by its id, as every game is
    stats = statistics(Store(str(db)))
    assert dataclasses.asdict(stats.of("toy")) == {"sessions": 1, "heads": 1, "notes": ()}
