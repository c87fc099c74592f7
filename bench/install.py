"""Benchmark: a fresh ``pip install .`` into a new virtual environment, timed.

A copy of the checkout (without build artefacts) is installed into a new venv, the way
a user installs the app; the dependencies come from pip's cache or the package index as
they would for the user. The time printed is pip's alone (the venv is made first, not
timed). Then the installed package is checked for compiled files: there must be none.

Target (docs/design.md, "What good looks like"): under 25 s, with no C compiler.

Run from the repository root:  python bench/install.py [--runs 2]
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 25.0
IGNORED = shutil.ignore_patterns(
    ".git", "build", "dist", "*.egg-info", "__pycache__", ".*_cache", ".hypothesis", "*.db*", ".venv"
)
COMPILED = (".so", ".pyd", ".dll", ".dylib")


def install_once(tmp: Path) -> tuple[float, list[str]]:
    """Seconds for ``pip install .`` into a new venv, and the compiled files it installed."""
    source = tmp / "src"
    shutil.copytree(ROOT, source, ignore=IGNORED)
    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    start = time.perf_counter()
    done = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", str(source)],
        check=False,
        capture_output=True,
        text=True,
    )
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"bench/install.py: pip install failed:\n{done.stderr[-3000:]}")
    site = next((env_dir / "lib").glob("python3*/site-packages"))
    ours = [p for top in ("companion", "screens") for p in (site / top).rglob("*") if p.suffix in COMPILED]
    return seconds, [str(p.relative_to(site)) for p in ours]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2)
    args = parser.parse_args()
    times: list[float] = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="companion-install-") as tmp:
            seconds, compiled = install_once(Path(tmp))
        if compiled:
            raise SystemExit(f"bench/install.py: the install carries compiled files: {compiled}")
        times.append(seconds)
    median = statistics.median(times)
    print(f"Python {sys.version.split()[0]}, {args.runs} fresh installs of {ROOT.name} into new venvs")
    print(
        f"pip install .   median {median:5.1f} s   max {max(times):5.1f} s   "
        f"target < {TARGET_S:g} s: {'ok' if median < TARGET_S else 'OVER'}; no compiled file installed"
    )


if __name__ == "__main__":
    main()
