"""The discard pile of a Simancas match is the rulebook's pile: the Reserve Phase's reshuffle
empties it, a Weapon's search takes its card out of it, a card placed again is on the table and
not in it, and a card destroyed and reshuffled back may be placed again in the same hand.

What the app knows of the pile: the cards it saw go there (destroyed, left on the table at the
Retreat, by name; discarded from a hand for a tactic or a strategic effect, by type only); the
cards discarded from the hands otherwise (the Reserve, the Strategy Phase's other effects, a
random discard, the Retreat) it never sees. docs/rules-notes.md, Battle of Simancas, the
entries on the discard pile (the notes of this change: 22, replaced; 25 and 26)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from companion.driver import Driver
from companion.prompts import BadAnswer, Choose, Tell
from companion.simancas.cards import default_deck
from companion.simancas.table import IllegalAction, Table

RESHUFFLE = "Reshuffle the discard pile (the deck ran out)"
MOORS_SEARCH = "Moors discard Weapon to search the discard pile"
CHRISTIANS_SEARCH = "Christians discard Weapon to search the discard pile"
UNSEEN = "A card the app did not see discarded, or none"
BOTH_PASS = ["Moors pass", "Christians pass"]
DECK = default_deck()


def play(answers: Sequence[str]) -> Driver:
    from companion.simancas.game import GAME

    d = Driver(GAME, 7)
    for a in answers:
        while isinstance(d.pending, Tell):
            d.ack()
        d.submit(a, "player")
    while isinstance(d.pending, Tell):
        d.ack()
    return d


def options(d: Driver) -> tuple[str, ...]:
    assert isinstance(d.pending, Choose)
    return d.pending.options


def pile(d: Driver) -> list[tuple[str, str, str]]:
    """The pile as the snapshot keeps it: (card, type, how), oldest first."""
    return [(g["card"], g["type"], g["how"]) for g in d.snapshot()["discard_pile"]]


def named(d: Driver) -> list[str]:
    return [card for card, _, _ in pile(d) if card]


# -- the reshuffle ----------------------------------------------------------------------------


def test_a_reshuffle_empties_the_discard_pile() -> None:
    """RESERVE PHASE: "If the deck ever runs out, shuffle the discard and draw from it." - the
    pile is shuffled and is the deck now: the players record it (the app does not see the deck
    run out), and the app's pile is empty after it. It is offered while the pile holds a card the
    app knows of, and it is no turn: the side to play stays the same."""
    d = play([])
    assert RESHUFFLE not in options(d)  # nothing known in the pile yet
    d = play(["Moors place Jund Cavalry", "Christians discard Terrain to destroy Jund Cavalry"])
    assert pile(d) == [("", "T", "tactic"), ("Jund Cavalry", "C", "destroyed")]
    assert RESHUFFLE in options(d)
    assert isinstance(d.pending, Choose) and d.pending.data["side"] == "moors"
    d.submit(RESHUFFLE, "player")
    assert pile(d) == []
    assert RESHUFFLE not in options(d)
    assert isinstance(d.pending, Choose) and d.pending.data["side"] == "moors"
    # The table is as it was: the destroyed card stays listed, destroyed, for the hand.
    assert d.snapshot()["table"] == {"moors": ["Jund Cavalry"], "christians": []}
    assert d.snapshot()["totals"] == {"moors": 0, "christians": 0}


def test_the_cards_left_on_the_table_after_a_reshuffle_go_to_the_new_pile() -> None:
    """RESERVE PHASE: "shuffle the discard and draw from it"; the pile starts again from the
    reshuffle: what goes to it afterwards is in it, what went before is not."""
    d = play(["Moors place Jund Cavalry", *BOTH_PASS, "Christians place Knights", RESHUFFLE, *BOTH_PASS])
    assert named(d) == ["Knights"]


# -- the Weapon's search ----------------------------------------------------------------------


def test_a_weapons_search_takes_its_card_out_of_the_pile() -> None:
    """STRATEGY PHASE: "Discard a Weapon card search for a Cavalry, Skirmisher, or Infantry card
    in the Discard pile and put it in your hand." - the search offers the pile's Cavalry,
    Skirmisher and Infantry cards (not its Terrain), the card taken leaves the pile and the
    Weapon discarded goes to it (by its type: the app does not see which Weapon)."""
    d = play(
        [
            "Moors place Jund Cavalry",
            "Christians place Gorge",
            "Moors place Eunuchs",
            "Christians discard Terrain to destroy Jund Cavalry",
            *BOTH_PASS,
        ]
    )
    assert named(d) == ["Jund Cavalry", "Eunuchs", "Gorge"]
    assert MOORS_SEARCH in options(d) and CHRISTIANS_SEARCH in options(d)
    d.submit(MOORS_SEARCH, "player")
    ask = d.pending
    assert isinstance(ask, Choose) and ask.topic == "simancas.strategy.search"
    assert ask.options == ("Jund Cavalry", "Eunuchs", UNSEEN)
    assert ask.data == {"side": "moors", "options": ["Jund Cavalry", "Eunuchs", "unseen"]}
    assert ask.rule == (
        "Strategy Phase — Discard a Weapon card search for a Cavalry, Skirmisher, or Infantry card "
        "in the Discard pile and put it in your hand"
    )
    d.submit("Jund Cavalry", "player")
    assert named(d) == ["Eunuchs", "Gorge"]
    assert pile(d)[-1] == ("", "W", "strategy")
    # "Each player may discard one card to get its Strategic effect": one search a side.
    assert MOORS_SEARCH not in options(d) and CHRISTIANS_SEARCH in options(d)
    # The card is in the Moors' hand now: they may place it.
    d.submit("Moors place Jund Cavalry", "player")
    # The Battle has begun: the Strategy Phase is over for both.
    assert CHRISTIANS_SEARCH not in options(d)
    assert "Jund Cavalry" not in named(d)


def test_a_search_may_take_a_card_known_only_by_its_type() -> None:
    """The Strategy Phase's Weapon search takes "a Cavalry, Skirmisher, or Infantry card": a
    Cavalry discarded for a tactic is one, known to the app by its type only; a Terrain
    discarded for a tactic is none."""
    d = play(
        [
            "Moors place Archers",
            "Christians discard Cavalry to destroy Archers",
            "Moors place Jund Cavalry",
            "Christians discard Terrain to destroy Jund Cavalry",
            *BOTH_PASS,
            MOORS_SEARCH,
        ]
    )
    assert options(d) == (
        "Archers",
        "Jund Cavalry",
        "A Cavalry card discarded for a tactic",
        UNSEEN,
    )
    assert isinstance(d.pending, Choose)
    assert d.pending.data["options"] == ["Archers", "Jund Cavalry", "tactic:C", "unseen"]
    d.submit("A Cavalry card discarded for a tactic", "player")
    assert [(c, t) for c, t, how in pile(d) if how == "tactic"] == [("", "T")]


def test_a_leader_discarded_for_a_tactic_may_be_nobility() -> None:
    """Card list: "Nobility C 5 B Also counts as Leader" - a Leader discarded for its tactic may
    have been Nobility, a Cavalry: the Weapon's search may take it, and says so."""
    d = play(["Moors discard Leader to draw 2 cards", *BOTH_PASS, MOORS_SEARCH])
    assert options(d) == ("A Leader card discarded for a tactic, if it was Nobility", UNSEEN)
    d.submit("A Leader card discarded for a tactic, if it was Nobility", "player")
    assert pile(d) == [("", "W", "strategy")]


