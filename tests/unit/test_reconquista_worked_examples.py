"""The rulebook's worked battle examples, played through the Phase 4 procedure the player uses.

"Example of a Simple Battle", "Example of a Complex Battle 1" and "Example of a Complex
Battle 2" (Phase 4: Movement of Armies, Battle), each played as a move of
``companion.reconquista.movement.phase``: the player selects Aragón, the origin Barcelona,
the destination Tarragona and the whole force; the dice are the example's (the Complex
Battles give only the hits: there, dice that score them); and the end state is held to the
text's last sentences: the units left in each area, the cities, who besieges, and which
Christian forces are still offered a move in that Phase 4.

The board is the set-up one, except the areas an example describes. Barcelona (a Christian
city in the set-up) holds the example's "two Christian Armies and one Christian Garrison";
Pamplona keeps its set-up Christian garrison, so that a besieging force left out of the
choices is seen to be left out (the phase goes on offering Pamplona), not just the end of
the phase. Dice are given in the order the Roll names the units (armies before garrisons:
2A1G rolls as A, A, G).
"""

from __future__ import annotations

import copy

import pytest
from procedure_helpers import drive
from reconquista_helpers import Script, chooses, place, rolls, tells

from companion.prompts import Prompt, Roll
from companion.reconquista.battle import siege, siege_order
from companion.reconquista.board import Board
from companion.reconquista.control import city_controller
from companion.reconquista.game import check_invariants
from companion.reconquista.movement import DONE, destinations, phase
from companion.reconquista.setup import initial_state
from companion.reconquista.state import GameState
from companion.reconquista.units import Kind

A, G, RA = Kind.ARMY, Kind.GARRISON, Kind.REBEL_ARMY

#: "A force of two Christian Armies and one Christian Garrison moves from Barcelona to
#: Tarragona": the region, the origin, the destination and the whole force.
MOVE: Script = ["Aragón", "Barcelona", "Tarragona", "2A1G"]


@pytest.fixture
def state(board: Board) -> GameState:
    """The set-up board with the example's Christian force in Barcelona."""
    s = initial_state(board)
    place(s, "Barcelona", [("christian", A, 2), ("christian", G, 1)], city="christian")
    return s


def origin_choices(prompts: list[Prompt]) -> list[tuple[str, ...]]:
    """The options of every "from which area?" question of the phase, in order."""
    return [c.options for c in chooses(prompts) if c.why.endswith("from which area?")]


def battle_rolls(prompts: list[Prompt]) -> list[tuple[int, str]]:
    return [(r.n, r.why) for r in rolls(prompts)]


def first_siege_prompt(board: Board, state: GameState, area: str) -> Roll:
    """What Phase 6 asks first for the siege of ``area`` (only asked, never answered: the
    state copy is thrown away)."""
    prompt = next(siege(board, copy.deepcopy(state), area))
    assert isinstance(prompt, Roll)
    return prompt


