"""Helpers shared by the Reconquista tests: set an area of a state to exactly what a test
needs, and pick prompts out of a run (``drive``, for any game, is procedure_helpers')."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from companion.prompts import Choose, Prompt, Roll, Tell
from companion.reconquista import purchases
from companion.reconquista.board import Board
from companion.reconquista.state import AreaState, GameState
from companion.reconquista.units import Kind

Script = Sequence[list[int] | str]
Units = list[tuple[str, Kind, int]]


def place(
    state: GameState,
    name: str,
    units: Units | None = None,
    *,
    city: str | None = None,
    fortress: bool = False,
    besieger: str | None = None,
) -> AreaState:
    """Replace area ``name`` with exactly this: a city, a fortress, units (side, kind, count)."""
    area = AreaState(city=city, fortress=fortress)
    for side, kind, n in units or []:
        area.add(side, kind, n)
    area.besieger = besieger
    state.areas[name] = area
    return area


def make_legal(area: AreaState, pick: Callable[[list[str]], str]) -> AreaState:
    """Make a randomly drawn ``area`` a position the rules allow: hostile sides share an area
    only as besieger and besieged, behind walls (game.check_invariants). Two sides but no
    walls: one of them goes; more than two: all but two go; two by walls: one besieges.
    ``pick`` chooses among sides (a Hypothesis draw of ``st.sampled_from``)."""
    while len(area.sides()) > 2 or (len(area.sides()) == 2 and area.city is None and not area.fortress):
        del area.units[pick(area.sides())]
    if len(area.sides()) == 2:
        area.besieger = pick(area.sides())
    elif area.besieger not in area.units:
        area.besieger = None
    return area


def rolls(prompts: list[Prompt]) -> list[Roll]:
    return [p for p in prompts if isinstance(p, Roll)]


def chooses(prompts: list[Prompt]) -> list[Choose]:
    return [p for p in prompts if isinstance(p, Choose)]


def tells(prompts: list[Prompt]) -> list[str]:
    return [p.text for p in prompts if isinstance(p, Tell)]


def topics(prompts: list[Prompt]) -> list[str]:
    """The topic of each prompt of a run, in order."""
    return [p.topic for p in prompts]


def one(prompts: list[Prompt], topic: str) -> Any:
    """The one prompt of ``topic`` in the run (fails when there are none or several)."""
    (found,) = [p for p in prompts if p.topic == topic]
    return found


# -- Phase 3: the purchase menu ---------------------------------------------------------------------


def assert_offers_fit(board: Board, state: GameState, prompt: Choose) -> None:
    """The purchase Choose's facts are its options: one offer per option, in order, each the
    option of its kind and area at its cost; "Done" last exactly when ``done``."""
    data = prompt.data
    assert prompt.topic == purchases.PURCHASE_TOPIC
    assert (data["points"], data["crusaders"]) == (state.income, state.effects.crusaders)
    offers = data["offers"]
    assert [purchases.label(board, o["kind"], o["area"]) for o in offers] == list(
        prompt.options[: len(offers)]
    )
    assert all(o["cost"] == purchases.cost(board, o["kind"]) for o in offers)
    assert prompt.options[len(offers) :] == ((purchases.DONE,) if data["done"] else ())


def menu_from_refusal(board: Board, state: GameState) -> list[str]:
    """The purchase options by their definition: every (kind, area) ``refusal`` does not
    refuse, kinds in KINDS order, areas in map order."""
    return [
        purchases.label(board, kind, area)
        for kind in purchases.KINDS
        for area in board.all_areas()
        if purchases.refusal(board, state, kind, area) is None
    ]
