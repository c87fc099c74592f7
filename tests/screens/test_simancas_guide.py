"""The guide of a Battle of Simancas hand: the rulebook's phases as steps confirmed with one key
(companion/simancas/guide.py), off for a config without it, on or off during the match as a
logged correction by hand that a resume keeps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pilot_helpers import store_ready, wait_until
from textual.widgets import Static

from companion.driver import Driver
from companion.prompts import Choose, Tell, edit_prompt
from companion.sessions import resume_session
from companion.simancas.game import ACTION_TOPIC, GAME, RESULT_TOPIC
from companion.simancas.guide import GUIDE_TOPICS, guide_change, guide_what
from companion.store.db import Store
from screens.app import CompanionApp
from screens.simancas.game_screen import SimancasScreen

SIZE = (100, 30)
#: A hand guided from its opening to the next hand's: the topics in order.
GUIDED_HAND = [
    GUIDE_TOPICS["fate"],
    GUIDE_TOPICS["reserve"],
    GUIDE_TOPICS["strategy"],
    GUIDE_TOPICS["battle"],
    ACTION_TOPIC,  # "Moors place Jund Cavalry"
    ACTION_TOPIC,  # "Moors pass"
    ACTION_TOPIC,  # "Christians pass": both have finished
    RESULT_TOPIC,
    GUIDE_TOPICS["retreat"],
    GUIDE_TOPICS["fate"],
]


def play_one_hand(d: Driver) -> list[str]:
    """Confirm every instruction, place Jund Cavalry, both pass; the topics asked, in order, up to
    the next hand's first prompt."""
    topics: list[str] = []
    for answer in ("Moors place Jund Cavalry", "Moors pass", "Christians pass"):
        while isinstance(d.pending, Tell):
            topics.append(d.pending.topic)
            d.ack()
        topics.append(d.pending.topic if d.pending else "")
        d.submit(answer, "player")
    while isinstance(d.pending, Tell):
        topics.append(d.pending.topic)
        if d.pending.topic == GUIDE_TOPICS["fate"]:
            break
        d.ack()
    return topics


def test_a_guided_hand_tells_each_phase_in_the_rulebooks_order() -> None:
    d = Driver(GAME, 3, {"guide": True})
    assert play_one_hand(d) == GUIDED_HAND
    assert d.pending is not None and d.pending.data["hand"] == 2
    # Each instruction cites its section, and the log's phase follows it.
    assert GAME.where(d.state) == (2, "Fate Phase")


def test_each_phase_says_its_facts_and_cites_its_section() -> None:
    d = Driver(GAME, 3, {"guide": True})
    told: dict[str, Tell] = {}
    while isinstance(d.pending, Tell):
        told[d.pending.data["phase"]] = d.pending
        d.ack()
    assert list(told) == ["fate", "reserve", "strategy", "battle"]
    assert told["fate"].data["cards"] == 9 and told["fate"].rule.startswith("Fate Phase")
    assert told["reserve"].data["max_discard"] == 4 and told["reserve"].data["reshuffle"] is True
    assert told["reserve"].rule.startswith("Reserve Phase")
    strategy = told["strategy"]
    assert strategy.rule.startswith("Strategy Phase") and strategy.data["first"] == "moors"
    # The strategic effect of every type, in the rulebook's order; Infantry has none.
    assert [e["type"] for e in strategy.data["effects"]] == ["L", "S", "T", "C", "K", "I", "W"]
    effects = {e["type"]: e["effect"] for e in strategy.data["effects"]}
    assert effects["L"] == "draw 3 cards and discard any 2" and effects["I"] == "no strategic effect"
    assert told["battle"].rule.startswith("Battle Phase") and told["battle"].data["first"] == "moors"


def test_the_guide_off_tells_no_phase() -> None:
    for config in ({}, {"guide": False}):
        d = Driver(GAME, 3, config)
        topics = play_one_hand(d)
        assert not set(topics) & set(GUIDE_TOPICS.values())
        assert GAME.where(d.state) == (2, "Battle Phase")
        assert "guide" not in d.snapshot()


def test_turned_off_mid_hand_the_rest_are_not_told_and_on_it_starts_at_the_retreat() -> None:
    d = Driver(GAME, 3, {"guide": True})
    d.ack()  # the Fate
    d.edit(edit_prompt(guide_what(False), guide_change(False)))
    assert d.pending is not None and d.pending.topic == GUIDE_TOPICS["reserve"]  # already asked
    d.ack()
    assert isinstance(d.pending, Choose) and d.pending.topic == ACTION_TOPIC
    d.edit(edit_prompt(guide_what(True), guide_change(True)))
    assert isinstance(d.pending, Choose)  # not mid-hand: the next told step is the Retreat
    d.submit("Moors pass", "player")
    d.submit("Christians pass", "player")
    d.ack()  # the result
    assert d.pending is not None and d.pending.topic == GUIDE_TOPICS["retreat"]


def test_the_setting_survives_a_resume(tmp_path: Path, clock: Any) -> None:
    db = str(tmp_path / "c.db")
    store = Store(db, clock=clock)
    sid = store.create_session("simancas", 3, {"guide": True})
    d = Driver(GAME, 3, {"guide": True}, recorder=store.recorder(sid))
    d.ack()
    store.close()
    store = Store(db, clock=clock)
    resumed = resume_session(store, sid, GAME)
    d = resumed.driver
    assert d.pending is not None and d.pending.topic == GUIDE_TOPICS["reserve"]
    # Turned off by hand: logged, so that the resumed match stays unguided.
    d.edit(edit_prompt(guide_what(False), guide_change(False)))
    store.close()
    store = Store(db, clock=clock)
    resumed = resume_session(store, sid, GAME)
    d = resumed.driver
    assert d.state.guide is False
    d.ack()  # the Reserve, asked before the guide went off
    assert isinstance(d.pending, Choose) and d.pending.topic == ACTION_TOPIC
    store.close()


