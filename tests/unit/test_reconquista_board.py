"""The Reconquista board and rules tables: the shipped data matches docs/design.md and the
rulebook, and every broken map.toml / tables.toml is refused with one clear sentence."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from companion.datafiles import data_path
from companion.errors import DataFileError
from companion.reconquista.board import (
    Board,
    Reinforcement,
    default_board,
    load_board,
    parse_reinforcement,
)
from companion.reconquista.setup import initial_state
from companion.reconquista.units import Kind

MAP = data_path("reconquista/map.toml")
TABLES = data_path("reconquista/tables.toml")

# docs/design.md, "Reconquista: the default board (reconstructed)".
DESIGN_REGIONS: dict[int, tuple[str, dict[str, tuple[int, ...]]]] = {
    1: ("Asturias", {"Santiago": (1, 2), "Oviedo": (3,), "Galicia": (4,), "León": (5, 6)}),
    2: ("Aragón", {"Pamplona": (1, 2), "Barcelona": (3,), "Tarragona": (4,), "Zaragoza": (5, 6)}),
    3: ("Castilla", {"Salamanca": (1, 2), "Toledo": (3,), "Cuenca": (4,), "Valencia": (5, 6)}),
    4: ("Portugal", {"Porto": (1, 2), "Lisboa": (3,), "Badajoz": (4,), "Sevilla": (5, 6)}),
    5: ("Al-Ándalus", {"Algeciras": (1, 2), "Córdoba": (3,), "Murcia": (4,), "Granada": (5, 6)}),
}
DESIGN_ROADS: set[frozenset[str]] = {
    frozenset(p)
    for p in [
        ("Oviedo", "Pamplona"),
        ("León", "Salamanca"),
        ("Galicia", "Porto"),
        ("Zaragoza", "Cuenca"),
        ("Tarragona", "Valencia"),
        ("Salamanca", "Badajoz"),
        ("Toledo", "Córdoba"),
        ("Valencia", "Murcia"),
        ("Badajoz", "Córdoba"),
        ("Sevilla", "Algeciras"),
    ]
}
DESIGN_PORTS: dict[int, str] = {
    1: "Sevilla",
    2: "Algeciras",
    3: "Granada",
    4: "Murcia",
    5: "Valencia",
    6: "Tarragona",
}


# -- the shipped map -------------------------------------------------------------


def test_regions_numbers_and_names(board: Board) -> None:
    """docs/design.md: five regions, 1 Asturias, 2 Aragón, 3 Castilla, 4 Portugal, 5 Al-Ándalus."""
    assert {n: r.name for n, r in board.regions.items()} == {n: v[0] for n, v in DESIGN_REGIONS.items()}
    assert all(n == r.number for n, r in board.regions.items())


def test_each_area_faces_region_and_order(board: Board) -> None:
    """docs/design.md: "Area numbers are die faces ... An area's order is its lowest face";
    The Map: "Each of these 5 regions is subdivided into 4 Areas"."""
    expected = {name: (n, faces) for n, (_, areas) in DESIGN_REGIONS.items() for name, faces in areas.items()}
    assert len(board.areas) == 20
    assert {name: (a.region, a.faces) for name, a in board.areas.items()} == expected
    for name, area in board.areas.items():
        assert area.name == name
        assert area.order == min(expected[name][1])
    for n, (_, areas) in DESIGN_REGIONS.items():
        assert board.regions[n].areas == tuple(areas)  # lowest face first
        assert len(board.regions[n].areas) == 4


def test_rulebook_orders_of_tarragona_and_zaragoza(board: Board) -> None:
    """Example of a Simple Battle: "Tarragona has order 4, and the highest-numbered adjacent
    Area is Zaragoza (order 5, 6)"."""
    assert board.areas["Tarragona"].order == 4
    assert board.areas["Tarragona"].faces == (4,)
    assert board.areas["Zaragoza"].faces == (5, 6)
    assert board.next_area("Tarragona") == "Zaragoza"


def test_all_areas_lowest_region_first(board: Board) -> None:
    """docs/design.md's table read row by row, each region in area order."""
    assert board.all_areas() == [a for _, (_, areas) in sorted(DESIGN_REGIONS.items()) for a in areas]


