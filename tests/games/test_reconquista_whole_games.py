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
    ("bot", 1): ("a088c40c26b9bdd8bc04c6d2b57574f4", "b1b118b9f4b6f5d430d1c7fdd066ffd7"),
    ("bot", 26): ("7f9bd0875a86cdc2684bcb0efb854b3d", "115a5e35ca9706df6eca403bad060b68"),
    ("bot", 51): ("74de3214638248dc8b3557ccad1918c1", "2a3f71227552fcbc7b368c460d8f3464"),
    ("bot", 76): ("c21ee7453d1c079925a18d5fd1017bdc", "128b32c4139c3feecf38a8404c182109"),
    ("bot", 101): ("488afee203c3e39d40792adb77b33f6f", "aa302de90f93bafe0904fee18ec85ed4"),
    ("bot", 126): ("70d58ae46a24053f2839e9b11815428d", "0fab31e1ea95ca84da95db5a5b0e1cc7"),
    ("random", 1): ("f478c6139fa89c0ae4d142914aff42e3", "f87337474b456f67a0e1a011119acd73"),
    ("random", 26): ("08a32791ad65299b060f5f63e32dbb4c", "05ec5445128abb25fb74b598659821f9"),
    ("random", 51): ("9661ba5de32326f2dff6a594d1a38af6", "a6d13a6ab58e7f32ef491ef5c4afcdc7"),
    ("random", 76): ("c4e0b712bf3cac61f1f4a18a8511f6a5", "8ce6df1879ab64bb859963f278573ab0"),
    ("random", 101): ("5f1ee9be48b8cec091d98dd75cd7e7b7", "6c50f534dad93b031b4cb9485779c03d"),
    ("random", 126): ("144dd92c6fbd6118670e1808d91e4cb2", "8aa172d20952437f83f777cbc49f5ab7"),
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
