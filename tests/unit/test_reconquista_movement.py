"""Reconquista Phase 4, "Movement of Armies": ``companion.reconquista.movement``.

The region choice, moves inside the region, roads (armies only, only from areas free of
Muslim forces, with the Muslim-city exception, never into the region in revolt), the
stop on entering enemy forces and the battle or siege that follows, moving on after a
battle, El Cid going along, and the step budget. Every rule test quotes the rulebook section
it holds the code to. What every Phase 4 of a whole game (random answers too) must keep is
checked in tests/games/test_reconquista_whole_games.py.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from procedure_helpers import drive
from reconquista_helpers import Units, chooses, place, rolls, tells, topics

from companion.prompts import Choose, Tell, prompt_from_dict
from companion.reconquista.board import Board
from companion.reconquista.game import check_invariants
from companion.reconquista.movement import (
    DESTINATION_TOPIC,
    DONE,
    EL_CID_GOES,
    MAX_MOVES,
    MOVABLE,
    NO_MOVEMENT,
    ORIGIN_TOPIC,
    REGION_TOPIC,
    UNITS_TOPIC,
    destinations,
    movable_regions,
    movable_units,
    parts,
    phase,
    spec,
    sub_forces,
)
from companion.reconquista.setup import initial_state
from companion.reconquista.state import GameState
from companion.reconquista.units import Kind, parse_spec

A, G, MO, R = Kind.ARMY, Kind.GARRISON, Kind.ORDER, Kind.REBEL
MC, CR = Kind.MERCENARY, Kind.CRUSADER


# -- helpers ------------------------------------------------------------------------------------------


def empty(state: GameState, *names: str) -> None:
    """Clear these areas: no city, no fortress, no unit."""
    for name in names:
        place(state, name)


# -- selecting the region ---------------------------------------------------------------------


def test_select_a_region_with_christian_forces(board: Board, state: GameState) -> None:
    """Phase 4: "Select a single region. Only the Christian Armies, Garrisons and Military
    Orders in this Region may move." At the start only Asturias (Oviedo) and Aragón
    (Pamplona) hold Christian units; "No movement" is always offered."""
    prompts, _ = drive(phase(board, state), [NO_MOVEMENT])
    (asked,) = chooses(prompts)
    assert asked.options == ("Asturias", "Aragón", NO_MOVEMENT)
    assert tells(prompts) == ["Phase 4: no movement this turn."]
    assert state.snapshot() == initial_state(board).snapshot()


def test_region_in_revolt_is_not_offered(board: Board, state: GameState) -> None:
    """Phase 1, result 6, Regional Revolt: "This entire region is excluded from the game for
    this entire turn." Its Christians do not move."""
    state.revolt = 1
    assert movable_regions(board, state) == [2]
    prompts, _ = drive(phase(board, state), [NO_MOVEMENT])
    assert chooses(prompts)[0].options == ("Aragón", NO_MOVEMENT)


def test_no_christian_force_no_question(board: Board, state: GameState) -> None:
    """Phase 4 with no Christian unit anywhere: nothing to select, the phase says so."""
    for a in state.areas.values():
        a.units.pop("christian", None)
    prompts, _ = drive(phase(board, state), [])
    assert tells(prompts) == ["Phase 4: no Christian force can move this turn."]


def test_only_the_selected_regions_units_move(board: Board, state: GameState) -> None:
    """Phase 4: "Armies, Garrisons and Military Orders in other regions cannot move at all in
    this phase": with Aragón selected, Oviedo (Asturias) is never offered."""
    prompts, _ = drive(phase(board, state), ["Aragón", DONE])
    origins = chooses(prompts)[1]
    assert origins.options == ("Pamplona", DONE)
    assert origins.why == "Move 1 in Aragón: from which area?"


# -- inside the region ------------------------------------------------------------------------


def test_garrison_moves_to_any_area_of_the_region(board: Board, state: GameState) -> None:
    """Phase 4: "Garrisons can move to any area of the same region." Not only the next one:
    Pamplona's garrison may go to Barcelona, Tarragona or Zaragoza, and no road is offered."""
    empty(state, "Tarragona")
    prompts, _ = drive(phase(board, state), ["Aragón", "Pamplona", "Tarragona", DONE])
    assert chooses(prompts)[2].options == ("Barcelona", "Tarragona", "Zaragoza")
    assert state.areas["Tarragona"].units == {"christian": {G: 1}}
    assert "Move 1 Christian garrison from Pamplona to Tarragona." in tells(prompts)


