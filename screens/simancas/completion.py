"""Typing an action on the Simancas screen: a few letters, matched against the legal actions.

The options of the pending Choose ("Moors place Jund Cavalry", "Christians discard
Terrain to destroy Jund Cavalry", "End the hand", or a card name for Rout) are the only
things that can be taken, so the matching can be generous: every word typed must be
found in the option, ignoring case and accents, as a whole word, the start of a word,
the initials of the option's words ("jc" is Jund Cavalry) or anywhere in it. Better
hits come first; on a tie the side whose turn it is, then the shorter option, then the
engine's order.

A tactic is a discard the player cannot take back at the table, so it is offered only
when a word typed asks for it (the start of "discard", "destroy" or the type discarded)
and not merely because the card's name was typed: "jund" never destroys Jund Cavalry.
Likewise "Restore Jund Cavalry" (a destroy made by mistake) needs "restore" typed, a
tactic that destroys nothing ("Moors discard Leader to draw 2 cards") "draw", "discard",
"look" or its type, the Weapon's search ("Moors discard Weapon to search the discard pile")
"weapon", "search" or "discard", and the reshuffle of the discard pile "reshuffle",
"shuffle", "deck" or "pile". A first word that starts a side's name ("m", "mo", "c", "chr") followed
by more words, or any word of three letters or more that does, names the side: only that
side's actions are offered ("c jund" is the Christians and Jund, so nothing, and says why).

What an option does (whose action, a tactic or a restore, which card) is the engine's
Action behind it (``companion.simancas.actions.action_of``); the option's text is only
matched against the words typed, never read for its meaning.

When nothing matches, ``explain`` says why in one sentence, asking the engine (the
placement and tactic rules) for the reason where it can: the words typed mean a card
that is already on the table, or that side may not place, or no card at all.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from companion.simancas.actions import Action, catalogue
from companion.simancas.cards import TYPE_NAMES, Card, Deck, UnknownCard, default_deck, fold
from companion.simancas.table import SIDE_NAMES, TACTICS, Side, Table, other

_WORD = re.compile(r"[a-z0-9]+")
#: Words that say what to do rather than which card: left out when a card is looked for.
_VERBS = frozenset(
    {"place", "places", "discard", "discards", "destroy", "destroys", "restore", "to", "the", "a"}
)
_TYPE_WORDS = {fold(name): letter for letter, name in TYPE_NAMES.items()}


def words(text: str) -> list[str]:
    """The words of ``text`` as they are matched: no accents, any case, letters and digits."""
    return _WORD.findall(fold(text))


@dataclass(frozen=True)
class Entry:
    """One option, prepared for matching."""

    text: str
    index: int
    words: tuple[str, ...]
    initials: str
    folded: str
    side: Side | None
    # A tactic's "discard <type> to destroy", a restore's "restore": one must be asked for.
    intent: tuple[str, ...] = ()
    target: str = ""  # a tactic's target card, folded

    @classmethod
    def of(cls, text: str, index: int, action: Action | None = None) -> Entry:
        """``text`` as offered; ``action`` the engine's Action behind it (None: a card name)."""
        ws = tuple(words(text))
        side = action.side if action else None
        intent: tuple[str, ...] = ()
        target = ""
        if action and action.kind == "tactic":
            intent = ("discard", "destroy", fold(TYPE_NAMES[action.by]))
            target = fold(action.card)
        elif action and action.kind == "draw":
            intent = ("discard", "draw", "look", fold(TYPE_NAMES[action.by]))
        elif action and action.kind == "restore":
            intent = ("restore", "undestroy", "back")
            target = fold(action.card)
        elif action and action.kind == "search":
            intent = ("discard", "weapon", "search")
        elif action and action.kind == "reshuffle":
            intent = ("reshuffle", "shuffle", "deck", "pile")
        return cls(text, index, ws, "".join(w[0] for w in ws), " ".join(ws), side, intent, target)

    def score(self, query: Sequence[str]) -> int:
        """How well every word of ``query`` is found here; 0 if one is not."""
        total = 0
        for q in query:
            s = _word_score(q, self)
            if not s:
                return 0
            total += s
        if self.intent and not any(_asks_for_tactic(q, self) for q in query):
            return 0
        return total


