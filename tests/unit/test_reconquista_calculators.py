"""``companion reconquista``: the siege, battle and odds calculators through ``companion.cli.main``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.cli import main
from companion.errors import EXIT_OK, EXIT_USAGE
from companion.reconquista import odds
from companion.reconquista.units import parse_spec

ROOT = Path(__file__).resolve().parents[2]


def run_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, object]:
    assert main(["reconquista", *argv, "--json"]) == EXIT_OK
    out, err = capsys.readouterr()
    assert err == ""
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


def run_text(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    assert main(["reconquista", *argv]) == EXIT_OK
    out, err = capsys.readouterr()
    assert err == ""
    return out.splitlines()


# -- siege -------------------------------------------------------------------------------------


def test_siege_json_of_a_known_roll(capsys: pytest.CaptureFixture[str]) -> None:
    """Phase 6: Resolve Sieges: 3A2G roll 6 + 8 = 14 against a city with a fortress held by 2A1G,
    1 + (1 + 4 + 1) x 2 = 13: the besieger wins with an even result, the city is sacked."""
    data = run_json(
        capsys, "siege", "--besiegers", "3A2G", "--defenders", "2A1G", "--city", "--fortress", "--dice", "6,1"
    )
    assert data["besieger_total"] == 14
    assert data["defender_total"] == 13
    assert data["outcome"] == "besieger"
    assert data["sacked"] is True
    assert data["surrendered"] is False
    assert data["modifiers"] == {
        "besieger": [{"label": "3 armies", "amount": 6}, {"label": "2 garrisons", "amount": 2}],
        "defender": [
            {"label": "city", "amount": 1},
            {"label": "2 armies", "amount": 4},
            {"label": "1 garrison", "amount": 1},
            {"label": "fortress (doubles the defence)", "amount": 6},
        ],
    }


def test_siege_json_tie_and_el_cid(capsys: pytest.CaptureFixture[str]) -> None:
    """Phase 6: Resolve Sieges: "If both sides roll the same result, then both sides lose 1 unit";
    El Cid: "+2 in siege"."""
    data = run_json(
        capsys,
        "siege",
        "--besiegers",
        "1A1G",
        "--defenders",
        "1A",
        "--city",
        "--el-cid",
        "besieger",
        "--dice",
        "1,3",
    )
    assert (data["besieger_total"], data["defender_total"], data["outcome"]) == (6, 6, "tie")
    assert data["result"] == "continue"
    assert data["besieger_survivors"] == {"A": 1} and data["defender_survivors"] == {}
    assert {"label": "El Cid", "amount": 2} in data["modifiers"]["besieger"]  # type: ignore[index]


@pytest.mark.parametrize("nobody", ["none", "", "NONE"])
def test_siege_with_nobody_inside_surrenders(capsys: pytest.CaptureFixture[str], nobody: str) -> None:
    """Phase 6: Resolve Sieges: "If the City / Fortress had no force inside [...] it surrenders and is
    captured (any Fortress present is kept)": no dice needed."""
    data = run_json(capsys, "siege", "--besiegers", "1G", "--defenders", nobody, "--city", "--fortress")
    assert data["surrendered"] is True and data["outcome"] == "besieger"
    assert data["sacked"] is False and data["fortress_destroyed"] is False
    assert data["besieger_total"] is None


@pytest.mark.parametrize(
    ("flags", "dice", "result"),
    [
        (
            ["--city", "--fortress"],
            "6,1",
            (
                "The besieger wins with an even result: every defender is eliminated and the fortress is destroyed, "
                "and the city is sacked and destroyed; the area is left with no city and no fortress."
            ),
        ),
        (
            ["--city"],
            "6,1",
            (
                "The besieger wins with an even result: every defender is eliminated, and the city is sacked and "
                "destroyed; the area is left with no city."
            ),
        ),
        (
            ["--city", "--fortress"],
            "5,1",
            (
                "The besieger wins with an odd result: every defender is eliminated and the fortress is destroyed; "
                "the city is captured."
            ),
        ),
        (
            ["--fortress"],
            "6,1",
            (
                "The besieger wins: every defender is eliminated and the fortress is destroyed; the area is "
                "left with no fortress."
            ),
        ),
    ],
)
def test_siege_text_says_what_a_win_leaves(
    capsys: pytest.CaptureFixture[str], flags: list[str], dice: str, result: str
) -> None:
    """Phase 6: "If the besieger beats the defender's roll, all defenders are eliminated, as
    well as any Fortress, if present. On an even result, the City is also eliminated (sacked
    and destroyed!)." A sacked city with a fortress loses both (the text left the fortress
    out); a fortress alone is destroyed, never "captured". 3A2G +8 beats 1G."""
    lines = run_text(capsys, "siege", "--besiegers", "3A2G", "--defenders", "1G", *flags, "--dice", dice)
    assert lines[-1] == result


