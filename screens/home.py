"""The home screen: the games, the unfinished sessions to resume, and History.

It imports nothing from the store: the list of sessions is filled in when the
app has opened the database in the background.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.css.query import NoMatches
from textual.screen import Screen
from textual.widgets import Header, OptionList, Static
from textual.widgets.option_list import Option

from companion import __version__
from companion import games as registry
from companion.errors import CompanionError
from companion.games import title
from screens.colours import tone
from screens.context import companion_app
from screens.help import app_keys
from screens.plain import notify_plain, plain
from screens.shell.footer import KeysFooter
from screens.shell.session_actions import abandon_question, abandoned_text, ask_then


class HomeScreen(Screen[None]):
    """Pick a game, resume a session, or open the history."""

    HELP = (
        "Home: start a game (on the left) or resume an unfinished session (on the right); tab moves "
        "between the two lists, and the one with the focus has the heavy border. x abandons the "
        "session highlighted on the right; History has every session played."
    )

    BINDINGS = [
        Binding("d", "app.dice_tray", "Dice tray", id="home.dice_tray"),
        Binding("h", "app.history", "History", id="home.history"),
        Binding("x", "abandon", "Abandon", id="home.abandon"),
    ]

    def compose(self) -> ComposeResult:
        yield Header()
        with Horizontal(id="home-body"):
            with Vertical(classes="panel", id="games-panel"):
                yield Static("New game", classes="panel-title")
                yield OptionList(*self._game_options(), id="games")
            with Vertical(classes="panel", id="resume-panel"):
                yield Static("Unfinished sessions", classes="panel-title")
                yield OptionList(id="sessions")
                yield Static("Opening the database…", id="home-status")
        yield KeysFooter()

    @staticmethod
    def _game_options() -> list[Option]:
        options = []
        for g in registry.GAMES:  # read now: a game added to the registry is offered
            title = g.title if g.module else f"{g.title}  [dim](coming soon)[/]"
            options.append(Option(f"[b]{title}[/b]\n  {g.blurb}", id=g.id, disabled=g.module is None))
        return options

    def on_mount(self) -> None:
        self.show_title()
        games = self.query_one("#games", OptionList)
        games.focus()
        games.highlighted = next(i for i, g in enumerate(registry.GAMES) if g.module)

    def show_title(self) -> None:
        """The version, and the help key: F1 works on every screen but is in no footer (the game
        screens' are full at 80 columns), so the first screen names it, as the keymap binds it."""
        help_key = " ".join(app_keys(self.app, "help")) or "f1"
        self.sub_title = f"version {__version__} · {help_key}: help"

    def on_screen_resume(self) -> None:
        self.show_sessions()

    def show_sessions(self) -> None:
        """Fill the unfinished sessions from the store, or say why it cannot be opened."""
        app = companion_app(self)
        status = self.query_one("#home-status", Static)
        listing = self.query_one("#sessions", OptionList)
        # The errors name the database file, and a summary may hold a player's or an import's
        # text: shown as written, never read as markup.
        if app.store_error is not None:
            status.update(plain(app.store_error, tone(self, "error", "bold")))
            return
        if not app.store_ready:
            return  # still opening; the app calls back when it is ready
        try:
            sessions = app.store().sessions(status="active")
        except CompanionError as exc:
            status.update(plain(exc, tone(self, "error", "bold")))
            return
        # The highlight stays on the session it was on (the one just resumed, say), not the first.
        was = listing.highlighted
        kept = listing.get_option_at_index(was).id if was is not None and was < listing.option_count else None
        listing.clear_options()
        for s in sessions[:50]:
            when = s.last_activity.astimezone().strftime("%d %b %H:%M")
            listing.add_option(
                Option(
                    Text.assemble(
                        f"#{s.id} {title(s.game)}  ",
                        (when, "dim"),
                        "\n  ",
                        plain(s.summary or "not started"),
                    ),
                    id=str(s.id),
                )
            )
        if sessions:
            shown = [str(s.id) for s in sessions[:50]]
            listing.highlighted = shown.index(kept) if kept in shown else 0
        elif listing.has_focus:
            self.query_one("#games", OptionList).focus()  # its last session ended: back to the games
        status.update(
            f"{len(sessions)} unfinished session{'s' if len(sessions) != 1 else ''}."
            if sessions
            else "No unfinished sessions."
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # x acts on the session highlighted in the unfinished list, and only that list, when it
        # has the focus, draws its highlight (app.tcss): elsewhere the key is shown off.
        if action == "abandon":
            return self._highlighted_session() is not None or None
        return True

    def _highlighted_session(self) -> int | None:
        try:
            listing = self.query_one("#sessions", OptionList)
        except NoMatches:  # asked before the lists are composed
            return None
        index = listing.highlighted
        if not listing.has_focus or index is None or index >= listing.option_count:
            return None
        option_id = listing.get_option_at_index(index).id or ""
        return int(option_id) if option_id.isdigit() else None

    def on_descendant_focus(self) -> None:
        self.refresh_bindings()  # x is offered while the unfinished list has the focus

    def action_abandon(self) -> None:
        """Ask, naming the session, then put it away: off this list, in History as abandoned."""
        session_id = self._highlighted_session()
        if session_id is None:
            return

        def done(name: str) -> None:
            self.show_sessions()
            notify_plain(self, abandoned_text(name))

        ask_then(self, session_id, abandon_question, lambda store, sid: store.abandon(sid), done)

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        app = companion_app(self)
        option_id = event.option.id or ""
        if event.option_list.id == "games":
            app.start_game(option_id)
        elif option_id.isdigit():
            app.open_session(int(option_id))
