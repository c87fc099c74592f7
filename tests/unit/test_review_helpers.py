"""Helpers shared by the review tests (statistics, luck ledger, export and import): sessions
played headless into a store, and tallies of what happened kept while playing, from the
live game (its state and its board instructions), not from the log the functions read."""

from __future__ import annotations

import random
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from companion.driver import Driver
from companion.games import load
from companion.prompts import Choose, Enter, Roll, Tell
from companion.store.db import Store

_REBELLION_TELL = re.compile(
    r"^Rebellions in .+?, (Rebels|Proselytism|Peasant Revolt|Rebel Governor|Regional Revolt):"
)
_REINFORCEMENT_TELL = re.compile(r"^Muslim reinforcements: a \d in the column .+ gives (.+)\.$")
_REACTION_TELL = re.compile(r"^Muslim reaction: the reinforcements rise in (.+?)(?: \(Jihad.*)?\.$")


@dataclass
class ReconquistaTally:
    """What a Reconquista game did, as the live game showed it."""

    rebellions: Counter[str] = field(default_factory=Counter)  # by result label
    events: Counter[str] = field(default_factory=Counter)  # by event key
    regions: Counter[str] = field(default_factory=Counter)  # by region name / North Africa
    reinforcements: Counter[str] = field(default_factory=Counter)
    refused: int = 0  # rebellion results that would have eliminated a side's last city

    def observe(self, driver: Driver, prompt: Any) -> None:
        """Called after ``prompt`` was answered."""
        if isinstance(prompt, Roll) and prompt.why.startswith("Events: 2D6"):
            self.events[driver.state.effects.event] += 1
        if isinstance(prompt, Tell):
            if prompt.text.startswith("Rebellions: ") and " would eliminate the last city" in prompt.text:
                self.refused += 1
            for pattern, counter in (
                (_REBELLION_TELL, self.rebellions),
                (_REINFORCEMENT_TELL, self.reinforcements),
                (_REACTION_TELL, self.regions),
            ):
                m = pattern.match(prompt.text)
                if m:
                    counter[m[1]] += 1


def new_driver(
    store: Store, game: str, seed: int, config: dict[str, Any] | None = None
) -> tuple[int, Driver]:
    sid = store.create_session(game, seed, config)
    return sid, Driver(load(game), seed, config, recorder=store.recorder(sid))


def auto(driver: Driver, choose: Callable[[Choose], str]) -> Any:
    """Answer the waiting prompt: app dice, acknowledged instructions, Enter's default, ``choose``."""
    prompt = driver.pending
    if isinstance(prompt, Roll):
        driver.roll()
    elif isinstance(prompt, Tell):
        driver.ack()
    elif isinstance(prompt, Enter):
        driver.type("")
    elif isinstance(prompt, Choose):
        driver.submit(choose(prompt), "player")
    else:
        raise TypeError(f"cannot answer {prompt!r}")
    return prompt


def reconquista_chooser(driver: Driver, seed: int) -> Callable[[Choose], str]:
    from companion.reconquista.bot import Bot

    bot = Bot(seed)
    board = load("reconquista").board_of(driver.state)  # type: ignore[attr-defined]
    return lambda prompt: bot.choose(board, driver.state, prompt)


def play_reconquista(
    store: Store,
    seed: int,
    tally: ReconquistaTally | None = None,
    until: Callable[[Any], bool] | None = None,
) -> tuple[int, Driver]:
    """A Reconquista game with app dice and the simple bot, to the end or until ``until(prompt)``."""
    sid, driver = new_driver(store, "reconquista", seed)
    advance(driver, reconquista_chooser(driver, seed), tally, until)
    return sid, driver


def advance(
    driver: Driver,
    choose: Callable[[Choose], str],
    tally: ReconquistaTally | None = None,
    until: Callable[[Any], bool] | None = None,
) -> None:
    while driver.pending is not None and not (until and until(driver.pending)):
        prompt = auto(driver, choose)
        if tally is not None:
            tally.observe(driver, prompt)


def why_starts(text: str) -> Callable[[Any], bool]:
    return lambda p: isinstance(p, Roll) and p.why.startswith(text)


def ack_tells(driver: Driver) -> list[str]:
    told = []
    while isinstance(driver.pending, Tell):
        told.append(driver.pending.text)
        driver.ack()
    return told


def simancas_hand(driver: Driver, cards: list[str]) -> list[str]:
    """Play one Simancas hand: each of ``cards`` is an option ('Moors place Large Army'),
    then end it; the instructions told, the hand's result among them."""
    told = ack_tells(driver)
    for card in cards:
        driver.submit(card, "player")
        told += ack_tells(driver)
    for finished in ("Moors pass", "Christians pass"):  # both have finished: the hand is scored
        driver.submit(finished, "player")
    return told + ack_tells(driver)


def castells_chooser(seed: int) -> Callable[[Choose], str]:
    """A player who attacks the Saracens' neighbours when offered, and decides the rest at random."""
    rng = random.Random(seed)

    def choose(prompt: Choose) -> str:
        options = list(prompt.options)
        near = [o for o in options if o.startswith("Attack a castle near")]
        if near:
            return near[0]
        if options[-1].endswith("holds no more castles") and rng.random() < 0.5:
            return options[-1]
        return rng.choice(options)

    return choose


def count_rows(store: Store) -> tuple[int, int]:
    """(sessions, events) in the store."""
    from sqlalchemy import text

    with store.engine.connect() as con:
        return (
            int(con.execute(text("SELECT COUNT(*) FROM session")).scalar() or 0),
            int(con.execute(text("SELECT COUNT(*) FROM event")).scalar() or 0),
        )
