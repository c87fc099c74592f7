"""Sessions written by earlier builds of the app at the rules version it plays now resume whole
(docs/design.md, "Rules versions"): a change that does not raise a game's rules version must
leave every log of that version replaying.

The files of ``tests/exports`` named ``<game>-rules-<version>-at-<commit>`` were exported by the
build at that commit (a bot and a random Reconquista game to turn 6 and 4, a random Terra de
Castells game to its end, a guided Simancas match with passes, tactics, searches and
reshuffles to hand 5). The Reconquista ones broke once: a build after them added a fact
("done") to the Phase 4 menus, and every such game was called damaged on resume, as a
divergence under its own rules (prompts.fits now takes a question with facts added)."""

from __future__ import annotations

import gzip
import json
from collections.abc import Generator
from pathlib import Path

import pytest

from companion import games
from companion.driver import verify
from companion.review.exchange import import_session
from companion.sessions import resume_session
from companion.store.db import Store

EXPORTS = Path(__file__).resolve().parents[1] / "exports"
FILES = sorted(p.name for p in EXPORTS.glob("*-rules-*-at-*.json.gz"))


@pytest.fixture
def store(tmp_path: Path) -> Generator[Store, None, None]:
    s = Store(str(tmp_path / "c.db"))
    yield s
    s.close()


def test_there_are_logs_of_every_game_at_its_current_rules() -> None:
    versions = {name.split("-rules-")[0]: int(name.split("-rules-")[1].split("-")[0]) for name in FILES}
    assert versions == {g: games.load(g).rules_version for g in ("reconquista", "castells", "simancas")}


@pytest.mark.parametrize("name", FILES)
def test_a_log_of_an_earlier_build_imports_and_resumes_whole(store: Store, name: str) -> None:
    text = gzip.decompress((EXPORTS / name).read_bytes()).decode()
    doc = json.loads(text)
    done = import_session(store, text, name)
    assert done.note is None  # it replays: not "kept as recorded"
    info = store.session(done.session_id)
    game = games.load(info.game)
    assert info.rules_version == doc["session"]["rules_version"] == game.rules_version
    log = store.log(done.session_id)
    verify(game, info.seed, info.config, log.steps, log.digests, store.state(done.session_id))
    resumed = resume_session(store, done.session_id, game)
    assert resumed.notice is None and len(resumed.driver.steps) == len(doc["steps"])
    # Going on from there works: one more answer is recorded.
    d = resumed.driver
    if not d.finished:
        p = d.pending
        assert p is not None
        if p.kind == "tell":
            d.ack()
        elif p.kind == "roll":
            d.roll()
        else:
            d.submit(p.options[0], "player")  # type: ignore[attr-defined]
        assert store.session(done.session_id).steps == len(doc["steps"]) + 1
