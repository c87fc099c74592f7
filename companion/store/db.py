"""The store: sessions and their logs in SQLite, through SQLModel.

Opening runs the standard-library checks of ``preflight`` and then the Alembic
migrations up to the head. Every answered prompt is committed in one short
transaction (event row plus the session's summary row) before the next prompt
is shown; WAL with synchronous=NORMAL keeps that well under a millisecond.
"""

from __future__ import annotations

import dataclasses
import json
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    URL,
    Connection,
    CursorResult,
    Engine,
    bindparam,
    case,
    delete,
    event,
    func,
    insert,
    select,
    text,
    type_coerce,
    update,
)
from sqlalchemy.exc import DBAPIError, IntegrityError
from sqlalchemy.pool import StaticPool
from sqlalchemy.types import NullType
from sqlmodel import create_engine

from companion.branches import is_branch_of
from companion.dice import (
    DICE_MODES,
    chosen_dice_mode,
    commitment,
    die_name,
    is_die_name,
    is_nonce,
    new_nonce,
)
from companion.driver import Record, Step, fact_key, not_a_roll, step_key
from companion.errors import StoreError
from companion.notes import Note, is_note, note_text
from companion.prompts import prompt_from_dict
from companion.store import preflight
from companion.store.models import EventRow, NoteRow, RollMarkRow, SessionRow
from companion.store.standing import KINDS, REWIND, Standing
from companion.store.standing import register as register_standing
from companion.store.watch import Watch, new_ident

S = SessionRow.__table__  # type: ignore[attr-defined]
E = EventRow.__table__  # type: ignore[attr-defined]
M = RollMarkRow.__table__  # type: ignore[attr-defined]
N = NoteRow.__table__  # type: ignore[attr-defined]
# Built once: SQLAlchemy then reuses their compiled form on every commit.
INSERT_EVENT = insert(E)
UPDATE_SESSION = update(S).where(S.c.id == bindparam("session"))
_MIGRATING = threading.Lock()
EVENTS_OF = (
    select(
        E.c.seq,
        E.c.step,
        E.c.kind,
        E.c.turn,
        E.c.phase,
        E.c.prompt,
        E.c.answer,
        E.c.source,
        E.c.digest,
        # As stored: a time that is not one (damaged by hand) is found here, not in SQLAlchemy.
        type_coerce(E.c.at, NullType()),
        type_coerce(E.c.die, NullType()),
    )
    .where(E.c.session_id == bindparam("session"))
    .order_by(E.c.seq)
)
#: The rolls of a session marked as test rolls now: the newest mark of each roll says.
TESTS_OF = text(
    "SELECT seq FROM roll_mark AS m WHERE session_id = :session AND test "
    "AND id = (SELECT MAX(id) FROM roll_mark WHERE session_id = m.session_id AND seq = m.seq)"
)


def now() -> datetime:
    """The current time, in UTC."""
    return datetime.now(UTC)


def _new_id(result: CursorResult[Any]) -> int:
    """The id of the one row an INSERT just wrote."""
    key = result.inserted_primary_key
    assert key is not None, "an INSERT of one row reports its key"
    return int(key[0])


@dataclass(frozen=True)
class SessionInfo:
    id: int
    game: str
    seed: int
    dice_mode: str
    status: str
    started: datetime
    last_activity: datetime
    ended: datetime | None
    steps: int
    summary: str
    config: dict[str, Any]
    rules_version: int = 1  # the version of the game's rules its log was recorded under
    #: The nonce of the commitment to the seed shown when the session started (dice.commitment);
    #: None in a session recorded before commitments, or whose nonce cannot be read.
    dice_nonce: str | None = None
    #: The name of the dice the player rolls on the table now (dice.die_name); None: unnamed.
    die: str | None = None
    #: A branch: the session it was branched from here (None once imported elsewhere), the steps
    #: of its log it took, and the same in words ("session 12 at step 40"); None otherwise.
    parent_id: int | None = None
    branch_step: int | None = None
    branch_of: str | None = None
    #: A damaged row: the sentence that names the session and its broken fields (the fields
    #: themselves then hold neutral values, so that a listing still shows the row).
    damaged: str | None = None

    def to_json(self) -> dict[str, Any]:
        return (
            {
                "id": self.id,
                "game": self.game,
                "seed": self.seed,
                "dice_mode": self.dice_mode,
                "status": self.status,
                "started": _iso(self.started),
                "last_activity": _iso(self.last_activity),
                "ended": _iso(self.ended) if self.ended else None,
                "steps": self.steps,
                "summary": self.summary,
                "rules_version": self.rules_version,
                "commitment": self.commitment,
                "die": self.die,
            }
            | (
                {"branch_of": self.branch_of, "parent_id": self.parent_id, "branch_step": self.branch_step}
                if self.branch_of
                else {}
            )
            | ({"damaged": self.damaged} if self.damaged else {})
        )

    @property
    def commitment(self) -> str | None:
        """The commitment to the seed shown when the session started; None without a nonce."""
        return None if self.dice_nonce is None else commitment(self.seed, self.dice_nonce)


@dataclass(frozen=True)
class EventInfo:
    """One row of the event table as read back."""

    seq: int
    step: int
    kind: str
    turn: int | None
    phase: str | None
    prompt: dict[str, Any] | None
    answer: Any
    source: str | None
    digest: str | None
    at: datetime
    die: str | None = None  # a roll from the table: the name of the dice that rolled it
    test: bool = False  # a roll marked as a test roll (the newest roll_mark row of it)

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "step": self.step,
            "kind": self.kind,
            "turn": self.turn,
            "phase": self.phase,
            "prompt": self.prompt,
            "answer": self.answer,
            "source": self.source,
            "at": _iso(self.at),
        }


