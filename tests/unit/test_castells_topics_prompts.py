"""Terra de Castells prompts say what they are: a topic, the facts behind them (data), the
rulebook heading they follow, and for the app's own steps (the Saracens, superiority, a battle's
result) why. Checked in real positions, where the figures come from the state."""

from __future__ import annotations

import re
from typing import Any

import pytest
from castells_helpers import drive, feed, new_driver, routine_answer, setup_answers, table

from companion.castells import bag as bags
from companion.castells.battle import ACCEPT, STOP, player_battle, reroll_option, saracen_battle
from companion.castells.game import ATTACK, ATTACK_NEAR, GAME, MOVE, empty_castles, play_turn
from companion.driver import Driver
from companion.prompts import Choose, Edit, Enter, Prompt, Roll, Tell

TERRITORIES = ["Levant", "Migdia", "Ponent", "Riu", "Bosc", "Muntanya"]
TOPIC = re.compile(r"castells(\.[a-z0-9_]+){2,}")
#: The headings of the Terra de Castells rulebook a rule may start with.
HEADINGS = (
    "Terra de Castells — ",
    "Phase 1 — Passage of time",
    "Phase 2 — Resources",
    "Phase 3 — Actions",
    "In preparation, place the Saracen figure on its space on the board",
    "Activation",
    "Active Player Action",
    "Battle Saracens",
)


def only(bag: str) -> dict[str, int]:
    return {t: (1 if t == bag else 0) for t in TERRITORIES}


def of(prompts: list[Prompt], topic: str) -> list[Any]:
    return [p for p in prompts if not isinstance(p, Edit) and p.topic == topic]


def code(prompt: Choose, answer: str) -> str:
    """What an answer means, read as other code reads it: the code parallel to the option."""
    return str(prompt.data["options"][prompt.options.index(answer)])


# -- the reroll question ------------------------------------------------------------------------


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


def test_the_attackers_reroll_question_offers_reroll_or_stop() -> None:
    """Rolls: "May reroll failed dice by paying 1 army point"; the rerolled dice say which they retry."""
    _board, state = table({"Lleida": "Bo"}, {"Anna": 3, "Bo": 1})
    trace = drive(
        player_battle(state, state.player("Anna"), "Lleida"),
        ["", "", [5, 2, 6, 1, 3, 4], reroll_option(4), [5, 1, 1, 1], STOP, [1] * 5, ACCEPT],
    )
    first, second = of(trace.prompts, "castells.battle.reroll")[:2]
    assert first.options == (reroll_option(4), STOP)
    assert first.data["failed"] == 4 and first.data["options"] == ["reroll", "stop"]
    assert code(first, STOP) == "stop"
    assert (first.data["kind"], first.data["role"], first.data["army"]) == ("players", "attacker", 3)
    assert first.rule.startswith("Phase 3 — Actions — Rolls")
    assert (second.data["failed"], second.data["army"], second.data["roll"]) == (3, 2, 2)
    (paid,) = of(trace.prompts, "castells.battle.paid_roll")
    assert paid.n == 4 and paid.data["positions"] == [1, 3, 4, 5] and paid.data["faces"] == [2, 1, 3, 4]
    assert paid.data["roll"] == 2 and paid.data["successes"] == 2


# -- the Saracens ------------------------------------------------------------------------------


def test_the_saracens_rolls_are_the_apps_steps_with_their_rule_and_reason() -> None:
    """Battle Saracens: "Saracens cast up to 3 times at no army cost": each reroll retries the
    failed dice of the roll before, and says so."""
    _board, state = table({"Tortosa": "Anna"}, {"Anna": 2})
    trace = drive(saracen_battle(state, "Tortosa"), ["", [1, 2, 3, 5, 6], [5, 1, 4], [1, 1], [5] * 5])
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


def test_the_saracens_action_question_counts_where_they_can_go_and_what_they_can_attack() -> None:
    """Active Player Action: move to any empty castle, or attack a nearby castle."""
    board, state = table({"Tortosa": "Anna", "Siurana": "Bo", "Lleida": "Bo"}, {"Anna": 2, "Bo": 2})
    state.bag = only("Migdia")
    trace = drive(play_turn(board, state), ["Migdia"])
    pending = trace.pending
    assert isinstance(pending, Choose) and pending.topic == "castells.saracens.action"
    assert pending.options == (MOVE, ATTACK_NEAR) and pending.data["options"] == ["move", "attack"]
    assert pending.data["empty"] == len(empty_castles(board, state)) == len(board.castles) - 3
    assert pending.data["targets"] == ["Tortosa", "Siurana"]
    assert (pending.data["token"], pending.data["at"], pending.data["player"]) == (
        "Migdia",
        "Saracen camp",
        "Anna",
    )
    assert pending.rule == "Active Player Action"
    assert pending.reason.startswith("a Migdia token wakes the Saracens before Anna collects resources")
    assert "2 held castles near Saracen camp" in pending.reason


