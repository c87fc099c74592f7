"""Tests of a Reconquista game's story (companion/review/story.py): the victory points and the
cities each side controls at the end of each turn, checked against the engine's own state at
each turn's end in a live seeded game (found there by the turn marker the game asks next, not
by the story's own test), against the final score the game tells, and in a table counted by hand."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from reconquista_helpers import place

from companion.driver import Driver, Step
from companion.prompts import Tell
from companion.reconquista.bot import Bot
from companion.reconquista.control import city_controller, victory_points
from companion.reconquista.game import GAME, TURN_BEGINS_TOPIC
from companion.reconquista.setup import initial_state
from companion.reconquista.simulate import bot_answer
from companion.reconquista.units import Kind
from companion.review.game_luck import game_luck
from companion.review.story import reconquista_story, session_story, turn_figures
from companion.store.db import Store

CONFIG = {"dice": "app"}


def engine_figures(driver: Driver) -> tuple[int, dict[str, int]]:
    """The victory points and the cities by controller, read from the live state."""
    board, state = GAME.board_of(driver.state), driver.state
    cities: dict[str, int] = {}
    for area in state.areas.values():
        holder = city_controller(area)
        if holder is not None:
            cities[holder] = cities.get(holder, 0) + 1
    return victory_points(board, state).total, cities


def live_game(
    seed: int, steps: int | None = None
) -> tuple[Driver, dict[int, tuple[int, dict[str, int]]], Any]:
    """A seeded game played by the bot with app dice (stopped after ``steps`` answers), with the
    engine's figures at each turn's end: when the next turn's marker is the prompt waiting, or
    the final score is. Also the final score's data, if the game got there."""
    driver = Driver(GAME, seed, CONFIG)
    bot, board = Bot(seed), GAME.board_of(driver.state)
    ends: dict[int, tuple[int, dict[str, int]]] = {}
    score = None
    while driver.pending is not None and (steps is None or len(driver.steps) < steps):
        bot_answer(driver, bot, board)
        waiting = driver.pending
        if isinstance(waiting, Tell) and waiting.topic == TURN_BEGINS_TOPIC:
            ends[waiting.data["turn"] - 1] = engine_figures(driver)
        elif isinstance(waiting, Tell) and waiting.topic == "reconquista.victory.score":
            ends[driver.state.turn] = engine_figures(driver)
            score = waiting.data
    return driver, ends, score


def nonzero(cities: Any) -> dict[str, int]:
    return {side: n for side, n in cities.items() if n}


def test_the_figures_of_a_table_counted_by_hand() -> None:
    """As set up: the Christians hold Oviedo alone (León and Barcelona are Christian cities with
    a Muslim garrison in them), the Muslims the other ten cities; 1 VP, the city. With León
    garrisoned by the Christians: both cities of Asturias, so 2 for the cities and 2 for the
    majority of the region; the Muslims keep nine."""
    board = GAME.board_of(GAME.new_state(1, {}))
    state = initial_state(board)
    start = turn_figures(board, state, 0)
    assert (start.vp, nonzero(start.cities)) == (1, {"christian": 1, "muslim": 10})
    place(state, "León", [("christian", Kind.GARRISON, 1)], city="christian")
    after = turn_figures(board, state, 1)
    assert (after.turn, after.vp, nonzero(after.cities)) == (1, 4, {"christian": 2, "muslim": 9})


def test_a_whole_seeded_game_is_the_engine_state_at_each_turn_end() -> None:
    driver, ends, score = live_game(2)  # a game of 20 turns
    story = reconquista_story(2, CONFIG, driver.steps)
    assert [t.turn for t in story.turns] == list(range(1, 21)) == sorted(ends)
    for t in story.turns:
        assert (t.vp, nonzero(t.cities)) == (ends[t.turn][0], ends[t.turn][1]), f"turn {t.turn}"
    # The last turn's figures are the final score the game tells: its total and its cities.
    assert score is not None
    last = story.turns[-1]
    assert last.vp == score["total"] and last.cities["christian"] == len(score["cities"])
    assert (story.start.vp, nonzero(story.start.cities)) == (1, {"christian": 1, "muslim": 10})
    assert story.replayed == story.steps == len(driver.steps) and story.parting == ""
    # The figures move: a chart of them says something.
    assert len({t.vp for t in story.turns}) > 3


def test_an_unfinished_game_is_charted_to_its_last_complete_turn() -> None:
    driver, ends, _ = live_game(6, steps=160)
    assert driver.state.turn == 4  # in the middle of turn 4
    story = reconquista_story(6, CONFIG, driver.steps)
    assert [t.turn for t in story.turns] == [1, 2, 3] == sorted(ends)
    assert [t.vp for t in story.turns] == [ends[n][0] for n in (1, 2, 3)]
    assert story.sides[:2] == ("christian", "muslim")


def test_a_game_with_no_turn_complete_has_no_turns() -> None:
    driver, _, _ = live_game(7, steps=5)
    story = reconquista_story(7, CONFIG, driver.steps)
    assert story.turns == () and story.start.vp == 1 and story.steps == 5


def test_a_log_that_parts_from_the_rules_is_charted_as_far_as_it_fits() -> None:
    driver, _, _ = live_game(2, steps=400)
    steps = list(driver.steps)
    # A step no rules version asked: the story stops before it and says so.
    at = next(
        i for i, s in enumerate(steps) if s.prompt.topic == TURN_BEGINS_TOPIC and s.prompt.data["turn"] == 3
    )
    steps[at + 1] = Step(Tell("Move nothing.", topic="test.unknown"), None, "ack")
    story = reconquista_story(2, CONFIG, steps)
    assert [t.turn for t in story.turns] == [1, 2]
    assert story.replayed == at + 1 and story.steps == 400
    assert story.parting.startswith(f"From step {at + 2} ") and story.parting.endswith(
        f"after step {at + 1}."
    )


def test_a_stored_session_has_the_story_of_its_log(tmp_path: Path, clock: Any) -> None:
    store = Store(str(tmp_path / "s.db"), clock=clock)
    sid = store.create_session("reconquista", 5, CONFIG)
    driver = Driver(GAME, 5, CONFIG, recorder=store.recorder(sid))
    bot, board = Bot(5), GAME.board_of(driver.state)
    for _ in range(160):
        bot_answer(driver, bot, board)
    driver.undo()  # an answer taken back is not in the story
    told = session_story(store, sid)
    # The same story, and beside it the luck of the stored session's battles (game_luck).
    assert replace(told, luck=()) == reconquista_story(5, CONFIG, driver.steps)
    # 160 answers hold battles (and sieges, weighed beside them: the chart is of the hits)
    (game,) = [g for g in game_luck(store, session_id=sid) if g.unit == "hits"]
    assert told.luck == game.by_turn and told.luck
    store.close()
