"""How the gzipped files of tests/exports were made (kept to read).

Run from the repository root of a checkout of the commit named, with this file copied in:

    python record_exports.py reconquista OUT_DIR   # at ab87e86^ (Reconquista rules version 2)
    python record_exports.py castells OUT_DIR      # at 3581909^ (Terra de Castells 2)
    python record_exports.py simancas OUT_DIR      # at 630cd56^ (Simancas 2)
    python record_exports.py at ab87e86 OUT_DIR    # Reconquista and Castells, rules version 3
    python record_exports.py at 630cd56 OUT_DIR    # Simancas, rules version 3

``at`` records sessions of the rules each game plays at that commit (the files
``<game>-rules-<version>-at-<commit>.json.gz``: a bot and a random Reconquista game to turns 6
and 4, a random Castells game to its end, a guided Simancas match with passes, tactics, Weapon's
searches and reshuffles to hand 5), which ``test_logs_of_earlier_builds.py`` resumes.

For Reconquista it writes ``reconquista-rules-2-corpus.json.gz``: whole games of the bot and of
random answers, each as its seed, its answers and their sources, and for every step a short
hash of the question asked (``question_hash``: its topic and what its answer must be; not its
rule, reason and wording, which ``prompts.fits`` leaves out, nor its facts), its facts (``data``, which a later
build may add to: ``prompts.fits``) and a short hash of the state it led to (the log's
digest): what a replay under another build must meet, in a file a fifth of the games' exports. Beside it, two exports of sessions recorded
through the store (a bot game to turn 7, a random game to its end). For the card games it
writes exports of sessions recorded through the store, as ``test_simancas_rules_v2.py`` and
``test_castells_rules_v2.py`` describe.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import random
import sys
from datetime import UTC, datetime, timedelta
from typing import Any

sys.path.insert(0, "tests")


def question_hash(prompt: dict[str, Any]) -> str:
    """12 hex digits of the SHA-256 of the question as the log holds it, without what
    ``prompts.fits`` leaves out (its rule, its reason, and the wording of a question with a
    topic) and its facts (kept apart)."""
    # The wording as prompts.WORDING names it: a question is known by its topic, facts and answers.
    wording = {"roll": ("why",), "choose": ("why",), "tell": ("text",), "enter": ("why", "hint")}
    left_out = ("rule", "reason", "data", *(wording[prompt["kind"]] if prompt.get("topic") else ()))
    asked = {k: v for k, v in prompt.items() if k not in left_out}
    text = json.dumps(asked, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def store_at(start: datetime) -> Any:
    from companion.store.db import Store

    tick = iter(range(10**6))
    return Store(":memory:", clock=lambda: start + timedelta(seconds=15 * next(tick)))


def save(store: Any, sid: int, path: str) -> None:
    from companion.review.exchange import export_json

    with open(path, "wb") as f:
        f.write(gzip.compress(export_json(store, sid).encode(), 9))


def reconquista(out: str) -> None:
    from companion.driver import Driver, digest
    from companion.reconquista.bot import Bot
    from companion.reconquista.game import GAME
    from companion.reconquista.simulate import RandomPlayer, bot_answer, play

    games = []
    for seed in range(1, 7):
        for answers in ("bot", "random"):
            d = play(seed, answers=answers)
            again = Driver(GAME, seed)
            states = []
            for step in d.steps:
                again.feed([step])
                states.append(digest(again.snapshot())[:12])
            games.append(
                {
                    "seed": seed,
                    "answers": [s.answer for s in d.steps],
                    "sources": [s.source for s in d.steps],
                    "questions": [question_hash(s.prompt.to_dict()) for s in d.steps],
                    "data": [s.prompt.to_dict().get("data", {}) for s in d.steps],
                    "states": states,
                }
            )
    with open(f"{out}/reconquista-rules-2-corpus.json.gz", "wb") as f:
        f.write(gzip.compress(json.dumps({"rules_version": 2, "games": games}).encode(), 9))
    store = store_at(datetime(2026, 11, 28, 20, 0, tzinfo=UTC))
    for seed, kind, last_turn in [(5, "bot", 7), (6, "random", 99)]:
        config = {"dice": "app"}
        sid = store.create_session("reconquista", seed, config)
        d = Driver(GAME, seed, config, recorder=store.recorder(sid))
        player = Bot(seed) if kind == "bot" else RandomPlayer(seed)
        board = GAME.board_of(d.state)
        while d.pending is not None and d.state.turn <= last_turn:
            bot_answer(d, player, board)
        save(
            store, sid, f"{out}/reconquista-rules-2-{'unfinished' if last_turn < 99 else 'finished'}.json.gz"
        )


def castells(out: str) -> None:
    from castells_helpers import random_answer

    from companion.castells.game import GAME
    from companion.driver import Driver

    store = store_at(datetime(2026, 11, 20, 18, 0, tzinfo=UTC))
    for seed, config, name in [
        (3, {"dice": "app", "favour_question": "after_purchase"}, "finished"),
        (5, {"dice": "app"}, "unfinished"),
    ]:
        sid = store.create_session("castells", seed, config)
        d = Driver(GAME, seed, config, recorder=store.recorder(sid))
        rng = random.Random(seed)
        while not d.finished and (name == "finished" or len(d.steps) < 400):
            random_answer(d, rng)
        save(store, sid, f"{out}/castells-rules-2-{name}.json.gz")


def simancas(out: str) -> None:
    from companion.driver import Driver
    from companion.simancas.game import END, GAME

    store = store_at(datetime(2026, 11, 20, 18, 0, tzinfo=UTC))
    for seed, name in [(3, "finished"), (8, "unfinished")]:
        config = {"guide": seed % 3 == 0}
        sid = store.create_session("simancas", seed, config)
        d = Driver(GAME, seed, config, recorder=store.recorder(sid))
        rng = random.Random(seed)
        while not d.finished and (name == "finished" or d.state.hand <= 3):
            p = d.pending
            if p.kind == "tell":
                d.ack()
                continue
            opts = p.options
            pick = rng.choice(opts)
            if p.topic == "simancas.turn.action":
                r = rng.random()
                passes = [o for o in opts if o.endswith(" pass")]
                tactics = [o for o in opts if "to destroy" in o]
                restores = [o for o in opts if o.startswith("Restore")]
                if r < 0.05:
                    pick = END
                elif r < 0.40 and passes:
                    pick = rng.choice(passes)
                elif restores and rng.random() < 0.3:
                    pick = rng.choice(restores)
                elif tactics and rng.random() < 0.25:
                    pick = rng.choice(tactics)
            d.submit(pick, "player")
        save(store, sid, f"{out}/simancas-rules-2-{name}.json.gz")


def at(commit: str, out: str) -> None:
    from companion.driver import Driver
    from companion.games import load

    store = store_at(datetime(2026, 12, 3, 21, 0, tzinfo=UTC))

    def name(game: str, kind: str = "") -> str:
        return f"{out}/{game}-rules-{load(game).rules_version}-at-{commit}{kind}.json.gz"

    if commit == "ab87e86":
        from castells_helpers import random_answer

        from companion.reconquista.bot import Bot
        from companion.reconquista.simulate import RandomPlayer, bot_answer

        reconquista_game = load("reconquista")
        for seed, kind, last_turn in [(11, "bot", 6), (12, "random", 4)]:
            sid = store.create_session("reconquista", seed, {"dice": "app"})
            d = Driver(reconquista_game, seed, {"dice": "app"}, recorder=store.recorder(sid))
            player = Bot(seed) if kind == "bot" else RandomPlayer(seed)
            board = reconquista_game.board_of(d.state)  # type: ignore[attr-defined]
            while d.pending is not None and d.state.turn <= last_turn:
                bot_answer(d, player, board)
            save(store, sid, name("reconquista", f"-{kind}"))
        sid = store.create_session("castells", 21, {"dice": "app"})
        d = Driver(load("castells"), 21, {"dice": "app"}, recorder=store.recorder(sid))
        rng = random.Random(21)
        while d.pending is not None:
            random_answer(d, rng)
        save(store, sid, name("castells"))
    if commit == "630cd56":
        config = {"guide": True}
        sid = store.create_session("simancas", 31, config)
        d = Driver(load("simancas"), 31, config, recorder=store.recorder(sid))
        rng = random.Random(31)
        while d.pending is not None and d.state.hand <= 4:
            p = d.pending
            if p.kind == "tell":
                d.ack()
                continue
            opts = p.options
            passes = [o for o in opts if o.endswith(" pass")]
            other = [
                o
                for o in opts
                if "search" in o or "Reshuffle" in o or "to destroy" in o or o.startswith("Restore")
            ]
            r = rng.random()
            pick = (
                rng.choice(passes)
                if passes and r < 0.3
                else rng.choice(other)
                if other and r < 0.5
                else rng.choice(opts)
            )
            d.submit(pick, "player")
        save(store, sid, name("simancas"))


if __name__ == "__main__":
    if sys.argv[1] == "at":
        at(sys.argv[2], sys.argv[3])
    else:
        {"reconquista": reconquista, "castells": castells, "simancas": simancas}[sys.argv[1]](sys.argv[2])