def test_every_move_is_told(board: Board, state: GameState) -> None:
    """Every board change is told: "Move 2 Christian armies from Oviedo to Pamplona." (a
    road move of the whole army force, the garrison staying)."""
    place(state, "Oviedo", [("christian", A, 2), ("christian", G, 1)], city="christian")
    empty(state, "Pamplona")
    prompts, _ = drive(phase(board, state), ["Asturias", "Oviedo", "Pamplona", "2A", DONE])
    assert "Move 2 Christian armies from Oviedo to Pamplona." in tells(prompts)
    assert chooses(prompts)[3].options == ("2A", "1A")
    assert state.areas["Pamplona"].units == {"christian": {A: 2}}
    assert state.areas["Oviedo"].units == {"christian": {G: 1}}


def test_sub_forces_are_listed_largest_first(board: Board, state: GameState) -> None:
    """Phase 4: "Armies and Garrisons may move together or separately": every part of the
    force may go, written as a SPEC, largest first."""
    assert sub_forces({A: 2, G: 1}) == ["2A1G", "2A", "1A1G", "1A", "1G"]
    assert sub_forces({G: 1, MO: 1}) == ["1G1MO", "1G", "1MO"]
    place(state, "Oviedo", [("christian", A, 2), ("christian", G, 1)], city="christian")
    empty(state, "Galicia")
    prompts, _ = drive(phase(board, state), ["Asturias", "Oviedo", "Galicia", "1A1G", DONE])
    assert chooses(prompts)[3].options == ("2A1G", "2A", "1A1G", "1A", "1G")
    assert chooses(prompts)[3].why == "Move from Oviedo to Galicia: which units?"


@pytest.mark.slow
def test_every_part_of_a_force_is_offered_once_largest_first() -> None:
    """Phase 4, "Armies and Garrisons may move together or separately": for random forces
    of every movable kind, the parts are every non-empty choice of so many units of each
    kind, each once, none larger than the force, largest first; each SPEC reads back as its
    part."""
    rng = random.Random(3)
    for _ in range(300):
        units = {k: rng.randint(1, 4) for k in rng.sample(MOVABLE, rng.randint(1, len(MOVABLE)))}
        got = parts(units)
        expected_count = 1
        for n in units.values():
            expected_count *= n + 1
        assert len(got) == expected_count - 1
        assert len({spec(p) for p in got}) == len(got)
        for p in got:
            assert p and all(0 < n <= units[k] for k, n in p.items())
            assert Counter(parse_spec(spec(p))) == Counter(p)
        sizes = [sum(p.values()) for p in got]
        assert sizes == sorted(sizes, reverse=True)
        assert sub_forces(units) == [spec(p) for p in got]


def test_units_may_move_again_inside_the_region(board: Board, state: GameState) -> None:
    """Phase 4, Battle: "the moving force can continue moving": a force that moved inside
    the region may move again (Oviedo to Santiago, then Santiago to León)."""
    empty(state, "Santiago", "León")
    prompts, _ = drive(
        phase(board, state),
        ["Asturias", "Oviedo", "Santiago", "1A1G", "Santiago", "León", "1A1G", DONE],
    )
    assert state.areas["León"].units == {"christian": {A: 1, G: 1}}
    assert chooses(prompts)[4].options[0] == "Santiago"


def test_no_origin_left_ends_the_phase(board: Board, state: GameState) -> None:
    """When no unit of the selected region can still move, the phase ends (told)."""
    empty(state, "Pamplona")
    place(state, "Oviedo", [("christian", A, 1)], city="christian")
    prompts, _ = drive(phase(board, state), ["Asturias", "Oviedo", "Pamplona"])
    assert tells(prompts)[-1] == "No Christian unit in Asturias can move any more: Phase 4 ends."


# -- roads ------------------------------------------------------------------------------------


