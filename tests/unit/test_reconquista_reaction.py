"""Reconquista Phase 5, the Muslim reaction (companion/reconquista/reaction.py), and the march (march.py)
the French and Rebel-army events reuse (``move_force``), driven with scripted dice.

Covered: the region die and its re-rolls, every cell of the reinforcement table and its
re-roll, jihad, unhired mercenaries, every placement rule with each fallback, the march
(next higher-numbered area, roads, breadth-first over the regions, tie-breaks), the army
left behind, armies picked up, battles with the reaction's clarifications (a besieged
Muslim city, a Rebel city, the siege leave-behind count, the retreat back and on), a North
Africa landing on an enemy, El Cid, the guards that end every march, the French and Rebel
armies. Every rule test quotes the rulebook. That every march of a whole game ends, asks the
player nothing and cites its rule is checked in
tests/games/test_reconquista_whole_games.py. The tests also check what
the key prompts say they are: their topic, the facts in their data, the rule they follow and
the robot's reason, in the same positions, so that the bot trace, the statistics and the
screens can read them instead of the wording.

The default board (docs/design.md): Asturias 1 is Santiago 1-2, Oviedo 3, Galicia 4, León 5-6;
Aragón 2 is Pamplona 1-2, Barcelona 3, Tarragona 4, Zaragoza 5-6; Castilla 3 is Salamanca
1-2, Toledo 3, Cuenca 4, Valencia 5-6; Portugal 4 is Porto 1-2, Lisboa 3, Badajoz 4,
Sevilla 5-6; Al-Ándalus 5 is Algeciras 1-2, Córdoba 3, Murcia 4, Granada 5-6. Roads:
Oviedo-Pamplona, León-Salamanca, Galicia-Porto, Zaragoza-Cuenca, Tarragona-Valencia,
Salamanca-Badajoz, Toledo-Córdoba, Valencia-Murcia, Badajoz-Córdoba, Sevilla-Algeciras.
Mountains: Oviedo, Pamplona, Granada. Ports: 1 Sevilla, 2 Algeciras, 3 Granada, 4 Murcia,
5 Valencia, 6 Tarragona. Battle dice are given in ``AreaState.force`` order (A before G).
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import pytest
from procedure_helpers import drive
from reconquista_helpers import Script, Units, one, place, rolls, tells

from companion.prompts import Choose, Prompt, Roll, Tell
from companion.reconquista import march as robot_march
from companion.reconquista import reaction
from companion.reconquista.board import Board, Reinforcement
from companion.reconquista.control import city_controller
from companion.reconquista.game import check_invariants
from companion.reconquista.setup import initial_state
from companion.reconquista.state import GameState
from companion.reconquista.units import Kind

A, G, MO, R = Kind.ARMY, Kind.GARRISON, Kind.ORDER, Kind.REBEL
MC, CR, F, RA = Kind.MERCENARY, Kind.CRUSADER, Kind.FRENCH, Kind.REBEL_ARMY

PHASE5 = "Phase 5: The Muslim Reaction"
MOVEMENT = f"{PHASE5} — Movement of the Muslim force"


# -- helpers ----------------------------------------------------------------------------------


def said(prompts: list[Prompt]) -> str:
    return "\n".join(tells(prompts))


def of(prompts: list[Prompt], topic: str) -> list[Prompt]:
    """The prompts of ``topic``, in order."""
    return [p for p in prompts if p.topic == topic]


def facts(prompt: Prompt, *keys: str) -> dict[str, Any]:
    """These facts of the prompt's data."""
    return {k: prompt.data[k] for k in keys}


def quiet_state(board: Board) -> GameState:
    """The setup with no enemy of the Muslims anywhere: Oviedo is a Christian city held by a
    Muslim garrison (like León and Barcelona), Pamplona holds a Muslim garrison."""
    s = initial_state(board)
    place(s, "Oviedo", [("muslim", G, 1)], city="christian")
    place(s, "Pamplona", [("muslim", G, 1)])
    return s


@pytest.fixture
def quiet(board: Board) -> GameState:
    return quiet_state(board)


def march(
    board: Board, state: GameState, start: str, answers: Script, side: str = "muslim"
) -> tuple[list[Prompt], Any]:
    proc = (
        robot_march.march(board, state, side, start)
        if side == "muslim"
        else robot_march.move_force(board, state, side, start)
    )
    prompts, out = drive(proc, answers)
    check_invariants(board, state)
    return prompts, out


MOVE = re.compile(r"^(?:Muslim|French|Rebel army) force moves (.+? -> .+?): ")


def moves(prompts: list[Prompt]) -> list[str]:
    """'Córdoba -> Murcia' for every step the force was told to make; the steps the moves'
    data name (topic reconquista.march.move) are the same."""
    told = [m[1] for t in tells(prompts) if (m := MOVE.match(t))]
    data = [f"{p.data['from']} -> {p.data['to']}" for p in prompts if p.topic == "reconquista.march.move"]
    assert told == data
    return told


# -- the region die ---------------------------------------------------------------------------


def test_region_die_picks_the_region(board: Board, quiet: GameState) -> None:
    """Phase 5: "Roll a D6 to select a region, then consult the following table to obtain
    the Muslim reinforcements." A 3 is Castilla (3 Muslim-controlled cities: the last
    column); a 2 on the table is a Garrison there; every city has one, so it goes to an
    area with Muslim forces (area die 4: Cuenca). Castilla's cities all hold a Muslim
    garrison: the fallback Tell names both choices; the area die is reconquista.reaction.area
    with the tier looked for; the placement is reconquista.reaction.garrison with its area."""
    prompts, _ = drive(reaction.phase(board, quiet), [[3], [2], [4]])
    r = rolls(prompts)
    assert r[0].why == "Muslim reaction: region die (1-5 that region, 6 North Africa)"
    assert "column '3 or more cities' (Castilla has 3 Muslim-controlled cities)" in r[1].why
    assert "Muslim reaction: the reinforcements rise in Castilla." in tells(prompts)
    assert quiet.areas["Cuenca"].count("muslim", G) == 2
    fallback = one(prompts, "reconquista.reaction.fallback")
    assert fallback.data == {
        "result": "garrison",
        "region": "Castilla",
        "passed": "muslim_city",
        "instead": "muslim_or_free",
    }
    assert fallback.rule == f"{PHASE5} — Garrison"
    die = one(prompts, "reconquista.reaction.area")
    assert isinstance(die, Roll)
    assert facts(die, "result", "region", "tier") == {
        "result": "garrison",
        "region": "Castilla",
        "tier": "muslim_or_free",
    }
    placed = one(prompts, "reconquista.reaction.garrison")
    assert placed.data == {"area": "Cuenca", "region": "Castilla", "tier": "muslim_or_free", "fallback": True}
    assert one(prompts, "reconquista.reaction.nothing_raised").data == {
        "region": "Castilla",
        "placed": ["Cuenca"],
    }


def test_region_die_rolls_again_for_a_region_in_revolt(board: Board, quiet: GameState) -> None:
    """Phase 1, result 6: "If it is selected for Muslim troop movements, re-roll / select
    another Region." The second Roll says why. Both are reconquista.reaction.region: the
    region in revolt in their data, the face rolled again says what it gave; the table
    column follows the region picked."""
    quiet.revolt = 3
    prompts, _ = drive(reaction.phase(board, quiet), [[3], [2], [2], [1]])
    r = rolls(prompts)
    assert r[1].why == (
        "Muslim reaction: region die (1-5 that region, 6 North Africa), rolled again "
        "(a 3 gave Castilla, which is in revolt)"
    )
    assert "rise in Aragón" in said(prompts)
    first, again = of(prompts, "reconquista.reaction.region")
    assert isinstance(first, Roll) and isinstance(again, Roll)
    assert first.why == "Muslim reaction: region die (1-5 that region, 6 North Africa)"
    assert first.rule == again.rule == f"{PHASE5} — Roll a D6 to select a region"
    assert first.data["revolt"] == "Castilla" and "again" not in first.data
    assert "Castilla" not in first.data["candidates"] and "North Africa" in first.data["candidates"]
    assert facts(again, "again", "rejected", "revolt") == {
        "again": True,
        "rejected": "Castilla",
        "revolt": "Castilla",
    }
    rise = one(prompts, "reconquista.reaction.rise")
    assert rise.data == {"region": "Aragón", "north_africa": False, "jihad": False}


def test_region_die_rolls_again_for_a_region_without_a_free_area(board: Board, quiet: GameState) -> None:
    """Phase 5: "If the selected region does not contain areas free of Christian or Rebel
    or Neutral Army forces, roll again." Aragón: a Christian army, a Rebel, French and
    Rebel armies, a crusader: no free area."""
    place(quiet, "Pamplona", [("christian", A, 1)])
    place(quiet, "Barcelona", [("rebel", R, 1)], city="christian")
    place(quiet, "Tarragona", [("french", F, 2)])
    place(
        quiet,
        "Zaragoza",
        [("rebel_army", RA, 1), ("christian", CR, 1)],
        city="muslim",
        fortress=True,
        besieger="rebel_army",
    )
    prompts, _ = drive(reaction.phase(board, quiet), [[2], [3], [2], [4]])
    assert rolls(prompts)[1].why.endswith(
        "rolled again (a 2 gave Aragón, which has no area free of Christian, Rebel and neutral forces)"
    )
    assert quiet.areas["Cuenca"].count("muslim", G) == 2


def test_an_empty_christian_city_is_not_a_free_area(board: Board, quiet: GameState) -> None:
    """ "free of Christian or Rebel or Neutral Army forces": an empty Christian city counts as
    a Christian force ("A Christian city without other units" is an area of non-Muslim
    control), so Aragón made of Christian cities is rolled again."""
    for name in board.regions[2].areas:
        place(quiet, name, city="christian")
    prompts, _ = drive(reaction.phase(board, quiet), [[2], [3], [2], [4]])
    assert "a 2 gave Aragón, which has no area free" in rolls(prompts)[1].why


def test_north_africa_can_land_when_no_region_can_rise(board: Board, quiet: GameState) -> None:
    """Phase 5: North Africa needs no free area ("They appear there, even if the area is
    controlled by the enemy"): with Christians everywhere, North Africa is the only face of
    the region die that can rise, so it is named without a roll (docs/rules-notes.md,
    "Random selections"); the port die 1 lands the force on the Christians of Sevilla,
    which loses there."""
    for name in board.all_areas():
        place(quiet, name, [("christian", A, 1)])
    prompts, _ = drive(reaction.phase(board, quiet), [[1], [1], [1], [6]])
    r = rolls(prompts)
    assert not any("region die" in p.why for p in r)
    assert r[0].why.startswith("Muslim reaction: reinforcement table, column North Africa")
    assert tells(prompts)[0] == (
        "Muslim reaction, the region die: only North Africa qualifies (a region not in revolt with an "
        "area free of Christian, Rebel and neutral forces, or North Africa with a port outside the region "
        "in revolt): no roll needed."
    )
    assert "Muslim reaction: the reinforcements rise in North Africa." in tells(prompts)
    assert quiet.areas["Sevilla"].units == {"christian": {A: 1}}


def test_no_face_that_can_rise_asks_no_roll(board: Board, quiet: GameState) -> None:
    """docs/design.md, "Random selections": "if nothing qualifies, no roll is asked". A map
    whose ports all lie in Al-Ándalus, in revolt, and Christians in every other area: no
    face of the region die can be used, so none is rolled and the phase says so: one Tell,
    reconquista.reaction.no_region, with the region in revolt."""
    for name in board.all_areas():
        place(quiet, name, [("christian", A, 1)])
    quiet.revolt = 5
    areas = board.regions[5].areas
    lone = dataclasses.replace(board, ports={f: areas[(f - 1) % len(areas)] for f in range(1, 7)})
    prompts, _ = drive(reaction.phase(lone, quiet), [])
    assert rolls(prompts) == []
    assert tells(prompts) == [
        (
            "Muslim reaction: no region has an area free of Christian, Rebel and neutral forces, and no "
            "port can be reached: the Muslims raise nothing this turn."
        )
    ]
    (told,) = prompts
    assert told.topic == "reconquista.reaction.no_region" and told.data == {"revolt": "Al-Ándalus"}
    assert told.rule == f"{PHASE5} — Roll a D6 to select a region"


# -- the reinforcement table ------------------------------------------------------------------


def test_the_table_is_rolled_again_on_5_and_6(board: Board, quiet: GameState) -> None:
    """docs/design.md, "Muslim reinforcement table": "the rulebook prints rows 1-4 only ... Roll a
    D6 and roll again on 5 or 6." Each new Roll says why: the rolls asked again have again
    True and the face refused in their data; the column stays."""
    prompts, _ = drive(reaction.phase(board, quiet), [[3], [5], [6], [2], [4]])
    r = rolls(prompts)
    assert r[2].why.endswith("rolled again (a 5 is not a row of the table)")
    assert r[3].why.endswith("rolled again (a 6 is not a row of the table)")
    assert "Muslim reinforcements: a 2 in the column '3 or more cities' gives Garrison." in tells(prompts)
    first, second, third = of(prompts, "reconquista.reaction.reinforcement")
    assert [p.data["again"] for p in (first, second, third)] == [False, True, True]
    assert "rejected" not in first.data
    assert [second.data["rejected"], third.data["rejected"]] == [5, 6]
    assert {p.data["column"] for p in (first, second, third)} == {3}
    assert third.reason == "a 6 is not a row of the table, so it is rolled again"


