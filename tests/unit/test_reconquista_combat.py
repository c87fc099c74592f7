"""Reconquista battles and sieges (combat.py): each test quotes the rule it checks, by section."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion.reconquista import combat
from companion.reconquista.combat import (
    Modifier,
    battle_or_siege,
    battle_round,
    first_striker,
    hits,
    remove_casualties,
    siege_modifiers,
    siege_roll,
)
from companion.reconquista.units import CASUALTY_ORDER, Kind, parse_spec

A, G, MO, R = Kind.ARMY, Kind.GARRISON, Kind.ORDER, Kind.REBEL
MC, CR, F, RA = Kind.MERCENARY, Kind.CRUSADER, Kind.FRENCH, Kind.REBEL_ARMY


def P(spec: str) -> list[Kind]:
    return parse_spec(spec)


# -- battle or siege ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("defenders", "battle"),
    [
        ("1G", False),  # City with 1 Garrison: No battle
        ("2G", False),  # City with 2 Garrisons: No battle
        ("2R", False),  # City with 2 Rebels: No battle
        ("1A", False),  # City with 1 Army: No battle
        ("1G1A", True),  # City with 1 Garrison and 1 Army: Battle
        ("2A", True),  # City with 2 armies: Battle
    ],
)
def test_the_rulebooks_six_city_examples(defenders: str, battle: bool) -> None:
    """Phase 4: Movement of Armies: "there may be a battle - this only happens if there is more
    than one enemy unit (Garrison or Army) and at least one is an army (Rebels are not armies)"."""
    assert battle_or_siege(P(defenders), city_or_fortress=True) is battle


def test_a_fortress_alone_counts_like_a_city() -> None:
    """Phase 4: Movement of Armies: "If the enemy area has a City and / or Fortress"."""
    assert battle_or_siege(P("2G"), city_or_fortress=True) is False
    assert battle_or_siege(P("1G1RA"), city_or_fortress=True) is True


def test_no_city_or_fortress_always_battle() -> None:
    """Phase 4: Movement of Armies: "If the enemy Area has no City or Fortress then there will be a battle."."""
    for spec in ("1G", "2R", "1A", "1MO"):
        assert battle_or_siege(P(spec), city_or_fortress=False) is True
    with pytest.raises(ValueError, match="no enemy"):
        battle_or_siege([], city_or_fortress=False)


def test_a_city_with_nobody_inside_is_besieged() -> None:
    """Phase 4: Movement of Armies: enemy forces include "a Muslim city with no other units present";
    with no unit there is no battle ("Otherwise, the moving forces stop and wait for the Siege Phase")."""
    assert battle_or_siege([], city_or_fortress=True) is False


def test_a_military_order_is_a_unit_but_not_an_army() -> None:
    """Phase 4: Movement of Armies: "there may be a battle - this only happens if there is more
    than one enemy unit (Garrison or Army) and at least one is an army (Rebels are not armies)".
    The Counters: "Armies", "Rebels" and "Military Orders" are counters of their own. A Military
    Order counts towards "more than one unit", but it is not "an army": with a Garrison, another
    Order or a Rebel the walls give no battle (a siege); with an army beside it they do."""
    assert battle_or_siege([MO, G], city_or_fortress=True) is False
    assert battle_or_siege([MO, MO], city_or_fortress=True) is False
    assert battle_or_siege([MO], city_or_fortress=True) is False
    assert battle_or_siege([MO, R], city_or_fortress=True) is False
    assert battle_or_siege([MO, A], city_or_fortress=True) is True


@pytest.mark.parametrize("army", [MC, CR, F, RA])
def test_neutral_armies_are_armies_for_the_battle_test(army: Kind) -> None:
    """Phase 4: Movement of Armies: "at least one is an army (Rebels are not armies)": a Rebel
    unit is not, but neutral armies (mercenaries, crusaders, French, the Rebel armies) are."""
    assert battle_or_siege([R, army], city_or_fortress=True) is True
    assert battle_or_siege([R, R], city_or_fortress=True) is False


# -- hits and casualties -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "lowest_hit"),
    [(G, 5), (R, 5), (A, 4), (MC, 4), (CR, 4), (F, 4), (RA, 4), (MO, 3)],
)
def test_to_hit_faces(kind: Kind, lowest_hit: int) -> None:
    """Battle: "Garrison or Rebel: Result of 5 or 6. Army: Result of 4, 5 or 6.
    Military Order: Result of 3, 4, 5 or 6."."""
    for face in range(1, 7):
        assert hits([kind], [face]) == (1 if face >= lowest_hit else 0)


