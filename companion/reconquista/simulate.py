"""Headless Reconquista: whole games with app dice and the simple bot, for tests and benchmarks.

Each game runs through the same driver and procedures as a game at the table;
the app rolls every die and ``bot.Bot`` answers every choice (or, with
``answers="random"``, a seeded generator picks any option offered), so no prompt
is left unanswered. The same seed always gives the same games and figures.
"""

from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from companion.driver import Driver
from companion.prompts import Choose, Roll, Tell
from companion.reconquista.board import Board
from companion.reconquista.bot import Bot
from companion.reconquista.control import result_band, victory_points
from companion.reconquista.game import (
    GAME,
    InvariantError,
    check_between_phases,
    check_end_of_turn,
    check_invariants,
)
from companion.reconquista.state import GameState

#: A game that asks more than this has gone wrong (a loop): it counts as an error.
MAX_PROMPTS = 50_000

#: Who answers the Christian choices: the bot, or a seeded pick among the options offered.
Answers = Literal["bot", "random"]
ANSWERS: tuple[Answers, ...] = ("bot", "random")


class BrokenInvariant(InvariantError):
    """An invariant broken in a whole game: which game, after which phase of which turn."""

    def __init__(self, seed: int, answers: str, turn: int, phase: str, message: str) -> None:
        super().__init__(f"game {seed} ({answers} answers), turn {turn}, after the {phase} phase: {message}")
        self.seed, self.answers, self.turn, self.phase, self.message = seed, answers, turn, phase, message


@dataclass(frozen=True)
class GameResult:
    seed: int
    result: str
    vp: int
    turns: int
    prompts: int


@dataclass
class Report:
    games: int = 0
    results: Counter[str] = field(default_factory=Counter)
    vp_total: int = 0
    errors: int = 0
    first_error: str | None = None
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "games": self.games,
            "results": dict(sorted(self.results.items())),
            "mean_vp": round(self.vp_total / max(1, self.games - self.errors), 3),
            "errors": self.errors,
            "first_error": self.first_error,
            "seconds": round(self.seconds, 3),
        }


class RandomPlayer:
    """A Christian player that takes any one of the options offered, picked by a seeded
    generator: the choices no bot would make (moving back and forth, buying nothing,
    retreating anywhere allowed)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, board: Board, state: GameState, prompt: Choose) -> str:
        return self.rng.choice(prompt.options)


def bot_answer(driver: Driver, bot: Bot | RandomPlayer, board: Any) -> None:
    """Answer the waiting prompt as a headless game does: the app rolls, every instruction
    is taken as carried out, the bot (or the random player) makes the Christian choices."""
    prompt = driver.pending
    if isinstance(prompt, Roll):
        driver.roll()
    elif isinstance(prompt, Tell):
        driver.ack()
    elif isinstance(prompt, Choose):
        driver.submit(bot.choose(board, driver.state, prompt), "player")
    else:
        raise TypeError(f"game {driver.seed}: the bot cannot answer {prompt!r}")


class Watch(Protocol):
    """What a caller of ``play`` may watch a game with (the test suite's whole-game checks):
    ``prompt`` before each answer, ``phase_over`` as each phase ends, given the steps it took."""

    def prompt(self, board: Board, driver: Driver) -> None: ...

    def phase_over(self, board: Board, driver: Driver, turn: int, phase: str, first: int) -> None: ...


def play(
    seed: int,
    *,
    check: bool = False,
    answers: Answers = "bot",
    watch: Watch | None = None,
    driver: Driver | None = None,
) -> Driver:
    """One whole game, its driver at the end; with ``check``, the invariants are checked after
    every phase (when the game has gone on to the next one; a phase that asks nothing has
    changed nothing, since every board change is told), and a broken one raises
    BrokenInvariant naming the phase. ``answers``: the bot's choices, or random ones among the
    options offered. ``watch`` sees every prompt before it is answered and every phase as it
    ends (``first``: the index of the phase's first step), after the invariants. ``driver``: a
    game under way to play on (a resumed session) instead of a new one of ``seed``."""
    if answers not in ANSWERS:
        raise ValueError(f"answers must be one of {', '.join(ANSWERS)}, not {answers!r}")
    if driver is None:
        driver = Driver(GAME, seed)
    player = Bot(seed) if answers == "bot" else RandomPlayer(seed)
    board = GAME.board_of(driver.state)
    turn, phase, first = driver.state.turn, driver.state.phase, len(driver.steps)
    while driver.pending is not None:
        if len(driver.steps) >= MAX_PROMPTS:
            raise RuntimeError(f"game {seed} asked more than {MAX_PROMPTS} prompts")
        if watch is not None:
            watch.prompt(board, driver)
        bot_answer(driver, player, board)
        if driver.state.phase != phase:
            if check:
                # Checked at the first prompt of the next phase. Phase 7's first prompt already
                # follows a removal (which may leave a fortress alone until Phase 7 removes it),
                # so entering it only the invariants are checked.
                try:
                    if phase == "end":
                        check_end_of_turn(board, driver.state)
                    elif driver.state.phase == "end":
                        check_invariants(board, driver.state)
                    else:
                        check_between_phases(board, driver.state)
                except InvariantError as exc:
                    raise BrokenInvariant(seed, answers, turn, phase, str(exc)) from exc
            if watch is not None:
                watch.phase_over(board, driver, turn, phase, first)
            turn, phase, first = driver.state.turn, driver.state.phase, len(driver.steps)
    return driver


def play_game(seed: int, *, check: bool = False, answers: Answers = "bot") -> GameResult:
    """One whole game (``play``), as its result: the band, the victory points, the turns."""
    driver = play(seed, check=check, answers=answers)
    board = GAME.board_of(driver.state)
    state = driver.state
    vp = victory_points(board, state).total
    band = result_band(board, vp)
    return GameResult(seed, f'{band.name} "{band.title}"', vp, state.turn, len(driver.steps))


def simulate(games: int, seed: int, *, check: bool = False) -> Report:
    """Play ``games`` games with seeds seed, seed+1, ...; errors are counted, not raised."""
    report = Report()
    start = time.perf_counter()
    for i in range(games):
        report.games += 1
        try:
            r = play_game(seed + i, check=check)
        except Exception as exc:  # noqa: BLE001 -- a bug in the engine: count it and go on
            report.errors += 1
            if report.first_error is None:
                report.first_error = f"game seed {seed + i}: {type(exc).__name__}: {exc}"
            continue
        report.results[r.result] += 1
        report.vp_total += r.vp
    report.seconds = time.perf_counter() - start
    return report