# -- Example of a Simple Battle -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("after", "left"),
    [
        ([DONE], {"Tarragona": {A: 2}, "Barcelona": {}, "Pamplona": {G: 1}}),
        (["Tarragona", "Barcelona", "2A", DONE], {"Tarragona": {}, "Barcelona": {A: 2}, "Pamplona": {G: 1}}),
        (
            ["Tarragona", "Barcelona", "1A", "Tarragona", "Pamplona", DONE],
            {"Tarragona": {}, "Barcelona": {A: 1}, "Pamplona": {A: 1, G: 1}},
        ),
    ],
    ids=["stay", "together", "separately"],
)
def test_example_of_a_simple_battle(
    board: Board, state: GameState, after: Script, left: dict[str, dict[Kind, int]]
) -> None:
    """Example of a Simple Battle: "A force of two Christian Armies and one Christian
    Garrison moves from Barcelona to Tarragona, which contains a force of two Muslim Armies
    and one Muslim Garrison. As Tarragona is not mountainous, and El Cid is not present, both
    sides roll to hit simultaneously. The Christian Garrison rolls a 5, a hit, the two
    Christian Armies roll a 3 (miss) and a 4 (hit), giving a total of 2 hits. The Muslim
    Garrison rolls a 4 (miss), while the two Muslim armies roll a 6 (hit) and a 3 (miss) for
    a total of 1 hit. The two hits of the Christian side are applied - the first unit
    eliminated, by priority, must be the Muslim garrison, while the second is one of the two
    Muslim armies. The Muslim hit is applied - the lost unit is, by priority, the Christian
    Garrison. As the Muslim force suffered more casualties, it must retreat. [...] Zaragoza
    only contains a Muslim city with no other forces present, so this retreat is possible,
    and the single remaining Muslim Army moves there. The two remaining Christian armies can
    either stay, or move together or separately to another Area."

    Played three ways: they stay; they go together to Barcelona; they go separately, one to
    Barcelona and one to Pamplona."""
    place(state, "Tarragona", [("muslim", A, 2), ("muslim", G, 1)])
    place(state, "Zaragoza", city="muslim", fortress=True)  # the set-up fortress is no force
    # Dice in Roll order: Christians A 3, A 4, G 5; Muslims A 6, A 3, G 4.
    prompts, _ = drive(phase(board, state), [*MOVE, [3, 4, 5], [6, 3, 4], *after])

    assert battle_rolls(prompts) == [
        (3, "Battle in Tarragona, round 1: Christian dice (A, A, G)"),  # simultaneous, one round
        (3, "Battle in Tarragona, round 1: Muslim dice (A, A, G)"),
    ]
    said = tells(prompts)
    assert (
        "Battle in Tarragona, round 1: Christian A 3, A 4 hit, G 5 hit: 2 hits; Muslim A 6 hit, A 3, "
        "G 4: 1 hit. Remove 1 Christian garrison; remove 1 Muslim army and 1 Muslim garrison from "
        "Tarragona." in said
    )
    assert "The Muslim force retreats: move 1 Muslim army from Tarragona to Zaragoza." in said
    # "The two remaining Christian armies can either stay, or move together or separately":
    # Tarragona is offered again, with both armies or one.
    assert origin_choices(prompts)[1] == ("Pamplona", "Tarragona", DONE)
    if len(after) > 1:
        units = [c for c in chooses(prompts) if c.why == "Move from Tarragona to Barcelona: which units?"]
        assert units[0].options == ("2A", "1A")

    zaragoza = state.areas["Zaragoza"]
    assert zaragoza.units == {"muslim": {A: 1}} and zaragoza.city == "muslim" and zaragoza.besieger is None
    for name, units in left.items():
        area = state.areas[name]
        assert area.units == ({"christian": units} if units else {}), name
        assert area.besieger is None
    assert state.areas["Tarragona"].city is None
    assert state.areas["Barcelona"].city == "christian"
    assert siege_order(board, state) == []  # nothing waits for Phase 6
    check_invariants(board, state)


# -- Example of a Complex Battle 1 ----------------------------------------------------------------


