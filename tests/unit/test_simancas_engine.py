"""The Battle of Simancas table (companion/simancas/table.py): force totals with every
modifier, the floor at 0, dual types, the placing and destroying rules, Mercenaries and Rout.

Every rule test quotes the rulebook section (or docs/design.md "Battle of Simancas: force
totals") it holds the code to.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.simancas.cards import default_deck
from companion.simancas.table import SIDES, TACTICS, IllegalAction, Reminder, Side, Table, other

DECK = default_deck()


def table(moors: Sequence[str] = (), christians: Sequence[str] = ()) -> Table:
    """A table where the Moors placed ``moors`` and then the Christians ``christians``."""
    t = Table(DECK)
    for name in moors:
        t.place("moors", name)
    for name in christians:
        t.place("christians", name)
    return t


def mods(t: Table, name: str) -> list[tuple[str, int]]:
    s = t.score(name)
    return [(b.source, b.amount) for b in s.modifiers]


def flip(side: Side) -> Side:
    return other(side)


# -- modifiers ----------------------------------------------------------------------------------


@pytest.mark.parametrize("side", SIDES)
def test_your_modifiers_reach_only_your_cards(side: Side) -> None:
    """Card list: "Charge S 2 B Your Cavalry get +3" - the placing player's cavalry only."""
    t = Table(DECK)
    t.place(side, "Lancers")
    t.place(flip(side), "Light Cavalry")  # a Skirmisher that also counts as Cavalry
    t.place(side, "Charge")
    assert mods(t, "Lancers") == [("Charge", 3)]
    assert t.score("Lancers").score == 7
    assert mods(t, "Light Cavalry") == []
    assert t.totals()[side] == 7 + 2


@pytest.mark.parametrize("side", SIDES)
def test_enemy_modifiers_reach_only_the_other_sides_cards(side: Side) -> None:
    """Card list: "Weak Points S 4 B All Enemy Troops get -1" - "enemy X get -n" is the other side."""
    t = Table(DECK)
    t.place(side, "Weak Points")
    t.place(side, "Army")
    t.place(flip(side), "Corps")
    t.place(flip(side), "Bowmen")
    assert mods(t, "Corps") == [("Weak Points", -1)]
    assert mods(t, "Bowmen") == [("Weak Points", -1)]
    assert mods(t, "Army") == []
    assert t.totals() == {side: 4 + 5, flip(side): 4 + 3}


@pytest.mark.parametrize("side", SIDES)
def test_all_modifiers_reach_both_sides(side: Side) -> None:
    """Card list: "Woods T 2 B All Cavalry get -1" - docs/design.md: "all X get ±n" (both sides)."""
    t = Table(DECK)
    t.place(side, "Woods")
    t.place(side, "Lancers")
    t.place(flip(side), "Horsemen")
    t.place(flip(side), "Army")
    assert mods(t, "Lancers") == [("Woods", -1)]
    assert mods(t, "Horsemen") == [("Woods", -1)]
    assert mods(t, "Army") == []


@pytest.mark.parametrize("side", SIDES)
def test_eclipse_reaches_all_troops_in_play(side: Side) -> None:
    """Card list: "Eclipse T 2 B All Troops in play get -1" - every Skirmisher, Cavalry and
    Infantry of both sides, its own player's included; not Terrain, Weapons or the rest."""
    t = Table(DECK)
    t.place(side, "Eclipse")
    t.place(side, "Slingers")
    t.place(side, "Swords")
    t.place(flip(side), "Lancers")
    t.place(flip(side), "Footmen")
    t.place(flip(side), "Cliffs")
    for troop in ("Slingers", "Lancers", "Footmen"):
        assert mods(t, troop) == [("Eclipse", -1)]
    assert mods(t, "Cliffs") == []
    assert mods(t, "Swords") == []
    assert t.totals() == {side: 2 + 2 + 5, flip(side): 3 + 2 + 5}


def test_your_other_cavalry_leaves_the_card_itself_out() -> None:
    """Card list: "Cavalry Detachments C 4 M All Your other Cavalry get +1" - not itself, not the enemy's."""
    t = table(["Cavalry Detachments", "Jund Cavalry", "Berber Light Cavalry"], ["Knights"])
    assert mods(t, "Cavalry Detachments") == []
    assert mods(t, "Jund Cavalry") == [("Cavalry Detachments", 1)]
    assert mods(t, "Berber Light Cavalry") == [("Cavalry Detachments", 1)]  # also counts as Cavalry
    assert mods(t, "Knights") == []
    assert t.totals() == {"moors": 4 + 6 + 6, "christians": 4}