def test_a_search_of_a_card_the_app_did_not_see_changes_nothing_it_knows() -> None:
    d = play(["Moors place Jund Cavalry", *BOTH_PASS, CHRISTIANS_SEARCH, UNSEEN])
    assert pile(d) == [("Jund Cavalry", "C", "retreat"), ("", "W", "strategy")]


# -- a card placed again ----------------------------------------------------------------------


def test_a_card_placed_again_is_on_the_table_not_in_the_pile() -> None:
    """THE DECK: "Players share a unique common deck."; BATTLE PHASE: "Placing one card down face
    up from their hand to the Table" - a card left on the table at hand 1's Retreat is in the
    pile; placed again in hand 2 it came back to a hand (a reshuffle or a search the app was not
    told), so it is on the table and out of the pile; at hand 2's Retreat it is in the pile once."""
    d = play(["Moors place Jund Cavalry", *BOTH_PASS])
    assert named(d) == ["Jund Cavalry"]
    d.submit("Christians place Knights", "player")
    d.submit("Moors place Jund Cavalry", "player")
    assert named(d) == []
    for a in BOTH_PASS:
        d.submit(a, "player")
        while isinstance(d.pending, Tell):
            d.ack()
    assert named(d) == ["Jund Cavalry", "Knights"]


def test_a_card_known_by_its_type_leaves_the_pile_when_no_card_can_be_it() -> None:
    """THE DECK: "Players share a unique common deck."; BATTLE PHASE: "Placing one card down face
    up from their hand to the Table" - a Leader discarded for its tactic is in the pile, known by
    its type; once every Leader (Nobility too, "Also counts as Leader") is on the table, none of
    them is in the pile: the one discarded came back to a hand unseen, and the pile drops it."""
    leaders = [
        "Moors place Caliph Abd al-Rahman III",
        "Christians place Count Fernan Gonzalez",
        "Christians place King Ramiro II",
        "Christians place Garcia Sanchez I",
        "Christians place Christian Saints",
    ]
    d = play(["Moors discard Leader to draw 2 cards", *leaders])
    assert pile(d) == [("", "L", "tactic")]
    d.submit("Moors place Nobility", "player")
    assert pile(d) == []


