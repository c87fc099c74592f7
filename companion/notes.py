"""A player's notes on the steps of a session: what the table said, a turning point to find again.

A note is text a player typed on a step (on the game screen, for the step on screen; in
History, on any step; ``companion note``): a few words or a few lines, kept with the session
(the store's ``note`` table), shown beside its step in the live log, History's step-through,
the story and every export. A step with a note is a bookmark: History jumps between them and
finds sessions by their text. Text from a user: checked here, shown as text, never as markup.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

#: The longest note: a few paragraphs. A page pasted by mistake is refused, not cut short.
NOTE_MAX = 2000
#: The most lines a note keeps: "one line or a few".
NOTE_LINES = 12


@dataclass(frozen=True)
class Note:
    """The note on step ``step`` (0 first) of a session, as it stands (the newest written)."""

    step: int
    text: str
    at: datetime

    def to_json(self) -> dict[str, object]:
        """As the exports and ``companion show --json`` write it: the step counted from 1."""
        return {"step": self.step + 1, "text": self.text, "at": self.at.isoformat(timespec="seconds")}


def note_text(text: str) -> str:
    """A note as typed, checked: spaces around it and around each line dropped. ValueError,
    with the one sentence to show, for a note that is empty, longer than NOTE_MAX characters
    or NOTE_LINES lines, or holds a control character (tabs become spaces)."""
    lines = [line.replace("\t", " ").strip() for line in str(text).splitlines()]
    while lines and not lines[-1]:
        lines.pop()
    while lines and not lines[0]:
        lines.pop(0)
    note = "\n".join(lines)
    if not note:
        raise ValueError("A note cannot be empty: type a word or a few about the step.")
    if len(note) > NOTE_MAX:
        raise ValueError(f"A note is at most {NOTE_MAX:,} characters; that one has {len(note):,}.")
    if len(lines) > NOTE_LINES:
        raise ValueError(f"A note is at most {NOTE_LINES} lines; that one has {len(lines)}.")
    if not all(line.isprintable() for line in lines):
        raise ValueError("A note cannot hold control characters: type it as words, digits and signs.")
    return note


def is_note(value: object) -> bool:
    """Whether ``value`` is a note ``note_text`` keeps as it is (a stored one, checked)."""
    if not isinstance(value, str):
        return False
    try:
        return note_text(value) == value
    except ValueError:
        return False


def first_line(text: str, width: int = 60) -> str:
    """A note in a line of at most ``width`` characters: its first line, cut with an ellipsis
    (and one after it where more lines follow)."""
    line, _, rest = text.partition("\n")
    if len(line) > width:
        return line[: width - 1].rstrip() + "…"
    return line + ("…" if rest else "")