def test_modifiers_add_up_from_both_sides_itemised_by_source() -> None:
    """BATTLE PHASE: "some placed cards will give Force bonuses to other placed cards" - every
    modifier that reaches a card is listed with its source card, in the order placed."""
    t = table(["Jund Cavalry", "Cavalry Detachments", "Lances", "Eclipse"], ["Woods", "River", "Weak Points"])
    assert mods(t, "Jund Cavalry") == [
        ("Cavalry Detachments", 1),
        ("Lances", 2),
        ("Eclipse", -1),
        ("Woods", -1),
        ("River", -1),
        ("Weak Points", -1),
    ]
    assert t.score("Jund Cavalry").score == 5 + 1 + 2 - 1 - 1 - 1 - 1


@pytest.mark.parametrize(
    ("booster", "target", "amount"),
    [
        ("Bedouin", "Jihad", 3),  # Your Strategy cards get +3
        ("Crossbowmen", "Cliffs", 1),  # Your Terrain cards get +1
        ("Light Infantry", "Army", -1),  # All Enemy Infantry get -1 (on the enemy's)
        ("Gorge", "Bowmen", 2),  # Your Skirmishers get +2
        ("Hills", "Bowmen", 1),
        ("Ambush", "Cliffs", 1),
        ("Counterattack", "Army", 1),
        ("Outflank", "Lancers", 2),
        ("Melee", "Army", 3),
        ("Militia", "Cliffs", 1),
        ("Spears", "Army", 1),
        ("Shields", "Lancers", 1),
        ("Daggers", "Bowmen", 1),
        ("Christian Saints", "Swords", 2),  # All your Troops and Weapons get +2
    ],
)
def test_each_kind_of_bonus(booster: str, target: str, amount: int) -> None:
    """THE COMON DECK CARD LIST, Notes: each "your/enemy X get ±n" reaches the cards it names."""
    booster_card = DECK.card(booster)
    side: Side = "christians" if booster_card.side == "X" else "moors"
    t = Table(DECK)
    t.place(side, booster)
    target_side = flip(side) if booster_card.modifiers[0].target == "enemy" else side
    t.place(target_side, target)
    assert mods(t, target) == [(booster, amount)]
    assert t.score(target).score == DECK.card(target).force + amount


def test_a_score_never_goes_below_zero() -> None:
    """docs/design.md, force totals: "A placed, not-destroyed card scores max(0, base force + every
    modifier that applies to it)" - Arab Cavalry 3 -1 -1 -1 -1 scores 0, not -1."""
    t = table(["Arab Cavalry"], ["Woods", "River", "Weak Points", "Eclipse"])
    s = t.score("Arab Cavalry")
    assert sum(b.amount for b in s.modifiers) == -4
    assert s.score == 0
    assert s.floored
    assert t.totals()["moors"] == 0
    assert not t.score("Woods").floored


def test_a_card_of_two_types_gets_each_bonus_once() -> None:
    """Card list: "Berber Light Cavalry K 5 M Also counts as Cavalry" - a bonus for either type
    reaches it, but a modifier naming both types counts once (docs/design.md: "once per modifier")."""
    t = table(["Berber Light Cavalry", "Charge", "Bows", "Daggers", "Great Host", "Scimitars"])
    assert mods(t, "Berber Light Cavalry") == [("Charge", 3), ("Bows", 2), ("Daggers", 1), ("Scimitars", 1)]
    # Great Host is Infantry and Cavalry: Scimitars' "Infantry and Cavalry +1" once, Daggers' troops once.
    assert mods(t, "Great Host") == [("Charge", 3), ("Daggers", 1), ("Scimitars", 1)]


def test_nobility_counts_as_cavalry_and_leader() -> None:
    """Card list: "Nobility C 5 B Also counts as Leader" - it takes cavalry bonuses as a Cavalry."""
    t = table(["Nobility", "Lances"])
    assert mods(t, "Nobility") == [("Lances", 2)]