def test_roads_exactly_design_and_both_ways(board: Board) -> None:
    """docs/design.md: "Roads (both ways)" — the ten listed and no other."""
    shipped = {frozenset((a, b)) for a, dests in board.roads.items() for b in dests}
    assert shipped == DESIGN_ROADS
    for a, dests in board.roads.items():
        for b in dests:
            assert a in board.roads[b], f"road {a}->{b} does not run back"
            assert board.areas[a].region != board.areas[b].region
    assert set(board.roads) == set(board.areas)
    assert board.roads["Córdoba"] == ("Toledo", "Badajoz")
    assert board.roads["Santiago"] == ()


def test_the_map_tables_follow_the_map(board: Board) -> None:
    """The tables the rules read the map through (map order, each area's place in it, the
    roads in map order, the regions a road leads to) say what the map says, on the shipped
    board and on one with the ports moved; all_areas is a fresh list each time."""
    areas = board.all_areas()
    moved = dataclasses.replace(board, ports={f: areas[(f * 3) % len(areas)] for f in range(1, 7)})
    for b in (board, moved):
        order = [a for n in sorted(b.regions) for a in b.regions[n].areas]
        assert list(b.area_order) == b.all_areas() == order
        assert b.all_areas() is not b.all_areas()  # callers may change it
        assert b.map_index == {a: order.index(a) for a in b.areas}
        for area, dests in b.roads.items():
            assert b.roads_in_map_order[area] == tuple(sorted(dests, key=order.index))
        links: dict[int, set[int]] = {n: set() for n in b.regions}
        for src, dests in b.roads.items():
            for d in dests:
                links[b.areas[src].region].add(b.areas[d].region)
        assert b.region_links == {n: tuple(sorted(s)) for n, s in links.items()}


def test_mountains(board: Board) -> None:
    """docs/design.md: "Mountainous: Oviedo, Pamplona, Granada"."""
    assert {n for n, a in board.areas.items() if a.mountain} == {"Oviedo", "Pamplona", "Granada"}


def test_ports(board: Board) -> None:
    """Phase 5: "roll a D6 to see in which Area it lands - as indicated by the port symbol and
    the corresponding number on the map (Sevilla, Algeciras, Granada, Murcia, Valencia or
    Tarragona)"; docs/design.md numbers them 1 to 6 in that order."""
    assert board.ports == DESIGN_PORTS
    assert {n: a.port for n, a in board.areas.items() if a.port is not None} == {
        v: k for k, v in DESIGN_PORTS.items()
    }


@pytest.mark.parametrize(
    ("area", "nxt"),
    [
        ("Granada", "Algeciras"),
        ("Tarragona", "Zaragoza"),
        ("Zaragoza", "Pamplona"),
        ("Algeciras", "Córdoba"),
        ("Córdoba", "Murcia"),
        ("Murcia", "Granada"),
        ("León", "Santiago"),
    ],
)
def test_next_area_wraps(board: Board, area: str, nxt: str) -> None:
    """Footnote: "If there is no higher-numbered area, move to the lowest-numbered area. For
    example, a force in Granada would move to Algeciras."; retreat order "Córdoba, Murcia,
    Granada, and then ... Algeciras"."""
    assert board.next_area(area) == nxt


@pytest.mark.parametrize(
    ("region", "face", "area"),
    [
        (2, 6, "Zaragoza"),
        (2, 5, "Zaragoza"),
        (2, 4, "Tarragona"),
        (1, 1, "Santiago"),
        (1, 2, "Santiago"),
        (5, 3, "Córdoba"),
    ],
)
def test_area_for(board: Board, region: int, face: int, area: str) -> None:
    """docs/design.md: "Area numbers are die faces": the area die's face picks the area."""
    assert board.area_for(region, face) == area


def test_area_for_refuses_a_face_outside_the_die(board: Board) -> None:
    with pytest.raises(ValueError, match="face 7"):
        board.area_for(1, 7)


def test_region_of(board: Board) -> None:
    assert board.region_of("Sevilla").name == "Portugal"
    assert board.region_of("Valencia").number == 3


def test_load_board_without_paths_is_the_default(board: Board) -> None:
    assert load_board() is board
    assert Path(board.source) == MAP


# -- the shipped tables ----------------------------------------------------------


