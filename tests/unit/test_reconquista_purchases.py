"""Reconquista Phase 3, "Collect Income and Spend It": ``companion.reconquista.purchases``.

The income told and set, every purchase of "Expenses" legal and refused (with the
refusal sentence the screens show), the event purchases (Bribery, Mercenaries,
Crusade), the region in revolt, points that cannot be saved, and a property: ``options``
and ``refusal`` never disagree on random tables. That every menu of whole games is what
``refusal`` allows, and that the points and crusaders are spent, is checked in
tests/games/test_reconquista_whole_games.py.
Every rule test quotes the rulebook section it holds the code to.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from procedure_helpers import drive
from reconquista_helpers import Units, chooses, make_legal, place, tells

from companion.prompts import Tell, prompt_from_dict
from companion.reconquista import purchases
from companion.reconquista.board import Board, default_board
from companion.reconquista.control import CHRISTIAN_FORCES
from companion.reconquista.game import check_invariants
from companion.reconquista.purchases import (
    BOUGHT_TOPIC,
    DONE,
    INCOME_TOPIC,
    KINDS,
    options,
    phase,
    refusal,
)
from companion.reconquista.setup import initial_state
from companion.reconquista.state import SIDE_KINDS, AreaState, GameState
from companion.reconquista.units import Kind

A, G, MO, R = Kind.ARMY, Kind.GARRISON, Kind.ORDER, Kind.REBEL
MC, CR = Kind.MERCENARY, Kind.CRUSADER


# -- helpers ------------------------------------------------------------------------------------------


def rich(state: GameState, points: int) -> GameState:
    state.income = points
    return state


# -- income -----------------------------------------------------------------------------------


def test_income_is_told_line_by_line_and_becomes_the_points_to_spend(board: Board, state: GameState) -> None:
    """Phase 3, Income: "2 Points - you always receive these points. 1 Point for each
    Region, but only if you control the majority of the cities [...] 1 Point if you control
    Santiago de Compostela". One Tell lists each line and the total; the first Choose shows
    the points to spend."""
    place(state, "Santiago")  # free of Muslim or Rebel units
    place(state, "León", city="christian")  # Oviedo and León: 2 of 2 Asturian cities
    prompts, _ = drive(phase(board, state), [DONE])
    first = tells(prompts)[0]
    assert first == (
        "Income: Base income 2; Majority of the cities of Asturias 1; Santiago de Compostela 1. "
        "Total 4 points: move the income marker to 4."
    )
    assert chooses(prompts)[0].why.startswith("Phase 3: spend your income (4 points left)")


def test_expulsion_line_is_told_negative(board: Board, state: GameState) -> None:
    """Quick Reference, event 12: "Expulsion of Jews / Moriscos: Reduce income by 2. This
    turn only." The line shows the reduction; the 0 points left buy nothing, so no Choose."""
    state.effects.expulsion = True
    prompts, _ = drive(phase(board, state), [])
    assert tells(prompts) == [
        "Income: Base income 2; Expulsion (event) -2. Total 0 points: move the income marker to 0."
    ]
    assert state.income == 0


def test_points_cannot_be_saved(board: Board, state: GameState) -> None:
    """Phase 3: "Income cannot be saved from one turn to the next." Done ends the phase,
    the unspent points are told lost and state.income becomes 0."""
    prompts, _ = drive(phase(board, state), ["Build a garrison in Oviedo (1)", DONE])
    assert state.income == 0
    assert state.areas["Oviedo"].count("christian", G) == 2
    assert tells(prompts)[-1] == "Phase 3 ends: the 1 unspent point is lost (income cannot be saved)."
    assert all(DONE in c.options for c in chooses(prompts))


def test_phase_ends_by_itself_when_nothing_can_be_bought(board: Board, state: GameState) -> None:
    """Phase 3: with nothing legal to buy there is nothing to choose: the phase ends and
    the points are lost."""
    place(state, "Oviedo", [("muslim", A, 1)], city="christian")
    place(state, "Pamplona", [("muslim", G, 1)])
    prompts, _ = drive(phase(board, state), [])
    assert chooses(prompts) == []
    assert tells(prompts)[-1] == "Phase 3 ends: the 2 unspent points are lost (income cannot be saved)."
    assert state.income == 0


def test_spending_everything_in_one_go(board: Board, state: GameState) -> None:
    """Phase 3, Expenses: "Build an army: 2 Points". Two points buy one army; with 0 left
    only Done would remain, so the phase ends without asking."""
    prompts, _ = drive(phase(board, state), ["Build an army in Oviedo (2)"])
    assert state.areas["Oviedo"].count("christian", A) == 2
    assert tells(prompts)[1] == "Place 1 Christian army in Oviedo (2 points spent, 0 left)."
    assert len(chooses(prompts)) == 1
    assert state.income == 0


