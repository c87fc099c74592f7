"""Tests of the BoardGameGeek session report (``companion export ID --format bbcode``,
companion/review/bbcode.py): each game's report has its parts (the game, the dates, the
result, the turn headers, the rolls in brackets, the robot's moves, the player's
decisions), only the few tags the report means to write, and no text of a player's can
open a tag."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from castells_helpers import feed, setup_answers
from test_review_helpers import advance, castells_chooser, new_driver, play_reconquista, simancas_hand

from companion.castells.actions import ATTACK
from companion.cli import main
from companion.errors import EXIT_OK
from companion.review.bbcode import ZERO_WIDTH_SPACE, bb
from companion.review.exchange import export_bbcode, export_markdown
from companion.store.db import Store

#: Every tag a report may hold, opening or closing: [b], [i], [u], [size=N], [hr].
TAG = re.compile(r"\[(/?)([A-Za-z*]+)(=[^\]]*)?\]")
WRITTEN = {"b", "i", "u", "size", "hr"}


def tags(report: str) -> list[tuple[str, str]]:
    """The (closing slash, name) of every tag in ``report``."""
    return [(m[1], m[2].lower()) for m in TAG.finditer(report)]


def assert_well_formed(report: str) -> None:
    """Only the report's own tags, each opened one closed in order ([hr] stands alone)."""
    open_tags: list[str] = []
    for slash, name in tags(report):
        assert name in WRITTEN, f"unexpected tag [{slash}{name}]"
        if name == "hr":
            continue
        if slash:
            assert open_tags and open_tags.pop() == name, f"[/{name}] closes nothing open"
        else:
            open_tags.append(name)
    assert not open_tags, f"left open: {open_tags}"


def second(topic: str) -> Callable[[Any], bool]:
    """Stop at the second prompt of ``topic`` (Reconquista's events roll of turn 2): ``advance``
    asks once a prompt."""
    seen = [0]

    def until(prompt: Any) -> bool:
        seen[0] += prompt.topic == topic
        return seen[0] == 2

    return until


def test_reconquista_report_turn_by_turn_with_phases_rolls_and_the_robot(store: Store) -> None:
    sid, driver = play_reconquista(store, 2, until=second("reconquista.events.roll"))
    driver.type("4 5")  # the events roll of turn 2, typed from the table
    report = export_bbcode(store, sid)
    lines = report.splitlines()
    assert lines[0] == f"[size=18][b]Reconquista: session {sid}[/b][/size]"
    assert "[b]Game:[/b] Reconquista" in lines
    assert "[b]Started:[/b] 2026-03-14 18:01 UTC" in lines
    assert any(line.startswith("[b]Last played:[/b] 2026-03-14 ") for line in lines)
    assert any(line.startswith("[b]Where it stands:[/b] turn 2, ") for line in lines)
    turn_1, turn_2 = (
        lines.index("[size=14][b]Turn 1[/b][/size]"),
        lines.index("[size=14][b]Turn 2[/b][/size]"),
    )
    assert lines[turn_1 - 1] == lines[turn_2 - 1] == "[hr]"
    phases = [
        lines.index(f"[u]{title}[/u]", turn_1)
        for title in ("Phase 1: Rebellions", "Phase 4: Movement", "Phase 5: Muslim reaction")
    ]
    assert turn_1 < phases[0] < phases[1] < phases[2] < turn_2
    # A roll: its faces in brackets, their sum and where they came from.
    assert (
        "• Roll 2d6 (Events: 2D6, the total picks the event): [b][4 5][/b] (total 9), typed from the table"
        in lines
    )
    assert any(
        re.fullmatch(r"• Roll 1d6 \(Rebellions: region die .*\): \[b\]\[[1-6]\]\[/b\], rolled by the app", x)
        for x in lines
    )
    # The player's decisions and the robot's moves (the Muslim reaction), each named.
    assert any(
        x.startswith("• Decision (Phase 4: select the one region whose Christian forces move") for x in lines
    )
    reaction = lines[phases[2] : turn_2]
    moors = [x for x in reaction if x.startswith("• [b]The Moors:[/b] ")]
    assert moors and any("Muslim reinforcements" in x for x in moors)
    # What the Markdown report calls a board instruction; one of the rules' own stays one.
    md = export_markdown(store, sid).splitlines()
    assert "- Board: " + moors[0].removeprefix("• [b]The Moors:[/b] ") in md
    assert "• Board: Turn 1 begins: move the turn marker to 1." in lines
    assert_well_formed(report)


