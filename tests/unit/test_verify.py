"""App dice anyone can verify (#36, 10): the commitment to a session's seed (companion/dice.py),
kept by the store, carried by the exports and the reports, and checked by ``companion verify``
(companion/review/verify.py) against every app roll of an export."""

from __future__ import annotations

import hashlib
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from test_review_helpers import new_driver, play_reconquista

from companion.cli import main
from companion.dice import app_roll, commitment, is_nonce, new_nonce
from companion.errors import EXIT_DIVERGED, EXIT_OK, EXIT_USAGE
from companion.review.exchange import ImportRefused, export_bbcode, export_data, import_session
from companion.review.verify import verify
from companion.store.db import Store


def test_the_commitment_is_sha256_of_the_scheme_the_nonce_and_the_seed() -> None:
    nonce = "0123456789abcdef0123456789abcdef"
    expected = hashlib.sha256(f"tabletop-companion app dice v1:{nonce}:42".encode()).hexdigest()
    assert commitment(42, nonce) == expected
    assert commitment(43, nonce) != expected and commitment(42, "f" * 32) != expected
    assert is_nonce(new_nonce()) and new_nonce() != new_nonce()
    for bad in ("", "0" * 31, "G" * 32, "A" * 32, None, 5):
        assert not is_nonce(bad)


def test_a_new_session_is_committed_to_its_seed(store: Store) -> None:
    sid, _driver = new_driver(store, "dice", 7)
    info = store.session(sid)
    assert info.dice_nonce is not None and is_nonce(info.dice_nonce)
    assert info.commitment == commitment(7, info.dice_nonce)
    assert info.to_json()["commitment"] == info.commitment


def export_text(store: Store, sid: int, **change: Any) -> str:
    doc = export_data(store, sid)
    for key, value in change.items():
        doc["session"][key] = value
    return json.dumps(doc)


def app_game(store: Store) -> tuple[int, Any]:
    """A dice tray with app rolls between typed ones, and a roll undone and rolled again."""
    sid, driver = new_driver(store, "dice", 11)
    for spec in ("2d6", "1d20", "3d6"):
        driver.type(spec)
        driver.roll()
    driver.type("1d6")
    driver.type("4")
    driver.type("2d10")
    driver.roll()
    driver.undo()
    driver.roll()  # the same step: the same dice (a fact of the table stands through an undo)
    return sid, driver


def test_an_export_s_app_rolls_are_the_seed_s_and_its_seed_the_one_committed(store: Store) -> None:
    sid, driver = app_game(store)
    found = verify(export_text(store, sid), "game.json")
    app = [s for s in driver.steps if s.source == "app"]
    assert found.ok and found.rolls == len(app) == 4
    assert found.sentence.startswith(
        f"All 4 app rolls of game.json (session {sid}, dice) come from its seed, and"
    )
    assert f"commitment {store.session(sid).commitment[:16]}" in found.sentence  # type: ignore[index]


def test_a_changed_app_roll_is_named_at_its_step(store: Store) -> None:
    sid, _driver = app_game(store)
    doc = export_data(store, sid)
    step = next(i for i, s in enumerate(doc["steps"]) if s["source"] == "app" and len(s["answer"]) == 3)
    seeded = app_roll(11, step, 3, 6)
    doc["steps"][step]["answer"] = [seeded[0] % 6 + 1, *seeded[1:]]
    found = verify(json.dumps(doc), "game.json")
    assert not found.ok
    assert found.sentence.startswith(f"game.json (session {sid}, dice): step {step + 1}'s app dice ")
    assert f"it gives {' '.join(map(str, seeded))} there" in found.sentence
    assert "so the export was changed after the app wrote it" in found.sentence


def test_a_seed_changed_in_the_export_no_longer_gives_its_commitment(store: Store) -> None:
    sid, _driver = app_game(store)
    found = verify(export_text(store, sid, seed=12), "game.json")
    assert not found.ok and "do not give its commitment" in found.sentence
    with pytest.raises(ImportRefused, match="do not give its commitment"):
        import_session(Store(":memory:"), export_text(store, sid, seed=12), "game.json")


def test_an_export_from_before_commitments_is_checked_against_its_seed_alone(store: Store) -> None:
    sid, _driver = app_game(store)
    found = verify(export_text(store, sid, commitment=None, dice_nonce=None), "old.json")
    assert found.ok and found.rolls == 4
    assert found.sentence.endswith(
        "it was recorded before commitments, so the seed is checked alone (it could have been chosen after the rolls)."
    )
    # Imported, such a session has no commitment either: none was shown when it started.
    fresh = Store(":memory:")
    done = import_session(fresh, export_text(store, sid, commitment=None, dice_nonce=None), "old.json")
    assert fresh.session(done.session_id).commitment is None


def test_an_import_keeps_the_commitment(store: Store) -> None:
    sid, _driver = app_game(store)
    fresh = Store(":memory:")
    done = import_session(fresh, export_text(store, sid), "game.json")
    assert fresh.session(done.session_id).commitment == store.session(sid).commitment


def test_bad_files_are_one_sentence(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name, content in (("notes.txt", "hello"), ("empty.json", ""), ("list.json", "[1, 2]")):
        path = tmp_path / name
        path.write_text(content, encoding="utf-8")
        assert main(["verify", str(path)]) == EXIT_USAGE
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.rstrip().endswith("."), err
    assert main(["verify", str(tmp_path / "missing.json")]) == EXIT_USAGE
    assert "Cannot read" in capsys.readouterr().err


def test_the_command_says_it_in_one_sentence_and_its_exit_code(
    store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sid, _driver = app_game(store)
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(export_text(store, sid), encoding="utf-8")
    bad.write_text(export_text(store, sid, seed=99), encoding="utf-8")
    assert main(["verify", str(good)]) == EXIT_OK
    assert capsys.readouterr().out.startswith("All 4 app rolls of ")
    assert main(["verify", str(bad)]) == EXIT_DIVERGED
    assert "do not give its commitment" in capsys.readouterr().err
    assert main(["verify", "--json", str(good)]) == EXIT_OK
    said = json.loads(capsys.readouterr().out)
    assert said["ok"] is True and said["rolls"] == 4


def test_a_report_reveals_the_seed_only_once_the_game_has_ended(store: Store) -> None:
    sid, _driver = play_reconquista(store, 3)  # played to its end by the bot
    info = store.session(sid)
    assert info.status == "finished"
    text = export_bbcode(store, sid)
    assert f"seed 3, nonce {info.dice_nonce}, commitment {info.commitment}" in text
    playing, _ = new_driver(store, "dice", 9)
    in_play = export_bbcode(store, playing)
    assert f"commitment to the seed {store.session(playing).commitment}" in in_play
    assert "seed 9" not in in_play.replace(str(store.session(playing).commitment), "")  # its hex may hold "9"


def test_a_nonce_damaged_in_the_database_is_no_commitment(db: str, store: Store) -> None:
    sid, _driver = app_game(store)
    con = sqlite3.connect(db)
    con.execute("UPDATE session SET dice_nonce = 'not a nonce' WHERE id = ?", (sid,))
    con.commit()
    con.close()
    info = store.session(sid)
    assert info.damaged is None and info.commitment is None
