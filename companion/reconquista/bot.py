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
from collections.abc import Sequence
from functools import lru_cache

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


@lru_cache(maxsize=4096)  # the same option texts come back prompt after prompt
def _is_stop(option: str) -> bool:
    return option.casefold().startswith(STOP_WORDS)


#: Option text -> its place in PURCHASE_ORDER (len(PURCHASE_ORDER): none). The same few
#: hundred texts come back at every purchase of every game: each is read once.
_PURCHASE_RANK: dict[str, int] = {}


def _purchase_rank(option: str) -> int:
    rank = _PURCHASE_RANK.get(option)
    if rank is None:
        folded = option.casefold()
        # No prefix of PURCHASE_ORDER starts another, so an option matches one at most.
        rank = next((i for i, p in enumerate(PURCHASE_ORDER) if folded.startswith(p)), len(PURCHASE_ORDER))
        if len(_PURCHASE_RANK) > 10_000:  # other boards, other texts: never grow for ever
            _PURCHASE_RANK.clear()
        _PURCHASE_RANK[option] = rank
    return rank


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
        options = prompt.options  # read, never changed: no copy
        if state.phase == "income":
            return self._purchase(options)
        if state.phase == "movement":
            return self._move(board, state, prompt, options)
        return options[0]

    # -- Phase 3 -----------------------------------------------------------------

    def _purchase(self, options: Sequence[str]) -> str:
        # The options of the first kind in PURCHASE_ORDER offered, in the order given.
        ranks = [_purchase_rank(o) for o in options]
        best = min(ranks)
        if best < len(PURCHASE_ORDER):
            picks = [o for o, r in zip(options, ranks, strict=True) if r == best]
            return picks[self.rng.randrange(len(picks))]
        stops = [o for o in options if _is_stop(o)]
        return stops[0] if stops else options[0]

    # -- Phase 4 -----------------------------------------------------------------

    def _move(self, board: Board, state: GameState, prompt: Choose, options: Sequence[str]) -> str:
        regions = {r.name: n for n, r in board.regions.items()}
        # isdisjoint first: most prompts name no region (and the units prompt no area), and
        # it answers that without building a list.
        if not regions.keys().isdisjoint(options):
            named_regions = [o for o in options if o in regions]
            # The region to move in: where the Christians have the most units.
            return max(
                named_regions,
                key=lambda o: (
                    sum(state.areas[a].count("christian") for a in board.regions[regions[o]].areas),
                    -regions[o],
                ),
            )
        if state.areas.keys().isdisjoint(options):
            return next((o for o in options if not _is_stop(o)), options[0])
        areas = [o for o in options if o in state.areas]
        why = prompt.why.casefold()
        if "from" in why or "origin" in why:
            self.moves += 1
            stops = [o for o in options if _is_stop(o)]
            if self.moves > MAX_MOVES and stops:
                return stops[0]
            strong = max(areas, key=lambda a: (state.areas[a].count("christian"), -board.map_index[a]))
            if state.areas[strong].count("christian") < 2 and stops:
                return stops[0]
            return strong
        # A destination: the enemy area with the fewest units, else any area with an enemy, else the first.
        enemies = [a for a in areas if enemy_forces(state.areas[a], "christian")]
        if enemies:
            return min(enemies, key=lambda a: (state.areas[a].total(), board.map_index[a]))
        return areas[self.rng.randrange(len(areas))]
