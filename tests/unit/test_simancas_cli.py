"""``companion simancas total``: the force totals of a hand through ``companion.cli.main``,
as JSON and as text, with name matching and one-sentence refusals (exit 2)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.errors import EXIT_OK, EXIT_USAGE

ROOT = Path(__file__).resolve().parents[2]


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["simancas", "total", *argv, "--json"]) == EXIT_OK
    out, err = capsys.readouterr()
    assert err == ""
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def run_text(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    assert main(["simancas", "total", *argv]) == EXIT_OK
    out, err = capsys.readouterr()
    assert err == ""
    return out.splitlines()


def refused(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    assert main(["simancas", "total", *argv]) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("companion: ")
    return lines[0].removeprefix("companion: ")


def test_json_itemises_every_card(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/design.md, force totals: each placed card max(0, base + modifiers), destroyed cards 0;
    Card list: "Cavalry Detachments ... All Your other Cavalry get +1", "Woods ... All Cavalry
    get -1", "River ... Enemy Troops get -1"."""
    data = run_json(
        capsys,
        "--moors",
        "Jund Cavalry, Cavalry Detachments, Eunuchs",
        "--christians",
        "Knights, Woods, River",
        "--destroyed",
        "Eunuchs",
    )
    assert set(data) == {"moors", "christians", "winner", "cards"}
    assert data["cards"] == [
        {
            "name": "Jund Cavalry",
            "side": "moors",
            "base": 5,
            "modifiers": [
                {"source": "Cavalry Detachments", "amount": 1},
                {"source": "Woods", "amount": -1},
                {"source": "River", "amount": -1},
            ],
            "score": 4,
            "destroyed": False,
        },
        {
            "name": "Cavalry Detachments",
            "side": "moors",
            "base": 4,
            "modifiers": [{"source": "Woods", "amount": -1}, {"source": "River", "amount": -1}],
            "score": 2,
            "destroyed": False,
        },
        {"name": "Eunuchs", "side": "moors", "base": 3, "modifiers": [], "score": 0, "destroyed": True},
        {
            "name": "Knights",
            "side": "christians",
            "base": 4,
            "modifiers": [{"source": "Woods", "amount": -1}],
            "score": 3,
            "destroyed": False,
        },
        {"name": "Woods", "side": "christians", "base": 2, "modifiers": [], "score": 2, "destroyed": False},
        {"name": "River", "side": "christians", "base": 3, "modifiers": [], "score": 3, "destroyed": False},
    ]
    assert (data["moors"], data["christians"], data["winner"]) == (6, 8, "christians")


def test_a_tie_and_an_empty_side(capsys: pytest.CaptureFixture[str]) -> None:
    """BATTLE PHASE: "In case of a tie, neither player wins" - the winner is "tie"."""
    data = run_json(capsys, "--moors", "Andalusian Cavalry", "--christians", "Knights")
    assert (data["moors"], data["christians"], data["winner"]) == (4, 4, "tie")
    data = run_json(capsys, "--moors", "Jihad")
    assert (data["moors"], data["christians"], data["winner"]) == (5, 0, "moors")


def test_text_gives_one_line_a_card_then_the_totals(capsys: pytest.CaptureFixture[str]) -> None:
    """docs/design.md: "A placed, not-destroyed card scores max(0, ...)" - the text says when the floor acts."""
    lines = run_text(
        capsys,
        "--moors",
        "Arab Cavalry, Lances, Blackguard",
        "--christians",
        "Woods, Weak Points, Eclipse, Garrisons",
        "--destroyed",
        "blackguard",
    )
    assert lines == [
        "Moors: Arab Cavalry 3 +2 (Lances) -1 (Woods) -1 (Weak Points) -1 (Eclipse) = 2",
        "Moors: Lances 4 = 4",
        "Moors: Blackguard 5, destroyed = 0",
        "Christians: Woods 2 = 2",
        "Christians: Weak Points 4 = 4",
        "Christians: Eclipse 2 = 2",
        "Christians: Garrisons 3 -1 (Eclipse) = 2",
        "Moors 6, Christians 10: the Christians win the hand.",
    ]
    lines = run_text(
        capsys, "--moors", "Slingers", "--christians", "River, Weak Points, Eclipse, Light Troops"
    )
    # Exactly 0 is no floor; Light Troops' "All Enemy Infantry get -1" misses a Skirmisher.
    assert lines[0] == "Moors: Slingers 3 -1 (River) -1 (Weak Points) -1 (Eclipse) = 0"
    lines = run_text(capsys, "--moors", "Arab Cavalry", "--christians", "Woods, River, Weak Points, Eclipse")
    assert (
        lines[0]
        == "Moors: Arab Cavalry 3 -1 (Woods) -1 (River) -1 (Weak Points) -1 (Eclipse) = 0 (floored at 0)"
    )
    assert lines[-1] == "Moors 0, Christians 11: the Christians win the hand."


