"""The Battle of Simancas match as a prompt procedure: the GAME object the driver runs.

The players play their cards on the table; the app records what lands there and
does the sums. Each step is one Choose whose options are the legal actions as
plain strings ("Moors place Jund Cavalry", "Christians discard Terrain to destroy
Jund Cavalry", "Restore Jund Cavalry" for a destroy made by mistake, "End the
hand"); Rout's target is a second Choose; on-placement effects the players carry out (draws, discards) are Tells. Ending a hand tells the
totals and the winner and clears the table; the first side to win 5 hands wins.

Turn order is not enforced: the app sees only the table, not whose turn it is or
who has passed, and no total depends on the order the cards came down. The menu says
whose turn the app reckons it is (``data["side"]``), so that the screen can offer that
side's actions first.

Every prompt has a topic (``ACTION_TOPIC``, ``ROUT_TOPIC``, ``RESULT_TOPIC``,
``REMINDER_TOPICS``), its facts as data and the rulebook section it follows; what an
option of the menu does is ``companion.simancas.actions.action_of``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.games import Procedure
from companion.prompts import Choose, Tell
from companion.simancas.actions import END as END  # the menu's last option, importable with the match
from companion.simancas.actions import Action, actions
from companion.simancas.cards import Card, Deck, default_deck
from companion.simancas.table import ADJECTIVES, SIDE_NAMES, SIDES, Reminder, Side, Table, other

HANDS_TO_WIN = 5  # "The first player to win 5 hands is the winner."

# The topics of the match's prompts (companion/prompts.py): code outside the engine tells
# the prompts apart by these, never by their wording.
if TYPE_CHECKING:
    from companion.driver import Step

ACTION_TOPIC = "simancas.turn.action"
ROUT_TOPIC = "simancas.placement.rout_target"
RESULT_TOPIC = "simancas.hand.result"
#: The Tell of each on-placement reminder, by its kind (table.Reminder).
REMINDER_TOPICS: dict[str, str] = {
    "draw": "simancas.placement.draw",
    "enemy_discards": "simancas.placement.random_discard",
    "table_discard": "simancas.placement.table_discard",
    "no_troop": "simancas.placement.no_troop",
    "enemy_troop": "simancas.placement.enemy_troop",
}

# The rulebook's headings, in the words it prints them with (in capitals there).
BATTLE_RULE = "Battle Phase — Players take turns either"
CARD_LIST = "The Comon Deck Card List"  # sic: the rulebook's spelling


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
    # Whose turn the app reckons it is: the players alternate and the Moors open every hand
    # ("The Muslim player goes first"). Not enforced, and not in the snapshot: it follows
    # from the steps alone, like the rest of the match, when the steps are replayed.
    to_play: Side = "moors"


def match_changes(now: Match, back: Match) -> list[str]:
    """What to change on the table to go from ``now`` to ``back``: cards placed, destroyed,
    the hands won."""
    out: list[str] = []
    for side in SIDES:
        was, is_ = back.table.placed[side], now.table.placed[side]
        name = SIDE_NAMES[side]
        out += [f"{name}: take {card} off the table" for card in is_ if card not in was]
        out += [f"{name}: put {card} back on the table" for card in was if card not in is_]
    was_gone = {d.card for d in back.table.destroyed}
    is_gone = {d.card for d in now.table.destroyed}
    out += [f"{card} is not destroyed: back in play" for card in sorted(is_gone - was_gone)]
    out += [f"{card} is destroyed again" for card in sorted(was_gone - is_gone)]
    if back.wins != now.wins:
        out.append(f"Hands won: back to Moors {back.wins['moors']}, Christians {back.wins['christians']}")
    return out


def new_match(deck: Deck | None = None) -> Match:
    deck = deck or default_deck()
    return Match(deck, Table(deck))


def to_play_after(action: Action) -> Side:
    """Whose turn it is after ``action``: the other side's after a side's action, the
    Moors' after the end of a hand (they open every hand). A restore names no side, so
    nothing says whose turn follows it: the Moors are offered first then too, as the
    screen has always done."""
    return "moors" if action.side in (None, "christians") else "christians"


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


def card_rule(card: Card) -> str:
    """The card list's line of ``card``, for a step its effect asks for: 'The Comon Deck Card
    List — Rout: When Placed discard 1 placed Enemy Troop'."""
    notes = card.notes.strip()
    return f"{CARD_LIST} — {card.name}" + (f": {notes}" if notes and notes != "-" else "")


