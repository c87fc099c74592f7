"""Benchmark: wall time from process start to the first painted screen.

Compares (a) the companion app, started through its real entry path
(``companion.cli.main`` -> ``_run_tui``: argument parsing, ``preflight.check``,
``screens.app.CompanionApp(db_path=..., seed=1)``), with (b) a bare Textual app
showing the same widgets as the companion's home screen (Header, two titled
OptionList panels, a Static, Footer) styled by the same ``screens/app.tcss``.

Each run is a child ``python -c ...`` of this interpreter in headless mode. The
child exits (``os._exit``) from a ``call_after_refresh`` callback scheduled in
the home screen's ``on_mount``, i.e. right after the first paint of that screen,
and so never waits for the database, which the companion opens in a worker thread
after the first screen. The parent times ``subprocess.run``. Runs alternate
(a, b, a, b, ...) to share noise; one warm-up run of each is discarded (it also writes the
modules' byte code, in a temporary folder, so that both start compiled as installed apps do).

The companion starts as a returning user's does: on a database with a few sessions and
with a settings file (a theme and a key moved; COMPANION_SETTINGS names it for the child).

Target (docs/design.md, "What good looks like"): the companion within 1.15x of the bare
app. SQLAlchemy, SQLModel, Alembic and pydantic (the settings' validation) must not be
imported by the time the first screen is painted.

Run from the repository root:  python bench/startup.py [--runs 15]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from screens.app import AFTER_FIRST_PAINT  # noqa: E402 -- the repository is on the path above

TARGET_RATIO = 1.15
WATCHED = ("sqlalchemy", "sqlmodel", "alembic", "pydantic")
#: The rest of what the first paint must not wait for (screens.app.AFTER_FIRST_PAINT): the
#: packages above are followed to the thread that first imports them.
LATER = tuple(m for m in AFTER_FIRST_PAINT if m not in WATCHED)

# Shared by both children: a meta-path hook that notes which thread first imports
# each watched package (it only looks, and returns None), and the paint callback.
PRELUDE = (
    f"LATER = {LATER!r}\n"
    r"""
import json, os, sys, threading, time
WATCHED = ("sqlalchemy", "sqlmodel", "alembic", "pydantic")
FIRST_IMPORT = {}

class _Watch:
    def find_spec(self, name, path=None, target=None):
        top = name.partition(".")[0]
        if top in WATCHED and top not in FIRST_IMPORT:
            FIRST_IMPORT[top] = threading.current_thread().name
        return None

sys.meta_path.insert(0, _Watch())

def painted(screen):
    t = time.time()
    out = {
        "painted": t,
        "screen": type(screen).__name__,
        "imported": sorted(m for m in WATCHED if m in sys.modules),
        "later": sorted(m for m in LATER if m in sys.modules),
        "submodules": {m: sum(1 for k in sys.modules if k == m or k.startswith(m + ".")) for m in WATCHED},
        "first_import": FIRST_IMPORT,
        "threads": sorted(th.name for th in threading.enumerate()),
        "modules": len(sys.modules),
    }
    os.write(1, (json.dumps(out) + "\n").encode())  # Textual redirects sys.stdout
    os._exit(0)  # now: do not wait for the store's worker thread
"""
)

COMPANION = (
    PRELUDE
    + r"""
from textual.app import App

_run = App.run
def _headless_run(self, *args, **kwargs):
    kwargs["headless"] = True
    return _run(self, *args, **kwargs)
App.run = _headless_run

from screens.home import HomeScreen
_on_mount = HomeScreen.on_mount
def _probe_on_mount(self):
    _on_mount(self)
    self.call_after_refresh(painted, self)
HomeScreen.on_mount = _probe_on_mount

from companion.cli import main
code = main(["--db", sys.argv[1], "--seed", "1"])
os.write(2, f"companion exited ({code}) without painting the home screen\n".encode())
sys.exit(3)
"""
)

# Diagnostic only (--diagnose): the companion with its store worker started from a
# call_after_refresh, i.e. after the first paint, instead of in CompanionApp.on_mount.
DEFER_WORKER = r"""
from screens.app import CompanionApp
def _deferred_on_mount(self):
    self.push_screen(HomeScreen())
    self.call_after_refresh(
        self.run_worker, self._open_store_in_background, thread=True, exit_on_error=False
    )