def test_simancas_report_hand_by_hand(store: Store) -> None:
    sid, match = new_driver(store, "simancas", 1)
    simancas_hand(match, ["Moors place Large Army", "Christians place Count Fernan Gonzalez"])
    for _ in range(5):
        simancas_hand(match, ["Moors place Large Army"])
    assert match.finished
    report = export_bbcode(store, sid)
    lines = report.splitlines()
    assert lines[0] == f"[size=18][b]Battle of Simancas: session {sid}[/b][/size]"
    assert "[b]Result:[/b] The Moors won the match, 5 hands to 0." in lines
    assert any(line.startswith("[b]Ended:[/b] 2026-03-14 ") for line in lines)
    assert [x for x in lines if x.startswith("[size=14]")] == [
        f"[size=14][b]Hand {n}[/b][/size]" for n in range(1, 7)
    ]
    hand_1 = lines[
        lines.index("[size=14][b]Hand 1[/b][/size]") : lines.index("[size=14][b]Hand 2[/b][/size]")
    ]
    assert (
        "• Decision (Hand 1: what happens on the table?): [b]Christians place Count Fernan Gonzalez[/b]"
        in hand_1
    )
    assert any(x.startswith("• Board: Hand 1: Moors 5, Christians 5. A tie") for x in hand_1)
    assert not any(x.startswith("[u]") for x in lines)  # one phase: no phase headings
    assert_well_formed(report)


def test_castells_report_century_by_century_with_the_saracens(store: Store) -> None:
    sid, driver = new_driver(store, "castells", 4)
    advance(driver, castells_chooser(4))
    report = export_bbcode(store, sid)
    lines = report.splitlines()
    rounds = [x for x in lines if x.startswith("[size=14]")]
    assert rounds == [
        f"[size=14][b]Round {n}: century {c}[/b][/size]"
        for n, c in enumerate(["XI", "XII", "XIII", "XIV", "XV"], 1)
    ]
    assert "[u]Setup[/u]" in lines[: lines.index(rounds[0])]  # the setup comes before the first century
    # Each phase of a player's turn says whose turn it is; the century's opening is nobody's.
    assert "[u]Phase 1: Passage of time[/u]" in lines
    assert "[u]Phase 3: Actions · Player 1's turn[/u]" in lines
    assert not any(x.startswith(("[u]Setup ·", "[u]Phase 1: Passage of time ·")) for x in lines)
    assert any(x.startswith("• [b]The Saracens:[/b] Move the Saracen figure from") for x in lines)
    assert any(x.startswith("• Decision (A ") and "wakes the Saracens" in x for x in lines)
    assert "• Entered (Setup: the name of player 1? (Enter takes 'Player 1')): [b]Player 1[/b]" in lines
    assert any(x.startswith("[b]Result:[/b] Game over after century XV.") for x in lines)
    assert_well_formed(report)


def test_castells_rolls_count_their_successes(store: Store) -> None:
    from companion.driver import Driver
    from companion.games import load

    sid = store.create_session("castells", 5)
    d = Driver(load("castells"), 5, recorder=store.recorder(sid))
    feed(d, setup_answers(["Anna", "Bo"], [0, 0], {"Anna": ["Mora"], "Bo": ["Lleida"]}))
    feed(d, ["Riu", ATTACK, "Lleida (Bo)", "", "", [5, 6, 1, 2, 3]], ack_last=False)
    lines = export_bbcode(store, sid).splitlines()
    rolls = [x for x in lines if x.startswith("• Roll 5d6")]
    assert rolls and rolls[0].endswith("[b][5 6 1 2 3][/b] (2 successes), typed from the table")


