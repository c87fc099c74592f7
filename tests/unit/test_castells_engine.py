"""Terra de Castells engine: the bag, the Saracen activation, move or attack, the battles and their costs.

Each test quotes the rule of seed 002 it checks."""

from __future__ import annotations

from collections import Counter

import pytest
from castells_helpers import drive, table
from hypothesis import given
from hypothesis import strategies as st

from companion.castells import bag as bags
from companion.castells.battle import (
    ACCEPT,
    STOP,
    player_battle,
    reroll_option,
    saracen_battle,
)
from companion.castells.board import default_board
from companion.castells.game import ATTACK, ATTACK_NEAR, MOVE, draw, play_turn
from companion.castells.odds import percent, reach
from companion.prompts import Choose, Enter, Roll

TERRITORIES = ["Levant", "Migdia", "Ponent", "Riu", "Bosc", "Muntanya"]


# -- the bag --------------------------------------------------------------------------------


@given(
    counts=st.lists(st.integers(0, 5), min_size=6, max_size=6).filter(any),
    data=st.data(),
)
def test_bag_draws_never_return_a_token(counts: list[int], data: st.DataObject) -> None:
    """Phase 2: "he takes a territory token from the bag ... The token is discarded (does not
    return to the bag)": drawing every token empties the bag, each territory exactly as often as
    it had tokens, and a draw is only ever offered among the territories still in it."""
    bag = dict(zip(TERRITORIES, counts, strict=True))
    start = dict(bag)
    drawn: Counter[str] = Counter()
    while bags.tokens_left(bag):
        left = bags.in_bag(bag)
        assert left == [t for t in TERRITORIES if bag[t] > 0]
        face = data.draw(st.integers(1, bags.tokens_left(bag)))
        token = bags.token_at(bag, face)
        assert token in left
        before = bags.tokens_left(bag)
        bags.take(bag, token)
        drawn[token] += 1
        assert bags.tokens_left(bag) == before - 1
    assert dict(drawn) == {t: n for t, n in start.items() if n}
    with pytest.raises(ValueError):
        bags.take(bag, TERRITORIES[0])


@given(counts=st.lists(st.integers(0, 4), min_size=6, max_size=6).filter(any))
def test_every_token_in_the_bag_is_one_face_of_the_app_draw(counts: list[int]) -> None:
    """The app draws as the cloth bag does: each token equally likely (one die face a token)."""
    bag = dict(zip(TERRITORIES, counts, strict=True))
    faces = Counter(bags.token_at(bag, f) for f in range(1, bags.tokens_left(bag) + 1))
    assert dict(faces) == {t: n for t, n in bag.items() if n}


def test_the_app_draw_is_reproducible_from_seed_and_step() -> None:
    """A drawn token is the same on resume: it depends on the session seed and the step only."""
    bag = dict.fromkeys(TERRITORIES, 4)
    draws = [bags.app_draw(11, step, bag) for step in range(40)]
    assert draws == [bags.app_draw(11, step, bag) for step in range(40)]
    assert set(draws) <= set(TERRITORIES) and len(set(draws)) > 1


def test_the_draw_question_offers_only_territories_left_and_discards_the_token() -> None:
    """Phase 2: the token drawn is discarded; a territory with no token left cannot come out."""
    board, state = table({}, {"Anna": 2, "Bo": 2})
    state.bag = {t: (1 if t in ("Riu", "Levant") else 0) for t in TERRITORIES}
    trace = drive(draw(board, state, state.players[0]), ["Riu"])
    assert trace.chooses()[0].options == ("Levant", "Riu")
    assert trace.result == "Riu"
    assert state.bag["Riu"] == 0 and state.discarded == ["Riu"]
    trace = drive(draw(board, state, state.players[0]), [])
    assert trace.pending is not None and trace.pending.options == ("Levant",)  # type: ignore[union-attr]


def test_an_empty_bag_draws_nothing() -> None:
    """Gap (rules notes): with the bag empty the turn draws no token, so no territory and no Saracens."""
    board, state = table({}, {"Anna": 2, "Bo": 2})
    state.bag = dict.fromkeys(TERRITORIES, 0)
    trace = drive(draw(board, state, state.players[0]), [])
    assert trace.result is None and "bag is empty" in trace.tells()[0]


# -- activation -----------------------------------------------------------------------------


