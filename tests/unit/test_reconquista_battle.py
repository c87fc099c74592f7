"""Reconquista battles and sieges on the board: the prompt procedures of
``companion.reconquista.battle`` (engage, battle, siege, siege_order, pick_area,
retreat_area) driven with scripted dice and choices.

Dice are given in the order the Roll's ``why`` lists the units, which is
``AreaState.force`` order (armies before garrisons: 2A1G rolls as A, A, G).
Every rule test quotes the rulebook section it holds the code to. A test checks, in the
one run, both what the board becomes and what the prompts say: their wording and their
structure (``topic``, ``data``, ``rule``, ``reason``), the values that come from the position.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from procedure_helpers import drive, drive_randomly
from reconquista_helpers import Script, Units, chooses, one, place, rolls, tells, topics

from companion.prompts import Choose, Roll, Tell
from companion.reconquista.battle import (
    BattleOutcome,
    Proc,
    engage,
    pick_area,
    retreat_area,
    siege,
    siege_order,
)
from companion.reconquista.board import Board, default_board
from companion.reconquista.control import city_controller
from companion.reconquista.movement import movable_units
from companion.reconquista.selection import About
from companion.reconquista.setup import initial_state
from companion.reconquista.state import SIDE_KINDS, SIDES, AreaState, GameState
from companion.reconquista.units import Kind

A, G, MO, R = Kind.ARMY, Kind.GARRISON, Kind.ORDER, Kind.REBEL
RA, F, MC = Kind.REBEL_ARMY, Kind.FRENCH, Kind.MERCENARY


# -- helpers ----------------------------------------------------------------------------------


def side_totals(state: GameState) -> dict[str, int]:
    return {side: sum(a.count(side) for a in state.areas.values()) for side in SIDES}


# -- the driver helper itself -----------------------------------------------------------------


def _two_rolls() -> Proc:
    first = yield Roll(1, 6, "one")
    yield Tell("between")
    second = yield Roll(1, 6, "two")
    return first + second


def test_drive_collects_prompts_and_the_return_value() -> None:
    """The helper answers Tells itself and hands back every prompt in order."""
    prompts, value = drive(_two_rolls(), [[3], [5]])
    assert [type(p).__name__ for p in prompts] == ["Roll", "Tell", "Roll"]
    assert value == [3, 5]


@pytest.mark.parametrize("script", [[[3]], [[3], [5], [6]]])
def test_drive_fails_on_too_few_or_too_many_answers(script: Script) -> None:
    """Too few answers or answers left over both fail the test."""
    with pytest.raises(pytest.fail.Exception):
        drive(_two_rolls(), script)


# -- the rulebook's worked battle examples ----------------------------------------------------


def test_example_of_a_simple_battle(board: Board, state: GameState) -> None:
    """Phase 4, Battle, "Example of a Simple Battle": "A force of two Christian Armies and
    one Christian Garrison moves from Barcelona to Tarragona, which contains a force of two
    Muslim Armies and one Muslim Garrison. [...] The Christian Garrison rolls a 5, a hit,
    the two Christian Armies roll a 3 (miss) and a 4 (hit) [...] The Muslim Garrison rolls
    a 4 (miss), while the two Muslim armies roll a 6 (hit) and a 3 (miss) [...] the single
    remaining Muslim Army moves there [Zaragoza]." Zaragoza "only contains a Muslim city
    with no other forces present". Both sides roll at once (no reason to give); the
    Christians' 2 hits take the Muslim garrison and an army, the Muslims' 1 the Christian
    garrison ("the first unit eliminated, by priority, must be the Muslim garrison"); the
    last Muslim army retreats to Zaragoza, "the highest-numbered adjacent Area" (5, 6).
    The prompts say so in their topic, data, rule and reason too."""
    place(state, "Tarragona", [("christian", A, 2), ("christian", G, 1), ("muslim", A, 2), ("muslim", G, 1)])
    place(state, "Zaragoza", city="muslim")
    # Dice in force order (A, A, G): Christians 3, 4, 5; Muslims 6, 3, 4.
    prompts, out = drive(
        engage(board, state, "Tarragona", "christian", ["Barcelona"]), [[3, 4, 5], [6, 3, 4]]
    )
    r = rolls(prompts)
    assert [(p.n, p.why) for p in r] == [
        (3, "Battle in Tarragona, round 1: Christian dice (A, A, G)"),
        (3, "Battle in Tarragona, round 1: Muslim dice (A, A, G)"),
    ]
    assert out == BattleOutcome("defender_retreats", 1, "Tarragona")
    assert state.areas["Tarragona"].units == {"christian": {A: 2}}
    assert state.areas["Zaragoza"].units == {"muslim": {A: 1}}
    assert state.areas["Zaragoza"].city == "muslim"
    said = " ".join(tells(prompts))
    # Each die with the unit that rolled it, and the hits.
    assert "Christian A 3, A 4 hit, G 5 hit: 2 hits; Muslim A 6 hit, A 3, G 4: 1 hit." in said
    assert "move 1 Muslim army from Tarragona to Zaragoza" in said
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


def test_example_of_a_complex_battle_1(board: Board, state: GameState) -> None:
    """Phase 4, Battle, "Example of a Complex Battle 1": "Tarragona contains a Muslim city,
    with a Muslim Garrison, which is besieged by 2 Rebels (Neutral Armies). First, the
    Christian Armies fight the Rebel armies. [...] as it is Muslim, it does not. The
    Christians score 1 hit, and the Rebels also score 1 hit. [...] As this is a tie, both
    sides continue the battle... This time the two remaining Christian armies score 2 hits,
    while the remaining Rebel misses. [...] the Christian force must remain in place to
    besiege the city."""
    tarragona = place(
        state,
        "Tarragona",
        [("muslim", G, 1), ("rebel_army", RA, 2), ("christian", A, 2), ("christian", G, 1)],
        city="muslim",
        besieger="rebel_army",
    )
    script = [[4, 1, 1], [4, 1], [5, 6], [2]]
    prompts, out = drive(engage(board, state, "Tarragona", "christian", ["Barcelona"]), script)
    r = rolls(prompts)
    assert [p.n for p in r] == [3, 2, 2, 1]  # the Muslim garrison never rolls
    assert all("Muslim" not in p.why for p in r)
    assert out == BattleOutcome("defender_destroyed", 2, "Tarragona")
    assert tarragona.units == {"christian": {A: 2}, "muslim": {G: 1}}
    assert tarragona.besieger == "christian"
    assert city_controller(tarragona) == "muslim"


def test_example_of_a_complex_battle_2(board: Board, state: GameState) -> None:
    """Phase 4, Battle, "Example of a Complex Battle 2": "Tarragona contains a Muslim city,
    with a Muslim Garrison and a Muslim army. [...] The Christians score 1 hit, and the
    Muslims also score 1 hit. Both sides lose one unit, which by order of priority is the
    Garrison. As this is a tie, the remaining Muslim army retreats into the city. [...] The
    Christian force must remain in place to besiege the Muslim city."""
    tarragona = place(
        state,
        "Tarragona",
        [("muslim", A, 1), ("muslim", G, 1), ("christian", A, 2), ("christian", G, 1)],
        city="muslim",
    )
    prompts, out = drive(engage(board, state, "Tarragona", "christian", ["Barcelona"]), [[4, 1, 1], [5, 1]])
    assert [p.n for p in rolls(prompts)] == [3, 2]
    assert out == BattleOutcome("defender_into_city", 1, "Tarragona")
    assert tarragona.units == {"christian": {A: 2}, "muslim": {A: 1}}
    assert tarragona.besieger == "christian"
    assert "withdraws into the city of Tarragona" in tells(prompts)[-1]


def test_example_of_a_complex_battle_2_with_two_hits_captures(board: Board, state: GameState) -> None:
    """Phase 4, Battle, "Example of a Complex Battle 2": "(NB - if the Christians had scored
    2 hits, then they would have eliminated the entire Muslim force and captured the city)"."""
    tarragona = place(
        state,
        "Tarragona",
        [("muslim", A, 1), ("muslim", G, 1), ("christian", A, 2), ("christian", G, 1)],
        city="muslim",
    )
    prompts, out = drive(engage(board, state, "Tarragona", "christian", ["Barcelona"]), [[4, 4, 1], [5, 1]])
    assert out == BattleOutcome("defender_destroyed", 1, "Tarragona")
    assert tarragona.units == {"christian": {A: 2}}
    assert tarragona.besieger is None
    assert city_controller(tarragona) == "christian"
    assert "city of Tarragona is captured" in tells(prompts)[-1]


# -- engage: battle or siege ------------------------------------------------------------------

NO_BATTLE_RULE = "Phase 4: Movement of Armies — If the enemy area has a City and / or Fortress"

#: Each example: its label, the units inside, and, when there is no battle, the no-battle
#: Tell's facts (what is inside) and reason (None when there is a battle).
SIX_EXAMPLES = [
    (
        "1 Garrison",
        [("muslim", G, 1)],
        {"garrison": 1},
        "only 1 Muslim garrison inside: a battle needs more than one enemy unit",
    ),
    (
        "2 Garrisons",
        [("muslim", G, 2)],
        {"garrison": 2},
        "no army inside (2 Muslim garrisons): a battle needs at least one",
    ),
    (
        "2 Rebels",
        [("rebel", R, 2)],
        {"Rebel": 2},
        "no army inside (2 Rebels): a battle needs at least one (Rebels are not armies)",
    ),
    (
        "1 Army",
        [("muslim", A, 1)],
        {"army": 1},
        "only 1 Muslim army inside: a battle needs more than one enemy unit",
    ),
    ("1 Garrison and 1 Army", [("muslim", G, 1), ("muslim", A, 1)], None, None),
    ("2 armies", [("muslim", A, 2)], None, None),
]


