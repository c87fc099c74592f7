"""History: every session, filtered, sorted and searched; open one to step through its log.

The sessions table reads one page at a time (``Store.sessions`` with a limit) and
the next page when the cursor comes near the end, so ten thousand sessions open as
fast as ten. An opened session shows its log turn by turn and phase by phase beside
the table as it stood at the highlighted step: the log replayed into a driver
(``Driver.resume``), the same mechanism as resume and undo. The log itself is read from the
stored rows, so it lists every recorded step; where the game's rules now part from it (a
session recorded under earlier rules) the table stays at the last step that fits, with one
sentence saying at which step and why.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.coordinate import Coordinate
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import DataTable, Header, Input, Select, Static

from companion import games
from companion.driver import Driver, Step, departure
from companion.errors import CompanionError, ReplayDivergence
from companion.games import title as game_title
from companion.prompts import Choose, Prompt
from companion.review.board_checks import checks_text, tally
from screens.colours import tone
from screens.context import companion_app
from screens.plain import TYPED_MAX, notify_plain, plain
from screens.session_words import STATUS_SHOWN, local_time
from screens.shell.branching import branch_here
from screens.shell.dialogs import MessageDialog
from screens.shell.dice_names import source_text, test_mark_text
from screens.shell.footer import KeysFooter
from screens.shell.game_screen import rule_line, rule_text
from screens.shell.notes import NoteDialog, note_entry
from screens.shell.session_actions import ask_then, delete_question

#: Rows read at a time; the next page is read when the cursor is this close to the end.
PAGE = 100
NEAR_END = 20

#: The orders of the sessions table: (name in the store, what the help line says).
ORDERS = [
    ("recent", "last activity, newest first"),
    ("started", "start, newest first"),
    ("oldest", "start, oldest first"),
    ("longest", "duration, longest first"),
    ("steps", "steps, most first"),
    ("game", "game"),
    ("status", "status, unfinished first"),
]
#: Clicking a column header sorts by it.
COLUMN_ORDER = {
    "started": "started",
    "duration": "longest",
    "steps": "steps",
    "game": "game",
    "status": "status",
}


#: Longer questions are cut in the log table, so that the answer column stays on screen: at
#: the room the other columns leave (SessionLogScreen.fit_log), ASKED_WIDTH at least.
ASKED_WIDTH = 24
ASKED_MAX = 160


def asked(prompt: Prompt, width: int = ASKED_WIDTH) -> str:
    """The question of a step as the log lists it: a long list of choices is left out (a
    Simancas turn offers over a hundred; the answer says which was taken), and the text is
    cut at ``width``."""
    text = prompt.describe()
    if isinstance(prompt, Choose) and len(prompt.options) > 6:
        text = prompt.why or "Choose"
    return text if len(text) <= width else text[: width - 1] + "…"


#: Longer answers are cut too, so that the source and time stay on screen.
ANSWER_WIDTH = 24


def answered(step: Step, width: int = ANSWER_WIDTH) -> str:
    answer = step.answer
    if answer is None:
        return "done"
    text = " ".join(map(str, answer)) if isinstance(answer, list) else str(answer)
    return text if len(text) <= width else text[: width - 1] + "…"


#: The log's columns, and below which width of the log its clock times are left out.
LOG_COLUMNS = [
    ("Step", "step"),
    ("Turn", "turn"),
    ("Phase", "phase"),
    ("Asked", "prompt"),
    ("Answer", "answer"),
    ("Source", "source"),
    ("Time", "time"),
]
LOG_NARROW = 90


#: The sessions table's columns: (label, key, width; 0 for the result, which takes the rest).
#: A narrow terminal drops the duration and the steps (the log shows both) and writes the start
#: without its year, so that the result keeps room to be read (it wraps where it is long).
SESSION_COLUMNS = [
    ("#", "id", -1),  # as wide as the highest session number
    ("Game", "game", max(len(g.title) for g in games.GAMES)),
    ("Started", "started", 16),
    ("Duration", "duration", 10),
    ("Status", "status", 10),
    ("Steps", "steps", 5),
    ("Result", "summary", 0),
]
#: Below this table width the duration and steps are left out; below the next, the year.
NARROW, MEDIUM = 96, 136
RESULT_MIN = 16


def duration_text(start: datetime, end: datetime) -> str:
    """'45 min', '2 h 05 min', '3 d 4 h': how long a session has lasted, to the minute."""
    minutes = int((end - start).total_seconds() // 60)
    if minutes < 1:
        return "< 1 min"
    if minutes < 60:
        return f"{minutes} min"
    hours, mins = divmod(minutes, 60)
    if hours < 24:
        return f"{hours} h {mins:02d} min"
    days, hours = divmod(hours, 24)
    return f"{days} d {hours} h"


def under_parents(sessions: list[Any]) -> list[Any]:
    """``sessions`` in their order, but each branch right under its parent where both are
    listed (a branch of a branch under its own parent, in turn)."""
    listed = {s.id for s in sessions}
    children: dict[int, list[Any]] = {}
    for s in sessions:
        if s.parent_id in listed and s.parent_id != s.id:
            children.setdefault(s.parent_id, []).append(s)
    out: list[Any] = []
    seen: set[int] = set()

    def put(s: Any) -> None:
        if s.id in seen:
            return
        seen.add(s.id)
        out.append(s)
        for child in children.get(s.id, []):
            put(child)

    for s in sessions:
        if s.parent_id not in listed or s.parent_id == s.id:
            put(s)
    for s in sessions:  # a cycle (edited by hand) leaves none out
        put(s)
    return out


class HistoryScreen(Screen[None]):
    """The table of sessions, with filters by game and status, a search and a choice of order."""

    HELP = (
        "History: every session played, to filter, sort, search, read step by step or resume. An "
        "abandoned session resumes like any other; delete removes an abandoned one for good."
    )

    CSS_PATH = "history.tcss"

    BINDINGS = [
        Binding("enter", "open_log", "Read log", id="history.open"),
        Binding("r", "resume", "Resume", id="history.resume"),
        Binding("s", "sort", "Sort", id="history.sort"),
        Binding("slash", "search", "Search", id="history.search"),
        Binding("t", "statistics", "Statistics", id="history.statistics"),
        Binding("l", "luck", "Luck ledger", id="history.luck"),
        Binding("g", "story", "Story", id="history.story"),
        Binding("delete", "delete_session", "Delete", id="history.delete"),
        Binding("escape", "back", "Back", id="history.back"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.order = "recent"
        self.total = 0  # sessions matching the filters
        self.shown = 0  # of them, read into the table
        self.loaded = False
        self.column_layout: tuple[tuple[str, int], ...] = ()  # the table's columns now: (key, width)
        self.statuses: dict[int, str] = {}  # each row's session status, for the keys it offers

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="history-filters"):
            yield Select(
                [("All games", "")] + [(g.title, g.id) for g in games.GAMES],
                value="",
                allow_blank=False,
                id="filter-game",
            )
            yield Select(
                [
                    ("Any status", ""),
                    ("Unfinished", "active"),
                    ("Finished", "finished"),
                    ("Abandoned", "abandoned"),
                ],
                value="",
                allow_blank=False,
                id="filter-status",
            )
            yield Input(placeholder="search, or #number", id="filter-search", max_length=TYPED_MAX)
        yield Static(id="history-help")
        yield DataTable(id="sessions-table", cursor_type="row", zebra_stripes=True)
        yield Static(id="history-status")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = "History"
        table = self.query_one(DataTable)
        self._set_columns()
        self.load()
        table.focus()

    def on_resize(self) -> None:
        if self.loaded and self._set_columns():
            self.load(keep_cursor=True)

    def _columns_for(self, width: int) -> tuple[tuple[str, int], ...]:
        """The columns that fit a table ``width`` wide, the result taking what the others leave."""
        app = companion_app(self)
        try:
            newest = app.store().sessions(sort="started", limit=1)
        except CompanionError:
            newest = []
        id_width = max(1, len(str(newest[0].id)) if newest else 1)
        dropped = {"duration", "steps"} if width < NARROW else set()
        columns = []
        for label, key, w in SESSION_COLUMNS:
            if key in dropped:
                continue
            if key == "started" and width < MEDIUM:
                w = 12  # '01 Dec 17:02'
            columns.append((key, max(w, len(label)) if w > 0 else w if w == 0 else id_width))
        pad = 2 * self.query_one(DataTable).cell_padding
        used = sum(w + pad for key, w in columns if key != "summary") + pad + 2  # 2: the scrollbar
        return tuple((key, max(RESULT_MIN, width - used) if key == "summary" else w) for key, w in columns)

    def _set_columns(self) -> bool:
        """Lay the columns out for the table's width; True if they changed (the rows are then
        to be read again)."""
        table = self.query_one(DataTable)
        width = max(self.size.width - 4, 40)  # the table's margins
        layout = self._columns_for(width)
        if layout == self.column_layout:
            return False
        self.column_layout = layout
        labels = {key: label for label, key, _ in SESSION_COLUMNS}
        table.clear(columns=True)
        for key, w in layout:
            table.add_column(labels[key], key=key, width=w)
        return True

    def on_screen_resume(self) -> None:
        self.load(keep_cursor=True)

    # -- reading -----------------------------------------------------------------------

    def filters(self) -> dict[str, Any]:
        game = self.query_one("#filter-game", Select).value
        status = self.query_one("#filter-status", Select).value
        return {
            "game": game or None,
            "status": status or None,
            "search": self.query_one("#filter-search", Input).value,
        }

    def load(self, keep_cursor: bool = False) -> None:
        """(Re)read the first page of sessions matching the filters, in the chosen order."""
        app = companion_app(self)
        table = self.query_one(DataTable)
        row = table.cursor_row if keep_cursor else 0
        try:
            store = app.store()
            filters = self.filters()
            self.total = store.count_sessions(**filters)
            sessions = store.sessions(**filters, sort=self.order, limit=max(PAGE, row + NEAR_END))
        except CompanionError as exc:
            self.query_one("#history-status", Static).update(plain(exc, tone(self, "error", "bold")))
            return
        table.clear()
        self.shown = 0
        self.statuses = {}
        self._add(sessions)
        if keep_cursor and table.row_count:
            table.move_cursor(row=min(row, table.row_count - 1))
        self._say()
        self.loaded = True

    def _more(self) -> None:
        """Read the next page, when the cursor comes near the end of what is read."""
        if self.shown >= self.total:
            return
        app = companion_app(self)
        try:
            sessions = app.store().sessions(**self.filters(), sort=self.order, limit=PAGE, offset=self.shown)
        except CompanionError as exc:
            self.query_one("#history-status", Static).update(plain(exc, tone(self, "error", "bold")))
            return
        self._add(sessions)
        self._say()

    def _add(self, sessions: list[Any]) -> None:
        table = self.query_one(DataTable)
        sessions = under_parents(sessions)
        short = dict(self.column_layout).get("started") == 12
        for s in sessions:
            end = s.ended or s.last_activity
            cells = {
                "id": str(s.id),
                "game": game_title(s.game),
                "started": local_time(s.started, short),
                "duration": duration_text(s.started, end),
                "status": STATUS_SHOWN.get(s.status, s.status),
                "steps": str(s.steps),
                # A str cell is read as markup; a summary may be an import's text. A branch says
                # where it came from first.
                "summary": plain((f"⑂ {s.branch_of} · " if s.branch_of else "") + s.summary),
            }
            # The result wraps in its column (height None: as many lines as it takes).
            table.add_row(*(cells[key] for key, _ in self.column_layout), key=str(s.id), height=None)
            self.statuses[s.id] = s.status
        self.shown += len(sessions)
        self.refresh_bindings()

    def _say(self) -> None:
        said = dict(ORDERS)[self.order]
        self.query_one("#history-help", Static).update(
            Text.assemble(
                ("Sorted by ", "dim"),
                (said, "bold"),
                (
                    (
                        " (s: another order, or click a column).  Enter reads a session step by step; "
                        "r resumes an unfinished or abandoned one; delete removes an abandoned one; "
                        "/ searches."
                    ),
                    "dim",
                ),
            )
        )
        f = self.filters()
        if self.total == 0:
            filtered = f["game"] or f["status"] or f["search"].strip()
            text = (
                "No session matches these filters."
                if filtered
                else "No sessions yet: start one from the home screen."
            )
        else:
            text = f"{self.total:,} session{'s' if self.total != 1 else ''}"
            if self.shown < self.total:
                text += f" (the first {self.shown:,} read; more as you scroll down)"
            text += "."
        self.query_one("#history-status", Static).update(text)

    # -- events ------------------------------------------------------------------------

    @on(Select.Changed)
    def _filter_changed(self) -> None:
        if self.is_mounted and self.loaded:
            self.load()

    @on(Input.Changed, "#filter-search")
    def _search_changed(self) -> None:
        self.load()

    @on(Input.Submitted, "#filter-search")
    def _search_done(self) -> None:
        self.query_one(DataTable).focus()

    @on(DataTable.RowHighlighted, "#sessions-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.cursor_row >= self.shown - NEAR_END:
            self._more()
        self.refresh_bindings()  # delete is offered on an abandoned session's row only

    @on(DataTable.HeaderSelected, "#sessions-table")
    def _header(self, event: DataTable.HeaderSelected) -> None:
        order = COLUMN_ORDER.get(str(event.column_key.value), "recent")
        self.order = "recent" if order == self.order else order
        self.load()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        if event.data_table.id == "sessions-table":
            self.action_open_log()

    def _selected(self) -> int | None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        return int(str(key.value))

    # -- actions -----------------------------------------------------------------------

    def action_open_log(self) -> None:
        session_id = self._selected()
        if session_id is not None:
            self.app.push_screen(SessionLogScreen(session_id))

    def action_resume(self) -> None:
        session_id = self._selected()
        if session_id is not None:
            companion_app(self).resume_session(session_id)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "delete_session":
            # Only a session put away can be deleted: a game in play or finished is a record
            # the player did not ask to lose. Elsewhere the key is not in the footer, which is
            # full at 80 columns.
            try:
                session_id = self._selected()
            except NoMatches:  # asked before the table is composed
                return False
            return session_id is not None and self.statuses.get(session_id) == "abandoned"
        return True

    def action_delete_session(self) -> None:
        """Ask, naming the session, then delete it and its whole log."""
        session_id = self._selected()
        if session_id is None or self.statuses.get(session_id) != "abandoned":
            return

        def done(name: str) -> None:
            self.load(keep_cursor=True)
            notify_plain(self, f"Deleted {name}.")

        ask_then(
            self,
            session_id,
            lambda name: delete_question(name, session_id),
            lambda store, sid: store.delete_session(sid),
            done,
        )

    def action_sort(self) -> None:
        names = [name for name, _ in ORDERS]
        self.order = names[(names.index(self.order) + 1) % len(names)]
        self.load()

    def action_search(self) -> None:
        self.query_one("#filter-search", Input).focus()

    def action_statistics(self) -> None:
        from screens.review import StatisticsScreen

        self.app.push_screen(StatisticsScreen(self.filters()["game"]))

    def action_luck(self) -> None:
        from screens.review import LuckScreen

        self.app.push_screen(LuckScreen(self.filters()["game"]))

    def action_story(self) -> None:
        """The selected session's story chart (Reconquista); for another game, one sentence."""
        session_id = self._selected()
        if session_id is not None:
            open_story(self, session_id)

    def action_back(self) -> None:
        self.app.pop_screen()


