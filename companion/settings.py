"""The user's settings: one TOML file, read at start-up, shown by ``companion config``.

The file is ``settings.toml`` in the user config folder (platformdirs), or the file the
COMPANION_SETTINGS environment variable names. A missing file is no mistake: every setting
has its default. A file with a mistake (not readable, not UTF-8, not TOML, or a setting that
does not validate) is named in one sentence, file and field: ``companion config`` exits 2
with it, and the app starts on the defaults and shows it.

Reading the file needs the standard library alone (tomllib, imported only when there is a
file to read: this module is on the way to the first screen), and is done before it; validating it
(``companion.settings_model.validate``) imports pydantic, which costs as much as a fifth of the
start-up, so the app does that in the background, where the store is opened (and SQLModel
imports pydantic anyway). This module never imports that one.

The app writes one setting back: the theme, when the user picks one in the command palette.
The file is changed on its ``theme`` line alone, so the user's other settings and comments
stay as they were (``with_theme``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import Any

from companion.errors import CompanionError

#: The environment variable naming another settings file (tests, or a second set of settings).
ENV = "COMPANION_SETTINGS"
#: The largest settings file read: a whole one is a few hundred bytes.
MAX_SIZE = 64 * 1024
#: The first lines of a settings file the app writes itself (the first theme picked).
HEADER = (
    "# Tabletop Companion settings ('companion config' shows them; the README's \"Settings\"\n"
    "# section lists them all). The app writes the theme line when a theme is picked.\n"
)


class SettingsError(CompanionError):
    """The settings file has a mistake, or the theme cannot be written to it (one sentence)."""


@dataclass(frozen=True)
class Settings:
    """The settings in force. ``keys`` moves a binding's key by its id (companion.keymap)."""

    #: Textual's theme (one of its built-in themes; the command palette's "Theme" picks one).
    theme: str = "textual-dark"
    #: How a new Reconquista game's dice are rolled, preselected in its dialog (companion.dice).
    dice_mode: str = "mixed"
    #: Whether a new Battle of Simancas match tells each hand's phases (f4 turns it off in play).
    simancas_guide: bool = True
    #: Board checks: every how many Reconquista turns (Terra de Castells centuries) the app asks
    #: one to three spot questions about the table; 0: never.
    board_checks: int = 1
    keys: Mapping[str, str] = field(default_factory=dict)

    def session_settings(self, game_id: str) -> dict[str, Any]:
        """What these settings give a new session of ``game_id`` where no dialog asks."""
        if game_id == "simancas":
            return {"guide": self.simancas_guide}
        return {}


DEFAULTS = Settings()
FIELDS = tuple(f.name for f in fields(Settings))


def default_path() -> Path:
    """The settings file: COMPANION_SETTINGS, else settings.toml in the user config folder."""
    env = os.environ.get(ENV)
    if env:
        try:
            return Path(env).expanduser()
        except RuntimeError:  # '~someone/x.toml' for a user this machine does not know
            raise SettingsError(f"{ENV}={env}: that home folder does not exist.") from None
    from platformdirs import user_config_path

    return user_config_path("tabletop-companion", appauthor=False) / "settings.toml"


def origin() -> str:
    """Where the settings file's name came from, for ``companion config``."""
    return f"from {ENV}" if os.environ.get(ENV) else "the user config folder"


@dataclass(frozen=True)
class SettingsFile:
    """The settings file as read: its table (None when there is no file) or the sentence that
    says why it cannot be read (``error``)."""

    path: Path
    raw: dict[str, Any] | None = None
    error: str | None = None


def read(path: Path) -> SettingsFile:
    """Read and parse ``path`` (standard library only); never raises."""
    try:
        if path.is_dir():
            return SettingsFile(path, error=f"{path} is a folder, not a settings file.")
        if path.exists() and not path.is_file():
            # a FIFO would hang the read, /dev/zero would fill the memory
            return SettingsFile(path, error=f"{path} is not a regular file (a pipe or a device).")
        if path.exists() and path.stat().st_size > MAX_SIZE:
            return SettingsFile(
                path,
                error=f"{path} is {path.stat().st_size:,} bytes; a settings file is at most {MAX_SIZE:,}.",
            )
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return SettingsFile(path)
    except UnicodeDecodeError as exc:
        return SettingsFile(path, error=f"{path} is not UTF-8 text (byte {exc.start + 1}); save it as UTF-8.")
    except OSError as exc:
        return SettingsFile(path, error=f"Cannot read {path}: {exc.strerror or exc}.")
    import tomllib

    try:
        raw = tomllib.loads(text.removeprefix("\ufeff"))  # a byte-order mark some editors write
    except tomllib.TOMLDecodeError as exc:
        why = str(exc)
        return SettingsFile(path, error=f"{path} is not valid TOML: {why[:1].lower()}{why[1:]}.")
    except RecursionError:
        return SettingsFile(path, error=f"{path} is nested too deeply to be a settings file.")
    return SettingsFile(path, raw=raw)


