"""Benchmark: the time from a key press to the repainted board on the Reconquista screen.

Runs the real ``screens.app.CompanionApp`` headless under Textual's Pilot
(``App.run_test``) at 100x30 on a SQLite file in a temporary folder. Sessions in
"app" dice mode are prepared first (the bot plays each into turn 2 and stops at
an instruction, a Tell), then opened one after the other on the Reconquista
screen. Each press answers the current prompt as a player would: ``a`` confirms
every instruction up to the next question; a Choose gets ``end`` (highlight the
last option, which ends loops quickly) then ``enter``; the Rolls in between are
rolled by the screen itself (app dice). When a game ends the next session is
opened (not timed). Each key is sent with ``await pilot.press(key)``; the app
is then left to settle (no repaint for 60 ms, CPU idle, nothing dirty) before
the next key. ``pilot.pause()`` is not used: it forces a refresh of the screen
(``Screen._on_timer_update``), which would hide when Textual repaints by itself.

What is measured (wall clock, ``time.perf_counter``), per key press:
  start    the moment Pilot hands the Key event to the app's driver
           (``Driver.send_message``, wrapped on the instance);
  repaint  the end of a repaint of the screen: ``App._display(screen, update)``
           with a non-empty ``CompositorUpdate`` (after the 60 fps update timer
           fired, the screen did its layout if one was pending, and the
           compositor rendered the changed lines; wrapped on the instance);
  "key -> repainted board" (the headline) ends at the first repaint after the
           key's handler (the last ``ReconquistaScreen._show`` of the answer)
           in which the compositor has re-rendered every region panel the
           handler updated (``RegionPanel.show`` then ``RegionPanel.render_lines``).
           A repaint after the answer that does not yet hold the new board (the
           option list's own refresh can come first) does not count. For
           ``end`` (no answer, no board update) it is the first repaint after
           the key;
  "key -> screen settled" ends at the last repaint before the app goes quiet
           (what follows the board: the Footer recomposed after the focus moved,
           the widgets resized by the new layout...).
  Included: the dispatch of the key (bindings; for ``enter`` the OptionList's
  OptionSelected message), the engine and the store (every Driver call: engine
  step, snapshot, digest, one SQLite transaction; several per press when ``a``
  confirms a run of instructions or the app rolls dice), the screen's update
  (``_show``: BoardView.show, PromptPanel.show, the odds, the status lines;
  ``_log``: RichLog lines), the other work on the event loop before the board
  is painted (messages, focus changes, Pilot's own small bookkeeping), idle
  waits for the update timer's next tick, the layout and compositor render of
  each repaint, and any garbage collection that falls in the interval (the full,
  generation 2, collections are counted and printed: they make the tail).
  Not included: the time Pilot sleeps in ``pilot.press`` (it waits for the CPU
  to go idle, >= 2 x 20 ms, which is why the press is not timed around it);
  the encoding of the update into escape sequences and its write to the
  terminal, which Textual skips in headless mode (the encoding,
  ``render_segments``, is timed separately after the press has settled and
  printed as what a real terminal run would add); the terminal's own drawing;
  a real driver's input thread parsing the key bytes.

The split of the key -> board interval comes from timing wrappers this script
installs in its own process (nothing in screens/ or companion/ changes):
``Driver.ack/roll/submit/type`` (engine + store; ``SessionRecorder.record`` the
store alone), ``ReconquistaScreen._show`` (in it ``BoardView.show``,
``PromptPanel.show``, ``ReconquistaScreen._odds``), ``ReconquistaScreen._log``
and the screen's refreshes (``Screen._on_timer_update``; in it
``_refresh_layout``). The wrapped parts are wall time; "other CPU" is the
process CPU time of the interval spent outside them; "the rest" is what
remains: off the CPU, waiting for the update timer's tick or for the OS to run
this process (the load average is printed: on a busy machine this part, and
the wall time of every part, grows). The parts add up to the total.

Target (docs/design.md, "What good looks like"): key press to repainted board within
50 ms p90 and settled within 100 ms p90, at 80x24, 120x40 and 200x55 (each size is run in
turn; --size picks one). Under 116 columns the screen shows the question and keeps the board
a key away (tab): there the press ends at the first repaint after the answer, the question of
the moment redrawn.

Run from the repository root:  python bench/ui.py [--presses 200] [--size 80x24] [--profile]
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import io
import os
import pstats
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from textual import events
from textual.widgets import OptionList

from companion.driver import Driver
from companion.prompts import Choose, Roll, Tell
from companion.reconquista.bot import Bot
from companion.reconquista.game import GAME
from companion.store.db import SessionRecorder, Store
from screens.app import CompanionApp
from screens.reconquista.board_view import BoardView, RegionPanel
from screens.reconquista.game_screen import ReconquistaScreen
from screens.shell.prompt_panel import PromptPanel

TARGET_MS = 50.0
SIZES = ((80, 24), (120, 40), (200, 55))
WARMUP = 10  # presses played before timing starts (first imports, caches)
FIRST_SEED = 9  # seeds 9, 10, ...: one game each
QUIET = 0.06  # settled: no repaint for this long (s), and the CPU idle
ANSWER_KEYS = {"a": "confirm (a)", "enter": "choose (enter)"}
KIND_ORDER = ("confirm (a)", "choose (enter)", "highlight (end)")


@dataclass
class Press:
    """One key press and what happened until the app settled."""

    key: str
    sent: float = 0.0  # perf_counter when the Key event went to the app
    sent_cpu: float = 0.0  # process_time then
    handler_end: float = 0.0  # end of the last _show of the answer (0: none yet)
    panels: set[int] = field(default_factory=set)  # region panels updated, not yet rendered
    paints: list[float] = field(default_factory=list)  # ends of the repaints
    paint_cpus: list[float] = field(default_factory=list)  # process_time at each
    board: float = 0.0  # the repaint that shows the new board (0: not yet)
    board_cpu: float = 0.0  # process_time then
    board_update: Any = None  # its CompositorUpdate, encoded once the press has settled
    encode: float = 0.0  # the encoding of that update into escape sequences (s)
    ns: dict[str, int] = field(default_factory=dict)  # wrapped wall time, key -> board
    cpu_ns: dict[str, int] = field(default_factory=dict)  # wrapped CPU time, key -> board
    calls: dict[str, int] = field(default_factory=dict)
    full_gc: list[float] = field(default_factory=list)  # gen-2 collections, key -> board (ms)

    @property
    def kind(self) -> str:
        return ANSWER_KEYS.get(self.key, "highlight (end)")

    @property
    def expects_answer(self) -> bool:
        return self.key in ANSWER_KEYS

    def handled(self) -> bool:
        """The key's own work is done, so a repaint can show it."""
        return bool(self.handler_end) or not self.expects_answer

    def latency(self) -> float:
        return (self.board - self.sent) * 1000

    def settled(self) -> float:
        return (self.paints[-1] - self.sent) * 1000

    def settled_cpu(self) -> float:
        return (self.paint_cpus[-1] - self.sent_cpu) * 1000


