"""Benchmark: key press to repainted screen on the Terra de Castells and Simancas screens.

bench/ui.py times the Reconquista screen with a split of each interval; this times the other
two game screens the same way, by the figures that bench/ui.py's targets name. For each game
a session is recorded first (app dice, random answers, seeded) to ``--steps`` steps; then at
each terminal size (80x24, 120x40, 200x55) the real app is run headless under Pilot, the
session opened, and ``--answers`` prompts answered as a player would: Enter for an
instruction, ``r`` for the app's dice, an option's number for a list (typed into the field
first where the question has one: Castells' typed choices; Simancas' actions, where a card's
name is typed), Enter for a name or an army asked. What goes into a field before the last
key is put there untimed (the field's value set, as a paste): the press timed is the key
that answers.

Measured per answer (wall clock, like bench/ui.py): from the moment Pilot hands the Key to
the app's driver to
  "key -> repainted screen": the end of the first repaint (``App._display`` with an update)
      after the screen's last ``_show`` of the answer, i.e. the first frame that holds it;
  "key -> screen settled": the last repaint before the app goes quiet (``settle`` of bench/ui.py).
Full garbage collections that fall inside are counted.

Targets (docs/design.md): key -> repainted p90 <= 50 ms, settled p90 <= 100 ms, every size.

Run from the repository root:  python bench/game_screens.py [--answers 60] [--game castells]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import ui
from textual.widgets import Input

from companion import games
from companion.driver import Driver
from companion.prompts import Choose, Enter, Roll, Tell
from companion.store.db import Store
from screens.app import CompanionApp

SIZES = ((80, 24), (120, 40), (200, 55))
BOARD_TARGET, SETTLED_TARGET = 50.0, 100.0
GAMES = ("castells", "simancas")
WARMUP = 5


@dataclass
class Press:
    key: str
    sent: float = 0.0
    shown: float = 0.0  # the end of the screen's last _show so far
    board: float = 0.0  # the first repaint after it
    paints: list[float] = field(default_factory=list)
    full_gc: int = 0

    def latency(self) -> float:
        return (self.board - self.sent) * 1000

    def settled(self) -> float:
        return (self.paints[-1] - self.sent) * 1000


class Probe:
    press: Press | None = None


def record(db: str, game_id: str, steps: int, seed: int) -> int:
    """A session of ``game_id`` in ``db``, app dice, answered at random to ``steps`` steps (or
    fewer, stopping at a question); its id."""
    game = games.load(game_id)
    config = {"dice": "app"} if game_id == "castells" else {}
    store = Store(db)
    sid = store.create_session(game_id, seed, config)
    d = Driver(game, seed, config, store.recorder(sid))
    rng = random.Random(seed)
    while d.pending is not None and not (len(d.steps) >= steps and isinstance(d.pending, Choose)):
        p = d.pending
        if isinstance(p, Roll):
            d.roll()
        elif isinstance(p, Tell):
            d.ack()
        elif isinstance(p, Enter):
            d.type("")
        else:
            assert isinstance(p, Choose)
            players = p.topic == "castells.setup.players"
            d.submit("3" if players else rng.choice(list(p.options)), "player")
    store.close()
    return sid


def _install(app: CompanionApp, screen_type: type) -> None:
    """Wrap the screen's ``_show`` (the answer's end), and the app's driver (the key's start)
    and display (the repaints) by bench/ui.py's ``hook_app``."""
    show = screen_type._show
    if not getattr(show, "timed", False):  # once a class, however many runs

        def timed_show(self: Any, *args: Any, **kwargs: Any) -> Any:
            try:
                return show(self, *args, **kwargs)
            finally:
                if (p := Probe.press) is not None and p.sent and not p.board:
                    p.shown = time.perf_counter()

        timed_show.timed = True  # type: ignore[attr-defined]
        screen_type._show = timed_show

    def key() -> None:
        p = Probe.press
        if p is not None and not p.sent:
            p.sent = time.perf_counter()

    def paint(_screen: Any, _update: Any) -> None:
        p = Probe.press
        if p is None or not p.sent:
            return
        now = time.perf_counter()
        p.paints.append(now)
        if p.shown and not p.board:
            p.board = now

    ui.hook_app(app, key, paint)
    if _on_gc not in gc.callbacks:
        gc.callbacks.append(_on_gc)


