"""Faults of the world around the app: each is one sentence (no traceback), exit 2, and no session lost or half-written.

Database faults: locked by another process, read-only, full disk, corrupt, a newer schema,
the same session written by a second app. Data faults: every data file missing or malformed.
Each is met through the command line (a real `companion` process), through the app (the
home screen or a notification) where it applies, and through the Driver and the Store as the
screens use them; the database is compared before and after.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from companion import dicetray
from companion.driver import Driver
from companion.errors import StoreError
from companion.store import preflight
from companion.store.db import Store
from screens.app import CompanionApp

ROOT = Path(__file__).resolve().parents[2]
SIZE = (110, 30)


# -- helpers ---------------------------------------------------------------------


def make_db(path: Path, sessions: int = 3, rolls: int = 4) -> Path:
    """A database with dice tray sessions and their rolls."""
    store = Store(str(path))
    for n in range(sessions):
        sid = store.create_session("dice", 100 + n)
        driver = Driver(dicetray.GAME, 100 + n, recorder=store.recorder(sid))
        for _ in range(rolls):
            driver.type("2d6 Fault")
            driver.roll()
    store.close()
    return path


def contents(db: Path, immutable: bool = False) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every session row and event row (only read; ``immutable`` for a file on a read-only disk)."""
    con = (
        sqlite3.connect(f"file:{db}?immutable=1", uri=True) if immutable else sqlite3.connect(db, timeout=10)
    )
    try:
        sessions = list(con.execute("SELECT id, game, steps, status, state FROM session ORDER BY id"))
        events = list(
            con.execute("SELECT session_id, seq, step, kind, answer FROM event ORDER BY session_id, seq")
        )
        return sessions, events
    finally:
        con.close()


