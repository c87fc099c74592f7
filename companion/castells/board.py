"""The Terra de Castells board: territories, token counts, centuries and castles, from data/castells/.

``territories.toml`` holds the six territories (their tokens in the bag and whether
drawing one wakes the Saracens) and the centuries; ``castles.toml`` the castles by
territory, which castles are near each other, and the Saracen's starting space.
Pydantic validates both; a problem is a DataFileError naming the file and field.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, StrictInt, model_validator

from companion.datafiles import Name, data_path, load_model

TERRITORIES_FILE = "castells/territories.toml"
CASTLES_FILE = "castells/castles.toml"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class TerritorySpec(_Strict):
    name: Name
    meaning: str = ""
    tokens: StrictInt = Field(ge=0, le=99)
    wakes_saracens: bool


class TerritoriesSpec(_Strict):
    territory: list[TerritorySpec] = Field(min_length=1)
    centuries: list[str] = Field(min_length=1, max_length=20)

    @model_validator(mode="after")
    def _unique(self) -> TerritoriesSpec:
        names = [t.name for t in self.territory]
        for name in names:
            if names.count(name) > 1:
                raise ValueError(f"the territory name {name} is used twice")
        for c in self.centuries:
            if self.centuries.count(c) > 1:
                raise ValueError(f"the century {c} is listed twice")
        if not sum(t.tokens for t in self.territory):
            raise ValueError("the bag holds no tokens at all")
        return self


class CastleSpec(_Strict):
    name: Name
    territory: str = Field(min_length=1)
    near: list[str] = []


class SaracenSpec(_Strict):
    start: str = Field(min_length=1)
    near: list[str] = []


class CastlesSpec(_Strict):
    saracen: SaracenSpec
    castle: list[CastleSpec] = Field(min_length=2)

    @model_validator(mode="after")
    def _consistent(self) -> CastlesSpec:
        names = [c.name for c in self.castle]
        for name in names:
            if names.count(name) > 1:
                raise ValueError(f"the castle name {name} is used twice")
        for c in self.castle:
            for other in c.near:
                if other not in names:
                    raise ValueError(f"{c.name} is near {other}, which is not a castle of this file")
                if other == c.name:
                    raise ValueError(f"{c.name} cannot be near itself")
        if self.saracen.start in names:
            raise ValueError(f"the Saracen's start {self.saracen.start} is a space of its own, not a castle")
        for other in self.saracen.near:
            if other not in names:
                raise ValueError(f"the Saracen's start is near {other}, which is not a castle of this file")
        return self


@dataclass(frozen=True)
class Territory:
    name: str
    meaning: str
    tokens: int
    wakes_saracens: bool


@dataclass(frozen=True)
class Board:
    """The loaded board: plain data the rules read."""

    territories: tuple[Territory, ...]
    centuries: tuple[str, ...]
    castles: tuple[str, ...]  # in file order
    territory_of: dict[str, str]
    near: dict[str, frozenset[str]]  # castle or the Saracen start -> castles near it (both ways)
    saracen_start: str

    def territory(self, name: str) -> Territory:
        return next(t for t in self.territories if t.name == name)

    def wakes(self, territory: str) -> bool:
        return self.territory(territory).wakes_saracens

    def castles_in(self, territory: str) -> list[str]:
        return [c for c in self.castles if self.territory_of[c] == territory]

    def near_list(self, place: str) -> list[str]:
        """The castles near ``place`` (a castle or the Saracen start), in board order."""
        near = self.near.get(place, frozenset())
        return [c for c in self.castles if c in near]

    def within(self, castle: str, steps: int) -> list[str]:
        """The castles at most ``steps`` near-links from ``castle`` (itself left out), in board
        order. The file gives no hexes, only which castles are near (adjacent): "within two
        hexes" is read as two links, walked through castles only (the Saracen's space is none)."""
        reached, edge = {castle}, {castle}
        for _ in range(steps):
            edge = {
                n for c in edge for n in self.near.get(c, frozenset()) if n in self.territory_of
            } - reached
            reached |= edge
        return [c for c in self.castles if c in reached and c != castle]


def build_board(territories: TerritoriesSpec, castles: CastlesSpec, castles_path: Path) -> Board:
    from companion.errors import DataFileError

    known = {t.name for t in territories.territory}
    for i, c in enumerate(castles.castle):
        if c.territory not in known:
            raise DataFileError(
                f"The data file {castles_path}, field castle.{i}.territory: {c.territory} is not one of the "
                f"territories ({', '.join(t.name for t in territories.territory)})."
            )
    near: dict[str, set[str]] = {c.name: set() for c in castles.castle}
    for c in castles.castle:
        for other in c.near:
            near[c.name].add(other)
            near[other].add(c.name)
    near[castles.saracen.start] = set(castles.saracen.near)
    return Board(
        territories=tuple(
            Territory(t.name, t.meaning, t.tokens, t.wakes_saracens) for t in territories.territory
        ),
        centuries=tuple(territories.centuries),
        castles=tuple(c.name for c in castles.castle),
        territory_of={c.name: c.territory for c in castles.castle},
        near={k: frozenset(v) for k, v in near.items()},
        saracen_start=castles.saracen.start,
    )


def load_board(territories_file: str | Path | None = None, castles_file: str | Path | None = None) -> Board:
    """The board from the two files (the shipped ones where None); DataFileError naming file and field."""
    if territories_file is None and castles_file is None:
        return default_board()
    return _load(territories_file, castles_file)


def _load(territories_file: str | Path | None, castles_file: str | Path | None) -> Board:
    tpath = Path(territories_file) if territories_file else data_path(TERRITORIES_FILE)
    cpath = Path(castles_file) if castles_file else data_path(CASTLES_FILE)
    return build_board(load_model(tpath, TerritoriesSpec), load_model(cpath, CastlesSpec), cpath)


@cache
def default_board() -> Board:
    return _load(None, None)