TABLE = {
    1: ["city", "fortress", "fortress", "fortress", "1 army"],
    2: ["fortress", "garrison", "garrison", "garrison", "2 armies"],
    3: ["garrison", "garrison", "1 army", "1 army", "3 armies"],
    4: ["garrison", "1 army", "1 army", "2 armies", "4 armies"],
}


def _castilla_with(state: GameState, cities: int) -> None:
    """Castilla with ``cities`` Muslim-controlled cities (the rest are open areas)."""
    for i, name in enumerate(("Salamanca", "Toledo", "Cuenca", "Valencia")):
        place(state, name, [("muslim", G, 1)], city="muslim" if i < cities else None)


@pytest.mark.parametrize("roll", [1, 2, 3, 4])
@pytest.mark.parametrize("cities", [0, 1, 2, 3, 4, "north_africa"])
def test_every_cell_of_the_table(board: Board, quiet: GameState, roll: int, cities: int | str) -> None:
    """Phase 5, "Reinforcements by number of Muslim-controlled cities in the region": the
    columns 0, 1, 2, "3 or 4" and "North Africa reinforcements", rows 1-4, as printed
    ("1 Establish city / Build Fortress / Build Fortress / Build Fortress / 1 Army" ...).
    In a region, the reinforcement roll's data: the column the engine reads (the
    Muslim-controlled cities of the region, 3 or more the last), the region, the cities
    counted; the result's data: the column, the face, the result."""
    if cities == "north_africa":
        region, column = reaction.NORTH_AFRICA, 4
    else:
        assert isinstance(cities, int)
        _castilla_with(quiet, cities)
        region, column = 3, min(cities, 3)
    prompts, result = drive(reaction._table(board, quiet, region), [[roll]])
    assert result == _cell(TABLE[roll][column])
    heading = ("'0 cities'", "'1 city'", "'2 cities'", "'3 or more cities'", "North Africa")[column]
    assert tells(prompts) == [f"Muslim reinforcements: a {roll} in the column {heading} gives {result}."]
    if isinstance(cities, int):
        die = one(prompts, "reconquista.reaction.reinforcement")
        assert isinstance(die, Roll) and die.why.startswith("Muslim reaction: reinforcement table, column ")
        assert die.data == {"column": min(cities, 3), "region": "Castilla", "cities": cities, "again": False}
        assert die.rule == f"{PHASE5} — Reinforcements by number of Muslim-controlled cities in the region"
        assert f"Castilla has {cities} Muslim-controlled" in die.reason
        told = one(prompts, "reconquista.reaction.reinforcement_result")
        assert facts(told, "column", "face", "result", "count") == {
            "column": min(cities, 3),
            "face": roll,
            "result": result.kind,
            "count": result.count,
        }


def _cell(text: str) -> Reinforcement:
    from companion.reconquista.board import parse_reinforcement

    return parse_reinforcement(text)


def test_a_besieged_muslim_city_counts_for_the_column(board: Board, quiet: GameState) -> None:
    """Phase 5: "Reinforcements by number of Muslim-controlled cities in the region
    (including any besieged)". Castilla: Toledo held by Muslims and besieged by Christians,
    Valencia an empty Muslim city besieged by Christians: 2 cities, column 2 in the roll's
    data, the same the engine reads (a 3 there gives 1 army)."""
    _castilla_with(quiet, 0)
    place(quiet, "Toledo", [("muslim", G, 1), ("christian", A, 2)], city="muslim", besieger="christian")
    place(quiet, "Valencia", [("christian", A, 1)], city="muslim", besieger="christian")
    prompts, result = drive(reaction._table(board, quiet, 3), [[3]])
    assert "column '2 cities' (Castilla has 2 Muslim-controlled cities)" in rolls(prompts)[0].why
    assert one(prompts, "reconquista.reaction.reinforcement").data["column"] == 2
    assert result == Reinforcement("army", 1)


# -- placing the results ----------------------------------------------------------------------


def _asturias_without_muslim_cities(state: GameState) -> None:
    """Asturias with no Muslim-controlled city: León gets a Christian garrison."""
    place(state, "León", [("christian", G, 1)], city="christian")


def test_establish_city_in_an_area_with_a_muslim_army_or_garrison(board: Board, quiet: GameState) -> None:
    """Phase 5: "Establish city - In this case, randomly select an area with a Muslim army /
    Garrison, or else with no units. Place a Muslim city in this area." Asturias has no
    Muslim-controlled city (column 0, roll 1); the area die 3 gives Oviedo, which has a
    city: rolled again; 4 gives Galicia (a Muslim garrison)."""
    _asturias_without_muslim_cities(quiet)
    place(quiet, "Oviedo", [("christian", G, 1)], city="christian")
    prompts, _ = drive(reaction.phase(board, quiet), [[1], [1], [3], [4]])
    r = rolls(prompts)
    assert (
        r[2].why
        == "Muslim reaction, Establish city: area die for an area without a city with a Muslim army or garrison in Asturias"
    )
    assert r[3].why.endswith("rolled again (a 3 gave Oviedo, which already has a city)")
    assert quiet.areas["Galicia"].city == "muslim"
    assert (
        "Establish city: place a Muslim city in Galicia (an area without a city with a Muslim army or garrison)."
        in tells(prompts)
    )
    assert tells(prompts)[-1] == "No Muslim army was raised: nothing moves; the Muslim reaction is over."


def test_establish_city_else_in_an_area_with_no_units(board: Board, quiet: GameState) -> None:
    """Phase 5, Establish city: "or else with no units". No area without a city has Muslim
    forces (Santiago Christian, Galicia empty): the fallback is told, and in it the empty
    Galicia is the only area, taken without an area die (docs/rules-notes.md, "Random
    selections": within the tier used)."""
    _asturias_without_muslim_cities(quiet)
    place(quiet, "Oviedo", [("christian", G, 1)], city="christian")
    place(quiet, "Santiago", [("christian", A, 1)])
    place(quiet, "Galicia")
    prompts, _ = drive(reaction.phase(board, quiet), [[1], [1]])
    assert len(rolls(prompts)) == 2  # the region die and the table
    text = tells(prompts)
    fallback = text.index(
        "Establish city: no area of Asturias is an area without a city with a Muslim army or garrison; "
        "an area without a city and with no units instead."
    )
    assert text[fallback + 1] == (
        "Muslim reaction, Establish city: only Galicia qualifies (an area without a city and with no "
        "units in Asturias): no roll needed."
    )
    assert quiet.areas["Galicia"].city == "muslim"


def test_establish_city_else_between_two_empty_areas_is_rolled(board: Board, quiet: GameState) -> None:
    """Phase 5, Establish city, the fallback "with no units" with two empty areas (Santiago,
    Galicia): the area die picks between them; the 3 (Oviedo, a city) is rolled again."""
    _asturias_without_muslim_cities(quiet)
    place(quiet, "Oviedo", [("christian", G, 1)], city="christian")
    place(quiet, "Santiago")
    place(quiet, "Galicia")
    prompts, _ = drive(reaction.phase(board, quiet), [[1], [1], [3], [2]])
    r = rolls(prompts)
    assert r[2].why == (
        "Muslim reaction, Establish city: area die for an area without a city and with no units in Asturias"
    )
    assert r[3].why.endswith("rolled again (a 3 gave Oviedo, which already has a city)")
    assert quiet.areas["Santiago"].city == "muslim" and quiet.areas["Galicia"].city is None


def test_establish_city_with_nowhere_to_build_does_nothing(board: Board, quiet: GameState) -> None:
    """Phase 5, Establish city: the rule gives no third choice: nothing happens (and no
    area die is rolled). Called directly: through the phase the region die only picks a
    region with a free area, and a free area is always one of the two choices."""
    place(quiet, "Santiago", [("christian", A, 1)])
    place(quiet, "Oviedo", [("christian", G, 1)], city="christian")
    place(quiet, "Galicia", [("muslim", G, 1)], city="muslim")
    place(quiet, "León", [("rebel", R, 1)])
    prompts, out = drive(reaction._place(board, quiet, 1, Reinforcement("city")), [])
    assert out is None and rolls(prompts) == []
    assert tells(prompts) == [
        (
            "Establish city: no area of Asturias is an area without a city with a Muslim army or garrison; "
            "an area without a city and with no units instead."
        ),
        "Establish city: no area of Asturias is an area without a city and with no units: nothing happens.",
    ]


def test_establish_city_and_build_fortress(board: Board, quiet: GameState) -> None:
    """Asturias with no Muslim city: a 1 is Establish city, in the only area with a Muslim
    garrison and no city (Galicia: no roll); then a Jihad's second roll (1 city now: a 1 is
    Build Fortress) in the only Muslim city without a fortress, Galicia again."""
    quiet.effects.jihad = True
    place(quiet, "Santiago", [("christian", G, 1)])
    place(quiet, "Oviedo", [("christian", G, 1)], city="christian")
    place(quiet, "Galicia", [("muslim", G, 1)])
    place(quiet, "León", [("christian", A, 1)], city="christian")
    prompts, _ = drive(reaction.phase(board, quiet), [[1], [1], [1]])
    tables = of(prompts, "reconquista.reaction.reinforcement")
    assert [t.data["column"] for t in tables] == [0, 1]
    city = one(prompts, "reconquista.reaction.establish_city")
    assert city.data == {"area": "Galicia", "region": "Asturias", "tier": "muslim_forces", "fallback": False}
    assert city.rule == f"{PHASE5} — Establish city"
    fortress = one(prompts, "reconquista.reaction.build_fortress")
    assert fortress.data == {
        "area": "Galicia",
        "region": "Asturias",
        "tier": "muslim_city",
        "fallback": False,
    }
    only = [p for p in of(prompts, "reconquista.reaction.area") if isinstance(p, Tell)]
    assert [(p.data["result"], p.data["picked"], p.data["only"]) for p in only] == [
        ("city", "Galicia", True),
        ("fortress", "Galicia", True),
    ]


def test_build_fortress_in_a_muslim_controlled_city(board: Board, quiet: GameState) -> None:
    """Phase 5: "Build Fortress - Randomly select a Muslim-controlled city without a Fortress
    and place a Fortress there." Castilla (3 cities), roll 1: Toledo has a fortress (rolled
    again), Salamanca gets one."""
    prompts, _ = drive(reaction.phase(board, quiet), [[3], [1], [3], [1]])
    assert rolls(prompts)[3].why.endswith("(a 3 gave Toledo, which already has a fortress)")
    assert quiet.areas["Salamanca"].fortress
    assert (
        "Build Fortress: place a fortress in Salamanca (a Muslim-controlled city without a fortress)."
        in tells(prompts)
    )


def test_build_fortress_else_where_muslims_stand(board: Board, quiet: GameState) -> None:
    """Phase 5, Build Fortress: "If no such area exists, randomly select an area without a
    Fortress that contains a Muslim Army and / or Garrison and place a Fortress in that
    area." Every Muslim-controlled city of Castilla has a fortress: Cuenca (a garrison), the
    only area without one, is named without an area die."""
    for name in ("Salamanca", "Valencia"):
        quiet.areas[name].fortress = True
    prompts, _ = drive(reaction.phase(board, quiet), [[3], [1]])
    assert (
        "Build Fortress: no area of Castilla is a Muslim-controlled city without a fortress; an area without a fortress with a Muslim army or garrison instead."
        in tells(prompts)
    )
    assert (
        "Muslim reaction, Build Fortress: only Cuenca qualifies (an area without a fortress with a Muslim "
        "army or garrison in Castilla): no roll needed."
    ) in tells(prompts)
    assert quiet.areas["Cuenca"].fortress and quiet.areas["Cuenca"].city is None


def test_build_fortress_else_nothing(board: Board, quiet: GameState) -> None:
    """Phase 5, Build Fortress: "If no such area exists, nothing happens." Asturias: the one
    Muslim-controlled city (Santiago) has a fortress, the other areas are Christian."""
    place(quiet, "Santiago", [("muslim", G, 1)], city="muslim", fortress=True)
    place(quiet, "Oviedo", [("christian", G, 1)], city="christian")
    place(quiet, "Galicia", [("christian", G, 1), ("muslim", A, 2)], city="christian", besieger="muslim")
    place(quiet, "León", [("christian", G, 1)], city="christian")
    prompts, _ = drive(reaction.phase(board, quiet), [[1], [1]])
    assert len(rolls(prompts)) == 2
    # Galicia has Muslim armies but they besiege the city from outside: no fortress for them.
    assert (
        reaction._fortress_tiers(quiet)[1].refuse("Galicia")
        == "where the Muslims are besiegers outside the walls"
    )
    assert (
        "Build Fortress: no area of Asturias is an area without a fortress with a Muslim army or garrison: nothing happens."
        in tells(prompts)
    )
    assert [quiet.areas[n].fortress for n in board.regions[1].areas] == [True, False, False, False]


