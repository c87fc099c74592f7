"""Loading the game data files in ``data/`` (TOML) through pydantic models.

The files ship inside the package as ``companion.data``. A file that is missing,
is not valid TOML or does not fit its model raises DataFileError with one
sentence naming the file and the field.
"""

from __future__ import annotations

import tomllib
from importlib import resources
from pathlib import Path
from typing import Annotated, TypeVar

from pydantic import BaseModel, Field, StrictInt, ValidationError

from companion.errors import DataFileError

M = TypeVar("M", bound=BaseModel)

#: A name in a data file (an area, a card, a castle): shown on every screen, so one line of
#: printable text with no markup brackets or control characters, not blank, 40 characters
#: at most.
Name = Annotated[
    str,
    Field(
        min_length=1,
        max_length=40,
        pattern=r"^[^\[\]\x00-\x1f\x7f-\x9f]*[^\s\[\]\x00-\x1f\x7f-\x9f][^\[\]\x00-\x1f\x7f-\x9f]*$",
    ),
]
#: A count in a data file: a whole number (not true, not 2.0), 0 to 20, the most any table
#: of these games holds; more would only make the engine build what no board can show.
Count = Annotated[StrictInt, Field(ge=0, le=20)]
#: A price or a number of points: a whole number from 1 (0 would let a phase buy for ever).
Price = Annotated[StrictInt, Field(ge=1, le=20)]


def data_dir() -> Path:
    """Where the shipped data files are: inside the installed package, else the checkout's data/."""
    try:
        return Path(str(resources.files("companion.data")))
    except ModuleNotFoundError:
        # Running from a source checkout that is not installed: data/ sits beside companion/.
        return Path(__file__).resolve().parent.parent / "data"


#: The largest data file read: the shipped ones are a few kilobytes; a map or card list a
#: thousand times larger is not one.
MAX_DATA_FILE = 1024 * 1024


def data_path(name: str) -> Path:
    """The path of the shipped data file ``name`` (e.g. 'dice_tray.toml')."""
    return data_dir() / name


def load_model(path: str | Path, model: type[M]) -> M:
    """Read ``path`` and validate it as ``model``; DataFileError on any problem."""
    path = Path(path)
    try:
        if path.exists() and not path.is_file():
            # a FIFO would hang the read, /dev/zero would fill the memory
            raise DataFileError(f"The data file {path} is not a regular file (a pipe or a device).")
        if path.exists() and path.stat().st_size > MAX_DATA_FILE:
            raise DataFileError(
                f"The data file {path} is {path.stat().st_size:,} bytes; a data file is at most {MAX_DATA_FILE:,}."
            )
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DataFileError(f"The data file {path} does not exist.") from None
    except OSError as exc:
        raise DataFileError(f"The data file {path} cannot be read: {exc.strerror}.") from None
    except UnicodeDecodeError as exc:
        raise DataFileError(
            f"The data file {path} is not UTF-8 text (byte {exc.start + 1}); save it as UTF-8."
        ) from None
    text = text.removeprefix("\ufeff")  # a byte-order mark some editors write
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"The data file {path} is not valid TOML: {exc}.") from None
    except RecursionError:
        raise DataFileError(f"The data file {path} is nested too deeply to be a data file.") from None
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err["loc"])
        msg = str(err["msg"]).removeprefix("Value error, ").rstrip(".")
        place = f"The data file {path}, field {where}" if where else f"The data file {path}"
        raise DataFileError(f"{place}: {msg}.") from None


def load_shipped(name: str, model: type[M]) -> M:
    """Validate the shipped data file ``name`` as ``model``."""
    return load_model(data_path(name), model)
