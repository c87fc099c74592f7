"""The Battle of Simancas match as a prompt procedure (companion/simancas/game.py): the
menu of legal actions, Rout's second question, the reminders, the end of a hand, a whole
match to 5 hands driven by scripted answers, and replay through the driver.

Every rule test quotes the rulebook section it holds the code to.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from procedure_helpers import drive

from companion.driver import Driver, Step
from companion.games import entry
from companion.prompts import Choose, Prompt, Tell
from companion.simancas.actions import Action, action_of, catalogue
from companion.simancas.cards import default_deck
from companion.simancas.game import (
    ACTION_TOPIC,
    END,
    GAME,
    HANDS_TO_WIN,
    RESULT_TOPIC,
    ROUT_TOPIC,
    Match,
    actions,
    new_match,
)
from companion.simancas.table import IllegalAction

DECK = default_deck()


def play_seen(answers: Sequence[str]) -> tuple[Driver, list[Prompt]]:
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


def play(answers: Sequence[str]) -> Driver:
    """A driver fed ``answers`` for its Chooses, every Tell acknowledged on the way."""
    return play_seen(answers)[0]


def options(d: Driver) -> tuple[str, ...]:
    assert isinstance(d.pending, Choose)
    return d.pending.options


def menu(d: Driver) -> Choose:
    p = d.pending
    assert isinstance(p, Choose) and p.topic == ACTION_TOPIC
    return p


def tells(prompts: list[Prompt]) -> list[str]:
    return [p.text for p in prompts if isinstance(p, Tell)]


def told(prompts: Sequence[Prompt], topic: str) -> list[Tell]:
    return [p for p in prompts if isinstance(p, Tell) and p.topic == topic]


#: A whole match: the Moors win hands 1, 4, 5, 6 and 7; the Christians hand 2; hand 3 is a tie.
MATCH = [
    "Moors place Jund Cavalry",
    END,  # 1: 5-0
    "Christians place Knights",
    END,  # 2: 0-4
    "Moors place Andalusian Cavalry",
    "Christians place Knights",
    END,  # 3: 4-4
    "Moors place Caliph Abd al-Rahman III",
    END,  # 4: 5-0, a draw told
    "Moors place Lancers",
    "Moors place Army",
    "Christians place Rout",
    "Lancers",
    "Moors place Jihad",
    END,  # 5: 10-5
    "Moors place Jund Cavalry",
    "Christians place Military Order",
    "Moors discard Terrain to destroy Military Order",
    END,  # 6: 5-0
    "Moors place Blackguard",
    END,  # 7: 5-0, the match
]


# -- the menu -----------------------------------------------------------------------------------


def test_the_first_menu_is_every_placement_then_end() -> None:
    """BATTLE PHASE: "Placing one card down face up from their hand to the Table" - with an
    empty table every card its side may place (M and B for the Moors, X and B for the
    Christians) and nothing to destroy; the Moors first ("The Muslim player goes first").
    The menu is built with its topic, data and rule: "Players take turns either: 1. Placing one
    card ... OR 2. Discarding one card for it's Tactical effect"; the match has no robot, so no
    step gives a reason."""
    d = Driver(GAME, 1)
    assert d.pending == Choose(
        list(actions(d.state.table)),
        why="Hand 1: what happens on the table?",
        topic="simancas.turn.action",
        data={"hand": 1, "side": "moors", "passed": []},
    )
    assert menu(d).rule == "Battle Phase — Players take turns either"
    assert menu(d).reason == ""  # no robot: nothing is the app's own choice
    opts = options(d)
    moors = [f"Moors place {c.name}" for c in DECK.cards if c.side in "MB"]
    christians = [f"Christians place {c.name}" for c in DECK.cards if c.side in "XB"]
    moors += [
        "Moors discard Leader to draw 2 cards",
        "Moors discard Strategy to draw 1 card and look at the Christians' hand",
        "Moors pass",
    ]
    christians += [
        "Christians discard Leader to draw 2 cards",
        "Christians discard Strategy to draw 1 card and look at the Moors' hand",
        "Christians pass",
    ]
    assert list(opts) == moors + christians + [END]
    assert "Moors place Knights" not in opts and "Christians place Jund Cavalry" not in opts
    assert d.pending is not None and d.pending.why == "Hand 1: what happens on the table?"


def test_the_menu_follows_the_table() -> None:
    """Card list: "Mercenaries I 2 B You may place an Enemy Troop"; THE DECK: one of each card;
    Tactical Effects: "Discard a Terrain to destroy a placed Cavalry" - the menu lists exactly
    the actions legal now, and the engine reads each option back as the action it was made from."""
    d = play(["Moors place Mercenaries"])
    assert "Moors place Knights" in options(d) and "Moors place Gorge" not in options(d)
    d = play(["Moors place Mercenaries", "Moors place Knights"])
    opts = options(d)
    assert "Moors place Military Order" not in opts
    assert "Christians place Knights" not in opts
    assert "Moors discard Terrain to destroy Knights" in opts
    assert "Christians discard Terrain to destroy Knights" in opts
    assert "Christians discard Skirmisher to destroy Mercenaries" in opts
    assert not any(o.startswith("Restore") for o in opts)  # nothing destroyed: nothing to restore
    d.submit("Christians discard Terrain to destroy Knights", "player")
    assert not any("destroy Knights" in o for o in options(d))
    assert d.snapshot()["destroyed"] == [
        {"card": "Knights", "by": "christians", "means": "T", "discarded": None}
    ]
    assert [o for o in options(d) if o.startswith("Restore")] == ["Restore Knights"]
    assert options(d)[-2:] == ("Restore Knights", END)
    # The engine reads its own options (companion/simancas/actions.py), which the screens use
    # instead of the wording: each one is read back as the action it was made from.
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


def test_a_card_destroyed_by_mistake_is_restored() -> None:
    """Tactical Effects: "Discard a Terrain to destroy a placed Cavalry" - when the players
    find the destroy was a mistake (the wrong card, or no Terrain was discarded after all),
    "Restore" puts the card back in play: it scores again, can be destroyed again, and the
    correction is a step of its own, so the log says both."""
    d = play(
        ["Moors place Mercenaries", "Moors place Knights", "Christians discard Terrain to destroy Knights"]
    )
    assert d.snapshot()["totals"]["moors"] == 2  # Knights destroyed scores 0
    d.submit("Restore Knights", "player")
    snap = d.snapshot()
    assert snap["destroyed"] == [] and snap["totals"]["moors"] == 2 + 4
    assert "Restore Knights" not in options(d)
    assert "Christians discard Terrain to destroy Knights" in options(d)
    assert [s.answer for s in d.steps][-2:] == [
        "Christians discard Terrain to destroy Knights",
        "Restore Knights",
    ]


def test_a_card_routed_by_mistake_is_restored() -> None:
    """Card list: Rout "Enemy discards a placed troop" - a Rout victim restored scores again;
    Rout itself stays on the table."""
    d = play(["Moors place Lancers", "Moors place Army", "Christians place Rout", "Lancers"])
    assert d.snapshot()["destroyed"][0]["card"] == "Lancers"
    before = d.snapshot()["totals"]["moors"]
    d.submit("Restore Lancers", "player")
    snap = d.snapshot()
    assert snap["destroyed"] == [] and snap["totals"]["moors"] > before
    assert "Rout" in snap["table"]["christians"]


def test_restoring_a_card_not_destroyed_is_refused() -> None:
    match = new_match()
    match.table.place("moors", "Jund Cavalry")
    with pytest.raises(
        IllegalAction, match=re.escape("Jund Cavalry is not destroyed, so there is nothing to restore.")
    ):
        match.table.restore("Jund Cavalry")
    assert match.table.destroyed == []


def test_the_menu_is_stable() -> None:
    """The same table gives the same options in the same order, however it was reached."""
    a = play(["Moors place Woods", "Christians place Knights", "Moors place Jund Cavalry"])
    b = play(["Moors place Jund Cavalry", "Christians place Knights", "Moors place Woods"])
    opts_a = list(options(a))
    assert opts_a == list(options(b))
    assert opts_a == list(actions(a.state.table))
    assert (
        opts_a.index("Moors discard Terrain to destroy Jund Cavalry")
        < opts_a.index("Moors discard Terrain to destroy Knights")
        < opts_a.index("Christians place Count Fernan Gonzalez")
    )
    assert opts_a[-1] == END


# -- placing ------------------------------------------------------------------------------------


def test_reminders_say_who_does_what_because_of_which_card() -> None:
    """Card list: "Draw 1 card when placed", "Enemy discards 1 random card when placed",
    "Mercenaries I 2 B You may place an Enemy Troop" - ``side`` is the side that acts."""
    _, seen = play_seen(
        ["Moors place Caliph Abd al-Rahman III", "Moors place Raiders", "Christians place Mercenaries"]
    )
    said = [p for p in seen if isinstance(p, Tell)]
    assert [(t.topic, t.data) for t in said] == [
        ("simancas.placement.draw", {"side": "moors", "card": "Caliph Abd al-Rahman III", "count": 1}),
        ("simancas.placement.random_discard", {"side": "christians", "card": "Raiders", "count": 1}),
        ("simancas.placement.enemy_troop", {"side": "christians", "card": "Mercenaries"}),
    ]
    assert [t.rule for t in said] == [
        "The Comon Deck Card List — Caliph Abd al-Rahman III: Draw 1 card when placed",
        "The Comon Deck Card List — Raiders: Enemy discards 1 random card when placed",
        "The Comon Deck Card List — Mercenaries: You may place an Enemy Troop",
    ]
    assert [t.text for t in said] == [
        "Moors draw 1 card (Caliph Abd al-Rahman III)",
        "Christians discard 1 random card from their hand (Raiders)",
        "Christians may place one Moorish-only troop (Mercenaries)",
    ]


def test_on_placement_effects_are_told() -> None:
    """Card list: "Caliph Abd al-Rahman III L 5 M Draw 1 card when placed", "Raiders C 3 B Enemy
    discards 1 random card when placed" - instructions for the players, naming the card."""
    prompts, _ = drive(
        GAME.procedure(new_match()),
        ["Moors place Caliph Abd al-Rahman III", "Christians place Raiders", *MATCH],
    )
    assert tells(prompts)[:2] == [
        "Moors draw 1 card (Caliph Abd al-Rahman III)",
        "Moors discard 1 random card from their hand (Raiders)",
    ]


