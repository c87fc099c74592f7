"""What the prompts of battles and sieges are (``companion.reconquista.battle``): their topic,
their data, the rule they follow and the reason the engine gives, in real positions.

The values checked are the ones that come from the position and could be wrong: the area,
whose dice, the units in die order, the hits and the losses, where a beaten force goes and
by which way, the siege modifiers, the roll's number. The wording is held by
tests/unit/test_reconquista_battle.py and the golden games; here the structure beside it.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from procedure_helpers import drive
from reconquista_helpers import one, place, topics

from companion.prompts import Choose, Prompt, Roll, Tell
from companion.reconquista import battle as battle_module
from companion.reconquista.battle import BattleOutcome, engage, siege
from companion.reconquista.board import Board
from companion.reconquista.setup import initial_state
from companion.reconquista.state import GameState
from companion.reconquista.units import Kind

A, G, MC, F = Kind.ARMY, Kind.GARRISON, Kind.MERCENARY, Kind.FRENCH


# -- battle ------------------------------------------------------------------------------------


def test_the_simple_battle_rolls_losses_and_retreat(board: Board, state: GameState) -> None:
    """Phase 4, Battle, "Example of a Simple Battle": both sides roll at once; the Christians'
    2 hits take the Muslim garrison and an army, the Muslims' 1 the Christian garrison; the
    last Muslim army retreats to Zaragoza, "the highest-numbered adjacent Area" (5, 6)."""
    place(state, "Tarragona", [("christian", A, 2), ("christian", G, 1), ("muslim", A, 2), ("muslim", G, 1)])
    place(state, "Zaragoza", city="muslim")
    prompts, out = drive(
        engage(board, state, "Tarragona", "christian", ["Barcelona"]), [[3, 4, 5], [6, 3, 4]]
    )
    assert out == BattleOutcome("defender_retreats", 1, "Tarragona")
    assert topics(prompts) == [
        "reconquista.battle.roll",
        "reconquista.battle.roll",
        "reconquista.battle.losses",
        "reconquista.battle.retreat",
    ]
    christian, muslim = prompts[0], prompts[1]
    assert isinstance(christian, Roll) and isinstance(muslim, Roll)
    assert christian.data == {
        "area": "Tarragona",
        "round": 1,
        "side": "christian",
        "role": "attacker",
        "units": ["army", "army", "garrison"],
        "first_strike": None,
        "survivors": False,
    }
    assert muslim.data["side"] == "muslim" and muslim.data["role"] == "defender"
    assert christian.rule == muslim.rule == "Phase 4: Movement of Armies — Battle"
    assert christian.reason == muslim.reason == ""  # simultaneous: nothing to explain
    losses = prompts[2]
    assert losses.data == {
        "area": "Tarragona",
        "round": 1,
        "attacker": "christian",
        "defender": "muslim",
        "attacker_dice": [3, 4, 5],
        "defender_dice": [6, 3, 4],
        "attacker_hits": 2,
        "defender_hits": 1,
        "attacker_losses": {"garrison": 1},
        "defender_losses": {"army": 1, "garrison": 1},
        "result": "defender_retreats",
    }
    # "the first unit eliminated, by priority, must be the Muslim garrison"
    assert losses.reason == (
        "Christian casualties by priority: garrisons before armies; "
        "Muslim casualties by priority: garrisons before armies"
    )
    retreat = prompts[3]
    assert retreat.data == {
        "area": "Tarragona",
        "side": "muslim",
        "role": "defender",
        "units": {"army": 1},
        "to": "Zaragoza",
        "via": "next_area",
        "el_cid": False,
        "besiegers": False,
        "relieved": False,
    }
    assert retreat.rule == "Phase 4: Movement of Armies — If your moving force hits more than the enemy"
    assert (
        retreat.reason == "the next higher-numbered area free of hostile forces: Tarragona 4 → Zaragoza 5-6"
    )


def test_a_retreat_that_wraps_round_and_one_along_a_road(board: Board, state: GameState) -> None:
    """Phase 4, Battle, footnote: from Granada "as there is no area numbered higher than
    Granada, Algeciras"; "If there is no such area, then the force may retreat along a road"."""
    place(state, "Granada", [("muslim", A, 2), ("christian", A, 2)])
    prompts, _ = drive(engage(board, state, "Granada", "christian", ["Murcia"]), [[1, 1], [4, 1]])
    retreat = one(prompts, "reconquista.battle.retreat")
    assert (retreat.data["to"], retreat.data["via"]) == ("Algeciras", "next_area")
    assert retreat.reason.endswith("Granada 5-6 → Algeciras 1-2, wrapping round")

    place(state, "Pamplona", [("christian", G, 1)])
    place(state, "Barcelona", [("christian", G, 1)], city="christian")
    place(state, "Zaragoza", [("rebel", Kind.REBEL, 1)], city="muslim", fortress=True)
    place(state, "Tarragona", [("muslim", A, 2), ("christian", A, 2)])
    prompts, _ = drive(engage(board, state, "Tarragona", "christian", ["Barcelona"]), [[4, 1], [1, 1]])
    retreat = one(prompts, "reconquista.battle.retreat")
    assert (retreat.data["to"], retreat.data["via"], retreat.data["units"]) == (
        "Valencia",
        "road",
        {"army": 1},
    )
    assert retreat.reason == "no other area of Aragón is free of hostile forces: along the road to Valencia"