def test_the_initial_options(board: Board, state: GameState) -> None:
    """Setting Up the Board and Expenses together: with 2 points at the start, Oviedo
    (Christian city, Christian army and garrison) takes an army, a garrison or a fortress;
    Pamplona (a Christian garrison, no city) a fortress; nothing else is legal, and the
    costs are those of tables.toml."""
    assert options(board, rich(state, 2)) == [
        "Build an army in Oviedo (2)",
        "Build a garrison in Oviedo (1)",
        "Build a fortress in Oviedo (1)",
        "Build a fortress in Pamplona (1)",
    ]


# -- armies and garrisons ---------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["army", "garrison"])
@pytest.mark.parametrize(
    ("case", "units", "city", "fortress"),
    [
        ("Christian city", [], "christian", False),
        (
            "Muslim city held by a Christian garrison",
            [("christian", G, 1)],
            "muslim",
            False,
        ),
        ("fortress held by a Christian army", [("christian", A, 1)], None, True),
        ("fortress held by a Military Order", [("christian", MO, 1)], None, True),
    ],
)
def test_army_or_garrison_built_in_a_city_or_fortress_you_control(
    board: Board,
    state: GameState,
    kind: str,
    case: str,
    units: Units,
    city: str | None,
    fortress: bool,
) -> None:
    """Expenses: "An Army can only be built in a City (Christian or Muslim) or Fortress that
    you control, in an area that is free of enemy forces." The same for a Garrison."""
    area = place(state, "Toledo", units, city=city, fortress=fortress)
    rich(state, 5)
    assert refusal(board, state, kind, "Toledo") is None
    text = purchases.label(board, kind, "Toledo")
    assert text in options(board, state)
    state.effects.taxes = True  # the phase counts the income itself: 2 + 2
    drive(phase(board, state), [text, DONE])
    k = A if kind == "army" else G
    assert area.count("christian", k) == sum(n for _, kk, n in units if kk is k) + 1


@pytest.mark.parametrize("kind", ["army", "garrison"])
@pytest.mark.parametrize(
    ("case", "units", "city", "fortress", "besieger", "why"),
    [
        (
            "no city or fortress",
            [("christian", A, 1)],
            None,
            False,
            None,
            "León has no city or fortress you control.",
        ),
        (
            "Christian city held by Muslims",
            [("muslim", G, 1)],
            "christian",
            False,
            None,
            "León has no city or fortress you control.",
        ),
        (
            "empty Muslim city",
            [],
            "muslim",
            False,
            None,
            "León has no city or fortress you control.",
        ),
        (
            "empty fortress",
            [],
            None,
            True,
            None,
            "León has no city or fortress you control.",
        ),
        (
            "Christians besiege the Muslims inside",
            [("christian", A, 2), ("muslim", G, 1)],
            "muslim",
            True,
            "christian",
            "León has no city or fortress you control.",
        ),
        (
            "Christians inside, Rebels besiege",
            [("christian", G, 1), ("rebel", R, 2)],
            "christian",
            False,
            "rebel",
            "León is not free of enemy forces.",
        ),
        (
            "fortress with Christians and Rebels in the open",
            [("christian", A, 1), ("rebel", R, 1)],
            None,
            True,
            "rebel",
            "León is not free of enemy forces.",
        ),
    ],
)
def test_army_or_garrison_refused(
    board: Board,
    state: GameState,
    kind: str,
    case: str,
    units: Units,
    city: str | None,
    fortress: bool,
    besieger: str | None,
    why: str,
) -> None:
    """Expenses: "An Army can only be built in a City (Christian or Muslim) or Fortress that
    you control, in an area that is free of enemy forces." A besieged city belongs to the
    side inside (rules-notes, board reading 2); a fortress alone is yours with Christian
    forces in it; an empty one is nobody's ("An unoccupied Fortress must be removed")."""
    place(state, "León", units, city=city, fortress=fortress, besieger=besieger)
    rich(state, 5)
    assert refusal(board, state, kind, "León") == why
    assert purchases.label(board, kind, "León") not in options(board, state)