def test_rout_asks_which_enemy_troop_to_discard() -> None:
    """Card list: "Rout S 5 B When Placed discard 1 placed Enemy Troop" - a second question,
    offering only the enemy's placed, not-destroyed troops; the one chosen is destroyed. Rout's
    question names the side choosing (the Christians placing Rout) and the card; the Moors play
    next."""
    d = play(
        ["Moors place Jund Cavalry", "Moors place Cliffs", "Moors place Army", "Christians place Knights"]
    )
    d.submit("Christians place Rout", "player")
    assert isinstance(d.pending, Choose)
    assert d.pending.options == ("Jund Cavalry", "Army")
    assert d.pending.why == "Rout: which Moorish troop do the Christians discard from the table?"
    p = d.pending
    assert p == Choose(
        ["Jund Cavalry", "Army"],
        why="Rout: which Moorish troop do the Christians discard from the table?",
        topic=ROUT_TOPIC,
        data={"side": "christians", "card": "Rout"},
    )
    assert p.rule == "The Comon Deck Card List — Rout: When Placed discard 1 placed Enemy Troop"
    assert d.state.to_play == "moors"
    assert d.snapshot()["table"]["christians"] == ["Knights"]  # nothing changes until the target is chosen
    d.submit("Army", "player")
    assert isinstance(d.pending, Tell) and d.pending.text == "Moors discard Army from the table (Rout)"
    assert d.pending == Tell(
        "Moors discard Army from the table (Rout)",
        topic="simancas.placement.table_discard",
        data={"side": "moors", "card": "Rout", "target": "Army"},
    )
    d.ack()
    snap = d.snapshot()
    assert snap["table"]["christians"] == ["Knights", "Rout"]
    assert snap["destroyed"] == [{"card": "Army", "by": "christians", "means": "Rout", "discarded": None}]
    assert snap["totals"] == {"moors": 5 + 5, "christians": 4 + 5}


