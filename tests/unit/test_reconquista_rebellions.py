"""Reconquista Phase 1, Rebellions (companion/reconquista/rebellions.py), driven with scripted
dice: the region die (a 6: roll again, two results), every table result with each fallback,
and the roll again that keeps the last Christian- or Muslim-controlled city. Every rule test
quotes the rulebook section it holds the code to. What every Phase 1 of a whole game must keep
(the last city, one region changed) is checked in tests/games/test_reconquista_whole_games.py.

Each test holds both what is said and what it is: the wording, and the topic, data, rule and
reason of the prompts, whose values come from the state (the region struck, the result that
was refused, the areas a pick could give, the units removed), so a wrong one fails.

The default board (docs/design.md): Asturias 1 is Santiago 1-2, Oviedo 3, Galicia 4, León 5-6;
Aragón 2 is Pamplona 1-2, Barcelona 3, Tarragona 4, Zaragoza 5-6; Castilla 3 is Salamanca
1-2, Toledo 3, Cuenca 4, Valencia 5-6; Portugal 4 is Porto 1-2, Lisboa 3, Badajoz 4,
Sevilla 5-6; Al-Ándalus 5 is Algeciras 1-2, Córdoba 3, Murcia 4, Granada 5-6.
"""

from __future__ import annotations

import copy
import dataclasses
import random
import re

import pytest
from procedure_helpers import drive
from reconquista_helpers import Units, place, rolls, tells, topics

from companion.driver import Driver
from companion.prompts import Prompt, Roll, Tell
from companion.reconquista import rebellions
from companion.reconquista.board import Board
from companion.reconquista.bot import Bot
from companion.reconquista.control import city_controller
from companion.reconquista.game import GAME
from companion.reconquista.setup import initial_state
from companion.reconquista.state import AreaState, Effects, GameState
from companion.reconquista.units import Kind

A, G, MO, R = Kind.ARMY, Kind.GARRISON, Kind.ORDER, Kind.REBEL
MC, CR, F, RA = Kind.MERCENARY, Kind.CRUSADER, Kind.FRENCH, Kind.REBEL_ARMY
TOPIC = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+){2,}$")


# -- helpers ----------------------------------------------------------------------------------


def only(prompts: list[Prompt], topic: str) -> list[Prompt]:
    return [p for p in prompts if p.topic == topic]


def controlled(state: GameState, side: str) -> list[str]:
    return [n for n, a in state.areas.items() if city_controller(a) == side]


def empty_region(state: GameState, board: Board, region: int) -> None:
    """No city, fortress or unit anywhere in ``region``."""
    for name in board.regions[region].areas:
        place(state, name)


# -- the region die ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "region"), [(1, "Asturias"), (2, "Aragón"), (3, "Castilla"), (4, "Portugal"), (5, "Al-Ándalus")]
)
def test_region_die_picks_the_region(board: Board, state: GameState, face: int, region: str) -> None:
    """Phase 1: Rebellions: "Roll a D6 to select the affected region, then roll another D6 and
    consult the table below to see what happens in that region." (6 on the table: a
    Regional Revolt, which changes nothing but the revolt marker.) A plain region die names
    no double: the strike and the table die say the region and that it is not doubled."""
    prompts, _ = drive(rebellions.phase(board, state), [[face], [6]])
    assert len(rolls(prompts)) == 2
    assert topics(prompts) == [
        "reconquista.rebellions.region",
        "reconquista.rebellions.strike",
        "reconquista.rebellions.table",
        "reconquista.rebellions.result",
    ]
    assert prompts[1].data == {"region": region, "double": False}
    assert prompts[2].data == {"region": region, "double": False, "second": False, "again": False}
    assert rolls(prompts)[0].why.startswith("Rebellions: region die")
    assert rolls(prompts)[1].why == (
        f"Rebellions: table die for {region} (1-2 Rebels, 3 Proselytism, 4 Peasant Revolt, "
        "5 Rebel Governor, 6 Regional Revolt)"
    )
    assert state.revolt == face
    assert tells(prompts)[0] == f"Rebellions strike {region}: roll on the rebellion table."


def test_a_six_rolls_the_region_again_and_gives_two_results(board: Board, state: GameState) -> None:
    """Phase 1: "If the result to determine the region is a 6, roll again to determine the
    region and roll twice on the table below." Rebels twice in Asturias, on a board where
    only Galicia has room: two Rebels go there (the only area: no area die), the first
    placed before the second is rolled. "Double Result - Can be used to remember a result that
    has a double effect": the marker placed as the double is told is taken off once both
    results are done."""
    place(state, "Galicia")
    prompts, _ = drive(rebellions.phase(board, state), [[6], [1], [1], [2]])
    r = rolls(prompts)
    assert "again" in r[1].why
    assert "first of two" in r[2].why and "second of two" in r[3].why
    said = tells(prompts)
    assert "twice" in said[0] and "Double Result marker" in said[0]
    only = (
        "Rebellions, Rebels: only Galicia qualifies (an area of Asturias without a Garrison, Army or "
        "Military Order): no roll needed."
    )
    placed = "Rebellions in Asturias, Rebels: place 1 Rebel in Galicia."
    assert said[1:] == [
        only,
        placed,
        only,
        placed,
        "Both rebellion results in Asturias are done: remove the Double Result marker.",
    ]
    assert prompts[-1].topic == "reconquista.rebellions.double_over" and prompts[-1].data == {
        "region": "Asturias"
    }
    assert state.areas["Galicia"].count("rebel", R) == 2


