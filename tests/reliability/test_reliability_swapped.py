"""A database moved, deleted or copied over while the app runs (issue #33, item 9).

"A database moved or copied over the file while the app runs (a restore, a sync tool) is noticed
before the next write, and the app stops writing with one sentence; today its leftover WAL is
replayed over the moved-in database on the next open, and the restored games and the games
played since are both lost." Each way a file is swapped: the next write is refused in one
sentence, every later one too, the file moved in opens whole with its own games, and what the
app had is kept beside it where it can still be read (a rename leaves the app its old file).
"""

from __future__ import annotations

import os
import shutil
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

from companion.driver import Driver
from companion.errors import StoreError
from companion.games import load
from companion.store.db import Store


def play(store: Store, seed: int, rolls: int) -> Driver:
    sid = store.create_session("dice", seed, {})
    driver = Driver(load("dice"), seed, recorder=store.recorder(sid))
    for _ in range(rolls):
        driver.type("2d6 Attack")
        driver.type("3 4")
    return driver


def counts(path: Path) -> tuple[int, int, str]:
    """(sessions, events, integrity) of the database at ``path``, read as another program would."""
    con = sqlite3.connect(path)
    try:
        sessions = con.execute("SELECT COUNT(*) FROM session").fetchone()[0]
        events = con.execute("SELECT COUNT(*) FROM event").fetchone()[0]
        return sessions, events, con.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        con.close()


def backup(path: Path, seed: int, rolls: int) -> tuple[int, int, str]:
    store = Store(str(path))
    play(store, seed, rolls)
    store.close()
    return counts(path)


SWAPS = {
    "moved over it (a restore, a sync tool)": ("replaced", os.replace),
    "copied over it in place": ("overwritten", shutil.copyfile),
    "deleted": ("moved or deleted", lambda other, db: os.remove(db)),
}


@pytest.mark.parametrize("how", list(SWAPS))
def test_a_database_swapped_under_the_app_stops_its_writes_and_loses_nothing(
    how: str, tmp_path: Path, figures: Counter[str]
) -> None:
    words, swap = SWAPS[how]
    db, other = tmp_path / "c.db", tmp_path / "restored.db"
    restored = backup(other, 9, 2)
    store = Store(str(db))
    driver = play(store, 1, 250)  # more than the journal holds before SQLite checkpoints it
    had = counts(db)
    swap(other, db)
    with pytest.raises(StoreError) as stopped:
        driver.type("2d6 Attack")
    sentence = str(stopped.value)
    assert f"The database {db} was {words}" in sentence and "nothing more is written" in sentence
    assert "\n" not in sentence
    with pytest.raises(StoreError, match="nothing more is written"):
        store.create_session("dice", 5, {})  # and every write after it
    store.close()
    kept = next(tmp_path.glob("c.db.kept-*.db"))
    if how == "deleted":
        assert not db.exists()
    else:
        # The file moved in opens whole, with its own games, and no journal of the app's
        # replayed over it.
        assert counts(db) == restored
    if how == "copied over it in place":
        assert counts(kept) == restored  # the file put there, kept whole too
    else:
        # The app's own games as it had them, the step refused not among them.
        assert counts(kept) == had
    figures["damaged_rows"] += 1


def test_an_older_copy_of_the_same_database_copied_over_it_is_noticed(tmp_path: Path) -> None:
    db, old = tmp_path / "c.db", tmp_path / "old.db"
    store = Store(str(db))
    play(store, 1, 3)
    store.close()
    shutil.copyfile(db, old)
    store = Store(str(db))
    driver = play(store, 2, 300)
    shutil.copyfile(old, db)  # last week's backup
    with pytest.raises(StoreError, match="was overwritten while the app was running"):
        driver.type("2d6 Attack")
    store.close()
    assert counts(db)[:2] == (1, 6)


def test_two_apps_on_one_database_never_take_each_other_for_a_swap(tmp_path: Path) -> None:
    """The watch must not stop a second app of ours writing to the same file, whose checkpoints
    grow the file under the first."""
    db = tmp_path / "c.db"
    first, second = Store(str(db)), Store(str(db))
    a, b = play(first, 1, 1), play(second, 2, 1)
    for _ in range(400):
        a.type("2d6 Attack")
        a.type("3 4")
        b.type("1d6 Morale")
        b.type("5")
    assert first.stopped is None and second.stopped is None
    first.close()
    second.close()
    assert counts(db)[0] == 2


def test_the_watch_never_drops_the_locks_sqlite_holds(tmp_path: Path) -> None:
    """Closing any descriptor of a file drops every POSIX lock the process holds on it: a watch
    that opened the database to read its header let another program, closing its own
    connection, take the app for gone and delete the journal under it (a disk I/O error)."""
    db = tmp_path / "c.db"
    store = Store(str(db))
    driver = play(store, 1, 3)
    for _ in range(3):
        other = sqlite3.connect(db)
        other.execute("SELECT COUNT(*) FROM event").fetchone()
        other.close()  # the last connection but for the app's: it must see the app's locks
        assert Path(f"{db}-wal").exists()
        driver.type("2d6 Attack")
        driver.type("3 4")
    store.close()
    assert counts(db) == (1, 12, "ok")
