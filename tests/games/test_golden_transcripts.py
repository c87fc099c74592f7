"""Golden transcripts: a few whole games written out step by step, to read, beside the hashes.

tests/games/test_reconquista_whole_games.py holds 300 Reconquista games to hashes: any change to a
single prompt, die or choice shows, but only as a new hash. The files in tests/golden/ hold a few
whole games as a person reads them, so that a change shows as a readable diff. They are in the fast
tier (``pytest -m "not slow"``), the hashes in the slow one: a changed behaviour shows here first.

- three Reconquista games, app dice and the simple bot (companion.reconquista.bot.Bot) for every
  choice, as the hashed games are played: seed 1 (over in turn 5), seeds 7 and 8 (to turn 20);
- one Battle of Simancas match and one Terra de Castells game, answered by the reliability suite's
  script (tests/reliability/reliability_script.py: app dice, instructions acknowledged, a choice
  drawn from the seed and the step number, free text left to its default).

Each step is its number, the prompt as the screens describe it (``prompt.describe()``) with its
kind; below it what the prompt is (its topic, the rule it cites and the robot's reason: the bot
trace), and the answer as a log reads it (``companion.prompts.answer_text``) and its source;
a line marks each new turn and phase (``GAME.where``), and the file ends with the game's summary
and the digest of its final state. The test plays each game again in memory and compares the text
with the file; a difference fails with the first lines of the diff.

When a change is meant to change these games (a rule change, a new prompt text), regenerate the
files and read the diff before committing it:

    COMPANION_UPDATE_GOLDEN=1 pytest tests/games/test_golden_transcripts.py
    git diff tests/golden/

Only that exact value of that variable rewrites the files; a run that rewrites one still fails
(saying which), so it cannot pass unnoticed, and with CI set in the environment it refuses to
rewrite. A change meant to keep the games as they are must keep every file, and the hashes.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from reliability.reliability_script import answer_one

from companion import games
from companion.driver import Driver, canonical, digest
from companion.prompts import answer_text
from companion.reconquista.bot import Bot
from companion.reconquista.simulate import MAX_PROMPTS, bot_answer

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
UPDATE = "COMPANION_UPDATE_GOLDEN"
DIFF_LINES = 60  # of the diff shown when a transcript differs


@dataclass(frozen=True)
class Transcript:
    file: str
    game: str  # the id in companion.games
    seed: int
    answered_by: str  # "bot": the simple bot with app dice; "script": reliability_script.answer_one
    period: str  # what GAME.where's first figure counts: turn, hand, century


TRANSCRIPTS = [
    Transcript("reconquista-seed-1.txt", "reconquista", 1, "bot", "turn"),
    Transcript("reconquista-seed-7.txt", "reconquista", 7, "bot", "turn"),
    Transcript("reconquista-seed-8.txt", "reconquista", 8, "bot", "turn"),
    Transcript("simancas-seed-7.txt", "simancas", 7, "script", "hand"),
    Transcript("castells-seed-2.txt", "castells", 2, "script", "century"),
]

HOW = {
    "bot": "app dice; every choice made by the simple bot (companion.reconquista.bot.Bot)",
    "script": "answered by tests/reliability/reliability_script.py (app dice, a choice drawn from seed and step)",
}


def answerer(t: Transcript, game: Any, driver: Driver) -> Callable[[Driver], None]:
    if t.answered_by == "script":
        return answer_one
    bot = Bot(t.seed)
    board = game.board_of(driver.state)
    return lambda d: bot_answer(d, bot, board)


def transcript(t: Transcript) -> str:
    """Play the game again and write it out."""
    game = games.load(t.game)
    driver = Driver(game, t.seed) if t.answered_by == "bot" else Driver(game, t.seed, {})
    answer = answerer(t, game, driver)
    where: list[tuple[int | None, str | None]] = []
    while driver.pending is not None:
        assert len(driver.steps) < MAX_PROMPTS, f"{t.file}: the game does not end"
        where.append(game.where(driver.state))
        answer(driver)
    lines = [
        f"# {game.title}, seed {t.seed}: {HOW[t.answered_by]}.",
        "# Written by tests/games/test_golden_transcripts.py: to regenerate it after an intended rule change, see there.",
        (
            "# Each step: its number, [the prompt's kind] the prompt as a person reads it; below it = its topic"
            " · the rule it cites · why (the robot's reason), and -> the answer (its source)."
        ),
    ]
    last: tuple[int | None, str | None] | None = None
    for i, step in enumerate(driver.steps):
        if where[i] != last:
            last = where[i]
            period, phase = last
            lines += ["", f"== {t.period} {period if period is not None else '-'}, {phase or '-'} =="]
        text = step.prompt.describe().replace("\n", "\n" + " " * 7)
        lines.append(f"{i:>5}  [{step.prompt.kind}] {text}")
        about = [
            step.prompt.topic,
            step.prompt.rule,
            f"why: {step.prompt.reason}" if step.prompt.reason else "",
        ]
        lines.append(f"{'':>5}  = {' · '.join(a for a in about if a)}")
        lines.append(f"{'':>5}  -> {answer_text(step.answer, 'ok')} ({step.source})")
    lines += [
        "",
        f"# End after {len(driver.steps)} steps: {game.summary(driver.state)}",
        f"# Final state digest: {digest(canonical(driver.snapshot()))}",
    ]
    return "\n".join(lines) + "\n"


def test_a_transcript_of_the_bot_reaches_turn_20() -> None:
    """At least one transcript is a whole 20-turn Reconquista game, not only an early end."""
    t = next(t for t in TRANSCRIPTS if t.file == "reconquista-seed-8.txt")
    text = (GOLDEN / t.file).read_text(encoding="utf-8")
    assert "\n== turn 20, " in text


@pytest.mark.parametrize("t", TRANSCRIPTS, ids=[t.file for t in TRANSCRIPTS])
def test_the_game_plays_as_its_transcript(t: Transcript) -> None:
    path = GOLDEN / t.file
    got = transcript(t)
    if os.environ.get(UPDATE) == "1":
        if os.environ.get("CI"):
            pytest.fail(f"{UPDATE}=1 rewrites tests/golden/, which CI never does: unset it")
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if got != old:
            GOLDEN.mkdir(exist_ok=True)
            path.write_text(got, encoding="utf-8")
            pytest.fail(f"{path} rewritten ({UPDATE}=1): read `git diff {path}`, then run again without it")
        return
    assert path.exists(), f"{path} is missing: see this module's docstring to write it"
    want = path.read_text(encoding="utf-8")
    if got != want:
        diff = list(
            difflib.unified_diff(
                want.splitlines(), got.splitlines(), str(path), "played now", n=2, lineterm=""
            )
        )
        shown = "\n".join(diff[:DIFF_LINES]) + (
            f"\n... ({len(diff) - DIFF_LINES} more diff lines)" if len(diff) > DIFF_LINES else ""
        )
        pytest.fail(f"{t.file}: the game now plays otherwise than its transcript\n{shown}", pytrace=False)
