"""Paths the user names, and files that are not ours: what is named is what is opened, a file
that is not ours is left exactly as it was found, an export is whole or not written, and never
written over the database (issue "Nothing lost, nobody let in", items 4, 5, 6, 12; data files 11).
"""

from __future__ import annotations

import errno
import hashlib
import os
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from companion import files
from companion.cli import main
from companion.datafiles import DataFileError, load_model
from companion.errors import EXIT_OK, EXIT_USAGE
from companion.reconquista.board import MapSpec
from companion.store import preflight
from companion.store.db import Store


def one_sentence(err: str) -> None:
    assert err.count("\n") == 1 and err.startswith("companion: ") and "Traceback" not in err, err


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("name", ["games%20v2.db", "a?b.db", "c#d.db", "sub%2Fgames.db", "50%.db"])
def test_a_database_name_is_the_file_opened(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], figures: Counter[str]
) -> None:
    """'%', '?' and '#' are part of the file name, never URL syntax."""
    db = tmp_path / name
    assert main(["--db", str(db), "history"]) == EXIT_OK
    assert db.is_file()
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.endswith(("-wal", "-shm"))) == [name]
    store = Store(str(db))
    try:
        sid = store.create_session("dice", 1, {})
    finally:
        store.close()
    capsys.readouterr()
    assert main(["--db", str(db), "history", "--json"]) == EXIT_OK
    assert f'"id": {sid}' in capsys.readouterr().out
    figures["hostile_files"] += 1


def foreign_database(path: Path, tables: list[str]) -> None:
    con = sqlite3.connect(path)
    for t in tables:
        con.execute(f"CREATE TABLE {t} (id INTEGER PRIMARY KEY, who TEXT)")
        con.execute(f"INSERT INTO {t} (who) VALUES ('someone')")
    con.commit()
    con.close()


@pytest.mark.parametrize("tables", [["users"], ["session", "users"], ["session"], ["event", "orders"]])
def test_another_programs_database_is_refused_and_left_as_it_was(
    tables: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str], figures: Counter[str]
) -> None:
    db = tmp_path / "theirs.db"
    foreign_database(db, tables)
    before = digest(db)
    assert main(["--db", str(db), "history"]) == EXIT_USAGE
    err = capsys.readouterr().err
    one_sentence(err)
    assert "another program" in err
    assert digest(db) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["theirs.db"]  # no -wal, no -shm
    con = sqlite3.connect(db)
    try:
        assert con.execute("PRAGMA journal_mode").fetchone() == ("delete",)
        assert {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")} == set(tables)
    finally:
        con.close()
    figures["hostile_files"] += 1


def test_sqlite_own_tables_do_not_make_a_database_foreign(tmp_path: Path, figures: Counter[str]) -> None:
    """ANALYZE (or AUTOINCREMENT) adds SQLite's own tables: still ours."""
    db = tmp_path / "c.db"
    Store(str(db)).close()
    con = sqlite3.connect(db)
    con.execute("ANALYZE")
    con.commit()
    assert "sqlite_stat1" in {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    con.close()
    Store(str(db)).close()
    figures["hostile_files"] += 1


def test_an_unknown_schema_version_is_not_called_newer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], figures: Counter[str]
) -> None:
    db = tmp_path / "c.db"
    Store(str(db)).close()
    con = sqlite3.connect(db)
    newer = str(int(preflight.HEAD) + 1)  # a number past the newest revision this app knows
    for version, says in (("'0000'", "never wrote"), ("x'00'", "never wrote"), (newer, "newer")):
        con.execute(f"UPDATE alembic_version SET version_num = {version}")  # text, a blob, a number
        con.commit()
        assert main(["--db", str(db), "history"]) == EXIT_USAGE
        err = capsys.readouterr().err
        one_sentence(err)
        assert says in err and ("newer" in err) == (says == "newer"), err
    con.close()
    figures["hostile_files"] += 1


