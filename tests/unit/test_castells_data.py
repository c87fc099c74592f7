"""Terra de Castells data files: the shipped ones load; a bad one is one sentence naming file and field."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.castells.board import load_board
from companion.castells.game import GAME
from companion.datafiles import data_path
from companion.errors import DataFileError

TERRITORIES = data_path("castells/territories.toml")
CASTLES = data_path("castells/castles.toml")


def test_the_shipped_files_load_and_near_runs_both_ways() -> None:
    """castles.toml: "near runs both ways"; every castle's territory is one of the six."""
    board = load_board(TERRITORIES, CASTLES)
    assert len(board.castles) == 18
    for castle in board.castles:
        assert board.territory_of[castle] in {t.name for t in board.territories}
        for other in board.near[castle]:
            assert castle in board.near[other]
    assert board.saracen_start == "Saracen camp" and board.near_list("Saracen camp")


def edited(tmp_path: Path, source: Path, old: str, new: str) -> Path:
    text = source.read_text(encoding="utf-8")
    assert old in text
    out = tmp_path / source.name
    out.write_text(text.replace(old, new, 1), encoding="utf-8")
    return out


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        ("tokens = 4", "tokens = -1", "field territory.0.tokens: Input should be greater than or equal to 0"),
        ("wakes_saracens = true", 'wakes_saracens = "maybe"', "field territory.0.wakes_saracens"),
        ('name = "Migdia"', 'name = "Levant"', "the territory name Levant is used twice"),
        ('centuries = ["XI"', 'centuries = ["XII"', "the century XII is listed twice"),
        ("tokens = 4", "tokens = 4\ncolour = 3", "field territory.0.colour: Extra inputs are not permitted"),
    ],
)
def test_a_bad_territories_file_names_file_and_field(tmp_path: Path, old: str, new: str, said: str) -> None:
    path = edited(tmp_path, TERRITORIES, old, new)
    with pytest.raises(DataFileError) as info:
        load_board(path, CASTLES)
    message = str(info.value)
    assert message.startswith(f"The data file {path}") and said in message


@pytest.mark.parametrize(
    ("old", "new", "said"),
    [
        (
            'territory = "Levant"',
            'territory = "Atlantis"',
            "field castle.0.territory: Atlantis is not one of the territories",
        ),
        (
            'near = ["Eramprunya", "Berga"]',
            'near = ["Eramprunya", "Bergaa"]',
            "Castellvi is near Bergaa, which is not a castle",
        ),
        ('name = "Eramprunya"', 'name = "Castellvi"', "the castle name Castellvi is used twice"),
        ('start = "Saracen camp"', 'start = "Tortosa"', "the Saracen's start Tortosa is a space of its own"),
        ('name = "Castellvi"\n', "", "field castle.0.name: Field required"),
    ],
)
def test_a_bad_castles_file_names_file_and_field(tmp_path: Path, old: str, new: str, said: str) -> None:
    path = edited(tmp_path, CASTLES, old, new)
    with pytest.raises(DataFileError) as info:
        load_board(TERRITORIES, path)
    message = str(info.value)
    assert message.startswith(f"The data file {path}") and said in message


def test_a_session_config_can_name_edited_files(tmp_path: Path) -> None:
    """The board is a default the user can edit: a session plays on the files its config names."""
    path = edited(tmp_path, TERRITORIES, "tokens = 4", "tokens = 7")
    state = GAME.new_state(1, {"territories": str(path)})
    assert state.bag["Levant"] == 7 and state.bag["Migdia"] == 4
    assert GAME.board_of(state).territory("Levant").tokens == 7


def test_a_missing_file_is_one_sentence(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match=r"^The data file .*nope.toml does not exist\.$"):
        load_board(tmp_path / "nope.toml", CASTLES)
