"""Reconquista control rules: who controls a city, enemy forces, roads out, Santiago,
income, victory points and their result bands, and the starting setup."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.datafiles import data_path
from companion.reconquista.board import Board, load_board
from companion.reconquista.control import (
    christian_majority,
    city_controller,
    controls_city,
    controls_santiago,
    enemy_forces,
    free_of_enemy,
    free_of_muslim_forces,
    income,
    muslim_free_region,
    result_band,
    victory_points,
)
from companion.reconquista.setup import initial_state
from companion.reconquista.state import AreaState, GameState
from companion.reconquista.units import Kind

A, G, MO, R = Kind.ARMY, Kind.GARRISON, Kind.ORDER, Kind.REBEL
MC, CR, F, RA = Kind.MERCENARY, Kind.CRUSADER, Kind.FRENCH, Kind.REBEL_ARMY

Units = list[tuple[str, Kind, int]]


def area(
    city: str | None = None,
    units: Units | None = None,
    *,
    fortress: bool = False,
    besieger: str | None = None,
) -> AreaState:
    """An area with ``city`` and ``units`` (side, kind, count), besieged by ``besieger``."""
    a = AreaState(city=city, fortress=fortress)
    for side, kind, n in units or []:
        a.add(side, kind, n)
    a.besieger = besieger
    return a


def empty_state(board: Board) -> GameState:
    """A board with nothing on it: no cities, no units."""
    return GameState(areas={name: AreaState() for name in board.all_areas()})


def christian_city(state: GameState, name: str) -> None:
    """A Christian city held by a Christian garrison."""
    state.areas[name] = area("christian", [("christian", G, 1)])


def lines(items: list[tuple[str, int]], word: str) -> list[tuple[str, int]]:
    return [(label, n) for label, n in items if word in label]


# -- city control ("Important Definitions") --------------------------------------


@pytest.mark.parametrize("religion", ["christian", "muslim"])
@pytest.mark.parametrize(
    ("units", "controller"),
    [
        ([("christian", A, 1)], "christian"),
        ([("christian", G, 1)], "christian"),
        ([("christian", MO, 1)], "christian"),
        ([("christian", CR, 2)], "christian"),
        ([("christian", MC, 1)], "christian"),
        ([("muslim", A, 1)], "muslim"),
        ([("muslim", G, 2)], "muslim"),
        ([("rebel", R, 1)], "rebel"),
        ([], None),
    ],
)
def test_city_control_definitions(religion: str, units: Units, controller: str | None) -> None:
    """Important Definitions: "A City is under Christian control if it contains Christian forces
    (Army, Garrison, or Military Order). It does not matter whether the City itself is Muslim or
    Christian. A City is under Muslim control if it contains Muslim forces (Army or Garrison) ...
    A City is under Rebel control if it contains Rebel forces. A City without forces of either
    side is considered to be controlled by the religion of the city." """
    a = area(religion, units)
    expected = controller or religion
    assert city_controller(a) == expected
    assert controls_city(a, expected)
    for other in ("christian", "muslim", "rebel"):
        if other != expected:
            assert not controls_city(a, other)


def test_no_city_no_controller() -> None:
    """Important Definitions speak of Cities: an area without one has no city to control."""
    assert city_controller(area(None, [("christian", A, 3)], fortress=True)) is None
    assert not controls_city(area(None, [("christian", A, 3)]), "christian")


