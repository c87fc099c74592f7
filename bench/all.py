"""Every figure of the speed a player feels, in one run, each against its target.

1. The start to the first painted screen, against a bare Textual app with the same widgets
   (bench/startup.py, run as it runs alone): within 1.15x.
2. Key -> repainted board and key -> screen settled on the Reconquista screen (bench/ui.py)
   and on the Castells and Simancas screens (bench/game_screens.py), at 80x24, 120x40 and
   200x55: p90 within 50 ms and 100 ms.
3. Resume, undo and correction of a whole 20-turn Reconquista game (bench/replay.py), as the
   app runs them: median within 30 ms, p90 within 60 ms.

Each part prints its own lines as it goes; a table of every figure against its target ends
the run. The machine's load is printed first: a figure taken under load is not a figure of
the code. About 6 minutes on 2 cores with the defaults.

Run from the repository root:  python bench/all.py [--quick]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import game_screens
import replay
import ui

HERE = Path(__file__).resolve().parent

STARTUP_TARGET = 1.15
BOARD_TARGET, SETTLED_TARGET = 50.0, 100.0
REPLAY_MEDIAN, REPLAY_P90 = 30.0, 60.0

Row = tuple[str, str, str, bool]  # the figure, measured, target, met


def startup(runs: int) -> list[Row]:
    out = subprocess.run(
        [sys.executable, str(HERE / "startup.py"), "--runs", str(runs)],
        capture_output=True,
        text=True,
        check=False,
    ).stdout
    print(out, end="")
    found = re.search(r"ratio companion / bare:\s+([\d.]+)x", out)
    if found is None:
        return [
            ("start to first paint / bare Textual", "no figure (see above)", f"<= {STARTUP_TARGET}x", False)
        ]
    ratio = float(found.group(1))
    broken = "REQUIREMENT BROKEN" in out
    rows: list[Row] = [
        (
            "start to first paint / bare Textual",
            f"{ratio:.2f}x",
            f"<= {STARTUP_TARGET}x",
            ratio <= STARTUP_TARGET,
        )
    ]
    rows.append(
        ("modules kept out of the first paint", "some imported" if broken else "none", "none", not broken)
    )
    return rows


def _screen_rows(screen: str, board: float, settled: float) -> list[Row]:
    """The two figures of one screen at one size, against their targets."""
    return [
        (f"{screen} key -> board p90", f"{board:.1f} ms", f"<= {BOARD_TARGET:g} ms", board <= BOARD_TARGET),
        (
            f"{screen} key -> settled p90",
            f"{settled:.1f} ms",
            f"<= {SETTLED_TARGET:g} ms",
            settled <= SETTLED_TARGET,
        ),
    ]


def reconquista(presses: int) -> list[Row]:
    rows: list[Row] = []
    ui.install_class_probes()
    for size in ui.SIZES:
        name = f"{size[0]}x{size[1]}"
        with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
            db = str(Path(tmp) / "companion.db")
            sessions = ui.prepare_sessions(db, (ui.WARMUP + presses) // 40 + 3)
            result = asyncio.run(ui.play(db, sessions, presses, None, size))
        answers = [p for p in result.presses if p.expects_answer]
        board, settled = ui.p90([p.latency() for p in answers]), ui.p90([p.settled() for p in answers])
        print(
            f"Reconquista at {name}: key -> repainted board p90 {board:.1f} ms, settled p90 {settled:.1f} ms"
        )
        rows += _screen_rows(f"Reconquista {name}", board, settled)
    return rows


def other_screens(answers: int) -> list[Row]:
    rows: list[Row] = []
    for game_id in game_screens.GAMES:
        figures = game_screens.run(game_id, answers, 80, 3, game_screens.SIZES)
        for name, f in figures.items():
            rows += _screen_rows(f"{game_id} {name}", f["board_p90"], f["settled_p90"])
    return rows


def replays(games: int) -> list[Row]:
    figures = replay.run(games)["in the app"]
    return [
        (
            f"replay: {action} (median, p90)",
            f"{median:.1f} / {p90:.1f} ms",
            f"<= {REPLAY_MEDIAN:g} / {REPLAY_P90:g} ms",
            median <= REPLAY_MEDIAN and p90 <= REPLAY_P90,
        )
        for action, (median, p90) in figures.items()
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="fewer runs and presses (noisier figures)")
    args = parser.parse_args(argv)
    os.environ.pop("COMPANION_DB", None)
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, load average {load}")
    rows: list[Row] = []
    print("\n== start-up ==")
    rows += startup(10 if args.quick else 20)
    print("\n== Reconquista screen ==")
    rows += reconquista(40 if args.quick else 120)
    print("\n== Castells and Simancas screens ==")
    rows += other_screens(15 if args.quick else 40)
    print("\n== replay ==")
    rows += replays(10 if args.quick else 30)
    width = max(len(r[0]) for r in rows)
    print("\n== every figure ==")
    for figure, measured, target, met in rows:
        print(f"{figure:<{width}}  {measured:>16}  target {target:<16} {'ok' if met else 'OVER'}")
    print(f"{sum(r[3] for r in rows)} of {len(rows)} figures meet their targets")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
