"""Benchmark: whole Reconquista games played headless, in games per second on one core.

Each game is 20 turns (or fewer if it ends early) through the real driver and
procedures, with the app rolling every die and the simple bot answering every
choice. The figure is reported, not held to a floor: no player waits on headless
games, and what a player does wait on, a replay of a whole game, has its own
benchmark (bench/replay.py). Run from the repository root:
python bench/simulate.py [--games 300] [--seed 1]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout's source

from companion.reconquista.simulate import play_game


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
    print(f"Python {sys.version.split()[0]}, {args.games} games from seed {args.seed}, one process")
    print(f"games per second:       {rate:8.1f}")
    print(
        f"time per game:          median {statistics.median(times) * 1000:7.2f} ms   "
        f"p90 {statistics.quantiles(times, n=10)[-1] * 1000:7.2f} ms"
    )
    print(f"prompts per game:       median {statistics.median(prompts):7.0f}   max {max(prompts)}")
    print(f"time per prompt:        {total / sum(prompts) * 1e6:7.1f} us")


if __name__ == "__main__":
    main()
