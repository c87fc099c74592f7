"""Games begun under Terra de Castells' rules version 2 (docs/design.md, "Rules versions";
docs/rules-notes.md, Castells 26): their logs replay as recorded, and they go on under the
current rules from the next player's turn.

Version 3 made the actions menu offer only what each action's rule allows ("The attacker
announces the source castle and the target castle"; "The token must be in a free hex adjacent
to two own castles"), so a version 2 log parts from the current rules at its first actions
menu. The two files of ``tests/exports`` were written by the app at rules version 2 (commit
3581909's parent, random answers): one finished with favour cards asked after a purchase, one
stopped at an actions menu of the fifth century."""

from __future__ import annotations

import json
from collections.abc import Generator
from pathlib import Path
from random import Random

import pytest
from castells_helpers import random_answer
from rules_v2_helpers import check_going_on, replay_command_passes, resume_cut
from rules_v2_helpers import unzipped as recorded
from test_castells_game import PHASE_3, forbidden

from companion import games, interface
from companion.castells.actions import menu_v2
from companion.castells.game import GAME, V2_UNTIL
from companion.castells.state import CastellsState
from companion.driver import Driver, replay_fitting, verify
from companion.prompts import Choose, Edit
from companion.review.exchange import import_session
from companion.sessions import resume_session
from companion.store.db import Store

FILES = ("castells-rules-2-finished.json.gz", "castells-rules-2-unfinished.json.gz")
MENU = "castells.actions.next"


@pytest.fixture
def store(tmp_path: Path) -> Generator[Store, None, None]:
    s = Store(str(tmp_path / "c.db"))
    yield s
    s.close()


def bought(d: Driver) -> set[str]:
    """The players who bought favour cards so far, from the log."""
    return {
        s.prompt.data["player"]
        for s in d.steps
        if not isinstance(s.prompt, Edit) and s.prompt.topic == "castells.actions.buy"
    }


@pytest.mark.parametrize("name", FILES)
def test_a_game_of_rules_version_2_imports_and_replays_as_recorded(store: Store, name: str) -> None:
    text = recorded(name)
    doc = json.loads(text)
    assert doc["session"]["rules_version"] == 2
    done = import_session(store, text, name)
    assert done.note is None and done.rules_version == 2
    info = store.session(done.session_id)
    log = store.log(done.session_id)
    fit = replay_fitting(games.playing("castells", 2), info.seed, info.config, log.steps)
    assert fit.divergence is None
    assert fit.digests == [s["digest"] for s in doc["steps"]]
    now = replay_fitting(GAME, info.seed, info.config, log.steps)
    assert now.divergence is not None and log.steps[now.divergence.step].prompt.topic == MENU


@pytest.mark.parametrize("name", FILES)
def test_companion_replay_checks_a_version_2_game_as_recorded(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    replay_command_passes(str(tmp_path / "c.db"), recorded(name), name, capsys)


def turn_of(state: CastellsState) -> int:
    return state.turn_number()


@pytest.mark.slow  # 26 sessions imported and resumed: 5 s of CPU
def test_a_game_put_away_at_any_step_goes_on_under_the_current_rules_from_the_first_turn_it_can(
    store: Store,
) -> None:
    """Cut after every tenth step of a whole game of version 2, each resumes whole and goes on
    under the current rules from the player's turn in play where the log still replays to its
    recorded states with that, else from the next turn (``check_going_on``); the actions menu
    waiting is version 2's exactly in a turn played under it."""
    text = recorded(FILES[0])
    steps = len(json.loads(text)["steps"])
    seen = set()
    for n in range(5, steps, 10):
        sid, resumed = resume_cut(store, text, n)
        d = resumed.driver
        if store.session(sid).rules_version == 3:
            assert resumed.notice is None and len(d.steps) == n  # the current rules ask it as it is
            continue
        point = check_going_on(store, sid, resumed, V2_UNTIL, turn_of, "turn")
        seen.add(point - d.state.turn_number())
        p = d.pending
        if isinstance(p, Choose) and p.topic == MENU:
            state = d.state
            old = [c for c, _ in menu_v2(GAME.board_of(state), state, state.player(p.data["player"]))]
            if state.turn_number() < point:
                assert p.data["options"] == old
    assert seen == {0, 1}


def test_an_unfinished_game_of_version_2_is_played_out_under_the_current_rules(store: Store) -> None:
    """Resumed, the log stands whole; from the point its settings name, every actions menu
    offers exactly what the rules allow (``forbidden``, worked out from the table and the log:
    a player who bought favour cards under version 2 may play one with T); before it, version
    2's menu. The whole log then replays and verifies as recorded."""
    sid = import_session(store, recorded(FILES[1])).session_id
    resumed = resume_session(store, sid, GAME)
    point = check_going_on(store, sid, resumed, V2_UNTIL, turn_of, "turn")
    d = resume_session(store, sid, GAME).driver
    picks = Random(3)
    old_menus = new_menus = 0
    while not d.finished:
        p = d.pending
        if isinstance(p, Choose) and p.topic == MENU:
            state = d.state
            name = p.data["player"]
            if state.turn_number() < point:
                old_menus += 1
                board = GAME.board_of(state)
                assert p.data["options"] == [c for c, _ in menu_v2(board, state, state.player(name))]
            else:
                new_menus += 1
                allowed = [c for c in PHASE_3 if not forbidden(d, name, c, bought(d))]
                assert p.data["options"] == [*allowed, "end"], (name, state.owners)
        random_answer(d, picks)
    assert new_menus >= 1
    final = resume_session(store, sid, GAME)
    assert final.driver.finished and final.notice is None
    assert final.driver.snapshot() == d.snapshot()
    info = store.session(sid)
    log = store.log(sid)
    verify(games.playing("castells", 2), info.seed, info.config, log.steps, log.digests, store.state(sid))


def test_the_turn_number_never_goes_back() -> None:
    """The turn a game is in (the point where a game of version 2 changes rules) only grows:
    setup 0, then one a player's turn, century after century, and the end after every turn."""
    d = Driver(GAME, 4, {})
    picks = Random(4)
    seen = [d.state.turn_number()]
    while not d.finished:
        random_answer(d, picks)
        seen.append(d.state.turn_number())
    assert seen == sorted(seen) and seen[0] == 0
    players = len(d.state.players)
    assert seen[-1] == 5 * players + 1
    assert set(range(1, 5 * players + 1)) <= set(seen)


def test_version_1_is_not_played_and_a_hostile_setting_plays_every_turn_under_version_2() -> None:
    assert interface.under_rules(GAME, 1) is None and interface.under_rules(GAME, 3) is None
    older = games.playing("castells", 2)
    assert older.rules_version == 2
    for bad in ("7", 0, -1, False, 3.5, None):
        d = Driver(older, 1, {V2_UNTIL: bad})
        assert d.state.v2_until > 10**6
    assert Driver(older, 1, {V2_UNTIL: 1}).state.v2_until == 1
