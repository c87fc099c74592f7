"""A simple Christian player for headless games (simulation, tests, benchmarks).

It is not meant to play well, only legally and in a way that exercises the
rules: it answers every Choose the procedures ask, with one of the options
offered, by these rules of thumb:

- Phase 3: place crusaders first, then convert cities, build cities, armies,
  mercenaries, garrisons and fortresses, in that order of preference, where an
  enemy is near; stop when only "Done" is left or nothing is worth buying.
- Phase 4: move in the region where the Christians have the most armies; from
  the area with the strongest force, attack the weakest enemy area it can reach
  if it outnumbers it; otherwise stop. At most a few moves a phase.
- Anything else (retreats, El Cid, the Military Order's city): the first option.

A seeded generator breaks ties, so the same seed always gives the same game.
"""

from __future__ import annotations

import random

from companion.prompts import Choose
from companion.reconquista.board import Board
from companion.reconquista.control import enemy_forces
from companion.reconquista.state import GameState

STOP_WORDS = ("done", "no movement", "stop")
PURCHASE_ORDER = (
    "place a crusader",
    "convert",
    "build a city",
    "build an army",
    "hire a mercenary",
    "build a garrison",
    "build a fortress",
    "bribe",
)
MAX_MOVES = 4


def _is_stop(option: str) -> bool:
    return option.casefold().startswith(STOP_WORDS)


class Bot:
    """The Christian player of a headless game."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(f"bot:{seed}")
        self.moves = 0
        self.turn_phase: tuple[int, str] = (0, "")

    def choose(self, board: Board, state: GameState, prompt: Choose) -> str:
        if (state.turn, state.phase) != self.turn_phase:
            self.turn_phase = (state.turn, state.phase)
            self.moves = 0
        options = list(prompt.options)
        if state.phase == "income":
            return self._purchase(options)
        if state.phase == "movement":
            return self._move(board, state, prompt, options)
        return options[0]

    # -- Phase 3 -----------------------------------------------------------------

    def _purchase(self, options: list[str]) -> str:
        # The options of the first kind in PURCHASE_ORDER offered, in the order given.
        for prefix in PURCHASE_ORDER:
            picks = [o for o in options if o.casefold().startswith(prefix)]
            if picks:
                return picks[self.rng.randrange(len(picks))]
        stops = [o for o in options if _is_stop(o)]
        return stops[0] if stops else options[0]

    # -- Phase 4 -----------------------------------------------------------------

    def _move(self, board: Board, state: GameState, prompt: Choose, options: list[str]) -> str:
        stops = [o for o in options if _is_stop(o)]
        regions = {r.name: n for n, r in board.regions.items()}
        named_regions = [o for o in options if o in regions]
        if named_regions:
            # The region to move in: where the Christians have the most units.
            return max(
                named_regions,
                key=lambda o: (
                    sum(state.areas[a].count("christian") for a in board.regions[regions[o]].areas),
                    -regions[o],
                ),
            )
        areas = [o for o in options if o in state.areas]
        why = prompt.why.casefold()
        if areas and ("from" in why or "origin" in why):
            self.moves += 1
            if self.moves > MAX_MOVES and stops:
                return stops[0]
            strong = max(areas, key=lambda a: (state.areas[a].count("christian"), -board.map_index[a]))
            if state.areas[strong].count("christian") < 2 and stops:
                return stops[0]
            return strong
        if areas:
            # A destination: the enemy area with the fewest units, else any area with an enemy, else the first.
            enemies = [a for a in areas if enemy_forces(state.areas[a], "christian")]
            if enemies:
                return min(enemies, key=lambda a: (state.areas[a].total(), board.map_index[a]))
            return areas[self.rng.randrange(len(areas))]
        non_stop = [o for o in options if not _is_stop(o)]
        return non_stop[0] if non_stop else options[0]