@dataclass(frozen=True)
class Log:
    """The effective log of a session: the steps that stand, with their state digests."""

    steps: list[Step]
    digests: list[str]
    events: list[EventInfo]  # the effective steps' rows, in step order
    #: What undos took back and redo may answer again, the last undo's steps last (the rule of
    #: ``Driver.redo_groups``, read from the rows).
    redo: list[list[Step]] = field(default_factory=list)
    #: The steps the last correction withdrew after the one it replaced, not given again since
    #: (``Driver.ahead``, by the same rule; the driver keeps the facts among them).
    ahead: list[Step] = field(default_factory=list)


def _step(ev: EventInfo) -> Step:
    """The step an answer row logs; ValueError if its prompt cannot be read."""
    return Step(prompt_from_dict(ev.prompt or {}), ev.answer, ev.source or "", ev.die, ev.test)


def _event_key(ev: EventInfo) -> str:
    return step_key(ev.prompt or {}, ev.answer, ev.source)


def _fact_key(ev: EventInfo) -> str:
    return fact_key(str((ev.prompt or {}).get("topic", "")), ev.answer, ev.source)


def _iso(dt: datetime) -> str:
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=UTC)
    return dt.isoformat(timespec="seconds")


#: The session columns a listing reads: every one but the state snapshot.
LISTED = [c for c in S.c if c.name != "state"]
#: The same columns as stored, with no conversion by SQLAlchemy: a damaged value (a date that
#: is not a date, text where a number belongs) is found by _session_info, not as a traceback.
RAW_LISTED = [type_coerce(c, NullType()).label(c.name) for c in LISTED]


def _duration() -> Any:
    # Days from the start to the end, or to the last activity of an unfinished session.
    return func.julianday(func.coalesce(S.c.ended, S.c.last_activity)) - func.julianday(S.c.started)


#: The orders a listing can take, by name: each gives the ORDER BY terms (ties: newest id first).
SORTS: dict[str, Callable[[], tuple[Any, ...]]] = {
    "recent": lambda: (S.c.last_activity.desc(),),
    "started": lambda: (S.c.started.desc(),),
    "oldest": lambda: (S.c.started.asc(),),
    "longest": lambda: (_duration().desc(),),
    "steps": lambda: (S.c.steps.desc(),),
    "game": lambda: (S.c.game.asc(), S.c.last_activity.desc()),
    # Unfinished first, then the ones put away (abandoned), then the finished.
    "status": lambda: (
        case({"active": 0, "abandoned": 1}, value=S.c.status, else_=2),
        S.c.last_activity.desc(),
    ),
}


def _filtered(query: Any, game: str | None, status: str | None, search: str) -> Any:
    if game:
        query = query.where(S.c.game == game)
    if status:
        query = query.where(S.c.status == status)
    text = search.strip()
    if text.startswith("#") and text[1:].isdigit() and len(text) < 20:
        return query.where(S.c.id == int(text[1:]))  # '#12' is session 12 and nothing else
    if text:
        escaped = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        match = S.c.summary.ilike(f"%{escaped}%", escape="\\") | S.c.id.in_(_noted(f"%{escaped}%"))
        if text.isdigit() and len(text) < 19:
            match = match | (S.c.id == int(text))
        query = query.where(match)
    return query


def _noted(pattern: str) -> Any:
    """The sessions with a note that stands whose text matches ``pattern`` (ILIKE, escaped)."""
    newest = N.alias("newest")
    latest = (
        select(func.max(newest.c.id))
        .where(newest.c.session_id == N.c.session_id, newest.c.step == N.c.step)
        .scalar_subquery()
    )
    return select(N.c.session_id).where(N.c.text.ilike(pattern, escape="\\"), N.c.id == latest)


EPOCH = datetime(1970, 1, 1)
#: A session is being played ('active', on Home's unfinished list), over ('finished'), or put
#: away by the player before its end ('abandoned': in History only, to resume or delete).
STATUSES = ("active", "finished", "abandoned")
FIELD_WORDS = {
    "game": "game",
    "seed": "seed",
    "dice_mode": "dice mode",
    "status": "status",
    "started": "start time",
    "last_activity": "last activity",
    "ended": "end time",
    "steps": "step count",
    "summary": "summary",
    "config": "settings",
    "rules_version": "rules version",
}


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and -(2**63) <= v < 2**63


def _is_text(v: Any) -> bool:
    return isinstance(v, str)


def _text_or_none(v: Any) -> bool:
    return v is None or isinstance(v, str)


def _is_time(v: Any) -> bool:
    return isinstance(v, (str, datetime))


def _time_or_none(v: Any) -> bool:
    return v is None or _is_time(v)


def _when(v: Any) -> datetime | None:
    """A stored time; ValueError for one that is not a time a session can have: not a date, or
    a year no game was played in (year 1 has no local time to show: the screens' would fail)."""
    if v is None:
        return None
    when = v if isinstance(v, datetime) else datetime.fromisoformat(v)  # ValueError: not a date
    if not 1970 <= when.year <= 9999:
        raise ValueError(f"a time in the year {when.year}")
    return when


