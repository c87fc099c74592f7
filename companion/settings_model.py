"""The settings file's validation (pydantic): every setting's type and values, unknown ones refused.

Imported only to validate a settings file (``validate``, ``load``): pydantic costs a fifth of the
app's start-up, which must not wait for it (companion.settings reads the file; this module
checks what it holds). A mistake is one
sentence naming the file and the field: ``/x/settings.toml: theme: 'neon' is not a theme; one
of ...``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator
from pydantic_core import PydanticCustomError

from companion import dice, keymap
from companion.settings import DEFAULTS, FIELDS, Settings, SettingsError, SettingsFile, default_path, read


def _refuse(why: str) -> PydanticCustomError:
    # The sentence goes in the context, not the template: a value quoted in it may hold braces.
    return PydanticCustomError("setting", "{why}", {"why": why})


def shown(value: object) -> str:
    """A value from the file as a sentence quotes it: 'neon', 3, true, a table."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return repr(value if len(value) <= 40 else value[:37] + "…")
    if isinstance(value, dict):
        return "a table"
    if isinstance(value, list):
        return "a list"
    return str(value)[:40]


def _binding_id(binding_id: str) -> str:
    problem = keymap.binding_problem(binding_id)
    if problem is not None:
        raise _refuse(problem)
    return binding_id


def _key(keys: str) -> str:
    problem = keymap.key_problem(keys)
    if problem is not None:
        raise _refuse(f"{shown(keys)} {problem}")
    return keys


#: The longest rhythm of board checks: every 20 turns is already once a game.
MOST_CHECK_TURNS = 20
#: The most parts a key id of ``[keys]`` has ("game.undo": 2); deeper tables are a mistake.
KEY_PARTS = 8


class SettingsModel(BaseModel):
    """The settings file: the four settings, nothing else; strict types (TOML has its own)."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)

    theme: str = DEFAULTS.theme
    dice_mode: str = DEFAULTS.dice_mode
    simancas_guide: bool = DEFAULTS.simancas_guide
    board_checks: int = Field(default=DEFAULTS.board_checks, ge=0, le=MOST_CHECK_TURNS)
    keys: dict[Annotated[str, AfterValidator(_binding_id)], Annotated[str, AfterValidator(_key)]] = Field(
        default_factory=dict
    )

    @field_validator("theme")
    @classmethod
    def _theme(cls, theme: str) -> str:
        from textual.theme import BUILTIN_THEMES  # the themes the app offers: Textual's own

        if theme not in BUILTIN_THEMES:
            raise _refuse(f"{shown(theme)} is not a theme; one of {', '.join(sorted(BUILTIN_THEMES))}")
        return theme

    @field_validator("dice_mode")
    @classmethod
    def _dice_mode(cls, mode: str) -> str:
        if mode not in dice.DICE_MODES:
            raise _refuse(f"{shown(mode)} is not a dice mode; one of {', '.join(dice.DICE_MODES)}")
        return mode

    @field_validator("keys", mode="before")
    @classmethod
    def _dotted(cls, keys: Any) -> Any:
        """``game.undo = "u"`` written without quotes is a table in TOML (game, then undo):
        read it as the id it spells."""
        if not isinstance(keys, dict):
            return keys
        flat: dict[str, Any] = {}
        # Walked with a list, not by recursion: a key dotted thousands of times deep is a
        # mistake to name, not a RecursionError.
        tables: list[tuple[str, dict[str, Any]]] = [("", keys)]
        while tables:
            prefix, table = tables.pop()
            if prefix.count(".") >= KEY_PARTS:
                raise ValueError(f"'{prefix[:40]}…' is not a key: a key id has at most {KEY_PARTS} parts")
            for name, value in table.items():
                if isinstance(value, dict):
                    tables.append((f"{prefix}{name}.", value))
                else:
                    flat[f"{prefix}{name}"] = value
        return flat


#: What a pydantic error of each type says, for the sentence (the value is quoted before it).
_TYPE_WORDS = {
    "string_type": "is not text; write it in quotes",
    "bool_type": "is not true or false",
    "int_type": "is not a whole number",
    "greater_than_equal": "is below 0; 0 turns the board checks off",
    "less_than_equal": f"is more than {MOST_CHECK_TURNS}: the board checks come every 1 to {MOST_CHECK_TURNS} turns, or 0 for never",
    "dict_type": 'is not a table; write [keys] and under it lines such as "game.undo" = "u"',
}


def _sentence(path: Path, err: Any, more: int) -> str:
    loc = [str(p) for p in err["loc"] if p != "[key]"]
    where = ".".join(loc)
    kind = err["type"]
    if kind == "extra_forbidden":
        what = f"there is no such setting; the settings are {', '.join(FIELDS[:-1])} and {FIELDS[-1]}"
    elif kind == "setting":
        what = str(err["ctx"]["why"])
    elif kind in _TYPE_WORDS:
        what = f"{shown(err['input'])} {_TYPE_WORDS[kind]}"
    else:
        what = str(err["msg"]).removeprefix("Value error, ")
    others = f" (and {more} more mistake{'s' if more != 1 else ''})" if more else ""
    return f"{path}: {where}: {what.rstrip('.')}{others}."


def settings_of(raw: dict[str, Any], path: Path) -> Settings:
    """The settings of a parsed settings file; SettingsError with one sentence for a mistake."""
    try:
        model = SettingsModel.model_validate(raw)
    except ValidationError as exc:
        errors = exc.errors()
        raise SettingsError(_sentence(path, errors[0], len(errors) - 1)) from None
    return Settings(
        theme=model.theme,
        dice_mode=model.dice_mode,
        simancas_guide=model.simancas_guide,
        board_checks=model.board_checks,
        keys=dict(model.keys),
    )


def validate(file: SettingsFile) -> Settings:
    """The settings ``file`` holds; SettingsError (one sentence, file and field) for a mistake."""
    if file.error is not None:
        raise SettingsError(file.error)
    if not file.raw:
        return DEFAULTS
    return settings_of(file.raw, file.path)


def load(path: Path | None = None) -> tuple[Settings, SettingsFile]:
    """Read and validate the settings file (``path``, else ``companion.settings.default_path()``)."""
    file = read(default_path() if path is None else path)
    return validate(file), file
