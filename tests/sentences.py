"""What a message for a person is held to in the tests: one sentence."""

from __future__ import annotations

import re


def assert_one_sentence(message: str) -> None:
    """One sentence, ending in a full stop, on one line, no traceback in it, no second sentence
    inside (a '.', '!' or '?' followed by a space and a capital)."""
    assert message.endswith("."), message
    assert "\n" not in message and "Traceback" not in message, message
    assert not re.search(r"[.!?]\s+[A-Z]", message[:-1]), message
