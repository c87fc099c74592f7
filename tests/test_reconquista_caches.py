"""The shortcuts the Reconquista engine takes for speed give what the plain rules give.

The board's derived data (map order, roads in map order, region links, next areas) is
computed once; a rebellion is worked out on a copy of its own region only;
the sub-forces of a move are listed from count tuples. Each is checked here against the
plain definition it replaces, over the shipped board and over whole random games.
"""

from __future__ import annotations

import copy
import dataclasses
import random
from itertools import product

import pytest

from companion.driver import Driver
from companion.prompts import Roll, Tell
from companion.reconquista import movement, rebellions
from companion.reconquista.board import Board, default_board
from companion.reconquista.bot import Bot
from companion.reconquista.game import GAME
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


def test_region_links_and_next_areas_follow_the_map(board: Board) -> None:
    links: dict[int, set[int]] = {n: set() for n in board.regions}
    for src, dests in board.roads.items():
        for d in dests:
            links[board.areas[src].region].add(board.areas[d].region)
    assert board.region_links == {n: tuple(sorted(s)) for n, s in links.items()}
    for area in board.areas:
        ordered = board.region_of(area).areas
        assert board.next_area(area) == ordered[(ordered.index(area) + 1) % len(ordered)]
    assert board.region_numbers == {r.name: n for n, r in board.regions.items()}


# -- Phase 1: a rebellion worked out on a copy of its region --------------------------------


def _resolve(board: Board, state, region: int, result: str, faces: list[int]) -> None:
    """Run one table result on ``state`` with the area dice ``faces``, cycled."""
    proc = rebellions._resolve(board, state, region, result)
    i = 0
    try:
        prompt = next(proc)
        while True:
            assert isinstance(prompt, Roll)
            answer = [faces[(i + k) % len(faces)] for k in range(prompt.n)]
            i += prompt.n
            prompt = proc.send(answer)
    except StopIteration:
        pass


def _rebellion_states() -> list:
    """The state at the start of every Phase 1 of a few random games."""
    states = []
    for seed in SEEDS[:6]:
        driver = Driver(GAME, seed)
        bot = Bot(seed)
        board = GAME.board_of(driver.state)
        while driver.pending is not None:
            prompt = driver.pending
            if (
                driver.state.phase == "rebellions"
                and isinstance(prompt, Roll)
                and "region die (" in prompt.why
            ):
                states.append(copy.deepcopy(driver.state))
            if isinstance(prompt, Roll):
                driver.roll()
            elif isinstance(prompt, Tell):
                driver.ack()
            else:
                driver.submit(bot.choose(board, driver.state, prompt), "player")
    return states


def test_a_rebellion_changes_no_area_outside_its_region(board: Board) -> None:
    """What lets ``_table`` copy only the region struck: on a full copy, a table result
    leaves every other area as it was, and the region-only copy ends the same."""
    rng = random.Random(7)
    for state in _rebellion_states():
        for region in board.regions:
            for result in rebellions.RESULT_NAMES:
                faces = rng.sample(range(1, 7), 6)  # cycled, every face comes up: no endless re-roll
                full = rebellions.trial_copy(state)
                _resolve(board, full, region, result, faces)
                mine = set(board.regions[region].areas)
                for name in board.areas:
                    if name not in mine:
                        assert full.areas[name] == state.areas[name], (region, result, name)
                before = copy.deepcopy(state)
                part = rebellions.trial_copy(state, board.regions[region].areas)
                _resolve(board, part, region, result, faces)
                assert part == full
                assert state == before  # the state itself is untouched


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