@pytest.mark.parametrize("how", ["fifo", "empty", "nouser", "folder"])
def test_paths_that_name_no_database_are_one_sentence(
    how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], figures: Counter[str]
) -> None:
    if how == "fifo":
        target = tmp_path / "pipe.db"
        os.mkfifo(target)  # opening it would hang
        arg, words = str(target), "not a regular file"
    elif how == "empty":
        arg, words = "", "names none"
    elif how == "nouser":
        arg, words = "~no-such-user-here/x.db", "home folder does not exist"
    else:
        arg, words = str(tmp_path), "is a folder"
    assert main(["--db", arg, "history"]) == EXIT_USAGE
    err = capsys.readouterr().err
    one_sentence(err)
    assert words in err
    figures["hostile_files"] += 1


def exported_db(tmp_path: Path, *typed: str) -> tuple[Path, int]:
    """A database with one Dice tray session, ``typed`` answered in it; (its path, its id)."""
    from companion.driver import Driver
    from companion.games import load

    db = tmp_path / "c.db"
    store = Store(str(db))
    try:
        sid = store.create_session("dice", 3, {})
        driver = Driver(load("dice"), 3, recorder=store.recorder(sid))
        for text in typed:
            driver.type(text)
    finally:
        store.close()
    return db, sid


@pytest.mark.parametrize("suffix", ["", "-wal", "-shm"])
def test_an_export_onto_the_database_is_refused(
    suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], figures: Counter[str]
) -> None:
    db, sid = exported_db(tmp_path)
    target = Path(f"{db}{suffix}")
    Store(str(db)).close()
    before = digest(db)
    assert main(["--db", str(db), "export", str(sid), "-o", str(target)]) == EXIT_USAGE
    err = capsys.readouterr().err
    one_sentence(err)
    assert "is the database itself" in err
    assert digest(db) == before
    store = Store(str(db))
    try:
        assert [s.id for s in store.sessions()] == [sid]
    finally:
        store.close()
    figures["hostile_files"] += 1