def test_destroyed_cards_neither_score_nor_give() -> None:
    """BATTLE PHASE: "add up the Force value of all The placed cards they have that were not
    destroyed"; docs/design.md: modifiers come from "the placed, not-destroyed cards of both sides"."""
    t = table(["Jund Cavalry", "Charge"], ["Woods"])
    t.tactic("christians", "I", "Woods")  # Infantry destroys a placed Terrain
    assert mods(t, "Jund Cavalry") == [("Charge", 3)]
    t.tactic("christians", "T", "Jund Cavalry")
    s = t.score("Jund Cavalry")
    assert (s.destroyed, s.score, s.modifiers) == (True, 0, ())
    assert t.totals() == {"moors": 2, "christians": 0}


def test_the_winner_is_the_higher_total_and_a_tie_wins_nothing() -> None:
    """BATTLE PHASE: "The higher Force value wins the hand. In case of a tie, neither player wins.\""""
    assert table(["Jund Cavalry"], ["Knights"]).winner() == "moors"
    assert table(["Arab Cavalry"], ["Knights"]).winner() == "christians"
    assert table(["Andalusian Cavalry"], ["Knights"]).winner() is None
    assert Table(DECK).winner() is None


# -- placing ------------------------------------------------------------------------------------


def test_side_restrictions() -> None:
    """CARD LIST NOTATION: "M = Only Moorish player may place, X = Only Christian player may
    place, B = Both players may place"; BATTLE PHASE: an opponent's card "you cannot place it,
    you Can only use it for its tactical effect"."""
    t = Table(DECK)
    with pytest.raises(
        IllegalAction, match=r"^Knights is Christian-only: the Moors may only discard it for its tactic"
    ):
        t.place("moors", "Knights")
    with pytest.raises(IllegalAction, match=r"^Jund Cavalry is Moorish-only: the Christians"):
        t.place("christians", "Jund Cavalry")
    with pytest.raises(IllegalAction, match=r"^Gorge is Christian-only"):
        t.place("moors", "Gorge")
    t.place("moors", "Lancers")
    t.place("christians", "Bowmen")
    assert t.placed == {"moors": ["Lancers"], "christians": ["Bowmen"]}
    assert "Knights" not in t.placeable("moors") and "Knights" in t.placeable("christians")
    assert "Jund Cavalry" in t.placeable("moors") and "Jund Cavalry" not in t.placeable("christians")


def test_each_card_is_on_the_table_once() -> None:
    """THE DECK: "Players share a unique common deck" - each card exists once, so it is on the
    table once, on one side; a destroyed card stays on the table for the rest of the hand."""
    t = table(["Lancers"])
    with pytest.raises(IllegalAction, match=r"^Lancers is already on the table \(the Moors'\)"):
        t.place("christians", "Lancers")
    with pytest.raises(IllegalAction, match=r"^Lancers is already on the table"):
        t.place("moors", "Lancers")
    t.tactic("christians", "T", "Lancers")
    with pytest.raises(IllegalAction, match=r"^Lancers was destroyed this hand"):
        t.place("christians", "Lancers")
    assert "Lancers" not in t.placeable("moors") + t.placeable("christians")
    assert t.placed == {"moors": ["Lancers"], "christians": []}


def test_mercenaries_lets_its_owner_place_one_enemy_troop() -> None:
    """Card list: "Mercenaries I 2 B You may place an Enemy Troop" - one troop only the other
    side may place (K, C or I), while Mercenaries is placed and not destroyed."""
    t = Table(DECK)
    with pytest.raises(IllegalAction, match="unless their Mercenaries is in play"):
        t.place("moors", "Knights")
    reminders = t.place("moors", "Mercenaries")
    assert reminders == ["Moors may place one Christian-only troop (Mercenaries)"]
    assert "Knights" in t.placeable("moors") and "Gorge" not in t.placeable("moors")
    with pytest.raises(IllegalAction, match=r"^Gorge is Christian-only: the Moors may only discard it"):
        t.place("moors", "Gorge")  # not a troop
    t.place("moors", "Knights")
    with pytest.raises(
        IllegalAction, match=r"^Military Order is Christian-only, and the Moors have already placed"
    ):
        t.place("moors", "Military Order")
    assert "Military Order" not in t.placeable("moors")
    assert t.placed["moors"] == ["Mercenaries", "Knights"]


