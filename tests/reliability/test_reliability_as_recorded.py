"""Imports "as recorded" are checked like any other input, and the readers are safe on their own
(issue #33, items 1 and 2).

An export that claims earlier rules and no longer replays is kept as recorded: nothing replays
its steps past the point the rules part, so each is held to what its game can ask
(``Game.asks``: a known topic, the game's own patterns, its dice) and its final state to the
shape of the game's own. The statistics, the luck ledger and the table dice read whatever the
database holds, so a session they cannot read (edited by hand, or brought in by an older build)
is named and left out, and the others are counted as before. "Corrupt" is said only when SQLite's
integrity check says so.
"""

from __future__ import annotations

import copy
import gzip
import json
import signal
import sqlite3
from collections import Counter
from collections.abc import Callable, Iterator
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from companion.cli import main
from companion.driver import canonical, digest
from companion.errors import EXIT_OK, DamagedRow, StoreError
from companion.games import GAMES, load
from companion.review.effective import MOST_SIDES
from companion.review.exchange import BUG_REPORT_FORMAT, ImportRefused, import_session
from companion.review.luck import luck
from companion.review.stats import statistics
from companion.review.table_dice import table_dice
from companion.store import preflight
from companion.store.db import Store

EXPORTS = Path(__file__).resolve().parents[1] / "exports"


def export(name: str) -> dict[str, Any]:
    path = EXPORTS / name
    if path.suffix == ".gz":
        with gzip.open(path, "rt") as fh:
            text = fh.read()
    else:
        text = path.read_text()
    data: dict[str, Any] = json.loads(text)
    return data


@pytest.fixture(scope="module")
def reconquista() -> dict[str, Any]:
    return export("reconquista-rules-2-finished.json.gz")


def claimed_earlier(doc: dict[str, Any], change: Callable[[dict[str, Any]], None]) -> str:
    """``doc`` claiming rules version 1 (which no build plays: its log is kept as recorded where it
    parts from the current rules), changed by ``change``, its last digest made to match its final
    state as anyone can."""
    out = copy.deepcopy(doc)
    out["session"]["rules_version"] = 1
    change(out)
    out["steps"][-1]["digest"] = digest(canonical(out["final_state"]))
    return json.dumps(out)


def first(doc: dict[str, Any], kind: str, topic: str | None = None) -> dict[str, Any]:
    step: dict[str, Any] = next(
        s
        for s in doc["steps"]
        if s["prompt"].get("kind") == kind and (topic is None or s["prompt"].get("topic") == topic)
    )
    return step


def as_enter(
    pattern: str, answer: str, topic: str = "reconquista.legacy.enter"
) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        step = first(doc, "roll")
        step["prompt"] = {"kind": "enter", "why": "Name it", "pattern": pattern, "hint": "h", "topic": topic}
        step["answer"] = answer

    return change


def die(sides: int, n: int = 1) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        step = first(doc, "roll")
        step["prompt"] |= {"n": n, "sides": sides}
        step["answer"] = [1] * n

    return change


def topic(name: str) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        first(doc, "tell")["prompt"]["topic"] = name

    return change


def options(count: int) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        step = first(doc, "choose")
        step["prompt"]["options"] = [f"option {i}" for i in range(count)]
        step["answer"] = "option 0"

    return change


def state(**parts: Any) -> Callable[[dict[str, Any]], None]:
    def change(doc: dict[str, Any]) -> None:
        doc["final_state"] |= parts

    return change


#: (what the file carries, the change, words of the sentence that refuses it)
HOSTILE = [
    ("an invalid regular expression", as_enter("(", "a"), "pattern this game never asks"),
    ("a regular expression that never ends matching", as_enter("(a+)+$", "a" * 40 + "!"), "pattern"),
    ("a game's own topic on a pattern not its own", as_enter(".*", "x", "castells.setup.army"), "topic"),
    ("a die of 10^15 faces", die(10**15), "a roll of dice, which this game never rolls"),
    ("a d7", die(7), "a roll of 1d7, which this game never rolls"),
    ("a thousand dice", die(6, 1000), "a roll of 1000d6"),
    ("no dice at all", die(6, 0), "a roll of 0d6"),
    ("a topic of no game", topic("nonsense.topic"), "a topic this game never asks ('nonsense.topic')"),
    ("another game's topic", topic("simancas.hand.result"), "a topic this game never asks"),
    ("a topic of control characters", topic("\x1b[2J" * 30), "a topic this game never asks ('it')"),
    ("no topic", topic(""), "a topic this game never asks"),
    ("a choice of 100,000 options", options(100_000), "a choice among 100000 options"),
    ("a turn that is text", state(turn="seven"), "its final state is not a state of Reconquista (turn"),
    ("areas that are a number", state(areas=5), "(areas is not"),
    ("an area that is a list", state(areas={"Granada": [1, 2]}), "(areas.Granada is not"),
    ("a key the game never keeps", state(treasure=10**6), "(treasure is not"),
    (
        "a state that is a list",
        lambda d: d.__setitem__("final_state", [1, 2]),
        "not a valid session export: final_state",
    ),
]