def test_rebellion_table(board: Board) -> None:
    """Phase 1: Rebellions: "1 or 2 Rebels; 3 Proselytism; 4 Peasant Revolt; 5 Rebel Governor;
    6 Regional Revolt"."""
    assert board.tables.rebellion == {
        1: "rebels",
        2: "rebels",
        3: "proselytism",
        4: "peasant_revolt",
        5: "rebel_governor",
        6: "regional_revolt",
    }


def test_events_table(board: Board) -> None:
    """Phase 2: Events, 2D6: "2 French Intervention, 3 Bribery, 4 Mercenaries, 5 Rebels,
    6 Military Order, 7 Famine, 8 El Cid, 9 Taxes, 10 Jihad, 11 Crusade, 12 Expulsion"."""
    assert board.tables.events == {
        2: "french_intervention",
        3: "bribery",
        4: "mercenaries",
        5: "rebel_armies",
        6: "military_order",
        7: "famine",
        8: "el_cid",
        9: "taxes",
        10: "jihad",
        11: "crusade",
        12: "expulsion",
    }


def test_french_start(board: Board) -> None:
    """Event 2: "their starting location: 1-2 is Oviedo, 3-4 is Pamplona, 5-6 is Barcelona"."""
    assert board.tables.french_start == {
        1: "Oviedo",
        2: "Oviedo",
        3: "Pamplona",
        4: "Pamplona",
        5: "Barcelona",
        6: "Barcelona",
    }


def test_rebel_army_start_both_columns(board: Board) -> None:
    """Event 5, "Starting location of the Rebel armies": first roll 1-3: Pamplona, Oviedo,
    Santiago, Galicia, Porto, Lisboa; first roll 4-6: Barcelona, Tarragona, Valencia, Murcia,
    Algeciras, Sevilla."""
    t = board.tables.rebel_army_start
    assert t.low == {1: "Pamplona", 2: "Oviedo", 3: "Santiago", 4: "Galicia", 5: "Porto", 6: "Lisboa"}
    assert t.high == {
        1: "Barcelona",
        2: "Tarragona",
        3: "Valencia",
        4: "Murcia",
        5: "Algeciras",
        6: "Sevilla",
    }


def test_el_cid_sides(board: Board) -> None:
    """Quick Reference, "8 El Cid: D6: 1-3 Christian, 4-6 Muslim"."""
    assert sorted(board.tables.el_cid.christian) == [1, 2, 3]
    assert sorted(board.tables.el_cid.muslim) == [4, 5, 6]


def test_reinforcement_table(board: Board) -> None:
    """Phase 5: "Roll | 0 | 1 | 2 | 3 or 4 | North Africa": 1 Establish city, Build Fortress x3,
    1 Army; 2 Build Fortress, Garrison x3, 2 Armies; 3 Garrison, Garrison, 1 Army, 1 Army,
    3 Armies; 4 Garrison, 1 Army, 1 Army, 2 Armies, 4 Armies. docs/design.md: rows 1-4, roll again
    on 5 or 6."""
    t = board.tables.reinforcements
    assert t.die == 6
    assert sorted(t.reroll) == [5, 6]
    city, fort, gar = Reinforcement("city"), Reinforcement("fortress"), Reinforcement("garrison")
    one, two = Reinforcement("army", 1), Reinforcement("army", 2)
    expected = {
        1: ([city, fort, fort, fort], 1),
        2: ([fort, gar, gar, gar], 2),
        3: ([gar, gar, one, one], 3),
        4: ([gar, one, one, two], 4),
    }
    got = {r.roll: ([parse_reinforcement(c) for c in r.by_cities], r.north_africa) for r in t.rows}
    assert got == expected


@pytest.mark.parametrize(
    ("text", "parsed", "shown"),
    [
        ("city", Reinforcement("city"), "Establish city"),
        ("fortress", Reinforcement("fortress"), "Build Fortress"),
        (" garrison ", Reinforcement("garrison"), "Garrison"),
        ("1 army", Reinforcement("army", 1), "1 army"),
        ("2 armies", Reinforcement("army", 2), "2 armies"),
        ("6 armies", Reinforcement("army", 6), "6 armies"),
    ],
)
def test_parse_reinforcement(text: str, parsed: Reinforcement, shown: str) -> None:
    """Phase 5: cells are "Establish city", "Build Fortress", "Garrison", "1 to 6 Army / Armies"."""
    assert parse_reinforcement(text) == parsed
    assert str(parsed) == shown


