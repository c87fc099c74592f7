"""A player's note on a step: the dialog that writes it, and the line that shows it in a log.

On a game screen f5 writes a note on the step on screen (the last answered), in History's log
on the step highlighted (companion/notes.py). A step with a note is a bookmark. The note is
the player's text: shown as text, never read as markup.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.dom import DOMNode
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from companion.errors import CompanionError
from companion.notes import NOTE_MAX, note_text
from screens.colours import tone
from screens.context import companion_app
from screens.plain import plain
from screens.shell.dialogs import DIALOG_CSS

if TYPE_CHECKING:
    from screens.shell.game_screen import GameScreen

#: What the dialog gives back: ("set", the note) or ("remove", "").
NoteResult = tuple[str, str]


class NoteDialog(ModalScreen[NoteResult | None]):
    """The note on one step: typed (or changed) and kept with Enter; ctrl+r takes it off; escape
    changes nothing. A note refused (empty, too long) is said in one sentence and asked again."""

    HELP = "A note on a step: what happened at the table, a turning point to find again (a bookmark)."
    DEFAULT_CSS = (
        DIALOG_CSS.format(name="NoteDialog")
        + """
    NoteDialog #nd-error { color: $text-error; }
    """
    )
    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("ctrl+r", "remove", "Remove the note", priority=True),
    ]

    def __init__(self, where: str, now: str | None) -> None:
        super().__init__()
        self.where = where
        self.now = now

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(plain(f"A note on {self.where}"), classes="dialog-title")
            # No max_length: a note too long is said in one sentence, not cut short unseen.
            field = Input(placeholder="what happened, what to remember", id="nd-text")
            if self.now is not None:
                field.value = " / ".join(self.now.splitlines())
            yield field
            yield Static("", id="nd-error")
            hint = f"Enter keeps it (at most {NOTE_MAX:,} characters; ' / ' starts a new line)"
            hint += "; ctrl+r takes it off" if self.now is not None else ""
            yield Static(hint + "; escape changes nothing.", classes="dialog-hint")

    def on_mount(self) -> None:
        self.query_one("#nd-text", Input).focus()

    @on(Input.Submitted, "#nd-text")
    def _typed(self, event: Input.Submitted) -> None:
        try:
            said = note_text("\n".join(event.value.split(" / ")))
        except ValueError as exc:
            self.query_one("#nd-error", Static).update(plain(str(exc)))
            return
        self.dismiss(("set", said))

    def action_remove(self) -> None:
        if self.now is None:
            self.query_one("#nd-error", Static).update("This step has no note to take off.")
            return
        self.dismiss(("remove", ""))

    def action_cancel(self) -> None:
        self.dismiss(None)


def note_entry(node: DOMNode, said: str) -> Text:
    """A note as a log shows it under its step: '✎ ' and the text, its lines joined."""
    return Text.assemble(("✎ ", tone(node, "warning")), (" / ".join(said.splitlines()), "italic"))


def write_note(screen: GameScreen) -> None:
    """Write, change or take off the note on the step on screen (the last answered)."""
    driver = screen.driver
    if driver is None:
        return
    index = len(driver.steps) - 1
    if index < 0:
        screen.show_game(
            "Nothing has been answered yet: a note goes on a step once there is one.", error=True
        )
        return
    app = companion_app(screen)
    try:
        now = next((n.text for n in app.store().notes(screen.session_id) if n.step == index), None)
    except CompanionError as exc:
        screen.show_game(str(exc), error=True)
        return

    def done(result: NoteResult | None) -> None:
        if result is None or driver is not screen.driver:
            return
        what, said = result
        try:
            if what == "remove":
                app.store().remove_note(screen.session_id, index)
            else:
                app.store().set_note(screen.session_id, index, said)
        except (ValueError, CompanionError) as exc:
            screen.show_game(str(exc), error=True)
            return
        screen.notes.pop(index, None)
        if what == "set":
            screen.notes[index] = said
        screen.noted(index)
        screen.show_game(
            f"Noted step {index + 1}: History finds it among the bookmarks."
            if what == "set"
            else f"Took the note off step {index + 1}."
        )

    screen.app.push_screen(NoteDialog(f"step {index + 1}", now), done)
