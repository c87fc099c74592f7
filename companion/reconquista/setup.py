"""The board at the start of a game, exactly as "Setting Up the Board" lists it."""

from __future__ import annotations

from companion.reconquista.board import Board
from companion.reconquista.state import AreaState, GameState
from companion.reconquista.units import Kind


def initial_state(board: Board) -> GameState:
    """The setup of tables.toml on ``board``: fortresses, cities, a garrison in every
    area (Christian where listed, Muslim elsewhere), the starting armies."""
    s = board.tables.setup
    areas = {name: AreaState() for name in board.all_areas()}
    for name in s.fortresses:
        areas[name].fortress = True
    for name in s.muslim_cities:
        areas[name].city = "muslim"
    for name in s.christian_cities:
        areas[name].city = "christian"
    for name, area in areas.items():
        area.add("christian" if name in s.christian_garrisons else "muslim", Kind.GARRISON)
    for name, n in s.christian_armies.items():
        areas[name].add("christian", Kind.ARMY, n)
    for name, n in s.muslim_armies.items():
        areas[name].add("muslim", Kind.ARMY, n)
    return GameState(areas=areas, turn=s.turn, phase="setup")