class Probe:
    """The wrappers' shared state: the press under way, and the profiler."""

    press: ClassVar[Press | None] = None
    profile: ClassVar[cProfile.Profile | None] = None
    profiling: ClassVar[bool] = False
    depth: ClassVar[dict[str, int]] = {}

    @classmethod
    def open(cls) -> Press | None:
        """The press whose board is not painted yet (wrapped time counts until then)."""
        p = cls.press
        return p if p is not None and p.sent and not p.board else None


def _timed(
    name: str, fn: Callable[..., Any], after: Callable[[Press, Any], None] | None = None
) -> Callable[..., Any]:
    """``fn`` with its duration added to ``Probe.press.ns[name]`` (outermost call only)."""

    def wrapper(*args: Any, **kwargs: Any) -> Any:
        press = Probe.open()
        if press is None or Probe.depth.get(name):
            return fn(*args, **kwargs)
        Probe.depth[name] = 1
        c0 = time.process_time_ns()
        t0 = time.perf_counter_ns()
        try:
            return fn(*args, **kwargs)
        finally:
            t1 = time.perf_counter_ns()
            Probe.depth[name] = 0
            press.ns[name] = press.ns.get(name, 0) + (t1 - t0)
            press.cpu_ns[name] = press.cpu_ns.get(name, 0) + (time.process_time_ns() - c0)
            press.calls[name] = press.calls.get(name, 0) + 1
            if after is not None:
                after(press, args[0] if args else None)

    wrapper.__wrapped__ = fn  # type: ignore[attr-defined]
    return wrapper


