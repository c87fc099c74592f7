"""Killed at any moment (SIGKILL), the app loses no answered prompt, and the game resumes to the same end.

Each run starts a real app process (app_process.py: the Driver and the Store recorder, as
the TUI uses them; forked from a server that has imported them once) on a Reconquista session of its own, reads the line it writes after each
committed step, and kills it with SIGKILL at a random (seeded) moment. Then, from the
database alone: every step the process reported committed is in the log with the same state
digest, the session row agrees with its log (no half-written step), and the game resumed
with Driver.resume and played on by the same script ends in the very state of an
uninterrupted game with the same seed. The fifty runs are five tests of ten, so that xdist can
spread them over the cores; within a test they go two at a time (while one run's process plays,
the other's database is checked and its game resumed). Whether the kills landed all over the
game is checked on the fifty together, by the test that ends last.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import json
import random
import signal
import sqlite3
import time
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from app_process import start_play
from reliability_script import RECONQUISTA_CONFIG, final_digest, play_to_end, reference

from companion.driver import Driver, canonical, digest
from companion.reconquista.game import GAME
from companion.store.db import Store

RUNS = 50
GAMES = 10  # five kills in each of ten whole games
LONG_GAME = 500  # steps: a game the scripted Christians lose early leaves little to kill
F_SETPIPE_SZ = 1031  # Linux: a small pipe keeps the killed process close to what it reported


@dataclass
class Run:
    number: int
    seed: int
    kill_after: int  # lines read before the kill
    jitter: float  # seconds between reading that line and the kill


@dataclass
class Outcome:
    run: Run
    reported: list[tuple[int, str]]  # (step index, digest) the process said it committed
    reached_end: bool
    stderr: str


def kill_at_random_moment(run: Run, db: Path, session_id: int) -> Outcome:
    errors = db.with_suffix(".stderr")
    proc, fd = start_play(str(db), session_id, str(errors))
    with contextlib.suppress(OSError):
        fcntl.fcntl(fd, F_SETPIPE_SZ, 4096)
    with open(fd, "rb", buffering=0) as stdout:
        lines: list[bytes] = []
        while len(lines) < run.kill_after:
            line = stdout.readline()
            if not line:
                break
            lines.append(line)
        if run.jitter:
            time.sleep(run.jitter)
        proc.kill()  # SIGKILL
        rest = stdout.readall()  # what it wrote before it died is still in the pipe
    proc.join(timeout=30)
    assert proc.exitcode in (0, -signal.SIGKILL), proc.exitcode
    err = errors.read_text(errors="replace") if errors.exists() else ""
    text = b"".join(lines).decode() + (rest or b"").decode()
    reported: list[tuple[int, str]] = []
    reached_end = False
    for line in text.splitlines():
        word, *rest_words = line.split()
        if word == "step":
            reported.append((int(rest_words[0]), rest_words[1]))
        elif word == "end":
            reached_end = True
    return Outcome(run, reported, reached_end, err)


def event_rows(db: Path, session_id: int) -> list[tuple[int, int, str]]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return list(
            con.execute("SELECT seq, step, kind FROM event WHERE session_id=? ORDER BY seq", (session_id,))
        )
    finally:
        con.close()


def check_and_resume(outcome: Outcome, db: Path, session_id: int, ref: tuple[str, int]) -> tuple[float, int]:
    """Check the database after a kill, then resume and play to the end; (kill point in the game, lost)."""
    run = outcome.run
    assert "Traceback" not in outcome.stderr, outcome.stderr
    reported = outcome.reported
    assert [i for i, _ in reported] == list(range(len(reported))), "the process reported steps out of order"
    store = Store(str(db))
    log = store.log(session_id)
    info = store.session(session_id)
    # Every step reported committed is there, unchanged; at most one more (committed, then killed
    # before it could say so).
    lost = sum(1 for i, d in reported if i >= len(log.digests) or log.digests[i] != d)
    assert lost == 0, f"run {run.number}: {lost} committed steps lost or changed"
    assert len(reported) <= len(log.steps) <= len(reported) + 1
    # No half-written step: the session row, the stored state and the event rows agree with the log.
    rows = event_rows(db, session_id)
    assert [seq for seq, _s, _k in rows] == list(range(len(rows)))
    assert [step for _q, step, _k in rows] == list(range(len(rows)))
    assert info.steps == len(log.steps) == len(rows)
    stored = store.state(session_id)
    if log.steps:
        assert digest(canonical(stored)) == log.digests[-1]
    else:
        assert stored == {}
    # Resume from the log and play on with the same script, recording: the same end as without the kill.
    driver = Driver.resume(GAME, info.seed, info.config, log.steps, store.recorder(session_id))
    if log.steps:
        assert digest(driver.snapshot()) == log.digests[-1]
    final = play_to_end(driver)
    want_final, want_steps = ref
    assert final == want_final, f"run {run.number}: the resumed game ended in another state"
    assert len(driver.steps) == want_steps
    end = store.session(session_id)
    assert end.status == "finished" and end.steps == want_steps
    assert digest(canonical(store.state(session_id))) == final_digest(driver)
    store.close()
    return len(log.steps) / want_steps, lost


PARTS = 5  # the fifty runs as five tests of ten, so that xdist can spread them over the cores


@functools.cache
def plan() -> tuple[dict[int, tuple[str, int]], list[Run]]:
    """The reference games and the fifty runs: the same in every test process (all seeded)."""
    rng = random.Random(20261130)
    refs: dict[int, tuple[str, int]] = {}
    seed = 7000
    while len(refs) < GAMES:  # the first ten seeds from 7001 whose scripted game runs long
        seed += 1
        final, steps = reference(seed)
        if steps >= LONG_GAME:
            refs[seed] = (final, steps)
    game_seeds = sorted(refs)
    runs = []
    for n in range(RUNS):
        seed = game_seeds[n % len(game_seeds)]
        total = refs[seed][1]
        # Anywhere from before the first answer to near the end (the pipe lets it run ~150 steps ahead).
        runs.append(
            Run(n, seed, rng.randrange(0, max(1, total - 200)), rng.choice([0, 0, rng.uniform(0, 0.003)]))
        )
    return refs, runs


@contextlib.contextmanager
def locked_folder(folder: Path) -> Iterator[Path]:
    """``folder`` (made if need be), held under an exclusive lock against the other test processes."""
    folder.mkdir(exist_ok=True)
    with (folder / ".lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield folder
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS), ids=[f"runs {p * 10}-{p * 10 + 9}" for p in range(PARTS)])
def test_fifty_sigkills_lose_nothing_and_resume_to_the_same_end(
    part: int, tmp_path: Path, run_dir: Path, figures: Counter[str]
) -> None:
    refs, all_runs = plan()
    per_part = RUNS // PARTS
    runs = all_runs[part * per_part : (part + 1) * per_part]

    sessions = {}
    for run in runs:
        db = tmp_path / f"crash{run.number}.db"
        store = Store(str(db))
        sessions[run.number] = (db, store.create_session("reconquista", run.seed, RECONQUISTA_CONFIG))
        store.close()

    def one(run: Run) -> tuple[Outcome, float, int]:
        db, session_id = sessions[run.number]
        outcome = kill_at_random_moment(run, db, session_id)
        point, lost = check_and_resume(outcome, db, session_id, refs[run.seed])
        return outcome, point, lost

    with ThreadPoolExecutor(max_workers=2) as pool:
        results = list(pool.map(one, runs))

    killed_mid_game = sum(not outcome.reached_end for outcome, _p, _l in results)
    kill_points = [point for _o, point, _l in results]
    figures["crash_runs"] += len(results)
    figures["events_checked"] += sum(len(outcome.reported) for outcome, _p, _l in results)
    figures["events_lost"] += sum(lost for _o, _p, lost in results)

    # The kills must have landed during play, all over the game, or this test proves little.
    assert killed_mid_game == len(runs)
    # All over the game is a property of the fifty runs: each part leaves its kill points in the
    # run's shared folder, and the part that finds all five there (the last to end, in whichever
    # process) checks them together.
    with locked_folder(run_dir / "crash-kill-points") as folder:
        (folder / f"part{part}.json").write_text(json.dumps(kill_points))
        parts = sorted(folder.glob("part*.json"))
        if len(parts) < PARTS:
            return
        kill_points = [p for path in parts for p in json.loads(path.read_text())]
    assert len(kill_points) == RUNS
    assert min(kill_points) < 0.3 and max(kill_points) > 0.6, kill_points
    assert len({round(p, 2) for p in kill_points}) > RUNS // 2
    print(json.dumps({"crash_runs": RUNS, "kill_points": sorted(round(p, 3) for p in kill_points)}))
