"""What the Statistics screen draws figures with, for every game's view of its statistics
(its registry entry's ``stats_view``): a table of counts, a terminal plot, a plural, and the
view of a game that has none of its own (its statistics' lines, as text)."""

from __future__ import annotations

from typing import Any

from rich.table import Table as RichTable
from rich.text import Text
from textual.widgets import Static
from textual_plotext import PlotextPlot

from screens.plain import plain


def plural(n: int, one: str, many: str = "") -> str:
    return f"{n} {one if n == 1 else many or one + 's'}"


def counts_table(title: str, rows: Any, total_label: str = "") -> RichTable:
    """A two-column table of outcomes and how often each came up."""
    table = RichTable(title=title, title_justify="left", title_style="bold", box=None, pad_edge=False)
    table.add_column("Outcome")
    table.add_column("Times", justify="right")
    for c in rows:
        # The outcomes are named by the data files (a map's areas, a tables file's results): as text,
        # since a Rich table reads a str cell as markup.
        table.add_row(plain(c.label), Text(str(c.count), style="bold" if c.count else "dim"))
    if total_label:
        table.add_row(Text(total_label, style="dim"), Text(str(sum(c.count for c in rows)), style="dim"))
    return table


class Plot(PlotextPlot):
    """A terminal plot that ``draw(plt)`` draws when it is mounted."""

    def __init__(self, title: str, draw: Any, height: int = 14) -> None:
        super().__init__(classes="review-plot")
        self.styles.height = height
        self._title, self._draw = title, draw

    def on_mount(self) -> None:
        self.plt.title(self._title)
        self._draw(self.plt)


def plot(title: str, draw: Any, height: int = 14) -> Plot:
    return Plot(title, draw, height)


def text_view(figures: Any) -> list[Any]:
    """A game's statistics as their lines of text (``lines()``), where the game has no view."""
    return [Static(plain("\n".join(figures.lines())), classes="review-block")]