@pytest.mark.parametrize(
    ("city", "units", "besieger", "controller"),
    [
        # the side inside holds the city, whoever waits outside
        ("christian", [("christian", G, 1), ("muslim", A, 2)], "muslim", "christian"),
        ("muslim", [("muslim", G, 1), ("christian", A, 2)], "christian", "muslim"),
        ("muslim", [("christian", G, 1), ("muslim", A, 2)], "muslim", "christian"),
        ("christian", [("christian", A, 2), ("rebel", R, 2)], "rebel", "christian"),
        ("christian", [("rebel", R, 1), ("christian", A, 2)], "christian", "rebel"),
        ("muslim", [("muslim", G, 1), ("rebel_army", RA, 2)], "rebel_army", "muslim"),
        # nobody inside: the city's religion
        ("muslim", [("christian", A, 2)], "christian", "muslim"),
        ("christian", [("muslim", A, 3)], "muslim", "christian"),
        ("christian", [("rebel", R, 1)], "rebel", "christian"),
    ],
)
def test_besieged_city_belongs_to_the_side_inside(
    city: str, units: Units, besieger: str, controller: str
) -> None:
    """Important Definitions: control is by the forces the City "contains"; a besieger waits
    outside the walls (Phase 4: "the moving forces stop and wait for the Siege Phase"), so the
    side inside holds the city, or its religion when nobody is inside ("A City without forces
    of either side is considered to be controlled by the religion of the city")."""
    a = area(city, units, besieger=besieger)
    assert city_controller(a) == controller


# -- enemy forces ("Phase 4: Movement of Armies") --------------------------------


@pytest.mark.parametrize(
    ("a", "enemy"),
    [
        (area(None, [("rebel", R, 1)]), True),
        (area(None, [("rebel_army", RA, 2)]), True),
        (area(None, [("french", F, 1)]), True),
        (area(None, [("muslim", A, 1)]), True),
        (area(None, [("muslim", G, 1)]), True),
        (area(None, [("muslim", MC, 1)]), True),  # unhired mercenaries join the Muslims
        (area("muslim"), True),  # "a Muslim city with no other units present"
        (area("muslim", fortress=True), True),
        (area("muslim", [("christian", G, 1)]), False),
        (area("muslim", [("christian", A, 1)]), False),
        (area("christian"), False),
        (area("christian", [("christian", A, 1), ("christian", CR, 2)]), False),
        (area(None, fortress=True), False),
        (area(None), False),
        (area("christian", [("christian", G, 1), ("rebel", R, 1)], besieger="rebel"), True),
        (area("muslim", [("muslim", G, 1), ("christian", A, 2)], besieger="christian"), True),
    ],
)
def test_enemy_forces_for_the_christians(a: AreaState, enemy: bool) -> None:
    """Phase 4: "Enemy forces are: Rebel units, Neutral Armies (Rebels or French), Muslim armies,
    Muslim garrisons, or a Muslim city with no other units present." A Muslim city held by a
    Christian garrison has other units present: it is no enemy force."""
    assert enemy_forces(a, "christian") is enemy
    assert free_of_enemy(a, "christian") is (not enemy)


@pytest.mark.parametrize(
    ("a", "enemy"),
    [
        (area(None, [("christian", A, 1)]), True),
        (area(None, [("christian", G, 1)]), True),
        (area(None, [("christian", MO, 1)]), True),
        (area(None, [("christian", MC, 1)]), True),  # hired mercenaries fight for the player
        (area(None, [("rebel", R, 1)]), True),
        (area(None, [("french", F, 3)]), True),
        (area(None, [("rebel_army", RA, 1)]), True),
        (area("christian"), True),  # Phase 5: "A Christian city without other units"
        (area("christian", fortress=True), True),
        (area("christian", [("muslim", G, 1)]), False),
        (area("muslim"), False),
        (area("muslim", [("muslim", A, 2), ("muslim", MC, 1)]), False),
        (area(None), False),
    ],
)
def test_enemy_forces_for_the_muslims(a: AreaState, enemy: bool) -> None:
    """Phase 5, an area of non-Muslim control: "A Christian army and / or Garrison. A Rebel. A
    Christian city without other units (except a Fortification). A Neutral Army without Muslim
    control (Rebels, French, Crusaders, or Christian Mercenaries)." """
    assert enemy_forces(a, "muslim") is enemy


