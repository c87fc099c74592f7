"""The two Rich renderables the screens draw with for speed: ``Rendered`` (a renderable drawn
once per width) and the Simancas tables' ``Hanging`` lines (a line after a lead, wrapping under
itself). Each must draw exactly what the slower form drew."""

from __future__ import annotations

import io

from rich.console import Console, Group
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.table import Table
from rich.text import Text

from screens.rendered import Hanging, Rendered

WIDTHS = (12, 20, 33, 57)


def _console() -> Console:
    return Console(width=120, color_system="truecolor", file=io.StringIO())


def _cells(lines: list[list[Segment]]) -> list[list[tuple[str, Style]]]:
    """What a terminal shows: each cell's character and style (no style is the null style)."""
    return [[(ch, seg.style or Style()) for seg in line for ch in seg.text] for line in lines]


def _grid(line: Text, lead: Text) -> Table:
    """The two-column grid the Simancas tables drew a line under a card with, before ``Hanging``."""
    row = Table.grid(expand=True)
    row.add_column(width=lead.cell_len, no_wrap=True)
    row.add_column(ratio=1)
    row.add_row(lead, line)
    return row


LINES = [
    Text("destroyed by the Christians' Skirmisher tactic", style="italic red"),
    Text.assemble(("+1 ", "green"), "Cavalry Detachments, ", ("-1 ", "red"), "Woods and a long tail to wrap"),
    Text("short"),
]


def test_a_hanging_line_draws_what_the_grid_drew_at_every_width() -> None:
    console = _console()
    for lead in (Text("  "), Text("  ↳ ", style="dim")):
        for line in LINES:
            for width in WIDTHS:
                options = console.options.update_width(width)
                grid = console.render_lines(_grid(line, lead), options)
                hanging = console.render_lines(Hanging(line, lead), options)
                assert _cells(hanging) == _cells(grid), (lead.plain, line.plain, width)


def test_a_hanging_line_wraps_under_itself_with_the_lead_once() -> None:
    console = _console()
    lines = console.render_lines(Hanging(LINES[0], Text("  ↳ ")), console.options.update_width(16))
    texts = ["".join(s.text for s in line) for line in lines]
    assert texts[0].startswith("  ↳ destroyed")
    assert all(t.startswith("    ") and t[4] != " " for t in texts[1:])  # under the text, not the lead
    assert len(texts) > 2


def test_a_hanging_line_measures_as_the_grid_did() -> None:
    console = _console()
    for line in LINES:
        options = console.options.update_width(40)
        lead = Text("  ")
        assert Measurement.get(console, options, Hanging(line, lead)) == Measurement.get(
            console, options, _grid(line, lead)
        )


def test_rendered_draws_the_same_lines_and_draws_the_inner_once_per_width() -> None:
    console = _console()
    calls = {"n": 0}

    class Counted:
        def __rich_console__(self, console: Console, options: object) -> object:
            calls["n"] += 1
            table = Table(expand=True)
            table.add_column("Card", ratio=1)
            table.add_column("Score", justify="right")
            for i in range(5):
                table.add_row(Group(Text(f"Card {i}", style="bold"), Hanging(LINES[1], Text("  "))), str(i))
            yield table

    once = Rendered(Counted())
    for width in WIDTHS:
        options = console.options.update_width(width)
        expected = console.render_lines(Counted(), options)
        before = calls["n"]
        assert console.render_lines(once, options) == expected
        # Textual asks twice for each content (its height, then its paint, with a height):
        assert console.render_lines(once, options.update(height=len(expected))) == expected
        assert calls["n"] == before + 1  # one draw for both asks
    # Its height, as Textual counts it: the new lines in the segments.
    options = console.options.update_width(20)
    assert sum(s.text.count("\n") for s in console.render(once, options)) == len(
        console.render_lines(Counted(), options)
    )