@pytest.mark.parametrize(
    ("kind", "points", "why"),
    [
        ("army", 1, "Not enough points: an army costs 2 and 1 is left."),
        ("army", 0, "Not enough points: an army costs 2 and 0 are left."),
        ("garrison", 0, "Not enough points: a garrison costs 1 and 0 are left."),
        ("city", 2, "Not enough points: a city costs 3 and 2 are left."),
        ("fortress", 0, "Not enough points: a fortress costs 1 and 0 are left."),
    ],
)
def test_not_enough_points(board: Board, state: GameState, kind: str, points: int, why: str) -> None:
    """Expenses: "Build an army: 2 Points. Build a Garrison: 1 Point. Build a City: 3
    Points. Build a Fortress: 1 Point." Too few points left: refused, with the price."""
    place(state, "Galicia", [("christian", A, 1)])
    place(state, "Oviedo", [("christian", A, 1)], city="christian")
    area = "Galicia" if kind in ("city", "fortress") else "Oviedo"
    rich(state, points)
    assert refusal(board, state, kind, area) == why
    rich(state, 3)
    assert refusal(board, state, kind, area) is None


def test_built_units_are_told_and_paid(board: Board, state: GameState) -> None:
    """Expenses: "You can build different armies in different Cities / Fortresses, if you
    wish" and "There is no limit on the number". Each purchase is told with its price and
    the points left."""
    place(state, "Toledo", [("christian", A, 1)], city="muslim", fortress=True)
    state.effects.taxes = True  # 2 + 2 = 4 points
    prompts, _ = drive(
        phase(board, state),
        [
            "Build an army in Toledo (2)",
            "Build a garrison in Oviedo (1)",
            "Build a garrison in Oviedo (1)",
        ],
    )
    assert tells(prompts)[1:] == [
        "Place 1 Christian army in Toledo (2 points spent, 2 left).",
        "Place 1 Christian garrison in Oviedo (1 point spent, 1 left).",
        "Place 1 Christian garrison in Oviedo (1 point spent, 0 left).",
    ]
    assert state.areas["Toledo"].count("christian", A) == 2
    assert state.areas["Oviedo"].count("christian", G) == 3


# -- cities -----------------------------------------------------------------------------------


def test_every_christian_unit_is_a_christian_force() -> None:
    """The builds count the Christian side's units as its forces: every kind that side fields
    is a Christian force of control (armies, garrisons, Orders, mercenaries, crusaders)."""
    assert SIDE_KINDS["christian"] == CHRISTIAN_FORCES


@pytest.mark.parametrize("kind", [A, G, MO, MC, CR])
def test_city_built_where_a_christian_force_stands(board: Board, state: GameState, kind: Kind) -> None:
    """Expenses: "A city can be built in any area that contains a Christian army and / or
    Garrison and where there is not already a city [...] The area must be free of enemy
    forces. The city is always Christian." A Military Order, a hired mercenary and a
    crusader count as a Christian army (rules-notes, board reading 4)."""
    galicia = place(state, "Galicia", [("christian", kind, 1)])
    assert "Build a city in Galicia (3)" not in options(board, rich(state, 2))
    state.effects.taxes = True
    prompts, _ = drive(phase(board, state), ["Build a city in Galicia (3)", DONE])
    assert galicia.city == "christian"
    assert "Place a Christian city in Galicia (3 points spent, 1 left)." in tells(prompts)


def test_city_keeps_the_fortress(board: Board, state: GameState) -> None:
    """Expenses, Build a City: "If a Fortress is already present, the Fortress is kept."""
    badajoz = place(state, "Badajoz", [("christian", G, 1)], fortress=True)
    state.effects.taxes = True
    prompts, _ = drive(phase(board, state), ["Build a city in Badajoz (3)", DONE])
    assert badajoz.city == "christian" and badajoz.fortress
    assert "Place a Christian city in Badajoz (the fortress stays) (3 points spent, 1 left)." in tells(
        prompts
    )


@pytest.mark.parametrize(
    ("units", "city", "why"),
    [
        ([("christian", A, 1)], "christian", "Galicia already has a city."),
        ([("christian", A, 1)], "muslim", "Galicia already has a city."),
        ([], None, "Galicia has no Christian army or garrison to build a city with."),
        (
            [("christian", A, 1), ("rebel", R, 1)],
            None,
            "Galicia is not free of enemy forces.",
        ),
        (
            [("christian", G, 1), ("muslim", A, 1)],
            None,
            "Galicia is not free of enemy forces.",
        ),
    ],
)
def test_city_refused(board: Board, state: GameState, units: Units, city: str | None, why: str) -> None:
    """Expenses, Build a City: "any area that contains a Christian army and / or Garrison
    and where there is not already a city [...] The area must be free of enemy forces."
    ("There can only be one City per area.")"""
    place(state, "Galicia", units, city=city)
    assert refusal(board, rich(state, 9), "city", "Galicia") == why


