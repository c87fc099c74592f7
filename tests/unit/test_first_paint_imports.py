"""What `companion` alone reads and imports before its first screen (bench/startup.py times it):
its own options without every command's parser, and the home screen without the driver, the
prompts, urllib.request or any game's calculators."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from companion import cli
from companion.errors import UsageError
from screens.app import AFTER_FIRST_PAINT


def test_the_home_screen_and_the_apps_options_import_none_of_what_waits() -> None:
    code = textwrap.dedent(
        f"""
        import sys
        from companion import cli
        args = cli._app_args(["--db", ":memory:", "--seed", "3"])
        assert args is not None and args.command is None and args.seed == 3, args
        from companion.store import preflight
        preflight._read_only  # the database's check, as the start runs it
        import screens.app, screens.home
        print(",".join(m for m in {AFTER_FIRST_PAINT!r} if m in sys.modules))
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


@pytest.mark.parametrize(
    "argv",
    [["history"], ["--db", "x.db", "show", "1"], ["-h"], ["--nope"], ["--seed", "x"], ["--db"]],
)
def test_anything_but_the_apps_own_options_goes_to_the_whole_parser(argv: list[str]) -> None:
    assert cli._app_args(argv) is None


def test_a_mistake_in_the_apps_options_is_the_whole_parsers_sentence(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(UsageError, match="is not a seed"):
        cli.build_parser().parse_args(["--seed", "x"])
    assert cli.main(["--seed", "x"]) == 2
    said = capsys.readouterr().err
    assert "is not a seed" in said and said.count("\n") == 1 and "--help" in said