def test_an_export_that_fails_half_way_leaves_the_old_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], figures: Counter[str]
) -> None:
    db, sid = exported_db(tmp_path)
    out = tmp_path / "game.json"
    assert main(["--db", str(db), "export", str(sid), "-o", str(out)]) == EXIT_OK
    whole = out.read_text()
    real_fsync = os.fsync

    def full_disk(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(files.os, "fsync", full_disk)
    capsys.readouterr()
    assert main(["--db", str(db), "export", str(sid), "-o", str(out), "--format", "md"]) == EXIT_USAGE
    err = capsys.readouterr().err
    one_sentence(err)
    assert "No space left on device" in err and "unchanged" in err
    assert out.read_text() == whole
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []  # no temporary left
    monkeypatch.setattr(files.os, "fsync", real_fsync)
    assert main(["--db", str(db), "export", str(sid), "-o", str(out), "--format", "md"]) == EXIT_OK
    assert out.read_text() != whole and out.read_text().startswith("#")
    figures["hostile_files"] += 1


@pytest.mark.parametrize("how", ["fifo", "device", "not-utf8", "bom", "huge"])
def test_a_data_file_that_is_not_one_is_one_sentence(how: str, tmp_path: Path, figures: Counter[str]) -> None:
    from companion.datafiles import data_path

    path = tmp_path / "map.toml"
    shipped = data_path("reconquista/map.toml").read_text(encoding="utf-8")
    if how == "fifo":
        os.mkfifo(path)
    elif how == "device":
        path = Path("/dev/zero")
    elif how == "not-utf8":
        path.write_bytes(shipped.encode("utf-8").replace("Córdoba".encode(), "Córdoba".encode("latin-1")))
    elif how == "bom":
        path.write_text("\ufeff" + shipped, encoding="utf-8")
    else:
        path.write_text(shipped + "#" * (2 * 1024 * 1024), encoding="utf-8")
    if how == "bom":
        assert len(load_model(path, MapSpec).region) == 5  # a BOM is read past
    else:
        with pytest.raises(DataFileError) as err:
            load_model(path, MapSpec)
        text = str(err.value)
        assert text.count("\n") == 0 and str(path) in text and text.endswith(".")
    figures["hostile_files"] += 1


@pytest.mark.parametrize(
    ("game", "config"),
    [
        ("reconquista", {"map": "/dev/zero"}),
        ("reconquista", {"tables": "/etc/shadow"}),
        ("reconquista", {"map": "x.toml", "tables": "y.toml"}),
        # Terra de Castells' own files: its territories and its castle map.
        ("castells", {"territories": "/dev/zero"}),
        ("castells", {"castles": "/etc/shadow"}),
    ],
)
def test_an_import_never_opens_a_file_the_export_names(
    game: str,
    config: dict[str, str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    figures: Counter[str],
) -> None:
    import json

    from companion.driver import Driver
    from companion.games import load
    from companion.review.exchange import export_data

    db = tmp_path / "c.db"
    store = Store(str(db))
    try:
        sid = store.create_session(game, 4, {})
        driver = Driver(load(game), 4, recorder=store.recorder(sid))
        if game == "reconquista":
            driver.ack()
        else:
            driver.submit("2", "player")  # how many players
        data = export_data(store, sid)
    finally:
        store.close()
    data["session"]["config"] = config
    hostile = tmp_path / "hostile.json"
    hostile.write_text(json.dumps(data), encoding="utf-8")
    other = tmp_path / "other.db"
    assert main(["--db", str(other), "import", str(hostile)]) == EXIT_USAGE
    err = capsys.readouterr().err
    one_sentence(err)
    assert "never opens a file an export names" in err
    store = Store(str(other))
    try:
        assert store.sessions() == []
    finally:
        store.close()
    figures["hostile_files"] += 1


@pytest.mark.parametrize(
    ("old", "new", "field"),
    [
        (
            'christian_armies = { "Oviedo" = 1 }',
            'christian_armies = { "Oviedo" = 100000000 }',
            "christian_armies",
        ),
        ("turn = 1", "turn = -3", "setup.turn"),
        ("army = 2", "army = true", "costs.army"),
        ("army = 2", "army = 2.0", "costs.army"),
        ("army = 2", "army = 0", "costs.army"),
        ("base = 2", "base = 99", "income.base"),
    ],
)
def test_a_tables_file_out_of_bounds_is_refused_naming_the_field(
    old: str, new: str, field: str, tmp_path: Path, figures: Counter[str]
) -> None:
    """Bounds belong in the models: a tables file that passes the check must not hang the
    engine (100,000,000 armies in Oviedo ran a minute to 13.6 GB), nor take true or 2.0 for
    a count."""
    from companion.datafiles import data_path
    from companion.reconquista.board import TablesSpec

    text = data_path("reconquista/tables.toml").read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / "tables.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        load_model(path, TablesSpec)
    message = str(err.value)
    assert field in message and str(path) in message and "\n" not in message
    figures["hostile_files"] += 1


@pytest.mark.parametrize("name", ["Oviedo [/]", "   ", "Ovi\x1bedo", "[bold]León"])
def test_a_map_name_with_markup_or_control_characters_or_blank_is_refused(
    name: str, tmp_path: Path, figures: Counter[str]
) -> None:
    from companion.datafiles import data_path

    text = data_path("reconquista/map.toml").read_text(encoding="utf-8")
    path = tmp_path / "map.toml"
    path.write_text(text.replace('name = "Oviedo"', f"name = {json_string(name)}", 1), encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        load_model(path, MapSpec)
    assert "name" in str(err.value) and str(path) in str(err.value)
    figures["hostile_files"] += 1


def test_a_data_file_nested_five_thousand_deep_is_one_sentence(tmp_path: Path, figures: Counter[str]) -> None:
    path = tmp_path / "map.toml"
    path.write_text("x = " + "[" * 5000 + "]" * 5000 + "\n", encoding="utf-8")
    with pytest.raises(DataFileError) as err:
        load_model(path, MapSpec)
    assert str(path) in str(err.value) and "\n" not in str(err.value)
    figures["hostile_files"] += 1


def json_string(text: str) -> str:
    """A TOML basic string for ``text`` (TOML's escapes are JSON's for these)."""
    import json

    return json.dumps(text)


def test_importing_the_same_file_twice_says_so_and_again_adds_a_copy(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], figures: Counter[str]
) -> None:
    """Copies of one session would count twice in the statistics and the luck ledger."""
    db, sid = exported_db(tmp_path)
    out = tmp_path / "game.json"
    assert main(["--db", str(db), "export", str(sid), "-o", str(out)]) == EXIT_OK
    other = tmp_path / "other.db"
    assert main(["--db", str(other), "import", str(out)]) == EXIT_OK
    capsys.readouterr()
    assert main(["--db", str(other), "import", str(out)]) == EXIT_USAGE
    err = capsys.readouterr().err
    one_sentence(err)
    assert "is already in this database as session 1" in err and "--again" in err
    assert main(["--db", str(other), "import", str(out), "--again"]) == EXIT_OK
    store = Store(str(other))
    try:
        assert sorted(s.id for s in store.sessions()) == [1, 2]
    finally:
        store.close()
    figures["hostile_files"] += 1


def test_a_session_number_of_five_thousand_digits_is_not_echoed_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--db", str(tmp_path / "c.db"), "show", "9" * 5000]) == EXIT_USAGE
    err = capsys.readouterr().err
    one_sentence(err)
    assert len(err) < 200 and "'99999999999999999999…' is not a session number" in err


@pytest.mark.slow
def test_a_terminal_that_is_not_utf8_gets_escapes_not_a_traceback(
    tmp_path: Path, figures: Counter[str]
) -> None:
    import subprocess
    import sys

    db, sid = exported_db(tmp_path, "2d6 Ataque en León", "3 4")
    env = dict(os.environ, PYTHONIOENCODING="ascii", LC_ALL="C", LANG="C")
    done = subprocess.run(
        [sys.executable, "-m", "companion", "--db", str(db), "show", str(sid)],
        check=False,
        capture_output=True,
        text=True,
        encoding="ascii",
        env=env,
        timeout=60,
    )
    assert done.returncode == EXIT_OK, done.stderr
    assert "Traceback" not in done.stderr
    assert "Ataque en Le\\xf3n" in done.stdout
    figures["hostile_files"] += 1


@pytest.mark.parametrize("how", ["fifo", "device", "folder"])
def test_an_import_of_something_that_is_not_a_file_is_one_sentence(
    how: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], figures: Counter[str]
) -> None:
    target = {"fifo": tmp_path / "pipe.json", "device": Path("/dev/zero"), "folder": tmp_path}[how]
    if how == "fifo":
        os.mkfifo(target)  # reading it would hang
    assert main(["--db", str(tmp_path / "c.db"), "import", str(target)]) == EXIT_USAGE
    err = capsys.readouterr().err
    one_sentence(err)
    assert "is not a regular file" in err
    figures["hostile_files"] += 1


def test_an_import_larger_than_any_export_is_refused_before_it_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, figures: Counter[str]
) -> None:
    from companion import cli

    big = tmp_path / "big.json"
    big.write_text("{" + " " * 2000 + "}", encoding="utf-8")
    monkeypatch.setattr(cli, "MAX_IMPORT", 1000)
    assert main(["--db", str(tmp_path / "c.db"), "import", str(big)]) == EXIT_USAGE
    err = capsys.readouterr().err
    one_sentence(err)
    assert "a session export is at most 1,000" in err
    figures["hostile_files"] += 1