@pytest.mark.parametrize(
    ("label", "inside", "counted", "reason"), SIX_EXAMPLES, ids=[e[0] for e in SIX_EXAMPLES]
)
def test_the_six_city_examples(
    board: Board,
    state: GameState,
    label: str,
    inside: Units,
    counted: dict[str, int] | None,
    reason: str | None,
) -> None:
    """Phase 4: Movement of Armies, Examples: "City with 1 Garrison: No battle / City with 2
    Garrisons: No battle / City with 2 Rebels: No battle / City with 1 Army: No battle /
    City with 1 Garrison and 1 Army: Battle / City with 2 armies: Battle"; "Otherwise, the
    moving forces stop and wait for the Siege Phase". With no battle, the movers besiege and
    no die is rolled; the Tell names who holds the walls, what is inside, the rule, and why
    there is no battle."""
    battle = reason is None
    salamanca = place(state, "Salamanca", [*inside, ("christian", A, 2)], city="muslim")
    defenders = sum(n for _, _, n in inside)
    script: list[list[int] | str] = [[6, 6], [1] * defenders] if battle else []
    prompts, out = drive(engage(board, state, "Salamanca", "christian", ["León"]), script)
    if battle:
        assert isinstance(prompts[0], Roll)
        assert out == BattleOutcome("defender_destroyed", 1, "Salamanca")
        assert salamanca.units == {"christian": {A: 2}}
    else:
        assert rolls(prompts) == [] and chooses(prompts) == []
        assert out is None
        assert salamanca.besieger == "christian"
        (text,) = tells(prompts)
        assert text.startswith("No battle in Salamanca") and "besieges" in text
        (told,) = prompts
        assert told.topic == "reconquista.battle.no_battle"
        assert told.data == {
            "area": "Salamanca",
            "side": "christian",
            "holder": inside[0][0],
            "inside": counted,
            "walls": "city",
        }
        assert told.rule == NO_BATTLE_RULE
        assert told.reason == reason


def test_no_battle_behind_a_fortress_with_rebels_inside(board: Board, state: GameState) -> None:
    """Phase 4: "If the enemy area has a City and / or Fortress, then there may be a battle -
    this only happens if there is more than one enemy unit (Garrison or Army) and at least
    one is an army (Rebels are not armies)": two Rebels behind a fortress alone give no
    battle, and the Tell says the walls are a fortress, held by the Rebels."""
    place(state, "Cuenca", [("rebel", R, 2), ("christian", A, 1)], fortress=True)
    (told,), _ = drive(engage(board, state, "Cuenca", "christian", ["Toledo"]), [])
    assert (told.data["holder"], told.data["inside"], told.data["walls"]) == (
        "rebel",
        {"Rebel": 2},
        "fortress",
    )
    assert told.reason == "no army inside (2 Rebels): a battle needs at least one (Rebels are not armies)"


@pytest.mark.parametrize("inside", [[("muslim", G, 1)], [("rebel", R, 1)], [("muslim", A, 1)]])
def test_no_city_or_fortress_always_battle(board: Board, state: GameState, inside: Units) -> None:
    """Phase 4: Movement of Armies: "If the enemy Area has no City or Fortress then there
    will be a battle." Even one garrison or one Rebel is fought."""
    place(state, "Tarragona", [*inside, ("christian", A, 1)])
    prompts, out = drive(engage(board, state, "Tarragona", "christian", ["Barcelona"]), [[6], [1]])
    assert [p.n for p in rolls(prompts)] == [1, 1]
    assert out == BattleOutcome("defender_destroyed", 1, "Tarragona")
    assert state.areas["Tarragona"].besieger is None


def test_an_empty_enemy_city_is_besieged_then_surrenders(board: Board, state: GameState) -> None:
    """Phase 4: "Enemy forces are: [...] a Muslim city with no other units present" and
    "the moving forces stop and wait for the Siege Phase"; Phase 6: "If the City / Fortress
    had no force inside [...] then it surrenders and is captured (any Fortress present is
    kept)." (Fixed: the movers standing in the city made it look Christian-held, so no
    siege was laid.) The no-battle Tell names no holder and nothing inside."""
    toledo = place(state, "Toledo", [("christian", A, 2)], city="muslim", fortress=True)
    prompts, out = drive(engage(board, state, "Toledo", "christian", ["Salamanca"]), [])
    assert out is None
    assert toledo.besieger == "christian"
    (told,) = prompts
    assert told.topic == "reconquista.battle.no_battle"
    assert (told.data["holder"], told.data["inside"]) == (None, {})
    assert told.reason == "nobody is inside the Muslim city to give battle"
    (text,) = tells(prompts)
    assert "2 Christian armies" in text and "empty city of Toledo" in text
    prompts, won = drive(siege(board, state, "Toledo"), [])
    assert won == "besieger"
    assert rolls(prompts) == []
    assert toledo.besieger is None and toledo.fortress and toledo.city == "muslim"
    assert city_controller(toledo) == "christian"


def test_an_empty_city_of_the_movers_religion_is_not_besieged(board: Board, state: GameState) -> None:
    """ "Important Definitions": "A City without forces of either side is considered to be
    controlled by the religion of the city": an empty Christian city is no enemy for
    Christians, so entering it starts nothing."""
    leon = place(state, "León", [("christian", A, 1)], city="christian")
    prompts, out = drive(engage(board, state, "León", "christian", ["Galicia"]), [])
    assert prompts == [] and out is None
    assert leon.besieger is None


# -- battle outcomes --------------------------------------------------------------------------

BEATEN_RULE = "Phase 4: Movement of Armies — If the enemy force has hit more times than your moving force"


def test_attacker_retreats_to_its_only_origin_without_a_choice(board: Board, state: GameState) -> None:
    """Phase 4, Battle: "If the enemy force has hit more times than your moving force, your
    force must retreat to a single Area (of your choice), from which at least one of the
    units came"; with one such area there is nothing to choose: it is the only way back, and
    the retreat prompt's reason says so."""
    place(state, "Barcelona", city="christian")
    place(state, "Tarragona", [("muslim", A, 3), ("christian", A, 2)])
    prompts, out = drive(engage(board, state, "Tarragona", "christian", ["Barcelona"]), [[1, 1], [4, 1, 1]])
    assert chooses(prompts) == []
    assert out == BattleOutcome("attacker_retreats", 1, "Barcelona")
    assert state.areas["Barcelona"].units == {"christian": {A: 1}}
    assert state.areas["Tarragona"].units == {"muslim": {A: 3}}
    assert "move 1 Christian army from Tarragona to Barcelona" in tells(prompts)[-1]
    told = one(prompts, "reconquista.battle.retreat")
    assert told.data["to"] == "Barcelona" and told.reason == "the only area it came from: Barcelona"


def test_attacker_retreat_with_two_origins_is_a_choice(board: Board, state: GameState) -> None:
    """Phase 4, Battle: "your force must retreat to a single Area (of your choice), from
    which at least one of the units came (this can mean a Garrison ends up in a different
    region)": two origins are the player's choice, so the retreat prompt gives no reason."""
    place(state, "Barcelona", city="christian")
    place(state, "Valencia", [("christian", G, 1)], city="christian")
    place(state, "Tarragona", [("muslim", A, 3), ("christian", A, 1), ("christian", G, 1)])
    script: list[list[int] | str] = [[1, 1], [4, 1, 1], "Valencia"]
    prompts, out = drive(engage(board, state, "Tarragona", "christian", ["Barcelona", "Valencia"]), script)
    (choice,) = chooses(prompts)
    assert choice.options == ("Barcelona", "Valencia")
    assert out == BattleOutcome("attacker_retreats", 1, "Valencia")
    assert state.areas["Valencia"].units == {"christian": {G: 1, A: 1}}
    assert state.areas["Barcelona"].units == {}
    assert state.areas["Tarragona"].count("christian") == 0
    choice = one(prompts, "reconquista.battle.retreat_to")
    assert isinstance(choice, Choose)
    assert choice.data == {
        "area": "Tarragona",
        "side": "christian",
        "origins": ["Barcelona", "Valencia"],
        "city": False,
    }
    assert choice.rule == BEATEN_RULE
    told = one(prompts, "reconquista.battle.retreat")
    assert (told.data["role"], told.data["to"], told.data["via"]) == ("attacker", "Valencia", "origin")
    assert told.data["units"] == {"army": 1}  # the garrison fell to the first Muslim hit
    assert told.rule == BEATEN_RULE and told.reason == ""


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


def test_defender_retreat_wraps_from_granada_to_algeciras(board: Board, state: GameState) -> None:
    """Phase 4, Battle: "the enemy force moves from the battle area to the next
    higher-numbered area, that is free of hostile forces"; footnote: "as there is no area
    numbered higher than Granada, Algeciras". (Granada is mountainous: the Muslims roll first.)
    The retreat prompt names the way (the next area) and the reason says it wraps round."""
    place(state, "Granada", [("muslim", A, 2), ("christian", A, 2)])
    prompts, out = drive(engage(board, state, "Granada", "christian", ["Murcia"]), [[1, 1], [4, 1]])
    assert out == BattleOutcome("defender_retreats", 1, "Granada")
    assert state.areas["Algeciras"].units == {"muslim": {A: 1, G: 1}}
    assert state.areas["Granada"].units == {"christian": {A: 2}}
    assert "from Granada to Algeciras" in tells(prompts)[-1]
    retreat = one(prompts, "reconquista.battle.retreat")
    assert (retreat.data["to"], retreat.data["via"]) == ("Algeciras", "next_area")
    assert retreat.reason.endswith("Granada 5-6 → Algeciras 1-2, wrapping round")


