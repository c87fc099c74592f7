"""The Terra de Castells screen: the century, the players, the bag, the castles, the Saracen, the battle.

The players play their euro game on the table; the app runs the Saracen turns. The
left column shows the state the app keeps (players with army points, the tokens
left in the bag, who holds each castle, where the Saracen stands); the right one the
battle being fought (both sides' dice and successes, the odds before each decision:
the attacker's reroll, the defender's first roll and rerolls) and the question of the moment: a Choose is a list (1-9 pick; a choice of
counts, the player count, is picked with the count's own digit), a Roll takes the dice
typed or r for the app, a draw from the bag is a field where the territory that came out
is typed (its name, its first letters or its number; Enter alone: the app draws, so that no
letter of "Riu" is a key), an instruction is confirmed with Enter (a: every one waiting); at
Phase 3's actions menu w shows, for each action not offered, the one sentence why.
Every answer goes through the driver with the store's recorder, so the session resumes as it
was.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.table import Table as RichTable
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.dom import DOMNode
from textual.widgets import Header, RichLog, Static

from companion.castells import bag as bags
from companion.castells.actions import OPTIONS, refusals
from companion.castells.board import Board
from companion.castells.edits import describe, parse_edit_text
from companion.castells.game import GAME
from companion.castells.state import MAX_ACTIONS, CastellsState
from companion.driver import Step
from companion.errors import CompanionError
from companion.prompts import CORRECTION, Choose, Edit, Roll, Tell, edit_prompt
from screens.castells.edit_dialog import EditDialog
from screens.castells.views import (
    bag_text,
    battle_grid,
    castles_by_owner,
    castles_text,
    players_table,
    status_text,
)
from screens.colours import tone
from screens.rendered import Rendered
from screens.shell.dialogs import MessageDialog
from screens.shell.footer import KeysFooter
from screens.shell.game_screen import GameScreen
from screens.shell.notes import note_entry
from screens.shell.prompt_panel import PromptPanel
from screens.shell.session import correct_a_die, open_driver

#: The draw's field and the line under its question: typed, or Enter alone for the app's draw.
DRAW_FIELD = "name or number; Enter alone: app draws"
DRAW_HINT = "Type the territory that came out of the bag (its name or number below) and press Enter; Enter alone: the app draws."

#: The topic of the instruction that applies a battle's result (the battle is on until it is confirmed).
RESULT_TOPIC = "castells.battle.result"

#: Under a choice of counts: the key is the count.
COUNTS_HINT = "Press the count (or arrows + Enter)."

#: The topic of Phase 3's actions menu, and the line under it: w says why an action is absent.
MENU_TOPIC = "castells.actions.next"
MENU_HINT = "w: why an action is not offered."


def choose_hint(prompt: Any) -> str:
    """The line under a choice: how a draw or a count is answered, w at the actions menu."""
    if is_draw(prompt):
        return DRAW_HINT
    if counts(prompt):
        return COUNTS_HINT
    return MENU_HINT if isinstance(prompt, Choose) and prompt.topic == MENU_TOPIC else ""


def is_draw(prompt: Any) -> bool:
    return isinstance(prompt, Choose) and prompt.topic == bags.DRAW_TOPIC


#: The setup's choice of castles: a castle keeps its number as the list shrinks.
SETUP_CASTLES_TOPIC = "castells.setup.castles"


def castle_numbers(prompt: Any, castles: Sequence[str]) -> list[int] | None:
    """The number of each castle of the setup's choice, its place on the board (1 first), so
    that a castle picked does not renumber the ones after it under the next digit typed; None
    for any other question. The last option (no more castles) has no number: d picks it."""
    if not isinstance(prompt, Choose) or prompt.topic != SETUP_CASTLES_TOPIC:
        return None
    return [castles.index(c) + 1 for c in prompt.options[:-1] if c in castles]


def counts(prompt: Any) -> tuple[str, ...] | None:
    """The options of a choice of counts (the number of players: 2, 3, 4), each picked with
    its own digit rather than its place in the list; None for any other question."""
    if not isinstance(prompt, Choose):
        return None
    options = prompt.options
    return options if all(len(o) == 1 and o in "123456789" for o in options) else None


def battle_over(state: CastellsState, pending: Any) -> bool:
    """Whether the battle on screen is over and its result confirmed: the game has moved on to
    another question (the next action, the resources)."""
    b = state.battle
    return (
        b is not None
        and b.result is not None
        and not (isinstance(pending, Tell) and pending.topic == RESULT_TOPIC)
    )


#: Narrower than this, the screen takes its narrow layout; this wide or wider, the wide one.
NARROW = 100
WIDE = 160
#: The steps the log lists (the newest last).
LOG_STEPS = 200


def log_row(node: DOMNode, number: int, step: Step) -> RichTable:
    """One line of the log of the answers: the step's number, its question and its answer, who
    gave it (a grid, so that a long line wraps under its own text, not under the numbers)."""
    return _row(str(number), step_line(node, step))


def note_row(node: DOMNode, said: str) -> RichTable:
    """The player's note under its step, in the column of the steps' lines."""
    return _row("", note_entry(node, said))


def _row(number: str, line: Text) -> RichTable:
    grid = RichTable.grid(padding=(0, 1), expand=True)
    grid.add_column(justify="right", style="dim", no_wrap=True, min_width=3)
    grid.add_column(ratio=1)
    grid.add_row(number, line)
    return grid


def step_line(node: DOMNode, step: Step) -> Text:
    """One answered step: '✓ an instruction', 'a roll: 3 5 (app)', 'a question → its answer'."""
    p = step.prompt
    if isinstance(p, Tell):
        return Text.assemble(("✓ ", tone(node, "success")), p.text)
    if isinstance(p, Edit):
        return Text.assemble(("✎ ", tone(node, "warning")), p.describe())
    if isinstance(p, Roll):
        return Text.assemble(
            p.why or p.label,
            ": ",
            (" ".join(map(str, step.answer or [])), "bold"),
            (" (app)" if step.source == "app" else " (table)", "dim"),
        )
    return Text.assemble(
        getattr(p, "why", "") or p.describe(),
        " → ",
        (str(step.answer), "bold"),
        (" (app)" if step.source == "app" else "", "dim"),
    )


def territory_typed(options: Sequence[str], text: str) -> tuple[str | None, str]:
    """The territory a few letters typed on the draw name ("munt": Muntanya), and the sentence
    that refuses them when they could be several ("m": Migdia or Muntanya); (None, "") when
    they are no start of a territory (the choice's own parsing says why: a number, a typo)."""
    typed = text.strip().casefold()
    if not typed or typed.isdigit():
        return None, ""
    starting = [o for o in options if o.casefold().startswith(typed)]
    if len(starting) == 1:
        return starting[0], ""
    if len(starting) > 1 and typed not in (o.casefold() for o in options):
        return (
            None,
            f"'{text.strip()}' could be {', '.join(starting[:-1])} or {starting[-1]}: type more of it.",
        )
    return None, ""


class CastellsScreen(GameScreen):
    """One Terra de Castells session at the table."""

    #: The layout follows the width alone: one column, two, or two and the log (castells.tcss).
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW, "-normal"), (WIDE, "-wide")]

    HELP = "Terra de Castells: the app runs the Saracen turns and the battles; answer the question of the moment (dice, an option, a name, army points) and carry out its instructions."

    CSS_PATH = "castells.tcss"

    #: What the footer was last drawn for (the kind of question, a draw's field): see _prompt.
    _footer_keys: tuple[str, bool] | None = None
    #: The steps the log has written, in order (_show_log), and the first of them it holds.
    _log_shown: list[Step]
    _log_first = 0
    #: The terminal was resized: the log is written again at its new width (on_resize).
    _log_width_changed = False

    BINDINGS = [
        Binding("r", "roll", "Roll / draw (app)", id="game.roll"),
        Binding("enter", "confirm", "Done", show=False, id="game.done"),
        # What the panel says under an instruction ("a: all done"); off the footer, which is full at 80.
        Binding("a", "confirm_all", "All done", show=False, id="game.all_done"),
        Binding("e", "edit", "Fix by hand", id="game.edit"),
        Binding("c", "correct", "Correct a die", id="game.correct"),
        # Off the footer, which is full at 80 columns: the actions menu says "w: why ..." under it.
        Binding(
            "w",
            "why_absent",
            "Why not?",
            show=False,
            tooltip="for each action of Phase 3 not offered, why",
            id="castells.why_not",
        ),
        Binding("ctrl+z", "undo", "Undo", priority=True, id="game.undo"),
        Binding("f2,question_mark", "rule", "Rule", priority=True, id="game.rule"),
        Binding("escape", "back", "Back", id="game.back"),
        *(Binding(str(i), f"pick({i})", show=False) for i in range(10)),
        Binding("d", "done", "Done", show=False, id="game.choose_done"),
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
            # Shown on a wide terminal only: what was answered, the last line the newest.
            # No max_lines: a RichLog trimming its oldest lines could leave at its top the second
            # line of a step whose number had gone. _show_log writes it again in its place.
            log = RichLog(id="cs-log", wrap=True, markup=False, min_width=20)
            log.can_focus = False
            yield log
        yield KeysFooter()

    def on_resize(self) -> None:
        changed = self.layout_changed()
        if self.has_class("-wide"):
            # A RichLog draws a line at the width it has when the line is written: the log is
            # written again once the new layout has given it its width, not by _show_board now.
            self._log_width_changed = True
            self.call_after_refresh(self._rewrite_log)
        if changed:
            self._show_board()

    def _rewrite_log(self) -> None:
        self._log_width_changed = False
        self._log_shown = []
        if self.driver is not None and self.has_class("-wide"):
            self._show_log(self.driver.steps)

    def on_mount(self) -> None:
        self._log_shown = []
        for wid, title in (
            ("#cs-players", "Players"),
            ("#cs-bag", "Bag"),
            ("#cs-castles", "Castles"),
            ("#cs-battle", "Battle"),
            ("#cs-log", "Log"),
        ):
            self.query_one(wid).border_title = title
        self.layout_changed()
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
        if self.driver is None:
            return
        self._show_board()
        self._prompt(message, error)

    def _show_board(self) -> None:
        """Everything but the question: drawn again when the layout changes (the question is
        not, so that a text being typed stays in its field)."""
        d = self.driver
        if d is None:
            return
        state, board = self.state, self.board
        narrow = self.has_class("-narrow")
        self.query_one("#cs-status", Static).update(status_text(self, state, board))
        # The Rich tables drawn once for their height and their paint (screens/rendered.py).
        self.query_one("#cs-players", Static).update(Rendered(players_table(state, castles=not narrow)))
        bag = self.query_one("#cs-bag", Static)
        bag.update(bag_text(self, state, board, narrow=narrow))
        bag.border_title = f"Bag: {bags.tokens_left(state.bag)} tokens"
        castles = castles_by_owner(self, state, board) if narrow else castles_text(self, state, board)
        self.query_one("#cs-castles", Static).update(
            castles if isinstance(castles, Text) else Rendered(castles)
        )
        battle = self.query_one("#cs-battle", Static)
        over = battle_over(state, d.pending)
        # A battle over stays in view as the last one; on the narrow screen it gives its rows
        # back to the question (at 80x24 the actions menu after it lost its last options).
        battle.display = state.battle is not None and not (over and narrow)
        if state.battle is not None:
            battle.border_title = "Last battle" if over else "Battle"
            battle.update(Rendered(battle_grid(self, state)))
        if self.has_class("-wide") and not self._log_width_changed:
            self._show_log(d.steps)

    def _show_log(self, steps: Sequence[Step]) -> None:
        """The log of the answers, on a wide terminal: the steps answered since it was last drawn
        are added at its end, each written once; it is written again, the newest ``LOG_STEPS``,
        after an undo or a correction (the steps are others), after more than ``LOG_STEPS``
        answers out of sight, when its width changes, and when it would hold more than twice
        ``LOG_STEPS`` (so that a long game's log stays short, and starts with a step's first
        line). A Static holding the whole log was laid out again at every answer: with 120 steps,
        an answer cost 0.40 s of CPU at 200x55 against 0.10 s at 120x40; then 0.17 s, the repaint
        of a larger screen (bench/game_screens.py times an answer now)."""
        log = self.query_one("#cs-log", RichLog)
        shown = self._log_shown
        if (
            not shown
            or len(steps) < len(shown)
            or steps[len(shown) - 1] is not shown[-1]
            or len(steps) - len(shown) > LOG_STEPS  # answered out of sight: no gap in the numbers
            or len(steps) - self._log_first > 2 * LOG_STEPS
        ):
            log.clear()
            shown = self._log_shown = []
            if not steps:
                log.write(Text("Nothing answered yet.", style="dim italic"))
                return
        first = max(len(shown), len(steps) - LOG_STEPS)
        if not shown:
            self._log_first = first
            shown.extend(steps[:first])  # older than the log holds: in History
        for number, step in enumerate(steps[first:], start=first + 1):
            log.write(log_row(self, number, step), expand=True)
            if number - 1 in self.notes:  # the player's note, under its step
                log.write(note_row(self, self.notes[number - 1]), expand=True)
            shown.append(step)

    def noted(self, index: int) -> None:
        """A note written or taken off: the log is written again, as after an undo."""
        self._log_shown = []
        self._show()

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
            choose_hint=choose_hint(p),
            choose_field=DRAW_FIELD if draw else None,
            choose_keys=self._keys(p),
            over=Text.assemble(
                (GAME.summary(self.state), "bold"),
                ("\nctrl+z takes back the last answer; escape goes back.", "dim"),
            ),
        )
        panel.message(message, error)
        # The footer's keys follow the question (r, e, c are off while a name is typed): it is
        # not redrawn when the focus stays in the same field (a Roll after an army typed).
        keys = (type(p).__name__, draw)
        if keys != self._footer_keys:
            self._footer_keys = keys
            self.refresh_bindings()

    # -- answering -----------------------------------------------------------------------

    def show_game(self, message: str = "", error: bool = False) -> None:
        self._show(message, error)

    def answered(self, step: Step) -> str:
        return f"Done: {step.prompt.describe()}" if isinstance(step.prompt, Tell) else ""

    @on(PromptPanel.Typed)
    def _typed(self, event: PromptPanel.Typed) -> None:
        d = self.driver
        if d is not None and is_draw(d.pending) and not event.value.strip():
            self.action_roll()  # Enter alone on the draw: the app draws
            return
        if d is not None and isinstance(d.pending, Choose) and is_draw(d.pending):
            picked, refusal = territory_typed(d.pending.options, event.value)
            if refusal:
                self._show(refusal, error=True)
                return
            if picked is not None:
                self.choose(picked)
                return
        self.type_text(event.value)

    @on(PromptPanel.Picked)
    def _chosen(self, event: PromptPanel.Picked) -> None:
        self._pick_index(event.index)

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
        index = self.typed_number(number)
        if index == -1:  # a castle's own number, but that castle is not offered now
            self._show(
                "No castle on the list has that number: type one of the numbers shown, or d.", error=True
            )
        elif index is not None:
            self._pick_index(index)

    def _keys(self, prompt: Any) -> Sequence[str] | None:
        numbers = self.option_numbers(prompt) if isinstance(prompt, Choose) else None
        if numbers is not None:
            return [*(str(n) for n in numbers), "d"]
        return counts(prompt)

    def option_numbers(self, prompt: Choose) -> list[int] | None:
        numbers = castle_numbers(prompt, GAME.board_of(self.state).castles)
        return numbers if numbers is not None and len(numbers) == len(prompt.options) - 1 else None

    def _pick_index(self, index: int) -> None:
        d = self.driver
        if d is not None and isinstance(d.pending, Choose) and not 0 <= index < len(d.pending.options):
            # A digit past the list (the menu shrinks after the 3rd action) would do nothing, unsaid.
            n = min(len(d.pending.options), 9)
            self._show({1: "Press 1.", 2: "Press 1 or 2."}.get(n, f"Press 1 to {n}."), error=True)
            return
        self.choose_index(index)

    def action_confirm_all(self) -> None:
        """a: confirm every instruction waiting, up to the next question."""
        d = self.driver
        if d is None or not isinstance(d.pending, Tell):
            return
        told: Any = d.pending
        try:
            while isinstance(told, Tell):
                d.ack()
                told = d.pending
        except CompanionError as exc:
            self._show(str(exc), error=True)
            return
        self._show()

    def rolls_now(self) -> bool:
        """r rolls the dice asked or draws the token from the bag."""
        d = self.driver
        return d is not None and (isinstance(d.pending, Roll) or is_draw(d.pending))

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

    def action_why_absent(self) -> None:
        """w: in Phase 3, why each action not offered to the active player is not, one sentence
        each, from the table as it stands (companion.castells.actions.refusals)."""
        d = self.driver
        if d is None:
            return
        state = self.state
        if state.phase != "actions" or state.active is None:
            self._show("Actions are chosen in Phase 3; w there says why one is not offered.", error=True)
            return
        player = state.players[state.active]
        absent = refusals(self.board, state, player)
        body = Text()
        body.append(f"{player.name}: {len(state.actions)} of {MAX_ACTIONS} actions taken\n", style="bold")
        for code, why in absent.items():
            body.append(f"{OPTIONS[code]}: ", style="bold")
            body.append(f"{why}\n")
        if not absent:
            body.append("Every action of Phase 3 is offered.")
        self.app.push_screen(MessageDialog("Not offered, and why", body))

    def action_edit(self) -> None:
        """A correction by hand: set a castle, an army or the Saracen to what the table shows; logged."""
        d = self.driver
        if d is None:
            return

        said: list[str] = []

        def apply(text: str) -> str | None:
            """Make the correction; the sentence that refuses it, which the dialog shows."""
            try:
                change = parse_edit_text(self.board, self.state, text)
                d.edit(edit_prompt(describe(change), change))
            except (ValueError, CompanionError) as exc:  # BadAnswer is a ValueError too
                return str(exc)
            said.append(f"{CORRECTION}: {describe(change)}.")
            return None

        def done(result: str | None) -> None:
            self._show(said[-1] if result is not None and said else "")

        self.app.push_screen(EditDialog(apply), done)
