"""Reconquista's statistics on the Statistics screen (its registry entry's ``stats_view``):
the games and their victory points over time, the results, the events and rebellions with
their dice against fair dice, the Muslim reaction."""

from __future__ import annotations

from typing import Any

from textual.widgets import Static

from screens.figures import counts_table, plot, plural


def widgets(r: Any) -> list[Any]:
    """The widgets showing ``r`` (companion.review.stats.ReconquistaStats)."""
    from screens.charts import DiceCharts

    out: list[Any] = []
    mean = "no finished game yet" if r.mean_vp is None else f"mean {r.mean_vp:.1f} victory points"
    out.append(
        Static(f"{plural(r.sessions, 'game')}, {len(r.games)} finished: {mean}.", classes="review-note")
    )
    if r.games:
        points = [g.vp for g in r.games]

        def vp_over_time(plt: Any, points: list[int] = points) -> None:
            plt.plot(list(range(1, len(points) + 1)), points, marker="dot")
            plt.xlabel("finished games, oldest first")
            plt.ylabel("VP")

        out.append(plot("Victory points over time", vp_over_time))
    out.append(Static(counts_table("Results", r.results), classes="review-block"))
    out.append(Static(counts_table("Events", r.events), classes="review-block"))
    refused = f" ({r.rebellions_refused} refused and rolled again)" if r.rebellions_refused else ""
    out.append(Static(counts_table(f"Rebellions{refused}", r.rebellions), classes="review-block"))
    if r.dice is not None:
        out.append(DiceCharts(r.dice))  # the events' and rebellions' dice against fair dice
    out.append(
        Static(counts_table("Muslim reaction: where it rose", r.reaction_regions), classes="review-block")
    )
    out.append(Static(counts_table("Muslim reinforcements", r.reinforcements), classes="review-block"))
    return out