def test_dice_are_matched_to_units_in_order() -> None:
    """Battle: "Roll a D6 for each unit": die i is unit i's, so 5 hits for a garrison, 4 does not."""
    assert hits(P("1G2A"), [5, 3, 4]) == 2
    assert hits(P("1G2A"), [4, 5, 3]) == 1


@pytest.mark.parametrize("dice", [[5, 3], [5, 3, 4, 4], [0, 3, 4], [7, 3, 4]])
def test_bad_dice_are_one_sentence(dice: list[int]) -> None:
    """Battle: "Roll a D6 for each unit": one die per unit, each 1 to 6."""
    with pytest.raises(ValueError) as info:
        hits(P("1G2A"), dice)
    message = str(info.value)
    assert "\n" not in message and message.endswith(".")
    assert ("need 3 dice" in message) or ("1 to 6" in message)


def test_casualty_order() -> None:
    """Battle: "Garrisons and/or Rebels are removed first, then Military Orders, and finally
    Armies" (docs/design.md: mercenaries before all: "they are the first unit eliminated")."""
    force = [A, MO, G, MC, R]
    assert remove_casualties(force, 1) == [A, MO, G, R]
    assert remove_casualties(force, 2) == [A, MO, R]
    assert remove_casualties(force, 3) == [A, MO]
    assert remove_casualties(force, 4) == [A]
    assert remove_casualties(force, 5) == []
    assert list(CASUALTY_ORDER[:4]) == [MC, G, R, MO] and CASUALTY_ORDER[-1] == A


def test_never_more_casualties_than_units() -> None:
    """Battle: "Hits are removed as casualties": hits beyond the force are lost."""
    assert remove_casualties(P("2A"), 5) == []
    assert remove_casualties(P("2A"), 0) == [A, A]
    with pytest.raises(ValueError):
        remove_casualties(P("2A"), -1)


@given(
    st.lists(st.sampled_from(list(Kind)), max_size=12),
    st.integers(min_value=0, max_value=15),
)
def test_casualties_property(units: list[Kind], n: int) -> None:
    """Battle: "Hits are removed as casualties": never more than the units, the lowest priority
    first, the survivors in their original relative order."""
    left = remove_casualties(units, n)
    assert len(left) == max(0, len(units) - n)
    lost = list(units)
    for kind in left:
        lost.remove(kind)
    rank = {k: i for i, k in enumerate(CASUALTY_ORDER)}
    if lost and left:
        assert max(rank[k] for k in lost) <= min(rank[k] for k in left)
    # The survivors are a subsequence of the force.
    it = iter(units)
    assert all(any(k == u for u in it) for k in left)


# -- the rulebook's battles --------------------------------------------------------------------


def test_example_of_a_simple_battle() -> None:
    """Example of a Simple Battle: "The Christian Garrison rolls a 5, a hit, the two Christian
    Armies roll a 3 (miss) and a 4 (hit) [...] The Muslim Garrison rolls a 4 (miss), while the two
    Muslim armies roll a 6 (hit) and a 3 (miss) [...] As the Muslim force suffered more casualties,
    it must retreat."."""
    rnd = battle_round(P("1G2A"), P("1G2A"), [5, 3, 4], [4, 6, 3], city=False, first=None)
    assert (rnd.attacker_hits, rnd.defender_hits) == (2, 1)
    assert rnd.defender_losses == (G, A) and rnd.defender_survivors == (A,)
    assert rnd.attacker_losses == (G,) and rnd.attacker_survivors == (A, A)
    assert rnd.result == "defender_retreats"


def test_example_of_a_complex_battle_1() -> None:
    """Example of a Complex Battle 1: "The Christians score 1 hit, and the Rebels also score 1 hit.
    [...] the Christians lose one unit, which by order of priority is the Christian Garrison. As
    this is a tie, both sides continue the battle... This time the two remaining Christian armies
    score 2 hits, while the remaining Rebel misses. The remaining Rebel is eliminated." The Rebels
    hold no city of theirs (the city is Muslim): city=False."""
    first = battle_round(P("2A1G"), P("2RA"), [4, 1, 2], [5, 2], city=False, first=None)
    assert (first.attacker_hits, first.defender_hits) == (1, 1)
    assert first.attacker_losses == (G,) and first.defender_losses == (RA,)
    assert first.result == "continue"
    second = battle_round(
        first.attacker_survivors, first.defender_survivors, [6, 4], [3], city=False, first=None
    )
    assert (second.attacker_hits, second.defender_hits) == (2, 0)
    assert second.defender_survivors == () and second.attacker_survivors == (A, A)
    assert second.result == "defender_destroyed"


