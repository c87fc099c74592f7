"""Terra de Castells engine: the bag, the Saracen activation, move or attack, the battles and their costs.

Each test quotes the rule of seed 002 it checks."""

from __future__ import annotations

from collections import Counter
from typing import Any

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
from companion.castells.game import ATTACK, ATTACK_NEAR, MOVE, draw, empty_castles, play_turn
from companion.castells.odds import percent, reach
from companion.castells.state import BattleRecord
from companion.prompts import Choose, Edit, Enter, Prompt, Roll, Tell

TERRITORIES = ["Levant", "Migdia", "Ponent", "Riu", "Bosc", "Muntanya"]


def only(bag: str) -> dict[str, int]:
    return {t: (1 if t == bag else 0) for t in TERRITORIES}


def of(prompts: list[Prompt], topic: str) -> list[Any]:
    """The prompts of one topic (a prompt says what it is: its topic, data, rule and reason)."""
    return [p for p in prompts if not isinstance(p, Edit) and p.topic == topic]


def code(prompt: Choose, answer: str) -> str:
    """What an answer means, read as other code reads it: the code parallel to the option."""
    return str(prompt.data["options"][prompt.options.index(answer)])


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
    a castle near the Saracen, held by a player; a castle far away is not offered. The action
    question (move to any empty castle, or attack a nearby castle) counts where they can go and
    what they can attack."""
    board, state = table({"Tortosa": "Anna", "Siurana": "Bo", "Lleida": "Bo"}, {"Anna": 2, "Bo": 2})
    state.bag = only("Migdia")
    trace = drive(play_turn(board, state), ["Migdia", ATTACK_NEAR])
    (action,) = of(trace.prompts, "castells.saracens.action")
    assert isinstance(action, Choose)
    assert action.options == (MOVE, ATTACK_NEAR) and action.data["options"] == ["move", "attack"]
    assert action.data["empty"] == len(empty_castles(board, state)) == len(board.castles) - 3
    assert action.data["targets"] == ["Tortosa", "Siurana"]
    assert (action.data["token"], action.data["at"], action.data["player"]) == (
        "Migdia",
        "Saracen camp",
        "Anna",
    )
    assert action.rule == "Active Player Action"
    assert action.reason.startswith("a Migdia token wakes the Saracens before Anna collects resources")
    assert "2 held castles near Saracen camp" in action.reason
    # The castles near them that players hold, Lleida (far away) not among them.
    assert trace.pending is not None and trace.pending.options == ("Tortosa (Anna)", "Siurana (Bo)")  # type: ignore[union-attr]


def test_with_nothing_near_to_attack_the_saracens_can_only_move() -> None:
    """Active Player Action: the attack needs a castle near the Saracen; with none, moving is the
    action, and nothing is asked; the board instruction names where from and where to, and why."""
    board, state = table({"Lleida": "Bo"}, {"Anna": 2, "Bo": 2})
    state.bag = only("Ponent")
    trace = drive(play_turn(board, state), ["Ponent", "Miravet"])
    assert not of(trace.prompts, "castells.saracens.action")  # nothing was asked
    (where,) = of(trace.prompts, "castells.saracens.destination")
    assert "Move the Saracen from Saracen camp" in where.why
    assert where.reason.startswith("no castle near Saracen camp is held by a player, so they can only move")
    assert where.data["empty"] == len(where.options) == len(board.castles) - 1
    (move,) = of(trace.prompts, "castells.saracens.move")
    assert isinstance(move, Tell) and move.data == {
        "from": "Saracen camp",
        "to": "Miravet",
        "token": "Ponent",
    }
    assert move.rule == "Active Player Action — Move the Saracen to any empty castle on the map"
    assert "moved them to Miravet, an empty castle" in move.reason


def test_the_saracen_attack_names_its_castles_apart_from_the_wording() -> None:
    """Active Player Action: "make an attack on a nearby castle": the options are parallel to
    data castles and owners; the first Saracen roll says why that castle was attacked."""
    board, state = table({"Tortosa": "Anna", "Ulldecona": "Bo"}, {"Anna": 2, "Bo": 2})
    state.bag = only("Levant")
    trace = drive(
        play_turn(board, state), ["Levant", ATTACK_NEAR, "Ulldecona (Bo)", "", [1] * 5, [1] * 5, [1] * 5]
    )
    (target,) = of(trace.prompts, "castells.saracens.target")
    assert target.options == ("Tortosa (Anna)", "Ulldecona (Bo)")
    assert target.data["castles"] == ["Tortosa", "Ulldecona"] and target.data["owners"] == ["Anna", "Bo"]
    assert "Anna, the active player, chose to attack" in target.reason
    (army,) = of(trace.prompts, "castells.battle.army")
    assert isinstance(army, Enter) and army.data["player"] == "Bo" and army.data["castle"] == "Ulldecona"
    (roll,) = of(trace.prompts, "castells.saracens.roll")
    assert roll.reason.startswith(
        "Anna, the active player, sent them against Ulldecona (Bo), a castle near Saracen camp"
    )
    (result,) = of(trace.prompts, "castells.battle.result")
    assert result.data["result"] == "held" and result.data["attacker_successes"] == 0
    assert result.data["defender_successes"] is None  # no defence roll against no success
    assert result.rule == "Phase 3 — Actions — Unfavorable result for the attacker"
    assert state.battles == [BattleRecord("saracen", "Saracens", "Bo", "Ulldecona", 0, None, "held")]
    assert state.snapshot()["battles"] == ["Saracens against Bo at Ulldecona: 0 successes, held"]


# -- the Saracen battle ---------------------------------------------------------------------


def test_the_saracens_reroll_their_failures_free_up_to_three_rolls() -> None:
    """Battle Saracens: "Saracens cast up to 3 times at no army cost"; the rolls reroll the failed
    dice only, and the defender who matches holds without a question. The Saracens' rolls are the
    app's steps, with their rule and reason: "Neither side uses the superiority die", and each
    reroll retries the failed dice of the roll before, and says so."""
    _board, state = table({"Tortosa": "Anna"}, {"Anna": 2})
    trace = drive(
        saracen_battle(state, "Tortosa"),
        ["", [1, 2, 3, 5, 6], [5, 1, 4], [1, 1], [5, 5, 6, 1, 1]],
    )
    assert [r.n for r in trace.rolls()] == [5, 3, 2, 5]
    assert "for free" in trace.rolls()[1].why
    (first,) = of(trace.prompts, "castells.saracens.roll")
    assert first.data == {
        "kind": "saracen",
        "castle": "Tortosa",
        "player": "Saracens",
        "role": "attacker",
        "defender": "Anna",
        "dice": 5,
    }
    assert first.rule == "Battle Saracens — Neither side uses the superiority die"
    assert "no superiority die" in first.reason
    second, third = of(trace.prompts, "castells.saracens.reroll")
    assert (second.data["positions"], second.data["faces"], second.data["roll"]) == ([0, 1, 2], [1, 2, 3], 2)
    # The second roll gave 5 1 4 for the three dice: the first of them succeeded.
    assert (third.data["positions"], third.data["faces"], third.data["successes"]) == ([1, 2], [1, 4], 3)
    assert all(r.rule.startswith("Battle Saracens — Saracens cast up to 3 times") for r in (second, third))
    assert "2 failed after roll 2 of 3" in third.reason and "for free" in third.reason
    # The defender's roll is asked the 3 the Saracens reached.
    (defence,) = of(trace.prompts, "castells.battle.roll")
    assert defence.data["target"] == 3 and defence.data["role"] == "defender" and not defence.data["black"]
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


def test_the_defenders_reroll_question_against_the_saracens_says_what_its_options_mean() -> None:
    """Battle Saracens: "the defender does have to pay": the question the statistics count."""
    _board, state = table({"Tortosa": "Anna"}, {"Anna": 2})
    trace = drive(
        saracen_battle(state, "Tortosa"),
        ["", [5, 5, 6, 1, 1], [1, 1], [1, 1], [5, 1, 6, 1, 1], reroll_option(3), [2, 2, 2], ACCEPT],
    )
    first, second = of(trace.prompts, "castells.battle.reroll")
    assert first.data["failed"] == 3 and first.data["options"] == ["reroll", "accept"]
    assert code(first, reroll_option(3)) == "reroll" and code(first, ACCEPT) == "accept"
    assert first.data["successes"] == 2 and first.data["target"] == 3 and first.data["need"] == 1
    assert (first.data["army"], first.data["roll"], first.data["rerolls_left"]) == (2, 1, 2)
    assert (first.data["kind"], first.data["role"], first.data["player"]) == ("saracen", "defender", "Anna")
    assert first.data["chance"] == pytest.approx(1 - (4 / 6) ** 3)
    assert first.rule == "Battle Saracens — the defender does have to pay"
    # After a paid reroll that failed again: one army point and one roll left.
    assert (second.data["failed"], second.data["army"], second.data["rerolls_left"]) == (3, 1, 1)
    assert (second.data["roll"], second.data["need"]) == (2, 1)
    assert second.data["chance"] == second.data["chance_all"] == pytest.approx(1 - (4 / 6) ** 3)


def test_a_castle_the_saracens_take_is_told_with_the_score_and_what_was_paid() -> None:
    """Favorable result: "The defender Caslà returns to the reserve of the defeated player": the
    result is told with the score and the army points paid; the Saracen figure moves onto it."""
    _board, state = table({"Tortosa": "Anna"}, {"Anna": 2})
    trace = drive(
        saracen_battle(state, "Tortosa"),
        ["", [5, 5, 6, 1, 1], [1, 1], [1, 1], [5, 1, 1, 1, 1], reroll_option(4), [1, 1, 1, 1], ACCEPT],
    )
    (result,) = of(trace.prompts, "castells.battle.result")
    assert result.data == {
        "kind": "saracen",
        "castle": "Tortosa",
        "attacker": "Saracens",
        "defender": "Anna",
        "attacker_successes": 3,
        "defender_successes": 1,
        "result": "taken",
        "paid": {"Anna": 1},
        "cards": [],
    }
    assert result.rule == "Phase 3 — Actions — Favorable result for the attacker"
    assert result.reason == (
        "1 against 3: the defender's successes fall short of the Saracens'; the Saracen figure moves onto Tortosa"
    )
    assert state.battles == [BattleRecord("saracen", "Saracens", "Anna", "Tortosa", 3, 1, "taken")]
    # The record's line in the snapshot, which the digests are made from, is as it was.
    assert state.snapshot()["battles"] == [
        "Saracens against Anna at Tortosa: Anna 1 against the Saracens' 3, taken"
    ]


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
    superiority die"; the attacker's rerolls cost 1 army point; a castle won changes hands.
    Superiority is told with who rolls the black die and why. Rolls: "May reroll failed dice by
    paying 1 army point": the attacker's reroll question offers reroll or stop, and the rerolled
    dice say which they retry."""
    _board, state = table({"Lleida": "Bo"}, {"Anna": 3, "Bo": 1})
    anna = state.player("Anna")
    trace = drive(
        player_battle(state, anna, "Lleida"),
        [
            "",
            "",
            [5, 2, 6, 1, 3, 4],
            reroll_option(4),
            [5, 1, 1, 1],
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
    (told,) = of(trace.prompts, "castells.battle.superiority")
    assert told.data == {
        "castle": "Lleida",
        "attacker": "Anna",
        "defender": "Bo",
        "attacker_army": 3,
        "defender_army": 1,
        "black": "attacker",
    }
    assert told.rule == "Phase 3 — Actions — Superiority"
    assert told.reason == "Anna has the most army, 3 against 1"
    roll = trace.rolls()[0]
    assert isinstance(roll, Roll) and roll.topic == "castells.battle.roll"
    assert roll.data["black"] is True and roll.data["dice"] == roll.n
    # The attacker's two reroll questions (the third is Bo's).
    first, second = of(trace.prompts, "castells.battle.reroll")[:2]
    assert first.options == (reroll_option(4), STOP)
    assert first.data["failed"] == 4 and first.data["options"] == ["reroll", "stop"]
    assert code(first, STOP) == "stop"
    assert (first.data["kind"], first.data["role"], first.data["army"]) == ("players", "attacker", 3)
    assert first.rule.startswith("Phase 3 — Actions — Rolls")
    assert (second.data["failed"], second.data["army"], second.data["roll"]) == (3, 2, 2)
    # Anna's paid roll, then Bo's.
    paid, _bos = of(trace.prompts, "castells.battle.paid_roll")
    assert paid.n == 4 and paid.data["positions"] == [1, 3, 4, 5] and paid.data["faces"] == [2, 1, 3, 4]
    assert paid.data["roll"] == 2 and paid.data["successes"] == 2


@pytest.mark.parametrize(
    ("anna", "bo", "dice", "black", "reason"),
    [
        (2, 2, (5, 5), None, "equal army, 2 each: in a tie no one throws it"),
        (1, 3, (5, 6), "defender", "Bo has the most army, 3 against 1"),
        (1, 4, (5, 6), "defender", "Bo has the most army, 4 against 1"),
    ],
)
def test_a_tie_in_army_gives_nobody_the_black_die(
    anna: int, bo: int, dice: tuple[int, int], black: str | None, reason: str
) -> None:
    """Superiority: "Whoever has the most army at the time of declaring the attack rolls the black
    superiority die. In case of a tie, no one throws it"; a defender with more army throws it.
    Superiority is told with who rolls the black die and why."""
    _board, state = table({"Lleida": "Bo"}, {"Anna": anna, "Bo": bo})
    trace = drive(
        player_battle(state, state.player("Anna"), "Lleida"),
        ["", "", [5] * dice[0], [5] * dice[1]],
    )
    assert (trace.rolls()[0].n, trace.rolls()[1].n) == dice
    assert state.owners["Lleida"] == "Bo"  # a match holds
    (told,) = of(trace.prompts, "castells.battle.superiority")
    assert told.data == {
        "castle": "Lleida",
        "attacker": "Anna",
        "defender": "Bo",
        "attacker_army": anna,
        "defender_army": bo,
        "black": black,
    }
    assert told.rule == "Phase 3 — Actions — Superiority" and told.reason == reason
    roll = trace.rolls()[0]
    assert isinstance(roll, Roll) and roll.topic == "castells.battle.roll"
    assert roll.data["black"] is (black == "attacker") and roll.data["dice"] == roll.n


def test_an_attack_won_ends_the_attacks_of_the_turn() -> None:
    """Favorable result: "the attacker ... cannot attack again this turn"."""
    board, state = table({"Mora": "Anna", "Lleida": "Bo", "Flix": "Bo"}, {"Anna": 2, "Bo": 2})
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


def test_the_players_attack_reads_its_target_by_place_and_reports_the_result() -> None:
    board, state = table({"Cardona": "Anna", "Lleida": "Bo", "Flix": "Cai"}, {"Anna": 2, "Bo": 2, "Cai": 0})
    state.bag = only("Riu")
    trace = drive(
        play_turn(board, state),
        ["Riu", ATTACK, "Flix (Cai)", "", "", [5, 5, 1, 1, 1, 1], STOP, [1] * 5],
    )
    first_actions = of(trace.prompts, "castells.actions.next")[0]
    # (Anna holds one castle, Cardona: no estate token; she has bought no favour card.)
    assert first_actions.data["options"] == ["control", "attributes", "buy", "attack", "faith", "end"]
    assert first_actions.data["attack_won"] is False
    (target,) = of(trace.prompts, "castells.actions.target")
    assert target.data == {"player": "Anna", "castles": ["Lleida", "Flix"], "owners": ["Bo", "Cai"]}
    assert state.owners["Flix"] == "Anna"
    (result,) = of(trace.prompts, "castells.battle.result")
    assert (result.data["result"], result.data["attacker_successes"], result.data["defender_successes"]) == (
        "taken",
        2,
        0,
    )
    assert result.data["paid"] == {} and result.data["kind"] == "players"
    # Once won, the turn offers no attack: "cannot attack again this turn".
    pending = trace.pending
    assert isinstance(pending, Choose) and pending.topic == "castells.actions.next"
    # (Flix is Anna's now: with Cardona, two castles for an estate token.)
    assert pending.data["options"] == ["control", "estate", "attributes", "buy", "faith", "end"]
    assert pending.data["attack_won"] is True and pending.data["taken"] == ["attack"]


def test_a_failed_attack_may_be_followed_by_another() -> None:
    """Unfavorable result: "There are no changes on the board", and the attacker may attack again."""
    board, state = table({"Mora": "Anna", "Lleida": "Bo"}, {"Anna": 0, "Bo": 0})
    state.bag = {t: (1 if t == "Riu" else 0) for t in TERRITORIES}
    trace = drive(play_turn(board, state), ["Riu", ATTACK, "Lleida (Bo)", "", "", [1] * 5])
    assert state.owners["Lleida"] == "Bo"
    assert isinstance(trace.pending, Choose) and ATTACK in trace.pending.options


def test_resources_name_the_castles_in_the_drawn_territory() -> None:
    """Phase 2: "he takes a territory token from the bag: for each castle he has in that territory,
    he raises an estate of his choice": the resources name the castles in the drawn territory, and
    the draw and the resources carry the bag and the castles of the territory as data."""
    board, state = table({"Mora": "Anna", "Flix": "Anna", "Miravet": "Bo"}, {"Anna": 2, "Bo": 2})
    state.bag = {"Levant": 0, "Migdia": 2, "Ponent": 0, "Riu": 3, "Bosc": 0, "Muntanya": 1}
    trace = drive(play_turn(board, state), ["Riu"])
    assert "raise 2 estates of your choice for your castles in Riu (Mora, Flix)" in trace.tells()[0]
    assert "Put the Riu token on the discard pile" in trace.tells()[0]
    assert isinstance(trace.prompts[0], Choose) and not any(isinstance(p, Roll) for p in trace.prompts)
    asked = trace.prompts[0]
    assert isinstance(asked, Choose) and asked.topic == bags.DRAW_TOPIC == "castells.resources.draw"
    assert asked.data == {"player": "Anna", "bag": {"Migdia": 2, "Riu": 3, "Muntanya": 1}}
    assert asked.rule == "Phase 2 — Resources — Then he takes a territory token from the bag"
    (collect,) = of(trace.prompts, "castells.resources.collect")
    assert collect.data == {"player": "Anna", "token": "Riu", "castles": ["Mora", "Flix"]}
    assert collect.rule == "Phase 2 — Resources"


def test_the_shipped_board_has_the_six_territories() -> None:
    """Levant .. Mountain: the six territories of the seed, three of them waking the Saracens."""
    board = default_board()
    assert [t.name for t in board.territories] == TERRITORIES
    assert {t.name for t in board.territories if t.wakes_saracens} == {"Levant", "Migdia", "Ponent"}
    assert board.centuries == ("XI", "XII", "XIII", "XIV", "XV")
    assert sum(t.tokens for t in board.territories) >= 5 * 4
