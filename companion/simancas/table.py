"""The table of one Battle of Simancas hand: what each side placed, what was destroyed,
the rules that say what may be placed or destroyed, and the force totals.

A placed, not-destroyed card scores max(0, base force + every modifier that reaches
it); modifiers come from the placed, not-destroyed cards of both sides ("your" the
same side, "enemy" the other, "all" both; ``other`` leaves the giving card out). A
card with two types is reached by a modifier naming either, once per modifier.
Each refusal is an IllegalAction whose message is one sentence naming the card.
Pure: the rules read the deck and this object, nothing else.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal

from companion.errors import CompanionError
from companion.simancas.cards import TYPE_NAMES, Card, Deck, Modifier
from companion.simancas.pile import Gone, How, Pile

Side = Literal["moors", "christians"]
SIDES: tuple[Side, Side] = ("moors", "christians")
SIDE_NAMES: dict[str, str] = {"moors": "Moors", "christians": "Christians"}
ADJECTIVES: dict[str, str] = {"moors": "Moorish", "christians": "Christian"}
#: The card-list letter of the cards only this side may place.
ONLY: dict[str, str] = {"moors": "M", "christians": "X"}

#: Tactical effects that destroy: the type discarded -> the type of placed card it destroys.
#: ("Discard a Skirmisher to destroy a placed Infantry", ... "a Weapon to destroy another placed Weapon".)
TACTICS: dict[str, str] = {"K": "I", "C": "K", "I": "T", "T": "C", "W": "W"}


class IllegalAction(CompanionError):
    """An action the rules do not allow; the message is one sentence naming the card."""


def other(side: Side) -> Side:
    return "christians" if side == "moors" else "moors"


@dataclass(frozen=True)
class Destruction:
    """One placed card destroyed: by which side and how.

    ``means`` is the type letter discarded for a tactic ('T' for a Terrain tactic),
    the name of the card whose effect it was ('Rout'), or '' when only the result
    is known (the calculator is told which cards are destroyed, not how).
    """

    card: str
    by: Side | None
    means: str
    discarded: str | None = None  # the card discarded for the tactic, when the players say

    def describe(self) -> str:
        if self.means in TYPE_NAMES:
            who = f"the {SIDE_NAMES[self.by]}' " if self.by else "a "
            return f"{self.card}, destroyed by {who}{TYPE_NAMES[self.means]} tactic"
        if self.means:
            return f"{self.card}, discarded by {self.means}"
        return f"{self.card}, destroyed"

    def to_json(self) -> dict[str, str | None]:
        return {"card": self.card, "by": self.by, "means": self.means, "discarded": self.discarded}


ReminderKind = Literal["draw", "enemy_discards", "table_discard", "no_troop", "enemy_troop"]


@dataclass(frozen=True)
class Reminder:
    """Something the players do at the table when a card is placed: the app tells it and
    does not track it (it does not know the hands).

    ``side`` is the side that does it: the placer draws or may place an enemy troop, the
    other side discards. ``card`` is the card placed; ``target`` the troop Rout takes.
    """

    kind: ReminderKind
    side: Side
    card: str
    count: int = 1
    target: str = ""

    @property
    def text(self) -> str:
        who = SIDE_NAMES[self.side]
        n = self.count
        if self.kind == "draw":
            return f"{who} draw {n} card{'' if n == 1 else 's'} ({self.card})"
        if self.kind == "enemy_discards":
            return f"{who} discard {n} random card{'' if n == 1 else 's'} from their hand ({self.card})"
        if self.kind == "table_discard":
            return f"{who} discard {self.target} from the table ({self.card})"
        if self.kind == "no_troop":
            return f"{who} have no troop in play to discard ({self.card})"
        return f"{who} may place one {ADJECTIVES[other(self.side)]}-only troop ({self.card})"


@dataclass(frozen=True)
class Bonus:
    """One modifier reaching a card: the card giving it and how much."""

    source: str
    amount: int


@dataclass(frozen=True)
class CardScore:
    """A placed card's score, itemised: max(0, base + the modifiers); 0 when destroyed."""

    name: str
    side: Side
    base: int
    modifiers: tuple[Bonus, ...]
    score: int
    destroyed: bool

    @property
    def floored(self) -> bool:
        """The modifiers took it below 0 and the floor lifted it back to 0."""
        return not self.destroyed and self.base + sum(b.amount for b in self.modifiers) < 0

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "side": self.side,
            "base": self.base,
            "modifiers": [{"source": b.source, "amount": b.amount} for b in self.modifiers],
            "score": self.score,
            "destroyed": self.destroyed,
        }