# -- a card destroyed and reshuffled back -----------------------------------------------------


def test_a_card_destroyed_and_reshuffled_back_may_be_placed_again_in_the_same_hand() -> None:
    """RESERVE PHASE: "If the deck ever runs out, shuffle the discard and draw from it."; BATTLE
    PHASE: "Placing one card down face up from their hand to the Table"; card list, Rout: "discard
    1 placed Enemy Troop" (a card taken off the table is discarded). A destroyed card is in the
    discard pile, not in a hand: it is not placed again while it is there; once the pile is
    reshuffled it may be drawn, and placed again it scores, listed once, on the side placing it."""
    d = play(["Moors place Jund Cavalry", "Christians discard Terrain to destroy Jund Cavalry"])
    assert "Moors place Jund Cavalry" not in options(d)
    with pytest.raises(BadAnswer):
        d.submit("Moors place Jund Cavalry", "player")
    d.submit(RESHUFFLE, "player")
    assert "Moors place Jund Cavalry" in options(d)
    d.submit("Moors place Jund Cavalry", "player")
    snap = d.snapshot()
    assert snap["table"] == {"moors": ["Jund Cavalry"], "christians": []}
    assert snap["destroyed"] == [] and snap["totals"] == {"moors": 5, "christians": 0}
    assert "Restore Jund Cavalry" not in options(d)
    assert "Christians discard Terrain to destroy Jund Cavalry" in options(d)


def test_a_routed_troop_reshuffled_back_may_be_placed_by_either_side_that_may() -> None:
    """Rout: "When Placed discard 1 placed Enemy Troop"; a B troop may be placed by either side."""
    d = play(["Moors place Lancers", "Christians place Rout", "Lancers"])
    assert "Christians place Lancers" not in options(d)
    d.submit(RESHUFFLE, "player")
    d.submit("Christians place Lancers", "player")
    assert d.snapshot()["table"] == {"moors": [], "christians": ["Rout", "Lancers"]}
    assert d.snapshot()["destroyed"] == []


def test_an_enemy_troop_placed_again_needs_mercenaries_again() -> None:
    """Card list: "Mercenaries I 2 B You may place an Enemy Troop" - one; the troop placed
    through it used the permission even once destroyed, and placed again it is a second one."""
    t = Table(DECK)
    t.place("moors", "Mercenaries")
    t.place("moors", "Knights")
    t.tactic("christians", "T", "Knights")
    with pytest.raises(IllegalAction, match=r"^Knights was destroyed this hand"):
        t.place("moors", "Knights")
    t.pile.reshuffle()
    with pytest.raises(IllegalAction, match="have already placed their enemy troop"):
        t.place("moors", "Knights")
    t.place("christians", "Knights")  # the Christians' own card
    assert t.placed == {"moors": ["Mercenaries"], "christians": ["Knights"]}
