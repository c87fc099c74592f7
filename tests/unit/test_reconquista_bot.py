"""The simple Christian player of headless games: ``companion.reconquista.bot``.

The bot knows a question by its topic and reads its facts from the prompt's data and the
board, never the wording: these prompts carry no sentence at all (or one that would have
misled the old wording-reading bot), and it answers them as it answers the engine's. A
Choose of a procedure whose topics it does not know keeps the answer it always had.
tests/games/test_reconquista_whole_games.py holds its choices over 150 whole games.
"""

from __future__ import annotations

import pytest
from reconquista_helpers import place

from companion.prompts import Choose
from companion.reconquista import movement, purchases
from companion.reconquista.board import Board
from companion.reconquista.bot import MAX_MOVES, Bot
from companion.reconquista.setup import initial_state
from companion.reconquista.state import GameState
from companion.reconquista.units import Kind

A, G = Kind.ARMY, Kind.GARRISON


@pytest.fixture
def state(board: Board) -> GameState:
    s = initial_state(board)
    s.phase = "movement"
    return s


def offer(kind: str, area: str = "Oviedo") -> dict[str, object]:
    return {"kind": kind, "area": area, "cost": 0 if kind == "crusader" else 1}


def test_a_purchase_is_picked_by_the_kind_in_the_data(board: Board, state: GameState) -> None:
    """Phase 3: crusaders first, then conversions, cities, armies... The options' words say
    nothing here: the offers in the data, in option order, say which is the crusader."""
    state.phase = "income"
    asked = Choose(
        ["first", "second", "third", purchases.DONE],
        topic=purchases.PURCHASE_TOPIC,
        data={
            "points": 3,
            "crusaders": 0,
            "offers": [offer("garrison"), offer("army"), offer("fortress")],
            "done": True,
        },
    )
    assert Bot(1).choose(board, state, asked) == "second"  # the army before garrison and fortress
    crusade = Choose(
        ["a", "b", "c"],
        topic=purchases.PURCHASE_TOPIC,
        data={
            "points": 0,
            "crusaders": 1,
            "offers": [offer("crusader", "Oviedo"), offer("garrison"), offer("crusader", "León")],
            "done": False,
        },
    )
    picks = {Bot(seed).choose(board, state, crusade) for seed in range(20)}
    assert picks == {"a", "c"}  # a crusader, the place drawn by the seeded generator


def test_the_region_with_the_most_christian_units(board: Board, state: GameState) -> None:
    """Phase 4: the bot moves where the Christians have the most units: Asturias at the start
    (Oviedo's army and garrison against Pamplona's garrison), Aragón once Pamplona holds 3."""
    asked = Choose(
        ["Asturias", "Aragón", movement.NO_MOVEMENT],
        topic=movement.REGION_TOPIC,
        data={"regions": ["Asturias", "Aragón"]},
    )
    assert Bot(1).choose(board, state, asked) == "Asturias"
    place(state, "Pamplona", [("christian", A, 2), ("christian", G, 1)])
    assert Bot(1).choose(board, state, asked) == "Aragón"


def test_an_origin_is_known_by_its_topic(board: Board, state: GameState) -> None:
    """The origin of a move: the strongest area if it holds 2 units or more, else Done; and
    Done after MAX_MOVES moves in a phase. Nothing in the (empty) question says "from"."""
    asked = Choose(
        ["Oviedo", movement.DONE], topic=movement.ORIGIN_TOPIC, data={"region": "Asturias", "move": 1}
    )
    bot = Bot(1)
    assert [bot.choose(board, state, asked) for _ in range(MAX_MOVES + 1)] == [
        *["Oviedo"] * MAX_MOVES,
        movement.DONE,
    ]
    place(state, "Oviedo", [("christian", A, 1)], city="christian")
    assert Bot(1).choose(board, state, asked) == movement.DONE  # 1 unit is not a force to move


def test_a_destination_is_the_weakest_enemy(board: Board, state: GameState) -> None:
    """The destination: the enemy area with the fewest units (the map order breaks ties):
    Santiago, Galicia and León each hold 1 Muslim garrison at the start; with 2 in Santiago,
    Galicia is the weakest first on the map."""
    asked = Choose(
        ["Santiago", "Galicia", "León"], topic=movement.DESTINATION_TOPIC, data={"origin": "Oviedo"}
    )
    assert Bot(1).choose(board, state, asked) == "Santiago"
    place(state, "Santiago", [("muslim", G, 2)])
    assert Bot(1).choose(board, state, asked) == "Galicia"


def test_the_units_and_el_cid_take_the_first_option(board: Board, state: GameState) -> None:
    """The whole force moves (the largest part is listed first) and El Cid goes with it."""
    units = Choose(
        ["1A1G", "1A", "1G"], topic=movement.UNITS_TOPIC, data={"origin": "Oviedo", "destination": "Galicia"}
    )
    assert Bot(1).choose(board, state, units) == "1A1G"
    cid = Choose(
        [movement.EL_CID_GOES, "El Cid stays in Oviedo"],
        topic=movement.EL_CID_TOPIC,
        data={"origin": "Oviedo", "destination": "Galicia"},
    )
    assert Bot(1).choose(board, state, cid) == movement.EL_CID_GOES


def test_a_retreat_is_chosen_as_a_destination_and_another_choice_takes_its_first_option(
    board: Board, state: GameState
) -> None:
    """A beaten force's retreat (battle.py's ``reconquista.battle.retreat_to``) is answered as a
    destination among its areas, in any phase; a Choose of a topic the bot has no rule for is
    answered with its first option. A question that would have read as an origin ("from")
    changes nothing: the bot reads the topic."""
    place(state, "Galicia")
    retreat = Choose(
        ["Galicia", "Santiago"], "Retreat from here: to which area?", topic="reconquista.battle.retreat_to"
    )
    assert Bot(1).choose(board, state, retreat) == "Santiago"  # the one with an enemy
    state.phase = "events"
    assert Bot(1).choose(board, state, retreat) == "Santiago"
    other = Choose(
        ["Galicia", "Santiago"],
        "Which city gets the Military Order, from here?",
        topic="reconquista.events.military_order_city",
    )
    assert Bot(1).choose(board, state, other) == "Galicia"
