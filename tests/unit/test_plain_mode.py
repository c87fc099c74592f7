"""The plain transcript mode (#38, items 3-4): a whole Reconquista game played by piping answers
into ``companion play reconquista --plain`` reaches the very state the same answers give the
driver; the session it leaves resumes in the app (and in plain lines) at the next question;
bad input gets the app's one sentence and the question again; the end of the input saves."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from test_review_helpers import reconquista_chooser

from companion.cli import main
from companion.driver import Driver
from companion.errors import EXIT_OK, EXIT_USAGE
from companion.games import load
from companion.prompts import Choose, Enter, Roll, Tell
from companion.store.db import Store

RECONQUISTA = load("reconquista")
CONFIG = {"dice": "app", "setup": True}


@pytest.fixture(autouse=True)
def settings_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The user's settings: the board checks off (the piped answers are the game's own), but
    where a test writes them on."""
    path = tmp_path / "settings.toml"
    path.write_text("board_checks = 0\n", encoding="utf-8")
    monkeypatch.setenv("COMPANION_SETTINGS", str(path))
    return path


def answers(seed: int, most: int | None = None) -> tuple[list[str], Driver]:
    """The lines a player types for the bot's game of ``seed`` with app dice (rolled without a
    line), and the driver that played it."""
    driver = Driver(RECONQUISTA, seed, CONFIG)
    choose = reconquista_chooser(driver, seed)
    lines: list[str] = []
    while driver.pending is not None and (most is None or len(lines) < most):
        p = driver.pending
        if isinstance(p, Roll):
            driver.roll()
            continue
        if isinstance(p, Tell):
            driver.ack()
            lines.append("")
        elif isinstance(p, Choose):
            picked = choose(p)
            driver.submit(picked, "player")
            lines.append(picked)
        elif isinstance(p, Enter):
            driver.type("")
            lines.append("")
    while isinstance(driver.pending, Roll):  # the app's dice before the next question
        driver.roll()
    return lines, driver


def play(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], args: list[str], text: str
) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))
    code = main(args)
    return code, capsys.readouterr().out


@pytest.mark.slow
def test_a_whole_game_piped_into_plain_mode_is_the_driver_s_game(
    db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines, driver = answers(7)
    assert driver.finished
    code, out = play(
        monkeypatch,
        capsys,
        ["play", "reconquista", "--plain", "--dice", "app", "--seed", "7", "--db", db],
        "\n".join(lines) + "\n",
    )
    assert code == EXIT_OK and "The game is over:" in out
    store = Store(db)
    (info,) = store.sessions()
    assert info.status == "finished" and info.summary == RECONQUISTA.summary(driver.state)
    assert store.state(info.id) == driver.snapshot()
    assert "\x1b" not in out  # no colour, no cursor movement


@pytest.mark.slow
def test_a_game_left_in_plain_mode_resumes_in_the_app_and_in_plain_lines(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines, driver = answers(9, most=60)
    code, out = play(
        monkeypatch,
        capsys,
        ["play", "reconquista", "--plain", "--dice", "app", "--seed", "9", "--db", db],
        "\n".join(lines) + "\n",
    )
    assert code == EXIT_OK and "Saved. Session 1 resumes with: companion resume 1 --plain" in out
    store = Store(db)
    assert store.state(1) == driver.snapshot()
    # In plain lines: the next question is the one the driver waits at.
    code, out = play(monkeypatch, capsys, ["resume", "1", "--plain", "--db", db], "q\n")
    assert code == EXIT_OK
    pending = driver.pending
    assert pending is not None and (getattr(pending, "why", "") or getattr(pending, "text", "")) in out


@pytest.mark.parametrize(
    ("typed", "said"),
    [("9", "Type the number of an option, 1 to"), ("nonsense", "Type the number of an option")],
)
def test_bad_input_is_the_app_s_sentence_and_the_question_again(
    db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], typed: str, said: str
) -> None:
    lines, _driver = answers(3, most=200)
    first_choice = next(i for i, line in enumerate(lines) if line)
    text = "\n".join([*lines[:first_choice], typed, "q"]) + "\n"
    code, out = play(
        monkeypatch,
        capsys,
        ["play", "reconquista", "--plain", "--dice", "app", "--seed", "3", "--db", db],
        text,
    )
    assert code == EXIT_OK
    after = out.split(said, 1)
    assert len(after) == 2 and "Saved." in after[1]
    # A line typed at an instruction is not taken for done.
    code, out = play(monkeypatch, capsys, ["resume", "1", "--plain", "--db", db], "q\n")
    assert code == EXIT_OK


def test_play_needs_plain_and_a_game_it_knows(db: str, capsys: pytest.CaptureFixture[str]) -> None:
    for args in (["play", "reconquista"], ["play", "chess", "--plain"], ["resume", "99", "--plain"]):
        assert main([*args, "--db", db]) == EXIT_USAGE
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.rstrip().endswith("."), err


def test_the_end_of_the_input_saves_at_once(
    db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = play(monkeypatch, capsys, ["play", "reconquista", "--plain", "--seed", "1", "--db", db], "")
    assert code == EXIT_OK and "Saved. Session 1" in out
    assert Store(db).session(1).steps == 0


def test_physical_dice_are_typed_and_an_empty_line_says_so(
    db: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """With the table's dice, Enter alone at a roll is one sentence; the dice typed are logged."""
    drv = Driver(RECONQUISTA, 5, {"dice": "physical", "setup": True})
    typed: list[str] = []
    while not isinstance(drv.pending, Roll):
        p = drv.pending
        if isinstance(p, Tell):
            drv.ack()
            typed.append("")
        else:
            break
    assert isinstance(drv.pending, Roll)
    dice = " ".join(["3"] * drv.pending.n)
    text = "\n".join([*typed, "", dice, "q"]) + "\n"
    code, out = play(
        monkeypatch,
        capsys,
        ["play", "reconquista", "--plain", "--dice", "physical", "--seed", "5", "--db", db],
        text,
    )
    assert code == EXIT_OK and "you rolled on the table." in out and f"logged: {dice}" in out


@pytest.mark.slow
def test_the_board_checks_are_asked_in_plain_lines_too(
    db: str, settings_file: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """At the end of turn 1 (the setting: every turn) the checks come between the game's
    questions: a count that is not a number is the app's sentence, a count is logged, a wrong
    one said so; quitting among them saves."""
    from companion.prompts import Check

    settings_file.write_text("board_checks = 1\n", encoding="utf-8")
    driver = Driver(RECONQUISTA, 6, CONFIG)
    choose = reconquista_chooser(driver, 6)
    lines: list[str] = []
    while driver.state.turn < 2:
        p = driver.pending
        if isinstance(p, Roll):
            driver.roll()
        elif isinstance(p, Tell):
            driver.ack()
            lines.append("")
        elif isinstance(p, Choose):
            picked = choose(p)
            driver.submit(picked, "player")
            lines.append(picked)
        else:
            driver.type("")
            lines.append("")
    text = "\n".join([*lines, "many", "98", "q"]) + "\n"
    code, out = play(
        monkeypatch,
        capsys,
        ["play", "reconquista", "--plain", "--dice", "app", "--seed", "6", "--db", db],
        text,
    )
    assert code == EXIT_OK
    assert "Board check: How many " in out and "Type the number your table shows, 0 to 99." in out
    assert "✗ your table 98, the app " in out and out.rstrip().endswith("--plain")
    checked = [s for s in Store(db).log(1).steps if isinstance(s.prompt, Check)]
    assert [s.answer for s in checked] == ["98"]
