"""The Battle of Simancas match as a prompt procedure (companion/simancas/game.py): the
menu of legal actions, Rout's second question, the reminders, the end of a hand, a whole
match to 5 hands driven by scripted answers, and replay through the driver.

Every rule test quotes the rulebook section it holds the code to.
"""

from __future__ import annotations

import json
import random
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
    SEARCH_TOPIC,
    Match,
    actions,
    menu_of,
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


#: Both sides have finished playing cards: the hand is scored.
PASSES = ["Moors pass", "Christians pass"]

#: A whole match: the Moors win hands 1, 4, 5, 6 and 7; the Christians hand 2; hand 3 is a tie.
MATCH = [
    "Moors place Jund Cavalry",
    *PASSES,  # 1: 5-0
    "Christians place Knights",
    *PASSES,  # 2: 0-4
    "Moors place Andalusian Cavalry",
    "Christians place Knights",
    *PASSES,  # 3: 4-4
    "Moors place Caliph Abd al-Rahman III",
    *PASSES,  # 4: 5-0, a draw told
    "Moors place Lancers",
    "Moors place Army",
    "Christians place Rout",
    "Lancers",
    "Moors place Jihad",
    *PASSES,  # 5: 10-5
    "Moors place Jund Cavalry",
    "Christians place Military Order",
    "Moors discard Terrain to destroy Military Order",
    *PASSES,  # 6: 5-0
    "Moors place Blackguard",
    *PASSES,  # 7: 5-0, the match
]


# -- the menu -----------------------------------------------------------------------------------


def test_the_first_menu_is_every_placement_and_no_end() -> None:
    """BATTLE PHASE: "Placing one card down face up from their hand to the Table" - with an
    empty table every card its side may place (M and B for the Moors, X and B for the
    Christians) and nothing to destroy; the Moors first ("The Muslim player goes first"); each
    side's Weapon's search first (STRATEGY PHASE, before the Battle: "Discard a Weapon card
    search for a Cavalry, Skirmisher, or Infantry card in the Discard pile"); no "End the hand"
    ("When both players have finished playing cards": each passes). The menu is built with its
    topic, data and rule: "Players take turns either: 1. Placing one card ... OR 2. Discarding
    one card for it's Tactical effect"; the match has no robot, so no step gives a reason."""
    d = Driver(GAME, 1)
    assert d.pending == Choose(
        list(actions(d.state.table, (), ("moors", "christians"))),
        why="Hand 1: what happens on the table?",
        topic="simancas.turn.action",
        data={"hand": 1, "side": "moors", "passed": []},
    )
    assert menu(d).rule == "Battle Phase — Players take turns either"
    assert menu(d).reason == ""  # no robot: nothing is the app's own choice
    opts = options(d)
    moors = ["Moors discard Weapon to search the discard pile"]
    moors += [f"Moors place {c.name}" for c in DECK.cards if c.side in "MB"]
    christians = ["Christians discard Weapon to search the discard pile"]
    christians += [f"Christians place {c.name}" for c in DECK.cards if c.side in "XB"]
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
    assert list(opts) == moors + christians
    assert END not in opts
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
    assert options(d)[-2:] == ("Reshuffle the discard pile (the deck ran out)", "Restore Knights")
    # The engine reads its own options (companion/simancas/actions.py), which the screens use
    # instead of the wording: each one is read back as the action it was made from.
    offered = menu_of(d.state)
    assert list(offered) == list(menu(d).options)
    for text, action in offered.items():
        assert action_of(text) == action
    assert action_of("Moors place Knights") == Action("place", "moors", "Knights")
    assert action_of("Christians discard Terrain to destroy Knights") == Action(
        "tactic", "christians", "Knights", "T"
    )
    assert action_of("Restore Knights") == Action("restore", None, "Knights")
    assert action_of(END) == Action("end")  # offered no more, but the logs recorded before have it


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
    assert opts_a == list(menu_of(a.state))
    assert (
        opts_a.index("Moors discard Terrain to destroy Jund Cavalry")
        < opts_a.index("Moors discard Terrain to destroy Knights")
        < opts_a.index("Christians place Count Fernan Gonzalez")
    )
    assert opts_a[-1] == "Christians pass" and END not in opts_a


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
    d = play(["Moors place Jund Cavalry", "Moors place Woods", "Christians place Knights", "Moors pass"])
    d.submit("Christians pass", "player")
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
    for a in PASSES:
        d.submit(a, "player")
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
    hands = [["Christians place Knights", *PASSES]] * 5
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
            *PASSES,
            "Moors discard Weapon to search the discard pile",
            "Raiders",
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
    d = play(["Moors place Jund Cavalry", *PASSES, "Christians place Knights"])
    assert GAME.where(d.state) == (2, "Battle Phase")
    assert GAME.summary(d.state) == "Hand 2; hands won Moors 1, Christians 0; on the table 0 to 4."
    assert GAME.id == entry("simancas").id


# -- properties ---------------------------------------------------------------------------------


def fits_somewhere(letters: list[str], free: list[str]) -> bool:
    """Whether each card known only by its type (``letters``, one a card) can be a different card
    of ``free`` that counts as that type: a matching of every letter (augmenting paths)."""
    holder: dict[str, int] = {}

    def place(i: int, seen: set[str]) -> bool:
        for name in free:
            if name in seen or not DECK.card(name).counts_as(letters[i]):
                continue
            seen.add(name)
            if name not in holder or place(holder[name], seen):
                holder[name] = i
                return True
        return False

    return all(place(i, set()) for i in range(len(letters)))