def test_a_further_six_on_the_region_die_is_rolled_again(board: Board, state: GameState) -> None:
    """Phase 1: a 6 on the region die picks no region (there are five): "roll again to
    determine the region". A second 6 is rolled again too; still two results, not more."""
    prompts, _ = drive(rebellions.phase(board, state), [[6], [6], [4], [6], [6]])
    assert len(rolls(prompts)) == 5
    assert state.revolt == 4


def test_a_second_regional_revolt_in_a_double_stays_in_revolt(board: Board, state: GameState) -> None:
    """Phase 1, 6 Regional Revolt: "This entire region is excluded from the game for this
    entire turn." Two 6s in a double: the region is in revolt, once. Phase 1: "If the result
    to determine the region is a 6, roll again to determine the region and roll twice on the
    table": the re-roll is "double", never "again"; both table dice name Castilla, the second
    says it is the second; neither is a roll asked again."""
    prompts, _ = drive(rebellions.phase(board, state), [[6], [3], [6], [6]])
    assert state.revolt == 3
    said = tells(prompts)
    assert "Region in Revolt marker on Castilla" in said[1]
    assert (
        said[2]
        == "Rebellions in Castilla, Regional Revolt: Castilla is already in revolt this turn and stays in revolt."
    )
    region = only(prompts, "reconquista.rebellions.region")
    assert [p.data["double"] for p in region] == [False, True]
    assert region[1].data["rolled"] == 6 and "again" not in region[1].data
    assert region[0].data["faces"]["3"] == "Castilla"
    assert region[1].rule.startswith("Phase 1: Rebellions — If the result")
    assert region[1].reason
    strike = only(prompts, "reconquista.rebellions.strike")
    assert [p.data for p in strike] == [{"region": "Castilla", "double": True}]
    table = only(prompts, "reconquista.rebellions.table")
    assert [(p.data["region"], p.data["second"], p.data["again"]) for p in table] == [
        ("Castilla", False, False),
        ("Castilla", True, False),
    ]
    results = only(prompts, "reconquista.rebellions.result")
    assert [(p.data["as"], p.data["already"]) for p in results] == [
        ("regional_revolt", False),
        ("regional_revolt", True),
    ]
    assert results[0].rule == "Phase 1: Rebellions — 6 Regional Revolt"


def test_a_region_in_revolt_still_takes_its_second_result(board: Board, state: GameState) -> None:
    """Phase 1: "roll twice on the table below" for the region: a Regional Revolt first does
    not cancel the second result in that region (here Proselytism in Barcelona)."""
    _prompts, _ = drive(rebellions.phase(board, state), [[6], [2], [6], [3], [3]])
    assert state.revolt == 2
    assert state.areas["Barcelona"].city == "muslim"


# -- 1-2 Rebels ------------------------------------------------------------------------------


@pytest.mark.parametrize("face", [1, 2])
def test_rebels_go_to_a_random_area_without_garrison_army_or_order(
    board: Board, state: GameState, face: int
) -> None:
    """Phase 1, 1 or 2 Rebels: "Place a Rebel unit in a randomly determined area that does
    not contain a Garrison, Army or Military Order." Galicia and León are empty; the area die
    lands on Santiago (a Muslim garrison), so it is rolled again, saying why; 4 is Galicia."""
    place(state, "Galicia")
    place(state, "León")
    prompts, _ = drive(rebellions.phase(board, state), [[1], [face], [1], [4]])
    r = rolls(prompts)
    assert "Rebels: area die for Asturias" in r[2].why
    assert r[3].why.endswith("rolled again (a 1 gave Santiago, which does not qualify)")
    assert tells(prompts)[-1] == "Rebellions in Asturias, Rebels: place 1 Rebel in Galicia."
    assert state.areas["Galicia"].units == {"rebel": {R: 1}}


def test_an_area_with_only_rebels_takes_another_rebel(board: Board, state: GameState) -> None:
    """Phase 1, Rebels: Rebels are not a "Garrison, Army or Military Order", so an area
    holding only Rebels is viable (here the only one of Asturias: no area die)."""
    place(state, "Galicia", [("rebel", R, 1)])
    drive(rebellions.phase(board, state), [[1], [1]])
    assert state.areas["Galicia"].count("rebel", R) == 2


@pytest.mark.parametrize(
    "units",
    [
        [("french", F, 1)],
        [("rebel_army", RA, 2)],
        [("muslim", MC, 1)],
        [("christian", CR, 1)],
        [("christian", MO, 1)],
    ],
)
def test_an_area_with_any_kind_of_army_is_not_viable_for_rebels(
    board: Board, state: GameState, units: Units
) -> None:
    """Phase 1, Rebels: "an area that does not contain a Garrison, Army or Military Order":
    armies of every kind count, neutral ones too. Galicia holds one, so it is no candidate:
    the empty León is the only area that qualifies, taken without an area die."""
    place(state, "Galicia", units)
    place(state, "León")
    prompts, _ = drive(rebellions.phase(board, state), [[1], [1]])
    assert "Rebellions, Rebels: only León qualifies" in tells(prompts)[1]
    assert state.areas["León"].count("rebel", R) == 1
    assert not state.areas["Galicia"].count("rebel")