def _on_gc(phase: str, info: dict[str, int]) -> None:
    p = Probe.press
    if phase == "stop" and info["generation"] == 2 and p is not None and p.sent and not p.board:
        p.full_gc += 1


async def play(
    db: str, sid: int, game_id: str, size: tuple[int, int], answers: int, seed: int
) -> list[Press]:
    screen_type = games.named(games.entry(game_id).screen)
    app = CompanionApp(db_path=db, seed=1)
    rng = random.Random(seed)
    out: list[Press] = []
    async with app.run_test(size=size) as pilot:
        _install(app, screen_type)
        await ui.until(pilot, lambda: app.store_ready)
        app.open_session(sid)
        await ui.until(pilot, lambda: isinstance(app.screen, screen_type) and app.screen.driver is not None)
        await pilot.pause(0.3)
        screen = app.screen
        driver = screen.driver
        done = 0
        while done < WARMUP + answers and driver.pending is not None:
            p, before = driver.pending, len(driver.steps)
            focused = screen.focused
            if isinstance(p, Tell):
                key = "enter"
            elif isinstance(p, Roll):
                key = "r"
            elif isinstance(p, Enter):
                key = "enter"
            else:
                assert isinstance(p, Choose)
                pick = rng.randrange(min(len(p.options), 9))
                if isinstance(focused, Input):
                    # Castells numbers its options; Simancas finds a card by its name.
                    focused.value = p.options[pick] if game_id == "simancas" else str(pick + 1)
                    await pilot.pause(0.1)
                    key = "enter"
                else:
                    key = str(pick + 1)
            press = Press(key)
            Probe.press = press
            await pilot.press(key)
            await ui.settle(screen, press)  # type: ignore[arg-type]
            Probe.press = None
            done += 1
            if len(driver.steps) == before and driver.pending is p:
                raise SystemExit(f"bench/game_screens.py: {key!r} did not answer {p.describe()!r} at {size}")
            if done > WARMUP and press.board:
                out.append(press)
    return out


def line(label: str, values: list[float], target: float) -> str:
    p90 = ui.p90(values)
    return (
        f"{label:<28} median {statistics.median(values):6.1f} ms   p90 {p90:6.1f} ms   max {max(values):6.1f} ms"
        f"   (target p90 <= {target:g} ms: {'ok' if p90 <= target else 'OVER'})"
    )


def run(
    game_id: str, answers: int, steps: int, seed: int, sizes: tuple[tuple[int, int], ...]
) -> dict[str, Any]:
    """Every size of one game; the figures, also printed."""
    figures: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        db = str(Path(tmp) / "recorded.db")
        sid = record(db, game_id, steps, seed)
        for size in sizes:
            copy = str(Path(tmp) / f"{size[0]}x{size[1]}.db")
            Path(copy).write_bytes(Path(db).read_bytes())
            presses = asyncio.run(play(copy, sid, game_id, size, answers, seed))
            name = f"{size[0]}x{size[1]}"
            if not presses:
                print(f"{game_id} {name}: no answer timed (the recorded game ended)")
                continue
            board = [p.latency() for p in presses]
            settled = [p.settled() for p in presses]
            print(f"{games.title(game_id)} at {name}: {len(presses)} answers after {WARMUP} warm-up")
            print("  " + line("key -> repainted screen", board, BOARD_TARGET))
            print("  " + line("key -> screen settled", settled, SETTLED_TARGET))
            print(f"  full garbage collections inside the answers: {sum(p.full_gc for p in presses)}")
            figures[name] = {"board_p90": ui.p90(board), "settled_p90": ui.p90(settled)}
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--answers", type=int, default=60, help="answers timed at each size (default 60)")
    parser.add_argument("--steps", type=int, default=80, help="steps recorded before (default 80)")
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--game", choices=GAMES, help="one game (default: both)")
    parser.add_argument("--size", help="one size, WIDTHxHEIGHT (default: 80x24, 120x40, 200x55)")
    args = parser.parse_args(argv)
    sizes = ui.sizes_of(parser, args.size)
    os.environ.pop("COMPANION_DB", None)
    print(ui.machine())
    for game_id in (args.game,) if args.game else GAMES:
        run(game_id, args.answers, args.steps, args.seed, sizes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
