"""The discard pile of a Battle of Simancas match, as far as the app knows it.

The rulebook's pile takes every card discarded; the app sees only some of them: a card
destroyed (a tactic's or Rout's victim) and a card left on the table at the Retreat, by name;
a card discarded from a hand for a tactic or for the Weapon's strategic effect, by its type
alone (the players do not say which card it was). The cards discarded from the hands
otherwise (the Reserve, the other strategic effects, a random discard, the Retreat's hands)
it never sees. So ``Pile`` holds exactly the cards the app knows are in the pile now:

- RESERVE PHASE, "If the deck ever runs out, shuffle the discard and draw from it": the
  reshuffle, recorded by the players, empties it (``reshuffle``);
- STRATEGY PHASE, "Discard a Weapon card search for a Cavalry, Skirmisher, or Infantry card
  in the Discard pile and put it in your hand": the card taken leaves it (``take``,
  ``take_type``);
- a card placed leaves it: it is on the table, so it came back to a hand (``take``);
- a card known by its type only leaves it when no card can be it any more: every card of
  that type is in play or named in the pile, so it came back to a hand too, in a way the app
  was not told (``settle``).

Each card is in it at most once, a card on the table in play is never in it, and the cards
known by type only can each be a different card neither in play nor named in it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from companion.simancas.cards import Card

How = Literal["destroyed", "tactic", "strategy", "retreat"]


@dataclass(frozen=True)
class Gone:
    """One card in the discard pile: ``card`` its name when the app knows it ('' for a card
    discarded from a hand: only its type is recorded), ``card_type`` the type letter (the type
    it was discarded as), ``how`` why it went ('destroyed'; 'tactic' or 'strategy', discarded
    from a hand for its tactical or strategic effect; 'retreat', left on the table), ``side``
    whose card it was (the placer, or the side that discarded it), ``hand`` when."""

    card: str
    card_type: str
    how: How
    side: str
    hand: int

    def to_json(self) -> dict[str, Any]:
        return {
            "card": self.card,
            "type": self.card_type,
            "how": self.how,
            "side": self.side,
            "hand": self.hand,
        }


@dataclass
class Pile:
    """The cards the app knows are in the discard pile, oldest first."""

    entries: list[Gone] = field(default_factory=list)

    def __contains__(self, name: object) -> bool:
        return bool(name) and any(g.card == name for g in self.entries)

    def __len__(self) -> int:
        return len(self.entries)

    def named(self) -> list[str]:
        """The cards known by name, oldest first."""
        return [g.card for g in self.entries if g.card]

    def add(self, gone: Gone) -> None:
        """A card goes to the pile; a named card already there is not listed twice."""
        if gone.card:
            self.take(gone.card)
        self.entries.append(gone)

    def take(self, name: str) -> bool:
        """``name`` leaves the pile (it is in a hand or on the table now); whether it was there."""
        kept = [g for g in self.entries if g.card != name]
        found = len(kept) != len(self.entries)
        self.entries[:] = kept
        return found

    def take_type(self, letter: str) -> bool:
        """The oldest card known only by its type ``letter`` leaves the pile; whether there was one."""
        for i, g in enumerate(self.entries):
            if not g.card and g.card_type == letter:
                del self.entries[i]
                return True
        return False

    def settle(self, free: Sequence[Card]) -> None:
        """Keep the cards known by type only that can each be a different card of ``free`` (the
        cards neither in play nor named in the pile) of their type; drop the others, the oldest
        first: no card can be them, so they left the pile unseen (a search or a reshuffle not
        recorded). A maximum matching, the newest entries placed first."""
        unknown = [i for i, g in enumerate(self.entries) if not g.card]
        if not unknown:
            return
        holder: dict[str, int] = {}

        def place(i: int, seen: set[str]) -> bool:
            letter = self.entries[i].card_type
            for card in free:
                if card.name in seen or not card.counts_as(letter):
                    continue
                seen.add(card.name)
                if card.name not in holder or place(holder[card.name], seen):
                    holder[card.name] = i
                    return True
            return False

        kept = {i for i in reversed(unknown) if place(i, set())}
        if len(kept) < len(unknown):
            self.entries[:] = [g for i, g in enumerate(self.entries) if g.card or i in kept]

    def reshuffle(self) -> None:
        """ "shuffle the discard and draw from it": the pile is the deck now."""
        self.entries.clear()

    def copy(self) -> Pile:
        return Pile(list(self.entries))

    def to_json(self) -> list[dict[str, Any]]:
        return [g.to_json() for g in self.entries]