def test_a_correction_other_than_the_guide_is_refused() -> None:
    d = Driver(GAME, 3)
    for bad in ({"guide": "yes"}, {"guide": True, "hand": 2}, {"area": "x"}):
        try:
            d.edit(edit_prompt("bad", bad))
        except ValueError:
            continue
        raise AssertionError(f"{bad} was taken")
    assert d.steps == []


# -- the screen ------------------------------------------------------------------------------


def why(app: CompanionApp) -> str:
    return str(app.screen.query_one("#pp-why", Static).render())


async def test_on_the_screen_each_phase_is_confirmed_with_enter(tmp_path: Path, clock: Any) -> None:
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=5, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        assert "New Simancas match, unguided" in {c.title for c in app.get_system_commands(app.screen)}
        app.start_game("simancas")  # as the home screen starts it: guided
        await wait_until(pilot, lambda: isinstance(app.screen, SimancasScreen))
        assert app.store().session(1).config == {"guide": True, "setup": True}
        await wait_until(pilot, lambda: isinstance(app.screen, SimancasScreen))
        screen = app.screen
        assert isinstance(screen, SimancasScreen) and screen.driver is not None
        seen = []
        for phase in ("Fate Phase", "Reserve Phase", "Strategy Phase", "Battle Phase"):
            assert phase in why(app)
            seen.append(screen.driver.pending.topic if screen.driver.pending else "")
            await pilot.press("enter")
            await pilot.pause()
        assert seen == [GUIDE_TOPICS[p] for p in ("fate", "reserve", "strategy", "battle")]
        assert isinstance(screen.driver.pending, Choose) and screen.driver.pending.topic == ACTION_TOPIC
        # f4 turns it off: logged as a correction by hand, kept with the session.
        await pilot.press("f4")
        await pilot.pause()
        assert screen.match.guide is False
        assert screen.driver.steps[-1].prompt.data == {"guide": False}
    info = Store(str(tmp_path / "c.db")).session(1)
    assert info.config == {"guide": True, "setup": True}


async def test_typing_a_card_confirms_every_phase_waiting(tmp_path: Path, clock: Any) -> None:
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=5, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        app.start_game("simancas")
        await wait_until(pilot, lambda: isinstance(app.screen, SimancasScreen))
        screen = app.screen
        assert isinstance(screen, SimancasScreen) and screen.driver is not None
        await pilot.press(*"jund", "enter")
        await pilot.pause()
        assert screen.match.table.placed["moors"] == ["Jund Cavalry"]
        acked = [s.prompt.topic for s in screen.driver.steps if s.source == "ack"]
        assert acked == [GUIDE_TOPICS[p] for p in ("fate", "reserve", "strategy", "battle")]


async def test_unguided_the_first_prompt_is_the_menu_and_f4_turns_the_guide_on(
    tmp_path: Path, clock: Any
) -> None:
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=5, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        app.start_game("simancas", {"guide": False, "setup": True})
        await wait_until(pilot, lambda: isinstance(app.screen, SimancasScreen))
        screen = app.screen
        assert isinstance(screen, SimancasScreen) and screen.driver is not None
        assert isinstance(screen.driver.pending, Choose)
        await pilot.press("f4")
        await pilot.pause()
        assert screen.match.guide is True
        for _ in range(2):  # the Moors' pass, then the Christians'
            await pilot.press(*"pass", "enter")
            await pilot.pause()
        await pilot.press("enter")  # the result
        await pilot.pause()
        assert screen.driver.pending is not None
        assert screen.driver.pending.topic == GUIDE_TOPICS["retreat"]
        assert "Retreat Phase" in why(app)


async def test_the_strategy_phase_shows_each_types_effect_then_the_table(tmp_path: Path, clock: Any) -> None:
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=5, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        app.start_game("simancas")
        await wait_until(pilot, lambda: isinstance(app.screen, SimancasScreen))
        reference, tables = app.screen.query_one("#sm-reference"), app.screen.query_one("#sm-tables")
        await pilot.press("enter", "enter")  # the Fate, the Reserve
        await pilot.pause()
        assert "Strategy Phase" in why(app)
        assert reference.display and not tables.display  # the card types' effects, in place of the table
        await pilot.press("enter")
        await pilot.pause()
        assert "Battle Phase" in why(app)
        assert tables.display and not reference.display
        assert "Done: Strategy Phase." in str(app.screen.query_one("#pp-message", Static).render())


def test_a_new_guided_match_opens_with_the_rulebooks_setup() -> None:
    """SETUP: "Shuffle the deck." A new match's first instruction says it, with the first hand's
    deal; a match recorded before the setup was told opens as it did."""
    from companion.simancas.guide import GUIDE_TOPICS

    new = Driver(GAME, 3, {"guide": True, "setup": True})
    first = new.pending
    assert isinstance(first, Tell) and first.topic == GUIDE_TOPICS["fate"]
    assert first.data.get("shuffle") is True and first.rule.startswith("SETUP — Shuffle the deck")
    assert "shuffle the deck" in first.text
    old = Driver(GAME, 3, {"guide": True})
    assert isinstance(old.pending, Tell) and "shuffle" not in old.pending.data