# -- fortresses -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("units", "city"),
    [
        ([], "christian"),
        ([("christian", A, 1)], None),
        ([("christian", G, 1)], "muslim"),
        ([("christian", CR, 1)], None),
    ],
)
def test_fortress_built(board: Board, state: GameState, units: Units, city: str | None) -> None:
    """Expenses: "A Fortress can be built in any area that contains a Christian City and /
    or an Army and / or Garrison, provided the Area does not already contain a Fortress and
    is free of enemy forces." An empty Christian city is enough."""
    tarragona = place(state, "Tarragona", units, city=city)
    prompts, _ = drive(phase(board, state), ["Build a fortress in Tarragona (1)", DONE])
    assert tarragona.fortress
    assert "Place a fortress in Tarragona (1 point spent, 1 left)." in tells(prompts)


@pytest.mark.parametrize(
    ("units", "city", "fortress", "why"),
    [
        ([("christian", A, 1)], None, True, "Galicia already has a fortress."),
        (
            [],
            None,
            False,
            "Galicia has no Christian city, army or garrison to build a fortress with.",
        ),
        ([("rebel", R, 1)], "christian", False, "Galicia is not free of enemy forces."),
        (
            [],
            "muslim",
            False,
            "Galicia has no Christian city, army or garrison to build a fortress with.",
        ),
    ],
)
def test_fortress_refused(
    board: Board,
    state: GameState,
    units: Units,
    city: str | None,
    fortress: bool,
    why: str,
) -> None:
    """Expenses, Build a Fortress: "contains a Christian City and / or an Army and / or
    Garrison, provided the Area does not already contain a Fortress and is free of enemy
    forces." ("only one Fortress per area")"""
    place(state, "Galicia", units, city=city, fortress=fortress)
    assert refusal(board, rich(state, 9), "fortress", "Galicia") == why


# -- conversion -------------------------------------------------------------------------------


def test_convert_a_muslim_city_holding_christians_keeps_the_fortress(board: Board, state: GameState) -> None:
    """Expenses: "Convert a City from Muslim to Christian: 1 Point. Can only be applied to a
    Muslim city that contains a Christian army and / or garrison. Replace the city with a
    Christian city. Any existing Fortress is kept." """
    toledo = place(state, "Toledo", [("christian", A, 1)], city="muslim", fortress=True)
    prompts, _ = drive(phase(board, state), ["Convert the city of Toledo (1)", DONE])
    assert toledo.city == "christian" and toledo.fortress
    assert (
        "Replace the Muslim city of Toledo with a Christian city; the fortress stays (1 point spent, 1 left)."
        in tells(prompts)
    )


def test_convert_needs_no_freedom_from_enemies(board: Board, state: GameState) -> None:
    """Expenses, Convert: the rule asks only for "a Muslim city that contains a Christian
    army and / or garrison"; unlike the four builds it does not ask the area to be free of
    enemy forces, so a Christian-held Muslim city besieged by Rebels may be converted."""
    place(
        state,
        "Toledo",
        [("christian", G, 1), ("rebel", R, 1)],
        city="muslim",
        besieger="rebel",
    )
    assert refusal(board, rich(state, 1), "convert", "Toledo") is None


@pytest.mark.parametrize(
    ("units", "city", "besieger", "why"),
    [
        (
            [("christian", A, 1)],
            "christian",
            None,
            "Toledo has no Muslim city to convert.",
        ),
        ([("christian", A, 1)], None, None, "Toledo has no Muslim city to convert."),
        (
            [],
            "muslim",
            None,
            "The city of Toledo has no Christian army or garrison inside it.",
        ),
        (
            [("christian", A, 2), ("muslim", G, 1)],
            "muslim",
            "christian",
            "The city of Toledo has no Christian army or garrison inside it.",
        ),
        (
            [("christian", A, 2)],
            "muslim",
            "christian",
            "The city of Toledo has no Christian army or garrison inside it.",
        ),
    ],
)
def test_convert_refused(
    board: Board,
    state: GameState,
    units: Units,
    city: str | None,
    besieger: str | None,
    why: str,
) -> None:
    """Expenses, Convert: "Can only be applied to a Muslim city that contains a Christian
    army and / or garrison". Besiegers stand outside the walls (rules-notes, board reading
    2), so Christians besieging the city, even an empty one, are not inside it."""
    place(state, "Toledo", units, city=city, besieger=besieger)
    assert refusal(board, rich(state, 9), "convert", "Toledo") == why