def test_rout_with_no_enemy_troop_asks_nothing() -> None:
    """Rout's discard needs a placed enemy troop: with none, no question, and the players are told."""
    d = Driver(GAME, 1)
    d.submit("Moors place Cliffs", "player")
    d.submit("Christians place Rout", "player")
    assert isinstance(d.pending, Tell) and d.pending.text == "Moors have no troop in play to discard (Rout)"
    assert d.pending == Tell(
        "Moors have no troop in play to discard (Rout)",
        topic="simancas.placement.no_troop",
        data={"side": "moors", "card": "Rout"},
    )


# -- hands and the match ------------------------------------------------------------------------


def test_ending_a_hand_tells_the_totals_and_clears_the_table() -> None:
    """BATTLE PHASE: "add up the Force value of all The placed cards they have that were not
    destroyed. The higher Force value wins the hand. In case of a tie, neither player wins.\"" -
    the result of a hand carries the totals and the winner, and cites the rule it follows."""
    d = play(["Moors place Jund Cavalry", "Moors place Woods", "Christians place Knights"])
    d.submit(END, "player")
    assert isinstance(d.pending, Tell)
    assert d.pending.text == (
        "Hand 1: Moors 6, Christians 3. The Moors win the hand. Hands won: Moors 1, Christians 0. "
        "Clear the table for hand 2."
    )
    won = d.pending
    assert won.topic == RESULT_TOPIC and won.data == {
        "hand": 1,
        "totals": {"moors": 6, "christians": 3},
        "winner": "moors",
        "wins": {"moors": 1, "christians": 0},
        "match_winner": None,
    }
    assert won.rule == "Battle Phase — The higher Force value wins the hand"
    d.ack()
    snap = d.snapshot()
    assert snap["hand"] == 2
    assert snap["table"] == {"moors": [], "christians": []}
    assert snap["hands"] == [{"hand": 1, "moors": 6, "christians": 3, "winner": "moors"}]
    assert "Christians place Knights" in options(d)  # a new hand: every card is back
    d.submit("Moors place Andalusian Cavalry", "player")
    d.submit("Christians place Knights", "player")
    d.submit(END, "player")
    assert (
        isinstance(d.pending, Tell)
        and "Moors 4, Christians 4. A tie: neither side wins the hand." in d.pending.text
    )
    tie = d.pending
    assert tie.topic == RESULT_TOPIC
    assert tie.data["hand"] == 2 and tie.data["totals"] == {"moors": 4, "christians": 4}
    assert tie.data["winner"] is None and tie.data["wins"] == {"moors": 1, "christians": 0}
    assert tie.rule == "Battle Phase — In case of a tie, neither player wins"
    d.ack()
    assert d.snapshot()["wins"] == {"moors": 1, "christians": 0}


