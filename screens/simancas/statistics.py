"""The Battle of Simancas' statistics on the Statistics screen (its registry entry's
``stats_view``): the hands and the matches won by each side."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static

from screens.figures import counts_table, plural


def widgets(s: Any) -> list[Any]:
    """The widgets showing ``s`` (companion.review.stats.SimancasStats)."""
    return [
        Static(f"{plural(s.sessions, 'match', 'matches')}, {s.finished} finished.", classes="review-note"),
        Static(counts_table("Hands won", s.hands, "hands"), classes="review-block"),
        Static(counts_table("Matches won", s.matches, "matches"), classes="review-block"),
    ]
