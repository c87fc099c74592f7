"""Small helpers for the sentences the games write: shared so that every game says things alike."""

from __future__ import annotations


def upper_first(text: str) -> str:
    """'the city of León' -> 'The city of León': the first letter upper-cased, the rest kept
    as written (``str.capitalize`` would lower-case the rest, names included: 'león')."""
    return text[:1].upper() + text[1:]
