"""Coin toss: its statistics (the registry entry's ``stats``): sessions and heads tossed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion.store.db import Store


@dataclass(frozen=True)
class CoinStats:
    sessions: int
    heads: int
    notes: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        return [f"Coin toss: {self.sessions} sessions, {self.heads} heads tossed."]

    def to_json(self) -> dict[str, Any]:
        return {"sessions": self.sessions, "heads": self.heads, "notes": list(self.notes)}


def coin_stats(store: Store, session_id: int | None = None) -> CoinStats:
    infos = [s for s in store.sessions(game="toy") if session_id in (None, s.id)]
    heads = sum(step.answer == [1] for s in infos for step in store.log(s.id).steps)
    return CoinStats(len(infos), heads)