def test_example_of_a_complex_battle_2() -> None:
    """Example of a Complex Battle 2: "The Christians score 1 hit, and the Muslims also score 1 hit.
    Both sides lose one unit, which by order of priority is the Garrison. As this is a tie, the
    remaining Muslim army retreats into the city. The Christians now have 2 Armies and the Muslims
    only have one army."."""
    rnd = battle_round(P("2A1G"), P("1G1A"), [4, 2, 3], [1, 5], city=True, first=None)
    assert (rnd.attacker_hits, rnd.defender_hits) == (1, 1)
    assert rnd.attacker_losses == (G,) and rnd.defender_losses == (G,)
    assert rnd.attacker_survivors == (A, A) and rnd.defender_survivors == (A,)
    assert rnd.result == "defender_into_city"


def test_complex_battle_2_with_two_hits_captures() -> None:
    """Example of a Complex Battle 2: "if the Christians had scored 2 hits, then they would have
    eliminated the entire Muslim force and captured the city"."""
    rnd = battle_round(P("2A1G"), P("1G1A"), [4, 5, 3], [1, 5], city=True, first=None)
    assert rnd.attacker_hits == 2
    assert rnd.result == "defender_destroyed"


def test_the_enemy_hits_more_the_mover_retreats() -> None:
    """Battle: "If the enemy force has hit more times than your moving force, your force must retreat"."""
    rnd = battle_round(P("2A1G"), P("3A"), [4, 1, 1], [4, 5, 1], city=True, first=None)
    assert (rnd.attacker_hits, rnd.defender_hits) == (1, 2)
    assert rnd.result == "attacker_retreats"


def test_the_mover_hits_more_the_defenders_retreat_or_go_into_the_city() -> None:
    """Battle: "If your moving force hits more than the enemy, then the enemy must retreat. If there
    was a city in the Area, the entire force retreats into it"."""
    open_field = battle_round(P("3A"), P("3A"), [4, 4, 1], [6, 1, 1], city=False, first=None)
    by_city = battle_round(P("3A"), P("3A"), [4, 4, 1], [6, 1, 1], city=True, first=None)
    assert open_field.result == "defender_retreats"
    assert by_city.result == "defender_into_city"


def test_a_side_wiped_out_does_not_retreat() -> None:
    """Battle: "If one side completely eliminates the other, it does not need to retreat, even if it
    did not win the battle": equal hits, but one side is gone, so no tie, no retreat into the city."""
    rnd = battle_round(P("3A"), P("1A"), [4, 1, 1], [6], city=False, first=None)
    assert (rnd.attacker_hits, rnd.defender_hits) == (1, 1)
    assert rnd.result == "defender_destroyed" and rnd.attacker_survivors == (A, A)
    rnd = battle_round(P("3A"), P("1A"), [4, 1, 1], [6], city=True, first=None)
    assert rnd.result == "defender_destroyed"  # not 'defender_into_city': nobody is left to go in
    rnd = battle_round(P("1A"), P("1A1G"), [6], [6, 1], city=False, first=None)
    assert (rnd.attacker_hits, rnd.defender_hits) == (1, 1)
    assert rnd.result == "attacker_destroyed" and rnd.defender_survivors == (A,)


def test_both_destroyed() -> None:
    """Battle: hits are removed from both sides: a simultaneous round can wipe out both."""
    rnd = battle_round(P("1A"), P("1G"), [4], [5], city=True, first=None)
    assert rnd.result == "both_destroyed"
    assert rnd.attacker_survivors == () and rnd.defender_survivors == ()


def test_mountain_defenders_strike_first_and_attackers_roll_with_survivors() -> None:
    """Battle: "except in mountainous Areas, where the enemy forces roll to hit first": the
    defenders' hits are removed before the attackers roll, so the attackers give one die per survivor."""
    rnd = battle_round(P("1G2A"), P("1G2A"), [5, 3], [4, 6, 3], city=False, first="defender")
    assert rnd.defender_hits == 1 and rnd.attacker_losses == (G,)
    # The attackers' dice are the two armies': 5 hits, 3 misses.
    assert rnd.attacker_hits == 1 and rnd.defender_losses == (G,)
    assert rnd.result == "continue"
    with pytest.raises(ValueError, match=r"need 2 dice, one per unit left after the defenders struck first"):
        battle_round(P("1G2A"), P("1G2A"), [5, 3, 4], [4, 6, 3], city=False, first="defender")