def _end_of_show(press: Press, _screen: Any) -> None:
    press.handler_end = time.perf_counter()


def _panel_updated(press: Press, panel: Any) -> None:
    press.panels.add(id(panel))


def install_class_probes() -> None:
    """Wrap the engine, store and screen functions in this process (before the app starts,
    so that the screen's update timer binds the wrapped refresh)."""
    for name in ("ack", "roll", "submit", "type"):
        setattr(Driver, name, _timed("driver", getattr(Driver, name)))
    SessionRecorder.record = _timed("store", SessionRecorder.record)  # type: ignore[method-assign]
    ReconquistaScreen._show = _timed("show", ReconquistaScreen._show, _end_of_show)  # type: ignore[method-assign]
    ReconquistaScreen._odds = _timed("odds", ReconquistaScreen._odds)  # type: ignore[method-assign]
    ReconquistaScreen._log = _timed("log", ReconquistaScreen._log)  # type: ignore[method-assign]
    BoardView.show = _timed("board", BoardView.show)  # type: ignore[method-assign]
    RegionPanel.show = _timed("region", RegionPanel.show, _panel_updated)  # type: ignore[method-assign]
    PromptPanel.show = _timed("panel", PromptPanel.show)  # type: ignore[method-assign]
    ReconquistaScreen._refresh_layout = _timed("layout", ReconquistaScreen._refresh_layout)  # type: ignore[method-assign]
    ReconquistaScreen._on_timer_update = _timed("refresh", ReconquistaScreen._on_timer_update)  # type: ignore[method-assign]

    render_lines = RegionPanel.render_lines

    def panel_render_lines(self: RegionPanel, crop: Any) -> Any:
        press = Probe.press
        if press is not None:
            press.panels.discard(id(self))
        return render_lines(self, crop)

    RegionPanel.render_lines = panel_render_lines  # type: ignore[method-assign]

    started: list[float] = []

    def on_gc(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[:] = [time.perf_counter()]
        elif started and info["generation"] == 2 and (press := Probe.open()) is not None:
            press.full_gc.append((time.perf_counter() - started[0]) * 1000)

    gc.callbacks.append(on_gc)


def hook_app(app: CompanionApp, on_key: Callable[[], None], on_paint: Callable[[Any, Any], None]) -> None:
    """Wrap the app's driver and display: ``on_key()`` as each Key goes to the app (before it
    is handled), ``on_paint(screen, update)`` after each repaint with something to show. Also
    bench/game_screens.py's probe."""
    driver = app._driver
    assert driver is not None
    send = driver.send_message

    def send_message(message: Any) -> None:
        if isinstance(message, events.Key):
            on_key()
        send(message)

    display = app._display

    def _display(screen: Any, update: Any) -> None:
        display(screen, update)
        if update is not None:
            on_paint(screen, update)

    driver.send_message = send_message  # type: ignore[method-assign]
    app._display = _display  # type: ignore[method-assign]


def install_app_probes(app: CompanionApp) -> None:
    """The key's start and the repaints of the Reconquista screen, into ``Probe.press``."""

    def key() -> None:
        press = Probe.press
        if press is not None and not press.sent:
            if Probe.profile is not None:
                Probe.profile.enable()
                Probe.profiling = True
            press.sent_cpu = time.process_time()
            press.sent = time.perf_counter()

    def paint(screen: Any, renderable: Any) -> None:
        press = Probe.press
        if press is None or not press.sent or not isinstance(screen, ReconquistaScreen):
            return
        now, cpu = time.perf_counter(), time.process_time()
        press.paints.append(now)
        press.paint_cpus.append(cpu)
        # A hidden board (the narrow layout shows the question) has no panel left to paint.
        board_shown = screen.query_one(BoardView).display and not screen.has_class("-narrow")
        if not press.board and press.handled() and (not press.panels or not board_shown):
            press.board, press.board_cpu, press.board_update = now, cpu, renderable
            if Probe.profiling:
                assert Probe.profile is not None
                Probe.profile.disable()
                Probe.profiling = False

    hook_app(app, key, paint)


# -- sessions --------------------------------------------------------------------------


def prepare_session(store: Store, seed: int) -> int | None:
    """A session in app dice mode, played by the bot into turn 2 and waiting at a Tell
    (None if that game ends first)."""
    config = {"dice": "app"}
    sid = store.create_session("reconquista", seed, config)
    driver = Driver(GAME, seed, config, store.recorder(sid))
    bot = Bot(seed)
    board = GAME.board_of(driver.state)
    while driver.pending is not None and not (driver.state.turn >= 2 and isinstance(driver.pending, Tell)):
        p = driver.pending
        if isinstance(p, Roll):
            driver.roll()
        elif isinstance(p, Tell):
            driver.ack()
        else:
            assert isinstance(p, Choose)
            driver.submit(bot.choose(board, driver.state, p), "player")
    return sid if isinstance(driver.pending, Tell) else None


def prepare_sessions(db: str, count: int) -> list[int]:
    store = Store(db)
    try:
        sessions: list[int] = []
        seed = FIRST_SEED
        while len(sessions) < count:
            sid = prepare_session(store, seed)
            if sid is not None:
                sessions.append(sid)
            seed += 1
    finally:
        store.close()
    return sessions


# -- the run ---------------------------------------------------------------------------


async def until(pilot: Any, cond: Callable[[], bool], timeout: float = 20.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not cond():
        if loop.time() > end:
            raise SystemExit("bench/ui.py: the app did not reach the expected state in time")
        await pilot.pause(0.02)
    await pilot.pause()


async def settle(screen: ReconquistaScreen, press: Press, timeout: float = 10.0) -> None:
    """Wait until the screen has nothing left to repaint: no repaint for QUIET seconds,
    the CPU idle over the last 20 ms, nothing dirty, no layout or callback pending."""
    while True:
        cpu = time.process_time()
        await asyncio.sleep(0.02)
        now = time.perf_counter()
        last = press.paints[-1] if press.paints else press.sent
        if (
            now - last >= QUIET
            and time.process_time() - cpu < 0.002
            # Textual 8 internals: nothing waits to be laid out, repainted or called back.
            and not any(
                getattr(screen, a, None)
                for a in ("_dirty_widgets", "_layout_required", "_repaint_required", "_callbacks")
            )
        ):
            return
        if now - press.sent > timeout:
            raise SystemExit(f"bench/ui.py: the screen did not settle within {timeout:g} s of {press.key!r}")


@dataclass
class Result:
    presses: list[Press] = field(default_factory=list)
    no_repaint: int = 0  # presses that changed nothing on screen (excluded)
    sessions: int = 0
    elapsed: float = 0.0


async def play(
    db: str, sessions: list[int], presses: int, profile: cProfile.Profile | None, size: tuple[int, int]
) -> Result:
    result = Result()
    app = CompanionApp(db_path=db, seed=1)
    t_start = time.perf_counter()
    async with app.run_test(size=size) as pilot:
        install_app_probes(app)
        await until(pilot, lambda: app.store_ready or app.store_error is not None)
        if app.store_error is not None:
            raise SystemExit(f"bench/ui.py: the store did not open: {app.store_error}")
        queue = list(sessions)

        async def open_next() -> ReconquistaScreen:
            if not queue:
                raise SystemExit("bench/ui.py: ran out of prepared sessions")
            if isinstance(app.screen, ReconquistaScreen):
                app.pop_screen()
                await pilot.pause()
            app.open_session(queue.pop(0))
            await until(
                pilot, lambda: isinstance(app.screen, ReconquistaScreen) and app.screen.driver is not None
            )
            await pilot.pause(0.2)
            result.sessions += 1
            screen = app.screen
            assert isinstance(screen, ReconquistaScreen)
            return screen

        screen = await open_next()
        done = 0
        while done < WARMUP + presses:
            driver = screen.driver
            assert driver is not None
            pending = driver.pending
            if pending is None:
                screen = await open_next()
                continue
            if isinstance(pending, Tell):
                keys = ["a"]
            elif isinstance(pending, Choose):
                keys = ["end", "enter"]
            else:
                raise SystemExit(f"bench/ui.py: unexpected prompt in app dice mode: {pending!r}")
            for key in keys:
                if done >= WARMUP + presses:
                    break
                press = Press(key)
                timed = done >= WARMUP
                steps = len(driver.steps)
                unchanged = False
                if key == "end":
                    options = screen.query_one("#pp-options", OptionList)
                    unchanged = options.highlighted == options.option_count - 1
                Probe.press, Probe.profile = press, (profile if timed else None)
                await pilot.press(key)
                await settle(screen, press)
                Probe.press = None
                if Probe.profiling and profile is not None:
                    profile.disable()
                    Probe.profiling = False
                done += 1
                if key in ANSWER_KEYS and len(driver.steps) == steps:
                    raise SystemExit(f"bench/ui.py: {key!r} did not answer {pending!r}")
                if not timed:
                    continue
                if not press.board or unchanged:
                    result.no_repaint += 1
                    continue
                # What a real terminal driver would do with the update (headless skips it).
                t0 = time.perf_counter()
                press.board_update.render_segments(app.console)
                press.encode = time.perf_counter() - t0
                press.board_update = None
                result.presses.append(press)
        result.elapsed = time.perf_counter() - t_start
    return result


# -- report ------------------------------------------------------------------------------


def sizes_of(parser: argparse.ArgumentParser, size: str | None) -> tuple[tuple[int, int], ...]:
    """The sizes to run at: ``--size WIDTHxHEIGHT`` alone, or the three (a usage error else).
    Also bench/game_screens.py's."""
    if not size:
        return SIZES
    width, _, height = size.partition("x")
    if not (width.isdigit() and height.isdigit()):
        parser.error(f"--size takes WIDTHxHEIGHT, like 80x24, not {size!r}")
    return ((int(width), int(height)),)


def machine() -> str:
    """'Python 3.11.7, 2 CPUs (load average 0.31, 0.77, 1.49), Textual headless': the first
    line of a bench's figures, as the machine stood when it ran."""
    load = ", ".join(f"{x:.2f}" for x in os.getloadavg())
    return f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs (load average {load}), Textual headless"


def p90(values: list[float]) -> float:
    return statistics.quantiles(values, n=10, method="inclusive")[-1] if len(values) > 1 else values[0]


def _verdict(ms: float) -> str:
    return f"target < {TARGET_MS:g} ms: {'ok' if ms < TARGET_MS else 'OVER'}"


def _line(label: str, values: list[float], verdict: bool = False) -> str:
    med = statistics.median(values)
    return f"{label:<34}median {med:6.1f} ms   p90 {p90(values):6.1f} ms   max {max(values):6.1f} ms" + (
        f"   {_verdict(p90(values))} (p90)" if verdict else ""
    )


def _ms_of(press: Press, name: str) -> float:
    return press.ns.get(name, 0) / 1e6


def _parts(p: Press) -> dict[str, float]:
    """The key -> board interval of one press, split into parts that add up to it (ms)."""
    wall = p.latency()
    cpu = (p.board_cpu - p.sent_cpu) * 1000
    tops = ("driver", "show", "log", "refresh")
    driver, show, log, refresh = (_ms_of(p, n) for n in tops)
    other_cpu = max(0.0, cpu - sum(p.cpu_ns.get(n, 0) for n in tops) / 1e6)
    return {
        "total: key -> repainted board": wall,
        "engine + store (Driver calls)": driver,
        "  of which the store (record)": _ms_of(p, "store"),
        "screen update (_show)": show,
        "  BoardView.show": _ms_of(p, "board"),
        "  PromptPanel.show": _ms_of(p, "panel"),
        "  _odds (forecasts)": _ms_of(p, "odds"),
        "log lines (_log, RichLog.write)": log,
        "Textual refresh (layout+render)": refresh,
        "  of which layout": _ms_of(p, "layout"),
        "other CPU (dispatch, focus, ...)": other_cpu,
        "the rest: off the CPU (timer, OS)": max(0.0, wall - driver - show - log - refresh - other_cpu),
    }


def report(r: Result) -> None:
    ps = r.presses
    answers = [p for p in ps if p.expects_answer]
    if not answers:
        raise SystemExit("bench/ui.py: no answering press was timed")
    print(
        f"presses timed:                    {len(ps)} after {WARMUP} warm-up, {r.sessions} session(s) "
        f"({r.no_repaint} that changed nothing on screen excluded)"
    )
    print(_line(f"key -> repainted board (x{len(answers)}):", [p.latency() for p in answers], verdict=True))
    print("  (the presses that answer the prompt and so change the board: a and enter)")
    for kind in KIND_ORDER:
        sub = [p.latency() for p in ps if p.kind == kind]
        if sub:
            print(_line(f"  {kind} x{len(sub)}", sub, verdict=kind in ANSWER_KEYS.values()))
    print(_line("key -> screen settled (answers):", [p.settled() for p in answers]))
    print(
        f"  repaints per answer: median {statistics.median(len(p.paints) for p in answers):g}, "
        f"max {max(len(p.paints) for p in answers)} (the board's is one of them); CPU used from the key "
        f"to the last: median {statistics.median(p.settled_cpu() for p in answers):.1f} ms"
    )

    groups = [("answers", answers)] + [
        (kind.split()[0], [p for p in answers if p.kind == kind]) for kind in KIND_ORDER[:2]
    ]
    groups = [(name, g) for name, g in groups if g]
    rows = {name: [_parts(p) for p in g] for name, g in groups}
    mean_total = statistics.fmean(p.latency() for p in answers)
    head = "".join(f"{name + ' x' + str(len(g)):>16}" for name, g in groups)
    print("where the key -> board time goes (median ms per press; share of the answers' mean):")
    print(f"  {'':<34}{head}    share")
    for label in rows["answers"][0]:
        cells = "".join(f"{statistics.median(d[label] for d in rows[name]):16.1f}" for name, _ in groups)
        share = 100 * statistics.fmean(d[label] for d in rows["answers"]) / mean_total
        print(f"  {label:<34}{cells}   {share:5.1f} %")
    for label, name in (
        ("Driver calls per press", "driver"),
        ("_show calls per press", "show"),
        ("refreshes before the board's", "refresh"),
    ):
        cells = "".join(f"{statistics.median(p.calls.get(name, 0) for p in g):16g}" for _, g in groups)
        print(f"  {label:<34}{cells}")
    pauses = [ms for p in answers for ms in p.full_gc]
    if pauses:
        print(
            f"full garbage collections (gen 2) before the board: in {sum(1 for p in answers if p.full_gc)} "
            f"of {len(answers)} answers, {statistics.median(pauses):.1f} ms median, {max(pauses):.1f} ms max "
            f"(inside the parts above, mostly the refresh)"
        )
    else:
        print("full garbage collections (gen 2) before the board: none")
    enc = [p.encode * 1000 for p in ps]
    print(
        f"not in the figures: encoding the board's repaint as escape sequences (headless skips it): "
        f"median {statistics.median(enc):.1f} ms, max {max(enc):.1f} ms; nor the terminal's drawing"
    )
    print(f"run: {r.elapsed:.1f} s in the app (Pilot's idle waits and the settling included)")


def print_profile(profile: cProfile.Profile, top: int) -> None:
    out = io.StringIO()
    stats = pstats.Stats(profile, stream=out)
    stats.sort_stats("cumulative").print_stats(top)
    stats.sort_stats("tottime").print_stats(top)
    print(
        f"\ncProfile of the timed intervals (key sent -> board repainted), top {top} "
        f"by cumulative then own time:"
    )
    print(out.getvalue())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--presses", type=int, default=200, help="key presses to time (default 200)")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="profile the timed intervals (cProfile) and print the top functions",
    )
    parser.add_argument("--top", type=int, default=30, help="rows of the profile to print (default 30)")
    parser.add_argument(
        "--size", help="one terminal size, WIDTHxHEIGHT (default: 80x24, 120x40, then 200x55)"
    )
    args = parser.parse_args(argv)
    if args.presses < 10:
        parser.error("--presses must be at least 10")
    sizes = sizes_of(parser, args.size)
    os.environ.pop("COMPANION_DB", None)
    print(f"{machine()}, SQLite file in a temporary folder, app dice")
    install_class_probes()
    profile = cProfile.Profile() if args.profile else None
    for size in sizes:
        print(f"\n== {size[0]}x{size[1]} ==")
        with tempfile.TemporaryDirectory(prefix="companion-bench-") as tmp:
            db = str(Path(tmp) / "companion.db")
            # A game of "a" / "end, enter" from turn 2 takes about 100 presses: keep spares.
            sessions = prepare_sessions(db, (WARMUP + args.presses) // 40 + 3)
            result = asyncio.run(play(db, sessions, args.presses, profile, size))
        report(result)
    if profile is not None:
        print_profile(profile, args.top)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
