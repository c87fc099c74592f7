"""Tests of the game statistics (companion/review/stats.py) and of the effective-step SQL
they stand on (companion/review/effective.py): databases built from scripted and headless
sessions whose outcomes the test tallies from the live game, undone steps left out."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import text
from test_review_helpers import (
    ReconquistaTally,
    advance,
    auto,
    castells_chooser,
    new_driver,
    play_reconquista,
    reconquista_chooser,
    simancas_hand,
    why_starts,
)

from companion.prompts import Roll
from companion.reconquista.simulate import play_game
from companion.review.effective import Scope, effective_cte
from companion.review.stats import (
    castells_stats,
    reconquista_stats,
    simancas_stats,
    statistics,
)
from companion.store.db import Store


def counts(items: Any) -> dict[str, int]:
    """label -> count of a tuple of Count, zeros left out."""
    return {c.label: c.count for c in items if c.count}


def keyed(items: Any) -> dict[str, int]:
    return {c.key: c.count for c in items if c.count}


# -- the effective steps ------------------------------------------------------------------


def effective_seqs(store: Store, session_id: int) -> list[int]:
    sql = effective_cte(Scope(session_id=session_id)) + "SELECT seq FROM effective ORDER BY seq"
    with store.engine.connect() as con:
        return [r[0] for r in con.execute(text(sql), {"session": session_id})]


def test_effective_steps_leave_out_an_undone_answer(store: Store) -> None:
    """An undone roll and the answers replaced by a correction are not effective; the rest are."""
    sid, driver = new_driver(store, "dice", 1)
    driver.type("2d6 Attack")
    driver.type("3 5")
    driver.undo()  # withdraws '3 5'
    driver.type("6 6")
    driver.type("1d20")
    driver.type("7")
    driver.correct(0, "1d6", "player")  # replaces step 0 and after: the 2d6 and the d20 go
    driver.type("4")
    assert effective_seqs(store, sid) == [e.seq for e in store.log(sid).events]
    answers = [e.answer for e in store.log(sid).events]
    assert answers == ["1d6", [4]]


def test_effective_steps_of_clean_and_undone_sessions_together(store: Store) -> None:
    """Sessions never undone take every row; the others are folded; one query serves both."""
    clean, driver = new_driver(store, "dice", 1)
    for typed in ("1d6", "4", "2d6", "1 2"):
        driver.type(typed)
    undone, other = new_driver(store, "dice", 2)
    for typed in ("1d6", "5", "1d6", "6"):
        other.type(typed)
    other.undo()
    other.undo()
    other.type("2d6")
    sql = effective_cte(Scope()) + "SELECT session_id, seq FROM effective ORDER BY session_id, seq"
    with store.engine.connect() as con:
        rows = [tuple(r) for r in con.execute(text(sql))]
    expected = [(sid, e.seq) for sid in (clean, undone) for e in store.log(sid).events]
    assert rows == expected
    assert [e.answer for e in store.log(undone).events] == ["1d6", [5], "2d6"]


ACTIONS = st.sampled_from(["roll", "type", "undo", "undo2", "correct"])


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(actions=st.lists(ACTIONS, min_size=1, max_size=30))
def test_effective_steps_match_the_store_log(actions: list[str]) -> None:
    """Whatever mix of answers, undos and corrections, the SQL keeps exactly the rows Store.log keeps,
    and they are the steps the driver played holds (its own list, kept as it went)."""
    store = Store(":memory:")
    sid, driver = new_driver(store, "dice", 3)
    for i, action in enumerate(actions):
        if action in ("undo", "undo2"):
            for _ in range(1 if action == "undo" else 2):
                driver.undo()
        elif action == "correct" and driver.steps:
            first = driver.steps[0]
            driver.correct(0, "1d6" if first.answer != "1d6" else "2d6", "player")
        elif driver.pending is not None and driver.pending.kind == "enter":
            driver.type("1d6 x")
        elif action == "roll" and driver.pending is not None:
            driver.roll()
        elif driver.pending is not None:
            roll = driver.pending
            driver.type(" ".join(str((i + j) % roll.sides + 1) for j in range(roll.n)))
    log = store.log(sid)
    assert effective_seqs(store, sid) == [e.seq for e in log.events]
    assert [e.answer for e in log.events] == [s.answer for s in driver.steps]
    store.close()


# -- Reconquista --------------------------------------------------------------------------


@pytest.mark.slow
def test_reconquista_results_and_victory_points_of_finished_games(store: Store) -> None:
    """Each finished game is listed oldest first with the result band and victory points the
    simulator computes from the end state ("End of Game: Victory Points"); an unfinished one is not."""
    seeds = [1, 2, 3]
    sids = [play_reconquista(store, seed)[0] for seed in seeds]
    play_reconquista(store, 9, until=why_starts("Events: 2D6"))  # unfinished: no result
    expected = [play_game(seed) for seed in seeds]
    stats = reconquista_stats(store)
    assert stats.sessions == 4
    assert [g.session_id for g in stats.games] == sids
    assert [g.vp for g in stats.games] == [r.vp for r in expected]
    assert [f'{g.result} "{g.title}"' for g in stats.games] == [r.result for r in expected]
    assert [g.ended for g in stats.games] == sorted(g.ended for g in stats.games)
    by_band = Counter(r.result.split(' "')[0] for r in expected)
    assert counts(stats.results) == dict(by_band)
    assert next(c.label for c in stats.results) == "Crushing Muslim Victory"  # every band, in table order
    assert len(stats.results) == 5
    assert stats.mean_vp == pytest.approx(sum(r.vp for r in expected) / 3)


@pytest.mark.slow
def test_reconquista_table_results_match_what_the_games_did(store: Store) -> None:
    """Rebellion results, events, where the Muslim reaction rose and what the reinforcement
    table gave: counted from the log's rolls and the tables, equal to what the live games told."""
    tally = ReconquistaTally()
    for seed in (2, 11):  # a whole game, and one with a rebellion result refused
        _sid, driver = new_driver(store, "reconquista", seed)
        advance(driver, reconquista_chooser(driver, seed), tally)
    stats = reconquista_stats(store)
    assert counts(stats.rebellions) == dict(tally.rebellions)
    assert stats.rebellions_refused == tally.refused >= 1  # seed 11 has some, rolled again
    assert keyed(stats.events) == dict(tally.events)
    assert counts(stats.reaction_regions) == dict(tally.regions)
    assert counts(stats.reinforcements) == dict(tally.reinforcements)
    assert sum(tally.events.values()) > 10  # the games were long enough to mean something