def test_garrisons_never_take_a_road(board: Board, state: GameState) -> None:
    """Phase 4: "Garrisons cannot move to another region." From Oviedo (1 army, 1 garrison)
    the road to Pamplona takes only the army, and a lone garrison sees no road at all."""
    empty(state, "Pamplona")
    prompts, _ = drive(phase(board, state), ["Asturias", "Oviedo", "Pamplona", DONE])
    assert chooses(prompts)[2].options == ("Santiago", "Galicia", "León", "Pamplona")
    assert state.areas["Pamplona"].units == {"christian": {A: 1}}  # no Choose: 1A was the only force
    assert state.areas["Oviedo"].units == {"christian": {G: 1}}
    assert destinations(board, state, "Oviedo") == ["Santiago", "Galicia", "León"]


@pytest.mark.parametrize("kind", [A, MO, MC, CR])
def test_army_like_units_take_roads(board: Board, state: GameState, kind: Kind) -> None:
    """Phase 4: "Armies can move to any area of the same region. In addition, they can move
    along a Road to another Region". Hired mercenaries and crusaders are armies (docs/design.md);
    a Military Order is army-like (rules-notes, battles reading 1)."""
    place(state, "León", [("christian", kind, 1)], city="christian")
    assert destinations(board, state, "León") == [
        "Santiago",
        "Oviedo",
        "Galicia",
        "Salamanca",
    ]


@pytest.mark.parametrize(
    ("units", "city", "besieger", "road"),
    [
        ([("christian", A, 1), ("muslim", A, 1)], "muslim", "muslim", False),  # besieged by Muslims
        ([("christian", A, 1), ("muslim", A, 1)], None, None, False),
        ([("christian", A, 1)], "muslim", None, True),  # the Muslim-city exception
        (
            [("christian", A, 1), ("rebel", R, 1)],
            "christian",
            "rebel",
            True,
        ),  # Rebels are not Muslims
    ],
)
def test_roads_only_from_areas_free_of_muslim_forces(
    board: Board,
    state: GameState,
    units: Units,
    city: str | None,
    besieger: str | None,
    road: bool,
) -> None:
    """Phase 4: Armies may take a road "provided that the Area they come from is totally free
    of Muslim forces (the exception being a Muslim city, provided it contains at least one
    Christian army and / or Garrison)"."""
    place(state, "León", units, city=city, besieger=besieger)
    assert ("Salamanca" in destinations(board, state, "León")) is road
    assert "Oviedo" in destinations(board, state, "León")  # inside the region, always


def test_no_road_into_the_region_in_revolt(board: Board, state: GameState) -> None:
    """Phase 1, Regional Revolt: "No one can move into it". The road from León to Salamanca
    is closed while Castilla is in revolt."""
    place(state, "León", [("christian", A, 1)], city="christian")
    state.revolt = 3
    assert destinations(board, state, "León") == ["Santiago", "Oviedo", "Galicia"]


def test_a_unit_that_took_a_road_moves_no_more(board: Board, state: GameState) -> None:
    """Phase 4: "Armies, Garrisons and Military Orders in other regions cannot move at all in
    this phase". An army that went to Pamplona is no longer offered."""
    empty(state, "Pamplona")
    empty(state, "Galicia")
    prompts, _ = drive(phase(board, state), ["Asturias", "Oviedo", "Pamplona", "Oviedo", "Galicia", DONE])
    assert chooses(prompts)[3].options == ("Oviedo", DONE)
    assert state.areas["Pamplona"].units == {"christian": {A: 1}}


def test_a_force_beaten_back_across_a_road_may_move_again(board: Board, state: GameState) -> None:
    """Phase 4, Battle: beaten, "your force must retreat to a single Area [...] from which at
    least one of the units came [...] This battle is over, but the moving force can continue
    moving (including to the same Area from which it retreated, for another battle)." Back in
    the selected region, the army that took the road to Pamplona and lost may take it again."""
    place(state, "Oviedo", [("christian", A, 2), ("christian", G, 1)], city="christian")
    place(state, "Pamplona", [("muslim", A, 2)])  # mountainous: the Muslims roll first
    lose = ["Asturias", "Oviedo", "Pamplona", "2A", [4, 1], [1]]
    again = ["Oviedo", "Pamplona", [1, 1], [6]]  # the road takes the army alone: no units question
    prompts, _ = drive(phase(board, state), [*lose, *again, DONE])
    assert "The Christian force retreats: move 1 Christian army from Pamplona to Oviedo." in tells(prompts)
    # After the retreat the army is offered the road again.
    assert chooses(prompts)[5].options == ("Santiago", "Galicia", "León", "Pamplona")
    assert state.areas["Pamplona"].units["christian"] == {A: 1}