def _word_score(q: str, entry: Entry) -> int:
    if q in entry.words:
        return 3
    if any(w.startswith(q) for w in entry.words):
        return 2
    if len(q) >= 2 and q in entry.initials:
        return 2
    if q in entry.folded:
        return 1
    return 0


def _asks_for_tactic(q: str, entry: Entry) -> bool:
    """``q`` starts a word of the tactic's own part and is not just part of the target's name.

    One letter is not enough ("c" is more likely the Christians than Cavalry).
    """
    return len(q) >= 2 and q not in entry.target and any(w.startswith(q) for w in entry.intent)


class Matcher:
    """The options of one prompt, ready to be filtered as the player types."""

    def __init__(self, options: Sequence[str], deck: Deck | None = None, menu: bool = True) -> None:
        """``menu``: the options are the match's actions (False: Rout's card names)."""
        known = catalogue(deck or default_deck()) if menu else {}
        self.menu = menu
        self.entries = [Entry.of(o, i, known.get(o)) for i, o in enumerate(options)]

    def __len__(self) -> int:
        return len(self.entries)

    def match(self, text: str, prefer: Side | None = None) -> list[str]:
        """The options ``text`` matches, best first; for no text every option, the side to play's first.

        A side word (``side_word``: "m", "moors", "c", "chr"...) keeps that side's actions only."""
        query = words(text)
        named, query = side_word(query) if self.menu else (None, query)
        entries = [e for e in self.entries if e.side == named] if named else self.entries
        prefer = named or prefer
        if not query:
            rank = {prefer: 0, None: 2}
            return [e.text for e in sorted(entries, key=lambda e: (rank.get(e.side, 1), e.index))]
        scored = [(e.score(query), e) for e in entries]
        hits = [(s, e) for s, e in scored if s]
        # Best score; then the side whose turn it is; then the option the words cover best
        # ("light cav" is Light Cavalry before Basque Light Cavalry); then the engine's order.
        hits.sort(
            key=lambda se: (
                -se[0],
                se[1].side is not None and se[1].side != prefer,
                len(se[1].words),
                se[1].index,
            )
        )
        return [e.text for _, e in hits]


# -- why nothing matched ------------------------------------------------------------------


def _side_of(q: str) -> Side | None:
    if "moors".startswith(q) or q in ("moor", "moorish"):
        return "moors"
    if "christians".startswith(q):
        return "christians"
    return None


def side_word(query: Sequence[str]) -> tuple[Side | None, list[str]]:
    """The side the words name and the words left: a first word that starts "moors" or
    "christians" ("m", "mo", "c", "chr"...) followed by more words, or any word of three
    letters or more that does ("moo", "chr", "christian"). "c jund" is the Christians and
    Jund, never Jund Cavalry by its initials; "c" or "ch" alone stays a word to match
    (Cavalry, Charge)."""
    for i, q in enumerate(query):
        side = _side_of(q)
        if side is not None and ((i == 0 and len(query) > 1) or len(q) >= 3):
            return side, [w for j, w in enumerate(query) if j != i]
    return None, list(query)


def _side_named(query: Sequence[str]) -> Side | None:
    """The side the words name (``side_word``)."""
    return side_word(query)[0]


def _card_named(text: str, query: Sequence[str], deck: Deck) -> Card | None:
    """The card the text names: a whole name in it, else the first card every other word fits."""
    folded = " ".join(words(text))
    for card in sorted(deck.cards, key=lambda c: -len(c.name)):
        if " ".join(words(card.name)) in folded:
            return card
    rest = [
        q for q in side_word(query)[1] if q not in _VERBS and q not in _TYPE_WORDS and not _asks_restore(q)
    ]
    # Then without the one- and two-letter words: "t jund" is most likely Terrain and Jund.
    for some in (rest, [q for q in rest if len(q) >= 3]):
        if not some:
            continue
        for card in deck.cards:
            name = words(card.name)
            if all(any(w.startswith(q) for w in name) for q in some):
                return card
    return None


def _asks_restore(q: str) -> bool:
    return len(q) >= 3 and "restore".startswith(q)