def test_defender_retreat_skips_hostile_areas(board: Board, state: GameState) -> None:
    """Phase 4, Battle: the next higher-numbered area "that is free of hostile forces (Rebels
    or Christian for the Muslims [...])": Granada holds Christians, so from Murcia the
    Muslims go on, wrapping round to Algeciras."""
    place(state, "Granada", [("christian", A, 1)])
    place(state, "Murcia", [("muslim", A, 2), ("christian", A, 2)])
    assert retreat_area(board, state, "Murcia", "muslim") == "Algeciras"
    _, out = drive(engage(board, state, "Murcia", "christian", ["Córdoba"]), [[4, 1], [1, 1]])
    assert out == BattleOutcome("defender_retreats", 1, "Murcia")
    assert state.areas["Granada"].units == {"christian": {A: 1}}
    assert state.areas["Algeciras"].count("muslim", A) == 1


def _aragon_hostile_to_muslims(state: GameState) -> None:
    place(state, "Pamplona", [("christian", G, 1)])
    place(state, "Barcelona", [("christian", G, 1)], city="christian")
    place(state, "Zaragoza", [("rebel", R, 1)], city="muslim", fortress=True)


def test_defender_retreats_along_a_road_when_the_region_has_no_room(board: Board, state: GameState) -> None:
    """Phase 4, Battle: "If there is no such area, then the force may retreat along a road,
    if there is one and it leads to an area free of hostile forces." Tarragona's road leads
    to Valencia (a Muslim city with a Muslim garrison); the retreat prompt says it goes by
    the road, and why."""
    _aragon_hostile_to_muslims(state)
    place(state, "Tarragona", [("muslim", A, 2), ("christian", A, 2)])
    prompts, out = drive(engage(board, state, "Tarragona", "christian", ["Barcelona"]), [[4, 1], [1, 1]])
    assert out == BattleOutcome("defender_retreats", 1, "Tarragona")
    assert state.areas["Valencia"].units == {"muslim": {G: 1, A: 1}}
    assert "from Tarragona to Valencia" in tells(prompts)[-1]
    retreat = one(prompts, "reconquista.battle.retreat")
    assert (retreat.data["to"], retreat.data["via"], retreat.data["units"]) == (
        "Valencia",
        "road",
        {"army": 1},
    )
    assert retreat.reason == "no other area of Aragón is free of hostile forces: along the road to Valencia"


def test_defender_with_nowhere_to_retreat_is_eliminated(board: Board, state: GameState) -> None:
    """Phase 4, Battle: "If this is not possible either, the entire enemy force is eliminated."
    Valencia, at the end of Tarragona's only road, holds Christians too: Aragón is hostile
    to the Muslims everywhere, and the retreat prompt goes nowhere, by no way."""
    _aragon_hostile_to_muslims(state)
    place(state, "Valencia", [("christian", A, 1)], city="muslim")
    place(state, "Tarragona", [("muslim", A, 3), ("christian", A, 2)])
    before = side_totals(state)["muslim"]
    prompts, out = drive(engage(board, state, "Tarragona", "christian", ["Barcelona"]), [[4, 1], [1, 1, 1]])
    assert out == BattleOutcome("defender_retreats", 1, "Tarragona")
    assert state.areas["Tarragona"].units == {"christian": {A: 2}}
    assert side_totals(state)["muslim"] == before - 3
    assert "nowhere to retreat: remove 2 Muslim armies from Tarragona" in tells(prompts)[-1]
    retreat = one(prompts, "reconquista.battle.retreat")
    assert (retreat.data["to"], retreat.data["via"], retreat.data["units"]) == (None, None, {"army": 2})
    assert retreat.reason == "no area of Aragón is free of hostile forces and no road leads to one"


def test_no_road_retreat_into_a_region_in_revolt(board: Board, state: GameState) -> None:
    """Phase 1, Regional Revolt: "No one can move into it": the road to Valencia is shut
    while Castilla (region 3) is in revolt, so a beaten force with no room in its region
    is eliminated."""
    _aragon_hostile_to_muslims(state)
    state.revolt = 3
    assert retreat_area(board, state, "Tarragona", "muslim") is None
    state.revolt = None
    assert retreat_area(board, state, "Tarragona", "muslim") == "Valencia"


def test_defender_into_its_city_when_beaten(board: Board, state: GameState) -> None:
    """Phase 4, Battle: "If your moving force hits more than the enemy, then the enemy must
    retreat. If there was a city in the Area, the entire force retreats into it, and the
    moving force remains in place awaiting the Siege Phase." The Christians hit once, the
    Muslims miss: the Tell says who goes in and who besieges, under the winner's rule."""
    salamanca = place(state, "Salamanca", [("muslim", A, 3), ("christian", A, 3)], city="muslim")
    prompts, out = drive(engage(board, state, "Salamanca", "christian", ["León"]), [[4, 1, 1], [1, 1, 1]])
    assert out == BattleOutcome("defender_into_city", 1, "Salamanca")
    assert salamanca.units == {"muslim": {A: 2}, "christian": {A: 3}}
    assert salamanca.besieger == "christian"
    told = one(prompts, "reconquista.battle.into_city")
    assert told.data == {
        "area": "Salamanca",
        "side": "muslim",
        "besieger": "christian",
        "units": {"army": 2},
        "besiegers": {"army": 3},
        "tie": False,
    }
    assert told.rule == "Phase 4: Movement of Armies — If your moving force hits more than the enemy"


def test_defenders_of_a_captured_christian_city_go_into_it_on_a_tie(board: Board, state: GameState) -> None:
    """Phase 4, Battle: "If both sides inflict equal losses, if there is a city in the area,
    then the entire defending force retreats into it". The Muslims hold León (a Christian
    city): its walls are theirs. (Fixed: the Christian attackers in the area made the city
    look Christian-held, so the battle went on in the open.) Each side hits once: the Tell
    says the Muslims go in on a tie, under the tie's rule."""
    leon = place(state, "León", [("muslim", A, 1), ("muslim", G, 1), ("christian", A, 2)], city="christian")
    prompts, out = drive(engage(board, state, "León", "christian", ["Galicia"]), [[4, 1], [4, 1]])
    assert [p.n for p in rolls(prompts)] == [2, 2]
    assert out == BattleOutcome("defender_into_city", 1, "León")
    assert leon.units == {"christian": {A: 1}, "muslim": {A: 1}}
    assert leon.besieger == "christian"
    assert city_controller(leon) == "muslim"
    told = one(prompts, "reconquista.battle.into_city")
    assert told.data == {
        "area": "León",
        "side": "muslim",
        "besieger": "christian",
        "units": {"army": 1},
        "besiegers": {"army": 1},
        "tie": True,
    }
    assert told.rule == "Phase 4: Movement of Armies — If both sides inflict equal losses"


def test_defender_destroyed_city_captured_fortress_kept(board: Board, state: GameState) -> None:
    """Phase 4, Battle: "If your moving force eliminates the entire enemy force, and there is
    a city, this city is assumed captured (the Fortress, if any, is kept)"."""
    toledo = place(
        state,
        "Toledo",
        [("muslim", A, 1), ("muslim", G, 1), ("christian", A, 2)],
        city="muslim",
        fortress=True,
    )
    _, out = drive(engage(board, state, "Toledo", "christian", ["Salamanca"]), [[4, 4], [1, 1]])
    assert out == BattleOutcome("defender_destroyed", 1, "Toledo")
    assert toledo.fortress and toledo.city == "muslim" and toledo.besieger is None
    assert city_controller(toledo) == "christian"


def test_attacker_destroyed(board: Board, state: GameState) -> None:
    """Phase 4, Battle: "If one side completely eliminates the other, it does not need to
    retreat, even if it did not win the battle." The attackers wiped out stand nowhere."""
    place(state, "Tarragona", [("muslim", A, 2), ("christian", A, 1)])
    prompts, out = drive(engage(board, state, "Tarragona", "christian", ["Barcelona"]), [[1], [4, 1]])
    assert out == BattleOutcome("attacker_destroyed", 1, None)
    assert state.areas["Tarragona"].units == {"muslim": {A: 2}}
    assert "Christian force in Tarragona is destroyed" in tells(prompts)[-1]


def test_both_destroyed(board: Board, state: GameState) -> None:
    """Phase 4, Battle: "Roll a D6 for each unit [...] Hits are removed as casualties": one
    army each, both hit, nobody is left and nobody retreats."""
    place(state, "Tarragona", [("muslim", A, 1), ("christian", A, 1)])
    prompts, out = drive(engage(board, state, "Tarragona", "christian", ["Barcelona"]), [[4], [6]])
    assert out == BattleOutcome("both_destroyed", 1, None)
    assert state.areas["Tarragona"].units == {}
    assert "Both forces in Tarragona are destroyed" in tells(prompts)[-1]


def test_mercenaries_are_the_first_unit_eliminated(board: Board, state: GameState) -> None:
    """Random events, Mercenaries: "they are the first unit eliminated in a battle or siege":
    of a mercenary and an army, one Muslim hit takes the mercenary."""
    place(state, "Toledo", [("muslim", A, 2), ("christian", A, 1), ("christian", MC, 1)])
    prompts, _ = drive(engage(board, state, "Toledo", "christian", ["Salamanca"]), [[1, 1], [6, 1]])
    losses = one(prompts, "reconquista.battle.losses")
    assert losses.data["attacker_losses"] == {"mercenary": 1}
    assert losses.reason == "Christian mercenaries are the first unit eliminated"


