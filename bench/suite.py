"""The test suite's speed against its targets: the fast tier's wall time, the whole suite's wall
time against its CPU floor, and its longest test.

    python bench/suite.py            # the fast tier, then the whole suite
    python bench/suite.py --fast     # the fast tier only

Each tier runs as ``pytest`` does from the README (every core, the longest tests first), in a
process of its own; this script times it from outside (wall clock, and the CPU of every process
of the run, from the operating system's accounting of the children it waited for) and reads the
line the suite clock prints (tests/suite_clock.py) for the number of tests and the longest test.
The CPU floor is that CPU shared evenly over the cores: no schedule on this machine ends sooner.

Targets (docs/design.md, "What good looks like"): the fast tier under 60 s wall on 2 cores; the
whole suite within 1.2x its CPU floor, and no test over 30 s. Exit code 1 when one is missed.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from suite_clock import FAST_TARGET, FLOOR_TARGET, LONGEST_TARGET, cores  # noqa: E402

LONGEST = re.compile(r"longest test ([0-9.]+) s \(target <= \d+ s\): (\S+)")
COUNTS = re.compile(r"(\d+) passed")


@dataclass(frozen=True)
class Run:
    """One run of pytest: its wall time and CPU (seconds), tests passed, longest test, exit code."""

    wall: float
    cpu: float
    passed: int
    longest: float
    longest_name: str
    code: int


def run(args: list[str]) -> Run:
    """Run pytest with ``args`` from the repository's root, timed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    out = done.stdout
    longest = LONGEST.search(out)
    passed = COUNTS.search(out)
    if done.returncode != 0:
        print(out[-3000:], done.stderr[-2000:], sep="\n", file=sys.stderr)
    return Run(
        wall,
        cpu,
        int(passed.group(1)) if passed else 0,
        float(longest.group(1)) if longest else 0.0,
        longest.group(2) if longest else "?",
        done.returncode,
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--fast", action="store_true", help="the fast tier only")
    args = parser.parse_args()
    n = cores()
    missed = []
    print(
        f"{n} cores; targets: fast tier < {FAST_TARGET:.0f} s wall, whole suite <= {FLOOR_TARGET}x its CPU floor, "
        f"no test over {LONGEST_TARGET:.0f} s"
    )

    fast = run(["-m", "not slow"])
    print(
        f"fast tier (pytest -m 'not slow'): {fast.passed} tests, {fast.wall:6.1f} s wall "
        f"(target < {FAST_TARGET:.0f} s), CPU {fast.cpu:.0f} s"
    )
    if fast.code != 0:
        missed.append("the fast tier failed")
    if fast.wall >= FAST_TARGET:
        missed.append("the fast tier's wall time")

    if not args.fast:
        whole = run([])
        floor = whole.cpu / n
        ratio = whole.wall / floor if floor else 0.0
        print(
            f"whole suite (pytest): {whole.passed} tests, {whole.wall:6.1f} s wall, CPU {whole.cpu:.0f} s, "
            f"floor {floor:.0f} s: {ratio:.2f}x the floor (target <= {FLOOR_TARGET}x)"
        )
        print(f"longest test: {whole.longest:.1f} s (target <= {LONGEST_TARGET:.0f} s): {whole.longest_name}")
        if whole.code != 0:
            missed.append("the whole suite failed")
        if ratio > FLOOR_TARGET:
            missed.append("the whole suite's wall time against its floor")
        if whole.longest > LONGEST_TARGET:
            missed.append("the longest test")
    if os.environ.get("CI"):
        print("(CI is set: figures on a shared machine vary)")
    print("every target met" if not missed else "missed: " + ", ".join(missed))
    return 1 if missed else 0


if __name__ == "__main__":
    raise SystemExit(main())
