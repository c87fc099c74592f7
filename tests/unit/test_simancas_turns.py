"""Every turn of a Simancas hand is a recorded step: a pass, and the tactics that destroy
nothing (Leader: draw 2; Strategy: draw 1 and look); whose turn it is follows them (the menu
says whose it is, and a replay or an undo gives the same side), both passes end the hand,
and the result is told under its own hand. docs/rules-notes.md, Battle of Simancas, entries
20 to 22."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from companion.driver import Driver
from companion.prompts import BadAnswer, Choose, Tell
from companion.simancas.actions import Action, action_of
from companion.simancas.game import ACTION_TOPIC, END, GAME, RESULT_TOPIC

LEADER_DRAW = "Moors discard Leader to draw 2 cards"
STRATEGY_LOOK = "Christians discard Strategy to draw 1 card and look at the Moors' hand"


def play(answers: Sequence[str]) -> Driver:
    d = Driver(GAME, 7)
    for a in answers:
        while isinstance(d.pending, Tell):
            d.ack()
        d.submit(a, "player")
    return d


def side_to_play(d: Driver) -> str:
    p = d.pending
    assert isinstance(p, Choose) and p.topic == ACTION_TOPIC
    return str(p.data["side"])


def menu(d: Driver) -> Choose:
    p = d.pending
    assert isinstance(p, Choose) and p.topic == ACTION_TOPIC
    return p


def test_the_menu_says_whose_turn_it_is() -> None:
    """The players alternate, the Moors first in every hand: the side after the last one that
    acted; after a restore (which names no side) and after the end of a hand, the Moors."""
    d = play(["Moors place Jund Cavalry"])
    assert menu(d).data == {"hand": 1, "side": "christians", "passed": []}
    d.submit("Christians place Knights", "player")
    assert menu(d).data["side"] == "moors"
    d.submit("Moors place Woods", "player")
    d.submit("Christians discard Terrain to destroy Jund Cavalry", "player")
    assert menu(d).data["side"] == "moors"
    d.submit("Moors discard Terrain to destroy Knights", "player")
    assert menu(d).data["side"] == "christians"
    d.submit("Restore Knights", "player")
    assert menu(d).data["side"] == "moors"
    d.submit("Christians place Gorge", "player")
    d.submit("Moors pass", "player")
    assert menu(d).data["side"] == "christians"
    d.submit("Christians pass", "player")
    d.ack()
    assert menu(d).data == {"hand": 2, "side": "moors", "passed": []}


def test_whose_turn_survives_replay_and_undo() -> None:
    """The side to play follows from the steps alone: a resumed match and an undone step
    give the same side as the live one."""
    d = play(["Moors place Jund Cavalry", "Christians place Knights", "Moors place Woods"])
    assert menu(d).data["side"] == "christians"
    resumed = Driver.resume(GAME, 7, None, d.steps)
    assert resumed.pending == d.pending and resumed.state.to_play == "christians"
    d.undo()
    assert menu(d).data["side"] == "moors"


def test_a_tactic_that_destroys_nothing_is_a_turn() -> None:
    """BATTLE PHASE: "Discard a Leader to draw 2 cards", "Discard a Strategy card to draw 1
    card and look at your opponent's hand": offered to each side, read back as a draw, and it
    passes the turn like any action."""
    d = play(["Moors place Jund Cavalry", "Christians place Knights"])
    assert side_to_play(d) == "moors"
    assert action_of(LEADER_DRAW) == Action("draw", "moors", "", "L")
    d.submit(LEADER_DRAW, "player")
    assert side_to_play(d) == "christians"
    d.submit(STRATEGY_LOOK, "player")
    assert side_to_play(d) == "moors"
    assert [s.answer for s in d.steps[-2:]] == [LEADER_DRAW, STRATEGY_LOOK]
    # Nothing changed on the table; the discard pile has the two discards, by type.
    assert d.snapshot()["table"] == {"moors": ["Jund Cavalry"], "christians": ["Knights"]}
    assert [(g["type"], g["how"]) for g in d.snapshot()["discard_pile"]] == [("L", "tactic"), ("S", "tactic")]


def test_after_a_pass_the_other_side_plays_on_alone() -> None:
    """BATTLE PHASE: "When both players have finished playing cards": a side that passes has
    finished; the other is the side to play on every turn until it passes too."""
    d = play(["Moors place Jund Cavalry", "Christians pass"])
    assert side_to_play(d) == "moors"
    menu = d.pending
    assert isinstance(menu, Choose)
    assert "Christians pass" not in menu.options and "Moors pass" in menu.options
    assert menu.data["passed"] == ["christians"]
    d.submit("Moors place Woods", "player")
    assert side_to_play(d) == "moors"
    d.submit("Moors place Andalusian Cavalry", "player")
    assert side_to_play(d) == "moors"


def test_a_side_that_has_passed_is_offered_nothing_more() -> None:
    """BATTLE PHASE: "Players take turns either: 1. Placing one card [...] OR 2. Discarding one
    card for it's Tactical effect"; "When both players have finished playing cards add up the
    Force value": a side that has passed has finished playing cards for the hand: none of its
    placements, tactics or passes is offered any more, and one typed is refused, changing nothing
    (it put the side back in the hand)."""
    d = play(["Moors place Jund Cavalry", "Christians pass"])
    offered = [action_of(o) for o in menu(d).options]
    assert all(a is not None and a.side != "christians" for a in offered)
    assert "Moors place Woods" in menu(d).options and "Moors pass" in menu(d).options
    before = len(d.steps)
    with pytest.raises(BadAnswer):
        d.submit("Christians place Knights", "player")
    assert len(d.steps) == before and d.state.passed == ["christians"]
    assert d.snapshot()["table"]["christians"] == []


def test_the_hand_ends_only_once_both_sides_have_finished() -> None:
    """BATTLE PHASE: "When both players have finished playing cards add up the Force value of all
    The placed cards": "End the hand" is offered at no step while a side may still play (in the
    first menu of every hand a mis-key scored it 0-0); each side says it has finished with its
    pass (a side with no card left has finished too), and the second pass scores the hand."""
    d = play([])
    assert END not in menu(d).options
    for action in ["Moors place Jund Cavalry", "Moors pass", "Christians place Knights"]:
        d.submit(action, "player")
        assert END not in menu(d).options
    d.submit("Christians pass", "player")
    p = d.pending
    assert isinstance(p, Tell) and p.topic == RESULT_TOPIC
    assert p.data["totals"] == {"moors": 5, "christians": 4}


def test_both_passes_end_the_hand() -> None:
    """When both have passed the hand is scored, without "End the hand"."""
    d = play(["Moors place Jund Cavalry", "Christians place Knights", "Moors pass", "Christians pass"])
    p = d.pending
    assert isinstance(p, Tell) and p.topic == RESULT_TOPIC
    assert p.data["totals"] == {"moors": 5, "christians": 4}
    d.ack()
    assert side_to_play(d) == "moors"
    assert isinstance(d.pending, Choose) and d.pending.data == {"hand": 2, "side": "moors", "passed": []}


def test_passes_and_draws_survive_replay_and_undo() -> None:
    d = play(["Moors place Jund Cavalry", "Christians pass", LEADER_DRAW])
    resumed = Driver.resume(GAME, 7, None, d.steps)
    assert resumed.pending == d.pending and resumed.state.passed == ["christians"]
    d.undo()
    assert d.steps[-1].answer == "Christians pass" and side_to_play(d) == "moors"
    d.undo()
    assert side_to_play(d) == "christians" and d.state.passed == []


def test_the_result_is_recorded_under_its_own_hand() -> None:
    """The result of hand 1 is told while the match is still at hand 1 (a log, a report
    and History file it under hand 1), and its table is still the hand's."""
    d = play(["Moors place Jund Cavalry", "Moors pass", "Christians pass"])
    assert isinstance(d.pending, Tell) and d.pending.topic == RESULT_TOPIC
    assert GAME.where(d.state)[0] == 1
    assert d.state.table.placed["moors"] == ["Jund Cavalry"]
    d.ack()
    assert GAME.where(d.state)[0] == 2 and d.state.table.placed["moors"] == []


def test_the_discard_pile_keeps_what_the_table_has_seen() -> None:
    """Tactical Effects: "Discard a Terrain to destroy a placed Cavalry"; RETREAT PHASE - the pile
    gets the destroyed cards, the tactics' discards (by type) and, at the Retreat, the cards left
    on the table; a restore takes a destroyed card back out of it."""
    d = play(
        [
            "Moors place Jund Cavalry",
            "Christians place Knights",
            "Moors place Woods",
            "Christians discard Terrain to destroy Jund Cavalry",
        ]
    )
    pile = [(g["card"], g["how"]) for g in d.snapshot()["discard_pile"]]
    assert pile == [("", "tactic"), ("Jund Cavalry", "destroyed")]
    d.submit("Restore Jund Cavalry", "player")
    assert [(g["card"], g["how"]) for g in d.snapshot()["discard_pile"]] == [("", "tactic")]
    d.submit("Moors pass", "player")
    d.submit("Christians pass", "player")
    d.ack()
    names = [g["card"] for g in d.snapshot()["discard_pile"] if g["how"] == "retreat"]
    assert names == ["Jund Cavalry", "Woods", "Knights"]