@pytest.mark.parametrize("text", ["dragons", "0 armies", "7 armies", "armies", "", "city fortress"])
def test_parse_reinforcement_refuses(text: str) -> None:
    with pytest.raises(ValueError, match="is not a reinforcement"):
        parse_reinforcement(text)


def test_costs(board: Board) -> None:
    """Phase 3, Expenses: "Build an army: 2 Points", "Build a Garrison: 1 Point", "Build a City:
    3 Points", "Build a Fortress: 1 Point", "Convert a City ...: 1 Point"; Bribery "2 income
    points"; Mercenaries "a cost of 1 income point each"."""
    c = board.tables.costs
    assert (c.army, c.garrison, c.city, c.fortress, c.convert, c.bribery, c.mercenary) == (
        2,
        1,
        3,
        1,
        1,
        2,
        1,
    )


def test_income(board: Board) -> None:
    """Phase 3, Income: "2 Points - you always receive these points. 1 Point for each Region ...
    1 Point if you control Santiago"; Taxes "2 additional income"; Expulsion "Reduce income by 2"."""
    i = board.tables.income
    assert (i.base, i.per_region, i.santiago, i.taxes, i.expulsion) == (2, 1, 1, 2, -2)


def test_victory_points_and_bands(board: Board) -> None:
    """End of Game: Victory Points: "1 for each City ... 2 for each Region where the majority ...
    2 for each Region completely free ..."; "10 or less Almanzor, 11 to 15 Yusuf ibn Tashfin,
    16 to 20 El Cid, 21 to 25 Alfonso VIII, 26 to 40 Ferdinand and Isabella"."""
    v = board.tables.victory_points
    assert (v.city, v.region_majority, v.region_free) == (1, 2, 2)
    assert [(b.min, b.name, b.title) for b in board.tables.victory] == [
        (0, "Crushing Muslim Victory", "Almanzor"),
        (11, "Muslim Victory", "Yusuf ibn Tashfin"),
        (16, "Draw", "El Cid"),
        (21, "Christian Victory", "Alfonso VIII"),
        (26, "Crushing Christian Victory", "Ferdinand and Isabella"),
    ]


def test_setup_table(board: Board) -> None:
    """Setting Up the Board: "Turn counter on turn 1", Fortresses "Badajoz, Toledo, Córdoba,
    Zaragoza", Muslim Cities "Zaragoza, Salamanca, Toledo, Valencia, Lisboa, Córdoba, Algeciras,
    Granada", Christian Cities "Oviedo, León, Barcelona", Christian Garrisons "Pamplona and Oviedo",
    "a Christian Army in Oviedo", Muslim Armies "Zaragoza ... Toledo ... 2 Muslim Armies in Córdoba"."""
    s = board.tables.setup
    assert s.turn == 1
    assert set(s.fortresses) == {"Badajoz", "Toledo", "Córdoba", "Zaragoza"}
    assert set(s.muslim_cities) == {
        "Zaragoza",
        "Salamanca",
        "Toledo",
        "Valencia",
        "Lisboa",
        "Córdoba",
        "Algeciras",
        "Granada",
    }
    assert set(s.christian_cities) == {"Oviedo", "León", "Barcelona"}
    assert set(s.christian_garrisons) == {"Pamplona", "Oviedo"}
    assert s.christian_armies == {"Oviedo": 1}
    assert s.muslim_armies == {"Zaragoza": 1, "Toledo": 1, "Córdoba": 2}


# -- validation of broken copies --------------------------------------------------

ONE_SENTENCE = re.compile(r"[.!?]\s+[A-Z]")


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _edit(original: Path, old: str, new: str) -> str:
    text = original.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"the shipped file no longer has exactly one {old!r}"
    return text.replace(old, new)


