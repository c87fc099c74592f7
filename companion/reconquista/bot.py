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

It knows a question by its topic and reads its facts from the prompt's data (and the
board), never its wording. A Choose without one of the topics it knows (those of the
other phases' procedures) gets the answer it always got: in Phase 4, an area's choice
(a beaten force's retreat) is answered as a destination; anything else, the first option.

A seeded generator breaks ties, so the same seed always gives the same game.
"""

from __future__ import annotations

import random
from typing import Any

from companion.prompts import Choose
from companion.reconquista import movement, purchases
from companion.reconquista.board import Board
from companion.reconquista.control import enemy_forces
from companion.reconquista.state import GameState

#: The purchases in the order the bot prefers them (purchases.KINDS names them).
PURCHASE_ORDER = (
    "crusader",
    "convert",
    "city",
    "army",
    "mercenary",
    "garrison",
    "fortress",
    "bribe",
)
MAX_MOVES = 4


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
        topic = prompt.topic
        if topic == purchases.PURCHASE_TOPIC:
            return self._purchase(options, prompt.data)
        if topic == movement.REGION_TOPIC:
            return self._region(board, state, prompt.data["regions"])
        if topic == movement.ORIGIN_TOPIC:
            return self._origin(board, state, [o for o in options if o != movement.DONE])
        if topic == movement.DESTINATION_TOPIC:
            return self._destination(board, state, options)
        if topic in (movement.UNITS_TOPIC, movement.EL_CID_TOPIC):
            return options[0]  # the whole force (the largest part comes first); El Cid goes
        if topic == "reconquista.battle.retreat_to":
            # A beaten force's retreat: chosen as a destination is (its options are areas).
            return self._destination(board, state, [o for o in options if o in state.areas])
        # Anything else (where the Military Order goes, which force El Cid joins): the first.
        return options[0]

    # -- Phase 3 -----------------------------------------------------------------

    def _purchase(self, options: list[str], data: dict[str, Any]) -> str:
        # The offers of the first kind in PURCHASE_ORDER offered, in the order given; the
        # offers are listed in the order of the options.
        offered: list[dict[str, Any]] = data["offers"]
        for kind in PURCHASE_ORDER:
            picks = [options[i] for i, offer in enumerate(offered) if offer["kind"] == kind]
            if picks:
                return picks[self.rng.randrange(len(picks))]
        return purchases.DONE if data["done"] else options[0]

    # -- Phase 4 -----------------------------------------------------------------

    def _region(self, board: Board, state: GameState, names: list[str]) -> str:
        # The region to move in: where the Christians have the most units.
        regions = {r.name: n for n, r in board.regions.items()}
        return max(
            names,
            key=lambda o: (
                sum(state.areas[a].count("christian") for a in board.regions[regions[o]].areas),
                -regions[o],
            ),
        )

    def _origin(self, board: Board, state: GameState, areas: list[str]) -> str:
        self.moves += 1
        if self.moves > MAX_MOVES:
            return movement.DONE
        strong = max(areas, key=lambda a: (state.areas[a].count("christian"), -board.map_index[a]))
        if state.areas[strong].count("christian") < 2:
            return movement.DONE
        return strong

    def _destination(self, board: Board, state: GameState, areas: list[str]) -> str:
        # The enemy area with the fewest units, else any area with an enemy, else the first.
        enemies = [a for a in areas if enemy_forces(state.areas[a], "christian")]
        if enemies:
            return min(enemies, key=lambda a: (state.areas[a].total(), board.map_index[a]))
        return areas[self.rng.randrange(len(areas))]