# -- entering enemy forces --------------------------------------------------------------------


def test_entering_enemy_forces_stops_and_gives_battle(board: Board, state: GameState) -> None:
    """Phase 4: "If the moving force enters an area that contains enemy forces, it must stop
    [...] If the enemy Area has no City or Fortress then there will be a battle." The
    Muslim garrison of Santiago is fought at once."""
    place(state, "Oviedo", [("christian", A, 2)], city="christian")
    prompts, _ = drive(phase(board, state), ["Asturias", "Oviedo", "Santiago", "2A", [6, 1], [1], DONE])
    assert [r.why for r in rolls(prompts)] == [
        "Battle in Santiago, round 1: Christian dice (A, A)",
        "Battle in Santiago, round 1: Muslim dice (G)",
    ]
    assert state.areas["Santiago"].units == {"christian": {A: 2}}


def test_entering_a_defended_city_may_be_a_siege(board: Board, state: GameState) -> None:
    """Phase 4: "If the enemy area has a City and / or Fortress, then there may be a battle -
    this only happens if there is more than one enemy unit [...] Otherwise, the moving
    forces stop and wait for the Siege Phase." León's city holds 1 Muslim garrison."""
    prompts, _ = drive(phase(board, state), ["Asturias", "Oviedo", "León", "1A", DONE])
    assert rolls(prompts) == []
    assert state.areas["León"].besieger == "christian"
    assert any(t.startswith("No battle in León") for t in tells(prompts))


def test_an_empty_muslim_city_is_entered_and_besieged(board: Board, state: GameState) -> None:
    """Phase 4: "Enemy forces are: [...] a Muslim city with no other units present": the
    movers stop and besiege it (judged before they stand in it)."""
    place(state, "Galicia", city="muslim")
    prompts, _ = drive(phase(board, state), ["Asturias", "Oviedo", "Galicia", "1A", DONE])
    assert state.areas["Galicia"].besieger == "christian"
    assert any("besieges the empty city of Galicia" in t for t in tells(prompts))


def test_the_force_moves_on_after_a_battle(board: Board, state: GameState) -> None:
    """Phase 4, Battle: "If your moving force eliminates the entire enemy force [...] the
    moving force can continue moving." After beating Santiago's garrison the armies go on
    to Galicia."""
    place(state, "Oviedo", [("christian", A, 2)], city="christian")
    empty(state, "Galicia")
    script = [
        "Asturias",
        "Oviedo",
        "Santiago",
        "2A",
        [6, 1],
        [1],
        "Santiago",
        "Galicia",
        "2A",
        DONE,
    ]
    prompts, _ = drive(phase(board, state), script)
    assert state.areas["Galicia"].units == {"christian": {A: 2}}
    assert "Move 2 Christian armies from Santiago to Galicia." in tells(prompts)


def test_the_beaten_force_may_attack_again(board: Board, state: GameState) -> None:
    """Phase 4, Battle: the beaten force retreats to its origin; "This battle is over, but the
    moving force can continue moving (including to the same Area from which it retreated,
    for another battle)." Inside the region, nothing stops it."""
    place(state, "Oviedo", [("christian", A, 2)], city="christian")
    place(state, "Santiago", [("muslim", A, 2)])
    lose = ["Asturias", "Oviedo", "Santiago", "2A", [1, 1], [6, 1]]
    again = ["Oviedo", "Santiago", [6], [1, 1]]  # 1A alone: no units question
    prompts, _ = drive(phase(board, state), [*lose, *again, DONE])
    assert "The Christian force retreats: move 1 Christian army from Santiago to Oviedo." in tells(prompts)
    assert state.areas["Santiago"].units == {"christian": {A: 1}}


def test_besiegers_stay_in_place_until_the_siege_phase(board: Board, state: GameState) -> None:
    """Phase 4: "Otherwise, the moving forces stop and wait for the Siege Phase"; Battle: "the
    moving force remains in place awaiting the Siege Phase"; Example of a Complex Battle 1:
    "the Christian force must remain in place to besiege the city". Christians besieging
    León are not offered as an origin; the other Christians of the region still move."""
    place(
        state,
        "León",
        [("christian", A, 2), ("muslim", G, 1)],
        city="muslim",
        besieger="christian",
    )
    empty(state, "Galicia")
    prompts, _ = drive(phase(board, state), ["Asturias", "Oviedo", "Galicia", "1A", DONE])
    assert chooses(prompts)[1].options == ("Oviedo", DONE)
    assert destinations(board, state, "León") == []
    leon = state.areas["León"]
    assert leon.besieger == "christian" and leon.units == {"christian": {A: 2}, "muslim": {G: 1}}