def test_a_rebel_in_an_empty_city_takes_it_and_the_fortress_stays(board: Board, state: GameState) -> None:
    """Phase 1: "In all cases, if a city falls into Rebel hands, any Fortress present stays in
    place." A Rebel placed in an empty Muslim city with a fortress holds it (Important
    Definitions: "A City is under Rebel control if it contains Rebel forces"). Tarragona is
    the only area of Aragón without a garrison or army: no area die."""
    place(state, "Tarragona", city="muslim", fortress=True)
    prompts, _ = drive(rebellions.phase(board, state), [[2], [2]])
    t = state.areas["Tarragona"]
    assert t.city == "muslim" and t.fortress and city_controller(t) == "rebel"
    assert tells(prompts)[-1] == (
        "Rebellions in Aragón, Rebels: place 1 Rebel in Tarragona. "
        "The city of Tarragona falls into Rebel hands (the fortress stays)."
    )


def test_a_rebel_placed_where_rebels_besiege_an_empty_city_holds_it(board: Board, state: GameState) -> None:
    """Important Definitions: "A City is under Rebel control if it contains Rebel forces". The
    Rebel placed by a rebellion is inside; the Rebels besieging the empty city join him.
    (Tarragona is the only viable area of Aragón: no area die.)"""
    place(state, "Tarragona", [("rebel", R, 1)], city="muslim", besieger="rebel")
    drive(rebellions.phase(board, state), [[2], [1]])
    t = state.areas["Tarragona"]
    assert t.besieger is None and t.count("rebel") == 2 and city_controller(t) == "rebel"


def test_rebels_with_no_viable_area_remove_a_unit_by_the_casualty_order(
    board: Board, state: GameState
) -> None:
    """Phase 1, Rebels: "If no viable area exists, randomly select a single area and remove a
    single unit (priority according to the combat removal rules)." At setup every area of
    Asturias has a garrison; the area die gives Oviedo (1 Christian garrison, 1 Christian
    army): the garrison goes first (Battle: "Garrisons and/or Rebels are removed first").
    The area die is for the area that loses a unit, and the result says which unit went."""
    prompts, _ = drive(rebellions.phase(board, state), [[1], [2], [3]])
    assert "every area of Asturias holds a Garrison, Army or Military Order" in rolls(prompts)[2].why
    assert state.areas["Oviedo"].units == {"christian": {A: 1}}
    assert tells(prompts)[-1] == (
        "Rebellions in Asturias, Rebels: no area of Asturias is without a Garrison, Army or "
        "Military Order, so Oviedo loses a unit instead: remove 1 Christian garrison from Oviedo."
    )
    (area,) = only(prompts, "reconquista.rebellions.area")
    assert area.data["wanted"] == "a_unit_to_lose" and area.data["result"] == "rebels"
    assert area.rule == "Phase 1: Rebellions — 1 or 2 Rebels"
    (result,) = only(prompts, "reconquista.rebellions.result")
    assert result.data["area"] == "Oviedo"
    assert result.data["removed"] == {"christian": {"G": 1}}
    assert "combat removal order" in result.reason


def test_the_unit_removed_when_several_sides_are_there_is_the_holders(board: Board) -> None:
    """Phase 1, Rebels: "remove a single unit (priority according to the combat removal
    rules)". The kind comes first (garrisons before armies, whoever owns them); among sides
    with that kind, the side holding the place loses it, not its besieger."""
    a = AreaState(city="muslim")
    a.add("muslim", G)
    a.add("christian", G)
    a.add("christian", A)
    a.besieger = "christian"
    assert rebellions.first_casualty(a) == ("muslim", G)
    a.besieger = None
    # Nobody besieging: the side with more units there.
    assert rebellions.first_casualty(a) == ("christian", G)
    b = AreaState()
    b.add("christian", A, 2)
    b.add("rebel", R)
    assert rebellions.first_casualty(b) == ("rebel", R)
    c = AreaState(city="christian")
    c.add("christian", MO)
    c.add("christian", A)
    c.add("muslim", MC)
    c.besieger = "muslim"
    assert rebellions.first_casualty(c) == ("muslim", MC)  # mercenaries go first of all


# -- 3 Proselytism -----------------------------------------------------------------------------


def test_proselytism_turns_a_random_christian_city_muslim(board: Board, state: GameState) -> None:
    """Phase 1, 3 Proselytism: "Select a city at random in the Region. [...] If it is
    Christian, change that city to Muslim." Pamplona (1) has no city: the die is rolled
    again (the selection's "again", naming Pamplona); Barcelona (3) is a Christian city, and
    the result names the city and both religions."""
    prompts, _ = drive(rebellions.phase(board, state), [[2], [3], [1], [3]])
    assert "Proselytism: area die for a city of Aragón" in rolls(prompts)[2].why
    assert rolls(prompts)[3].why.endswith("rolled again (a 1 gave Pamplona, which does not qualify)")
    assert state.areas["Barcelona"].city == "muslim"
    assert tells(prompts)[-1] == (
        "Rebellions in Aragón, Proselytism: the city of Barcelona changes religion: "
        "replace the Christian city of Barcelona with a Muslim city."
    )
    area = only(prompts, "reconquista.rebellions.area")
    assert [p.data.get("again", False) for p in area] == [False, True]
    assert area[1].data["rejected"] == "Pamplona"
    (result,) = only(prompts, "reconquista.rebellions.result")
    assert {k: result.data[k] for k in ("as", "area", "from", "to")} == {
        "as": "proselytism",
        "area": "Barcelona",
        "from": "christian",
        "to": "muslim",
    }
    assert result.reason == ""


