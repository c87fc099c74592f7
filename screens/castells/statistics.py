"""Terra de Castells' statistics on the Statistics screen (its registry entry's
``stats_view``): the Saracen battles won and the army points spent on rerolls."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static

from screens.figures import counts_table, plural


def widgets(c: Any) -> list[Any]:
    """The widgets showing ``c`` (companion.review.stats.CastellsStats)."""
    return [
        Static(
            f"{plural(c.sessions, 'game')}, {c.finished} finished; "
            f"{plural(c.army_points_spent, 'army point')} spent on rerolls.",
            classes="review-note",
        ),
        Static(counts_table("Saracen battles won", c.battles, "battles"), classes="review-block"),
        Static(counts_table("Army points spent", c.army_points), classes="review-block"),
    ]
