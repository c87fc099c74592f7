"""Matches begun under the Battle of Simancas' rules version 2 (docs/design.md, "Rules versions";
docs/rules-notes.md, Simancas 28): their logs replay as recorded, and they go on under
the current rules from the hand after the one in play.

Version 3 took "End the hand" off the menu and a passed side's actions with it ("When both
players have finished playing cards add up the Force value"), so every version 2 log parts from
the current rules at its first menu. The two files of ``tests/exports`` were written by the app
at rules version 2 (commit 630cd56's parent: random matches with passes, tactics, restores, Rout
and "End the hand", one finished with the guide on, one stopped at the start of hand 4): what a
player kept from that version, not a log made by the code under test."""

from __future__ import annotations

import json
import random
from collections.abc import Generator
from pathlib import Path

import pytest
from rules_v2_helpers import check_going_on, replay_command_passes, resume_cut
from rules_v2_helpers import unzipped as recorded
from test_simancas_game import check_menu, check_where_the_cards_are, random_answer

from companion import games, interface
from companion.driver import Driver, replay_fitting, verify
from companion.prompts import Choose, Tell
from companion.review.exchange import import_session
from companion.sessions import resume_session
from companion.simancas.actions import END, Action, action_of
from companion.simancas.game import ACTION_TOPIC, GAME, RESULT_TOPIC, V2_UNTIL, Match, menu_of
from companion.store.db import Store

FILES = ("simancas-rules-2-finished.json.gz", "simancas-rules-2-unfinished.json.gz")


@pytest.fixture
def store(tmp_path: Path) -> Generator[Store, None, None]:
    s = Store(str(tmp_path / "c.db"))
    yield s
    s.close()


@pytest.mark.parametrize("name", FILES)
def test_a_match_of_rules_version_2_imports_and_replays_as_recorded(store: Store, name: str) -> None:
    """The whole log replays under the rules it was recorded under, to the states it recorded:
    it is imported as a session of version 2 (not "kept as recorded"), and every step's state is
    the logged one (the discard pile as version 2 pictured it)."""
    text = recorded(name)
    doc = json.loads(text)
    assert doc["session"]["rules_version"] == 2
    done = import_session(store, text, name)
    assert done.note is None and done.rules_version == 2
    info = store.session(done.session_id)
    assert info.rules_version == 2 and info.steps == len(doc["steps"])
    log = store.log(done.session_id)
    fit = replay_fitting(games.playing("simancas", 2), info.seed, info.config, log.steps)
    assert fit.divergence is None
    assert fit.digests == [s["digest"] for s in doc["steps"]]
    # Under the current rules alone it parts at the first menu: the reason for all this.
    now = replay_fitting(GAME, info.seed, info.config, log.steps)
    assert now.divergence is not None and now.divergence.step < 10