def test_a_move_forced_by_nothing_to_attack_says_so() -> None:
    """Active Player Action: with no held castle near them the Saracens can only move; the board
    instruction names where from and where to, and why."""
    board, state = table({"Lleida": "Bo"}, {"Anna": 2, "Bo": 2})
    state.bag = only("Ponent")
    trace = drive(play_turn(board, state), ["Ponent", "Miravet"])
    assert not of(trace.prompts, "castells.saracens.action")  # nothing was asked
    (where,) = of(trace.prompts, "castells.saracens.destination")
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
    assert state.battles == ["Saracens against Bo at Ulldecona: 0 successes, held"]


def test_a_castle_the_saracens_take_is_told_with_the_score_and_what_was_paid() -> None:
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
    # The record the statistics read is as it was.
    assert state.battles == ["Saracens against Anna at Tortosa: Anna 1 against the Saracens' 3, taken"]


# -- battles between players --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("anna", "bo", "black", "reason"),
    [
        (3, 1, "attacker", "Anna has the most army, 3 against 1"),
        (1, 4, "defender", "Bo has the most army, 4 against 1"),
        (2, 2, None, "equal army, 2 each: in a tie no one throws it"),
    ],
)
def test_superiority_is_told_with_who_rolls_the_black_die_and_why(
    anna: int, bo: int, black: str | None, reason: str
) -> None:
    """Superiority: "Whoever has the most army at the time of declaring the attack rolls the black
    superiority die. In case of a tie, no one throws it"."""
    _board, state = table({"Lleida": "Bo"}, {"Anna": anna, "Bo": bo})
    trace = drive(player_battle(state, state.player("Anna"), "Lleida"), ["", ""])
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
    roll = trace.pending
    assert isinstance(roll, Roll) and roll.topic == "castells.battle.roll"
    assert roll.data["black"] is (black == "attacker") and roll.data["dice"] == roll.n


def test_the_players_attack_reads_its_target_by_place_and_reports_the_result() -> None:
    board, state = table({"Lleida": "Bo", "Flix": "Cai"}, {"Anna": 2, "Bo": 2, "Cai": 0})
    state.bag = only("Riu")
    trace = drive(
        play_turn(board, state),
        ["Riu", ATTACK, "Flix (Cai)", "", "", [5, 5, 1, 1, 1, 1], STOP, [1] * 5],
    )
    first_actions = of(trace.prompts, "castells.actions.next")[0]
    assert first_actions.data["options"] == [
        "estate",
        "attributes",
        "buy",
        "attack",
        "favour",
        "faith",
        "end",
    ]
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
    # (Flix is Anna's now: the empty castles near it may be controlled.)
    assert pending.data["options"] == ["control", "estate", "attributes", "buy", "favour", "faith", "end"]
    assert pending.data["attack_won"] is True and pending.data["taken"] == ["attack"]


# -- setup, draw, resources, centuries ---------------------------------------------------------------


def test_the_draw_and_the_resources_carry_the_bag_and_the_castles_of_the_territory() -> None:
    """Phase 2: "he takes a territory token from the bag: for each castle he has in that territory,
    he raises an estate of his choice"."""
    board, state = table({"Mora": "Anna", "Flix": "Anna", "Miravet": "Bo"}, {"Anna": 2, "Bo": 2})
    state.bag = {"Levant": 0, "Migdia": 2, "Ponent": 0, "Riu": 3, "Bosc": 0, "Muntanya": 1}
    trace = drive(play_turn(board, state), ["Riu"])
    draw = trace.prompts[0]
    assert isinstance(draw, Choose) and draw.topic == bags.DRAW_TOPIC == "castells.resources.draw"
    assert draw.data == {"player": "Anna", "bag": {"Migdia": 2, "Riu": 3, "Muntanya": 1}}
    assert draw.rule == "Phase 2 — Resources — Then he takes a territory token from the bag"
    (collect,) = of(trace.prompts, "castells.resources.collect")
    assert collect.data == {"player": "Anna", "token": "Riu", "castles": ["Mora", "Flix"]}
    assert collect.rule == "Phase 2 — Resources"


