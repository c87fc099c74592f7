"""The shared sentence helpers of companion/text.py."""

from __future__ import annotations

import pytest

from companion.text import upper_first, visible


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("the city of León", "The city of León"),
        ("the fortress of Al-Ándalus", "The fortress of Al-Ándalus"),
        ("ávila", "Ávila"),
        ("", ""),
    ],
)
def test_upper_first_keeps_the_rest_as_written(text: str, expected: str) -> None:
    """A sentence that starts with a place names it as the map spells it: only the first
    letter is upper-cased (str.capitalize gave 'The city of león')."""
    assert upper_first(text) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Siege \x1b]52;c;SGk=\x07", "Siege \\x1b]52;c;SGk=\\x07"),
        ("\x1b[2Jclear", "\\x1b[2Jclear"),
        ("next\x85line\x9b", "next\\x85line\\x9b"),
        ("\u202eevil\u202c \u2066x\u2069", "\\u202eevil\\u202c \\u2066x\\u2069"),
        ("back\rspace\x08\x7f", "back\\x0dspace\\x08\\x7f"),
        ("two\nlines\tand a tab", "two\nlines\tand a tab"),
        ("León ✝ [x2] \\x1b", "León ✝ [x2] \\x1b"),
    ],
)
def test_visible_writes_control_characters_as_escapes(text: str, expected: str) -> None:
    """What a terminal would obey is written as an escape; newlines, tabs and every printable
    character (accents, symbols, brackets, a backslash) stay as written."""
    assert visible(text) == expected