def reminder_tell(card: Card, reminder: Reminder) -> Tell:
    """The Tell of an on-placement reminder: who does what, because of which card."""
    data: dict[str, Any] = {"side": reminder.side, "card": reminder.card}
    if reminder.kind in ("draw", "enemy_discards"):
        data["count"] = reminder.count
    if reminder.kind == "table_discard":
        data["target"] = reminder.target
    return Tell(reminder.text, topic=REMINDER_TOPICS[reminder.kind], data=data, rule=card_rule(card))


def result_data(match: Match) -> dict[str, Any]:
    """The facts of the hand just ended (``end_hand`` has counted it)."""
    last = match.results[-1]
    return {
        "hand": last.number,
        "totals": dict(last.totals),
        "winner": last.winner,
        "wins": dict(match.wins),
        "match_winner": match.winner,
    }


def result_rule(match: Match) -> str:
    """The rule the hand's result follows: the match won, the hand won, or a tie."""
    if match.winner is not None:
        return "Victory — The first player to win 5 hands is the winner"
    if match.results[-1].winner is None:
        return "Battle Phase — In case of a tie, neither player wins"
    return "Battle Phase — The higher Force value wins the hand"


class Simancas:
    """The Game interface for the Battle of Simancas."""

    id = "simancas"
    title = "Battle of Simancas"
    rules_version = 1
    #: No corrections by hand.
    apply_edit = None

    @staticmethod
    def board_changes(now: Match, back: Match) -> list[str]:
        """The cards to take off the table and to put back after an undo, side by side, the
        destroyed ones and the hands won (the table of an ended hand comes back whole)."""
        return match_changes(now, back)

    @staticmethod
    def undo_from(steps: Sequence[Step], automatic_dice: bool) -> int | None:
        """One ctrl+z takes back the last action on the table (the answer to the turn's menu),
        with the reminders and questions that followed it."""
        return next((i for i in range(len(steps) - 1, -1, -1) if steps[i].prompt.topic == ACTION_TOPIC), None)

    def new_state(self, seed: int, config: dict[str, Any]) -> Match:
        # No dice and no shuffling in the app: the seed changes nothing.
        return new_match()

    def procedure(self, state: Match) -> Procedure:
        while state.winner is None:
            menu = actions(state.table)
            picked = yield Choose(
                list(menu),
                why=f"Hand {state.hand}: what happens on the table?",
                topic=ACTION_TOPIC,
                data={"hand": state.hand, "side": state.to_play},
                rule=BATTLE_RULE,
            )
            action = menu[picked]
            state.to_play = to_play_after(action)
            if action.kind == "end":
                said = end_hand(state)
                yield Tell(said, topic=RESULT_TOPIC, data=result_data(state), rule=result_rule(state))
            elif action.kind == "restore":
                state.table.restore(action.card)
            elif action.kind == "tactic":
                assert action.side is not None
                state.table.tactic(action.side, action.by, action.card)
            else:
                assert action.side is not None
                targets = yield from self._targets(state.table, action.side, action.card)
                for reminder in state.table.place_reminding(action.side, action.card, targets):
                    yield reminder_tell(state.deck.card(reminder.card), reminder)
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
            chosen.append(
                (
                    yield Choose(
                        left,
                        why=why,
                        topic=ROUT_TOPIC,
                        data={"side": side, "card": card.name},
                        rule=card_rule(card),
                    )
                )
            )
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