def test_a_tie_in_the_open_is_another_round(board: Board, state: GameState) -> None:
    """Phase 4, Battle: "If both sides inflict equal losses, if there is a city [...].
    Otherwise, the battle continues: roll again to hit, as before"."""
    place(state, "Tarragona", [("muslim", A, 1), ("christian", A, 1)])
    prompts, out = drive(
        engage(board, state, "Tarragona", "christian", ["Barcelona"]), [[1], [2], [3], [3], [5], [1]]
    )
    assert [p.why.split(":")[0] for p in rolls(prompts)] == ["Battle in Tarragona, round 1"] * 2 + [
        "Battle in Tarragona, round 2"
    ] * 2 + ["Battle in Tarragona, round 3"] * 2
    assert out == BattleOutcome("defender_destroyed", 3, "Tarragona")


def test_mountain_defenders_roll_first_in_round_one_only(board: Board, state: GameState) -> None:
    """Phase 4, Battle: "except in mountainous Areas, where the enemy forces roll to hit
    first"; on a tie "this time the defenders do not hit first in a mountainous area".
    Pamplona is mountainous: the Muslims roll first, then only the surviving attackers roll
    (docs/rules-notes.md, battles reading 4): the Muslim army's hit takes one of the three
    Christian armies, and the two left roll; the second round is simultaneous, attackers
    first. The Rolls' data and reasons say who strikes first and that survivors roll."""
    place(state, "Pamplona", [("muslim", A, 2), ("christian", A, 3)])
    script = [[4, 1], [4, 1], [4, 4], [1]]
    prompts, out = drive(engage(board, state, "Pamplona", "christian", ["Oviedo"]), script)
    r = rolls(prompts)
    assert [p.n for p in r] == [2, 2, 2, 1]
    assert "Muslim dice first" in r[0].why
    assert "Christian survivors' dice" in r[1].why
    assert "round 2: Christian dice" in r[2].why and "round 2: Muslim dice" in r[3].why
    first, second = r[0], r[1]
    assert (first.data["side"], first.data["first_strike"], first.data["survivors"]) == (
        "muslim",
        "defender",
        False,
    )
    assert first.reason == "Pamplona is mountainous: the defenders strike first in the first round"
    assert (second.data["side"], second.data["units"], second.data["survivors"]) == (
        "christian",
        ["army", "army"],
        True,
    )
    assert second.reason == "only the units left after the first strike roll"
    assert out == BattleOutcome("defender_destroyed", 2, "Pamplona")
    assert state.areas["Pamplona"].units == {"christian": {A: 2}}


def test_mountain_first_strike_that_kills_everyone_asks_no_more_dice(board: Board, state: GameState) -> None:
    """Phase 4, Battle: "where the enemy forces roll to hit first": attackers all hit before
    they roll have no dice to roll."""
    place(state, "Pamplona", [("muslim", A, 2), ("christian", A, 1)])
    prompts, out = drive(engage(board, state, "Pamplona", "christian", ["Oviedo"]), [[5, 1]])
    assert [p.n for p in rolls(prompts)] == [2]
    assert out == BattleOutcome("attacker_destroyed", 1, None)


def test_el_cid_rolls_first_every_round(board: Board, state: GameState) -> None:
    """Phase 4, Battle: "or if one side has El Cid thanks to a random event"; Quick
    Reference, 8 El Cid: "Attacks first." His side rolls first in every round (docs/design.md,
    Battle), and the other side rolls with its survivors: each round after an open-field tie
    starts with his side's dice again, and the Roll says why."""
    place(state, "Tarragona", [("muslim", A, 2), ("christian", A, 2)])
    state.el_cid_area, state.el_cid_side = "Tarragona", "christian"
    script = [[4, 1], [4], [1], [1], [6]]
    prompts, out = drive(engage(board, state, "Tarragona", "christian", ["Barcelona"]), script)
    r = rolls(prompts)
    assert [p.n for p in r] == [2, 1, 1, 1, 1]
    assert [("Christian dice first" in p.why) for p in r] == [True, False, True, False, True]
    assert [(p.data["round"], p.data["side"], p.data["first_strike"]) for p in r[::2]] == [
        (1, "christian", "attacker"),
        (2, "christian", "attacker"),
        (3, "christian", "attacker"),
    ]
    assert all(p.reason == "El Cid is with the Christian side: it strikes first" for p in r[::2])
    assert out == BattleOutcome("defender_destroyed", 3, "Tarragona")


def test_el_cid_wins_over_the_mountain(board: Board, state: GameState) -> None:
    """Quick Reference, 8 El Cid: "Attacks first"; docs/design.md: "El Cid's side rolls first
    instead (El Cid wins over the mountain)". With El Cid, Christians attacking into
    mountainous Pamplona roll first."""
    place(state, "Pamplona", [("muslim", A, 1), ("christian", A, 1)])
    state.el_cid_area, state.el_cid_side = "Pamplona", "christian"
    prompts, out = drive(engage(board, state, "Pamplona", "christian", ["Oviedo"]), [[4]])
    (roll,) = rolls(prompts)
    assert "Christian dice first" in roll.why
    assert out == BattleOutcome("defender_destroyed", 1, "Pamplona")


def test_el_cid_goes_with_his_retreating_force(board: Board, state: GameState) -> None:
    """docs/design.md, El Cid: "joins a force of its side"; Phase 4, Battle: the beaten force
    "must retreat to a single Area". (Fixed: El Cid stayed behind in the battle area.)"""
    place(state, "Barcelona", city="christian")
    place(state, "Tarragona", [("muslim", A, 3), ("christian", A, 2)])
    state.el_cid_area, state.el_cid_side = "Tarragona", "christian"
    prompts, out = drive(engage(board, state, "Tarragona", "christian", ["Barcelona"]), [[1, 1], [4, 1, 1]])
    assert out == BattleOutcome("attacker_retreats", 1, "Barcelona")
    assert state.el_cid_area == "Barcelona"
    assert "El Cid goes with them to Barcelona" in tells(prompts)[-1]


def test_beaten_besiegers_who_retreat_leave_the_city_besieged(board: Board, state: GameState) -> None:
    """Phase 4, Battle, "Example of a Complex Battle 1": having beaten the Rebels besieging a
    Muslim city, "the Christian force must remain in place to besiege the city"; the same
    when the Rebels survive and retreat instead of dying. (Fixed: the Christians were left
    beside the Muslim garrison with no siege.)"""
    tarragona = place(
        state,
        "Tarragona",
        [("muslim", G, 1), ("rebel_army", RA, 3), ("christian", A, 2)],
        city="muslim",
        besieger="rebel_army",
    )
    place(state, "Zaragoza")  # an empty area: the first free of hostile forces for the Rebels
    prompts, out = drive(engage(board, state, "Tarragona", "christian", ["Barcelona"]), [[4, 1], [1, 1, 1]])
    assert out == BattleOutcome("defender_retreats", 1, "Tarragona")
    assert state.areas["Zaragoza"].units == {"rebel_army": {RA: 2}}
    assert tarragona.besieger == "christian"
    assert tarragona.units == {"christian": {A: 2}, "muslim": {G: 1}}
    assert "besieges the city held by 1 Muslim garrison" in tells(prompts)[-1]


def test_attackers_may_retreat_into_their_besieged_city(board: Board, state: GameState) -> None:
    """Phase 4, Battle: "or, if the battle involved a besieged city (only possible if Rebels
    or French are involved) the retreat may be to that city"."""
    leon = place(
        state,
        "León",
        [("christian", G, 1), ("french", F, 3), ("christian", A, 1)],
        city="christian",
        besieger="french",
    )
    script: list[list[int] | str] = [[1, 1], [4, 1, 1], "León"]
    prompts, out = drive(engage(board, state, "León", "christian", ["Galicia"]), script)
    (choice,) = chooses(prompts)
    assert choice.options == ("Galicia", "León")
    assert out == BattleOutcome("attacker_retreats", 1, "León")
    assert leon.count("christian") == 1 and leon.besieger == "french"


def test_no_retreat_into_a_besieged_city_a_third_side_holds(board: Board, state: GameState) -> None:
    """Phase 4, Battle: "the retreat may be to that city" is the beaten force's own besieged
    city, not one held by a third side: León held by a Muslim garrison and besieged by the
    French is no refuge for Christians. (Fixed: it was offered, because the Christians
    standing in the area made the Christian city look theirs.)"""
    place(
        state,
        "León",
        [("muslim", G, 1), ("french", F, 2), ("christian", A, 2)],
        city="christian",
        besieger="french",
    )
    prompts, out = drive(engage(board, state, "León", "christian", ["Galicia"]), [[1, 1], [4, 1]])
    assert chooses(prompts) == []
    assert out == BattleOutcome("attacker_retreats", 1, "Galicia")


# -- who is named: besiegers, relief ---------------------------------------------------------


