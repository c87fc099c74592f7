"""The shortcuts the Reconquista engine takes for speed give what the plain rules give.

The board's derived data (map order, roads in map order, region links) is computed once.
Each is checked here against the plain definition it replaces.
"""

from __future__ import annotations

import dataclasses

import pytest

from companion.reconquista.board import Board, default_board


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