def test_garrison_in_a_muslim_controlled_city_without_one(board: Board, quiet: GameState) -> None:
    """Phase 5: "Garrison - Place a Muslim Garrison in a randomly selected Muslim-controlled
    city without a Garrison." The garrisons of Toledo and Valencia are gone (armies hold
    them): the area die picks between the two; Salamanca (rolled first) already has one."""
    place(quiet, "Toledo", [("muslim", A, 1)], city="muslim", fortress=True)
    place(quiet, "Valencia", [("muslim", A, 1)], city="muslim")
    prompts, _ = drive(reaction.phase(board, quiet), [[3], [2], [1], [3]])
    assert rolls(prompts)[3].why.endswith("(a 1 gave Salamanca, which already has a Muslim garrison)")
    assert quiet.areas["Toledo"].count("muslim", G) == 1
    assert (
        "Garrison: place 1 Muslim garrison in Toledo (a Muslim-controlled city without a Muslim garrison)."
        in tells(prompts)
    )


def test_garrison_in_the_only_muslim_city_without_one_is_not_rolled(board: Board, quiet: GameState) -> None:
    """Phase 5, Garrison, "a randomly selected Muslim-controlled city without a Garrison":
    Toledo is the only one (an army holds it), so no area die is asked
    (docs/rules-notes.md, "Random selections"): the Tell names it and says why."""
    place(quiet, "Toledo", [("muslim", A, 1)], city="muslim", fortress=True)
    prompts, _ = drive(reaction.phase(board, quiet), [[3], [2]])
    assert len(rolls(prompts)) == 2  # the region die and the table
    assert (
        "Muslim reaction, Garrison: only Toledo qualifies (a Muslim-controlled city without a Muslim "
        "garrison in Castilla): no roll needed."
    ) in tells(prompts)
    assert quiet.areas["Toledo"].count("muslim", G) == 1


def test_garrison_else_with_muslim_forces_or_free(board: Board, quiet: GameState) -> None:
    """Phase 5, Garrison: "If there is no such city, place a Muslim Garrison in a randomly
    selected area that contains Muslim forces or that is free of all Christian / Rebel
    forces." Cuenca holds a Christian army: rolled again; Valencia (Muslim) takes it."""
    place(quiet, "Cuenca", [("christian", A, 1)])
    prompts, _ = drive(reaction.phase(board, quiet), [[3], [2], [4], [5]])
    assert rolls(prompts)[3].why.endswith(
        "(a 4 gave Cuenca, which holds 1 Christian army and no Muslim unit)"
    )
    assert quiet.areas["Valencia"].count("muslim", G) == 2


def test_garrison_else_nothing(board: Board, quiet: GameState) -> None:
    """Phase 5, Garrison: "If this is not possible, then nothing happens." Called directly:
    through the phase, the region die only picks a region with a free area."""
    for name in board.regions[3].areas:
        place(quiet, name, [("christian", A, 1)])
    prompts, out = drive(reaction._place(board, quiet, 3, Reinforcement("garrison")), [])
    assert out is None and rolls(prompts) == []
    assert (
        tells(prompts)[-1]
        == "Garrison: no area of Castilla is an area with Muslim forces or free of Christian and Rebel forces: nothing happens."
    )


def test_armies_in_an_area_free_of_christian_and_rebel_forces(board: Board, quiet: GameState) -> None:
    """Phase 5: "1 to 6 Army / Armies - Place the appropriate number of armies in a randomly
    selected area free of any Christian / Rebel forces." Castilla, roll 4: 2 armies; Toledo
    holds Rebels (rolled again), Cuenca takes them. No enemy anywhere else: they stay."""
    place(quiet, "Toledo", [("rebel", R, 1)], city="muslim", fortress=True)
    prompts, _ = drive(reaction.phase(board, quiet), [[3], [4], [3], [4]])
    r = rolls(prompts)
    assert "column '2 cities'" in r[1].why  # Toledo is a Rebel city now
    assert (
        r[2].why
        == "Muslim reaction, 1 army: area die for an area of Castilla free of Christian and Rebel forces"
    )
    assert r[3].why.endswith("(a 3 gave Toledo, which holds 1 Rebel)")
    assert "1 army: place 1 Muslim army in Cuenca (free of Christian and Rebel forces)." in tells(prompts)
    # Toledo's Rebel is the enemy in Castilla: Cuenca -> Valencia -> Salamanca -> Toledo.
    assert moves(prompts) == ["Cuenca -> Valencia", "Valencia -> Salamanca", "Salamanca -> Toledo"]


def test_armies_with_nowhere_to_go_do_nothing(board: Board, quiet: GameState) -> None:
    """Phase 5, Armies: "If this is not possible, nothing happens." (Called directly.)"""
    for name in board.regions[3].areas:
        place(quiet, name, [("christian", G, 1)])
    prompts, out = drive(reaction._place(board, quiet, 3, Reinforcement("army", 2)), [])
    assert out is None and rolls(prompts) == []
    assert tells(prompts) == [
        "2 armies: no area of Castilla is free of Christian and Rebel forces: nothing happens."
    ]


def test_armies_in_the_only_free_area_are_placed_without_a_roll(board: Board, quiet: GameState) -> None:
    """Phase 5, Armies: "a randomly selected area free of any Christian / Rebel forces":
    Castilla's other areas hold Christians or a Rebel, so Cuenca is the only one; no area
    die is asked, the Tell names it and says why (docs/rules-notes.md, "Random selections")."""
    place(quiet, "Salamanca", [("christian", A, 1)], city="muslim")
    place(quiet, "Toledo", [("rebel", R, 1)], city="muslim", fortress=True)
    place(quiet, "Valencia", [("christian", G, 1)], city="christian")
    prompts, out = drive(reaction._place(board, quiet, 3, Reinforcement("army", 2)), [])
    assert out == "Cuenca" and rolls(prompts) == []
    assert tells(prompts) == [
        (
            "Muslim reaction, 2 armies: only Cuenca qualifies (an area of Castilla free of Christian and "
            "Rebel forces): no roll needed."
        ),
        "2 armies: place 2 Muslim armies in Cuenca (free of Christian and Rebel forces).",
    ]


def test_unhired_mercenaries_in_the_only_free_area_are_placed_without_a_roll(
    board: Board, quiet: GameState
) -> None:
    """Phase 2, event 4: the unhired mercenaries with nothing raised are placed like an army
    result, and stay; Cuenca is the only free area of Castilla: named, no area die."""
    quiet.effects.mercenaries = 2
    place(quiet, "Salamanca", [("christian", A, 1)], city="muslim")
    place(quiet, "Toledo", [("rebel", R, 1)], city="muslim", fortress=True)
    place(quiet, "Valencia", [("christian", G, 1)], city="christian")
    prompts, out = drive(reaction._mercenaries(board, quiet, 3, [], []), [])
    assert out is None and rolls(prompts) == []
    assert tells(prompts)[0] == (
        "Muslim reaction, unhired mercenaries (nothing was raised): only Cuenca qualifies (an area of "
        "Castilla free of Christian and Rebel forces): no roll needed."
    )
    assert quiet.areas["Cuenca"].count("muslim", MC) == 2


# -- North Africa -----------------------------------------------------------------------------


def test_north_africa_lands_by_the_port_die(board: Board, quiet: GameState) -> None:
    """Phase 5: "a result of 6 when rolling for the region means the force arrives from North
    Africa [...] roll a D6 to see in which Area it lands - as indicated by the port symbol
    and the corresponding number on the map". 2 on the North Africa column: 2 armies; port
    5: Valencia. With no enemy anywhere, the force stays. The North Africa column is -1
    with no region in the table's data; the port die has its topic and the ports it can give."""
    prompts, _ = drive(reaction.phase(board, quiet), [[6], [2], [5]])
    r = rolls(prompts)
    assert r[1].why == "Muslim reaction: reinforcement table, column North Africa"
    assert r[2].why.startswith(
        "Muslim reaction, North Africa: port die (1 Sevilla, 2 Algeciras, 3 Granada, 4 Murcia, 5 Valencia, 6 Tarragona)"
    )
    assert one(prompts, "reconquista.reaction.rise").data == {
        "region": None,
        "north_africa": True,
        "jihad": False,
    }
    table = one(prompts, "reconquista.reaction.reinforcement")
    assert table.data == {"column": -1, "region": None, "cities": None, "again": False}
    port = one(prompts, "reconquista.reaction.port")
    assert isinstance(port, Roll) and port.rule == f"{PHASE5} — For a force coming from North Africa"
    assert port.data["candidates"] == ["Sevilla", "Algeciras", "Granada", "Murcia", "Valencia", "Tarragona"]
    assert "2 armies from North Africa: place 2 Muslim armies in Valencia (the port die)." in tells(prompts)
    assert quiet.areas["Valencia"].count("muslim", A) == 2
    assert (
        tells(prompts)[-1]
        == "No enemy can be reached from Valencia: the Muslim force (2 Muslim armies) stays there."
    )


def test_a_port_in_the_region_in_revolt_is_rolled_again(board: Board, quiet: GameState) -> None:
    """Phase 1, result 6: "No one can move into it": a landing in Portugal, in revolt, is
    rolled again (Sevilla, port 1)."""
    quiet.revolt = 4
    prompts, _ = drive(reaction.phase(board, quiet), [[6], [1], [1], [2]])
    assert rolls(prompts)[3].why.endswith("rolled again (a 1 gave Sevilla, in Portugal, which is in revolt)")
    assert quiet.areas["Algeciras"].count("muslim", A) == 1


def test_the_only_port_outside_the_revolt_is_not_rolled(board: Board, quiet: GameState) -> None:
    """Phase 5: "roll a D6 to see in which Area it lands"; Phase 1, result 6: "No one can
    move into it". On a map whose ports all lie in Al-Ándalus, in revolt, but one (Sevilla),
    the force lands in Sevilla without a port die (docs/rules-notes.md, "Random selections")."""
    quiet.revolt = 5
    areas = board.regions[5].areas
    ports = {f: areas[(f - 1) % len(areas)] for f in range(1, 6)} | {6: "Sevilla"}
    one_port = dataclasses.replace(board, ports=ports)
    prompts, _ = drive(reaction.phase(one_port, quiet), [[6], [2]])
    assert [p.why for p in rolls(prompts)][-1] == "Muslim reaction: reinforcement table, column North Africa"
    assert (
        "Muslim reaction, North Africa: only Sevilla qualifies (a port outside the region in revolt): "
        "no roll needed."
    ) in tells(prompts)
    assert quiet.areas["Sevilla"].count("muslim", A) == 2


def test_north_africa_lands_on_an_enemy_and_fights_there(board: Board, quiet: GameState) -> None:
    """Phase 5: "They appear there, even if the area is controlled by the enemy [...] the
    Muslim force does not move and will give battle or besiege the area where it landed."
    3 armies land in Sevilla, held by 1 Christian army in the open: battle there at once.
    The landing on an enemy says so in its data, and so does the enemy met at the start;
    the force then stops, landed."""
    place(quiet, "Sevilla", [("christian", A, 1)])
    prompts, _ = drive(reaction.phase(board, quiet), [[6], [3], [1], [6, 1, 1], [1]])
    landing = one(prompts, "reconquista.reaction.landing")
    assert landing.data == {"area": "Sevilla", "region": "Portugal", "units": 3, "enemy": True}
    assert "even if the area is controlled by the enemy" in landing.reason
    enemy = one(prompts, "reconquista.march.enemy")
    assert facts(enemy, "area", "at_start") == {"area": "Sevilla", "at_start": True}
    assert enemy.rule == f"{PHASE5} — In the case of reinforcements from North Africa"
    stop = one(prompts, "reconquista.march.stop")
    assert facts(stop, "cause", "area", "units") == {"cause": "landed", "area": "Sevilla", "units": 3}
    text = tells(prompts)
    assert (
        "3 armies from North Africa: place 3 Muslim armies in Sevilla (the port die). Sevilla holds 1 Christian army: they land all the same and fight there."
        in text
    )
    assert "Sevilla holds 1 Christian army: the Muslim force fights where it stands." in text
    assert [p.why for p in rolls(prompts)][3] == "Battle in Sevilla, round 1: Muslim dice (A, A, A)"
    assert quiet.areas["Sevilla"].units == {"muslim": {A: 3}}
    assert moves(prompts) == []


def test_a_landing_on_an_enemy_does_not_move_after_its_battle(board: Board, quiet: GameState) -> None:
    """Phase 5: "the area where they landed may be under enemy control, in which case the
    Muslim force does not move and will give battle or besiege the area where it landed."
    3 armies land in Sevilla on 1 Christian army and win; the Christian army in Badajoz,
    the next enemy in Portugal, is not attacked: the landing force stays in Sevilla."""
    place(quiet, "Sevilla", [("christian", A, 1)])
    place(quiet, "Badajoz", [("christian", A, 1)])
    prompts, _ = drive(reaction.phase(board, quiet), [[6], [3], [1], [6, 1, 1], [1]])
    assert tells(prompts)[-1] == (
        "The Muslim force landed from North Africa where the enemy stood: it does not move, "
        "and stays in Sevilla (3 Muslim armies)."
    )
    assert moves(prompts) == []
    assert quiet.areas["Sevilla"].units == {"muslim": {A: 3}}
    assert quiet.areas["Badajoz"].units == {"christian": {A: 1}}


def test_a_landing_on_a_free_port_marches_as_any_force(board: Board, quiet: GameState) -> None:
    """Phase 5: only a landing "under enemy control" does not move; landed in a free Sevilla,
    the 3 armies march on to the Christian army in Badajoz ("Within the Region, move the
    Force toward the area with the highest number", wrapping round: Sevilla 5-6 -> Porto
    -> Lisboa -> Badajoz)."""
    place(quiet, "Badajoz", [("christian", A, 1)])
    prompts, _ = drive(reaction.phase(board, quiet), [[6], [3], [1], [6, 1, 1], [1]])
    assert moves(prompts) == ["Sevilla -> Porto", "Porto -> Lisboa", "Lisboa -> Badajoz"]
    assert quiet.areas["Badajoz"].units == {"muslim": {A: 3}}