def test_example_of_a_complex_battle_1(board: Board, state: GameState) -> None:
    """Example of a Complex Battle 1: "A force of two Christian Armies and one Christian
    Garrison moves from Barcelona to Tarragona. Tarragona contains a Muslim city, with a
    Muslim Garrison, which is besieged by 2 Rebels (Neutral Armies). First, the Christian
    Armies fight the Rebel armies. If the force in the city were Christian, it would join the
    battle, but as it is Muslim, it does not. The Christians score 1 hit, and the Rebels also
    score 1 hit. One Rebel is eliminated, and the Christians lose one unit, which by order of
    priority is the Christian Garrison. As this is a tie, both sides continue the battle...
    This time the two remaining Christian armies score 2 hits, while the remaining Rebel
    misses. The remaining Rebel is eliminated. However, the Christian force must remain in
    place to besiege the city."

    Remaining in place: after the battle Tarragona is never again offered as an origin in
    this Phase 4 (Pamplona's garrison still moves, to Barcelona, and then only Barcelona is
    offered), and Phase 6 finds the Christians besieging the city."""
    place(
        state,
        "Tarragona",
        [("muslim", G, 1), ("rebel_army", RA, 2)],
        city="muslim",
        besieger="rebel_army",
    )
    battle = [[4, 1, 1], [4, 1], [5, 6], [2]]  # 1 hit each; then 2 hits against a miss
    rest = ["Pamplona", "Barcelona", DONE]  # the lone garrison: no units question
    prompts, _ = drive(phase(board, state), [*MOVE, *battle, *rest])

    assert battle_rolls(prompts) == [
        (3, "Battle in Tarragona, round 1: Christian dice (A, A, G)"),
        (2, "Battle in Tarragona, round 1: Rebel army dice (RA, RA)"),
        (2, "Battle in Tarragona, round 2: Christian dice (A, A)"),
        (1, "Battle in Tarragona, round 2: Rebel army dice (RA)"),
    ]  # the Muslim garrison in the city never rolls: "as it is Muslim, it does not"
    said = tells(prompts)
    assert (
        "Battle in Tarragona, round 1: Christian A 4 hit, A 1, G 1: 1 hit; Rebel army RA 4 hit, RA 1: "
        "1 hit. Remove 1 Christian garrison; remove 1 Rebel army from Tarragona." in said
    )
    assert (
        "The Rebel army besiegers have been destroyed: the Christian force (2 Christian armies) stays "
        "in Tarragona and besieges the city held by 1 Muslim garrison (Phase 6)." in said
    )

    # "the Christian force must remain in place": no longer offered as an origin.
    assert origin_choices(prompts) == [
        ("Pamplona", "Barcelona", DONE),  # before the move
        ("Pamplona", DONE),  # after the battle
        ("Barcelona", DONE),  # after Pamplona's garrison went to Barcelona
    ]
    assert destinations(board, state, "Tarragona") == []

    tarragona = state.areas["Tarragona"]
    assert tarragona.units == {"christian": {A: 2}, "muslim": {G: 1}}
    assert tarragona.city == "muslim" and tarragona.besieger == "christian"
    assert city_controller(tarragona) == "muslim"  # the garrison still holds the city
    assert state.areas["Barcelona"].units == {"christian": {G: 1}}
    assert state.areas["Pamplona"].units == {}
    # "to besiege the city": the siege waits for Phase 6, the Christians besieging.
    assert siege_order(board, state) == ["Tarragona"]
    assert first_siege_prompt(board, state, "Tarragona").why == (
        "Siege of Tarragona: the Christian (besieger) die, then the Muslim (defender) die"
    )
    check_invariants(board, state)


# -- Example of a Complex Battle 2 ----------------------------------------------------------------


def test_example_of_a_complex_battle_2(board: Board, state: GameState) -> None:
    """Example of a Complex Battle 2: "A force of two Christian Armies and one Christian
    Garrison moves from Barcelona to Tarragona. Tarragona contains a Muslim city, with a
    Muslim Garrison and a Muslim army. Because the city contains more than one unit, and they
    are not all garrisons, the Muslim forces fight the battle together. The Christians score
    1 hit, and the Muslims also score 1 hit. Both sides lose one unit, which by order of
    priority is the Garrison. As this is a tie, the remaining Muslim army retreats into the
    city. The Christians now have 2 Armies and the Muslims only have one army. The Christian
    force must remain in place to besiege the Muslim city"."""
    place(state, "Tarragona", [("muslim", A, 1), ("muslim", G, 1)], city="muslim")
    prompts, _ = drive(phase(board, state), [*MOVE, [4, 1, 1], [5, 1], DONE])

    assert battle_rolls(prompts) == [
        (3, "Battle in Tarragona, round 1: Christian dice (A, A, G)"),
        (2, "Battle in Tarragona, round 1: Muslim dice (A, G)"),  # "fight the battle together"
    ]  # one round only: a tie by a city ends the battle
    said = tells(prompts)
    assert (
        "Battle in Tarragona, round 1: Christian A 4 hit, A 1, G 1: 1 hit; Muslim A 5 hit, G 1: 1 hit. "
        "Remove 1 Christian garrison; remove 1 Muslim garrison from Tarragona." in said
    )
    assert (
        "The Muslim force withdraws into the city of Tarragona; the Christian force stays outside "
        "and besieges it (Phase 6)." in said
    )

    # "The Christian force must remain in place": no longer offered as an origin.
    assert origin_choices(prompts) == [("Pamplona", "Barcelona", DONE), ("Pamplona", DONE)]
    assert destinations(board, state, "Tarragona") == []

    tarragona = state.areas["Tarragona"]
    # "The Christians now have 2 Armies and the Muslims only have one army."
    assert tarragona.units == {"christian": {A: 2}, "muslim": {A: 1}}
    assert tarragona.city == "muslim" and tarragona.besieger == "christian"
    assert city_controller(tarragona) == "muslim"
    assert state.areas["Barcelona"].units == {} and state.areas["Barcelona"].city == "christian"
    assert siege_order(board, state) == ["Tarragona"]
    assert first_siege_prompt(board, state, "Tarragona").why == (
        "Siege of Tarragona: the Christian (besieger) die, then the Muslim (defender) die"
    )
    check_invariants(board, state)