def check_where_the_cards_are(state: Match, reshuffled: bool) -> None:
    """Every card of the deck is in one place: in play on the table, in the discard pile, or in
    the deck or a hand. The app keeps neither the hands nor the deck (it sees no deal, no draw,
    no discard from a hand but those recorded), so for them it checks what it can: a card in play
    is not in the pile; no card is in play twice or in the pile twice; the cards the pile knows
    by type only (discarded from a hand for a tactic or a strategic effect) can each be a
    different card of their type that is neither in play nor named in the pile, so the deck and
    the hands hold what is left, none of it negative. A card destroyed this hand is in the pile,
    unless the pile was reshuffled since (``reshuffled``: this hand)."""
    table, pile = state.table, state.table.pile
    placed = table.placed["moors"] + table.placed["christians"]
    assert len(placed) == len(set(placed)), placed
    in_play = [c.name for side in ("moors", "christians") for c in table.in_play(side)]
    named = pile.named()
    assert len(named) == len(set(named)), named
    assert not set(in_play) & set(named), (in_play, named)
    destroyed = [d.card for d in table.destroyed]
    assert set(destroyed) <= set(placed) and not set(destroyed) & set(in_play)
    if not reshuffled:
        assert set(destroyed) <= set(named), (destroyed, named)
    letters = [g.card_type for g in pile.entries if not g.card]
    free = [c.name for c in DECK.cards if c.name not in in_play and c.name not in named]
    assert len(in_play) + len(named) + len(letters) <= len(DECK.cards)
    assert fits_somewhere(letters, free), letters
    assert all(g.hand <= state.hand for g in pile.entries)


def check_menu(d: Driver, menu: dict[str, Action]) -> None:
    """The menu (``menu_of``, the ``menu`` asked now) offers nothing of a side that has passed,
    never "End the hand", the reshuffle exactly while the pile holds a card, and no placement of
    a card in play or destroyed this hand and still in the pile."""
    state: Match = d.state
    assert list(menu) == list(options(d))
    assert END not in menu and len(state.passed) < 2
    assert all(a.side not in state.passed for a in menu.values() if a.side is not None)
    assert ("Reshuffle the discard pile (the deck ran out)" in menu) == bool(len(state.table.pile))
    placed = {a.card for a in menu.values() if a.kind == "place"}
    in_play = {c.name for side in ("moors", "christians") for c in state.table.in_play(side)}
    assert not placed & in_play
    assert not placed & {d.card for d in state.table.destroyed if d.card in state.table.pile}


def random_answer(d: Driver, rng: random.Random, menu: dict[str, Action]) -> str:
    """A legal answer, biased so that hands end: a pass one time in eight, a reshuffle or a
    Weapon's search now and then, else any option (``menu``: the menu's actions, if it is asked)."""
    p = d.pending
    assert isinstance(p, Choose)
    opts = p.options
    if p.topic == ACTION_TOPIC:
        for kind, chance in (("pass", 0.125), ("reshuffle", 0.1), ("search", 0.2)):
            some = [o for o, a in menu.items() if a.kind == kind]
            if some and rng.random() < chance:
                return rng.choice(some)
    return rng.choice(opts)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**32 - 1))
def test_random_legal_actions_never_break_the_match(seed: int) -> None:
    """Whole matches, by random legal answers: the engine never fails and every match ends (5
    hands won); after every step no total is negative, the hands won never pass 5, every card is
    in one place (``check_where_the_cards_are``: what the app can check of the deck and the hands
    it does not see), and the menu offers nothing of a side that has passed and no "End the hand"
    (``check_menu``); a hand ends exactly when both sides have passed; a reshuffle empties the
    pile and a Weapon's find leaves it. Every option of any menu is read back as the action it was
    made from; the options of another question (Rout's, the Weapon's: cards) are no action."""
    rng = random.Random(seed)
    d = Driver(GAME, 3)
    reshuffled, hand = False, 1
    while not d.finished:
        assert len(d.steps) < 5000, "the match does not end"
        state: Match = d.state
        if isinstance(d.pending, Tell):
            d.ack()
        else:
            assert isinstance(d.pending, Choose)
            opts = options(d)
            offered: dict[str, Action] = {}
            if d.pending.topic == ACTION_TOPIC:
                offered = menu_of(state)
                check_menu(d, offered)
                assert all(action_of(o) == offered[o] for o in opts)
            else:
                assert d.pending.topic in (ROUT_TOPIC, SEARCH_TOPIC)
                assert all(action_of(o) is None for o in opts)
            question = d.pending
            answer = random_answer(d, rng, offered)
            passed_before = len(state.passed)
            d.submit(answer, "player")
            action = action_of(answer) if question.topic == ACTION_TOPIC else None
            if action is not None and action.kind == "reshuffle":
                assert len(state.table.pile) == 0
                reshuffled = True
            if question.topic == SEARCH_TOPIC and answer in DECK:
                assert answer not in state.table.pile
            ended = isinstance(d.pending, Tell) and d.pending.topic == RESULT_TOPIC
            both = action is not None and action.kind == "pass" and passed_before == 1
            assert ended == both, (answer, state.passed)
        state = d.state
        if state.hand != hand:
            reshuffled, hand = False, state.hand
        check_where_the_cards_are(state, reshuffled)
        assert min(state.table.totals().values()) >= 0
        assert max(state.wins.values()) <= HANDS_TO_WIN
    assert max(d.state.wins.values()) == HANDS_TO_WIN
    steps: list[Step] = list(d.steps)
    assert Driver.resume(GAME, 3, None, steps).snapshot() == d.snapshot()