def test_siege_text_writes_the_arithmetic_out(capsys: pytest.CaptureFixture[str]) -> None:
    """Phase 6: Resolve Sieges: "Double the modifier if a Fortress is present": the text shows each
    modifier and the doubling."""
    lines = run_text(
        capsys, "siege", "--besiegers", "3A2G", "--defenders", "2A1G", "--city", "--fortress", "--dice", "5,2"
    )
    assert lines[1] == "Besieger: 5 (die) + 6 (3 armies) + 2 (2 garrisons) = 13"
    assert lines[2] == "Defender: 2 (die) + [1 (city) + 4 (2 armies) + 1 (1 garrison)] x 2 (fortress) = 14"
    assert lines[3].startswith("The defender wins: the besiegers lose 1 unit (garrison) and retreat.")


# -- battle ------------------------------------------------------------------------------------


def test_battle_json_of_the_simple_battle(capsys: pytest.CaptureFixture[str]) -> None:
    """Example of a Simple Battle: garrison 5, armies 3 and 4 against garrison 4, armies 6 and 3:
    2 hits to 1, the Muslim force retreats."""
    data = run_json(
        capsys,
        "battle",
        "--attackers", "1G2A",
        "--defenders", "1G2A",
        "--attacker-dice", "5,3,4",
        "--defender-dice", "4,6,3",
    )  # fmt: skip
    assert data["attacker_hits"] == 2 and data["defender_hits"] == 1
    assert data["attacker_survivors"] == {"A": 2}
    assert data["defender_survivors"] == {"A": 1}
    assert data["result"] == "defender_retreats"


def test_battle_json_in_the_mountains(capsys: pytest.CaptureFixture[str]) -> None:
    """Battle: "in mountainous Areas, where the enemy forces roll to hit first": the attackers give
    dice only for the units the defenders left them."""
    data = run_json(
        capsys,
        "battle",
        "--attackers", "1G2A",
        "--defenders", "1G2A",
        "--mountain",
        "--attacker-dice", "5,3",
        "--defender-dice", "4,6,3",
    )  # fmt: skip
    assert (data["attacker_hits"], data["defender_hits"], data["result"]) == (1, 1, "continue")
    assert data["defender_survivors"] == {"A": 2}


def test_battle_text_shows_each_die_with_its_unit(capsys: pytest.CaptureFixture[str]) -> None:
    """Battle: "Roll a D6 for each unit": each die is shown with the unit that rolled it."""
    lines = run_text(
        capsys,
        "battle",
        "--attackers", "1G2A",
        "--defenders", "1G2A",
        "--attacker-dice", "5,3,4",
        "--defender-dice", "4,6,3",
    )  # fmt: skip
    assert lines[1] == "Attackers: garrison 5 hit, army 3 miss, army 4 hit -> 2 hits."
    assert lines[2] == "Defenders: garrison 4 miss, army 6 hit, army 3 miss -> 1 hit."
    assert lines[3] == "Attackers lose garrison; left: 2A."
    assert lines[4] == "Defenders lose garrison, army; left: 1A."
    assert lines[5].startswith("Result: the attackers scored more hits: the defenders retreat")


# -- odds --------------------------------------------------------------------------------------


def test_odds_siege_json(capsys: pytest.CaptureFixture[str]) -> None:
    """Phase 6: Resolve Sieges: the calculator gives the engine's exact odds."""
    data = run_json(capsys, "odds", "siege", "--besiegers", "1A", "--defenders", "1G", "--city")
    assert data == pytest.approx({"besieger": 15 / 36, "defender": 21 / 36, "sacked": 9 / 36}, abs=1e-12)


def test_odds_battle_json(capsys: pytest.CaptureFixture[str]) -> None:
    """Battle: the calculator gives the engine's exact odds, mountain and El Cid passed through."""
    data = run_json(
        capsys,
        "odds",
        "battle",
        "--attackers",
        "3A2G",
        "--defenders",
        "2A1G",
        "--mountain",
        "--el-cid",
        "defender",
    )
    expected = odds.battle_odds(
        parse_spec("3A2G"), parse_spec("2A1G"), city=False, mountain=True, el_cid="defender"
    )
    assert data == pytest.approx(expected, abs=1e-12)
    assert set(data) == {"attacker_wins", "defender_wins", "siege", "both_destroyed"}


