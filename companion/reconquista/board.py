"""The Reconquista board and rules tables: loaded from data/reconquista/*.toml and checked.

``map.toml`` holds the regions, their areas and die faces, roads, mountains and
North-Africa ports; ``tables.toml`` the setup and every table of the rulebook.
Pydantic validates both; a problem is a DataFileError naming the file and key.
The loaded ``Board`` is a plain frozen object the rules read without cost.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, cached_property
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator, model_validator

from companion.datafiles import Count, Name, Price, data_path, load_model
from companion.errors import DataFileError

FACES = range(1, 7)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


# -- map.toml -------------------------------------------------------------------


class AreaSpec(_Strict):
    name: Name
    faces: list[StrictInt] = Field(min_length=1)  # 1-6: the region check names the area


class RegionSpec(_Strict):
    number: StrictInt = Field(ge=1, le=5)
    name: Name
    colour: str = Field(default="#808080", pattern=r"^#[0-9a-fA-F]{6}$")  # for the screens
    areas: list[AreaSpec] = Field(min_length=1, max_length=6)

    @model_validator(mode="after")
    def _faces_split(self) -> RegionSpec:
        seen: dict[int, str] = {}
        for area in self.areas:
            for face in area.faces:
                if face not in FACES:
                    raise ValueError(f"region {self.name}: {area.name} has face {face}, not 1-6")
                if face in seen:
                    raise ValueError(
                        f"region {self.name}: face {face} belongs to both {seen[face]} and {area.name}"
                    )
                seen[face] = area.name
        missing = sorted(set(FACES) - set(seen))
        if missing:
            raise ValueError(f"region {self.name}: no area has face {', '.join(map(str, missing))}")
        return self


class MapSpec(_Strict):
    region: list[RegionSpec]
    roads: list[tuple[str, str]]
    mountains: list[str] = []
    ports: dict[int, str]

    @model_validator(mode="after")
    def _consistent(self) -> MapSpec:
        numbers = sorted(r.number for r in self.region)
        if numbers != [1, 2, 3, 4, 5]:
            raise ValueError(f"region: the regions must be numbered 1 to 5 once each, not {numbers}")
        region_of: dict[str, int] = {}
        for r in self.region:
            for a in r.areas:
                if a.name in region_of:
                    raise ValueError(f"region: the area name {a.name} is used twice")
                region_of[a.name] = r.number
        for i, (end, other) in enumerate(self.roads):
            for name in (end, other):
                if name not in region_of:
                    raise ValueError(f"roads[{i}]: '{name}' is not an area of the map")
            if region_of[end] == region_of[other]:
                raise ValueError(f"roads[{i}]: {end} and {other} are in the same region; roads join regions")
        for name in self.mountains:
            if name not in region_of:
                raise ValueError(f"mountains: '{name}' is not an area of the map")
        if sorted(self.ports) != list(FACES):
            raise ValueError("ports: give one area for each port die face 1 to 6")
        for face, name in self.ports.items():
            if name not in region_of:
                raise ValueError(f"ports.{face}: '{name}' is not an area of the map")
        if len(set(self.ports.values())) != len(self.ports):
            raise ValueError("ports: each port face must land in a different area")
        return self


# -- tables.toml ----------------------------------------------------------------

RebellionResult = Literal["rebels", "proselytism", "peasant_revolt", "rebel_governor", "regional_revolt"]
EventName = Literal[
    "french_intervention",
    "bribery",
    "mercenaries",
    "rebel_armies",
    "military_order",
    "famine",
    "el_cid",
    "taxes",
    "jihad",
    "crusade",
    "expulsion",
]


@dataclass(frozen=True)
class Reinforcement:
    """One cell of the Muslim reinforcement table."""

    kind: Literal["city", "fortress", "garrison", "army"]
    count: int = 1

    def __str__(self) -> str:
        if self.kind == "army":
            return f"{self.count} {'army' if self.count == 1 else 'armies'}"
        return {"city": "Establish city", "fortress": "Build Fortress", "garrison": "Garrison"}[self.kind]


_REINF = re.compile(r"(city|fortress|garrison)|([1-6]) arm(?:y|ies)")


def parse_reinforcement(text: str) -> Reinforcement:
    m = _REINF.fullmatch(text.strip())
    if m is None:
        raise ValueError(f"'{text}' is not a reinforcement (city, fortress, garrison, or 'N armies')")
    if m[1]:
        return Reinforcement(m[1])  # type: ignore[arg-type]
    return Reinforcement("army", int(m[2]))


class ReinforcementRow(_Strict):
    roll: StrictInt = Field(ge=1, le=6)
    by_cities: list[str] = Field(min_length=4, max_length=4)
    north_africa: StrictInt = Field(ge=1, le=12)

    @field_validator("by_cities")
    @classmethod
    def _cells(cls, v: list[str]) -> list[str]:
        for cell in v:
            parse_reinforcement(cell)
        return v


class ReinforcementTable(_Strict):
    die: Literal[6] = 6
    reroll: list[int] = []
    rows: list[ReinforcementRow]

    @model_validator(mode="after")
    def _covers_die(self) -> ReinforcementTable:
        rolls = sorted(r.roll for r in self.rows)
        if len(set(rolls)) != len(rolls):
            raise ValueError("reinforcements.rows: a roll appears twice")
        if sorted(set(rolls) | set(self.reroll)) != list(FACES) or set(rolls) & set(self.reroll):
            raise ValueError("reinforcements: every face 1-6 must be either a row's roll or in reroll, once")
        return self


class SetupSpec(_Strict):
    turn: StrictInt = Field(default=1, ge=1, le=20)
    fortresses: list[str]
    muslim_cities: list[str]
    christian_cities: list[str]
    christian_garrisons: list[str]
    christian_armies: dict[str, Annotated[StrictInt, Field(ge=1, le=20)]]
    muslim_armies: dict[str, Annotated[StrictInt, Field(ge=1, le=20)]]


class RebelArmyStart(_Strict):
    low: dict[int, str]
    high: dict[int, str]


class ElCidSides(_Strict):
    christian: list[int]
    muslim: list[int]


#: Income points: a change of income (expulsion takes some away), -20 to 20.
Points = Annotated[StrictInt, Field(ge=-20, le=20)]


class IncomeSpec(_Strict):
    base: Count
    per_region: Count
    santiago: Count
    taxes: Points
    expulsion: Points


class CostSpec(_Strict):
    army: Price
    garrison: Price
    city: Price
    fortress: Price
    convert: Price
    bribery: Price
    mercenary: Price


class VictoryPointSpec(_Strict):
    city: Count
    region_majority: Count
    region_free: Count


class VictoryBand(_Strict):
    min: Annotated[StrictInt, Field(ge=0, le=1000)]
    name: Name
    title: Name


class TablesSpec(_Strict):
    setup: SetupSpec
    rebellion: dict[int, RebellionResult]
    events: dict[int, EventName]
    french_start: dict[int, str]
    rebel_army_start: RebelArmyStart
    el_cid: ElCidSides
    reinforcements: ReinforcementTable
    income: IncomeSpec
    costs: CostSpec
    victory_points: VictoryPointSpec
    victory: list[VictoryBand] = Field(min_length=1)

    @model_validator(mode="after")
    def _complete(self) -> TablesSpec:
        if sorted(self.rebellion) != list(FACES):
            raise ValueError("rebellion: give a result for each face 1 to 6")
        if sorted(self.events) != list(range(2, 13)):
            raise ValueError("events: give an event for each total 2 to 12")
        if sorted(self.french_start) != list(FACES):
            raise ValueError("french_start: give an area for each face 1 to 6")
        for col in ("low", "high"):
            if sorted(getattr(self.rebel_army_start, col)) != list(FACES):
                raise ValueError(f"rebel_army_start.{col}: give an area for each face 1 to 6")
        if sorted(self.el_cid.christian + self.el_cid.muslim) != list(FACES):
            raise ValueError("el_cid: faces 1 to 6 must be split between christian and muslim")
        mins = [b.min for b in self.victory]
        if mins != sorted(mins) or len(set(mins)) != len(mins):
            raise ValueError("victory: bands must be in rising order of min points")
        return self


# -- the loaded board -----------------------------------------------------------


@dataclass(frozen=True)
class Area:
    name: str
    region: int
    faces: tuple[int, ...]
    mountain: bool
    port: int | None  # the North-Africa port die face landing here, if any

    @property
    def order(self) -> int:
        """The area's number within its region: its lowest face."""
        return min(self.faces)


