"""The settings file (companion/settings.py): `companion --version` and `companion config`, each
kind of mistake in one sentence, and the app on them: a theme picked written back and in force at
the next start, keys moved by binding id, the default dice mode, the Simancas guide."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import screen_text, store_ready, wait_until
from test_reconquista_screen import asks, driver_of, open_game, recorded_game
from textual.binding import Binding
from textual.pilot import Pilot
from textual.widgets import OptionList

from companion import __version__, keymap, settings_model
from companion import settings as S
from companion.cli import main
from companion.errors import EXIT_OK, EXIT_USAGE
from companion.store.db import Store
from screens.app import CompanionApp, screen_commands
from screens.reconquista.dialogs import NewGameDialog
from screens.shell.dialogs import ConfirmDialog, MessageDialog

#: The settings as a player has them, their defaults included (tests/conftest.py turns the
#: board checks off elsewhere).
pytestmark = pytest.mark.board_checks

ROOT = Path(__file__).resolve().parents[2]
SIZE = (100, 30)

#: A settings file as a user writes one: comments, blank lines, a table of keys.
WRITTEN = """\
# My settings for the companion.
dice_mode = "physical"   # I roll my own

theme = "textual-light"  # easier on the eyes by day
simancas_guide = false

# Keys I am used to.
[keys]
"game.undo" = "u"
"""


@pytest.fixture
def settings_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Where COMPANION_SETTINGS points for this test (no file there yet)."""
    path = tmp_path / "conf" / "settings.toml"
    monkeypatch.setenv(S.ENV, str(path))
    return path


