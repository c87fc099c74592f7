"""The games the Reconquista engine plays, held to a hash: 700 seeded headless games.

Every prompt and answer of every game (app dice, the simple bot) is hashed, 100 games
to a hash. A change anywhere in the engine that changes a single Tell, die or choice
of these games changes a hash. It guards refactoring: a change meant to keep the rules as
they are must keep every hash. When a rule change is meant to change the games, the
failure message gives the new hash to put here.
"""

from __future__ import annotations

import hashlib
import json

import pytest

from companion.driver import Driver
from companion.reconquista.bot import Bot
from companion.reconquista.game import GAME
from companion.reconquista.simulate import MAX_PROMPTS, bot_answer

#: blake2b of the JSON of every step (prompt, answer, source) of seeds 100*i+1 .. 100*i+100.
GOLDEN = {
    1: "ffd6946bd9c104694677c7ba7df96596",
    101: "64074c20a196482781c13920dbc0636a",
    201: "98915fa7bad8b9b30da25a956f94cf5c",
    301: "b549794c707e7dec504db7879fa182e6",
    401: "c3b0262ad6f239379afad7bbf0f7ba85",
    501: "717605c2089db28527bb630df721632d",
    601: "a6882d8ac9047b85843b740c4e8c9bac",
}


def block_hash(first: int, games: int = 100) -> str:
    h = hashlib.blake2b(digest_size=16)
    for seed in range(first, first + games):
        driver = Driver(GAME, seed)
        bot = Bot(seed)
        board = GAME.board_of(driver.state)
        while driver.pending is not None:
            assert len(driver.steps) < MAX_PROMPTS
            bot_answer(driver, bot, board)
        for step in driver.steps:
            h.update(
                json.dumps([step.prompt.to_dict(), step.answer, step.source], ensure_ascii=False).encode()
            )
        h.update(f"|{seed}|".encode())
    return h.hexdigest()


@pytest.mark.parametrize("first", sorted(GOLDEN))
def test_the_engine_plays_the_recorded_games(first: int) -> None:
    got = block_hash(first)
    assert got == GOLDEN[first], f"seeds {first}-{first + 99} now play other games: {got}"