def test_a_defender_with_nowhere_to_go_is_removed(board: Board, state: GameState) -> None:
    """Phase 4, Battle: "If this is not possible either, the entire enemy force is eliminated."
    Aragón is hostile to the Muslims everywhere and Valencia, at the end of the road, too."""
    place(state, "Pamplona", [("christian", G, 1)])
    place(state, "Barcelona", [("christian", G, 1)], city="christian")
    place(state, "Zaragoza", [("rebel", Kind.REBEL, 1)], city="muslim", fortress=True)
    place(state, "Valencia", [("christian", A, 1)], city="muslim")
    place(state, "Tarragona", [("muslim", A, 3), ("christian", A, 2)])
    prompts, _ = drive(engage(board, state, "Tarragona", "christian", ["Barcelona"]), [[4, 1], [1, 1, 1]])
    retreat = one(prompts, "reconquista.battle.retreat")
    assert (retreat.data["to"], retreat.data["via"], retreat.data["units"]) == (None, None, {"army": 2})
    assert retreat.reason == "no area of Aragón is free of hostile forces and no road leads to one"


def test_the_mountain_first_strike_and_the_survivors_dice(board: Board, state: GameState) -> None:
    """Phase 4, Battle: "in mountainous Areas, where the enemy forces roll to hit first"; the
    attackers then roll with the units left (docs/rules-notes.md, battles reading 4).
    Pamplona is mountainous: the Muslim army's hit takes one of the two Christian armies."""
    place(state, "Pamplona", [("muslim", A, 1), ("christian", A, 2)])
    prompts, _ = drive(engage(board, state, "Pamplona", "christian", ["Barcelona"]), [[6], [1]])
    first, second = (p for p in prompts if isinstance(p, Roll))
    assert (first.data["side"], first.data["first_strike"], first.data["survivors"]) == (
        "muslim",
        "defender",
        False,
    )
    assert first.reason == "Pamplona is mountainous: the defenders strike first in the first round"
    assert (second.data["side"], second.data["units"], second.data["survivors"]) == (
        "christian",
        ["army"],
        True,
    )
    assert second.reason == "only the units left after the first strike roll"