# -- the region in revolt ---------------------------------------------------------------------


@pytest.mark.parametrize("kind", KINDS)
def test_nothing_in_the_region_in_revolt(board: Board, state: GameState, kind: str) -> None:
    """Phase 1, result 6, Regional Revolt: "This entire region is excluded from the game for
    this entire turn. It generates no income. No one can move into it or build." Every
    purchase there is refused, though all else would allow it."""
    place(
        state,
        "Toledo",
        [("christian", A, 1), ("rebel", R, 1)],
        city="muslim",
        fortress=False,
        besieger="rebel",
    )
    place(state, "Cuenca", [("christian", A, 1)], city="christian")
    state.effects.bribery = True
    state.effects.mercenaries = state.effects.crusaders = 2
    rich(state, 9)
    area = {"convert": "Toledo", "bribe": "Toledo", "city": "Cuenca"}.get(kind, "Cuenca")
    if kind == "city":
        state.areas["Cuenca"].city = None
    assert refusal(board, state, kind, area) is None
    state.revolt = 3
    verb = "bought" if kind in ("convert", "bribe") else "built"
    assert (
        refusal(board, state, kind, area) == f"Castilla is in revolt this turn: nothing can be {verb} there."
    )
    offered = options(board, state)
    assert not [o for o in offered for a in board.regions[3].areas if f" {a} (" in o]


# -- bribery ----------------------------------------------------------------------------------


def test_bribery_only_after_its_event(board: Board, state: GameState) -> None:
    """Phase 2, event 3, Bribery: "In Phase 3 (Income) you may use 2 income points to replace
    all Rebels in a single Area with a Christian Garrison." Without the event, never."""
    place(state, "Cuenca", [("rebel", R, 2)])
    rich(state, 5)
    assert refusal(board, state, "bribe", "Cuenca") == (
        "No bribe can be paid this turn: only the Bribery event (3) allows one, once."
    )
    state.effects.bribery = True
    assert refusal(board, state, "bribe", "Cuenca") is None
    assert "Bribe the Rebels in Cuenca (2)" in options(board, state)


def test_bribe_replaces_all_rebels_with_one_garrison_once(board: Board, state: GameState) -> None:
    """Event 3, Bribery: "2 income points to replace all Rebels in a single Area with a
    Christian Garrison": all Rebels go, one garrison comes, and only one area is bribed."""
    cuenca = place(state, "Cuenca", [("rebel", R, 3)])
    place(state, "Galicia", [("rebel", R, 1)])
    state.effects.bribery = True
    state.effects.taxes = True  # 4 points
    prompts, _ = drive(phase(board, state), ["Bribe the Rebels in Cuenca (2)", DONE])
    assert cuenca.units == {"christian": {G: 1}}
    assert (
        "Remove 3 Rebels from Cuenca and place 1 Christian garrison there (2 points spent, 2 left)."
        in tells(prompts)
    )
    assert not [o for o in chooses(prompts)[1].options if o.startswith("Bribe")]
    assert refusal(board, state, "bribe", "Galicia") is not None


@pytest.mark.parametrize(
    ("units", "city", "why"),
    [
        ([("christian", A, 1)], None, "Cuenca has no Rebels to bribe."),
        (
            [("rebel", R, 1)],
            None,
            "Not enough points: the bribe costs 2 and 1 is left.",
        ),
    ],
)
def test_bribe_refused(board: Board, state: GameState, units: Units, city: str | None, why: str) -> None:
    """Event 3, Bribery: there must be Rebels to replace, and 2 points to pay."""
    place(state, "Cuenca", units, city=city)
    state.effects.bribery = True
    assert refusal(board, rich(state, 1), "bribe", "Cuenca") == why


def test_bribed_besiegers_keep_the_siege_as_christians(board: Board, state: GameState) -> None:
    """Event 3, Bribery: the garrison takes the Rebels' place. Rebels besieging a Muslim city
    become a Christian garrison besieging it (the city's own force stays inside)."""
    toledo = place(
        state,
        "Toledo",
        [("muslim", G, 1), ("rebel", R, 2)],
        city="muslim",
        besieger="rebel",
    )
    state.effects.bribery = True
    drive(phase(board, state), ["Bribe the Rebels in Toledo (2)"])
    assert toledo.units == {"muslim": {G: 1}, "christian": {G: 1}}
    assert toledo.besieger == "christian"
    check_invariants(board, state)