def _refused(map_path: Path, tables_path: Path, blamed: Path, *fragments: str) -> str:
    """load_board must raise DataFileError naming ``blamed`` and every fragment, in one sentence."""
    with pytest.raises(DataFileError) as info:
        load_board(map_path, tables_path)
    msg = str(info.value)
    assert str(blamed) in msg, msg
    for fragment in fragments:
        assert fragment in msg, msg
    assert "\n" not in msg, msg
    assert msg.endswith("."), msg
    assert ONE_SENTENCE.search(msg) is None, f"more than one sentence: {msg}"
    assert "Traceback" not in msg and "pydantic" not in msg.lower(), msg
    return msg


MAP_BREAKS: list[tuple[str, str, str, tuple[str, ...]]] = [
    # id, old, new, fragments the message must hold
    (
        "face given to two areas",
        '{ name = "Oviedo", faces = [3] }',
        '{ name = "Oviedo", faces = [2] }',
        ("region.0", "face 2", "Santiago", "Oviedo"),
    ),
    (
        "face missing in a region",
        '{ name = "León", faces = [5, 6] }',
        '{ name = "León", faces = [5] }',
        ("region.0", "Asturias", "face 6"),
    ),
    (
        "face 7",
        '{ name = "Granada", faces = [5, 6] }',
        '{ name = "Granada", faces = [5, 6, 7] }',
        ("region.4", "Granada", "face 7"),
    ),
    (
        "road inside one region",
        '["Sevilla", "Algeciras"],',
        '["Sevilla", "Algeciras"],\n  ["Oviedo", "León"],',
        ("roads[10]", "Oviedo", "León", "same region"),
    ),
    (
        "road to an unknown area",
        '["Sevilla", "Algeciras"],',
        '["Sevilla", "Algeciras"],\n  ["Oviedo", "Atlantis"],',
        ("roads[10]", "Atlantis"),
    ),
    (
        "unknown mountain",
        'mountains = ["Oviedo", "Pamplona", "Granada"]',
        'mountains = ["Oviedo", "Pamplona", "Olympus"]',
        ("mountains", "Olympus"),
    ),
    ("port face missing", '6 = "Tarragona"\n', "", ("ports",)),
    ("port to an unknown area", '6 = "Tarragona"', '6 = "Carthage"', ("ports.6", "Carthage")),
    ("region number 6", "number = 5", "number = 6", ("region.4.number",)),
    ("region number twice", "number = 5", "number = 4", ("region", "1 to 5")),
    (
        "duplicate area name",
        '{ name = "Lisboa", faces = [3] }',
        '{ name = "Toledo", faces = [3] }',
        ("region", "Toledo", "twice"),
    ),
    ("unknown key", "mountains = [", "hills = []\nmountains = [", ("hills",)),
    ("invalid TOML", "roads = [", "roads = [[[", ("not valid TOML", "at line")),
]


@pytest.mark.parametrize(
    ("old", "new", "fragments"), [b[1:] for b in MAP_BREAKS], ids=[b[0] for b in MAP_BREAKS]
)
def test_broken_map_is_refused(tmp_path: Path, old: str, new: str, fragments: tuple[str, ...]) -> None:
    """Every broken map.toml raises DataFileError naming the file and the key, in one sentence."""
    map_path = _write(tmp_path, "map.toml", _edit(MAP, old, new))
    _refused(map_path, TABLES, map_path, *fragments)


TABLE_BREAKS: list[tuple[str, str, str, tuple[str, ...]]] = [
    (
        "unknown setup area",
        'fortresses = ["Badajoz",',
        'fortresses = ["Atlantis",',
        ("setup.fortresses", "Atlantis"),
    ),
    (
        "unknown french start area",
        '1 = "Oviedo"\n2 = "Oviedo"',
        '1 = "Paris"\n2 = "Oviedo"',
        ("french_start.1", "Paris"),
    ),
    (
        "unknown rebel army start area",
        '6 = "Sevilla" }',
        '6 = "Tanger" }',
        ("rebel_army_start.high.6", "Tanger"),
    ),
    ("unknown event name", '7 = "famine"', '7 = "plague"', ("events.7",)),
    (
        "reinforcement cell dragons",
        '{ roll = 1, by_cities = ["city",',
        '{ roll = 1, by_cities = ["dragons",',
        ("reinforcements.rows.0.by_cities", "dragons"),
    ),
    ("missing rebellion face", '6 = "regional_revolt"\n', "", ("rebellion", "1 to 6")),
    ("event total 13", '12 = "expulsion"', '13 = "expulsion"', ("events", "2 to 12")),
    ("victory bands out of order", "min = 11", "min = 30", ("victory", "rising order")),
    ("reinforcement roll also a reroll", "reroll = [5, 6]", "reroll = [4, 5, 6]", ("reinforcements",)),
    (
        "a city both Muslim and Christian",
        'christian_cities = ["Oviedo",',
        'christian_cities = ["Toledo",',
        ("setup", "Toledo"),
    ),
    ("missing costs section", "[costs]\narmy = 2\n", "[costs]\n", ("costs.army",)),
    ("invalid TOML", "[income]", "[income", ("not valid TOML", "at line")),
]


