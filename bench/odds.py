"""Benchmark: the time of one exact odds computation for Reconquista.

Cases: the siege odds of 3A2G besieging a city with a fortress held by 2A1G
(``odds.siege_odds``), and battles of the same size, 3A2G attacking 2A1G: in the
open in the mountains (first round struck by the defenders, then simultaneous
rounds until one is not a tie) and by a city. Every memo cache of ``odds`` is
cleared before each timed run (outside the timing), so each run computes from
scratch. Prints the median and p90 in milliseconds against the target.

Target (docs/design.md, "What good looks like"): exact odds of a siege or battle in under 5 ms.

Run from the repository root:  python bench/odds.py [--n 500]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.reconquista import odds
from companion.reconquista.units import parse_spec

TARGET_MS = 5.0
BIG, SMALL = parse_spec("3A2G"), parse_spec("2A1G")

CASES: list[tuple[str, Callable[[], dict[str, float]]]] = [
    (
        "siege  3A2G vs city+fortress 2A1G",
        lambda: odds.siege_odds(BIG, SMALL, city=True, fortress=True),
    ),
    (
        "battle 3A2G vs 2A1G, mountain    ",
        lambda: odds.battle_odds(BIG, SMALL, city=False, mountain=True),
    ),
    (
        "battle 3A2G vs 2A1G, open field  ",
        lambda: odds.battle_odds(BIG, SMALL, city=False),
    ),
    (
        "battle 3A2G vs 2A1G, by a city   ",
        lambda: odds.battle_odds(BIG, SMALL, city=True),
    ),
]


def measure(fn: Callable[[], dict[str, float]], n: int) -> list[float]:
    """Durations in ms of n from-scratch runs."""
    times = []
    for _ in range(n):
        odds.clear_caches()
        start = time.perf_counter_ns()
        fn()
        times.append((time.perf_counter_ns() - start) / 1e6)
    return times


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=500, help="timed runs per case (default 500)")
    args = parser.parse_args()
    print(f"Exact odds, median of {args.n} from-scratch runs (target {TARGET_MS:.0f} ms):")
    ok = True
    for name, fn in CASES:
        measure(fn, 5)  # warm-up: imports, first-call costs
        times = measure(fn, args.n)
        median = statistics.median(times)
        p90 = statistics.quantiles(times, n=10, method="inclusive")[-1]
        ok &= median < TARGET_MS
        result = ", ".join(f"{k} {v:.3f}" for k, v in fn().items())
        print(f"  {name}  median {median:7.3f} ms  p90 {p90:7.3f} ms  ({result})")
    print("All under the target." if ok else "Over the target.")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