def write(path: Path, text: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return path


def one_sentence(text: str) -> bool:
    return "\n" not in text.strip() and len(re.findall(r"[.?!](?:\s|$)", text.strip())) == 1


def notes(app: CompanionApp) -> list[str]:
    return [n.message for n in app._notifications]


def app_on(path: Path, tmp_path: Path, clock: Any) -> CompanionApp:
    return CompanionApp(db_path=str(tmp_path / "c.db"), seed=5, clock=clock, settings_path=path)


async def settings_ready(pilot: Pilot[Any]) -> None:
    app: Any = pilot.app
    await wait_until(pilot, lambda: app.settings_ready)


# -- the version ----------------------------------------------------------------------------


def test_version_is_printed_from_its_one_source(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0
    assert capsys.readouterr().out.strip() == f"companion {__version__}"
    # pyproject.toml writes no version of its own: it reads this one.
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "companion.__version__"}


def test_version_from_the_shell() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", "companion", "--version"],
        check=False,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode == 0 and done.stdout == f"companion {__version__}\n"


async def test_the_home_screen_shows_the_version(tmp_path: Path, clock: Any) -> None:
    app = CompanionApp(db_path=str(tmp_path / "c.db"), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        assert f"version {__version__}" in screen_text(pilot).splitlines()[0]


# -- where the file is, and `companion config` ----------------------------------------------------


def test_the_file_is_in_the_user_config_folder_unless_the_environment_names_another(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from platformdirs import user_config_path

    monkeypatch.delenv(S.ENV, raising=False)
    assert S.default_path() == user_config_path("tabletop-companion", appauthor=False) / "settings.toml"
    monkeypatch.setenv(S.ENV, str(tmp_path / "other.toml"))
    assert S.default_path() == tmp_path / "other.toml"


def test_config_without_a_file_is_every_default(
    settings_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["config"]) == EXIT_OK
    out = capsys.readouterr().out
    assert str(settings_file) in out and "there is none" in out
    for name in ("theme", "dice_mode", "simancas_guide"):
        line = next(ln for ln in out.splitlines() if ln.split()[:1] == [name])
        assert line.split()[-1] == "default"
    assert main(["config", "--json"]) == EXIT_OK
    data = json.loads(capsys.readouterr().out)
    assert data["path"] == str(settings_file) and data["exists"] is False
    assert data["settings"]["theme"] == {"value": "textual-dark", "from": "default"}
    assert data["keys"]["game.undo"] == {"key": "ctrl+z", "from": "default", "what": "Undo"}


def test_config_names_what_comes_from_the_file(
    settings_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write(settings_file, 'dice_mode = "app"\n[keys]\ngame.roll = "x"\n')  # an id unquoted: a TOML table
    assert main(["config"]) == EXIT_OK
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"Settings file (from {S.ENV}): {settings_file}"
    assert next(ln for ln in lines if ln.split()[:1] == ["dice_mode"]).split() == [
        "dice_mode",
        '"app"',
        "file",
    ]
    assert next(ln for ln in lines if ln.split()[:1] == ["theme"]).split()[-1] == "default"
    assert next(ln for ln in lines if ln.split()[:1] == ["game.roll"]).split()[1:3] == ["x", "file"]
    assert main(["config", "--json"]) == EXIT_OK
    data = json.loads(capsys.readouterr().out)
    assert data["path"] == str(settings_file)
    assert data["settings"]["dice_mode"] == {"value": "app", "from": "file"}
    assert data["keys"]["game.roll"]["key"] == "x" and data["keys"]["game.undo"]["from"] == "default"


#: Each kind of mistake: the file's text and what the sentence must name (the field, or the kind).
MISTAKES = {
    "not TOML": ('theme = "nord\n', "is not valid TOML: "),
    "not UTF-8": (b'theme = "\xff"\n', "is not UTF-8 text"),
    "wrong type": ("simancas_guide = 1\n", ": simancas_guide: 1 is not true or false"),
    "unknown key": ('colour = "blue"\n', ": colour: there is no such setting"),
    "unknown theme": ('theme = "neon"\n', ": theme: 'neon' is not a theme; one of ansi-dark,"),
    "unknown binding id": ('[keys]\n"game.undoo" = "u"\n', ": keys.game.undoo: no binding has the id"),
    "bad key": ('[keys]\n"game.undo" = "ctrl+neon"\n', ": keys.game.undo: 'ctrl+neon' is not a key"),
    "bad dice mode": ('dice_mode = "robot"\n', ": dice_mode: 'robot' is not a dice mode; one of mixed"),
    # Issue #33 item 5: a key dotted 2000 deep was a RecursionError in `companion config`, and
    # the app stayed on "Opening the database..." for ever.
    "keys too deep": ("[keys]\n" + ".".join(["a"] * 2000) + ' = "x"\n', ": keys: 'a.a.a.a"),
}


@pytest.mark.parametrize("kind", MISTAKES)
def test_a_mistake_is_one_sentence_naming_file_and_field_and_config_exits_2(
    kind: str, settings_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text, named = MISTAKES[kind]
    write(settings_file, text)
    for argv in (["config"], ["config", "--json"]):
        assert main(argv) == EXIT_USAGE
        out, err = capsys.readouterr()
        assert out == ""
        sentence = err.removeprefix("companion: ").strip()
        assert sentence.startswith(str(settings_file)) and named in sentence, sentence
        assert one_sentence(sentence), sentence


def test_a_folder_or_a_device_is_no_settings_file(
    settings_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    settings_file.mkdir(parents=True)
    assert main(["config"]) == EXIT_USAGE
    assert capsys.readouterr().err == f"companion: {settings_file} is a folder, not a settings file.\n"


@pytest.mark.parametrize(
    "kind", ["not TOML", "unknown theme", "unknown binding id", "wrong type", "keys too deep"]
)
async def test_the_app_starts_on_the_defaults_and_shows_the_mistake(
    kind: str, tmp_path: Path, clock: Any
) -> None:
    text, _named = MISTAKES[kind]
    # A theme that is right, beside the mistake: shown at once, then the default comes back.
    path = write(
        tmp_path / "settings.toml", ('theme = "nord"\n' if "theme" not in str(text) else "") + str(text)
    )
    with pytest.raises(S.SettingsError) as refused:
        settings_model.load(path)
    app = app_on(path, tmp_path, clock)
    async with app.run_test(size=SIZE) as pilot:
        await settings_ready(pilot)
        await store_ready(pilot)
        assert app.settings == S.DEFAULTS and app.settings_error == str(refused.value)
        assert app.theme == S.DEFAULTS.theme
        assert any(str(refused.value) in note for note in notes(app)), notes(app)
        assert app.screen.query_one("#sessions", OptionList) is not None  # the home screen, working
    assert path.read_text(encoding="utf-8").endswith(str(text))  # nothing written back


async def test_a_missing_file_is_no_mistake(tmp_path: Path, clock: Any) -> None:
    app = app_on(tmp_path / "nowhere" / "settings.toml", tmp_path, clock)
    async with app.run_test(size=SIZE) as pilot:
        await settings_ready(pilot)
        await store_ready(pilot)
        assert app.settings == S.DEFAULTS and app.settings_error is None and notes(app) == []
    assert not (tmp_path / "nowhere").exists()


# -- keys -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "keys", ["u", "?", "ctrl+z", "f5", "ctrl+shift+left", "question_mark", "slash", "u,ctrl+u"]
)
def test_keys_textual_knows(keys: str) -> None:
    assert keymap.key_problem(keys) is None


@pytest.mark.parametrize("keys", ["", "ctrl+", "Ctrl+z", "neon", "ctrl+neon", "u,", "f99"])
def test_keys_it_does_not(keys: str) -> None:
    assert keymap.key_problem(keys) is not None


def screen_bindings() -> list[tuple[str, Binding]]:
    """Every binding of every screen the app shows (and of the app itself)."""
    from screens import dicetray, history, home, review
    from screens.castells import game_screen as castells
    from screens.reconquista import game_screen as reconquista
    from screens.simancas import game_screen as simancas

    classes: list[Any] = [
        CompanionApp,
        home.HomeScreen,
        history.HistoryScreen,
        history.SessionLogScreen,
        review.ReviewScreen,
        dicetray.DiceTrayScreen,
        reconquista.ReconquistaScreen,
        castells.CastellsScreen,
        simancas.SimancasScreen,
    ]
    # A screen also has its bases' bindings (Textual merges them): the game screens' base binds
    # the keys every game shares.
    own = {
        (c.__name__, k)
        for c in classes
        for k in c.__mro__
        if "BINDINGS" in vars(k) and not k.__module__.startswith("textual")
    }
    return [
        (where, b) for where, k in sorted(own, key=str) for b in vars(k)["BINDINGS"] if isinstance(b, Binding)
    ]


def test_the_binding_ids_are_the_screens_own() -> None:
    """companion.keymap lists the very ids the screens bind, with their keys; every key shown
    in a footer or the palette can be moved."""
    found = screen_bindings()
    with_id = {(b.id, b.key) for _where, b in found if b.id}
    assert with_id == {(b.id, b.keys) for b in keymap.BINDINGS}
    unmovable = [(where, b.key) for where, b in found if b.description and not b.id]
    assert unmovable == []


def test_the_readme_lists_every_binding_id() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert [b.id for b in keymap.BINDINGS if f"`{b.id}`" not in readme] == []


@pytest.mark.slow
async def test_a_key_moved_in_the_settings_does_the_action_and_the_old_one_does_not(
    tmp_path: Path, clock: Any
) -> None:
    path = write(tmp_path / "settings.toml", '[keys]\n"game.undo" = "u"\n')
    sid = recorded_game(tmp_path / "c.db", clock, 9, asks("Phase 3"))
    app = app_on(path, tmp_path, clock)
    async with app.run_test(size=(200, 55)) as pilot:  # wide: the footer shows every key
        await settings_ready(pilot)
        await open_game(pilot, sid)
        board = app.screen
        driver = driver_of(app)
        steps = len(driver.steps)
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert app.screen is board and len(driver.steps) == steps  # the old key: nothing
        assert "u Undo" in screen_text(pilot) and "^z Undo" not in screen_text(pilot)
        undo = next(c for c in screen_commands(app.screen, app.settings.keys) if c.title == "Undo")
        assert undo.help == "Key: u"
        await pilot.press("u")
        await wait_until(pilot, lambda: isinstance(app.screen, (ConfirmDialog, MessageDialog)))
        if isinstance(app.screen, ConfirmDialog):
            await pilot.press("y")
        await wait_until(pilot, lambda: len(driver.steps) < steps)


async def test_the_home_screen_names_the_help_key_the_settings_give(tmp_path: Path, clock: Any) -> None:
    """F1 is in no footer: the home screen's header names it ("f1: help"), and the key the
    settings file moves it to once that is read."""
    app = app_on(write(tmp_path / "plain.toml", ""), tmp_path, clock)
    async with app.run_test(size=SIZE) as pilot:
        await settings_ready(pilot)
        await store_ready(pilot)
        assert app.screen.sub_title.endswith("· f1: help")
    path = write(tmp_path / "settings.toml", '[keys]\n"app.help" = "f10"\n')
    app = app_on(path, tmp_path, clock)
    async with app.run_test(size=SIZE) as pilot:
        await settings_ready(pilot)
        await store_ready(pilot)
        assert app.screen.sub_title.endswith("· f10: help") and "f10: help" in screen_text(pilot)


# -- what the settings give a new session -------------------------------------------------------------


async def test_the_default_dice_mode_is_preselected(tmp_path: Path, clock: Any) -> None:
    path = write(tmp_path / "settings.toml", 'dice_mode = "physical"\n')
    app = app_on(path, tmp_path, clock)
    async with app.run_test(size=SIZE) as pilot:
        await settings_ready(pilot)
        await store_ready(pilot)
        app.start_game("reconquista")
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameDialog))
        await pilot.pause()
        assert app.screen.query_one(OptionList).highlighted == 1  # mixed, physical, app
        await pilot.press("enter")
        await wait_until(pilot, lambda: app.sessions_started == 1)
    assert Store(str(tmp_path / "c.db")).session(1).config == {"dice": "physical", "setup": True}


async def test_without_settings_the_dialog_offers_mixed_first(tmp_path: Path, clock: Any) -> None:
    app = CompanionApp(db_path=str(tmp_path / "c.db"), clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        app.start_game("reconquista")
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameDialog))
        await pilot.pause()
        assert app.screen.query_one(OptionList).highlighted == 0


@pytest.mark.slow
@pytest.mark.parametrize("guide", [False, True])
async def test_the_simancas_guide_setting_is_a_new_matchs(guide: bool, tmp_path: Path, clock: Any) -> None:
    path = write(tmp_path / "settings.toml", f"simancas_guide = {str(guide).lower()}\n")
    app = app_on(path, tmp_path, clock)
    async with app.run_test(size=SIZE) as pilot:
        await settings_ready(pilot)
        await store_ready(pilot)
        games = app.screen.query_one("#games", OptionList)
        games.highlighted = next(
            i for i in range(games.option_count) if games.get_option_at_index(i).id == "simancas"
        )
        await pilot.press("enter")  # from the home screen's list
        await wait_until(pilot, lambda: app.sessions_started == 1)
        app.pop_screen()
        app.start_game("simancas")  # the palette's "New Simancas match"
        await wait_until(pilot, lambda: app.sessions_started == 2)
        titles = {c.title for c in app.get_system_commands(app.screen)}
        assert ("New Simancas match, unguided" in titles) is guide
        assert ("New Simancas match, guided" in titles) is not guide
    store = Store(str(tmp_path / "c.db"))
    assert [store.session(i).config for i in (1, 2)] == [{"guide": guide, "setup": True}] * 2


# -- the theme --------------------------------------------------------------------------------------


async def pick_theme(pilot: Pilot[Any], name: str) -> None:
    """Through the command palette, as a user does: its "Theme" command, then the theme."""
    app = pilot.app
    await pilot.press("ctrl+p")
    await pilot.pause()
    await pilot.press(*"Theme")
    await wait_until(pilot, lambda: "Change the current theme" in screen_text(pilot))
    await pilot.press("enter")
    await wait_until(pilot, lambda: "Search for themes" in screen_text(pilot))
    await pilot.press(*name)
    await pilot.pause(0.3)
    await pilot.press("enter")
    await wait_until(pilot, lambda: app.theme == name)


@pytest.mark.slow
async def test_a_theme_picked_is_written_keeping_the_rest_and_comes_back(tmp_path: Path, clock: Any) -> None:
    path = write(tmp_path / "settings.toml", WRITTEN)
    app = app_on(path, tmp_path, clock)
    async with app.run_test(size=SIZE) as pilot:
        assert app.theme == "textual-light"  # from the file, before the first screen
        await settings_ready(pilot)
        await store_ready(pilot)
        await pick_theme(pilot, "nord")
        assert app.settings.theme == "nord"
    assert path.read_text(encoding="utf-8") == WRITTEN.replace(
        'theme = "textual-light"  # easier', 'theme = "nord"  # easier'
    )
    again = app_on(path, tmp_path, clock)
    async with again.run_test(size=SIZE) as pilot:
        assert again.theme == "nord"
        await settings_ready(pilot)
        assert again.theme == "nord" and again.settings.dice_mode == "physical" and notes(again) == []


async def test_a_theme_picked_without_a_file_makes_one(tmp_path: Path, clock: Any) -> None:
    path = tmp_path / "new" / "folder" / "settings.toml"
    app = app_on(path, tmp_path, clock)
    async with app.run_test(size=SIZE) as pilot:
        await settings_ready(pilot)
        app.theme = "textual-light"
        await pilot.pause()
    assert tomllib.loads(path.read_text(encoding="utf-8")) == {"theme": "textual-light"}
    assert path.read_text(encoding="utf-8").startswith("# Tabletop Companion settings")


async def test_a_theme_that_cannot_be_written_is_one_sentence(tmp_path: Path, clock: Any) -> None:
    write(tmp_path / "a-file", "not a folder")
    path = tmp_path / "a-file" / "settings.toml"  # its folder cannot be made
    app = app_on(path, tmp_path, clock)
    async with app.run_test(size=SIZE) as pilot:
        await settings_ready(pilot)
        app.theme = "nord"
        await pilot.pause()
        said = [n for n in notes(app) if "not saved" in n]
        assert len(said) == 1 and one_sentence(said[0]) and str(path) in said[0], said
        assert said[0].startswith("The theme nord was not saved")
        assert app.is_running and app.theme == "nord"


def test_with_theme_changes_the_one_line() -> None:
    text = 'theme = "nord" # dark\r\n"dice_mode" = "app"\r\n'
    assert S.with_theme(text, "dracula") == 'theme = "dracula" # dark\r\n"dice_mode" = "app"\r\n'
    quoted = "'theme' = 'nord'\n"
    assert S.with_theme(quoted, "dracula") == "'theme' = \"dracula\"\n"


def test_with_theme_adds_a_line_above_the_first_table_and_its_comments() -> None:
    text = '# mine\ndice_mode = "app"\n\n# keys\n[keys]\ntheme = "u"\n'
    new = S.with_theme(text, "nord")
    assert new == '# mine\ndice_mode = "app"\ntheme = "nord"\n\n# keys\n[keys]\ntheme = "u"\n'
    assert tomllib.loads(new)["keys"] == {"theme": "u"}  # a table's own 'theme' stays as it was


def test_with_theme_refuses_what_it_cannot_change_alone() -> None:
    with pytest.raises(S.SettingsError, match="could not be changed alone"):
        S.with_theme('theme = """nord"""\n', "dracula")


def test_the_readmes_example_file_is_right(tmp_path: Path) -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    example = re.search(r"```toml\n(# ~/.config/tabletop-companion/settings.toml\n.*?)```", readme, re.S)
    assert example is not None
    found, _file = settings_model.load(write(tmp_path / "settings.toml", example[1]))
    assert found.theme == "textual-light" and found.dice_mode == "physical" and not found.simancas_guide
    assert found.keys["reconquista.dice_mode"] == "ctrl+t" and found.keys["game.undo"] == "u"


def test_reading_the_settings_before_the_first_screen_imports_no_pydantic(tmp_path: Path) -> None:
    """pydantic costs a fifth of the start-up: the app and the reading of the file do without it."""
    code = (
        "import sys; from pathlib import Path; import screens.app; from companion import settings; "
        "assert settings.read(Path(sys.argv[1])).raw; print(sorted(m for m in sys.modules if m.startswith('pydantic')))"
    )
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-c", code, str(write(tmp_path / "settings.toml", WRITTEN))],
        check=True,
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.stdout.strip() == "[]"


def test_a_pipe_or_a_huge_file_is_refused_unread(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    assert S.read(fifo).error == f"{fifo} is not a regular file (a pipe or a device)."
    huge = write(tmp_path / "huge.toml", "# " + "x" * S.MAX_SIZE)
    error = S.read(huge).error
    assert error is not None and error.startswith(f"{huge} is 65,538 bytes") and one_sentence(error)