def test_an_import_from_standard_input_is_bounded_as_a_file_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, figures: Counter[str]
) -> None:
    """Issue #33 item 3: "`companion import -` reads standard input within the same size limit
    as a file": it read all of it first (`yes | companion import -` would fill the memory)."""
    import io

    from companion import cli

    monkeypatch.setattr(cli, "MAX_IMPORT", 1000)

    class Endless(io.StringIO):
        """Standard input that never ends: any read larger than asked for fails the test."""

        def read(self, size: int | None = -1) -> str:
            assert size is not None and 0 <= size <= 1001, size
            return "{" * size

    monkeypatch.setattr("sys.stdin", Endless())
    assert main(["--db", str(tmp_path / "c.db"), "import", "-"]) == EXIT_USAGE
    err = capsys.readouterr().err
    one_sentence(err)
    assert "stdin holds more than 1,000 characters" in err
    figures["hostile_files"] += 1


def read_only_folder(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make ``folder`` refuse new files: its mode where permissions hold, and where they do not
    (the suite run as root) the refusal the system would give, at the calls that meet it."""
    folder.chmod(0o555)
    if os.geteuid() != 0:
        return
    real_mkstemp, real_access = files.tempfile.mkstemp, os.access

    def mkstemp(*args: object, dir: str | Path | None = None, **kwargs: object) -> tuple[int, str]:
        if dir is not None and Path(dir).absolute() == folder.absolute():
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_mkstemp(*args, dir=dir, **kwargs)  # type: ignore[call-overload,no-any-return]

    def access(path: object, mode: int, **kwargs: object) -> bool:
        if mode & os.W_OK and Path(str(path)).absolute() == folder.absolute():
            return False
        return real_access(path, mode, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(files.tempfile, "mkstemp", mkstemp)
    monkeypatch.setattr(os, "access", access)


def test_an_export_into_a_read_only_folder_names_the_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, figures: Counter[str]
) -> None:
    """Issue #33 item 13: "a read-only folder is named as the folder": the export is written
    beside its target first, so the folder is what refuses, not the file."""
    db = tmp_path / "c.db"
    store = Store(str(db))
    sid = store.create_session("dice", 3, {})
    store.close()
    shut = tmp_path / "shut"
    shut.mkdir()
    (shut / "old.json").write_text("old")
    read_only_folder(shut, monkeypatch)
    try:
        assert main(["--db", str(db), "export", str(sid), "-o", str(shut / "old.json")]) == EXIT_USAGE
    finally:
        shut.chmod(0o755)
    err = capsys.readouterr().err
    one_sentence(err)
    assert f"its folder {shut} is read-only" in err, err
    assert (shut / "old.json").read_text() == "old"
    figures["hostile_files"] += 1


def test_a_database_in_a_read_only_folder_names_the_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, figures: Counter[str]
) -> None:
    """Item 13: the database file can be written and its folder cannot (SQLite keeps its journal
    beside it): the sentence said to make the already writable file writable."""
    from companion.store import preflight

    shut = tmp_path / "shut"
    shut.mkdir()
    db = shut / "c.db"
    Store(str(db)).close()
    read_only_folder(shut, monkeypatch)
    try:
        said = str(
            preflight.explain(sqlite3.OperationalError("attempt to write a readonly database"), str(db))
        )
    finally:
        shut.chmod(0o755)
    assert said.startswith(f"The folder {shut} holding the database {db} is read-only"), said
    assert "make the folder writable" in said
    # A read-only file is still named as the file.
    db.chmod(0o444)
    monkeypatch.setattr(os, "access", lambda path, mode, **kw: not (mode & os.W_OK and Path(path) == db))
    said = str(preflight.explain(sqlite3.OperationalError("attempt to write a readonly database"), str(db)))
    assert said == f"The database {db} is read-only; make it writable or choose another with --db."
    figures["hostile_files"] += 1


def test_an_import_too_long_to_open_without_a_wait_is_refused_with_its_size(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], figures: Counter[str]
) -> None:
    """Issue #33 item 12: "An import of a session so large that opening it would freeze the TUI
    (108 MB took 32 s) is refused at the import with its size named". Counted before a step is
    read: the refusal itself takes no time."""
    import json

    from companion.review.exchange import MAX_IMPORT_STEPS

    step = {"step": 1, "prompt": {"kind": "tell", "text": "x"}, "answer": None, "source": "app"}
    doc = {
        "format": "tabletop-companion/session",
        "version": 1,
        "session": {},
        "steps": [step] * (MAX_IMPORT_STEPS + 1),
    }
    path = tmp_path / "long.json"
    path.write_text(json.dumps(doc))
    db = tmp_path / "c.db"
    assert main(["--db", str(db), "import", str(path)]) == EXIT_USAGE
    err = capsys.readouterr().err
    one_sentence(err)
    assert (
        f"holds a session of {MAX_IMPORT_STEPS + 1:,} steps; an import takes at most {MAX_IMPORT_STEPS:,}"
        in err
    )
    assert Store(str(db)).sessions() == []
    figures["hostile_files"] += 1
