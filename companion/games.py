"""What the driver needs from a game, and the registry of games the app knows.

A game is a state factory plus a procedure: a generator over that state that
yields prompts. Game modules are imported only when a game is played, so the
first screen does not pay for engines it does not show.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from companion.errors import CompanionError
from companion.prompts import Edit, Prompt

if TYPE_CHECKING:  # the driver imports this module
    from companion.driver import Step

#: A game's procedure: it yields prompts and is sent their answers. The answer's type
#: follows the prompt (a Roll's is list[int], a Choose's or an Enter's str, a Tell's None),
#: which a generator's send type cannot say: Any.
Procedure = Generator[Prompt, Any, Any]


class GameNotAvailable(CompanionError):
    """The game asked for is unknown, or not playable in this version."""


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


class Game(Protocol):
    """The interface every game module offers to the driver."""

    id: str
    title: str
    #: The version of the game's rules: raised whenever a change to them may make a game
    #: recorded before it ask something else on replay. A session records the version it
    #: was played under (docs/design.md, "The store").
    rules_version: int

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


def playing(game_id: str, version: int) -> Game:
    """The game that replays a session of ``game_id`` recorded under rules ``version``: the
    game as it played them where it still can, else the game as it plays now."""
    game = load(game_id)
    earlier = under_rules(game, version)
    return game if earlier is None else earlier.game


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


@dataclass(frozen=True)
class GameEntry:
    """Everything the app knows of a game, in one place (docs/design.md, "Adding a game").

    ``module`` holds the engine (its ``GAME``; None until it is built). ``screen`` and
    ``replay_view`` name the Textual classes that show it, as "module:Class" (companion never
    imports screens: the screens load them). ``turn_word`` is what one of the game's turns is
    called ("Turn", "Hand"); ``phases`` the title of each phase ``GAME.where`` reports;
    ``setup`` names the dialog asking a new session's settings, if the game has one;
    ``settings`` are a new session's settings where no dialog asks them (the Battle of
    Simancas: its hands guided phase by phase, which f4 turns off; Terra de Castells: the favour
    card question only once favour cards are bought);
    ``success_at`` the lowest face that is a success, for a game whose rolls count successes
    (the report then gives the successes of a roll, not the sum of its faces);
    ``robot`` the side the app plays ("the Moors") and ``robot_topics`` the topic prefixes of
    the board instructions that are its moves, which a session report names as the robot's;
    ``turn_name`` (a topic, a format) names a turn in a session report after the facts of the
    prompt of that topic in it ("century {century}" for a Castells round);
    ``turn_of`` the key of a prompt's data naming whose turn a phase is played in ("player": in
    Terra de Castells each player plays Phases 2 and 3 in a round), which a report adds to the
    phase's heading.
    """

    id: str
    title: str
    blurb: str
    module: str | None
    screen: str
    replay_view: str = "screens.replay_views:SnapshotView"
    turn_word: str = "Turn"
    phases: tuple[tuple[str, str], ...] = ()
    setup: str | None = None
    settings: tuple[tuple[str, Any], ...] = ()
    success_at: int | None = None
    robot: str = ""
    robot_topics: tuple[str, ...] = ()
    turn_name: tuple[str, str] | None = None
    turn_of: str | None = None

    def phase_title(self, phase: str | None) -> str:
        """The title of ``phase`` as the game's rulebook names it ('' for none)."""
        if not phase:
            return ""
        return dict(self.phases).get(phase, phase[:1].upper() + phase[1:])


GAMES: tuple[GameEntry, ...] = (
    GameEntry(
        "reconquista",
        "Reconquista",
        "Solitaire wargame: the app plays the Moors, 20 turns.",
        "companion.reconquista.game",
        screen="screens.reconquista.game_screen:ReconquistaScreen",
        replay_view="screens.replay_views:ReconquistaView",
        phases=(
            ("setup", "Setup"),
            ("rebellions", "Phase 1: Rebellions"),
            ("events", "Phase 2: Events"),
            ("income", "Phase 3: Income and spending"),
            ("movement", "Phase 4: Movement"),
            ("reaction", "Phase 5: Muslim reaction"),
            ("sieges", "Phase 6: Sieges"),
            ("end", "Phase 7: End of turn"),
            ("over", "Game over"),
        ),
        setup="screens.reconquista.dialogs:NewGameDialog",
        # The Muslim reaction and the marches of its force: what the app decides for the Moors.
        robot="the Moors",
        robot_topics=("reconquista.reaction.", "reconquista.march."),
    ),
    GameEntry(
        "simancas",
        "Battle of Simancas",
        "2-player card game: force totals, hands and match.",
        "companion.simancas.game",
        screen="screens.simancas.game_screen:SimancasScreen",
        replay_view="screens.replay_views:SimancasView",
        turn_word="Hand",
        settings=(("guide", True), ("setup", True)),
    ),
    GameEntry(
        "castells",
        "Terra de Castells",
        "Euro game: the app runs the Saracen turns.",
        "companion.castells.game",
        screen="screens.castells.game_screen:CastellsScreen",
        replay_view="screens.replay_views:CastellsView",
        turn_word="Round",
        # As the Castells screen names them; a battle is one of Phase 3's actions.
        phases=(
            ("setup", "Setup"),
            ("time", "Phase 1: Passage of time"),
            ("resources", "Phase 2: Resources"),
            ("saracens", "The Saracens act"),
            ("actions", "Phase 3: Actions"),
            ("battle", "Phase 3: Actions"),
            ("over", "Game over"),
        ),
        success_at=5,  # "A success = result of 5 or 6"
        # A new game asks whether a favour card with C changes a battle only once favour cards
        # have been bought (docs/rules-notes.md, Castells reading 23).
        settings=(("favour_question", "after_purchase"),),
        robot="the Saracens",
        robot_topics=("castells.saracens.",),
        turn_name=("castells.time.century", "century {century}"),  # one round a century, XI to XV
        turn_of="player",
    ),
    GameEntry(
        "dice",
        "Dice tray",
        "Roll any dice, typed from the table or rolled by the app; all logged.",
        "companion.dicetray",
        screen="screens.dicetray:DiceTrayScreen",
        replay_view="screens.replay_views:DiceView",
    ),
)


def entry(game_id: str) -> GameEntry:
    for e in GAMES:
        if e.id == game_id:
            return e
    known = ", ".join(e.id for e in GAMES)
    raise GameNotAvailable(f"There is no game called '{game_id}'; the games are {known}.")


def title(game_id: str) -> str:
    """A game's title ('Reconquista'), or its id where no game has it (an imported session's)."""
    return next((e.title for e in GAMES if e.id == game_id), game_id)


#: A summary longer than this is cut where a question names its session.
NAMED_SUMMARY = 60


def session_name(session_id: int, game_id: str, summary: str) -> str:
    """How a question names a session, so that the player knows which one it acts on:
    'session 12, Reconquista (Turn 3, Phase 4: Movement)'."""
    said = summary.strip() or "not started"
    if len(said) > NAMED_SUMMARY:
        said = said[: NAMED_SUMMARY - 1] + "…"
    return f"session {session_id}, {title(game_id)} ({said})"


def load(game_id: str) -> Game:
    """The game module for ``game_id``; GameNotAvailable (one sentence) if it is unknown or not built."""
    e = entry(game_id)
    if e.module is None:
        raise GameNotAvailable(f"{e.title} is not playable in this version yet.")
    game: Game = importlib.import_module(e.module).GAME
    return game
