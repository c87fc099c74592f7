"""What the driver needs from a game, and the registry of games the app knows.

A game is a state factory plus a procedure: a generator over that state that
yields prompts. Game modules are imported only when a game is played, so the
first screen does not pay for engines it does not show.
"""

from __future__ import annotations

import importlib
from collections.abc import Generator
from dataclasses import dataclass
from typing import Any, Protocol

from companion.errors import CompanionError
from companion.prompts import Prompt

#: A game's procedure: it yields prompts and is sent their answers. The answer's type
#: follows the prompt (a Roll's is list[int], a Choose's or an Enter's str, a Tell's None),
#: which a generator's send type cannot say: Any.
Procedure = Generator[Prompt, Any, Any]


class GameNotAvailable(CompanionError):
    """The game asked for is unknown, or not playable in this version."""


class Game(Protocol):
    """The interface every game module offers to the driver."""

    id: str
    title: str
    #: The version of the game's rules: raised whenever a change to them may make a game
    #: recorded before it ask something else on replay. A session records the version it
    #: was played under (docs/design.md, "The store").
    rules_version: int

    def new_state(self, seed: int, config: dict[str, Any]) -> Any:
        """The state a new session starts from."""

    def procedure(self, state: Any) -> Procedure:
        """The whole session as one generator; it changes ``state`` as answers come in."""

    def snapshot(self, state: Any) -> dict[str, Any]:
        """A JSON-serialisable picture of ``state``; equal states give equal pictures."""

    def where(self, state: Any) -> tuple[int | None, str | None]:
        """The turn and phase ``state`` is in, for the log (None where the game has none)."""

    def summary(self, state: Any) -> str:
        """One line saying where the session stands or how it ended."""


@dataclass(frozen=True)
class GameEntry:
    """A game as the home screen lists it; ``module`` is None until it is built."""

    id: str
    title: str
    blurb: str
    module: str | None


GAMES: tuple[GameEntry, ...] = (
    GameEntry(
        "reconquista",
        "Reconquista",
        "Solitaire wargame: the app plays the Moors, 20 turns.",
        "companion.reconquista.game",
    ),
    GameEntry(
        "simancas",
        "Battle of Simancas",
        "2-player card game: force totals, hands and match.",
        "companion.simancas.game",
    ),
    GameEntry(
        "castells",
        "Terra de Castells",
        "Euro game: the app runs the Saracen turns.",
        "companion.castells.game",
    ),
    GameEntry(
        "dice",
        "Dice tray",
        "Roll any dice, typed from the table or rolled by the app; all logged.",
        "companion.dicetray",
    ),
)


def entry(game_id: str) -> GameEntry:
    for e in GAMES:
        if e.id == game_id:
            return e
    known = ", ".join(e.id for e in GAMES)
    raise GameNotAvailable(f"There is no game called '{game_id}'; the games are {known}.")


def load(game_id: str) -> Game:
    """The game module for ``game_id``; GameNotAvailable (one sentence) if it is unknown or not built."""
    e = entry(game_id)
    if e.module is None:
        raise GameNotAvailable(f"{e.title} is not playable in this version yet.")
    game: Game = importlib.import_module(e.module).GAME
    return game
