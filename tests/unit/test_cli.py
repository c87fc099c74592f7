"""Tests of the ``companion`` command: history, show and replay, their JSON and their exit codes."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from companion import dicetray
from companion.cli import main
from companion.driver import Driver
from companion.errors import EXIT_DIVERGED, EXIT_OK, EXIT_USAGE
from companion.store.db import Store

ROOT = Path(__file__).resolve().parents[2]
TRAY = dicetray.GAME


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``python -m companion ARGS`` in a fresh process, as a shell would run it."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    env.pop("COMPANION_DB", None)
    return subprocess.run(
        [sys.executable, "-m", "companion", *args],
        check=False,
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.fixture
def recorded(db: str) -> int:
    """A dice tray session with typed and app dice and an undone answer; returns its id."""
    store = Store(db)
    sid = store.create_session("dice", 2024)
    driver = Driver(TRAY, 2024, recorder=store.recorder(sid))
    driver.type("2d6 Attack")
    driver.type("3 5")
    driver.type("1d20 Save")
    driver.roll()
    driver.type("3d6")
    driver.type("1 1 1")
    driver.undo()
    driver.type("6 5 4")
    store.close()
    return sid


def tamper(db: str, sid: int, step: int, answer: str) -> None:
    """Change the logged answer of ``step`` behind the app's back."""
    con = sqlite3.connect(db)
    try:
        cur = con.execute(
            "UPDATE event SET answer = ? WHERE session_id = ? AND step = ? AND kind = 'answer'",
            (answer, sid, step),
        )
        assert cur.rowcount == 1
        con.commit()
    finally:
        con.close()


def logged_answer(db: str, sid: int, step: int) -> object:
    con = sqlite3.connect(db)
    try:
        row = con.execute(
            "SELECT answer FROM event WHERE session_id = ? AND step = ? AND kind = 'answer' "
            "ORDER BY seq DESC LIMIT 1",
            (sid, step),
        ).fetchone()
    finally:
        con.close()
    return json.loads(row[0])


def assert_one_line_error(out: str, err: str) -> None:
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("companion: ")


# -- history ----------------------------------------------------------------------------------


