"""The Battle of Simancas match as a prompt procedure: the GAME object the driver runs.

The players play their cards on the table; the app records what lands there and
does the sums. Each step is one Choose whose options are the legal actions as
plain strings ("Moors place Jund Cavalry", "Christians discard Terrain to destroy
Jund Cavalry", "Restore Jund Cavalry" for a destroy made by mistake, "Moors pass",
"Reshuffle the discard pile (the deck ran out)", and at a hand's start "Moors discard Weapon
to search the discard pile"); Rout's target and the Weapon's find are second Chooses;
on-placement effects the players carry out (draws, discards) are Tells. When both sides have
passed ("finished playing cards") the hand is scored: the totals and the winner are told and
the table is cleared; the first side to win 5 hands wins.

Turn order is not enforced: the app sees only the table, not whose turn it is, and no total
depends on the order the cards came down. The menu says whose turn the app reckons it is
(``data["side"]``), so that the screen can offer that side's actions first. A side that has
passed has finished: none of its actions is offered any more.

The match keeps the discard pile as far as the app knows it (companion/simancas/pile.py, kept
by the table as cards move; the reshuffle and the Weapon's search recorded here).

Every prompt has a topic (``ACTION_TOPIC``, ``ROUT_TOPIC``, ``SEARCH_TOPIC``,
``RESULT_TOPIC``, ``REMINDER_TOPICS``), its facts as data and the rulebook section it follows;
what an option of the menu does is ``companion.simancas.actions.action_of``.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from companion.interface import Asks, EarlierRules, Procedure, whole_setting
from companion.prompts import Choose, Tell
from companion.simancas import guide
from companion.simancas.actions import END as END  # the option that ended a hand before rules version 3
from companion.simancas.actions import Action, actions, actions_v2
from companion.simancas.cards import TROOPS, TYPE_NAMES, Card, Deck, default_deck
from companion.simancas.pile import Gone as Gone  # a card in the discard pile, importable with the match
from companion.simancas.pile import Pile
from companion.simancas.table import ADJECTIVES, SIDE_NAMES, SIDES, Reminder, Side, Table, other
from companion.simancas.topics import TOPICS

HANDS_TO_WIN = 5  # "The first player to win 5 hands is the winner."

# The topics of the match's prompts (companion/prompts.py): code outside the engine tells
# the prompts apart by these, never by their wording.
if TYPE_CHECKING:
    from companion.interface import Step

ACTION_TOPIC = "simancas.turn.action"
ROUT_TOPIC = "simancas.placement.rout_target"
SEARCH_TOPIC = "simancas.strategy.search"
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
SEARCH_RULE = (
    "Strategy Phase — Discard a Weapon card search for a Cavalry, Skirmisher, or Infantry card "
    "in the Discard pile and put it in your hand"
)
#: The Weapon's search, the option for a card the app does not know is in the pile (one
#: discarded from a hand), or for none found: what the app knows of the pile stays as it is.
UNSEEN = "A card the app did not see discarded, or none"
#: The actions of the Battle itself: the first one ends the Strategy Phase of the hand.
BATTLE_KINDS = frozenset({"place", "tactic", "draw", "pass"})


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
    # The sides that have passed this hand, in the order they passed (they have "finished
    # playing cards"); when both have, the hand is scored.
    passed: list[Side] = field(default_factory=list)
    # Whether the Battle of this hand has begun (a card placed or discarded, a pass): the
    # Strategy Phase, and its Weapon's search, is over.
    begun: bool = False
    # The sides that made the Weapon's search this hand ("Each player may discard one card to
    # get its Strategic effect").
    searched: list[Side] = field(default_factory=list)
    # The guide (companion/simancas/guide.py): each hand's phases told as steps. Off unless
    # the session's config turns it on, or a correction by hand does during the match.
    guide: bool = False
    # The hand whose opening the procedure has passed (its preliminaries told, or not told
    # with the guide off): a guide turned on mid-hand waits for the next hand's Fate.
    opened: int = 0
    # The phase whose instruction waits (guide.PHASE_TITLES), for the log; the Battle else.
    phase: str = "battle"
    # Whether the first hand's Fate Phase says the rulebook's SETUP ("Shuffle the deck."): a
    # new match's config "setup"; matches recorded before it have none. Not in the snapshot.
    setup: bool = False
    # The hands numbered below this one are played under rules version 2 (a match begun under
    # them: its log replays as recorded, and it goes on under the current rules from a later
    # hand, ``Simancas.going_on``); 0 for a match of the current rules. Not in the snapshot.
    v2_until: int = 0
    # The discard pile as rules version 2 kept it while its hands are played (every card it saw
    # go there, none taken out but by a restore), the picture of the pile its snapshots had: a
    # match begun under them replays to the states it recorded. None under the current rules.
    v2_pile: list[Gone] | None = None


def match_changes(now: Match, back: Match, *, undo: bool = True) -> list[str]:
    """What to change on the table to go from ``now`` to ``back``: cards placed, destroyed,
    the hands won. ``undo``: ``back`` is how the table was ("put back", "again"); otherwise
    it is new (a correction, a redo)."""
    again = " again" if undo else ""
    out: list[str] = []
    for side in SIDES:
        was, is_ = back.table.placed[side], now.table.placed[side]
        name = SIDE_NAMES[side]
        out += [f"{name}: take {card} off the table" for card in is_ if card not in was]
        out += [
            f"{name}: put {card}{' back' if undo else ''} on the table" for card in was if card not in is_
        ]
    was_gone = {d.card for d in back.table.destroyed}
    is_gone = {d.card for d in now.table.destroyed}
    out += [
        f"{card} is not destroyed: {'back ' if undo else ''}in play" for card in sorted(is_gone - was_gone)
    ]
    out += [f"{card} is destroyed{again}" for card in sorted(was_gone - is_gone)]
    if back.wins != now.wins:
        out.append(
            f"Hands won: {'back to' if undo else 'now'} Moors {back.wins['moors']}, Christians {back.wins['christians']}"
        )
    return out


def new_match(deck: Deck | None = None) -> Match:
    deck = deck or default_deck()
    return Match(deck, Table(deck))


def pile_of(match: Match) -> Pile:
    """The match's discard pile (the table keeps it, the same from hand to hand)."""
    return match.table.pile


