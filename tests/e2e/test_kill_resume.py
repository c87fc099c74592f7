"""The app killed with SIGKILL mid-session loses nothing: restarted, it resumes every answered prompt.

The real `companion` command runs in a pseudo-terminal, keys are typed into it,
and the database is read directly (read-only) to see what was committed.
"""

from __future__ import annotations

import fcntl
import os
import pty
import signal
import sqlite3
import struct
import subprocess
import sys
import termios
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="uses a Linux pseudo-terminal")


class TerminalApp:
    """`python -m companion` in a pseudo-terminal of 100x30, its output drained in a thread."""

    def __init__(self, db: Path, seed: int) -> None:
        self.master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        env = {**os.environ, "TERM": "xterm-256color", "COLUMNS": "100", "LINES": "30"}
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "--db", str(db), "--seed", str(seed)],
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=env,
            start_new_session=True,
        )
        os.close(slave)
        self.output = bytearray()
        self._reader = threading.Thread(target=self._drain, daemon=True)
        self._reader.start()

    def _drain(self) -> None:
        while True:
            try:
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            self.output.extend(chunk)

    def type(self, keys: bytes) -> None:
        os.write(self.master, keys)

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)
        os.close(self.master)


def committed(db: Path) -> list[tuple[int, int, str, str]]:
    """(session, step, answer, source) of every committed answer, read without writing."""
    if not db.exists():
        return []
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5)
    try:
        return list(
            con.execute("SELECT session_id, step, answer, source FROM event WHERE kind='answer' ORDER BY seq")
        )
    except sqlite3.OperationalError:
        return []  # the schema is not there yet
    finally:
        con.close()


def wait_for(cond: Callable[[], bool], what: str, timeout: float = 30.0) -> None:
    end = time.monotonic() + timeout
    while not cond():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.05)


def rolls(db: Path) -> list[tuple[int, str, str]]:
    return [(s, a, src) for s, _step, a, src in committed(db) if src in ("physical", "app")]


def test_sigkill_then_restart_resumes_every_answered_prompt(tmp_path: Path) -> None:
    db = tmp_path / "kill.db"
    app = TerminalApp(db, seed=5)
    try:
        wait_for(lambda: b"Dice tray" in app.output, "the home screen")
        time.sleep(0.5)  # let the store open in the background
        app.type(b"d")
        wait_for(lambda: b"Quick picks" in app.output, "the dice tray")
        time.sleep(0.3)
        app.type(b"34\r")
        wait_for(lambda: len(rolls(db)) == 1, "the typed roll")
        app.type(b"r")
        wait_for(lambda: len(rolls(db)) == 2, "the app roll")
        app.type(b"6 1\r")
        wait_for(lambda: len(rolls(db)) == 3, "the third roll")
    finally:
        app.kill()
    before = committed(db)
    assert next((a, src) for _s, a, src in rolls(db)) == ("[3, 4]", "physical")
    assert [src for _s, _a, src in rolls(db)] == ["physical", "app", "physical"]

    # Restart: the session is offered on the home screen; Tab to it, Enter resumes it.
    app = TerminalApp(db, seed=6)
    try:
        wait_for(lambda: b"Unfinished sessions" in app.output, "the home screen again")
        wait_for(lambda: b"#1 Dice tray" in app.output, "the unfinished session listed")
        app.type(b"\t")
        time.sleep(0.3)
        app.type(b"\r")
        wait_for(lambda: b"Quick picks" in app.output, "the resumed dice tray")
        time.sleep(0.3)
        app.type(b"r")
        wait_for(lambda: len(rolls(db)) == 4, "a roll after the resume")
    finally:
        app.kill()
    after = committed(db)
    assert after[: len(before)] == before, "an answer committed before the kill was lost or changed"
    assert {s for s, _step, _a, _src in after} == {1}, "the restart did not resume session 1"
    # The resumed session carried on from its last step: steps are consecutive.
    assert [step for _s, step, _a, _src in after] == list(range(len(after)))
    # The app dice of the resumed session come from its own seed (5), not the new process's (6).
    from companion.dice import app_roll

    app_rolled = [(step, a) for _s, step, a, src in after if src == "app"]
    for step, answer in app_rolled:
        assert answer == str(app_roll(5, step, 2, 6))
