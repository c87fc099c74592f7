"""The Textual application: screens, the store handle, and the command palette.

The store (SQLAlchemy, SQLModel, Alembic) is opened in a thread after the first
screen is up, so start-up costs no more than a bare Textual app. The user's settings
(companion.settings) are read before the first screen, their theme put in force at once, and
validated in that same thread (pydantic is slow to import): the keys they move and the rest
come into force then, or, for a file with a mistake, the defaults and the sentence naming it.
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.screen import Screen

from companion import settings as user_settings
from companion.errors import CompanionError
from companion.settings import Settings, SettingsError
from screens.heap import CHECK, IdleCollector
from screens.home import HomeScreen
from screens.plain import notify_plain

if TYPE_CHECKING:
    from companion.store.db import Store


#: What the first screen is painted without (bench/startup.py and
#: tests/unit/test_first_paint_imports.py check it): the store's SQLAlchemy, SQLModel and
#: Alembic and the settings' pydantic (loaded by a worker after it); a game's machinery, the
#: driver and the prompts (38 ms, for the game screens); the games' calculators (the whole
#: command-line parser, 17 ms, built only for a command); urllib.request (16 ms with
#: http.client and email).
AFTER_FIRST_PAINT = (
    "sqlalchemy",
    "sqlmodel",
    "alembic",
    "pydantic",
    "companion.driver",
    "companion.prompts",
    "companion.reconquista.calculators",
    "companion.castells.calculators",
    "companion.simancas.calculators",
    "urllib.request",
)


class CompanionApp(App[None]):
    """Tabletop Companion."""

    TITLE = "Tabletop Companion"
    # The first screen's styles only: each game screen and History bring their own file when
    # first shown (Screen.CSS_PATH), so start-up does not parse styles it does not use.
    CSS_PATH = ["app.tcss"]
    BINDINGS = [
        Binding("q", "quit", "Quit", id="app.quit"),
        # Every screen's help, dialogs too (priority: a modal's own keys do not hide it). Not in
        # the footer, which is full at 80 columns; the README and the palette name it.
        Binding("f1", "help", "Help", show=False, priority=True, id="app.help"),
    ]

    def __init__(
        self,
        db_path: str = ":memory:",
        seed: int | None = 0,
        clock: Callable[[], Any] | None = None,
        settings_path: str | Path | None = None,
    ) -> None:
        """``settings_path``: the user's settings file (read now, validated once the first
        screen is up; the theme picked is written to it); None: the defaults, nothing written."""
        super().__init__()
        self.db_path = db_path
        # The seed given (``--seed N``), or None: each new session draws its own at random.
        self.seed = seed
        self.sessions_started = 0
        self.clock = clock
        self._store: Store | None = None
        self._store_error: CompanionError | None = None
        self._store_lock = threading.Lock()
        self.settings = user_settings.DEFAULTS
        self.settings_error: str | None = None
        #: The settings file has been validated (or there is none to validate).
        self.settings_ready = settings_path is None
        self.settings_path = None if settings_path is None else Path(settings_path)
        self.heap = IdleCollector()
        self._settings_file = None if self.settings_path is None else user_settings.read(self.settings_path)
        # The theme the settings file gives: written back only when the user picks another.
        self._saved_theme: str | None = None
        self._first_theme = self.theme
        if self._settings_file is not None:
            raw_theme = (self._settings_file.raw or {}).get("theme")
            # In force before the first paint (no flash of another theme); the whole file is
            # validated in the background, and a mistake in it brings back the default.
            theme = raw_theme if isinstance(raw_theme, str) and raw_theme in self.available_themes else None
            self._saved_theme = self._first_theme = theme or self.settings.theme
            self.theme = self._saved_theme

    def on_mount(self) -> None:
        # The full garbage collections in the player's pauses, not inside an answer.
        self.heap.start()
        self.set_interval(CHECK, self.heap.tick)
        self.push_screen(HomeScreen())
        # After the first paint: importing SQLAlchemy must not delay the first screen.
        self.call_after_refresh(
            self.run_worker, self._open_store_in_background, thread=True, exit_on_error=False
        )

    def _open_store_in_background(self) -> None:
        if self._settings_file is not None:
            from companion.settings_model import validate  # pydantic: off the way to the first paint

            try:
                checked, error = validate(self._settings_file), None
            except SettingsError as exc:
                checked, error = user_settings.DEFAULTS, str(exc)
            except Exception as exc:  # noqa: BLE001 -- a check that fails must not stop the store opening
                checked = user_settings.DEFAULTS
                error = f"{self._settings_file.path} could not be checked ({type(exc).__name__}): the defaults are in force."
            self.call_from_thread(self._settings_checked, checked, error)
        with contextlib.suppress(CompanionError):  # kept in _store_error; the home screen shows it
            self.store()
        self.call_from_thread(self._store_opened)

    def _settings_checked(self, checked: Settings, error: str | None) -> None:
        """The settings validated: in force now; or the defaults, and the sentence saying why."""
        self.settings, self.settings_error = checked, error
        self.settings_ready = True
        if checked.keys:
            self.set_keymap(dict(checked.keys))
            for screen in self.screen_stack:
                if isinstance(screen, HomeScreen):
                    screen.show_title()  # the help key it names may have moved
        if self.theme != checked.theme and self.theme == self._first_theme:  # (not one picked meanwhile)
            self._saved_theme = checked.theme  # back to the default: nothing to write
            self.theme = checked.theme
        if error is not None:
            notify_plain(self, f"{error} The app runs on the default settings.", severity="error", timeout=30)

    def watch_theme(self, theme: str) -> None:
        """A theme picked (the command palette's "Theme"): kept in the settings file."""
        if self.settings_path is None or self._saved_theme is None or theme == self._saved_theme:
            return
        self._saved_theme = theme
        self.settings = replace(self.settings, theme=theme)
        try:
            user_settings.save_theme(self.settings_path, theme)
        except SettingsError as exc:
            notify_plain(self, str(exc), severity="error", timeout=15)

    def on_unmount(self) -> None:
        self.heap.stop()

    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, (events.Key, events.MouseDown)):
            self.heap.input()  # a key or a click: not a pause for a full collection
        await super().on_event(event)

    def _store_opened(self) -> None:
        # Everything loaded so far lives as long as the app: keep it out of the garbage
        # collector's full passes, which otherwise pause a key press now and then.
        gc.freeze()
        for screen in self.screen_stack:
            if isinstance(screen, HomeScreen):
                screen.show_sessions()

    @property
    def store_ready(self) -> bool:
        return self._store is not None

    @property
    def store_error(self) -> CompanionError | None:
        return self._store_error

    def store(self) -> Store:
        """The open store; opens it on first use. StoreError (one sentence) if it cannot be."""
        with self._store_lock:
            if self._store is None:
                if self._store_error is not None:
                    raise self._store_error
                from companion.store.db import Store

                try:
                    self._store = Store(self.db_path, clock=self.clock)
                except CompanionError as exc:
                    self._store_error = exc
                    raise
            return self._store

    # -- actions reachable from every screen and the palette ---------------------

    def action_dice_tray(self) -> None:
        self.start_game("dice")

    def action_history(self) -> None:
        from screens.history import HistoryScreen

        self.push_screen(HistoryScreen())

    def action_help(self) -> None:
        """The help of the screen on top (screens/help.py); F1 again closes it."""
        from screens.help import HelpDialog, help_for

        if isinstance(self.screen, HelpDialog):
            self.screen.dismiss(None)
            return
        self.push_screen(help_for(self.screen))

    def start_game(self, game_id: str, config: dict[str, Any] | None = None) -> None:
        """Open a new session of ``game_id``; a game with a setup dialog (Reconquista: how the dice
        are rolled) asks it first."""
        from companion import games
        from companion.dice import chosen_dice_mode
        from screens.registry import setup_dialog

        dialog = setup_dialog(game_id) if config is None else None
        if config is None and dialog is None:
            try:
                config = self.new_session_settings(game_id)
            except CompanionError as exc:
                notify_plain(self, str(exc), severity="error")
                return
        if dialog is not None:

            def chosen(settings: dict[str, Any] | None) -> None:
                if settings is not None:
                    self.start_game(game_id, settings)

            self.push_screen(dialog(self.settings), chosen)  # it preselects what the settings say
            return
        try:
            # The game's first state reads its data files: a broken one is a sentence, not an empty session.
            game = games.load(game_id)
            seed = self.next_seed()
            game.new_state(seed, dict(config or {}))
            session_id = self.store().create_session(game_id, seed, config, game.rules_version)
            committed = self.store().session(session_id).commitment
        except CompanionError as exc:
            notify_plain(self, str(exc), severity="error")
            return
        self.sessions_started += 1
        self.open_session(session_id)
        if committed and games.rolls_dice(game_id) and chosen_dice_mode(config or {}) != "physical":
            # The commitment to the seed the app's dice come from, shown as a game that may roll
            # them starts (companion verify checks a finished game's export against it; History
            # shows it too). A game of dice typed from the table has none to commit to.
            notify_plain(
                self,
                f"The app's dice of session {session_id} are committed to its seed: {committed[:16]}… "
                "(the seed is revealed in the report when the game ends).",
                title="Dice committed",
            )

    def new_session_settings(self, game_id: str) -> dict[str, Any]:
        """A new session's settings where no dialog asks them: the game's own, as the user's
        settings file changes them (a Simancas match guided or not)."""
        from companion import games

        return {**dict(games.entry(game_id).settings), **self.settings.session_settings(game_id)}

    def next_seed(self) -> int:
        """The seed of the next new session: every session rolls its own dice (``--seed N``
        gives N to the first session of the run and a seed drawn from N to each later one)."""
        from companion.dice import random_seed, session_seed

        if self.seed is None:
            return random_seed()
        return session_seed(self.seed, self.sessions_started)

    def open_session(self, session_id: int) -> None:
        """Show the screen of a session, at its last answered prompt (or its end)."""
        from companion import games

        try:
            info = self.store().session(session_id)
            games.load(info.game).new_state(info.seed, info.config)  # its data files, checked first
        except CompanionError as exc:
            notify_plain(self, str(exc), severity="error")
            return
        from screens.registry import screen_class

        self.push_screen(screen_class(info.game)(session_id))

    def resume_session(self, session_id: int) -> None:
        """Resume an unfinished session, or an abandoned one (unfinished again from now); a
        finished one is only read, so say so."""
        try:
            info = self.store().session(session_id)
        except CompanionError as exc:
            notify_plain(self, str(exc), severity="error")
            return
        if info.status == "finished":
            self.notify(
                f"Session {session_id} has ended; it can be read but not resumed.", severity="warning"
            )
            return
        if info.status == "abandoned":
            try:
                self.store().reopen(session_id)  # taken up again: unfinished, on Home's list once more
            except CompanionError as exc:
                notify_plain(self, str(exc), severity="error")
                return
        self.open_session(session_id)

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        from companion import games

        # Each game's commands, as its registry entry names them.
        for e in games.GAMES:
            if e.module is None:
                continue
            for command in e.commands():
                if (
                    command.unless is not None
                    and getattr(self.settings, command.unless[0], None) == command.unless[1]
                ):
                    continue  # the plain command does the same with these settings
                config = None if command.settings is None else dict(command.settings)
                yield SystemCommand(command.title, command.help, partial(self.start_game, e.id, config))
        yield SystemCommand("History", "Every session, to read or resume", self.action_history)
        yield SystemCommand(
            "Help", "This screen's keys, and the rule of the question on it", self.action_help
        )
        yield from screen_commands(screen, self.settings.keys)
        # Textual's own, "Theme" among them: the theme picked is kept in the settings file.
        yield from super().get_system_commands(screen)


#: Bindings out of the footer (it is full at 80 columns) that the palette offers all the same.
PALETTE_ALSO = frozenset({"game.abandon", "game.redo", "game.undo_to"})


def screen_commands(screen: Screen[Any], keys: Mapping[str, str] | None = None) -> Iterable[SystemCommand]:
    """The palette entries of the current screen's own key bindings (its class's and those it
    inherits from the game shell), so every action is reachable; each names its key as the
    settings' ``keys`` have moved it."""
    keys = keys or {}
    own = [b for cls in type(screen).__mro__ for b in vars(cls).get("BINDINGS", [])]
    for binding in own:
        if (
            isinstance(binding, Binding)
            and binding.description
            and (binding.show or binding.id in PALETTE_ALSO)
        ):
            action = binding.action

            async def run(action: str = action) -> None:
                await screen.run_action(action)

            key = keys.get(binding.id, binding.key) if binding.id else binding.key
            yield SystemCommand(binding.description, f"Key: {key}", run)