class Stuck(Exception):
    """The import ran past the time any check takes (a pattern that never ends matching)."""


@pytest.fixture
def deadline() -> Iterator[None]:
    """Fail a test, instead of hanging the suite, if it runs past 20 s."""

    def stuck(signum: int, frame: Any) -> None:
        raise Stuck

    previous = signal.signal(signal.SIGALRM, stuck)
    signal.alarm(20)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.mark.parametrize(("what", "change", "words"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_a_file_kept_as_recorded_is_held_to_what_its_game_can_ask(
    what: str,
    change: Callable[[dict[str, Any]], None],
    words: str,
    reconquista: dict[str, Any],
    store: Store,
    deadline: None,
    figures: Counter[str],
) -> None:
    """Item 1: "Check an as-recorded step against what its game can ask (a known topic, the
    game's own patterns, dice within what the game rolls, the state's schema); refuse the rest in
    one sentence." Before, each of these was kept as recorded (or spun, or raised a traceback)."""
    with pytest.raises(ImportRefused) as refused:
        import_session(store, claimed_earlier(reconquista, change), "game.json")
    sentence = str(refused.value)
    assert words in sentence, sentence
    assert sentence.count(". ") == 0 and "\n" not in sentence and "\x1b" not in sentence, sentence
    assert store.sessions() == []  # nothing created
    figures["hostile_files"] += 1


def test_a_bug_report_carrying_such_a_file_is_refused_the_same(
    reconquista: dict[str, Any], store: Store, deadline: None
) -> None:
    """ "A bug-report bundle goes through the same path.\""""
    carried = json.loads(claimed_earlier(reconquista, as_enter("(a+)+$", "a" * 40 + "!")))
    report = json.dumps({"format": BUG_REPORT_FORMAT, "export": carried})
    with pytest.raises(ImportRefused, match="pattern this game never asks"):
        import_session(store, report, "report.json")
    assert store.sessions() == []


@pytest.mark.parametrize(
    "name",
    [
        "reconquista-before-rules-versions.json",
        "dice-tray-before-rules-versions.json",
        "reconquista-rules-2-finished.json.gz",
        "reconquista-rules-2-unfinished.json.gz",
        "simancas-rules-2-finished.json.gz",
        "simancas-rules-2-unfinished.json.gz",
        "castells-rules-2-finished.json.gz",
        "castells-rules-2-unfinished.json.gz",
    ],
)
def test_the_logs_earlier_builds_wrote_still_pass_those_checks(name: str, store: Store) -> None:
    """The checks refuse what no game asks, never a game's own log: every export an earlier build
    wrote under rules the current ones part from, claimed as rules version 1 (which no build
    plays) so that it is kept as recorded, imports with the note."""
    doc = export(name)
    done = import_session(store, claimed_earlier(doc, lambda d: None), name)
    assert done.note is not None and "kept as recorded" in done.note, done.note
    assert store.session(done.session_id).steps == len(doc["steps"])


def test_every_game_rolls_within_what_the_ledger_counts() -> None:
    """The luck ledger leaves out a die of more than MOST_SIDES faces as damage: no game rolls one."""
    for entry in GAMES:
        if entry.module is None:
            continue
        game = load(entry.id)
        assert max(game.asks.sides, default=2) <= MOST_SIDES, entry.id


# -- the readers, safe on their own --------------------------------------------------------


def three_games(db: Path) -> None:
    store = Store(str(db))
    for name in (
        "reconquista-rules-2-finished.json.gz",
        "simancas-rules-2-finished.json.gz",
        "castells-rules-2-finished.json.gz",
        "reconquista-rules-3-at-ab87e86-bot.json.gz",
    ):
        import_session(store, json.dumps(export(name)), name)
    store.close()


def edit(db: Path, sql: str, *params: Any) -> None:
    """Change a row behind the app's back (by hand, or another program)."""
    con = sqlite3.connect(db)
    assert con.execute(sql, params).rowcount >= 1, sql
    con.commit()
    con.close()


def a_step(db: Path, sid: int, like: str) -> tuple[int, dict[str, Any]]:
    con = sqlite3.connect(db)
    seq, prompt = con.execute(
        "SELECT seq, prompt FROM event WHERE session_id = ? AND prompt LIKE ? ORDER BY seq LIMIT 1",
        (sid, f"%{like}%"),
    ).fetchone()
    con.close()
    return int(seq), json.loads(prompt)


def prompt_of(db: Path, sid: int, like: str, change: Callable[[dict[str, Any]], Any]) -> None:
    seq, prompt = a_step(db, sid, like)
    change(prompt)
    edit(db, "UPDATE event SET prompt = ? WHERE session_id = ? AND seq = ?", json.dumps(prompt), sid, seq)


def answer_of(db: Path, sid: int, like: str, value: Any) -> None:
    seq, _prompt = a_step(db, sid, like)
    edit(db, "UPDATE event SET answer = ? WHERE session_id = ? AND seq = ?", value, sid, seq)


REINFORCEMENT = "reconquista.reaction.reinforcement"

#: (the damage, the session it is done to, the change, the figures that must leave it out:
#: those that read the damaged value; the others read past it)
DAMAGE: list[tuple[str, int, Callable[[Path], None], set[str]]] = [
    (
        "a table roll's question that is not JSON",
        1,
        # Its last character gone: the topic is still in the text, so the statistics read it.
        lambda db: edit(
            db,
            "UPDATE event SET prompt = substr(prompt, 1, length(prompt) - 1) WHERE session_id = 1 AND seq = ?",
            a_step(db, 1, REINFORCEMENT)[0],
        ),
        {"stats", "luck"},
    ),
    (
        "a table roll's answer that is not JSON",
        4,
        lambda db: answer_of(db, 4, REINFORCEMENT, "[1,"),
        {"stats", "luck"},
    ),
    (
        "a battle roll's answer that is a BLOB",
        3,
        lambda db: answer_of(db, 3, "castells.battle.roll", b"\x00\xff"),
        {"luck"},
    ),
    (
        "a die of 10^15 faces",
        1,
        lambda db: prompt_of(db, 1, '"kind": "roll"', lambda p: p.__setitem__("sides", 10**15)),
        {"luck"},
    ),
    (
        "a state that is not JSON",
        2,
        lambda db: edit(db, "UPDATE session SET state = '{\"hands\": [' WHERE id = 2"),
        {"stats"},
    ),
    (
        "a reinforcement column 99",
        1,
        lambda db: prompt_of(db, 1, REINFORCEMENT, lambda p: p["data"].__setitem__("column", 99)),
        set(),
    ),
    (
        "hands that are not tables",
        2,
        lambda db: edit(db, "UPDATE session SET state = ? WHERE id = 2", json.dumps({"hands": ["x", 5]})),
        set(),
    ),
    (
        "hands that are text",
        2,
        lambda db: edit(db, "UPDATE session SET state = ? WHERE id = 2", json.dumps({"hands": "x"})),
        set(),
    ),
    (
        "battles that are a table",
        3,
        lambda db: edit(db, "UPDATE session SET state = ? WHERE id = 3", json.dumps({"battles": {"a": 1}})),
        set(),
    ),
    (
        "a reroll question whose options are a table",
        3,
        lambda db: prompt_of(
            db, 3, "castells.battle.reroll", lambda p: p.__setitem__("options", {"reroll": "x"})
        ),
        set(),
    ),
]


def figures_of(db: Path) -> dict[str, Any]:
    store = Store(str(db))
    try:
        return {
            "stats": statistics(store).to_json(),
            "luck": luck(store).to_json(),
            "dice": table_dice(store).to_json(),
        }
    finally:
        store.close()


def notes_of(figures: dict[str, Any]) -> dict[str, list[str]]:
    stats = figures["stats"]
    return {
        "stats": [n for part in ("reconquista", "simancas", "castells") for n in stats[part]["notes"]],
        "luck": figures["luck"]["notes"],
    }


def without_notes(data: Any) -> Any:
    """The figures without the notes, and without the count of every session in the database
    (the sessions left out are still there: "Sessions: Reconquista 2")."""
    if isinstance(data, dict):
        return {k: without_notes(v) for k, v in data.items() if k not in ("notes", "sessions_by_game")}
    if isinstance(data, list):
        return [without_notes(v) for v in data]
    return data


@pytest.mark.parametrize(("what", "sid", "change", "leave_out"), DAMAGE, ids=[d[0] for d in DAMAGE])
def test_the_figures_leave_out_a_session_they_cannot_read_and_count_the_others(
    what: str,
    sid: int,
    change: Callable[[Path], None],
    leave_out: set[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    figures: Counter[str],
) -> None:
    """Item 1: "statistics, the luck ledger and the story bound and check what they read, and a
    session they cannot read is named and skipped, never fatal". Before: MemoryError, IndexError,
    "corrupt; restore a copy", or the whole ledger refused for one session."""
    damaged, clean = tmp_path / "damaged.db", tmp_path / "clean.db"
    three_games(damaged)
    change(damaged)
    three_games(clean)
    seen = figures_of(damaged)
    named = f"Session {sid} is left out"
    notes = notes_of(seen)
    for reader in ("stats", "luck"):
        assert any(named in n for n in notes[reader]) == (reader in leave_out), (reader, notes)
    if leave_out:
        # Where a reader leaves the session out, the others count exactly as with it gone.
        edit(clean, "DELETE FROM event WHERE session_id = ?", sid)
        edit(clean, "DELETE FROM session WHERE id = ?", sid)
        gone = figures_of(clean)
        for reader in leave_out:
            assert without_notes(seen[reader]) == without_notes(gone[reader]), reader
    for command in ("stats", "luck"):
        assert main(["--db", str(damaged), command]) == EXIT_OK
        out, err = capsys.readouterr()
        assert err == "" and (named in out) == (command in leave_out), out
    figures["damaged_rows"] += 1


# -- "corrupt" only when SQLite says so ---------------------------------------------------


def test_a_value_that_is_not_json_names_its_session_and_never_says_corrupt(tmp_path: Path) -> None:
    """Item 2: ""Corrupt" is said only when SQLite's integrity check says so; a malformed JSON value
    in a row is a damaged session, named." SQLite calls both "malformed"; the app said "corrupt;
    restore a copy", advice that would lose every game played since."""
    db = tmp_path / "c.db"
    three_games(db)
    edit(db, "UPDATE event SET answer = '[1,' WHERE session_id = 2 AND seq = 5")
    said = preflight.explain(sqlite3.OperationalError("malformed JSON"), str(db))
    assert isinstance(said, DamagedRow)
    assert str(said).startswith("Session 2 in the database") and "corrupt" not in str(said), said
    intact = preflight.explain(sqlite3.DatabaseError("database disk image is malformed"), str(db))
    assert "corrupt" not in str(intact) and "intact" in str(intact), intact


def test_a_database_whose_pages_are_damaged_is_still_called_corrupt(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    three_games(db)
    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    data = bytearray(db.read_bytes())
    page = 4096
    for at in range(2 * page, min(len(data), 40 * page), page):
        data[at : at + 64] = b"\xa5" * 64  # the headers of many b-tree pages
    db.write_bytes(bytes(data))
    said = preflight.explain(sqlite3.DatabaseError("database disk image is malformed"), str(db))
    assert isinstance(said, StoreError) and not isinstance(said, DamagedRow)
    assert "is corrupt; restore a copy" in str(said), said


async def test_the_statistics_and_luck_screens_name_a_session_they_leave_out(tmp_path: Path) -> None:
    """The same on the screens ("in the TUI too"): both open, show the other sessions' figures
    and name the damaged one, where the Luck screen once said nothing but an error."""
    from pilot_helpers import wait_until

    from screens.app import CompanionApp
    from screens.review import LuckScreen, StatisticsScreen

    db = tmp_path / "c.db"
    three_games(db)
    answer_of(db, 4, REINFORCEMENT, "[1,")
    app = CompanionApp(db_path=str(db), seed=1)
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_until(pilot, lambda: app.store_ready)
        for screen_class, shown in ((StatisticsScreen, "Reconquista"), (LuckScreen, "d6")):
            app.push_screen(screen_class())
            await wait_until(pilot, lambda c=screen_class: isinstance(app.screen, c) and app.screen.ready)
            screen: Any = app.screen
            screen.query_one("Select").value = ""  # every game
            await wait_until(pilot, lambda s=screen: s.ready)
            out = StringIO()
            console = Console(file=out, width=120, color_system=None)
            for w in screen.query("#review-body Static"):
                console.print(w.content)
            text = " ".join(out.getvalue().split())
            assert shown in text and "Session 4 is left out: its log is damaged at step" in text, text[:600]
            app.pop_screen()