def test_bribing_the_rebels_christians_besiege_ends_the_siege(board: Board, state: GameState) -> None:
    """Event 3, Bribery: Rebels holding a city the Christians besiege are replaced by a
    Christian garrison: nobody hostile is left, so no siege remains."""
    toledo = place(
        state,
        "Toledo",
        [("rebel", R, 1), ("christian", A, 2)],
        city="muslim",
        besieger="christian",
    )
    state.effects.bribery = True
    drive(phase(board, state), ["Bribe the Rebels in Toledo (2)"])
    assert toledo.units == {"christian": {A: 2, G: 1}}
    assert toledo.besieger is None


# -- mercenaries ------------------------------------------------------------------------------


def test_mercenaries_only_after_their_event(board: Board, state: GameState) -> None:
    """Phase 2, event 4, Mercenaries: "In Phase 3 (Income), you may hire any number of them
    at a cost of 1 income point each". Without the event there is none to hire."""
    rich(state, 3)
    assert refusal(board, state, "mercenary", "Oviedo") == (
        "No mercenary is left to hire this turn: they come with the Mercenaries event (4)."
    )
    state.effects.mercenaries = 1
    assert refusal(board, state, "mercenary", "Oviedo") is None


def test_hired_mercenaries_are_placed_as_armies_and_the_rest_go_to_the_muslims(
    board: Board, state: GameState
) -> None:
    """Event 4, Mercenaries: "hire any number of them at a cost of 1 income point each, and
    place them as an army [...] Any Mercenary units that are not hired are added to the
    Muslim forces that rise in Phase 5". Each hire lowers the number left; the rest stay in
    state.effects.mercenaries for the Muslim reaction."""
    state.effects.mercenaries = 3
    prompts, _ = drive(phase(board, state), ["Hire a mercenary in Oviedo (1)", DONE])
    oviedo = state.areas["Oviedo"]
    assert oviedo.count("christian", MC) == 1
    assert state.effects.mercenaries == 2
    said = tells(prompts)
    assert (
        "Place 1 mercenary (a Neutral Army counter) in Oviedo as a Christian army "
        "(1 point spent, 1 left). 2 mercenaries left to hire." in said
    )
    assert said[-1] == "2 unhired mercenaries will join the Muslim reaction in Phase 5."


def test_mercenaries_only_where_an_army_could_be_built(board: Board, state: GameState) -> None:
    """Event 4: "place them as an army": only in a city or fortress you control, free of
    enemy forces; and at 1 point each."""
    state.effects.mercenaries = 6
    rich(state, 1)
    assert refusal(board, state, "mercenary", "Pamplona") == "Pamplona has no city or fortress you control."
    assert [o for o in options(board, state) if o.startswith("Hire")] == ["Hire a mercenary in Oviedo (1)"]
    rich(state, 0)
    assert (
        refusal(board, state, "mercenary", "Oviedo")
        == "Not enough points: a mercenary costs 1 and 0 are left."
    )


def test_no_more_mercenaries_than_the_event_gave(board: Board, state: GameState) -> None:
    """Event 4: "Roll a D6. This is the number of mercenaries available": two available,
    two hired, then none is offered though points remain."""
    state.effects.mercenaries = 2
    state.effects.taxes = True
    prompts, _ = drive(
        phase(board, state),
        ["Hire a mercenary in Oviedo (1)", "Hire a mercenary in Oviedo (1)", DONE],
    )
    assert state.areas["Oviedo"].count("christian", MC) == 2
    assert state.effects.mercenaries == 0
    assert not [o for o in chooses(prompts)[-1].options if o.startswith("Hire")]


# -- crusaders --------------------------------------------------------------------------------


def test_crusaders_only_after_their_event(board: Board, state: GameState) -> None:
    """Phase 2, event 11, Crusade: "D6 Crusaders available"; docs/design.md: "placed by the
    player in Phase 3 as if built". Without the event, none."""
    assert refusal(board, rich(state, 0), "crusader", "Oviedo") == (
        "No crusader is left to place this turn: they come with the Crusade event (11)."
    )
    state.effects.crusaders = 1
    assert refusal(board, state, "crusader", "Oviedo") is None  # free: 0 points is enough


def test_crusaders_are_free_and_must_be_placed_before_done(board: Board, state: GameState) -> None:
    """docs/design.md, Crusade: "D6 crusader armies, free, placed by the player in Phase 3 as if
    built". Done is not offered while crusaders are left; they cost nothing."""
    state.effects.crusaders = 2
    prompts, _ = drive(
        phase(board, state),
        [
            "Place a crusader in Oviedo (free)",
            "Place a crusader in Oviedo (free)",
            DONE,
        ],
    )
    asked = chooses(prompts)
    assert DONE not in asked[0].options and DONE not in asked[1].options
    assert DONE in asked[2].options
    assert asked[0].options[0] == "Place a crusader in Oviedo (free)"
    assert "2 crusaders to place first" in asked[0].why
    assert state.areas["Oviedo"].count("christian", CR) == 2
    assert state.effects.crusaders == 0
    assert (
        "Place 1 crusader (a Neutral Army counter) in Oviedo as a Christian army (free). "
        "1 crusader left to place." in tells(prompts)
    )
    assert "2 points left" in asked[2].why  # the income is untouched


