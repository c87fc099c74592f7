"""The Reconquista board screen: the map, the turn, the question of the moment, the log.

Every answer goes through the driver, so it is committed before the next
question appears, and the session resumes where it stood. Undo, correction of
an earlier die and the dice mode are keys of this screen.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Header, Static

from companion.dice import chosen_dice_mode
from companion.driver import Step
from companion.errors import CompanionError
from companion.games import entry
from companion.prompts import Choose, Edit, Prompt, Roll, Tell
from companion.reconquista import movement, purchases
from companion.reconquista.battle import SIEGE_ROLL_TOPIC
from companion.reconquista.board import Board, load_board
from companion.reconquista.control import income, result_band, victory_points
from companion.reconquista.events import roll_faces
from companion.reconquista.forecast import describe as describe_odds
from companion.reconquista.forecast import el_cid_goes, forecast_move, forecast_siege
from companion.reconquista.game import GAME, LAST_TURN, TURN_BEGINS_TOPIC
from companion.reconquista.units import Kind, SpecError, parse_spec
from screens.colours import tone
from screens.context import companion_app
from screens.plain import notify_plain
from screens.reconquista.board_view import BoardView, legend, marks_of
from screens.reconquista.dialogs import DICE_MODES, DiceModeDialog, EditAreaDialog
from screens.rendered import update_line
from screens.shell.dialogs import MessageDialog
from screens.shell.entry_log import EntryLog
from screens.shell.footer import KeysFooter
from screens.shell.game_screen import GameScreen, faces_line
from screens.shell.notes import note_entry
from screens.shell.prompt_panel import PromptPanel
from screens.shell.session import correct_a_die, resume

#: The entries the log keeps: it is written again with the newest ones when it would hold more
#: than twice as many (screens/shell/entry_log.py).
LOG_KEEP = 200
#: The steps a resume, an undo or a correction writes into the live log again.
LOG_LINES = 60


def board_of_config(config: dict[str, Any]) -> Board:
    """The board a session plays on: its own map and tables files, else the shipped ones."""
    return load_board(config.get("map"), config.get("tables"))


class ReconquistaScreen(GameScreen):
    """One Reconquista session at the table."""

    HELP = "Reconquista: the app plays the robot's side; answer the question of the moment (the dice you rolled, or an option) and make its changes on your board."

    CSS_PATH = "reconquista.tcss"

    BINDINGS = [
        # First, so the narrow footer shows it: there the board and the question take turns.
        # Tab as well as b, and with priority: b is a letter where text is typed.
        Binding("tab,b", "toggle_board", "Board/Now", priority=True, id="reconquista.board"),
        Binding("r", "roll", "Roll (app)", id="game.roll"),
        Binding("enter", "confirm", "Done", show=False, id="game.done"),
        Binding("a", "confirm_all", "All done", id="game.all_done"),
        Binding("ctrl+z", "undo", "Undo", priority=True, id="game.undo"),
        Binding("c", "correct", "Correct a die", id="game.correct"),
        Binding("w", "why_not", "Why not?", id="reconquista.why_not"),
        Binding("e", "edit", "Fix board", id="game.edit"),
        Binding("ctrl+d", "dice_mode", "Dice mode", priority=True, id="reconquista.dice_mode"),
        Binding("f2,question_mark", "rule", "Rule", priority=True, id="game.rule"),
        Binding("escape", "back", "Back", id="game.back"),
        *(Binding(str(i), f"pick({i})", show=False) for i in range(10)),
        Binding("d", "done", "Done", show=False, id="game.choose_done"),
    ]

    def __init__(self, session_id: int, mode: str = "mixed") -> None:
        super().__init__(session_id)
        self.mode = mode
        self.board = board_of_config({})
        self.done_tells: list[str] = []
        self._footer_keys: tuple[bool, bool, str] | None = None  # what the footer was last drawn for

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="rq-status")
        with Horizontal(id="rq-body"):
            with Vertical(id="rq-left"):
                yield BoardView(self.board, id="rq-board")
                yield Static(id="rq-turns")
                yield Static(legend(marks_of(self)), id="rq-legend")
            with Vertical(id="rq-right"):
                yield PromptPanel(id="rq-prompt")
                yield EntryLog(id="rq-log", keep=LOG_KEEP, min_width=20)
        yield KeysFooter()

    # -- the layout of the moment ---------------------------------------------------
    #
    # The question of the moment comes first at every size; the board takes what is left.
    #   wide   (160+ columns): the printed board's panels at their own width, the rest to the
    #          question and the log;
    #   tall   (116+ columns, 36+ rows): the panels on top, the question and the log under them;
    #   side   (116+ columns): the compact board (a line an area) beside the question;
    #   narrow (below): the question or the compact board, tab (or b) switching them.

    def layout_for(self, width: int, height: int) -> str:
        if width >= 160 and height >= 26:
            return "-wide"
        if width >= 116 and height >= 36:
            return "-tall"
        if width >= 116:
            return "-side"
        return "-narrow"

    LAYOUTS = ("-wide", "-tall", "-side", "-narrow")

    def on_resize(self, event: events.Resize) -> None:
        self._lay_out(event.size.width, event.size.height)
        if self.driver is not None:  # the status line is written for the width
            self.query_one("#rq-status", Static).update(self._status_line(self.driver.state))

    def _lay_out(self, width: int, height: int) -> None:
        chosen = self.layout_for(width, height)
        if not self.use_layout(chosen, self.LAYOUTS):
            return
        self.query_one(BoardView).set_compact(chosen in ("-side", "-narrow"))
        if chosen != "-narrow":
            self.remove_class("-board")
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "toggle_board":
            return self.has_class("-narrow")
        # "All done" confirms instructions: the footer offers it only while one waits.
        if action == "confirm_all":
            return self.driver is not None and isinstance(self.driver.pending, Tell)
        return super().check_action(action, parameters)

    def action_toggle_board(self) -> None:
        """Narrow: the compact board in place of the question, or back."""
        self._show_board(not self.has_class("-board"))

    def _show_board(self, shown: bool) -> None:
        if shown == self.has_class("-board"):
            return
        self.set_class(shown, "-board")
        if not shown:
            self._show()  # the question takes the focus again (a hidden field lost it)

    def on_mount(self) -> None:
        app = companion_app(self)
        # The board and its legend in the theme's colours: drawn again when another is picked.
        app.theme_changed_signal.subscribe(self, self._retheme)
        self._lay_out(*app.size)
        self.query_one("#rq-log", EntryLog).border_title = "Log"
        try:
            store = app.store()
            info = store.session(self.session_id)
            self.mode = chosen_dice_mode(info.config) or self.mode
            self.board = board_of_config(info.config)
            self.query_one(BoardView).use(self.board)
        except CompanionError as exc:
            notify_plain(app, str(exc), severity="error")
            app.pop_screen()
            return
        resumed = resume(self, self.session_id, GAME)
        if resumed is None:
            return
        self.driver = resumed.driver
        self.notes = resumed.notes
        try:
            log = store.log(self.session_id)  # read after resuming: the steps that stand now
        except CompanionError as exc:
            notify_plain(app, str(exc), severity="error")
            app.pop_screen()
            return
        self.query_one("#rq-log", EntryLog).replace(self._log_lines(log))
        if resumed.notice:
            self.query_one("#rq-log", EntryLog).add(Text(resumed.notice, style=tone(self, "warning", "bold")))
        self._auto()
        self._show()

    # -- showing ------------------------------------------------------------------

    def _retheme(self, _theme: object) -> None:
        self.query_one("#rq-legend", Static).update(legend(marks_of(self)))
        if self.driver is not None:
            self.query_one(BoardView).show(self.driver.state)

    def _show(self, message: str = "", error: bool = False) -> None:
        driver = self.driver
        if driver is None:
            return
        state = driver.state
        # The footer's keys follow the question (check_action): "All done" while an instruction
        # waits, the app's roll while a roll waits and the dice are not physical. Refreshed only
        # when that changes: a refresh rebuilds the footer, which cost every answer a layout of
        # the whole screen.
        keys = (isinstance(driver.pending, Tell), isinstance(driver.pending, Roll), self.mode)
        if keys != self._footer_keys:
            self._footer_keys = keys
            self.refresh_bindings()
        self.sub_title = f"Reconquista · session {self.session_id}"
        self.query_one(BoardView).show(state)
        update_line(self.query_one("#rq-status", Static), self._status_line(state))
        track = Text("Turn ")
        for t in range(1, LAST_TURN + 1):
            track.append(str(t), style="reverse bold" if t == state.turn else "dim")
            track.append(" ")
        update_line(self.query_one("#rq-turns", Static), track)
        panel = self.query_one(PromptPanel)
        prompt = driver.pending
        # A choice's options take the room first (reconquista.tcss, -choosing).
        choosing = isinstance(prompt, Choose)
        for gives_way in ("#rq-log", "#rq-legend"):
            self.query_one(gives_way).set_class(choosing, "-choosing")
        if prompt is None:
            panel.show(None, [], self._final_text())
            panel.message("")
        else:
            odds, notes = self._odds(prompt)
            panel.show(prompt, self.done_tells, odds, self.mode, notes)
            if message:
                panel.message(message, error)
            else:
                panel.message("")

    def _status_line(self, state: Any) -> Text:
        """The turn, the phase, the points to spend, the region in revolt and the dice mode, kept
        whole on one line: where the screen is too narrow (80 columns) the line drops words, the
        least needed first ("to spend", "of 20", the phase's name after its number, "dice:")."""
        width = max(self.size.width - 2, 20)  # the line's padding
        points = f"{state.income} point{'s' if state.income != 1 else ''}" if state.phase == "income" else ""
        revolt = f"{self.board.regions[state.revolt].name} in revolt" if state.revolt else ""
        title = self._phase_title()
        dice = f"dice: {self.mode}"
        short = title.split(":")[0]
        to_spend = f"{points} to spend" if points else ""
        variants = [
            (f"Turn {state.turn} of {LAST_TURN}", title, to_spend, dice),
            (f"Turn {state.turn} of {LAST_TURN}", title, points, dice),
            (f"Turn {state.turn}/{LAST_TURN}", title, points, dice),
            (f"Turn {state.turn}/{LAST_TURN}", short, points, dice),
            (f"Turn {state.turn}/{LAST_TURN}", short, points, self.mode),
        ]
        for turn, phase, spend, mode in variants:
            line = Text.assemble(
                (turn, "bold"), " · ", (phase, "bold"), *(f" · {part}" for part in (spend, revolt) if part),
                (f"   {mode}", "dim"),
            )  # fmt: skip
            if line.cell_len <= width:
                break
        return line

    def _phase_title(self) -> str:
        """The phase the status line names. A turn's opening instruction comes before its
        Phase 1, while the state still names the phase the last turn ended in (Phase 7)."""
        assert self.driver is not None
        pending = self.driver.pending
        if pending is not None and pending.topic == TURN_BEGINS_TOPIC:
            return "Start of turn"
        return entry("reconquista").phase_title(self.driver.state.phase)

    def _final_text(self) -> str:
        assert self.driver is not None
        state = self.driver.state
        vp = victory_points(self.board, state)
        band = result_band(self.board, vp.total)
        lines = [f"{label}: {points}" for label, points in vp.lines] or ["No victory points."]
        return "\n".join([*lines, f'Total {vp.total}: {band.name} "{band.title}".'])

    def _odds(self, prompt: Prompt) -> tuple[str, dict[str, str]]:
        """The exact odds before the player commits an attack or a siege roll: a line for
        the panel, and a note for each option of a move that meets enemy forces."""
        assert self.driver is not None
        state = self.driver.state
        notes: dict[str, str] = {}
        try:
            if isinstance(prompt, Choose) and prompt.topic == movement.UNITS_TOPIC:
                origin, dest = prompt.data["origin"], prompt.data["destination"]
                for option in prompt.options:
                    note = self._move_odds(origin, dest, parse_spec(option))
                    if note:
                        notes[option] = note
                return ("Odds of each force:" if notes else ""), notes
            if isinstance(prompt, Choose) and prompt.topic == movement.DESTINATION_TOPIC:
                origin = prompt.data["origin"]
                units = state.areas[origin].force("christian")
                for dest in prompt.options:
                    note = self._move_odds(origin, dest, units)
                    if note:
                        notes[dest] = note
                return ("Odds if every unit goes:" if notes else ""), notes
            if isinstance(prompt, Choose) and prompt.topic == movement.EL_CID_TOPIC:
                dest = prompt.data["destination"]
                units = [Kind(k) for k, n in prompt.data["units"].items() for _ in range(n)]
                for option, goes in zip(prompt.options, (True, False), strict=True):
                    f = forecast_move(self.board, state, dest, units, with_el_cid=goes)
                    if f.kind != "none":
                        notes[option] = describe_odds(f)
                return ("Odds with and without El Cid:" if notes else ""), notes
            if isinstance(prompt, Roll) and prompt.topic == SIEGE_ROLL_TOPIC:
                f = forecast_siege(self.board, state, prompt.data["area"])
                return (describe_odds(f) if f.kind != "none" else ""), notes
        except (SpecError, KeyError, ValueError):
            return "", notes
        # The board the screen holds: a session on its own map and tables files is not read again.
        faces = roll_faces(self.board, prompt) if isinstance(prompt, Roll) else []
        if faces:
            # A table roll says what each result means before the dice are typed.
            return faces_line(faces), notes
        if prompt.topic == purchases.PURCHASE_TOPIC:
            # One line: the menu takes the room first; the income's lines are in the log.
            total = sum(points for _label, points in self._income_lines())
            left = f"{state.income} point{'s' if state.income != 1 else ''} left"
            return f"{left} of this turn's income of {total} (its lines are in the log)", notes
        return "", notes

    def _move_odds(self, origin: str, dest: str, units: list[Kind]) -> str:
        """The odds of ``units`` of ``origin`` moving into ``dest``, El Cid counted when he
        goes with them ("Attacks first. +2 in siege."); when the player will be asked whether
        he goes (some units stay behind), the odds with him and without him."""
        assert self.driver is not None
        state = self.driver.state
        goes = el_cid_goes(state, origin, units)  # True: he goes; None: the player will say
        f = forecast_move(self.board, state, dest, units, with_el_cid=goes is not False)
        if f.kind == "none":
            return ""
        if goes is None:
            with_him, without = describe_odds(f), describe_odds(forecast_move(self.board, state, dest, units))
            if with_him == without:  # the same to the percent: one line says it
                return with_him
            kind, _, odds = with_him.partition(": ")
            return f"{kind} with El Cid: {odds}; without him: {without.partition(': ')[2]}"
        return describe_odds(f)

    def _income_lines(self) -> list[tuple[str, int]]:
        """This turn's income as collected at the start of Phase 3: a purchase that wins a
        region's majority (a bribe) changes what the next turn earns, not what this one did."""
        assert self.driver is not None
        for step in reversed(self.driver.steps):
            if step.prompt.topic == purchases.INCOME_TOPIC:
                return [(str(line["label"]), int(line["points"])) for line in step.prompt.data["lines"]]
        return income(self.board, self.driver.state).lines

    def _log(self, step: Step, turn: int | None, phase: str | None) -> None:
        self.query_one("#rq-log", EntryLog).add(self._log_line(step, turn))

    def _relog(self, note: Text) -> None:
        """The live log rewritten as the game now stands (after an undo, a redo or a
        correction: the steps that stand, from the store), ``note`` last."""
        app = companion_app(self)
        try:
            log = app.store().log(self.session_id)
        except CompanionError:
            self.query_one("#rq-log", EntryLog).add(note)  # the log as it was, and the note
            return
        self.query_one("#rq-log", EntryLog).replace([*self._log_lines(log), note])

    def _log_lines(self, log: Any) -> list[Text]:
        """The live log of the steps that stand (the newest LOG_LINES), each note under its step."""
        lines: list[Text] = []
        first = max(0, len(log.steps) - LOG_LINES)
        for i, (ev, step) in enumerate(zip(log.events[first:], log.steps[first:], strict=True), start=first):
            lines.append(self._log_line(step, ev.turn))
            if i in self.notes:
                lines.append(note_entry(self, self.notes[i]))
        return lines

    def noted(self, index: int) -> None:
        # The note is under its step now; the last line says what changed.
        what = "noted" if index in self.notes else "note taken off"
        self._relog(Text(f"✎ {what} step {index + 1}", style=tone(self, "warning")))

    def _log_line(self, step: Step, turn: int | None) -> Text:
        where = f"T{turn} " if turn is not None else ""
        answer = step.answer
        if isinstance(step.prompt, Edit):
            line = Text.assemble((where, "dim"), ("✎ ", tone(self, "warning")), step.prompt.describe())
        elif isinstance(step.prompt, Tell):
            line = Text.assemble((where, "dim"), ("✓ ", tone(self, "success")), step.prompt.text)
        elif isinstance(step.prompt, Roll):
            who = "app" if step.source == "app" else "table"
            dice = answer if isinstance(answer, list) else []
            # A table roll names what its total drew ("3 5 → 8: El Cid"), as its question listed.
            drew = dict(roll_faces(self.board, step.prompt)).get(str(sum(dice)))
            line = Text.assemble(
                (where, "dim"),
                step.prompt.why,
                ": ",
                (" ".join(map(str, dice)), "bold"),
                (f" → {sum(dice)}: {drew}" if drew else "", "bold"),
                (f" ({who})", "dim"),
            )
        else:
            line = Text.assemble((where, "dim"), step.prompt.why, " → ", (str(answer), "bold"))
        return line

    # -- answering ----------------------------------------------------------------

    def before_answer(self) -> None:
        assert self.driver is not None
        self._where = self.driver.state.turn, self.driver.state.phase

    def answered(self, step: Step) -> str:
        """Log the answer, keep the checklist, and let the app roll what it rolls itself."""
        if isinstance(step.prompt, Tell):
            self.done_tells.append(step.prompt.text)
        else:
            self.done_tells = []
        self._log(step, *self._where)
        self._auto()
        self._back_to_the_question()
        return ""

    def show_game(self, message: str = "", error: bool = False) -> None:
        self._show(message, error)

    def automatic_dice(self) -> bool:
        return self.mode == "app"

    def app_may_roll(self) -> bool:
        return self.mode != "physical"

    def after_undo(self, taken: list[Step]) -> None:
        self.done_tells = []
        self._relog(Text(f"↶ took back {len(taken)} step(s)", style=tone(self, "warning")))

    def after_filled(self, filled: list[Step]) -> None:
        self._relog(
            Text(
                f"✎ kept {len(filled)} fact(s) of the table from before the correction",
                style=tone(self, "warning"),
            )
        )

    def after_redo(self, done: list[Step]) -> None:
        self.done_tells = []
        self._relog(Text(f"↷ redid {len(done)} step(s)", style=tone(self, "warning")))

    def _auto(self) -> None:
        """In app-dice mode the app rolls every die itself, until a question needs the player."""
        driver = self.driver
        while driver is not None and self.mode == "app" and isinstance(driver.pending, Roll):
            turn, phase = driver.state.turn, driver.state.phase
            try:
                step = driver.roll()
            except CompanionError as exc:
                self.query_one(PromptPanel).message(str(exc), error=True)
                return
            self._log(step, turn, phase)

    def action_roll(self) -> None:
        # In physical mode the key is off (check_action): the footer offers no app roll.
        if self.driver is None or not isinstance(self.driver.pending, Roll):
            return
        self.roll()

    @on(PromptPanel.Typed)
    def _typed(self, event: PromptPanel.Typed) -> None:
        self.roll(event.value)

    @on(PromptPanel.Picked)
    def _chosen(self, event: PromptPanel.Picked) -> None:
        self._pick_index(event.index)

    def action_pick(self, number: int) -> None:
        """A digit: the option of its number (two digits for the 10th on: 1 then 2 is 12)."""
        index = self.typed_number(number)
        if index is not None:
            self._pick_index(index)

    def _pick_index(self, index: int) -> None:
        self.choose_index(index)

    def action_confirm(self) -> None:
        self.ack()

    def action_confirm_all(self) -> None:
        """Confirm every instruction waiting, up to the next question (one repaint at the end)."""
        driver = self.driver
        if driver is None or not isinstance(driver.pending, Tell):
            return
        told: Prompt | None = driver.pending
        try:
            while isinstance(told, Tell):
                turn, phase = driver.state.turn, driver.state.phase
                step = driver.ack()
                self.done_tells.append(told.text)
                self._log(step, turn, phase)
                told = driver.pending
        except CompanionError as exc:
            self._show(str(exc), error=True)
            return
        self._auto()
        self._back_to_the_question()
        self._show()

    def _back_to_the_question(self) -> None:
        """Narrow: instructions may be confirmed with the board in view, but a roll or a
        choice brings the question back (its field or list, hidden, would not take the keys)."""
        driver = self.driver
        if driver is not None and not isinstance(driver.pending, Tell):
            self._show_board(False)

    # -- undo, correction, dice mode -----------------------------------------------

    def action_correct(self) -> None:
        def corrected(index: int) -> None:
            self.done_tells = []
            self._relog(Text(f"✎ corrected step {index + 1}", style=tone(self, "warning")))
            self._show()

        correct_a_die(self, self.driver, self._show, corrected)

    def action_why_not(self) -> None:
        """Phase 3: why each purchase that is not offered is refused, where the Christians are."""
        driver = self.driver
        if driver is None or driver.state.phase != "income":
            self._show("Purchases are made in Phase 3; w explains the ones not offered.", error=True)
            return
        state = driver.state
        body = Text()
        for area in self.board.all_areas():
            here = state.areas[area]
            if not (here.count("christian") or here.city == "christian"):
                continue
            reasons = {
                kind: why
                for kind in ("army", "garrison", "city", "fortress", "convert")
                if (why := purchases.refusal(self.board, state, kind, area))
            }
            if not reasons:
                continue
            body.append(f"{area}\n", style="bold")
            for kind, why in reasons.items():
                body.append(f"  {kind}: {why}\n")
        if not body.plain:
            body.append("Every purchase where the Christians stand is offered.")
        self.app.push_screen(MessageDialog("Not offered, and why", body))

    def action_edit(self) -> None:
        """A manual correction: set an area to what the table shows; logged as its own step."""
        from companion.prompts import edit_prompt
        from companion.reconquista.edits import area_text, parse_area_text

        driver = self.driver
        if driver is None:
            return
        areas = {a: area_text(driver.state.areas[a]) for a in self.board.all_areas()}

        def apply(area: str, text: str) -> str | None:
            """Make the correction; the sentence that refuses it, which the dialog shows."""
            try:
                change = parse_area_text(text)
                change["area"] = area
                step = driver.edit(edit_prompt(f"{area} is now {text.strip()}", change))
            except (ValueError, CompanionError) as exc:  # BadAnswer is a ValueError too
                return str(exc)
            self._log(step, driver.state.turn, driver.state.phase)
            return None

        def done(said: str | None) -> None:
            if said is not None:
                self._show(said)

        self.app.push_screen(EditAreaDialog(areas, apply), done)

    def action_dice_mode(self) -> None:
        """ctrl+d: the dice mode picked in a dialog, kept with the session (a resumed game rolls
        as chosen). It applies from the next roll: the question waiting is never answered by it."""

        def picked(mode: str | None) -> None:
            if mode is None or mode == self.mode:
                return
            app = companion_app(self)
            try:
                app.store().set_dice_mode(self.session_id, mode)
            except CompanionError as exc:
                self._show(str(exc), error=True)
                return
            self.mode = mode
            self.notify(f"{DICE_MODES[mode]} (from the next roll)")
            self._show()

        self.app.push_screen(DiceModeDialog(self.mode), picked)