def test_el_cid_strikes_first_every_round(board: Board, state: GameState) -> None:
    """Quick Reference, El Cid: "Attacks first", in every round (docs/design.md, Battle): the
    second round of an open-field tie starts with his side's dice again."""
    place(state, "Toledo", [("muslim", A, 1), ("christian", A, 1)])
    state.el_cid_area, state.el_cid_side = "Toledo", "christian"
    prompts, _ = drive(engage(board, state, "Toledo", "christian", ["Salamanca"]), [[1], [1], [6]])
    r1, _, r2 = (p for p in prompts if isinstance(p, Roll))
    assert [(r.data["round"], r.data["side"], r.data["first_strike"]) for r in (r1, r2)] == [
        (1, "christian", "attacker"),
        (2, "christian", "attacker"),
    ]
    assert r1.reason == r2.reason == "El Cid is with the Christian side: it strikes first"


def test_mercenaries_are_the_first_unit_eliminated(board: Board, state: GameState) -> None:
    """Random events, Mercenaries: "they are the first unit eliminated in a battle or siege":
    of a mercenary and an army, one Muslim hit takes the mercenary."""
    place(state, "Toledo", [("muslim", A, 2), ("christian", A, 1), ("christian", MC, 1)])
    prompts, _ = drive(engage(board, state, "Toledo", "christian", ["Salamanca"]), [[1, 1], [6, 1]])
    losses = one(prompts, "reconquista.battle.losses")
    assert losses.data["attacker_losses"] == {"mercenary": 1}
    assert losses.reason == "Christian mercenaries are the first unit eliminated"


def test_no_battle_before_walls_with_one_unit_inside(board: Board, state: GameState) -> None:
    """Phase 4: "City with 1 Garrison: No battle" and "a Muslim city with no other units
    present" is an enemy force: the movers besiege, no die is rolled."""
    place(state, "Toledo", [("muslim", G, 1), ("christian", A, 2)], city="muslim")
    (told,), _ = drive(engage(board, state, "Toledo", "christian", ["Salamanca"]), [])
    assert told.topic == "reconquista.battle.no_battle"
    assert told.data == {
        "area": "Toledo",
        "side": "christian",
        "holder": "muslim",
        "inside": {"garrison": 1},
        "walls": "city",
    }
    assert told.rule == "Phase 4: Movement of Armies — If the enemy area has a City and / or Fortress"
    assert told.reason == "only 1 Muslim garrison inside: a battle needs more than one enemy unit"

    place(state, "Cuenca", [("rebel", Kind.REBEL, 2), ("christian", A, 1)], fortress=True)
    (told,), _ = drive(engage(board, state, "Cuenca", "christian", ["Toledo"]), [])
    assert (told.data["holder"], told.data["inside"], told.data["walls"]) == (
        "rebel",
        {"Rebel": 2},
        "fortress",
    )
    assert told.reason == "no army inside (2 Rebels): a battle needs at least one (Rebels are not armies)"

    place(state, "Valencia", [("christian", A, 1)], city="muslim")
    (told,), _ = drive(engage(board, state, "Valencia", "christian", ["Cuenca"]), [])
    assert told.topic == "reconquista.battle.no_battle"
    assert (told.data["holder"], told.data["inside"]) == (None, {})
    assert told.reason == "nobody is inside the Muslim city to give battle"


def test_the_players_retreat_choice_and_the_only_way_back(board: Board, state: GameState) -> None:
    """Phase 4, Battle: "your force must retreat to a single Area (of your choice), from which
    at least one of the units came": two origins are the player's choice (no reason given),
    one is the only way back (the reason says so)."""
    place(state, "Barcelona", city="christian")
    place(state, "Valencia", [("christian", G, 1)], city="christian")
    place(state, "Tarragona", [("muslim", A, 3), ("christian", A, 1), ("christian", G, 1)])
    prompts, _ = drive(
        engage(board, state, "Tarragona", "christian", ["Barcelona", "Valencia"]),
        [[1, 1], [4, 1, 1], "Valencia"],
    )
    beaten = "Phase 4: Movement of Armies — If the enemy force has hit more times than your moving force"
    choice = one(prompts, "reconquista.battle.retreat_to")
    assert isinstance(choice, Choose)
    assert choice.data == {
        "area": "Tarragona",
        "side": "christian",
        "origins": ["Barcelona", "Valencia"],
        "city": False,
    }
    assert choice.rule == beaten
    told = one(prompts, "reconquista.battle.retreat")
    assert (told.data["role"], told.data["to"], told.data["via"]) == ("attacker", "Valencia", "origin")
    assert told.data["units"] == {"army": 1}  # the garrison fell to the first Muslim hit
    assert told.rule == beaten and told.reason == ""

    place(state, "Tarragona", [("muslim", A, 3), ("christian", A, 2)])
    prompts, _ = drive(engage(board, state, "Tarragona", "christian", ["Barcelona"]), [[1, 1], [4, 1, 1]])
    told = one(prompts, "reconquista.battle.retreat")
    assert told.data["to"] == "Barcelona" and told.reason == "the only area it came from: Barcelona"


