"""The shared sentence helpers of companion/text.py."""

from __future__ import annotations

import pytest

from companion.text import upper_first


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
