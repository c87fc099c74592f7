"""The guide of a Battle of Simancas hand: the rulebook's phases told as steps to confirm.

With the guide on, each hand opens with three instructions (FATE PHASE: deal 9 cards
each; RESERVE PHASE: discard up to 4 and draw; STRATEGY PHASE: one discard each for its
strategic effect, the Moors first, with the effect of every type), then one for the
BATTLE PHASE before its menu; after the hand's result, RETREAT PHASE: both discard their
hands. Each is a Tell: Enter confirms it, whether the players did it or chose not to (the
Reserve and the Strategy are "may"); a card typed while one waits confirms every one
waiting and is taken as the first action of the Battle.

The setting is ``Match.guide``: the session's config ``{"guide": true}`` turns it on at the
start (no key: off, so every match recorded before the guide replays as it was), and a
correction by hand ``{"guide": true|false}`` (``apply_guide``) turns it on or off during the
match, logged and replayed in its place. Turned on, it starts with the next step it would
tell (the Retreat of the hand in play, then the next hand's Fate); turned off, the
instruction already waiting stays, and no further one is told.
"""

from __future__ import annotations

from typing import Any

from companion.prompts import Tell

HAND_SIZE = 9  # FATE PHASE: "Each player is dealt 9 cards."
RESERVE_MAX = 4  # RESERVE PHASE: "Each player may discard up to 4 cards"

#: The topic of each phase's instruction, by the phase.
GUIDE_TOPICS: dict[str, str] = {
    "fate": "simancas.guide.fate",
    "reserve": "simancas.guide.reserve",
    "strategy": "simancas.guide.strategy",
    "battle": "simancas.guide.battle",
    "retreat": "simancas.guide.retreat",
}

#: What ``GAME.where`` reports while a phase's instruction waits: the rulebook's headings.
PHASE_TITLES: dict[str, str] = {
    "fate": "Fate Phase",
    "reserve": "Reserve Phase",
    "strategy": "Strategy Phase",
    "battle": "Battle Phase",
    "retreat": "Retreat Phase",
}

#: STRATEGY PHASE, "Strategic Effects", type by type in the rulebook's order (the type letter
#: of the card list and the effect, nearly word for word).
STRATEGIC_EFFECTS: tuple[tuple[str, str], ...] = (
    ("L", "draw 3 cards and discard any 2"),
    ("S", "look at the next 5 cards in the deck and keep one"),
    ("T", "draw 2 cards"),
    ("C", "draw a card and look at your opponent's hand"),
    ("K", "your opponent discards a random card from his hand"),
    ("I", "no strategic effect"),
    ("W", "search the discard pile for a Cavalry, Skirmisher or Infantry card and put it in your hand"),
)
_TYPE_WORDS = {
    "L": "Leader",
    "S": "Strategy",
    "T": "Terrain",
    "C": "Cavalry",
    "K": "Skirmisher",
    "I": "Infantry",
    "W": "Weapon",
}


def _tell(phase: str, text: str, hand: int, rule: str, **facts: Any) -> Tell:
    return Tell(text, topic=GUIDE_TOPICS[phase], data={"hand": hand, "phase": phase, **facts}, rule=rule)


def fate(hand: int, shuffle: bool = False) -> Tell:
    """The Fate Phase; ``shuffle``: the match's first, after the rulebook's SETUP ("Shuffle
    the deck."), said with it."""
    if shuffle:
        return _tell(
            "fate",
            f"Setup: shuffle the deck. Then hand {hand}, Fate Phase: deal {HAND_SIZE} cards to each player.",
            hand,
            "SETUP — Shuffle the deck; Fate Phase — Each player is dealt 9 cards",
            cards=HAND_SIZE,
            shuffle=True,
        )
    return _tell(
        "fate",
        f"Hand {hand}, Fate Phase: deal {HAND_SIZE} cards to each player.",
        hand,
        "Fate Phase — Each player is dealt 9 cards",
        cards=HAND_SIZE,
    )


def reserve(hand: int, v2: bool = False) -> Tell:
    """The Reserve Phase (``v2``: as rules version 2 told it, which recorded no reshuffle)."""
    said = "" if v2 else " (type reshuffle to record it)"
    return _tell(
        "reserve",
        f"Reserve Phase: each player may discard up to {RESERVE_MAX} cards and draw as many; "
        f"if the deck runs out, shuffle the discard pile and draw from it{said}.",
        hand,
        "Reserve Phase — Each player may discard up to 4 cards and draw replacements",
        max_discard=RESERVE_MAX,
        reshuffle=True,
    )


def strategy(hand: int) -> Tell:
    effects = "; ".join(f"{_TYPE_WORDS[t]}: {e}" for t, e in STRATEGIC_EFFECTS)
    return _tell(
        "strategy",
        "Strategy Phase: each player may discard one card for its strategic effect, the Moors first. "
        f"{effects}.",
        hand,
        "Strategy Phase — Each player may discard one card to get its Strategic effect",
        first="moors",
        effects=[{"type": t, "effect": e} for t, e in STRATEGIC_EFFECTS],
    )


def battle(hand: int, v2: bool = False) -> Tell:
    """The Battle Phase (``v2``: as rules version 2 told it, with "End the hand" on its menu)."""
    passes = (
        ""
        if v2
        else " A side that has finished, or has no card left, passes; the hand is scored when both have."
    )
    return _tell(
        "battle",
        "Battle Phase: the players take turns, the Moors first, placing a card or discarding one "
        f"for its tactic; type each card as it lands.{passes}",
        hand,
        "Battle Phase — Players take turns either",
        first="moors",
    )


def retreat(hand: int) -> Tell:
    return _tell(
        "retreat",
        "Retreat Phase: both players discard all the cards left in their hands.",
        hand,
        "Retreat Phase — Both players discard all remaining cards in their hands",
    )


def preliminaries(hand: int, shuffle: bool = False, v2: bool = False) -> tuple[Tell, ...]:
    """The instructions that open a hand, in the rulebook's order, up to the Battle's menu
    (``shuffle``: the match's setup first; ``v2``: a hand played under rules version 2)."""
    return fate(hand, shuffle), reserve(hand, v2), strategy(hand), battle(hand, v2)


def guide_change(on: bool) -> dict[str, Any]:
    """The correction by hand that turns the guide on or off (``apply_guide`` applies it)."""
    return {"guide": on}


def guide_what(on: bool) -> str:
    """What the log says of that correction."""
    return "Guide on: each hand's phases are told" if on else "Guide off: the phases are no longer told"


def apply_guide(state: Any, change: dict[str, Any]) -> None:
    """Turn the guide of ``state`` (a Match) on or off; ValueError for any other change."""
    if set(change) != {"guide"} or not isinstance(change["guide"], bool):
        raise ValueError("A Battle of Simancas match takes only the guide on or off by hand.")
    state.guide = change["guide"]
