"""What the Simancas prompts say they are (companion/prompts.py): each prompt's topic, its
data and the rulebook section it cites, in real positions of a match; and the engine's
reading of its own options (companion/simancas/actions.py), which the screens use instead
of the wording.

The match has no robot: no step gives a reason, and every step's rule names the phase or
the card it follows.
"""

from __future__ import annotations

from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from companion.driver import Driver
from companion.prompts import Choose, Prompt, Tell
from companion.simancas.actions import Action, action_of, catalogue
from companion.simancas.cards import default_deck
from companion.simancas.game import (
    ACTION_TOPIC,
    END,
    GAME,
    RESULT_TOPIC,
    ROUT_TOPIC,
    actions,
)
from companion.simancas.table import Reminder

DECK = default_deck()


def play(answers: Sequence[str]) -> tuple[Driver, list[Prompt]]:
    """A driver fed ``answers`` for its Chooses; every prompt on the way, Tells acknowledged."""
    d = Driver(GAME, 7)
    seen: list[Prompt] = []
    for a in answers:
        while isinstance(d.pending, Tell):
            seen.append(d.pending)
            d.ack()
        assert d.pending is not None
        seen.append(d.pending)
        d.submit(a, "player")
    while isinstance(d.pending, Tell):
        seen.append(d.pending)
        d.ack()
    return d, seen


def menu(d: Driver) -> Choose:
    p = d.pending
    assert isinstance(p, Choose) and p.topic == ACTION_TOPIC
    return p


def told(prompts: Sequence[Prompt], topic: str) -> list[Tell]:
    return [p for p in prompts if isinstance(p, Tell) and p.topic == topic]


# -- the menu ---------------------------------------------------------------------------------


def test_the_menu_is_built_with_its_topic_data_and_rule() -> None:
    """BATTLE PHASE: "Players take turns either: 1. Placing one card ... OR 2. Discarding one
    card for it's Tactical effect"; "The Muslim player goes first"."""
    d = Driver(GAME, 1)
    opts = list(actions(d.state.table))
    assert d.pending == Choose(
        opts,
        why="Hand 1: what happens on the table?",
        topic="simancas.turn.action",
        data={"hand": 1, "side": "moors", "passed": []},
    )
    assert menu(d).rule == "Battle Phase — Players take turns either"
    assert menu(d).reason == ""  # no robot: nothing is the app's own choice


def test_the_menu_says_whose_turn_it_is() -> None:
    """The players alternate, the Moors first in every hand: the side after the last one that
    acted; after a restore (which names no side) and after the end of a hand, the Moors."""
    d, _ = play(["Moors place Jund Cavalry"])
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
    d.submit(END, "player")
    d.ack()
    assert menu(d).data == {"hand": 2, "side": "moors", "passed": []}


def test_whose_turn_survives_replay_and_undo() -> None:
    """The side to play follows from the steps alone: a resumed match and an undone step
    give the same side as the live one."""
    d, _ = play(["Moors place Jund Cavalry", "Christians place Knights", "Moors place Woods"])
    assert menu(d).data["side"] == "christians"
    resumed = Driver.resume(GAME, 7, None, d.steps)
    assert resumed.pending == d.pending and resumed.state.to_play == "christians"
    d.undo()
    assert menu(d).data["side"] == "moors"


# -- Rout -------------------------------------------------------------------------------------


def test_routs_question_names_the_side_choosing_and_the_card() -> None:
    """Card list: "Rout S 5 B When Placed discard 1 placed Enemy Troop" - the Christians
    placing Rout choose; the Moors play next."""
    d, _ = play(["Moors place Jund Cavalry", "Moors place Army", "Christians place Rout"])
    p = d.pending
    assert p == Choose(
        ["Jund Cavalry", "Army"],
        why="Rout: which Moorish troop do the Christians discard from the table?",
        topic=ROUT_TOPIC,
        data={"side": "christians", "card": "Rout"},
    )
    assert p.rule == "The Comon Deck Card List — Rout: When Placed discard 1 placed Enemy Troop"
    assert d.state.to_play == "moors"
    d.submit("Army", "player")
    assert isinstance(d.pending, Tell)
    assert d.pending == Tell(
        "Moors discard Army from the table (Rout)",
        topic="simancas.placement.table_discard",
        data={"side": "moors", "card": "Rout", "target": "Army"},
    )


def test_rout_with_no_troop_tells_so() -> None:
    d, _ = play(["Moors place Cliffs"])
    d.submit("Christians place Rout", "player")
    assert d.pending == Tell(
        "Moors have no troop in play to discard (Rout)",
        topic="simancas.placement.no_troop",
        data={"side": "moors", "card": "Rout"},
    )


# -- on-placement reminders -------------------------------------------------------------------


