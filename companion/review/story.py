"""A Reconquista game's story: the victory points and the cities each side holds, turn by turn.

The session's log is replayed by the driver (``Driver``, the one replay mechanism that
resume, undo and History's step-through use), one step at a time. A turn is complete
once the game has gone on to the next turn (its turn marker is the prompt waiting) or
has ended after it; its figures are then read from the engine's state with the
engine's own rules (``control.victory_points``, ``control.city_controller``), before
anything of the next turn has happened. A log recorded under earlier rules is replayed
as far as it fits them, and the story says where it stops.

Only the Christian player scores victory points in Reconquista (the robot's Muslims do
not), so there is one VP series; the cities are counted for every side that holds one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.driver import Driver, Step, departure
from companion.reconquista.board import Board
from companion.reconquista.control import city_controller, victory_points
from companion.reconquista.game import GAME
from companion.reconquista.state import SIDE_NAMES, SIDES, GameState

if TYPE_CHECKING:
    from companion.store.db import Store

#: The sides always charted, a city or not: the two religions of the game.
ALWAYS = ("christian", "muslim")


@dataclass(frozen=True)
class TurnFigures:
    """The table at the end of one turn (``turn`` 0: as set up, before turn 1)."""

    turn: int
    vp: int
    cities: Mapping[str, int]  # side -> the cities it controls; every side of SIDES, zeros included

    def to_json(self) -> dict[str, Any]:
        return {"turn": self.turn, "vp": self.vp, "cities": dict(self.cities)}


@dataclass(frozen=True)
class Story:
    """The figures as set up and at the end of each completed turn, in turn order.

    ``replayed`` of ``steps`` logged steps fit the game's rules; ``parting`` is the
    sentence saying where and why the others do not (empty when every step fits)."""

    start: TurnFigures
    turns: tuple[TurnFigures, ...]
    steps: int
    replayed: int
    parting: str = ""
    #: The player's luck in hits added up turn by turn (game_luck.py), (turn, balance): the
    #: turns with battles; a stored session's, () for a story told from steps alone.
    luck: tuple[tuple[int, float], ...] = ()

    @property
    def sides(self) -> tuple[str, ...]:
        """The sides to chart: the Christians and Muslims, and any other side that held a city."""
        held = {s for t in (self.start, *self.turns) for s, n in t.cities.items() if n}
        return tuple(s for s in SIDES if s in ALWAYS or s in held)

    def vp(self) -> list[int]:
        return [t.vp for t in self.turns]

    def cities(self, side: str) -> list[int]:
        return [t.cities.get(side, 0) for t in self.turns]

    def to_json(self) -> dict[str, Any]:
        return {
            "start": self.start.to_json(),
            "turns": [t.to_json() for t in self.turns],
            "steps": self.steps,
            "replayed": self.replayed,
            "parting": self.parting,
        }


def side_name(side: str) -> str:
    """'Christian', 'Rebel army': the side as the board names it."""
    return SIDE_NAMES.get(side, side)


def turn_figures(board: Board, state: GameState, turn: int) -> TurnFigures:
    """The victory points the table scores now and the cities each side controls."""
    cities = dict.fromkeys(SIDES, 0)
    for name in board.area_order:
        holder = city_controller(state.areas[name])
        if holder is not None:
            cities[holder] = cities.get(holder, 0) + 1
    return TurnFigures(turn, victory_points(board, state).total, cities)


def reconquista_story(seed: int, config: dict[str, Any] | None, steps: Iterable[Step]) -> Story:
    """The story of a Reconquista session of ``seed`` and ``config`` whose log is ``steps``."""
    logged = list(steps)
    driver = Driver(GAME, seed, config)
    board = GAME.board_of(driver.state)
    start = turn_figures(board, driver.state, 0)
    turns: list[TurnFigures] = []
    parting = ""
    for i, step in enumerate(logged):
        before_turn, before_phase = driver.state.turn, driver.state.phase
        divergence = driver.feed_fitting([step])
        if divergence is not None:
            parting = f"From step {i + 1} {departure(divergence)}, so the story stops after step {i}."
            break
        state = driver.state
        if state.turn > before_turn:
            # The next turn's marker is waiting: nothing of that turn has happened yet.
            turns.append(turn_figures(board, state, before_turn))
        elif state.phase == "over" and before_phase != "over":
            turns.append(turn_figures(board, state, state.turn))  # the game ended after this turn
    return Story(start, tuple(turns), len(logged), len(driver.steps), parting)


def session_story(store: Store, session_id: int) -> Story:
    """The story of a stored Reconquista session; StoreError if it cannot be read."""
    from dataclasses import replace

    from companion.review.game_luck import game_luck

    info = store.session(session_id)
    story = reconquista_story(info.seed, info.config, store.log(session_id).steps)
    # The chart is of the battles' hits, the luck of every turn (sieges are weighed beside it).
    hits = next((g for g in game_luck(store, session_id=session_id) if g.unit == "hits"), None)
    return replace(story, luck=hits.by_turn) if hits else story
