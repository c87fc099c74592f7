"""Every prompt says what it is, and what reads prompts reads that, never the wording.

docs/design.md, "Prompts": every prompt carries a topic of its game, plain JSON data and,
for the robot's steps, the rulebook section it follows and why. Whole games of every game
(the simple bot, and answers drawn at random) are checked prompt by prompt. Then the same
games are played with every question and instruction reworded: the bot makes the same
choices, and the statistics and the luck ledger give the same figures.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from reliability.reliability_script import answer_one
from test_review_helpers import castells_chooser

from companion import games
from companion.driver import Driver
from companion.interface import Procedure
from companion.prompts import Choose, Edit, Enter, Prompt, Roll, Tell
from companion.reconquista.bot import Bot
from companion.reconquista.simulate import MAX_PROMPTS, bot_answer
from companion.review.luck import luck
from companion.review.stats import statistics
from companion.store.db import Store

#: The parts of the Reconquista rules the robot plays: each of their steps cites its rule.
ROBOT_PARTS = {"rebellions", "events", "reaction", "march", "battle", "sieges", "end", "turn", "victory"}


def topic_pattern(game: str) -> re.Pattern[str]:
    return re.compile(rf"{re.escape(game)}\.[a-z0-9_]+(\.[a-z0-9_]+)+")


def bot_game(seed: int) -> Driver:
    driver = Driver(games.load("reconquista"), seed)
    bot, board = Bot(seed), games.load("reconquista").board_of(driver.state)  # type: ignore[attr-defined]
    while driver.pending is not None:
        assert len(driver.steps) < MAX_PROMPTS
        bot_answer(driver, bot, board)
    return driver


def scripted(game: str, seed: int, limit: int = 3000) -> Driver:
    driver = Driver(games.load(game), seed, {})
    while driver.pending is not None and len(driver.steps) < limit:
        answer_one(driver)
    return driver


def played() -> Iterator[tuple[str, Driver]]:
    for seed in (2, 8):
        yield "reconquista", bot_game(seed)
    for seed in (3, 4):
        yield "reconquista", scripted("reconquista", seed)
    for seed in (2, 5):
        yield "castells", scripted("castells", seed)
    yield "simancas", scripted("simancas", 7, limit=400)


@pytest.fixture(scope="module")
def sessions() -> list[tuple[str, Driver]]:
    return list(played())


def test_every_prompt_of_whole_games_has_a_topic_of_its_game_and_plain_data(
    sessions: list[tuple[str, Driver]],
) -> None:
    seen: dict[str, set[str]] = {}
    for game, driver in sessions:
        pattern = topic_pattern(game)
        for i, step in enumerate(driver.steps):
            p = step.prompt
            assert not isinstance(p, Edit)
            assert pattern.fullmatch(p.topic), f"{game} step {i}: {p.topic!r} ({p.describe()[:60]})"
            assert not p.legacy
            assert json.loads(json.dumps(p.data)) == p.data
            seen.setdefault(game, set()).add(p.topic)
    # Many kinds of step, not one topic for all.
    assert len(seen["reconquista"]) > 40 and len(seen["castells"]) > 15 and len(seen["simancas"]) >= 2


def test_every_step_of_the_robot_cites_its_rule(sessions: list[tuple[str, Driver]]) -> None:
    """Rebellions, events, the Muslim reaction and march, the French and Rebel armies, battles
    and sieges, the end of a turn: each names the rulebook section it follows; each move of a
    march and each Saracen step says why it goes where it goes."""
    marches = saracens = 0
    for game, driver in sessions:
        for step in driver.steps:
            p = step.prompt
            part = p.topic.split(".")[1]
            if game == "reconquista":
                assert p.rule, f"{p.topic}: {p.describe()[:80]}"
                if part in ROBOT_PARTS:
                    assert p.rule.startswith(
                        (
                            "Phase",
                            "Important Definitions",
                            "Quick Reference Sheet",
                            "End of Game",
                            "Setting Up",
                        )
                    ), p.rule
                if p.topic == "reconquista.march.move":
                    marches += 1
                    assert p.reason and p.data["from"] in p.reason and p.data["to"] in p.reason, p.reason
            if game == "castells" and part == "saracens" and not isinstance(p, Roll):
                saracens += 1
                assert p.rule and p.reason, p.describe()
    assert marches > 10 and saracens > 5


def test_the_table_rolls_the_statistics_count_carry_their_facts(sessions: list[tuple[str, Driver]]) -> None:
    """The reinforcement roll names its column as the engine reads it; a roll asked again says so."""
    columns = set()
    for game, driver in sessions:
        if game != "reconquista":
            continue
        for step in driver.steps:
            p = step.prompt
            if p.topic == "reconquista.reaction.reinforcement":
                assert isinstance(p, Roll)
                columns.add(p.data["column"])
                assert ("North Africa" in p.why) == (p.data["column"] == -1)
                assert (", rolled again (" in p.why) == p.data["again"]
            if p.topic == "reconquista.rebellions.table":
                assert (", rolled again (" in p.why) == p.data["again"]
    assert -1 in columns and len(columns) >= 3


# -- a rewording changes no figure --------------------------------------------------------------


def reword(prompt: Prompt) -> Prompt:
    """The same question in other words: every why and every instruction's text."""
    if isinstance(prompt, Tell):
        return dataclasses.replace(prompt, text=f"(said otherwise) {prompt.text[::-1]}")
    if isinstance(prompt, (Roll, Enter)):
        return dataclasses.replace(prompt, why=f"(said otherwise) {prompt.why[::-1]}")
    if isinstance(prompt, Choose):
        return Choose(
            prompt.options, f"(said otherwise) {prompt.why[::-1]}", prompt.topic, prompt.data, prompt.rule
        )
    return prompt


