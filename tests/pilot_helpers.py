"""Helpers the screen tests share: wait for the app (its store opens in a thread) and its screens."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from textual.pilot import Pilot


async def wait_until(pilot: Pilot[Any], cond: Callable[[], bool], timeout: float = 10.0) -> None:
    """Pause the pilot until ``cond()`` holds; fail the test if it does not within ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        if loop.time() > end:
            raise AssertionError("condition not reached in time")
        await pilot.pause(0.02)
    await pilot.pause()


def store_ready(pilot: Pilot[Any]) -> Awaitable[None]:
    """Wait until the app has opened its database, or failed to."""
    app: Any = pilot.app
    return wait_until(pilot, lambda: app.store_ready or app.store_error is not None)


def screen_text(pilot: Pilot[Any]) -> str:
    """The text on the screen as the terminal shows it, one line a row: what a widget rendered,
    after any markup was read (a widget's own value would not show a label that markup ate)."""
    strips = pilot.app.screen._compositor.render_strips()
    return "\n".join("".join(segment.text for segment in strip) for strip in strips)
