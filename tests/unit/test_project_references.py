"""The project stands on its own: every reference in its text names something inside it.

Code, tests, data files and docs cite project files by path (``data/reconquista/map.toml``)
and the two documents of docs/ by section, often quoting them: docs/design.md, "Siege
modifiers"; docs/rules-notes.md, "Phase 5"; rules-notes, board reading 2. This module
guards that

- every path to a project file (under docs/, data/, tests/, companion/, screens/, bench/,
  snapshots/, or README.md) names a file or folder of the repository;
- nothing points outside the repository: no relative path that climbs out of it (two dots,
  a slash and a folder name), no design brief by its old upper-case name, no rulebook transcription by its file name, no absolute path of the
  machine the text was written on;
- every section a docs/design.md reference names is a heading or a bold label of
  docs/design.md, and the words it quotes after a colon are in it;
- every section a docs/rules-notes.md reference names is part of one of its headings, and
  a numbered reading ("battles reading 16") is an entry under that heading.

The text files are the *.py, *.md, *.toml and *.tcss files and .ci/run, outside build
artefacts, caches and virtual environments (the SVG snapshots are not text we write). This
file is not read: it writes wrong references on purpose, to show that the checks catch them.
"""

from __future__ import annotations

import os
import re
import tomllib
from functools import cache
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[2]
DESIGN = ROOT / "docs" / "design.md"
RULES_NOTES = ROOT / "docs" / "rules-notes.md"
THIS_FILE = Path(__file__).resolve().relative_to(ROOT)

SUFFIXES = (".py", ".md", ".toml", ".tcss")
EXTRA_FILES = (Path(".ci") / "run",)
NOT_OURS = {".git", "build", "dist", "__pycache__", ".venv", "venv", ".pytest_cache", ".hypothesis"}
NOT_OURS_SUFFIX = ".egg-info"

#: A path to a project file: one of these folders and what follows, or README.md. Not
#: preceded by a path character, so ``/tmp/data/x`` or ``companion.data`` is no reference.
FOLDERS = ("docs", "data", "tests", "companion", "screens", "bench", "snapshots")
PATH = re.compile(r"(?<![\w./-])(?:(?:" + "|".join(FOLDERS) + r")/[\w./*{}<>%-]*|README\.md)")

#: What would point outside the repository, by what it is.
OUTSIDE = {
    "a path that climbs out of the repository": re.compile(r"(?<![\w.])\.\./\w"),
    "the old design brief (docs/design.md replaces it)": re.compile(r"\bDESIGN\.md\b"),
    "a rulebook transcription's file name": re.compile(r"\b\d{3}_[0-9a-f]{16}\b"),
    "an absolute path of the working machine": re.compile(r"(?<![\w.~-])/work(?=/)"),
}

QUOTED = r'"([^"]+)"'
#: docs/design.md, "A" / docs/design.md "A" / docs/design.md ("A", "B"): sections.
DESIGN_SECTIONS = re.compile(r'docs/design\.md(?:,? "([^"]+)"| \(((?:"[^"]+"(?:, )?)+)\))')
#: docs/design.md[, "A" | , A]: "words": the words are quoted from section A (or anywhere).
DESIGN_QUOTES = re.compile(r'docs/design\.md(?:, (?:"([^"]+)"|([A-Za-z][\w ]{0,40}?)))?: "([^"]+)"')
#: docs/rules-notes.md, "A" / ("A", "B"), also just after a Markdown link to it.
NOTES_SECTIONS = re.compile(r'docs/rules-notes\.md\)?(?:,? "([^"]+)"| \(((?:"[^"]+"(?:, )?)+)\))')
#: rules-notes, board reading 2 / rules-notes (battles) 2 / docs/rules-notes.md, battles reading 16.
NOTES_READINGS = re.compile(r"rules-notes(?:\.md)?,? \(?(\w+)\)? (?:reading )?(\d+)\b")
ELLIPSIS = re.compile(r"\s*(?:\[\.\.\.\]|\.\.\.|…)\s*")


# -- the repository's text -------------------------------------------------------------------


@cache
def text_files() -> tuple[Path, ...]:
    """Every text file of the repository that may hold a reference, relative to ROOT."""
    found = [f for f in EXTRA_FILES if (ROOT / f).is_file()]
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = sorted(d for d in dirs if d not in NOT_OURS and not d.endswith(NOT_OURS_SUFFIX))
        found += [(Path(folder) / f).relative_to(ROOT) for f in sorted(files) if f.endswith(SUFFIXES)]
    return tuple(f for f in found if f != THIS_FILE)