def test_crusaders_with_no_place_are_lost(board: Board, state: GameState) -> None:
    """docs/design.md, Crusade: placed "as if built", so only where an army could be built; with
    no such place they are lost (told), and the phase goes on."""
    place(
        state,
        "Oviedo",
        [("christian", A, 1), ("muslim", A, 1)],
        city="christian",
        besieger="muslim",
    )
    state.effects.crusaders = 3
    prompts, _ = drive(phase(board, state), ["Build a fortress in Pamplona (1)", DONE])
    assert "No area can take the 3 crusaders" in tells(prompts)[1]
    assert tells(prompts)[1].endswith("they are lost.")
    assert state.effects.crusaders == 0
    assert sum(a.count("christian", CR) for a in state.areas.values()) == 0


# -- topics and facts -------------------------------------------------------------------------
# Every prompt of the phase says what it is (companion/prompts.py): the bot, the screens and the
# statistics read the topic and the facts, never the wording.


def test_the_income_tell_gives_its_lines_and_total(board: Board, state: GameState) -> None:
    """Phase 3, Income: the Tell's facts are the lines and the total: 2 always, 1 for Asturias
    (Oviedo and León, 2 of 2 cities), 1 for Santiago."""
    place(state, "Santiago")
    place(state, "León", city="christian")
    prompts, _ = drive(phase(board, state), [DONE])
    told = prompts[0]
    assert told.topic == INCOME_TOPIC
    assert told.data == {
        "lines": [
            {"label": "Base income", "points": 2},
            {"label": "Majority of the cities of Asturias", "points": 1},
            {"label": "Santiago de Compostela", "points": 1},
        ],
        "total": 4,
    }
    assert told.rule == "Phase 3: Collect Income and Spend It — Income"
    assert all(prompt_from_dict(p.to_dict()) == p for p in prompts)


def test_the_purchase_choice_lists_its_offers(board: Board, state: GameState) -> None:
    """Expenses, at the start with 2 points: the Choose's offers are Oviedo's army, garrison and
    fortress and Pamplona's fortress, at their costs, then Done."""
    prompts, _ = drive(phase(board, state), [DONE])
    asked = chooses(prompts)[0]
    assert asked.data == {
        "points": 2,
        "crusaders": 0,
        "offers": [
            {"kind": "army", "area": "Oviedo", "cost": 2},
            {"kind": "garrison", "area": "Oviedo", "cost": 1},
            {"kind": "fortress", "area": "Oviedo", "cost": 1},
            {"kind": "fortress", "area": "Pamplona", "cost": 1},
        ],
        "done": True,
    }
    assert asked.rule == "Phase 3: Collect Income and Spend It — Expenses"


def test_a_purchase_and_the_end_of_the_phase_are_told_with_their_facts(
    board: Board, state: GameState
) -> None:
    """Expenses, "Build a Garrison: 1 Point": bought in Oviedo, 1 point is left; Done loses it
    ("Income cannot be saved"); unhired mercenaries (event 4) go to the Muslims."""
    state.effects.mercenaries = 2
    prompts, _ = drive(phase(board, state), ["Build a garrison in Oviedo (1)", DONE])
    by_topic = {p.topic: p for p in prompts if isinstance(p, Tell)}
    bought = by_topic[BOUGHT_TOPIC]
    assert bought.data == {"kind": "garrison", "area": "Oviedo", "cost": 1, "points_left": 1}
    assert bought.rule == "Phase 3: Collect Income and Spend It — Expenses — Build a Garrison"
    assert by_topic["reconquista.income.unspent"].data == {"points": 1}
    assert by_topic["reconquista.income.unhired_mercenaries"].data == {"mercenaries": 2}
    assert by_topic["reconquista.income.unhired_mercenaries"].rule.startswith("Phase 2: Events — Mercenaries")


