"""Terra de Castells drawn: the century, the players, the bag, the castles and a battle, as the
game screen shows them and as History's step-through does (``CastellsView``). Every function
takes the node whose theme gives the colours (the screen, or the view)."""

from __future__ import annotations

from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.style import Style
from rich.table import Table as RichTable
from rich.text import Text
from textual.app import ComposeResult
from textual.dom import DOMNode
from textual.widgets import Static

from companion.castells.battle import odds_now, successes_text
from companion.castells.board import Board
from companion.castells.game import Castells
from companion.castells.state import MAX_ROLLS, SARACENS, SUCCESS, CastellsState, Side
from companion.driver import Driver
from screens.colours import tone
from screens.replay_views import StateView

PHASES = {
    "setup": "Setup",
    "time": "Phase 1: Passage of time",
    "resources": "Phase 2: Resources",
    "saracens": "The Saracens act",
    "actions": "Phase 3: Actions",
    "battle": "Phase 3: Actions",  # a battle is one of the actions
    "over": "Game over",
}


def dice_text(node: DOMNode, side: Side) -> Text:
    """The dice as they stand: a success bold in the theme's success colour, a failure dim, the
    black die reversed (``node``: the widget the text is for, whose theme gives the colours)."""
    out = Text()
    for i, face in enumerate(side.dice):
        black = side.black and i == len(side.dice) - 1
        style = tone(node, "success", "bold") if face >= SUCCESS else Style(dim=True)
        if black:
            style += Style(reverse=True)
        out.append(str(face), style=style)
        out.append(" ")
    return out


def battle_heading(state: CastellsState) -> Text:
    """'The Saracens attack Tortosa held by Anna: Anna needs 3 successes'."""
    b = state.battle
    assert b is not None
    out = Text()
    if b.kind == "saracen":
        out.append(f"The Saracens attack {b.castle}", style="bold")
    else:
        out.append(f"{b.attacker.name} attacks {b.castle}", style="bold")
    out.append(f" held by {b.defender.name}", style="bold")
    if b.target == 0:
        # Nothing to match ("needs 0 successes" reads as a roll to make): no defence roll.
        out.append(f": no success for {b.defender.name} to match", style="bold")
    elif b.target is not None:
        out.append(f": {b.defender.name} needs {successes_text(b.target)}", style="bold")
    return out


def side_result(side: Side) -> Text:
    """'3 successes · roll 3/3 · free': the successes, the rolls made and what they cost."""
    cost = " · free" if side.name == SARACENS else (f" · paid {side.paid}" if side.paid else "")
    return Text.assemble(
        (successes_text(side.total()), "bold"),
        # A favour card's successes, told apart from the dice's: "3 successes (+1)".
        (f" ({side.bonus:+d})" if side.bonus else "", "bold"),
        (f" · roll {side.rolls}/{MAX_ROLLS}{cost}", "dim"),
    )


def battle_end(node: DOMNode, state: CastellsState) -> Text:
    """Under the dice: the result once the battle is over, else the odds of the decision open
    (the attacker's reroll, the defender's first roll or reroll); the legend."""
    b = state.battle
    assert b is not None
    out = Text()
    if b.result is None and b.forced is not None:
        out.append(
            f"A favour card: {b.castle} {'holds' if b.forced == 'held' else 'is taken'}.", style="bold"
        )
    elif b.result == "held":
        out.append(f"{b.castle} holds.", style=tone(node, "success", "bold"))
    elif b.result == "taken":
        taker = "the Saracens" if b.kind == "saracen" else b.attacker.name
        out.append(f"{b.castle} is taken by {taker}.", style=tone(node, "error", "bold"))
    elif (odds := odds_now(state)) is not None:
        out.append(odds, style=tone(node, "warning"))
    if b.defender.black or b.attacker.black:
        out.append("\n(the die shown reversed is the black superiority die)", style="dim")
    return out