def test_a_first_strike_that_kills_everyone_leaves_nothing_to_roll() -> None:
    """Battle: El Cid "Attacks first" (Quick Reference): the defenders destroyed before rolling roll no die."""
    rnd = battle_round(P("2A"), P("1G"), [4, 6], [], city=True, first="attacker")
    assert rnd.result == "defender_destroyed" and rnd.defender_hits == 0
    with pytest.raises(ValueError, match="need 0 dice"):
        battle_round(P("2A"), P("1G"), [4, 6], [5], city=True, first="attacker")


def test_first_striker() -> None:
    """Battle: mountain: "the enemy forces roll to hit first", but on a tie "this time the defenders
    do not hit first in a mountainous area"; El Cid: "Attacks first" (docs/design.md: over the mountain)."""
    assert first_striker(mountain=False, el_cid=None, first_round=True) is None
    assert first_striker(mountain=True, el_cid=None, first_round=True) == "defender"
    assert first_striker(mountain=True, el_cid=None, first_round=False) is None
    assert first_striker(mountain=True, el_cid="attacker", first_round=True) == "attacker"
    assert first_striker(mountain=False, el_cid="defender", first_round=False) == "defender"


def test_battle_needs_both_sides() -> None:
    """Battle: "Each side rolls dice to inflict hits on the opponent"."""
    with pytest.raises(ValueError, match="each side"):
        battle_round([], P("1A"), [], [4], city=False, first=None)


# -- siege modifiers ---------------------------------------------------------------------------


def amounts(lines: tuple[Modifier, ...]) -> dict[str, int]:
    return {m.label: m.amount for m in lines}


@pytest.mark.parametrize(
    ("spec", "label", "amount"),
    [
        ("1G", "1 garrison", 1),
        ("2R", "2 Rebels", 2),
        ("2A", "2 armies", 4),
        ("1MC", "1 mercenary", 2),
        ("1CR", "1 crusader", 2),
        ("1F", "1 French army", 2),
        ("1RA", "1 Rebel army", 2),
        ("2MO", "2 Military Orders", 6),
    ],
)
def test_besieger_modifiers(spec: str, label: str, amount: int) -> None:
    """Phase 6: Resolve Sieges: "+1 to the roll for each Garrison. +2 for each Army. +3 for each
    Military Order in the attacking force." (mercenaries, crusaders are armies: docs/design.md)."""
    mods = siege_modifiers(P(spec), P("1G"), city=True, fortress=False)
    assert amounts(mods.besieger) == {label: amount}
    assert mods.besieger_total == amount


def test_defender_modifiers() -> None:
    """Phase 6: Resolve Sieges: "+1 (for the city itself). +1 for each Garrison / Rebel. +2 for each
    Army / Military Order."; Quick Reference: "Military Order [...] 3 attacking, 2 defending"."""
    mods = siege_modifiers(P("1A"), P("1G1R2A1MO"), city=True, fortress=False)
    assert amounts(mods.defender) == {
        "city": 1,
        "1 garrison": 1,
        "1 Rebel": 1,
        "2 armies": 4,
        "1 Military Order": 2,
    }
    assert mods.defender_total == 9


def test_fortress_doubles_the_whole_defence() -> None:
    """Phase 6: Resolve Sieges: "Double the modifier if a Fortress is present."; Quick Reference:
    "Fortress: 2x in defence."."""
    mods = siege_modifiers(P("3A2G"), P("2A1G"), city=True, fortress=True)
    assert mods.defender_total == 2 * (1 + 4 + 1)
    assert mods.defender[-1] == Modifier("fortress (doubles the defence)", 6)
    assert mods.besieger_total == 8  # the besieger is not doubled


def test_a_fortress_alone_gives_no_city_bonus() -> None:
    """Phase 6: Resolve Sieges: "+1 (for the city itself)": no city, no +1 (docs/design.md)."""
    mods = siege_modifiers(P("1A"), P("1G"), city=False, fortress=True)
    assert "city" not in amounts(mods.defender)
    assert mods.defender_total == 2


