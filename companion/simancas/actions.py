"""The actions of a Simancas hand as structure: each option of the match's menu is an
``Action``, and the option's text is made from it (``Action.text``).

The menu's options are plain strings because the log stores the answer as the option's
text. Code outside the engine that needs to know what an option does (whose action it
is, a placement or a tactic, which card) asks ``action_of`` for the Action behind the
text instead of reading the sentence: the engine keeps its wording to itself.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from functools import cache
from typing import Literal

from companion.simancas.cards import TYPE_NAMES, Deck, default_deck
from companion.simancas.table import SIDE_NAMES, SIDES, TACTICS, Side, Table, other

#: An option of the menus of matches recorded before rules version 3, kept so that their logs
#: still read as actions: a hand ends now when both sides have passed.
END = "End the hand"
RESHUFFLE = "Reshuffle the discard pile (the deck ran out)"

ActionKind = Literal["place", "tactic", "draw", "pass", "restore", "end", "reshuffle", "search"]

#: The tactical effects that destroy nothing (BATTLE PHASE): the type discarded -> what it does.
#: "Discard a Leader to draw 2 cards", "Discard a Strategy card to draw 1 card and look at your
#: opponent's hand".
DRAW_TACTICS: dict[str, str] = {"L": "draw 2 cards", "S": "draw 1 card and look at the {enemy}' hand"}


@dataclass(frozen=True)
class Action:
    """One legal action on the table: place a card, discard a type to destroy a card, discard
    a Leader or a Strategy card for a tactic that destroys nothing (``draw``), pass (the side
    has finished playing cards this hand), restore a card destroyed by mistake, reshuffle the
    discard pile (the deck ran out), or, in the Strategy Phase, discard a Weapon to search the
    discard pile (``search``). ``end`` (end the hand) is offered no more: old logs have it."""

    kind: ActionKind
    side: Side | None = None  # who acts; None for a restore, the reshuffle and the end of the hand
    card: str = ""  # the card placed, the card the tactic destroys, or the card restored
    by: str = ""  # the type letter discarded for a tactic (a destroying one or a draw), or 'W'

    @property
    def text(self) -> str:
        """The option as the menu offers it and the log stores it."""
        if self.kind == "end":
            return END
        if self.kind == "reshuffle":
            return RESHUFFLE
        if self.kind == "restore":
            return f"Restore {self.card}"
        assert self.side is not None
        if self.kind == "place":
            return f"{SIDE_NAMES[self.side]} place {self.card}"
        if self.kind == "pass":
            return f"{SIDE_NAMES[self.side]} pass"
        if self.kind == "search":
            return f"{SIDE_NAMES[self.side]} discard {TYPE_NAMES[self.by]} to search the discard pile"
        if self.kind == "draw":
            does = DRAW_TACTICS[self.by].format(enemy=SIDE_NAMES[other(self.side)])
            return f"{SIDE_NAMES[self.side]} discard {TYPE_NAMES[self.by]} to {does}"
        return f"{SIDE_NAMES[self.side]} discard {TYPE_NAMES[self.by]} to destroy {self.card}"


def actions(
    table: Table, passed: Collection[Side] = (), searching: Collection[Side] = ()
) -> dict[str, Action]:
    """Every legal action now, text -> action, in a stable order.

    The Moors' (they play first) before the Christians', for each side that has not passed
    (``passed``: it has "finished playing cards"): its Weapon's search if it may still make
    it (``searching``: the Strategy Phase comes before the Battle), its placements in deck
    order, then its tactics (the Moors' cards as targets first, each side's in deck order,
    then the type discarded in the rulebook's order), then its two tactics that destroy
    nothing (Leader, Strategy), then its pass; then the reshuffle while the discard pile
    holds a card the app knows of; then a restore of each destroyed card, in the order
    destroyed. No "End the hand": the hand ends when both sides have passed. The list depends
    on the table (its pile too), the passes and the searches only, not on how they were reached.
    """
    menu: list[Action] = []
    tactics = table.tactic_options()
    for side in SIDES:
        if side in passed:
            continue
        if side in searching:
            menu.append(Action("search", side, "", "W"))
        menu.extend(Action("place", side, name) for name in table.placeable(side))
        menu.extend(Action("tactic", side, target, by) for by, target in tactics)
        menu.extend(Action("draw", side, "", by) for by in DRAW_TACTICS)
        menu.append(Action("pass", side))
    if len(table.pile):
        menu.append(Action("reshuffle"))
    menu.extend(Action("restore", None, d.card) for d in table.destroyed)
    return {a.text: a for a in menu}


def actions_v2(table: Table, passed: Collection[Side] = ()) -> dict[str, Action]:
    """The menu of a hand played under rules version 2, as those rules offered it, so that a
    match begun under them replays as it was recorded (docs/design.md, "Rules versions"):
    for each side, a passed one too, its placements, tactics and two draw tactics, then its
    pass unless it has passed; then the restores; "End the hand" last. No Weapon's search
    and no reshuffle: those rules recorded neither."""
    menu: list[Action] = []
    tactics = table.tactic_options()
    for side in SIDES:
        menu.extend(Action("place", side, name) for name in table.placeable(side))
        menu.extend(Action("tactic", side, target, by) for by, target in tactics)
        menu.extend(Action("draw", side, "", by) for by in DRAW_TACTICS)
        if side not in passed:
            menu.append(Action("pass", side))
    menu.extend(Action("restore", None, d.card) for d in table.destroyed)
    menu.append(Action("end"))
    return {a.text: a for a in menu}


@cache
def catalogue(deck: Deck) -> dict[str, Action]:
    """Every action any table of ``deck`` can offer, by its text.

    Built from the same Actions as the menu, so looking a text up here is the exact
    inverse of ``Action.text``: nothing is parsed.
    """
    every: list[Action] = []
    for side in SIDES:
        every.extend(Action("place", side, card.name) for card in deck.cards)
        every.extend(
            Action("tactic", side, card.name, by)
            for card in deck.cards
            for by, wants in TACTICS.items()
            if card.counts_as(wants)
        )
        every.extend(Action("draw", side, "", by) for by in DRAW_TACTICS)
        every.append(Action("pass", side))
        every.append(Action("search", side, "", "W"))
    every.extend(Action("restore", None, card.name) for card in deck.cards)
    every.append(Action("reshuffle"))
    every.append(Action("end"))
    return {a.text: a for a in every}


@cache
def _shipped_catalogue() -> dict[str, Action]:
    """The catalogue of the shipped deck, kept apart: looking a Deck up in ``catalogue``'s cache
    hashes its every card, far longer than the lookup itself."""
    return catalogue(default_deck())


def action_of(text: str, deck: Deck | None = None) -> Action | None:
    """The action an option of the match's menu stands for; None for a text that is no
    action (a card name, the answer to Rout's question or to the Weapon's search)."""
    return (catalogue(deck) if deck is not None else _shipped_catalogue()).get(text)