class Reworded:
    """A game whose every prompt is reworded (``reword``); the rules are the game's."""

    def __init__(self, game: Any) -> None:
        self.game = game

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def procedure(self, state: Any) -> Procedure:
        inner = self.game.procedure(state)
        try:
            prompt = next(inner)
            while True:
                prompt = inner.send((yield reword(prompt)))
        except StopIteration as stop:
            return stop.value


def record(path: Path, rewording: bool) -> Store:
    start = datetime(2026, 11, 1, 10, 0, tzinfo=UTC)
    ticks = iter(range(1_000_000))
    # The same clock for both: the sessions' times are figures too.
    store = Store(str(path), clock=lambda: start + timedelta(seconds=next(ticks)))
    for seed in (3, 11):
        game = games.load("reconquista")
        sid = store.create_session("reconquista", seed)
        driver = Driver(Reworded(game) if rewording else game, seed, recorder=store.recorder(sid))
        bot, board = Bot(seed), game.board_of(driver.state)  # type: ignore[attr-defined]
        while driver.pending is not None:
            bot_answer(driver, bot, board)
    for seed in (2, 5):  # games in which the random chooser pays for a reroll: army points move
        game = games.load("castells")
        sid = store.create_session("castells", seed, {})
        driver = Driver(Reworded(game) if rewording else game, seed, {}, recorder=store.recorder(sid))
        choose = castells_chooser(seed)
        while driver.pending is not None:
            p = driver.pending
            if isinstance(p, Roll):
                driver.roll()
            elif isinstance(p, Tell):
                driver.ack()
            elif isinstance(p, Choose):
                driver.submit(choose(p), "player")
            else:
                driver.type("")
    return store


def figures(store: Store) -> dict[str, Any]:
    return json.loads(
        json.dumps(
            {"statistics": statistics(store).to_json(), "luck": dataclasses.asdict(luck(store))},
            default=str,
        )
    )


@pytest.mark.slow
def test_a_rewording_of_every_prompt_changes_no_choice_of_the_bot_and_no_figure(tmp_path: Path) -> None:
    plain, reworded = record(tmp_path / "plain.db", False), record(tmp_path / "reworded.db", True)
    try:
        a, b = figures(plain), figures(reworded)
        # The same games: the bot read topics and data, never the words.
        for sid in (1, 2, 3, 4):
            assert [e.answer for e in plain.log(sid).events] == [e.answer for e in reworded.log(sid).events]
            assert plain.log(sid).events[5].prompt != reworded.log(sid).events[5].prompt
    finally:
        plain.close()
        reworded.close()
    assert a == b
    reconquista = a["statistics"]["reconquista"]
    assert sum(c["count"] for c in reconquista["reinforcements"]) > 0
    assert sum(c["count"] for c in reconquista["rebellions"]) > 0
    assert sum(c["count"] for c in a["statistics"]["castells"]["army_points"]) > 0
