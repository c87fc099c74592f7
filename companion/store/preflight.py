"""Opening checks on the database file with the standard library alone.

They run before the TUI or a CLI command starts, cost a few milliseconds, and
turn every way a database can be unusable into one sentence (StoreError):
a folder that cannot be written, a file that is not a database or is corrupt,
a database locked by another program, a schema newer than this app.
SQLAlchemy, SQLModel and Alembic are not imported here: they are slow to load
and stay off the path to the first screen.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from companion.errors import DamagedRow, StoreError

#: Every schema revision this app knows, oldest first; the last is the head.
REVISIONS = ("0001", "0002", "0003", "0004", "0005", "0006", "0007", "0008", "0009", "0010")
HEAD = REVISIONS[-1]
OUR_TABLES = {"session", "event", "roll_mark", "note", "alembic_version"}
SQLITE_MAGIC = b"SQLite format 3\x00"
DEFAULT_TIMEOUT = 5.0


def default_path() -> Path:
    """The database in the user's data folder, unless COMPANION_DB names another."""
    env = os.environ.get("COMPANION_DB")
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_path

    return user_data_path("tabletop-companion", appauthor=False) / "companion.db"


def resolve(db: str | None) -> str:
    """The database to use: --db, else COMPANION_DB, else the default; ':memory:' as is.
    StoreError for a path that names no file ('') or a home folder that does not exist."""
    if db == ":memory:":
        return db
    if db is not None and not db.strip():
        raise StoreError("--db needs the name of a database file; an empty one names none.")
    try:
        return str(Path(db).expanduser() if db is not None else default_path())
    except RuntimeError:  # '~someone/x.db' for a user this machine does not know
        raise StoreError(
            f"{db or os.environ.get('COMPANION_DB')}: that home folder does not exist."
        ) from None


def _read_only(path: str) -> sqlite3.Connection:
    """A connection that can change nothing in ``path`` (an SQLite URI, the path quoted so that
    '?', '#' or '%' in it stay part of the name). ``Path.as_uri`` quotes it as
    ``urllib.request.pathname2url`` would, without the 8 ms that module costs the first paint
    (it brings http.client and email)."""
    return sqlite3.connect(f"{Path(os.path.abspath(path)).as_uri()}?mode=ro", uri=True)


def is_ours(tables: set[str]) -> bool:
    """Tables of a Tabletop Companion database (or none yet): ours only, and the schema
    version table wherever ours are (another program's table named 'session' is not ours)."""
    tables = {t for t in tables if not t.startswith("sqlite_")}  # SQLite's own (sequence, ANALYZE stats)
    return tables <= OUR_TABLES and (not tables or "alembic_version" in tables)


def explain(exc: BaseException, path: str) -> StoreError:
    """One sentence for an sqlite3 error met while using ``path``."""
    text = str(exc).lower()
    if "locked" in text or "busy" in text:
        return StoreError(
            f"The database {path} is locked by another program; close the other "
            "Tabletop Companion (or the program using it) and try again."
        )
    if "readonly" in text or "read-only" in text:
        folder = Path(path).absolute().parent
        if path != ":memory:" and os.access(path, os.W_OK) and not os.access(folder, os.W_OK):
            # The file may be written, its folder not: SQLite keeps its journal (the -wal and
            # -shm files) beside the database, so it cannot write either.
            return StoreError(
                f"The folder {folder} holding the database {path} is read-only, and the database "
                "keeps its journal beside it; make the folder writable or choose another with --db."
            )
        return StoreError(f"The database {path} is read-only; make it writable or choose another with --db.")
    if "unable to open" in text:
        return StoreError(
            f"The database {path} cannot be opened or created; check that its folder exists and is writable."
        )
    if "not a database" in text:
        return StoreError(
            f"{path} is not a Tabletop Companion database (it is not an SQLite file); choose another with --db."
        )
    if "malformed json" in text or "cannot hold blob" in text:
        # A value of a row, not the file: SQLite says "malformed" of both.
        sid = _damaged_session(path)
        which = f"Session {sid}" if sid is not None else "A session"
        return DamagedRow(
            f"{which} in the database {path} is damaged (a value in it is not JSON: edited by hand or "
            "by another program); the database itself is intact."
        )
    if "malformed" in text or "corrupt" in text:
        if _intact(path):
            return StoreError(
                f"The database {path} could not be read just now ({exc}); it is intact: try again."
            )
        return StoreError(f"The database {path} is corrupt; restore a copy or choose another with --db.")
    if "full" in text:
        return StoreError(f"The disk holding {path} is full; free some space and try again.")
    if "i/o" in text:
        return StoreError(f"The database {path} could not be read or written (disk error).")
    return StoreError(f"The database {path} cannot be used: {exc}.")


