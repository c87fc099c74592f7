"""Terra de Castells: the odds shown wherever a player decides in a battle (the attacker's
reroll, the defender's first roll and rerolls), the wording of successes ("1 success"), the
phase a battle among the actions is fought in, and the century reminder's koalata token."""

from __future__ import annotations

from fractions import Fraction
from itertools import product

from castells_helpers import drive, feed, new_driver, setup_answers, table
from textual.app import App

from companion.castells.actions import ATTACK
from companion.castells.battle import STOP, odds_now, player_battle, saracen_battle
from companion.castells.odds import attack_odds, percent, reach
from companion.castells.state import Battle, Side
from companion.prompts import Choose, Roll, Tell
from screens.castells.views import PHASES, battle_heading, side_result, status_text

P = Fraction(1, 3)  # a 5 or a 6


def test_attack_odds_match_every_die_enumerated() -> None:
    """The attacker's chance to take the castle, stopping or after one reroll, against a
    defender rerolling while short: checked against every face of the rerolled dice."""
    defender_rolls, dice = 3, 5
    holds = {s: reach(s, dice, defender_rolls) for s in range(9)}
    for successes, failed in ((2, 3), (0, 5), (4, 1)):
        stop, again = attack_odds(successes, failed, dice, defender_rolls)
        assert stop == (1 - holds[successes] if successes else 0)
        total = Fraction(0)
        for faces in product(range(1, 7), repeat=failed):
            got = successes + sum(1 for f in faces if f >= 5)
            total += Fraction(1, 6**failed) * (1 - holds[got] if got else 0)
        assert again == total


def test_the_attacker_sees_its_chance_to_take_the_castle_at_each_reroll() -> None:
    """ "May reroll failed dice by paying 1 army point": the choice is shown with the chance to
    take the castle if the attacker stops and after the reroll (before, only the defender saw odds)."""
    _board, state = table({"Lleida": "Bo"}, {"Anna": 2, "Bo": 2})
    anna = state.player("Anna")
    trace = drive(player_battle(state, anna, "Lleida"), ["", "", [5, 5, 1, 1, 1]])
    ask = trace.pending
    assert isinstance(ask, Choose) and ask.topic == "castells.battle.reroll"
    # Bo rolls 5 dice, up to 3 rolls (army 2): he holds with 2 successes or more.
    fail3 = Fraction(8, 27)
    stop = fail3**5 + 5 * (1 - fail3) * fail3**4
    assert ask.data["chance_stop"] == float(stop)
    assert ask.data["chance_reroll"] == float(attack_odds(2, 3, 5, 3)[1]) > ask.data["chance_stop"]
    assert f"stopping now {percent(stop)}" in ask.why and "after this reroll" in ask.why
    assert "Bo rerolling whenever short" in ask.reason
    assert odds_now(state) == (
        f"Anna takes it: {percent(stop)} if it stops, {percent(attack_odds(2, 3, 5, 3)[1])} after this reroll."
    )


def test_the_defender_sees_its_odds_before_its_first_roll() -> None:
    """ "The defender must match or exceed the attacker's achievements with the same system":
    before its first roll, the chance on that roll and with every reroll it can pay."""
    _board, state = table({"Lleida": "Bo"}, {"Anna": 2, "Bo": 1})
    anna = state.player("Anna")
    trace = drive(player_battle(state, anna, "Lleida"), ["", "", [5, 5, 1, 1, 1, 1], STOP])
    roll = trace.pending
    assert isinstance(roll, Roll) and roll.data["role"] == "defender"
    one, both = reach(2, 5, 1), reach(2, 5, 2)  # army 1: one reroll at most
    assert (roll.data["chance"], roll.data["chance_all"]) == (float(one), float(both))
    assert roll.reason == (
        f"chance to match or beat 2: {percent(one)} on this roll, {percent(both)} with every reroll Bo can pay (army 1)"
    )
    assert (
        odds_now(state)
        == f"Bo holds: {percent(one)} on this roll, {percent(both)} with every reroll it can pay."
    )
    assert roll.why.endswith("(needs 2 successes)")


def test_one_success_is_said_in_the_singular() -> None:
    """ "A success = result of 5 or 6": '1 success', never '1 successes' or 'hits'."""
    _board, state = table({"Tortosa": "Anna"}, {"Anna": 2})
    trace = drive(saracen_battle(state, "Tortosa"), ["", [5, 1, 1, 1, 1]])
    reroll = trace.pending
    assert isinstance(reroll, Roll) and "1 success so far" in reroll.why
    trace = drive(saracen_battle(state, "Tortosa"), ["", [5, 1, 1, 1, 1], [1] * 4, [1] * 4])
    roll = trace.pending
    assert isinstance(roll, Roll) and roll.why.endswith("(needs 1 success)")
    battle = Battle("saracen", "Tortosa", Side("Saracens", dice=[5, 1], rolls=1), Side("Anna"), target=1)
    state.battle = battle
    assert battle_heading(state).plain.endswith("Anna needs 1 success")
    assert side_result(battle.attacker).plain.startswith("1 success · ")
    assert "hit" not in side_result(Side("Bo", dice=[5, 6], rolls=1)).plain


async def test_a_battle_among_the_actions_shows_phase_3_actions() -> None:
    """A battle is one of Phase 3's actions: its status line says "Phase 3: Actions"."""
    board, state = table({"Mora": "Anna", "Lleida": "Bo"}, {"Anna": 2, "Bo": 2})
    state.bag = {"Levant": 0, "Migdia": 0, "Ponent": 0, "Riu": 1, "Bosc": 0, "Muntanya": 0}
    from companion.castells.game import play_turn

    drive(play_turn(board, state), ["Riu", ATTACK, "Lleida (Bo)"])
    assert state.phase == "battle" and PHASES["battle"] == "Phase 3: Actions"
    async with App().run_test() as pilot:  # the status line takes its colours from an app's theme
        assert "Phase 3: Actions" in status_text(pilot.app.screen, state, board).plain


def test_the_century_reminder_tells_of_the_koalata_token() -> None:
    """ "Phase 1 — Passage of time": "If the century card has a koalata token, it is placed in the
    center hex and its effect is applied to nearby castles"."""
    d = new_driver()
    feed(d, setup_answers(["Anna", "Bo"], [1, 1], {}), ack_last=False)
    while not (isinstance(d.pending, Tell) and d.pending.topic == "castells.time.century"):
        d.ack()
    text = d.pending.text
    assert text.startswith("Century XI begins: Anna, the starting player, advances the passage of time tile")
    assert text.endswith(
        "reveals the century card. If it has a koalata token, place it in the centre hex; "
        "its effect applies to nearby castles."
    )
