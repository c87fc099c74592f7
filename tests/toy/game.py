"""Coin toss: the engine (the game interface of companion/interface.py, nothing more)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.interface import Asks, Procedure, last_answer
from companion.prompts import Roll, Tell

TOSSES = 3


@dataclass
class Coins:
    faces: list[int] = field(default_factory=list)
    over: bool = False


class CoinToss:
    id = "toy"
    title = "Coin toss"
    rules_version = 1
    asks = Asks(frozenset({"toy.toss.roll", "toy.toss.result"}), sides=frozenset({2}), most_dice=1)
    apply_edit = None
    board_changes = None
    earlier_rules = None
    undo_from = staticmethod(last_answer)

    def new_state(self, seed: int, config: dict[str, Any]) -> Coins:
        return Coins()

    def procedure(self, state: Coins) -> Procedure:
        for n in range(1, TOSSES + 1):
            faces = yield Roll(1, 2, f"Toss {n}: 1 heads, 2 tails", topic="toy.toss.roll", data={"toss": n})
            state.faces.append(faces[0])
        state.over = True
        yield Tell(self.summary(state), topic="toy.toss.result", data={"heads": state.faces.count(1)})
        return self.summary(state)

    def snapshot(self, state: Coins) -> dict[str, Any]:
        return {"faces": list(state.faces), "over": state.over}

    def where(self, state: Coins) -> tuple[int | None, str | None]:
        return len(state.faces) + 1, "toss"

    def summary(self, state: Coins) -> str:
        heads = state.faces.count(1)
        return f"{heads} heads of {len(state.faces)}" + (", won" if state.over and heads >= 2 else "")


GAME = CoinToss()
