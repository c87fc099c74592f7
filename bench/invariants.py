"""Benchmark: whole Reconquista games with the invariants checked after every phase.

Plays N whole games headless (default 10,000): half with the simple bot's answers, half
with answers picked at random among the options offered, the app rolling every die,
through the real driver and procedures. After every phase the game's state is held to
``check_between_phases`` (``check_end_of_turn`` after Phase 7). Prints the games played per
mode, the games that broke an invariant (the first few: mode, seed, turn, phase, message)
or raised any other error, and games per second. Exit code 1 if any game broke.
Both modes use the seeds seed, seed+1, ...; the same seeds give the same games.
Run from the repository root:
python bench/invariants.py [--games 10000] [--seed 1] [--jobs N] [--show 5]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import Counter
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the checkout's source

from companion.reconquista.simulate import ANSWERS, Answers, BrokenInvariant, play_game

#: (mode, seed, what went wrong: None, or (turn, phase, message) or (None, None, message)).
Outcome = tuple[str, int, tuple[int | None, str | None, str] | None]


def play(task: tuple[Answers, int]) -> Outcome:
    """One game, checked; a broken invariant or any other error is returned, not raised."""
    answers, seed = task
    try:
        play_game(seed, check=True, answers=answers)
    except BrokenInvariant as exc:
        return answers, seed, (exc.turn, exc.phase, exc.message)
    except Exception as exc:  # noqa: BLE001 -- a bug of the engine: report it and go on
        return answers, seed, (None, None, f"{type(exc).__name__}: {exc}")
    return answers, seed, None


def tasks(games: int, seed: int) -> list[tuple[Answers, int]]:
    """Half the games with each mode (the bot one more when ``games`` is odd)."""
    out: list[tuple[Answers, int]] = []
    for i, answers in enumerate(ANSWERS):
        n = games // len(ANSWERS) + (i < games % len(ANSWERS))
        out += [(answers, seed + k) for k in range(n)]
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games in all (default 10000)")
    parser.add_argument("--seed", type=int, default=1, help="the first seed of each mode (default 1)")
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="processes (default: one per core)"
    )
    parser.add_argument("--show", type=int, default=5, help="broken games listed (default 5)")
    args = parser.parse_args()
    if args.games < 1 or args.jobs < 1:
        parser.error("--games and --jobs must be at least 1")
    work = tasks(args.games, args.seed)
    start = time.perf_counter()
    if args.jobs == 1:
        outcomes = [play(t) for t in work]
    else:
        with Pool(args.jobs) as pool:
            outcomes = pool.map(play, work, chunksize=max(1, len(work) // (args.jobs * 20)))
    seconds = time.perf_counter() - start

    played = Counter(mode for mode, _, _ in outcomes)
    broke = [o for o in outcomes if o[2] is not None and o[2][1] is not None]
    crashed = [o for o in outcomes if o[2] is not None and o[2][1] is None]
    print(
        f"Python {sys.version.split()[0]}, {len(outcomes)} whole games from seed {args.seed}, "
        f"{args.jobs} process{'es' * (args.jobs != 1)}, invariants checked after every phase"
    )
    for mode in ANSWERS:
        n_broke = sum(1 for o in broke if o[0] == mode)
        n_crashed = sum(1 for o in crashed if o[0] == mode)
        print(
            f"{mode + ' answers:':16}{played[mode]:7} games, {n_broke} broke an invariant, "
            f"{n_crashed} raised another error"
        )
    for name, seed, what in (broke + crashed)[: args.show]:
        turn, phase, message = what or (None, None, "")
        where = f"turn {turn}, after the {phase} phase" if phase is not None else "error"
        print(f"  {name} seed {seed}, {where}: {message}")
    print(f"games per second:   {len(outcomes) / seconds:8.1f}   ({seconds:.1f} s wall clock)")
    bad = len(broke) + len(crashed)
    print(
        f"{bad} of {len(outcomes)} games broke." if bad else f"No game of {len(outcomes)} broke an invariant."
    )
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
