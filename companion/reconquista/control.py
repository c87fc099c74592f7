"""Who controls what: cities, enemy forces, Santiago, income and victory points.

Each function quotes the rule it implements ("Important Definitions", "Phase 3",
"Phase 4", "End of Game"); docs/rules-notes.md records every reading taken.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.reconquista.board import Board, VictoryBand
from companion.reconquista.state import AreaState, GameState
from companion.reconquista.units import Kind

#: Christian forces for city control: "Army, Garrison, or Military Order"; hired
#: mercenaries and crusaders are Christian armies while they serve.
CHRISTIAN_FORCES = frozenset({Kind.ARMY, Kind.GARRISON, Kind.ORDER, Kind.MERCENARY, Kind.CRUSADER})


SANTIAGO = "Santiago"


def hostile(a: str, b: str) -> bool:
    """Whether sides ``a`` and ``b`` fight each other. Rebels, French and Rebel
    armies are "hostile to all other forces"; Christians and Muslims to each other."""
    return a != b


def city_controller(area: AreaState) -> str | None:
    """The side controlling the area's city ("Important Definitions"), None with no city.

    "A City is under Christian control if it contains Christian forces ... under
    Muslim control if it contains Muslim forces ... under Rebel control if it
    contains Rebel forces. A City without forces of either side is considered to
    be controlled by the religion of the city." Besiegers are outside the walls:
    the city belongs to the side inside it, or to its religion when nobody is.
    """
    if area.city is None:
        return None
    inside = [s for s in area.sides() if s != area.besieger]
    if not inside:
        return area.city
    if area.city in inside:
        return area.city
    return inside[0]


def controls_city(area: AreaState, side: str) -> bool:
    return city_controller(area) == side


def enemy_forces(area: AreaState, side: str) -> bool:
    """Whether the area holds forces hostile to ``side`` ("Phase 4": "Enemy forces are:
    Rebel units, Neutral Armies (Rebels or French), Muslim armies, Muslim garrisons,
    or a Muslim city with no other units present"), and the same from every side's view:
    an empty city of another religion is an enemy force."""
    if any(hostile(side, s) for s in area.units):
        return True
    return area.city is not None and area.city != side and area.total() == 0


def free_of_enemy(area: AreaState, side: str) -> bool:
    return not enemy_forces(area, side)


def free_of_muslim_forces(area: AreaState) -> bool:
    """Armies may leave by road only from an area "totally free of Muslim forces (the
    exception being a Muslim city, provided it contains at least one Christian army
    and / or Garrison)" ("Phase 4: Movement of Armies")."""
    if area.count("muslim"):
        return False
    if area.city == "muslim":
        # Any Christian force holds the city: mercenaries and crusaders are armies while
        # they serve, and a Military Order is at least an army (the same reading as Santiago).
        return sum(area.count("christian", k) for k in CHRISTIAN_FORCES) > 0
    return True


def controls_santiago(state: GameState, area_name: str = SANTIAGO) -> bool:
    """ "You control Santiago de Compostela if it is free of Muslim or Rebel units
    (excluding the situation where there is a Muslim city but it is garrisoned by
    Christian armies and/or garrisons. A Muslim city without armies or garrisons in
    it would deny control)" ("Phase 3"). Rebel armies are Rebels too."""
    area = state.areas[area_name]
    if area.count("muslim") or area.count("rebel") or area.count("rebel_army"):
        return False
    if area.city == "muslim":
        return sum(area.count("christian", k) for k in CHRISTIAN_FORCES) > 0
    return True


@dataclass
class Itemised:
    """A total with the lines it is made of, for the screen and the log."""

    lines: list[tuple[str, int]] = field(default_factory=list)

    def add(self, label: str, amount: int) -> None:
        self.lines.append((label, amount))

    @property
    def total(self) -> int:
        return sum(a for _, a in self.lines)


def region_cities(board: Board, state: GameState, region: int) -> list[str]:
    return [a for a in board.regions[region].areas if state.areas[a].city is not None]


def christian_majority(board: Board, state: GameState, region: int, *, free_only: bool) -> bool:
    """Whether the Christians control most of the region's cities (more than half);
    with ``free_only``, counting only their cities free of enemy forces (the income rule)."""
    cities = region_cities(board, state, region)
    mine = [
        a
        for a in cities
        if controls_city(state.areas[a], "christian")
        and (not free_only or free_of_enemy(state.areas[a], "christian"))
    ]
    return bool(cities) and 2 * len(mine) > len(cities)


def income(board: Board, state: GameState) -> Itemised:
    """This turn's income, itemised ("Phase 3: Collect Income and Spend It").

    2 always; 1 per region where the Christians control the majority of the cities
    and these cities are free of enemy forces (not for the region in revolt, which
    "generates no income"); 1 for Santiago; taxes and expulsion; never below 0.
    """
    t = board.tables.income
    out = Itemised()
    out.add("Base income", t.base)
    for n, region in board.regions.items():
        if n != state.revolt and christian_majority(board, state, n, free_only=True):
            out.add(f"Majority of the cities of {region.name}", t.per_region)
    # A region in revolt "generates no income": Santiago's point included.
    santiago_region = board.areas[SANTIAGO].region if SANTIAGO in board.areas else None
    if santiago_region is not None and santiago_region != state.revolt and controls_santiago(state):
        out.add("Santiago de Compostela", t.santiago)
    if state.effects.taxes:
        out.add("Taxes (event)", t.taxes)
    if state.effects.expulsion:
        out.add("Expulsion (event)", max(t.expulsion, -out.total))
    return out


def muslim_free_region(board: Board, state: GameState, region: int) -> bool:
    """A region "completely free of Muslim forces and Muslim Cities (even if under
    Christian control)" ("End of Game")."""
    return all(
        not state.areas[a].count("muslim") and state.areas[a].city != "muslim"
        for a in board.regions[region].areas
    )


def victory_points(board: Board, state: GameState) -> Itemised:
    """The victory points, itemised ("End of Game: Victory Points")."""
    t = board.tables.victory_points
    out = Itemised()
    cities = [a for a in board.area_order if controls_city(state.areas[a], "christian")]
    if cities:
        out.add(f"Cities under Christian control ({', '.join(cities)})", t.city * len(cities))
    for n, region in board.regions.items():
        if christian_majority(board, state, n, free_only=False):
            out.add(f"Majority of the cities of {region.name}", t.region_majority)
    for n, region in board.regions.items():
        if muslim_free_region(board, state, n):
            out.add(f"{region.name} free of Muslim forces and cities", t.region_free)
    return out


def result_band(board: Board, points: int) -> VictoryBand:
    """The result for ``points``: the highest band whose minimum they reach."""
    bands = board.tables.victory
    chosen = bands[0]
    for band in bands:
        if points >= band.min:
            chosen = band
    return chosen
