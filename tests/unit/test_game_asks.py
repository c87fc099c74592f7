"""What each game can ask (``Game.asks``, companion/interface.py) is whole: every topic its engine
names and every question its whole games ask fit it, so a log of the game kept as recorded is
never refused for a question the game itself asked (issue #33, item 1).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from reliability.reliability_script import answer_one

from companion import games
from companion.driver import Driver
from companion.interface import MOST_OPTIONS, Asks
from companion.prompts import Choose, Enter, Roll, Tell
from companion.review.exchange import logged_asks

PACKAGE = Path(__file__).resolve().parents[2] / "companion"

#: The files of each game's engine.
SOURCES = {
    "reconquista": sorted((PACKAGE / "reconquista").rglob("*.py")),
    "simancas": sorted((PACKAGE / "simancas").rglob("*.py")),
    "castells": sorted((PACKAGE / "castells").rglob("*.py")),
    "dice": [PACKAGE / "dicetray.py"],
}


def named_topics(game: str) -> set[str]:
    """Every text in the game's engine that reads as a topic of it (``<game>.<part>.<name>``)."""
    pattern = re.compile(rf"{re.escape(game)}\.[a-z0-9_]+(\.[a-z0-9_]+)+")
    found = set()
    for path in SOURCES[game]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and pattern.fullmatch(node.value)
            ):
                found.add(node.value)
    return found


@pytest.mark.parametrize("game", list(SOURCES))
def test_every_topic_an_engine_names_is_one_its_game_can_ask(game: str) -> None:
    asks: Asks = games.load(game).asks
    named = named_topics(game)
    assert named, "the scan found no topic: the pattern or the files are wrong"
    assert named <= asks.topics, sorted(named - asks.topics)
    # A step logged before prompts carried a topic is given <game>.legacy.<kind> on import: a
    # log kept as recorded may hold those too.
    logged = logged_asks(games.load(game)).topics
    assert {f"{game}.legacy.{k}" for k in ("roll", "choose", "tell", "enter")} <= logged


@pytest.mark.parametrize(
    ("game", "seed"),
    [
        ("reconquista", 3),
        ("reconquista", 4),
        ("castells", 2),
        ("castells", 5),
        ("simancas", 7),
        ("simancas", 8),
        ("dice", 1),
    ],
)
def test_every_question_of_whole_games_fits_what_its_game_can_ask(game: str, seed: int) -> None:
    asks: Asks = games.load(game).asks
    driver = Driver(games.load(game), seed, {})
    kinds: set[type] = set()
    while driver.pending is not None and len(driver.steps) < 3000:
        prompt = driver.pending
        kinds.add(type(prompt))
        assert asks.refusal(prompt) is None, (asks.refusal(prompt), prompt.describe())
        answer_one(driver)
    assert Tell in kinds or game == "dice"
    if game in ("reconquista", "castells", "dice"):
        assert Roll in kinds
    if game != "dice":
        assert Choose in kinds
    if game in ("castells", "dice"):
        assert Enter in kinds


def test_what_a_game_never_asks_is_refused_with_a_reason() -> None:
    """The refusal names what is wrong, in a phrase the import puts in its one sentence."""
    asks = Asks(frozenset({"g.a.b"}), patterns=frozenset({r"\d"}), sides=frozenset({6}), most_dice=3)
    assert asks.refusal(Roll(2, 6, "x", topic="g.a.b")) is None
    assert asks.refusal(Roll(4, 6, "x", topic="g.a.b")) == "a roll of 4d6, which this game never rolls"
    assert asks.refusal(Roll(1, 8, "x", topic="g.a.b")) == "a roll of 1d8, which this game never rolls"
    assert (
        asks.refusal(Roll(1, 6, "x", topic="g.a.c")) == "a question of a topic this game never asks ('g.a.c')"
    )
    assert asks.refusal(Enter("x", r"\d", "h", topic="g.a.b")) is None
    assert (
        asks.refusal(Enter("x", r"\w", "h", topic="g.a.b"))
        == "a typed answer held to a pattern this game never asks"
    )
    many = Choose([str(i) for i in range(MOST_OPTIONS + 1)], "x", topic="g.a.b")
    assert (
        asks.refusal(many)
        == f"a choice among {MOST_OPTIONS + 1} options, which no question of this game offers"
    )
