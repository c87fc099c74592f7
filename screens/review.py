"""Statistics and the luck ledger: what the history adds up to, in tables and terminal plots.

The figures come from ``companion.review`` (SQL aggregates over the store, effective
steps only); they are computed in a worker thread, as over a long history they take
longer than a key press should. A picture is drawn where it says more than a table:
victory points over time, each die's faces against a fair die, and the events' 2D6 and the
rebellions' D6 against fair dice (screens/charts.py).
"""

from __future__ import annotations

from typing import Any

from rich.table import Table as RichTable
from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import Screen
from textual.widgets import Header, Select, Static
from textual_plotext import PlotextPlot

from companion.errors import CompanionError
from companion.games import GAMES
from screens.colours import tone
from screens.plain import plain
from screens.shell.footer import KeysFooter


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


class ReviewScreen(Screen[None]):
    """The frame both screens share: a game filter, a scrolling body filled from a worker."""

    CSS_PATH = "review.tcss"

    BINDINGS = [Binding("escape", "back", "Back", id="history.back")]
    GAMES_SHOWN: tuple[str, ...] = ()

    def __init__(self, game: str | None = None) -> None:
        super().__init__()
        self.game = game if game in self.GAMES_SHOWN else None
        self.ready = False

    def compose(self) -> ComposeResult:
        yield Header()
        options = [("Every game", "")] + [(g.title, g.id) for g in GAMES if g.id in self.GAMES_SHOWN]
        yield Select(options, value=self.game or "", allow_blank=False, id="review-game")
        yield VerticalScroll(id="review-body")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.refresh_figures()

    def on_select_changed(self, event: Select.Changed) -> None:
        game = str(event.value) or None
        if game != self.game:
            self.game = game
            self.refresh_figures()

    def refresh_figures(self) -> None:
        self.ready = False
        body = self.query_one("#review-body")
        body.remove_children()
        body.mount(Static("Adding up the history…", classes="review-note"))
        self._compute(self.game)

    @work(thread=True, exclusive=True)
    def _compute(self, game: str | None) -> None:
        app: Any = self.app
        try:
            figures = self.figures(app.store(), game)
        except CompanionError as exc:
            self.app.call_from_thread(self._failed, str(exc))
            return
        # mypy cannot match a coroutine function with Textual's Callable[..., T | Awaitable[T]].
        self.app.call_from_thread(self._fill, figures)  # type: ignore[arg-type]

    def _failed(self, message: str) -> None:
        body = self.query_one("#review-body")
        body.remove_children()
        body.mount(Static(plain(message, tone(self, "error", "bold"))))
        self.ready = True

    async def _fill(self, figures: Any) -> None:
        body = self.query_one("#review-body")
        await body.remove_children()
        await body.mount_all(self.widgets(figures))
        self.ready = True

    def figures(self, store: Any, game: str | None) -> Any:
        raise NotImplementedError

    def widgets(self, figures: Any) -> list[Any]:
        raise NotImplementedError

    def action_back(self) -> None:
        self.app.pop_screen()


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