def test_a_robot_force_goes_back_where_it_came_from(board: Board, state: GameState) -> None:
    """Phase 5: "If the Muslim force has to retreat, withdraw the force back to the area it
    came from": the Muslim attackers beaten in Toledo go back to Salamanca."""
    place(state, "Salamanca")
    place(state, "Toledo", [("christian", A, 2), ("muslim", A, 2)])
    prompts, _ = drive(engage(board, state, "Toledo", "muslim", ["Salamanca"]), [[1, 1], [4, 1]])
    told = one(prompts, "reconquista.battle.retreat")
    assert (told.data["side"], told.data["role"], told.data["to"]) == ("muslim", "attacker", "Salamanca")
    assert told.rule == "Phase 5: The Muslim Reaction — If the Muslim force has to retreat"
    assert told.reason == "back to the area it came from: Salamanca"


def test_a_robot_relief_of_its_city_and_its_withdrawal_into_it(board: Board, state: GameState) -> None:
    """Phase 5: "If the area contains a Christian force and a City under Muslim control, then
    the forces of the Muslim City join the battle. If the Muslim forces are forced to
    retreat, or the Battle is a tie, the entire surviving force retreats into the City."
    Toledo's Muslim garrison joins the army come to relieve it; a tie sends both inside."""
    place(
        state,
        "Toledo",
        [("muslim", G, 1), ("christian", A, 2), ("muslim", A, 1)],
        city="muslim",
        besieger="christian",
    )
    prompts, out = drive(
        engage(board, state, "Toledo", "muslim", ["Salamanca"], [A], into_walls=True), [[4, 1], [4, 1]]
    )
    assert out == BattleOutcome("attacker_into_walls", 1, "Toledo")
    walls_rule = "Phase 5: The Muslim Reaction — If the area contains a Christian force and a City under Muslim control"
    relief = one(prompts, "reconquista.battle.relief")
    assert relief.data == {
        "area": "Toledo",
        "side": "muslim",
        "walls": "city",
        "besieger": "christian",
        "besiegers": {"army": 2},
        "joined": True,
    }
    assert relief.rule == walls_rule
    assert relief.reason == "Muslim units hold the city: they join the battle"
    inside = one(prompts, "reconquista.battle.into_walls")
    assert inside.data == {
        "area": "Toledo",
        "side": "muslim",
        "walls": "city",
        "besieger": "christian",
        "units": {"army": 1},
        "tie": True,
    }
    assert inside.rule == walls_rule
    assert inside.reason == "a tie relieving walls of its side: the surviving force retreats into the city"


def test_the_player_relieving_a_city_cites_complex_battle_1(board: Board, state: GameState) -> None:
    """Complex Battle 1: "If the force in the city were Christian, it would join the battle":
    the French besiegers of León are destroyed and the city relieved."""
    place(
        state,
        "León",
        [("christian", G, 1), ("french", F, 2), ("christian", A, 2)],
        city="christian",
        besieger="french",
    )
    prompts, _ = drive(engage(board, state, "León", "christian", ["Galicia"], [A, A]), [[4, 4, 1], [1, 1]])
    relief = one(prompts, "reconquista.battle.relief")
    assert relief.rule == "Phase 4: Movement of Armies — Example of a Complex Battle 1"
    assert relief.data["joined"] is True and relief.data["besiegers"] == {"French army": 2}
    gone = one(prompts, "reconquista.battle.destroyed")
    assert gone.data == {
        "area": "León",
        "destroyed": ["french"],
        "winner": "christian",
        "besiegers": True,
        "captured": False,
        "relieved": True,
    }