def test_a_landing_beaten_at_once_has_nowhere_to_fall_back(board: Board, quiet: GameState) -> None:
    """Phase 5: "If the Muslim force has to retreat, withdraw the force back to the area it
    came from": a landing came from no area of the map, so the beaten force is removed."""
    place(quiet, "Sevilla", [("christian", A, 3)])
    prompts, _ = drive(reaction.phase(board, quiet), [[6], [2], [1], [1, 1], [6, 1, 1]])
    assert quiet.areas["Sevilla"].units == {"christian": {A: 3}}
    assert (
        "The Muslim force came into Sevilla from no area of the map, so it has nowhere to fall back to."
        in tells(prompts)
    )


# -- jihad and mercenaries --------------------------------------------------------------------


def test_jihad_places_two_results(board: Board, quiet: GameState) -> None:
    """Quick Reference, event 10: "Jihad: During the Muslim reaction, roll twice for forces
    in the region." Read: one region die, two rolls on the table, both results placed in
    turn. Castilla: a Garrison (Cuenca) and a Fortress (Salamanca)."""
    quiet.effects.jihad = True
    prompts, _ = drive(reaction.phase(board, quiet), [[3], [2], [4], [1], [1]])
    assert (
        "Muslim reaction: the reinforcements rise in Castilla (Jihad: the table is rolled twice, both results are placed)."
        in tells(prompts)
    )
    assert quiet.areas["Cuenca"].count("muslim", G) == 2
    assert quiet.areas["Salamanca"].fortress


def test_jihad_two_army_forces_march_in_turn(board: Board, quiet: GameState) -> None:
    """Jihad, and Phase 5: "If the Force enters (or starts in) an area with other Muslim
    Armies, these are added to the force". Two army results, in Algeciras and Murcia, are
    two forces that march in turn: the first picks up Córdoba's 2 armies and the second
    force on its way to the Christians in Granada; the second then has nothing to move:
    it is announced with its area and finds its armies gone with the first."""
    quiet.effects.jihad = True
    place(quiet, "Granada", [("christian", A, 1)])  # Al-Ándalus: 2 Muslim cities left
    script = [[5], [3], [1], [4], [4], [1], [6, 1, 1, 1]]
    prompts, _ = drive(reaction.phase(board, quiet), script)
    text = tells(prompts)
    assert moves(prompts) == ["Algeciras -> Córdoba", "Córdoba -> Murcia", "Murcia -> Granada"]
    assert "2 more Muslim armies join the Muslim force in Córdoba: now 3 Muslim armies." in text
    assert "1 more Muslim army joins the Muslim force in Murcia: now 4 Muslim armies." in text
    assert [p.why for p in rolls(prompts)][-2:] == [
        "Battle in Granada, round 1: Christian dice first (A)",  # Granada is mountainous
        "Battle in Granada, round 1: Muslim survivors' dice (A, A, A, A)",
    ]
    assert "Jihad: now the second Muslim force, raised in Murcia." in text
    assert "No Muslim army stands in Murcia any more: nothing moves from there." in text
    assert quiet.areas["Granada"].units == {"muslim": {A: 4}}
    assert one(prompts, "reconquista.reaction.rise").data["jihad"] is True
    second = one(prompts, "reconquista.reaction.jihad")
    assert second.data == {"area": "Murcia", "force": 2}
    assert second.rule == "Quick Reference Sheet — 10 Jihad"
    starts = of(prompts, "reconquista.march.start")
    assert [p.data["from"] for p in starts] == ["Algeciras"]
    stops = [facts(p, "area", "cause", "units") for p in of(prompts, "reconquista.march.stop")]
    assert {"area": "Murcia", "cause": "no_army", "units": 0} in stops


def test_unhired_mercenaries_join_the_armies(board: Board, quiet: GameState) -> None:
    """Phase 2, event 4: "Any Mercenary units that are not hired are added to the Muslim
    forces that rise in Phase 5." They are placed with the first army result (as Muslim
    mercenaries) and march with it; the count is then spent. Castilla (3 cities) rolls 4:
    2 armies, the area die 4: Cuenca; the 3 mercenaries join that force and march with it."""
    quiet.effects.mercenaries = 3
    prompts, _ = drive(reaction.phase(board, quiet), [[3], [4], [4]])
    die = one(prompts, "reconquista.reaction.area")
    assert facts(die, "result", "tier") == {"result": "army", "tier": "free"}
    assert die.rule == f"{PHASE5} — 1 to 6 Army / Armies"
    armies = one(prompts, "reconquista.reaction.armies")
    assert armies.data == {"area": "Cuenca", "region": "Castilla", "units": 2, "tier": "free"}
    mercenaries = one(prompts, "reconquista.reaction.mercenaries")
    assert mercenaries.data == {"units": 3, "area": "Cuenca", "joins": "force", "marches": True}
    assert mercenaries.rule == "Phase 2: Events — 4 Mercenaries"
    start = one(prompts, "reconquista.march.start")
    assert facts(start, "side", "from", "units") == {"side": "muslim", "from": "Cuenca", "units": 5}
    assert (
        "Unhired mercenaries: they join the Muslim force in Cuenca: place 3 mercenaries (with the Muslims) there."
        in tells(prompts)
    )
    assert quiet.areas["Cuenca"].units["muslim"] == {G: 1, A: 2, MC: 3}
    assert quiet.effects.mercenaries == 0
    assert (
        "The Muslim force marches from Cuenca with 2 Muslim armies and 3 mercenaries (with the Muslims)."
        in tells(prompts)
    )


def test_unhired_mercenaries_stay_with_a_garrison_result(board: Board, quiet: GameState) -> None:
    """Phase 2, event 4: "Any Mercenary units that are not hired are added to the Muslim
    forces that rise in Phase 5"; Phase 5: "Once the Muslim force has been created, it will
    move, provided armies were created. If the result was a City, Fortress, or Garrison,
    then nothing else happens". A Garrison result in Cuenca: the mercenaries join it there
    and nobody marches, although a Christian army stands in Valencia: the mercenaries' data
    say they join the result placed and do not march."""
    quiet.effects.mercenaries = 2
    place(quiet, "Valencia", [("christian", A, 1)])
    prompts, _ = drive(reaction.phase(board, quiet), [[3], [2], [4]])
    told = one(prompts, "reconquista.reaction.mercenaries")
    assert told.data == {"units": 2, "area": "Cuenca", "joins": "result", "marches": False}
    assert of(prompts, "reconquista.march.start") == []
    text = tells(prompts)
    assert (
        "Unhired mercenaries: they join the Muslims in Cuenca: place 2 mercenaries (with the Muslims) "
        "there (no army was raised, so nothing moves: they stay there)." in text
    )
    assert text[-1] == "No Muslim army was raised: nothing moves; the Muslim reaction is over."
    assert moves(prompts) == []
    assert quiet.areas["Cuenca"].units == {"muslim": {G: 2, MC: 2}}
    assert quiet.areas["Valencia"].units == {"christian": {A: 1}}
    assert quiet.effects.mercenaries == 0


def test_unhired_mercenaries_with_nothing_raised_are_placed_and_stay(board: Board, quiet: GameState) -> None:
    """Phase 5, Build Fortress: "If no such area exists, nothing happens"; then "nothing else
    happens" either: the mercenaries are placed in an area an army result could take (the
    area die: 4 Cuenca) and stay there. Castilla holds no Muslim unit and no Muslim city
    (column 0), so the 2 rolls Build Fortress, which finds nowhere: a Tell of its own, and
    nothing placed; the mercenaries' data say where the area die put them and that they do
    not march."""
    quiet.effects.mercenaries = 3
    place(quiet, "Salamanca", [("christian", A, 1)], city="christian")
    place(quiet, "Toledo", [("christian", G, 1)], city="christian", fortress=True)
    place(quiet, "Cuenca")
    place(quiet, "Valencia")
    prompts, _ = drive(reaction.phase(board, quiet), [[3], [2], [4]])
    told = one(prompts, "reconquista.reaction.nothing_happens")
    assert facts(told, "result", "region") == {"result": "fortress", "region": "Castilla"}
    assert told.rule == f"{PHASE5} — Build Fortress"
    assert one(prompts, "reconquista.reaction.nothing_raised").data["placed"] == []
    mercenaries = one(prompts, "reconquista.reaction.mercenaries")
    assert mercenaries.data == {"units": 3, "area": "Cuenca", "joins": "placed", "marches": False}
    assert of(prompts, "reconquista.march.start") == []
    text = tells(prompts)
    assert (
        "Build Fortress: no area of Castilla is an area without a fortress with a Muslim army or garrison: "
        "nothing happens." in text
    )
    assert rolls(prompts)[-1].why.startswith(
        "Muslim reaction, unhired mercenaries (nothing was raised): area die"
    )
    assert (
        "Unhired mercenaries: nothing was raised; place 3 mercenaries (with the Muslims) in Cuenca (free of "
        "Christian and Rebel forces; no army was raised, so nothing moves: they stay there)." in text
    )
    assert moves(prompts) == []
    assert quiet.areas["Cuenca"].units == {"muslim": {MC: 3}}


# -- the march --------------------------------------------------------------------------------


def test_the_force_steps_up_until_it_meets_the_enemy(board: Board, quiet: GameState) -> None:
    """Phase 5: "Within the Region, move the Force toward the area with the highest number.
    Repeat the movement until the force enters an area of non-Muslim control"; footnote:
    "If there is no higher-numbered area, move to the lowest-numbered area." From Córdoba
    to the Christian army in Algeciras (open): Murcia, Granada, then round to Algeciras."""
    place(quiet, "Algeciras", [("christian", A, 1)])
    prompts, _ = march(board, quiet, "Córdoba", [[6, 6], [1]])
    assert moves(prompts) == ["Córdoba -> Murcia", "Murcia -> Granada", "Granada -> Algeciras"]
    assert tells(prompts)[1] == (
        "Muslim force moves Córdoba -> Murcia: the enemy is in Al-Ándalus (Algeciras), so on to "
        "the next higher-numbered area. Move 2 Muslim armies from Córdoba to Murcia."
    )
    assert "Algeciras holds 1 Christian army: the Muslim force stops there." in tells(prompts)
    assert quiet.areas["Algeciras"].units == {"muslim": {A: 2}}


def test_the_march_wraps_round_leaves_an_army_and_picks_up(board: Board, quiet: GameState) -> None:
    """From Granada (a Muslim city, no garrison, 2 armies) to the Christian garrison in
    Murcia: Granada 5-6 wraps round to Algeciras leaving 1 army, Córdoba's 2 armies join,
    then Murcia, where the force stops and wins."""
    place(quiet, "Murcia", [("christian", G, 1)])
    place(quiet, "Granada", [("muslim", A, 2)], city="muslim")
    prompts, _ = march(board, quiet, "Granada", [[6, 6, 6], [1]])
    first, second, third = of(prompts, "reconquista.march.move")
    assert facts(first, "side", "from", "to", "region", "to_region", "units", "left", "how") == {
        "side": "muslim",
        "from": "Granada",
        "to": "Algeciras",
        "region": "Al-Ándalus",
        "to_region": "Al-Ándalus",
        "units": 1,
        "left": 1,
        "how": "enemy_in_region",
    }
    assert first.data["enemy"] == ["Murcia"]
    assert first.rule == MOVEMENT
    assert first.reason == (
        "the enemy is in Al-Ándalus (Murcia), so on to the next higher-numbered area: "
        "Granada 5-6 → Algeciras 1-2, wrapping round; "
        "leaves 1 Muslim army in Granada: a city without a Muslim garrison"
    )
    assert second.reason.endswith("Algeciras 1-2 → Córdoba 3")
    join = one(prompts, "reconquista.march.join")
    assert facts(join, "area", "joined", "units") == {"area": "Córdoba", "joined": 2, "units": 3}
    assert facts(third, "from", "to", "units", "left") == {
        "from": "Córdoba",
        "to": "Murcia",
        "units": 3,
        "left": 0,
    }
    enemy = one(prompts, "reconquista.march.enemy")
    assert facts(enemy, "area", "from", "at_start") == {
        "area": "Murcia",
        "from": "Córdoba",
        "at_start": False,
    }
    assert enemy.rule == f"{PHASE5} — Once the Force enters an enemy-controlled area"
    won = one(prompts, "reconquista.march.won")
    assert facts(won, "area", "units") == {"area": "Murcia", "units": 3}
    assert one(prompts, "reconquista.march.stop").data["cause"] == "no_enemy"