@pytest.mark.parametrize("side", ["rebel", "french", "rebel_army"])
def test_neutrals_are_hostile_to_all(side: str) -> None:
    """Phase 1: Rebels "are hostile to all sides"; Events 2 and 5: the French / Rebel force "is
    hostile to all other forces: Christian, Muslim or Rebel"."""
    own = {"rebel": R, "french": F, "rebel_army": RA}[side]
    for other, kind in [("christian", A), ("christian", G), ("muslim", A), ("muslim", G)]:
        assert enemy_forces(area(None, [(other, kind, 1)]), side)
    for other, kind in [("rebel", R), ("french", F), ("rebel_army", RA)]:
        assert enemy_forces(area(None, [(other, kind, 1)]), side) is (other != side)
    assert not enemy_forces(area(None, [(side, own, 2)]), side)
    assert not enemy_forces(area(None), side)


# -- roads out: free of Muslim forces ("Phase 4") ---------------------------------


@pytest.mark.parametrize(
    ("a", "free"),
    [
        (area(None), True),
        (area(None, [("christian", A, 2)]), True),
        (area("christian", [("christian", A, 1)]), True),
        (area("christian"), True),
        (area(None, [("christian", A, 1), ("muslim", G, 1)]), False),
        (area(None, [("christian", A, 1), ("muslim", A, 1)]), False),
        (area(None, [("christian", A, 1), ("muslim", MC, 1)]), False),
        (area("muslim"), False),
        (area("muslim", fortress=True), False),
        (area("muslim", [("christian", A, 1)]), True),
        (area("muslim", [("christian", G, 1)]), True),
        (area("muslim", [("christian", G, 1), ("christian", A, 1)]), True),
        (area("muslim", [("christian", A, 1), ("muslim", A, 2)], besieger="muslim"), False),
        (area("christian", [("christian", A, 1), ("muslim", A, 2)], besieger="muslim"), False),
    ],
)
def test_free_of_muslim_forces(a: AreaState, free: bool) -> None:
    """Phase 4: armies "can move along a Road to another Region, provided that the Area they
    come from is totally free of Muslim forces (the exception being a Muslim city, provided it
    contains at least one Christian army and / or Garrison)"."""
    assert free_of_muslim_forces(a) is free


@pytest.mark.parametrize("kind", [CR, MC])
def test_crusader_or_hired_mercenary_in_a_muslim_city_is_a_christian_army(kind: Kind) -> None:
    """Phase 4: the road exception is "a Muslim city, provided it contains at least one Christian
    army"; Event 4: hired mercenaries are placed "as an army. They are treated as armies during
    your turn"; docs/design.md: crusaders are "D6 crusader armies ... placed by the player in Phase 3
    as if built". So they hold a Muslim city for the road rule (docs/rules-notes.md)."""
    assert free_of_muslim_forces(area("muslim", [("christian", kind, 1)]))


# -- Santiago ("Phase 3") --------------------------------------------------------


@pytest.mark.parametrize(
    ("a", "controlled"),
    [
        (area(None), True),
        (area(None, [("christian", A, 1)]), True),
        (area("christian"), True),
        (area("christian", [("christian", G, 1)]), True),
        (area(None, [("french", F, 2)]), True),  # neither Muslim nor Rebel
        (area(None, [("muslim", A, 1)]), False),
        (area(None, [("muslim", G, 1)]), False),
        (area(None, [("muslim", MC, 1)]), False),
        (area(None, [("rebel", R, 1)]), False),
        (area(None, [("rebel_army", RA, 1)]), False),
        (area("christian", [("christian", G, 1), ("muslim", A, 2)], besieger="muslim"), False),
        (area("christian", [("christian", G, 1), ("rebel", R, 1)], besieger="rebel"), False),
        (area("muslim"), False),  # "A Muslim city without armies or garrisons in it would deny control"
        (area("muslim", fortress=True), False),
        (area("muslim", [("christian", A, 1)]), True),
        (area("muslim", [("christian", G, 2)]), True),
    ],
)
def test_santiago_control(board: Board, a: AreaState, controlled: bool) -> None:
    """Phase 3: "You control Santiago de Compostela if it is free of Muslim or Rebel units
    (excluding the situation where there is a Muslim city but it is garrisoned by Christian
    armies and/or garrisons. A Muslim city without armies or garrisons in it would deny
    control)." """
    state = empty_state(board)
    state.areas["Santiago"] = a
    assert controls_santiago(state) is controlled
    assert bool(lines(income(board, state).lines, "Santiago")) is controlled