def test_proselytism_in_a_region_with_one_city_rolls_no_area_die(board: Board, state: GameState) -> None:
    """Phase 1, 3 Proselytism: "Select a city at random in the Region". Portugal has one city,
    Lisboa: every area die would be rolled again until a 3, so none is asked; the Tell names
    Lisboa and says why (docs/rules-notes.md, "Random selections")."""
    prompts, _ = drive(rebellions.phase(board, state), [[4], [3]])
    assert len(rolls(prompts)) == 2  # the region die and the table die
    assert tells(prompts)[1] == (
        "Rebellions, Proselytism: only Lisboa qualifies (an area of Portugal with a city): no roll needed."
    )
    assert state.areas["Lisboa"].city == "christian"


def test_proselytism_turns_a_muslim_city_christian_and_keeps_the_fortress(
    board: Board, state: GameState
) -> None:
    """Phase 1, 3 Proselytism: "If it is Muslim, change that city to Christian." Zaragoza
    (5-6) keeps its fortress and its Muslim units, which still hold it."""
    prompts, _ = drive(rebellions.phase(board, state), [[2], [3], [6]])
    z = state.areas["Zaragoza"]
    assert z.city == "christian" and z.fortress and z.count("muslim") == 2
    assert tells(prompts)[-1].endswith("with a Christian city (the fortress stays).")


def test_proselytism_with_no_city_in_the_region_counts_as_rebels(board: Board, state: GameState) -> None:
    """Phase 1, 3 Proselytism: "If there are no cities in the region, treat this result as
    Rebels (a result of 1 or 2)." Portugal without cities: no city die, a Rebels area die;
    the result is told as Proselytism counted as Rebels, and says why."""
    empty_region(state, board, 4)
    prompts, _ = drive(rebellions.phase(board, state), [[4], [3], [4]])
    assert len(rolls(prompts)) == 3 and "Rebels: area die for Portugal" in rolls(prompts)[2].why
    assert state.areas["Badajoz"].units == {"rebel": {R: 1}}
    assert tells(prompts)[-1] == (
        "Rebellions in Portugal, Proselytism: there is no city in Portugal, so it counts as Rebels: "
        "place 1 Rebel in Badajoz."
    )
    (area,) = only(prompts, "reconquista.rebellions.area")
    assert area.data["result"] == "rebels" and area.data["wanted"] == "no_garrison_army_or_order"
    (result,) = only(prompts, "reconquista.rebellions.result")
    assert result.data["result"] == "proselytism"
    assert result.data["as"] == "rebels" and result.data["instead_of"] == "proselytism"
    assert result.data["area"] == "Badajoz" and result.data["placed"] == 1 and result.data["fell"] is False
    assert result.rule == "Phase 1: Rebellions — 3 Proselytism"
    assert result.reason == "there is no city in the region, so it counts as rebels"


def test_proselytism_fallback_to_rebels_can_fall_back_again(board: Board, state: GameState) -> None:
    """Phase 1: Proselytism with no city is "Rebels (a result of 1 or 2)" with all of its
    own fallback: every area holds a garrison, so one is removed."""
    for name in board.regions[4].areas:
        place(state, name, [("muslim", G, 1)])
    prompts, _ = drive(rebellions.phase(board, state), [[4], [3], [3]])
    assert not state.areas["Lisboa"].units
    assert "Proselytism: there is no city in Portugal, so it counts as Rebels: no area" in tells(prompts)[-1]


# -- 4 Peasant Revolt ----------------------------------------------------------------------------


def test_peasant_revolt_replaces_the_garrisons_with_one_rebel(board: Board, state: GameState) -> None:
    """Phase 1, 4 Peasant Revolt: "Randomly select an area with Garrison(s), but without an
    Army or Military Order. Remove all Garrisons and replace them with a single Rebel unit."
    Oviedo (3) has a Christian army: rolled again; León (5) has a Muslim garrison in a
    Christian city, which falls into Rebel hands."""
    state.areas["León"].add("muslim", G, 1)  # two garrisons: one Rebel all the same
    prompts, _ = drive(rebellions.phase(board, state), [[1], [4], [3], [5]])
    assert "does not qualify" in rolls(prompts)[3].why
    assert state.areas["León"].units == {"rebel": {R: 1}}
    assert city_controller(state.areas["León"]) == "rebel"
    assert tells(prompts)[-1] == (
        "Rebellions in Asturias, Peasant Revolt: remove 2 Muslim garrisons from León and place "
        "1 Rebel there. The city of León falls into Rebel hands."
    )


def test_peasant_revolt_with_one_area_that_fits_rolls_no_area_die(board: Board, state: GameState) -> None:
    """Phase 1, 4 Peasant Revolt: "Randomly select an area with Garrison(s), but without an
    Army or Military Order": in Asturias only Galicia fits (Santiago is empty, Oviedo and
    León hold armies beside their garrisons), so it is named without an area die."""
    place(state, "Santiago")
    state.areas["León"].add("muslim", A, 1)
    prompts, _ = drive(rebellions.phase(board, state), [[1], [4]])
    assert len(rolls(prompts)) == 2
    assert tells(prompts)[1] == (
        "Rebellions, Peasant Revolt: only Galicia qualifies (an area of Asturias with Garrisons and no "
        "Army or Military Order): no roll needed."
    )
    assert state.areas["Galicia"].units == {"rebel": {R: 1}}