def _event_time(v: Any) -> datetime:
    """An event's time as stored, in UTC as the column's type reads it (UTCDateTime); ValueError
    for a time that is not one ('', 'yesterday', the year 1)."""
    when = _when(v) if isinstance(v, (str, datetime)) else None
    if when is None:
        raise ValueError("not a time")
    return when.replace(tzinfo=UTC) if when.tzinfo is None else when.astimezone(UTC)


def _config(v: Any) -> dict[str, Any]:
    loaded = json.loads(v or "{}")
    if not isinstance(loaded, dict):
        raise TypeError("the settings are not a JSON object")
    return loaded


def _branch(parent: Any, step: Any, said: Any) -> dict[str, Any]:
    """A branch's origin as stored, each part checked: a part that is not one is none."""
    return {
        "parent_id": parent if _is_int(parent) and parent > 0 else None,
        "branch_step": step if _is_int(step) and step > 0 else None,
        "branch_of": said if is_branch_of(said) else None,
    }


def _session_info(row: Any) -> SessionInfo:
    """A session row as stored, every field checked: a broken one is named in ``damaged`` and
    replaced by a neutral value (the row still lists)."""
    broken: list[str] = []

    def pick(name: str, ok: Callable[[Any], bool], convert: Callable[[Any], Any], default: Any) -> Any:
        value = getattr(row, name)
        try:
            if ok(value):
                return convert(value)
        except (ValueError, TypeError, OverflowError, RecursionError):  # RecursionError: JSON too deep
            pass
        broken.append(name)
        return default

    info = SessionInfo(
        id=row.id,
        game=pick("game", _is_text, str, "?"),
        seed=pick("seed", _is_int, int, 0),
        dice_mode=pick("dice_mode", _text_or_none, lambda v: v or "", ""),
        status=pick("status", lambda v: v in STATUSES, str, "active"),
        started=pick("started", _is_time, _when, EPOCH),
        last_activity=pick("last_activity", _is_time, _when, EPOCH),
        ended=pick("ended", _time_or_none, _when, None),
        steps=pick("steps", lambda v: _is_int(v) and v >= 0, int, 0),
        summary=pick("summary", _text_or_none, lambda v: v or "", ""),
        config=pick("config", _text_or_none, _config, {}),
        rules_version=pick("rules_version", lambda v: _is_int(v) and v >= 1, int, 1),
        # A nonce that is not one (edited by hand) is no commitment: the session is checked
        # against its seed alone, as one recorded before commitments; nothing else is wrong.
        dice_nonce=row.dice_nonce if is_nonce(row.dice_nonce) else None,
        # Likewise a die's name that is not one: the dice are unnamed from here on.
        die=row.die if is_die_name(row.die) else None,
        # And a branch's origin that cannot be read: an ordinary session.
        **_branch(row.parent_id, row.branch_step, row.branch_of),
    )
    if not broken:
        return info
    named = [FIELD_WORDS[name] for name in broken]
    words = named[0] if len(named) == 1 else ", ".join(named[:-1]) + " and " + named[-1]
    sentence = f"Session {row.id} is damaged (its {words} cannot be read); the other sessions are not."
    return dataclasses.replace(info, summary=f"damaged: {words}", damaged=sentence)


#: Per session: its events, the first and last seq, and whether any was undone or corrected.
LOG_SHAPE = text(
    "SELECT session_id, COUNT(*), MIN(seq), MAX(seq), SUM(kind != 'answer' OR step != seq) "
    "FROM event WHERE session_id IN :ids GROUP BY session_id"
).bindparams(bindparam("ids", expanding=True))


def _with_log_checks(con: Any, infos: list[SessionInfo]) -> list[SessionInfo]:
    """``infos`` with the sessions whose log has a step missing marked damaged: one grouped
    read of the event index per 500 sessions, so that a listing shows it as ``show`` would."""
    shapes: dict[int, tuple[int, int, int, int]] = {}
    ids = [i.id for i in infos if not i.damaged]
    for start in range(0, len(ids), 500):
        for sid, n, first, last, folded in con.execute(LOG_SHAPE, {"ids": ids[start : start + 500]}):
            shapes[sid] = (n, first, last, folded or 0)
    out = []
    for info in infos:
        n, first, last, folded = shapes.get(info.id, (0, 0, -1, 0))
        gap = (first, last) != (0, n - 1) if n else info.steps != 0
        if not gap and not folded and n != info.steps:
            gap = True  # never undone: every event is a step that stands
        if gap and not info.damaged:
            sentence = f"Session {info.id}'s log is damaged (a step is missing); the other sessions are not."
            info = dataclasses.replace(info, summary="damaged: log", damaged=sentence)
        out.append(info)
    return out