@cache
def flat(path: Path) -> str:
    """A file's text on one line: comment markers at line starts dropped (outside Markdown,
    where ``#`` is a heading) and every run of white space one space, so a reference or a
    quotation broken over lines reads as written."""
    text = (ROOT / path).read_text(encoding="utf-8")
    if path.suffix != ".md":
        text = re.sub(r"^[ \t]*#:?[ \t]?", "", text, flags=re.MULTILINE)
    return re.sub(r"\s+", " ", text)


def plain(text: str) -> str:
    """Text as words to compare: no Markdown emphasis or code marks, one kind of quotation
    mark, single spaces, any case."""
    text = re.sub(r"[*`]", "", text)
    text = re.sub(r"[\"“”‘’]", "'", text)
    return re.sub(r"\s+", " ", text).strip().casefold()


# -- paths -----------------------------------------------------------------------------------


@cache
def installed_prefixes() -> dict[str, str]:
    """Where a folder of the checkout sits in an installed copy (pyproject.toml's package-dir):
    'companion/data/' -> 'data/'."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    dirs = pyproject["tool"]["setuptools"]["package-dir"]
    return {package.replace(".", "/") + "/": folder.rstrip("/") + "/" for package, folder in dirs.items()}


def names_something(ref: str) -> bool:
    """Whether a path reference names a file or folder of the repository. A path of an
    installed copy is read as the checkout's; a glob must match something; a template
    (an f-string's {field}, a <placeholder>) must start in an existing folder."""
    for installed, folder in installed_prefixes().items():
        if ref.startswith(installed):
            ref = folder + ref[len(installed) :]
    ref = unquote(ref)  # a Markdown link writes a snapshot's [size] as %5Bsize%5D
    template = re.search(r"[{<]", ref)
    if template:
        return (ROOT / ref[: template.start()]).is_dir()
    if "*" in ref:
        return any(ROOT.glob(ref))
    return (ROOT / ref).exists()


def path_references() -> list[tuple[Path, str]]:
    """Every path reference in the repository's text: (file, the path as written)."""
    return [(path, m.group(0).rstrip(".")) for path in text_files() for m in PATH.finditer(flat(path))]


def test_every_path_names_a_file_or_folder_of_the_repository() -> None:
    refs = path_references()
    assert {"docs/design.md", "docs/rules-notes.md", "data/reconquista/map.toml"} <= {r for _, r in refs}
    missing = sorted({f"{path}: {ref}" for path, ref in refs if not names_something(ref)})
    assert not missing, "references to files that are not in the repository:\n" + "\n".join(missing)


def test_paths_of_an_installed_copy_globs_and_templates_are_read_as_such() -> None:
    assert names_something("companion/data/reconquista/map.toml")
    assert names_something("data/reconquista/*.toml")
    assert names_something("companion/store/migrations/versions/{p.name}")
    assert names_something("companion/<game>/")
    assert not names_something("companion/data/reconquista/no-such-map.toml")
    assert not names_something("data/reconquista/*.json")
    assert not names_something("docs/no-such-folder/{name}")
    assert not names_something("docs/no-such-file.md")


def test_a_path_out_of_the_repository_is_caught() -> None:
    climbs = OUTSIDE["a path that climbs out of the repository"]
    up = ".." + "/"  # written apart, so that this file names no such path itself
    assert climbs.search(f"see {up}seeds/rules.txt") and climbs.search(f"({up}notes/a.md)")
    assert not climbs.search("and so on... /tmp") and not climbs.search("a.../b")


def test_nothing_refers_outside_the_repository() -> None:
    found = [
        f"{path}: {what} ({m.group(0)})"
        for path in text_files()
        for what, pattern in OUTSIDE.items()
        for m in pattern.finditer(flat(path))
    ]
    here = re.compile(re.escape(str(ROOT)) + r"\b")
    found += [f"{path}: this checkout's absolute path" for path in text_files() if here.search(flat(path))]
    assert not found, "references outside the repository:\n" + "\n".join(found)


# -- the sections of docs/ -------------------------------------------------------------------


def headings(markdown: str) -> list[str]:
    """The headings of a Markdown text, outside its fenced code blocks."""
    prose = re.sub(r"^```.*?^```", "", markdown, flags=re.MULTILINE | re.DOTALL)
    return [h.strip() for h in re.findall(r"^#{1,6} +(.+)$", prose, flags=re.MULTILINE)]


@cache
def design_sections() -> set[str]:
    """docs/design.md's headings and bold labels (a label without its closing ':' or '.')."""
    text = DESIGN.read_text(encoding="utf-8")
    labels = [label.strip().rstrip(".:") for label in re.findall(r"\*\*([^*\n]+)\*\*", text)]
    return set(headings(text)) | set(labels)


def design_problems(text: str) -> list[str]:
    """What ``text`` (flattened) says of docs/design.md that is not so: a section it names
    that docs/design.md lacks, or words it quotes that docs/design.md does not say."""
    sections = design_sections()
    words = plain(DESIGN.read_text(encoding="utf-8"))
    problems = []
    for m in DESIGN_SECTIONS.finditer(text):
        for name in [m[1]] if m[1] else re.findall(QUOTED, m[2]):
            if name not in sections:
                problems.append(f'no section "{name}"')
    for m in DESIGN_QUOTES.finditer(text):
        label = m[2]
        if label and not any(plain(label) in plain(s) for s in sections):
            problems.append(f"no section {label}")
        for piece in ELLIPSIS.split(m[3]):
            if re.search(r"\w{3}", piece) and plain(piece) not in words:
                problems.append(f'the words "{piece}" are not in it')
    return problems


@cache
def notes_sections() -> dict[str, str]:
    """docs/rules-notes.md by heading: each heading and the text under it."""
    parts = re.split(r"^## +(.+)$", RULES_NOTES.read_text(encoding="utf-8"), flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2], strict=True))


