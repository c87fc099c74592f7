"""History: every session in a table; open one to read its log, or resume it."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Header, Static

from companion.errors import CompanionError
from companion.games import GAMES


def game_title(game_id: str) -> str:
    return next((g.title for g in GAMES if g.id == game_id), game_id)


#: Longer questions are cut in the log table, so that the answer column stays on screen.
ASKED_WIDTH = 48


def asked(prompt: Any) -> str:
    """The question of a step as the log lists it: a long list of choices is left out (a
    Simancas turn offers over a hundred; the answer says which was taken), and the text is
    cut at ASKED_WIDTH."""
    text = prompt.describe()
    if prompt.kind == "choose" and len(prompt.options) > 6:
        text = prompt.why or "Choose"
    return text if len(text) <= ASKED_WIDTH else text[: ASKED_WIDTH - 1] + "…"


def local_time(dt: Any) -> str:
    return str(dt.astimezone().strftime("%Y-%m-%d %H:%M"))


class HistoryScreen(Screen[None]):
    """The table of sessions, most recent activity first."""

    BINDINGS = [
        Binding("enter", "open_log", "Read log"),
        Binding("r", "resume", "Resume"),
        Binding("escape", "back", "Back"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static("Sessions, most recent first. Enter reads a session's log; r resumes an unfinished one.",
                     id="history-help")
        yield DataTable(id="sessions-table", cursor_type="row", zebra_stripes=True)
        yield Static(id="history-status")
        yield Footer()

    def on_mount(self) -> None:
        self.sub_title = "History"
        table = self.query_one(DataTable)
        for label, key in [
            ("#", "id"),
            ("Game", "game"),
            ("Started", "started"),
            ("Last activity", "last"),
            ("Status", "status"),
            ("Steps", "steps"),
            ("Summary", "summary"),
        ]:
            table.add_column(label, key=key)
        self.load()
        table.focus()

    def on_screen_resume(self) -> None:
        self.load()

    def load(self) -> None:
        app: Any = self.app
        table = self.query_one(DataTable)
        status = self.query_one("#history-status", Static)
        try:
            sessions = app.store().sessions()
        except CompanionError as exc:
            status.update(f"[b red]{exc}[/]")
            return
        table.clear()
        for s in sessions:
            table.add_row(
                str(s.id),
                game_title(s.game),
                local_time(s.started),
                local_time(s.last_activity),
                s.status,
                str(s.steps),
                s.summary,
                key=str(s.id),
            )
        status.update(f"{len(sessions)} session{'s' if len(sessions) != 1 else ''}." if sessions
                      else "No sessions yet: start one from the home screen.")

    def _selected(self) -> int | None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        return int(str(key.value))

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        self.action_open_log()

    def action_open_log(self) -> None:
        session_id = self._selected()
        if session_id is not None:
            self.app.push_screen(SessionLogScreen(session_id))

    def action_resume(self) -> None:
        session_id = self._selected()
        if session_id is not None:
            self.app.resume_session(session_id)  # type: ignore[attr-defined]

    def action_back(self) -> None:
        self.app.pop_screen()


class SessionLogScreen(Screen[None]):
    """The ordered log of one session: every prompt, its answer and where the answer came from."""

    BINDINGS = [
        Binding("r", "resume", "Resume"),
        Binding("escape", "back", "Back"),
    ]

    def __init__(self, session_id: int) -> None:
        super().__init__()
        self.session_id = session_id

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="log-title")
        yield DataTable(id="log-table", cursor_type="row", zebra_stripes=True)
        yield Static(id="log-status")
        yield Footer()

    def on_mount(self) -> None:
        app: Any = self.app
        self.sub_title = f"Session {self.session_id}"
        table = self.query_one(DataTable)
        for label, key in [
            ("Step", "step"),
            ("Turn", "turn"),
            ("Phase", "phase"),
            ("Asked", "prompt"),
            ("Answer", "answer"),
            ("Source", "source"),
            ("Time", "time"),
        ]:
            table.add_column(label, key=key)
        try:
            store = app.store()
            info = store.session(self.session_id)
            log = store.log(self.session_id)
            withdrawn = sum(1 for e in store.events(self.session_id) if e.kind == "answer") - len(log.steps)
        except CompanionError as exc:
            self.query_one("#log-status", Static).update(f"[b red]{exc}[/]")
            return
        self.query_one("#log-title", Static).update(
            f"[b]#{info.id} {game_title(info.game)}[/b] · {info.status} · started {local_time(info.started)}"
            f" · seed {info.seed} · {info.summary or 'no steps yet'}"
        )
        for i, (ev, step) in enumerate(zip(log.events, log.steps, strict=True), start=1):
            answer = step.answer
            shown = "done" if answer is None else " ".join(map(str, answer)) if isinstance(answer, list) else answer
            table.add_row(
                str(i),
                "" if ev.turn is None else str(ev.turn),
                ev.phase or "",
                asked(step.prompt),
                str(shown),
                step.source,
                ev.at.astimezone().strftime("%H:%M:%S"),
            )
        note = f"{len(log.steps)} steps."
        if withdrawn:
            note += f" {withdrawn} answer{'s' if withdrawn != 1 else ''} taken back by undo or correction (kept in the database)."
        self.query_one("#log-status", Static).update(note)
        table.focus()

    def action_resume(self) -> None:
        self.app.resume_session(self.session_id)  # type: ignore[attr-defined]

    def action_back(self) -> None:
        self.app.pop_screen()