def test_reminders_say_who_does_what_because_of_which_card() -> None:
    """Card list: "Draw 1 card when placed", "Enemy discards 1 random card when placed",
    "Mercenaries I 2 B You may place an Enemy Troop" - ``side`` is the side that acts."""
    _, seen = play(
        ["Moors place Caliph Abd al-Rahman III", "Moors place Raiders", "Christians place Mercenaries"]
    )
    tells = [p for p in seen if isinstance(p, Tell)]
    assert [(t.topic, t.data) for t in tells] == [
        ("simancas.placement.draw", {"side": "moors", "card": "Caliph Abd al-Rahman III", "count": 1}),
        ("simancas.placement.random_discard", {"side": "christians", "card": "Raiders", "count": 1}),
        ("simancas.placement.enemy_troop", {"side": "christians", "card": "Mercenaries"}),
    ]
    assert [t.rule for t in tells] == [
        "The Comon Deck Card List — Caliph Abd al-Rahman III: Draw 1 card when placed",
        "The Comon Deck Card List — Raiders: Enemy discards 1 random card when placed",
        "The Comon Deck Card List — Mercenaries: You may place an Enemy Troop",
    ]
    assert [t.text for t in tells] == [
        "Moors draw 1 card (Caliph Abd al-Rahman III)",
        "Christians discard 1 random card from their hand (Raiders)",
        "Christians may place one Moorish-only troop (Mercenaries)",
    ]


def test_a_reminder_of_several_cards_keeps_its_plural() -> None:
    """No card of the shipped deck draws or discards more than one, a deck file may."""
    assert Reminder("draw", "moors", "Spies", 2).text == "Moors draw 2 cards (Spies)"
    assert Reminder("enemy_discards", "christians", "Spies", 3).text == (
        "Christians discard 3 random cards from their hand (Spies)"
    )


# -- the end of a hand ------------------------------------------------------------------------


def test_the_result_of_a_hand_carries_the_totals_and_the_winner() -> None:
    """BATTLE PHASE: "The higher Force value wins the hand. In case of a tie, neither player wins.\""""
    _, seen = play(["Moors place Jund Cavalry", "Moors place Woods", "Christians place Knights", END, END])
    won, tie = told(seen, RESULT_TOPIC)
    assert won.data == {
        "hand": 1,
        "totals": {"moors": 6, "christians": 3},
        "winner": "moors",
        "wins": {"moors": 1, "christians": 0},
        "match_winner": None,
    }
    assert won.rule == "Battle Phase — The higher Force value wins the hand"
    assert tie.data["hand"] == 2 and tie.data["totals"] == {"moors": 0, "christians": 0}
    assert tie.data["winner"] is None and tie.data["wins"] == {"moors": 1, "christians": 0}
    assert tie.rule == "Battle Phase — In case of a tie, neither player wins"


def test_the_fifth_hand_won_ends_the_match() -> None:
    """VICTORY: "The first player to win 5 hands is the winner.\""""
    hands = [["Christians place Knights", END]] * 5
    d, seen = play([a for hand in hands for a in hand])
    assert d.finished
    last = told(seen, RESULT_TOPIC)[-1]
    assert last.data["match_winner"] == "christians" and last.data["wins"] == {"moors": 0, "christians": 5}
    assert last.rule == "Victory — The first player to win 5 hands is the winner"


def test_every_prompt_of_a_match_has_a_topic_and_a_rule() -> None:
    d, seen = play(
        [
            "Moors place Caliph Abd al-Rahman III",
            "Christians place Raiders",
            "Moors place Army",
            "Christians place Rout",
            "Army",
            "Moors discard Terrain to destroy Raiders",
            "Restore Raiders",
            END,
        ]
    )
    seen.append(menu(d))
    for p in seen:
        assert isinstance(p, (Choose, Tell))
        assert p.topic.startswith("simancas.") and p.topic.count(".") == 2, p
        assert p.rule and not p.reason, p


# -- the engine reads its own options ---------------------------------------------------------


def test_an_option_is_read_back_as_the_action_it_was_made_from() -> None:
    d, _ = play(["Moors place Mercenaries", "Moors place Knights", "Christians place Woods"])
    d.submit("Christians discard Terrain to destroy Knights", "player")
    offered = actions(d.state.table)
    assert list(offered) == list(menu(d).options)
    for text, action in offered.items():
        assert action_of(text) == action
    assert action_of("Moors place Knights") == Action("place", "moors", "Knights")
    assert action_of("Christians discard Terrain to destroy Knights") == Action(
        "tactic", "christians", "Knights", "T"
    )
    assert action_of("Restore Knights") == Action("restore", None, "Knights")
    assert action_of(END) == Action("end")


def test_a_text_that_is_no_action_is_none() -> None:
    """Rout's options are card names, and a typed sentence is not an option."""
    assert action_of("Knights") is None
    assert action_of("moors place knights") is None  # the exact text only: case is the matcher's job
    assert action_of("Moors discard Leader to destroy Knights") is None  # a Leader destroys nothing


def test_the_catalogue_has_one_action_a_text() -> None:
    every = catalogue(DECK)
    assert all(a.text == text for text, a in every.items())
    assert len({(a.kind, a.side, a.card, a.by) for a in every.values()}) == len(every)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10_000), max_size=60))
def test_every_option_of_any_menu_is_read_back(picks: list[int]) -> None:
    d = Driver(GAME, 3)
    for pick in picks:
        if d.finished:
            break
        if isinstance(d.pending, Tell):
            d.ack()
            continue
        assert isinstance(d.pending, Choose)
        if d.pending.topic == ACTION_TOPIC:
            offered = actions(d.state.table)
            assert all(action_of(o) == offered[o] for o in d.pending.options)
        else:
            assert all(action_of(o) is None for o in d.pending.options)
        d.submit(d.pending.options[pick % len(d.pending.options)], "player")