def test_el_cid_siege_bonus_for_either_side() -> None:
    """Random event 8, El Cid: "+2 in siege" (Quick Reference), for the side he is with; with the
    defenders his +2 is part of the modifier the fortress doubles."""
    b = siege_modifiers(P("1A"), P("1G"), city=True, fortress=True, el_cid="besieger")
    assert amounts(b.besieger)["El Cid"] == 2 and b.besieger_total == 4
    assert b.defender_total == 4
    d = siege_modifiers(P("1A"), P("1G"), city=True, fortress=True, el_cid="defender")
    assert amounts(d.defender)["El Cid"] == 2 and d.defender_total == (1 + 1 + 2) * 2
    assert d.besieger_total == 2


def test_el_cid_needs_a_force_to_be_with() -> None:
    """Random event 8, El Cid (docs/design.md: "joins a force of its side"): an emptied side has no El Cid."""
    mods = siege_modifiers(P("1A"), [], city=True, fortress=False, el_cid="defender")
    assert mods.defender_total == 1


# -- siege rolls -------------------------------------------------------------------------------


def roll(besiegers: str, defenders: str, b: int, d: int, **kw: object) -> combat.SiegeRoll:
    place = {"city": True, "fortress": False} | kw
    force = P(defenders) if defenders else []
    return siege_roll(P(besiegers), force, besieger_die=b, defender_die=d, **place)  # type: ignore[arg-type]


def test_besieger_must_beat_the_defender() -> None:
    """Phase 6: Resolve Sieges: "If the besieger beats the defender's roll, all defenders are
    eliminated"; an odd die takes the city without sacking it."""
    r = roll("1A", "1G", 3, 3)  # 5 against 5: not beaten
    assert (r.besieger_total, r.defender_total, r.outcome) == (5, 5, "tie")
    r = roll("1A", "1G", 3, 2)
    assert (r.besieger_total, r.defender_total, r.outcome, r.result) == (5, 4, "besieger", "captured")
    assert r.sacked is False and r.defender_survivors == () and r.defender_losses == (G,)


def test_an_even_result_sacks_the_city() -> None:
    """Phase 6: Resolve Sieges: "Roll a D6 for the besieging force. Apply the following
    modifiers"; "If both sides roll the same result"; "On an even result, the City is also
    eliminated (sacked and destroyed!)": a result is the die with its modifiers, in every
    sentence (docs/design.md: "the die with its modifiers"), so with an odd modifier an odd die sacks."""
    r = roll("1A", "1G", 4, 1)  # 4 + 2 = 6, even
    assert r.outcome == "besieger" and r.sacked is True and r.result == "sacked"
    r = roll("3A", "1G", 5, 6)  # 5 + 6 = 11, odd, beats 8
    assert r.outcome == "besieger" and r.sacked is False
    r = roll("2A1G", "1G", 3, 1)  # an odd die, 3 + 5 = 8: even
    assert r.outcome == "besieger" and r.sacked is True
    r = roll("2A1G", "1G", 4, 1)  # an even die, 4 + 5 = 9: odd
    assert r.outcome == "besieger" and r.sacked is False and r.result == "captured"


def test_a_fortress_without_a_city_is_never_sacked_but_is_destroyed() -> None:
    """Phase 6: Resolve Sieges: "all defenders are eliminated, as well as any Fortress, if present.
    On an even result, the City is also eliminated": no city, nothing to sack."""
    r = roll("3A", "1G", 6, 1, city=False, fortress=True)
    assert r.outcome == "besieger" and r.sacked is False and r.fortress_destroyed is True
    assert r.result == "captured"


def test_defender_wins_the_besiegers_lose_one_and_retreat() -> None:
    """Phase 6: Resolve Sieges: "If the defender obtains a higher result, then the besieging force
    loses 1 unit (prioritize according to the combat rules) and retreats."."""
    r = roll("2A1G", "1A", 1, 6)
    assert r.outcome == "defender" and r.result == "besieger_retreats"
    assert r.besieger_losses == (G,) and r.besieger_survivors == (A, A)
    assert r.defender_survivors == (A,)


def test_tie_both_lose_one_and_the_siege_continues() -> None:
    """Phase 6: Resolve Sieges: "If both sides roll the same result, then both sides lose 1 unit
    (prioritize according to the combat rules) and the siege continues; roll the dice again."."""
    r = roll("2A1G", "1A1G", 3, 4)  # 3 + 5 = 8, 4 + 1 + 1 + 2 = 8
    assert (r.besieger_total, r.defender_total, r.outcome, r.result) == (8, 8, "tie", "continue")
    assert r.besieger_losses == (G,) and r.defender_losses == (G,)
    assert r.besieger_survivors == (A, A) and r.defender_survivors == (A,)