def battle_grid(node: DOMNode, state: CastellsState) -> RenderableType:
    """The battle on the game screen, at every width: each side a row of a grid (name, dice, an
    arrow, the result), so that a result too long for the line wraps inside its own column and
    stays with its side, and the count of successes is not read as one more die ('6 1 1 1 1 1
    success' was six dice to a player)."""
    b = state.battle
    assert b is not None
    heading = battle_heading(state)
    grid = RichTable.grid(padding=(0, 1))
    grid.add_column(no_wrap=True, style="bold")
    grid.add_column(no_wrap=True)
    grid.add_column(ratio=1)
    for side in (b.attacker, b.defender):
        if side.rolls:
            dice = dice_text(node, side)
            dice.append("→", style="dim")
            grid.add_row(side.name[:10], dice, side_result(side))
        else:
            grid.add_row(side.name[:10], Text("not rolled yet", style="dim"), "")
    end = battle_end(node, state)
    # No empty last line when there is neither a result nor odds to show.
    return Group(heading, grid, end) if end.plain else Group(heading, grid)


def castles_by_owner(node: DOMNode, state: CastellsState, board: Board) -> Text:
    """The castles in a narrow column: each player's castles on a line of their own, where the
    Saracen stands, and how many castles are empty (the board on the table shows which)."""
    out = Text()
    for p in state.players:
        held = [c for c in board.castles if state.owners[c] == p.name]
        out.append(f"{p.name}: ", style="bold")
        out.append(", ".join(held) if held else "no castle", style="" if held else "dim")
        out.append("\n")
    empty = sum(1 for c in board.castles if state.owners[c] is None and c != state.saracen)
    out.append("☾ Saracen: ", style="bold")
    out.append(state.saracen, style=tone(node, "error", "bold"))
    out.append(f"\n{empty} empty castle{'s' if empty != 1 else ''}", style="dim")
    return out


class Holding:
    """A castle and who holds it, in a column of the castles panel: on one line where the column
    has room ("Tortosa Anna"), else the holder on the line under the castle ("Tortosa" /
    "Player 3"), so that a holder's name is never cut in two nor read as another castle."""

    def __init__(self, castle: str, holder: str, style: Style | str = "") -> None:
        self.castle = Text(castle, style=style)
        self.holder = Text(holder, style=style)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        one = Text.assemble(self.castle, " ", self.holder)
        if one.cell_len <= options.max_width:
            yield one
        else:
            yield self.castle
            yield self.holder

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widest = max(self.castle.cell_len, self.holder.cell_len)
        return Measurement(widest, widest + 1 + min(self.castle.cell_len, self.holder.cell_len))


def status_text(node: DOMNode, state: CastellsState, board: Board) -> Text:
    out = Text()
    if 0 <= state.century < len(board.centuries):
        out.append(f"Century {board.centuries[state.century]}", style="bold")
        out.append(f" ({state.century + 1} of {len(board.centuries)})")
    else:
        out.append("Terra de Castells", style="bold")
    if state.active is not None and state.players and state.phase != "over":
        out.append(" · ")
        out.append(f"{state.players[state.active].name}'s turn", style="bold")
    out.append(f" · {PHASES.get(state.phase, state.phase)}")
    if state.drawn and state.phase not in ("time", "over"):
        wakes = board.wakes(state.drawn)
        out.append(f" · token: {state.drawn}", style=tone(node, "warning", "bold") if wakes else "")
    return out


def players_table(state: CastellsState, castles: bool = True) -> Any:
    """The players in turn order with their army points and (``castles``) castles held."""
    if not state.players:
        return Text("The players are being set up.", style="dim italic")
    table = RichTable(box=None, expand=True, pad_edge=False, header_style="bold underline")
    table.add_column("Turn order")
    table.add_column("Army", justify="right")
    if castles:  # a narrow column lists each player's castles under the players instead
        table.add_column("Castles", justify="right")
    for i, p in enumerate(state.players):
        mark = "▸ " if i == state.active and state.phase != "over" else "  "
        held = sum(1 for o in state.owners.values() if o == p.name)
        first = " (starts)" if i == 0 else ""
        row: list[RenderableType] = [
            Text(f"{mark}{p.name}{first}", style="bold" if mark.strip() else ""),
            str(p.army),
        ]
        table.add_row(*row, *([str(held)] if castles else []))
    return table


