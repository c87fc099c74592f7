"""Where a branch came from, in words: "session 12 at step 40".

A branch (``sessions.branch_session``) is a session whose log starts as another's up to a
step. The store keeps the link (``parent_id``) and these words (``branch_of``); an export
carries the words, and an import keeps them as text, marked as imported: the session they
name is in another database, so they are never made a link to one of this database's.
"""

from __future__ import annotations

#: The longest origin kept: the app's own words are short, an import's are checked.
BRANCH_OF_MAX = 200
IMPORTED = " (imported)"


def branch_words(session_id: int, steps: int) -> str:
    """The origin of a branch made here."""
    return f"session {session_id} at step {steps}"


def is_branch_of(value: object) -> bool:
    """Whether ``value`` is an origin the store keeps: printable text of 1 to BRANCH_OF_MAX characters."""
    return isinstance(value, str) and 0 < len(value) <= BRANCH_OF_MAX and value.isprintable()


def imported(said: str) -> str:
    """An origin as an import keeps it: its words, said to come from another database."""
    return said if said.endswith(IMPORTED) else said[: BRANCH_OF_MAX - len(IMPORTED)] + IMPORTED