# -- what ``companion config`` prints ----------------------------------------------------


def report(file: SettingsFile, settings: Settings) -> dict[str, Any]:
    """The settings in force and where each came from ("file" or "default"), every key too."""
    from companion.keymap import BINDINGS

    raw = file.raw or {}
    from_file = {name: "file" if name in raw else "default" for name in FIELDS}
    return {
        "path": str(file.path),
        "exists": file.raw is not None,
        "settings": {
            name: {"value": getattr(settings, name), "from": from_file[name]}
            for name in FIELDS
            if name != "keys"
        },
        "keys": {
            b.id: {
                "key": settings.keys.get(b.id, b.keys),
                "from": "file" if b.id in settings.keys else "default",
                "what": b.what,
            }
            for b in BINDINGS
        },
    }


def report_lines(data: dict[str, Any], where: str) -> list[str]:
    """``report`` as text: the file, each setting, each key."""
    import json

    there = "" if data["exists"] else " (there is none: every setting is its default)"
    lines = [f"Settings file ({where}): {data['path']}{there}", ""]
    for name, item in data["settings"].items():
        lines.append(f"  {name:<16} {json.dumps(item['value']):<24} {item['from']}")
    lines += ["", "Keys ([keys] in the file: a binding's id = its key):"]
    for binding_id, item in data["keys"].items():
        lines.append(f"  {binding_id:<22} {item['key']:<22} {item['from']:<8} {item['what']}")
    return lines


# -- writing the theme back ---------------------------------------------------------------

#: A ``theme = ...`` line (the key bare or quoted), its value a TOML string or a bare word,
#: and whatever follows it (spaces, a comment).
_THEME_LINE = re.compile(
    r"""^(?P<lead>[ \t]*(?:theme|"theme"|'theme')[ \t]*=[ \t]*)"""
    r"""(?P<value>"(?:[^"\\]|\\.)*"|'[^']*'|[^\s#]+)(?P<rest>.*)$"""
)
_TABLE = re.compile(r"^[ \t]*\[")


def with_theme(text: str, theme: str) -> str:
    """``text`` (a settings file) with its top-level ``theme`` set to ``theme``: the one line
    changed, or a line added above the first table; every other line, comment and blank
    kept. SettingsError when that cannot be done and give the same settings besides."""
    import json
    import tomllib

    newline = "\r\n" if "\r\n" in text else "\n"
    lines = text.splitlines(keepends=True)
    value = json.dumps(theme)
    first_table = next((i for i, line in enumerate(lines) if _TABLE.match(line)), len(lines))
    for i in range(first_table):
        body = lines[i].rstrip("\r\n")
        m = _THEME_LINE.match(body)
        if m:
            lines[i] = m["lead"] + value + m["rest"] + lines[i][len(body) :]
            break
    else:
        # Above the first table and the comments and blank lines just over it (they are its own).
        at = first_table
        while at > 0 and (not lines[at - 1].strip() or lines[at - 1].lstrip().startswith("#")):
            at -= 1
        if at > 0 and not lines[at - 1].endswith("\n"):
            lines[at - 1] += newline
        lines.insert(at, f"theme = {value}{newline}")
    new = "".join(lines)
    try:
        before, after = tomllib.loads(text.removeprefix("\ufeff")), tomllib.loads(new.removeprefix("\ufeff"))
    except tomllib.TOMLDecodeError:
        after, before = {}, None
    if before is None or after != {**before, "theme": theme}:
        raise SettingsError(
            f"its theme line could not be changed alone; write theme = {value} in it yourself"
        )
    return new


def save_theme(path: Path, theme: str) -> None:
    """Write ``theme`` into the settings file at ``path`` (made, with its folder, if there is
    none), keeping the rest of the file; SettingsError (one sentence) when it cannot be."""
    import json

    from companion.files import write_atomic

    failed = f"The theme {theme} was not saved"
    try:
        # A settings file that is a link (kept with the user's other dotfiles) stays one: the
        # file it points to is the one rewritten.
        target = path.expanduser().resolve()
        file = read(target)
        if file.error is not None:
            raise SettingsError(f"{failed}: {file.error.rstrip('.')} (fix it first).")
        if file.raw is None:
            text = HEADER + f"theme = {json.dumps(theme)}\n"
            target.parent.mkdir(parents=True, exist_ok=True)
        else:
            text = with_theme(target.read_text(encoding="utf-8"), theme)
        write_atomic(str(target), text)
    except SettingsError as exc:
        if str(exc).startswith(failed):
            raise
        raise SettingsError(f"{failed} in {path}: {exc}.") from None
    except CompanionError as exc:  # the write itself (companion.files.OutputError)
        raise SettingsError(f"{failed}: {str(exc).rstrip('.')}.") from None
    except (OSError, UnicodeDecodeError, RuntimeError) as exc:
        why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise SettingsError(f"{failed} in {path}: {why}.") from None