def test_an_enemy_troop_placed_with_mercenaries_is_yours() -> None:
    """Card list: "You may place an Enemy Troop" - once placed it is the placer's card: "your"
    bonuses are the placer's, and the enemy's "enemy" maluses reach it."""
    t = table(["Mercenaries", "Knights", "Charge"], ["Outflank", "Weak Points"])
    assert t.owner("Knights") == "moors"
    assert mods(t, "Knights") == [("Charge", 3), ("Weak Points", -1)]
    assert t.totals()["moors"] == 1 + 6 + 2


def test_mercenaries_destroyed_allows_no_more_but_the_troop_stays() -> None:
    """Mercenaries' permission lasts while it is placed and not destroyed; a troop placed under
    it was placed legally and stays."""
    t = table(["Mercenaries", "Knights"])
    t.tactic("christians", "K", "Mercenaries")
    assert t.score("Knights").score == 4
    t2 = table(["Mercenaries"])
    t2.tactic("christians", "K", "Mercenaries")
    with pytest.raises(IllegalAction, match="unless their Mercenaries is in play"):
        t2.place("moors", "Knights")


def test_the_christians_may_use_mercenaries_too() -> None:
    """Card list: Mercenaries is B: either player may place it, for a troop of the other side."""
    t = table([], ["Mercenaries", "Great Host"])
    assert t.owner("Great Host") == "christians"
    assert t.score("Great Host").score == 5


def test_on_placement_reminders() -> None:
    """Card list: "Draw 1 card when placed", "Enemy discards 1 random card when placed" - the
    players carry these out; the app says who does what, naming the card."""
    t = Table(DECK)
    assert t.place("moors", "Caliph Abd al-Rahman III") == ["Moors draw 1 card (Caliph Abd al-Rahman III)"]
    assert t.place("moors", "Raiders") == ["Christians discard 1 random card from their hand (Raiders)"]
    assert t.place("christians", "Treason") == ["Moors discard 1 random card from their hand (Treason)"]
    assert t.place("christians", "Garrisons") == ["Christians draw 1 card (Garrisons)"]
    assert t.place("christians", "Knights") == []


def test_a_reminder_of_several_cards_keeps_its_plural() -> None:
    """No card of the shipped deck draws or discards more than one, a deck file may."""
    assert Reminder("draw", "moors", "Spies", 2).text == "Moors draw 2 cards (Spies)"
    assert Reminder("enemy_discards", "christians", "Spies", 3).text == (
        "Christians discard 3 random cards from their hand (Spies)"
    )


# -- Rout ---------------------------------------------------------------------------------------


def test_rout_discards_the_enemy_troop_its_player_chooses() -> None:
    """Card list: "Rout S 5 B When Placed discard 1 placed Enemy Troop" - the placing player
    picks one of the other side's placed troops; it is destroyed."""
    t = table(["Jund Cavalry", "Eunuchs", "Cliffs", "Lancers"], ["Knights"])
    t.tactic("christians", "T", "Lancers")
    assert t.rout_targets("christians") == ["Jund Cavalry", "Eunuchs"]  # not Cliffs, not destroyed Lancers
    with pytest.raises(
        IllegalAction, match=r"^Rout discards 1 placed Moorish troop when placed: choose which"
    ):
        t.place("christians", "Rout")
    with pytest.raises(
        IllegalAction, match=r"^Rout discards a placed Moorish troop, and Cliffs is not one in play"
    ):
        t.place("christians", "Rout", ["Cliffs"])
    with pytest.raises(IllegalAction, match="Knights is not one in play"):
        t.place("christians", "Rout", ["Knights"])  # their own troop
    assert "Rout" not in t.placed["christians"]
    # While the target is chosen, Rout is down and counts ("When Placed"), nothing discarded yet;
    # the table itself takes Rout only with its target.
    choosing = t.being_placed("christians", "Rout")
    assert choosing.placed["christians"] == ["Knights", "Rout"] and choosing.destroyed == t.destroyed
    assert choosing.totals() == {"moors": 5 + 3 + 5, "christians": 4 + 5}  # Eunuchs still scores its 3
    assert "Rout" not in t.placed["christians"] and t.totals()["christians"] == 4
    reminders = t.place("christians", "Rout", ["eunuchs"])
    assert reminders == ["Moors discard Eunuchs from the table (Rout)"]
    assert t.is_destroyed("Eunuchs")
    assert t.destroyed[-1].by == "christians" and t.destroyed[-1].means == "Rout"
    assert t.destroyed[-1].describe() == "Eunuchs, discarded by Rout"
    assert t.destroyed[0].describe() == "Lancers, destroyed by the Christians' Terrain tactic"
    assert t.totals() == {"moors": 5 + 5, "christians": 4 + 5}


