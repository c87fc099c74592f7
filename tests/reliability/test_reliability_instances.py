"""Two app instances on one database at once: both keep working (they wait for the lock), nothing lost or doubled."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from companion.store.db import Store

APP = Path(__file__).resolve().parent / "app_process.py"
SESSIONS, ROLLS = 4, 60  # each instance: 4 Dice tray sessions of 60 app rolls (121 events each)


@pytest.mark.slow
def test_two_instances_write_at_once_and_every_event_is_there_once(
    tmp_path: Path, figures: Counter[str]
) -> None:
    db = tmp_path / "shared.db"
    Store(str(db)).close()  # made once, so neither instance races the other to create the schema
    procs = [
        subprocess.Popen(
            [sys.executable, str(APP), "tray", str(db), str(SESSIONS), str(ROLLS)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(2)
    ]
    reported: dict[int, list[int]] = {}
    for proc in procs:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        assert err == "", err
        lines = out.splitlines()
        assert lines[-1] == "done"
        for line in lines:
            if line.startswith("tray "):
                _w, sid, step = line.split()
                reported.setdefault(int(sid), []).append(int(step))
    assert len(reported) == 2 * SESSIONS, "a session was lost or two instances got the same one"
    con = sqlite3.connect(db)
    rows = list(con.execute("SELECT session_id, seq, step, kind, source FROM event ORDER BY session_id, seq"))
    sessions = dict(con.execute("SELECT id, steps FROM session"))
    con.close()
    per: dict[int, list[tuple[int, int, str, str]]] = {}
    for sid, seq, step, kind, source in rows:
        per.setdefault(sid, []).append((seq, step, kind, source))
    lost = duplicated = 0
    for sid, steps in reported.items():
        events = per.get(sid, [])
        seqs = [seq for seq, *_ in events]
        duplicated += len(seqs) - len(set(seqs))
        app_steps = {step for _seq, step, _k, src in events if src == "app"}
        lost += len(set(steps) - app_steps)
        assert seqs == list(range(2 * ROLLS + 1)), f"session {sid}: seqs are not 0..{2 * ROLLS}"
        assert sessions[sid] == 2 * ROLLS + 1
    figures["instance_events"] += len(rows)
    figures["events_checked"] += sum(len(s) for s in reported.values())
    figures["events_lost"] += lost
    figures["events_duplicated"] += duplicated
    assert lost == 0 and duplicated == 0
    assert len(rows) == 2 * SESSIONS * (2 * ROLLS + 1)


def test_stores_opened_by_two_threads_at_once_both_work(tmp_path: Path, figures: Counter[str]) -> None:
    """Found by this suite: Alembic keeps its context in module globals, so two new databases
    migrated by two threads at once failed (a KeyError from inside Alembic, or a database left
    without its tables)."""
    from concurrent.futures import ThreadPoolExecutor

    def open_and_write(n: int) -> int:
        store = Store(str(tmp_path / f"t{n}.db"))
        sid = store.create_session("dice", n)
        store.close()
        return sid

    with ThreadPoolExecutor(max_workers=4) as pool:
        assert list(pool.map(open_and_write, range(12))) == [1] * 12
    figures["faults"] += 1
