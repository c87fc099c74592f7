"""Shared test settings: snapshots in the top-level snapshots/ folder, UTC times, a fixed clock;
the run spread over every core (pytest-xdist); the reliability suite's figures summed over the workers.

Plain ``pytest`` runs the suite in parallel: ``-n auto --dist load --maxschedchunk 1`` is set here (not in
pyproject's ``addopts``, where ``-n`` would break ``pytest -p no:xdist``). ``pytest -n 0`` or
``pytest -p no:xdist`` runs it in one process; ``-n N`` or ``--dist`` given on the command line win.
"""

from __future__ import annotations

import itertools
import os
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
import pytest_textual_snapshot
from suite_clock import CACHE_KEY, SuiteClock
from syrupy.location import PyTestLocation
from tiers import mark_screen_tests, mark_slow_by_time

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOTS = ROOT / "snapshots"

# Screens show local times: pin the zone so snapshots do not depend on the machine. Set at import,
# so the xdist workers (started after this) and every subprocess of a test inherit it too.
os.environ["TZ"] = "UTC"
time.tzset()

# The user's own settings file (a theme, keys moved) must not reach the tests, nor a theme picked
# in a test reach it: every process of the run reads (and would write) a file of its own that
# does not exist until then. A test of the settings points COMPANION_SETTINGS at its tmp_path.
os.environ["COMPANION_SETTINGS"] = os.path.join(
    tempfile.gettempdir(), f"companion-tests-{os.getpid()}", "settings.toml"
)
# Compiled code is kept between runs even where PYTHONDONTWRITEBYTECODE asks for no .pyc files
# beside the sources: they go to a folder of pytest's cache instead (Python's pycache prefix).
# Without them every process of a run (each xdist worker, each app a test starts) compiled the
# project's code again and pytest rewrote the asserts of every test module again: the suite's
# collection took ~19 s of CPU a worker, ~6 s with them. Set at import, as the zone above, so
# the workers and the subprocesses keep them too; a prefix already chosen is kept.
if sys.dont_write_bytecode:
    sys.pycache_prefix = sys.pycache_prefix or str(ROOT / ".pytest_cache" / "pycache")
    sys.dont_write_bytecode = False
    os.environ["PYTHONPYCACHEPREFIX"] = sys.pycache_prefix
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