def notes_problems(text: str) -> list[str]:
    """What ``text`` (flattened) says of docs/rules-notes.md that is not so: a section no
    heading contains, or a numbered reading its section does not have."""
    sections = notes_sections()
    problems = []
    for m in NOTES_SECTIONS.finditer(text):
        for name in [m[1]] if m[1] else re.findall(QUOTED, m[2]):
            if not any(name.casefold() in heading.casefold() for heading in sections):
                problems.append(f'no heading contains "{name}"')
    for m in NOTES_READINGS.finditer(text):
        word, number = m[1], m[2]
        under = [body for heading, body in sections.items() if word.casefold() in heading.casefold()]
        if not any(re.search(rf"^{number}\. \*\*", body, flags=re.MULTILINE) for body in under):
            problems.append(f"no reading {number} under a heading with '{word}'")
    return problems


def test_every_section_and_quotation_of_docs_design_is_in_it() -> None:
    cited = [path for path in text_files() if "docs/design.md" in flat(path)]
    assert len(cited) > 20  # code, tests, data and docs all cite it
    quoted = sum(len(DESIGN_QUOTES.findall(flat(path))) for path in cited)
    assert quoted > 20
    problems = [f"{path}: {p}" for path in cited for p in design_problems(flat(path))]
    assert not problems, "docs/design.md does not have what is cited from it:\n" + "\n".join(problems)


def test_every_section_and_reading_of_docs_rules_notes_is_in_it() -> None:
    cited = [path for path in text_files() if "rules-notes" in flat(path)]
    found = [m for path in cited for m in NOTES_READINGS.finditer(flat(path))]
    assert len(found) > 5
    problems = [f"{path}: {p}" for path in cited for p in notes_problems(flat(path))]
    assert not problems, "docs/rules-notes.md does not have what is cited from it:\n" + "\n".join(problems)


def test_the_checks_catch_a_missing_section_or_misquoted_words() -> None:
    """The two checks above fail on what is not so, as well as pass on what is."""
    assert design_problems('docs/design.md ("Battle", "Siege modifiers")') == []
    assert design_problems('docs/design.md, Crusade: "free, placed by the player in Phase 3"') == []
    assert design_problems('docs/design.md ("Battle", "Sieges")') == ['no section "Sieges"']
    assert design_problems('docs/design.md, Crusade: "placed by the seed"') == [
        'the words "placed by the seed" are not in it'
    ]
    assert design_problems('docs/design.md, Jihad: "roll twice"') == [
        "no section Jihad",
        'the words "roll twice" are not in it',
    ]
    assert notes_problems('docs/rules-notes.md, "Phase 5"; rules-notes, board reading 2') == []
    assert notes_problems('docs/rules-notes.md, "Phase 8"') == ['no heading contains "Phase 8"']
    assert notes_problems("rules-notes, board reading 99") == ["no reading 99 under a heading with 'board'"]
