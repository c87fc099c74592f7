"""Migration 0004: the steps logged before prompts carried topics get one, and count as before.

tests/premigration/before-topics.sqlite was recorded by the app just before topics (schema
0003: tests/premigration/record_before_topics.py says how), and before-topics-figures.json
holds the statistics and the luck ledger that app worked out on it, from the wording of the
questions. Opened by this app, the database is migrated: every step gets a topic (derived
from its wording, companion/store/legacy.py), and the figures, now worked out from topics and
data, are the same.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion import games, interface
from companion.review.luck import luck
from companion.review.stats import castells_stats, statistics
from companion.sessions import resume_session
from companion.store import preflight
from companion.store.db import Store
from companion.store.legacy import derive

HERE = Path(__file__).resolve().parents[1] / "premigration"


@pytest.fixture
def old_db(tmp_path: Path) -> str:
    path = tmp_path / "before-topics.sqlite"
    shutil.copy(HERE / "before-topics.sqlite", path)
    assert preflight.check(str(path)) == "0003"
    return str(path)


def as_json(value: Any) -> Any:
    return json.loads(json.dumps(dataclasses.asdict(value), default=str, ensure_ascii=False))


def stats_json(stats: Any) -> Any:
    """The statistics as the figures file holds them: each game's under its id (the table dice
    the Reconquista figures carry for the screen's charts are the luck ledger's, compared apart)."""
    games = {gid: {k: v for k, v in as_json(f).items() if k != "dice"} for gid, f in stats.games}
    return {"scope": stats.scope, **games, "sessions_by_game": [as_json(c) for c in stats.sessions_by_game]}


def recorded(now: Any, then: Any) -> Any:
    """``now`` cut to the keys ``then`` has (a figure added since is left out), each verdict
    (a sentence) taken as ``then`` has it."""
    if isinstance(now, dict) and isinstance(then, dict):
        return {k: then[k] if k == "verdict" else recorded(now.get(k), then[k]) for k in then}
    if isinstance(now, list) and isinstance(then, list) and len(now) == len(then):
        return [recorded(a, b) for a, b in zip(now, then, strict=True)]
    return now


def prompts(db: str) -> list[tuple[str, dict[str, Any]]]:
    con = sqlite3.connect(db)
    try:
        rows = con.execute(
            "SELECT s.game, e.prompt FROM event AS e JOIN session AS s ON s.id = e.session_id"
            " WHERE e.prompt IS NOT NULL ORDER BY e.id"
        ).fetchall()
    finally:
        con.close()
    return [(game, json.loads(p)) for game, p in rows if p != "null"]


def test_the_statistics_and_the_luck_ledger_are_the_same_after_the_migration(old_db: str) -> None:
    before = json.loads((HERE / "before-topics-figures.json").read_text(encoding="utf-8"))
    assert not any("topic" in p for _, p in prompts(old_db))
    store = Store(old_db)
    try:
        assert preflight.check(old_db) == preflight.HEAD
        after = {"statistics": stats_json(statistics(store)), "luck": as_json(luck(store))}
    finally:
        store.close()
    # The ledger has learnt more since that app (the G test, the exact test, the streaks...)
    # and says it in other words: its figures of then are compared, not its sentences.
    assert recorded(after, before) == before
    for die in after["luck"]["dice"]:
        for test in (die["physical"], die["app"]):
            assert test["g"] is not None or not test["dice"]
    # The figures are not empty: the file holds every kind of roll the statistics count.
    reconquista = after["statistics"]["reconquista"]
    for figure in ("rebellions", "events", "reaction_regions", "reinforcements"):
        assert sum(c["count"] for c in reconquista[figure]) > 0, figure
    assert reconquista["rebellions_refused"] == 1
    assert sum(c["count"] for c in after["statistics"]["castells"]["army_points"]) > 0


def test_every_step_gets_a_topic_once_marked_legacy(old_db: str) -> None:
    Store(old_db).close()
    migrated = prompts(old_db)
    steps = [p for _, p in migrated if p.get("kind") != "edit"]
    assert steps and all(p.get("legacy") is True and p["topic"].count(".") >= 2 for p in steps)
    topics = {p["topic"] for p in steps}
    assert {
        "reconquista.rebellions.table",
        "reconquista.events.roll",
        "reconquista.reaction.region",
        "reconquista.reaction.reinforcement",
        "castells.battle.reroll",
    } <= topics
    columns = {p["data"]["column"] for p in steps if p["topic"] == "reconquista.reaction.reinforcement"}
    assert columns <= {-1, 0, 1, 2, 3} and -1 in columns and len(columns) > 1
    again = [p for p in steps if p["topic"] == "reconquista.rebellions.table" and p["data"]["again"]]
    assert len(again) == 1 and ", rolled again (" in again[0]["why"]
    # Opened again, nothing more changes: the migration ran once.
    Store(old_db).close()
    assert prompts(old_db) == migrated


def test_the_migrated_sessions_resume_with_the_topics_the_games_ask_now(old_db: str) -> None:
    store = Store(old_db)
    try:
        for info in store.sessions():
            game = games.load(info.game)
            resumed = resume_session(store, info.id, game)
            steps = resumed.driver.steps
            if info.rules_version == game.rules_version:
                assert resumed.notice is None, info.id
                assert len(steps) == info.steps
            elif resumed.notice is None:
                # Recorded under rules changed since, and its log fits the rules of now whole
                # (docs/design.md, "Rules versions"): every step resumes, nothing to say.
                assert len(steps) == info.steps, info.id
            elif interface.under_rules(game, info.rules_version) is not None:
                # Recorded under rules the game still plays (Terra de Castells' and Reconquista's
                # version 2): it replays whole under them and goes on under the current ones
                # from a point it names.
                assert "begun under earlier rules" in resumed.notice, info.id
                assert len(steps) == info.steps, info.id
            else:
                # Recorded under rules changed since and no longer played, and parting from
                # them: it resumes as far as it fits, and says so.
                assert "earlier rules" in resumed.notice, info.id
                assert 0 < len(steps) < info.steps
            # In memory each step has the prompt as the game asks it now: no legacy topic left.
            assert not any(s.prompt.legacy for s in steps)
            assert all(s.prompt.topic and ".legacy." not in s.prompt.topic for s in steps), info.game
    finally:
        store.close()


def test_a_damaged_row_is_left_as_it_is(old_db: str) -> None:
    con = sqlite3.connect(old_db)
    con.execute("UPDATE event SET prompt = '{not json' WHERE id = 5")
    con.execute("UPDATE event SET prompt = '[1, 2]' WHERE id = 6")
    con.commit()
    con.close()
    Store(old_db).close()
    con = sqlite3.connect(old_db)
    try:
        rows = dict(con.execute("SELECT id, prompt FROM event WHERE id IN (5, 6, 7)").fetchall())
    finally:
        con.close()
    assert rows[5] == "{not json" and rows[6] == "[1, 2]" and '"topic"' in rows[7]


@pytest.mark.parametrize(
    ("game", "prompt", "topic", "data"),
    [
        (
            "reconquista",
            {
                "kind": "roll",
                "n": 1,
                "sides": 6,
                "why": "Muslim reaction: reinforcement table, column '2 cities' (x)",
            },
            "reconquista.reaction.reinforcement",
            {"again": False, "column": 2},
        ),
        (
            "reconquista",
            {
                "kind": "roll",
                "n": 1,
                "sides": 6,
                "why": "Muslim reaction: reinforcement table, column North Africa, rolled again (a 6 is not a row of the table)",
            },
            "reconquista.reaction.reinforcement",
            {"again": True, "column": -1},
        ),
        (
            "castells",
            {
                "kind": "choose",
                "options": ["Reroll the 2 failed dice (1 army point)", "Accept the result"],
                "why": "x",
            },
            "castells.battle.reroll",
            {"failed": 2, "options": ["reroll", "accept"]},
        ),
        ("simancas", {"kind": "tell", "text": "Deal 9 cards."}, "simancas.legacy.tell", None),
        *(
            ("castells", {"kind": "tell", "text": text}, "castells.battle.result", data)
            for text, data in (
                (
                    (
                        "The Saracens take Olerdola (Player 1 1 against the Saracens' 4): return Player 1's castle "
                        "on Olerdola to Player 1's reserve and move the Saracen figure to Olerdola."
                    ),
                    {"kind": "saracen", "castle": "Olerdola", "result": "taken"},
                ),
                (
                    (
                        "Coll de Balaguer holds (Anna 2 against the Saracens' 2, as a favour card says): no change "
                        "on the board. Anna paid 1 army point for rerolls: set the army marker to 3."
                    ),
                    {"kind": "saracen", "castle": "Coll de Balaguer", "result": "held"},
                ),
                (
                    "The Saracens roll no success: Tortosa holds without a defence roll. No change on the board.",
                    {"kind": "saracen", "castle": "Tortosa", "result": "held"},
                ),
                (
                    "Tortosa holds without a defence roll: no change on the board.",
                    {"kind": "saracen", "castle": "Tortosa", "result": "held"},
                ),
                (
                    (
                        "Player 2 takes Flix (Player 2 2, Player 1 0): return Player 1's castle to Player 1's "
                        "reserve and place a castle of Player 2's on Flix. Player 2 cannot attack again this turn."
                    ),
                    {"kind": "players", "castle": "Flix", "result": "taken"},
                ),
                (
                    (
                        "Mora holds (Player 1 4, Player 2 4): no change on the board. Player 1 paid 2 army points "
                        "for rerolls: set the army marker to 1."
                    ),
                    {"kind": "players", "castle": "Mora", "result": "held"},
                ),
                (
                    "Player 3 rolls no success: Olerdola holds. No change on the board.",
                    {"kind": "players", "castle": "Olerdola", "result": "held"},
                ),
                (
                    "Olerdola holds. No change on the board.",
                    {"kind": "players", "castle": "Olerdola", "result": "held"},
                ),
            )
        ),
        (
            "castells",
            {"kind": "tell", "text": "Anna (red) takes Flix (Anna (red) 3, Bo 1): return Bo's castle ..."},
            "castells.battle.result",
            {"kind": "players", "castle": "Flix", "result": "taken"},
        ),
        (
            "castells",
            {
                "kind": "tell",
                "text": "Flix holds (Anna (red) 3 against the Saracens' 3): no change on the board.",
            },
            "castells.battle.result",
            {"kind": "saracen", "castle": "Flix", "result": "held"},
        ),
        # An instruction that tells no battle's result stays one found no topic for, and so does
        # a text longer than any result was (a damaged or hostile import: not scanned).
        ("castells", {"kind": "tell", "text": "Century XII begins."}, "castells.legacy.tell", None),
        (
            "castells",
            {"kind": "tell", "text": "Mora holds. No change on the board." + " " * 2000},
            "castells.legacy.tell",
            None,
        ),
    ],
)
def test_the_derivation_reads_the_old_wording(
    game: str, prompt: dict[str, Any], topic: str, data: dict[str, Any] | None
) -> None:
    derived = derive(game, prompt)
    assert derived["topic"] == topic and derived["legacy"] is True
    assert derived.get("data") == data
    assert derive(game, derived) is derived  # a prompt with a topic keeps it


def test_a_step_an_earlier_migration_found_no_topic_for_is_read_again(old_db: str) -> None:
    """Migration 0006: a battle's result that 0004 marked ``castells.legacy.tell`` is given its
    topic and facts, and counts in the statistics; the other such steps stay as they were."""
    Store(old_db).close()
    migrated = prompts(old_db)
    results = [p for g, p in migrated if g == "castells" and p["topic"] == "castells.battle.result"]
    assert results and all(p["legacy"] is True and p["data"]["result"] in ("held", "taken") for p in results)
    con = sqlite3.connect(old_db)
    try:  # as migration 0004 left them: no topic found for a result
        ids = [
            i
            for (i, p) in con.execute("SELECT id, prompt FROM event").fetchall()
            if '"castells.battle.result"' in p
        ]
        for i in ids:
            (p,) = con.execute("SELECT prompt FROM event WHERE id = ?", (i,)).fetchone()
            old = json.loads(p)
            del old["data"]
            old["topic"] = "castells.legacy.tell"
            con.execute("UPDATE event SET prompt = ? WHERE id = ?", (json.dumps(old), i))
        con.execute("UPDATE alembic_version SET version_num = '0005'")
        con.commit()
    finally:
        con.close()
    assert sum(p["topic"] == "castells.battle.result" for _, p in prompts(old_db)) == 0
    store = Store(old_db)  # opening migrates it
    try:
        assert preflight.check(old_db) == preflight.HEAD
        assert prompts(old_db) == migrated
        saracens = {c.key: c.count for c in castells_stats(store).battles}
        assert saracens == {"saracens": 1, "defenders": 0}
    finally:
        store.close()