def open_story(screen: Screen[Any], session_id: int) -> None:
    """Open a session's story chart, or say in one sentence why it has none."""
    app = companion_app(screen)
    try:
        game = app.store().session(session_id).game
    except CompanionError as exc:
        notify_plain(screen, str(exc), severity="error")
        return
    story = has_story(game)
    if story is not None:
        app.push_screen(games.named(story)(session_id))
    else:
        with_story = [e.title for e in games.GAMES if e.story]
        screen.notify(
            f"There is no story chart for {games.title(game)}: only {' and '.join(with_story) or 'no game'} "
            "sessions have one.",
            severity="warning",
        )


def has_story(game_id: str) -> str | None:
    """The story chart screen of ``game_id``'s sessions, as its registry entry names it."""
    return next((e.story for e in games.GAMES if e.id == game_id), None)


class LogTable(DataTable[Any]):
    """The log's table: home and end go to the first and last step of the game, not only of
    the rows read so far."""

    BINDINGS = [
        Binding("home", "screen.step(-1000000)", show=False),
        Binding("end", "screen.step(1000000)", show=False),
    ]

    def on_resize(self) -> None:
        # The columns follow the log's width (the terminal's, and the table at the step beside it).
        screen = self.screen
        if isinstance(screen, SessionLogScreen) and screen.loaded:
            self.call_after_refresh(screen.fit_log)


