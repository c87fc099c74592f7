"""Whole Reconquista games, played once and checked twice: held to golden hashes, and the board's
invariants checked after every phase.

One pass plays ``GAMES`` games for each way of answering the Christian choices (the simple bot,
and a seeded pick among the options offered: companion.reconquista.simulate), app dice
throughout, seeds 1 to ``GAMES``. Each game

- keeps the invariants after every phase (``play(..., check=True)``: a broken one raises
  BrokenInvariant, naming the game, the turn and the phase), and what each phase must keep
  (tests/games/reconquista_checks.py: the purchases offered, the region in revolt left alone,
  no choice asked of the player in the reaction...); ends within 20 turns and scores;
- is hashed, step by step, into its block's two hashes: one of what the game asks and answers
  (the wording, the dice, the choices), one of what every prompt is besides (its topic, data,
  rule and reason, companion/prompts.py). A rewording changes the first; a change of a topic or
  of the facts behind a prompt, which statistics and screens read, changes the second only.

A change anywhere in the engine that changes a single Tell, die or choice of these games changes
a hash: a change meant to keep the rules as they are must keep every one. When a rule change is
meant to change the games, read first what it changes in the transcripts
(tests/games/test_golden_transcripts.py, in the fast tier: a readable diff of whole games), then
put here the new hashes the failure gives. bench/invariants.py plays 10,000 games the same way.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest
from reconquista_checks import PhaseChecks

from companion.reconquista.control import victory_points
from companion.reconquista.game import GAME
from companion.reconquista.simulate import ANSWERS, Answers, play

pytestmark = pytest.mark.slow

#: Games per way of answering, and per test (a block: the tests spread over the workers).
GAMES = 150
BLOCK = 25

#: (answers, first seed of the block) -> blake2b of the steps' wording, dice and choices; and
#: blake2b of the steps' topic, data, rule and reason.
GOLDEN: dict[tuple[str, int], tuple[str, str]] = {
    ("bot", 1): ("fe8551bc1711ed7b6893b2b0e2895e4b", "4fdcc833cd3aece040b71a13255ce7ef"),
    ("bot", 26): ("2c26737273ad83491cc8020f69956836", "a219274cf117234b949557ec1f9bf2bc"),
    ("bot", 51): ("5e0661f069aeb1fed3b173a3b6706a50", "f854094361e233ccd746dcb733afc8ea"),
    ("bot", 76): ("42927258eb6b729309efe49fc8762cfe", "d37914cefa70b35aa247d728b7ad9185"),
    ("bot", 101): ("a7efe5f13ac35eee87ccc0fa79e17c97", "7385f0598c974c672218601b05fb220e"),
    ("bot", 126): ("43f30448ffe3a378ecab4388445bd570", "b64360aa688590e465f91701d55fd9a6"),
    ("random", 1): ("c1e41d8b0a78cd8f9e20df096dbb0a03", "3d2f3153f8f41e33442408700e750548"),
    ("random", 26): ("0b1a2c9f86f4e55dd61d36cbcf6e36dd", "cd7ad69d736d7a8f853b6e1318049150"),
    ("random", 51): ("703719a87f08fed3c227f0f8e9d08a1a", "68b93d80565931f01d5f8d6d2415c461"),
    ("random", 76): ("5e6583a6baee9d8fae1f20ee9514c13d", "a668e5121bd1e2f89c0e49adee72a4be"),
    ("random", 101): ("2e60d73edb57464718ba96252119652e", "457fefa7b331514f7810ce9b5ecba8e9"),
    ("random", 126): ("dffc9f8bf9f55f2f42bb534f69f9ba4e", "302da8827e99775b40ff653f5e9092c3"),
}

#: What a prompt is (companion.prompts): left out of the first hash, which holds what the games
#: ask and answer, so a change to a topic alone keeps it.
STRUCTURE = ("topic", "data", "rule", "reason", "legacy")

#: One encoder for every step: ``json.dumps(x, ensure_ascii=False)`` builds a new one a call.
ENCODE = json.JSONEncoder(ensure_ascii=False).encode


def block_hashes(answers: Answers, first: int, games: int = BLOCK) -> tuple[str, str]:
    """Play the games of seeds ``first`` on, the invariants checked after every phase, and give
    the block's wording hash and structure hash."""
    said_hash = hashlib.blake2b(digest_size=16)
    about_hash = hashlib.blake2b(digest_size=16)
    for seed in range(first, first + games):
        watch = PhaseChecks()
        driver = play(seed, check=True, answers=answers, watch=watch)
        state = driver.state
        assert driver.finished and state.phase == "over", f"game {seed} ({answers}) did not end"
        assert 1 <= state.turn <= 20, f"game {seed} ({answers}) ended in turn {state.turn}"
        assert victory_points(GAME.board_of(state), state).total >= 0
        # A hash fed the steps' texts one by one is the hash of their concatenation: each game's
        # are joined and fed at once. Each prompt's logged form is built once, for both.
        said, about = [], []
        for step in driver.steps:
            logged: dict[str, Any] = step.prompt.to_dict()
            wording = {k: v for k, v in logged.items() if k not in STRUCTURE}
            said.append(ENCODE([wording, step.answer, step.source]))
            about.append(ENCODE([logged.get(k) for k in STRUCTURE]))
        said_hash.update(("".join(said) + f"|{seed}|").encode())
        about_hash.update(("".join(about) + f"|{seed}|").encode())
    return said_hash.hexdigest(), about_hash.hexdigest()


BLOCKS = [(answers, first) for answers in ANSWERS for first in range(1, GAMES + 1, BLOCK)]


@pytest.mark.parametrize(("answers", "first"), BLOCKS, ids=[f"{a}-{f}" for a, f in BLOCKS])
def test_whole_games_keep_the_invariants_and_play_as_recorded(answers: Answers, first: int) -> None:
    said, about = block_hashes(answers, first)
    games = f"seeds {first}-{first + BLOCK - 1} ({answers} answers)"
    want_said, want_about = GOLDEN[(answers, first)]
    assert said == want_said, f"{games} now play other games: {said!r}, {about!r}"
    assert about == want_about, f"{games} ask the same but their prompts' topics or data differ: {about!r}"
