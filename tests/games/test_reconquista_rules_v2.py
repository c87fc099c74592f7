"""Games begun under Reconquista's rules version 2 (docs/design.md, "Rules versions";
docs/rules-notes.md, "Reconquista: the turn, the end of the game and headless play", reading 8): their logs replay as recorded,
and they go on under the current rules from the next turn.

Version 3 changed what the player is told in every game (the Double Result and Region in Revolt
markers taken off, marches that pass walls their side holds, captures that end sieges, the
famine counted by area, a siege won with an even result), so a version 2 log parted from the
current rules in its first turn or two. The files of ``tests/exports`` were written by the app
at rules version 2 (``record_exports.py``, at ab87e86's parent): a corpus of twelve whole games
(the bot's and random answers), each step's question and state as short hashes, and two
sessions recorded through the store, one to turn 7 and one to its end."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Generator
from pathlib import Path
from typing import Any

import pytest
from reconquista_checks import PhaseChecks
from rules_v2_helpers import check_going_on, resume_cut, unzipped

from companion import games, interface
from companion.cli import main
from companion.driver import Driver, digest, replay_fitting, verify
from companion.errors import EXIT_OK
from companion.prompts import Prompt, plain_data
from companion.reconquista.bot import Bot
from companion.reconquista.game import GAME, V2_UNTIL
from companion.reconquista.simulate import bot_answer, play
from companion.reconquista.state import GameState
from companion.review.exchange import import_session
from companion.sessions import resume_session
from companion.store.db import Store

FILES = ("reconquista-rules-2-finished.json.gz", "reconquista-rules-2-unfinished.json.gz")

pytestmark = pytest.mark.slow  # whole games and their logs replayed: 1 to 7 s each


def question_hash(prompt: dict[str, Any]) -> str:
    """As record_exports.py hashed each question: its topic and what its answer must be (and
    its words, for a question without a topic)."""
    # The wording as prompts.WORDING names it: a question is known by its topic, facts and answers.
    wording = {"roll": ("why",), "choose": ("why",), "tell": ("text",), "enter": ("why", "hint")}
    left_out = ("rule", "reason", "data", *(wording[prompt["kind"]] if prompt.get("topic") else ()))
    asked = {k: v for k, v in prompt.items() if k not in left_out}
    text = json.dumps(asked, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


@pytest.fixture
def store(tmp_path: Path) -> Generator[Store, None, None]:
    s = Store(str(tmp_path / "c.db"))
    yield s
    s.close()


CORPUS = json.loads(unzipped("reconquista-rules-2-corpus.json.gz"))


def asked_as_recorded(prompt: Prompt, game: dict[str, Any], i: int) -> bool:
    """Whether ``prompt`` is step ``i``'s question of ``game`` as prompts.fits takes it: the same
    words, options and topic, and every fact it had (the current build may give more)."""
    now = prompt.to_dict()
    facts = plain_data(now.get("data", {}))
    then = game["data"][i]
    return question_hash(now) == game["questions"][i] and all(
        k in facts and facts[k] == v for k, v in then.items()
    )


def test_whole_games_of_version_2_are_asked_and_played_as_recorded() -> None:
    """Every question of twelve whole games is asked again, word for word and fact for fact,
    and every answer leads to the state it led to then."""
    older = games.playing("reconquista", 2)
    assert CORPUS["rules_version"] == 2 and len(CORPUS["games"]) == 12
    parted_now = 0
    for g in CORPUS["games"]:
        d = Driver(older, g["seed"])
        for i, (answer, source) in enumerate(zip(g["answers"], g["sources"], strict=True)):
            assert d.pending is not None, (g["seed"], i)
            assert asked_as_recorded(d.pending, g, i), (g["seed"], i, d.pending.describe())
            d.submit(answer if source != "ack" else None, source)
            assert digest(d.snapshot())[:12] == g["states"][i], (g["seed"], i)
        assert d.finished
        now = Driver(GAME, g["seed"])
        for i, (answer, source) in enumerate(zip(g["answers"], g["sources"], strict=True)):
            assert now.pending is not None
            if not asked_as_recorded(now.pending, g, i):
                parted_now += 1
                break
            now.submit(answer if source != "ack" else None, source)
    assert parted_now == len(CORPUS["games"])  # why the earlier rules are kept


@pytest.mark.parametrize("name", FILES)
def test_a_game_of_version_2_imports_and_replays_as_recorded(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    db = str(tmp_path / "c.db")
    s = Store(db)
    try:
        text = unzipped(name)
        doc = json.loads(text)
        done = import_session(s, text, name)
        assert done.note is None and done.rules_version == doc["session"]["rules_version"] == 2
        info, log = s.session(done.session_id), s.log(done.session_id)
        fit = replay_fitting(games.playing("reconquista", 2), info.seed, info.config, log.steps)
        assert fit.divergence is None and fit.digests == [st["digest"] for st in doc["steps"]]
    finally:
        s.close()
    assert main(["--db", db, "replay", str(done.session_id)]) == EXIT_OK
    assert "the state is the stored one" in capsys.readouterr().out


def test_a_finished_game_of_version_2_resumes_whole_and_over(store: Store) -> None:
    sid = import_session(store, unzipped(FILES[0])).session_id
    resumed = resume_session(store, sid, GAME)
    assert resumed.driver.finished and resumed.notice is None
    assert len(resumed.driver.steps) == store.session(sid).steps


def turn_of(state: GameState) -> int:
    return state.turn


def test_a_game_put_away_at_any_step_goes_on_under_the_current_rules_from_the_first_turn_it_can(
    store: Store,
) -> None:
    """Cut every 60 steps of a whole game of version 2, each resumes whole and goes on under the
    current rules from the turn in play where the log still replays to its recorded states
    with that (its first instruction waits, or nothing asked in it differs), else from the next
    turn (``check_going_on``)."""
    text = unzipped(FILES[0])
    steps = len(json.loads(text)["steps"])
    seen = set()
    for n in range(30, steps, 60):
        sid, resumed = resume_cut(store, text, n)
        point = check_going_on(store, sid, resumed, V2_UNTIL, turn_of, "turn")
        seen.add(point - resumed.driver.state.turn)
    assert seen == {0, 1}


def test_an_unfinished_game_of_version_2_is_played_out_under_the_current_rules(store: Store) -> None:
    """Cut in the middle of a turn in which version 2 asked what the current rules do not (the
    turn goes on under it), the game is played out by the bot through the store: from the next
    turn the whole-game checks of the current rules hold at every phase (no side besieging
    walls it controls, captures ending sieges, the markers taken off...); the whole log then
    replays and verifies as recorded."""
    text = unzipped(FILES[1])
    doc = json.loads(text)
    for n in range(len(doc["steps"]) - 5, 0, -7):
        sid, resumed = resume_cut(store, text, n)
        turn = resumed.driver.state.turn
        if check_going_on(store, sid, resumed, V2_UNTIL, turn_of, "turn") == turn + 1:
            break
    else:
        raise AssertionError("no cut of the game keeps its turn under version 2")
    assert f"turn {turn} ends under them" in (resumed.notice or "")
    d = resume_session(store, sid, GAME).driver
    info = store.session(sid)
    bot, board = Bot(info.seed), GAME.board_of(d.state)
    while d.state.turn == turn and not d.finished:
        assert d.state.under_v2()
        bot_answer(d, bot, board)
    assert d.state.turn == turn + 1 and not d.state.under_v2()
    watch = PhaseChecks()
    play(info.seed, check=True, watch=watch, driver=d)
    assert d.finished and watch.phases
    final = resume_session(store, sid, GAME)
    assert final.driver.finished and final.notice is None
    assert final.driver.snapshot() == d.snapshot()
    info, log = store.session(sid), store.log(sid)
    verify(games.playing("reconquista", 2), info.seed, info.config, log.steps, log.digests, store.state(sid))


def test_version_1_is_not_played_and_a_hostile_setting_plays_every_turn_under_version_2() -> None:
    assert interface.under_rules(GAME, 1) is None and interface.under_rules(GAME, 3) is None
    older = games.playing("reconquista", 2)
    assert older.rules_version == 2
    for bad in ("4", 0, -3, True, 4.0, None, {"turn": 4}):
        assert Driver(older, 1, {V2_UNTIL: bad}).state.under_v2()
    assert not Driver(older, 1, {V2_UNTIL: 1}).state.under_v2()
    assert not Driver(GAME, 1, {V2_UNTIL: 99}).state.under_v2()
