"""How the screens word a session's status and times (History's table, the story's title): one
module both read, so that neither screen imports the other for them."""

from __future__ import annotations

from typing import Any

#: A session's status as the screens say it.
STATUS_SHOWN = {"active": "unfinished", "finished": "finished", "abandoned": "abandoned"}


def local_time(dt: Any, short: bool = False) -> str:
    """``dt`` in the local time zone: '2026-12-07 18:30', or short '07 Dec 18:30'."""
    return str(dt.astimezone().strftime("%d %b %H:%M" if short else "%Y-%m-%d %H:%M"))
