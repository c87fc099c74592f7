"""The Battle of Simancas match as a prompt procedure: the GAME object the driver runs.

The players play their cards on the table; the app records what lands there and
does the sums. Each step is one Choose whose options are the legal actions as
plain strings ("Moors place Jund Cavalry", "Christians discard Terrain to destroy
Jund Cavalry", "Restore Jund Cavalry" for a destroy made by mistake, "End the
hand"); Rout's target is a second Choose; on-placement effects the players carry out (draws, discards) are Tells. Ending a hand tells the
totals and the winner and clears the table; the first side to win 5 hands wins.

Turn order is not enforced: the app sees only the table, not whose turn it is or
who has passed, and no total depends on the order the cards came down.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from companion.games import Procedure
from companion.prompts import Choose, Tell
from companion.simancas.cards import TYPE_NAMES, Deck, default_deck
from companion.simancas.table import ADJECTIVES, SIDE_NAMES, SIDES, Side, Table, other

HANDS_TO_WIN = 5  # "The first player to win 5 hands is the winner."
END = "End the hand"


@dataclass(frozen=True)
class Action:
    """One legal action on the table: place a card, discard a type to destroy a card,
    restore a card destroyed by mistake, or end the hand."""

    kind: str  # "place", "tactic", "restore" or "end"
    side: Side | None = None
    card: str = ""  # the card placed, or the card the tactic destroys
    by: str = ""  # the type letter discarded for a tactic

    @property
    def text(self) -> str:
        if self.kind == "end":
            return END
        if self.kind == "restore":
            return f"Restore {self.card}"
        assert self.side is not None
        if self.kind == "place":
            return f"{SIDE_NAMES[self.side]} place {self.card}"
        return f"{SIDE_NAMES[self.side]} discard {TYPE_NAMES[self.by]} to destroy {self.card}"


@dataclass(frozen=True)
class HandResult:
    number: int
    totals: dict[Side, int]
    winner: Side | None

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.number, **{side: self.totals[side] for side in SIDES}, "winner": self.winner}


@dataclass
class Match:
    """The match: hands won, the results so far, and the table of the hand in progress."""

    deck: Deck
    table: Table
    hand: int = 1
    wins: dict[Side, int] = field(default_factory=lambda: {"moors": 0, "christians": 0})
    results: list[HandResult] = field(default_factory=list)
    winner: Side | None = None


def new_match(deck: Deck | None = None) -> Match:
    deck = deck or default_deck()
    return Match(deck, Table(deck))


def actions(table: Table) -> dict[str, Action]:
    """Every legal action now, text -> action, in a stable order.

    The Moors' (they play first) before the Christians'; for each side its
    placements in deck order, then its tactics (the Moors' cards as targets first,
    each side's in deck order, then the type discarded in the rulebook's order);
    then a restore of each destroyed card, in the order destroyed; "End the hand" last. The list depends on the table only, not on how it was reached.
    """
    menu: list[Action] = []
    tactics = table.tactic_options()
    for side in SIDES:
        menu.extend(Action("place", side, name) for name in table.placeable(side))
        menu.extend(Action("tactic", side, target, by) for by, target in tactics)
    menu.extend(Action("restore", None, d.card) for d in table.destroyed)
    menu.append(Action("end"))
    return {a.text: a for a in menu}


def end_hand(match: Match) -> str:
    """Score the hand, count it, start the next one (or end the match); the text to tell."""
    totals = match.table.totals()
    winner = match.table.winner()
    match.results.append(HandResult(match.hand, totals, winner))
    score = f"Hand {match.hand}: Moors {totals['moors']}, Christians {totals['christians']}."
    if winner is None:
        said = f"{score} A tie: neither side wins the hand."
    else:
        match.wins[winner] += 1
        said = f"{score} The {SIDE_NAMES[winner]} win the hand."
    said += f" Hands won: Moors {match.wins['moors']}, Christians {match.wins['christians']}."
    if winner is not None and match.wins[winner] >= HANDS_TO_WIN:
        match.winner = winner
        return f"{said} The {SIDE_NAMES[winner]} win the match."
    match.hand += 1
    match.table = Table(match.deck)
    return f"{said} Clear the table for hand {match.hand}."


class Simancas:
    """The Game interface for the Battle of Simancas."""

    id = "simancas"
    title = "Battle of Simancas"
    rules_version = 1

    def new_state(self, seed: int, config: dict[str, Any]) -> Match:
        # No dice and no shuffling in the app: the seed changes nothing.
        return new_match()

    def procedure(self, state: Match) -> Procedure:
        while state.winner is None:
            menu = actions(state.table)
            picked = yield Choose(list(menu), why=f"Hand {state.hand}: what happens on the table?")
            action = menu[picked]
            if action.kind == "end":
                yield Tell(end_hand(state))
            elif action.kind == "restore":
                state.table.restore(action.card)
            elif action.kind == "tactic":
                assert action.side is not None
                state.table.tactic(action.side, action.by, action.card)
            else:
                assert action.side is not None
                targets = yield from self._targets(state.table, action.side, action.card)
                for reminder in state.table.place(action.side, action.card, targets):
                    yield Tell(reminder)
        return self.summary(state)

    def _targets(self, table: Table, side: Side, name: str) -> Procedure:
        """Ask which enemy troops an on-placement destroy (Rout) discards: the placing player chooses."""
        card = table.deck.card(name)
        chosen: list[str] = []
        for _ in range(table.destroys_on_placement(card)):
            left = [t for t in table.rout_targets(side) if t not in chosen]
            if not left:
                break
            why = f"{card.name}: which {ADJECTIVES[other(side)]} troop do the {SIDE_NAMES[side]} discard from the table?"
            chosen.append((yield Choose(left, why=why)))
        return chosen

    def snapshot(self, state: Match) -> dict[str, Any]:
        table = state.table
        return {
            "hand": state.hand,
            "wins": dict(state.wins),
            "hands": [r.to_json() for r in state.results],
            "table": {side: list(table.placed[side]) for side in SIDES},
            "destroyed": [d.to_json() for d in table.destroyed],
            "totals": table.totals(),
            "winner": state.winner,
        }

    def where(self, state: Match) -> tuple[int | None, str | None]:
        return state.hand, "Battle Phase"

    def summary(self, state: Match) -> str:
        m, c = state.wins["moors"], state.wins["christians"]
        if state.winner is not None:
            loser = m if state.winner == "christians" else c
            return f"The {SIDE_NAMES[state.winner]} won the match, {HANDS_TO_WIN} hands to {loser}."
        t = state.table.totals()
        return f"Hand {state.hand}; hands won Moors {m}, Christians {c}; on the table {t['moors']} to {t['christians']}."


GAME = Simancas()