def test_crusaders_to_place_withhold_done_in_the_facts(board: Board, state: GameState) -> None:
    """docs/design.md, Crusade: crusaders are placed before Done: with 2 to place, the first
    Choose has no Done (``done`` False), crusaders first among the offers, at no cost."""
    state.effects.crusaders = 2
    prompts, _ = drive(
        phase(board, state),
        ["Place a crusader in Oviedo (free)", "Place a crusader in Oviedo (free)", DONE],
    )
    first, second, third = chooses(prompts)
    assert (first.data["crusaders"], first.data["done"]) == (2, False)
    assert first.data["offers"][0] == {"kind": "crusader", "area": "Oviedo", "cost": 0}
    assert (second.data["crusaders"], third.data["crusaders"], third.data["done"]) == (1, 0, True)
    placed = [p for p in prompts if p.topic == BOUGHT_TOPIC]
    assert [p.rule for p in placed] == ["Quick Reference Sheet — 11 Crusade"] * 2
    assert [p.data["points_left"] for p in placed] == [2, 2]


def test_lost_crusaders_are_counted(board: Board, state: GameState) -> None:
    """Crusaders with nowhere to go are lost: the Tell gives how many."""
    place(state, "Oviedo", [("christian", A, 1), ("muslim", A, 1)], city="christian", besieger="muslim")
    state.effects.crusaders = 3
    prompts, _ = drive(phase(board, state), ["Build a fortress in Pamplona (1)", DONE])
    (lost,) = [p for p in prompts if p.topic == "reconquista.income.crusaders_lost"]
    assert lost.data == {"crusaders": 3}


# -- bad requests from a screen ---------------------------------------------------------------


def test_unknown_kind_or_area(board: Board, state: GameState) -> None:
    """A screen may ask about anything: an unknown purchase or area gets a sentence too."""
    assert refusal(board, state, "castle", "Oviedo") == (
        "'castle' is not a purchase: army, garrison, city, fortress, convert, bribe, mercenary or crusader."
    )
    assert refusal(board, state, "army", "Paris") == "'Paris' is not an area of the map."


def test_an_illegal_purchase_is_never_applied(board: Board, state: GameState) -> None:
    """A front end that calls ``apply`` with a purchase ``refusal`` refuses gets the same
    sentence as an error, and the table is unchanged."""
    before = state.snapshot()
    with pytest.raises(ValueError, match=r"^León has no city or fortress you control\.$"):
        purchases.apply(board, rich(state, 5), "army", "León")
    state.income = 0
    assert state.snapshot() == before


# -- properties -------------------------------------------------------------------------------

CHRISTIAN_KINDS = sorted(SIDE_KINDS["christian"])
ENEMIES = ("muslim", "rebel", "french", "rebel_army")


@st.composite
def states(draw: st.DrawFn) -> GameState:
    """The initial state with some areas replaced at random: a city of either religion or
    none, a fortress or not, 0-3 Christian units of any kind, 0-2 units of one enemy side,
    a siege where both stand by walls; a random region in revolt and event effects."""
    board = default_board()
    state = initial_state(board)
    names = board.all_areas()
    for name in draw(st.lists(st.sampled_from(names), max_size=8, unique=True)):
        city = draw(st.sampled_from([None, "christian", "muslim"]))
        fortress = draw(st.booleans())
        area = AreaState(city=city, fortress=fortress)
        for k in draw(st.lists(st.sampled_from(CHRISTIAN_KINDS), max_size=3)):
            area.add("christian", k)
        enemy = draw(st.sampled_from(ENEMIES))
        for k in draw(st.lists(st.sampled_from(sorted(SIDE_KINDS[enemy])), max_size=2)):
            area.add(enemy, k)
        state.areas[name] = make_legal(area, lambda sides: draw(st.sampled_from(sides)))
    state.revolt = draw(st.sampled_from([None, 1, 2, 3, 4, 5]))
    fx = state.effects
    fx.bribery = draw(st.booleans())
    fx.mercenaries = draw(st.integers(0, 3))
    fx.crusaders = draw(st.integers(0, 3))
    fx.taxes = draw(st.booleans())
    fx.expulsion = draw(st.booleans())
    state.income = draw(st.integers(0, 10))
    return state


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(states())
def test_options_and_refusal_never_disagree(state: GameState) -> None:
    """Every option has no refusal, and every (kind, area) refused is not offered: the
    screens' explanations and the phase's choices are one rule."""
    board = default_board()
    offered = set(options(board, state))
    for kind in KINDS:
        for area in board.all_areas():
            why = refusal(board, state, kind, area)
            text = purchases.label(board, kind, area)
            assert (why is None) == (text in offered), (kind, area, why)
            if why is not None:
                assert why.endswith(".") and "\n" not in why


# -- whole games ----------------------------------------------------------------------------------