def test_santiago_is_looked_up_by_name(board: Board) -> None:
    state = empty_state(board)
    state.areas["Oviedo"].add("muslim", G)
    assert controls_santiago(state)
    assert not controls_santiago(state, "Oviedo")


# -- income ("Phase 3: Collect Income and Spend It") -----------------------------


def test_base_income_is_always_two(board: Board) -> None:
    """Phase 3: "2 Points - you always receive these points." """
    state = empty_state(board)
    state.areas["Santiago"].add("muslim", G)
    got = income(board, state)
    assert got.lines == [("Base income", 2)]
    assert got.total == 2


def _castilla_example(board: Board) -> GameState:
    """The rulebook's example in Castilla: 3 cities, 2 under Christian control (one of them a
    Muslim city held by Christians), 1 under Muslim control."""
    state = empty_state(board)
    state.areas["Santiago"].add("muslim", G)  # no Santiago point, to isolate the region's
    state.areas["Salamanca"] = area("muslim", [("christian", G, 1)])
    state.areas["Toledo"] = area("muslim", [("muslim", G, 1)], fortress=True)
    christian_city(state, "Valencia")
    state.areas["Cuenca"] = area(None, [("muslim", A, 1)])  # no city: it does not count
    return state


def test_income_rulebook_example_majority(board: Board) -> None:
    """Phase 3: "there are 3 cities in the Region. Two of them are under Christian control, while
    one is under Muslim control. In this example, you would control the majority of the cities
    (2 versus 1) and would receive one income point." """
    state = _castilla_example(board)
    got = income(board, state)
    assert got.lines == [("Base income", 2), ("Majority of the cities of Castilla", 1)]
    assert got.total == 3


def test_income_rulebook_example_besieged_by_rebels(board: Board) -> None:
    """Phase 3: "If, however, one of the Christian-controlled cities were besieged by Rebels (from
    a random event), then you would not receive any income point, since you only have 1 city
    free of enemy forces." """
    state = _castilla_example(board)
    state.areas["Valencia"].add("rebel_army", RA, 2)
    state.areas["Valencia"].besieger = "rebel_army"
    assert controls_city(state.areas["Valencia"], "christian")  # still Christian, but not free
    assert christian_majority(board, state, 3, free_only=False)
    assert not christian_majority(board, state, 3, free_only=True)
    assert income(board, state).total == 2


def test_income_half_the_cities_is_no_majority(board: Board) -> None:
    """Phase 3: "only if you control the majority of the cities in the Region": 1 of 2 is not."""
    state = empty_state(board)
    state.areas["Santiago"].add("muslim", G)
    christian_city(state, "Barcelona")
    state.areas["Zaragoza"] = area("muslim", [("muslim", A, 1)])
    assert income(board, state).total == 2
    state.areas["Tarragona"] = area("muslim", [("christian", A, 1)])
    assert lines(income(board, state).lines, "Aragón") == [("Majority of the cities of Aragón", 1)]


def test_region_in_revolt_gives_no_income(board: Board) -> None:
    """Phase 1, 6 Regional Revolt: "This entire region is excluded from the game for this entire
    turn. It generates no income." """
    state = _castilla_example(board)
    christian_city(state, "Porto")
    state.revolt = 3
    got = income(board, state)
    assert lines(got.lines, "Castilla") == []
    assert lines(got.lines, "Portugal") == [("Majority of the cities of Portugal", 1)]
    assert got.total == 3