def test_nobody_inside_surrenders_without_a_roll() -> None:
    """Phase 6: Resolve Sieges: "If the City / Fortress had no force inside [...] then it surrenders
    and is captured (any Fortress present is kept)"."""
    r = siege_roll(P("1G"), [], city=True, fortress=True, besieger_die=2, defender_die=6)
    assert r.outcome == "besieger" and r.result == "surrendered" and r.surrendered is True
    assert r.sacked is False and r.fortress_destroyed is False
    assert r.besieger_total is None and r.besieger_die is None


def test_tie_empties_a_city_of_the_besiegers_religion_it_surrenders() -> None:
    """Phase 6: Resolve Sieges: "or if it is of the same religion as the attacker and now lacks
    units, then it surrenders and is captured (any Fortress present is kept)"."""
    # 2 + 4 = 6 against 2 + (1 + 1) x 2 = 6: a tie.
    r = roll("2A", "1G", 2, 2, fortress=True, same_religion=True)
    assert (r.besieger_total, r.defender_total) == (6, 6)
    assert r.outcome == "tie" and r.result == "surrendered" and r.surrendered is True
    assert r.fortress_destroyed is False and r.besieger_survivors == (A,)


def test_tie_empties_an_enemy_city_it_fights_on_alone() -> None:
    """Phase 6: Resolve Sieges: only "if it is of the same religion as the attacker and now lacks
    units" does it surrender: an emptied enemy city keeps defending, +1, doubled by a fortress."""
    r = roll("2A", "1G", 2, 2, fortress=True, same_religion=False)
    assert r.outcome == "tie" and r.result == "continue" and r.surrendered is False
    again = siege_roll(
        list(r.besieger_survivors),
        list(r.defender_survivors),
        city=True,
        fortress=True,
        after_tie=True,
        besieger_die=2,
        defender_die=2,
    )
    assert amounts(again.modifiers.defender) == {"city": 1, "fortress (doubles the defence)": 1}
    assert (again.besieger_total, again.defender_total, again.outcome) == (4, 4, "tie")
    assert again.result == "defender_holds"  # the last besieger fell on the tie


def test_a_fortress_without_a_city_emptied_by_a_tie_fights_on_alone() -> None:
    """Phase 6: Resolve Sieges: "If the City / Fortress had no force inside, or if it is of the
    same religion as the attacker and now lacks units, then it surrenders"; otherwise "the
    siege continues; roll the dice again". A fortress alone has no religion: emptied by a tie it
    does not surrender (only the same religion opens a surrender after a tie); the next roll
    is against a bare die, its modifier nothing (0, doubled)."""
    r = roll("2A", "1G", 2, 4, city=False, fortress=True)  # 2 + 4 = 6 against 4 + 1 x 2 = 6
    assert r.outcome == "tie" and r.result == "continue" and r.defender_survivors == ()
    again = roll("1A", "", 1, 4, city=False, fortress=True, after_tie=True)  # 1 + 2 = 3 against 4 + 0
    assert again.defender_total == 4 and again.outcome == "defender"
    nobody = roll("1A", "", 1, 4, city=False, fortress=True)  # nobody inside at the start: it gives up
    assert nobody.result == "surrendered"


def test_tie_that_takes_the_last_besieger_the_defender_holds() -> None:
    """Phase 6: Resolve Sieges: "both sides lose 1 unit": a besieging force left with nobody cannot
    take the place, even an emptied one of its own religion."""
    r = roll("1A", "1G", 2, 2, same_religion=True)  # 4 against 4
    assert r.outcome == "tie" and r.result == "defender_holds"
    assert r.besieger_survivors == () and r.surrendered is False


def test_siege_input_errors() -> None:
    """Phase 6: Resolve Sieges: "Roll a D6 for the besieging force [...] Roll a D6 for the defending force"."""
    with pytest.raises(ValueError, match="1 to 6"):
        roll("1A", "1G", 7, 1)
    with pytest.raises(ValueError, match="1 to 6"):
        roll("1A", "1G", 1, 0)
    with pytest.raises(ValueError, match="besieging unit"):
        siege_roll([], P("1G"), city=True, fortress=False, besieger_die=1, defender_die=1)
    with pytest.raises(ValueError, match="city or a fortress"):
        roll("1A", "1G", 1, 1, city=False)
