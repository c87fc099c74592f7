"""Build: compile the Reconquista engine and the app's dice with mypyc, when it can be done.

Everything else about the package is in pyproject.toml. The engine stays plain Python
source; mypyc (from mypy, a build requirement only) turns the modules in COMPILED into
C extensions, which play headless games about 1.8 times as fast (bench/simulate.py: ~250
games a second against ~140 on the machine this was written on).
The compiled and the pure modules play the very same games: the tests run against
whichever is installed, and tests/test_reconquista_golden.py holds every prompt and
answer of 700 games to one hash.

Pure Python is built instead, with the same behaviour, when
- COMPANION_PURE_PYTHON=1 is set (quick builds, as the packaging tests make);
- the install is editable (pip install -e): a compiled module would shadow its source
  and hide every later edit of it;
- mypyc is not there or the C compiler fails: the install goes on, with a warning.
COMPANION_COMPILE=required turns the last case into a failed build (CI sets it, so that
it tests the compiled engine a user gets, never the fallback by accident).
"""

from __future__ import annotations

import glob
import os
import sys

from setuptools import setup
from setuptools.command.build_ext import build_ext

#: The modules compiled: the engine's hot path. Left out: board.py (its pydantic models;
#: mypyc cannot compile them), the calculators, odds, edits and setup (not on the path
#: of a game's prompts). The driver and the prompts are compiled: a headless game makes
#: a thousand prompts and sends the driver a thousand answers.
COMPILED = [
    "companion/dice.py",
    "companion/driver.py",
    "companion/prompts.py",
    "companion/reconquista/battle.py",
    "companion/reconquista/bot.py",
    "companion/reconquista/combat.py",
    "companion/reconquista/control.py",
    "companion/reconquista/events.py",
    "companion/reconquista/game.py",
    "companion/reconquista/movement.py",
    "companion/reconquista/purchases.py",
    "companion/reconquista/reaction.py",
    "companion/reconquista/rebellions.py",
    "companion/reconquista/simulate.py",
    "companion/reconquista/state.py",
    "companion/reconquista/units.py",
]

#: mypy's options for the build: the compiled modules must type-check cleanly; what they
#: import from outside (pydantic, the other games) is read only for its types.
MYPY_OPTIONS = ["--follow-imports=silent", "--ignore-missing-imports"]

REQUIRED = os.environ.get("COMPANION_COMPILE", "").strip().lower() == "required"


def _warn(message: str) -> None:
    if REQUIRED:
        raise SystemExit(f"companion: {message}, and COMPANION_COMPILE=required is set.")
    print(f"companion: {message}; building the engine as pure Python (same games, slower).", file=sys.stderr)


def _wanted() -> bool:
    if os.environ.get("COMPANION_PURE_PYTHON", "").strip() not in ("", "0"):
        return False
    # setuptools runs the editable_wheel command for ``pip install -e``, develop for the old way.
    return not {"editable_wheel", "develop"} & set(sys.argv)


def _extensions() -> list:
    if not _wanted():
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        _warn("mypyc (from mypy) is not installed")
        return []
    try:
        return mypycify([*MYPY_OPTIONS, *COMPILED], opt_level="3")
    except SystemExit as exc:  # mypyc exits when the type check fails
        _warn(f"mypyc could not compile the engine ({exc})")
        return []


class OptionalBuildExt(build_ext):
    """build_ext that falls back to pure Python when the C compiler fails, and removes any
    extension it had built: one built without the rest would fail to import."""

    def run(self) -> None:
        # mypyc names its shared library after a hash of the sources: one left in build/ by
        # an earlier build of another version would ride along in the wheel.
        wanted = {os.path.abspath(self.get_ext_fullpath(ext.name)) for ext in self.extensions}
        for old in glob.glob(os.path.join(self.build_lib, "*__mypyc.*")):
            if os.path.abspath(old) not in wanted:
                os.remove(old)
        try:
            super().run()
        except Exception as exc:  # the compiler's errors come as several distutils classes
            for ext in self.extensions:
                path = self.get_ext_fullpath(ext.name)
                if os.path.exists(path):
                    os.remove(path)
            self.extensions = []
            _warn(f"the C compiler failed ({exc})")


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
