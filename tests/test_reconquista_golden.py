"""The games the Reconquista engine plays, held to a hash: 700 seeded headless games.

Every prompt and answer of every game (app dice, the simple bot) is hashed, 100 games
to a hash. A change anywhere in the engine that changes a single Tell, die or choice
of these games changes a hash. It guards refactoring: a change meant to keep the rules as
they are must keep every hash. When a rule change is meant to change the games, the
failure message gives the new hash to put here.

Each block has two hashes: one of what the games ask and answer (the wording, the dice, the
choices), and one of what every prompt is besides (its topic, data, rule and reason,
companion/prompts.py). A rewording changes the first; a change of a topic or of the facts
behind a prompt, which statistics and screens read, changes the second only.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from companion.driver import Driver
from companion.reconquista.bot import Bot
from companion.reconquista.game import GAME
from companion.reconquista.simulate import MAX_PROMPTS, bot_answer

#: blake2b of the JSON of every step (prompt, answer, source) of seeds 100*i+1 .. 100*i+100.
GOLDEN = {
    1: "6cba5a4cf12de0de1fcd25168daa9c3d",
    101: "bcddb72a972a63096d8a08432a95ae11",
    201: "19d864e23c010221f9f1b7491ad8305d",
    301: "bb3544fd1686766605d7f256cbdef59d",
    401: "14f057a68f6d15875d77e18cd9fc4995",
    501: "e7c9e0fd4a36d3e1840600cbcc6de9e2",
    601: "778b8886064c2be6c5cd2f2486dd1d0e",
}


#: blake2b of every step's topic, data, rule and reason, of the same games.
STRUCTURE_GOLDEN = {
    1: "9d173794cd3f520844db09bafd0767c0",
    101: "bce141af5d5836d9986b180b7b7023b1",
    201: "6b9a9610646ef3aca7c0aa0731a51a1e",
    301: "8e43396fc5a294a658b4a6305313e93d",
    401: "bda292e31b8c2c62421f1e449a83cb19",
    501: "d62453886375e668eff3769c1a9e78e5",
    601: "4f3c19351f1ae6c10978e3b7e2fa506b",
}

#: What a prompt is (companion.prompts): left out of these hashes, which hold what the games ask
#: and answer, so a change to a topic alone keeps them.
STRUCTURE = ("topic", "data", "rule", "reason", "legacy")


#: One encoder for every step: ``json.dumps(x, ensure_ascii=False)`` builds a new one a call.
ENCODE = json.JSONEncoder(ensure_ascii=False).encode


def wording(prompt: Any, logged: dict[str, Any] | None = None) -> dict[str, Any]:
    """The prompt's logged form (``logged``, when the caller has it already) without its structure."""
    return {k: v for k, v in (logged or prompt.to_dict()).items() if k not in STRUCTURE}


def block_hash(first: int, games: int = 100) -> tuple[str, str]:
    """The wording hash and the structure hash of the games of seeds ``first`` on."""
    h = hashlib.blake2b(digest_size=16)
    about = hashlib.blake2b(digest_size=16)
    for seed in range(first, first + games):
        driver = Driver(GAME, seed)
        bot = Bot(seed)
        board = GAME.board_of(driver.state)
        while driver.pending is not None:
            assert len(driver.steps) < MAX_PROMPTS
            bot_answer(driver, bot, board)
        # A hash fed the steps' texts one by one is the hash of their concatenation: each
        # game's are joined and fed at once. Each prompt's logged form is built once, for both.
        said, what = [], []
        for step in driver.steps:
            logged = step.prompt.to_dict()
            said.append(ENCODE([wording(step.prompt, logged), step.answer, step.source]))
            what.append(ENCODE([logged.get(k) for k in STRUCTURE]))
        h.update(("".join(said) + f"|{seed}|").encode())
        about.update(("".join(what) + f"|{seed}|").encode())
    return h.hexdigest(), about.hexdigest()


@pytest.mark.parametrize("first", sorted(GOLDEN))
def test_the_engine_plays_the_recorded_games(first: int) -> None:
    got, structure = block_hash(first)
    assert got == GOLDEN[first], f"seeds {first}-{first + 99} now play other games: {got}"
    assert structure == STRUCTURE_GOLDEN[first], (
        f"seeds {first}-{first + 99} ask the same but their prompts' topics or data differ: {structure}"
    )
