"""The keys a user may move: every screen binding's stable id, its key and what it does.

The screens give each of these bindings its id (``Binding(..., id="game.undo")``) and the
settings file's ``[keys]`` table moves a key by that id (Textual's keymap, ``App.set_keymap``).
The list is kept here, apart from the screens, so that ``companion config`` and the settings'
validation know it without importing a screen; tests/screens/test_settings.py checks that it is the
very set of ids the screens bind, with the same keys.

An id is named for where it acts: ``app.*`` on every screen, ``home.*`` on the home screen,
``game.*`` on every game screen that has the action (Reconquista, Terra de Castells, the Battle
of Simancas, the Dice tray), ``reconquista.*``, ``castells.*``, ``simancas.*`` and ``dice.*`` on
one game's screen, ``history.*`` on History and the screens opened from it, ``log.*`` on a session's log.
The keys of the dialogs (y, n, escape, enter) and the number keys that pick an option stay
where they are.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class KeyBinding:
    """One binding a user may move: its ``id``, its ``keys`` (Textual's names, comma-separated
    where it has several), what it does and the screens it is on."""

    id: str
    keys: str
    what: str
    where: str


GAME_SCREENS = "Reconquista, Terra de Castells, Battle of Simancas, Dice tray"

BINDINGS: tuple[KeyBinding, ...] = (
    KeyBinding("app.quit", "q", "Quit", "every screen"),
    KeyBinding("app.help", "f1", "Help: the screen's keys and the rule of its question", "every screen"),
    KeyBinding("home.dice_tray", "d", "Dice tray", "Home"),
    KeyBinding("home.history", "h", "History", "Home"),
    KeyBinding("home.abandon", "x", "Abandon the unfinished session highlighted", "Home"),
    KeyBinding("game.undo", "ctrl+z", "Undo", GAME_SCREENS),
    KeyBinding(
        "game.rule", "f2,question_mark", "The rule behind the step", f"{GAME_SCREENS}, a session's log"
    ),
    KeyBinding("game.back", "escape", "Back", GAME_SCREENS),
    KeyBinding("game.undo_to", "f6", "Undo to a step (picked from the log)", GAME_SCREENS),
    KeyBinding("game.redo", "ctrl+y", "Redo (what the last undo took back)", GAME_SCREENS),
    KeyBinding("game.note", "f5", "A note on the step on screen (a bookmark)", GAME_SCREENS),
    KeyBinding("game.branch", "f9", "Branch here: a new session from this one's log so far", GAME_SCREENS),
    KeyBinding(
        "game.name_dice",
        "f7",
        "Name the dice rolled on the table (the luck ledger tests each named die)",
        "Reconquista, Terra de Castells, Dice tray",
    ),
    KeyBinding("game.abandon", "ctrl+x", "Abandon the session (History keeps it)", GAME_SCREENS),
    KeyBinding("game.roll", "r", "Roll (the app rolls)", "Reconquista, Terra de Castells, Dice tray"),
    KeyBinding("game.done", "enter", "Done (an instruction carried out)", "Reconquista, Terra de Castells"),
    KeyBinding("game.correct", "c", "Correct a die", "Reconquista, Terra de Castells"),
    KeyBinding("game.edit", "e", "Fix the board by hand", "Reconquista, Terra de Castells"),
    KeyBinding("reconquista.board", "tab,b", "Board / Now (a narrow terminal)", "Reconquista"),
    KeyBinding(
        "game.all_done",
        "a",
        "All done (every instruction up to the next question)",
        "Reconquista, Terra de Castells",
    ),
    KeyBinding(
        "game.choose_done",
        "d",
        "Done (a menu's last option: Done, No movement, End the turn)",
        "Reconquista, Terra de Castells",
    ),
    KeyBinding("reconquista.why_not", "w", "Why not? (purchases refused)", "Reconquista"),
    KeyBinding("castells.why_not", "w", "Why not? (Phase 3 actions not offered)", "Terra de Castells"),
    KeyBinding("reconquista.dice_mode", "ctrl+d", "Dice mode", "Reconquista"),
    KeyBinding("simancas.cards", "ctrl+r", "Card types", "Battle of Simancas"),
    KeyBinding("simancas.discards", "f3", "Discard pile", "Battle of Simancas"),
    KeyBinding("simancas.guide", "f4", "Guide on/off", "Battle of Simancas"),
    KeyBinding("dice.end_session", "ctrl+o", "End session", "Dice tray"),
    KeyBinding(
        "dice.test_roll",
        "f8",
        "Mark the roll highlighted as a test roll, left out of the luck ledger (again: not)",
        "Dice tray",
    ),
    KeyBinding("history.open", "enter", "Read log", "History"),
    KeyBinding("history.resume", "r", "Resume", "History, a session's log"),
    KeyBinding("history.delete", "delete", "Delete an abandoned session", "History"),
    KeyBinding("history.sort", "s", "Sort", "History"),
    KeyBinding("history.search", "slash", "Search", "History"),
    KeyBinding("history.statistics", "t", "Statistics", "History"),
    KeyBinding("history.luck", "l", "Luck ledger", "History"),
    KeyBinding("history.story", "g", "Story (a Reconquista game's charts)", "History, a session's log"),
    KeyBinding("history.back", "escape", "Back", "History, a session's log, Statistics, Luck ledger"),
    KeyBinding("log.view", "v", "Log / table", "a session's log"),
    KeyBinding("log.previous_phase", "left_square_bracket", "Previous phase", "a session's log"),
    KeyBinding("log.next_phase", "right_square_bracket", "Next phase", "a session's log"),
    KeyBinding("log.turn", "t", "Go to turn", "a session's log"),
    KeyBinding("log.note", "f5", "A note on the step highlighted (a bookmark)", "a session's log"),
    KeyBinding("log.next_note", "n", "Next noted step", "a session's log"),
    KeyBinding(
        "log.branch",
        "b",
        "Branch here: a new session from the log up to the step highlighted",
        "a session's log",
    ),
    KeyBinding("log.previous_note", "N", "Previous noted step", "a session's log"),
    KeyBinding(
        "log.test_roll",
        "f8",
        "Mark the roll highlighted as a test roll, left out of the luck ledger (again: not)",
        "a session's log",
    ),
)

BY_ID = {b.id: b for b in BINDINGS}

#: The modifiers Textual reads before a key ("ctrl+shift+z").
MODIFIERS = ("ctrl", "shift", "alt", "meta", "super", "hyper")
#: The keys Textual names by a word, besides the characters' names ("question_mark").
NAMED_KEYS = frozenset(
    {
        "escape", "enter", "tab", "backspace", "delete", "insert", "space",
        "up", "down", "left", "right", "home", "end", "pageup", "pagedown",
        *(f"f{n}" for n in range(1, 25)),
        # The short names Textual gives some characters (companion: textual.keys).
        "slash", "backslash", "at", "minus", "plus", "underscore",
    }
)  # fmt: skip


def key_problem(keys: str) -> str | None:
    """Why ``keys`` (one key, or several comma-separated) is not a key Textual knows, or None.

    A key is a single character ("u", "?"), a key's name ("f5", "pagedown", "question_mark")
    or either after modifiers ("ctrl+z", "ctrl+shift+left"). A name Textual does not know would
    bind nothing, silently: it is refused instead."""
    from textual.keys import key_to_character  # a small module of Textual's, no widgets

    parts = [p.strip() for p in keys.split(",")]
    if not keys.strip() or any(not p for p in parts):
        return "is not a key (an empty name)"
    for part in parts:
        if part == "+":
            continue
        *mods, base = part.split("+")
        if part.endswith("+"):
            return f"is not a key ('{part}' names no key after its '+')"
        bad = next((m for m in mods if m not in MODIFIERS), None)
        if bad is not None:
            return f"is not a key ('{bad}' is not a modifier; the modifiers are {', '.join(MODIFIERS)})"
        if len(base) == 1 and base.isprintable() and not base.isspace():
            continue
        if base in NAMED_KEYS or (len(base) > 1 and key_to_character(base) is not None):
            continue
        return (
            f"is not a key ('{base}' is no key's name: write a character such as 'u', "
            "or a name such as 'f5', 'pagedown', 'ctrl+z', 'question_mark')"
        )
    return None


def binding_problem(binding_id: str) -> str | None:
    """Why ``binding_id`` names no binding, or None; the nearest id is suggested."""
    if binding_id in BY_ID:
        return None
    import difflib

    near = difflib.get_close_matches(binding_id, BY_ID, n=1)
    hint = f"did you mean '{near[0]}'?" if near else "'companion config' lists them"
    return f"no binding has the id '{binding_id}' ({hint})"