def bag_text(node: DOMNode, state: CastellsState, board: Board, narrow: bool = False) -> Text:
    """The tokens left of each territory, three territories a line (``narrow``: two)."""
    per_line = 2 if narrow else 3
    out = Text()
    width = max(len(f"{t.name} {state.bag.get(t.name, 0)}") for t in board.territories)
    for i, t in enumerate(board.territories):
        n = state.bag.get(t.name, 0)
        style = (
            Style(dim=True)
            if n == 0
            else (tone(node, "warning", "bold") if t.wakes_saracens else Style(bold=True))
        )
        last = i % per_line == per_line - 1 or i == len(board.territories) - 1
        # Two columns line up; three keep the spacing they always had.
        item = f"{t.name} {n}" if per_line == 3 or last else f"{t.name} {n}".ljust(width)
        out.append(item, style=style)
        out.append("\n" if last else "   ")
    # A swatch of the colour, not its name: the theme decides what the colour is.
    out.append("■", style=tone(node, "warning", "bold"))
    out.append(" wakes the Saracens" if narrow else " the token wakes the Saracens", style="dim")
    return out


def castles_text(node: DOMNode, state: CastellsState, board: Board) -> RenderableType:
    """Each territory a row and its castles in columns, each with who holds it ('—' none, '☾'
    the Saracen figure): a castle and its holder stay in their own column ('Agramunt Player'
    / '3' read as two castles), and the columns line up from one territory to the next."""
    # Columns as wide as their castles and holders need; narrower, a holder goes under its castle.
    grid = RichTable.grid(padding=(0, 2, 0, 0))
    grid.add_column(no_wrap=True)
    columns = max(len(board.castles_in(t.name)) for t in board.territories)
    for _ in range(columns):
        grid.add_column()
    for t in board.territories:
        cells: list[RenderableType] = [
            Text(t.name, style=tone(node, "warning", "bold") if t.wakes_saracens else "bold")
        ]
        for c in board.castles_in(t.name):
            owner = state.owners[c]
            if c == state.saracen:
                cells.append(Holding(c, "☾", tone(node, "error", "bold")))
            elif owner is None:
                cells.append(Holding(c, "—", Style(dim=True)))
            else:
                cells.append(Holding(c, owner))
        grid.add_row(*cells, *([""] * (columns + 1 - len(cells))))
    legend = Text()
    legend.append("☾ Saracen figure: ", style="bold")
    legend.append(state.saracen, style=tone(node, "error", "bold"))
    legend.append("\n— marks an empty castle", style="dim")  # a legend, not about the figure's place
    return Group(grid, legend)


class CastellsView(StateView):
    """The century, the players, the bag, the castles and any battle, as on the Castells screen."""

    def compose(self) -> ComposeResult:
        yield Static(id="cv-status")
        yield Static(id="cv-players", classes="cv-block")
        yield Static(id="cv-bag", classes="cv-block")
        yield Static(id="cv-castles", classes="cv-block")
        yield Static(id="cv-battle", classes="cv-block")

    def show(self, driver: Driver) -> None:
        state = driver.state
        board = Castells.board_of(state)
        self.query_one("#cv-status", Static).update(status_text(self, state, board))
        self.query_one("#cv-players", Static).update(players_table(state))
        self.query_one("#cv-bag", Static).update(bag_text(self, state, board))
        self.query_one("#cv-castles", Static).update(castles_text(self, state, board))
        battle = self.query_one("#cv-battle", Static)
        battle.display = state.battle is not None
        if state.battle is not None:
            battle.update(battle_grid(self, state))