@pytest.mark.parametrize(
    ("units", "city", "what"),
    [
        ([("christian", G, 1)], None, "1 Christian garrison"),
        ([("rebel", R, 1)], None, "1 Rebel"),
        ([], "christian", "an empty Christian city"),
        ([("french", F, 1)], None, "1 French army"),
        ([("rebel_army", RA, 1)], None, "1 Rebel army"),
        ([("christian", CR, 1)], None, "1 crusader"),
        ([("christian", MC, 1)], None, "1 mercenary"),
    ],
)
def test_the_four_kinds_of_non_muslim_control(
    board: Board, quiet: GameState, units: Units, city: str | None, what: str
) -> None:
    """Phase 5: an area of non-Muslim control "is an area with: A Christian army and / or
    Garrison. A Rebel. A Christian city without other units (except a Fortification). A
    Neutral Army without Muslim control (Rebels, French, Crusaders, or Christian
    Mercenaries)." Each stops the force in Murcia."""
    place(quiet, "Murcia", units, city=city, fortress=city is not None)
    place(quiet, "Córdoba", [("muslim", A, 3)])
    dice: list[list[int]] = [] if city else [[6, 6, 6], [1]]
    prompts, _ = march(board, quiet, "Córdoba", dice)
    assert moves(prompts) == ["Córdoba -> Murcia"]
    assert f"Murcia holds {what}: the Muslim force stops there." in tells(prompts)


def test_muslim_units_and_a_muslim_city_are_not_enemies(board: Board, quiet: GameState) -> None:
    """Phase 5: areas of Muslim control do not stop the force; a Christian city held by a
    Muslim garrison (León at the start) is under Muslim control; so is an empty Muslim city
    and an empty fortress. No enemy: no move."""
    place(quiet, "Santiago", [("muslim", A, 1)])
    place(quiet, "Galicia", city="muslim")
    place(quiet, "Porto", fortress=True)
    prompts, out = march(board, quiet, "Santiago", [])
    assert moves(prompts) == [] and out == "Santiago"
    assert (
        tells(prompts)[-1]
        == "No enemy can be reached from Santiago: the Muslim force (1 Muslim army) stays there."
    )


def test_no_enemy_in_the_region_the_road_to_one(board: Board, quiet: GameState) -> None:
    """Phase 5: "If there is no enemy-controlled area in the Region, pass the Muslim force to
    the next highest-numbered area, repeating the process until reaching an area where there
    is a road leading to a region with an enemy-controlled area." From Granada: Algeciras
    (its road leads to Portugal, no enemy), then Córdoba, whose road leads to Toledo. The
    moves' data name the road and the region it leads to, and the siege that follows keeps
    one army per unit (the city, the fortress, 1 Christian army)."""
    place(quiet, "Toledo", [("christian", A, 1)], city="muslim", fortress=True)
    place(quiet, "Granada", [("muslim", A, 1), ("muslim", G, 1)], city="muslim")
    prompts, _ = march(board, quiet, "Granada", [])  # a city with 1 army: no battle, a siege
    assert moves(prompts) == ["Granada -> Algeciras", "Algeciras -> Córdoba", "Córdoba -> Toledo"]
    steps = of(prompts, "reconquista.march.move")
    assert [(m.data["from"], m.data["to"], m.data["how"]) for m in steps] == [
        ("Granada", "Algeciras", "toward_road"),
        ("Algeciras", "Córdoba", "toward_road"),
        ("Córdoba", "Toledo", "road"),
    ]
    for m in steps:
        assert facts(m, "goal", "enemy", "road", "roads_away") == {
            "goal": "Castilla",
            "enemy": ["Toledo"],
            "road": ["Córdoba", "Toledo"],
            "roads_away": 1,
        }
    assert steps[0].reason.startswith("no enemy in Al-Ándalus: on towards the road from Córdoba to Toledo")
    assert steps[2].reason.endswith("takes the road Córdoba → Toledo")
    assert steps[2].data["to_region"] == "Castilla"
    siege = one(prompts, "reconquista.march.besiege")
    assert facts(siege, "area", "needed", "stay", "moving_on") == {
        "area": "Toledo",
        "needed": 3,
        "stay": 3,
        "moving_on": 0,
    }
    assert siege.rule == f"{PHASE5} — If the Battle results in a siege situation"
    text = tells(prompts)
    assert text[1].startswith(
        "Muslim force moves Granada -> Algeciras: no enemy in Al-Ándalus: on towards the road from "
        "Córdoba to Toledo (Castilla, where the enemy is in Toledo)."
    )
    assert (
        "Muslim force moves Córdoba -> Toledo: no enemy in Al-Ándalus: by the road to Castilla, where the enemy is in Toledo."
        in said(prompts)
    )


def test_a_force_passes_on_before_it_takes_a_road_even_from_its_own_area(
    board: Board, quiet: GameState
) -> None:
    """Phase 5: "If there is no enemy-controlled area in the Region, pass the Muslim force to the
    next highest-numbered area, repeating the process until reaching an area where there is a
    road leading to a region with an enemy-controlled area." The force passes on first: from
    Córdoba, whose road leads to the enemy in Toledo, it passes to Murcia, which is such an
    area (its road leads to Valencia, in Castilla), and takes that road (rules-notes, Phase 5,
    reading 10)."""
    place(quiet, "Toledo", [("christian", A, 1)], city="muslim", fortress=True)
    prompts, _ = march(board, quiet, "Córdoba", [])  # a city with 1 army: no battle, a siege
    assert moves(prompts)[:2] == ["Córdoba -> Murcia", "Murcia -> Valencia"]
    assert tells(prompts)[1].startswith(
        "Muslim force moves Córdoba -> Murcia: no enemy in Al-Ándalus: on towards the road from Murcia to "
        "Valencia (Castilla, where the enemy is in Toledo)."
    )
    assert "by the road to Castilla, where the enemy is in Toledo" in tells(prompts)[2]
    assert moves(prompts)[-1] == "Salamanca -> Toledo"


def test_a_force_whose_only_road_is_where_it_stands_goes_round_the_region_to_it(
    board: Board, quiet: GameState
) -> None:
    """Phase 5: "pass the Muslim force to the next highest-numbered area, repeating the process
    until reaching an area where there is a road leading to a region with an enemy-controlled
    area." Asturias's only road to Aragón, where the enemy is (Barcelona), starts in Oviedo, where
    the force stands: it passes on round Asturias (Galicia, León, Santiago), reaches Oviedo again,
    and takes the road there (entering Oviedo twice is the rule's own way, not a circle)."""
    quiet.areas["Oviedo"].add("muslim", A, 2)
    place(quiet, "Barcelona", [("christian", A, 1)])
    prompts, _ = march(board, quiet, "Oviedo", [[6, 6], [1]])
    assert moves(prompts) == [
        "Oviedo -> Galicia", "Galicia -> León", "León -> Santiago", "Santiago -> Oviedo",
        "Oviedo -> Pamplona", "Pamplona -> Barcelona",
    ]  # fmt: skip
    assert not [p for p in of(prompts, "reconquista.march.stop") if p.data["cause"] == "circle"]
    assert "on towards the road from Oviedo to Pamplona" in tells(prompts)[1]
    assert quiet.areas["Barcelona"].units == {"muslim": {A: 2}}


def test_roads_two_regions_away(board: Board, quiet: GameState) -> None:
    """Phase 5: "If there is still none, then move to the first road that leads to a Region
    that then leads to another Region with an enemy-controlled area." Read breadth-first
    over the regions: from Algeciras, the enemy in Oviedo (Asturias) is two roads away. The
    force passes on first (reading 10): Córdoba's road to Toledo leads to Castilla, one road
    from Asturias (Salamanca-León), and it is the first such road it reaches."""
    place(quiet, "Oviedo", [("christian", A, 1)], city="christian")
    prompts, _ = march(board, quiet, "Algeciras", [])  # no army at Algeciras yet
    assert tells(prompts) == ["No Muslim army stands in Algeciras any more: nothing moves from there."]
    quiet.areas["Algeciras"].add("muslim", A, 2)
    prompts, _ = march(board, quiet, "Algeciras", [])
    assert moves(prompts) == [
        "Algeciras -> Córdoba", "Córdoba -> Toledo", "Toledo -> Cuenca", "Cuenca -> Valencia",
        "Valencia -> Salamanca", "Salamanca -> León", "León -> Santiago", "Santiago -> Oviedo",
    ]  # fmt: skip
    assert any(
        "by the road to Castilla, on the way to Asturias, where the enemy is in Oviedo" in t
        for t in tells(prompts)
    )


def test_of_two_roads_the_first_in_map_order(board: Board, quiet: GameState) -> None:
    """Tie-break (docs/rules-notes.md, "Phase 5"): the force from Algeciras passes on to Córdoba,
    whose roads lead to Toledo (Castilla) and Badajoz (Portugal), both regions with an enemy:
    the road to the area first in map order (Castilla is region 3): Toledo."""
    place(quiet, "Cuenca", [("christian", A, 1)])
    place(quiet, "Lisboa", [("christian", A, 1)], city="muslim")
    quiet.areas["Algeciras"].add("muslim", A, 2)
    # 2 armies from Algeciras, 2 more in Córdoba, and Toledo's army: 5 against Cuenca's 1
    prompts, _ = march(board, quiet, "Algeciras", [[6, 6, 6, 6, 6], [1]])
    assert moves(prompts)[:2] == ["Algeciras -> Córdoba", "Córdoba -> Toledo"]
    assert any("by the road to Castilla, where the enemy is in Cuenca" in t for t in tells(prompts))


def test_no_enemy_within_reach_the_force_stays(board: Board, quiet: GameState) -> None:
    """Termination: the only enemy is in the region in revolt ("No one can move into it"):
    the literal search would circle Al-Ándalus forever; the force stays and says why."""
    quiet.revolt = 3
    place(quiet, "Toledo", [("christian", A, 1)], city="muslim", fortress=True)
    prompts, out = march(board, quiet, "Córdoba", [])
    assert moves(prompts) == [] and out == "Córdoba"
    assert (
        tells(prompts)[-1]
        == "No enemy can be reached from Córdoba: the Muslim force (2 Muslim armies) stays there."
    )


def test_the_region_in_revolt_is_never_crossed(board: Board, quiet: GameState) -> None:
    """Phase 1, result 6: "No one can move into it": with Portugal in revolt the way from
    Algeciras to Oviedo goes through Castilla (Córdoba-Toledo, Salamanca-León)."""
    quiet.revolt = 4
    place(quiet, "Oviedo", [("christian", A, 1)], city="christian")
    place(quiet, "Algeciras", [("muslim", A, 1), ("muslim", G, 1)], city="muslim")
    prompts, _ = march(board, quiet, "Algeciras", [])
    path = moves(prompts)
    assert path[:3] == ["Algeciras -> Córdoba", "Córdoba -> Toledo", "Toledo -> Cuenca"]
    assert "Salamanca -> León" in path and path[-1] == "Santiago -> Oviedo"
    assert not any(board.areas[m.split(" -> ")[1]].region == 4 for m in path)


def test_an_army_is_left_in_a_city_without_a_muslim_garrison(board: Board, quiet: GameState) -> None:
    """Phase 5: "Each time the force moves, if it leaves an area with a City or Fortress in
    which there is not already a Muslim Garrison present, it must leave behind an Army."
    Toledo (city and fortress, 2 armies, no garrison): one stays."""
    place(quiet, "Toledo", [("muslim", A, 2)], city="muslim", fortress=True)
    place(quiet, "Valencia", [("christian", A, 1)])
    prompts, _ = march(board, quiet, "Toledo", [[6], [1]])
    assert tells(prompts)[1] == (
        "Muslim force moves Toledo -> Cuenca: the enemy is in Castilla (Valencia), so on to the next "
        "higher-numbered area. Move 1 Muslim army from Toledo to Cuenca, leaving 1 Muslim army in "
        "Toledo (a city with no Muslim garrison keeps an army)."
    )
    assert quiet.areas["Toledo"].units == {"muslim": {A: 1}}
    assert quiet.areas["Valencia"].units == {"muslim": {A: 1}}


def test_a_lone_army_that_must_stay_ends_the_march(board: Board, quiet: GameState) -> None:
    """Phase 5, the same rule with a force of one army: it cannot leave the city without
    leaving an army, so it stays and the march ends (docs/rules-notes.md, "Phase 5"): the
    stop's cause is 'last_army', with the area it would have gone to."""
    place(quiet, "Toledo", [("muslim", A, 1)], city="muslim", fortress=True)
    place(quiet, "Valencia", [("christian", A, 1)])
    prompts, out = march(board, quiet, "Toledo", [])
    assert out == "Toledo" and moves(prompts) == []
    stop = one(prompts, "reconquista.march.stop")
    assert facts(stop, "cause", "area", "to", "units") == {
        "cause": "last_army",
        "area": "Toledo",
        "to": "Cuenca",
        "units": 1,
    }
    assert stop.rule == f"{PHASE5} — Each time the force moves"
    assert "without a Muslim garrison" in stop.reason
    assert tells(prompts)[-1] == (
        "The Muslim force would move on (the enemy is in Castilla (Valencia), so on to the next "
        "higher-numbered area), but Toledo is a city with no Muslim garrison keeps an army: its last "
        "army (1 Muslim army) stays there; its movement ends."
    )


def test_a_fortress_without_a_city_also_keeps_an_army(board: Board, quiet: GameState) -> None:
    """Phase 5: "an area with a City or Fortress": a fortress alone counts."""
    place(quiet, "Cuenca", [("muslim", A, 2)], fortress=True)
    place(quiet, "Salamanca", [("christian", A, 1)])
    prompts, _ = march(board, quiet, "Cuenca", [[6], [1]])
    assert (
        "leaving 1 Muslim army in Cuenca (a fortress with no Muslim garrison keeps an army)"
        in tells(prompts)[1]
    )