def test_names_match_ignoring_case_accents_and_spaces(capsys: pytest.CaptureFixture[str]) -> None:
    data = run_json(
        capsys, "--moors", "  JUND cavalry ,caliph abd al-rahman iii", "--christians", "Count Fernán González"
    )
    assert [c["name"] for c in data["cards"]] == [
        "Jund Cavalry",
        "Caliph Abd al-Rahman III",
        "Count Fernan Gonzalez",
    ]


def test_an_unknown_card_suggests_the_closest(capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(capsys, "--moors", "Jund Cavalry, Jund Cavlary") == (
        "There is no card called 'Jund Cavlary'; did you mean Jund Cavalry?"
    )
    assert refused(capsys, "--destroyed", "Qwxz") == "There is no card called 'Qwxz' in the deck."


def test_a_card_placed_twice_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """THE DECK: "a unique common deck" - each card is on the table once, on one side."""
    message = refused(capsys, "--moors", "Lancers", "--christians", "lancers")
    assert message == "Lancers is already on the table (the Moors'): each card exists once."
    assert refused(capsys, "--moors", "Lancers, Lancers").startswith("Lancers is already on the table")


def test_a_card_the_side_may_not_place_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    """CARD LIST NOTATION: "X = Only Christian player may place"; Card list: "Mercenaries I 2 B
    You may place an Enemy Troop" - one, and only a troop."""
    assert refused(capsys, "--moors", "Knights").startswith(
        "Knights is Christian-only: the Moors may only discard it"
    )
    assert refused(capsys, "--christians", "Scimitars, Mercenaries").startswith("Scimitars is Moorish-only")
    data = run_json(capsys, "--moors", "Knights, Mercenaries")
    assert data["moors"] == 6
    assert refused(capsys, "--moors", "Knights, Mercenaries, Military Order").startswith(
        "Military Order is Christian-only, and the Moors have already placed their enemy troop (Knights)"
    )


def test_a_destroyed_card_must_be_on_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert refused(capsys, "--moors", "Army", "--destroyed", "Corps") == (
        "Corps is not on the table, so it cannot be destroyed."
    )
    assert refused(capsys, "--moors", "Jihad", "--destroyed", "Jihad") == (
        "Jihad is a Strategy card, and no tactic or card destroys one."
    )


def test_a_missing_calculator_is_one_sentence(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simancas"]) == EXIT_USAGE
    _, err = capsys.readouterr()
    assert err.startswith("companion: The following arguments are required: CALCULATOR")


def test_the_installed_command_runs_without_the_app(tmp_path: Path) -> None:
    """The calculator is a shell command: it runs as `python -m companion` and needs no database."""
    env = dict(os.environ, COMPANION_DB=str(tmp_path / "none.db"))
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "companion",
            "simancas",
            "total",
            "--moors",
            "Jund Cavalry",
            "--christians",
            "Knights",
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        env=env,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "Moors 5, Christians 4: the Moors win the hand."
    assert not (tmp_path / "none.db").exists()


def test_a_partial_name_suggests_the_card_it_starts(capsys: pytest.CaptureFixture[str]) -> None:
    """The README: "An unknown name (the closest card is suggested)": "Jund" is the start of
    Jund Cavalry, too short for a misspelling's match."""
    assert refused(capsys, "--moors", "Jund") == "There is no card called 'Jund'; did you mean Jund Cavalry?"
    assert refused(capsys, "--moors", "light cav") == (
        "There is no card called 'light cav'; did you mean Light Cavalry?"
    )


def test_show_prints_each_step_not_the_whole_menu(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`companion show ID` of a match: a step is its question and the number of legal actions,
    then the action taken, not the ~130 actions on every line; a hand's result is under its hand."""
    from companion.driver import Driver
    from companion.review.exchange import export_markdown
    from companion.simancas.game import GAME
    from companion.store.db import Store

    db = str(tmp_path / "c.db")
    store = Store(db)
    sid = store.create_session("simancas", 3)
    d = Driver(GAME, 3, recorder=store.recorder(sid))
    for action in ["Moors place Jund Cavalry", "Christians place Knights", "Moors pass", "Christians pass"]:
        d.submit(action, "player")
    d.ack()
    assert main(["--db", db, "show", str(sid)]) == EXIT_OK
    lines = capsys.readouterr().out.splitlines()
    assert "Hand 1: what happens on the table? (one of 131 options) -> Moors place Jund Cavalry" in lines[1]
    assert all(len(line) < 200 for line in lines)
    report = export_markdown(store, sid)
    hand_1 = report.split("## Hand 1")[1].split("## Hand 2")[0]
    assert "Hand 1: Moors 5, Christians 4" in hand_1
