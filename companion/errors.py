"""Errors whose message is one sentence a person can act on.

Front ends print the message and nothing else: no traceback reaches a user.
"""

from __future__ import annotations


class CompanionError(Exception):
    """Base of every error the app explains to the user in one sentence."""


class StoreError(CompanionError):
    """The database cannot be opened, read or written."""


class DataFileError(CompanionError):
    """A game data file is missing or does not validate."""


class ReplayDivergence(CompanionError):
    """Re-running a logged session did not reproduce what was logged."""

    def __init__(self, step: int, message: str) -> None:
        super().__init__(message)
        self.step = step