def test_destroyed_besiegers_have_been_destroyed(board: Board, state: GameState) -> None:
    """Phase 4, Battle, "Example of a Complex Battle 1": the Christians destroy the Rebel
    armies besieging Tarragona, then "must remain in place to besiege the city". One Tell
    says both, in English: the besiegers "have been destroyed" (it read "have destroyed:",
    and a second Tell called them a "force" first). Its facts: the Rebels beaten, the walls,
    their Muslim holder and who is inside; its reason: the holder took no part in the battle."""
    place(
        state,
        "Tarragona",
        [("muslim", G, 1), ("rebel_army", RA, 2), ("christian", A, 2)],
        city="muslim",
        besieger="rebel_army",
    )
    prompts, out = drive(engage(board, state, "Tarragona", "christian", ["Barcelona"]), [[4, 4], [1, 1]])
    assert out == BattleOutcome("defender_destroyed", 1, "Tarragona")
    assert tells(prompts)[1:] == [
        (
            "The Rebel army besiegers have been destroyed: the Christian force (2 Christian armies) "
            "stays in Tarragona and besieges the city held by 1 Muslim garrison (Phase 6)."
        )
    ]
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


def test_destroyed_besiegers_of_an_empty_enemy_city_leave_a_siege(board: Board, state: GameState) -> None:
    """Phase 4: "Enemy forces are: [...] a Muslim city with no other units present", and the
    movers "stop and wait for the Siege Phase": the Christians who destroy the French
    besieging an empty Muslim city besiege it in turn; the French are named as the
    besiegers. (Fixed: the area forgot its besiegers once they were all dead, and the Tell
    said "The French force is destroyed and the city of Salamanca is captured".)"""
    salamanca = place(
        state, "Salamanca", [("french", F, 1), ("christian", A, 2)], city="muslim", besieger="french"
    )
    prompts, out = drive(engage(board, state, "Salamanca", "christian", ["León"]), [[4, 1], [1]])
    assert out == BattleOutcome("defender_destroyed", 1, "Salamanca")
    assert salamanca.besieger == "christian" and salamanca.units == {"christian": {A: 2}}
    assert city_controller(salamanca) == "muslim"
    (last,) = tells(prompts)[1:]
    assert last.startswith("The French besiegers have been destroyed: the Christian force")
    assert "(an empty Muslim city: it will surrender)" in last
    assert "captured" not in last


@pytest.mark.parametrize("religion", ["christian", "muslim"])
def test_christians_relieving_their_city_name_the_french_they_destroy(
    board: Board, state: GameState, religion: str
) -> None:
    """Phase 4, Battle, Complex Battle 1: "If the force in the city were Christian, it would
    join the battle." The Christians relieve León, held by their garrison (a Christian city,
    or a Muslim one they took) and besieged by the French: the French besiegers are the
    ones destroyed, the city is relieved, and nobody besieges it after. The relief prompt
    cites Complex Battle 1."""
    leon = place(
        state,
        "León",
        [("christian", G, 1), ("french", F, 2), ("christian", A, 2)],
        city=religion,
        besieger="french",
    )
    prompts, out = drive(engage(board, state, "León", "christian", ["Galicia"], [A, A]), [[4, 4, 1], [1, 1]])
    assert out == BattleOutcome("defender_destroyed", 1, "León")
    assert tells(prompts)[-1] == "The French besiegers are destroyed. The city of León is relieved."
    assert leon.besieger is None and city_controller(leon) == "christian"
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


def test_relieved_walls_are_not_besieged_by_their_own_side(board: Board, state: GameState) -> None:
    """Complex Battle 1: "If the force in the city were Christian, it would join the battle";
    Battle: the beaten French "retreat". León is a Muslim city the Christians hold with a
    garrison: once the French have gone it is theirs, relieved. (Fixed: the Christians were
    told to besiege it, "an empty Muslim city: it will surrender", their own garrison inside.)"""
    leon = place(
        state,
        "León",
        [("christian", G, 1), ("french", F, 2), ("christian", A, 2)],
        city="muslim",
        besieger="french",
    )
    place(state, "Santiago")  # the next area free of hostile forces, for the French retreat
    prompts, out = drive(engage(board, state, "León", "christian", ["Galicia"], [A, A]), [[4, 1, 1], [1, 1]])
    assert out == BattleOutcome("defender_retreats", 1, "León")
    assert state.areas["Santiago"].units == {"french": {F: 1}}
    assert leon.besieger is None and leon.units == {"christian": {A: 2, G: 1}}
    assert tells(prompts)[-1] == (
        "The French besiegers retreat: move 1 French army from León to Santiago. The city of León is relieved."
    )
    assert not any("besieges" in t for t in tells(prompts))


def test_a_relief_of_empty_walls_destroyed_names_no_defenders(board: Board, state: GameState) -> None:
    """Phase 4, Battle: "If one side completely eliminates the other, it does not need to
    retreat". The Christians come to relieve the empty Christian city of León and are
    destroyed: only they are, there were no defenders inside, and the French siege goes on."""
    leon = place(state, "León", [("french", F, 2), ("christian", A, 1)], city="christian", besieger="french")
    prompts, out = drive(engage(board, state, "León", "christian", ["Galicia"]), [[1], [6, 1]])
    assert out == BattleOutcome("attacker_destroyed", 1, None)
    assert tells(prompts)[-1] == (
        "The Christian force is destroyed; the French siege of the empty city of León goes on."
    )
    assert leon.besieger == "french"


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


@pytest.mark.parametrize("fortress", [False, True])
def test_a_second_attack_that_destroys_the_defenders_captures_the_city_and_ends_the_siege(
    board: Board, state: GameState, fortress: bool
) -> None:
    """Phase 4, Battle: "If your moving force eliminates the entire enemy force, and there is a
    city, this city is assumed captured (the Fortress, if any, is kept) and the moving force can
    continue moving." A first attack on Salamanca tied: the Muslim army and garrison went into
    the city and 2 Christian armies besiege it. A second force of 2 armies comes in: the four
    destroy both defenders. Salamanca is captured, the siege is over: the Christians there are
    free to move on in this phase, and the city is theirs (no surrender for Phase 6)."""
    sal = place(
        state,
        "Salamanca",
        [("muslim", A, 1), ("muslim", G, 1), ("christian", A, 4)],
        city="muslim",
        fortress=fortress,
        besieger="christian",
    )
    prompts, out = drive(
        engage(board, state, "Salamanca", "christian", ["Toledo"], [A, A]), [[6, 6, 1, 1], [1, 1]]
    )
    assert out == BattleOutcome("defender_destroyed", 1, "Salamanca")
    assert sal.besieger is None and sal.units == {"christian": {A: 4}}
    assert city_controller(sal) == "christian" and sal.fortress is fortress
    gone = one(prompts, "reconquista.battle.destroyed")
    assert gone.data["captured"] is True and gone.data["siege_over"] is True
    assert tells(prompts)[-1] == (
        "The Muslim force is destroyed and the city of Salamanca is captured (any fortress stays). The siege is over."
    )
    assert movable_units(state, "Salamanca") == {A: 4}
    assert siege_order(board, state) == []


@pytest.mark.parametrize(("religion", "over"), [("christian", True), ("muslim", False)])
def test_a_relief_destroyed_with_the_walls_own_defenders(
    board: Board, state: GameState, religion: str, over: bool
) -> None:
    """Phase 5: "the forces of the Muslim City join the battle"; Battle: "If one side
    completely eliminates the other, it does not need to retreat". Important Definitions: "A
    City without forces of either side is considered to be controlled by the religion of the
    city." The Muslims hold León with a garrison and 2 Christian armies besiege it; a Muslim
    army comes to relieve it, and it and the garrison are destroyed. If León is a Christian
    city, it is now under Christian control: nobody besieges walls their own side controls,
    and Phase 6 has no surrender to tell. If it is a Muslim city, the empty city stays
    besieged (an enemy force: it surrenders in Phase 6)."""
    leon = place(
        state,
        "León",
        [("muslim", G, 1), ("christian", A, 2), ("muslim", A, 1)],
        city=religion,
        besieger="christian",
    )
    prompts, out = drive(
        engage(board, state, "León", "muslim", ["Galicia"], [A], into_walls=True), [[1, 1], [6, 6]]
    )
    assert out == BattleOutcome("attacker_destroyed", 1, None)
    assert leon.units == {"christian": {A: 2}}
    assert (leon.besieger is None) is over and city_controller(leon) == religion
    gone = one(prompts, "reconquista.battle.destroyed")
    assert gone.data["siege_over"] is over
    if over:
        assert tells(prompts)[-1] == (
            "The Muslim force and the Muslim units inside are destroyed; the Christian city of León now "
            "stands with the Christian force alone: it is under Christian control, and no siege is left there."
        )
        assert gone.rule.startswith("Important Definitions — A City without forces of either side")
        assert siege_order(board, state) == []
    else:
        assert tells(prompts)[-1].endswith("the Christian siege of the city of León goes on.")
        assert siege_order(board, state) == ["León"]


# -- sieges ------------------------------------------------------------------------------------


def test_siege_order(board: Board, state: GameState) -> None:
    """Phase 6: Resolve Sieges: "starting with the lowest-numbered area in the lowest-numbered
    Region, then proceed through all the areas in the Region in numerical order before
    moving on to the second lowest-numbered Region"."""
    for name in ("Granada", "Valencia", "Salamanca", "Barcelona"):
        state.areas[name].add("christian", A)
        state.areas[name].besieger = "christian"
    assert siege_order(board, state) == ["Barcelona", "Salamanca", "Valencia", "Granada"]
    state.areas["Valencia"].besieger = None
    assert siege_order(board, state) == ["Barcelona", "Salamanca", "Granada"]


