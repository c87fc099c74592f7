"""Benchmark: a very long session replayed, exported and imported.

A Dice tray session of 30,000 steps (15,000 rolls, each a spec typed and its dice) is
recorded into a fresh database through the driver and the store, as the app does, then:

  replay   ``companion replay``'s check: every step re-run, every state digested and
           compared with the log;
  resume   companion.sessions.resume_session, as opening the session does;
  export   the JSON export;
  import   the import of that export into another database (replayed and checked).

Each was quadratic before the tray's snapshot was bounded (30,000 steps: about 10 minutes
to replay and 11 to import); the target is under 3 s each (docs/design.md, "What good
looks like").

Run from the repository root:  python bench/long_sessions.py [--steps 30000]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion import games
from companion.driver import Driver, verify
from companion.review.exchange import export_session, import_session
from companion.sessions import resume_session
from companion.store.db import Store

TARGET_S = 3.0


def timed(what: str, fn: object) -> float:
    start = time.perf_counter()
    fn()  # type: ignore[operator]
    took = time.perf_counter() - start
    mark = "ok" if took < TARGET_S or what == "record" else "OVER"
    print(f"{what:<8} {took:7.2f} s   {mark if what != 'record' else '(setting up)'}")
    return took


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=30_000)
    args = parser.parse_args()
    game = games.load("dice")
    with tempfile.TemporaryDirectory() as folder:
        store = Store(str(Path(folder) / "long.db"))
        sid = store.create_session("dice", 7, {})
        driver = Driver(game, 7, recorder=store.recorder(sid))

        def record() -> None:
            for i in range(args.steps // 2):
                driver.type(f"{1 + i % 3}d6 Attack")
                driver.roll()

        print(f"A Dice tray session of {args.steps} steps; target under {TARGET_S:.0f} s each.")
        timed("record", record)
        info = store.session(sid)
        log = store.log(sid)
        over = 0
        over += timed(
            "replay", lambda: verify(game, info.seed, info.config, log.steps, log.digests, store.state(sid))
        )
        over += timed("resume", lambda: resume_session(store, sid, game))
        text = ""

        def export() -> None:
            nonlocal text
            text = export_session(store, sid, "json")

        over += timed("export", export)
        other = Store(str(Path(folder) / "other.db"))
        over += timed("import", lambda: import_session(other, text, "long.json"))
        other.close()
        store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
