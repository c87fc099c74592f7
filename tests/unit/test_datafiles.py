"""The data files: each is checked by its pydantic model when loaded, and a mistake is one
sentence naming the file and the field (companion/datafiles.py). The Dice tray's presets here; the
games' own files in their tests (test_reconquista_board.py, test_castells_data.py, test_simancas_cards.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion import dicetray
from companion.datafiles import load_model
from companion.errors import DataFileError


def test_shipped_presets_load() -> None:
    presets = dicetray.presets()
    assert 1 <= len(presets) <= 9
    assert presets[0].dice == "1d6"


def test_bad_field_names_the_file_and_the_field(tmp_path: Path) -> None:
    path = tmp_path / "dice_tray.toml"
    path.write_text('[[preset]]\ndice = "2d6"\nlabel = "ok"\n\n[[preset]]\ndice = "0d7"\nlabel = "bad"\n')
    with pytest.raises(DataFileError) as info:
        load_model(path, dicetray.TrayData)
    message = str(info.value)
    assert str(path) in message
    assert "preset.1.dice" in message
    assert "0d7" in message
    assert message.endswith(".")


def test_missing_field_names_the_field(tmp_path: Path) -> None:
    path = tmp_path / "dice_tray.toml"
    path.write_text('[[preset]]\ndice = "2d6"\n')
    with pytest.raises(DataFileError) as info:
        load_model(path, dicetray.TrayData)
    assert "preset.0.label" in str(info.value)
    assert str(path) in str(info.value)


def test_too_many_presets(tmp_path: Path) -> None:
    path = tmp_path / "dice_tray.toml"
    path.write_text('[[preset]]\ndice = "1d6"\nlabel = "x"\n' * 10)
    with pytest.raises(DataFileError) as info:
        load_model(path, dicetray.TrayData)
    assert "field preset" in str(info.value)


def test_invalid_toml_and_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.toml"
    path.write_text("[[preset]\n")
    with pytest.raises(DataFileError, match="not valid TOML") as info:
        load_model(path, dicetray.TrayData)
    assert str(path) in str(info.value)
    with pytest.raises(DataFileError, match="does not exist"):
        load_model(tmp_path / "nope.toml", dicetray.TrayData)