@pytest.mark.parametrize("fortress", [False, True])
def test_a_force_passing_walls_its_side_holds_picks_up_leaves_one_and_goes_on(
    board: Board, quiet: GameState, fortress: bool
) -> None:
    """Important Definitions: "A City is under Muslim control if it contains Muslim forces [...]
    It does not matter whether the City itself is Muslim or Christian." Phase 5: "Repeat the
    movement until the force enters an area of non-Muslim control"; "If the Force enters (or
    starts in) an area with other Muslim Armies, these are added to the force and move with
    it"; "if it leaves an area with a City or Fortress in which there is not already a Muslim
    Garrison present, it must leave behind an Army." Cuenca is a Christian city (with or
    without a fortress) held by 2 Muslim armies: the force from Toledo enters it, takes them,
    leaves one army (not one per unit: nothing there is besieged) and goes on to the enemy in
    Valencia. No siege of the Muslims' own city, nothing for Phase 6 to resolve."""
    place(quiet, "Cuenca", [("muslim", A, 2)], city="christian", fortress=fortress)
    place(quiet, "Valencia", [("christian", A, 1)])
    prompts, _ = march(board, quiet, "Toledo", [[6, 6], [1]])
    assert moves(prompts) == ["Toledo -> Cuenca", "Cuenca -> Valencia"]
    assert "2 more Muslim armies join the Muslim force in Cuenca: now 3 Muslim armies." in tells(prompts)
    assert of(prompts, "reconquista.march.besiege") == []
    assert [p.data["area"] for p in of(prompts, "reconquista.march.enemy")] == ["Valencia"]
    cuenca = quiet.areas["Cuenca"]
    assert cuenca.units == {"muslim": {A: 1}} and cuenca.besieger is None
    assert city_controller(cuenca) == "muslim"
    assert quiet.areas["Valencia"].units == {"muslim": {A: 2}}


def test_a_force_raised_in_walls_its_side_holds_marches_from_them(board: Board, quiet: GameState) -> None:
    """Phase 5: "1 to 6 Army / Armies - Place the appropriate number of armies in a randomly
    selected area free of any Christian / Rebel forces", then "Once the Muslim force has been
    created, it will move"; "If the Force [...] starts in an area with other Muslim Armies,
    these are added to the force". Cuenca, a Christian city held by 1 Muslim army (so Muslim-
    controlled: "It does not matter whether the City itself is Muslim or Christian"), gets the
    2 armies of a 4 in the last column: the force of 3 does not "fight where it stands" (there
    is no enemy there), leaves one army as it leaves the city and marches on. (An empty
    Christian city is no place to raise armies: it is not "free of Christian forces", rules-notes
    Phase 5; armies landed from North Africa in one besiege it.)"""
    place(quiet, "Cuenca", [("muslim", A, 1)], city="christian")
    place(quiet, "Valencia", [("christian", A, 1)])
    # Castilla (3), table 4 (2 armies, column '3 or 4': Salamanca, Toledo, Cuenca held), area
    # die 4 (Cuenca); the battle in Valencia: the 2 Muslim armies hit, the Christian misses.
    prompts, _ = drive(reaction.phase(board, quiet), [[3], [4], [4], [6, 6], [1]])
    check_invariants(board, quiet)
    assert of(prompts, "reconquista.march.besiege") == []
    start = one(prompts, "reconquista.march.start")
    assert facts(start, "area", "units") == {"area": "Cuenca", "units": 3}
    assert [p.data["area"] for p in of(prompts, "reconquista.march.enemy")] == ["Valencia"]
    assert moves(prompts) == ["Cuenca -> Valencia"]
    assert quiet.areas["Cuenca"].units == {"muslim": {A: 1}} and quiet.areas["Cuenca"].besieger is None


# -- battles and sieges -----------------------------------------------------------------------


def test_a_siege_keeps_one_army_per_unit_and_the_rest_move_on(board: Board, quiet: GameState) -> None:
    """Phase 5: "If the Battle results in a siege situation [...] the Muslim force will leave
    behind a number of armies equal to the number of units in the area and the rest will
    continue the movement, as before. For example, for a City with a Fortress and a
    Garrison, 3 Armies will stay." Valencia: Christian city, fortress, 1 Christian garrison
    (no battle: one unit); 5 armies: 3 stay, 2 go on to the Rebel in Salamanca, as the
    siege's and the last move's data say."""
    place(quiet, "Cuenca", [("muslim", A, 5)])
    place(quiet, "Valencia", [("christian", G, 1)], city="christian", fortress=True)
    place(quiet, "Salamanca", [("rebel", R, 1)])
    prompts, _ = march(board, quiet, "Cuenca", [[6, 6], [1]])
    text = tells(prompts)
    assert (
        "No battle in Valencia (1 Christian garrison inside): the Muslim force stops and besieges it (Phase 6)."
        in text
    )
    assert (
        "3 Muslim armies of the Muslim force stay in Valencia to besiege it, one army per unit (3 units "
        "there: the city, the fortress, 1 Christian garrison); the other 2 Muslim armies move on."
    ) in text
    assert moves(prompts) == ["Cuenca -> Valencia", "Valencia -> Salamanca"]
    assert "leaving" not in text[-3]  # the besiegers hold Valencia: no extra army is left
    assert quiet.areas["Valencia"].units == {"christian": {G: 1}, "muslim": {A: 3}}
    assert quiet.areas["Valencia"].besieger == "muslim"
    assert quiet.areas["Salamanca"].units == {"muslim": {A: 2}}
    siege = one(prompts, "reconquista.march.besiege")
    assert facts(siege, "units", "needed", "stay", "moving_on") == {
        "units": 5,
        "needed": 3,
        "stay": 3,
        "moving_on": 2,
    }
    last = of(prompts, "reconquista.march.move")[-1]
    assert facts(last, "from", "to", "units", "left") == {
        "from": "Valencia",
        "to": "Salamanca",
        "units": 2,
        "left": 0,
    }


def test_an_empty_christian_city_keeps_one_army(board: Board, quiet: GameState) -> None:
    """Phase 5: "a siege situation (that is, there are forces in the City, or else a
    Christian City without forces)": one army for the city; the other goes on."""
    place(quiet, "Cuenca", [("muslim", A, 2)])
    place(quiet, "Valencia", city="christian")
    place(quiet, "Salamanca", [("rebel", R, 1)])
    prompts, _ = march(board, quiet, "Cuenca", [[6], [1]])
    assert (
        "1 Muslim army of the Muslim force stays in Valencia to besiege it, one army per unit (1 unit "
        "there: the city); the other 1 Muslim army moves on."
    ) in tells(prompts)
    assert quiet.areas["Valencia"].besieger == "muslim"
    assert quiet.areas["Valencia"].units == {"muslim": {A: 1}}
    assert quiet.areas["Salamanca"].units == {"muslim": {A: 1}}


def test_a_siege_bigger_than_the_force_keeps_it_all(board: Board, quiet: GameState) -> None:
    """Phase 5, siege leave-behind: with no more armies than units in the area, the whole
    force stays to besiege and the march ends."""
    place(quiet, "Cuenca", [("muslim", A, 2)])
    place(quiet, "Valencia", [("christian", G, 1)], city="christian", fortress=True)
    prompts, out = march(board, quiet, "Cuenca", [])
    assert out == "Valencia"
    assert tells(prompts)[-1] == (
        "The whole Muslim force (2 Muslim armies) stays in Valencia to besiege it (3 units there: "
        "the city, the fortress, 1 Christian garrison); its movement ends."
    )


def test_a_battle_that_ends_in_a_siege_counts_the_survivors(board: Board, quiet: GameState) -> None:
    """Phase 5, siege leave-behind after a battle: the Christians (2 armies, 1 garrison)
    tie by their city and withdraw into it (Complex Battle 2), the garrison lost; the units
    counted are the city and the 2 armies inside: 3 of the 4 surviving Muslim armies stay,
    1 moves on to the Christian garrison in Salamanca."""
    place(quiet, "Cuenca", [("muslim", A, 5)])
    place(quiet, "Valencia", [("christian", A, 2), ("christian", G, 1)], city="christian")
    place(quiet, "Salamanca", [("christian", G, 1)])
    prompts, _ = march(board, quiet, "Cuenca", [[4, 1, 1, 1, 1], [4, 1, 1], [6], [1]])
    text = tells(prompts)
    assert (
        "The Christian force withdraws into the city of Valencia; the Muslim force stays outside and besieges it (Phase 6)."
        in text
    )
    assert (
        "3 Muslim armies of the Muslim force stay in Valencia to besiege it, one army per unit (3 units "
        "there: the city, 2 Christian armies); the other 1 Muslim army moves on."
    ) in text
    assert quiet.areas["Valencia"].units == {"christian": {A: 2}, "muslim": {A: 3}}
    assert quiet.areas["Valencia"].besieger == "muslim"
    assert quiet.areas["Salamanca"].units == {"muslim": {A: 1}}


def test_a_victory_without_siege_moves_on(board: Board, quiet: GameState) -> None:
    """Phase 5: "If the Battle results in a Muslim victory and there is no siege, continue
    the movement of the Muslim force as before." Murcia (open) is won, then Granada."""
    place(quiet, "Murcia", [("christian", A, 1)])
    place(quiet, "Granada", [("christian", G, 1)])
    prompts, _ = march(board, quiet, "Córdoba", [[6, 1], [1], [1], [6, 1]])
    text = tells(prompts)
    assert "The Muslim force (2 Muslim armies) has won in Murcia and marches on." in text
    assert moves(prompts) == ["Córdoba -> Murcia", "Murcia -> Granada"]
    assert quiet.areas["Granada"].units == {"muslim": {A: 2}}


def test_a_beaten_force_goes_back_and_then_on(board: Board, quiet: GameState) -> None:
    """Phase 5: "If the Muslim force has to retreat, withdraw the force back to the area it
    came from. The Army continues to the next highest-numbered area. (This could mean that
    the force returns again to the same area from which it retreated.)" 3 armies from
    Córdoba lose to 2 Christian armies in Murcia, go back to Córdoba, and attack again:
    that move is 'after_retreat' and follows the retreat paragraph."""
    place(quiet, "Córdoba", [("muslim", A, 3)])
    place(quiet, "Murcia", [("christian", A, 2)])
    script = [[4, 1, 1], [6, 6], [6], [1]]
    prompts, _ = march(board, quiet, "Córdoba", script)
    text = tells(prompts)
    assert "The Muslim force retreats: move 1 Muslim army from Murcia to Córdoba" in said(prompts)
    assert moves(prompts) == ["Córdoba -> Murcia", "Córdoba -> Murcia"]
    assert any(
        t.startswith(
            "Muslim force moves Córdoba -> Murcia: after its retreat the force goes on to the next higher-numbered area."
        )
        for t in text
    )
    assert not [p for p in prompts if isinstance(p, Choose)]
    assert quiet.areas["Murcia"].units == {"muslim": {A: 1}}
    first, again = of(prompts, "reconquista.march.move")
    assert first.data["how"] == "enemy_in_region" and first.data["units"] == 3
    assert facts(again, "from", "to", "how", "units") == {
        "from": "Córdoba",
        "to": "Murcia",
        "how": "after_retreat",
        "units": 1,
    }
    assert again.rule == f"{PHASE5} — If the Muslim force has to retreat"
    assert again.reason.endswith("Córdoba 3 → Murcia 4")


def test_the_robot_retreat_needs_no_choice(board: Board, quiet: GameState) -> None:
    """Phase 4, Battle: a beaten force "may" retreat into a besieged city; the Muslim force
    is the robot: it goes "back to the area it came from" (Phase 5), so no Choose is shown.
    Valencia: an empty Christian city besieged by Rebel armies."""
    place(quiet, "Cuenca", [("muslim", A, 2)])
    place(quiet, "Valencia", [("rebel_army", RA, 2)], city="christian", besieger="rebel_army")
    prompts, _ = march(board, quiet, "Cuenca", [[1, 1], [6, 1], [1], [6, 1]])
    assert not [p for p in prompts if isinstance(p, Choose)]
    assert "move 1 Muslim army from Valencia to Cuenca" in said(prompts)


def test_the_forces_of_a_besieged_muslim_city_join_and_a_tie_sends_them_in(
    board: Board, quiet: GameState
) -> None:
    """Phase 5: "If the area contains a Christian force and a City under Muslim control, then
    the forces of the Muslim City join the battle. If the Muslim forces are forced to
    retreat, or the Battle is a tie, the entire surviving force retreats into the City."
    Valencia's garrison fights with the 2 armies; a tie: all go into the city, the siege
    stays, the march ends (battle.battle would have fought another round)."""
    place(quiet, "Cuenca", [("muslim", A, 2)])
    place(quiet, "Valencia", [("muslim", G, 1), ("christian", A, 2)], city="muslim", besieger="christian")
    prompts, out = march(board, quiet, "Cuenca", [[4, 1, 1], [4, 1]])
    r = rolls(prompts)
    assert r[0].why == "Battle in Valencia, round 1: Muslim dice (A, A, G)"
    assert len(r) == 2
    assert tells(prompts)[-1] == (
        "A tie: the surviving Muslim force (2 Muslim armies) withdraws into the city of Valencia; "
        "the Christian force keeps the siege (Phase 6)."
    )
    assert out == "Valencia"
    v = quiet.areas["Valencia"]
    assert v.units == {"muslim": {A: 2}, "christian": {A: 1}} and v.besieger == "christian"
    assert city_controller(v) == "muslim"


