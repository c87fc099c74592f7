"""The registry of the games the app knows (``GAMES``, ``entry``, ``load``).

A game's engine is imported only when the game is played, so the first screen does not pay
for engines it does not show. What a game must offer the driver is companion/interface.py.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from companion.errors import CompanionError

if (
    TYPE_CHECKING
):  # the registry is read at every start (the CLI's parser, Home): the prompts load with an engine
    from companion.interface import Game


class GameNotAvailable(CompanionError):
    """The game asked for is unknown, or not playable in this version."""


@dataclass(frozen=True)
class PaletteCommand:
    """A command of the palette that starts a new session of the game: its title, its help,
    and the new session's settings (None: as the settings file says, or as the game's setup
    dialog asks); ``unless`` (a setting of the settings file and a value): not offered while
    the settings file has that value, when the game's plain command does the same then."""

    title: str
    help: str
    settings: tuple[tuple[str, Any], ...] | None = None
    unless: tuple[str, Any] | None = None


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

    What the app, History, the CLI and review offer of the game, each named as "module:name"
    and imported only when used: ``palette`` the commands that start a session of it (none
    given: "New <title>" with its blurb); ``stats`` the function giving its statistics
    (``stats(store, session_id)``: an object with ``sessions``, ``notes``, ``lines()`` and
    ``to_json()``) and ``stats_view`` the function turning them into the Statistics screen's
    widgets (none: their lines, as text); ``story`` the screen of a session's story chart;
    ``calculators`` the module whose ``register(subparsers)`` adds its commands to the CLI;
    ``dice`` whether it rolls dice (the luck ledger offers it); ``luck`` the function weighing
    one logged roll in the game's own units (``luck(topic, data, dice)``: an
    ``interface.RollLuck``, or None for a roll it does not weigh); ``checks`` the module of its
    board checks (``board_checks(state, steps)``: the ``prompts.Check`` questions to ask now,
    and ``touches(prompt, place)``: whether a step concerns a place), asked at the end of each
    turn (``turn_word``) as the ``board_checks`` setting says; none: no board checks.
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
    palette: tuple[PaletteCommand, ...] = ()
    stats: str | None = None
    stats_view: str | None = None
    story: str | None = None
    calculators: str | None = None
    dice: bool = True
    luck: str | None = None
    checks: str | None = None

    def commands(self) -> tuple[PaletteCommand, ...]:
        """The palette's commands for a new session of the game (see ``palette``)."""
        return self.palette or (PaletteCommand(f"New {self.title}", self.blurb),)

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
        replay_view="screens.reconquista.views:ReconquistaView",
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
        palette=(PaletteCommand("New Reconquista game", "The solitaire wargame"),),
        stats="companion.review.stats:reconquista_stats",
        luck="companion.reconquista.luck:roll_luck",
        checks="companion.reconquista.checks",
        stats_view="screens.reconquista.statistics:widgets",
        story="screens.story:StoryScreen",
        calculators="companion.reconquista.calculators",
    ),
    GameEntry(
        "simancas",
        "Battle of Simancas",
        "2-player card game: force totals, hands and match.",
        "companion.simancas.game",
        screen="screens.simancas.game_screen:SimancasScreen",
        replay_view="screens.simancas.views:SimancasView",
        turn_word="Hand",
        settings=(("guide", True), ("setup", True)),
        palette=(
            PaletteCommand(
                "New Simancas match",
                "The 2-player card game: force totals, hands, the match (its phases guided as "
                "the settings say: simancas_guide)",
            ),
            PaletteCommand(
                "New Simancas match, guided",
                "Each hand's phases told, from the Fate to the Retreat (f4 in the match turns it off)",
                (("guide", True), ("setup", True)),
                unless=("simancas_guide", True),
            ),
            PaletteCommand(
                "New Simancas match, unguided",
                "For players who know the turn: no phase told (f4 in the match turns the guide on)",
                (("guide", False), ("setup", True)),
                unless=("simancas_guide", False),
            ),
        ),
        stats="companion.review.stats:simancas_stats",
        stats_view="screens.simancas.statistics:widgets",
        calculators="companion.simancas.calculators",
        dice=False,  # the cards decide
    ),
    GameEntry(
        "castells",
        "Terra de Castells",
        "Euro game: the app runs the Saracen turns.",
        "companion.castells.game",
        screen="screens.castells.game_screen:CastellsScreen",
        replay_view="screens.castells.views:CastellsView",
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
        palette=(
            PaletteCommand("New Terra de Castells game", "The euro game: the app runs the Saracen turns"),
        ),
        stats="companion.review.stats:castells_stats",
        luck="companion.castells.luck:roll_luck",
        checks="companion.castells.checks",
        stats_view="screens.castells.statistics:widgets",
        calculators="companion.castells.calculators",
    ),
    GameEntry(
        "dice",
        "Dice tray",
        "Roll any dice, typed from the table or rolled by the app; all logged.",
        "companion.dicetray",
        screen="screens.dicetray:DiceTrayScreen",
        replay_view="screens.dicetray:DiceView",
        palette=(PaletteCommand("Dice tray", "Start a new dice tray session"),),
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


def rolls_dice(game_id: str) -> bool:
    """Whether ``game_id`` rolls dice (its entry's ``dice``); a game this version does not know:
    as if it did (its log may hold rolls)."""
    return next((e.dice for e in GAMES if e.id == game_id), True)


def named(path: str) -> Any:
    """What "module:name" names (an entry's ``stats``, a screen class...), imported now."""
    module, _, name = path.partition(":")
    found = importlib.import_module(module)
    return getattr(found, name) if name else found


def ids() -> str:
    """'reconquista, simancas, castells, dice': the games' ids, as the CLI's help lists them."""
    return ", ".join(e.id for e in GAMES)


def load(game_id: str) -> Game:
    """The game module for ``game_id``; GameNotAvailable (one sentence) if it is unknown or not built."""
    e = entry(game_id)
    if e.module is None:
        raise GameNotAvailable(f"{e.title} is not playable in this version yet.")
    game: Game = importlib.import_module(e.module).GAME
    return game


def playing(game_id: str, version: int) -> Game:
    """The game that replays a session of ``game_id`` recorded under rules ``version``: the
    game as it played them where it still can, else the game as it plays now."""
    from companion.interface import under_rules

    game = load(game_id)
    earlier = under_rules(game, version)
    return game if earlier is None else earlier.game