def test_peasant_revolt_removes_the_garrisons_of_every_side(board: Board, state: GameState) -> None:
    """Phase 1, Peasant Revolt: "Remove all Garrisons": a Christian garrison besieging a
    Muslim garrison in Zaragoza's city, both go; the Rebel holds the city and the fortress.
    The result counts the garrisons of each side."""
    place(
        state,
        "Zaragoza",
        [("muslim", G, 1), ("christian", G, 2)],
        city="muslim",
        fortress=True,
        besieger="christian",
    )
    prompts, _ = drive(rebellions.phase(board, state), [[2], [4], [5]])
    z = state.areas["Zaragoza"]
    assert z.units == {"rebel": {R: 1}} and z.besieger is None and z.fortress
    assert "remove 2 Christian garrisons and 1 Muslim garrison from Zaragoza" in tells(prompts)[-1]
    assert tells(prompts)[-1].endswith("falls into Rebel hands (the fortress stays).")
    (result,) = only(prompts, "reconquista.rebellions.result")
    assert result.data["removed"] == {"christian": {"G": 2}, "muslim": {"G": 1}}
    assert result.data["fell"] is True
    assert result.rule == "Phase 1: Rebellions — 4 Peasant Revolt"


@pytest.mark.parametrize(
    "army", [("muslim", MC, 1), ("french", F, 1), ("christian", MO, 1), ("muslim", A, 1)]
)
def test_peasant_revolt_needs_an_area_without_any_army(
    board: Board, state: GameState, army: tuple[str, Kind, int]
) -> None:
    """Phase 1, Peasant Revolt: "but without an Army or Military Order" (armies of every
    kind). Galicia's garrison stands beside one: the die is rolled again to Santiago."""
    place(state, "Galicia", [("muslim", G, 1), army])
    prompts, _ = drive(rebellions.phase(board, state), [[1], [4], [4], [1]])
    assert "does not qualify" in rolls(prompts)[3].why
    assert state.areas["Santiago"].units == {"rebel": {R: 1}}
    assert state.areas["Galicia"].count("muslim", G) == 1


def test_peasant_revolt_without_garrisons_counts_as_rebels(board: Board, state: GameState) -> None:
    """Phase 1, Peasant Revolt: "If there are no Garrisons, treat this result as Rebels (a
    result of 1 or 2)." Al-Ándalus with armies only, and Murcia and Granada empty: the
    Rebels' area die picks one of the two."""
    for name in board.regions[5].areas:
        place(state, name, [("muslim", A, 1)])
    place(state, "Murcia")
    place(state, "Granada")
    prompts, _ = drive(rebellions.phase(board, state), [[5], [4], [4]])
    assert "Rebels: area die for Al-Ándalus" in rolls(prompts)[2].why
    assert state.areas["Murcia"].units == {"rebel": {R: 1}}
    assert (
        "no area of Al-Ándalus has Garrisons without an Army or Military Order, so it counts as Rebels"
        in tells(prompts)[-1]
    )


def test_peasant_revolt_with_every_garrison_beside_an_army_counts_as_rebels(
    board: Board, state: GameState
) -> None:
    """Phase 1, Peasant Revolt: with garrisons but none without an army, no area can be
    selected: the result is treated as Rebels, like "no Garrisons"."""
    for name in board.regions[5].areas:
        place(state, name, [("muslim", A, 1), ("muslim", G, 1)])
    prompts, _ = drive(rebellions.phase(board, state), [[5], [4], [5]])
    assert "so it counts as Rebels: no area of Al-Ándalus is without" in tells(prompts)[-1]
    assert state.areas["Granada"].units == {"muslim": {A: 1}}


# -- 5 Rebel Governor ------------------------------------------------------------------------------


def test_rebel_governor_turns_the_citys_units_into_rebels(board: Board, state: GameState) -> None:
    """Phase 1, 5 Rebel Governor: "Select a city at random in the Region. Replace all Armies,
    Military Orders and Garrisons in the city with the same number of Rebel counters."
    Toledo (3): a Muslim garrison and army become 2 Rebels; the fortress stays."""
    prompts, _ = drive(rebellions.phase(board, state), [[3], [5], [3]])
    t = state.areas["Toledo"]
    assert t.units == {"rebel": {R: 2}} and t.fortress and t.city == "muslim"
    assert tells(prompts)[-1] == (
        "Rebellions in Castilla, Rebel Governor: the governor of Toledo rebels: replace 1 Muslim "
        "army and 1 Muslim garrison in the city of Toledo with 2 Rebels. The city of Toledo falls "
        "into Rebel hands (the fortress stays)."
    )


def test_rebel_governor_in_a_region_with_one_city_rolls_no_area_die(board: Board, state: GameState) -> None:
    """Phase 1, 5 Rebel Governor: "Select a city at random in the Region": Lisboa is the only
    city of Portugal, named without an area die; its Muslim garrison becomes a Rebel. The
    selection's Tell carries the area topic."""
    prompts, _ = drive(rebellions.phase(board, state), [[4], [5]])
    assert len(rolls(prompts)) == 2
    assert tells(prompts)[1] == (
        "Rebellions, Rebel Governor: only Lisboa qualifies (an area of Portugal with a city): no roll needed."
    )
    assert state.areas["Lisboa"].units == {"rebel": {R: 1}}
    (picked,) = only(prompts, "reconquista.rebellions.area")
    assert isinstance(picked, Tell)
    assert picked.data["picked"] == "Lisboa" and picked.data["only"] is True
    assert picked.data["result"] == "rebel_governor"
    (result,) = only(prompts, "reconquista.rebellions.result")
    assert result.data["replaced"] == {"muslim": {"G": 1}} and result.data["placed"] == 1
    assert result.data["fell"] is True and result.data["besieger"] is None