def test_odds_text_is_percentages_with_one_decimal(capsys: pytest.CaptureFixture[str]) -> None:
    """Battle: 1A against 1A in the open: a third each, shown as 33.3%."""
    lines = run_text(capsys, "odds", "battle", "--attackers", "1A", "--defenders", "1A")
    assert lines[1].split()[-1] == "33.3%"
    assert lines[2].split()[-1] == "33.3%"
    assert lines[3].split()[-1] == "0.0%"
    siege = run_text(capsys, "odds", "siege", "--besiegers", "1A", "--defenders", "1G", "--city")
    assert siege[1].split()[-1] == "41.7%" and siege[2].split()[-1] == "25.0%"


# -- bad input ---------------------------------------------------------------------------------

BATTLE = ["reconquista", "battle", "--attackers", "1G2A", "--defenders", "1G2A"]
SIEGE = ["reconquista", "siege", "--besiegers", "2A", "--defenders", "1G", "--city"]


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        ([*BATTLE, "--attacker-dice", "5,3", "--defender-dice", "4,6,3"], "one die per unit"),
        ([*BATTLE, "--attacker-dice", "5,3,4", "--defender-dice", "4,6,3,1"], "one die per unit"),
        ([*BATTLE, "--attacker-dice", "5,3,7", "--defender-dice", "4,6,3"], "1 to 6"),
        ([*BATTLE, "--attacker-dice", "5,0,4", "--defender-dice", "4,6,3"], "1 to 6"),
        ([*BATTLE, "--attacker-dice", "five,3,4", "--defender-dice", "4,6,3"], "is not a die"),
        ([*BATTLE, "--attacker-dice", "5,,4", "--defender-dice", "4,6,3"], "is not a die"),
        ([*BATTLE, "--mountain", "--attacker-dice", "5,3,4", "--defender-dice", "4,6,3"], "struck first"),
        (["reconquista", "battle", "--attackers", "1G2X", "--defenders", "1A", "--attacker-dice", "1,2,3",
          "--defender-dice", "4"], "is not a force"),
        (["reconquista", "battle", "--attackers", "1A", "--defenders", "none", "--attacker-dice", "1",
          "--defender-dice", ""], "is not a force"),
        (["reconquista", "battle", "--attackers", "1A", "--attacker-dice", "1", "--defender-dice", "2"], "required"),
        ([*SIEGE, "--dice", "4"], "2 dice"),
        ([*SIEGE, "--dice", "4,7"], "1 to 6"),
        ([*SIEGE, "--dice", "0,3"], "1 to 6"),
        ([*SIEGE, "--dice", "a,b"], "is not a die"),
        ([*SIEGE], "--dice"),
        (["reconquista", "siege", "--besiegers", "2A", "--defenders", "1G", "--dice", "4,3"], "--city"),
        (["reconquista", "siege", "--besiegers", "none", "--defenders", "1G", "--city", "--dice", "4,3"], "force"),
        (["reconquista", "siege", "--besiegers", "2Z", "--defenders", "1G", "--city", "--dice", "4,3"], "not a force"),
        (["reconquista", "siege", "--defenders", "1G", "--city", "--dice", "4,3"], "required"),
        (["reconquista", "odds", "siege", "--besiegers", "2A", "--defenders", "1Q", "--city"], "not a force"),
        (["reconquista", "odds", "battle", "--attackers", "2A"], "required"),
        (["reconquista", "odds", "battle", "--attackers", "2A", "--defenders", "1A", "--el-cid", "besieger"],
         "invalid"),
        (["reconquista", "odds"], "required"),
        (["reconquista"], "required"),
    ],
)  # fmt: skip
def test_bad_input_is_one_sentence_and_exit_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], words: str
) -> None:
    """Every bad input (wrong dice count, die 0 or 7, text, unknown kind, missing flag) is one line on
    stderr, nothing on stdout, exit 2."""
    assert main(argv) == EXIT_USAGE
    out, err = capsys.readouterr()
    assert out == ""
    assert "Traceback" not in err
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("companion: ")
    assert words in lines[0]


def test_the_calculators_import_no_screen_or_database() -> None:
    """House rule: nothing under companion/reconquista/ imports Textual, SQLAlchemy, SQLModel or Alembic,
    and the calculators run without them."""
    code = (
        "import sys; from companion.cli import main;"
        "rc = main(['reconquista', 'odds', 'siege', '--besiegers', '1A', '--defenders', '1G', '--city', '--json']);"
        "heavy = [m for m in ('textual', 'sqlalchemy', 'sqlmodel', 'alembic') if m in sys.modules];"
        "print(rc, heavy, file=sys.stderr)"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", code],
        check=False,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip() == "0 []"
    assert json.loads(done.stdout)["besieger"] == pytest.approx(15 / 36)
