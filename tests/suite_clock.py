"""The suite's clock: each test's time, the schedule it gives, and the run's figures against its targets.

Every process of a run (each xdist worker, or the one process of ``pytest -n 0``) times each test
it runs, setup to teardown: its wall time and its CPU (this process's and that of the processes
it started and waited for: an app under a pseudo-terminal, an install). At the end the run

- keeps those times in pytest's cache (``.pytest_cache``, key ``suite_clock/durations``), merged
  into what earlier runs kept, so a partial run updates only what it ran;
- hands the tests out, the next time, the longest first (``order``): a long test handed out
  last would keep one worker busy alone at the end. With no times kept yet (a fresh clone, as
  CI is) the ``slow`` tests go first, then the rest in file order;
- prints one line of figures (``summary_line``), for example::

      suite clock: 2262 tests, 221 s wall on 2 cores; CPU 368 s, floor 184 s, wall 1.20x the floor
      (target <= 1.2x); longest test 18.9 s (target <= 30 s): tests/screens/...

  The CPU is every process's (the workers' collection included), the floor that CPU shared
  out evenly over the cores: no schedule on this machine can end sooner. A run of the fast tier
  (``pytest -m "not slow"``) says so and holds its wall time to ``FAST_TARGET``;
- names the tests outside the slow tier whose CPU reached ``SLOW_CPU``: they belong in it
  (``@pytest.mark.slow``), or the fast tier stops being fast.

``bench/suite.py`` runs both tiers and prints these figures against the targets together.
"""

from __future__ import annotations

import os
import time
from typing import Any

import pytest

#: The cache key of the times kept between runs: {node id: [wall seconds, CPU seconds]}.
CACHE_KEY = "suite_clock/durations"

#: The targets of docs/design.md, "What good looks like" (the suite).
FAST_TARGET = 60.0  # the fast tier's wall time, seconds
FLOOR_TARGET = 1.2  # the whole suite's wall time over its CPU floor
LONGEST_TARGET = 30.0  # any one test's wall time, seconds
#: A test of this much CPU or more is named if it is outside the slow tier. Tests are marked slow
#: from about half a second; a test's CPU varies with the load of the machine (a run on every
#: core counts 0.4-0.7 s for the same test), so only a clear outlier is named.
SLOW_CPU = 1.0


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1


def cpu_seconds(children: bool = True) -> float:
    """This process's CPU so far, with (``children``) that of the processes it waited for."""
    t = os.times()
    return t.user + t.system + (t.children_user + t.children_system if children else 0.0)


def order(items: list[pytest.Item], kept: dict[str, list[float]]) -> None:
    """Sort ``items`` in place: the longest first by the kept wall times; a test with none kept
    counts as a slow one's last time if it is marked slow, else as no time. Python's sort is
    stable, so tests of equal weight stay in file order (every xdist worker must sort alike)."""

    def weight(item: pytest.Item) -> float:
        times = kept.get(item.nodeid)
        if times:
            return times[0]
        return 1.0 if item.get_closest_marker("slow") else 0.0

    items.sort(key=lambda item: -weight(item))


class SuiteClock:
    """The plugin: registered by tests/conftest.py in every process of the run."""

    NAME = "suite-clock"
    KEY = "suite_clock"

    def __init__(self, config: pytest.Config) -> None:
        self.config = config
        self.start = time.perf_counter()
        self.times: dict[str, list[float]] = {}  # node id -> [wall, CPU], of the tests run here
        self.slow: set[str] = set()  # the tests run here that are marked slow
        self.cpu = 0.0  # the CPU of the workers, as they report it
        self.workers = 0

    # -- every process: time each test ------------------------------------------------------------

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item) -> Any:
        wall, cpu = time.perf_counter(), cpu_seconds()
        yield
        self.times[item.nodeid] = [
            round(time.perf_counter() - wall, 3),
            round(cpu_seconds() - cpu, 3),
        ]
        if item.get_closest_marker("slow"):
            self.slow.add(item.nodeid)

    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        # trylast: after the conftests' hooks have given each test its marks.
        order(items, self.kept())

    def kept(self) -> dict[str, list[float]]:
        cache = getattr(self.config, "cache", None)
        if cache is None:  # -p no:cacheprovider
            return {}
        got = cache.get(CACHE_KEY, {})
        return got if isinstance(got, dict) else {}

    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        workeroutput = getattr(session.config, "workeroutput", None)
        if workeroutput is not None:  # an xdist worker: xdist sends this dict once this hook is done
            workeroutput[self.KEY] = {"times": self.times, "slow": sorted(self.slow), "cpu": cpu_seconds()}

    # -- the controller (or the one process): add up, keep, report -------------------------------

    @pytest.hookimpl(optionalhook=True)
    def pytest_testnodedown(self, node: Any, error: Any) -> None:
        sent = getattr(node, "workeroutput", {}).get(self.KEY)
        if sent:
            self.times.update(sent["times"])
            self.slow.update(sent["slow"])
            self.cpu += sent["cpu"]
            self.workers += 1

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        if os.environ.get("PYTEST_XDIST_WORKER") or not self.times:
            return
        cache = getattr(config, "cache", None)
        if cache is not None:
            kept = self.kept()
            kept.update(self.times)
            cache.set(CACHE_KEY, kept)

    def figures(self) -> dict[str, Any]:
        """The run's figures, as ``summary_line`` prints them (bench/suite.py reads the line)."""
        wall = time.perf_counter() - self.start
        # Under xdist the workers are the controller's children: their CPU is what they sent.
        cpu = self.cpu + cpu_seconds(children=not self.workers)
        n = cores()
        longest = max(self.times.items(), key=lambda kv: kv[1][0], default=("", [0.0, 0.0]))
        unmarked = sorted(
            (nodeid for nodeid, (_w, c) in self.times.items() if c >= SLOW_CPU and nodeid not in self.slow),
            key=lambda nodeid: -self.times[nodeid][1],
        )
        return {
            "tests": len(self.times),
            "wall": wall,
            "cpu": cpu,
            "cores": n,
            "floor": cpu / n,
            "ratio": wall / (cpu / n) if cpu else 0.0,
            "longest": longest[0],
            "longest_wall": longest[1][0],
            "unmarked": unmarked,
        }

    def summary_line(self, f: dict[str, Any], fast: bool) -> str:
        head = f"suite clock: {f['tests']} tests, {f['wall']:.0f} s wall on {f['cores']} cores"
        if fast:
            head += f' (the fast tier, -m "not slow": target < {FAST_TARGET:.0f} s)'
        return (
            f"{head}; CPU {f['cpu']:.0f} s, floor {f['floor']:.0f} s, wall {f['ratio']:.2f}x the floor "
            f"(target <= {FLOOR_TARGET}x for the whole suite); longest test {f['longest_wall']:.1f} s "
            f"(target <= {LONGEST_TARGET:.0f} s): {f['longest']}"
        )

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        # The figures of a run on every core, as the README's commands run: a run in one process
        # (``-n 0``, to debug a test) is not the suite's and says nothing of its schedule.
        if not self.times or not self.workers:
            return
        f = self.figures()
        markexpr = (self.config.getoption("markexpr", "") or "").replace(" ", "")
        terminalreporter.write_sep("-", "suite clock")
        terminalreporter.write_line(self.summary_line(f, fast=markexpr == "notslow"))
        if f["unmarked"]:
            terminalreporter.write_line(
                f"outside the slow tier but {SLOW_CPU} s of CPU or more (mark them slow): "
                + ", ".join(f"{n} ({self.times[n][1]:.1f} s)" for n in f["unmarked"])
            )