def test_rebel_governor_counts_orders_and_every_army(board: Board, state: GameState) -> None:
    """Phase 1, Rebel Governor: "all Armies, Military Orders and Garrisons": 1 Military Order,
    2 armies, 1 crusader and 1 garrison in León become 5 Rebels (Oviedo stays Christian)."""
    place(
        state,
        "León",
        [("christian", MO, 1), ("christian", A, 2), ("christian", CR, 1), ("christian", G, 1)],
        city="christian",
    )
    drive(rebellions.phase(board, state), [[1], [5], [5]])
    assert state.areas["León"].units == {"rebel": {R: 5}}


def test_rebel_governor_leaves_the_besiegers_outside(board: Board, state: GameState) -> None:
    """Phase 1, Rebel Governor: "Replace all Armies, Military Orders and Garrisons in the
    city": a Christian army besieging Toledo is outside the city; it stays and now
    besieges the Rebels, and the result names the besieger that stays."""
    state.areas["Toledo"].add("christian", A, 2)
    state.areas["Toledo"].besieger = "christian"
    prompts, _ = drive(rebellions.phase(board, state), [[3], [5], [3]])
    t = state.areas["Toledo"]
    assert t.units == {"rebel": {R: 2}, "christian": {A: 2}} and t.besieger == "christian"
    assert "The Christian force outside stays and now besieges the Rebels." in tells(prompts)[-1]
    (result,) = only(prompts, "reconquista.rebellions.result")
    assert result.data["replaced"] == {"muslim": {"A": 1, "G": 1}}
    assert result.data["placed"] == 2 and result.data["besieger"] == "christian"


def test_rebel_governor_in_an_empty_city_places_one_rebel(board: Board, state: GameState) -> None:
    """Phase 1, Rebel Governor: "If no units are present [...] place a single Rebel unit."
    Valencia (5-6) with nobody in it."""
    place(state, "Valencia", city="muslim")
    prompts, _ = drive(rebellions.phase(board, state), [[3], [5], [6]])
    assert state.areas["Valencia"].units == {"rebel": {R: 1}}
    assert (
        "the city of Valencia has no units in it: place 1 Rebel in the city of Valencia."
        in tells(prompts)[-1]
    )


def test_rebel_governor_in_a_rebel_city_places_one_more_rebel(board: Board, state: GameState) -> None:
    """Phase 1, Rebel Governor: "or the city is already under Rebel control, place a single
    Rebel unit"."""
    place(state, "Valencia", [("rebel", R, 2)], city="muslim")
    prompts, _ = drive(rebellions.phase(board, state), [[3], [5], [5]])
    assert state.areas["Valencia"].units == {"rebel": {R: 3}}
    assert "already under Rebel control" in tells(prompts)[-1]
    assert "falls into Rebel hands" not in tells(prompts)[-1]


def test_rebel_governor_of_a_city_only_besieged_places_one_rebel_inside(
    board: Board, state: GameState
) -> None:
    """Phase 1, Rebel Governor: nobody inside, a Christian force besieging outside: "If no
    units are present" inside the city, a single Rebel goes in; the besiegers stay."""
    place(state, "Valencia", [("christian", A, 1)], city="muslim", besieger="christian")
    drive(rebellions.phase(board, state), [[3], [5], [5]])
    v = state.areas["Valencia"]
    assert v.units == {"christian": {A: 1}, "rebel": {R: 1}} and v.besieger == "christian"
    assert city_controller(v) == "rebel"


def test_rebel_governor_with_no_city_counts_as_rebels(board: Board, state: GameState) -> None:
    """Phase 1, Rebel Governor: "If there are no cities in the Region, treat this result as
    Rebels (a result of 1 or 2)."."""
    empty_region(state, board, 4)
    prompts, _ = drive(rebellions.phase(board, state), [[4], [5], [1]])
    assert state.areas["Porto"].units == {"rebel": {R: 1}}
    assert (
        "there is no city in Portugal, so it counts as Rebels: place 1 Rebel in Porto." in tells(prompts)[-1]
    )


# -- 6 Regional Revolt -----------------------------------------------------------------------------


def test_regional_revolt_marks_the_region(board: Board, state: GameState) -> None:
    """Phase 1, 6 Regional Revolt: "This entire region is excluded from the game for this
    entire turn." The board is untouched but for the marker."""
    before = {n: a.snapshot() for n, a in state.areas.items()}
    prompts, _ = drive(rebellions.phase(board, state), [[5], [6]])
    assert state.revolt == 5
    assert {n: a.snapshot() for n, a in state.areas.items()} == before
    assert "place the Region in Revolt marker on Al-Ándalus" in tells(prompts)[-1]


# -- roll again: the last city ---------------------------------------------------------------------


