"""The game interface: what the driver needs from a game, and the step it logs.

A game is a state factory plus a procedure: a generator over that state that yields prompts
(companion/prompts.py) and is sent their answers; each answered prompt is a ``Step``. Nothing
here knows the registry (companion/games.py) or the driver (companion/driver.py): both, and
every engine, import this module, and it imports neither.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from companion.prompts import Answer, Check, Choose, Edit, Enter, Prompt, Roll

#: A game's procedure: it yields prompts and is sent their answers. The answer's type
#: follows the prompt (a Roll's is list[int], a Choose's or an Enter's str, a Tell's None),
#: which a generator's send type cannot say: Any.
Procedure = Generator[Prompt, Any, Any]


@dataclass(frozen=True)
class RollLuck:
    """What one logged roll decided, in the game's own units, beside what it would decide on
    average: the luck of that roll (#36, "luck in game units"). A game gives it for the rolls
    whose outcome it can weigh exactly (its registry entry's ``luck``), from the roll's logged
    facts and dice alone, so that old sessions have it too."""

    side: str  # who rolled, as a sentence names them: 'the Christian side', 'Anna', 'the Saracens'
    mine: bool  # the player's own roll (its good luck is theirs), not the side the app plays
    unit: str  # what the roll counts: 'hits', 'successes'
    got: int
    dist: tuple[float, ...]  # P(k) of k units for k = 0, 1, ... before the dice fell
    where: str  # "Granada, round 2": where a player finds it on the board

    @property
    def expected(self) -> float:
        return sum(k * p for k, p in enumerate(self.dist))

    @property
    def percentile(self) -> float:
        """The outcome's place among the outcomes the roll could have had (0: the worst, 1: the
        best), by the mid-point rule: P(fewer) + P(as many) / 2."""
        return sum(self.dist[: self.got]) + self.dist[self.got] / 2 if self.got < len(self.dist) else 1.0

    def at_least(self) -> float:
        """The chance of an outcome at least as high as the one that came."""
        return sum(self.dist[self.got :])

    def at_most(self) -> float:
        """The chance of an outcome at most as high as the one that came."""
        return sum(self.dist[: self.got + 1])


@dataclass(frozen=True)
class Step:
    """One answered prompt; never changed once logged (but for its test mark).

    A roll also says which of the player's dice rolled it (``die``: the name they gave them,
    for a roll from the table; None unnamed) and whether the player marked it as a test roll
    (``test``), which the luck ledger leaves out. Both are facts of the roll: a step answered
    again (a redo, a correction keeping its dice) keeps them."""

    prompt: Prompt
    answer: Answer
    source: str
    die: str | None = None
    test: bool = False


class BoardChanges(Protocol):
    """What to change on the physical table to go from the state ``now`` to ``then``, one line
    a change. ``undo``: ``then`` is where the table was before (an undo: "put back", "back
    to"); otherwise it is new (a correction, a redo: "put", "to")."""

    def __call__(self, now: Any, then: Any, *, undo: bool = True) -> list[str]: ...


@dataclass(frozen=True)
class EarlierRules:
    """A game as it played an earlier version of its rules, for the sessions recorded under it
    (docs/design.md, "Rules versions").

    ``game`` asks what that version asked, so such a session's log replays as recorded.
    ``going_on(state, config)``: the points from which a session of it at ``state`` (its log
    replayed, not ended) with its settings ``config`` may go on under the current rules, the
    earliest first (the turn in play, if nothing of it was asked under the old rules; the
    next): each as the settings that say so and one sentence telling the player. The last is
    always safe; the store takes an earlier one only where the whole log still replays to
    the states it recorded under it. None when the settings already name the point."""

    game: Game
    going_on: Callable[[Any, dict[str, Any]], list[tuple[dict[str, Any], str]] | None]


#: The most options a question of any game offers, with room to spare (Reconquista's purchase
#: menu has up to 15; a Simancas hand some 30 cards).
MOST_OPTIONS = 200


@dataclass(frozen=True)
class Asks:
    """What a game can ask: every topic its prompts carry, every pattern a typed answer
    matches, the dice it rolls (sides, and at most ``most_dice`` of them at once).

    A log the game no longer replays (recorded under earlier rules, kept as recorded) is held
    to it, step by step, since nothing else checks what such a log's questions say: a file
    could carry a pattern that never ends matching, or a die of a million faces."""

    topics: frozenset[str]
    patterns: frozenset[str] = frozenset()
    sides: frozenset[int] = frozenset()
    most_dice: int = 0

    def refusal(self, prompt: Prompt) -> str | None:
        """Why the game never asks ``prompt`` (a phrase: "a roll of 1d999, which ..."), or None."""
        if isinstance(prompt, Edit):
            return None  # a correction by hand: its change is checked when it is applied
        if prompt.topic not in self.topics:
            shown = prompt.topic if len(prompt.topic) <= 60 and prompt.topic.isprintable() else "it"
            return f"a question of a topic this game never asks ({shown!r})"
        if isinstance(prompt, Roll) and (
            prompt.sides not in self.sides or not 1 <= prompt.n <= self.most_dice
        ):
            shown = f"{prompt.n}d{prompt.sides}" if max(abs(prompt.n), abs(prompt.sides)) < 10**6 else "dice"
            return f"a roll of {shown}, which this game never rolls"
        if isinstance(prompt, Enter) and prompt.pattern not in self.patterns:
            return "a typed answer held to a pattern this game never asks"
        if isinstance(prompt, Check) and len(prompt.options) > MOST_OPTIONS:
            return f"a board check among {len(prompt.options)} answers, which no check of this game offers"
        if isinstance(prompt, Choose) and not 1 <= len(prompt.options) <= MOST_OPTIONS:
            return f"a choice among {len(prompt.options)} options, which no question of this game offers"
        return None


class Game(Protocol):
    """The interface every game module offers to the driver."""

    id: str
    title: str
    #: The version of the game's rules: raised whenever a change to them may make a game
    #: recorded before it ask something else on replay. A session records the version it
    #: was played under (docs/design.md, "The store").
    rules_version: int
    #: What the game can ask (``Asks``): a log kept as recorded is held to it.
    asks: Asks

    def new_state(self, seed: int, config: dict[str, Any]) -> Any:
        """The state a new session starts from."""

    def procedure(self, state: Any) -> Procedure:
        """The whole session as one generator; it changes ``state`` as answers come in."""

    def snapshot(self, state: Any) -> dict[str, Any]:
        """A JSON-serialisable picture of ``state``; equal states give equal pictures."""

    def where(self, state: Any) -> tuple[int | None, str | None]:
        """The turn and phase ``state`` is in, for the log (None where the game has none)."""

    def summary(self, state: Any) -> str:
        """One line saying where the session stands or how it ended."""

    def undo_from(self, steps: Sequence[Step], automatic_dice: bool) -> int | None:
        """The game's undo rule: the first of the logged ``steps`` one ctrl+z takes back (it and
        every later step), None when there is nothing to take back. ``automatic_dice``: the app
        rolls every die without being asked (such dice go with the answer before them).
        ``last_answer`` is the rule most games follow."""

    # -- optional capabilities: None for a game without them ---------------------------

    @property
    def apply_edit(self) -> Callable[[Any, dict[str, Any]], None] | None:
        """A correction by hand (an Edit's change) applied to the state; ValueError with one
        sentence when it cannot be. None: the game takes no corrections by hand."""

    @property
    def board_changes(self) -> BoardChanges | None:
        """What to change on the physical table to go from one state (now) to another (after
        an undo, a correction or a redo), one line a change. None: the game does not tell."""

    @property
    def earlier_rules(self) -> Callable[[int], EarlierRules | None] | None:
        """The game as it played an earlier rules version, where it still can (None for a
        version it no longer plays: such a session replays as far as its log fits the current
        rules). None: the game plays its current rules only."""


def whole_setting(config: dict[str, Any], key: str) -> int | None:
    """A session's setting ``key`` as a whole number from 1, or None (a session's settings are
    read as hostile: a text, a bool, a fraction or a number below 1 is no setting)."""
    value = config.get(key)
    return value if type(value) is int and value >= 1 else None


def under_rules(game: Game, version: int) -> EarlierRules | None:
    """``game`` as it played rules ``version``, when that is an earlier version it still plays."""
    if version >= game.rules_version or game.earlier_rules is None:
        return None
    return game.earlier_rules(version)


def last_answer(steps: Sequence[Step], automatic_dice: bool) -> int | None:
    """The undo rule of most games: back to before the last answer the player gave (a choice,
    typed text or dice, a correction by hand, or dice the app rolled when asked), with the
    instructions confirmed and the automatic dice after it. A log of acknowledgements alone
    is taken back whole."""
    if not steps:
        return None
    for i in range(len(steps) - 1, -1, -1):
        s = steps[i]
        if s.source in ("player", "physical") or isinstance(s.prompt, Edit):
            return i
        if s.source == "app" and not automatic_dice:
            return i
    return 0
