"""The table as it stood at one step of a logged session, for the step-through replay.

Each game has a view: a widget with ``show(driver)`` that draws the driver's state
the way the game's own screen does (the Reconquista board, the Simancas table, the
Castells players, bag and castles, the Dice tray's rolls); a game without one of its own gets the generic view, the state's
snapshot as labelled lines. The driver is the one the log was replayed into
(``Driver.resume`` on the first N logged steps), so the picture is the engine's own
state, never a second reading of the log.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import Static

from companion.castells.game import Castells
from companion.driver import Driver
from companion.games import GameNotAvailable
from companion.reconquista.game import Reconquista
from companion.simancas.table import SIDE_NAMES, SIDES
from screens.plain import plain


class StateView(Widget):
    """The base: a view that redraws itself from a driver."""

    DEFAULT_CSS = """
    StateView {
        height: auto;
    }
    StateView .cv-block {
        padding-top: 1;
    }
    """

    def __init__(self, driver: Driver, **kwargs: Any) -> None:
        # The session the view shows: a view may need what it started with (the map of a game).
        super().__init__(**kwargs)

    def show(self, driver: Driver) -> None:
        raise NotImplementedError


class ReconquistaView(StateView):
    """The five regions, drawn by the Reconquista screen's own board widget."""

    def __init__(self, driver: Driver, **kwargs: Any) -> None:
        super().__init__(driver, **kwargs)
        self.board = Reconquista.board_of(driver.state)  # the session's own map, if it has one

    def compose(self) -> ComposeResult:
        from screens.reconquista.board_view import BoardView

        yield Static(id="rv-status")
        yield BoardView(self.board, id="rv-board")

    def show(self, driver: Driver) -> None:
        from companion.games import entry
        from companion.reconquista.control import victory_points
        from screens.reconquista.board_view import BoardView

        state = driver.state
        self.query_one(BoardView).show(state)
        vp = victory_points(self.board, state).total
        self.query_one("#rv-status", Static).update(
            Text.assemble(
                ("Turn ", "dim"),
                (str(state.turn), "bold"),
                ("  ·  ", "dim"),
                (entry("reconquista").phase_title(state.phase), "bold"),
                ("  ·  victory points ", "dim"),
                (str(vp), "bold"),
            )
        )


class SimancasView(StateView):
    """Both sides' cards with their scores, as on the Simancas screen."""

    DEFAULT_CSS = """
    SimancasView Horizontal {
        height: auto;
    }
    SimancasView .sv-side {
        width: 1fr;
        height: auto;
        border: round $primary;
        padding: 0 1;
    }
    """

    def compose(self) -> ComposeResult:
        yield Static(id="sv-status")
        with Horizontal():
            with Vertical(classes="sv-side", id="sv-moors"):
                yield Static(id="sv-moors-cards")
            with Vertical(classes="sv-side", id="sv-christians"):
                yield Static(id="sv-christians-cards")

    def show(self, driver: Driver) -> None:
        from screens.simancas.game_screen import side_table, table_shown

        match = driver.state
        table = table_shown(driver)
        totals = table.totals()
        for side in SIDES:
            title = SIDE_NAMES[side]
            panel = self.query_one(f"#sv-{side}")
            panel.border_title = title
            panel.border_subtitle = f"total {totals[side]}"
            self.query_one(f"#sv-{side}-cards", Static).update(side_table(self, table, side))
        m, c = match.wins["moors"], match.wins["christians"]
        self.query_one("#sv-status", Static).update(
            Text.assemble(
                ("Hand ", "dim"),
                (str(match.hand), "bold"),
                ("  ·  hands won: ", "dim"),
                (f"Moors {m}, Christians {c}", "bold"),
            )
        )


class CastellsView(StateView):
    """The century, the players, the bag, the castles and any battle, as on the Castells screen."""

    def compose(self) -> ComposeResult:
        yield Static(id="cv-status")
        yield Static(id="cv-players", classes="cv-block")
        yield Static(id="cv-bag", classes="cv-block")
        yield Static(id="cv-castles", classes="cv-block")
        yield Static(id="cv-battle", classes="cv-block")

    def show(self, driver: Driver) -> None:
        from screens.castells.game_screen import CastellsScreen, battle_grid

        state = driver.state
        board = Castells.board_of(state)
        self.query_one("#cv-status", Static).update(CastellsScreen.status_text(self, state, board))
        self.query_one("#cv-players", Static).update(CastellsScreen.players_table(state))
        self.query_one("#cv-bag", Static).update(CastellsScreen.bag_text(self, state, board))
        self.query_one("#cv-castles", Static).update(CastellsScreen.castles_text(self, state, board))
        battle = self.query_one("#cv-battle", Static)
        battle.display = state.battle is not None
        if state.battle is not None:
            battle.update(battle_grid(self, state))


class DiceView(StateView):
    """Every roll of the tray so far, the newest first."""

    def compose(self) -> ComposeResult:
        yield Static(id="dv-rolls")

    def show(self, driver: Driver) -> None:
        # The tray's own state: its snapshot lists only the newest rolls (companion/dicetray.py).
        rolls = driver.state.rolls
        if not rolls:
            self.query_one("#dv-rolls", Static).update(Text("No rolls yet.", style="dim italic"))
            return
        table = RichTable(box=None, pad_edge=False, header_style="bold underline")
        table.add_column("#", justify="right", style="dim")
        table.add_column("Dice")
        table.add_column("Label")
        table.add_column("Faces", style="bold")
        table.add_column("Sum", justify="right")
        for i, r in reversed(list(enumerate(rolls, start=1))):
            table.add_row(
                str(i),
                f"{r.n}d{r.sides}",
                plain(r.label),  # the player's label: a str cell of a Rich table is read as markup
                " ".join(map(str, r.values)),
                str(r.total),
            )
        self.query_one("#dv-rolls", Static).update(table)


class SnapshotView(StateView):
    """Any other game: its state snapshot, one labelled line a value."""

    def compose(self) -> ComposeResult:
        yield Static(id="gv-lines")

    def show(self, driver: Driver) -> None:
        self.query_one("#gv-lines", Static).update(snapshot_text(driver.snapshot()))


def snapshot_text(snap: dict[str, Any], indent: int = 0) -> RenderableType:
    lines: list[RenderableType] = []
    pad = "  " * indent
    for key, value in snap.items():
        label = str(key).replace("_", " ")
        # A game's state holds the players' text (names, labels): as text, control characters escaped.
        if isinstance(value, dict) and value:
            lines.append(plain(f"{pad}{label}", "bold"))
            lines.append(snapshot_text(value, indent + 1))
        elif isinstance(value, list) and value and isinstance(value[0], dict):
            lines.append(plain(f"{pad}{label}: {len(value)}", "bold"))
        else:
            shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
            lines.append(Text.assemble(plain(f"{pad}{label}: ", "dim"), plain(shown or "-")))
    return Group(*lines)


def view_for(game_id: str, driver: Driver) -> StateView:
    """The view of ``game_id``'s state its registry entry names (the generic one for a game
    without its own)."""
    from screens.registry import replay_view_class

    try:
        view: type[StateView] = replay_view_class(game_id)
    except GameNotAvailable:
        view = SnapshotView
    return view(driver, id="state-view")
