"""Benchmark: a whole 20-turn Reconquista game replayed, as resume, undo and correction do it.

Resume, undo and the correction of a die all re-run the game's rules over its logged
answers (companion/driver.py): this is the wait a player has when a game is opened
again, when ``ctrl+z`` is pressed late in a game, or when a die of turn 1 is corrected.
Games are recorded first (app dice, the simple bot; only games that run all 20 turns),
then, per game, in one process, without the store (its cost is bench/store.py's):

  resume      Driver.resume over every logged step;
  undo        Driver.undo on the resumed game: every step but the last, re-run;
  correction  Driver.correct of the game's last die to another face: the answer is tried
              on a copy of the game up to it, then the game re-runs to it and on (the
              dearest correction: a die of turn 1 re-runs the same steps once, and stops
              reusing answers as soon as the game asks otherwise).

Prints the median and p90 in milliseconds of each against the target
(docs/design.md, "What good looks like": 30 ms median, 60 ms p90), twice: as the app runs
them (its full garbage collections made in the player's pauses, screens/heap.py: one is made,
untimed, before each action) and in plain Python (Python's own full collections, which fall
inside a replay of 900 steps now and then).

Run from the repository root:  python bench/replay.py [--games 30] [--seed 1]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.driver import Driver, Step
from companion.prompts import Roll
from companion.reconquista.bot import Bot
from companion.reconquista.game import GAME, LAST_TURN
from companion.reconquista.simulate import bot_answer
from screens.heap import IdleCollector

TARGET_MEDIAN_MS, TARGET_P90_MS = 30.0, 60.0


def recorded_games(first_seed: int, wanted: int) -> list[tuple[int, list[Step]]]:
    """``wanted`` whole games that reach turn 20, from ``first_seed`` on: (seed, steps)."""
    games: list[tuple[int, list[Step]]] = []
    seed = first_seed
    while len(games) < wanted:
        driver = Driver(GAME, seed)
        bot, board = Bot(seed), GAME.board_of(driver.state)
        while driver.pending is not None:
            bot_answer(driver, bot, board)
        if driver.state.turn == LAST_TURN:
            games.append((seed, list(driver.steps)))
        seed += 1
    return games


def last_die(steps: list[Step]) -> tuple[int, list[int]]:
    """The index of the game's last roll and another answer to it (its first die turned)."""
    for i, step in reversed(list(enumerate(steps))):
        if isinstance(step.prompt, Roll) and isinstance(step.answer, list):
            other = [step.answer[0] % step.prompt.sides + 1, *step.answer[1:]]
            return i, other
    raise SystemExit("a recorded game has no roll")


def timed(fn: Callable[[], object]) -> float:
    start = time.perf_counter()
    fn()
    return (time.perf_counter() - start) * 1000


def measure(games: list[tuple[int, list[Step]]], pause: Callable[[], object]) -> dict[str, list[float]]:
    """Each action of each game, timed; ``pause()`` (untimed) before each: what the app does
    while the player reads."""
    out: dict[str, list[float]] = {"resume": [], "undo": [], "correction": []}
    for seed, steps in games:
        pause()
        out["resume"].append(timed(lambda: Driver.resume(GAME, seed, None, steps)))  # noqa: B023 -- called at once
        driver = Driver.resume(GAME, seed, None, steps)
        pause()
        out["undo"].append(timed(driver.undo))
        driver = Driver.resume(GAME, seed, None, steps)
        index, value = last_die(steps)
        pause()
        out["correction"].append(timed(lambda: driver.correct(index, value, steps[index].source)))  # noqa: B023
    return out


def run(games_wanted: int = 30, seed: int = 1) -> dict[str, dict[str, tuple[float, float]]]:
    """The figures, printed and returned: {"in the app" | "plain Python": {action: (median, p90)}}."""
    games = recorded_games(seed, games_wanted)
    steps = statistics.median(len(s) for _, s in games)
    print(
        f"Python {sys.version.split()[0]}, {len(games)} whole 20-turn games from seed {seed} "
        f"(median {steps:.0f} steps), one process"
    )
    heap = IdleCollector()
    out: dict[str, dict[str, tuple[float, float]]] = {}
    for label in ("in the app", "plain Python"):
        if label == "in the app":
            heap.start()
        try:
            pause: Callable[[], object] = gc.collect if label == "in the app" else (lambda: None)
            measure(games[:2], pause)  # warm-up: imports, data files, first calls
            figures = measure(games, pause)
        finally:
            heap.stop()
        out[label] = {}
        print(f"{label}:")
        for name, times in figures.items():
            median = statistics.median(times)
            p90 = statistics.quantiles(times, n=10)[-1]
            out[label][name] = (median, p90)
            ok = median <= TARGET_MEDIAN_MS and p90 <= TARGET_P90_MS
            print(
                f"  {name:<11} median {median:6.1f} ms   p90 {p90:6.1f} ms   "
                f"target {TARGET_MEDIAN_MS:.0f} / {TARGET_P90_MS:.0f} ms: {'ok' if ok else 'OVER'}"
            )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    run(args.games, args.seed)


if __name__ == "__main__":
    main()
