"""Errors whose message is one sentence a person can act on.

Front ends print the message and nothing else: no traceback reaches a user.
"""

from __future__ import annotations

#: The exit codes of the ``companion`` command: done; a replay that diverged or a simulation
#: with errors; bad usage or bad input (one sentence on standard error).
EXIT_OK, EXIT_DIVERGED, EXIT_USAGE = 0, 1, 2


class CompanionError(Exception):
    """Base of every error the app explains to the user in one sentence."""


class UsageError(CompanionError):
    """Bad usage or bad input on the command line."""


class StoreError(CompanionError):
    """The database cannot be opened, read or written."""


class DamagedRow(StoreError):
    """A row holds a value SQLite's JSON functions cannot read (edited by hand or by another
    program): a damaged session, not a corrupt database (its integrity check still passes)."""


class DataFileError(CompanionError):
    """A game data file is missing or does not validate."""


class ReplayDivergence(CompanionError):
    """Re-running a logged session did not reproduce what was logged."""

    def __init__(self, step: int, message: str) -> None:
        super().__init__(message)
        self.step = step