def test_santiago_gives_nothing_while_asturias_is_in_revolt(board: Board) -> None:
    """Phase 1, 6 Regional Revolt: "This entire region is excluded from the game for this entire
    turn. It generates no income." Santiago lies in Asturias (region 1): while Asturias is in
    revolt, its Santiago point is income the region generates, and must not be paid."""
    state = empty_state(board)
    assert controls_santiago(state)
    state.revolt = 1
    got = income(board, state)
    assert lines(got.lines, "Santiago") == []
    assert got.total == 2


def test_santiago_point(board: Board) -> None:
    """Phase 3: "1 Point if you control Santiago de Compostela"."""
    state = empty_state(board)
    state.revolt = 2  # another region's revolt does not matter
    got = income(board, state)
    assert got.lines == [("Base income", 2), ("Santiago de Compostela", 1)]


def test_taxes_and_expulsion(board: Board) -> None:
    """Quick Reference: "9 Taxes: 2 additional income. This turn only." "12 Expulsion of Jews /
    Moriscos: Reduce income by 2." Phase 3: "possibly 10, if income is increased due to a Random
    Event, or zero if income is lost due to a Random Event"."""
    state = empty_state(board)
    state.areas["Santiago"].add("muslim", G)
    state.effects.taxes = True
    assert income(board, state).total == 4
    assert ("Taxes (event)", 2) in income(board, state).lines
    state.effects.taxes = False
    state.effects.expulsion = True
    got = income(board, state)
    assert ("Expulsion (event)", -2) in got.lines
    assert got.total == 0
    state.effects.taxes = True
    assert income(board, state).total == 2


def test_expulsion_never_takes_income_below_zero(board: Board, tmp_path: Path) -> None:
    """Phase 3: income is "zero if income is lost due to a Random Event" — never negative, even
    with a table whose expulsion is larger than the income."""
    text = data_path("reconquista/tables.toml").read_text(encoding="utf-8")
    assert text.count("expulsion = -2") == 1
    tables = tmp_path / "tables.toml"
    tables.write_text(text.replace("expulsion = -2", "expulsion = -5"), encoding="utf-8")
    harsh = load_board(None, tables)
    state = empty_state(harsh)  # 2 + Santiago 1 = 3
    state.effects.expulsion = True
    got = income(harsh, state)
    assert got.total == 0
    assert ("Expulsion (event)", -3) in got.lines


def _all_christian(board: Board) -> GameState:
    state = empty_state(board)
    for region in board.regions.values():
        for name in region.areas[:2]:
            christian_city(state, name)
    return state


def test_income_maximum_is_eight_without_events(board: Board) -> None:
    """Phase 3: "the minimum that can be received is 2 points, the maximum is 8 points (possibly
    10, if income is increased due to a Random Event ...)"."""
    state = _all_christian(board)
    assert income(board, state).total == 8
    state.effects.taxes = True
    assert income(board, state).total == 10
    state.effects.taxes = False
    state.effects.expulsion = True
    assert income(board, state).total == 6


# -- victory points ("End of Game: Victory Points") ------------------------------


def test_victory_point_per_christian_controlled_city(board: Board) -> None:
    """End of Game: "1 for each City under Christian control" — of either religion."""
    state = empty_state(board)
    for name in board.all_areas():
        state.areas[name].add("muslim", G)  # no region free, no majority
    state.areas["Santiago"] = area("christian", [("christian", G, 1)])
    state.areas["Porto"] = area("muslim", [("christian", A, 1)])
    state.areas["Granada"] = area("christian")  # empty Christian city: Christian control
    state.areas["Toledo"] = area("christian", [("muslim", A, 1)])  # Muslim-held
    state.areas["Cuenca"] = area("muslim", [("muslim", G, 1)])
    for name in ("Galicia", "León", "Badajoz", "Sevilla", "Algeciras", "Murcia"):
        state.areas[name].city = "muslim"  # Muslim-held: a Christian majority nowhere
    got = victory_points(board, state)
    assert got.total == 3
    assert got.lines == [("Cities under Christian control (Santiago, Porto, Granada)", 3)]


