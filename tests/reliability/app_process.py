"""An app process for the reliability suite: plays through the Driver and the Store recorder, as the TUI does.

    python app_process.py play DB SESSION        resume a Reconquista session and play it to the end
    python app_process.py tray DB SESSIONS ROLLS  new Dice tray sessions, ROLLS app rolls each

``play_forked`` is ``play`` in a process forked by ``start_play`` (a multiprocessing forkserver
that has imported the app once, so that fifty processes do not import it fifty times).

After every committed step it writes one line to standard output ("step INDEX DIGEST" or
"tray SESSION INDEX") and flushes it, so the test knows what was committed when it kills
the process. What runs is the product's own Driver and Store; only the answers come from
the script in reliability_script.py instead of a person.
"""

from __future__ import annotations

import multiprocessing
import os
import sys
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from reliability_script import RECONQUISTA_CONFIG, play_to_end

from companion.driver import Driver
from companion.store.db import Store


def play(db: str, session_id: int) -> None:
    from companion.reconquista.game import GAME

    store = Store(db)
    info = store.session(session_id)
    log = store.log(session_id)
    driver = Driver.resume(
        GAME, info.seed, info.config or RECONQUISTA_CONFIG, log.steps, store.recorder(session_id)
    )
    out = sys.stdout

    def committed(index: int, digest: str) -> None:
        out.write(f"step {index} {digest}\n")
        out.flush()

    final = play_to_end(driver, committed)
    out.write(f"end {final}\n")
    out.flush()


#: Processes are forked from a server process that imported this module (and so the Driver,
#: the Store and the engine) once; each is a process of its own, with its own database
#: connection, killed by SIGKILL like any other.
_FORKS = multiprocessing.get_context("forkserver")
_FORKS.set_forkserver_preload(["app_process", "companion.reconquista.game"])


def play_forked(stdout: Connection, stderr_path: str, db: str, session_id: int) -> None:
    """``play`` with its standard output on ``stdout`` (a pipe) and its errors in a file."""
    sys.stdout = open(stdout.fileno(), "w", closefd=False)  # noqa: SIM115 -- the process's own stdout
    sys.stderr = open(stderr_path, "w")  # noqa: SIM115 -- the process's own stderr
    play(db, session_id)


def start_play(db: str, session_id: int, stderr_path: str) -> tuple[BaseProcess, int]:
    """Start ``play`` in a forked process; returns it and the read end of its standard output
    (a file descriptor the caller closes)."""
    read_end, write_end = _FORKS.Pipe(duplex=False)
    process = _FORKS.Process(target=play_forked, args=(write_end, stderr_path, db, session_id))
    process.start()
    write_end.close()  # the child holds the only write end: its death is the pipe's end
    fd = os.dup(read_end.fileno())
    read_end.close()
    return process, fd


def tray(db: str, sessions: int, rolls: int) -> None:
    from companion.dicetray import GAME

    store = Store(db)
    out = sys.stdout
    for n in range(sessions):
        sid = store.create_session("dice", 1000 + n)
        out.write(f"session {sid}\n")
        driver = Driver(GAME, 1000 + n, recorder=store.recorder(sid))
        for _ in range(rolls):
            driver.type("2d6 Reliability")
            driver.roll()
            out.write(f"tray {sid} {len(driver.steps) - 1}\n")
            out.flush()
        driver.type("end")
    out.write("done\n")
    out.flush()


if __name__ == "__main__":
    mode = sys.argv[1]
    if mode == "play":
        play(sys.argv[2], int(sys.argv[3]))
    elif mode == "tray":
        tray(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]))
    else:
        raise SystemExit(f"unknown mode {mode!r}")