@pytest.mark.parametrize("territory", TERRITORIES)
def test_only_levant_migdia_and_ponent_wake_the_saracens(territory: str) -> None:
    """Activation: "Whenever an East, Midday or West token comes out of the bag, the Saracens act
    before the player collects resources"."""
    board, state = table({"Tortosa": "Anna", "Lleida": "Bo"}, {"Anna": 2, "Bo": 2})
    state.bag = {t: (1 if t == territory else 0) for t in TERRITORIES}
    trace = drive(play_turn(board, state), [territory])
    assert trace.pending is not None
    woke = territory in ("Levant", "Migdia", "Ponent")
    assert board.wakes(territory) is woke
    assert ("wakes the Saracens" in getattr(trace.pending, "why", "")) is woke
    # Before resources: nothing was told yet when the Saracens are asked; otherwise the resources are.
    assert bool(trace.tells()) is not woke


def test_the_saracens_move_to_an_empty_castle() -> None:
    """Active Player Action: "Move the Saracen to any empty castle on the map"."""
    board, state = table({"Tortosa": "Anna", "Lleida": "Bo"}, {"Anna": 2, "Bo": 2})
    state.bag = {t: (1 if t == "Levant" else 0) for t in TERRITORIES}
    trace = drive(play_turn(board, state), ["Levant", MOVE, "Miravet"])
    kinds, where = trace.chooses()[1], trace.chooses()[2]
    assert kinds.options == (MOVE, ATTACK_NEAR)
    assert "Tortosa" not in where.options and "Lleida" not in where.options
    assert len(where.options) == len(board.castles) - 2
    assert state.saracen == "Miravet"
    assert "Move the Saracen figure from Saracen camp to Miravet." in trace.tells()
    # Then the resources, and the turn's actions.
    assert trace.pending is not None and "Actions of Anna" in trace.pending.why  # type: ignore[union-attr]


def test_the_saracens_attack_only_a_held_castle_near_them() -> None:
    """Active Player Action: "make an attack on a nearby castle from the Saracen's current position":
    a castle near the Saracen, held by a player; a castle far away is not offered."""
    board, state = table({"Tortosa": "Anna", "Lleida": "Bo"}, {"Anna": 2, "Bo": 2})
    state.bag = {t: (1 if t == "Migdia" else 0) for t in TERRITORIES}
    trace = drive(play_turn(board, state), ["Migdia", ATTACK_NEAR])
    assert trace.pending is not None and trace.pending.options == ("Tortosa (Anna)",)  # type: ignore[union-attr]


def test_with_nothing_near_to_attack_the_saracens_can_only_move() -> None:
    """Active Player Action: the attack needs a castle near the Saracen; with none, moving is the action."""
    board, state = table({"Lleida": "Bo"}, {"Anna": 2, "Bo": 2})
    state.bag = {t: (1 if t == "Ponent" else 0) for t in TERRITORIES}
    trace = drive(play_turn(board, state), ["Ponent"])
    assert trace.pending is not None and "Move the Saracen from Saracen camp" in trace.pending.why  # type: ignore[union-attr]


# -- the Saracen battle ---------------------------------------------------------------------


def test_the_saracens_reroll_their_failures_free_up_to_three_rolls() -> None:
    """Battle Saracens: "Saracens cast up to 3 times at no army cost"; the rolls reroll the failed
    dice only, and the defender who matches holds without a question."""
    _board, state = table({"Tortosa": "Anna"}, {"Anna": 2})
    trace = drive(
        saracen_battle(state, "Tortosa"),
        ["", [1, 2, 3, 5, 6], [5, 1, 1], [1, 1], [5, 5, 6, 1, 1]],
    )
    assert [r.n for r in trace.rolls()] == [5, 3, 2, 5]
    assert "for free" in trace.rolls()[1].why
    battle = state.battle
    assert battle is not None and battle.target == 3 and battle.attacker.rolls == 3
    assert battle.result == "held" and state.owners["Tortosa"] == "Anna"
    assert state.player("Anna").army == 2  # nothing paid
    assert not trace.chooses()
    assert "Tortosa holds" in trace.tells()[-1]


def test_the_saracens_stop_when_every_die_succeeds() -> None:
    """Battle Saracens: only failed dice are cast again; five successes need no second roll."""
    _board, state = table({"Tortosa": "Anna"}, {"Anna": 0})
    trace = drive(saracen_battle(state, "Tortosa"), ["", [5, 5, 5, 6, 6], [5, 5, 5, 5, 1]])
    assert [r.n for r in trace.rolls()] == [5, 5]
    assert state.battle is not None and state.battle.target == 5 and state.battle.result == "taken"


