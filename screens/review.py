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

from companion import games
from companion.errors import CompanionError
from screens.colours import tone
from screens.context import companion_app
from screens.figures import counts_table, plot, text_view
from screens.plain import plain
from screens.shell.footer import KeysFooter


class ReviewScreen(Screen[None]):
    """The frame both screens share: a game filter, a scrolling body filled from a worker."""

    CSS_PATH = "review.tcss"

    BINDINGS = [Binding("escape", "back", "Back", id="history.back")]

    def __init__(self, game: str | None = None) -> None:
        super().__init__()
        self.game = game if game in self.games_shown() else None
        self.ready = False

    @classmethod
    def games_shown(cls) -> tuple[str, ...]:
        """The games the screen has figures of, in the registry's order."""
        return ()

    def compose(self) -> ComposeResult:
        yield Header()
        shown = self.games_shown()
        options = [("Every game", "")] + [(g.title, g.id) for g in games.GAMES if g.id in shown]
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
        app = companion_app(self)
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


class StatisticsScreen(ReviewScreen):
    """Results, victory points, and how often each table result came up, by game."""

    HELP = "Statistics: the results, the victory points over time and how often each table result came up, game by game."

    @classmethod
    def games_shown(cls) -> tuple[str, ...]:
        """The games whose registry entry names statistics."""
        return tuple(e.id for e in games.GAMES if e.stats is not None)

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
        app = companion_app(self)
        try:
            store = app.store()
            latest = {}
            for game in self.games_shown():
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

        return statistics(store, game)

    def widgets(self, stats: Any) -> list[Any]:
        out: list[Any] = []
        if self.game is None:
            out.append(
                Static(
                    counts_table("Sessions by game", stats.sessions_by_game, "all"), classes="review-block"
                )
            )
        for game_id, figures in stats.games:
            if figures is None:
                continue
            # Each game's view of its figures, as its registry entry names it (or its lines).
            e = games.entry(game_id)
            view = games.named(e.stats_view) if e.stats_view else text_view
            out.append(Static(Text(e.title, style="bold underline"), classes="review-title"))
            out += view(figures)
            for note in figures.notes:
                out.append(Static(plain(note, "dim"), classes="review-note"))
        return out + LuckScreen.game_luck(stats.luck)


class LuckScreen(ReviewScreen):
    """The dice typed from the table against a fair die, beside the app's own dice."""

    HELP = "Luck ledger: the dice typed from the table against a fair die, beside the app's own dice."

    @classmethod
    def games_shown(cls) -> tuple[str, ...]:
        """The games that roll dice, and are played in this version."""
        return tuple(e.id for e in games.GAMES if e.dice and e.module is not None)

    def on_mount(self) -> None:
        self.sub_title = "Luck ledger"
        super().on_mount()

    def figures(self, store: Any, game: str | None) -> Any:
        from companion.review.luck import luck

        return luck(store, game)

    def widgets(self, ledger: Any) -> list[Any]:
        from companion.review.luck import p_text

        # A session left out (its rows cannot be read) is named, first and plainly.
        skipped = [Static(plain(note, "dim"), classes="review-note") for note in ledger.notes]
        if not ledger.dice:
            return [Static("No dice rolled yet in these sessions.", classes="review-note"), *skipped]
        out: list[Any] = [
            Static(
                Text(
                    "Each die's faces against a fair die: Pearson's chi-square, with the G test beside it, "
                    "and the exact test where there are under 5 rolls a face. A small p means the faces came "
                    "up less evenly than a fair die usually gives; a flag is weighed against the number of "
                    "tests shown (Holm's correction).",
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
            table.add_column("χ²", justify="right")
            table.add_column("G", justify="right")
            table.add_column("p", justify="right")
            for test in die.tests():
                table.add_row(
                    plain(test.name),  # a die's name is the player's text
                    *map(str, test.counts),
                    str(test.dice),
                    "-" if test.chi2 is None else f"{test.chi2:.1f}",
                    "-" if test.g is None else f"{test.g:.1f}",
                    "-" if test.p is None else p_text(test.p).removeprefix("p = ").replace("p < ", "<"),
                )
            out.append(Static(table, classes="review-block"))
            for test in die.tests():
                out.append(
                    Static(
                        Text(
                            f"• {test.verdict[0].upper()}{test.verdict[1:]}.",
                            style="bold" if test.flagged else "",
                        ),
                        classes="review-note",
                    )
                )
                for line in test.lines():
                    out.append(
                        Static(
                            Text(f"{line[0].upper()}{line[1:]}.", style="dim"),
                            classes="review-note review-detail",
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
        games = self.game_luck(ledger.games)
        if games:  # the dice's own tests below the games' luck, a line apart
            out[0].add_class("review-block")
        return [*games, *out, *skipped]

    @staticmethod
    def game_luck(weighed: Any) -> list[Any]:
        """Was the player lucky? Each game's rolls in its own units against their average (the
        ledger shows them first: the question a player asks before whether the dice are fair)."""
        out: list[Any] = []
        for game in weighed:
            head, *rest = game.lines()
            out.append(Static(Text(head.removesuffix("."), style="bold underline"), classes="review-title"))
            # Player names are the players' text: shown as text, never read as markup.
            out += [
                Static(
                    Text(line.strip(), style="" if "balance" in line else "dim"),
                    classes="review-note review-detail",
                )
                for line in rest
            ]
        return out