def test_rout_with_no_enemy_troop_discards_nothing() -> None:
    """Rout's discard needs a placed enemy troop; with none it only scores its force."""
    t = table(["Cliffs"], [])
    assert t.rout_targets("christians") == []
    assert t.place("christians", "Rout") == ["Moors have no troop in play to discard (Rout)"]
    assert t.destroyed == []
    with pytest.raises(IllegalAction, match="discards nothing when placed"):
        t.place("moors", "Holy War", ["Rout"])


def test_rout_takes_a_dual_type_troop() -> None:
    """Card list: "Nobility C 5 B Also counts as Leader" is a Cavalry, so a troop Rout can discard."""
    t = table(["Nobility"])
    t.place("christians", "Rout", ["Nobility"])
    assert t.is_destroyed("Nobility")


# -- tactics ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("by", "target", "wrong"),
    [
        ("K", "Army", "Lancers"),  # Discard a Skirmisher to destroy a placed Infantry
        ("C", "Bowmen", "Army"),  # Discard a Cavalry to destroy a placed Skirmisher
        ("I", "Cliffs", "Bowmen"),  # Discard an Infantry to destroy a placed Terrain
        ("T", "Lancers", "Cliffs"),  # Discard a Terrain to destroy a placed Cavalry
        ("W", "Swords", "Army"),  # Discard a Weapon to destroy another placed Weapon
    ],
)
def test_tactics_destroy_by_type(by: str, target: str, wrong: str) -> None:
    """BATTLE PHASE, Tactical Effects: each discarded type destroys one placed type, no other."""
    t = table(["Army", "Lancers", "Bowmen", "Cliffs", "Swords"])
    with pytest.raises(
        IllegalAction, match=rf"^A \w+ tactic destroys a placed \w+, and {wrong} \(.*\) is not one\.$"
    ):
        t.tactic("christians", by, wrong)
    t.tactic("christians", by, target)
    assert [d.card for d in t.destroyed] == [target]
    assert (t.destroyed[0].by, t.destroyed[0].means) == ("christians", by)


def test_leaders_and_strategy_have_no_destroying_tactic() -> None:
    """Tactical Effects: "Discard a Strategy card to draw 1 card...", "Discard a Leader to draw 2
    cards" - they destroy nothing, and nothing destroys a Leader or a Strategy card."""
    t = table(["Army", "Caliph Abd al-Rahman III", "Jihad"])
    for by in ("L", "S"):
        with pytest.raises(IllegalAction, match="destroys nothing"):
            t.tactic("christians", by, "Army")
    assert not any(target in ("Caliph Abd al-Rahman III", "Jihad") for _, target in t.tactic_options())


def test_dual_types_can_be_destroyed_as_either_type() -> None:
    """Card list: "Berber Light Cavalry K 5 M Also counts as Cavalry", "Javelinmen K 4 B Also
    counts as Infantry" - a Terrain tactic (destroys Cavalry) or a Cavalry tactic (destroys
    Skirmishers) takes Berber; a Skirmisher tactic (destroys Infantry) takes Javelinmen."""
    for by in ("T", "C"):
        t = table(["Berber Light Cavalry"])
        t.tactic("christians", by, "Berber Light Cavalry")
        assert t.is_destroyed("Berber Light Cavalry")
    t = table(["Javelinmen"])
    assert ("K", "Javelinmen") in t.tactic_options() and ("C", "Javelinmen") in t.tactic_options()
    t.tactic("christians", "K", "Javelinmen")
    assert t.is_destroyed("Javelinmen")


def test_a_dual_type_card_can_be_discarded_as_either_type() -> None:
    """Card list: "Horse Archers K 4 M Also counts as Cavalry" - discarded as a Cavalry it
    destroys a placed Skirmisher; Knights is no Terrain, so it cannot pay a Terrain tactic."""
    t = table(["Bowmen"], ["Lancers"])
    with pytest.raises(IllegalAction, match=r"^Knights is not a Terrain card"):
        t.tactic("moors", "T", "Lancers", discarded="Knights")
    with pytest.raises(IllegalAction, match=r"^Lancers is on the table, so it cannot be discarded"):
        t.tactic("moors", "C", "Bowmen", discarded="Lancers")
    t.tactic("christians", "C", "Bowmen", discarded="Horse Archers")  # an opponent's card, for its tactic
    assert t.destroyed[0].discarded == "Horse Archers"