def test_a_result_that_would_take_the_last_christian_city_is_rolled_again(
    board: Board, state: GameState
) -> None:
    """Phase 1: "To prevent the game from ending because of a rebellion, if the result would
    eliminate the last Christian-controlled or Muslim-controlled city, roll again." Oviedo,
    empty, is the last Christian-controlled city; Proselytism there would make it Muslim:
    nothing changes, the player is told why and the table is rolled again (a 6). The next
    table die is the one with "again" True, naming the refused result and side; the refused
    trial leaves no result Tell: the one told is the roll again's."""
    place(state, "Oviedo", city="christian")
    assert controlled(state, "christian") == ["Oviedo"]
    held = state
    prompts, _ = drive(rebellions.phase(board, state), [[1], [3], [3], [6]])
    assert state is held
    assert state.areas["Oviedo"].city == "christian"
    r = rolls(prompts)
    assert (
        "rolled again (Proselytism in Oviedo would have eliminated the last Christian-controlled city)"
        in r[3].why
    )
    said = tells(prompts)
    assert said[1] == (
        "Rebellions: Proselytism in Oviedo would eliminate the last city under Christian control, "
        "so it does not happen and nothing changes on the board; the rulebook says roll again."
    )
    assert state.revolt == 1 and len(said) == 3
    table = only(prompts, "reconquista.rebellions.table")
    assert [p.data["again"] for p in table] == [False, True]
    assert table[1].data["rejected"] == "proselytism" and table[1].data["sides"] == ["christian"]
    assert table[1].reason == "proselytism in Oviedo would have eliminated the last Christian-controlled city"
    area = only(prompts, "reconquista.rebellions.area")
    assert len(area) == 1 and isinstance(area[0], Roll)
    assert area[0].data == {
        "region": "Asturias",
        "result": "proselytism",
        "wanted": "a_city",
        "candidates": ["Oviedo", "León"],
    }
    (refused,) = only(prompts, "reconquista.rebellions.refused")
    assert refused.data["result"] == "proselytism" and refused.data["sides"] == ["christian"]
    assert refused.rule == "Phase 1: Rebellions — To prevent the game from ending because of a rebellion"
    (result,) = only(prompts, "reconquista.rebellions.result")
    assert result.data["result"] == "regional_revolt"


def test_the_random_picks_count_for_the_roll_again(board: Board, state: GameState) -> None:
    """Phase 1: "if the result would eliminate the last [...] city, roll again": the result
    is worked out with its random picks. Rebels whose area die falls on Oviedo, the last
    Christian-controlled city (empty), are refused; the next Rebels land on Galicia."""
    place(state, "Oviedo", city="christian")
    place(state, "Galicia")
    before = {n: a.snapshot() for n, a in state.areas.items()}
    prompts, _ = drive(rebellions.phase(board, state), [[1], [1], [3], [2], [4]])
    assert "Rebels in Oviedo would eliminate the last city under Christian control" in tells(prompts)[1]
    assert state.areas["Oviedo"].snapshot() == before["Oviedo"]
    assert state.areas["Galicia"].units == {"rebel": {R: 1}}
    assert tells(prompts)[-1] == "Rebellions in Asturias, Rebels: place 1 Rebel in Galicia."


def test_a_result_that_would_take_the_last_muslim_city_is_rolled_again(
    board: Board, state: GameState
) -> None:
    """Phase 1: "[...] the last Christian-controlled or Muslim-controlled city, roll again."
    Granada is the only Muslim-controlled city: a Rebel Governor there is refused; a Peasant
    Revolt in Murcia (no city) stands. The table asked again names the refused result and
    the Muslims."""
    for name, a in state.areas.items():
        if city_controller(a) == "muslim" and name != "Granada":
            place(state, name, [("christian", G, 1)], city=a.city)
    assert controlled(state, "muslim") == ["Granada"]
    prompts, _ = drive(rebellions.phase(board, state), [[5], [5], [5], [4], [4]])
    assert "Rebel Governor in Granada would eliminate the last city under Muslim control" in tells(prompts)[1]
    assert state.areas["Granada"].units == {"muslim": {G: 1}}
    assert state.areas["Murcia"].units == {"rebel": {R: 1}}
    table = only(prompts, "reconquista.rebellions.table")
    assert table[1].data["rejected"] == "rebel_governor" and table[1].data["sides"] == ["muslim"]
    (result,) = only(prompts, "reconquista.rebellions.result")
    assert result.data["as"] == "peasant_revolt" and result.data["area"] == "Murcia"


def test_no_roll_again_when_the_side_had_no_city_before(board: Board, state: GameState) -> None:
    """Phase 1: the rule keeps "the last" city: with no Christian-controlled city before,
    the result is not refused (nothing would be eliminated)."""
    for name, a in state.areas.items():
        if a.city == "christian":
            place(state, name, [("muslim", G, 1)], city="christian")
    place(state, "Pamplona", [("muslim", G, 1)])
    assert controlled(state, "christian") == []
    prompts, _ = drive(rebellions.phase(board, state), [[2], [3], [3]])
    assert state.areas["Barcelona"].city == "muslim"
    assert not any("does not happen" in t for t in tells(prompts))