@dataclass(frozen=True)
class Region:
    number: int
    name: str
    areas: tuple[str, ...]  # in order (lowest face first)
    colour: str = "#808080"


@dataclass(frozen=True)
class Board:
    """The map and tables in use, read-only."""

    regions: dict[int, Region]
    areas: dict[str, Area]
    roads: dict[str, tuple[str, ...]]  # area -> the areas a road leads to, in order
    ports: dict[int, str]
    tables: TablesSpec
    source: str  # the map file it came from

    def region_of(self, area: str) -> Region:
        return self.regions[self.areas[area].region]

    def area_for(self, region: int, face: int) -> str:
        """The area of ``region`` that the area die ``face`` picks."""
        for name in self.regions[region].areas:
            if face in self.areas[name].faces:
                return name
        raise ValueError(f"no area of region {region} has face {face}")

    def next_area(self, area: str) -> str:
        """The next higher-numbered area of the same region, wrapping to the lowest."""
        ordered = self.region_of(area).areas
        return ordered[(ordered.index(area) + 1) % len(ordered)]

    def all_areas(self) -> list[str]:
        """Every area, lowest region first, then in area order."""
        return list(self.area_order)

    # The map as the rules read it in every phase: map order, each area's place in it, the
    # roads in map order, the regions a road leads to. Worked out once (the board never
    # changes); not fields, so they take no part in equality or the repr.

    @cached_property
    def area_order(self) -> tuple[str, ...]:
        """Every area, lowest region first, then in area order (``all_areas`` as a tuple)."""
        return tuple(a for n in sorted(self.regions) for a in self.regions[n].areas)

    @cached_property
    def map_index(self) -> dict[str, int]:
        """Each area's place in ``area_order``: the map order ties are broken by."""
        return {a: i for i, a in enumerate(self.area_order)}

    @cached_property
    def roads_in_map_order(self) -> dict[str, tuple[str, ...]]:
        """Area -> the areas a road leads to, in map order (``roads`` keeps the file's order)."""
        return {a: tuple(sorted(dests, key=self.map_index.__getitem__)) for a, dests in self.roads.items()}

    @cached_property
    def region_links(self) -> dict[int, tuple[int, ...]]:
        """Region -> the regions a road leads to, lowest first."""
        out: dict[int, set[int]] = {n: set() for n in self.regions}
        for src, dests in self.roads.items():
            for d in dests:
                out[self.areas[src].region].add(self.areas[d].region)
        return {n: tuple(sorted(s)) for n, s in out.items()}