def test_no_saracen_success_means_the_castle_holds_without_a_defence_roll() -> None:
    """Defense: "The defender must match or exceed the attacker's achievements": 0 is matched by
    any roll, so the app does not ask for one (rules notes)."""
    _board, state = table({"Tortosa": "Anna"}, {"Anna": 2})
    trace = drive(saracen_battle(state, "Tortosa"), ["", [1] * 5, [1] * 5, [1] * 5])
    assert len(trace.rolls()) == 3 and state.battle is not None and state.battle.result == "held"
    assert "no success" in trace.tells()[-1]


def test_the_defender_pays_one_army_point_a_reroll_and_sees_the_odds() -> None:
    """Battle Saracens: "the defender does have to pay"; Rolls: "May reroll failed dice by paying 1
    army point, up to a maximum of 3 total rolls". Each reroll is a choice shown with its exact odds;
    a castle lost goes back to the reserve and the Saracen figure moves onto it."""
    _board, state = table({"Tortosa": "Anna"}, {"Anna": 2})
    trace = drive(
        saracen_battle(state, "Tortosa"),
        [
            "",
            [5, 5, 6, 1, 1],
            [1, 1],
            [1, 1],
            [5, 1, 1, 1, 1],
            reroll_option(4),
            [6, 2, 2, 2],
            reroll_option(3),
            [1, 1, 1],
        ],
    )
    first, second = trace.chooses()
    assert first.options == (reroll_option(4), ACCEPT)
    assert f"this reroll {percent(reach(2, 4, 1))}" in first.why
    assert f"with all 2 rerolls left (up to 2 army points) {percent(reach(2, 4, 2))}" in first.why
    assert f"this reroll {percent(reach(1, 3, 1))}" in second.why and "rerolls left" not in second.why
    assert [r.n for r in trace.rolls()][-3:] == [5, 4, 3]
    assert state.player("Anna").army == 0
    assert state.battle is not None and state.battle.defender.paid == 2 and state.battle.result == "taken"
    assert state.owners["Tortosa"] is None and state.saracen == "Tortosa"
    told = trace.tells()[-1]
    assert "return Anna's castle on Tortosa to Anna's reserve" in told and "set the army marker to 0" in told


def test_the_defender_may_accept_instead_of_paying() -> None:
    """Rolls: rerolling is "may": the defender can keep its army points and lose the castle."""
    _board, state = table({"Tortosa": "Anna"}, {"Anna": 3})
    trace = drive(saracen_battle(state, "Tortosa"), ["", [5, 5, 5, 5, 5], [1, 1, 1, 1, 1], ACCEPT])
    assert state.player("Anna").army == 3 and state.owners["Tortosa"] is None
    assert len(trace.rolls()) == 2


def test_no_reroll_is_offered_without_an_army_point() -> None:
    """Rolls: a reroll costs 1 army point, so a defender with none is not asked."""
    _board, state = table({"Tortosa": "Anna"}, {"Anna": 3})
    trace = drive(saracen_battle(state, "Tortosa"), ["0", [5, 5, 5, 5, 5], [1, 1, 1, 1, 1]])
    assert not trace.chooses() and state.battle is not None and state.battle.result == "taken"
    assert state.player("Anna").army == 0  # the army typed at the attack counts


def test_the_defender_has_three_rolls_at_most() -> None:
    """Rolls: "up to a maximum of 3 total rolls", even with army points to spare."""
    _board, state = table({"Tortosa": "Anna"}, {"Anna": 9})
    answers = ["", [5, 5, 5, 5, 5], [1] * 5, reroll_option(5), [1] * 5, reroll_option(5), [1] * 5]
    trace = drive(saracen_battle(state, "Tortosa"), answers)
    assert trace.pending is None and len(trace.chooses()) == 2
    assert state.player("Anna").army == 7 and state.battle is not None and state.battle.defender.rolls == 3


def test_the_army_confirmed_at_the_attack_is_an_entry_with_the_app_count_as_default() -> None:
    """Superiority: "at the time of declaring the attack": the app asks the army as it stands."""
    _board, state = table({"Tortosa": "Anna"}, {"Anna": 4})
    trace = drive(saracen_battle(state, "Tortosa"), [])
    assert isinstance(trace.pending, Enter) and trace.pending.default == "4"


# -- battles between players ------------------------------------------------------------------


