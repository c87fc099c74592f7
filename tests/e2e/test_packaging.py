"""Tests of packaging: the wheel carries the data files and migrations, and an install finds them;
`uv tool install .` and `pipx install .` give a `companion` command that works.

The two installs reach the package index (uv only when its cache cannot serve it): they are marked
``online`` and skip, saying why, where the index cannot be reached."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: Files of the tree that a build does not need and must not be copied with it.
IGNORED = shutil.ignore_patterns(
    ".git", "build", "dist", "*.egg-info", "__pycache__", ".pytest_cache", ".hypothesis", "*.db*", ".venv"
)


def pip(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(
        [sys.executable, "-m", "pip", *args],
        check=False,
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        env=dict(os.environ, PIP_DISABLE_PIP_VERSION_CHECK="1", PIP_NO_INDEX="1"),
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return result


@pytest.fixture(scope="module")
def source(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the source tree, so building leaves no build/ or egg-info in the checkout
    and no stale build/lib from an earlier build can hide a missing file."""
    tree = tmp_path_factory.mktemp("src") / "tabletop-companion"
    shutil.copytree(ROOT, tree, ignore=IGNORED)
    return tree


@pytest.fixture(scope="module")
def wheel(source: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    pip("wheel", "--no-deps", "--no-build-isolation", "-w", str(out), str(source), cwd=out)
    (built,) = out.glob("tabletop_companion-*.whl")
    return built


def test_wheel_carries_data_and_migrations(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for name in (
        "companion/data/dice_tray.toml",
        "companion/store/migrations/env.py",
        "companion/store/migrations/versions/0001_initial.py",
        "companion/store/migrations/script.py.mako",
    ):
        assert name in names


def test_wheel_carries_every_data_file_and_migration(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    tomls = {f"companion/data/{p.relative_to(ROOT / 'data')}" for p in (ROOT / "data").rglob("*.toml")}
    assert tomls and tomls <= names
    versions = {
        f"companion/store/migrations/versions/{p.name}"
        for p in (ROOT / "companion" / "store" / "migrations" / "versions").glob("*.py")
    }
    assert versions <= names


def test_wheel_carries_the_screen_styles(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    styles = {f"screens/{p.relative_to(ROOT / 'screens')}" for p in (ROOT / "screens").rglob("*.tcss")}
    assert styles <= names


def test_wheel_carries_every_python_module(wheel: Path) -> None:
    """Every module of the checkout's packages is installed (a package missing from
    pyproject's list would silently drop a whole engine)."""
    names = set(zipfile.ZipFile(wheel).namelist())
    modules = {
        str(p.relative_to(ROOT))
        for top in ("companion", "screens")
        for p in (ROOT / top).rglob("*.py")
        if "__pycache__" not in p.parts
    }
    assert modules and modules <= names, sorted(modules - names)


def test_wheel_is_pure_python(wheel: Path) -> None:
    """The install needs no C compiler and carries no compiled extension: the wheel is
    tagged for any Python on any platform, and it holds only Python, styles and data."""
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
    names = zipfile.ZipFile(wheel).namelist()
    compiled = [n for n in names if n.endswith((".so", ".pyd", ".dll", ".dylib", ".c"))]
    assert names and not compiled, compiled


def test_wheel_declares_the_command(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as zf:
        (entry_points,) = [n for n in zf.namelist() if n.endswith(".dist-info/entry_points.txt")]
        text = zf.read(entry_points).decode()
    assert "companion = companion.cli:main" in text


def test_installed_package_finds_its_data(source: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    pip("install", "--no-deps", "--no-build-isolation", "--target", str(target), str(source), cwd=tmp_path)
    code = (
        "import json, companion.datafiles as d, companion.dicetray as t;"
        "print(d.data_dir());"
        "print(json.dumps([p.model_dump() for p in t.presets()]));"
        "print(t.__file__);"
        "from companion.reconquista.board import default_board;"
        "print(default_board().source)"
    )
    env = dict(os.environ, PYTHONPATH=str(target))
    result = subprocess.run(
        [sys.executable, "-c", code],
        check=False,
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr
    data_dir, presets, module, board_source = result.stdout.splitlines()
    assert Path(board_source).resolve().is_relative_to(target.resolve())
    assert Path(data_dir).resolve().is_relative_to(target.resolve())
    assert Path(module).resolve().is_relative_to(target.resolve())  # not the checkout
    shipped = tomllib.loads((ROOT / "data" / "dice_tray.toml").read_text())["preset"]
    assert json.loads(presets) == [{"dice": p["dice"].lower(), "label": p["label"]} for p in shipped]


# -- installed as a command of its own: pipx and uv --------------------------------------------------


def tool(name: str) -> list[str]:
    """How to run ``name`` (uv, pipx): on PATH, beside this Python (a venv not activated) or as
    its module; the test skips, saying so, where it is not installed."""
    import importlib.util

    found = shutil.which(name) or shutil.which(name, path=str(Path(sys.executable).parent))
    if found:
        return [found]
    if importlib.util.find_spec(name) is not None:
        return [sys.executable, "-m", name]
    pytest.skip(
        f"{name} is not installed (it comes with pip install '.[test]'), so '{name}' installs go untested"
    )


def run_tool(args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(args, check=False, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return result


def tool_env(**extra: str) -> dict[str, str]:
    """The environment of an install: no PYTHONPATH (the installed command must not find the
    checkout) and no pip version check."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return env | {"PIP_DISABLE_PIP_VERSION_CHECK": "1"} | extra


def assert_the_command_works(bin_dir: Path, cwd: Path) -> None:
    """The installed ``companion`` runs from its own environment: its help, and a command that
    opens a database (the store and its migrations came with it)."""
    command = bin_dir / "companion"
    assert command.is_file(), sorted(p.name for p in bin_dir.iterdir())
    # Its interpreter is the tool's own environment, under the test's folder, not this venv.
    shebang = command.resolve().read_text(encoding="utf-8").splitlines()[0]
    assert shebang.startswith(f"#!{bin_dir.parent}"), shebang
    env = tool_env()
    env.pop("COMPANION_DB", None)
    helped = run_tool([str(command), "--help"], env, cwd)
    assert "bug-report" in helped.stdout and "export" in helped.stdout
    listed = run_tool([str(command), "history", "--db", ":memory:"], env, cwd)
    assert listed.stderr == "No sessions yet.\n"


def index_url() -> str:
    """The package index an install would ask: uv's or pip's as the environment sets it, else PyPI's."""
    for name in ("UV_DEFAULT_INDEX", "UV_INDEX_URL", "PIP_INDEX_URL"):
        if os.environ.get(name):
            return os.environ[name]
    return "https://pypi.org/simple/"


def need_the_index() -> None:
    """Skip, saying why, where the package index does not answer within a few seconds (a machine
    offline): the install would fail for want of a network, not of anything in this project."""
    import urllib.error
    import urllib.request

    url = index_url()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, method="HEAD"), timeout=10):
            return
    except urllib.error.HTTPError:
        return  # the index answered, if only to refuse a HEAD: it is there
    except (OSError, ValueError) as exc:
        pytest.skip(f"the package index {url} cannot be reached ({exc}), so this install goes untested")


@pytest.mark.online
def test_uv_tool_install(source: Path, tmp_path: Path) -> None:
    """`uv tool install .` (README, "Set up"). uv's cache is kept between runs, so a second run
    installs offline: it is tried first, and the index only when the cache cannot serve it."""
    uv = tool("uv")
    env = tool_env(
        UV_TOOL_DIR=str(tmp_path / "tools"),
        UV_TOOL_BIN_DIR=str(tmp_path / "bin"),
        UV_PYTHON_DOWNLOADS="never",  # this Python, never one uv would fetch
        UV_NO_PROGRESS="1",
    )
    install = [*uv, "tool", "install", "--python", sys.executable, str(source)]
    offline = subprocess.run(
        [*install, "--offline"],
        check=False,
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if offline.returncode != 0:
        need_the_index()
        run_tool(install, env, tmp_path)
    assert_the_command_works(tmp_path / "bin", tmp_path)


@pytest.mark.online
def test_pipx_install(source: Path, tmp_path: Path) -> None:
    """`pipx install .` (README, "Set up") through pip, as a user without uv has it (a pipx that
    finds uv installs with it, which the test above covers), with pip's settings (its index and the
    wheels on the machine) as the user has them."""
    pipx = tool("pipx")
    need_the_index()
    env = tool_env(
        PIPX_HOME=str(tmp_path / "pipx"),
        PIPX_BIN_DIR=str(tmp_path / "bin"),
        PIPX_MAN_DIR=str(tmp_path / "man"),
        PIPX_DEFAULT_BACKEND="pip",
        # pipx's own pip (its "shared libraries") is kept between runs, as uv's cache is above
        # and as a user who has installed with pipx before has it: made afresh it is 5 of the
        # install's 22 s, and this test is held under 30 s with the suite's others beside it.
        PIPX_SHARED_LIBS=str(Path(tempfile.gettempdir()) / "companion-test-pipx-shared"),
    )
    # --no-compile: the command compiles what it imports when it first runs, not every module of
    # every dependency at install time (half of the install's time).
    install = [*pipx, "install", "--python", sys.executable, "--pip-args=--no-compile", str(source)]
    run_tool(install, env, tmp_path)
    assert_the_command_works(tmp_path / "bin", tmp_path)