def test_setup_prompts_carry_the_player_and_what_each_castle_option_means() -> None:
    d = new_driver()
    feed(d, ["2", "Anna", "Bo", "Anna", "4", "", "Tortosa"])
    pending = d.pending
    assert isinstance(pending, Choose) and pending.topic == "castells.setup.castles"
    assert pending.data["player"] == "Anna" and pending.data["held"] == ["Tortosa"]
    assert pending.data["options"][-1] == "done" and set(pending.data["options"][:-1]) == {"castle"}
    assert len(pending.data["options"]) == len(pending.options)
    armies = [s.prompt for s in d.steps if s.prompt.topic == "castells.setup.army"]
    assert [p.data["player"] for p in armies] == ["Anna", "Bo"]
    names = [s.prompt for s in d.steps if s.prompt.topic == "castells.setup.name"]
    assert [p.data["number"] for p in names] == [1, 2]
    # docs/rules-notes.md, "The rule each step cites" 4: the rulebook has no setup section for
    # these questions, so they cite none.
    assert all(p.rule == "" for p in [*armies, *names, pending])


def whole_game(seed: int) -> Driver:
    """A game played to its end: app draws, the first option of each choice but the end of the
    turn taken while an attack is offered once a turn, rerolls paid while offered."""
    d = new_driver(seed=seed)
    feed(d, setup_answers(["Anna", "Bo"], [4, 4], {"Anna": ["Tortosa", "Mora"], "Bo": ["Lleida", "Siurana"]}))
    attacked: set[tuple[int, int | None]] = set()
    while d.pending is not None:
        if routine_answer(d):
            continue
        p = d.pending
        assert isinstance(p, Choose), p
        if p.topic == "castells.actions.next":
            turn = (d.state.century, d.state.active)
            pick = "attack" if turn not in attacked and "attack" in p.data["options"] else "end"
            attacked.add(turn)
            d.submit(p.options[p.data["options"].index(pick)], "player")
        else:
            d.submit(p.options[0], "player")
    return d


@pytest.mark.parametrize("seed", [3, 11])
def test_every_prompt_of_a_whole_game_has_a_topic_and_every_app_step_its_rule_and_reason(seed: int) -> None:
    d = whole_game(seed)
    prompts = [s.prompt for s in d.steps if not isinstance(s.prompt, Edit)]
    topics = {p.topic for p in prompts}
    assert all(TOPIC.fullmatch(p.topic) for p in prompts), topics
    assert {"castells.battle.reroll", "castells.battle.result", "castells.time.century"} <= topics
    for p in prompts:
        assert not p.rule or p.rule.startswith(HEADINGS), p.rule
        # A Saracen step is the app's: every one cites its heading and says why.
        if p.topic.startswith("castells.saracens."):
            assert p.rule and p.reason, p
        if isinstance(p, Choose) and "options" in p.data:
            assert len(p.data["options"]) == len(p.options), p
    # The rulebook's phases are cited where they apply.
    assert all(p.rule == "Phase 1 — Passage of time" for p in of(prompts, "castells.time.century"))
    assert all(p.rule and p.reason for p in of(prompts, "castells.battle.result"))
    (end,) = of(prompts, "castells.time.end")
    held = {p.name: sum(1 for o in d.state.owners.values() if o == p.name) for p in d.state.players}
    assert end.data == {"century": "XV", "castles": held}
    # Play a state token: estate tokens "count towards victory". The app keeps none (rules-notes
    # Castells 19), so the game's summary says to count them on the table beside the castles it
    # counts; the last instruction is worded as before, since a replay compares it with the log.
    summary = GAME.summary(d.state)
    assert "Castles held: " in summary and "Estate tokens in play count towards victory" in summary
    assert end.text.endswith(f"Castles held: {', '.join(f'{n} {k}' for n, k in held.items())}.")


def test_a_resumed_game_asks_the_same_prompts_topics_and_data_included() -> None:
    """The log holds the topic and data; a replay asks them equal, so nothing is legacy."""
    d = whole_game(5)
    again = Driver.resume(GAME, d.seed, {}, d.steps)
    assert [s.prompt for s in again.steps] == [s.prompt for s in d.steps]
    assert not any(getattr(s.prompt, "legacy", False) for s in again.steps)