def test_region_majority_and_free_region(board: Board) -> None:
    """End of Game: "2 for each Region where the majority of Cities are under Christian control"
    and "2 for each Region completely free of Muslim forces and Muslim Cities"."""
    state = empty_state(board)
    for n in (2, 3, 4, 5):
        state.areas[board.regions[n].areas[0]].add("muslim", G)  # not free
    christian_city(state, "Santiago")
    christian_city(state, "Oviedo")
    state.areas["León"] = area("muslim", [("muslim", A, 1)])
    state.areas["León"].remove("muslim", A)  # an empty Muslim city: Muslim control, not free
    got = victory_points(board, state)
    assert lines(got.lines, "Majority") == [("Majority of the cities of Asturias", 2)]
    assert lines(got.lines, "free of") == []
    assert got.total == 2 + 2
    state.areas["León"].city = "christian"
    got = victory_points(board, state)
    assert lines(got.lines, "free of") == [("Asturias free of Muslim forces and cities", 2)]
    assert got.total == 3 + 2 + 2


def test_region_without_cities_scores_no_majority(board: Board) -> None:
    """End of Game: "(a region without cities does not score)" for the majority — but a region
    free of Muslims still scores its 2."""
    state = empty_state(board)
    got = victory_points(board, state)
    assert lines(got.lines, "Majority") == []
    assert got.lines == [(f"{r.name} free of Muslim forces and cities", 2) for r in board.regions.values()]
    assert got.total == 10
    for n in board.regions:
        assert not christian_majority(board, state, n, free_only=False)
        assert muslim_free_region(board, state, n)


def test_muslim_city_under_christian_control_is_not_free(board: Board) -> None:
    """End of Game: "2 for each Region completely free of Muslim forces and Muslim Cities (even if
    under Christian control)"."""
    state = empty_state(board)
    state.areas["Lisboa"] = area("muslim", [("christian", A, 2)])
    assert not muslim_free_region(board, state, 4)
    got = victory_points(board, state)
    assert lines(got.lines, "Portugal") == [("Majority of the cities of Portugal", 2)]
    assert got.total == 1 + 2 + 4 * 2


def test_muslim_unit_in_an_area_without_city_spoils_the_free_region(board: Board) -> None:
    """End of Game: "completely free of Muslim forces": a lone Muslim garrison is enough."""
    state = empty_state(board)
    state.areas["Cuenca"].add("muslim", G)
    assert not muslim_free_region(board, state, 3)
    assert victory_points(board, state).total == 8


def test_region_in_revolt_on_turn_20_counts(board: Board) -> None:
    """Phase 1, 6 Regional Revolt: "If this happens on turn 20, the region does count for the
    victory score as normal." """
    state = _all_christian(board)
    before = victory_points(board, state).total
    state.revolt = 1
    state.turn = 20
    assert before == 10 + 5 * 2 + 5 * 2
    assert victory_points(board, state).total == before


@pytest.mark.parametrize(
    ("points", "title", "name"),
    [
        (0, "Almanzor", "Crushing Muslim Victory"),
        (10, "Almanzor", "Crushing Muslim Victory"),
        (11, "Yusuf ibn Tashfin", "Muslim Victory"),
        (15, "Yusuf ibn Tashfin", "Muslim Victory"),
        (16, "El Cid", "Draw"),
        (20, "El Cid", "Draw"),
        (21, "Alfonso VIII", "Christian Victory"),
        (25, "Alfonso VIII", "Christian Victory"),
        (26, "Ferdinand and Isabella", "Crushing Christian Victory"),
        (40, "Ferdinand and Isabella", "Crushing Christian Victory"),
    ],
)
def test_result_bands(board: Board, points: int, title: str, name: str) -> None:
    """End of Game: "10 or less Crushing Muslim Victory "Almanzor". 11 to 15 Muslim Victory
    "Yusuf ibn Tashfin". 16 to 20 Draw "El Cid". 21 to 25 Christian Victory "Alfonso VIII". 26 to
    40 Crushing Christian Victory "Ferdinand and Isabella"." """
    band = result_band(board, points)
    assert (band.title, band.name) == (title, name)


