"""Board checks on the game screen (#37, items 1-2), at 80x24 and 200x55: at the end of a
turn the app asks its spot questions; a match is ticked, a bad answer is one sentence and asked
again, a mismatch offers the steps since the last check (i) and the correction by hand (e);
the setting turns them off (0)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import store_ready, wait_until
from textual.widgets import Input, Static

from companion.prompts import Check
from companion.store.db import Store
from screens.app import CompanionApp
from screens.reconquista.game_screen import ReconquistaScreen
from screens.shell.board_checks import BoardCheckDialog
from screens.shell.dialogs import MessageDialog

sys.path.insert(0, str(Path(__file__).parents[1] / "unit"))
from test_review_helpers import advance, auto, castells_chooser, new_driver, reconquista_chooser

SIZES = [(80, 24), (200, 55)]
#: The checks as a player has them: on, every turn (tests/conftest.py turns them off elsewhere).
pytestmark = pytest.mark.board_checks


def at_turn_2(path: Path, clock: Any) -> int:
    """A Reconquista game played by the bot to the start of turn 2 ("Turn 2 begins" waits)."""
    store = Store(str(path), clock=clock)
    sid, driver = new_driver(store, "reconquista", 3)
    advance(driver, reconquista_chooser(driver, 3), None, lambda _p: driver.state.turn >= 2)
    store.close()
    return sid


async def opened(pilot: Any, sid: int) -> ReconquistaScreen:
    await store_ready(pilot)
    pilot.app.open_session(sid)
    await wait_until(
        pilot, lambda: isinstance(pilot.app.screen, ReconquistaScreen) and pilot.app.screen.driver
    )
    return pilot.app.screen  # type: ignore[no-any-return]


async def type_in(pilot: Any, text: str) -> None:
    pilot.app.screen.query_one("#bc-answer", Input).value = text
    await pilot.press("enter")
    await pilot.pause()


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES)
async def test_the_checks_of_a_turn_are_asked_ticked_and_a_drift_offered_its_steps(
    tmp_path: Path, clock: Any, size: Any
) -> None:
    db = tmp_path / "c.db"
    sid = at_turn_2(db, clock)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=size) as pilot:
        screen = await opened(pilot, sid)
        await pilot.press("enter")  # "Turn 2 begins" done: turn 1 is over, the check comes
        await wait_until(pilot, lambda: isinstance(app.screen, BoardCheckDialog))
        first = app.screen.question
        await type_in(pilot, "many")  # not a number: one sentence, asked again
        assert isinstance(app.screen, BoardCheckDialog) and app.screen.question == first
        said = str(app.screen.query_one("#bc-error", Static).render())
        assert said == "Type the number your table shows, 0 to 99."
        await type_in(pilot, first.expected)  # a match: ticked, the next question
        await wait_until(
            pilot, lambda: isinstance(app.screen, BoardCheckDialog) and app.screen.question != first
        )
        second = app.screen.question
        wrong = str(int(second.expected) + 1)
        await type_in(pilot, wrong)  # a mismatch: what to do is asked
        assert "Your table shows" in str(app.screen.query_one("#bc-error", Static).render())
        await pilot.press("i")
        await wait_until(pilot, lambda: isinstance(app.screen, MessageDialog))
        await pilot.press("enter")
        await pilot.pause()
        while isinstance(app.screen, BoardCheckDialog):  # the rest: as the app has them
            await type_in(pilot, app.screen.question.expected)
        assert app.screen is screen
        message = str(screen.query_one("#pp-message", Static).render())
        assert "✓" in message and "✗" in message
    steps = Store(str(db)).log(sid).steps
    asked = [s for s in steps if isinstance(s.prompt, Check)]
    assert asked[0].answer == first.expected and asked[1].answer == wrong and len(asked) >= 2


@pytest.mark.slow
async def test_escape_skips_a_check_and_e_on_a_drift_opens_the_correction(tmp_path: Path, clock: Any) -> None:
    from screens.reconquista.dialogs import EditAreaDialog

    db = tmp_path / "c.db"
    sid = at_turn_2(db, clock)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await opened(pilot, sid)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, BoardCheckDialog))
        await pilot.press("escape")  # skipped: nothing logged, and asked again at the next answer
        await pilot.pause()
        assert app.screen is screen and "Board check skipped" in str(
            screen.query_one("#pp-message", Static).render()
        )
        assert not any(isinstance(s.prompt, Check) for s in Store(str(db)).log(sid).steps)
        assert screen.driver is not None
        await pilot.press("r" if screen.driver.pending.kind == "roll" else "enter")  # the next answer
        await wait_until(pilot, lambda: isinstance(app.screen, BoardCheckDialog))
        await type_in(pilot, str(int(app.screen.question.expected) + 1))
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, EditAreaDialog))
    steps = Store(str(db)).log(sid).steps
    assert sum(isinstance(s.prompt, Check) for s in steps) == 1


@pytest.mark.slow
async def test_the_setting_0_turns_the_checks_off(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    sid = at_turn_2(db, clock)
    settings = tmp_path / "settings.toml"
    settings.write_text("board_checks = 0\n", encoding="utf-8")
    app = CompanionApp(db_path=str(db), seed=1, clock=clock, settings_path=settings)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.settings_ready)
        screen = await opened(pilot, sid)
        await pilot.press("enter")
        await pilot.pause(0.2)
        assert app.screen is screen and not isinstance(app.screen, BoardCheckDialog)
    assert not any(isinstance(s.prompt, Check) for s in Store(str(db)).log(sid).steps)


@pytest.mark.slow
async def test_terra_de_castells_asks_who_holds_its_castles_at_a_century_s_end(
    tmp_path: Path, clock: Any
) -> None:
    from screens.castells.game_screen import CastellsScreen

    db = tmp_path / "c.db"
    store = Store(str(db), clock=clock)
    sid, driver = new_driver(store, "castells", 5)
    choose = castells_chooser(5)
    while driver.pending is not None and driver.state.century < 1:  # to the second century
        auto(driver, choose)
    store.close()
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=(200, 55)) as pilot:
        await store_ready(pilot)
        app.open_session(sid)
        await wait_until(
            pilot, lambda: isinstance(app.screen, CastellsScreen) and app.screen.driver is not None
        )
        screen = app.screen
        assert isinstance(screen, CastellsScreen) and screen.driver is not None
        d = screen.driver
        screen.answer(lambda: (auto(d, choose), d.steps[-1])[1])  # the next answer of the game
        await wait_until(pilot, lambda: isinstance(app.screen, BoardCheckDialog))
        question = app.screen.question
        assert question.why.startswith("Who holds ") and question.expected in question.options
        await type_in(pilot, question.expected.upper())  # any case
        while isinstance(app.screen, BoardCheckDialog):
            await type_in(pilot, app.screen.question.expected)
        assert "as the app has" in str(screen.query_one("#pp-message", Static).render())
    asked = [s for s in Store(str(db)).log(sid).steps if isinstance(s.prompt, Check)]
    assert asked and asked[0].answer == question.expected