def test_history_json_of_a_new_database_is_an_empty_list(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", db, "history", "--json"]) == EXIT_OK
    out, err = capsys.readouterr()
    assert json.loads(out) == []
    assert out.strip() == "[]"
    assert err == ""
    assert Path(db).is_file()


def test_history_json_lists_a_session(db: str, recorded: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", db, "history", "--json"]) == EXIT_OK
    sessions = json.loads(capsys.readouterr().out)
    assert len(sessions) == 1
    s = sessions[0]
    assert {"id", "game", "status", "steps", "dice_mode"} <= s.keys()
    assert (s["id"], s["game"], s["status"], s["steps"], s["dice_mode"]) == (
        recorded,
        "dice",
        "active",
        6,
        "mixed",
    )
    assert s["seed"] == 2024
    assert s["started"].endswith("+00:00")


def test_db_option_after_the_command(db: str, recorded: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["history", "--db", db, "--json"]) == EXIT_OK
    assert [s["id"] for s in json.loads(capsys.readouterr().out)] == [recorded]


def test_history_filters(db: str, recorded: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", db, "history", "--json", "--status", "finished"]) == EXIT_OK
    assert json.loads(capsys.readouterr().out) == []
    assert main(["--db", db, "history", "--json", "--game", "dice", "--status", "active"]) == EXIT_OK
    assert [s["id"] for s in json.loads(capsys.readouterr().out)] == [recorded]
    assert main(["--db", db, "history", "--json", "--game", "reconquista"]) == EXIT_OK
    assert json.loads(capsys.readouterr().out) == []


def test_history_table(db: str, recorded: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", db, "history"]) == EXIT_OK
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split()[:2] == ["ID", "GAME"]
    assert lines[1].split()[:2] == [str(recorded), "dice"]
    assert lines[1].rstrip().endswith("3 rolls")


def test_history_of_nothing_says_so_on_stderr(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", db, "history"]) == EXIT_OK
    out, err = capsys.readouterr()
    assert out == ""
    assert err.strip() == "No sessions yet."


# -- show ------------------------------------------------------------------------------------


def test_show_json_has_every_roll_with_its_source(
    db: str, recorded: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["--db", db, "show", str(recorded), "--json"]) == EXIT_OK
    data = json.loads(capsys.readouterr().out)
    assert data["session"]["id"] == recorded
    log = data["log"]
    assert [e["step"] for e in log] == list(range(6))
    rolls = [e for e in log if e["prompt"]["kind"] == "roll"]
    assert [(e["answer"], e["source"]) for e in rolls] == [
        ([3, 5], "physical"),
        (rolls[1]["answer"], "app"),
        ([6, 5, 4], "physical"),
    ]
    assert rolls[1]["prompt"] == {
        "kind": "roll",
        "n": 1,
        "sides": 20,
        "why": "Save",
        "topic": "dice.tray.roll",
        "data": {"label": "Save"},
    }
    assert all(e["kind"] == "answer" for e in log)  # the withdrawn answer is not shown
    assert [1, 1, 1] not in [e["answer"] for e in log]


def test_show_text(db: str, recorded: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", db, "show", str(recorded)]) == EXIT_OK
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"Session {recorded}: dice, active, 6 steps, seed 2024.")
    info = Store(db).session(recorded)
    assert info.commitment is not None
    assert lines[1] == (
        f"Commitment to its seed, made when it started: {info.commitment} ('companion verify' checks an export)."
    )
    assert len(lines) == 8
    assert lines[3].split() == ["2", "Roll", "2d6:", "Attack", "->", "3", "5", "(physical)"]
    assert lines[5].endswith("(app)")


# -- replay ------------------------------------------------------------------------------------


def test_replay_of_a_faithful_log(db: str, recorded: int, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--db", db, "replay", str(recorded)]) == EXIT_OK
    out, err = capsys.readouterr()
    assert out.strip() == f"Session {recorded}: replayed 6 steps; the state is the stored one."
    assert err == ""


def test_replay_of_a_session_with_no_steps(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    """A session opened and left before any answer has nothing to diverge from."""
    store = Store(db)
    sid = store.create_session("dice", 1)
    store.close()
    code = main(["--db", db, "replay", str(sid)])
    out, err = capsys.readouterr()
    assert (code, err) == (EXIT_OK, "")
    assert "replayed 0 steps" in out


def test_replay_of_a_tampered_roll_names_the_step(
    db: str, recorded: int, capsys: pytest.CaptureFixture[str]
) -> None:
    tamper(db, recorded, 1, "[4, 5]")  # was 3 5
    assert main(["--db", db, "replay", str(recorded)]) == EXIT_DIVERGED
    out, err = capsys.readouterr()
    assert out == ""
    assert "Step 2" in err
    assert "diverges" in err
    assert len(err.splitlines()) == 1


def test_replay_of_an_impossible_roll_is_a_divergence(
    db: str, recorded: int, capsys: pytest.CaptureFixture[str]
) -> None:
    tamper(db, recorded, 1, "[9, 9]")  # no d6 shows 9
    code = main(["--db", db, "replay", str(recorded)])
    out, err = capsys.readouterr()
    assert code == EXIT_DIVERGED
    assert "Step 2" in err
    assert out == ""


def test_show_of_a_damaged_answer_is_one_sentence(
    db: str, recorded: int, capsys: pytest.CaptureFixture[str]
) -> None:
    tamper(db, recorded, 1, "not json at all")
    code = main(["--db", db, "show", str(recorded)])
    out, err = capsys.readouterr()
    assert code == EXIT_USAGE
    assert_one_line_error(out, err)


# -- abandon ------------------------------------------------------------------------------------


@pytest.mark.parametrize("reply", ["y\n", "YES\n", " y \n"])
def test_abandon_asks_and_a_yes_puts_the_session_away(
    db: str, recorded: int, reply: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(reply))
    assert main(["abandon", str(recorded), "--db", db]) == EXIT_OK
    out, err = capsys.readouterr()
    assert out == ""
    assert f"Abandon session {recorded}, Dice tray" in err and "[y/N]" in err
    assert "Abandoned session" in err
    assert Store(db).session(recorded).status == "abandoned"


@pytest.mark.parametrize("reply", ["", "n\n", "\n", "yeah sure\n", "y" * 200])
def test_abandon_without_a_yes_changes_nothing(
    db: str, recorded: int, reply: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """No answer (stdin closed: ''), no, an empty line or anything else keeps the session."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(reply))
    assert main(["abandon", str(recorded), "--db", db]) == EXIT_OK
    err = capsys.readouterr().err
    assert "Nothing changed" in err and "Abandoned" not in err
    assert Store(db).session(recorded).status == "active"


def test_abandon_yes_does_not_ask_and_again_says_it_is_done(
    db: str, recorded: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO("n\n"))  # not read
    assert main(["abandon", str(recorded), "--yes", "--db", db]) == EXIT_OK
    assert "[y/N]" not in capsys.readouterr().err
    assert Store(db).session(recorded).status == "abandoned"
    assert main(["abandon", str(recorded), "--yes", "--db", db]) == EXIT_OK
    assert "abandoned already" in capsys.readouterr().err
    assert main(["--db", db, "history", "--status", "abandoned", "--json"]) == EXIT_OK
    assert [s["id"] for s in json.loads(capsys.readouterr().out)] == [recorded]


def test_abandon_refuses_a_finished_or_unknown_session_in_one_sentence(
    db: str, recorded: int, capsys: pytest.CaptureFixture[str]
) -> None:
    store = Store(db)
    done = store.create_session("dice", 5)
    d = Driver(TRAY, 5, recorder=store.recorder(done))
    d.type("2d6")
    d.roll()
    d.type("end")
    store.close()
    for sid in (done, 999):
        assert main(["abandon", str(sid), "--yes", "--db", db]) == EXIT_USAGE
        out, err = capsys.readouterr()
        assert_one_line_error(out, err)
    assert Store(db).session(done).status == "finished"


# -- bad usage ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args",
    [
        ["frobnicate"],
        ["show", "abc"],
        ["show", "0"],
        ["show"],
        ["show", "12345"],
        ["replay", "12345"],
        ["history", "--game", "nosuch"],
        ["history", "--status", "paused"],
    ],
    ids=" ".join,
)
def test_bad_usage_exits_2_with_one_line(
    db: str, args: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["--db", db, *args])
    out, err = capsys.readouterr()
    assert code == EXIT_USAGE
    assert_one_line_error(out, err)


def test_bad_usage_messages_name_the_problem(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    main(["--db", db, "show", "abc"])
    assert "'abc' is not a session number" in capsys.readouterr().err
    main(["--db", db, "show", "12345"])
    assert "no session 12345" in capsys.readouterr().err
    main(["--db", db, "history", "--game", "nosuch"])
    assert "nosuch" in capsys.readouterr().err


def test_a_session_number_too_big_for_the_database(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--db", db, "show", "99999999999999999999"])
    out, err = capsys.readouterr()
    assert code == EXIT_USAGE
    assert_one_line_error(out, err)


def test_not_a_database_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("not a database\n")
    code = main(["--db", str(path), "history", "--json"])
    out, err = capsys.readouterr()
    assert code == EXIT_USAGE
    assert_one_line_error(out, err)
    assert "not" in err and "database" in err


# -- the real command, in its own process ---------------------------------------------------------


@pytest.mark.slow
def test_process_history_json_of_a_new_database(tmp_path: Path) -> None:
    result = run("--db", "NEW.db", "history", "--json", cwd=tmp_path)
    assert result.returncode == 0
    assert json.loads(result.stdout) == []
    assert result.stderr == ""
    assert (tmp_path / "NEW.db").is_file()


@pytest.mark.slow
def test_process_replay_exit_codes(tmp_path: Path, db: str, recorded: int) -> None:
    ok = run("--db", db, "replay", str(recorded), cwd=tmp_path)
    assert ok.returncode == 0
    assert "replayed 6 steps" in ok.stdout
    (face,) = logged_answer(db, recorded, 3)  # the app's d20
    tamper(db, recorded, 3, json.dumps([face % 20 + 1]))
    bad = run("--db", db, "replay", str(recorded), cwd=tmp_path)
    assert bad.returncode == 1
    assert "Step 4" in bad.stderr
    assert bad.stdout == ""
    assert "Traceback" not in bad.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    "args",
    [["frobnicate"], ["show", "abc"], ["show", "7"]],
    ids=" ".join,
)
def test_process_bad_usage_exits_2(tmp_path: Path, args: list[str]) -> None:
    result = run("--db", str(tmp_path / "x.db"), *args, cwd=tmp_path)
    assert result.returncode == 2
    assert_one_line_error(result.stdout, result.stderr)


@pytest.mark.slow
def test_process_not_a_database(tmp_path: Path) -> None:
    (tmp_path / "notes.db").write_text("hello\n")
    result = run("--db", "notes.db", "history", cwd=tmp_path)
    assert result.returncode == 2
    assert_one_line_error(result.stdout, result.stderr)