def test_a_whole_match_to_five_hands() -> None:
    """VICTORY: "The first player to win 5 hands is the winner." - ties count for nobody."""
    state = new_match()
    prompts, result = drive(GAME.procedure(state), MATCH)
    said = tells(prompts)
    ends = [t for t in said if t.startswith("Hand ")]
    assert len(ends) == 7
    assert ends[2].startswith("Hand 3: Moors 4, Christians 4. A tie")
    assert ends[4].startswith("Hand 5: Moors 10, Christians 5. The Moors win the hand.")
    assert ends[-1] == (
        "Hand 7: Moors 5, Christians 0. The Moors win the hand. Hands won: Moors 5, Christians 1. "
        "The Moors win the match."
    )
    assert "Moors draw 1 card (Caliph Abd al-Rahman III)" in said
    assert "Moors discard Lancers from the table (Rout)" in said
    assert state.winner == "moors"
    assert state.wins == {"moors": HANDS_TO_WIN, "christians": 1}
    assert [r.winner for r in state.results] == [
        "moors",
        "christians",
        None,
        "moors",
        "moors",
        "moors",
        "moors",
    ]
    assert result == "The Moors won the match, 5 hands to 1."
    assert GAME.summary(state) == result


def test_the_fifth_hand_won_ends_the_match() -> None:
    """VICTORY: "The first player to win 5 hands is the winner.\""""
    hands = [["Christians place Knights", END]] * 5
    d, seen = play_seen([a for hand in hands for a in hand])
    assert d.finished
    last = told(seen, RESULT_TOPIC)[-1]
    assert last.data["match_winner"] == "christians" and last.data["wins"] == {"moors": 0, "christians": 5}
    assert last.rule == "Victory — The first player to win 5 hands is the winner"