# -- setup ("Setting Up the Board") ----------------------------------------------


def test_initial_state_is_the_rulebook_setup(board: Board) -> None:
    """Setting Up the Board: "Place a Fortress in each of the following areas: Badajoz, Toledo,
    Córdoba, Zaragoza. Place a Muslim City in each of the following areas: Zaragoza, Salamanca,
    Toledo, Valencia, Lisboa, Córdoba, Algeciras, Granada. Place a Christian City in each of the
    following areas: Oviedo, León, Barcelona. Garrisons: Place one in each Area in each Region.
    All are Muslim, with the exception of Pamplona and Oviedo, which each have one Christian
    Garrison. Place a Christian Army in Oviedo. Place a Muslim Army in Zaragoza. Place a Muslim
    Army in Toledo. Place 2 Muslim Armies in Córdoba." """
    state = initial_state(board)
    assert state.turn == 1
    assert state.phase == "setup"
    assert list(state.areas) == board.all_areas()
    assert {n for n, a in state.areas.items() if a.fortress} == {"Badajoz", "Toledo", "Córdoba", "Zaragoza"}
    assert {n for n, a in state.areas.items() if a.city == "muslim"} == {
        "Zaragoza",
        "Salamanca",
        "Toledo",
        "Valencia",
        "Lisboa",
        "Córdoba",
        "Algeciras",
        "Granada",
    }
    assert {n for n, a in state.areas.items() if a.city == "christian"} == {"Oviedo", "León", "Barcelona"}
    for name, a in state.areas.items():
        garrison_side = "christian" if name in ("Pamplona", "Oviedo") else "muslim"
        expected: dict[str, dict[Kind, int]] = {garrison_side: {G: 1}}
        if name == "Oviedo":
            expected["christian"][A] = 1
        if name in ("Zaragoza", "Toledo"):
            expected["muslim"][A] = 1
        if name == "Córdoba":
            expected["muslim"][A] = 2
        assert a.units == expected, name
        assert a.besieger is None
    assert sum(a.count("muslim", A) for a in state.areas.values()) == 4
    assert sum(a.count("christian") for a in state.areas.values()) == 3
    assert state.revolt is None and state.el_cid_area is None and state.income == 0


def test_initial_state_is_fresh_each_time(board: Board) -> None:
    one = initial_state(board)
    one.areas["Oviedo"].add("christian", A)
    assert initial_state(board).areas["Oviedo"].count("christian", A) == 1


def test_starting_income_and_victory_points(board: Board) -> None:
    """At setup only Oviedo is a Christian-controlled city (León and Barcelona are Christian
    cities but hold Muslim garrisons: "A City is under Muslim control if it contains Muslim
    forces ... it does not matter whether the City itself is Muslim or Christian"); Santiago
    holds a Muslim garrison, so Phase 3 pays only the 2 points "you always receive", and the
    score is 1 point: "10 or less ... Almanzor"."""
    state = initial_state(board)
    assert [n for n, a in state.areas.items() if controls_city(a, "christian")] == ["Oviedo"]
    assert city_controller(state.areas["León"]) == "muslim"
    assert city_controller(state.areas["Barcelona"]) == "muslim"
    assert not controls_santiago(state)
    got = income(board, state)
    assert got.lines == [("Base income", 2)]
    vp = victory_points(board, state)
    assert vp.lines == [("Cities under Christian control (Oviedo)", 1)]
    assert result_band(board, vp.total).title == "Almanzor"