@pytest.mark.parametrize(("die", "sacked"), [(3, True), (2, False)])
def test_an_even_result_is_the_die_with_its_modifiers(
    board: Board, state: GameState, die: int, sacked: bool
) -> None:
    """Phase 6: "Roll a D6 for the besieging force. Apply the following modifiers"; "If both
    sides roll the same result [...]"; "On an even result, the City is also eliminated". A
    result is the die with its modifiers, in both sentences: besiegers 2 armies and a garrison
    (+5) win at Salamanca (a Muslim city, 1 garrison: +2) with an odd die 3 (result 8, even):
    the city is sacked; with an even die 2 (result 7, odd) it is spared."""
    sal = place(
        state,
        "Salamanca",
        [("muslim", G, 1), ("christian", A, 2), ("christian", G, 1)],
        city="muslim",
        besieger="christian",
    )
    prompts, won = drive(siege(board, state, "Salamanca"), [[die, 1]])
    assert won == "besieger"
    result = prompts[-1]
    assert result.data["besieger_total"] == die + 5 and result.data["sacked"] is sacked
    assert sal.city == (None if sacked else "muslim")


@pytest.mark.parametrize(("die", "sacked"), [(2, True), (3, False)])
def test_besieger_wins_sacked_on_an_even_die(board: Board, state: GameState, die: int, sacked: bool) -> None:
    """Phase 6: "If the besieger beats the defender's roll, all defenders are eliminated, as
    well as any Fortress, if present. On an even result, the City is also eliminated"
    (the besieger's result: the die and its modifiers, as "If both sides roll the same result"
    reads it; docs/design.md: "the die with its modifiers"). Besiegers 3A +6; Toledo 1G, city and
    fortress: (1 + 1) x 2 = +4 (Phase 6: the besieger +2 an army; the defender +1 the city,
    +1 a garrison, doubled by the fortress). The siege Roll carries the sides and the
    modifiers; the result Tell the totals, the losses, and why the city is sacked or not."""
    toledo = place(
        state,
        "Toledo",
        [("muslim", G, 1), ("christian", A, 3)],
        city="muslim",
        fortress=True,
        besieger="christian",
    )
    prompts, won = drive(siege(board, state, "Toledo"), [[die, 1]])
    assert won == "besieger"
    assert toledo.units == {"christian": {A: 3}}
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
        "besieger_total": die + 6,
        "defender_total": 5,
        "outcome": "besieger",
        "result": "sacked" if sacked else "captured",
    }
    assert result.data["defender_losses"] == {"garrison": 1} and result.data["sacked"] is sacked
    assert result.data["fortress_destroyed"] is True
    assert result.rule == "Phase 6: Resolve Sieges — If the besieger beats the defender's roll"
    assert result.reason == (
        "the besiegers' result is even (8, the die with its modifiers): the city is sacked and destroyed"
        if sacked
        else "the besiegers' result is odd (9, the die with its modifiers): the city is spared"
    )
    assert toledo.besieger is None and not toledo.fortress
    assert toledo.city == (None if sacked else "muslim")
    text = tells(prompts)[-1]
    # The arithmetic written out: die + each modifier, the fortress doubling the defence.
    assert (
        f"Christian {die} (die) + 6 (3 armies) = {die + 6} against Muslim 1 (die) + [1 (city) + 1 (1 garrison)] x 2 (fortress) = 5"
        in text
    )
    won = (
        "The besiegers win: remove 1 Muslim garrison (every defender is eliminated) and the fortress "
        "(it is destroyed) from Toledo."
    )
    if sacked:
        # What is left is said once, and never "take the city" beside "sacks the city".
        assert text.endswith(
            f"{won} Their result is even (8): the city is sacked and destroyed: remove the city of Toledo. "
            "Toledo is left with no city and no fortress; the Christian force (3 Christian armies) stays there."
        )
        assert "takes" not in text and "take " not in text
    else:
        assert text.endswith(
            f"{won} Their result is odd (9): the city is spared; the Christian force (3 Christian armies) "
            "takes the city of Toledo."
        )
        assert "sacked" not in text


def _castilla_for_a_siege(state: GameState) -> AreaState:
    """Salamanca: a Muslim city with a Muslim army, besieged by a Christian army and garrison."""
    return place(
        state,
        "Salamanca",
        [("muslim", A, 1), ("christian", A, 1), ("christian", G, 1)],
        city="muslim",
        besieger="christian",
    )


def test_defender_wins_besiegers_lose_one_and_retreat_by_the_area_die(board: Board, state: GameState) -> None:
    """Phase 6: "If the defender obtains a higher result, then the besieging force loses 1
    unit (prioritize according to the combat rules) and retreats. Randomly select a friendly
    or empty area (it cannot be an area with another siege present)." Castilla: Valencia
    holds Muslims, Toledo and Cuenca are empty; a 5 picks Valencia, so the die is rolled
    again and the 4 picks Cuenca. Besiegers 1 + 3 = 4 against 6 + 3 = 9; the garrison goes
    first. The area die's Rolls carry the region and the candidates, the second the face
    rejected; the retreat Tell says where and by which way."""
    salamanca = _castilla_for_a_siege(state)
    place(state, "Toledo")
    place(state, "Cuenca")
    prompts, won = drive(siege(board, state, "Salamanca"), [[1, 6], [5], [4]])
    assert won == "defender"
    r = rolls(prompts)
    assert [p.n for p in r] == [2, 1, 1]
    assert r[2].why.endswith("rolled again (a 5 gave Valencia, which holds enemy forces)")
    assert "a 5 gave" not in r[1].why
    assert state.areas["Cuenca"].units == {"christian": {A: 1}}  # the garrison was lost
    assert salamanca.units == {"muslim": {A: 1}} and salamanca.besieger is None
    said = tells(prompts)
    assert "remove 1 Christian garrison from Salamanca" in said[0]
    assert "move 1 Christian army from Salamanca to Cuenca" in said[1]
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


def test_siege_retreat_avoids_an_area_with_another_siege(board: Board, state: GameState) -> None:
    """Phase 6: the besiegers retreat to a friendly or empty area: "it cannot be an area with
    another siege present". Valencia, an empty Muslim city besieged by Christians, has no
    enemy unit but is refused; Cuenca is taken on the next roll (Toledo, empty, would do too)."""
    _castilla_for_a_siege(state)
    place(state, "Toledo")
    place(state, "Cuenca")
    place(state, "Valencia", [("christian", A, 1)], city="muslim", besieger="christian")
    prompts, won = drive(siege(board, state, "Salamanca"), [[1, 6], [6], [4]])
    assert won == "defender"
    assert "a 6 gave Valencia, which has another siege" in rolls(prompts)[2].why
    assert state.areas["Cuenca"].units == {"christian": {A: 1}}
    assert state.areas["Valencia"].units == {"christian": {A: 1}}


def test_siege_retreat_along_a_road_when_no_area_qualifies(board: Board, state: GameState) -> None:
    """Phase 6: "If there is none, then the retreat may be along a road, if present, provided
    it leads to a friendly / empty area." No area of Castilla qualifies (no area die is
    rolled); Salamanca's roads lead to León (empty Christian city) and Badajoz (Muslims).
    The retreat Tell says it goes by the road."""
    _castilla_for_a_siege(state)
    place(state, "León", city="christian")
    prompts, won = drive(siege(board, state, "Salamanca"), [[1, 6]])
    assert won == "defender"
    assert [p.n for p in rolls(prompts)] == [2]
    assert state.areas["León"].units == {"christian": {A: 1}}
    assert "from Salamanca to León" in tells(prompts)[-1]
    assert not any(p.topic == "reconquista.sieges.retreat_area" for p in prompts)
    told = one(prompts, "reconquista.sieges.retreat")
    assert (told.data["to"], told.data["via"]) == ("León", "road")


def test_siege_retreat_nowhere_eliminates_the_besiegers(board: Board, state: GameState) -> None:
    """Phase 6: "If that is not possible either, the entire besieging force is eliminated."
    At setup every area of Castilla and at both ends of Salamanca's roads holds Muslims:
    no area die, and the retreat Tell goes nowhere, by no way."""
    salamanca = _castilla_for_a_siege(state)
    prompts, won = drive(siege(board, state, "Salamanca"), [[1, 6]])
    assert won == "defender"
    assert salamanca.units == {"muslim": {A: 1}}
    assert side_totals(state)["christian"] == side_totals(initial_state(board))["christian"]
    assert "nowhere to go: remove 1 Christian army from Salamanca" in tells(prompts)[-1]
    assert not any(p.topic == "reconquista.sieges.retreat_area" for p in prompts)
    told = one(prompts, "reconquista.sieges.retreat")
    assert (told.data["to"], told.data["via"]) == (None, None)


def test_siege_retreat_takes_el_cid_along(board: Board, state: GameState) -> None:
    """docs/design.md, El Cid: "joins a force of its side" and gets "+2 in sieges"; Phase 6: the
    beaten besiegers retreat, and he with them. (Fixed: he stayed at the siege.) Besiegers
    1 + 3 + 2 = 6 against 6 + 3 = 9."""
    _castilla_for_a_siege(state)
    place(state, "Cuenca")
    state.el_cid_area, state.el_cid_side = "Salamanca", "christian"
    prompts, won = drive(siege(board, state, "Salamanca"), [[1, 6]])  # Cuenca, the only area: no roll
    assert won == "defender"
    assert state.el_cid_area == "Cuenca"
    assert "El Cid goes with them to Cuenca" in tells(prompts)[-1]