CompanionApp.on_mount = _deferred_on_mount
"""
COMPANION_DEFERRED = COMPANION.replace(
    "from companion.cli import main", DEFER_WORKER + "from companion.cli import main"
)
assert COMPANION_DEFERRED != COMPANION

BARE = (
    PRELUDE
    + r"""
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Header, OptionList, Static
from textual.widgets.option_list import Option

OPTIONS = json.loads(sys.argv[2])

class BareHome(Screen):
    BINDINGS = [Binding("d", "app.bell", "Dice tray"), Binding("h", "app.bell", "History")]

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="home-body"):
            with Vertical(classes="panel", id="games-panel"):
                yield Static("New game", classes="panel-title")
                yield OptionList(*[Option(p, id=i, disabled=d) for p, i, d in OPTIONS], id="games")
            with Vertical(classes="panel", id="resume-panel"):
                yield Static("Unfinished sessions", classes="panel-title")
                yield OptionList(id="sessions")
                yield Static("Opening the database…", id="home-status")
        yield Footer()

    def on_mount(self) -> None:
        games = self.query_one("#games", OptionList)
        games.focus()
        games.highlighted = next(n for n, (_, _, d) in enumerate(OPTIONS) if not d)
        self.call_after_refresh(painted, self)

class BareApp(App):
    TITLE = "Tabletop Companion"
    CSS_PATH = sys.argv[1]
    BINDINGS = [Binding("q", "quit", "Quit")]

    def on_mount(self) -> None:
        self.push_screen(BareHome())

BareApp().run(headless=True)
os.write(2, b"bare app exited without painting its screen\n")
sys.exit(3)
"""
)


@dataclass
class Runs:
    """The runs of one variant: wall times (s) and the children's reports."""

    name: str
    wall: list[float] = field(default_factory=list)
    to_paint: list[float] = field(default_factory=list)
    reports: list[dict[str, Any]] = field(default_factory=list)


def _home_options() -> list[tuple[str, str, bool]]:
    """The home screen's game options, so the bare app paints the very same text."""
    from screens.home import HomeScreen

    return [(str(o.prompt), o.id or "", o.disabled) for o in HomeScreen._game_options()]


def _prepare_database(path: str) -> None:
    """An existing database at the schema head with a few sessions, as a returning user has."""
    from companion.store.db import Store

    store = Store(path)
    try:
        for seed in range(3):
            store.create_session("dice", seed)
    finally:
        store.close()


def _prepare_settings(path: str) -> None:
    """A settings file as a returning user has one: the theme picked once, a key moved."""
    Path(path).write_text('theme = "textual-dark"\n\n[keys]\n"game.undo" = "u"\n', encoding="utf-8")


