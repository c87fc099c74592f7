"""No code outside an engine reads a prompt's wording (docs/design.md, "Prompts").

Screens, statistics, the luck ledger, the exports and the history branch on a prompt's
``topic`` and ``data``; the wording (a Roll's or Choose's ``why``, a Tell's ``text``, an
Enter's ``hint``, ``describe()``, the answer text of a choice) is only shown. This test reads
the source of every module outside the engines and fails on code that tests wording:
a comparison, ``in``, ``startswith`` and the like, a regular expression, or SQL over the
logged question. An engine may read its own wording (``companion.simancas.actions`` reads the
options it wrote); companion/store/legacy.py is the one place that reads old wording, once.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
ENGINES = ("companion/reconquista/", "companion/simancas/", "companion/castells/")
ALLOWED = {"companion/prompts.py", "companion/dicetray.py", "companion/store/legacy.py"}
#: A prompt's wording, and the logged answer of a choice (an option's text).
WORDING = {"why", "text", "hint", "answer"}
#: String methods that test or take apart a text.
TESTS = {"startswith", "endswith", "find", "rfind", "index", "split", "rsplit", "partition", "count"}
REGEX = {"match", "fullmatch", "search", "findall", "finditer", "sub", "split"}
SQL = ("'$.why'", "'$.text'", "'$.hint'", "instr(why", "why LIKE")


def modules() -> list[Path]:
    paths = [*ROOT.glob("companion/**/*.py"), *ROOT.glob("screens/**/*.py"), *ROOT.glob("bench/**/*.py")]
    out = []
    for p in sorted(paths):
        rel = p.relative_to(ROOT).as_posix()
        if rel.startswith(ENGINES) or rel in ALLOWED or "/migrations/" in rel:
            continue
        out.append(p)
    return out


def wording(node: ast.AST) -> bool:
    """Whether ``node`` reads a prompt's wording: ``x.why``, ``x.text``, ``step.answer``,
    ``x.describe()``, anywhere inside it."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and sub.attr in WORDING:
            return True
        if isinstance(sub, ast.Call) and isinstance(sub.func, ast.Attribute) and sub.func.attr == "describe":
            return True
    return False


def reads(tree: ast.AST) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            texts = [s for s in sides if not (isinstance(s, ast.Constant) and s.value is None)]
            if any(wording(s) for s in texts) and any(
                isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)) for op in node.ops
            ):
                found.append((node.lineno, "compares wording"))
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name, owner = node.func.attr, node.func.value
            if name in TESTS and wording(owner):
                found.append((node.lineno, f"{name}() on wording"))
            if name in REGEX and any(wording(a) for a in node.args):
                found.append((node.lineno, f"a regular expression over wording ({name})"))
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and any(s in node.value for s in SQL)
        ):
            found.append((node.lineno, "SQL over the logged question"))
    return found


@pytest.mark.parametrize("path", modules(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_module_reads_no_wording(path: Path) -> None:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = reads(tree)
    assert not found, "; ".join(f"line {n}: {what}" for n, what in found)


@pytest.mark.parametrize(
    "source",
    [
        "if prompt.why.startswith('Move'): pass",
        "m = _UNITS.fullmatch(prompt.why)",
        "side = 'x' if str(step.answer).startswith('Moors') else 'y'",
        "ok = 'from' in prompt.why.casefold()",
        "sql = \"SELECT json_extract(prompt, '$.why') AS why\"",
        "same = step.prompt.describe() == other",
    ],
)
def test_the_check_finds_reads_of_wording(source: str) -> None:
    """The check itself: each of these reads wording and is found."""
    assert reads(ast.parse(source))


@pytest.mark.parametrize(
    "source",
    [
        "label = Text(prompt.why, style='bold')",
        "line = f'{step.prompt.describe()} -> {answer_text(step.answer)}'",
        "if prompt.topic == 'reconquista.movement.units': pass",
        "area = prompt.data['origin']",
        "if step.answer is None: pass",
    ],
)
def test_showing_wording_is_not_reading_it(source: str) -> None:
    assert not reads(ast.parse(source))
