"""Terminal charts in the app's theme: a game's story in History, the dice against the odds.

A ``ThemedPlot`` draws itself with ``draw(plt, colour, size)``, where ``colour(name)`` is the
theme variable ``name`` (``primary``, ``success``...) as the RGB plotext takes: the series
follow the theme, and are drawn again when it changes (the canvas and the axes are
textual-plotext's own theming). The figures come from ``companion.review`` and are only
drawn here.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from textual.app import ComposeResult
from textual.color import Color
from textual.containers import Container, Vertical
from textual.markup import escape
from textual.widget import Widget
from textual.widgets import Static
from textual_plotext import PlotextPlot

from companion.review.story import Story, side_name
from companion.review.table_dice import DiceFit, TableDice
from screens.plain import plain

RGB = tuple[int, int, int]
Colour = Callable[[str], RGB]
Draw = Callable[[Any, Colour, tuple[int, int]], None]

#: The theme variable each side's series is drawn in: the Christians in the primary colour
#: (blue in the default theme, as on the board), the Muslims in the success colour (green,
#: as on the board), the Rebels in the error colour (red), the others in the rest.
SIDE_COLOUR = {
    "christian": "primary",
    "muslim": "success",
    "rebel": "error",
    "french": "warning",
    "rebel_army": "secondary",
}
#: The victory points' line; the fair dice beside the dice rolled.
VP_COLOUR = "accent"
ROLLED_COLOUR, FAIR_COLOUR = "primary", "accent"


class ThemedPlot(PlotextPlot):
    """A plot drawn by ``draw(plt, colour, size)`` with the series in the theme's colours;
    ``size`` is the plot's (columns, lines), for ticks as many as fit. Drawn again when the
    theme or the size changes."""

    def __init__(self, title: str, draw: Draw, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._title, self._draw = title, draw
        self._drawn_for: tuple[int, int] | None = None  # the size the figure was drawn for

    def on_mount(self) -> None:
        self.app.theme_changed_signal.subscribe(self, lambda _theme: self.redraw())
        self.redraw()

    def on_resize(self) -> None:
        self.redraw()

    def colour(self, name: str) -> RGB:
        """The theme variable ``name`` as RGB (the foreground where the theme has no such colour)."""
        variables = self.app.theme_variables
        try:
            return Color.parse(variables.get(name) or variables["foreground"]).rgb
        except Exception:  # noqa: BLE001 -- a theme's odd value draws in the foreground, not a crash
            return Color.parse(variables["foreground"]).rgb  # every theme of Textual has one

    def redraw(self) -> None:
        self._figure()
        self.refresh()

    def _figure(self) -> None:
        self.plt.clear_figure()
        self.plt.title(self._title)
        self._drawn_for = (self.size.width, self.size.height)
        self._draw(self.plt, self.colour, self._drawn_for)

    def render(self) -> Any:
        # The ticks are chosen for the size: a figure drawn for another (at mount, before the
        # layout, with the Resize still on its way on a busy machine) is drawn again first.
        if self._drawn_for != (self.size.width, self.size.height):
            self._figure()
        return super().render()


class Legend(Static):
    """A line naming each series beside a stroke in its theme colour, under the chart rather
    than over its top corner (where plotext puts its own, over the data)."""

    DEFAULT_CSS = """
    Legend {
        height: auto;
        padding-left: 4;
    }
    """

    def __init__(self, entries: list[tuple[str, str]]) -> None:
        # ``entries``: (label, theme variable); the labels are the app's own words, escaped all the same.
        super().__init__("   ".join(f"[bold ${var}]━━[/] {escape(label)}" for label, var in entries))


#: The steps between ticks, smallest first: whole numbers a reader counts in.
STEPS = (1, 2, 5, 10, 20, 25, 50, 100)


def _int_ticks(top: float, room: int) -> list[int]:
    """0 up to ``top`` in whole steps, one every two lines of ``room`` at most."""
    step = next((s for s in STEPS if int(top) // s + 1 <= max(2, room // 2)), STEPS[-1])
    return list(range(0, int(top) + 1, step))


# -- a game's story ------------------------------------------------------------------------


def _turn_axis(plt: Any, turns: list[int]) -> None:
    """The turns along the bottom, the same in both charts: the bars' and the lines' turns
    stand one above the other."""
    plt.xlim(-0.6, turns[-1] + 0.6)
    plt.xticks(turns)
    plt.xlabel("turn (0: as set up)")


def _frame(size: tuple[int, int]) -> int:
    """The lines of a plot left to its data: its title, its axes and their labels take 5."""
    return max(2, size[1] - 5)


#: The colour of the other line of play on the victory points chart (a branch, or its parent).
OTHER_LINE_COLOUR = "warning"


def vp_chart(story: Story, beside: tuple[str, str, Story] | None = None, **kwargs: Any) -> Widget:
    """The victory points as set up (turn 0) and at the end of each turn, a bar each (only the
    Christian player scores them). ``beside``: (this line's name, the other's, its story), a
    branch and the session it came from: then a line each, on one chart."""
    turns = [0, *(t.turn for t in story.turns)]
    points = [story.start.vp, *story.vp()]
    if beside is not None:
        return _two_lines(turns, points, beside, **kwargs)

    def draw(plt: Any, colour: Colour, size: tuple[int, int]) -> None:
        plt.bar(turns, points, color=colour(VP_COLOUR), width=0.4)  # a gap between bars at 80 columns
        top = max(points) + 1
        plt.ylim(0, top)
        plt.yticks(_int_ticks(top, _frame(size)))
        _turn_axis(plt, turns)

    plot = ThemedPlot("Christian victory points at the end of each turn", draw)
    return Vertical(plot, classes="story-chart", **kwargs)


def _two_lines(turns: list[int], points: list[int], beside: tuple[str, str, Story], **kwargs: Any) -> Widget:
    """Two lines of play of one game, their victory points turn by turn on one chart."""
    mine, theirs, other = beside
    other_turns = [0, *(t.turn for t in other.turns)]
    other_points = [other.start.vp, *other.vp()]
    every = sorted({*turns, *other_turns})

    def draw(plt: Any, colour: Colour, size: tuple[int, int]) -> None:
        plt.plot(turns, points, marker="hd", color=colour(VP_COLOUR))
        plt.plot(other_turns, other_points, marker="hd", color=colour(OTHER_LINE_COLOUR))
        top = max(*points, *other_points) + 1
        plt.ylim(0, top)
        plt.yticks(_int_ticks(top, _frame(size)))
        _turn_axis(plt, every)

    plot = ThemedPlot("Christian victory points at the end of each turn, two lines of play", draw)
    key = Legend([(mine, VP_COLOUR), (theirs, OTHER_LINE_COLOUR)])
    return Vertical(plot, key, classes="story-chart", **kwargs)


def cities_chart(story: Story, **kwargs: Any) -> Widget:
    """The cities each side controls, as set up and at the end of each turn, a line a side."""
    turns = [0, *(t.turn for t in story.turns)]
    sides = story.sides

    def draw(plt: Any, colour: Colour, size: tuple[int, int]) -> None:
        top = 1
        for side in sides:
            counts = [story.start.cities.get(side, 0), *story.cities(side)]
            top = max(top, *counts)
            plt.plot(turns, counts, marker="hd", color=colour(SIDE_COLOUR[side]))
        plt.ylim(0, top + 1)
        plt.yticks(_int_ticks(top + 1, _frame(size)))
        _turn_axis(plt, turns)

    plot = ThemedPlot("Cities each side controls at the end of each turn", draw)
    key = Legend([(side_name(s), SIDE_COLOUR[s]) for s in sides])
    return Vertical(plot, key, classes="story-chart", **kwargs)


def luck_chart(story: Story, **kwargs: Any) -> Widget:
    """The player's luck in hits, added up from the set-up to the end of each turn: above 0,
    their battles went better than the dice give on average (game_luck.py)."""
    turns = [0, *(t.turn for t in story.turns)]
    # The balance at the end of each turn: that of the last turn with battles before it.
    balance, at = [], 0.0
    luck = dict(story.luck)
    for turn in turns:
        at = luck.get(turn, at)
        balance.append(at)

    def draw(plt: Any, colour: Colour, size: tuple[int, int]) -> None:
        plt.plot(turns, balance, marker="hd", color=colour(VP_COLOUR))
        plt.hline(0, color=colour("foreground"))
        # Whole hits on the axis, 0 among them: the line above or below it is the story.
        low, high = math.floor(min(0.0, *balance)) - 1, math.ceil(max(0.0, *balance)) + 1
        step = next((s for s in STEPS if (high - low) // s + 1 <= max(2, _frame(size) // 2)), STEPS[-1])
        plt.ylim(low, high)
        plt.yticks([t for t in range(low - low % step, high + 1, step) if low <= t <= high])
        _turn_axis(plt, turns)

    plot = ThemedPlot("Your luck in hits, turn by turn (above 0: luckier than average)", draw)
    return Vertical(plot, classes="story-chart", **kwargs)


# -- the dice against the odds ---------------------------------------------------------------


def dice_chart(title: str, fit: DiceFit, **kwargs: Any) -> ThemedPlot:
    """The share of each total rolled, beside the share fair dice give it (grouped bars)."""
    labels = [str(o.value) for o in fit.outcomes]

    def draw(plt: Any, colour: Colour, size: tuple[int, int]) -> None:
        plt.multiple_bar(
            labels,
            [fit.shares(), fit.chances()],
            color=[colour(ROLLED_COLOUR), colour(FAIR_COLOUR)],
            width=0.6,  # a gap between one total's pair of bars and the next
        )
        top = max([*fit.shares(), *fit.chances()]) * 1.1
        plt.ylim(0, top)
        plt.yticks(_int_ticks(top, size[1] - 4))

    return ThemedPlot(title, draw, **kwargs)


class DiceCharts(Container):
    """The events' 2D6 and the rebellions' D6 against fair dice: side by side where there is
    room for both, one above the other where there is not; each with its verdict under it."""

    DEFAULT_CSS = """
    DiceCharts {
        height: auto;
        layout: vertical;
    }
    DiceCharts.-side {
        layout: horizontal;
    }
    DiceCharts .dice-chart {
        height: auto;
        width: 1fr;
    }
    DiceCharts.-side .dice-chart {
        margin-right: 2;
    }
    /* Side by side, eleven totals take more room than six faces: their bars about as wide. */
    DiceCharts.-side .dice-chart.-events {
        width: 3fr;
    }
    DiceCharts.-side .dice-chart.-rebellions {
        width: 2fr;
    }
    DiceCharts PlotextPlot {
        height: 14;
        margin-top: 1;
    }
    DiceCharts .dice-verdict {
        height: auto;
        color: $text-muted;
    }
    """
    #: From this width the two charts stand side by side.
    SIDE = 110

    def __init__(self, dice: TableDice) -> None:
        super().__init__(classes="review-block")
        self.dice = dice

    def compose(self) -> ComposeResult:
        for what, fit in (("Events", self.dice.events), ("Rebellions", self.dice.rebellions)):
            with Container(classes=f"dice-chart -{what.lower()}"):
                rolls = f"{fit.rolls} roll{'' if fit.rolls == 1 else 's'}"
                yield dice_chart(f"{what}, {fit.dice}: % of the {rolls}", fit)
                yield Legend([("rolled", ROLLED_COLOUR), ("fair dice", FAIR_COLOUR)])
                yield Static(plain(f"{what}: {fit.verdict}."), classes="dice-verdict")

    def on_resize(self) -> None:
        self.set_class(self.size.width >= self.SIDE, "-side")
