"""The Terra de Castells screen: the century, the players, the bag, the castles, the Saracen, the battle.

The players play their euro game on the table; the app runs the Saracen turns. The
left column shows the state the app keeps (players with army points, the tokens
left in the bag, who holds each castle, where the Saracen stands); the right one the
battle being fought (both sides' dice and successes, the odds before a defender's
reroll) and the question of the moment: a Choose is a list (1-9 pick; a choice of
counts, the player count, is picked with the count's own digit), a Roll takes the dice
typed or r for the app, a draw from the bag is a field where the territory that came out
is typed (its name or number; Enter alone: the app draws, so that no letter of "Riu" is a
key), an instruction is confirmed with Enter. Every answer goes through the driver with
the store's recorder, so the session resumes as it was.
"""

from __future__ import annotations

from typing import Any

from rich.table import Table as RichTable
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Footer, Header, Input, OptionList, Static

from companion.castells import bag as bags
from companion.castells.battle import odds_before_reroll
from companion.castells.board import Board
from companion.castells.edits import describe, parse_edit_text
from companion.castells.game import GAME
from companion.castells.state import MAX_ROLLS, SARACENS, SUCCESS, CastellsState, Side
from companion.driver import Step
from companion.errors import CompanionError
from companion.prompts import Choose, Roll, Tell, edit_prompt
from screens.castells.edit_dialog import EditDialog
from screens.shell.game_screen import GameScreen
from screens.shell.prompt_panel import PromptPanel
from screens.shell.session import correct_a_die, open_driver

PHASES = {
    "setup": "Setup",
    "time": "Phase 1: Passage of time",
    "resources": "Phase 2: Resources",
    "saracens": "The Saracens act",
    "actions": "Phase 3: Actions",
    "battle": "Phase 3: Battle",
    "over": "Game over",
}


#: The draw's field and the line under its question: typed, or Enter alone for the app's draw.
DRAW_FIELD = "name or number; Enter alone: the app draws"
DRAW_HINT = "Type the territory that came out of the bag (its name or number below) and press Enter; Enter alone: the app draws."


def is_draw(prompt: Any) -> bool:
    return isinstance(prompt, Choose) and prompt.topic == bags.DRAW_TOPIC


def counts(prompt: Any) -> tuple[str, ...] | None:
    """The options of a choice of counts (the number of players: 2, 3, 4), each picked with
    its own digit rather than its place in the list; None for any other question."""
    if not isinstance(prompt, Choose):
        return None
    options = prompt.options
    return options if all(len(o) == 1 and o in "123456789" for o in options) else None


def dice_text(side: Side) -> Text:
    """The dice as they stand: a success bold green, a failure dim, the black die on black."""
    out = Text()
    for i, face in enumerate(side.dice):
        black = side.black and i == len(side.dice) - 1
        style = "bold green" if face >= SUCCESS else "dim"
        if black:
            style += " reverse"
        out.append(str(face), style=style)
        out.append(" ")
    return out


def battle_panel(state: CastellsState) -> Text:
    b = state.battle
    assert b is not None
    out = Text()
    if b.kind == "saracen":
        out.append(f"The Saracens attack {b.castle}", style="bold")
    else:
        out.append(f"{b.attacker.name} attacks {b.castle}", style="bold")
    out.append(f" held by {b.defender.name}", style="bold")
    if b.target is not None:
        out.append(f": {b.defender.name} needs {b.target} hit{'s' if b.target != 1 else ''}", style="bold")
    out.append("\n")
    for side in (b.attacker, b.defender):
        out.append(f"{side.name[:10]:<10} ", style="bold")
        if not side.rolls:
            out.append("not rolled yet\n", style="dim")
            continue
        out.append_text(dice_text(side))
        cost = " · free" if side.name == SARACENS else (f" · paid {side.paid}" if side.paid else "")
        out.append(f"{side.successes()} hit{'s' if side.successes() != 1 else ''}", style="bold")
        out.append(f" · roll {side.rolls}/{MAX_ROLLS}{cost}", style="dim")
        out.append("\n")
    if b.result == "held":
        out.append(f"{b.castle} holds.", style="bold green")
    elif b.result == "taken":
        taker = "the Saracens" if b.kind == "saracen" else b.attacker.name
        out.append(f"{b.castle} is taken by {taker}.", style="bold red")
    elif (odds := defender_odds(state)) is not None:
        one, every = odds
        more = f", every reroll left {every}" if every != one else ""
        out.append(f"If {b.defender.name} rerolls: this reroll {one}{more}.", style="#ffb347")
    if b.defender.black or b.attacker.black:
        out.append("\nreversed: the black superiority die", style="dim")
    return out