def test_a_force_that_stops_to_besiege_moves_no_more(board: Board, state: GameState) -> None:
    """The same, for a force that stopped this very phase: 1 army into León (1 Muslim garrison
    in its city: "City with 1 Garrison: No battle") besieges it and is not offered again."""
    prompts, _ = drive(phase(board, state), ["Asturias", "Oviedo", "León", "1A", DONE])
    assert state.areas["León"].besieger == "christian"
    assert chooses(prompts)[4].options == ("Oviedo", DONE)  # León is not an origin
    assert chooses(prompts)[4].why == "Move 2 in Asturias: from which area?"


def test_defenders_may_leave_a_besieged_city(board: Board, state: GameState) -> None:
    """Phase 4 forbids no move out of a besieged city: its garrison may leave; the besiegers
    then stand before an empty city, which surrenders to them in Phase 6 ("If the City /
    Fortress had no force inside [...] then it surrenders")."""
    leon = place(
        state,
        "León",
        [("christian", G, 1), ("muslim", A, 1)],
        city="christian",
        besieger="muslim",
    )
    empty(state, "Galicia")
    prompts, _ = drive(phase(board, state), ["Asturias", "León", "Galicia", DONE])
    assert chooses(prompts)[2].why == "The units of León go to which area?"
    assert leon.units == {"muslim": {A: 1}} and leon.besieger == "muslim"
    assert "Move 1 Christian garrison from León to Galicia." in tells(prompts)
    check_invariants(board, state)


@pytest.mark.parametrize("religion", ["muslim", "christian"])
def test_relieving_walls_the_christians_hold_frees_them_whatever_the_citys_religion(
    board: Board, state: GameState, religion: str
) -> None:
    """Example of a Complex Battle 1: "If the force in the city were Christian, it would join
    the battle"; Important Definitions: "A City is under Christian control if it contains
    Christian forces [...] It does not matter whether the City itself is Muslim or Christian."
    A Christian garrison holds León (a Muslim city they took, or a Christian one), besieged by 2
    French armies; 2 armies come from Galicia. The garrison joins the battle, the French are
    destroyed, León is relieved: nobody besieges it, and the relief may move on (it was
    "besieging" its own garrison's city when the Muslim one was taken)."""
    leon = place(
        state, "León", [("christian", G, 1), ("french", Kind.FRENCH, 2)], city=religion, besieger="french"
    )
    place(state, "Galicia", [("christian", A, 2)])
    prompts, _ = drive(phase(board, state), ["Asturias", "Galicia", "León", "2A", [4, 4, 1], [1, 1], DONE])
    check_invariants(board, state)
    relief = [p for p in prompts if p.topic == "reconquista.battle.relief"]
    assert len(relief) == 1 and relief[0].data["joined"] is True
    assert not [p for p in prompts if p.topic == "reconquista.battle.besiege"]
    assert "The French besiegers are destroyed. The city of León is relieved." in tells(prompts)
    assert leon.besieger is None and leon.units == {"christian": {A: 2, G: 1}}
    assert movable_units(state, "León") == {A: 2, G: 1}


# -- El Cid -----------------------------------------------------------------------------------


def test_el_cid_goes_with_the_last_units(board: Board, state: GameState) -> None:
    """docs/design.md, El Cid: "joins a force of its side": when every Christian unit leaves his
    area, he goes with them (no question)."""
    empty(state, "Galicia")
    state.el_cid_area, state.el_cid_side = "Oviedo", "christian"
    prompts, _ = drive(phase(board, state), ["Asturias", "Oviedo", "Galicia", "1A1G", DONE])
    assert state.el_cid_area == "Galicia"
    assert (
        "Move 1 Christian army and 1 Christian garrison from Oviedo to Galicia. El Cid goes with them."
        in tells(prompts)
    )
    assert len(chooses(prompts)) == 5


