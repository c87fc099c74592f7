"""The Terra de Castells session state: players, century, bag, castles, the Saracen, the battle.

Plain dataclasses, changed in place by the procedures; ``snapshot`` is the JSON picture
the log stores and the screen reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SARACENS = "Saracens"
SUCCESS = 5  # "A success = result of 5 or 6"
DICE = 5  # "The attacker rolls 5 white dice"
MAX_ROLLS = 3  # "up to a maximum of 3 total rolls"
MAX_ACTIONS = 3  # "The active player can take 0 to 3 actions in any order"


@dataclass
class Player:
    name: str
    army: int = 0
    #: Has bought favour cards this game (the only way the rulebook gives one), so may hold a
    #: card with T to play in its turn, or with C for a battle.
    favour: bool = False

    def to_json(self) -> dict[str, Any]:
        # "favour" only once bought: the picture of a game recorded before it is the one it had.
        return {"name": self.name, "army": self.army, **({"favour": True} if self.favour else {})}


@dataclass
class Side:
    """One side of a battle: its dice as they stand, the rolls made and the army points paid."""

    name: str
    n: int = DICE
    black: bool = False  # the last die is the black superiority die
    dice: list[int] = field(default_factory=list)
    rolls: int = 0
    paid: int = 0
    history: list[list[int]] = field(default_factory=list)  # the faces of each roll, in order
    bonus: int = 0  # successes a favour card with C adds (or takes, below 0)

    def successes(self) -> int:
        return sum(1 for d in self.dice if d >= SUCCESS)

    def total(self) -> int:
        """The successes that count: the dice's and a favour card's, never below 0."""
        return max(0, self.successes() + self.bonus)

    def failed(self) -> list[int]:
        """The positions of the failed dice (what a reroll throws again)."""
        return [i for i, d in enumerate(self.dice) if d < SUCCESS]

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "n": self.n,
            "black": self.black,
            "dice": list(self.dice),
            "rolls": self.rolls,
            "paid": self.paid,
            "history": [list(h) for h in self.history],
            "successes": self.successes(),
            "bonus": self.bonus,
        }


@dataclass
class Battle:
    """A battle for a castle: the Saracens' (``kind`` "saracen") or a player's ("players")."""

    kind: str
    castle: str
    attacker: Side
    defender: Side
    target: int | None = None  # the attacker's successes, once it has rolled
    odds: str = ""  # the defender's chance before its reroll, while it decides
    result: str | None = None  # "held" or "taken"
    forced: str | None = None  # the result a favour card with C decides ("held" or "taken")
    cards: list[str] = field(default_factory=list)  # the codes of the favour cards' changes, in order
    cards_asked: bool = False  # the favour card question is open: no roll is being decided

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "castle": self.castle,
            "attacker": self.attacker.to_json(),
            "defender": self.defender.to_json(),
            "target": self.target,
            "odds": self.odds,
            "result": self.result,
            "forced": self.forced,
            "cards": list(self.cards),
            "cards_asked": self.cards_asked,
        }


@dataclass(frozen=True)
class BattleRecord:
    """A battle fought, for the record: who attacked whose castle, the successes, the result."""

    kind: str  # "saracen" or "players", as Battle.kind
    attacker: str  # SARACENS, or the attacking player
    defender: str
    castle: str
    attacker_successes: int
    #: The defender's successes (a favour card's counted); None when the castle held with no
    #: defence roll.
    defender_successes: int | None
    result: str  # "held" or "taken"

    def line(self) -> str:
        """The battle in one line, as the state's snapshot holds it: "Saracens against Anna at
        Tortosa: Anna 1 against the Saracens' 3, taken". The snapshot is what each step's
        digest is made from, so this wording is frozen with the rules version (rules-notes:
        an older game replays to the same digests); nothing reads it back."""
        head = f"{self.attacker} against {self.defender} at {self.castle}: "
        if self.defender_successes is None:
            return f"{head}{self.attacker_successes} successes, {self.result}"
        if self.kind == "saracen":
            score = (
                f"{self.defender} {self.defender_successes} against the Saracens' {self.attacker_successes}"
            )
        else:
            score = f"{self.attacker} {self.attacker_successes}, {self.defender} {self.defender_successes}"
        return f"{head}{score}, {self.result}"


@dataclass
class CastellsState:
    territories_file: str | None
    castles_file: str | None
    bag: dict[str, int]
    owners: dict[str, str | None]
    saracen: str
    players: list[Player] = field(default_factory=list)
    century: int = -1  # index into the board's centuries; -1 during setup
    active: int | None = None  # index into players (the turn order)
    phase: str = "setup"
    drawn: str | None = None  # this turn's territory token
    discarded: list[str] = field(default_factory=list)
    battle: Battle | None = None
    attack_won: bool = False  # "cannot attack again this turn"
    actions: list[str] = field(default_factory=list)  # the codes of this turn's actions counted (3 at most)
    battles: list[BattleRecord] = field(default_factory=list)  # every battle fought, in order
    #: Ask whether a favour card with C changes a battle only once a player has bought favour
    #: cards (a new game's setting); off, every battle asks (games recorded before it).
    favour_after_purchase: bool = False
    #: The turns numbered below this one (``turn_number``) are played under rules version 2: a
    #: game begun under them replays as recorded and goes on under the current rules from a
    #: later turn (game.going_on). 0 in a game of the current rules. Not in the snapshot.
    v2_until: int = 0
    #: The players who bought favour cards in a turn played under rules version 2 without the
    #: setting above (their ``favour`` stayed False then). Not in the snapshot.
    bought_under_v2: set[str] = field(default_factory=set)

    def turn_number(self) -> int:
        """The turn in play, counted from 1 over the centuries and the players; 0 at the setup."""
        if self.century < 0:
            return 0
        if self.active is None:  # the game is over: after every turn
            return (self.century + 1) * len(self.players) + 1
        return self.century * len(self.players) + self.active + 1

    def under_v2(self) -> bool:
        """Whether the turn in play is one of a game begun under rules version 2 played under them."""
        return self.turn_number() < self.v2_until

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name == name:
                return p
        raise KeyError(name)

    def snapshot(self) -> dict[str, Any]:
        return {
            "players": [p.to_json() for p in self.players],
            "century": self.century,
            "active": self.active,
            "phase": self.phase,
            "bag": dict(self.bag),
            "drawn": self.drawn,
            "discarded": list(self.discarded),
            "owners": dict(self.owners),
            "saracen": self.saracen,
            "battle": self.battle.to_json() if self.battle else None,
            "attack_won": self.attack_won,
            "actions": list(self.actions),
            "battles": [b.line() for b in self.battles],
            "files": [self.territories_file, self.castles_file],
            # Only when on: the picture of a game recorded before the setting is the one it had.
            **({"favour_after_purchase": True} if self.favour_after_purchase else {}),
        }

    def favour_cards_held(self) -> bool:
        """Whether a player may hold a favour card with C: every battle asks in a game recorded
        before the setting; otherwise only once some player has bought favour cards."""
        return not self.favour_after_purchase or any(p.favour for p in self.players)