def test_reconquista_undone_rolls_do_not_count(store: Store) -> None:
    """An events roll typed and undone counts for nothing; the roll typed instead counts
    (Phase 2: Events, 2D6: 9 Taxes, 12 Expulsion; Phase 1: the table die 3 is Proselytism)."""
    _sid, driver = new_driver(store, "reconquista", 5)
    choose = reconquista_chooser(driver, 5)
    advance(driver, choose, until=why_starts("Rebellions: region die"))
    driver.type("1")
    advance(driver, choose, until=why_starts("Rebellions: table die"))
    driver.type("3")  # Proselytism
    advance(driver, choose, until=why_starts("Events: 2D6"))
    driver.type("6 6")  # Expulsion ...
    driver.undo()  # ... taken back
    driver.type("4 5")  # Taxes
    stats = reconquista_stats(store)
    assert keyed(stats.events) == {"taxes": 1}
    assert keyed(stats.rebellions) == {"proselytism": 1}
    assert stats.games == ()
    assert counts(stats.results) == {}


def test_a_refused_rebellion_result_is_counted_apart(store: Store) -> None:
    """ "To prevent the game from ending because of a rebellion" a result that would eliminate a
    side's last city is rolled again: the refused roll is not a result, the next one is."""
    sid = store.create_session("reconquista", 1)
    why = "Rebellions: table die for Asturias (1-2 Rebels, 3 Proselytism, 4 Peasant Revolt, 5 Rebel Governor, 6 Regional Revolt)"
    again = "Rebellions: table die for Asturias, rolled again (Regional Revolt would have eliminated the last Christian-controlled city)"
    # The statistics read the topic and the data's "again", not the wording: a roll asked again
    # makes the roll before it a refused one.
    topic = "reconquista.rebellions.table"
    rows = [
        (Roll(1, 6, why, topic=topic, data={"region": "Asturias", "again": False}), [6]),
        (Roll(1, 6, again, topic=topic, data={"region": "Asturias", "again": True}), [1]),
    ]
    with store.engine.begin() as con:
        for seq, (roll, answer) in enumerate(rows):
            con.execute(
                text(
                    "INSERT INTO event (session_id, seq, step, kind, turn, phase, prompt, answer, source, at) "
                    "VALUES (:s, :q, :q, 'answer', 1, 'rebellions', :p, :a, 'physical', '2026-03-14 18:00:00')"
                ),
                {
                    "s": sid,
                    "q": seq,
                    "p": json.dumps(roll.to_dict()),
                    "a": str(answer),
                },
            )
    stats = reconquista_stats(store)
    assert keyed(stats.rebellions) == {"rebels": 1}
    assert stats.rebellions_refused == 1


# -- Battle of Simancas -------------------------------------------------------------------


