"""Help on every screen (F1): the keys that work there now, what the screen is for, and on a
game screen the question of the moment with the rule behind it.

The keys are read when F1 is pressed from the screen's active bindings (``Screen.active_bindings``,
which has the user's keymap applied and leaves out a key a text field would take as typed), so a
remapped key shows its new key and a key that does nothing now is not offered. What a screen is
for is its ``HELP`` class attribute: "Name: one line". The rule of the moment comes from the
screen's ``rule_of_the_moment()`` where it has one (the game shell's, History's log), built by
the same ``rule_text`` as the rule key (f2), so the two never say different things.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import ActiveBinding, Binding
from textual.command import CommandPalette
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Static

#: The short name of what an action does, where its binding has no description (the digit
#: picks, the log's steps) or has Textual's own (the focus keys, the lists' cursor).
LABELS: dict[str, str] = {
    "pick": "Pick that option",
    "preset": "That quick pick",
    "step": "Step through the game",
    "scroll_state": "Scroll the table at the step",
    "command_palette": "Command palette",
    "focus_next": "Next list or field",
    "focus_previous": "Previous list or field",
    "cursor": "Move the highlight",
    "cursor_up": "Move the highlight",
    "cursor_down": "Move the highlight",
    "select": "Take the highlighted one",
    "select_cursor": "Take the highlighted one",
    "submit": "Send what is typed",
}

#: A few words more on what an action does, where the short name alone says little.
NOTES: dict[str, str] = {
    "help": "this help",
    "cancel": "close it; nothing changes",
    "quit": "every answer is already saved, nothing is lost",
    "command_palette": "every action of this screen, by name",
    "back": "to the screen before; nothing is lost",
    "undo": "take back the last answer, with what followed it",
    "redo": "answer again what the last undo took back",
    "undo_to": "pick a step of the log: it and every later step are taken back",
    "name_dice": "the dice you roll on the table, so the luck ledger tests each die",
    "note": "what happened at the table, kept on the step: a bookmark History finds",
    "bookmark": "the next step with a note (N: the one before)",
    "branch": "a new session from the log up to here, to play another line; this one stays",
    "test_roll": "the roll highlighted is left out of the luck ledger (again: counted)",
    "rule": "the rulebook section of the step on screen, and why",
    "roll": "the app rolls what is asked, instead of the table",
    "confirm": "the instruction on screen is done on the table",
    "confirm_all": "every instruction waiting is done",
    "correct": "a die typed earlier: the game re-runs from it",
    "edit": "set the app to what your table shows",
    "why_not": "why each purchase not offered is refused",
    "dice_mode": "mixed, physical or app dice",
    "done": "the option that finishes the menu: Done, No movement, the end of the turn",
    "toggle_board": "the compact board, or back to the question",
    "pick": "the option of that number",
    "preset": "fills in the quick pick of that number",
    "end_session": "after asking; it stays in History",
    "reference": "each card type's strategic and tactical effect",
    "discard_pile": "the cards gone to the discard pile this match",
    "guide": "each hand's phases told as steps, or not",
    "dice_tray": "a new Dice tray session",
    "history": "every session played, to read or resume",
    "open_log": "the selected session's log, step by step",
    "resume": "the session, if it is unfinished or abandoned",
    "abandon": "after asking; History keeps it, to resume or delete",
    "delete_session": "after asking: the abandoned session and its whole log",
    "sort": "by the next column",
    "search": "the results; #12 is session 12",
    "statistics": "results and victory points over time",
    "luck": "your dice against a fair die",
    "toggle_view": "the log, or the table at the step",
    "jump": "a turn or a hand by its number",
}

#: Actions not worth a line: Textual's own copy and its reminder of how to quit.
SKIPPED = {"copy_text", "help_quit"}

#: Of the bindings a widget has from Textual (a list, a table, a text field), the ones the help
#: names: the rest (editing a field, home, end, the page keys) work as everywhere.
WIDGET_ACTIONS = {"cursor_up", "cursor_down", "select", "select_cursor", "submit"}


@dataclass
class KeyLine:
    """One line of the keys: every key that does ``label``, and a note on it."""

    keys: list[str] = field(default_factory=list)
    label: str = ""
    note: str = ""
    enabled: bool = True


def action_name(action: str) -> str:
    """An action without its namespace and parameters: 'app.history' -> 'history',
    'pick(3)' -> 'pick'."""
    return action.split("(", 1)[0].rsplit(".", 1)[-1]


def key_text(app: App[Any], binding: Binding) -> str:
    """A key as the help writes it: the footer's display ('esc', '↑'), with ctrl and enter
    spelled out as the README writes them."""
    shown = app.get_key_display(binding)
    if shown.startswith("^") and len(shown) > 1:
        shown = "ctrl+" + shown[1:]
    return shown.replace("⏎", "enter")


def _compressed(keys: list[str]) -> list[str]:
    """Runs of digits as one range: 1 2 … 9 -> 1–9."""
    digits = sorted(int(k) for k in keys if re.fullmatch(r"[0-9]", k))
    others = [k for k in keys if not re.fullmatch(r"[0-9]", k)]
    if len(digits) > 2 and digits == list(range(digits[0], digits[-1] + 1)):
        return [f"{digits[0]}–{digits[-1]}", *others]
    return [*map(str, digits), *others] if digits else keys


def _ours(binding: Binding, name: str) -> bool:
    """Whether a focused widget's binding is worth a line: one of ours (it runs the screen's or
    the app's action) or one of the few of Textual's the help names."""
    return binding.action.startswith(("screen.", "app.")) or name in WIDGET_ACTIONS


def _place(node: object, binding: Binding) -> tuple[int, int]:
    """Where a binding's line goes: the screen's keys first, in the order its BINDINGS list
    them, then the focused widget's, then the app's."""
    rank = 0 if isinstance(node, Screen) else 1 if isinstance(node, Widget) else 2
    declared = [b.action for b in getattr(type(node), "BINDINGS", []) if isinstance(b, Binding)]
    return rank, declared.index(binding.action) if binding.action in declared else len(declared)


def key_lines(app: App[Any], active: Iterable[ActiveBinding]) -> list[KeyLine]:
    """The keys that work now, one line an action (its keys together): the screen's, the
    focused widget's, then the app's."""
    lines: dict[str, KeyLine] = {}
    places: dict[str, tuple[int, int]] = {}
    for node, binding, enabled, tooltip in active:
        name = action_name(binding.action)
        if binding.system or name in SKIPPED:
            continue
        if isinstance(node, Widget) and not isinstance(node, Screen) and not _ours(binding, name):
            continue
        label = LABELS.get(name) or binding.description
        if not label:
            continue  # nothing to say what it does
        line = lines.setdefault(label, KeyLine(label=label, note=NOTES.get(name) or tooltip))
        places.setdefault(label, _place(node, binding))
        key = key_text(app, binding)
        if key not in line.keys:
            line.keys.append(key)
        line.enabled = line.enabled and enabled
    for line in lines.values():
        line.keys = _compressed(line.keys)
    # sorted() keeps the order of the lines that tie (the app's own, Textual's).
    return sorted(lines.values(), key=lambda line: places[line.label])


def screen_help(screen: Screen[Any]) -> tuple[str, str]:
    """The screen's name and what it is for, from its ``HELP`` ("Name: what it is for"; Textual
    reserves the attribute for a widget's help), else its class's name."""
    name, colon, purpose = (screen.HELP or "").partition(": ")
    if colon:
        return name, purpose[:1].upper() + purpose[1:]
    if isinstance(screen, CommandPalette):
        return "Command palette", "Every action of the screen below, by name: type a few letters."
    return type(screen).__name__, ""


def moment_of(screen: Screen[Any]) -> tuple[str, Text] | None:
    """The question of the moment and its rule, where the screen has one."""
    rule = getattr(screen, "rule_of_the_moment", None)
    return rule() if callable(rule) else None


def keys_table(lines: list[KeyLine]) -> Table:
    """The keys, two columns: the keys, and what they do (the note dim after it)."""
    table = Table.grid(padding=(0, 2))
    table.add_column(no_wrap=True, style="bold")
    table.add_column(ratio=1)
    for line in lines:
        what = Text(line.label)
        if line.note:
            what.append(f" — {line.note}", style="dim")
        if not line.enabled:
            what.append(" (not now)", style="dim italic")
        table.add_row(Text(" ".join(line.keys), style="" if line.enabled else "dim"), what)
    return table


class HelpDialog(ModalScreen[None]):
    """F1's help: the screen's name, what it is for, its keys now and the question of the
    moment with its rule; scrolls where it is longer than the terminal."""

    HELP = "Help: what the screen below is for, its keys, and the rule of the step on it."

    DEFAULT_CSS = """
    HelpDialog { align: center middle; }
    HelpDialog > Vertical {
        width: 100%; max-width: 96; height: auto; max-height: 100%;
        border: thick $accent; background: $surface; padding: 0 1;
    }
    HelpDialog #help-body { height: auto; }
    HelpDialog #help-body > Static:last-child { margin-bottom: 1; }
    HelpDialog .help-title { text-style: bold; color: $text-accent; }
    HelpDialog .help-heading { text-style: bold; margin-top: 1; }
    HelpDialog #help-hint { color: $text-muted; }
    """
    BINDINGS = [Binding("enter,escape", "close", "Close")]

    def __init__(
        self,
        name: str,
        purpose: str,
        keys: list[KeyLine],
        moment: tuple[str, Text] | None = None,
        closing: str = "f1",
    ) -> None:
        super().__init__()
        self.screen_name = name
        self.purpose = purpose
        self.keys = keys
        self.moment = moment
        self.closing = closing

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text(f"Help: {self.screen_name}"), classes="help-title")
            with VerticalScroll(id="help-body"):
                if self.purpose:
                    yield Static(Text(self.purpose), id="help-purpose")
                yield Static("Keys here now", classes="help-heading")
                if self.keys:
                    yield Static(keys_table(self.keys), id="help-keys")
                else:
                    yield Static(Text("No key of its own.", style="dim"), id="help-keys")
                if self.moment is not None:
                    heading, body = self.moment
                    yield Static(Text(heading), classes="help-heading")
                    yield Static(body, id="help-rule")  # rule_text: plain text, never markup
            yield Static(Text(f"{self.closing}, enter or esc closes; ↑ ↓ scroll"), id="help-hint")

    def on_mount(self) -> None:
        self._fit()
        self.query_one("#help-body").focus()  # the arrows and page keys scroll it

    def on_resize(self) -> None:
        self._fit()

    def _fit(self) -> None:
        # The body scrolls within what the terminal leaves below the title and above the hint
        # (and the border): a max-height in the stylesheet cannot say "the screen less 4 rows".
        self.query_one("#help-body").styles.max_height = max(3, self.size.height - 4)

    def action_close(self) -> None:
        self.dismiss(None)


def app_keys(app: App[Any], action: str) -> list[str]:
    """The keys bound to the app's ``action`` now, the keymap applied: read from the top screen
    that is not a dialog, whose active bindings include the app's (a dialog's leave them out)."""
    for screen in reversed(app.screen_stack):
        if not screen.is_modal:
            found = (a.binding for a in screen.active_bindings.values() if a.node is app)
            return [key_text(app, b) for b in found if action_name(b.action) == action]
    return []


def help_for(screen: Screen[Any]) -> HelpDialog:
    """The help of ``screen`` as it is now (its focus decides which keys work)."""
    name, purpose = screen_help(screen)
    keys = key_lines(screen.app, screen.active_bindings.values())
    closing = " ".join(app_keys(screen.app, "help")) or "f1"
    return HelpDialog(name, purpose, keys, moment_of(screen), closing)