def _child_env(settings: str, pycache: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TEXTUAL")}
    env.pop("COMPANION_DB", None)
    # Both apps start from byte-compiled modules, as an installed package does (pip and pipx
    # compile it; Textual's are compiled in site-packages): a PYTHONDONTWRITEBYTECODE in the
    # environment made the companion compile its own 30 modules at every start, a cost of
    # about 40 ms that no user has. The warm-up run writes them, outside the repository.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = pycache
    env["COMPANION_SETTINGS"] = settings
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH", "")]))
    return env


def run_once(runs: Runs, argv: list[str], env: dict[str, str], keep: bool) -> None:
    t_spawn = time.time()
    t0 = time.perf_counter()
    proc = subprocess.run(argv, check=False, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    wall = time.perf_counter() - t0
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise SystemExit(
            f"{runs.name}: the child failed (exit {proc.returncode}).\n"
            f"stdout: {proc.stdout[-2000:]}\nstderr: {proc.stderr[-4000:]}"
        )
    report = json.loads(lines[-1])
    if keep:
        runs.wall.append(wall)
        runs.to_paint.append(report["painted"] - t_spawn)
        runs.reports.append(report)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:7.1f} ms"


def _summary(r: Runs) -> str:
    p90 = statistics.quantiles(r.wall, n=10, method="inclusive")[-1] if len(r.wall) > 1 else r.wall[0]
    return (
        f"{r.name:<22} median {_ms(statistics.median(r.wall))}   p90 {_ms(p90)}   "
        f"min {_ms(min(r.wall))}   (spawn->paint median {_ms(statistics.median(r.to_paint))})"
    )


def report_imports(r: Runs) -> None:
    n = len(r.reports)
    seen = Counter(m for rep in r.reports for m in rep["imported"])
    screens = Counter(rep["screen"] for rep in r.reports)
    print(
        f"first screen painted in the companion child: {dict(screens)}; "
        f"modules loaded at that moment: median {statistics.median(rep['modules'] for rep in r.reports):.0f}"
    )
    later = Counter(m for rep in r.reports for m in rep["later"])
    if later:
        print("!!! REQUIREMENT BROKEN: imported by the first paint, which need not wait for them:")
        for mod, count in later.most_common():
            print(f"!!!   {mod} in {count}/{n} runs")
    else:
        print(f"{', '.join(LATER)} imported by the first paint: none (in all {n} runs) - ok")
    if not seen:
        print(
            f"SQLAlchemy/SQLModel/Alembic/pydantic imported by the first paint: none (in all {n} runs) - ok"
        )
        return
    print("!" * 78)
    print("!!! REQUIREMENT BROKEN: imported by the time the first screen was painted:")
    for mod in WATCHED:
        if seen[mod]:
            threads = Counter(
                rep["first_import"].get(mod, "?") for rep in r.reports if mod in rep["imported"]
            )
            who = ", ".join(f"{t} x{c}" for t, c in threads.most_common())
            subs = statistics.median(rep["submodules"][mod] for rep in r.reports if mod in rep["imported"])
            print(
                f"!!!   {mod:<11} in {seen[mod]}/{n} runs ({subs:.0f} of its modules loaded, median); "
                f"first imported by thread: {who}"
            )
    print("!!! (a thread other than MainThread is the store's worker, started in")
    print("!!!  CompanionApp.on_mount before the home screen is painted)")
    print("!" * 78)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Start-up time: companion vs a bare Textual app.")
    parser.add_argument("--runs", type=int, default=15, help="measured runs of each app (default 15)")
    parser.add_argument(
        "--diagnose",
        action="store_true",
        help="also time (c): the companion with its store worker started after the first paint (patched in the child)",
    )
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")

    options = json.dumps(_home_options())
    css = str(ROOT / "screens" / "app.tcss")
    companion, bare = Runs("(a) companion"), Runs("(b) bare Textual app")
    deferred = Runs("(c) store after paint")
    print(
        f"Python {sys.version.split()[0]} ({sys.executable}), {os.cpu_count()} CPUs, "
        f"{args.runs} runs each after 1 warm-up, alternating"
    )
    with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
        db = str(Path(tmp) / "companion.db")
        _prepare_database(db)
        settings = str(Path(tmp) / "settings.toml")
        _prepare_settings(settings)
        env = _child_env(settings, str(Path(tmp) / "pycache"))
        for i in range(args.runs + 1):
            keep = i > 0
            run_once(companion, [sys.executable, "-c", COMPANION, db], env, keep)
            run_once(bare, [sys.executable, "-c", BARE, css, options], env, keep)
            if args.diagnose:
                run_once(deferred, [sys.executable, "-c", COMPANION_DEFERRED, db], env, keep)

    a, b = statistics.median(companion.wall), statistics.median(bare.wall)
    print(_summary(companion))
    print(_summary(bare))
    ratio = a / b
    verdict = "ok" if ratio <= TARGET_RATIO else "OVER"
    print(
        f"ratio companion / bare:  {ratio:.2f}x   (target <= {TARGET_RATIO}x: {verdict}; "
        f"+{(a - b) * 1000:.0f} ms)"
    )
    report_imports(companion)
    if args.diagnose:
        c = statistics.median(deferred.wall)
        print("diagnostic:")
        print(_summary(deferred))
        print(
            f"ratio (c) / bare:        {c / b:.2f}x   (the worker started before the paint costs "
            f"{(a - c) * 1000:+.0f} ms; watched packages imported by the paint in "
            f"{sum(1 for rep in deferred.reports if rep['imported'])}/{len(deferred.reports)} runs)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
