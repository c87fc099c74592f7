"""What the tests of sessions recorded under an earlier rules version share: the files
``tests/exports/record_exports.py`` wrote, cut short to stand for a session put away at any
step, and the check of the point from which such a session goes on under the current rules
(docs/design.md, "Rules versions")."""

from __future__ import annotations

import gzip
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from companion import games
from companion.driver import replay_fitting
from companion.review.exchange import import_session
from companion.sessions import Resumed, resume_session
from companion.store.db import Store

EXPORTS = Path(__file__).resolve().parent / "exports"


def unzipped(name: str) -> str:
    return gzip.decompress((EXPORTS / name).read_bytes()).decode()


def cut(text: str, steps: int) -> str:
    """The export ``text`` as if its session had been put away after its first ``steps`` steps
    (no final state to compare: each step's digest still is)."""
    doc = json.loads(text)
    doc["steps"] = doc["steps"][:steps]
    doc["final_state"] = {}
    doc["session"]["status"], doc["session"]["ended"] = "active", None
    return json.dumps(doc)


def resume_cut(store: Store, text: str, steps: int) -> tuple[int, Resumed]:
    """Import the first ``steps`` steps of ``text`` and resume them: (session, what resume gave)."""
    sid = import_session(store, cut(text, steps), f"cut-{steps}.json").session_id
    return sid, resume_session(store, sid, games.load(store.session(sid).game))


def check_going_on(
    store: Store, sid: int, resumed: Resumed, key: str, in_play: Callable[[Any], int], unit: str
) -> int:
    """A session of rules version 2 resumed (``resumed``): every logged step stands; its settings
    name (``key``) the first turn or hand under the current rules, and the notice says whether
    it is this ``unit`` ('turn', 'hand'); it is the one in play (``in_play`` of the state) when the whole
    log still replays to the states it recorded with it, else the next, never later. The
    session keeps version 2, and a second resume says nothing more. Returns the point."""
    info = store.session(sid)
    log = store.log(sid)
    d = resumed.driver
    assert len(d.steps) == len(log.steps) and info.rules_version == 2
    now = in_play(d.state)
    point = info.config[key]
    assert point in (now, now + 1), (point, now)
    notice = resumed.notice
    assert notice is not None and notice.endswith(".") and "\n" not in notice
    earlier = {**info.config, key: now}
    fit = replay_fitting(games.playing(info.game, 2), info.seed, earlier, log.steps)
    fits_now = fit.divergence is None and fit.digests == log.digests
    assert (point == now) == fits_now
    assert (f"from this {unit}" in notice) == (point == now), notice
    again = resume_session(store, sid, games.load(info.game))
    assert again.notice is None and len(again.driver.steps) == len(log.steps)
    assert store.session(sid).config[key] == point
    return int(point)


def replay_command_passes(db: str, text: str, name: str, capsys: Any) -> None:
    """``companion replay`` of the export ``text`` imported into ``db``: the log replays under
    the rules it was recorded under to the stored state."""
    from companion.cli import main
    from companion.errors import EXIT_OK

    s = Store(db)
    try:
        sid = import_session(s, text, name).session_id
    finally:
        s.close()
    assert main(["--db", db, "replay", str(sid)]) == EXIT_OK
    assert "the state is the stored one" in capsys.readouterr().out