def _type_named(query: Sequence[str], card: Card | None) -> str | None:
    """The type letter a word names ("terr" is Terrain), leaving out the words of the card's name."""
    own = words(card.name) if card else []
    for q in query:
        if len(q) < 3 or any(w.startswith(q) for w in own):
            continue
        for name, letter in _TYPE_WORDS.items():
            if name.startswith(q):
                return letter
    return None


def explain(
    text: str,
    options: Sequence[str],
    table: Table,
    prefer: Side,
    menu: bool = True,
    passed: Collection[Side] = (),
) -> str:
    """One sentence: why ``text`` matches none of ``options``, from the rules where it can.

    ``menu``: the options are the match's actions (False: a question about one card,
    Rout's target or the Weapon's find, whose options are names). ``passed``: the sides
    that have passed this hand (they have finished playing cards)."""
    shown = text.strip()
    query = words(text)
    if not menu:
        return f"'{shown}' is none of the choices: {', '.join(options)}."
    if not query:
        return "Type a few letters of a card to place it, 'destroy' and a card for a tactic, or 'pass'."
    if query[0] in ("end", "finish", "finished"):
        return (
            "A hand ends when both sides have passed: type 'pass' for a side that has finished "
            "(or has no card left)."
        )
    named = _side_named(query)
    if named is not None and named in passed:
        return f"The {SIDE_NAMES[named]} have passed: they have finished playing cards this hand."
    deck = table.deck
    card = _card_named(text, query, deck)
    side = named or prefer
    restore = any(_asks_restore(q) for q in query)
    tactic = not restore and (
        any(q.startswith(("dis", "des")) for q in query) or _type_named(query, card) is not None
    )
    if card is None:
        rest = " ".join(q for q in side_word(query)[1] if q not in _VERBS and not _asks_restore(q))
        try:
            card = deck.find(rest or shown)
        except UnknownCard as exc:
            return str(exc)
    if restore:
        if not table.is_destroyed(card.name):
            return f"{card.name} is not destroyed, so there is nothing to restore."
        return f"Did you mean '{Action('restore', None, card.name).text}'?"
    if tactic:
        by = _type_named(query, card) or next((b for b, t in TACTICS.items() if card.counts_as(t)), None)
        if by is None:
            return f"No tactic destroys a {card.type_text} card, so {card.name} cannot be destroyed."
        problem = table.tactic_problem(by, card.name)
        if problem:
            return problem
        return f"Did you mean '{Action('tactic', side, card.name, by).text}'?"
    if table.is_destroyed(card.name) and card.name in table.pile:
        return (
            f"{card.name} was destroyed this hand; type 'restore {card.name.lower()}' if that was a mistake, "
            "or 'reshuffle' if the discard pile was shuffled into the deck."
        )
    problem = table.placement_problem(side, card)
    them = other(side)
    if named is None and problem and them in passed and table.placement_problem(them, card) is None:
        return f"The {SIDE_NAMES[them]} have passed: they have finished playing cards this hand."
    if problem:
        return problem
    return f"Did you mean '{Action('place', side, card.name).text}'?"


# -- what each suggestion's card is ---------------------------------------------------------

#: Who may place a card, by its letter in the card list (CARD LIST NOTATION).
USES = {"M": "Moorish", "X": "Christian", "B": "both sides"}


def card_note(card: Card) -> str:
    """'Terrain 3, both sides — "Enemy Troops get -1"': the card's type, force, who may place
    it and its note as the rulebook prints it (shown as text, never read)."""
    notes = card.notes.strip()
    said = f' — "{notes}"' if notes and notes != "-" else ""
    return f"{card.type_text} {card.force}, {USES[card.side]}{said}"


def notes_for(options: Sequence[str], deck: Deck, menu: bool = True) -> dict[str, str]:
    """The note of each option that names a card: the card placed, the card a tactic destroys
    or a restore brings back (the menu), or the card itself (Rout's question of a target)."""
    known = catalogue(deck) if menu else {}
    out: dict[str, str] = {}
    for o in options:
        action = known.get(o)
        name = (action.card if action else "") if menu else o
        if name and name in deck:
            out[o] = card_note(deck.card(name))
    return out
