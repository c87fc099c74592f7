"""``companion castells odds``: text, --json, and bad input as one sentence with exit 2."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from companion.castells.odds import reach
from companion.cli import main


def test_odds_text_with_the_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    """Defaults: 5 dice, 3 rolls in all (Rolls: "up to a maximum of 3 total rolls")."""
    assert main(["castells", "odds", "--need", "3"]) == 0
    out = capsys.readouterr().out
    p = reach(3, 5, 3)
    assert out.startswith("5 dice, up to 3 rolls, at least 3 successes on 5-6: 84.2%")
    assert f"exactly {p.numerator}/{p.denominator}" in out


def test_odds_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["castells", "odds", "--need", "2", "--dice", "6", "--rolls", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["probability"] == pytest.approx(float(reach(2, 6, 1)))
    assert Fraction(data["fraction"]) == reach(2, 6, 1)
    assert (data["need"], data["dice"], data["rolls"]) == (2, 6, 1)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--need", "6"], "5 dice cannot reach 6 successes"),
        (["--need", "x"], "--need is a whole number"),
        (["--need", "2", "--dice", "0"], "--dice is a whole number from 1"),
        (["--need", "2", "--rolls", "-1"], "--rolls is a whole number"),
        ([], "required: --need"),
    ],
)
def test_bad_input_is_one_sentence_and_exit_2(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["castells", "odds", *argv]) == 2
    captured = capsys.readouterr()
    assert said in captured.err and captured.out == ""
    assert captured.err.count("\n") == 1 and "Traceback" not in captured.err
