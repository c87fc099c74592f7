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
    ("bot", 1): ("6bdb2b0eadc0a961601dae8a4ac692fb", "0e6a79aab061dc5a9cd7a0ab4e117889"),
    ("bot", 26): ("876fe5780d77f712397b4e62f44e45be", "1b356847ffb00ff55b2806e9e3e15967"),
    ("bot", 51): ("86ab1e6e7120605f3c57e4a1ecb537cb", "69d30992cb9b514baa62750388ff6fbf"),
    ("bot", 76): ("8cffefeb91b3e9a8fd2e3163804ef707", "2b907b3ef56795b68e81045f87df92a8"),
    ("bot", 101): ("0cd027b6737d73dedbadab6062a0885e", "ce1143d1f8c5512397c842e54a95455c"),
    ("bot", 126): ("28cf2d749614e9d1d565c18d2aa4ea91", "cd2dba9705877499e126d8e515a2f973"),
    ("random", 1): ("d49c5a1737abf98d6641437db242cf3d", "e2ec12b39435220319906facdda4b317"),
    ("random", 26): ("1934ba226b63dae8587e25ea61d4900a", "f4e2c8420bc378847a1b99e178d1e821"),
    ("random", 51): ("7cd39a1fdb9d39ec6a368005d32e8089", "66bff1dc27e37b0bf4bfe03f5679d55c"),
    ("random", 76): ("a42b4d3dbc7f46757eb48fa64007655a", "64ddced52768fc4982062e59c55da2b3"),
    ("random", 101): ("36d44b72ada4d1ec62126f0e0c8e2fa8", "f35ccb8bc94015b8a15dceefef0d34b9"),
    ("random", 126): ("fb063283c9245801273f2d0509286085", "a76efb044efbe8831984a6bafd983b13"),
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
