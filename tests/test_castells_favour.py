"""Favour cards in a Terra de Castells battle ("Cards with C are only played during combat"):
before a battle's result is applied, the players say whether a card changes it (a success more
or less for a side, or the result as the card says); each change is a recorded step."""

from __future__ import annotations

from castells_helpers import drive, table

from companion.castells.battle import ACCEPT, APPLY, CARD, STOP, odds_now, player_battle, saracen_battle
from companion.prompts import Choose, Roll, Tell
from screens.castells.game_screen import side_result


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