def may_search(match: Match) -> list[Side]:
    """The sides that may make the Weapon's search now: the Strategy Phase ("Discard a Weapon
    card search for a Cavalry, Skirmisher, or Infantry card in the Discard pile") comes before
    the Battle, one strategic discard a side."""
    if match.begun:
        return []
    return [side for side in SIDES if side not in match.searched]


def under_v2(match: Match) -> bool:
    """Whether the hand in play is one of a match begun under rules version 2 played under them."""
    return match.hand < match.v2_until


def menu_of(match: Match) -> dict[str, Action]:
    """The match's menu now: ``actions`` of its table, its passes and its Strategy Phase (in a
    hand played under rules version 2, the menu those rules offered)."""
    if under_v2(match):
        return actions_v2(match.table, match.passed)
    return actions(match.table, match.passed, may_search(match))


def menu_after(match: Match) -> dict[str, Action]:
    """The menu that follows the instruction waiting now: the next hand's first menu while the
    hand's result (or its Retreat) waits, else this hand's."""
    if match.winner is None and match.results and match.results[-1].number == match.hand:
        ahead = copy.deepcopy(match, {id(match.deck): match.deck})  # the deck is shared, never changed
        next_hand(ahead)
        return menu_of(ahead)
    return menu_of(match)


def to_play_after(match: Match, action: Action) -> Side:
    """Whose turn it is after ``action``: the other side's after a side's action, unless the
    other side has passed, when the side that has not passed plays on alone. A restore names
    no side, so nothing says whose turn follows it: the Moors are offered first then (the
    Christians if the Moors have passed), as the screen has always done. The reshuffle and the
    Weapon's search (Strategy Phase) are no turn of the Battle: the side to play stays."""
    if action.kind in ("reshuffle", "search"):
        return match.to_play
    if action.kind == "end":  # rules version 2: the Moors open the next hand
        return "moors"
    if action.side is None:
        return "christians" if "moors" in match.passed and "christians" not in match.passed else "moors"
    them = other(action.side)
    if them in match.passed:
        return action.side
    return them


