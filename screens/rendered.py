"""Drawing no more than the screen needs: a Rich renderable drawn once per width however often
Textual asks for it (``Rendered``), a line that wraps under itself without a nested table
(``Hanging``), a one-row line updated only when it changes (``update_line``).

A Static showing a Rich renderable of auto height renders it whole to measure its height, then
again to paint it, and again at every repaint after a layout. For a nested Rich table (the
Simancas sides' cards: a table of cards, each with a grid a modifier) each render measures
every cell of every nested table. ``Rendered`` keeps the lines of the first render for each set
of options (the width, above all) and gives them back; a new renderable is made when what it
shows changes (``Static.update``), so nothing stale is kept.
"""

from __future__ import annotations

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.text import Text
from textual.widgets import Static


class Rendered:
    """``inner``, rendered once for each set of console options it is asked with."""

    def __init__(self, inner: RenderableType) -> None:
        self.inner = inner
        self._lines: dict[tuple[object, ...], list[list[Segment]]] = {}
        self._measured: dict[tuple[int, int], Measurement] = {}

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        # Drawn without a height: the caller's render_lines crops or pads the lines to the
        # height it asks (a measure asks none, a paint the widget's), from the same lines.
        options = options.update(height=None)
        key = (
            options.max_width,
            options.min_width,
            options.justify,
            options.overflow,
            options.no_wrap,
            options.highlight,
            options.markup,
        )
        lines = self._lines.get(key)
        if lines is None:
            # Each line ends with its new line, as the renderable's own did: Textual counts them
            # for the height.
            lines = self._lines[key] = console.render_lines(self.inner, options, pad=False, new_lines=True)
        for line in lines:
            yield from line

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        key = (options.max_width, options.min_width)
        measured = self._measured.get(key)
        if measured is None:
            measured = self._measured[key] = Measurement.get(console, options, self.inner)
        return measured


class Hanging:
    """A line after a lead of fixed width (two blanks, or "  ↳ "): where it wraps it wraps under
    itself, never back under the lead. Two grid columns drew the same, and made most of the cost
    of a side's table (a Rich table measures every cell of every table nested in it): 40-90 ms
    an answer on a long Simancas hand, against a few here (bench/game_screens.py)."""

    def __init__(self, line: Text, lead: Text) -> None:
        self.line = line
        self.lead = lead

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        indent = self.lead.cell_len
        width = max(options.max_width - indent, 1)
        # As the grid's column did, whatever the cell it is in: left, a word too long cut with "…".
        lines = self.line.wrap(console, width, justify="left", overflow="ellipsis")
        blank = Segment(" " * indent, Style.null())
        first = list(Segment.apply_style(self.lead.render(console), console.get_style(self.lead.style)))
        for i, line in enumerate(lines):
            yield from [blank] if i else first
            line.truncate(width, overflow="ellipsis", pad=True)
            # Text.render leaves out the text's own style where it has no spans: applied here.
            yield from Segment.apply_style(line.render(console), console.get_style(line.style))
            yield Segment.line()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        indent = self.lead.cell_len
        inner = Measurement.get(console, options.update_width(max(options.max_width - indent, 1)), self.line)
        return Measurement(inner.minimum + indent, inner.maximum + indent).clamp(max_width=options.max_width)


def update_line(line: Static, content: Text) -> None:
    """``line`` (a Static one row high in its CSS) showing ``content``: repainted only when the
    text changes, and with no layout of the screen, which its size cannot change (a Static's
    update asks for one by default: most answers of a game screen paid for it)."""
    if line.content != content:
        line.update(content, layout=False)
