"""Benchmark: whole Reconquista games played headless, in games per second on one core.

Each game is 20 turns (or fewer if it ends early) through the real driver and
procedures, with the app rolling every die and the simple bot answering every
choice. Target: 200 games per second or more (DESIGN.md: a whole game in under
5 ms). Run from the repository root:  python bench/simulate.py [--games 300] [--seed 1]

It measures the engine that is installed: compiled by mypyc after ``pip install .``,
pure Python after ``pip install -e .`` or COMPANION_PURE_PYTHON=1 (setup.py); the
first line it prints says which.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

try:
    import companion  # noqa: F401  (the installed package: compiled, if it was built so)
except ImportError:  # not installed: run the checkout's source
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.reconquista import simulate
from companion.reconquista.simulate import play_game

TARGET_GAMES_PER_SECOND = 200


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    play_game(args.seed)  # warm-up: imports, data files, caches
    times: list[float] = []
    prompts: list[int] = []
    start = time.perf_counter()
    for i in range(args.games):
        t = time.perf_counter()
        result = play_game(args.seed + i)
        times.append(time.perf_counter() - t)
        prompts.append(result.prompts)
    total = time.perf_counter() - start
    rate = args.games / total
    compiled = not simulate.__file__.endswith(".py")
    print(f"Python {sys.version.split()[0]}, {args.games} games from seed {args.seed}, one process")
    print(
        f"engine:                 {'compiled with mypyc' if compiled else 'pure Python'} ({simulate.__file__})"
    )
    print(
        f"games per second:       {rate:8.1f}   target >= {TARGET_GAMES_PER_SECOND}: "
        f"{'ok' if rate >= TARGET_GAMES_PER_SECOND else 'UNDER'}"
    )
    print(
        f"time per game:          median {statistics.median(times) * 1000:7.2f} ms   "
        f"p90 {statistics.quantiles(times, n=10)[-1] * 1000:7.2f} ms"
    )
    print(f"prompts per game:       median {statistics.median(prompts):7.0f}   max {max(prompts)}")
    print(f"time per prompt:        {total / sum(prompts) * 1e6:7.1f} us")


if __name__ == "__main__":
    main()