def test_beaten_besiegers_leave_the_walls_to_be_besieged(board: Board, state: GameState) -> None:
    """Complex Battle 1: the Rebels besieging a Muslim city are beaten, and "the Christian
    force must remain in place to besiege the city"."""
    place(
        state,
        "Tarragona",
        [("muslim", G, 1), ("rebel_army", Kind.REBEL_ARMY, 2), ("christian", A, 2)],
        city="muslim",
        besieger="rebel_army",
    )
    prompts, _ = drive(engage(board, state, "Tarragona", "christian", ["Barcelona"]), [[4, 4], [1, 1]])
    told = one(prompts, "reconquista.battle.besiege")
    assert told.data == {
        "area": "Tarragona",
        "side": "christian",
        "beaten": "rebel_army",
        "walls": "city",
        "holder": "muslim",
        "inside": {"garrison": 1},
        "units": {"army": 2},
    }
    assert told.rule == "Phase 4: Movement of Armies — Example of a Complex Battle 1"
    assert told.reason == "the city is held by the Muslim side, which took no part in the battle"


@pytest.mark.parametrize(("muslim_dice", "tie"), [([1, 1], False), ([4, 1], True)])
def test_defenders_into_their_city(board: Board, state: GameState, muslim_dice: list[int], tie: bool) -> None:
    """Phase 4, Battle: beaten, or on a tie, "if there is a city in the area, then the entire
    defending force retreats into it, and the moving force remains in place". The Christians
    hit once; the Muslims miss, or hit once too."""
    place(state, "Toledo", [("muslim", A, 2), ("christian", A, 2)], city="muslim")
    prompts, _ = drive(engage(board, state, "Toledo", "christian", ["Salamanca"]), [[4, 1], muslim_dice])
    told = one(prompts, "reconquista.battle.into_city")
    assert told.data == {
        "area": "Toledo",
        "side": "muslim",
        "besieger": "christian",
        "units": {"army": 1},
        "besiegers": {"army": 1 if tie else 2},
        "tie": tie,
    }
    assert told.rule == (
        "Phase 4: Movement of Armies — If both sides inflict equal losses"
        if tie
        else "Phase 4: Movement of Armies — If your moving force hits more than the enemy"
    )


# -- sieges ------------------------------------------------------------------------------------


def test_the_siege_roll_carries_the_sides_and_the_modifiers(board: Board, state: GameState) -> None:
    """Phase 6: the besieger +2 an army; the defender +1 the city, +1 a garrison, doubled by the
    fortress. Toledo, 3 Christian armies against a garrison behind walls: +6 against +4; a 2
    wins and, even, sacks the city."""
    place(
        state,
        "Toledo",
        [("muslim", G, 1), ("christian", A, 3)],
        city="muslim",
        fortress=True,
        besieger="christian",
    )
    prompts, _ = drive(siege(board, state, "Toledo"), [[2, 1]])
    roll, result = prompts
    assert isinstance(roll, Roll) and isinstance(result, Tell)
    assert roll.topic == "reconquista.sieges.roll"
    assert roll.why.startswith("Siege of Toledo:")
    assert roll.data == {
        "area": "Toledo",
        "besieger": "christian",
        "defender": "muslim",
        "roll": 1,
        "after_tie": False,
        "walls": "city",
        "fortress": True,
        "besieger_units": {"army": 3},
        "defender_units": {"garrison": 1},
        "besieger_modifier": 6,
        "defender_modifier": 4,
        "el_cid": None,
    }
    assert roll.rule == "Phase 6: Resolve Sieges — Roll a D6 for the besieging force"
    assert result.topic == "reconquista.sieges.result"
    assert {k: result.data[k] for k in ("besieger_total", "defender_total", "outcome", "result")} == {
        "besieger_total": 8,
        "defender_total": 5,
        "outcome": "besieger",
        "result": "sacked",
    }
    assert result.data["defender_losses"] == {"garrison": 1} and result.data["sacked"] is True
    assert result.data["fortress_destroyed"] is True
    assert result.rule == "Phase 6: Resolve Sieges — If the besieger beats the defender's roll"
    assert result.reason == "the besiegers' die is even (2): the city is sacked and destroyed"