@pytest.mark.parametrize("name", FILES)
def test_companion_replay_checks_a_version_2_session_as_recorded(
    tmp_path: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    replay_command_passes(str(tmp_path / "c.db"), recorded(name), name, capsys)


def test_a_finished_match_of_version_2_resumes_whole_and_ended(store: Store) -> None:
    sid = import_session(store, recorded(FILES[0])).session_id
    steps = store.session(sid).steps
    resumed = resume_session(store, sid, games.load("simancas"))
    assert resumed.driver.finished and len(resumed.driver.steps) == steps
    assert resumed.notice is None
    assert V2_UNTIL not in store.session(sid).config


def hand_of(state: Match) -> int:
    return state.hand


@pytest.mark.slow  # 22 sessions imported and resumed: 4 s of CPU
def test_a_match_put_away_at_any_step_goes_on_under_the_current_rules_from_the_first_hand_it_can(
    store: Store,
) -> None:
    """Cut after every sixth step of a whole match of version 2 (guided: the guide's words changed
    too), each resumes whole and goes on under the current rules from the hand in play where
    the log still replays to its recorded states with that, else from the next hand
    (``check_going_on``); the menu waiting offers "End the hand" exactly in a hand played under
    version 2."""
    text = recorded(FILES[0])
    steps = len(json.loads(text)["steps"])
    seen = set()
    for n in range(1, steps, 6):
        sid, resumed = resume_cut(store, text, n)
        d = resumed.driver
        if store.session(sid).rules_version == 3:
            # A log the current rules ask as it is (the guide's first words) is a session of
            # them from its import.
            assert resumed.notice is None and len(d.steps) == n and n < 5
            continue
        point = check_going_on(store, sid, resumed, V2_UNTIL, hand_of, "hand")
        seen.add(point - d.state.hand)
        if isinstance(d.pending, Choose) and d.pending.topic == ACTION_TOPIC:
            assert (END in d.pending.options) == (d.state.hand < point)
    assert seen == {0, 1}  # both ways are met


@pytest.mark.slow  # a match played out: 2 s of CPU
def test_an_unfinished_match_of_version_2_is_played_out_under_the_current_rules(store: Store) -> None:
    """Cut in the middle of a hand (a card on the table: that hand goes on under version 2), the
    match is played out by random legal answers through the store: "End the hand" is offered
    in that hand, and from the next the menus are the current rules' (``check_menu``: nothing of
    a side that has passed, no "End the hand") and every card is in one place. The whole log,
    both rules' hands, then replays and verifies as recorded."""
    text = recorded(FILES[1])
    doc = json.loads(text)
    n = next(
        i + 1
        for i, st in enumerate(doc["steps"])
        if st["prompt"].get("topic") == ACTION_TOPIC and " place " in str(st["answer"]) and st["turn"] == 3
    )
    sid, resumed = resume_cut(store, text, n)
    hand = resumed.driver.state.hand
    assert check_going_on(store, sid, resumed, V2_UNTIL, hand_of, "hand") == hand + 1
    assert f"hand {hand} ends under them" in (resumed.notice or "")
    game = games.load("simancas")
    d = resume_session(store, sid, game).driver
    rng = random.Random(5)
    state: Match = d.state
    while not d.finished:
        assert len(d.steps) < 3000
        state = d.state
        if isinstance(d.pending, Tell):
            d.ack()
            continue
        assert isinstance(d.pending, Choose)
        menu: dict[str, Action] = {}
        if d.pending.topic == ACTION_TOPIC:
            menu = menu_of(state)
            if state.hand == hand:
                assert END in d.pending.options
            else:
                check_menu(d, menu)
        d.submit(random_answer(d, rng, menu), "player")
        if state.hand > hand:
            check_where_the_cards_are(state, reshuffled=True)
    assert state.hand > hand
    final = resume_session(store, sid, game)
    assert final.driver.finished and final.notice is None
    assert final.driver.snapshot() == d.snapshot()
    info, log = store.session(sid), store.log(sid)
    verify(games.playing("simancas", 2), info.seed, info.config, log.steps, log.digests, store.state(sid))


def test_ending_the_hand_of_version_2_scores_it(store: Store) -> None:
    """In a hand played under rules version 2, "End the hand" scores it as those rules did; the
    result is told and the next hand, under the current rules, opens without it."""
    text = recorded(FILES[1])
    doc = json.loads(text)
    n = next(
        i + 1
        for i, st in enumerate(doc["steps"])
        if st["prompt"].get("topic") == ACTION_TOPIC and " place " in str(st["answer"]) and st["turn"] == 2
    )
    _, resumed = resume_cut(store, text, n)
    d = resumed.driver
    hand = d.state.hand
    assert isinstance(d.pending, Choose) and END in d.pending.options
    assert action_of(END) == Action("end")
    d.submit(END, "player")
    assert isinstance(d.pending, Tell) and d.pending.topic == RESULT_TOPIC
    assert d.pending.data["hand"] == hand
    while isinstance(d.pending, Tell):
        d.ack()
    assert d.state.hand == hand + 1
    assert isinstance(d.pending, Choose) and END not in d.pending.options


def test_a_session_of_version_1_still_replays_as_far_as_it_fits() -> None:
    """Version 1 (passes not recorded) is not played any more: no earlier game for it."""
    assert interface.under_rules(GAME, 1) is None
    assert interface.under_rules(GAME, 3) is None
    earlier = interface.under_rules(GAME, 2)
    assert earlier is not None and earlier.game.rules_version == 2


def test_a_hostile_setting_plays_every_hand_under_version_2() -> None:
    """The hand the settings name is read only as a whole number from 1: anything else names
    none, and the match plays under the rules it was recorded under, as it was."""
    older = games.playing("simancas", 2)
    for bad in ("3", 0, -2, True, 2.0, None, [3]):
        d = Driver(older, 1, {V2_UNTIL: bad})
        assert isinstance(d.pending, Choose) and END in d.pending.options
    d = Driver(older, 1, {V2_UNTIL: 1})
    assert isinstance(d.pending, Choose) and END not in d.pending.options


def test_a_version_2_log_that_does_not_replay_under_version_2_is_taken_as_far_as_it_fits(
    store: Store,
) -> None:
    """A log of version 2 that those rules do not ask either (here a question given a fact no
    build gave) is not damage to refuse: it is imported as recorded and resumed as any log the
    current rules part from, as far as it fits them, and the rest withdrawn with one sentence."""
    doc = json.loads(recorded(FILES[1]))
    doc["steps"][-1]["prompt"].setdefault("data", {})["tampered"] = True
    done = import_session(store, json.dumps(doc), "tampered.json")
    assert done.note is not None and "kept as recorded" in done.note
    resumed = resume_session(store, done.session_id, games.load("simancas"))
    assert resumed.notice is not None and resumed.notice.startswith(
        "This game was recorded under earlier rules"
    )
    assert len(resumed.driver.steps) < len(doc["steps"])
    assert store.session(done.session_id).rules_version == 3