def test_dice_tray_report(store: Store) -> None:
    sid, driver = new_driver(store, "dice", 2024)
    driver.type("2d6 Attack")
    driver.type("3 5")
    driver.type("1d20 Save")
    driver.roll()
    driver.type("end")
    report = export_bbcode(store, sid)
    lines = report.splitlines()
    assert lines[0] == f"[size=18][b]Dice tray: session {sid}[/b][/size]"
    assert "[b]Result:[/b] ended after 2 rolls" in lines
    assert "• Roll 2d6 (Attack): [b][3 5][/b] (total 8), typed from the table" in lines
    assert any(re.fullmatch(r"• Roll 1d20 \(Save\): \[b\]\[\d+\]\[/b\], rolled by the app", x) for x in lines)
    assert "• Entered (What to roll: dice and a label): [b]2d6 Attack[/b]" in lines
    assert not any(x.startswith("[size=14]") for x in lines)  # no turns
    assert_well_formed(report)


# -- text of the player's cannot open a tag ----------------------------------------------------------

HOSTILE = [
    "[b]x[/b]",
    "[url=https://evil.example]click[/url]",
    "[/size][size=200]big",
    "<script>x",
    "[IMG]a[/IMG]",
]


def test_escape_breaks_every_tag_and_keeps_the_text() -> None:
    for text in HOSTILE:
        escaped = bb(text)
        assert not TAG.search(escaped), escaped
        assert escaped.replace(ZERO_WIDTH_SPACE, "").replace("< ", "<") == text
    assert bb("[b]x[/b]") == f"[{ZERO_WIDTH_SPACE}b]x[{ZERO_WIDTH_SPACE}/b]"
    assert bb("<script>") == "< script>"  # BGG may cut a post at a '<' that opens an HTML tag
    assert bb("3 < 5, a <- b") == "3 < 5, a < - b"
    assert bb("León (2 armies)") == "León (2 armies)"  # text without brackets is left as it is


def test_a_label_cannot_open_a_tag_in_the_report(store: Store) -> None:
    """Dice tray labels are typed by the player and land in the report twice (the line typed,
    and the roll's question): none opens a tag, and each reads as typed."""
    sid, driver = new_driver(store, "dice", 7)
    for label in HOSTILE:
        driver.type(f"1d6 {label}")
        driver.type("4")
    driver.type("end")
    report = export_bbcode(store, sid)
    assert_well_formed(report)  # no [url], no [img], every [b] and [size] the report's own
    assert "[url" not in report.lower() and "[img" not in report.lower() and "<script" not in report
    shown = report.replace(ZERO_WIDTH_SPACE, "")
    for label in HOSTILE[:3]:
        assert f"• Roll 1d6 ({label}): [b][4][/b], typed from the table" in shown


def test_an_imported_summary_cannot_open_a_tag(store: Store) -> None:
    """The result line is the session's summary, which an import recorded under earlier rules
    keeps as the file says: written through the escape like any other text."""
    from sqlalchemy import text

    sid, driver = new_driver(store, "dice", 7)
    driver.type("end")
    with store.engine.begin() as con:
        con.execute(
            text("UPDATE session SET summary = :s WHERE id = :id"),
            {"s": "[url=https://x.example]won[/url]", "id": sid},
        )
    report = export_bbcode(store, sid)
    assert_well_formed(report)
    assert f"[b]Result:[/b] [{ZERO_WIDTH_SPACE}url=https://x.example]won[{ZERO_WIDTH_SPACE}/url]" in report


# -- the command -------------------------------------------------------------------------------------


def test_cli_writes_the_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = str(tmp_path / "c.db")
    store = Store(db)
    sid, driver = new_driver(store, "dice", 3)
    driver.type("2d6 Attack")
    driver.type("6 6")
    store.close()
    assert main(["--db", db, "export", str(sid), "--format", "bbcode"]) == EXIT_OK
    out = capsys.readouterr().out
    assert out.startswith(f"[size=18][b]Dice tray: session {sid}[/b][/size]\n")
    assert "• Roll 2d6 (Attack): [b][6 6][/b] (total 12), typed from the table" in out
    target = tmp_path / "report.txt"
    assert main(["--db", db, "export", str(sid), "--format", "bbcode", "-o", str(target)]) == EXIT_OK
    assert capsys.readouterr().err == f"Session {sid} written to {target} (bbcode).\n"
    assert target.read_text(encoding="utf-8") == out
