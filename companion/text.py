"""Small helpers for the sentences the games write: shared so that every game says things alike,
and so that text from players, data files and imports reaches a terminal as text."""

from __future__ import annotations

import re


def upper_first(text: str) -> str:
    """'the city of León' -> 'The city of León': the first letter upper-cased, the rest kept
    as written (``str.capitalize`` would lower-case the rest, names included: 'león')."""
    return text[:1].upper() + text[1:]


#: What a terminal does not print but obeys: the C0 controls but newline and tab (ESC starts
#: colour, cursor and clipboard sequences such as OSC 52; BEL, backspace and carriage return
#: rewrite the line), DEL, the C1 controls (U+0085, U+009B CSI...), and the bidirectional
#: overrides, embeddings, isolates and marks, which make a line read in another order than it
#: is written ("Trojan Source").
_UNPRINTABLE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match[0])
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` safe to print on a terminal: each control character and bidirectional override
    written as a visible escape (ESC as ``\\x1b``, U+202E as ``\\u202e``); newlines, tabs and
    every printable character kept as they are. Whatever was stored or imported is printed
    through this (``companion show``, ``history``, the CSV and Markdown exports, the screens)."""
    return _UNPRINTABLE.sub(_escape, text)
