"""Games recorded under earlier rules (docs/design.md, "The store", "The driver"): the rules
version a session records, its migration, resuming a session whose log no longer fits the
rules (replayed as far as it does, the rest withdrawn, one sentence), History and the command
line reading it as recorded, and old exports importing.

The divergence is built with a small game of this file, ``Shifting``, whose rules change
between version 1 and version 2: version 2 asks another question at step 4. It is put in
the registry for these tests only (``companion.games.load`` patched), as the real games are
looked up."""

from __future__ import annotations

import sqlite3
from collections.abc import Generator, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config

from companion import games
from companion.driver import Driver
from companion.prompts import Choose, Prompt, Roll, Tell
from companion.store import preflight
from companion.store.db import Store

EXPORTS = Path(__file__).resolve().parent / "exports"
WIDE = (170, 45)
NEW_QUESTION = "Step 4 under the new rules: which way?"


@dataclass
class Tally:
    answers: list[Any] = field(default_factory=list)
    ended: bool = False


class Shifting:
    """Seven questions, then an instruction. Version 1 asks seven rolls; version 2 asks a choice
    instead of the fourth roll (``asks_again``); ``counts_twice`` keeps a state version 1 did
    not (the same questions, a different state)."""

    id = "shifting"
    title = "Shifting rules"

    def __init__(self, rules_version: int, asks_again: bool = True, counts_twice: bool = False) -> None:
        self.rules_version = rules_version
        self.asks_again = asks_again and rules_version >= 2
        self.counts_twice = counts_twice

    def new_state(self, seed: int, config: dict[str, Any]) -> Tally:
        return Tally()

    def procedure(self, state: Tally) -> Generator[Prompt, Any, None]:
        for i in range(7):
            prompt: Prompt = (
                Choose(["left", "right"], NEW_QUESTION)
                if i == 3 and self.asks_again
                else Roll(1, 6, f"roll {i + 1}")
            )
            state.answers.append((yield prompt))
        yield Tell("Put the dice away.")
        state.ended = True

    def snapshot(self, state: Tally) -> dict[str, Any]:
        snap: dict[str, Any] = {"answers": state.answers, "ended": state.ended}
        if self.counts_twice:
            snap["count"] = 2 * len(state.answers)
        return snap

    def where(self, state: Tally) -> tuple[int | None, str | None]:
        return 1 + len(state.answers) // 4, "play"

    def summary(self, state: Tally) -> str:
        return "put away" if state.ended else f"{len(state.answers)} answers"


class Rules:
    """Which version of Shifting the app plays now; ``games.load('shifting')`` gives it."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.versions: dict[int, Shifting] = {1: Shifting(1), 2: Shifting(2)}
        self.now = 1
        real = games.load
        monkeypatch.setattr(
            games, "load", lambda game_id: self.game if game_id == "shifting" else real(game_id)
        )

    @property
    def game(self) -> Shifting:
        return self.versions[self.now]


@pytest.fixture
def rules(monkeypatch: pytest.MonkeyPatch) -> Rules:
    return Rules(monkeypatch)


@pytest.fixture
def db(tmp_path: Path) -> str:
    return str(tmp_path / "companion.db")


@pytest.fixture
def store(db: str, clock: Any) -> Iterator[Store]:
    s = Store(db, clock=clock)
    yield s
    s.close()


def recorded(store: Store, rules: Rules, rolls: list[int]) -> int:
    """A Shifting session recorded under the rules ``rules`` plays now, one typed die a step."""
    sid = store.create_session("shifting", 7)
    driver = Driver(rules.game, 7, recorder=store.recorder(sid))
    for face in rolls:
        driver.type(str(face))
    return sid


def rows(db: str, table: str) -> list[tuple[Any, ...]]:
    con = sqlite3.connect(db)
    try:
        return con.execute(f"SELECT * FROM {table} ORDER BY id").fetchall()
    finally:
        con.close()


def assert_one_sentence(message: str) -> None:
    assert message.endswith("."), message
    assert "\n" not in message and "Traceback" not in message, message


# -- the rules version a session records ------------------------------------------------------


def test_a_new_session_records_the_rules_it_is_played_under(store: Store, rules: Rules) -> None:
    assert store.session(store.create_session("shifting", 1)).rules_version == 1
    rules.now = 2
    assert store.session(store.create_session("shifting", 1)).rules_version == 2
    assert store.session(store.create_session("shifting", 1, rules_version=1)).rules_version == 1
    assert store.session(store.create_session("dice", 1)).rules_version == games.load("dice").rules_version


def test_every_game_declares_its_rules_version() -> None:
    for entry in games.GAMES:
        version = games.load(entry.id).rules_version
        assert isinstance(version, int) and version >= 1, entry.id


def test_the_migration_gives_the_sessions_of_the_previous_schema_version_1(db: str) -> None:
    """A database of schema 0002 (before the column) with a session in it, opened by this app."""
    cfg = Config()
    cfg.set_main_option("script_location", "companion.store:migrations")
    from sqlalchemy import create_engine

    engine = create_engine(f"sqlite:///{db}")
    with engine.begin() as con:
        cfg.attributes["connection"] = con
        command.upgrade(cfg, "0002")
    engine.dispose()
    con = sqlite3.connect(db)
    con.execute(
        "INSERT INTO session (game, seed, dice_mode, status, started, last_activity, steps, summary, config, state)"
        " VALUES ('dice', 3, '', 'active', '2026-01-01 10:00:00', '2026-01-01 10:00:00', 0, '', '{}', '{}')"
    )
    con.commit()
    con.close()
    assert preflight.check(db) == "0002"
    store = Store(db)
    try:
        assert preflight.check(db) == preflight.HEAD == "0003"
        [info] = store.sessions()
        assert (info.game, info.seed, info.rules_version) == ("dice", 3, 1)
    finally:
        store.close()
    con = sqlite3.connect(db)
    try:
        column = next(c for c in con.execute("PRAGMA table_info(session)") if c[1] == "rules_version")
    finally:
        con.close()
    assert column[3] == 1 and column[4] == "1"  # NOT NULL, default 1
