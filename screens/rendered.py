"""A Rich renderable drawn once per width, however often Textual asks for it.

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