def consistent(db: Path) -> None:
    """No half-written session: each session's step count is its events', seqs run 0, 1, 2, ..."""
    sessions, events = contents(db)
    for sid, _game, steps, _status, _state in sessions:
        seqs = [seq for s, seq, *_ in events if s == sid]
        assert seqs == list(range(len(seqs))), f"session {sid}: seqs {seqs}"
        assert steps == len(seqs), f"session {sid}: {steps} steps but {len(seqs)} events"


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def cli(*args: str, cwd: Path | None = None) -> subprocess.Popen[str]:
    """`python -m companion ARGS` started as a shell would (wait with `finish`)."""
    env = dict(os.environ)
    env.pop("COMPANION_DB", None)
    return subprocess.Popen(
        [sys.executable, "-m", "companion", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=cwd,
    )


def finish(proc: subprocess.Popen[str]) -> tuple[int, str]:
    _out, err = proc.communicate(timeout=60)
    return proc.returncode, err


def one_sentence(code: int, err: str, *words: str) -> str:
    assert code == 2, f"exit {code}: {err}"
    assert "Traceback" not in err, err
    assert err.count("\n") == 1 and err.startswith("companion: "), err
    for w in words:
        assert w in err, f"{w!r} not in {err!r}"
    return err


async def home_status(db: str) -> tuple[str, Any]:
    """Start the app on ``db`` and return what the home screen says once the store is tried."""
    app = CompanionApp(db_path=db, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(300):
            await pilot.pause(0.05)
            if app.store_ready or app.store_error is not None:
                break
        await pilot.pause(0.1)
        status = str(app.screen.query_one("#home-status").render())
        return status, app.store_error


@contextlib.contextmanager
def locked(db: Path) -> Iterator[None]:
    """Another process holds the database's write lock (BEGIN EXCLUSIVE) until the block ends."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(
                f"""
                import sqlite3, sys
                con = sqlite3.connect({str(db)!r}, isolation_level=None)
                con.execute("BEGIN EXCLUSIVE")
                con.execute("UPDATE session SET summary = summary")
                print("locked", flush=True)
                sys.stdin.read()
                con.execute("ROLLBACK")
                """
            ),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdin is not None
    assert holder.stdout.readline().strip() == "locked"
    try:
        yield
    finally:
        holder.stdin.close()
        holder.wait(timeout=10)


def mount_tmpfs(where: Path, size: str) -> bool:
    """A small tmpfs at ``where``; False where this machine does not allow mounting."""
    where.mkdir(parents=True, exist_ok=True)
    if sys.platform != "linux" or shutil.which("mount") is None:
        return False
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(where)], capture_output=True, check=False
    )
    return done.returncode == 0


def umount(where: Path) -> None:
    subprocess.run(["umount", "-l", str(where)], capture_output=True, check=False)


# -- database faults --------------------------------------------------------------


@pytest.mark.slow
async def test_locked_database(tmp_path: Path, figures: Counter[str]) -> None:
    db = make_db(tmp_path / "c.db")
    before = contents(db)
    early = Store(str(db), timeout=0.3)  # an app that had the database open before the lock was taken
    sid = early.create_session("dice", 9)
    driver = Driver(dicetray.GAME, 9, recorder=early.recorder(sid))
    driver.type("2d6 Before the lock")
    before = contents(db)
    with locked(db):
        runs = [cli("--db", str(db), "history"), cli("--db", str(db), "show", "1")]
        status, error = await home_status(str(db))
        with pytest.raises(StoreError, match="locked by another program") as exc:
            driver.roll()
        assert "\n" not in str(exc.value)
        assert len(driver.steps) == 1 and driver.pending is not None and driver.pending.kind == "roll"
        for proc in runs:
            one_sentence(*finish(proc), "is locked by another program")
    assert "locked by another program" in status and isinstance(error, StoreError)
    assert contents(db) == before
    driver.roll()  # the lock gone, the same roll goes through, once
    assert len(contents(db)[1]) == len(before[1]) + 1
    consistent(db)
    early.close()
    figures["faults"] += 1


@pytest.mark.slow
async def test_read_only_database(tmp_path: Path, figures: Counter[str], notes: dict[str, str]) -> None:
    where = tmp_path / "ro"
    if mount_tmpfs(where, "4m"):
        db = make_db(where / "c.db")
        subprocess.run(["mount", "-o", "remount,ro", str(where)], check=True)
        how = "read-only mount"
    else:  # a plain user: file permissions hold
        where.mkdir(exist_ok=True)
        db = make_db(where / "c.db")
        db.chmod(0o444)
        where.chmod(0o555)
        how = "read-only file and folder"
    ro = how == "read-only mount"
    try:
        before = contents(db, immutable=ro)
        digest = sha(db)
        runs = [cli("--db", str(db), "history"), cli("--db", str(db), "show", "2")]
        status, error = await home_status(str(db))
        for proc in runs:
            err = one_sentence(*finish(proc))
            assert "read-only" in err or "writable" in err
        assert isinstance(error, StoreError) and ("read-only" in status or "writable" in status)
        assert contents(db, immutable=ro) == before and sha(db) == digest
    finally:
        if ro:
            umount(where)
        else:
            where.chmod(0o755)
    figures["faults"] += 1
    notes["read_only"] = how


@pytest.mark.slow
def test_full_disk(
    tmp_path: Path, figures: Counter[str], notes: dict[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    where = tmp_path / "small"
    if mount_tmpfs(where, "8m"):
        notes["full_disk"] = "an 8 MiB tmpfs mount, filled to the last byte"
        try:
            db = where / "c.db"
            shutil.copy(make_db(tmp_path / "made.db"), db)
            store = Store(str(db))
            sid = store.create_session("dice", 5)
            driver = Driver(dicetray.GAME, 5, recorder=store.recorder(sid))
            driver.type("2d6 Full")
            exported = tmp_path / "export.json"
            ok = subprocess.run(
                [sys.executable, "-m", "companion", "--db", str(db), "export", "1", "-o", str(exported)],
                capture_output=True,
                text=True,
                check=False,
            )
            assert ok.returncode == 0, ok.stderr
            fill(where)
            before = contents(db)
            with pytest.raises(StoreError, match="full") as exc:
                for _ in range(200):  # the WAL file grows until the disk refuses a page
                    driver.roll()
                    driver.type("2d6 Full")
            assert "\n" not in str(exc.value)
            # What was refused is not in the driver, and what it had is in the database.
            assert contents(db)[1][: len(before[1])] == before[1]
            assert store.session(sid).steps == len(driver.steps)
            # Importing a whole session onto the full disk: one sentence, and no half of it stays.
            after_driver = contents(db)
            one_sentence(*finish(cli("--db", str(db), "import", str(exported))), "full")
            assert contents(db) == after_driver
            consistent(db)
            store.close()
        finally:
            umount(where)
    else:
        # No mount allowed: the disk-full error SQLite gives, raised where SQLite would raise it.
        notes["full_disk"] = "simulated (sqlite3 'database or disk is full' on every write)"
        from sqlalchemy import event

        db = make_db(tmp_path / "c.db")
        store = Store(str(db))
        sid = store.create_session("dice", 5)
        driver = Driver(dicetray.GAME, 5, recorder=store.recorder(sid))
        driver.type("2d6 Full")
        before = contents(db)

        def full(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
            if statement.lstrip().upper().startswith(("INSERT", "UPDATE")):
                raise sqlite3.OperationalError("database or disk is full")

        event.listen(store.engine, "before_cursor_execute", full)
        with pytest.raises(StoreError, match="full"):
            driver.roll()
        assert len(driver.steps) == 1 and contents(db) == before
        store.close()
        consistent(db)
    figures["faults"] += 1


def fill(where: Path) -> None:
    """Fill the disk at ``where`` to the last byte."""
    fd = os.open(where / "filler", os.O_WRONLY | os.O_CREAT)
    for size in (65536, 4096, 1):
        with contextlib.suppress(OSError):
            while True:
                os.write(fd, b"\0" * size)
    os.close(fd)


async def test_full_disk_in_the_app(tmp_path: Path, figures: Counter[str], notes: dict[str, str]) -> None:
    """The Dice tray on a disk that fills up: the refused roll is one sentence on the screen, not in the list."""
    from sqlalchemy import event

    where = tmp_path / "small"
    mounted = mount_tmpfs(where, "8m")
    db = where / "c.db"
    shutil.copy(make_db(tmp_path / "made.db"), db)
    try:
        app = CompanionApp(db_path=str(db), seed=2)
        async with app.run_test(size=SIZE) as pilot:
            for _ in range(200):
                await pilot.pause(0.05)
                if app.store_ready:
                    break
            await pilot.press("d")
            await pilot.pause(0.3)
            if mounted:
                fill(where)
            else:

                def full(conn: Any, cursor: Any, statement: str, *args: Any) -> None:
                    if statement.lstrip().upper().startswith(("INSERT", "UPDATE")):
                        raise sqlite3.OperationalError("database or disk is full")

                event.listen(app.store().engine, "before_cursor_execute", full)
            message = ""
            for _ in range(300):  # the WAL grows a page at a time until the disk refuses one
                await pilot.press("r")
                await pilot.pause(0.01)
                message = str(app.screen.query_one("#pp-message").render())
                if "full" in message:
                    break
            assert "The disk holding" in message and "is full" in message, message
            shown = app.screen.query_one("#rolls").row_count
            sid = app.screen.session_id
        _sessions, events = contents(db)
        rolls = [e for e in events if e[0] == sid and e[3] == "answer" and "[" in e[4]]
        assert shown == len(rolls), "the screen shows a roll the database does not have"
        consistent(db)
    finally:
        if mounted:
            umount(where)
    figures["faults"] += 1


@pytest.mark.slow
@pytest.mark.parametrize("where", ["schema page", "every page"])
async def test_corrupt_database(tmp_path: Path, where: str, figures: Counter[str]) -> None:
    db = make_db(tmp_path / "c.db")
    raw = bytearray(db.read_bytes())
    if where == "schema page":
        raw[100:1100] = b"\xa5" * 1000  # the first page, past the file header: the schema itself
    else:
        for page in range(4096, len(raw), 4096):
            raw[page : page + 12] = b"\xa5" * 12  # every b-tree page header
    db.write_bytes(bytes(raw))
    digest = sha(db)
    runs = [
        cli("--db", str(db), "history"),
        cli("--db", str(db), "show", "1"),
        cli("--db", str(db), "replay", "1"),
    ]
    status, error = await home_status(str(db))
    for proc in runs:
        one_sentence(*finish(proc), "corrupt")
    assert isinstance(error, StoreError) or "corrupt" in status
    assert sha(db) == digest, "the app wrote to a corrupt database"
    figures["faults"] += 1


@pytest.mark.slow
async def test_database_of_a_newer_app(tmp_path: Path, figures: Counter[str]) -> None:
    db = make_db(tmp_path / "c.db")
    newer = f"{int(preflight.HEAD) + 1000:04d}"
    con = sqlite3.connect(db)
    con.execute("UPDATE alembic_version SET version_num = ?", (newer,))
    con.commit()
    con.close()
    before, digest = contents(db), sha(db)
    runs = [cli("--db", str(db), "history"), cli("--db", str(db), "show", "1")]
    status, error = await home_status(str(db))
    for proc in runs:
        one_sentence(*finish(proc), "newer", newer)
    assert isinstance(error, StoreError) and "newer" in status
    assert contents(db) == before and sha(db) == digest
    figures["faults"] += 1


@pytest.mark.slow
async def test_not_a_database(tmp_path: Path, figures: Counter[str]) -> None:
    db = tmp_path / "notes.db"
    db.write_text("shopping: eggs, flour\n")
    run = cli("--db", str(db), "history")
    status, error = await home_status(str(db))
    one_sentence(*finish(run), "not a Tabletop Companion database")
    assert isinstance(error, StoreError) and "not a Tabletop Companion database" in status
    assert db.read_text() == "shopping: eggs, flour\n"
    figures["faults"] += 1


def test_the_same_session_written_by_two_apps(tmp_path: Path, figures: Counter[str]) -> None:
    """Two apps resumed the same session; the second to write is refused, and nothing is doubled."""
    db = make_db(tmp_path / "c.db", sessions=1)
    first, second = Store(str(db)), Store(str(db))
    log = first.log(1)
    a = Driver.resume(dicetray.GAME, 100, {}, log.steps, first.recorder(1))
    b = Driver.resume(dicetray.GAME, 100, {}, log.steps, second.recorder(1))
    a.type("2d6 First")
    before = contents(db)
    with pytest.raises(StoreError, match="another Tabletop Companion"):
        b.type("2d6 Second")
    assert contents(db) == before and len(b.steps) == len(log.steps)
    consistent(db)
    first.close()
    second.close()
    figures["faults"] += 1


# -- data file faults -----------------------------------------------------------

#: Runs in a fresh process whose data folder is a broken copy: every CLI command that reads
#: data files, then the app starting every playable game. Prints one JSON line of what each said.
DATA_PROBE = textwrap.dedent(
    """
    import asyncio, contextlib, io, json, pathlib, sys, traceback
    import companion.datafiles as datafiles
    datafiles.data_dir = lambda: pathlib.Path(sys.argv[1])
    from companion.cli import main
    from companion import games
    out = {"cli": [], "app": []}
    for argv in json.loads(sys.argv[3]):
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            try:
                code = main(argv)
            except BaseException:
                code, err = -1, io.StringIO(traceback.format_exc())
        out["cli"].append([argv, code, err.getvalue()])
    from screens.app import CompanionApp
    async def app_run():
        app = CompanionApp(db_path=sys.argv[2], seed=3)
        async with app.run_test(size=(110, 30)) as pilot:
            for _ in range(200):
                await pilot.pause(0.05)
                if app.store_ready or app.store_error:
                    break
            for g in games.GAMES:
                if g.module is None:
                    continue
                app.start_game(g.id, {"dice": "app"} if g.id == "reconquista" else None)
                await pilot.pause(0.2)
                notes = [n.message for n in app._notifications]
                out["app"].append([g.id, type(app.screen).__name__, notes])
                app._notifications.clear()
                while len(app.screen_stack) > 2:
                    app.pop_screen()
                    await pilot.pause(0.05)
    try:
        asyncio.run(app_run())
    except BaseException:
        out["app_crash"] = traceback.format_exc()
    print(json.dumps(out))
    """
)

CLI_READING_DATA = [
    ["reconquista", "board"],
    ["simulate", "reconquista", "--games", "1"],
    ["simancas", "total", "--moors", "Jund Cavalry", "--christians", "Knights"],
]


def data_files() -> list[str]:
    from companion.datafiles import data_dir

    return sorted(str(p.relative_to(data_dir())) for p in data_dir().rglob("*.toml"))


DATA_FILES = data_files()
VARIANTS = [(name, how) for name in DATA_FILES for how in ("missing", "malformed")]


@pytest.mark.slow
@pytest.mark.parametrize("data_file", DATA_FILES)
def test_every_data_file_missing_or_malformed(data_file: str, tmp_path: Path, figures: Counter[str]) -> None:
    """One test a data file (so that xdist spreads them): the file missing and the file malformed,
    each in a process of its own, the two at once."""
    from companion.datafiles import data_dir

    cli_runs = list(CLI_READING_DATA)
    if (ROOT / "companion" / "castells").is_dir():
        cli_runs.append(["castells", "odds", "--need", "2"])
    assert len(VARIANTS) >= 8, VARIANTS
    variants = [(name, how) for name, how in VARIANTS if name == data_file]
    procs = []
    for i, (name, how) in enumerate(variants):
        copy = tmp_path / f"data{i}"
        shutil.copytree(data_dir(), copy)
        if how == "missing":
            (copy / name).unlink()
        else:
            (copy / name).write_text('[[broken\nname = "no closing quote\n', encoding="utf-8")
        db = tmp_path / f"d{i}.db"
        make_db(db, sessions=1, rolls=2)
        procs.append(
            (
                name,
                how,
                db,
                contents(db),
                subprocess.Popen(
                    [sys.executable, "-c", DATA_PROBE, str(copy), str(db), json.dumps(cli_runs)],
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                ),
            )
        )
    for name, how, db, before, proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0 and "Traceback" not in err, err
        said = json.loads(out.strip().splitlines()[-1])
        assert "app_crash" not in said, said.get("app_crash")
        file_name = Path(name).name
        named = 0
        for argv, code, text in said["cli"]:
            assert code in (0, 2), f"{name} {how}: {argv} exited {code}: {text}"
            assert "Traceback" not in text
            if code == 2:
                assert text.count("\n") == 1, text
                named += file_name in text
        for game, screen, notes in said["app"]:
            bad = [n for n in notes if file_name in n]
            assert all("\n" not in n for n in bad)
            if bad:
                assert screen == "HomeScreen", f"{game} opened with a broken {name}"
                named += 1
        assert named >= 1, f"nothing reported the {how} {name}: {said}"
        # No session was created for a game whose data is broken, and nothing else changed.
        assert contents(db)[1] == before[1]
        assert {row[1] for row in contents(db)[0][len(before[0]) :]} <= {
            game for game, _s, notes in said["app"] if not any(file_name in n for n in notes)
        }
        consistent(db)
        figures["faults"] += 1


def test_opening_the_database_again_in_one_process_keeps_the_first_stores_commits(
    tmp_path: Path, figures: Counter[str]
) -> None:
    """Found by this suite: preflight read the file's header with open()/close(), and closing any
    descriptor of a file drops all the POSIX locks the process holds on it, SQLite's too. With a
    store open, a second opening while another program had the lock let that program, when it
    closed, delete the live WAL: later commits went to a deleted file and were lost."""
    db = make_db(tmp_path / "c.db")
    first = Store(str(db), timeout=0.3)
    sid = first.create_session("dice", 9)
    driver = Driver(dicetray.GAME, 9, recorder=first.recorder(sid))
    driver.type("2d6 Kept")
    with locked(db), pytest.raises(StoreError, match="locked"):
        Store(str(db), timeout=0.3)  # the second opening, refused while the other program holds the lock
    driver.roll()
    first.close()
    sessions, events = contents(db)
    assert [e for e in events if e[0] == sid][-1][3] == "answer" and len(
        [e for e in events if e[0] == sid]
    ) == 2
    assert next(s for s in sessions if s[0] == sid)[2] == 2
    consistent(db)
    figures["faults"] += 1
