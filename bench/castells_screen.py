"""Benchmark: the CPU an answer costs on the Terra de Castells screen, at each layout's size.

A 3-player game is recorded first (random answers, app dice, seeded) until it holds a long
log (``--steps``, 120 by default) and waits at a choice. Then, for each terminal size (80x24
narrow, 120x40, 200x55 wide with the log of the answers), the real app is run headless
(``App.run_test``), the session opened, and ``--answers`` prompts answered by keys as a
player would: Enter for an instruction, the option's number (typed into the field, then
Enter, where the question has one), ``r`` for dice.

What is measured: the process CPU time (``time.process_time``) from the key to the screen
settled (``pilot.pause()``), per answer: the key's handling, the engine and the store, the
screen's update and every repaint. Idle time is not counted. Printed: the median and p90 in
milliseconds per size. The wide layout used to lay its whole log out again at every answer
(0.4 s an answer with 120 steps); the log now writes each step once, so what is left is the
repaint of a larger screen.

Run from the repository root:  python bench/castells_screen.py [--steps 120] [--answers 20]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from textual.widgets import Input

from companion.castells.game import GAME
from companion.driver import Driver
from companion.prompts import Choose, Enter, Roll, Tell
from companion.store.db import Store
from screens.app import CompanionApp
from screens.castells.game_screen import CastellsScreen

SIZES = [(80, 24), (120, 40), (200, 55)]


def record(db: str, steps: int, seed: int) -> int:
    """A game in ``db`` with at least ``steps`` steps, waiting at a choice; its session id."""
    store = Store(db)
    sid = store.create_session("castells", seed)
    d = Driver(GAME, seed, recorder=store.recorder(sid))
    rng = random.Random(seed)
    while d.pending is not None and not (len(d.steps) >= steps and isinstance(d.pending, Choose)):
        p = d.pending
        if isinstance(p, Roll):
            d.roll()
        elif isinstance(p, Tell):
            d.ack()
        elif isinstance(p, Enter):
            d.type("")  # the names and armies the question offers
        else:
            assert isinstance(p, Choose)
            players = p.topic == "castells.setup.players"
            d.submit("3" if players else rng.choice(list(p.options)), "player")
    store.close()
    if d.pending is None:
        raise SystemExit(f"the game of seed {seed} ended after {len(d.steps)} steps: ask for fewer --steps")
    return sid


async def answers_at(db: str, sid: int, size: tuple[int, int], answers: int) -> list[float]:
    """The CPU milliseconds of each of ``answers`` answers by keys at ``size``."""
    app = CompanionApp(db_path=db, seed=1)
    out: list[float] = []
    async with app.run_test(size=size) as pilot:
        while not app.store_ready:
            await pilot.pause(0.02)
        app.open_session(sid)
        while not isinstance(app.screen, CastellsScreen):
            await pilot.pause(0.02)
        await pilot.pause(0.3)
        screen = app.screen
        driver = screen.driver
        assert driver is not None
        while len(out) < answers and driver.pending is not None:
            p, before = driver.pending, len(driver.steps)
            if isinstance(p, Tell):
                keys = ["enter"]
            elif isinstance(p, Roll):
                keys = ["r"]
            elif isinstance(screen.focused, Input):
                keys = ["1", "enter"] if isinstance(p, Choose) else ["enter"]
            else:
                keys = ["1"]
            start = time.process_time()
            await pilot.press(*keys)
            await pilot.pause()
            out.append((time.process_time() - start) * 1000)
            if len(driver.steps) == before and driver.pending is p:
                raise SystemExit(f"{keys} did not answer {type(p).__name__} at {size}")
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=120)
    parser.add_argument("--answers", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = str(Path(folder) / "bench.db")
        sid = record(db, args.steps, args.seed)
        print(f"Terra de Castells screen, a game of {args.steps}+ steps, {args.answers} answers by keys:")
        for size in SIZES:
            # Each size opens the same recorded game afresh: the answers of one are not the next's.
            copy = str(Path(folder) / f"{size[0]}x{size[1]}.db")
            Path(copy).write_bytes(Path(db).read_bytes())
            times = asyncio.run(answers_at(copy, sid, size, args.answers))
            if not times:
                print(f"  {size[0]}x{size[1]}: no answer measured (the game was over, or --answers 0)")
                continue
            p90 = statistics.quantiles(times, n=10)[-1] if len(times) > 1 else times[0]
            print(
                f"  {size[0]}x{size[1]}: CPU per answer median {statistics.median(times):.0f} ms,"
                f" p90 {p90:.0f} ms ({len(times)} answers)"
            )


if __name__ == "__main__":
    main()