class SessionLogScreen(Screen[None]):
    """One session's log, turn by turn and phase by phase, beside the table as it stood at
    the highlighted step: step back and forward with the cursor, jump to a turn with t."""

    HELP = "A session's log: the game step by step, with the table as it stood at the step under the cursor and the rule it followed."

    CSS_PATH = "history.tcss"

    BINDINGS = [
        Binding("v", "toggle_view", "Log / table", id="log.view"),
        Binding("left_square_bracket", "phase(-1)", "Previous phase", id="log.previous_phase"),
        Binding("right_square_bracket", "phase(1)", "Next phase", id="log.next_phase"),
        Binding("t", "jump", "Go to turn", id="log.turn"),
        Binding("f2,question_mark", "rule", "Rule", id="game.rule"),
        Binding("r", "resume", "Resume", id="history.resume"),
        Binding("g", "story", "Story", id="history.story"),
        Binding("f8", "test_roll", "Test roll", show=False, id="log.test_roll"),
        Binding("f5", "note", "Note", show=False, id="log.note"),
        Binding("b", "branch", "Branch here", id="log.branch"),
        Binding("n", "bookmark(1)", "Next note", id="log.next_note"),
        Binding("N", "bookmark(-1)", "Previous note", show=False, id="log.previous_note"),
        Binding("escape", "back", "Back", id="history.back"),
        # With the log hidden (v), the arrows still step through the game.
        Binding("up", "step(-1)", show=False),
        Binding("down", "step(1)", show=False),
        Binding("pageup", "step(-10)", show=False),
        Binding("pagedown", "step(10)", show=False),
        Binding("home", "step(-1000000)", show=False),
        Binding("end", "step(1000000)", show=False),
        # The table at the step can be taller than a small terminal (the Reconquista board is).
        Binding("shift+down", "scroll_state(3)", show=False),
        Binding("shift+up", "scroll_state(-3)", show=False),
    ]
    #: From this width the log and the table at the step are shown side by side (history.tcss):
    #: Textual sets the class as the width changes.
    WIDE = 165
    HORIZONTAL_BREAKPOINTS = [(0, "-normal"), (WIDE, "-wide")]

    def __init__(self, session_id: int) -> None:
        super().__init__()
        self.session_id = session_id
        self.steps: list[Step] = []
        self.notes: dict[int, str] = {}  # step (0 first) -> the player's note: the bookmarks
        self.hint = ""  # what the status line says while no noted step is highlighted
        self.places: list[tuple[int | None, str | None]] = []  # (turn, phase) each step was asked in
        self.times: list[datetime] = []
        self.info: Any = None
        self.driver: Driver | None = None
        self.at = -1  # the steps the view shows the table after
        self.wanted = 0  # the steps it is to show the table after
        self._view_built = False
        self.fits: int | None = None  # the steps that fit the game's rules, once one is found not to
        self.parting = ""  # the sentence saying where and why they part from the log
        self._pending: Timer | None = None
        self.loaded = False
        self.log_widths: dict[str, int] = {}  # the log's columns now, by key, and their widths
        self.where = ""  # the turn and phase of the step shown

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="log-title")
        with Horizontal(id="log-body"):
            with Vertical(id="log-left"):
                yield LogTable(id="log-table", cursor_type="row", zebra_stripes=True)
                yield Input(
                    placeholder="turn (or hand) number, or a note's words; Enter to go",
                    id="log-jump",
                    max_length=TYPED_MAX,
                )
            yield VerticalScroll(id="log-state", can_focus=False)
        yield Static(id="log-status")
        yield KeysFooter()

    def on_resize(self) -> None:
        self.show_step(self.wanted)
        if self.loaded:
            self.call_after_refresh(self.fit_log)

    def fit_log(self, width: int | None = None) -> None:
        """Size the log's columns to the room it has (``width``: the log's, as laid out unless
        given): the question takes what the others leave (a narrow log leaves out the clock
        times), so that the answer and its source stay on screen at every width and a wide one
        reads more of each question."""
        width = self.query_one(DataTable).size.width if width is None else width
        if width <= 0:  # the log is hidden (v): it is fitted when shown again
            return
        steps, places = self.steps, self.places
        answer_width = ANSWER_WIDTH if width >= LOG_NARROW else ANSWER_WIDTH // 2
        widths = {
            # A noted step: '12 ✎' (the room only where the session has notes).
            "step": max(4, len(str(len(steps))) + (2 if self.notes else 0)),
            "turn": 4,
            "phase": max([5, *(len(p or "") for _, p in places)]),
            "answer": max([6, *(len(answered(s, answer_width)) for s in steps)]),
            "source": max([6, *(len(source_text(s)) for s in steps)]),
            "time": 8,
        }
        if width < LOG_NARROW:
            del widths["time"]
        pad = 2 * self.query_one(DataTable).cell_padding
        rest = width - sum(w + pad for w in widths.values()) - pad - 2  # 2: the scrollbar
        longest = max([ASKED_WIDTH, *(len(asked(s.prompt, ASKED_MAX)) for s in steps)])
        widths["prompt"] = max(ASKED_WIDTH, min(rest, longest))
        layout = {key: widths[key] for _, key in LOG_COLUMNS if key in widths}
        if layout == self.log_widths:
            return
        self.log_widths = layout
        table = self.query_one(DataTable)
        rows, row = table.row_count, table.cursor_row
        table.clear(columns=True)
        for label, key in LOG_COLUMNS:
            if key in layout:
                table.add_column(label, key=key, width=layout[key])
        self._add_rows(max(rows, 1))
        if table.row_count:
            table.move_cursor(row=min(row, table.row_count - 1))

    async def on_mount(self) -> None:
        app = companion_app(self)
        self.sub_title = f"Session {self.session_id}"
        # Laid out for the width it opens at (the breakpoints apply from the first resize on).
        wide = self.app.size.width >= self.WIDE
        self.set_class(wide, "-wide")
        self.set_class(not wide, "-normal")
        self.query_one("#log-jump", Input).display = False
        table = self.query_one(DataTable)
        try:
            store = app.store()
            self.info = info = store.session(self.session_id)
            log = store.log(self.session_id)
            withdrawn = store.answer_count(self.session_id) - len(log.steps)
        except CompanionError as exc:
            self.query_one("#log-status", Static).update(plain(exc, tone(self, "error", "bold")))
            return
        self.steps = log.steps
        self.places = [(ev.turn, ev.phase) for ev in log.events]
        try:
            self.notes = {n.step: n.text for n in store.notes(self.session_id)}
            branches = store.branches(self.session_id)
        except CompanionError:
            self.notes, branches = {}, []  # the log reads without them
        self.refresh_bindings()  # the story chart's key, for a Reconquista session
        # The commitment to the seed made when the session started (companion verify checks an
        # export against it), for a game that rolls dice: its first 12 digits, as a player
        # compares it with the one posted when the game began.
        committed = info.commitment if games.rolls_dice(info.game) else None
        checked = checks_text(*tally((ev.turn, ev.prompt, ev.answer) for ev in log.events))
        self.query_one("#log-title", Static).update(
            Text.assemble(
                (f"#{info.id} {game_title(info.game)}", "bold"),
                f" · {STATUS_SHOWN.get(info.status, info.status)}"
                f" · started {local_time(info.started)} · seed {info.seed}"
                + (f" · commitment {committed[:12]}…" if committed else "")
                + " · ",
                plain(info.summary or "no steps yet"),
                # Where it came from, and the lines played from it (b starts another).
                plain(f" · ⑂ a branch of {info.branch_of}" if info.branch_of else ""),
                plain(f" · {checked}" if checked else ""),
                plain(
                    " · branches: " + ", ".join(f"#{b} at step {k}" if k else f"#{b}" for b, k in branches)
                    if branches
                    else ""
                ),
            )
        )
        self.times = [ev.at for ev in log.events]
        # A screenful to start with, so that it opens at once; more as the cursor moves down.
        # Not laid out yet: the log's width as the styles will make it (history.tcss).
        width = self.app.size.width - 2
        if width >= self.WIDE:
            width -= min(max(88, width * 40 // 100), 120)
        self.fit_log(width)
        self._add_rows(self.app.size.height + 10)
        note = f"{len(self.steps)} steps. ↑ ↓ step through the game; [ ] by phase; t goes to a turn; v shows the table at the step."
        if self.notes:
            note += f" {len(self.notes)} noted (✎): n goes to the next."
        if withdrawn:
            note += f" {withdrawn} answer{'s' if withdrawn != 1 else ''} taken back by undo or correction (kept in the database)."
        self.hint = note
        self.query_one("#log-status", Static).update(note)
        table.focus()
        self.show_step(1 if self.steps else 0)  # the replay starts at the first step
        self.loaded = True
        self.call_after_refresh(self.fit_log)  # once the log's width is known

    def _add_rows(self, upto: int) -> None:
        """Put the log's rows in the table up to ``upto`` (a long game's log is read a page at a
        time, as the cursor moves down, so that it opens at once)."""
        table = self.query_one(DataTable)
        start = table.row_count
        rows = []
        for i in range(start, min(upto, len(self.steps))):
            (turn, phase), step = self.places[i], self.steps[i]
            before = self.places[i - 1] if i else (None, None)
            # The turn and phase are written where they change: the log reads turn by turn, phase by phase.
            new_turn = i == 0 or turn != before[0]
            new_phase = new_turn or phase != before[1]
            # Questions, answers and phases are the log's text (labels, names, an import's): as text.
            cells: dict[str, Any] = {
                "step": f"{i + 1} ✎" if i in self.notes else str(i + 1),
                "turn": Text(str(turn), style="bold") if new_turn and turn is not None else "",
                "phase": plain(phase or "", "bold") if new_phase else "",
                "prompt": plain(asked(step.prompt, self.log_widths.get("prompt", ASKED_WIDTH))),
                "answer": plain(answered(step, self.log_widths.get("answer") or ANSWER_WIDTH)),
                "source": plain(source_text(step)),  # a die's name is the player's text
                "time": self.times[i].astimezone().strftime("%H:%M:%S"),
            }
            rows.append([cells[key] for key in self.log_widths])
        if rows:
            table.add_rows(rows)

    # -- the table at a step --------------------------------------------------------------

    @property
    def view_shown(self) -> bool:
        return self.has_class("-wide") or self.has_class("-board")

    def show_step(self, count: int) -> None:
        """Show the table after the first ``count`` steps (``count`` 0: before the first).

        Replayed only while the view is on screen: a narrow terminal reading the log
        pays nothing for it until v shows it; a wide one shows the log first.
        """
        self.wanted = count
        if self.view_shown:
            # After the next repaint: the log is on screen first, the board follows.
            self.call_after_refresh(self._draw)

    async def _draw(self) -> None:
        from screens.replay_views import StateView, view_for

        panel = self.query_one("#log-state")
        if not self._view_built:
            self._view_built = True
            try:
                game = games.playing(self.info.game, self.info.rules_version)
                self.driver = Driver(game, self.info.seed, self.info.config)
            except CompanionError as exc:
                await panel.mount(Static(plain(exc, tone(self, "error", "bold"))))
                return
            parting = Static(id="log-parting")
            parting.display = False
            await panel.mount(parting)
            rule = Static(id="log-rule")
            rule.display = False
            await panel.mount(rule)
            await panel.mount(view_for(self.info.game, self.driver))
        count = self.wanted
        if self.driver is None or count == self.at:
            return
        # Past the step where the log parts from the game's rules, the table stays where they part.
        target = count if self.fits is None else min(count, self.fits)
        try:
            if target < len(self.driver.steps):
                self.driver = Driver.resume(
                    self.driver.game, self.info.seed, self.info.config, self.steps[:target]
                )
            else:
                divergence = self.driver.feed_fitting(self.steps[len(self.driver.steps) : target])
                if divergence is not None:
                    self.fits = divergence.step
                    self.parting = self._parting(divergence)
        except CompanionError as exc:
            self.query_one("#log-status", Static).update(plain(exc, tone(self, "error", "bold")))
            return
        self.at = count
        shown = len(self.driver.steps)
        self.query_one(StateView).show(self.driver)
        turn, phase = self.driver.game.where(self.driver.state)
        where = " · ".join(x for x in (f"turn {turn}" if turn is not None else "", phase or "") if x)
        if count > shown:
            panel.border_title = f"After step {shown} of {len(self.steps)}: the rules part from the log here"
        elif count:
            panel.border_title = f"After step {count} of {len(self.steps)}"
        else:
            panel.border_title = "Before the first step"
        self.where = where
        panel.border_subtitle = where
        self.call_after_refresh(self._scroll_hint)
        parting_view = self.query_one("#log-parting", Static)
        parting_view.display = count > shown
        if count > shown:
            # plain: it quotes the logged answers
            parting_view.update(plain(self.parting, tone(self, "warning", "bold")))
        # The rule the step shown follows, from the prompt as the game asks it now (a step
        # logged before prompts cited rules gets its citation on replay).
        rule_view = self.query_one("#log-rule", Static)
        cited = rule_line(self.driver.steps[shown - 1].prompt) if shown else Text()
        rule_view.display = bool(cited.plain)
        rule_view.update(cited)

    def _scroll_hint(self) -> None:
        """Where the table at the step is taller than its panel, its border says how to scroll."""
        panel = self.query_one("#log-state", VerticalScroll)
        more = panel.max_scroll_y > 0
        panel.border_subtitle = " · ".join(x for x in (self.where, "shift+↑↓ scrolls" if more else "") if x)

    def action_scroll_state(self, lines: int) -> None:
        panel = self.query_one("#log-state", VerticalScroll)
        if panel.display:
            panel.scroll_relative(y=lines, animate=False)

    def rule_of_the_moment(self) -> tuple[str, Text] | None:
        """The step under the cursor (as replayed, when it has been) and its rule: for the rule
        key and F1's help (screens/help.py)."""
        row = self.query_one(DataTable).cursor_row
        if not 0 <= row < len(self.steps):
            return None
        replayed = self.driver.steps if self.driver is not None else []
        step = replayed[row] if row < len(replayed) else self.steps[row]
        return f"The rule behind step {row + 1}", rule_text(step.prompt, step)

    def action_rule(self) -> None:
        """The rule and the reason of the step under the cursor."""
        moment = self.rule_of_the_moment()
        if moment is not None:
            self.app.push_screen(MessageDialog(*moment))

    def _parting(self, divergence: ReplayDivergence) -> str:
        """One sentence: at which step and why the game's rules part from the logged steps."""
        text = f"From step {divergence.step + 1} {departure(divergence)}"
        recorded, current = self.info.rules_version, self.driver.game.rules_version if self.driver else 0
        if recorded != current:
            text += f" (this session was recorded under rules version {recorded}; the app plays version {current})"
        return f"{text}, so the table is shown as it stood after step {divergence.step}."

    @on(DataTable.RowHighlighted, "#log-table")
    def _highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.cursor_row >= event.data_table.row_count - NEAR_END:
            self._add_rows(event.data_table.row_count + PAGE)
        # Holding an arrow key moves many rows: replay once the cursor rests.
        if self._pending is not None:
            self._pending.stop()
        row = event.cursor_row
        self._pending = self.set_timer(0.03, lambda: self.show_step(row + 1))
        # A noted step shows its note where the hint was; the next step, the hint again.
        said = self.notes.get(row)
        self.query_one("#log-status", Static).update(
            note_entry(self, f"step {row + 1}: {said}") if said is not None else self.hint
        )

    # -- moving ---------------------------------------------------------------------------

    def _go(self, index: int) -> None:
        self._add_rows(index + PAGE)
        table = self.query_one(DataTable)
        table.move_cursor(row=index)
        if table.display:
            table.focus()

    def action_step(self, delta: int) -> None:
        if self.steps:
            row = self.query_one(DataTable).cursor_row
            self._go(max(0, min(len(self.steps) - 1, row + delta)))

    def action_toggle_view(self) -> None:
        """Narrow terminals: the log or the table at the step, one at a time (wide ones show both)."""
        self.toggle_class("-board")
        self.show_step(self.wanted)
        table = self.query_one(DataTable)
        # The hidden log must not take the focus back: the screen's arrows step then.
        table.can_focus = not self.has_class("-board")
        if table.can_focus:
            table.focus()
            self.call_after_refresh(self.fit_log)  # the terminal may have changed size meanwhile
        else:
            self.set_focus(None)

    def action_phase(self, direction: int) -> None:
        """To the first step of the next (or this/the previous) phase."""
        if not self.steps:
            return
        row = self.query_one(DataTable).cursor_row
        at = self.places
        starts = [i for i in range(len(at)) if i == 0 or at[i] != at[i - 1]]
        if direction > 0:
            target = next((i for i in starts if i > row), len(at) - 1)
        else:
            target = next((i for i in reversed(starts) if i < row), 0)
        self._go(target)

    def action_jump(self) -> None:
        field = self.query_one("#log-jump", Input)
        field.display = True
        field.value = ""
        field.focus()

    @on(Input.Submitted, "#log-jump")
    def _jump(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        turns = sorted({t for t, _ in self.places if t is not None})
        if text and not text.isdigit():
            # Words: the next noted step (after the one highlighted, then from the top) whose note has them.
            row = self.query_one(DataTable).cursor_row
            found = sorted(k for k, said in self.notes.items() if text.casefold() in said.casefold())
            if not found:
                notify_plain(self, f"No note of this session has '{text[:40]}'.", severity="error")
                return
            self._go(next((k for k in found if k > row), found[0]))
        elif not turns:
            self.notify("This session has no turns to go to.", severity="warning")
        # A turn has a few digits: a longer text is not one, and int() is not asked to read it.
        elif not (text.isascii() and text.isdigit() and len(text) <= 9 and int(text) in turns):
            notify_plain(
                self,
                f"'{text}' is not a turn of this session; its turns are {turns[0]} to {turns[-1]}.",
                severity="error",
            )
            return
        else:
            self._go(next(i for i, (t, _) in enumerate(self.places) if t == int(text)))
        event.input.display = False
        self.query_one(DataTable).focus()

    def action_branch(self) -> None:
        """A new session from this one's log up to the step highlighted."""
        index = self.query_one(DataTable).cursor_row
        if not self.loaded or not 0 <= index < len(self.steps):
            return
        turn, phase = self.places[index]
        where = ", ".join(x for x in (f"turn {turn}" if turn is not None else "", phase or "") if x)
        branch_here(self, self.session_id, index + 1, where)

    def action_bookmark(self, delta: int) -> None:
        """To the next noted step after the one highlighted (``delta`` 1), or the one before (-1)."""
        row = self.query_one(DataTable).cursor_row
        after = sorted(k for k in self.notes if (k > row if delta > 0 else k < row))
        if not after:
            where = "after" if delta > 0 else "before"
            self.query_one("#log-status", Static).update(f"No note {where} step {row + 1}.")
            return
        self._go(after[0] if delta > 0 else after[-1])

    def action_note(self) -> None:
        """Write, change or take off the note on the step highlighted."""
        table = self.query_one(DataTable)
        index = table.cursor_row
        if not self.loaded or not 0 <= index < len(self.steps):
            return
        store = companion_app(self).store()

        def done(result: Any) -> None:
            if result is None:
                return
            what, said = result
            try:
                if what == "remove":
                    store.remove_note(self.session_id, index)
                    self.notes.pop(index, None)
                else:
                    self.notes[index] = store.set_note(self.session_id, index, said).text
            except (ValueError, CompanionError) as exc:
                self.query_one("#log-status", Static).update(plain(exc, tone(self, "error", "bold")))
                return
            step_column = list(self.log_widths).index("step")
            table.update_cell_at(
                Coordinate(index, step_column), f"{index + 1} ✎" if index in self.notes else str(index + 1)
            )
            self.query_one("#log-status", Static).update(
                note_entry(self, f"step {index + 1}: {self.notes[index]}")
                if index in self.notes
                else f"Took the note off step {index + 1}."
            )

        self.app.push_screen(NoteDialog(f"step {index + 1}", self.notes.get(index)), done)

    def action_test_roll(self) -> None:
        """Mark the roll highlighted as a test roll, which the luck ledger leaves out, or take
        the mark off (a second press); a step that is not a roll is said so in one sentence."""
        table = self.query_one(DataTable)
        index = table.cursor_row
        status = self.query_one("#log-status", Static)
        if not self.loaded or not 0 <= index < len(self.steps):
            return
        step = self.steps[index]
        try:
            companion_app(self).store().mark_test(self.session_id, index, not step.test)
        except CompanionError as exc:
            status.update(plain(exc, tone(self, "error", "bold")))
            return
        self.steps[index] = marked = Step(step.prompt, step.answer, step.source, step.die, not step.test)
        table.update_cell_at(
            Coordinate(index, list(self.log_widths).index("source")), plain(source_text(marked))
        )
        status.update(plain(test_mark_text(index, marked.test)))

    def action_resume(self) -> None:
        companion_app(self).resume_session(self.session_id)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The story chart is offered for a Reconquista session only.
        if action == "story":
            return self.info is not None and has_story(self.info.game) is not None
        return True

    def action_story(self) -> None:
        open_story(self, self.session_id)

    def action_back(self) -> None:
        field = self.query_one("#log-jump", Input)
        if field.display:
            field.display = False
            self.query_one(DataTable).focus()
            return
        self.app.pop_screen()
