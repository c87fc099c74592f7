"""What the prompts of the Muslim reaction (companion/reconquista/reaction.py) and of the march
(march.py) say they are: their topic, the facts in their data, the rule they follow and the
robot's reason, in real positions, so that the bot trace, the statistics and the screens can
read them instead of the wording.

The default board (docs/design.md): Castilla 3 is Salamanca 1-2, Toledo 3, Cuenca 4, Valencia
5-6; Al-Ándalus 5 is Algeciras 1-2, Córdoba 3, Murcia 4, Granada 5-6; roads Toledo-Córdoba,
Sevilla-Algeciras, Oviedo-Pamplona; ports 1 Sevilla ... 6 Tarragona.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from procedure_helpers import drive
from reconquista_helpers import one, place

from companion.prompts import Prompt, Roll, Tell
from companion.reconquista import march as robot_march
from companion.reconquista import reaction
from companion.reconquista.board import Board
from companion.reconquista.game import check_invariants
from companion.reconquista.setup import initial_state
from companion.reconquista.state import GameState
from companion.reconquista.units import Kind

A, G, R, F, RA = Kind.ARMY, Kind.GARRISON, Kind.REBEL, Kind.FRENCH, Kind.REBEL_ARMY

PHASE5 = "Phase 5: The Muslim Reaction"
MOVEMENT = f"{PHASE5} — Movement of the Muslim force"


@pytest.fixture
def quiet(board: Board) -> GameState:
    """The setup with no enemy of the Muslims anywhere (as in test_reconquista_reaction.py)."""
    s = initial_state(board)
    place(s, "Oviedo", [("muslim", G, 1)], city="christian")
    place(s, "Pamplona", [("muslim", G, 1)])
    return s


def of(prompts: list[Prompt], topic: str) -> list[Prompt]:
    return [p for p in prompts if p.topic == topic]


def facts(prompt: Prompt, *keys: str) -> dict[str, Any]:
    return {k: prompt.data[k] for k in keys}


def march(board: Board, state: GameState, side: str, start: str, dice: list[list[int]]) -> list[Prompt]:
    proc = (
        robot_march.march(board, state, side, start)
        if side == "muslim"
        else robot_march.move_force(board, state, side, start)
    )
    prompts, _ = drive(proc, dice)
    check_invariants(board, state)
    return prompts


# -- the region die and the reinforcement table ------------------------------------------------


def test_the_region_die_and_its_reroll_for_the_region_in_revolt(board: Board, quiet: GameState) -> None:
    """The region die is reconquista.reaction.region: the region in revolt in its data, the
    face rolled again says what it gave; the table column follows the region picked."""
    quiet.revolt = 3
    prompts, _ = drive(reaction.phase(board, quiet), [[3], [2], [2], [1]])
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


@pytest.mark.parametrize("cities", [0, 1, 2, 3, 4])
def test_the_reinforcement_column_is_the_muslim_cities_of_the_region(
    board: Board, quiet: GameState, cities: int
) -> None:
    """The reinforcement roll's data: the column the engine reads (the Muslim-controlled
    cities of the region, 3 or more the last), the region, the cities counted."""
    for i, name in enumerate(("Salamanca", "Toledo", "Cuenca", "Valencia")):
        place(quiet, name, [("muslim", G, 1)], city="muslim" if i < cities else None)
    prompts, result = drive(reaction._table(board, quiet, 3), [[3]])
    roll = one(prompts, "reconquista.reaction.reinforcement")
    assert isinstance(roll, Roll) and roll.why.startswith("Muslim reaction: reinforcement table, column ")
    assert roll.data == {"column": min(cities, 3), "region": "Castilla", "cities": cities, "again": False}
    assert roll.rule == f"{PHASE5} — Reinforcements by number of Muslim-controlled cities in the region"
    assert f"Castilla has {cities} Muslim-controlled" in roll.reason
    told = one(prompts, "reconquista.reaction.reinforcement_result")
    assert facts(told, "column", "face", "result", "count") == {
        "column": min(cities, 3),
        "face": 3,
        "result": result.kind,
        "count": result.count,
    }


def test_a_besieged_city_counts_in_the_column_data(board: Board, quiet: GameState) -> None:
    """Castilla with 2 Muslim-controlled cities, one of them besieged by Christians: column 2,
    the same the engine reads (a 3 there gives 1 army)."""
    for name in ("Salamanca", "Cuenca"):
        place(quiet, name, [("muslim", G, 1)])
    place(quiet, "Toledo", [("muslim", G, 1), ("christian", A, 2)], city="muslim", besieger="christian")
    place(quiet, "Valencia", [("muslim", G, 1)], city="muslim")
    prompts, result = drive(reaction._table(board, quiet, 3), [[3]])
    assert one(prompts, "reconquista.reaction.reinforcement").data["column"] == 2
    assert result.kind == "army" and result.count == 1


def test_the_table_rolled_again_says_again(board: Board, quiet: GameState) -> None:
    """A 5 and a 6 are not rows of the table: the rolls asked again have again True and the
    face refused; the column stays."""
    prompts, _ = drive(reaction._table(board, quiet, 3), [[5], [6], [2]])
    first, second, third = of(prompts, "reconquista.reaction.reinforcement")
    assert [p.data["again"] for p in (first, second, third)] == [False, True, True]
    assert "rejected" not in first.data
    assert [second.data["rejected"], third.data["rejected"]] == [5, 6]
    assert {p.data["column"] for p in (first, second, third)} == {3}
    assert third.reason == "a 6 is not a row of the table, so it is rolled again"


def test_north_africa_reads_its_own_column_and_lands_by_the_port_die(board: Board, quiet: GameState) -> None:
    """The North Africa column is -1 with no region; the port die and the landing have their
    topics; a landing on an enemy says so in its data."""
    place(quiet, "Valencia", [("christian", A, 1)])
    prompts, _ = drive(reaction.phase(board, quiet), [[6], [2], [5], [6, 6], [1]])
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
    landing = one(prompts, "reconquista.reaction.landing")
    assert landing.data == {"area": "Valencia", "region": "Castilla", "units": 2, "enemy": True}
    assert "even if the area is controlled by the enemy" in landing.reason
    enemy = one(prompts, "reconquista.march.enemy")
    assert facts(enemy, "area", "at_start") == {"area": "Valencia", "at_start": True}
    assert enemy.rule == f"{PHASE5} — In the case of reinforcements from North Africa"
    stop = one(prompts, "reconquista.march.stop")
    assert facts(stop, "cause", "area", "units") == {"cause": "landed", "area": "Valencia", "units": 2}


def test_no_region_can_rise(board: Board, quiet: GameState) -> None:
    """Every region but Castilla (in revolt) holds enemies everywhere and every port is in
    Castilla: nothing is rolled, one Tell says why."""
    quiet.revolt = 3
    ports = {f: board.regions[3].areas[(f - 1) % 4] for f in range(1, 7)}
    no_port = dataclasses.replace(board, ports=ports)
    for name in board.all_areas():
        if board.areas[name].region != 3:
            place(quiet, name, [("rebel", R, 1)])
    prompts, _ = drive(reaction.phase(no_port, quiet), [])
    (told,) = prompts
    assert told.topic == "reconquista.reaction.no_region" and told.data == {"revolt": "Castilla"}
    assert told.rule == f"{PHASE5} — Roll a D6 to select a region"


# -- placing the results -----------------------------------------------------------------------


def test_a_garrison_placed_by_the_fallback(board: Board, quiet: GameState) -> None:
    """Castilla's cities all hold a Muslim garrison: the fallback Tell names both choices;
    the area die is reconquista.reaction.area with the tier looked for; the placement is
    reconquista.reaction.garrison with its area (the area die's 4: Cuenca)."""
    prompts, _ = drive(reaction.phase(board, quiet), [[3], [2], [4]])
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
    assert quiet.areas["Cuenca"].count("muslim", G) == 2
    assert one(prompts, "reconquista.reaction.nothing_raised").data == {
        "region": "Castilla",
        "placed": ["Cuenca"],
    }


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


def test_nothing_happens_when_no_area_fits(board: Board, quiet: GameState) -> None:
    """Castilla without a Muslim unit or city: Build Fortress (column 0, a 2) finds nowhere."""
    place(quiet, "Salamanca", [("christian", A, 1)], city="christian")
    place(quiet, "Toledo", [("christian", G, 1)], city="christian", fortress=True)
    place(quiet, "Cuenca")
    place(quiet, "Valencia")
    prompts, _ = drive(reaction.phase(board, quiet), [[3], [2]])
    told = one(prompts, "reconquista.reaction.nothing_happens")
    assert facts(told, "result", "region") == {"result": "fortress", "region": "Castilla"}
    assert told.rule == f"{PHASE5} — Build Fortress"
    assert one(prompts, "reconquista.reaction.nothing_raised").data["placed"] == []


def test_armies_placed_and_mercenaries_join_them(board: Board, quiet: GameState) -> None:
    """Castilla (3 cities) rolls 4: 2 armies, the area die 4: Cuenca; 3 unhired mercenaries
    join that force and march with it."""
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


@pytest.mark.parametrize("joins", ["result", "placed"])
def test_mercenaries_with_no_army_raised(board: Board, quiet: GameState, joins: str) -> None:
    """No army result: the mercenaries stay with the garrison placed (Cuenca), or, nothing at
    all placed (Castilla held by Christians, Cuenca and Valencia empty), where the area die
    puts them (4: Cuenca); either way they do not march."""
    quiet.effects.mercenaries = 2
    if joins == "placed":
        place(quiet, "Salamanca", [("christian", A, 1)], city="christian")
        place(quiet, "Toledo", [("christian", G, 1)], city="christian", fortress=True)
        place(quiet, "Cuenca")
        place(quiet, "Valencia")
    prompts, _ = drive(reaction.phase(board, quiet), [[3], [2], [4]])
    told = one(prompts, "reconquista.reaction.mercenaries")
    assert told.data == {"units": 2, "area": "Cuenca", "joins": joins, "marches": False}
    assert of(prompts, "reconquista.march.start") == []


def test_jihad_second_force(board: Board, quiet: GameState) -> None:
    """Jihad: two army results (Algeciras, Murcia) are two forces; the second is announced
    with its area and finds its armies gone with the first."""
    quiet.effects.jihad = True
    place(quiet, "Granada", [("christian", A, 1)])
    prompts, _ = drive(reaction.phase(board, quiet), [[5], [3], [1], [4], [4], [1], [6, 1, 1, 1]])
    assert one(prompts, "reconquista.reaction.rise").data["jihad"] is True
    second = one(prompts, "reconquista.reaction.jihad")
    assert second.data == {"area": "Murcia", "force": 2}
    assert second.rule == "Quick Reference Sheet — 10 Jihad"
    starts = of(prompts, "reconquista.march.start")
    assert [p.data["from"] for p in starts] == ["Algeciras"]
    stops = [facts(p, "area", "cause", "units") for p in of(prompts, "reconquista.march.stop")]
    assert {"area": "Murcia", "cause": "no_army", "units": 0} in stops


# -- the march ---------------------------------------------------------------------------------


def test_the_march_wraps_round_leaves_an_army_and_picks_up(board: Board, quiet: GameState) -> None:
    """From Granada (a Muslim city, no garrison, 2 armies) to the Christian garrison in
    Murcia: Granada 5-6 wraps round to Algeciras leaving 1 army, Córdoba's 2 armies join,
    then Murcia, where the force stops and wins."""
    place(quiet, "Murcia", [("christian", G, 1)])
    place(quiet, "Granada", [("muslim", A, 2)], city="muslim")
    prompts = march(board, quiet, "muslim", "Granada", [[6, 6, 6], [1]])
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


def test_the_road_to_a_region_with_an_enemy(board: Board, quiet: GameState) -> None:
    """No enemy in Al-Ándalus: the force walks towards the road Córdoba-Toledo, then takes
    it; the data name the road and the region it leads to, and the siege that follows keeps
    one army per unit (the city, the fortress, 1 Christian army)."""
    place(quiet, "Toledo", [("christian", A, 1)], city="muslim", fortress=True)
    place(quiet, "Granada", [("muslim", A, 1), ("muslim", G, 1)], city="muslim")
    prompts = march(board, quiet, "muslim", "Granada", [])
    moves = of(prompts, "reconquista.march.move")
    assert [(m.data["from"], m.data["to"], m.data["how"]) for m in moves] == [
        ("Granada", "Algeciras", "toward_road"),
        ("Algeciras", "Córdoba", "toward_road"),
        ("Córdoba", "Toledo", "road"),
    ]
    for m in moves:
        assert facts(m, "goal", "enemy", "road", "roads_away") == {
            "goal": "Castilla",
            "enemy": ["Toledo"],
            "road": ["Córdoba", "Toledo"],
            "roads_away": 1,
        }
    assert moves[0].reason.startswith("no enemy in Al-Ándalus: on towards the road from Córdoba to Toledo")
    assert moves[2].reason.endswith("takes the road Córdoba → Toledo")
    assert moves[2].data["to_region"] == "Castilla"
    siege = one(prompts, "reconquista.march.besiege")
    assert facts(siege, "area", "needed", "stay", "moving_on") == {
        "area": "Toledo",
        "needed": 3,
        "stay": 3,
        "moving_on": 0,
    }
    assert siege.rule == f"{PHASE5} — If the Battle results in a siege situation"


def test_a_siege_leaves_some_and_the_rest_move_on(board: Board, quiet: GameState) -> None:
    """5 armies at Valencia (city, fortress, 1 Christian garrison): 3 stay, 2 move on."""
    place(quiet, "Cuenca", [("muslim", A, 5)])
    place(quiet, "Valencia", [("christian", G, 1)], city="christian", fortress=True)
    place(quiet, "Salamanca", [("rebel", R, 1)])
    prompts = march(board, quiet, "muslim", "Cuenca", [[6, 6], [1]])
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


def test_after_a_retreat_the_force_goes_on(board: Board, quiet: GameState) -> None:
    """3 armies lose in Murcia, fall back to Córdoba and go on to Murcia again: that move is
    'after_retreat' and follows the retreat paragraph."""
    place(quiet, "Córdoba", [("muslim", A, 3)])
    place(quiet, "Murcia", [("christian", A, 2)])
    prompts = march(board, quiet, "muslim", "Córdoba", [[4, 1, 1], [6, 6], [6], [1]])
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


def test_a_lone_army_that_must_hold_stops(board: Board, quiet: GameState) -> None:
    """Toledo (city, fortress, 1 army, no garrison): the army stays, cause 'last_army', with
    the area it would have gone to."""
    place(quiet, "Toledo", [("muslim", A, 1)], city="muslim", fortress=True)
    place(quiet, "Valencia", [("christian", A, 1)])
    prompts = march(board, quiet, "muslim", "Toledo", [])
    stop = one(prompts, "reconquista.march.stop")
    assert facts(stop, "cause", "area", "to", "units") == {
        "cause": "last_army",
        "area": "Toledo",
        "to": "Cuenca",
        "units": 1,
    }
    assert stop.rule == f"{PHASE5} — Each time the force moves"
    assert "without a Muslim garrison" in stop.reason


def test_the_step_budget_is_a_stop_with_its_cause(board: Board, quiet: GameState) -> None:
    """The last guard says it stopped the march, and where."""
    place(quiet, "Algeciras", [("christian", A, 1)])
    prompts, _ = drive(robot_march.march(board, quiet, "muslim", "Córdoba", budget=2), [])
    stop = one(prompts, "reconquista.march.stop")
    assert facts(stop, "cause", "area", "budget") == {"cause": "budget", "area": "Granada", "budget": 2}


def test_the_circling_guard_is_a_stop_with_its_cause(board: Board, quiet: GameState) -> None:
    """A route of the tests that circles: the stop names the area it would enter again; the
    moves it made have no way named ('how' is the router's)."""

    def circling(b: Board, s: GameState, side: str, here: str) -> robot_march.Step:
        return robot_march.Step(b.next_area(here), "round and round")

    prompts, _ = drive(robot_march.march(board, quiet, "muslim", "Córdoba", router=circling), [])
    stop = one(prompts, "reconquista.march.stop")
    assert facts(stop, "cause", "area", "to") == {"cause": "circle", "area": "Algeciras", "to": "Córdoba"}
    assert [m.data["how"] for m in of(prompts, "reconquista.march.move")] == ["", "", ""]


def test_el_cid_joins_in_the_data(board: Board, quiet: GameState) -> None:
    """A Muslim El Cid in Murcia joins the force passing there; its later moves say so."""
    quiet.el_cid_area, quiet.el_cid_side = "Murcia", "muslim"
    place(quiet, "Algeciras", [("christian", A, 1)])
    prompts = march(board, quiet, "muslim", "Córdoba", [[6, 6]])  # El Cid: the Muslims strike first
    joins = one(prompts, "reconquista.march.el_cid")
    assert facts(joins, "side", "area") == {"side": "muslim", "area": "Murcia"}
    assert [m.data["el_cid"] for m in of(prompts, "reconquista.march.move")] == [False, True, True]


def test_the_french_march_cites_their_event(board: Board) -> None:
    """The French placed in Pamplona on a Christian garrison fight there, then besiege
    Barcelona: every step says side 'french' and cites event 2 before the Phase 5 paragraph."""
    state = initial_state(board)
    state.areas["Pamplona"].add("french", F, 3)
    prompts = march(board, state, "french", "Pamplona", [[1], [6, 1, 1], [1], [5]])
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


def test_the_rebel_armies_cite_their_event(board: Board, quiet: GameState) -> None:
    """The Rebel armies of event 5 march as side 'rebel_army' and cite event 5."""
    place(quiet, "Murcia", [("rebel_army", RA, 2)])
    place(quiet, "Granada", [("muslim", A, 1)])
    prompts = march(board, quiet, "rebel_army", "Murcia", [[6], [1], [6]])
    moves = of(prompts, "reconquista.march.move")
    assert [(m.data["side"], m.data["from"], m.data["to"], m.data["how"]) for m in moves] == [
        ("rebel_army", "Murcia", "Granada", "enemy_in_region"),
        ("rebel_army", "Murcia", "Granada", "after_retreat"),
    ]
    assert moves[0].rule == "Phase 2: Events — 5 Rebels; " + MOVEMENT
    assert moves[1].rule == f"Phase 2: Events — 5 Rebels; {PHASE5} — If the Muslim force has to retreat"