@dataclass
class Table:
    """The cards on the table in the hand being played. Destroyed cards stay listed (until a
    card destroyed and reshuffled back is placed again). ``pile`` is the match's discard pile,
    the same object from hand to hand; ``hand`` the hand's number, for the pile's record."""

    deck: Deck
    placed: dict[Side, list[str]] = field(default_factory=lambda: {"moors": [], "christians": []})
    destroyed: list[Destruction] = field(default_factory=list)
    pile: Pile = field(default_factory=Pile)
    hand: int = 1
    # The cards only the other side may place that each side placed this hand (through
    # Mercenaries), in order: each used a permission, even once destroyed or placed again.
    enemy_used: dict[Side, list[str]] = field(default_factory=lambda: {"moors": [], "christians": []})

    # -- building ---------------------------------------------------------------------------

    @classmethod
    def from_lists(
        cls,
        deck: Deck,
        moors: Iterable[str],
        christians: Iterable[str],
        destroyed: Iterable[str] = (),
    ) -> Table:
        """The table as it stands, from names as typed (any case, accents or not).

        Checked as a whole, in any order: each card once, each side's restriction, one
        enemy troop per side with Mercenaries on the table (destroyed or not: the troop
        came first). On-placement effects are not applied: their results are already
        on the table, Rout's victim among ``destroyed``.
        """
        table = cls(deck)
        given = {"moors": [deck.find(n) for n in moors], "christians": [deck.find(n) for n in christians]}
        # Own-side cards first, so Mercenaries is down before the enemy troop it allows.
        for enemy_pass in (False, True):
            for side in SIDES:
                for card in given[side]:
                    if (card.side == ONLY[other(side)]) == enemy_pass:
                        problem = table.placement_problem(side, card)
                        if problem:
                            raise IllegalAction(problem)
                        table._put(side, card)
        for side in SIDES:
            table.placed[side] = [c.name for c in given[side]]  # shown in the order given
        for name in destroyed:
            table.mark_destroyed(deck.find(name).name)
        return table

    # -- looking ----------------------------------------------------------------------------

    def owner(self, name: str) -> Side | None:
        """The side that placed ``name`` (exact name), None if it is not on the table."""
        for side in SIDES:
            if name in self.placed[side]:
                return side
        return None

    def is_destroyed(self, name: str) -> bool:
        return any(d.card == name for d in self.destroyed)

    def in_play(self, side: Side) -> list[Card]:
        """The side's placed, not-destroyed cards, in the order placed."""
        gone = {d.card for d in self.destroyed}
        return [self.deck.card(n) for n in self.placed[side] if n not in gone]

    def enemy_troops_placed(self, side: Side) -> list[str]:
        """The cards only the other side may place that ``side`` placed this hand (through
        Mercenaries), each time it placed one."""
        return list(self.enemy_used[side])

    # -- placing ----------------------------------------------------------------------------

    def placement_problem(self, side: Side, card: Card) -> str | None:
        """Why ``side`` may not place ``card`` now (one sentence), or None if it may."""
        holder = self.owner(card.name)
        if holder is not None and not self.is_destroyed(card.name):
            return f"{card.name} is already on the table (the {SIDE_NAMES[holder]}'): each card exists once."
        if holder is not None and card.name in self.pile:
            return (
                f"{card.name} was destroyed this hand and is in the discard pile: it comes back to "
                "a hand only if the pile is reshuffled into the deck."
            )
        if card.side == "B" or card.side == ONLY[side]:
            return None
        only = f"{card.name} is {ADJECTIVES[other(side)]}-only"
        if not card.troop:
            return f"{only}: the {SIDE_NAMES[side]} may only discard it for its tactic."
        permits = [c.name for c in self.in_play(side) if c.place_enemy_troop]
        if not permits:
            return (
                f"{only}: the {SIDE_NAMES[side]} may only discard it for its tactic, "
                "unless their Mercenaries is in play."
            )
        used = self.enemy_troops_placed(side)
        if len(used) >= len(permits):
            return (
                f"{only}, and the {SIDE_NAMES[side]} have already placed their enemy troop "
                f"({', '.join(used)}) with {', '.join(permits)}."
            )
        return None

    def placeable(self, side: Side) -> list[str]:
        """Every card ``side`` may place now, in deck order."""
        return [c.name for c in self.deck.cards if self.placement_problem(side, c) is None]

    def rout_targets(self, side: Side) -> list[str]:
        """The enemy troops a Rout placed by ``side`` could discard: placed by the other side, not destroyed."""
        return [c.name for c in self.in_play(other(side)) if c.troop]

    def destroys_on_placement(self, card: Card) -> int:
        return sum(e.count for e in card.on_place if e.effect == "destroy_enemy_troop")

    def place(self, side: Side, name: str, targets: Sequence[str] = ()) -> list[str]:
        """``side`` places ``name``; returns the reminders for the players, in order, as text."""
        return [r.text for r in self.place_reminding(side, name, targets)]

    def place_reminding(self, side: Side, name: str, targets: Sequence[str] = ()) -> list[Reminder]:
        """``side`` places ``name``; returns the reminders for the players, in order.

        ``targets`` are the enemy troops its on-placement destroy (Rout) discards: as
        many as it says, or every one there is if there are fewer; the placing player
        chooses them. Nothing changes if anything is refused.
        """
        card = self.deck.card(name)
        problem = self.placement_problem(side, card)
        if problem:
            raise IllegalAction(problem)
        wanted = self.destroys_on_placement(card)
        candidates = self.rout_targets(side)
        need = min(wanted, len(candidates))
        chosen = [self.deck.find(t).name for t in targets]
        if wanted == 0 and chosen:
            raise IllegalAction(f"{card.name} discards nothing when placed, so it takes no target.")
        for t in chosen:
            if t not in candidates:
                raise IllegalAction(
                    f"{card.name} discards a placed {ADJECTIVES[other(side)]} troop, and {t} is not one in play."
                )
        if len(set(chosen)) != len(chosen):
            raise IllegalAction(f"{card.name} cannot discard the same troop twice.")
        if len(chosen) != need:
            raise IllegalAction(
                f"{card.name} discards {need} placed {ADJECTIVES[other(side)]} "
                f"troop{'s' if need != 1 else ''} when placed: choose which."
            )
        self._put(side, card)
        for t in chosen:
            self.destroyed.append(Destruction(t, side, card.name))
            self._gone(t, "destroyed", other(side))
        return self._reminders(side, card, chosen, wanted)

    def copy(self) -> Table:
        """An independent copy, its pile too."""
        return Table(
            self.deck,
            {s: list(self.placed[s]) for s in SIDES},
            list(self.destroyed),
            self.pile.copy(),
            self.hand,
            {s: list(self.enemy_used[s]) for s in SIDES},
        )

    def being_placed(self, side: Side, name: str) -> Table:
        """The table while the players choose what ``name``'s on-placement destroy discards
        ("Rout: When Placed discard 1 placed Enemy Troop"): the card is down and counts, nothing
        is discarded yet. A copy: this table takes the card only with its targets (``place``)."""
        out = self.copy()
        out._put(side, self.deck.card(name))
        return out

    def _put(self, side: Side, card: Card) -> None:
        """``card`` goes down on ``side``. Destroyed this hand and reshuffled back since, its old
        placement leaves the table: each card exists once. It leaves the pile (placed, it was in
        a hand, however it came back there)."""
        if self.owner(card.name) is not None:
            for s in SIDES:
                self.placed[s] = [n for n in self.placed[s] if n != card.name]
            self.destroyed = [d for d in self.destroyed if d.card != card.name]
        self.pile.take(card.name)
        self._settle()
        self.placed[side].append(card.name)
        if card.side == ONLY[other(side)]:
            self.enemy_used[side].append(card.name)
        self._settle()

    def _settle(self) -> None:
        """The pile's cards known by type only that no card can be any more leave it (Pile.settle)."""
        taken = {c.name for s in SIDES for c in self.in_play(s)} | set(self.pile.named())
        self.pile.settle([c for c in self.deck.cards if c.name not in taken])

    def _gone(self, name: str, how: How, side: Side, letter: str = "") -> None:
        """A card goes to the discard pile: ``name`` ('' for a card known by type ``letter`` only)."""
        kind = letter or self.deck.card(name).types[0]
        self.pile.add(Gone(name, kind, how, side, self.hand))
        self._settle()

    def discard(self, side: Side, letter: str, how: How) -> None:
        """``side`` discards from its hand a card of type ``letter`` for its tactical ('tactic') or
        strategic ('strategy') effect: it goes to the pile, known by its type."""
        self._gone("", how, side, letter)

    def _reminders(self, side: Side, card: Card, chosen: list[str], wanted: int) -> list[Reminder]:
        them = other(side)
        out: list[Reminder] = []
        for effect in card.on_place:
            if effect.effect == "draw":
                out.append(Reminder("draw", side, card.name, effect.count))
            elif effect.effect == "enemy_discards":
                out.append(Reminder("enemy_discards", them, card.name, effect.count))
        for t in chosen:
            out.append(Reminder("table_discard", them, card.name, target=t))
        if wanted > len(chosen):
            out.append(Reminder("no_troop", them, card.name))
        if card.place_enemy_troop:
            out.append(Reminder("enemy_troop", side, card.name))
        return out

    # -- destroying -------------------------------------------------------------------------

    def tactic_problem(self, by: str, target: str, discarded: str | None = None) -> str | None:
        """Why discarding a ``by`` card cannot destroy ``target`` (one sentence), or None."""
        if by not in TACTICS:
            kind = TYPE_NAMES.get(by, by)
            return f"A {kind} card's tactic destroys nothing, so it cannot destroy {target}."
        holder = self.owner(target)
        if holder is None:
            return f"{target} is not on the table, so it cannot be destroyed."
        if self.is_destroyed(target):
            return f"{target} is already destroyed."
        card = self.deck.card(target)
        wants = TACTICS[by]
        if not card.counts_as(wants):
            return (
                f"A {TYPE_NAMES[by]} tactic destroys a placed {TYPE_NAMES[wants]}, "
                f"and {target} ({card.type_text}) is not one."
            )
        if discarded is not None:
            thrown = self.deck.card(discarded)
            if not thrown.counts_as(by):
                return f"{thrown.name} is not a {TYPE_NAMES[by]} card, so it cannot be discarded for that tactic."
            if self.owner(thrown.name) is not None:
                return f"{thrown.name} is on the table, so it cannot be discarded from a hand."
        return None

    def tactic(self, side: Side, by: str, target: str, discarded: str | None = None) -> None:
        """``side`` discards a card of type ``by`` (the card ``discarded``, if named) to destroy ``target``.

        Either side's placed card may be the target: the tactics say "a placed
        Cavalry", not "an enemy Cavalry" as Rout does.
        """
        name = self.deck.card(target).name
        thrown = self.deck.card(discarded).name if discarded is not None else None
        problem = self.tactic_problem(by, name, thrown)
        if problem:
            raise IllegalAction(problem)
        holder = self.owner(name)
        assert holder is not None
        # The card discarded for the tactic goes to the pile first, then the one it destroys.
        if thrown is None:
            self.discard(side, by, "tactic")
        else:
            self._gone(thrown, "tactic", side, by)
        self.destroyed.append(Destruction(name, side, by, thrown))
        self._gone(name, "destroyed", holder)

    def restore(self, name: str) -> None:
        """Put a destroyed card back in play: the players say it was destroyed by mistake.

        It scores again as if never destroyed, and leaves the discard pile; a card discarded
        for the tactic stays discarded (that is the players' hand, which the app does not keep).
        """
        card = self.deck.card(name)
        if not self.is_destroyed(card.name):
            raise IllegalAction(f"{card.name} is not destroyed, so there is nothing to restore.")
        self.destroyed = [d for d in self.destroyed if d.card != card.name]
        self.pile.take(card.name)
        self._settle()

    def tactic_options(self) -> list[tuple[str, str]]:
        """Every (type to discard, placed card it destroys) possible now, either side's cards.

        The Moors' cards first, each side's in deck order (not the order placed: the same
        table always gives the same list), and for each card the types in the rulebook's order.
        """
        out: list[tuple[str, str]] = []
        for side in SIDES:
            for card in sorted(self.in_play(side), key=lambda c: self.deck.position(c.name)):
                for by, wants in TACTICS.items():
                    if card.counts_as(wants):
                        out.append((by, card.name))
        return out

    def mark_destroyed(self, name: str) -> None:
        """Record ``name`` as destroyed when only the result is known (the calculator)."""
        card = self.deck.card(name)
        if self.owner(card.name) is None:
            raise IllegalAction(f"{card.name} is not on the table, so it cannot be destroyed.")
        if self.is_destroyed(card.name):
            raise IllegalAction(f"{card.name} is listed as destroyed twice.")
        if not (card.troop or any(card.counts_as(t) for t in TACTICS.values())):
            raise IllegalAction(
                f"{card.name} is a {card.type_text} card, and no tactic or card destroys one."
            )
        self.destroyed.append(Destruction(card.name, None, ""))

    # -- scoring ----------------------------------------------------------------------------

    def score(self, name: str) -> CardScore:
        """The score of the placed card ``name``, every modifier itemised with its source."""
        side = self.owner(name)
        if side is None:
            raise IllegalAction(f"{name} is not on the table, so it has no score.")
        card = self.deck.card(name)
        if self.is_destroyed(name):
            return CardScore(name, side, card.force, (), 0, True)
        bonuses = tuple(
            Bonus(source.name, m.amount)
            for source_side in SIDES
            for source in self.in_play(source_side)
            for m in source.modifiers
            if _reaches(m, source_side, source, side, card)
        )
        return CardScore(
            name, side, card.force, bonuses, max(0, card.force + sum(b.amount for b in bonuses)), False
        )

    def scores(self) -> list[CardScore]:
        """Every placed card's score, the Moors' then the Christians', each in the order placed."""
        return [self.score(n) for side in SIDES for n in self.placed[side]]

    def totals(self) -> dict[Side, int]:
        out: dict[Side, int] = {"moors": 0, "christians": 0}
        for s in self.scores():
            out[s.side] += s.score
        return out

    def winner(self) -> Side | None:
        """The side with the higher total; None on a tie ("neither player wins")."""
        t = self.totals()
        if t["moors"] == t["christians"]:
            return None
        return "moors" if t["moors"] > t["christians"] else "christians"

    def to_json(self) -> dict[str, object]:
        return {
            "moors": list(self.placed["moors"]),
            "christians": list(self.placed["christians"]),
            "destroyed": [d.to_json() for d in self.destroyed],
        }


def _reaches(m: Modifier, source_side: Side, source: Card, side: Side, card: Card) -> bool:
    """Whether modifier ``m`` of ``source`` (placed by ``source_side``) applies to ``card`` of ``side``."""
    if m.target == "your" and source_side != side:
        return False
    if m.target == "enemy" and source_side == side:
        return False
    if m.other and source.name == card.name:
        return False
    return m.reaches(card.types)