def search_options(match: Match) -> list[tuple[str, str]]:
    """The Weapon's search: (option, code) for each card it may take from the pile as the app
    knows it: each Cavalry, Skirmisher or Infantry card there by name (its name both), then one
    for the cards of a type known only by it that may be one ('A Cavalry card discarded for a
    tactic', 'tactic:C'; a Leader may be Nobility), then one for a card the app did not see
    discarded, or none found (``UNSEEN``, 'unseen')."""
    pile = pile_of(match)
    deck = match.deck
    out = [(name, name) for name in pile.named() if TROOPS & set(deck.card(name).types)]
    for letter in dict.fromkeys(g.card_type for g in pile.entries if not g.card):
        troops = [c.name for c in deck.cards if c.counts_as(letter) and TROOPS & set(c.types)]
        if not troops:
            continue
        said = f"A {TYPE_NAMES[letter]} card discarded for a tactic"
        if letter not in TROOPS:  # a Leader may be Nobility, "Also counts as Leader"
            said += f", if it was {' or '.join(troops)}"
        out.append((said, f"tactic:{letter}"))
    return [*out, (UNSEEN, "unseen")]


def take_found(match: Match, code: str) -> None:
    """The Weapon's find leaves the pile: ``code`` is a card's name, 'tactic:<type>' or 'unseen'."""
    pile = pile_of(match)
    if code.startswith("tactic:"):
        pile.take_type(code.removeprefix("tactic:"))
    elif code != "unseen":
        pile.take(code)


def end_hand(match: Match) -> str:
    """Score the hand and count it (or end the match); the text to tell. The table stays as
    it was until ``next_hand``: the result is read with the hand's cards still shown."""
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
    return f"{said} Clear the table for hand {match.hand + 1}."


def next_hand(match: Match) -> None:
    """The Retreat: the placed cards still in play go to the discard pile (the destroyed ones
    are there already); a new, empty table, with the same pile."""
    table = match.table
    for side in SIDES:
        for card in table.in_play(side):
            gone = Gone(card.name, card.types[0], "retreat", side, match.hand)
            table.pile.add(gone)
            if match.v2_pile is not None and under_v2(match):
                match.v2_pile.append(gone)
    match.hand += 1
    match.table = Table(match.deck, pile=table.pile, hand=match.hand)
    match.passed = []
    match.to_play = "moors"
    match.begun = False
    match.searched = []


def keep_v2_pile(match: Match, action: Action, targets: Sequence[str] = ()) -> None:
    """The pile as rules version 2 kept it (``Match.v2_pile``) after ``action`` (the table has
    changed already; ``targets`` the cards a placement's Rout destroyed), in a hand played under
    them: a card discarded for a tactic and a card destroyed go there, a restore takes the
    destroyed card out."""
    pile = match.v2_pile
    if pile is None or not under_v2(match):
        return
    if action.kind in ("tactic", "draw"):
        assert action.side is not None
        pile.append(Gone("", action.by, "tactic", action.side, match.hand))
    if action.kind == "tactic":
        owner = match.table.owner(action.card)
        assert owner is not None
        card = match.deck.card(action.card)
        pile.append(Gone(card.name, card.types[0], "destroyed", owner, match.hand))
    if action.kind == "restore":
        pile[:] = [g for g in pile if not (g.card == action.card and g.how == "destroyed")]
    if action.kind == "place":
        assert action.side is not None
        for target in targets:
            card = match.deck.card(target)
            pile.append(Gone(card.name, card.types[0], "destroyed", other(action.side), match.hand))


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


RULES_VERSION = 3
#: The setting of a match begun under rules version 2 that goes on under the current rules:
#: the first hand played under them (``going_on``).
V2_UNTIL = "current_rules_from_hand"
NEVER = 10**9  # a hand no match reaches: every hand played under rules version 2


def current_from(config: dict[str, Any]) -> int | None:
    """The first hand ``config`` plays under the current rules (``V2_UNTIL``), if it names one."""
    return whole_setting(config, V2_UNTIL)


