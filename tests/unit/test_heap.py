"""The full garbage collections made in the player's pauses (screens/heap.py): off while the
app runs, made after ``IDLE`` seconds without a key or after ``MOST_PENDING`` middle passes,
and Python's thresholds given back when the app ends."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from screens.heap import IDLE, MOST_PENDING, IdleCollector


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def thresholds() -> Iterator[tuple[int, ...]]:
    before = gc.get_threshold()
    yield before
    gc.set_threshold(*before)


def _middle_passes(n: int) -> None:
    """``n`` passes of the middle generation since a full one (what gc.get_count()[2] counts)."""
    gc.collect()
    for _ in range(n):
        gc.collect(1)


def test_the_automatic_full_passes_are_off_while_it_runs_and_back_after(thresholds: tuple[int, ...]) -> None:
    heap = IdleCollector()
    heap.start()
    young, middle, full = gc.get_threshold()
    assert (young, middle) == thresholds[:2]  # the young passes stay as they were
    assert full > 10_000  # a count of middle passes no session reaches
    heap.start()  # twice: what it gives back is still Python's own
    heap.stop()
    assert gc.get_threshold() == thresholds


def test_a_pause_makes_the_full_pass_and_a_key_puts_it_off(thresholds: tuple[int, ...]) -> None:
    clock = Clock()
    heap = IdleCollector(clock)
    heap.start()
    try:
        _middle_passes(3)
        heap.input()
        clock.now += IDLE / 2
        assert not heap.tick() and gc.get_count()[2] == 3  # the player is pressing keys
        clock.now += IDLE
        assert heap.tick() and heap.passes == 1
        assert gc.get_count()[2] == 0  # a full pass was made
        clock.now += 10 * IDLE
        assert not heap.tick()  # nothing new since: no second pass
    finally:
        heap.stop()


def test_steady_typing_still_gets_a_full_pass_once_enough_is_pending(thresholds: tuple[int, ...]) -> None:
    clock = Clock()
    heap = IdleCollector(clock)
    heap.start()
    try:
        _middle_passes(MOST_PENDING - 1)
        heap.input()
        assert not heap.tick()
        gc.collect(1)
        heap.input()  # no pause at all
        assert heap.tick() and gc.get_count()[2] == 0
    finally:
        heap.stop()


def test_an_old_cycle_left_behind_is_freed_at_the_pause(thresholds: tuple[int, ...]) -> None:
    """Nothing is kept for good: a cycle that lived long enough to reach the oldest generation,
    then was dropped, stays while keys are pressed and is gone after the pause."""
    import weakref

    class Node:
        other: object = None

    clock = Clock()
    heap = IdleCollector(clock)
    heap.start()
    try:
        a, b = Node(), Node()
        a.other, b.other = b, a
        gone = weakref.ref(a)
        gc.collect(1)
        gc.collect(1)  # survived two passes: in the oldest generation now
        del a, b
        for _ in range(3):
            gc.collect(1)  # the automatic passes from now on: young and middle ones only
        heap.input()
        assert not heap.tick()
        assert gone() is not None  # only a full pass frees it
        clock.now += 2 * IDLE
        assert heap.tick()
        assert gone() is None
    finally:
        heap.stop()