def test_a_refused_first_result_of_a_double_then_stands_the_second(board: Board, state: GameState) -> None:
    """Phase 1: in a double each result is rolled, checked and (if it stands) applied in
    turn: the first Proselytism is refused, the roll again gives Rebels, then the second."""
    place(state, "Oviedo", city="christian")
    place(state, "Galicia")
    _prompts, _ = drive(
        rebellions.phase(board, state),
        [[6], [1], [3], [3], [1], [4], [6]],
    )
    assert state.areas["Galicia"].units == {"rebel": {R: 1}}
    assert state.revolt == 1
    assert state.areas["Oviedo"].city == "christian"


def test_the_trial_copy_is_a_deep_copy_of_the_table(board: Board, state: GameState) -> None:
    """Phase 1, "roll again": a refused result must leave the table as it was, so the copy it
    is worked out on shares no area or unit count with the state (and equals a deepcopy)."""
    state.areas["Toledo"].besieger = "muslim"
    trial = rebellions.trial_copy(state)
    assert trial == copy.deepcopy(state)
    trial.areas["Toledo"].add("rebel", R)
    trial.areas["Córdoba"].remove("muslim", A)
    trial.areas["Oviedo"].city = None
    trial.areas["Toledo"].besieger = None
    assert (
        state.areas["Toledo"].units == {"muslim": {G: 1, A: 1}} and state.areas["Toledo"].besieger == "muslim"
    )
    assert state.areas["Córdoba"].count("muslim", A) == 2 and state.areas["Oviedo"].city == "christian"


def test_the_trial_copy_carries_every_field(state: GameState) -> None:
    """trial_copy carries every field of GameState over: a field left out would come back at
    its default. Every field is set away from its default here, so such a field fails this test."""
    state.turn, state.phase, state.revolt, state.income = 7, "rebellions", 3, 5
    state.el_cid_area, state.el_cid_side = "Toledo", "christian"
    state.map_file, state.tables_file = "my_map.toml", "my_tables.toml"
    state.effects = Effects(jihad=True)
    state.checklist = True
    state.v2_until = 9
    trial = rebellions.trial_copy(state)
    for f in dataclasses.fields(GameState):
        default = f.default_factory() if f.default_factory is not dataclasses.MISSING else f.default
        assert getattr(state, f.name) != default, f"set {f.name} in this test"
        assert getattr(trial, f.name) == getattr(state, f.name), f.name


# -- topics and rules of every prompt ------------------------------------------------------------


def test_every_prompt_of_phase_1_has_its_topic_and_rule(board: Board) -> None:
    """Random positions of play: no prompt of the phase goes without topic or rule."""
    rng = random.Random(7)
    seen: set[str] = set()
    for _ in range(300):
        state = initial_state(board)
        for a in state.areas.values():
            if rng.random() < 0.4:
                a.units.clear()
        proc = rebellions.phase(board, state)
        try:
            prompt = next(proc)
            while True:
                assert TOPIC.match(prompt.topic) and prompt.topic.startswith("reconquista.rebellions.")
                assert prompt.rule.startswith("Phase 1: Rebellions")
                seen.add(prompt.topic)
                prompt = proc.send([rng.randint(1, 6)] if isinstance(prompt, Roll) else None)
        except StopIteration:
            pass
    assert seen == {
        f"reconquista.rebellions.{t}"
        for t in ("region", "strike", "table", "area", "result", "refused", "double_over")
    }


# -- whole games ---------------------------------------------------------------------------------


def _resolve(board: Board, state: GameState, region: int, result: str, faces: list[int]) -> None:
    """Run one table result on ``state`` with the area dice ``faces``, cycled."""
    proc = rebellions._resolve(board, state, region, result)
    i = 0
    try:
        prompt = next(proc)
        while True:
            if isinstance(prompt, Tell):  # a pick with one candidate names it, no roll
                prompt = proc.send(None)
                continue
            assert isinstance(prompt, Roll)
            answer = [faces[(i + k) % len(faces)] for k in range(prompt.n)]
            i += prompt.n
            prompt = proc.send(answer)
    except StopIteration:
        pass


def _rebellion_states() -> list[GameState]:
    """The state at the start of every Phase 1 of a few random games."""
    states = []
    for seed in range(6):
        driver = Driver(GAME, seed)
        bot = Bot(seed)
        board = GAME.board_of(driver.state)
        while driver.pending is not None:
            prompt = driver.pending
            if (
                driver.state.phase == "rebellions"
                and isinstance(prompt, Roll)
                and "region die (" in prompt.why
            ):
                states.append(copy.deepcopy(driver.state))
            if isinstance(prompt, Roll):
                driver.roll()
            elif isinstance(prompt, Tell):
                driver.ack()
            else:
                driver.submit(bot.choose(board, driver.state, prompt), "player")
    return states


@pytest.mark.slow
def test_a_rebellion_changes_no_area_outside_its_region(board: Board) -> None:
    """Phase 1: each table result acts on "the affected region" alone (the revolt marker
    apart): at the start of every Phase 1 of a few whole games, every result in every region
    leaves every other area as it was, and the state the trial copy was made from untouched."""
    rng = random.Random(7)
    for state in _rebellion_states():
        for region in board.regions:
            for result in rebellions.RESULT_NAMES:
                faces = rng.sample(range(1, 7), 6)  # cycled, every face comes up: no endless re-roll
                before = copy.deepcopy(state)
                trial = rebellions.trial_copy(state)
                _resolve(board, trial, region, result, faces)
                mine = set(board.regions[region].areas)
                for name in board.areas:
                    if name not in mine:
                        assert trial.areas[name] == state.areas[name], (region, result, name)
                assert state == before