@pytest.mark.parametrize(
    ("old", "new", "fragments"), [b[1:] for b in TABLE_BREAKS], ids=[b[0] for b in TABLE_BREAKS]
)
def test_broken_tables_are_refused(tmp_path: Path, old: str, new: str, fragments: tuple[str, ...]) -> None:
    """Every broken tables.toml raises DataFileError naming the tables file (not the map) and
    the key, in one sentence."""
    tables_path = _write(tmp_path, "tables.toml", _edit(TABLES, old, new))
    msg = _refused(MAP, tables_path, tables_path, *fragments)
    assert str(MAP) not in msg


def test_negative_setup_army_count_is_refused(tmp_path: Path) -> None:
    """Setting Up the Board places armies ("Place 2 Muslim Armies in Córdoba"): a count below
    zero is no setup, and board.py promises "a problem is a DataFileError naming the file and
    key" — not a ValueError later when the game is set up."""
    tables_path = _write(tmp_path, "tables.toml", _edit(TABLES, '"Córdoba" = 2 }', '"Córdoba" = -2 }'))
    _refused(MAP, tables_path, tables_path, "setup.muslim_armies")


def test_missing_file_is_refused(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "map.toml"
    msg = _refused(missing, TABLES, missing, "does not exist")
    assert msg == f"The data file {missing} does not exist."
    missing_tables = tmp_path / "tables.toml"
    _refused(MAP, missing_tables, missing_tables, "does not exist")


def test_shipped_text_loads_from_a_copy(tmp_path: Path) -> None:
    """The control for every broken copy above: the unchanged text loads, so each refusal is
    due to the one change made."""
    map_path = _write(tmp_path, "map.toml", MAP.read_text(encoding="utf-8"))
    tables_path = _write(tmp_path, "tables.toml", TABLES.read_text(encoding="utf-8"))
    board = load_board(map_path, tables_path)
    assert board.source == str(map_path)
    assert board.regions == default_board().regions
    assert board.areas == default_board().areas


# -- a user's map -----------------------------------------------------------------


def test_user_map_with_swapped_faces_and_new_name_is_used(tmp_path: Path) -> None:
    """docs/design.md: the README must say "how to edit data/reconquista/map.toml to match a printed
    board": a valid edited map loads and decides area_for, order and next_area."""
    text = _edit(MAP, '{ name = "Oviedo", faces = [3] }', '{ name = "Oviedo", faces = [4] }')
    text = text.replace('{ name = "Galicia", faces = [4] }', '{ name = "Galicia", faces = [3] }')
    text = text.replace('"Cuenca"', '"Molina"')
    map_path = _write(tmp_path, "map.toml", text)
    board = load_board(map_path)  # the shipped tables
    assert board.area_for(1, 3) == "Galicia"
    assert board.area_for(1, 4) == "Oviedo"
    assert board.regions[1].areas == ("Santiago", "Galicia", "Oviedo", "León")
    assert board.areas["Oviedo"].order == 4
    assert board.next_area("Galicia") == "Oviedo"
    assert board.next_area("Oviedo") == "León"
    assert "Cuenca" not in board.areas
    assert board.area_for(3, 4) == "Molina"
    assert board.roads["Molina"] == ("Zaragoza",)
    assert board.source == str(map_path)
    state = initial_state(board)
    assert state.areas["Molina"].count("muslim", Kind.GARRISON) == 1
    assert default_board().area_for(1, 3) == "Oviedo"  # the shipped board is untouched