def test_every_prompt_of_a_match_has_a_topic_and_a_rule() -> None:
    """The match has no robot: no step gives a reason, and every step's rule names the phase or
    the card it follows."""
    d, seen = play_seen(
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


def test_the_same_answers_give_the_same_state() -> None:
    """docs/design.md: "resume / replay - re-run the procedure feeding the logged answers"."""
    live = play(MATCH)
    assert live.finished
    for k in (0, 5, 17, len(live.steps)):
        resumed = Driver.resume(GAME, 7, None, live.steps[:k])
        partial = Driver(GAME, 99)  # the seed changes nothing: no dice, no shuffle
        for step in live.steps[:k]:
            partial.submit(step.answer, step.source)
        assert resumed.snapshot() == partial.snapshot()
        assert resumed.pending == (live.steps[k].prompt if k < len(live.steps) else None)
    assert Driver.resume(GAME, 7, None, live.steps).snapshot() == live.snapshot()
    assert live.result == "The Moors won the match, 5 hands to 1."


def test_the_snapshot_is_plain_json() -> None:
    d = play(MATCH[:12])
    snap = d.snapshot()
    assert json.loads(json.dumps(snap)) == snap
    assert set(snap) == {
        "hand",
        "wins",
        "hands",
        "table",
        "destroyed",
        "totals",
        "winner",
        "passed",
        "discard_pile",
    }


def test_where_and_summary() -> None:
    d = play(["Moors place Jund Cavalry", END, "Christians place Knights"])
    assert GAME.where(d.state) == (2, "Battle Phase")
    assert GAME.summary(d.state) == "Hand 2; hands won Moors 1, Christians 0; on the table 0 to 4."
    assert GAME.id == entry("simancas").id


# -- properties ---------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10_000), max_size=80))
def test_random_legal_actions_never_break_the_match(picks: list[int]) -> None:
    """Any sequence of menu choices: the engine never fails, no total is negative, each card is
    on the table at most once, and the hands won never pass 5. Every option of any menu is read
    back as the action it was made from; the options of another question (Rout's, card names)
    are no action."""
    d = Driver(GAME, 3)
    for pick in picks:
        if d.finished:
            break
        if isinstance(d.pending, Tell):
            d.ack()
            continue
        assert isinstance(d.pending, Choose)
        opts = options(d)
        if d.pending.topic == ACTION_TOPIC:
            offered = actions(d.state.table)
            assert all(action_of(o) == offered[o] for o in opts)
        else:
            assert all(action_of(o) is None for o in opts)
        d.submit(opts[pick % len(opts)], "player")
        state: Match = d.state
        names = state.table.placed["moors"] + state.table.placed["christians"]
        assert len(names) == len(set(names))
        assert min(state.table.totals().values()) >= 0
        assert max(state.wins.values()) <= HANDS_TO_WIN
    steps: list[Step] = list(d.steps)
    assert Driver.resume(GAME, 3, None, steps).snapshot() == d.snapshot()