def not_json(column: str, nullable: bool = False) -> str:
    """A SQL condition: ``column`` holds a value SQLite's JSON functions cannot read (text that
    is not JSON, or a BLOB), the one test of a damaged value (``_damaged_session`` and the
    figures' ``effective.readable``); ``nullable``: NULL is a value that reads."""
    unreadable = f"NOT (typeof({column}) = 'text' AND json_valid({column}))"
    return f"({column} IS NOT NULL AND {unreadable})" if nullable else f"({column} IS NULL OR {unreadable})"


def _damaged_session(path: str) -> int | None:
    """The first session of ``path`` with a value that is not JSON (its settings, its state, a
    question or an answer of its log), or None. Looked for only once a query has met one."""
    if path == ":memory:":
        return None
    try:
        con = _read_only(path)
    except sqlite3.Error:
        return None
    try:
        row = con.execute(
            f"""
SELECT MIN(id) FROM (
    SELECT id FROM session WHERE {not_json("config")} OR {not_json("state", nullable=True)}
    UNION ALL
    SELECT session_id FROM event WHERE {not_json("prompt")} OR {not_json("answer", nullable=True)}
)"""
        ).fetchone()
    except sqlite3.Error:
        return None
    finally:
        con.close()
    return None if row is None or row[0] is None else int(row[0])


def _intact(path: str) -> bool:
    """SQLite's own integrity check (the quick one) passes on ``path``: only then is a database
    not called corrupt (the advice to restore a copy would lose every game played since)."""
    if path == ":memory:":
        return False
    try:
        con = _read_only(path)
    except sqlite3.Error:
        return False
    try:
        rows = con.execute("PRAGMA quick_check").fetchall()
    except sqlite3.Error:
        return False
    finally:
        con.close()
    return rows == [("ok",)]


def check(path: str, timeout: float = DEFAULT_TIMEOUT) -> str | None:
    """Make sure ``path`` can be used; return its schema revision (None when new).

    Creates the folder and an empty WAL database when there is none. Raises
    StoreError with one sentence otherwise.
    """
    if path == ":memory:":
        return None
    file = Path(path)
    if file.is_dir():
        raise StoreError(f"{path} is a folder, not a database file; give a file name with --db.")
    if file.exists() and not file.is_file():
        # a FIFO would hang the opening, a device would be read for ever
        raise StoreError(
            f"{path} is not a regular file (a pipe or a device); give a database file with --db."
        )
    try:
        file.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise StoreError(
            f"Cannot create the database {path}: part of its folder path is a file, not a folder."
        ) from None
    except OSError as exc:
        raise StoreError(
            f"Cannot create the folder {file.parent} for the database ({exc.strerror or exc})."
        ) from None
    # Closing any descriptor of the file drops every POSIX lock this process holds on it, SQLite's
    # included: with a connection open here, another program could then delete the live WAL. So
    # a database in use (its -shm beside it) is left to SQLite to recognise.
    if file.exists() and not Path(f"{path}-shm").exists():
        try:
            with file.open("rb") as fh:
                head = fh.read(16)
        except OSError as exc:
            raise StoreError(f"The database {path} cannot be read: {exc.strerror or exc}.") from None
        if head and head != SQLITE_MAGIC:
            raise StoreError(
                f"{path} is not a Tabletop Companion database (it is not an SQLite file); "
                "choose another with --db."
            )
    tables: set[str] = set()
    revision: str | None = None
    if file.exists() and file.stat().st_size:
        # Read first, changing nothing: a file that is not ours is refused as it was found
        # (no WAL switch, no -wal or -shm left beside it, no table of ours created in it).
        try:
            ro = _read_only(path)
        except sqlite3.Error as exc:
            raise explain(exc, path) from None
        try:
            tables = {r[0] for r in ro.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if "alembic_version" in tables:
                row = ro.execute("SELECT version_num FROM alembic_version").fetchone()
                revision = None if row is None or row[0] is None else str(row[0])
        except sqlite3.Error as exc:
            raise explain(exc, path) from None
        finally:
            ro.close()
        if not is_ours(tables):
            raise StoreError(
                f"{path} is the database of another program, not Tabletop Companion's; choose another with --db."
            )
        if revision is not None and revision not in REVISIONS:
            if revision.isdigit() and int(revision) > int(HEAD):
                raise StoreError(
                    f"The database {path} was written by a newer Tabletop Companion (schema {revision[:12]}); "
                    "upgrade the app to open it."
                )
            raise StoreError(
                f"The database {path} has a schema version this app never wrote ({revision[:12]!r}); "
                "restore a copy or choose another with --db."
            )
    try:
        con = sqlite3.connect(path, timeout=timeout)
    except sqlite3.Error as exc:
        raise explain(exc, path) from None
    try:
        con.execute("PRAGMA journal_mode=WAL")
        # Taking the write lock now finds another writer before the user plays a step.
        con.execute("BEGIN IMMEDIATE")
        con.execute("ROLLBACK")
    except sqlite3.Error as exc:
        raise explain(exc, path) from None
    finally:
        con.close()
    return revision