@pytest.mark.parametrize(
    ("answer", "where"),
    [(EL_CID_GOES, "Galicia"), ("El Cid stays in Oviedo", "Oviedo")],
)
def test_el_cid_with_units_staying_behind_is_a_choice(
    board: Board, state: GameState, answer: str, where: str
) -> None:
    """docs/design.md, El Cid: "the player chooses for the Christians": with units staying in his
    area, the player says whether he goes with the moving force."""
    empty(state, "Galicia")
    state.el_cid_area, state.el_cid_side = "Oviedo", "christian"
    prompts, _ = drive(phase(board, state), ["Asturias", "Oviedo", "Galicia", "1A", answer, DONE])
    asked = chooses(prompts)[4]
    assert asked.options == (EL_CID_GOES, "El Cid stays in Oviedo")
    assert state.el_cid_area == where


def test_el_cid_leads_the_attack(board: Board, state: GameState) -> None:
    """Quick Reference, event 8, El Cid: "Attacks first." Moving with the force into enemy
    forces, he makes the Christians roll first."""
    state.el_cid_area, state.el_cid_side = "Oviedo", "christian"
    place(state, "Oviedo", [("christian", A, 1)], city="christian")
    prompts, _ = drive(phase(board, state), ["Asturias", "Oviedo", "Santiago", [6], DONE])
    assert rolls(prompts)[0].why == "Battle in Santiago, round 1: Christian dice first (A)"
    assert state.el_cid_area == "Santiago"


def test_a_muslim_el_cid_never_moves_with_christians(board: Board, state: GameState) -> None:
    """El Cid joins a force of his side only."""
    empty(state, "Galicia")
    state.el_cid_area, state.el_cid_side = "Oviedo", "muslim"
    drive(phase(board, state), ["Asturias", "Oviedo", "Galicia", "1A1G", DONE])
    assert state.el_cid_area == "Oviedo"


# -- the step budget --------------------------------------------------------------------------


def test_the_phase_ends_after_the_step_budget(board: Board, state: GameState) -> None:
    """A step budget (not in the rulebook): after MAX_MOVES moves in one phase the phase
    ends, told, so a careless player or bot cannot play one phase for ever."""
    place(state, "Oviedo", [("christian", G, 1)], city="christian")
    place(state, "Santiago")
    place(state, "Pamplona", city="christian")
    script: list[list[int] | str] = ["Asturias"]
    for i in range(MAX_MOVES):
        script += ["Oviedo", "Santiago"] if i % 2 == 0 else ["Santiago", "Oviedo"]
    prompts, _ = drive(phase(board, state), script)
    assert (
        tells(prompts)[-1] == f"Phase 4 ends after {MAX_MOVES} moves (a limit that keeps every game finite)."
    )
    assert state.areas["Oviedo"].units == {"christian": {G: 1}}
    assert MAX_MOVES == 200


# -- topics and facts -------------------------------------------------------------------------
# Every prompt of the phase says what it is (companion/prompts.py): the bot, the screens and the
# statistics read the topic and the facts, never the wording.

RULE = "Phase 4: Movement of Armies"


def test_a_road_move_gives_its_region_origin_destination_and_units(board: Board, state: GameState) -> None:
    """Phase 4: "In addition, they can move along a Road to another Region". With Pamplona
    emptied only Asturias can move; 2 of Oviedo's armies take the road to Pamplona and the
    garrison stays, so a second move is asked. Every prompt survives the log unchanged."""
    place(state, "Oviedo", [("christian", A, 2), ("christian", G, 1)], city="christian")
    empty(state, "Pamplona")
    prompts, _ = drive(phase(board, state), ["Asturias", "Oviedo", "Pamplona", "2A", DONE])
    assert topics(prompts) == [
        REGION_TOPIC,
        ORIGIN_TOPIC,
        DESTINATION_TOPIC,
        UNITS_TOPIC,
        "reconquista.movement.move",
        ORIGIN_TOPIC,
    ]
    region, first, dest, units, move, second = prompts
    assert region.data == {"regions": ["Asturias"], "done": True}  # "No movement" last: d takes it
    assert region.rule == f"{RULE} — Select a single region"
    assert first.data == {"region": "Asturias", "move": 1, "done": True}  # "Done" last: d takes it
    assert dest.data == {"origin": "Oviedo"}
    assert units.data == {"origin": "Oviedo", "destination": "Pamplona"}
    assert units.rule == f"{RULE} — In addition, they can move along a Road to another Region"
    assert move.data == {
        "origin": "Oviedo",
        "destination": "Pamplona",
        "units": {"A": 2},
        "road": True,
        "el_cid": False,
        "enemy": False,
    }
    assert second.data == {"region": "Asturias", "move": 2, "done": True}
    assert all(prompt_from_dict(p.to_dict()) == p for p in prompts)


