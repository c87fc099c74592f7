"""Tests of ``companion bug-report ID`` (companion/review/bugreport.py): one JSON file with the
app's, Python's and the platform's versions, every game's rules version, the checksums of the
data files, and the session's export, which imports as it is (or taken out of the file) to
the same session; an unknown session is one sentence and exit 2, and no file."""

from __future__ import annotations

import hashlib
import json
import platform
import shutil
from pathlib import Path

import pytest
from test_review_helpers import count_rows, new_driver, play_reconquista, why_starts

import companion
from companion.cli import main
from companion.datafiles import data_dir
from companion.errors import EXIT_OK, EXIT_USAGE
from companion.games import GAMES, load
from companion.review import bugreport
from companion.review.exchange import export_data, import_session
from companion.store.db import Store


def tray_session(store: Store) -> int:
    sid, driver = new_driver(store, "dice", 11)
    driver.type("2d6 Attack")
    driver.type("3 5")
    driver.type("1d20 Save")
    driver.roll()
    return sid


def test_the_report_holds_the_versions_the_checksums_and_the_export(store: Store) -> None:
    sid = tray_session(store)
    report = bugreport.bug_report(store, sid)
    assert report["format"] == "tabletop-companion/bug-report" and report["version"] == 1
    assert report["app"] == {"name": "tabletop-companion", "version": companion.__version__}
    assert report["python"] == {
        "version": platform.python_version(),
        "implementation": platform.python_implementation(),
    }
    assert report["platform"] == platform.platform()
    assert report["rules_versions"] == {g.id: load(g.id).rules_version for g in GAMES}
    root = data_dir()
    shipped = sorted(p.relative_to(root).as_posix() for p in root.rglob("*.toml"))
    assert list(report["data_files"]) == shipped
    assert {
        "reconquista/map.toml",
        "reconquista/tables.toml",
        "simancas/cards.toml",
        "dice_tray.toml",
    } <= set(shipped)
    for name, checksum in report["data_files"].items():
        assert checksum == hashlib.sha256((root / name).read_bytes()).hexdigest()
    assert report["session_files"] == []
    export = export_data(store, sid)
    assert report["export"] == export | {"exported": report["export"]["exported"]}
    assert report["export"]["session"]["rules_version"] == load("dice").rules_version
    json.loads(bugreport.bug_report_text(store, sid))  # the file's text is the document


def test_changing_a_data_file_changes_its_checksum(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    copy = tmp_path / "data"
    shutil.copytree(data_dir(), copy)
    monkeypatch.setattr("companion.datafiles.data_dir", lambda: copy)
    before = bugreport.data_checksums()
    assert before == bugreport.data_checksums()  # the same files, the same sums
    tray = copy / "dice_tray.toml"
    tray.write_text(tray.read_text(encoding="utf-8") + "\n# one more line\n", encoding="utf-8")
    after = bugreport.data_checksums()
    assert after["dice_tray.toml"] != before["dice_tray.toml"]
    assert {k: v for k, v in after.items() if k != "dice_tray.toml"} == {
        k: v for k, v in before.items() if k != "dice_tray.toml"
    }


def test_a_session_on_its_own_map_names_the_file_and_its_checksum(store: Store, tmp_path: Path) -> None:
    own = tmp_path / "my-map.toml"
    shutil.copy(data_dir() / "reconquista" / "map.toml", own)
    sid = store.create_session("reconquista", 3, {"map": str(own), "tables": str(tmp_path / "gone.toml")})
    files = bugreport.bug_report(store, sid)["session_files"]
    assert files == [
        {"key": "map", "path": str(own), "sha256": hashlib.sha256(own.read_bytes()).hexdigest()},
        {"key": "tables", "path": str(tmp_path / "gone.toml"), "sha256": None},
    ]


def assert_same_session(store: Store, sid: int, fresh: Store, new: int) -> None:
    assert fresh.log(new).digests == store.log(sid).digests
    assert fresh.state(new) == store.state(sid)
    old_info, new_info = store.session(sid), fresh.session(new)
    assert (new_info.game, new_info.seed, new_info.status, new_info.steps, new_info.summary) == (
        old_info.game,
        old_info.seed,
        old_info.status,
        old_info.steps,
        old_info.summary,
    )


def test_the_report_imports_as_the_session_it_carries(store: Store, fresh: Store) -> None:
    sid, driver = play_reconquista(store, 2, until=why_starts("Events: 2D6"))
    driver.type("4 5")
    text = bugreport.bug_report_text(store, sid)
    done = import_session(fresh, text, "companion-bug-1.json")
    assert_same_session(store, sid, fresh, done.session_id)
    # The export taken out of the file imports as well (as a copy: the database holds it now).
    extracted = json.dumps(json.loads(text)["export"])
    again = import_session(fresh, extracted, "export.json", again=True)
    assert_same_session(store, sid, fresh, again.session_id)


# -- the command -------------------------------------------------------------------------------------


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "c.db")
    s = Store(path)
    tray_session(s)
    s.close()
    return path


def test_cli_writes_the_default_file_in_the_current_folder(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    assert main(["--db", db, "bug-report", "1"]) == EXIT_OK
    captured = capsys.readouterr()
    assert captured.out == ""
    assert (
        captured.err
        == "Bug report of session 1 written to companion-bug-1.json: attach this file to your report.\n"
    )
    report = json.loads((work / "companion-bug-1.json").read_text(encoding="utf-8"))
    assert report["export"]["session"]["game"] == "dice" and len(report["export"]["steps"]) == 4
    # It imports with the command as it is.
    assert main(["--db", str(tmp_path / "other.db"), "import", "companion-bug-1.json"]) == EXIT_OK
    assert "as session 1 (dice, 4 steps, active)" in capsys.readouterr().out


def test_cli_output_to_a_file_or_stdout(db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "report.json"
    assert main(["--db", db, "bug-report", "1", "-o", str(target)]) == EXIT_OK
    assert f"written to {target}:" in capsys.readouterr().err
    assert json.loads(target.read_text(encoding="utf-8"))["format"] == "tabletop-companion/bug-report"
    assert main(["--db", db, "bug-report", "1", "-o", "-"]) == EXIT_OK
    out = capsys.readouterr()
    assert json.loads(out.out)["export"]["session"]["id"] == 1 and out.err == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["bug-report", "99"], "There is no session 99 in {db}."),
        (
            ["bug-report", "1", "-o", "{db}"],
            "{db} is the database itself (c.db); write the export to another file.",
        ),
        (["bug-report", "x"], "Argument ID: 'x' is not a session number (a whole number from 1)"),
    ],
)
def test_cli_refusals_are_one_sentence_exit_2_and_no_file(
    db: str,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    monkeypatch.chdir(tmp_path)
    before = count_rows(Store(db))
    database = Path(db).read_bytes()
    assert main(["--db", db, *[a.format(db=db) for a in args]]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith("companion: " + message.format(db=db)), err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert not list(tmp_path.glob("companion-bug-*"))
    assert Path(db).read_bytes() == database and count_rows(Store(db)) == before