def test_the_side_with_more_army_rolls_the_black_die() -> None:
    """Superiority: "Whoever has the most army at the time of declaring the attack rolls the black
    superiority die"; the attacker's rerolls cost 1 army point; a castle won changes hands."""
    _board, state = table({"Lleida": "Bo"}, {"Anna": 3, "Bo": 1})
    anna = state.player("Anna")
    trace = drive(
        player_battle(state, anna, "Lleida"),
        [
            "",
            "",
            [5, 5, 1, 1, 1, 1],
            reroll_option(4),
            [1, 1, 1, 1],
            STOP,
            [5, 1, 1, 1, 1],
            reroll_option(4),
            [1, 1, 1, 1],
        ],
    )
    assert [r.n for r in trace.rolls()] == [6, 4, 5, 4]
    assert "with the black superiority die" in trace.rolls()[0].why
    assert "Anna rolls the black die" in trace.tells()[0]
    assert anna.army == 2 and state.player("Bo").army == 0
    assert state.owners["Lleida"] == "Anna" and state.attack_won
    assert "cannot attack again this turn" in trace.tells()[-1]


@pytest.mark.parametrize(("anna", "bo", "dice"), [(2, 2, (5, 5)), (1, 3, (5, 6))])
def test_a_tie_in_army_gives_nobody_the_black_die(anna: int, bo: int, dice: tuple[int, int]) -> None:
    """Superiority: "In case of a tie, no one throws it"; a defender with more army throws it."""
    _board, state = table({"Lleida": "Bo"}, {"Anna": anna, "Bo": bo})
    trace = drive(
        player_battle(state, state.player("Anna"), "Lleida"),
        ["", "", [5] * dice[0], [5] * dice[1]],
    )
    assert (trace.rolls()[0].n, trace.rolls()[1].n) == dice
    assert state.owners["Lleida"] == "Bo"  # a match holds


def test_an_attack_won_ends_the_attacks_of_the_turn() -> None:
    """Favorable result: "the attacker ... cannot attack again this turn"."""
    board, state = table({"Lleida": "Bo", "Flix": "Bo"}, {"Anna": 2, "Bo": 2})
    state.bag = {t: (1 if t == "Riu" else 0) for t in TERRITORIES}
    trace = drive(
        play_turn(board, state),
        ["Riu", ATTACK, "Lleida (Bo)", "", "", [5, 5, 5, 1, 1], STOP, [1] * 5, ACCEPT],
    )
    assert ATTACK in trace.chooses()[1].options
    assert state.owners["Lleida"] == "Anna"
    assert isinstance(trace.pending, Choose) and trace.pending.topic == "castells.actions.next"
    assert ATTACK not in trace.pending.options and "attack" not in trace.pending.data["options"]
    assert trace.pending.options[-1] == "End Anna's turn"


def test_a_failed_attack_may_be_followed_by_another() -> None:
    """Unfavorable result: "There are no changes on the board", and the attacker may attack again."""
    board, state = table({"Lleida": "Bo"}, {"Anna": 0, "Bo": 0})
    state.bag = {t: (1 if t == "Riu" else 0) for t in TERRITORIES}
    trace = drive(play_turn(board, state), ["Riu", ATTACK, "Lleida (Bo)", "", "", [1] * 5])
    assert state.owners["Lleida"] == "Bo"
    assert isinstance(trace.pending, Choose) and ATTACK in trace.pending.options


def test_resources_name_the_castles_in_the_drawn_territory() -> None:
    """Phase 2: "for each castle he has in that territory, he raises an estate of his choice"."""
    board, state = table({"Mora": "Anna", "Flix": "Anna", "Miravet": "Bo"}, {"Anna": 2, "Bo": 2})
    state.bag = {t: (1 if t == "Riu" else 0) for t in TERRITORIES}
    trace = drive(play_turn(board, state), ["Riu"])
    assert "raise 2 estates of your choice for your castles in Riu (Mora, Flix)" in trace.tells()[0]
    assert "Put the Riu token on the discard pile" in trace.tells()[0]
    assert isinstance(trace.prompts[0], Choose) and not any(isinstance(p, Roll) for p in trace.prompts)


def test_the_shipped_board_has_the_six_territories() -> None:
    """Levant .. Mountain: the six territories of the seed, three of them waking the Saracens."""
    board = default_board()
    assert [t.name for t in board.territories] == TERRITORIES
    assert {t.name for t in board.territories if t.wakes_saracens} == {"Levant", "Migdia", "Ponent"}
    assert board.centuries == ("XI", "XII", "XIII", "XIV", "XV")
    assert sum(t.tokens for t in board.territories) >= 5 * 4