def test_example_of_a_complex_battle_2_with_two_hits(board: Board, state: GameState) -> None:
    """Example of a Complex Battle 2: "(NB - if the Christians had scored 2 hits, then they
    would have eliminated the entire Muslim force and captured the city)"; Battle: "If your
    moving force eliminates the entire enemy force, and there is a city, this city is assumed
    captured (the Fortress, if any, is kept) and the moving force can continue moving."

    The same move with two Christian hits: no Muslim unit is left, nobody besieges, the
    city is under Christian control, and the two armies are offered a further move (the road
    to Valencia too: Tarragona is now a Muslim city holding a Christian army)."""
    place(state, "Tarragona", [("muslim", A, 1), ("muslim", G, 1)], city="muslim")
    prompts, _ = drive(phase(board, state), [*MOVE, [4, 4, 1], [5, 1], DONE])

    assert battle_rolls(prompts) == [
        (3, "Battle in Tarragona, round 1: Christian dice (A, A, G)"),
        (2, "Battle in Tarragona, round 1: Muslim dice (A, G)"),
    ]
    said = tells(prompts)
    assert (
        "Battle in Tarragona, round 1: Christian A 4 hit, A 4 hit, G 1: 2 hits; Muslim A 5 hit, G 1: "
        "1 hit. Remove 1 Christian garrison; remove 1 Muslim army and 1 Muslim garrison from "
        "Tarragona." in said
    )
    assert "The Muslim force is destroyed and the city of Tarragona is captured (any fortress stays)." in said

    # "the moving force can continue moving": Tarragona is still an origin.
    assert origin_choices(prompts) == [("Pamplona", "Barcelona", DONE), ("Pamplona", "Tarragona", DONE)]
    assert destinations(board, state, "Tarragona") == ["Pamplona", "Barcelona", "Zaragoza", "Valencia"]

    tarragona = state.areas["Tarragona"]
    assert tarragona.units == {"christian": {A: 2}}  # "eliminated the entire Muslim force"
    assert tarragona.city == "muslim" and tarragona.besieger is None
    assert city_controller(tarragona) == "christian"  # "and captured the city"
    assert siege_order(board, state) == []
    check_invariants(board, state)


def test_the_captured_city_is_left_by_the_road(board: Board, state: GameState) -> None:
    """The NB of Complex Battle 2 played on: "the moving force can continue moving". Phase 4:
    Armies "can move along a Road to another Region, provided that the Area they come from is
    totally free of Muslim forces (the exception being a Muslim city, provided it contains at
    least one Christian army and / or Garrison)": one army stays in the captured city and
    the other takes the road to Valencia, whose Muslim city holds one garrison ("City with 1
    Garrison: No battle"): it stops there and besieges it."""
    place(state, "Tarragona", [("muslim", A, 1), ("muslim", G, 1)], city="muslim")
    script = [*MOVE, [4, 4, 1], [5, 1], "Tarragona", "Valencia", "1A", DONE]
    prompts, _ = drive(phase(board, state), script)

    assert [c.options for c in chooses(prompts) if "which units" in c.why][-1] == ("2A", "1A")
    assert state.areas["Tarragona"].units == {"christian": {A: 1}}
    assert city_controller(state.areas["Tarragona"]) == "christian"
    valencia = state.areas["Valencia"]
    assert valencia.units == {"muslim": {G: 1}, "christian": {A: 1}} and valencia.city == "muslim"
    assert valencia.besieger == "christian"
    # Once across the road it "cannot move at all in this phase"; Tarragona's army still may.
    assert origin_choices(prompts)[-1] == ("Pamplona", "Tarragona", DONE)
    assert siege_order(board, state) == ["Valencia"]
    check_invariants(board, state)