def test_simancas_hands_and_matches_by_side(store: Store) -> None:
    """Hands go to the higher total, a tie to nobody; the first side to 5 hands wins the match
    ("The first player to win 5 hands is the winner"). An undone hand is not counted."""
    told: list[str] = []
    _sid, match = new_driver(store, "simancas", 1)
    told += simancas_hand(match, [])  # an empty table: a tie
    for _ in range(5):
        told += simancas_hand(match, ["Moors place Large Army"])
    assert match.finished
    _sid2, other = new_driver(store, "simancas", 2)
    told += simancas_hand(other, ["Christians place " + _christian_card(other)])
    told += simancas_hand(other, ["Moors place Large Army"])
    other.undo()  # the result's instruction ...
    other.undo()  # ... and the Christians' pass that ended the hand: the Moors' second hand is not won yet
    hands = Counter(
        "tie" if "A tie" in t else "moors" if "The Moors win the hand" in t else "christians"
        for t in told
        if t.startswith("Hand ")
    )
    hands["moors"] -= 1  # the hand undone
    stats = simancas_stats(store)
    assert stats.sessions == 2
    assert keyed(stats.hands) == {k: v for k, v in hands.items() if v}
    assert keyed(stats.hands) == {"tie": 1, "moors": 5, "christians": 1}
    assert keyed(stats.matches) == {"moors": 1}
    assert stats.finished == 1


def _christian_card(driver: Any) -> str:
    return next(o for o in driver.pending.options if o.startswith("Christians place")).removeprefix(
        "Christians place "
    )


# -- Terra de Castells --------------------------------------------------------------------


def test_castells_saracen_battles_and_army_points(store: Store) -> None:
    """Saracen battles by winner ("the defender must reach at least the Saracen's successes")
    and army points paid for rerolls (1 a reroll), as the games went."""
    won: Counter[str] = Counter()
    paid: Counter[str] = Counter()
    for seed in (4, 5, 6):
        _sid, driver = new_driver(store, "castells", seed)
        choose = castells_chooser(seed)
        while driver.pending is not None:
            prompt = driver.pending
            battle = driver.state.battle
            kind = battle.kind if battle is not None and battle.result is None else None
            if prompt.kind == "choose":
                answer = choose(prompt)
                driver.submit(answer, "player")
                if answer.startswith("Reroll the "):
                    paid[kind] += 1
            else:
                auto(driver, choose)
            if prompt.kind == "tell" and prompt.text.startswith("The Saracens take "):
                won["saracens"] += 1
            elif prompt.kind == "tell" and battle and battle.kind == "saracen" and " holds" in prompt.text:
                won["defenders"] += 1
    stats = castells_stats(store)
    assert stats.available
    assert stats.sessions == 3 and stats.finished == 3
    assert keyed(stats.battles) == dict(won)
    assert sum(won.values()) > 0
    assert keyed(stats.army_points) == {k if k == "saracen" else "players": v for k, v in paid.items()}
    assert stats.army_points_spent == sum(paid.values())


def test_castells_a_saracen_battle_undone_counts_nowhere(store: Store) -> None:
    """Every figure counts the steps that stand: a Saracen battle's result acknowledged and then
    undone is not counted; acknowledged again, it is, once."""
    _sid, driver = new_driver(store, "castells", 5)
    choose = castells_chooser(5)
    while not (
        driver.pending is not None
        and driver.pending.kind == "tell"
        and driver.pending.topic == "castells.battle.result"
        and driver.pending.data["kind"] == "saracen"
    ):
        assert driver.pending is not None, "the game ended with no Saracen battle"
        auto(driver, choose)
    result = driver.pending.data["result"]
    winner = "saracens" if result == "taken" else "defenders"
    before = keyed(castells_stats(store).battles)
    driver.ack()
    assert keyed(castells_stats(store).battles) == dict(Counter(before) + Counter({winner: 1}))
    driver.undo()
    assert keyed(castells_stats(store).battles) == before
    driver.ack()
    assert keyed(castells_stats(store).battles) == dict(Counter(before) + Counter({winner: 1}))


# -- all games ----------------------------------------------------------------------------


def test_statistics_filtered_by_game(store: Store) -> None:
    """The game filter leaves the other games out; sessions are counted by game."""
    play_reconquista(store, 1, until=why_starts("Events: 2D6"))
    new_driver(store, "simancas", 1)
    only = statistics(store, game="simancas")
    assert only.of("reconquista") is None and only.of("castells") is None
    assert only.of("simancas") is not None and only.of("simancas").sessions == 1
    every = statistics(store)
    assert keyed(every.sessions_by_game) == {"reconquista": 1, "simancas": 1}
    data = every.to_json()
    assert data["reconquista"]["sessions"] == 1
    assert data["simancas"]["hands"][0] == {"key": "moors", "label": "Moors", "count": 0}


def test_statistics_of_an_unknown_game_is_one_sentence(store: Store) -> None:
    from companion.games import GameNotAvailable

    with pytest.raises(GameNotAvailable, match=r"^There is no game called 'chess'; .*\.$"):
        statistics(store, game="chess")