class StatisticsScreen(ReviewScreen):
    """Results, victory points, and how often each table result came up, by game."""

    HELP = "Statistics: the results, the victory points over time and how often each table result came up, game by game."

    GAMES_SHOWN = ("reconquista", "simancas", "castells")

    def compose(self) -> ComposeResult:
        # Chosen before the game filter is made, so that it starts on that game (a value
        # changed after would refill the figures a second time).
        self.game = self.game_with_data()
        yield from super().compose()

    def on_mount(self) -> None:
        self.sub_title = "Statistics"
        super().on_mount()

    def game_with_data(self) -> str | None:
        """The game the screen opens on: the one History filters by if it has recorded steps,
        else the game of the most recently played session that has some (a game never
        played has only zeros to show); every game when none has."""
        app: Any = self.app
        try:
            store = app.store()
            latest = {}
            for game in self.GAMES_SHOWN:
                played = next((s for s in store.sessions(game=game, limit=20) if s.steps), None)
                if played is not None:
                    latest[game] = played.last_activity
        except CompanionError:
            return self.game  # the figures' worker says why the store cannot be read
        if self.game in latest:
            return self.game
        return max(latest, key=lambda g: latest[g]) if latest else None

    def figures(self, store: Any, game: str | None) -> Any:
        from companion.review.stats import statistics
        from companion.review.table_dice import table_dice

        stats = statistics(store, game)
        return stats, table_dice(store) if stats.reconquista is not None else None

    def widgets(self, figures: Any) -> list[Any]:
        from screens.charts import DiceCharts

        stats, dice = figures
        out: list[Any] = []
        if self.game is None:
            out.append(
                Static(
                    counts_table("Sessions by game", stats.sessions_by_game, "all"), classes="review-block"
                )
            )
        r = stats.reconquista
        if r is not None:
            out.append(Static(Text("Reconquista", style="bold underline"), classes="review-title"))
            mean = "no finished game yet" if r.mean_vp is None else f"mean {r.mean_vp:.1f} victory points"
            out.append(
                Static(
                    f"{plural(r.sessions, 'game')}, {len(r.games)} finished: {mean}.", classes="review-note"
                )
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
            if dice is not None:
                out.append(DiceCharts(dice))  # the events' and rebellions' dice against fair dice
            out.append(
                Static(
                    counts_table("Muslim reaction: where it rose", r.reaction_regions), classes="review-block"
                )
            )
            out.append(
                Static(counts_table("Muslim reinforcements", r.reinforcements), classes="review-block")
            )
            for note in r.notes:
                out.append(Static(plain(note, "dim"), classes="review-note"))
        s = stats.simancas
        if s is not None:
            out.append(Static(Text("Battle of Simancas", style="bold underline"), classes="review-title"))
            out.append(
                Static(
                    f"{plural(s.sessions, 'match', 'matches')}, {s.finished} finished.", classes="review-note"
                )
            )
            out.append(Static(counts_table("Hands won", s.hands, "hands"), classes="review-block"))
            out.append(Static(counts_table("Matches won", s.matches, "matches"), classes="review-block"))
            for note in s.notes:
                out.append(Static(plain(note, "dim"), classes="review-note"))
        c = stats.castells
        if c is not None:
            out.append(Static(Text("Terra de Castells", style="bold underline"), classes="review-title"))
            out.append(
                Static(
                    f"{plural(c.sessions, 'game')}, {c.finished} finished; "
                    f"{plural(c.army_points_spent, 'army point')} spent on rerolls.",
                    classes="review-note",
                )
            )
            out.append(
                Static(counts_table("Saracen battles won", c.battles, "battles"), classes="review-block")
            )
            out.append(Static(counts_table("Army points spent", c.army_points), classes="review-block"))
            for note in c.notes:
                out.append(Static(plain(note, "dim"), classes="review-note"))
        return out


class LuckScreen(ReviewScreen):
    """The dice typed from the table against a fair die, beside the app's own dice."""

    HELP = "Luck ledger: the dice typed from the table against a fair die, beside the app's own dice."

    GAMES_SHOWN = ("reconquista", "castells", "dice")

    def on_mount(self) -> None:
        self.sub_title = "Luck ledger"
        super().on_mount()

    def figures(self, store: Any, game: str | None) -> Any:
        from companion.review.luck import luck

        return luck(store, game)

    def widgets(self, ledger: Any) -> list[Any]:
        # A session left out (its rows cannot be read) is named, first and plainly.
        skipped = [Static(plain(note, "dim"), classes="review-note") for note in ledger.notes]
        if not ledger.dice:
            return [Static("No dice rolled yet in these sessions.", classes="review-note"), *skipped]
        out: list[Any] = [
            Static(
                Text(
                    "Each die's faces against a fair die (a chi-square test): a small p means the faces "
                    "came up less evenly than a fair die usually gives.",
                    style="dim",
                ),
                classes="review-note",
            )
        ]
        for die in ledger.dice:
            out.append(Static(Text(f"d{die.sides}", style="bold underline"), classes="review-title"))
            table = RichTable(box=None, pad_edge=False, header_style="bold")
            table.add_column("Face")
            for face in range(1, die.sides + 1):
                table.add_column(str(face), justify="right")
            table.add_column("Dice", justify="right")
            table.add_column("p", justify="right")
            for test, name in ((die.physical, "typed"), (die.app, "app")):
                # Too few dice: the p-value is shown in brackets, as the test cannot be trusted yet.
                p = (
                    "-"
                    if test.p_value is None
                    else f"{test.p_value:.2f}"
                    if test.enough
                    else f"({test.p_value:.2f})"
                )
                table.add_row(name, *map(str, test.counts), str(test.dice), p)
            out.append(Static(table, classes="review-block"))
            for test in (die.physical, die.app):
                style = "bold" if test.enough else "dim"
                out.append(
                    Static(
                        Text(f"• {test.verdict[0].upper()}{test.verdict[1:]}", style=style),
                        classes="review-note",
                    )
                )
            if die.sides <= 20 and (die.physical.dice or die.app.dice):
                faces = [str(f) for f in range(1, die.sides + 1)]

                def bars(plt: Any, die: Any = die, faces: list[str] = faces) -> None:
                    share = [
                        [100 * n / t.dice if t.dice else 0 for n in t.counts] for t in (die.physical, die.app)
                    ]
                    plt.multiple_bar(faces, share, labels=["typed", "app"])
                    plt.hline(100 / die.sides)
                    plt.ylabel("% of dice")

                out.append(plot(f"d{die.sides}: share of each face (the line: a fair die)", bars, height=12))
        return out + skipped
