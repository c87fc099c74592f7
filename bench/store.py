"""Benchmark: the time to commit one answered prompt to a file database.

Measures, on a SQLite file in a temporary folder, a Dice-tray session driven
through ``companion.driver.Driver`` with the store's ``SessionRecorder``
attached: each timed call is one ``Driver.type`` / ``Driver.roll`` (engine step,
snapshot and digest, ``Record``, one SQLite transaction). It prints the median
and p90 of the whole call, and separately the median of ``SessionRecorder.record``
alone (the store's share) and of its SQL transaction (``_write``) alone.

Target: under 1 ms median for the commit of one answered prompt.

Run from the repository root:  python bench/store.py [--n 2000] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.dicetray import GAME
from companion.driver import Driver, Record, Step
from companion.prompts import Roll
from companion.store.db import SessionRecorder, Store

TARGET_MS = 1.0
SEED = 1


@dataclass
class Timings:
    """Per-call durations in nanoseconds."""

    call: list[int] = field(default_factory=list)  # Driver.type / Driver.roll
    record: list[int] = field(default_factory=list)  # SessionRecorder.record
    write: list[int] = field(default_factory=list)  # SessionRecorder._write (the transaction)


def _ms(ns: float) -> float:
    return ns / 1e6


def _p90(values: list[int]) -> float:
    return statistics.quantiles(values, n=10, method="inclusive")[-1]


def _wrap_recorder(recorder: SessionRecorder, timings: Timings) -> None:
    """Time the recorder's record and _write calls by wrapping them on the instance."""
    record: Callable[[Record], None] = recorder.record
    write: Callable[[dict[str, Any], dict[str, Any]], None] = recorder._write

    def timed_record(rec: Record) -> None:
        t0 = time.perf_counter_ns()
        record(rec)
        timings.record.append(time.perf_counter_ns() - t0)

    def timed_write(event_values: dict[str, Any], session_values: dict[str, Any]) -> None:
        t0 = time.perf_counter_ns()
        write(event_values, session_values)
        timings.write.append(time.perf_counter_ns() - t0)

    recorder.record = timed_record  # type: ignore[method-assign]
    recorder._write = timed_write  # type: ignore[method-assign]


def _answer(driver: Driver, i: int) -> Step:
    """Answer the waiting prompt the way a player would: a dice spec, then the dice."""
    if isinstance(driver.pending, Roll):
        # Half the rolls typed from the table, half rolled by the app.
        return driver.roll() if i % 4 == 1 else driver.type(" ".join(["3"] * driver.pending.n))
    return driver.type("2d6 Attack")


def run(n: int, folder: Path, profile: cProfile.Profile | None = None) -> Timings:
    """Open a store in ``folder``, play ``n`` steps of a dice tray, and time each."""
    store = Store(str(folder / "bench.db"))
    try:
        session_id = store.create_session(GAME.id, SEED)
        recorder = store.recorder(session_id)
        timings = Timings()
        _wrap_recorder(recorder, timings)
        driver = Driver(GAME, SEED, recorder=recorder)
        for _ in range(20):  # warm-up: compiled statements, page cache
            _answer(driver, len(driver.steps))
        timings.record.clear()
        timings.write.clear()
        if profile is not None:
            profile.enable()
        for _ in range(n):
            i = len(driver.steps)
            t0 = time.perf_counter_ns()
            _answer(driver, i)
            timings.call.append(time.perf_counter_ns() - t0)
        if profile is not None:
            profile.disable()
        info = store.session(session_id)
        assert info.steps == len(driver.steps), "the store and the driver disagree"
    finally:
        store.close()
    return timings


def _verdict(ms: float) -> str:
    return f"target < {TARGET_MS:g} ms: {'ok' if ms < TARGET_MS else 'OVER'}"


def report(t: Timings) -> None:
    call_med = _ms(statistics.median(t.call))
    rec_med = _ms(statistics.median(t.record))
    write_med = _ms(statistics.median(t.write))
    print(f"steps timed:                     {len(t.call)} (dice-tray prompts, file database, WAL)")
    print(
        f"Driver call (engine+record+tx):  median {call_med:7.3f} ms   p90 {_ms(_p90(t.call)):7.3f} ms   {_verdict(call_med)}"
    )
    print(
        f"SessionRecorder.record alone:    median {rec_med:7.3f} ms   p90 {_ms(_p90(t.record)):7.3f} ms   {_verdict(rec_med)}"
    )
    print(f"  of which the transaction:      median {write_med:7.3f} ms   p90 {_ms(_p90(t.write)):7.3f} ms")
    print(f"store's share of a call:         {100 * rec_med / call_med:5.1f} % (record median / call median)")
    # The dice tray's state grows with every roll, and every step stores the whole
    # snapshot: show whether the cost grows with the session's length.
    k = max(1, len(t.call) // 10)
    first, last = t.call[:k], t.call[-k:]
    rfirst, rlast = t.record[:k], t.record[-k:]
    wfirst, wlast = t.write[:k], t.write[-k:]
    print(
        f"growth, first vs last {k} steps:  call {_ms(statistics.median(first)):.3f} -> "
        f"{_ms(statistics.median(last)):.3f} ms, record {_ms(statistics.median(rfirst)):.3f} -> "
        f"{_ms(statistics.median(rlast)):.3f} ms, transaction {_ms(statistics.median(wfirst)):.3f} -> "
        f"{_ms(statistics.median(wlast)):.3f} ms"
    )


def print_profile(profile: cProfile.Profile, n: int, top: int) -> None:
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out)
    stats.sort_stats("tottime").print_stats(top)
    print(f"\ncProfile of the {n} timed steps (top {top} by own time):")
    print(out.getvalue())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--n", type=int, default=2000, help="answered prompts to time (default 2000)")
    parser.add_argument(
        "--profile", action="store_true", help="also run once under cProfile and print the top functions"
    )
    parser.add_argument("--top", type=int, default=25, help="rows of the profile to print (default 25)")
    args = parser.parse_args(argv)
    if args.n < 10:
        parser.error("--n must be at least 10")

    print(f"Python {sys.version.split()[0]}, SQLite file in a temporary folder")
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        report(run(args.n, Path(tmp)))
    if args.profile:
        profile = cProfile.Profile()
        with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
            run(args.n, Path(tmp), profile)
        print_profile(profile, args.n, args.top)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