def defender_odds(state: CastellsState) -> tuple[str, str] | None:
    """The defender's chances before it decides on a reroll (None when no reroll is open)."""
    b = state.battle
    if b is None or b.result is not None or b.target is None:
        return None
    try:
        defender = state.player(b.defender.name)
    except KeyError:
        return None
    return odds_before_reroll(b, defender)


class CastellsScreen(GameScreen):
    """One Terra de Castells session at the table."""

    CSS_PATH = "castells.tcss"

    BINDINGS = [
        Binding("r", "roll", "Roll / draw (app)"),
        Binding("enter", "confirm", "Done", show=False),
        Binding("e", "edit", "Fix by hand"),
        Binding("c", "correct", "Correct a die"),
        Binding("ctrl+z", "undo", "Undo", priority=True),
        Binding("f2,question_mark", "rule", "Rule", priority=True),
        Binding("escape", "back", "Back"),
        *(Binding(str(i), f"pick({i})", show=False) for i in range(1, 10)),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="cs-status")
        with Horizontal(id="cs-body"):
            with Vertical(id="cs-left"):
                yield Static(id="cs-players")
                yield Static(id="cs-bag")
                yield Static(id="cs-castles")
            with Vertical(id="cs-right"):
                yield Static(id="cs-battle")
                yield PromptPanel(id="cs-prompt")
        yield Footer()

    def on_mount(self) -> None:
        for wid, title in (
            ("#cs-players", "Players"),
            ("#cs-bag", "Bag"),
            ("#cs-castles", "Castles"),
            ("#cs-battle", "Battle"),
        ):
            self.query_one(wid).border_title = title
        self.driver = open_driver(self, self.session_id, GAME)
        if self.driver is None:
            return
        self.sub_title = f"Terra de Castells · session {self.session_id}"
        self._show()

    # -- reading the state ---------------------------------------------------------------

    @property
    def state(self) -> CastellsState:
        assert self.driver is not None
        state: CastellsState = self.driver.state
        return state

    @property
    def board(self) -> Board:
        return GAME.board_of(self.state)

    # -- showing -------------------------------------------------------------------------

    def _show(self, message: str = "", error: bool = False) -> None:
        d = self.driver
        if d is None:
            return
        state, board = self.state, self.board
        self.query_one("#cs-status", Static).update(self.status_text(state, board))
        self.query_one("#cs-players", Static).update(self.players_table(state))
        bag = self.query_one("#cs-bag", Static)
        bag.update(self.bag_text(state, board))
        bag.border_title = f"Bag: {bags.tokens_left(state.bag)} tokens"
        self.query_one("#cs-castles", Static).update(self.castles_text(state, board))
        battle = self.query_one("#cs-battle", Static)
        battle.display = state.battle is not None
        if state.battle is not None:
            battle.update(battle_panel(state))
        self._prompt(message, error)

    @staticmethod
    def status_text(state: CastellsState, board: Board) -> Text:
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
            out.append(f" · token: {state.drawn}", style="bold yellow" if board.wakes(state.drawn) else "")
        return out

    @staticmethod
    def players_table(state: CastellsState) -> Any:
        if not state.players:
            return Text("The players are being set up.", style="dim italic")
        table = RichTable(box=None, expand=True, pad_edge=False, header_style="bold underline")
        table.add_column("Turn order")
        table.add_column("Army", justify="right")
        table.add_column("Castles", justify="right")
        for i, p in enumerate(state.players):
            mark = "▸ " if i == state.active and state.phase != "over" else "  "
            held = sum(1 for o in state.owners.values() if o == p.name)
            first = " (starts)" if i == 0 else ""
            table.add_row(
                Text(f"{mark}{p.name}{first}", style="bold" if mark.strip() else ""), str(p.army), str(held)
            )
        return table

    @staticmethod
    def bag_text(state: CastellsState, board: Board) -> Text:
        out = Text()
        for i, t in enumerate(board.territories):
            n = state.bag.get(t.name, 0)
            style = "dim" if n == 0 else ("bold yellow" if t.wakes_saracens else "bold")
            out.append(f"{t.name} {n}", style=style)
            out.append("   " if i % 3 != 2 else "\n")
        out.append("yellow: the token wakes the Saracens", style="dim")
        return out

    @staticmethod
    def castles_text(state: CastellsState, board: Board) -> Text:
        out = Text()
        width = max(len(t.name) for t in board.territories)
        for t in board.territories:
            out.append(f"{t.name:<{width}} ", style="bold yellow" if t.wakes_saracens else "bold")
            for j, c in enumerate(board.castles_in(t.name)):
                if j:
                    out.append("  ")
                owner = state.owners[c]
                if c == state.saracen:
                    out.append(f"{c} ☾", style="bold red")
                elif owner is None:
                    out.append(f"{c} —", style="dim")
                else:
                    out.append(f"{c} {owner}")
            out.append("\n")
        where = state.saracen
        out.append("☾ Saracen figure: ", style="bold")
        out.append(where, style="bold red")
        out.append("\n— marks an empty castle", style="dim")  # a legend, not about the figure's place
        return out

    def _prompt(self, message: str, error: bool) -> None:
        d = self.driver
        assert d is not None
        p = d.pending
        panel = self.query_one(PromptPanel)
        draw = is_draw(p)
        panel.show(
            p,
            [],
            choose_title="Draw from the bag" if draw else "Choose",
            choose_hint=DRAW_HINT if draw else "",
            choose_field=DRAW_FIELD if draw else None,
            choose_keys=counts(p),
            over=Text.assemble(
                (GAME.summary(self.state), "bold"),
                ("\nctrl+z takes back the last answer; escape goes back.", "dim"),
            ),
        )
        panel.message(message, error)

    # -- answering -----------------------------------------------------------------------

    def show_game(self, message: str = "", error: bool = False) -> None:
        self._show(message, error)

    def answered(self, step: Step) -> str:
        return f"Done: {step.prompt.describe()}" if isinstance(step.prompt, Tell) else ""

    @on(Input.Submitted, "#pp-dice")
    def _typed(self, event: Input.Submitted) -> None:
        d = self.driver
        if d is not None and is_draw(d.pending) and not event.value.strip():
            self.action_roll()  # Enter alone on the draw: the app draws
            return
        self.type_text(event.value)

    @on(OptionList.OptionSelected, "#pp-options")
    def _chosen(self, event: OptionList.OptionSelected) -> None:
        self._pick_index(int(event.option.id or 0))

    def action_pick(self, number: int) -> None:
        d = self.driver
        if d is not None and (keys := counts(d.pending)) is not None:
            # A count is picked with its own digit, as the list shows it: 3 is 3 players.
            if str(number) in keys:
                self.choose(str(number))
            else:
                said = f"{', '.join(keys[:-1])} or {keys[-1]}" if len(keys) > 1 else keys[0]
                self._show(f"Press {said}.", error=True)
            return
        self._pick_index(number - 1)

    def _pick_index(self, index: int) -> None:
        self.choose_index(index)

    def action_roll(self) -> None:
        """r: the app rolls the dice asked, or draws the token from the bag."""
        d = self.driver
        if d is None:
            return
        if isinstance(d.pending, Roll):
            self.roll()
        elif is_draw(d.pending):
            self.choose(bags.app_draw(d.seed, len(d.steps), self.state.bag), source="app")
        else:
            self._show("Nothing is rolled or drawn now.", error=True)

    def action_confirm(self) -> None:
        self.ack()

    def action_correct(self) -> None:
        """Correct a battle die typed earlier: the game is replayed from it (Driver.correct), the
        later answers kept where they still fit, and what changes on the table is told."""
        correct_a_die(self, self.driver, self._show, lambda index: self._show(f"Corrected step {index + 1}."))

    def action_edit(self) -> None:
        """A correction by hand: set a castle, an army or the Saracen to what the table shows; logged."""
        d = self.driver
        if d is None:
            return

        def apply(text: str | None) -> None:
            if text is None or d is None:
                return
            try:
                change = parse_edit_text(self.board, self.state, text)
                d.edit(edit_prompt(describe(change), change))
            except (ValueError, CompanionError) as exc:  # BadAnswer is a ValueError too
                self._show(str(exc), error=True)
                return
            self._show(f"{describe(change)}.")

        self.app.push_screen(EditDialog(), apply)