def test_a_tie_costs_each_side_a_unit_and_the_siege_goes_on(board: Board, state: GameState) -> None:
    """Phase 6: "If both sides roll the same result, then both sides lose 1 unit (prioritize
    according to the combat rules) and the siege continues; roll the dice again."
    Besiegers 2A +4 against Salamanca's city, garrison and army +4: 3 + 4 = 3 + 4, a tie.
    Then 1A +2 against the city and the army +3: 6 + 2 beats 1 + 3, and the even result (8)
    sacks the city. The second Roll is roll 2, after a tie, with the survivors' modifiers
    (+2 against +3); the tie's Tell gives the losses and why the garrison went first."""
    salamanca = place(
        state,
        "Salamanca",
        [("muslim", A, 1), ("muslim", G, 1), ("christian", A, 2)],
        city="muslim",
        besieger="christian",
    )
    prompts, won = drive(siege(board, state, "Salamanca"), [[3, 3], [6, 1]])
    assert won == "besieger"
    assert [p.n for p in rolls(prompts)] == [2, 2]
    said = tells(prompts)
    assert "a tie. Remove 1 Christian army and 1 Muslim garrison from Salamanca" in said[0]
    assert "= 8 against Muslim" in said[1] and said[1].split(" against ")[1].split(".")[0].endswith("= 4")
    assert salamanca.city is None and salamanca.units == {"christian": {A: 1}}
    assert said[1].endswith(
        "Their result is even (8): the city is sacked and destroyed: remove the city of Salamanca. "
        "Salamanca is left with no city; the Christian force (1 Christian army) stays there."
    )
    first, second = rolls(prompts)
    assert (first.data["roll"], first.data["after_tie"]) == (1, False)
    assert (second.data["roll"], second.data["after_tie"]) == (2, True)
    assert (second.data["besieger_modifier"], second.data["defender_modifier"]) == (2, 3)
    assert all(p.data["area"] == "Salamanca" for p in (first, second))
    tie = next(p for p in prompts if p.topic == "reconquista.sieges.result")
    assert tie.data["outcome"] == "tie" and tie.data["result"] == "continue"
    assert tie.data["besieger_losses"] == {"army": 1} and tie.data["defender_losses"] == {"garrison": 1}
    assert tie.rule == "Phase 6: Resolve Sieges — If both sides roll the same result"
    assert tie.reason == "Muslim casualties by priority: garrisons before armies"


@pytest.mark.parametrize("fortress_only", [False, True])
def test_nobody_inside_surrenders_without_a_roll(board: Board, state: GameState, fortress_only: bool) -> None:
    """Phase 6: "If the City / Fortress had no force inside [...] then it surrenders and is
    captured (any Fortress present is kept)". The surrender Tell names the walls and the
    besiegers, and says nobody is inside."""
    walls = "fortress" if fortress_only else "city"
    cuenca = place(
        state,
        "Cuenca",
        [("christian", A, 1)],
        city=None if fortress_only else "muslim",
        fortress=True,
        besieger="christian",
    )
    prompts, won = drive(siege(board, state, "Cuenca"), [])
    assert won == "besieger"
    assert rolls(prompts) == []
    assert cuenca.fortress and cuenca.besieger is None
    (text,) = tells(prompts)
    assert "Cuenca" in text and "surrenders to the Christian force (1 Christian army)" in text
    (told,) = prompts
    assert told.topic == "reconquista.sieges.surrender"
    assert told.data == {
        "area": "Cuenca",
        "besieger": "christian",
        "defender": "muslim",
        "walls": walls,
        "units": {"army": 1},
        "after_tie": False,
    }
    assert told.rule == "Phase 6: Resolve Sieges — If the City / Fortress had no force inside"
    assert told.reason == f"nobody is inside the {walls}"


def test_a_city_of_the_besiegers_religion_emptied_by_a_tie_surrenders(board: Board, state: GameState) -> None:
    """Phase 6: "If the City / Fortress had no force inside, or if it is of the same religion
    as the attacker and now lacks units, then it surrenders and is captured". León is a
    Christian city held by a Muslim garrison: 1 + 4 = 3 + 2, a tie; the garrison is lost, and
    the surrender Tell says why: after a tie, and of the Christian religion."""
    leon = place(
        state, "León", [("muslim", G, 1), ("christian", A, 2)], city="christian", besieger="christian"
    )
    prompts, won = drive(siege(board, state, "León"), [[1, 3]])
    assert won == "besieger"
    assert [p.n for p in rolls(prompts)] == [2]
    assert leon.units == {"christian": {A: 1}} and leon.besieger is None and leon.city == "christian"
    assert "surrenders to the Christian force (1 Christian army)" in tells(prompts)[-1]
    # The sentence starts with the place and keeps its name as the map spells it (it read
    # "The city of león" when str.capitalize lower-cased the rest).
    assert tells(prompts)[-1].startswith("The city of León has no defenders left")
    told = one(prompts, "reconquista.sieges.surrender")
    assert told.data["after_tie"] is True and told.data["defender"] == "muslim"
    assert told.reason == "the city is left with no defender after a tie and is of the Christian religion"


def test_an_enemy_city_emptied_by_a_tie_fights_on_alone(board: Board, state: GameState) -> None:
    """Phase 6: only a city "of the same religion as the attacker and now lacks units"
    surrenders after a tie: an emptied Muslim city rolls again, +1 for itself. Salamanca 1G:
    1 + 4 = 3 + 2, a tie; then 5 + 2 beats 1 + 1, captured on the odd die."""
    salamanca = place(
        state, "Salamanca", [("muslim", G, 1), ("christian", A, 2)], city="muslim", besieger="christian"
    )
    prompts, won = drive(siege(board, state, "Salamanca"), [[1, 3], [5, 1]])
    assert won == "besieger"
    assert [p.n for p in rolls(prompts)] == [2, 2]
    assert "Christian 5 (die) + 2 (1 army) = 7 against Muslim 1 (die) + 1 (city) = 2" in tells(prompts)[-1]
    assert salamanca.city == "muslim" and city_controller(salamanca) == "christian"


def test_taking_a_city_nobody_defends_names_only_what_is_removed(board: Board, state: GameState) -> None:
    """Phase 6: "If the besieger beats the defender's roll, all defenders are eliminated, as
    well as any Fortress, if present." Cuenca's Muslim city and fortress, its garrison lost
    in a tie, fight on alone (+1 doubled) and lose: only the fortress comes off. (Fixed: the
    instruction read "remove nobody and the fortress".) Ties: 1 + 4 = 1 + 4; then
    5 + 2 beats 1 + 2."""
    cuenca = place(
        state,
        "Cuenca",
        [("muslim", G, 1), ("christian", A, 2)],
        city="muslim",
        fortress=True,
        besieger="christian",
    )
    prompts, won = drive(siege(board, state, "Cuenca"), [[1, 1], [5, 1]])
    assert won == "besieger"
    assert cuenca.city == "muslim" and not cuenca.fortress
    text = tells(prompts)[-1]
    assert "The besiegers win: remove the fortress (it is destroyed) from Cuenca." in text
    assert "nobody" not in text and "defender" not in text


def test_a_fortress_alone_taken_is_destroyed(board: Board, state: GameState) -> None:
    """Phase 6: "all defenders are eliminated, as well as any Fortress, if present": a
    fortress without a city, taken, is gone; the Tell says the area is left without it
    (nothing is "taken" and nothing can be sacked). 4 + 2 beats 1 + [1] x 2."""
    cuenca = place(
        state, "Cuenca", [("muslim", G, 1), ("christian", A, 1)], fortress=True, besieger="christian"
    )
    prompts, won = drive(siege(board, state, "Cuenca"), [[4, 1]])
    assert won == "besieger"
    assert not cuenca.fortress and cuenca.city is None and cuenca.units == {"christian": {A: 1}}
    assert tells(prompts)[-1].endswith(
        "The besiegers win: remove 1 Muslim garrison (every defender is eliminated) and the fortress "
        "(it is destroyed) from Cuenca. Cuenca is left with no fortress; the Christian force "
        "(1 Christian army) stays there."
    )


def test_a_tie_that_takes_the_last_besieger_holds_the_city(board: Board, state: GameState) -> None:
    """Phase 6: "both sides lose 1 unit [...] and the siege continues": with no besieger
    left there is nobody to continue (docs/rules-notes.md, battles reading 16). 1 + 2 = 1 + 2:
    a tie that takes the last besieger leaves the city held, and the Tell says so."""
    salamanca = place(
        state, "Salamanca", [("muslim", G, 1), ("christian", A, 1)], city="muslim", besieger="christian"
    )
    prompts, won = drive(siege(board, state, "Salamanca"), [[1, 1]])
    assert won == "defender"
    assert salamanca.units == {} and salamanca.besieger is None
    assert "city of Salamanca holds" in tells(prompts)[-1]
    held = one(prompts, "reconquista.sieges.held")
    assert held.data == {"area": "Salamanca", "besieger": "christian", "defender": "muslim", "walls": "city"}


def test_every_siege_tell_names_the_area_and_the_units(board: Board, state: GameState) -> None:
    """Phase 6: Resolve Sieges, carried out at the table: each instruction names the area
    and the counters to remove or move, so the board can follow it."""
    place(state, "Cuenca")
    salamanca = place(
        state,
        "Salamanca",
        [("muslim", A, 1), ("christian", A, 2), ("christian", G, 1)],
        city="muslim",
        besieger="christian",
    )
    # 3 + 5 = 5 + 3, a tie; then 1 + 4 < 6 + 1: the besiegers lose an army and retreat to
    # Cuenca, the only friendly or empty area of Castilla (no area die).
    prompts, won = drive(siege(board, state, "Salamanca"), [[3, 5], [1, 6]])
    assert won == "defender" and salamanca.units == {}
    said = tells(prompts)
    assert len(said) == 4
    assert all("Salamanca" in t for t in said)
    assert "1 Christian garrison and 1 Muslim army" in said[0]
    assert "remove 1 Christian army" in said[1]
    assert "only Cuenca qualifies" in said[2]
    assert "move 1 Christian army from Salamanca to Cuenca" in said[3]


