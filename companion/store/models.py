"""The tables: one row per session, one append-only row per logged event, the marks of test
rolls and the notes on steps.

The schema itself is created and changed only by the Alembic migrations in
``companion/store/migrations``; these models must match them (a test checks).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel


class SessionRow(SQLModel, table=True):
    """A game (or dice tray) session."""

    __tablename__ = "session"

    id: int | None = Field(default=None, primary_key=True)
    game: str = Field(index=True)
    seed: int
    dice_mode: str = ""  # '', 'physical', 'app' or 'mixed': as chosen (config dice), else its dice's sources
    status: str = Field(default="active", index=True)  # 'active', 'finished' or 'abandoned' (STATUSES)
    started: datetime = Field(index=True)
    last_activity: datetime = Field(index=True)
    ended: datetime | None = None
    steps: int = 0  # answered prompts in the effective log
    summary: str = ""
    config: str = "{}"  # JSON
    state: str = "{}"  # JSON snapshot of the state after the last step
    rules_version: int = 1  # the version of the game's rules its log was recorded under
    dice_nonce: str | None = (
        None  # the nonce of the commitment to the seed (dice.commitment); None before 0007
    )
    die: str | None = None  # the name of the dice rolled on the table now (dice.die_name); 0008
    # A branch (0010): the session it was branched from (None once imported elsewhere, or for
    # any other session), the steps of that session's log it took, and the same said as text,
    # "session 12 at step 40", kept as it was by an export and an import.
    parent_id: int | None = None
    branch_step: int | None = None
    branch_of: str | None = None


class EventRow(SQLModel, table=True):
    """One answered prompt ('answer') or one withdrawal of steps ('rewind').

    Rows are never changed or deleted. The effective log is rebuilt by reading
    them in ``seq`` order: an answer at ``step`` s replaces whatever stood at s
    and after; a rewind at ``step`` k withdraws every step from k on.
    """

    __tablename__ = "event"
    __table_args__ = (
        # SQLite backs the constraint with an index on (session_id, seq): reads use it.
        UniqueConstraint("session_id", "seq", name="uq_event_session_seq"),
    )

    id: int | None = Field(default=None, primary_key=True)
    session_id: int = Field(foreign_key="session.id")
    seq: int
    step: int
    kind: str  # 'answer' or 'rewind'
    turn: int | None = None
    phase: str | None = None
    prompt: str = "null"  # JSON
    answer: str = "null"  # JSON
    source: str | None = None  # 'physical', 'app', 'player', 'ack' or 'edit' (a correction by hand)
    digest: str | None = None  # fingerprint of the state after this event
    at: datetime
    die: str | None = None  # a roll from the table: the name of the dice it was rolled with (0008)


class RollMarkRow(SQLModel, table=True):
    """A roll marked as a test roll, or the mark taken off: the luck ledger leaves test rolls out.

    Append-only like the events: the newest row for an event (``session_id``, ``seq``) says
    whether it is a test roll now.
    """

    __tablename__ = "roll_mark"

    id: int | None = Field(default=None, primary_key=True)
    session_id: int = Field(foreign_key="session.id", index=True)
    seq: int  # the event row of the roll
    test: bool
    at: datetime


class NoteRow(SQLModel, table=True):
    """A player's note on a step of a session (companion/notes.py), or its removal (``text``
    empty). Append-only: the newest row for a step (``session_id``, ``step``) says its note."""

    __tablename__ = "note"

    id: int | None = Field(default=None, primary_key=True)
    session_id: int = Field(foreign_key="session.id", index=True)
    step: int  # the step noted, 0 first
    text: str
    at: datetime
