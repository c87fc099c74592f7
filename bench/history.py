"""Benchmark: the History screen and a session's log on a database of 10,000 sessions and 1,000,000 events.

Builds the database once (cached in the temporary folder, keyed by its size), from
real sessions recorded through the driver and the store: Reconquista games played
by the bot with app dice, Battle of Simancas matches and Dice tray sessions. Those
are then copied, with their events, under new ids and dates (SQLite's own INSERT ...
SELECT) until there are 10,000 sessions and 1,000,000 events; a fifth of the copies
are cut short and left unfinished, as real histories are.

Then it runs the real app headless (``CompanionApp.run_test``) and measures, wall
clock, from the moment the screen is pushed to the end of its first repaint with the
table filled (``App._display`` with a non-empty update, wrapped on the instance):

  history   the History screen (every session, most recent first);
  log       the log of one whole Reconquista game (the longest kind, over 1,000
            steps), at 120x40, where the log has the screen to itself;
  board     at 170x50 the board is drawn beside the log, after the log's first
            repaint: the time to the repaint that shows it (the replay included).

Both screens are measured at 120x40 and again at 170x50.

Targets (docs/design.md, "What good looks like"): history under 200 ms, log under 100 ms.

    python bench/history.py [--runs N] [--rebuild] [--sessions N] [--events N]
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

SIZE = (120, 40)
WIDE = (170, 50)


def record_templates(path: Path) -> None:
    """Real sessions, recorded exactly as the app records them."""
    from companion import dicetray
    from companion.driver import Driver
    from companion.prompts import Tell
    from companion.reconquista.bot import Bot
    from companion.reconquista.game import GAME as RECONQUISTA
    from companion.reconquista.simulate import bot_answer
    from companion.simancas.game import GAME as SIMANCAS
    from companion.store.db import Store

    store = Store(str(path))
    for seed in (1, 2, 4):  # whole games of 20 turns (under the rules III)
        sid = store.create_session("reconquista", seed, {"dice": "app"})
        d = Driver(RECONQUISTA, seed, {"dice": "app"}, recorder=store.recorder(sid))
        bot, board = Bot(seed), RECONQUISTA.board_of(d.state)
        while d.pending is not None:
            bot_answer(d, bot, board)
    hands = [
        ["Moors place Jund Cavalry", "Moors pass", "Christians pass"],
        ["Christians place Knights", "Moors pass", "Christians pass"],
    ]
    for seed in (1, 2):
        sid = store.create_session("simancas", seed)
        d = Driver(SIMANCAS, seed, recorder=store.recorder(sid))
        i = 0
        while d.pending is not None:
            if isinstance(d.pending, Tell):
                d.ack()
            else:
                # Three actions a hand (a card, then both sides pass): seed 1's Moors win every
                # hand, seed 2's hands go to each side in turn.
                hand = hands[0] if seed == 1 else hands[(i // 3) % 2]
                d.submit(hand[i % 3], "player")
                i += 1
    for seed in (1, 2):
        sid = store.create_session("dice", seed)
        d = Driver(dicetray.GAME, seed, recorder=store.recorder(sid))
        for spec in ("2d6 Attack", "1d6 Siege", "3d6", "1d20 Luck") * 3:
            d.type(spec)
            d.roll() if seed == 1 else d.type(" ".join("4" * int(spec[0])))
    store.close()


def build(path: Path, sessions: int, events: int) -> None:
    """Fill ``path`` with ``sessions`` sessions and about ``events`` events, copied from real ones."""
    record_templates(path)
    con = sqlite3.connect(path)
    con.execute("PRAGMA journal_mode=WAL")
    con.execute("PRAGMA synchronous=OFF")
    templates = con.execute(
        "SELECT id, game, (SELECT count(*) FROM event WHERE session_id = session.id) FROM session"
    ).fetchall()
    long = [t for t in templates if t[1] == "reconquista"]
    short = [t for t in templates if t[1] != "reconquista"]
    short_events = sum(t[2] for t in short) / len(short)
    long_events = sum(t[2] for t in long) / len(long)
    # How many Reconquista games give the wanted total with the short sessions making up the rest.
    # A fifth of the copies keep only half their events.
    want = events / 0.9
    n_long = max(1, round((want - sessions * short_events) / (long_events - short_events)))
    have = len(templates)
    plan = [long[i % len(long)] for i in range(n_long)] + [
        short[i % len(short)] for i in range(sessions - have - n_long)
    ]
    # Interleave: the newest sessions are not all of one game.
    plan.sort(key=lambda t: hash((t[0], id(t))) % 7)
    cols = "game, seed, dice_mode, status, started, last_activity, ended, steps, summary, config, state"
    ev_cols = "step, kind, turn, phase, prompt, answer, source, digest, at"
    with con:
        for k, (tid, _game, _n) in enumerate(plan):
            minutes = (len(plan) - k) * 97  # older the further down the plan: spread over years
            cut = k % 5 == 0  # every fifth copy stopped half way, still unfinished
            cur = con.execute(
                f"INSERT INTO session ({cols}) SELECT game, seed + ?, dice_mode, "
                f"CASE WHEN ? THEN 'active' ELSE status END, "
                f"datetime(started, ?), datetime(last_activity, ?), "
                f"CASE WHEN ? THEN NULL ELSE datetime(ended, ?) END, "
                f"CASE WHEN ? THEN steps / 2 ELSE steps END, summary, config, state FROM session WHERE id = ?",
                (k, cut, f"-{minutes} minutes", f"-{minutes} minutes", cut, f"-{minutes} minutes", cut, tid),
            )
            new = cur.lastrowid
            con.execute(
                f"INSERT INTO event (session_id, seq, {ev_cols}) SELECT ?, seq, {ev_cols} FROM event "
                f"WHERE session_id = ? AND (NOT ? OR seq < (SELECT count(*) FROM event WHERE session_id = ?) / 2)",
                (new, tid, cut, tid),
            )
    con.execute("ANALYZE")
    con.close()


def database(sessions: int, events: int, rebuild: bool) -> Path:
    path = Path(tempfile.gettempdir()) / f"companion-bench-history-{sessions}-{events}.db"
    if rebuild or not path.exists():
        for p in path.parent.glob(path.name + "*"):
            p.unlink()
        t = time.perf_counter()
        print(f"building {path} ...", flush=True)
        build(path, sessions, events)
        print(f"  built in {time.perf_counter() - t:.1f} s", flush=True)
    else:
        # Bring an older cached copy up to the app's schema before anything is timed.
        from companion.store.db import Store

        Store(str(path)).close()
    return path


async def measure(path: Path, runs: int, size: tuple[int, int] = SIZE) -> dict[str, list[float]]:
    from screens.app import CompanionApp
    from screens.history import HistoryScreen, SessionLogScreen

    # When each screen has read the database and filled itself: wrapped here, not in the screens.
    ready: dict[str, float] = {}
    load, mount = HistoryScreen.load, SessionLogScreen.on_mount

    def timed_load(self: Any, *args: Any, **kwargs: Any) -> None:
        load(self, *args, **kwargs)
        ready["history"] = time.perf_counter()

    draw = SessionLogScreen._draw

    async def timed_mount(self: Any) -> None:
        await mount(self)
        ready["log"] = time.perf_counter()

    async def timed_draw(self: Any) -> None:
        await draw(self)
        if self.at == self.wanted:  # the board drawn beside the log (wide terminals)
            ready["board"] = time.perf_counter()

    HistoryScreen.load = timed_load  # type: ignore[method-assign]
    SessionLogScreen.on_mount = timed_mount  # type: ignore[method-assign]
    SessionLogScreen._draw = timed_draw  # type: ignore[method-assign]

    app = CompanionApp(db_path=str(path), seed=1)
    painted: list[float] = []
    display = app._display

    def _display(screen: Any, update: Any) -> None:
        display(screen, update)
        if update is not None:
            painted.append(time.perf_counter())

    app._display = _display  # type: ignore[method-assign]
    out: dict[str, list[float]] = {"history": [], "log": []}
    async with app.run_test(size=size) as pilot:
        while not app.store_ready:
            await pilot.pause(0.05)
        store = app.store()
        game_id = next(s.id for s in store.sessions(game="reconquista", status="finished"))
        steps = len(store.log(game_id).steps)

        async def timed(screen: Any, name: str) -> float:
            ready.pop(name, None)
            painted.clear()
            t0 = time.perf_counter()
            await app.push_screen(screen)
            # The first repaint that shows the filled screen.
            while not (name in ready and painted and painted[-1] > ready[name]):
                await asyncio.sleep(0.001)
            elapsed = (painted[-1] - t0) * 1000
            app.pop_screen()
            await pilot.pause()
            return elapsed

        for _ in range(runs):
            out["history"].append(await timed(HistoryScreen(), "history"))
            if size == SIZE:
                out["log"].append(await timed(SessionLogScreen(game_id), "log"))
            else:
                out.setdefault("board", []).append(await timed(SessionLogScreen(game_id), "board"))
    counts = (
        sqlite3.connect(path)
        .execute("SELECT (SELECT count(*) FROM session), (SELECT count(*) FROM event)")
        .fetchone()
    )
    print(f"database: {counts[0]:,} sessions, {counts[1]:,} events; the log opened has {steps} steps")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--sessions", type=int, default=10_000)
    parser.add_argument("--events", type=int, default=1_000_000)
    parser.add_argument("--rebuild", action="store_true")
    args = parser.parse_args(argv)
    path = database(args.sessions, args.events, args.rebuild)
    figures = asyncio.run(measure(path, args.runs))
    # A terminal wide enough to show the board beside the log: the replay to the first step too.
    wide = asyncio.run(measure(path, args.runs, size=WIDE))
    figures["history (wide)"] = wide["history"]
    figures["board (wide)"] = wide["board"]
    targets = {"history": 200, "log": 100, "history (wide)": 200, "board (wide)": None}
    for name, ms in figures.items():
        ms.sort()
        target = f"target {targets[name]} ms" if targets[name] else "no target"
        print(
            f"{name:14} median {statistics.median(ms):6.1f} ms   best {ms[0]:6.1f}   worst {ms[-1]:6.1f}"
            f"   ({target}, {len(ms)} runs)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