def test_a_tie_then_a_second_roll(board: Board, state: GameState) -> None:
    """Phase 6: "both sides lose 1 unit [...] and the siege continues; roll the dice again":
    the second Roll is roll 2, after a tie, with the survivors' modifiers (+2 against +3)."""
    place(
        state,
        "Salamanca",
        [("muslim", A, 1), ("muslim", G, 1), ("christian", A, 2)],
        city="muslim",
        besieger="christian",
    )
    prompts, _ = drive(siege(board, state, "Salamanca"), [[3, 3], [6, 1]])
    first, second = (p for p in prompts if isinstance(p, Roll))
    assert (first.data["roll"], first.data["after_tie"]) == (1, False)
    assert (second.data["roll"], second.data["after_tie"]) == (2, True)
    assert (second.data["besieger_modifier"], second.data["defender_modifier"]) == (2, 3)
    assert all(p.data["area"] == "Salamanca" for p in (first, second))
    tie = next(p for p in prompts if p.topic == "reconquista.sieges.result")
    assert tie.data["outcome"] == "tie" and tie.data["result"] == "continue"
    assert tie.data["besieger_losses"] == {"army": 1} and tie.data["defender_losses"] == {"garrison": 1}
    assert tie.rule == "Phase 6: Resolve Sieges — If both sides roll the same result"
    assert tie.reason == "Muslim casualties by priority: garrisons before armies"


def test_beaten_besiegers_retreat_by_the_area_die(board: Board, state: GameState) -> None:
    """Phase 6: "the besieging force loses 1 unit (prioritize according to the combat rules)
    and retreats. Randomly select a friendly or empty area": the garrison goes first; a 5
    gives Valencia (Muslims), rolled again, a 4 gives Cuenca."""
    place(
        state,
        "Salamanca",
        [("muslim", A, 1), ("christian", A, 1), ("christian", G, 1)],
        city="muslim",
        besieger="christian",
    )
    place(state, "Toledo")
    place(state, "Cuenca")
    prompts, _ = drive(siege(board, state, "Salamanca"), [[1, 6], [5], [4]])
    lost = one(prompts, "reconquista.sieges.result")
    assert lost.data["result"] == "besieger_retreats" and lost.data["besieger_losses"] == {"garrison": 1}
    assert lost.rule == "Phase 6: Resolve Sieges — If the defender obtains a higher result"
    assert lost.reason == "Christian casualties by priority: garrisons before armies"
    die, again = (p for p in prompts if p.topic == "reconquista.sieges.retreat_area")
    assert die.data == {
        "area": "Salamanca",
        "side": "christian",
        "region": "Castilla",
        "candidates": ["Toledo", "Cuenca"],
    }
    assert again.data == die.data | {"again": True, "rejected": "Valencia"}
    assert die.rule == "Phase 6: Resolve Sieges — If the defender obtains a higher result"
    told = one(prompts, "reconquista.sieges.retreat")
    assert told.data == {
        "area": "Salamanca",
        "side": "christian",
        "units": {"army": 1},
        "to": "Cuenca",
        "via": "area_die",
        "el_cid": False,
    }


