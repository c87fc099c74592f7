"""The shortcuts the Reconquista engine takes for speed give what the plain rules give.

The board's derived data (map order, roads in map order, region links, next areas) is
computed once; the sub-forces of a move are listed from count tuples. Each is checked here against the
plain definition it replaces, over the shipped board and over whole random games.
"""

from __future__ import annotations

import dataclasses
import random
from itertools import product

import pytest

from companion.reconquista import movement
from companion.reconquista.board import Board, default_board
from companion.reconquista.units import Kind

SEEDS = range(12)


@pytest.fixture(scope="module")
def board() -> Board:
    return default_board()


def _boards(board: Board) -> list[Board]:
    """The shipped board and one with the ports moved (a board the caches have not seen)."""
    areas = board.all_areas()
    moved = dataclasses.replace(board, ports={f: areas[(f * 3) % len(areas)] for f in range(1, 7)})
    return [board, moved]


# -- the board's derived data -----------------------------------------------------------------


def test_area_order_is_all_areas(board: Board) -> None:
    for b in _boards(board):
        assert (
            list(b.area_order) == b.all_areas() == [a for n in sorted(b.regions) for a in b.regions[n].areas]
        )
        assert b.all_areas() is not b.all_areas()  # a fresh list each time: callers may change it
        assert b.map_index == {a: b.all_areas().index(a) for a in b.areas}


def test_roads_in_map_order_sort_the_roads_by_the_map(board: Board) -> None:
    order = board.all_areas()
    for area, dests in board.roads.items():
        assert board.roads_in_map_order[area] == tuple(sorted(dests, key=order.index))


def test_region_links_follow_the_roads(board: Board) -> None:
    links: dict[int, set[int]] = {n: set() for n in board.regions}
    for src, dests in board.roads.items():
        for d in dests:
            links[board.areas[src].region].add(board.areas[d].region)
    assert board.region_links == {n: tuple(sorted(s)) for n, s in links.items()}


# -- Phase 4: sub-forces from count tuples ----------------------------------------------------


def _parts_by_definition(units: movement.Counts) -> list[movement.Counts]:
    kinds = [k for k in movement.MOVABLE if units.get(k)]
    out = [
        {k: n for k, n in zip(kinds, combo, strict=True) if n}
        for combo in product(*(range(units[k], -1, -1) for k in kinds))
        if any(combo)
    ]
    out.sort(key=lambda part: -sum(part.values()))
    return out


def test_parts_and_sub_forces_are_the_plain_listing() -> None:
    rng = random.Random(3)
    kinds = list(movement.MOVABLE)
    for _ in range(400):
        units = {k: rng.randint(0, 4) for k in rng.sample(kinds, rng.randint(0, len(kinds)))}
        want = _parts_by_definition(units)
        assert movement.parts(units) == want
        assert movement.sub_forces(units) == [movement.spec(p) for p in want]
    assert movement.sub_forces({Kind.ARMY: 2, Kind.GARRISON: 1}) == ["2A1G", "2A", "1A1G", "1A", "1G"]