@pytest.fixture(autouse=True)
def _board_checks_off(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The app asks its board checks at the end of every turn by default (the setting
    ``board_checks``): a test that plays turns by keys answers the game's own questions, so
    they are off but in the tests marked ``board_checks``, which ask them as a player has them."""
    if request.node.get_closest_marker("board_checks") is None:
        import dataclasses

        from companion import settings

        monkeypatch.setattr(settings, "DEFAULTS", dataclasses.replace(settings.DEFAULTS, board_checks=0))


# Textual's Pilot waits after every key and pause until the app looks idle: it sleeps in windows
# of SLEEP_GRANULARITY (1/50 s) until one passes with almost no CPU used (SLEEP_IDLE), so every
# key costs at least two windows, 40 ms, most of it asleep (a whole game by keys: ~14 s of its
# ~18). Windows of 1/100 s halve that wait: a test still waits until a window passes in which
# the app used almost no CPU, and Pilot still waits for every message queued to be handled
# (``_wait_for_screen``) before it goes on. Measured: the whole suite went from
# 171 s to 157 s on 2 cores (1.25x to 1.16x its CPU floor), the fast tier from 47 s to 40 s.
import textual._wait  # noqa: E402

textual._wait.SLEEP_GRANULARITY = 1 / 100
textual._wait.SLEEP_IDLE = textual._wait.SLEEP_GRANULARITY / 20


# -- parallel by default -----------------------------------------------------------------------


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """Without ``-n`` on the command line, run on every core; without ``--dist``, a test at a
    time to whichever worker is free (``--dist load --maxschedchunk 1``), the longest tests
    first (tests/suite_clock.py orders them by the last run's times): the tests last from
    milliseconds to ~20 s, and a long one handed out last would keep one worker busy alone at
    the end. (``worksteal``, before, gave each worker a third of the tests in file order, and
    the last to finish took the ones it had left.)

    Runs before xdist's own pytest_cmdline_main (both tryfirst; a conftest registers later), which
    then turns "auto" into the number of cores. Nothing is done where xdist is not loaded
    (``-p no:xdist``), in a worker, or where a debugger is asked for."""
    if not config.pluginmanager.has_plugin("xdist") or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    if config.getoption("usepdb", False) or config.getoption("collectonly", False):
        return
    if config.option.numprocesses is None:
        config.option.numprocesses = "auto"
    if config.option.numprocesses != 0 and config.option.dist == "no":
        config.option.dist = "load"
        if config.option.maxschedchunk is None:
            config.option.maxschedchunk = 1


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Marks by what a test does, wherever its file is, and by the time it took when last run
    (tests/tiers.py); before ``-m`` selects and the suite clock's schedule, which read them."""
    mark_screen_tests(items)
    cache = getattr(config, "cache", None)
    kept = cache.get(CACHE_KEY, {}) if cache is not None else {}
    mark_slow_by_time(items, kept if isinstance(kept, dict) else {})


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """``-n auto`` (the default above): one worker more than there are cores. The screen tests
    spend about half their time idle (Textual's Pilot sleeps until the app is idle after every
    key), so with one worker a core the cores are not kept busy; a third worker on two cores
    took the run from ~2:35 to ~2:20. PYTEST_XDIST_AUTO_NUM_WORKERS still sets the number."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None  # xdist's own hook reads it
    return len(os.sched_getaffinity(0)) + 1 if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1) + 1


@pytest.fixture(scope="session")
def run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder shared by every process of this run (all xdist workers), fresh for each run:
    pytest's numbered base folder, whose ``gwN`` subfolders are the workers' own."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent
    shared = base / "shared"
    shared.mkdir(exist_ok=True)
    return shared


# -- snapshots and the clock --------------------------------------------------------------------


class TopLevelSVGExtension(pytest_textual_snapshot.SVGImageExtension):
    """Keep the SVG snapshots in ROOT/snapshots/<test module>/ as the project layout asks."""

    @classmethod
    def dirname(cls, *, test_location: PyTestLocation) -> str:
        return str(SNAPSHOTS / Path(test_location.filepath).stem)


# snap_compare looks the extension up in its module when called: point it at ours.
pytest_textual_snapshot.SVGImageExtension = TopLevelSVGExtension  # type: ignore[misc]


@pytest.fixture
def snap_compare(snap_compare: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """pytest-textual-snapshot's, with text cursors that do not blink and nonces that are not
    random. An Input's cursor shows on focus and a key, then blinks every half second: on a busy
    machine (a parallel run) the picture could be taken after the first blink, with the cursor
    hidden, and differ from the snapshot. Without the blink the picture shows the cursor as it is
    right after focus or typing, always."""
    from textual.widgets import Input

    monkeypatch.setattr(Input, "_toggle_cursor", lambda self: None)
    # A session's nonce (its commitment to its seed, shown in History) is random: a picture is
    # taken with nonces counted from 1, as the fixed clock gives its times.
    counter = itertools.count(1)
    monkeypatch.setattr("companion.store.db.new_nonce", lambda: f"{next(counter):032x}")
    return snap_compare


class FixedClock:
    """A clock for the store that starts at a fixed moment and advances a minute a call."""

    def __init__(self, start: datetime = datetime(2026, 3, 14, 18, 0, tzinfo=UTC)) -> None:
        self.t = start

    def __call__(self) -> datetime:
        self.t += timedelta(minutes=1)
        return self.t


@pytest.fixture
def clock() -> Any:
    return FixedClock()


@pytest.fixture
def db(tmp_path: Path) -> str:
    """The path of a fresh database file (created when first opened)."""
    return str(tmp_path / "companion.db")


@pytest.fixture
def store(db: str, clock: Any) -> Iterator[Any]:
    """A Store on ``db`` with the fixed clock, closed after the test."""
    from companion.store.db import Store

    s = Store(db, clock=clock)
    yield s
    s.close()


@pytest.fixture
def fresh(tmp_path: Path, clock: Any) -> Iterator[Any]:
    """A second Store, on a database file of its own: where an export is imported."""
    from companion.store.db import Store

    s = Store(str(tmp_path / "imported.db"), clock=clock)
    yield s
    s.close()


# -- the reliability suite's figures -------------------------------------------------------------


class ReliabilityFigures:
    """What the reliability suite tried (tests/reliability/: the ``figures`` and ``notes`` fixtures),
    printed as one line at the end of the run, for example:

    ``reliability: 50 crash runs (SIGKILL), 23 faults tried (full disk: ...), 1757 random inputs
    tried, 331 markup texts shown as text, 13 browser origins, hosts or tokens refused, 11 sizes
    clamped or tabs capped, 968 events written by 2 instances at once; events checked = ...,
    events lost = 0, duplicated = 0``

    Under xdist each worker counts its own tests and sends its counts to the controller when it
    finishes (xdist's ``workeroutput``); the controller adds them up and prints the same line, with
    the same totals, as a run in one process does."""

    NAME = "reliability-figures"
    KEY = "reliability_figures"

    def __init__(self) -> None:
        self.figures: Counter[str] = Counter()
        self.notes: dict[str, str] = {}

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        workeroutput = getattr(session.config, "workeroutput", None)
        if workeroutput is not None:  # an xdist worker: xdist sends this dict once this hook is done
            workeroutput[self.KEY] = {"figures": dict(self.figures), "notes": dict(self.notes)}

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        sent = getattr(node, "workeroutput", {}).get(self.KEY)
        if sent:
            self.figures.update(sent["figures"])
            self.notes.update(sent["notes"])

    def summary_line(self) -> str:
        f, notes = self.figures, self.notes
        full_disk = f" (full disk: {notes['full_disk']})" if "full_disk" in notes else ""
        return (
            f"reliability: {f['crash_runs']} crash runs (SIGKILL), {f['faults']} faults tried{full_disk}, "
            f"{f['inputs']} random inputs tried, {f['markup']} markup texts shown as text, "
            f"{f['hostile_files']} hostile paths and files, {f['damaged_rows']} damaged rows, "
            f"{f['origins_refused']} browser origins, hosts or "
            f"tokens refused, {f['sizes_clamped']} sizes clamped or tabs capped, "
            f"{f['instance_events']} events written by 2 instances at once; "
            f"events checked = {f['events_checked']}, events lost = {f['events_lost']}, "
            f"duplicated = {f['events_duplicated']}"
        )

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if sum(self.figures.values()):
            terminalreporter.write_sep("-", "reliability figures")
            terminalreporter.write_line(self.summary_line())


class SnapshotCounts:
    """Syrupy's "snapshot report summary" (41 snapshots passed) for a parallel run.

    Syrupy reports only what its own process compared, and under xdist the controller compares
    nothing, so its summary would be lost: each worker sends its counts, and the controller prints
    them added up. (A mismatch fails its test either way, and pytest-textual-snapshot's report of
    mismatched snapshots, with its HTML page, works under xdist by itself. Unused snapshots are
    found only by a run in one process: ``pytest -n 0``.)"""

    NAME = "snapshot-counts"
    KEY = "snapshot_counts"
    WORDS = (("matched", "passed"), ("failed", "failed"), ("created", "generated"), ("updated", "updated"))

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()
        self.workers = 0

    @pytest.hookimpl(trylast=True)  # after syrupy's own (tryfirst) has made its report
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        workeroutput = getattr(session.config, "workeroutput", None)
        report = getattr(getattr(session.config, "_syrupy", None), "report", None)
        if workeroutput is not None and report is not None:
            workeroutput[self.KEY] = {what: getattr(report, f"num_{what}") for what, _w in self.WORDS}

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        sent = getattr(node, "workeroutput", {}).get(self.KEY)
        if sent is not None:
            self.counts.update(sent)
            self.workers += 1

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        if self.workers and sum(self.counts.values()):
            terminalreporter.write_sep("-", f"snapshot report summary ({self.workers} workers)")
            terminalreporter.write_line(
                ", ".join(
                    f"{self.counts[what]} snapshot{'' if self.counts[what] == 1 else 's'} {word}"
                    for what, word in self.WORDS
                    if self.counts[what]
                )
                + "."
            )


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(ReliabilityFigures(), ReliabilityFigures.NAME)
    config.pluginmanager.register(SuiteClock(config), SuiteClock.NAME)
    config.pluginmanager.register(SnapshotCounts(), SnapshotCounts.NAME)