class Store:
    """A database of sessions. Every method raises StoreError with one sentence on failure."""

    def __init__(
        self,
        path: str | None = None,
        timeout: float = preflight.DEFAULT_TIMEOUT,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        self.path = preflight.resolve(path)
        self.now = clock or now  # tests and snapshots fix the clock
        revision = preflight.check(self.path, timeout)
        self.engine = self._engine(timeout)
        if revision != preflight.HEAD:
            self._migrate()
        #: Why nothing more is written (the file was replaced under the app), once it happened.
        self.stopped: str | None = None
        self._watch = self._start_watch()

    def _start_watch(self) -> Watch | None:
        """Watch the file opened (store/watch.py), giving the database its id first if it has
        none: set once, in a write of its own, and checkpointed into the file's header."""
        if self.path == ":memory:":
            return None
        with self._guard(), self.engine.connect() as con:
            raw = con.connection.dbapi_connection
            assert raw is not None
            previous = raw.isolation_level
            raw.isolation_level = None  # the pragmas and the BEGIN as written
            try:
                ident = int(con.exec_driver_sql("PRAGMA user_version").scalar() or 0)
                if not ident:
                    # Two apps opening a new database at once: the write lock decides which
                    # id it gets, and the other reads it.
                    con.exec_driver_sql("BEGIN IMMEDIATE")
                    ident = int(con.exec_driver_sql("PRAGMA user_version").scalar() or 0)
                    if not ident:
                        ident = new_ident()
                        con.exec_driver_sql(f"PRAGMA user_version = {ident}")
                    con.exec_driver_sql("COMMIT")
                    con.exec_driver_sql("PRAGMA wal_checkpoint(PASSIVE)")
            finally:
                raw.isolation_level = previous
        return Watch.start(self.path, ident)

    @contextmanager
    def _writing(self) -> Iterator[Connection]:
        """A transaction to write in, once the file is known to be the one opened: a file moved,
        deleted or copied over since (a restore, a sync tool) stops every write (``_stop``)."""
        if self.stopped is None and self._watch is not None and (what := self._watch.check()):
            self._stop(what)
        if self.stopped is not None:
            raise StoreError(self.stopped)
        with self._guard(), self.engine.begin() as con:
            yield con

    def _stop(self, what: str) -> None:
        """The file at ``path`` is no longer the database opened (``what``: "replaced", "gone",
        "overwritten"): keep what each side has, and write nothing more."""
        import shutil

        stamp = datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
        kept = f"{self.path}.kept-{stamp}.db"
        if what in ("replaced", "gone"):
            # The app still reads the file it opened: a copy of it is kept beside the path, and
            # its journal emptied into it, so that the file moved in opens with no journal of
            # another database to replay over it.
            try:
                with self.engine.connect() as con:
                    con.exec_driver_sql("VACUUM INTO ?", (kept,))
                    con.exec_driver_sql("PRAGMA wal_checkpoint(TRUNCATE)")
                saved = f"the games as the app had them are kept in {kept}"
            except (DBAPIError, OSError):
                saved = "the games played since it was opened could not be kept"
            how = "replaced (a restore or a sync tool)" if what == "replaced" else "moved or deleted"
            self.stopped = (
                f"The database {self.path} was {how} while the app was running, so nothing more "
                f"is written to it: {saved}; open it with --db to carry on."
            )
            return
        # Copied over in place: the file put there is kept whole before anything else can touch
        # it; then the app's connections are closed (SQLite empties its journal into the file as
        # the last one closes: the app's games since the last checkpoint, mixed into a database
        # they do not fit), and the file is put back as it was put there.
        try:
            shutil.copy2(self.path, kept)
            self.engine.dispose()
            shutil.copy2(kept, self.path)
            saved = (
                f"the file put there is left as it was put (a copy is kept in {kept}), without what "
                "the app wrote since that copy was made"
            )
        except OSError:
            saved = "the file put there could not be copied aside"
        self.stopped = (
            f"The database {self.path} was overwritten while the app was running (a restore or a "
            f"sync tool), so nothing more is written to it: {saved}."
        )

    def _engine(self, timeout: float) -> Engine:
        if self.path == ":memory:":
            engine = create_engine(
                "sqlite://", connect_args={"check_same_thread": False}, poolclass=StaticPool
            )
        else:
            # The URL built from the path, not written as text: '%', '?' or '#' in a file name
            # would otherwise be read as URL syntax and another file opened.
            engine = create_engine(
                URL.create("sqlite", database=self.path),
                connect_args={"timeout": timeout, "check_same_thread": False},
            )

        @event.listens_for(engine, "connect")
        def _pragmas(dbapi_con: Any, _record: Any) -> None:
            cur = dbapi_con.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()
            register_standing(dbapi_con)

        return engine

    def _migrate(self) -> None:
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", "companion.store:migrations")
        # Alembic keeps its running context in module globals: two threads migrating at once
        # (two stores opened together) would tear it down under each other.
        with _MIGRATING, self._guard(), self.engine.connect() as con:
            # The sqlite3 module opens a transaction before data changes only, so a migration's
            # CREATE/ALTER/DROP would each commit on their own and a failure half-way would
            # leave a changed schema. An explicit BEGIN makes the whole upgrade one
            # transaction that a failure rolls back (SQLite's DDL is transactional).
            raw = con.connection.dbapi_connection
            assert raw is not None
            previous = raw.isolation_level
            raw.isolation_level = None
            try:
                con.exec_driver_sql("BEGIN IMMEDIATE")
                try:
                    cfg.attributes["connection"] = con
                    command.upgrade(cfg, "head")
                except BaseException:
                    con.exec_driver_sql("ROLLBACK")
                    raise
                con.exec_driver_sql("COMMIT")
            finally:
                raw.isolation_level = previous

    @contextmanager
    def _guard(self) -> Iterator[None]:
        try:
            yield
        except IntegrityError:
            raise StoreError(
                f"The database {self.path} was changed by another Tabletop Companion at the "
                "same time; reopen the session to continue."
            ) from None
        except DBAPIError as exc:
            raise preflight.explain(exc.orig or exc, self.path) from None

    def close(self) -> None:
        self.engine.dispose()

    @contextmanager
    def reading(self) -> Iterator[Connection]:
        """A connection to read with (statistics, the luck ledger: their queries in SQL), its
        failures one sentence as the store's own (a database changed under it, a damaged file)."""
        with self._guard(), self.engine.connect() as con:
            yield con

    # -- sessions -----------------------------------------------------------

    def create_session(
        self,
        game: str,
        seed: int,
        config: dict[str, Any] | None = None,
        rules_version: int | None = None,
    ) -> int:
        """A new, empty session of ``game``; its number. ``rules_version`` is the version of the
        game's rules it is played under: by default the game's current one (the game module is
        imported to read it, here and not before: the store imports no engine when it loads).
        The session gets a fresh nonce for the commitment to its seed (``SessionInfo.commitment``)."""
        if rules_version is None:
            from companion.games import load

            rules_version = load(game).rules_version
        t = self.now()
        with self._writing() as con:
            result = con.execute(
                insert(S).values(
                    game=game,
                    seed=seed,
                    dice_mode=chosen_dice_mode(config or {}) or "",
                    status="active",
                    started=t,
                    last_activity=t,
                    steps=0,
                    summary="",
                    config=json.dumps(config or {}),
                    state="{}",
                    rules_version=rules_version,
                    dice_nonce=new_nonce(),
                )
            )
            return _new_id(result)

    def session(self, session_id: int) -> SessionInfo:
        """One session; StoreError if there is none, or if its row is damaged (one sentence)."""
        with self._guard(), self.engine.connect() as con:
            row = con.execute(select(*RAW_LISTED).where(S.c.id == session_id)).first()
        if row is None:
            raise StoreError(f"There is no session {session_id} in {self.path}.")
        info = _session_info(row)
        if info.damaged:
            raise StoreError(info.damaged)
        return info

    def sessions(
        self,
        game: str | None = None,
        status: str | None = None,
        search: str = "",
        sort: str = "recent",
        limit: int | None = None,
        offset: int = 0,
        check_logs: bool = False,
    ) -> list[SessionInfo]:
        """Sessions matching the filters, in ``sort`` order (most recently active first by default).

        ``search`` matches the summary (any case) or, as digits, the session number;
        '#12' is session 12 alone.
        The state column, the one large value of a row, is never read here. ``check_logs``
        also marks damaged the sessions whose log has a step missing (a read of the event
        index: `companion history` asks for it; the History screen, which must paint in
        200 ms on 10,000 sessions, finds it when a session is opened).
        """
        order = SORTS.get(sort)
        if order is None:
            raise StoreError(f"Sessions cannot be sorted by '{sort}'; the orders are {', '.join(SORTS)}.")
        query = _filtered(select(*RAW_LISTED), game, status, search).order_by(*order(), S.c.id.desc())
        if limit is not None:
            query = query.limit(limit).offset(offset)
        with self._guard(), self.engine.connect() as con:
            infos = [_session_info(r) for r in con.execute(query)]
            return _with_log_checks(con, infos) if check_logs else infos

    def count_sessions(self, game: str | None = None, status: str | None = None, search: str = "") -> int:
        """How many sessions ``sessions`` would list with these filters."""
        query = _filtered(select(func.count()).select_from(S), game, status, search)
        with self._guard(), self.engine.connect() as con:
            return int(con.execute(query).scalar() or 0)

    def state(self, session_id: int) -> dict[str, Any]:
        """The stored snapshot of the session's state after its last step."""
        with self._guard(), self.engine.connect() as con:
            raw_state = select(type_coerce(S.c.state, NullType())).where(S.c.id == session_id)
            text: Any = con.execute(raw_state).scalar()
        if text is None:
            raise StoreError(f"There is no session {session_id} in {self.path}.")
        damaged = StoreError(f"Session {session_id} is damaged (its stored state cannot be read).")
        try:
            state: Any = json.loads(text)
        except (ValueError, TypeError, RecursionError):  # RecursionError: JSON nested too deep
            raise damaged from None
        if not isinstance(state, dict):
            raise damaged
        return state

    # -- events -------------------------------------------------------------

    def events(self, session_id: int) -> list[EventInfo]:
        """Every event row of a session, rewinds included, in order."""
        with self._guard(), self.engine.connect() as con:
            rows = con.execute(EVENTS_OF, {"session": session_id}).all()
            tests = {r[0] for r in con.execute(TESTS_OF, {"session": session_id})}
        loads = json.loads
        try:
            # Positional: a long game's log is read when its History page opens. A die's name
            # that is not one (edited by hand) is no name: the roll counts as unnamed.
            events = [
                EventInfo(
                    r[0],
                    r[1],
                    r[2],
                    r[3],
                    r[4],
                    loads(r[5]),
                    loads(r[6]),
                    r[7],
                    r[8],
                    _event_time(r[9]),
                    r[10] if r[10] is None or is_die_name(r[10]) else None,
                    r[0] in tests,
                )
                for r in rows
            ]
        except (ValueError, TypeError, OverflowError, RecursionError):  # JSON, 4300+ digits, a time
            raise StoreError(
                f"Session {session_id} has a damaged log entry (an event's question, answer or time "
                "cannot be read)."
            ) from None
        if any(e.prompt is not None and not isinstance(e.prompt, dict) for e in events):
            raise StoreError(
                f"Session {session_id} has a damaged log entry (an event's question is not one)."
            )
        return events

    def log(self, session_id: int) -> Log:
        """The effective log: the answers that stand after every rewind (``Standing``), with
        what the driver may redo and the steps a correction kept ahead."""
        standing: Standing[EventInfo] = Standing()
        redo: list[list[EventInfo]] = []
        ahead: list[EventInfo] = []
        # _fact_key of each of ahead, made once: every later answer is read against them.
        ahead_keys: list[str] = []
        for ev in self.events(session_id):
            if not isinstance(ev.step, int) or ev.step < 0 or ev.kind not in KINDS:
                raise StoreError(f"Session {session_id}'s log is damaged (an event of it cannot be read).")
            if ev.step > len(standing.rows):  # a step missing, or steps out of order
                raise StoreError(
                    f"Session {session_id}'s log is damaged at step {len(standing.rows) + 1}: the next "
                    f"logged step is step {ev.step + 1}."
                )
            withdrawn = standing.add(ev.step, ev.kind, ev)
            if ev.kind == REWIND:
                if withdrawn:
                    redo.append(withdrawn)
                if ev.source == "correction":
                    ahead = withdrawn[1:]
                    ahead_keys = [_fact_key(e) for e in ahead]
            else:  # an answer: the rules of Driver._commit
                if ahead:  # the same as a step kept ahead: that step, given again
                    key = _fact_key(ev)
                    if key in ahead_keys:
                        at = ahead_keys.index(key)
                        del ahead[at], ahead_keys[at]
                if redo:  # the same as the next to redo, or a new one
                    if _event_key(redo[-1][0]) != _event_key(ev):
                        redo = []
                    elif len(redo[-1]) > 1:
                        redo[-1] = redo[-1][1:]
                    else:
                        redo.pop()
        kept = standing.rows
        try:
            steps = [_step(e) for e in kept]
            to_redo = [[_step(e) for e in group] for group in redo]
            kept_ahead = [_step(e) for e in ahead]
        except ValueError as exc:
            raise StoreError(f"Session {session_id} has a damaged log entry: {exc}.") from None
        return Log(steps, [e.digest or "" for e in kept], kept, to_redo, kept_ahead)

    def answer_count(self, session_id: int) -> int:
        """Every answer ever logged in the session, the ones undone or corrected since included."""
        query = select(func.count()).select_from(E).where(E.c.session_id == session_id, E.c.kind == "answer")
        with self._guard(), self.engine.connect() as con:
            return int(con.execute(query).scalar() or 0)

    def abandon(self, session_id: int) -> SessionInfo:
        """Put an unfinished session away: it leaves the unfinished list (Home), stays in
        History marked abandoned, and may be resumed (``reopen``) or deleted there. A finished
        session cannot be abandoned (one sentence: StoreError)."""
        if self._status(session_id) == "finished":
            raise StoreError(f"Session {session_id} is finished: there is nothing left to abandon.")
        with self._writing() as con:
            con.execute(update(S).where(S.c.id == session_id).values(status="abandoned"))
        return self.session(session_id)

    def _status(self, session_id: int) -> object:
        """A session's status as stored (even in a row damaged elsewhere); StoreError if none."""
        with self._guard(), self.engine.connect() as con:
            row = con.execute(select(S.c.status).where(S.c.id == session_id)).first()
        if row is None:
            raise StoreError(f"There is no session {session_id} in {self.path}.")
        return row.status

    def reopen(self, session_id: int) -> None:
        """An abandoned session taken up again: unfinished once more (nothing else changes)."""
        with self._writing() as con:
            con.execute(
                update(S).where(S.c.id == session_id, S.c.status == "abandoned").values(status="active")
            )

    def delete_session(self, session_id: int) -> None:
        """Delete an abandoned session with every step of its log, in one transaction: the one
        way anything leaves the database, and only for a session the player put away first
        (abandon) and asked again to delete. StoreError (nothing changed) for any other."""
        if self._status(session_id) != "abandoned":
            raise StoreError(
                f"Session {session_id} is not abandoned: only an abandoned session can be deleted (abandon it first)."
            )
        with self._writing() as con:
            con.execute(delete(M).where(M.c.session_id == session_id))
            con.execute(delete(N).where(N.c.session_id == session_id))
            con.execute(delete(E).where(E.c.session_id == session_id))
            # Its branches stay, with where they came from in words: no link to a session gone.
            con.execute(update(S).where(S.c.parent_id == session_id).values(parent_id=None))
            con.execute(delete(S).where(S.c.id == session_id))

    def set_dice_mode(self, session_id: int, mode: str) -> None:
        """Keep the dice mode the player chose (ctrl+d) with the session, so a resumed game
        rolls as it did: in its settings (``config["dice"]``) and its ``dice_mode``."""
        if mode not in DICE_MODES:
            raise StoreError(f"'{mode}' is not a dice mode; the modes are {', '.join(DICE_MODES)}.")
        info = self.session(session_id)
        config = {**info.config, "dice": mode}
        with self._writing() as con:
            con.execute(
                update(S).where(S.c.id == session_id).values(config=json.dumps(config), dice_mode=mode)
            )

    def set_die(self, session_id: int, name: str | None) -> str | None:
        """Name the dice the player rolls on the table from now on in this session (None: no
        name); the name as kept. ValueError (one sentence, nothing changed) for a name
        ``dice.die_name`` refuses."""
        name = None if name is None else die_name(name)
        with self._writing() as con:
            con.execute(update(S).where(S.c.id == session_id).values(die=name))
        return name

    def die_names(self, most: int = 20) -> list[str]:
        """The names given to dice, the most recently used first (at most ``most``): what a
        player picks from when they name the dice again."""
        sql = text(
            "SELECT die, MAX(at) AS last FROM (SELECT die, at FROM event WHERE die IS NOT NULL "
            "UNION ALL SELECT die, last_activity FROM session WHERE die IS NOT NULL) "
            "GROUP BY die ORDER BY last DESC LIMIT :most"
        )
        with self.reading() as con:
            names = [r[0] for r in con.execute(sql, {"most": most * 2})]
        return [n for n in names if is_die_name(n)][:most]

    def mark_test(self, session_id: int, index: int, test: bool = True) -> None:
        """Mark the roll standing at step ``index`` (0 first) as a test roll, which the luck
        ledger leaves out, or take the mark off. StoreError (one sentence, nothing changed)
        for a step the log does not have or that is not a roll."""
        log = self.log(session_id)
        if not 0 <= index < len(log.steps):
            raise StoreError(f"Session {session_id} has no step {index + 1}; its log has {len(log.steps)}.")
        if log.steps[index].prompt.kind != "roll":
            raise StoreError(not_a_roll(index))
        with self._writing() as con:
            con.execute(
                insert(M).values(session_id=session_id, seq=log.events[index].seq, test=test, at=self.now())
            )

    def notes(self, session_id: int) -> list[Note]:
        """The notes that stand on the session's steps, in step order (a note whose text is not
        one, edited by hand, is shown as no note)."""
        sql = text(
            "SELECT step, text, at FROM note AS n WHERE session_id = :session AND id = "
            "(SELECT MAX(id) FROM note WHERE session_id = n.session_id AND step = n.step) ORDER BY step"
        )
        with self._guard(), self.engine.connect() as con:
            rows = con.execute(sql, {"session": session_id}).all()
        out = []
        for step, said, at in rows:
            if type(step) is int and step >= 0 and said and is_note(said):
                try:
                    out.append(Note(step, said, _event_time(at)))
                except StoreError:
                    continue
        return out

    def set_note(self, session_id: int, index: int, said: str) -> Note:
        """Write the note on step ``index`` (0 first) of the session, in place of any before; the
        note as kept. ValueError (one sentence) for a text ``notes.note_text`` refuses,
        StoreError for a step the session does not have; nothing changes either way."""
        said = note_text(said)
        self._noted_step(session_id, index)
        at = self.now()
        with self._writing() as con:
            con.execute(insert(N).values(session_id=session_id, step=index, text=said, at=at))
        return Note(index, said, at)

    def remove_note(self, session_id: int, index: int) -> None:
        """Take the note off step ``index``; StoreError (one sentence) if it has none."""
        if not any(n.step == index for n in self.notes(session_id)):
            raise StoreError(f"Step {index + 1} of session {session_id} has no note to remove.")
        with self._writing() as con:
            con.execute(insert(N).values(session_id=session_id, step=index, text="", at=self.now()))

    def _noted_step(self, session_id: int, index: int) -> None:
        steps = self.session(session_id).steps
        if not steps:
            raise StoreError(f"Session {session_id} has no step yet to write a note on.")
        if not 0 <= index < steps:
            raise StoreError(f"Session {session_id} has no step {index + 1}; its log has {steps}.")

    def branches(self, session_id: int) -> list[tuple[int, int | None]]:
        """The sessions branched from this one (id, the steps they took), oldest first."""
        query = select(S.c.id, S.c.branch_step).where(S.c.parent_id == session_id).order_by(S.c.id)
        with self._guard(), self.engine.connect() as con:
            return [(r[0], r[1] if _is_int(r[1]) else None) for r in con.execute(query)]

    def set_config(self, session_id: int, config: dict[str, Any]) -> None:
        """Replace the session's settings (a session of earlier rules that goes on under the
        current ones from a point its settings name: ``resume``)."""
        with self._writing() as con:
            con.execute(update(S).where(S.c.id == session_id).values(config=json.dumps(config)))

    def recorder(self, session_id: int) -> SessionRecorder:
        return SessionRecorder(self, session_id)

    def insert_session(
        self,
        session: dict[str, Any],
        events: list[dict[str, Any]],
        tests: Sequence[int] = (),
        notes: Sequence[tuple[int, str]] = (),
    ) -> int:
        """Insert a whole session and its event rows in one transaction; the new session id.

        ``session`` holds the session columns but ``id`` (``config`` and ``state`` as JSON
        text); each event holds the event columns but ``id`` and ``session_id``; ``tests`` are
        the ``seq`` of the rolls marked as test rolls, ``notes`` (step, text) the notes on its
        steps (checked by the caller). Either all of it is stored or nothing is
        (an import checks the log before calling this).
        """
        with self._writing() as con:
            result = con.execute(insert(S).values(**session))
            session_id = _new_id(result)
            if events:
                con.execute(INSERT_EVENT, [{"session_id": session_id, **ev} for ev in events])
            if tests:
                con.execute(
                    insert(M),
                    [{"session_id": session_id, "seq": seq, "test": True, "at": self.now()} for seq in tests],
                )
            if notes:
                con.execute(
                    insert(N),
                    [{"session_id": session_id, "step": k, "text": t, "at": self.now()} for k, t in notes],
                )
        return session_id


def answer_row(ev: EventInfo, step: int, digest: str | None) -> dict[str, Any]:
    """The event row that records ``ev``'s answer again at ``step``, leading to ``digest``: its
    question, answer, source, time and dice name as logged (a refit, a branch)."""
    return {
        "step": step,
        "kind": "answer",
        "turn": ev.turn,
        "phase": ev.phase,
        "prompt": json.dumps(ev.prompt, ensure_ascii=False),
        "answer": json.dumps(ev.answer),
        "source": ev.source,
        "digest": digest,
        "at": ev.at,
        "die": ev.die,
    }


def _rewind_event(index: int, t: datetime) -> dict[str, Any]:
    """The event row that withdraws every step from ``index`` on."""
    return {
        "step": index,
        "kind": "rewind",
        "turn": None,
        "phase": None,
        "prompt": "null",
        "answer": "null",
        "source": None,
        "digest": None,
        "at": t,
        "die": None,
    }


def _standing(t: datetime, steps: int, summary: str, state_json: str, finished: bool) -> dict[str, Any]:
    """The session row's values for a log of ``steps`` steps that stand, at time ``t``."""
    return {
        "last_activity": t,
        "steps": steps,
        "summary": summary,
        "state": state_json,
        "status": "finished" if finished else "active",
        "ended": t if finished else None,
    }


class SessionRecorder:
    """Commits one session's steps as the driver makes them (the driver's Recorder)."""

    def __init__(self, store: Store, session_id: int) -> None:
        self.store = store
        self.session_id = session_id
        with store._guard(), store.engine.connect() as con:
            last = con.execute(select(func.max(E.c.seq)).where(E.c.session_id == session_id)).scalar()
            row = con.execute(select(S.c.dice_mode, S.c.config).where(S.c.id == session_id)).one_or_none()
        self.dice_mode = (row.dice_mode if row is not None else "") or ""
        # A game whose player chose how the dice are rolled keeps that choice as its dice mode
        # (Store.set_dice_mode); any other, the sources of its dice so far.
        try:
            config = _config(row.config) if row is not None else {}
        except (ValueError, TypeError):  # damaged settings: the session itself says so when read
            config = {}
        self.chosen = chosen_dice_mode(config) is not None
        self.next_seq = 0 if last is None else last + 1

    def record(self, record: Record) -> None:
        step = record.step
        t = self.store.now()
        mark = [{"seq": self.next_seq, "test": True, "at": t}] if step.test else []
        mode = self.dice_mode
        if step.prompt.kind == "roll" and not self.chosen:
            mode = step.source if mode in ("", step.source) else "mixed"
        self._write(
            {
                "step": record.index,
                "kind": "answer",
                "turn": record.turn,
                "phase": record.phase,
                "prompt": json.dumps(step.prompt.to_dict(), ensure_ascii=False),
                "answer": json.dumps(step.answer),
                "source": step.source,
                "digest": record.digest,
                "at": t,
                "die": step.die,
            },
            {
                "dice_mode": mode,
                **_standing(t, record.index + 1, record.summary, record.state_json, record.finished),
            },
            mark,
        )
        self.dice_mode = mode

    def mark_test(self, index: int, test: bool) -> None:
        self.store.mark_test(self.session_id, index, test)

    def rewind(
        self, index: int, state_json: str, finished: bool, summary: str, correction: bool = False
    ) -> None:
        t = self.store.now()
        event = _rewind_event(index, t)
        if correction:
            event["source"] = "correction"  # the steps after ``index`` are kept ahead (Store.log)
        self._write(event, _standing(t, index, summary, state_json, finished))

    def refit(
        self,
        rules_version: int,
        index: int | None = None,
        again: Sequence[tuple[EventInfo, str]] = (),
        state_json: str = "",
        finished: bool = False,
        summary: str = "",
    ) -> None:
        """Mark the session as recorded under ``rules_version``, after withdrawing every step
        from ``index`` on (a rewind, as ``rewind`` writes it) and recording the answers of
        ``again`` anew in their places, each (its event as logged, the digest of the state it
        leads to now): the same answer, source and time. One transaction. ``index`` None: only
        the version changes (the log fits the rules as it is)."""
        store = self.store
        if index is None:
            with store._writing() as con:
                con.execute(UPDATE_SESSION, {"session": self.session_id, "rules_version": rules_version})
            return
        t = store.now()
        events: list[dict[str, Any]] = [{"session_id": self.session_id, **_rewind_event(index, t)}]
        events += [
            {"session_id": self.session_id, **answer_row(ev, ev.step, new_digest)} for ev, new_digest in again
        ]
        for k, ev in enumerate(events):
            ev["seq"] = self.next_seq + k
        # A test roll recorded anew is still one.
        marks = [
            {"session_id": self.session_id, "seq": self.next_seq + 1 + k, "test": True, "at": t}
            for k, (ev, _) in enumerate(again)
            if ev.test
        ]
        with store._writing() as con:
            con.execute(INSERT_EVENT, events)
            if marks:
                con.execute(insert(M), marks)
            con.execute(
                UPDATE_SESSION,
                {
                    "session": self.session_id,
                    "rules_version": rules_version,
                    **_standing(t, index + len(again), summary, state_json, finished),
                },
            )
        self.next_seq += len(events)

    def _write(
        self,
        event_values: dict[str, Any],
        session_values: dict[str, Any],
        marks: Sequence[dict[str, Any]] = (),
    ) -> None:
        store = self.store
        with store._writing() as con:
            con.execute(INSERT_EVENT, {"session_id": self.session_id, "seq": self.next_seq, **event_values})
            con.execute(UPDATE_SESSION, {"session": self.session_id, **session_values})
            if marks:
                con.execute(insert(M), [{"session_id": self.session_id, **m} for m in marks])
        self.next_seq += 1
