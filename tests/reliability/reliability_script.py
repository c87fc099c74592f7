"""Scripted play for the reliability suite: the same answers, given the same seed, wherever play restarts.

Every answer is a function of the game's seed, the step number and the prompt alone
(app dice, acknowledged instructions, a choice drawn from a generator seeded by seed
and step), never of what happened earlier in this process. So a game killed and
resumed from the store goes on exactly as an uninterrupted one would.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from companion.driver import Driver, canonical, digest
from companion.prompts import Choose, Enter, Roll, Tell

STOP_WORDS = ("done", "no movement", "stop", "end")
RECONQUISTA_CONFIG = {"dice": "app"}
#: A game that asks more than this has gone wrong (a loop).
MAX_STEPS = 20_000


def choice(seed: int, step: int, prompt: Choose) -> str:
    """The scripted pick: a stop option half the time when there is one (so phases end), else any.
    A side's pass is a stop too (a Simancas hand ends when both sides have passed)."""
    rng = random.Random(f"reliability:{seed}:{step}")
    stops = [
        o for o in prompt.options if o.casefold().startswith(STOP_WORDS) or o.casefold().endswith(" pass")
    ]
    if stops and rng.random() < 0.5:
        return stops[0]
    return rng.choice(prompt.options)


def answer_one(driver: Driver) -> None:
    """Answer the waiting prompt as the script says."""
    prompt = driver.pending
    if isinstance(prompt, Roll):
        driver.roll()
    elif isinstance(prompt, Tell):
        driver.ack()
    elif isinstance(prompt, Choose):
        driver.submit(choice(driver.seed, len(driver.steps), prompt), "player")
    elif isinstance(prompt, Enter):
        driver.type(prompt.default)
    else:
        raise TypeError(f"the script cannot answer {prompt!r}")


def play_to_end(driver: Driver, after_step: Callable[[int, str], None] | None = None) -> str:
    """Play on to the end; ``after_step(index, digest)`` is called once each step is recorded."""
    while driver.pending is not None:
        if len(driver.steps) > MAX_STEPS:
            raise RuntimeError(f"the scripted game asked more than {MAX_STEPS} prompts")
        answer_one(driver)
        if after_step is not None:
            after_step(len(driver.steps) - 1, digest(driver.snapshot()))
    return final_digest(driver)


def final_digest(driver: Driver) -> str:
    return digest(canonical(driver.snapshot()))


def reference(seed: int) -> tuple[str, int]:
    """The final state's digest and the number of steps of an uninterrupted, unrecorded game."""
    from companion.reconquista.game import GAME

    driver = Driver(GAME, seed, RECONQUISTA_CONFIG)
    final = play_to_end(driver)
    return final, len(driver.steps)