def test_a_beaten_relief_goes_into_the_city(board: Board, quiet: GameState) -> None:
    """Phase 5, the same clarification: "If the Muslim forces are forced to retreat [...] the
    entire surviving force retreats into the City" (not back to where it came from)."""
    place(quiet, "Cuenca", [("muslim", A, 2)])
    place(quiet, "Valencia", [("muslim", G, 1), ("christian", A, 3)], city="muslim", besieger="christian")
    prompts, _ = march(board, quiet, "Cuenca", [[1, 1, 1], [6, 1, 1]])
    assert tells(prompts)[-1].startswith(
        "The Muslim force is beaten: the surviving Muslim force (2 Muslim armies) withdraws into the city of Valencia"
    )
    assert quiet.areas["Cuenca"].count("muslim") == 0


def test_a_relief_that_wins_moves_on(board: Board, quiet: GameState) -> None:
    """Phase 5, the relief won: the beaten besiegers retreat as a force without a city ("the
    enemy force moves from the battle area to the next higher-numbered area, that is free
    of hostile forces": Salamanca) and the Muslim force goes on after them; Valencia keeps
    its garrison (so no army needs to stay)."""
    place(quiet, "Cuenca", [("muslim", A, 2)])
    place(quiet, "Valencia", [("muslim", G, 1), ("christian", A, 3)], city="muslim", besieger="christian")
    place(quiet, "Salamanca")
    prompts, _ = march(board, quiet, "Cuenca", [[4, 4, 1], [1, 1, 1], [6, 6], [1]])
    text = tells(prompts)
    assert (
        "The Christian besiegers retreat: move 1 Christian army from Valencia to Salamanca. "
        "The city of Valencia is relieved."
    ) in text
    assert (
        "The Muslim force comes to relieve the city of Valencia, besieged by 3 Christian armies: "
        "the Muslim units in the city join the battle." in text
    )
    assert moves(prompts) == ["Cuenca -> Valencia", "Valencia -> Salamanca"]
    assert quiet.areas["Valencia"].units == {"muslim": {G: 1}} and quiet.areas["Valencia"].besieger is None
    assert quiet.areas["Salamanca"].units == {"muslim": {A: 2}}


def test_a_relief_won_by_the_garrison_alone_goes_no_further(board: Board, quiet: GameState) -> None:
    """Phase 5: "Muslim Garrisons never move". A lone mercenary relieves Valencia; it falls
    (mercenaries first) but the garrison wins: nobody is left to march on. (Found by the
    property: an empty force marched on.)"""
    place(quiet, "Cuenca", [("muslim", MC, 1)])
    place(quiet, "Valencia", [("muslim", G, 1), ("christian", A, 2)], city="muslim", besieger="christian")
    place(quiet, "Salamanca", [("christian", A, 1)])
    prompts, out = march(board, quiet, "Cuenca", [[5, 4], [6, 1]])
    assert rolls(prompts)[0].why == "Battle in Valencia, round 1: Muslim dice (G, MC)"
    assert tells(prompts)[-1] == "No Muslim army is left in Valencia to march on (garrisons never move)."
    assert out == "Valencia"
    assert quiet.areas["Valencia"].units == {"muslim": {G: 1}}


@pytest.mark.parametrize(
    ("inside", "muslim_dice", "christian_dice", "told", "left"),
    [
        (
            0,
            [1],
            [6, 6],
            "The Muslim force is destroyed; the Christian siege of the empty city of Valencia goes on.",
            {"christian": {A: 2}},
        ),
        (
            1,
            [1, 1],
            [6, 6],
            "The Muslim force and the Muslim units inside are destroyed; the Christian siege of the city of Valencia goes on.",
            {"christian": {A: 2}},
        ),
        (0, [6], [6], "Both forces in Valencia are destroyed.", {}),
    ],
)
def test_a_relief_destroyed(
    board: Board,
    quiet: GameState,
    inside: int,
    muslim_dice: list[int],
    christian_dice: list[int],
    told: str,
    left: dict[str, Any],
) -> None:
    """Phase 4, Battle: "If one side completely eliminates the other, it does not need to
    retreat": a relief wiped out ends the march, the siege of the Muslim city going on;
    both sides wiped out leaves the city empty and unbesieged. The Tell names who was
    destroyed: the units of the city only when there were some (it said "the defenders of
    Valencia" of an empty city)."""
    place(quiet, "Cuenca", [("muslim", A, 1)])
    place(
        quiet,
        "Valencia",
        [("muslim", G, inside), ("christian", A, len(christian_dice))],
        city="muslim",
        besieger="christian",
    )
    prompts, out = march(board, quiet, "Cuenca", [muslim_dice, christian_dice])
    assert tells(prompts)[-1] == told
    assert out is None
    assert quiet.areas["Valencia"].units == left
    assert quiet.areas["Valencia"].besieger == ("christian" if left else None)


def test_el_cid_in_a_relief_battle(board: Board, quiet: GameState) -> None:
    """Quick Reference, event 8: El Cid "Attacks first": with the Muslims relieving Valencia
    he strikes first; with the Christian besiegers he goes with them when they retreat."""
    place(quiet, "Cuenca", [("muslim", A, 2)])
    place(quiet, "Valencia", [("muslim", G, 1), ("christian", A, 1)], city="muslim", besieger="christian")
    quiet.el_cid_area, quiet.el_cid_side = "Cuenca", "muslim"
    prompts, _ = march(board, quiet, "Cuenca", [[6, 1, 1]])
    assert rolls(prompts)[0].why == "Battle in Valencia, round 1: Muslim dice first (A, A, G)"
    assert quiet.el_cid_area == "Valencia"

    state = quiet_state(board)
    place(state, "Cuenca", [("muslim", A, 2)])
    place(state, "Valencia", [("muslim", G, 1), ("christian", A, 3)], city="muslim", besieger="christian")
    place(state, "Salamanca")
    state.el_cid_area, state.el_cid_side = "Valencia", "christian"
    prompts, _ = drive(
        robot_march.march(board, state, "muslim", "Cuenca"), [[1, 1, 1], [6, 6, 1], [1], [4, 4]]
    )
    assert rolls(prompts)[0].why == "Battle in Valencia, round 1: Christian dice first (A, A, A)"
    assert (
        "The Christian besiegers retreat: move 1 Christian army from Valencia to Salamanca. "
        "El Cid goes with them to Salamanca. The city of Valencia is relieved."
    ) in tells(prompts)
    assert rolls(prompts)[1].why == "Battle in Valencia, round 1: Muslim survivors' dice (A, A, G)"
    assert state.el_cid_area == "Salamanca"


def test_a_force_falling_back_picks_up_and_takes_el_cid(board: Board, quiet: GameState) -> None:
    """Phase 5: the army left in Toledo ("it must leave behind an Army") joins the force that
    falls back there ("If the Force enters [...] an area with other Muslim Armies, these are
    added"); El Cid goes back with it; moving on again it leaves an army in Toledo again."""
    place(quiet, "Toledo", [("muslim", A, 3)], city="muslim", fortress=True)
    place(quiet, "Cuenca", [("christian", A, 2)])
    quiet.el_cid_area, quiet.el_cid_side = "Toledo", "muslim"
    prompts, _ = march(board, quiet, "Toledo", [[1, 1], [6, 1], [6], [1]])
    text = tells(prompts)
    assert "1 more Muslim army joins the Muslim force in Toledo: now 2 Muslim armies." in text
    assert moves(prompts) == ["Toledo -> Cuenca", "Toledo -> Cuenca"]
    assert sum(1 for t in text if "leaving 1 Muslim army in Toledo" in t) == 2
    assert quiet.areas["Toledo"].units == {"muslim": {A: 1}}
    assert quiet.areas["Cuenca"].units == {"muslim": {A: 1}}
    assert quiet.el_cid_area == "Cuenca"


def test_a_landing_beaten_by_the_besiegers_of_a_city_falls_back_into_it(
    board: Board, quiet: GameState
) -> None:
    """Phase 4, Battle: "if the battle involved a besieged city [...] the retreat may be to
    that city" (battle.battle offers it): a landing beaten by the Rebel armies besieging the
    empty Christian city of Valencia has no area it came from, so it goes into the city, and
    its march ends there."""
    place(quiet, "Valencia", [("rebel_army", RA, 1)], city="christian", besieger="rebel_army")
    prompts, _ = drive(reaction.phase(board, quiet), [[6], [2], [5], [1, 1], [6]])
    check_invariants(board, quiet)
    assert tells(prompts)[-1] == "The Muslim force is shut in the city of Valencia: its movement ends."
    assert quiet.areas["Valencia"].units == {"rebel_army": {RA: 1}, "muslim": {A: 1}}
    assert quiet.areas["Valencia"].besieger == "rebel_army"


def test_a_rebel_city_stays_out_and_is_besieged(board: Board, quiet: GameState) -> None:
    """Phase 5: "If the area contains a Christian force and a Rebel City, the Rebels play no
    role in the Battle. If the Christians lose, they will retreat elsewhere and the Muslim
    force will then besiege the City." Valencia: 2 Rebels inside, 1 Christian army outside.
    The Muslims win; 3 armies stay (the city and 2 Rebels), 1 moves on."""
    place(quiet, "Cuenca", [("muslim", A, 4)])
    place(quiet, "Valencia", [("rebel", R, 2), ("christian", A, 1)], city="muslim", besieger="christian")
    place(quiet, "Salamanca")
    prompts, _ = march(board, quiet, "Cuenca", [[6, 6, 1, 1], [1]])
    r = rolls(prompts)
    assert [p.why for p in r][:2] == [
        "Battle in Valencia, round 1: Muslim dice (A, A, A, A)",
        "Battle in Valencia, round 1: Christian dice (A)",
    ]
    text = said(prompts)
    assert (
        "3 Muslim armies of the Muslim force stay in Valencia to besiege it, one army per unit (3 units there: the city, 2 Rebels); the other 1 Muslim army moves on."
        in text
    )
    assert quiet.areas["Valencia"].besieger == "muslim"
    assert quiet.areas["Valencia"].count("rebel") == 2


# -- El Cid -----------------------------------------------------------------------------------


def test_el_cid_joins_the_muslim_force_he_meets(board: Board, quiet: GameState) -> None:
    """Quick Reference, event 8 and docs/design.md: El Cid "joins a force of its side": met on
    the way (Córdoba), he moves with the Muslim force and his side strikes first. The join
    has its topic, and the moves after it say so in their data."""
    quiet.el_cid_area, quiet.el_cid_side = "Córdoba", "muslim"
    place(quiet, "Algeciras", [("muslim", A, 1), ("muslim", G, 1)], city="muslim")
    place(quiet, "Murcia", [("christian", A, 1)])
    prompts, _ = march(board, quiet, "Algeciras", [[6, 1, 1]])
    text = tells(prompts)
    assert "El Cid, with the Muslims, is in Córdoba: he joins the Muslim force and moves with it." in text
    assert [t.endswith("El Cid goes with it.") for t in text if MOVE.match(t)] == [False, True]
    assert rolls(prompts)[0].why == "Battle in Murcia, round 1: Muslim dice first (A, A, A)"
    assert quiet.el_cid_area == "Murcia"
    joins = one(prompts, "reconquista.march.el_cid")
    assert facts(joins, "side", "area") == {"side": "muslim", "area": "Córdoba"}
    assert [m.data["el_cid"] for m in of(prompts, "reconquista.march.move")] == [False, True]


def test_a_christian_el_cid_does_not_join(board: Board, quiet: GameState) -> None:
    """El Cid with the Christians never joins the Muslim force that passes him."""
    quiet.el_cid_area, quiet.el_cid_side = "Murcia", "christian"
    place(quiet, "Murcia")
    place(quiet, "Granada", [("christian", A, 1)])
    prompts, _ = march(board, quiet, "Córdoba", [[1], [6, 1]])  # Granada: the mountain
    assert moves(prompts) == ["Córdoba -> Murcia", "Murcia -> Granada"]
    assert quiet.el_cid_area == "Murcia"
    assert "El Cid" not in said(prompts)


# -- termination ------------------------------------------------------------------------------


def test_a_search_that_would_circle_stops_at_the_first_repeat(board: Board, quiet: GameState) -> None:
    """docs/design.md, Termination: "no area entered twice while looking for an enemy". A route
    made to circle forever (as a wrong map or rule could) is stopped before it enters
    Córdoba a second time. The stop names the area it would enter again; the moves it made
    have no way named ('how' is the router's)."""

    def circling(b: Board, s: GameState, side: str, here: str, arrived: bool) -> robot_march.Step:
        return robot_march.Step(b.next_area(here), "round and round")

    prompts, out = drive(robot_march.march(board, quiet, "muslim", "Córdoba", router=circling), [])
    check_invariants(board, quiet)
    assert moves(prompts) == ["Córdoba -> Murcia", "Murcia -> Granada", "Granada -> Algeciras"]
    assert tells(prompts)[-1] == (
        "The Muslim force would enter Córdoba a second time without meeting an enemy: it stops in "
        "Algeciras (2 Muslim armies)."
    )
    assert out == "Algeciras"
    stop = one(prompts, "reconquista.march.stop")
    assert facts(stop, "cause", "area", "to") == {"cause": "circle", "area": "Algeciras", "to": "Córdoba"}
    assert [m.data["how"] for m in of(prompts, "reconquista.march.move")] == ["", "", ""]


