"""The screens' footer (screens/shell/footer.py): the keys a rebuilt Footer would show, without
rebuilding it at every answer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import screen_text, store_ready, wait_until
from textual.widgets import Footer
from textual.widgets._footer import FooterKey

from companion.prompts import Choose, Roll, Tell
from companion.store.db import Store
from screens.app import CompanionApp
from screens.reconquista.game_screen import ReconquistaScreen
from screens.shell.footer import KeysFooter


async def footer_row(pilot: Any) -> str:
    """The footer as the screen shows it: its last row."""
    await pilot.pause()
    return screen_text(pilot).splitlines()[-1]


@pytest.mark.slow
async def test_the_footer_shows_what_a_rebuilt_one_shows_and_keeps_its_keys(
    tmp_path: Path, clock: Any
) -> None:
    """Twenty-four answers by keys at 80x24 (the footer gains and loses "All done", "Roll" and the
    letters the dice field takes, and "Dice mode" moves to the front while that field has the
    focus): at every third the footer reads as a Footer of Textual's built then for the same
    screen, laid over it; and its keys are built again only to show a key it never built (the
    first roll's r, the session opening on an instruction), once: Textual's Footer builds them
    again about once an answer."""
    db = tmp_path / "c.db"
    store = Store(str(db), clock=clock)
    sid = store.create_session("reconquista", 199, {"dice": "mixed"})
    store.close()
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await store_ready(pilot)
        app.open_session(sid)
        await wait_until(pilot, lambda: isinstance(app.screen, ReconquistaScreen))
        screen = app.screen
        assert isinstance(screen, ReconquistaScreen) and screen.driver is not None
        driver = screen.driver
        footer = screen.query_one(KeysFooter)
        # Built once the session is open: the first question is an instruction ("All done").
        await wait_until(pilot, lambda: any(k.key == "a" for k in footer.query(FooterKey)))
        built = {id(k) for k in footer.query(FooterKey)}
        names = {k.key for k in footer.query(FooterKey)}
        rebuilt = 0
        rows: set[str] = set()
        for step in range(24):
            p = driver.pending
            if isinstance(p, Tell):
                await pilot.press("enter")
            elif isinstance(p, Roll):
                await pilot.press("r")
            else:
                assert isinstance(p, Choose)
                await pilot.press("end", "enter")
            row = await footer_row(pilot)
            rows.add(row)
            now = {id(k) for k in footer.query(FooterKey)}
            if now != built:
                new = {k.key for k in footer.query(FooterKey)} - names
                assert new, f"built again at step {step} with no key it had not built"
                built, names, rebuilt = now, names | new, rebuilt + 1
            if step % 3 == 0:
                fresh = Footer()
                await screen.mount(fresh)  # docked at the bottom too, over the screen's own
                screen.refresh_bindings()  # a Footer builds its keys when the bindings are signalled
                await wait_until(pilot, lambda f=fresh: bool(f.query(FooterKey)))
                assert await footer_row(pilot) == row, f"step {step}"
                await fresh.remove()
                assert await footer_row(pilot) == row
        assert len(rows) >= 3  # the keys did change: with and without "All done", ctrl+d first
        assert rebuilt <= 1