def test_a_siege_retreat_along_a_road_or_nowhere(board: Board, state: GameState) -> None:
    """Phase 6: "If there is none, then the retreat may be along a road [...] If that is not
    possible either, the entire besieging force is eliminated." At setup Castilla holds
    Muslims everywhere; an empty Christian León opens the road."""
    for leon in (True, False):
        s = initial_state(board)
        place(
            s,
            "Salamanca",
            [("muslim", A, 1), ("christian", A, 1), ("christian", G, 1)],
            city="muslim",
            besieger="christian",
        )
        if leon:
            place(s, "León", city="christian")
        prompts, _ = drive(siege(board, s, "Salamanca"), [[1, 6]])
        assert not any(p.topic == "reconquista.sieges.retreat_area" for p in prompts)
        told = one(prompts, "reconquista.sieges.retreat")
        assert (told.data["to"], told.data["via"]) == (("León", "road") if leon else (None, None))


def test_surrenders_and_a_held_city(board: Board, state: GameState) -> None:
    """Phase 6: "If the City / Fortress had no force inside [...] then it surrenders"; a tie
    that takes the last besieger leaves the city held."""
    place(state, "Cuenca", [("christian", A, 1)], city="muslim", besieger="christian")
    (told,), _ = drive(siege(board, state, "Cuenca"), [])
    assert told.topic == "reconquista.sieges.surrender"
    assert told.data == {
        "area": "Cuenca",
        "besieger": "christian",
        "defender": "muslim",
        "walls": "city",
        "units": {"army": 1},
        "after_tie": False,
    }
    assert told.rule == "Phase 6: Resolve Sieges — If the City / Fortress had no force inside"
    assert told.reason == "nobody is inside the city"

    place(state, "León", [("muslim", G, 1), ("christian", A, 2)], city="christian", besieger="christian")
    prompts, _ = drive(siege(board, state, "León"), [[1, 3]])
    told = one(prompts, "reconquista.sieges.surrender")
    assert told.data["after_tie"] is True and told.data["defender"] == "muslim"
    assert told.reason == "the city is left with no defender after a tie and is of the Christian religion"

    place(state, "Salamanca", [("muslim", G, 1), ("christian", A, 1)], city="muslim", besieger="christian")
    prompts, _ = drive(siege(board, state, "Salamanca"), [[1, 1]])
    held = one(prompts, "reconquista.sieges.held")
    assert held.data == {"area": "Salamanca", "besieger": "christian", "defender": "muslim", "walls": "city"}


def test_every_battle_and_siege_prompt_has_a_topic_and_a_rule(board: Board) -> None:
    """No prompt of these procedures is left without a topic or a rule, whatever the dice:
    a run of random engagements and sieges on the set-up board."""
    rng = random.Random(7)
    seen: set[str] = set()
    for _ in range(60):
        s = initial_state(board)
        place(
            s,
            "Toledo",
            [("muslim", A, rng.randint(1, 3)), ("muslim", G, 1), ("christian", A, rng.randint(1, 3))],
            city="muslim",
            fortress=rng.random() < 0.5,
        )
        place(s, "Cuenca")
        proc = engage(board, s, "Toledo", "christian", ["Salamanca", "Cuenca"])
        prompts = _play(proc, rng)
        if s.areas["Toledo"].besieger == "christian":
            prompts += _play(siege(board, s, "Toledo"), rng)
        for p in prompts:
            assert p.topic.startswith(("reconquista.battle.", "reconquista.sieges.")), p
            assert p.rule, p
            seen.add(p.topic)
    assert {"reconquista.battle.roll", "reconquista.battle.losses", "reconquista.sieges.roll"} <= seen


def _play(proc: battle_module.Proc, rng: Any) -> list[Prompt]:
    prompts: list[Prompt] = []
    answer: Any = None
    try:
        while True:
            p = proc.send(answer)
            prompts.append(p)
            if isinstance(p, Roll):
                answer = [rng.randint(1, p.sides) for _ in range(p.n)]
            elif isinstance(p, Choose):
                answer = rng.choice(p.options)
            else:
                answer = None
    except StopIteration:
        return prompts