# -- pick_area ---------------------------------------------------------------------------------


def test_pick_area_with_nothing_qualifying_rolls_nothing(board: Board) -> None:
    """Phase 6: "If there is none, then the retreat may be along a road": with no area to
    pick, no area die is asked for."""
    about = About("reconquista.sieges.retreat_area")
    prompts, out = drive(
        pick_area(board, 2, lambda name: False, "pick", title="Pick", only="none", about=about), []
    )
    assert prompts == [] and out is None


@pytest.mark.parametrize(
    ("face", "area"),
    [(1, "Pamplona"), (2, "Pamplona"), (3, "Barcelona"), (4, "Tarragona"), (5, "Zaragoza"), (6, "Zaragoza")],
)
def test_pick_area_maps_faces_by_the_map(board: Board, face: int, area: str) -> None:
    """Phase 4, Example of a Simple Battle: "Tarragona has order 4, and the highest-numbered
    adjacent Area is Zaragoza (order 5, 6)": area numbers are die faces (docs/design.md: Aragón
    is Pamplona 1-2, Barcelona 3, Tarragona 4, Zaragoza 5-6)."""
    about = About("reconquista.sieges.retreat_area", {"region": "Aragón"})
    prompts, out = drive(
        pick_area(board, 2, lambda name: True, "Area die", title="Pick", only="any", about=about), [[face]]
    )
    assert out == area
    aragon = ["Pamplona", "Barcelona", "Tarragona", "Zaragoza"]
    assert rolls(prompts) == [
        Roll(
            1,
            6,
            "Area die",
            topic="reconquista.sieges.retreat_area",
            data={"region": "Aragón", "candidates": aragon},
        )
    ]


def test_pick_area_carries_the_callers_topic_data_and_rule(board: Board) -> None:
    """The caller says what the selection is (``selection.About``): each Roll and the Tell of
    the only candidate carry its topic, its data and its rule, with what the selection adds."""
    about = About("reconquista.rebellions.area", {"region": "Al-Ándalus"}, "Phase 1: Rebellions")
    qualifies = {"Córdoba", "Granada"}.__contains__
    prompts, _ = drive(
        pick_area(board, 5, qualifies, "Area die", title="Pick", only="two", about=about), [[1], [3]]
    )
    first, again = rolls(prompts)
    assert (
        (first.topic, first.rule)
        == (again.topic, again.rule)
        == ("reconquista.rebellions.area", "Phase 1: Rebellions")
    )
    assert first.data == {"region": "Al-Ándalus", "candidates": ["Córdoba", "Granada"]}
    assert again.data == first.data | {"again": True, "rejected": "Algeciras"}
    prompts, _ = drive(
        pick_area(board, 5, "Granada".__eq__, "Area die", title="Pick", only="one", about=about), []
    )
    (only,) = prompts
    assert isinstance(only, Tell) and only.topic == "reconquista.rebellions.area"
    assert only.data == {"region": "Al-Ándalus", "picked": "Granada", "only": True}


def test_pick_area_names_the_only_area_without_a_roll(board: Board) -> None:
    """docs/rules-notes.md, "Random selections": "randomly select" an area by the die, rolled
    again on an area that does not qualify: with one area qualifying, every roll would end
    on it, so none is asked. Granada has two faces (5 and 6) but is one candidate."""
    prompts, out = drive(
        pick_area(
            board,
            5,
            lambda name: name == "Granada",
            "Area die",
            title="Pick",
            only="an area with a city",
            about=About("reconquista.sieges.retreat_area"),
        ),
        [],
    )
    assert out == "Granada"
    assert rolls(prompts) == []
    assert tells(prompts) == ["Pick: only Granada qualifies (an area with a city): no roll needed."]


def test_pick_area_with_two_areas_rolls_until_one_comes_up(board: Board) -> None:
    """The same with two areas (Córdoba 3, Granada 5-6): the physical procedure stays, the
    die is rolled and rolled again on a face that does not qualify (a 1: Algeciras)."""
    qualifies = {"Córdoba", "Granada"}.__contains__
    about = About("reconquista.sieges.retreat_area")
    prompts, out = drive(
        pick_area(board, 5, qualifies, "Area die", title="Pick", only="two", about=about), [[1], [6]]
    )
    assert out == "Granada"
    assert [p.why for p in rolls(prompts)] == [
        "Area die",
        "Area die, rolled again (a 1 gave Algeciras, which does not qualify)",
    ]
    assert tells(prompts) == []


def test_a_siege_retreat_with_one_area_to_go_to_rolls_no_die(board: Board, state: GameState) -> None:
    """Phase 6: "Randomly select a friendly or empty area (it cannot be an area with another
    siege present)": in Castilla only Cuenca is empty (Toledo and Valencia hold Muslims), so
    the besiegers go there without an area die (docs/rules-notes.md, "Random selections")."""
    _castilla_for_a_siege(state)
    place(state, "Cuenca")
    prompts, won = drive(siege(board, state, "Salamanca"), [[1, 6]])
    assert won == "defender"
    assert [p.n for p in rolls(prompts)] == [2]  # the siege dice only
    assert (
        "Retreat of the Christian besiegers of Salamanca: only Cuenca qualifies (a friendly or empty "
        "area of Castilla with no other siege): no roll needed."
    ) in tells(prompts)
    assert state.areas["Cuenca"].units == {"christian": {A: 1}}


# -- property: any small engagement ends cleanly ---------------------------------------------


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
        prompts, _ = drive_randomly(engage(board, s, "Toledo", "christian", ["Salamanca", "Cuenca"]), rng)
        if s.areas["Toledo"].besieger == "christian":
            prompts += drive_randomly(siege(board, s, "Toledo"), rng)[0]
        for p in prompts:
            assert p.topic.startswith(("reconquista.battle.", "reconquista.sieges.")), p
            assert p.rule, p
            seen.add(p.topic)
    assert {"reconquista.battle.roll", "reconquista.battle.losses", "reconquista.sieges.roll"} <= seen


MOVERS = ("christian", "muslim", "rebel_army", "french")


@dataclass(frozen=True)
class Engagement:
    attacker: str
    defender: str
    area: str
    att: list[Kind]
    dfn: list[Kind]
    city: str | None
    fortress: bool
    holder: str | None
    held: list[Kind]
    seed: int


@st.composite
def engagements(draw: st.DrawFn) -> Engagement:
    """An area with a force of ``attacker`` just moved in and one of ``defender``: in the
    open, by walls the defenders hold, or (``holder`` set) besieging a city that a third
    side holds with 0-2 units, as in "Complex Battle 1"."""
    attacker = draw(st.sampled_from(MOVERS))
    defender = draw(st.sampled_from([s for s in SIDES if s != attacker]))
    area = draw(st.sampled_from(default_board().all_areas()))
    att = draw(st.lists(st.sampled_from(sorted(SIDE_KINDS[attacker])), min_size=1, max_size=4))
    dfn = draw(st.lists(st.sampled_from(sorted(SIDE_KINDS[defender])), min_size=1, max_size=4))
    city = draw(st.sampled_from([None, "christian", "muslim"]))
    fortress = draw(st.booleans())
    thirds = [s for s in ("christian", "muslim") if s not in (attacker, defender)]
    holder = draw(st.sampled_from([None, *thirds]))
    held = draw(st.lists(st.sampled_from([A, G]), max_size=2)) if holder else []
    if holder:
        city = holder
    seed = draw(st.integers(0, 2**32 - 1))
    return Engagement(attacker, defender, area, att, dfn, city, fortress, holder, held, seed)


def check_board(state: GameState) -> None:
    for name, area in state.areas.items():
        for side, by_kind in area.units.items():
            assert by_kind, f"{name}: an empty entry for {side}"
            assert all(n > 0 for n in by_kind.values()), f"{name}: {side} {by_kind}"
        if area.besieger is not None:
            assert area.count(area.besieger) > 0, f"{name}: besieged by {area.besieger} with no unit"


@pytest.mark.slow
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(engagements())
def test_any_small_engagement_ends_cleanly(case: Engagement) -> None:
    """Phase 4, Battle and Phase 6, Resolve Sieges, as a whole: whatever the forces, the
    walls and the dice, a battle (and any siege it leads to) ends, leaves no empty or
    negative unit count, no besieger without units, and gives no side a unit it did not have."""
    board = default_board()
    state = initial_state(board)
    name, attacker, defender = case.area, case.attacker, case.defender
    area = place(state, name, city=case.city, fortress=case.fortress)
    for k in case.held:
        area.add(case.holder or "", k)
    for k in case.dfn:
        area.add(defender, k)
    if case.holder:
        area.besieger = defender
    for k in case.att:
        area.add(attacker, k)
    origins = [board.next_area(name), *list(board.roads[name][:1])]
    before = side_totals(state)
    rng = random.Random(case.seed)

    _, out = drive_randomly(engage(board, state, name, attacker, origins), rng)
    assert out is None or isinstance(out, BattleOutcome)
    check_board(state)
    if state.areas[name].besieger is not None:
        _, won = drive_randomly(siege(board, state, name), rng)
        assert won in ("besieger", "defender")
        assert state.areas[name].besieger is None
        check_board(state)
    after = side_totals(state)
    assert all(after[s] <= before[s] for s in SIDES), (before, after)
    # Every battle ends with a loss and every siege roll costs a unit: someone lost one.
    assert sum(after.values()) < sum(before.values())