def _check_names(tables: TablesSpec, areas: set[str], path: Path) -> None:
    s = tables.setup
    named: list[tuple[str, str]] = [
        *(("setup.fortresses", n) for n in s.fortresses),
        *(("setup.muslim_cities", n) for n in s.muslim_cities),
        *(("setup.christian_cities", n) for n in s.christian_cities),
        *(("setup.christian_garrisons", n) for n in s.christian_garrisons),
        *(("setup.christian_armies", n) for n in s.christian_armies),
        *(("setup.muslim_armies", n) for n in s.muslim_armies),
        *((f"french_start.{k}", n) for k, n in tables.french_start.items()),
        *((f"rebel_army_start.low.{k}", n) for k, n in tables.rebel_army_start.low.items()),
        *((f"rebel_army_start.high.{k}", n) for k, n in tables.rebel_army_start.high.items()),
    ]
    for key, name in named:
        if name not in areas:
            raise DataFileError(f"The data file {path}, field {key}: '{name}' is not an area of the map.")
    both = set(s.muslim_cities) & set(s.christian_cities)
    if both:
        raise DataFileError(
            f"The data file {path}, field setup: {', '.join(sorted(both))} cannot hold two cities."
        )


def load_board(map_path: str | Path | None = None, tables_path: str | Path | None = None) -> Board:
    """The board from ``map_path`` (default: the shipped map) with the rules tables."""
    if map_path is None and tables_path is None:
        return default_board()
    return _load(
        Path(map_path) if map_path else data_path("reconquista/map.toml"),
        Path(tables_path) if tables_path else data_path("reconquista/tables.toml"),
    )


@cache
def default_board() -> Board:
    """The shipped board, loaded once."""
    return _load(data_path("reconquista/map.toml"), data_path("reconquista/tables.toml"))


def _load(map_file: Path, tables_file: Path) -> Board:
    spec = load_model(map_file, MapSpec)
    tables = load_model(tables_file, TablesSpec)
    mountains = set(spec.mountains)
    port_of = {name: face for face, name in spec.ports.items()}
    areas: dict[str, Area] = {}
    regions: dict[int, Region] = {}
    for r in sorted(spec.region, key=lambda r: r.number):
        ordered = sorted(r.areas, key=lambda a: min(a.faces))
        regions[r.number] = Region(r.number, r.name, tuple(a.name for a in ordered), r.colour)
        for a in ordered:
            areas[a.name] = Area(
                a.name, r.number, tuple(sorted(a.faces)), a.name in mountains, port_of.get(a.name)
            )
    _check_names(tables, set(areas), tables_file)
    roads: dict[str, list[str]] = {name: [] for name in areas}
    for end, other in spec.roads:
        if other not in roads[end]:
            roads[end].append(other)
            roads[other].append(end)
    return Board(
        regions=regions,
        areas=areas,
        roads={k: tuple(v) for k, v in roads.items()},
        ports=dict(sorted(spec.ports.items())),
        tables=tables,
        source=str(map_file),
    )