def test_a_move_inside_the_region_counts_each_kind(board: Board, state: GameState) -> None:
    """Phase 4: "Armies and Garrisons may move together or separately": a move of 1 army and
    1 garrison inside Asturias gives both counts and no road."""
    empty(state, "Galicia")
    prompts, _ = drive(phase(board, state), ["Asturias", "Oviedo", "Galicia", "1A1G", DONE])
    (units,) = [p for p in prompts if p.topic == UNITS_TOPIC]
    assert units.rule == f"{RULE} — Armies and Garrisons may move together or separately"
    (move,) = [p for p in prompts if p.topic == "reconquista.movement.move"]
    assert move.data["units"] == {"A": 1, "G": 1}
    assert move.data["road"] is False
    assert move.rule == f"{RULE} — Armies can move to any area of the same region"


def test_el_cid_and_an_attack_say_so(board: Board, state: GameState) -> None:
    """Phase 4: "If the moving force enters an area that contains enemy forces, it must stop":
    the army that goes to Santiago (its Muslim garrison) with El Cid, the garrison staying in
    Oviedo, is told as a move into enemy forces with El Cid; the El Cid question names both
    areas and the units that move (the screen shows the odds with him and without him)."""
    state.el_cid_area, state.el_cid_side = "Oviedo", "christian"
    prompts, _ = drive(phase(board, state), ["Asturias", "Oviedo", "Santiago", "1A", EL_CID_GOES, [6], DONE])
    (cid,) = [p for p in prompts if p.topic == "reconquista.movement.el_cid"]
    assert isinstance(cid, Choose)
    assert cid.data == {"origin": "Oviedo", "destination": "Santiago", "units": {"A": 1}}
    assert cid.rule == "Quick Reference Sheet — 8 El Cid"
    (move,) = [p for p in prompts if p.topic == "reconquista.movement.move"]
    assert move.data == {
        "origin": "Oviedo",
        "destination": "Santiago",
        "units": {"A": 1},
        "road": False,
        "el_cid": True,
        "enemy": True,
    }
    assert (
        move.rule == f"{RULE} — If the moving force enters an area that contains enemy forces, it must stop"
    )


def test_the_tells_that_end_the_phase_have_their_topics(board: Board, state: GameState) -> None:
    """Phase 4 ends told: no force can move, no movement chosen, no unit left to move (after
    one move in Asturias), the step budget."""
    prompts, _ = drive(phase(board, state), [NO_MOVEMENT])
    assert prompts[-1].topic == "reconquista.movement.no_movement"

    empty(state, "Pamplona")
    place(state, "Oviedo", [("christian", A, 1)], city="christian")
    prompts, _ = drive(phase(board, state), ["Asturias", "Oviedo", "Pamplona"])
    last = prompts[-1]
    assert isinstance(last, Tell)
    assert (last.topic, last.data) == ("reconquista.movement.none_left", {"region": "Asturias", "moves": 1})

    for a in state.areas.values():
        a.units.pop("christian", None)
    prompts, _ = drive(phase(board, state), [])
    assert topics(prompts) == ["reconquista.movement.nothing_movable"]


def test_the_step_budget_tell_gives_the_moves(board: Board, state: GameState) -> None:
    """The step budget's Tell (not in the rulebook) gives the region and the moves made."""
    place(state, "Oviedo", [("christian", G, 1)], city="christian")
    place(state, "Santiago")
    script: list[list[int] | str] = ["Asturias"]
    for i in range(MAX_MOVES):
        script += ["Oviedo", "Santiago"] if i % 2 == 0 else ["Santiago", "Oviedo"]
    prompts, _ = drive(phase(board, state), script)
    origins = [p for p in prompts if p.topic == ORIGIN_TOPIC]
    assert [p.data["move"] for p in origins] == list(range(1, MAX_MOVES + 1))
    assert (prompts[-1].topic, prompts[-1].data) == (
        "reconquista.movement.limit",
        {"region": "Asturias", "moves": MAX_MOVES},
    )