def test_the_step_budget_is_the_last_guard(board: Board, quiet: GameState) -> None:
    """docs/design.md, Termination: "a step budget as a last guard, logged if hit". The last
    guard says it stopped the march, and where."""
    place(quiet, "Algeciras", [("christian", A, 1)])
    prompts, out = drive(robot_march.march(board, quiet, "muslim", "Córdoba", budget=2), [])
    check_invariants(board, quiet)
    assert moves(prompts) == ["Córdoba -> Murcia", "Murcia -> Granada"]
    assert out == "Granada"
    assert tells(prompts)[-1] == (
        "The Muslim force has made 2 moves, the most the app allows one march (a guard against a "
        "march without end): it stops in Granada (2 Muslim armies)."
    )
    stop = one(prompts, "reconquista.march.stop")
    assert facts(stop, "cause", "area", "budget") == {"cause": "budget", "area": "Granada", "budget": 2}


# -- the French and the Rebel armies -----------------------------------------------------------


def test_french_are_hostile_to_all_and_fight_where_they_start(board: Board, state: GameState) -> None:
    """Phase 2, event 2: "move this French force according to the Muslim reaction rules
    (Phase 5), except that this French force is hostile to all other forces: Christian,
    Muslim or Rebel." Placed in Pamplona on a Christian garrison, they fight there first
    (like a landing on an enemy; the mountain: the garrison rolls first), then besiege
    Barcelona (a Christian city held by a Muslim garrison) and go on to Tarragona. Every
    step says side 'french' and cites event 2 before the Phase 5 paragraph."""
    state.areas["Pamplona"].add("french", F, 3)
    prompts, _ = march(board, state, "Pamplona", [[1], [6, 1, 1], [1], [5]], side="french")
    text = tells(prompts)
    assert text[0] == "The French force marches from Pamplona with 3 French armies."
    assert "Pamplona holds 1 Christian garrison: the French force fights where it stands." in text
    assert moves(prompts) == ["Pamplona -> Barcelona", "Barcelona -> Tarragona"]
    assert (
        "No battle in Barcelona (1 Muslim garrison inside): the French force stops and besieges it (Phase 6)."
        in text
    )
    assert (
        "2 French armies of the French force stay in Barcelona to besiege it, one army per unit (2 units "
        "there: the city, 1 Muslim garrison); the other 1 French army moves on."
    ) in text
    assert state.areas["Barcelona"].besieger == "french"
    mine = [p for p in prompts if p.topic.startswith("reconquista.march.")]
    assert mine and all(p.data["side"] == "french" for p in mine)
    assert all(
        p.rule.startswith("Phase 2: Events — 2 French Intervention; Phase 5: The Muslim Reaction — ")
        for p in mine
    )
    start = one(prompts, "reconquista.march.start")
    assert facts(start, "from", "units") == {"from": "Pamplona", "units": 3}
    enemy = of(prompts, "reconquista.march.enemy")[0]
    assert facts(enemy, "area", "at_start") == {"area": "Pamplona", "at_start": True}
    siege = one(prompts, "reconquista.march.besiege")
    assert facts(siege, "side", "area", "needed", "stay", "moving_on") == {
        "side": "french",
        "area": "Barcelona",
        "needed": 2,
        "stay": 2,
        "moving_on": 1,
    }
    assert siege.rule.endswith("If the Battle results in a siege situation")


def test_french_leave_an_army_behind_and_gather_their_own(board: Board, quiet: GameState) -> None:
    """Phase 2, event 2: the French move "according to the Muslim reaction rules (Phase 5)":
    all of them. Phase 5: "if it leaves an area with a City or Fortress in which there is not
    already a Muslim Garrison present, it must leave behind an Army. If the Force enters (or
    starts in) an area with other Muslim Armies, these are added to the force" (read for
    their own side: the French have no garrison). From the fortress of Pamplona one French
    army stays; the French army of Barcelona joins; the two beat the Christians of Tarragona
    and fall at Zaragoza."""
    place(quiet, "Pamplona", [("french", F, 2)], fortress=True)
    place(quiet, "Barcelona", [("french", F, 1)])
    place(quiet, "Tarragona", [("christian", A, 2)])
    place(quiet, "Zaragoza", [("muslim", A, 3)])
    prompts, _ = march(board, quiet, "Pamplona", [[6, 6], [1, 1], [1, 1], [6, 6, 6]], side="french")
    text = tells(prompts)
    assert moves(prompts) == ["Pamplona -> Barcelona", "Barcelona -> Tarragona", "Tarragona -> Zaragoza"]
    assert text[1].endswith(
        "Move 1 French army from Pamplona to Barcelona, leaving 1 French army in Pamplona "
        "(a fortress with no French garrison keeps an army)."
    )
    assert "1 more French army joins the French force in Barcelona: now 2 French armies." in text
    assert quiet.areas["Pamplona"].units == {"french": {F: 1}}
    assert quiet.areas["Barcelona"].units == {}


def test_a_jihads_second_force_judges_its_start_as_it_was_before_anything_rose(
    board: Board, quiet: GameState
) -> None:
    """Phase 2, 10 Jihad (Quick Reference): "During the Muslim reaction, roll twice for forces
    in the region"; Phase 5: "If the Force enters [...] an area with other Muslim Armies, these
    are added to the force"; "it must leave behind an Army". Cuenca, a Christian city held by a
    Muslim army, gets the second force's army; the first force, from Toledo, passes through,
    takes both and leaves one. The second force is that one army: Cuenca held no enemy before
    it rose, so it does not besiege the city its side holds (it has no enemy in reach and stays)."""
    place(quiet, "Cuenca", [("muslim", A, 1)], city="christian")
    place(quiet, "Valencia", [("christian", A, 1)])
    quiet.effects.jihad = True
    prompts, _ = drive(reaction.phase(board, quiet), [[3], [3], [3], [3], [4], [6, 1, 1], [1]])
    check_invariants(board, quiet)
    assert [p.data["area"] for p in of(prompts, "reconquista.march.start")] == ["Toledo", "Cuenca"]
    assert of(prompts, "reconquista.march.besiege") == []
    assert [p.data["area"] for p in of(prompts, "reconquista.march.enemy")] == ["Valencia"]
    assert (
        tells(prompts)[-1]
        == "No enemy can be reached from Cuenca: the Muslim force (1 Muslim army) stays there."
    )
    assert quiet.areas["Cuenca"].units == {"muslim": {A: 1}} and quiet.areas["Cuenca"].besieger is None


def test_french_passing_a_city_they_hold_pick_up_their_army_and_go_on(board: Board, quiet: GameState) -> None:
    """Phase 2, event 2: the French move "according to the Muslim reaction rules (Phase 5),
    except that this French force is hostile to all other forces". A city their own army holds
    is no enemy of theirs (Important Definitions: a city "contains" the forces that control it):
    Barcelona, a Christian city held by 1 French army, adds it to the force from Pamplona, keeps
    one army as the force leaves (no French garrison) and is not besieged; the force fights on
    in Tarragona."""
    place(quiet, "Pamplona", [("french", F, 2)])
    place(quiet, "Barcelona", [("french", F, 1)], city="christian")
    place(quiet, "Tarragona", [("christian", A, 1)])
    # Tarragona: 2 French hits, the Christian misses; Zaragoza (Muslim army and garrison): the
    # French miss twice and fall to 2 hits.
    prompts, _ = march(board, quiet, "Pamplona", [[6, 6], [1], [1, 1], [6, 6]], side="french")
    assert moves(prompts) == ["Pamplona -> Barcelona", "Barcelona -> Tarragona", "Tarragona -> Zaragoza"]
    assert of(prompts, "reconquista.march.besiege") == []
    assert [p.data["area"] for p in of(prompts, "reconquista.march.enemy")] == ["Tarragona", "Zaragoza"]
    assert quiet.areas["Barcelona"].units == {"french": {F: 1}} and quiet.areas["Barcelona"].besieger is None


def test_a_force_that_falls_back_leaves_its_besiegers_at_the_siege(board: Board, quiet: GameState) -> None:
    """Phase 5: the besiegers "leave behind a number of armies equal to the number of units in
    the area and the rest will continue"; beaten, the rest go "back to the area it came from".
    Falling back into the area they besiege, they do not take the besiegers along: the siege
    of Córdoba keeps its 3 armies (city, fortress, 1 Christian garrison)."""
    place(quiet, "Córdoba", [("christian", G, 1), ("muslim", A, 5)], city="christian", fortress=True)
    quiet.areas["Córdoba"].besieger = "muslim"
    place(quiet, "Murcia", [("christian", A, 3)])
    place(quiet, "Granada")
    prompts, _ = drive(
        robot_march.march(board, quiet, "muslim", "Córdoba"),
        # the 2 armies that go on lose 1 to Murcia's 3 armies and fall back; the last one
        # goes on again to Murcia and dies there
        [[1, 1], [6, 1, 1], [6], [6, 6, 6]],
    )
    check_invariants(board, quiet)
    assert tells(prompts)[0].startswith("3 Muslim armies of the Muslim force stay in Córdoba to besiege it")
    assert "The Muslim force retreats: move 1 Muslim army from Murcia to Córdoba." in tells(prompts)
    assert moves(prompts) == ["Córdoba -> Murcia", "Córdoba -> Murcia"]
    assert quiet.areas["Córdoba"].besieger == "muslim"
    assert quiet.areas["Córdoba"].units["muslim"] == {A: 3}
    assert quiet.areas["Murcia"].units == {"christian": {A: 2}}
    assert "join" not in said(prompts)


def test_rebel_armies_march_the_same_way(board: Board, quiet: GameState) -> None:
    """Phase 2, event 5: "move these Rebel forces according to the Muslim reaction rules
    (Phase 5), except that this Rebel force is hostile to all other forces". From Murcia
    they attack the Muslim army of Granada (mountain: it rolls first), lose, go back to
    Murcia, go on again to Granada ("the force returns again to the same area") and die.
    They march as side 'rebel_army' and cite event 5."""
    place(quiet, "Murcia", [("rebel_army", RA, 2)])
    place(quiet, "Granada", [("muslim", A, 1)])
    prompts, _ = march(board, quiet, "Murcia", [[6], [1], [6]], side="rebel_army")
    assert moves(prompts) == ["Murcia -> Granada", "Murcia -> Granada"]
    assert rolls(prompts)[0].why == "Battle in Granada, round 1: Muslim dice first (A)"
    assert "The Rebel army force retreats: move 1 Rebel army from Granada to Murcia." in tells(prompts)
    assert quiet.areas["Granada"].units == {"muslim": {A: 1}}
    assert quiet.areas["Murcia"].units == {}
    steps = of(prompts, "reconquista.march.move")
    assert [(m.data["side"], m.data["from"], m.data["to"], m.data["how"]) for m in steps] == [
        ("rebel_army", "Murcia", "Granada", "enemy_in_region"),
        ("rebel_army", "Murcia", "Granada", "after_retreat"),
    ]
    assert steps[0].rule == "Phase 2: Events — 5 Rebels; " + MOVEMENT
    assert steps[1].rule == f"Phase 2: Events — 5 Rebels; {PHASE5} — If the Muslim force has to retreat"


def test_move_force_refuses_other_sides(board: Board, state: GameState) -> None:
    """move_force moves the French or the Rebel armies only."""
    with pytest.raises(ValueError):
        next(robot_march.move_force(board, state, "muslim", "Córdoba"))


@pytest.mark.slow  # three whole games: 2 s of CPU
@pytest.mark.parametrize(("seed", "answers"), [(3, "random"), (6, "random"), (7, "bot")])
def test_a_march_names_the_region_it_goes_on_to(seed: int, answers: str) -> None:
    """Phase 5: "If there is still none, then move to the first road that leads to a Region that
    then leads to another Region with an enemy-controlled area." Two regions with an enemy may
    lie a road beyond the one the force takes; the sentence names the one the march goes on to
    by the same rule, road after road ('on the way to Aragón'), not the first of the region's
    links (in these games it said Asturias, and the force went to Aragón). Until it comes into
    the region named, the march enters no region but its own and the one its road leads to."""
    from companion.reconquista.game import GAME as RECONQUISTA
    from companion.reconquista.simulate import play

    d = play(seed, answers=answers)  # type: ignore[arg-type]
    board = RECONQUISTA.board_of(d.state)
    steps = d.steps
    checked = 0
    for i, step in enumerate(steps):
        p = step.prompt
        if p.topic != "reconquista.march.move" or p.data["how"] not in ("road", "toward_road"):
            continue
        goal = p.data["leads_to"]
        assert f"{goal}, where the enemy is in {', '.join(p.data['leads_to_enemy'])}" in p.text
        way = {board.region_of(p.data["from"]).name, board.region_of(p.data["road"][1]).name, goal}
        went = []
        for later in steps[i + 1 :]:
            q = later.prompt
            if q.topic == "reconquista.march.start" or not q.topic.startswith(
                ("reconquista.march.", "reconquista.battle.", "reconquista.sieges.")
            ):
                break
            if q.topic == "reconquista.march.move":
                went.append(q.data["to_region"])
        # Until it comes into the region named (where it fights, and may march on anew).
        before = went[: went.index(goal)] if goal in went else went
        if p.data["roads_away"] <= 2:
            assert set(before) <= way, (i, p.text, went)
            checked += 1
    assert checked
