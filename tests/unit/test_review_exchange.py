"""Tests of export and import (companion/review/exchange.py) and of the commands export,
import, stats and luck: the three formats' content, every refusal (one sentence, nothing
created), and the round trip: play headless, export, import into a fresh database, replay,
the same final state, for Reconquista, the Battle of Simancas and the dice tray."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from test_review_helpers import (
    count_rows,
    new_driver,
    play_reconquista,
    simancas_hand,
    why_starts,
)

from companion.cli import main
from companion.driver import Driver, digest, verify
from companion.errors import EXIT_OK, EXIT_USAGE
from companion.games import load
from companion.review.exchange import (
    CSV_COLUMNS,
    FORMAT,
    FORMAT_VERSION,
    ImportRefused,
    export_bbcode,
    export_csv,
    export_data,
    export_json,
    export_markdown,
    import_session,
)
from companion.store.db import Store


def tray_session(store: Store) -> int:
    """A dice tray session: typed dice, app dice, an undone roll; 6 effective steps."""
    sid, driver = new_driver(store, "dice", 2024)
    driver.type("2d6 Attack")
    driver.type("6 6")
    driver.undo()
    driver.type("3 5")
    driver.type("1d20 Save")
    driver.roll()
    driver.type("end")
    return sid


def _aware(dt: datetime) -> datetime:
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=UTC)


def assert_one_sentence(message: str) -> None:
    assert message.endswith("."), message
    assert "\n" not in message and "Traceback" not in message, message


# -- export -------------------------------------------------------------------------------


def test_json_export_holds_the_session_and_its_effective_steps(store: Store) -> None:
    sid = tray_session(store)
    data = json.loads(export_json(store, sid))
    assert data["format"] == FORMAT and data["version"] == FORMAT_VERSION
    sess = data["session"]
    assert sess["id"] == sid and sess["game"] == "dice" and sess["title"] == "Dice tray"
    assert sess["seed"] == 2024 and sess["status"] == "finished" and sess["dice_mode"] == "mixed"
    assert sess["started"].startswith("2026-03-14T18:") and sess["ended"] is not None
    steps = data["steps"]
    assert [s["step"] for s in steps] == [1, 2, 3, 4, 5]
    assert [s["answer"] for s in steps][:3] == ["2d6 Attack", [3, 5], "1d20 Save"]  # the undone 6 6 is gone
    assert [s["source"] for s in steps] == ["player", "physical", "player", "app", "player"]
    assert steps[1]["prompt"] == {
        "kind": "roll",
        "n": 2,
        "sides": 6,
        "why": "Attack",
        "topic": "dice.tray.roll",
        "data": {"label": "Attack"},
    }
    log = store.log(sid)
    assert [s["digest"] for s in steps] == log.digests
    assert [datetime.fromisoformat(s["at"]) for s in steps] == [_aware(e.at) for e in log.events]
    assert data["final_state"] == store.state(sid)
    assert data["final_state"]["ended"] is True


def test_csv_export_is_one_row_a_step(store: Store) -> None:
    sid = tray_session(store)
    rows = list(csv.reader(io.StringIO(export_csv(store, sid))))
    assert tuple(rows[0]) == CSV_COLUMNS
    body = [dict(zip(CSV_COLUMNS, r, strict=True)) for r in rows[1:]]
    assert len(body) == 5
    assert body[1]["kind"] == "roll" and body[1]["dice"] == "2d6" and body[1]["answer"] == "3 5"
    assert body[1]["question"] == "Attack" and body[1]["source"] == "physical"
    assert body[0]["kind"] == "enter" and body[0]["answer"] == "2d6 Attack"
    assert body[3]["source"] == "app"


def test_a_csv_cell_that_would_be_a_formula_is_text(store: Store) -> None:
    """Issue #33 item 10: "CSV exports neutralise cells that a spreadsheet would run as a
    formula (`=`, `+`, `-`, `@` at the start)": a Dice tray label a player typed is shown as
    typed, behind an apostrophe, and never runs."""
    sid = store.create_session("dice", 5, {})
    d = Driver(load("dice"), 5, recorder=store.recorder(sid))
    labels = ['=HYPERLINK("http://x","a")', "+1+1", "-2", "@SUM(A1)", "Attack"]
    for label in labels:
        d.type(f"1d6 {label}")
        d.roll()
    rows = list(csv.reader(io.StringIO(export_csv(store, sid))))[1:]
    entered = [dict(zip(CSV_COLUMNS, r, strict=True))["answer"] for r in rows[0::2]]
    asked = [dict(zip(CSV_COLUMNS, r, strict=True))["question"] for r in rows[1::2]]
    assert entered == [f"1d6 {label}" for label in labels]  # they start with "1d6": no formula
    assert asked == ["'" + label for label in labels[:4]] + ["Attack"]
    assert not any(cell.startswith(("=", "+", "-", "@")) for row in rows for cell in row)


def test_markdown_export_reads_as_a_game_report(store: Store) -> None:
    """Header with game, dates and result; then turn by turn, phase by phase: the rolls with
    their source, the choices and the board instructions."""
    sid, driver = play_reconquista(store, 2, until=why_starts("Events: 2D6"))
    driver.type("4 5")  # Taxes, typed from the table
    md = export_markdown(store, sid)
    lines = md.splitlines()
    assert lines[0] == f"# Reconquista: session {sid}"
    assert "- Game: Reconquista" in lines
    assert "- Started: 2026-03-14 18:01 UTC" in lines
    assert any(line.startswith("- Where it stands: turn 1, ") for line in lines)
    assert "## Turn 1" in lines
    assert lines.index("### Phase 1: Rebellions") < lines.index("### Phase 2: Events")
    assert (
        "- Roll 2d6 (Events: 2D6, the total picks the event): **4 5** (total 9), typed from the table"
        in lines
    )
    region = [line for line in lines if line.startswith("- Roll 1d6 (Rebellions: region die")]
    assert region and all(line.endswith("rolled by the app") for line in region)
    assert "- Board: Turn 1 begins: move the turn marker to 1." in lines


@pytest.mark.slow
def test_markdown_export_of_finished_sessions(store: Store) -> None:
    sid, _ = play_reconquista(store, 1)
    md = export_markdown(store, sid).splitlines()
    result = store.session(sid).summary
    assert f"- Result: {result}" in md
    assert "### Phase 7: End of turn" in md
    sim, match = new_driver(store, "simancas", 1)
    simancas_hand(match, ["Moors place Large Army"])
    md = export_markdown(store, sim).splitlines()
    assert "## Hand 1" in md
    assert "- Choice (Hand 1: what happens on the table?): **Moors place Large Army**" in md
    assert not any(line.startswith("### ") for line in md)  # one phase only: no phase headings


def test_the_markdown_header_gives_the_dice_as_they_were_rolled(store: Store) -> None:
    """A report's header names the dice as the session rolled them, not only the mode chosen at
    the start: a game begun with app dice whose next roll was typed from the table, and whose
    mode was then set to physical (ctrl+d), says so and counts each."""
    sid, driver = play_reconquista(store, 2, until=why_starts("Events: 2D6"))
    rolled = sum(1 for s in driver.steps if s.source == "app")
    driver.type("3 4")
    store.set_dice_mode(sid, "physical")
    md = export_markdown(store, sid).splitlines()
    dice = next(line for line in md if line.startswith("- Dice: "))
    commitment = store.session(sid).commitment
    assert dice.startswith(
        f"- Dice: physical: 1 typed from the table, {rolled} rolled by the app; commitment to the seed {commitment} "
        "(the seed is revealed when the game ends);"
    )
    assert rolled > 0 and "seed 2" not in dice.replace(str(commitment), "")  # its hex may hold "2"


# -- import: refusals ---------------------------------------------------------------------


def refused(store: Store, text: str, match: str) -> None:
    before = count_rows(store)
    with pytest.raises(ImportRefused) as info:
        import_session(store, text, "game.json")
    assert_one_sentence(str(info.value))
    assert match in str(info.value), str(info.value)
    assert count_rows(store) == before  # nothing created


def exported(store: Store) -> dict[str, Any]:
    return export_data(store, tray_session(store))


def test_import_refuses_a_file_that_is_not_json(store: Store, fresh: Store) -> None:
    refused(fresh, '{"format": ', "game.json is not valid JSON (line 1, column 12)")
    refused(fresh, "[1, 2]", "game.json is not a Tabletop Companion session export")


def test_import_refuses_an_unknown_game(store: Store, fresh: Store) -> None:
    data = exported(store)
    data["session"]["game"] = "chess"
    refused(fresh, json.dumps(data), "game.json cannot be imported: there is no game called 'chess'")


def test_import_refuses_a_tampered_answer(store: Store, fresh: Store) -> None:
    """A die changed in the file still fits the prompt, but no longer leads to the logged state."""
    data = exported(store)
    data["steps"][1]["answer"] = [4, 5]
    refused(fresh, json.dumps(data), "its log does not replay to the exported game (Step 2:")


def test_import_refuses_an_answer_that_does_not_fit(store: Store, fresh: Store) -> None:
    data = exported(store)
    data["steps"][1]["answer"] = [9, 9]
    refused(fresh, json.dumps(data), "the logged answer does not fit: A d6 shows 1 to 6")


def test_import_refuses_a_newer_format_version(store: Store, fresh: Store) -> None:
    data = exported(store)
    data["version"] = FORMAT_VERSION + 1
    refused(
        fresh,
        json.dumps(data),
        f"written by a newer Tabletop Companion (format version {FORMAT_VERSION + 1})",
    )
    data["version"] = 0
    refused(fresh, json.dumps(data), "game.json has format version 0, which no Tabletop Companion writes")
    data["version"] = True
    refused(
        fresh,
        json.dumps(data),
        "game.json is not a valid session export: version: input should be a valid integer",
    )


def test_import_refuses_a_missing_or_wrong_field(store: Store, fresh: Store) -> None:
    data = exported(store)
    del data["steps"][0]["source"]
    refused(
        fresh, json.dumps(data), "game.json is not a valid session export: steps.0.source: field required"
    )
    data = exported(store)
    data["steps"][2]["step"] = 7
    refused(fresh, json.dumps(data), "step 3 is numbered 7")
    data = exported(store)
    data["final_state"]["rolls"][0]["values"] = [1, 1]
    refused(fresh, json.dumps(data), "The replayed final state differs from the stored one")


def test_import_refuses_an_unknown_prompt_kind(store: Store, fresh: Store) -> None:
    data = exported(store)
    data["steps"][0]["prompt"] = {"kind": "dance"}
    refused(fresh, json.dumps(data), "step 1 has unknown prompt kind 'dance'")


def test_import_refuses_a_prompt_whose_facts_are_not_plain_json_or_not_the_games(
    store: Store, fresh: Store
) -> None:
    """A prompt's data is a table of JSON facts (JSON text may say NaN, which no export holds),
    and a replay compares it: the same words with other facts are another question, said so."""
    data = exported(store)
    data["steps"][0]["prompt"]["data"] = [1, 2]
    refused(fresh, json.dumps(data), "step 1 has a logged enter prompt whose data is not a table of facts")
    data["steps"][0]["prompt"]["data"] = {"rolls": float("nan")}
    refused(
        fresh, json.dumps(data), "step 1 has a logged enter prompt whose data holds a value JSON does not"
    )
    data["steps"][0]["prompt"]["data"] = {"rolls": 1}
    refused(fresh, json.dumps(data), "(Step 1: the log has 'What to roll: dice and a label' with other facts")


# -- import: the round trip ---------------------------------------------------------------


def round_trip(store: Store, fresh: Store, sid: int) -> int:
    """Export ``sid``, import it into ``fresh``, replay it there; the new id."""
    done = import_session(fresh, export_json(store, sid), "x.json")
    new = fresh.session(done.session_id)
    old = store.session(sid)
    assert (new.game, new.seed, new.status, new.steps, new.summary, new.dice_mode) == (
        old.game,
        old.seed,
        old.status,
        old.steps,
        old.summary,
        old.dice_mode,
    )
    assert new.started == old.started
    log = fresh.log(done.session_id)
    final = fresh.state(done.session_id)
    driver = verify(load(new.game), new.seed, new.config, log.steps, log.digests, final)
    assert digest(driver.snapshot()) == digest(store.state(sid))
    assert log.digests == store.log(sid).digests
    assert [e.at for e in log.events] == [e.at for e in store.log(sid).events]
    return done.session_id


@pytest.mark.slow
def test_round_trip_reconquista(store: Store, fresh: Store) -> None:
    sid, driver = play_reconquista(store, 4)  # a whole game of 20 turns
    assert driver.finished and len(driver.steps) > 500
    new = round_trip(store, fresh, sid)
    assert fresh.session(new).summary == store.session(sid).summary


def test_round_trip_unfinished_reconquista_resumes(store: Store, fresh: Store) -> None:
    """An unfinished session comes back unfinished and can be played on from where it stood."""
    sid, driver = play_reconquista(store, 3, until=why_starts("Events: 2D6"))
    new = round_trip(store, fresh, sid)
    assert fresh.session(new).status == "active"
    from companion.driver import Driver

    log = fresh.log(new)
    again = Driver.resume(load("reconquista"), 3, {}, log.steps, recorder=fresh.recorder(new))
    assert again.pending == driver.pending
    again.type("3 3")
    assert fresh.session(new).steps == len(log.steps) + 1


def test_round_trip_simancas(store: Store, fresh: Store) -> None:
    sid, match = new_driver(store, "simancas", 1)
    simancas_hand(match, ["Moors place Large Army", "Christians place Count Fernan Gonzalez"])
    for _ in range(5):
        simancas_hand(match, ["Moors place Large Army"])
    assert match.finished
    round_trip(store, fresh, sid)


def test_round_trip_dice_tray(store: Store, fresh: Store) -> None:
    round_trip(store, fresh, tray_session(store))


# -- the commands -------------------------------------------------------------------------


def test_cli_export_import_stats_and_luck(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src, dst = str(tmp_path / "a.db"), str(tmp_path / "b.db")
    store = Store(src)
    sid = tray_session(store)
    store.close()
    out = tmp_path / "s.json"
    assert main(["--db", src, "export", str(sid), "-o", str(out)]) == EXIT_OK
    assert f"Session {sid} written to {out} (json)." in capsys.readouterr().err
    assert json.loads(out.read_text())["session"]["game"] == "dice"
    for fmt, first in (("csv", "step,turn,phase"), ("md", "# Dice tray: session")):
        assert main(["--db", src, "export", str(sid), "--format", fmt]) == EXIT_OK
        assert capsys.readouterr().out.startswith(first)
    assert main(["import", str(out), "--db", dst]) == EXIT_OK
    assert capsys.readouterr().out == f"Imported {out} as session 1 (dice, 5 steps, finished).\n"
    assert main(["--db", dst, "luck", "--json"]) == EXIT_OK
    ledger = json.loads(capsys.readouterr().out)
    assert ledger["dice"][0]["sides"] == 6 and ledger["dice"][0]["physical"]["counts"]["3"] == 1
    assert main(["--db", dst, "luck", "--session", "1"]) == EXIT_OK
    assert "Luck ledger of session 1 (undone rolls not counted)." in capsys.readouterr().out
    assert main(["--db", dst, "stats", "--json"]) == EXIT_OK
    stats = json.loads(capsys.readouterr().out)
    assert {c["key"]: c["count"] for c in stats["sessions_by_game"]}["dice"] == 1
    assert main(["--db", dst, "stats", "--game", "simancas"]) == EXIT_OK
    assert "Battle of Simancas: 0 sessions, 0 matches finished." in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["import", "{missing}"], "Cannot read {missing}: No such file or directory."),
        (["import", "{bad}"], "{bad} is not valid JSON (line 1, column 1)."),
        (["export", "99"], "There is no session 99 in {db}."),
        (["export", "1", "-o", "{nodir}/x.json"], "Cannot write {nodir}/x.json: No such file or directory."),
        (["stats", "--game", "chess"], "There is no game called 'chess'; the games are"),
        (["luck", "--session", "5"], "There is no session 5 in {db}."),
    ],
)
def test_cli_refusals_are_one_sentence_and_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    db = str(tmp_path / "c.db")
    store = Store(db)
    tray_session(store)
    store.close()
    bad = tmp_path / "bad.json"
    bad.write_text("nonsense")
    names = {"missing": str(tmp_path / "none.json"), "bad": str(bad), "db": db, "nodir": str(tmp_path / "no")}
    before = count_rows(Store(db))
    assert main(["--db", db, *[a.format(**names) for a in args]]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.startswith("companion: " + message.format(**names).rstrip("."))
    assert err.count("\n") == 1 and "Traceback" not in err
    assert count_rows(Store(db)) == before


def test_round_trip_castells(store: Store, fresh: Store) -> None:
    from test_review_helpers import advance, castells_chooser

    sid, driver = new_driver(store, "castells", 4)
    advance(driver, castells_chooser(4))
    assert driver.finished
    round_trip(store, fresh, sid)
    md = export_markdown(store, sid).splitlines()
    # One round a century, XI to XV, each headed by its century; in a round, each player's
    # phases headed by whose turn it is, the first century's opening nobody's turn.
    assert "## Round 1: century XI" in md and "## Round 5: century XV" in md
    assert "### Phase 1: Passage of time" in md and "### Setup" in md
    players = [p["name"] for p in store.state(sid)["players"]]
    round_one = md[md.index("## Round 1: century XI") : md.index("## Round 2: century XII")]
    # (A player's Phase 2 is headed again after the Saracens act in it, woken by the draw.)
    whose = [line for line in round_one if line.startswith("### Phase 2")]
    assert [w for i, w in enumerate(whose) if i == 0 or whose[i - 1] != w] == [
        f"### Phase 2: Resources · {name}'s turn" for name in players
    ]


def test_round_trip_keeps_a_correction_by_hand(store: Store, fresh: Store) -> None:
    """A manual correction of the board is a step of its own: exported, reported, re-imported, replayed."""
    from companion.prompts import edit_prompt
    from companion.reconquista.edits import parse_area_text

    sid, driver = play_reconquista(store, 2, until=why_starts("Events: 2D6"))
    change = {"area": "Galicia", **parse_area_text("no city; no fortress; M 2A")}
    driver.edit(edit_prompt("Galicia set by hand: 2 Muslim armies", change))
    # As the screens log a correction now: the change alone, the report adding the label.
    driver.edit(edit_prompt("Galicia is now M 2A", change))
    driver.type("4 5")
    md = export_markdown(store, sid).splitlines()
    assert "- Correction by hand: Galicia set by hand: 2 Muslim armies" in md
    assert "- Correction by hand: Galicia is now M 2A" in md
    bbcode = export_bbcode(store, sid)
    assert (
        "Correction by hand: Galicia is now M 2A" in bbcode and "Correction by hand: Correction" not in bbcode
    )
    new = round_trip(store, fresh, sid)
    assert fresh.state(new)["areas"]["Galicia"] == store.state(sid)["areas"]["Galicia"]


def test_insert_session_is_one_transaction(store: Store) -> None:
    """If any event row cannot be stored, the session row is not stored either."""
    from datetime import UTC, datetime

    from companion.errors import StoreError

    t = datetime(2026, 3, 14, 18, 0, tzinfo=UTC)
    session = {
        "game": "dice",
        "seed": 1,
        "dice_mode": "",
        "status": "active",
        "started": t,
        "last_activity": t,
        "ended": None,
        "steps": 2,
        "summary": "",
        "config": "{}",
        "state": "{}",
    }
    event = {
        "seq": 0,
        "step": 0,
        "kind": "answer",
        "turn": None,
        "phase": None,
        "prompt": "null",
        "answer": "null",
        "source": "player",
        "digest": None,
        "at": t,
    }
    before = count_rows(store)
    with pytest.raises(StoreError):
        store.insert_session(session, [event, dict(event)])  # the same seq twice: refused by the database
    assert count_rows(store) == before
    new = store.insert_session(session, [event, {**event, "seq": 1, "step": 1}])
    assert store.session(new).steps == 2
    assert count_rows(store) == (before[0] + 1, before[1] + 2)