def going_on(state: Any, config: dict[str, Any]) -> list[tuple[dict[str, Any], str]] | None:
    """Where a match begun under rules version 2, its log replayed as recorded, goes on under the
    current rules: from the hand in play if nothing of it was asked under the old rules (the
    store checks it: the whole log must still replay to the states it recorded), else from the
    next hand, the hand in play ending under the rules it began under. Each as the settings
    that say so and the sentence that tells the player; None when the settings already name
    the hand."""
    if current_from(config) is not None:
        return None
    match: Match = state
    now = (
        f"the current rules (version {RULES_VERSION}): a side that has passed is offered nothing, "
        "both passes end the hand, and the reshuffle and the Weapon's search are recorded."
    )
    begun = "This match was begun under earlier rules (version 2) and replays as it was recorded"
    return [
        (
            {**config, V2_UNTIL: match.hand},
            f"{begun}; from this hand (hand {match.hand}) on it is played under {now}",
        ),
        (
            {**config, V2_UNTIL: match.hand + 1},
            (
                f'{begun}; hand {match.hand} ends under them ("End the hand" is offered, and a side that '
                f"has passed may play again), and from hand {match.hand + 1} on it is played under {now}"
            ),
        ),
    ]


class Simancas:
    """The Game interface for the Battle of Simancas."""

    id = "simancas"
    title = "Battle of Simancas"
    # 2: a pass and the tactics that destroy nothing are recorded steps, both passes end the
    # hand, and the hand's result is told before its table is cleared.
    # 3: the discard pile is the rulebook's (the reshuffle and the Weapon's search recorded, a
    # card placed again leaves it, one destroyed and reshuffled back may be placed again); a
    # side that has passed is offered nothing; "End the hand" is gone: both passes end it.
    rules_version = RULES_VERSION
    #: No dice and nothing typed: the cards decide, and the player picks from them.
    asks = Asks(TOPICS)
    #: The one correction by hand: the guide on or off (guide.apply_guide).
    apply_edit = staticmethod(guide.apply_guide)

    def __init__(self, rules_version: int = RULES_VERSION) -> None:
        # ``rules_version`` 2: the game as it played a match begun under that version
        # (``earlier_rules``); its hands before the setting ``V2_UNTIL`` are played under it.
        self.rules_version = rules_version

    def earlier_rules(self, version: int) -> EarlierRules | None:
        """The match as rules version 2 played it, for the matches begun under it: its menus
        (``actions_v2``) until the hand its settings name, then the current ones. Version 1
        (passes and draw tactics not recorded) is not played: its matches replay as far as
        their logs fit the current rules."""
        if version != 2 or self.rules_version != RULES_VERSION:
            return None
        return EarlierRules(Simancas(2), going_on)

    @staticmethod
    def board_changes(now: Match, back: Match, *, undo: bool = True) -> list[str]:
        """The cards to take off the table and to put (back), side by side, the destroyed ones
        and the hands won (after an undo the table of an ended hand comes back whole)."""
        return match_changes(now, back, undo=undo)

    @staticmethod
    def undo_from(steps: Sequence[Step], automatic_dice: bool) -> int | None:
        """One ctrl+z takes back the last action on the table (the answer to the turn's menu),
        with the reminders and questions that followed it."""
        return next((i for i in range(len(steps) - 1, -1, -1) if steps[i].prompt.topic == ACTION_TOPIC), None)

    def new_state(self, seed: int, config: dict[str, Any]) -> Match:
        # No dice and no shuffling in the app: the seed changes nothing. A config without
        # "guide" (every session recorded before the guide) plays unguided.
        match = new_match()
        match.guide = config.get("guide") is True
        match.setup = config.get("setup") is True
        if self.rules_version == 2:
            match.v2_until = current_from(config) or NEVER
            match.v2_pile = []
        return match

    def _told(self, state: Match, tell: Tell) -> Procedure:
        """One instruction of the guide, with the phase it belongs to for the log."""
        state.phase = tell.data["phase"]
        yield tell
        state.phase = "battle"

    def procedure(self, state: Match) -> Procedure:
        while state.winner is None:
            if state.opened != state.hand:
                state.opened = state.hand
                opening = guide.preliminaries(
                    state.hand, shuffle=state.setup and state.hand == 1, v2=under_v2(state)
                )
                for tell in opening:
                    if state.guide:  # read at each step: turned off, the rest are not told
                        yield from self._told(state, tell)
            menu = menu_of(state)
            picked = yield Choose(
                list(menu),
                why=f"Hand {state.hand}: what happens on the table?",
                topic=ACTION_TOPIC,
                data={"hand": state.hand, "side": state.to_play, "passed": list(state.passed)},
                rule=BATTLE_RULE,
            )
            action = menu[picked]
            if action.kind in BATTLE_KINDS:
                state.begun = True
            if action.side in state.passed and action.kind != "pass":
                # Only rules version 2 offered it: a side that passed and played again was
                # back in the hand.
                state.passed.remove(action.side)
            if action.kind == "pass":
                assert action.side is not None
                state.passed.append(action.side)
            state.to_play = to_play_after(state, action)
            table = state.table
            if action.kind == "end" or len(state.passed) == len(SIDES):
                # "When both players have finished playing cards add up the Force value" (or
                # "End the hand", offered under rules version 2).
                said = end_hand(state)
                yield Tell(said, topic=RESULT_TOPIC, data=result_data(state), rule=result_rule(state))
                if state.winner is None:
                    if state.guide:
                        yield from self._told(state, guide.retreat(state.hand))
                    next_hand(state)
            elif action.kind == "restore":
                table.restore(action.card)
                keep_v2_pile(state, action)
            elif action.kind == "tactic":
                assert action.side is not None
                table.tactic(action.side, action.by, action.card)
                keep_v2_pile(state, action)
            elif action.kind == "draw":
                assert action.side is not None
                table.discard(action.side, action.by, "tactic")
                keep_v2_pile(state, action)
            elif action.kind == "reshuffle":
                table.pile.reshuffle()
            elif action.kind == "search":
                assert action.side is not None
                state.searched.append(action.side)
                table.discard(action.side, action.by, "strategy")
                yield from self._search(state, action.side)
            elif action.kind == "place":
                assert action.side is not None
                targets = yield from self._targets(table, action.side, action.card)
                for reminder in table.place_reminding(action.side, action.card, targets):
                    yield reminder_tell(state.deck.card(reminder.card), reminder)
                keep_v2_pile(state, action, targets)
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

    def _search(self, state: Match, side: Side) -> Procedure:
        """The Weapon's search: which card the side takes from the discard pile; it leaves the pile."""
        found = search_options(state)
        why = (
            f"{SIDE_NAMES[side]}' Weapon: which Cavalry, Skirmisher or Infantry card do they take "
            "from the discard pile?"
        )
        picked = yield Choose(
            [text for text, _ in found],
            why=why,
            topic=SEARCH_TOPIC,
            data={"side": side, "options": [code for _, code in found]},
            rule=SEARCH_RULE,
        )
        take_found(state, dict(found)[picked])

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
            "passed": list(state.passed),
            "discard_pile": (
                [g.to_json() for g in state.v2_pile]
                if state.v2_pile is not None and under_v2(state)
                else pile_of(state).to_json()
            ),
            # Only when on: the picture of an unguided match is the one it has always been.
            **({"guide": True} if state.guide else {}),
        }

    def where(self, state: Match) -> tuple[int | None, str | None]:
        return state.hand, guide.PHASE_TITLES[state.phase]

    def summary(self, state: Match) -> str:
        m, c = state.wins["moors"], state.wins["christians"]
        if state.winner is not None:
            loser = m if state.winner == "christians" else c
            return f"The {SIDE_NAMES[state.winner]} won the match, {HANDS_TO_WIN} hands to {loser}."
        t = state.table.totals()
        if state.results and state.results[-1].number == state.hand:
            # The hand's result is told and waits to be confirmed; its table is still out.
            return f"Hand {state.hand} is over; hands won Moors {m}, Christians {c}."
        return f"Hand {state.hand}; hands won Moors {m}, Christians {c}; on the table {t['moors']} to {t['christians']}."


GAME = Simancas()
