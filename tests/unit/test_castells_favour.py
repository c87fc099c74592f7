"""Favour cards in a Terra de Castells battle ("Cards with C are only played during combat"):
before a battle's result is applied, the players say whether a card changes it (a success more
or less for a side, or the result as the card says); each change is a recorded step."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
from castells_helpers import drive, random_answer, table

from companion import games
from companion.castells.battle import ACCEPT, APPLY, CARD, STOP, odds_now, player_battle, saracen_battle
from companion.castells.game import GAME
from companion.driver import Driver, verify
from companion.prompts import Choose, Roll, Tell
from companion.store.db import Store
from screens.castells.views import side_result


def result_of(trace) -> Tell:  # type: ignore[no-untyped-def]
    (tell,) = [p for p in trace.prompts if isinstance(p, Tell) and p.topic == "castells.battle.result"]
    return tell


def test_every_battle_asks_whether_a_favour_card_changes_it_before_the_result() -> None:
    _board, state = table({"Lleida": "Bo"}, {"Anna": 0, "Bo": 0})
    trace = drive(
        player_battle(state, state.player("Anna"), "Lleida"),
        ["", "", [5, 5, 1, 1, 1], [5, 5, 1, 1, 1]],
        cards=True,
    )
    ask = trace.pending
    assert isinstance(ask, Choose) and ask.topic == "castells.battle.favour"
    assert ask.options == (APPLY, CARD) and ask.data["options"] == ["apply", "card"]
    assert ask.data["result"] == "held" and (
        ask.data["attacker_successes"],
        ask.data["defender_successes"],
    ) == (2, 2)
    assert ask.rule == "Phase 3 — Actions — Play a favor card — Cards with C are only played during combat"
    assert state.owners["Lleida"] == "Bo" and state.battle is not None and state.battle.result is None


def test_a_card_adding_a_success_turns_a_held_castle_into_a_taken_one() -> None:
    """2 against 2 holds; a card gives Anna a success: 3 against 2, Lleida is taken, recorded."""
    _board, state = table({"Lleida": "Bo"}, {"Anna": 0, "Bo": 0})
    trace = drive(
        player_battle(state, state.player("Anna"), "Lleida"),
        ["", "", [5, 5, 1, 1, 1], [5, 5, 1, 1, 1], CARD, "+1 success for Anna", APPLY],
        cards=True,
    )
    change = next(p for p in trace.chooses() if p.topic == "castells.battle.favour_change")
    assert "+1 success for Anna" in change.options and "Lleida holds, as the card says" in change.options
    result = result_of(trace)
    assert result.data["result"] == "taken" and result.data["cards"] == ["attacker+1"]
    assert (result.data["attacker_successes"], result.data["defender_successes"]) == (3, 2)
    assert "a favour card's change counted" in result.reason
    assert state.owners["Lleida"] == "Anna" and state.attack_won
    assert state.battle is not None and side_result(state.battle.attacker).plain.startswith(
        "3 successes (+1) · "
    )


def test_a_card_giving_the_saracens_a_success_makes_the_defender_roll() -> None:
    """The Saracens roll none: without a card the castle holds unrolled; a card's success for
    them means the defender must now match it with its own roll."""
    _board, state = table({"Tortosa": "Anna"}, {"Anna": 0})
    trace = drive(
        saracen_battle(state, "Tortosa"),
        ["", [1] * 5, [1] * 5, [1] * 5, CARD, "+1 success for Saracens"],
        cards=True,
    )
    roll = trace.pending
    assert (
        isinstance(roll, Roll) and roll.data["role"] == "defender" and roll.why.endswith("(needs 1 success)")
    )
    trace = drive(
        saracen_battle(state, "Tortosa"),
        ["", [1] * 5, [1] * 5, [1] * 5, CARD, "+1 success for Saracens", [1] * 5, APPLY],
        cards=True,
    )
    assert result_of(trace).data["result"] == "taken" and state.saracen == "Tortosa"


def test_a_card_may_decide_the_result_as_the_players_tell_it() -> None:
    _board, state = table({"Lleida": "Bo"}, {"Anna": 2, "Bo": 0})
    trace = drive(
        player_battle(state, state.player("Anna"), "Lleida"),
        ["", "", [5, 5, 5, 5, 1, 1], STOP, [1] * 5, CARD, "Lleida holds, as the card says", APPLY],
        cards=True,
    )
    result = result_of(trace)
    assert result.data["result"] == "held" and result.data["cards"] == ["held"]
    assert result.reason == "a favour card decides it: Lleida holds"
    # 4 against 0 would take it: the instruction says what decided it, not the successes alone.
    assert result.text.startswith("Lleida holds (Anna 4, Bo 0, as a favour card says): no change")
    assert state.owners["Lleida"] == "Bo" and not state.attack_won
    # Once a card has said the result, a further card may only say the other one.
    trace = drive(
        player_battle(state, state.player("Anna"), "Lleida"),
        ["", "", [5, 5, 5, 5, 1, 1], STOP, [1] * 5, CARD, "Lleida holds, as the card says", CARD],
        cards=True,
    )
    change = trace.pending
    assert isinstance(change, Choose) and change.data["options"] == ["held", "taken"]
    asked = [p for p in trace.chooses() if p.topic == "castells.battle.favour"][-1]
    assert asked.why.startswith("Anna 4, Bo 0: Lleida holds, as a favour card says.")


def test_a_success_taken_from_the_attacker_lets_nothing_go_below_zero() -> None:
    _board, state = table({"Lleida": "Bo"}, {"Anna": 0, "Bo": 0})
    trace = drive(
        player_battle(state, state.player("Anna"), "Lleida"),
        ["", "", [5, 1, 1, 1, 1], [1] * 5, CARD, "−1 success for Anna"],
        cards=True,
    )
    ask = trace.pending
    assert isinstance(ask, Choose) and ask.topic == "castells.battle.favour"
    assert ask.data["attacker_successes"] == 0 and ask.data["result"] == "held"
    trace = drive(
        player_battle(state, state.player("Anna"), "Lleida"),
        ["", "", [5, 1, 1, 1, 1], [1] * 5, CARD, "−1 success for Anna", CARD],
        cards=True,
    )
    assert isinstance(trace.pending, Choose) and "−1 success for Anna" not in trace.pending.options


def test_no_odds_are_shown_while_the_favour_card_question_is_open() -> None:
    """Bo accepted 1 success against 2 with rerolls left: while the players are asked about a
    card, no roll is being decided, so the battle shows no reroll odds."""
    _board, state = table({"Lleida": "Bo"}, {"Anna": 0, "Bo": 2})
    trace = drive(
        player_battle(state, state.player("Anna"), "Lleida"),
        ["", "", [5, 5, 1, 1, 1], [5, 1, 1, 1, 1, 1], ACCEPT],
        cards=True,
    )
    assert isinstance(trace.pending, Choose) and trace.pending.topic == "castells.battle.favour"
    assert state.battle is not None and state.battle.cards_asked
    assert odds_now(state) is None


def test_no_favour_card_question_until_a_player_buys_favour_cards() -> None:
    """Rules-notes Castells 23: buying is the only way to get a favour card, so in a new game
    (the setting on) a battle asks about cards with C only once some player has bought them."""
    _board, state = table({"Lleida": "Bo"}, {"Anna": 0, "Bo": 0, "Carme": 0})
    state.favour_after_purchase = True
    trace = drive(
        player_battle(state, state.player("Anna"), "Lleida"),
        ["", "", [5, 5, 1, 1, 1], [5, 5, 5, 1, 1]],
        cards=True,
    )
    assert trace.pending is None and not any(
        p.topic.startswith("castells.battle.favour") for p in trace.chooses()
    )
    assert result_of(trace).data["result"] == "held" and state.owners["Lleida"] == "Bo"
    # Carme, who is not in the battle, buys favour cards: from then on every battle asks.
    state.player("Carme").favour = True
    trace = drive(
        player_battle(state, state.player("Anna"), "Lleida"),
        ["", "", [5, 5, 1, 1, 1], [5, 5, 5, 1, 1]],
        cards=True,
    )
    assert isinstance(trace.pending, Choose) and trace.pending.topic == "castells.battle.favour"
    assert state.snapshot()["players"][2] == {"name": "Carme", "army": 0, "favour": True}


def test_a_game_recorded_before_the_setting_asks_in_every_battle() -> None:
    """A game with no setting (recorded before reading 23) asks as it was played, and its picture
    has no new key, so the digests its log recorded still match."""
    _board, state = table({"Tortosa": "Anna"}, {"Anna": 0})
    assert not state.favour_after_purchase
    trace = drive(
        saracen_battle(state, "Tortosa"), ["", [1, 1, 1, 1, 1], [1, 1, 1, 1, 1], [1, 1, 1, 1, 1]], cards=True
    )
    assert isinstance(trace.pending, Choose) and trace.pending.topic == "castells.battle.favour"
    snap = state.snapshot()
    assert "favour_after_purchase" not in snap and snap["players"] == [{"name": "Anna", "army": 0}]


@pytest.mark.slow
def test_a_new_game_asks_only_after_a_purchase_and_resumes_the_same(tmp_path: Path, clock: Any) -> None:
    """Whole games with a new game's settings, answered at random: no favour card question comes
    before some player has bought favour cards, battles before a purchase are fought without it,
    and each game, reopened from the store, replays to the same states."""
    config = dict(games.entry("castells").settings)
    store = Store(str(tmp_path / "c.db"), clock=clock)
    asked_before_buy = asked_after_buy = battles_unasked = 0
    for seed in range(6):
        picks = random.Random(seed)
        sid = store.create_session("castells", seed, config=config)
        d = Driver(GAME, seed, config, recorder=store.recorder(sid))
        while d.pending is not None:
            p = d.pending
            bought = any(player.favour for player in d.state.players)
            if isinstance(p, Choose) and p.topic == "castells.battle.favour":
                asked_before_buy += not bought
                asked_after_buy += bought
            if isinstance(p, Tell):
                battles_unasked += p.topic == "castells.battle.result" and not bought
            # Purchases and attacks come up often enough in six games to see both sides.
            random_answer(d, picks)
        log = store.log(sid)
        assert store.session(sid).config == config
        again = verify(GAME, seed, store.session(sid).config, log.steps, log.digests, store.state(sid))
        assert again.snapshot() == d.snapshot() and again.state.favour_after_purchase
    assert asked_before_buy == 0
    assert asked_after_buy > 0 and battles_unasked > 0
