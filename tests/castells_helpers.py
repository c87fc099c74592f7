"""Helpers the Terra de Castells tests share: run a procedure on scripted answers, build states."""

from __future__ import annotations

from collections.abc import Generator, Iterable
from dataclasses import dataclass, field
from random import Random
from typing import Any

from companion.castells import bag as bags
from companion.castells.board import Board, default_board
from companion.castells.game import GAME, initial_state
from companion.castells.state import CastellsState, Player
from companion.driver import Driver
from companion.prompts import Choose, Enter, Prompt, Roll, Tell


@dataclass
class Trace:
    prompts: list[Prompt] = field(default_factory=list)
    pending: Prompt | None = None  # the prompt left unanswered when the answers ran out
    result: Any = None
    favour: list[Choose] = field(default_factory=list)  # the favour card questions answered "no card"

    def rolls(self) -> list[Roll]:
        return [p for p in self.prompts if isinstance(p, Roll)]

    def chooses(self) -> list[Choose]:
        return [p for p in self.prompts if isinstance(p, Choose)]

    def tells(self) -> list[str]:
        return [p.text for p in self.prompts if isinstance(p, Tell)]


def drive(gen: Generator[Prompt, Any, Any], answers: Iterable[Any], cards: bool = False) -> Trace:
    """Feed ``answers`` to every prompt but a Tell (acknowledged by itself); stop when they run out.
    Unless ``cards``, the question whether a favour card changes a battle is answered by itself,
    with no card (it is in ``trace.favour``, not in ``trace.prompts``)."""
    trace = Trace()
    it = iter(answers)
    try:
        prompt = next(gen)
        while True:
            if not cards and isinstance(prompt, Choose) and prompt.topic == "castells.battle.favour":
                trace.favour.append(prompt)
                prompt = gen.send(prompt.options[0])  # "Apply the result"
                continue
            trace.prompts.append(prompt)
            if isinstance(prompt, Tell):
                value = None
            else:
                try:
                    given = next(it)
                    # Free text as typed: an empty entry takes the default, as the driver's type() does.
                    value = prompt.parse(given) if isinstance(prompt, Enter) else prompt.check(given)
                except StopIteration:
                    trace.pending = prompt
                    trace.prompts.pop()
                    return trace
            prompt = gen.send(value)
    except StopIteration as stop:
        trace.result = stop.value
    return trace


def table(
    owners: dict[str, str], armies: dict[str, int], saracen: str | None = None
) -> tuple[Board, CastellsState]:
    """A state past setup: players (in the order of ``armies``), castle owners, the Saracen's place."""
    board = default_board()
    state = initial_state(board)
    state.players = [Player(n, a) for n, a in armies.items()]
    state.owners.update(owners)
    if saracen is not None:
        state.saracen = saracen
    state.century, state.active = 0, 0
    return board, state


def setup_answers(names: list[str], armies: list[int], castles: dict[str, list[str]]) -> list[Any]:
    """The setup questions' answers: count, names, turn order (as given), armies, starting castles."""
    out: list[Any] = [str(len(names)), *names, *names[:-1], *(str(a) for a in armies)]
    for n in names:
        out.extend(castles.get(n, []))
        out.append(f"{n} holds no more castles")
    return out


def answer(d: Driver, value: Any) -> None:
    """Answer the driver's waiting prompt the way a player would (Tells acknowledged)."""
    p = d.pending
    if isinstance(p, Tell):
        d.ack()
    elif isinstance(p, Roll):
        d.submit(value, "physical")
    elif isinstance(p, Enter):
        d.type(value)
    elif isinstance(p, Choose):
        d.submit(value, "player")
    else:
        raise TypeError(f"nothing to answer: {p}")


def feed(d: Driver, answers: Iterable[Any], ack_last: bool = True) -> None:
    """Acknowledge every Tell, and answer the other prompts from ``answers`` in order; with
    ``ack_last`` off, the instructions after the last answer are left waiting."""
    left = list(answers)
    while d.pending is not None:
        if isinstance(d.pending, Tell):
            if not left and not ack_last:
                return
            d.ack()
            continue
        if not left:
            return
        answer(d, left.pop(0))


def new_driver(seed: int = 5, recorder: Any = None) -> Driver:
    return Driver(GAME, seed, recorder=recorder)


def routine_answer(d: Driver) -> bool:
    """Answer ``d``'s prompt where it asks for no choice of a player's: the instruction
    confirmed, the app's dice, Enter's default, the app's draw from the bag. False (nothing
    answered) for any other choice, which the caller's player makes."""
    p = d.pending
    if isinstance(p, Tell):
        d.ack()
    elif isinstance(p, Roll):
        d.roll()
    elif isinstance(p, Enter):
        d.type("")
    elif isinstance(p, Choose) and p.topic == bags.DRAW_TOPIC:
        d.submit(bags.app_draw(d.seed, len(d.steps), d.state.bag), "app")
    else:
        return False
    return True


def random_answer(d: Driver, picks: Random) -> None:
    """Answer ``d``'s prompt as a player picking at random would: the routine ones as
    ``routine_answer`` does, and any option of a choice."""
    if not routine_answer(d):
        p = d.pending
        assert isinstance(p, Choose), p
        d.submit(picks.choice(p.options), "player")