def test_a_tactic_may_destroy_either_sides_card() -> None:
    """Tactical Effects: "destroy a placed Terrain" - any placed Terrain, unlike Rout's "Enemy
    Troop": a player may destroy their own Eclipse that hurts their troops."""
    t = table(["Eclipse", "Jund Cavalry"])
    t.tactic("moors", "I", "Eclipse")
    assert t.score("Jund Cavalry").score == 5


def test_a_destroyed_or_absent_card_cannot_be_destroyed() -> None:
    t = table(["Army"])
    with pytest.raises(IllegalAction, match=r"^Corps is not on the table"):
        t.tactic("christians", "K", "Corps")
    t.tactic("christians", "K", "Army")
    with pytest.raises(IllegalAction, match=r"^Army is already destroyed\.$"):
        t.tactic("christians", "K", "Army")
    assert len(t.destroyed) == 1


# -- the table as a whole (the calculator) -----------------------------------------------------


def test_from_lists_is_order_free_and_keeps_the_order_given() -> None:
    """Mercenaries listed after the enemy troop it allows still allows it; destroyed Mercenaries
    still explains a troop placed before it fell."""
    t = Table.from_lists(DECK, ["knights", "Mercenaries"], ["Lancers"], ["MERCENARIES"])
    assert t.placed == {"moors": ["Knights", "Mercenaries"], "christians": ["Lancers"]}
    assert t.is_destroyed("Mercenaries")
    assert t.totals() == {"moors": 4, "christians": 4}
    with pytest.raises(IllegalAction, match=r"^Knights is Christian-only"):
        Table.from_lists(DECK, ["Knights"], [])
    with pytest.raises(
        IllegalAction, match=r"^Rout is a Strategy card, and no tactic or card destroys one\.$"
    ):
        Table.from_lists(DECK, ["Rout"], [], ["Rout"])
    with pytest.raises(IllegalAction, match=r"^Army is not on the table"):
        Table.from_lists(DECK, ["Rout"], [], ["Army"])


# -- properties ---------------------------------------------------------------------------------


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.lists(st.integers(min_value=0, max_value=10_000), max_size=60))
def test_random_legal_actions_keep_the_table_sound(picks: list[int]) -> None:
    """Any sequence of legal actions: nothing raises, no score or total is negative, and each
    card is on the table at most once."""
    t = Table(DECK)
    for pick in picks:
        moves: list[tuple[str, ...]] = [("place", s, n) for s in SIDES for n in t.placeable(s)]
        moves += [("tactic", s, by, target) for s in SIDES for by, target in t.tactic_options()]
        move = moves[pick % len(moves)]
        if move[0] == "place":
            side: Side = move[1]  # type: ignore[assignment]
            card = DECK.card(move[2])
            targets = t.rout_targets(side)[: t.destroys_on_placement(card)]
            t.place(side, card.name, targets)
        else:
            t.tactic(move[1], move[2], move[3])  # type: ignore[arg-type]
        names = t.placed["moors"] + t.placed["christians"]
        assert len(names) == len(set(names))
        assert all(s.score >= 0 for s in t.scores())
        assert min(t.totals().values()) >= 0
        assert {d.card for d in t.destroyed} <= set(names)
        assert len(t.enemy_troops_placed("moors")) <= 1 and len(t.enemy_troops_placed("christians")) <= 1


def test_tactics_table_is_the_rulebooks() -> None:
    """BATTLE PHASE, Tactical Effects: Skirmisher->Infantry, Cavalry->Skirmisher,
    Infantry->Terrain, Terrain->Cavalry, Weapon->Weapon."""
    assert TACTICS == {"K": "I", "C": "K", "I": "T", "T": "C", "W": "W"}


def test_the_engine_imports_no_screen_or_database_code() -> None:
    """docs/design.md: "Engines are pure" - nothing under companion/simancas/ pulls in Textual or SQL."""
    code = (
        "import sys, companion.simancas.cards, companion.simancas.table, companion.simancas.game, "
        "companion.simancas.calculators\n"
        "bad = sorted({m.split('.')[0] for m in sys.modules} & {'textual', 'sqlalchemy', 'sqlmodel', 'alembic'})\n"
        "print(','.join(bad))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""
