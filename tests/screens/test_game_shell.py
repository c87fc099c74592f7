"""The game shell (screens/shell/) and what the games give it: the undo rule, the changes to
make on the table after an undo, the rule key, and the registry every screen is found by."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from test_reconquista_screen import SIZE, driver_of, open_game, recorded_game
from textual.widgets import Static

from companion import games
from companion.driver import Driver, Step
from companion.games import GAMES
from companion.interface import last_answer
from companion.prompts import Choose, Edit, Roll, Tell, edit_prompt
from companion.reconquista.bot import Bot
from companion.reconquista.edits import area_text, board_changes
from companion.reconquista.game import GAME
from companion.reconquista.simulate import bot_answer
from companion.reconquista.state import PHASES
from companion.store.db import Store
from screens.app import CompanionApp
from screens.registry import replay_view_class, screen_class
from screens.replay_views import StateView
from screens.shell.dialogs import ConfirmDialog, MessageDialog
from screens.shell.game_screen import GameScreen, needs_asking, rule_text, taken_back_lines

# -- the undo rules --------------------------------------------------------------------------

ROLL = Roll(1, 6, "Region die", topic="t.p.roll")
PICK = Choose(["a", "b"], "Which?", topic="t.p.pick")
TELL = Tell("Move it.", topic="t.p.tell")


def test_the_usual_undo_rule_goes_back_to_the_last_answer_the_player_gave() -> None:
    """Instructions confirmed and dice the app rolled by itself go with the answer before them."""
    steps = [
        Step(PICK, "a", "player"),
        Step(TELL, None, "ack"),
        Step(ROLL, [3], "app"),
        Step(TELL, None, "ack"),
    ]
    assert last_answer(steps, automatic_dice=True) == 0
    # Dice the app rolled when asked (r) are an answer the player gave.
    assert last_answer(steps, automatic_dice=False) == 2
    # A correction by hand is taken back on its own.
    edited = [*steps, Step(edit_prompt("Correction by hand: A", {"area": "A"}), None, "edit")]
    assert last_answer(edited, automatic_dice=True) == 4
    assert last_answer([], automatic_dice=False) is None
    assert last_answer([Step(TELL, None, "ack")], automatic_dice=False) == 0


def test_each_game_owns_its_undo_rule() -> None:
    simancas = games.load("simancas")
    menu = Choose(["Moors place Large Army", "End the hand"], "Hand 1?", topic="simancas.turn.action")
    steps = [
        Step(menu, "Moors place Large Army", "player"),
        Step(TELL, None, "ack"),
        Step(PICK, "a", "player"),
    ]
    assert simancas.undo_from(steps, False) == 0  # the last action on the table, with what followed
    tray = games.load("dice")
    tray_steps = [Step(PICK, "x", "player"), Step(ROLL, [2], "physical"), Step(PICK, "y", "player")]
    assert tray.undo_from(tray_steps, False) == 1  # the tray takes back its last roll
    assert games.load("castells").undo_from(tray_steps, False) == 2


def test_undo_asks_before_it_takes_back_more_than_one_answer_dice_or_a_correction() -> None:
    one = [Step(PICK, "a", "player"), Step(TELL, None, "ack")]
    assert not needs_asking(one)
    assert needs_asking([Step(ROLL, [3], "physical")])
    assert not needs_asking([Step(ROLL, [3], "physical")], dice=False)
    assert needs_asking([*one, Step(ROLL, [4], "app")], dice=False)
    edit = Step(edit_prompt("Galicia is now M 2A", {"area": "Galicia"}), None, "edit")
    assert needs_asking([edit], dice=False)
    lines = taken_back_lines([*one, Step(ROLL, [4], "app"), edit])
    assert lines == [
        "the answer 'a' to Which? (a / b)",
        "the dice 4 (rolled by the app) for Region die",
        "your correction by hand: Galicia is now M 2A",
        "1 instruction you confirmed on the board",
    ]


def test_the_changes_after_an_undo_are_what_differs_on_the_board() -> None:
    """Reconquista's ``board_changes``: area by area, the counters to put back and take away,
    which together make the board after the undo out of the board before it."""
    driver = Driver(GAME, 3)
    bot, board = Bot(3), GAME.board_of(driver.state)
    for _ in range(160):
        bot_answer(driver, bot, board)
    now = driver.state
    before = {a: area_text(s) for a, s in now.areas.items()}
    driver.rewind_to(100)
    back = driver.state
    changes = board_changes(now, back)
    changed = {a for a in now.areas if area_text(now.areas[a]) != area_text(back.areas[a])}
    assert changed and {c.split(":")[0] for c in changes if c.split(":")[0] in now.areas} == changed
    assert all(("put back" in c or "take away" in c) for c in changes if c.split(":")[0] in changed)
    assert before == {a: area_text(s) for a, s in now.areas.items()}  # the undo left the old state alone
    assert board_changes(back, back) == []


# -- on the screen -------------------------------------------------------------------------------


def rewinds(db: Path, sid: int) -> int:
    store = Store(str(db))
    try:
        with store.engine.connect() as con:
            q = text("SELECT COUNT(*) FROM event WHERE session_id = :s AND kind = 'rewind'")
            return int(con.execute(q, {"s": sid}).scalar() or 0)
    finally:
        store.close()


def at(topic: str) -> Callable[[Driver], bool]:
    return lambda d: d.pending is not None and d.pending.topic == topic


async def test_undo_lists_everything_it_takes_back_rewinds_once_and_says_what_to_put_back(
    tmp_path: Path, clock: Any
) -> None:
    """After a purchase and a correction by hand, ctrl+z (app dice: the app rolls by itself)
    names the correction in its question, takes back in one logged rewind, and ends with the
    board changes: the correction undone on the table."""
    db = tmp_path / "c.db"
    sid = recorded_game(db, clock, 9, at("reconquista.movement.region"), mode="app")
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_game(pilot, sid)
        d = driver_of(app)
        d.edit(
            edit_prompt(
                "Galicia is now M 3A",
                {
                    "area": "Galicia",
                    "city": None,
                    "fortress": False,
                    "units": {"muslim": {"A": 3}},
                    "besieger": None,
                },
            )
        )
        steps = len(d.steps)
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmDialog)
        assert "your correction by hand: Galicia is now M 3A" in app.screen.question
        await pilot.press("y")
        await pilot.pause()
        assert isinstance(app.screen, MessageDialog)
        body = str(app.screen.body)
        assert (
            "Put the table back as it was" in body
            and "Galicia: " in body
            and "take away 3 Muslim armies" in body
        )
        assert len(d.steps) == steps - 1
    assert rewinds(db, sid) == 1


@pytest.mark.slow
async def test_after_an_undo_enter_does_not_answer_again_and_ctrl_y_redoes(
    tmp_path: Path, clock: Any
) -> None:
    """Undo of a plain choice brings the menu back with nothing highlighted: the Enter that
    closes the dialog, or one more out of habit, gives no answer. ctrl+y answers again what
    the undo took, as it was, and says what to make on the table again."""
    from textual.widgets import OptionList

    db = tmp_path / "c.db"
    sid = recorded_game(db, clock, 9, at("reconquista.income.purchase"), mode="app")
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_game(pilot, sid)
        d = driver_of(app)
        assert isinstance(d.pending, Choose)
        menu = d.pending
        await pilot.press("1")
        await pilot.pause()
        after = (list(d.steps), d.snapshot())
        assert len(d.steps) > 0 and d.pending != menu
        await pilot.press("ctrl+z")
        await pilot.pause()
        while not isinstance(app.screen, GameScreen):  # the undo's questions and dialogs
            await pilot.press("y" if isinstance(app.screen, ConfirmDialog) else "enter")
            await pilot.pause()
        assert d.pending == menu
        assert app.screen.query_one("#pp-options", OptionList).highlighted is None
        taken = len(d.steps)
        await pilot.press("enter", "enter")
        await pilot.pause()
        assert len(d.steps) == taken  # no answer given by an Enter
        await pilot.press("ctrl+y")
        await pilot.pause()
        if isinstance(app.screen, MessageDialog):
            assert "Make these changes on the table again" in str(app.screen.body)
            await pilot.press("enter")
            await pilot.pause()
        assert (list(d.steps), d.snapshot()) == after
        assert "Redone" in str(app.screen.query_one("#pp-message", Static).render())
    log = Store(str(db)).log(sid)
    assert [s.answer for s in log.steps] == [s.answer for s in after[0]] and log.redo == []


@pytest.mark.slow
async def test_the_rule_key_shows_the_rule_and_the_reason_of_the_step_on_screen(
    tmp_path: Path, clock: Any
) -> None:
    db = tmp_path / "c.db"
    sid = recorded_game(db, clock, 8, at("reconquista.march.move"))
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_game(pilot, sid)
        pending = driver_of(app).pending
        assert pending is not None and pending.topic == "reconquista.march.move"
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, MessageDialog)
        body = str(app.screen.body)
        assert "Rule: Phase 5: The Muslim Reaction — Movement of the Muslim force" in body
        assert f"Why: {pending.reason}" in body and pending.reason


def test_a_step_without_a_rule_says_so() -> None:
    assert "No rulebook section is cited" in rule_text(PICK).plain
    cited = rule_text(Tell("Go.", topic="t.p.go", rule="Phase 7: End of Turn", reason="the last turn"))
    assert "Rule: Phase 7: End of Turn" in cited.plain and "Why: the last turn" in cited.plain


@pytest.mark.slow
async def test_history_steps_through_with_the_rule_of_each_step(tmp_path: Path, clock: Any) -> None:
    from screens.history import SessionLogScreen

    db = tmp_path / "c.db"
    sid = recorded_game(db, clock, 8, at("reconquista.march.move"))
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=(200, 55)) as pilot:
        await open_game(pilot, sid)  # the store is ready
        app.push_screen(SessionLogScreen(sid))
        await pilot.pause()
        await pilot.press("down", "down")  # step 3: the rebellion table die
        for _ in range(20):
            await pilot.pause(0.05)
        shown = str(app.screen.query_one("#log-rule", Static).render())
        assert "Rule: Phase 1: Rebellions" in shown
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, MessageDialog) and "Phase 1: Rebellions" in str(app.screen.body)


# -- the registry ----------------------------------------------------------------------------


@pytest.mark.parametrize("entry", GAMES, ids=[g.id for g in GAMES])
def test_every_game_is_found_through_its_registry_entry(entry: games.GameEntry) -> None:
    game = games.load(entry.id)
    assert game.id == entry.id
    assert issubclass(screen_class(entry.id), GameScreen)
    assert issubclass(replay_view_class(entry.id), StateView)
    assert entry.turn_word in ("Turn", "Hand", "Round")
    # The capabilities are declared: None or callable, never missing.
    assert game.apply_edit is None or callable(game.apply_edit)
    assert game.board_changes is None or callable(game.board_changes)


def test_the_reconquista_phase_titles_cover_every_phase_it_reports() -> None:
    entry = games.entry("reconquista")
    assert {p for p, _ in entry.phases} == set(PHASES)
    assert entry.phase_title("reaction") == "Phase 5: Muslim reaction"
    assert games.entry("dice").phase_title("rolls") == "Rolls"  # no titles: the id, capitalised
    # Castells names its phases as its screen does; a battle is one of Phase 3's actions.
    assert games.entry("castells").phase_title("saracens") == "The Saracens act"
    assert games.entry("castells").phase_title("battle") == "Phase 3: Actions"


def test_an_edit_prompt_is_one_kind_of_step_in_every_game() -> None:
    e = edit_prompt("Correction by hand: A", {"area": "A"})
    assert isinstance(e, Edit) and e.topic == "edit" and e.data == {"area": "A"}


def test_castells_says_what_to_put_back_after_an_undo() -> None:
    """Terra de Castells' ``board_changes``: each castle's holder, the Saracen, the army points
    and the bag, as they differ between the table now and the table after the undo."""
    from reliability.reliability_script import answer_one

    from companion.castells.edits import board_changes as castells_changes

    driver = Driver(games.load("castells"), 2, {})
    while driver.pending is not None and len(driver.steps) < 140:
        answer_one(driver)
    now = driver.state
    driver.rewind_to(20)
    back = driver.state
    changes = castells_changes(now, back)
    owners = [c for c in back.owners if back.owners[c] != now.owners[c]]
    assert owners and all(any(c.startswith(f"{castle}: ") for c in changes) for castle in owners)
    drawn = sum(back.bag.values()) - sum(now.bag.values())
    assert drawn > 0 and any(c.startswith("Bag: put") and "into the bag" in c for c in changes)
    assert castells_changes(back, back) == []


BACK_WORDS = (" back", "back ", " again")


@pytest.mark.parametrize("game_id", ["reconquista", "castells", "simancas"])
def test_the_changes_after_a_correction_or_redo_name_no_going_back(game_id: str) -> None:
    """After an undo the table goes back ("put back", "back to", "again"); after a correction or
    a redo it goes forward: the same changes, one for one, without those words."""
    from reliability.reliability_script import answer_one

    game = games.load(game_id)
    assert game.board_changes is not None
    driver = Driver(game, 2, {})
    while driver.pending is not None and len(driver.steps) < 140:
        answer_one(driver)
    now = driver.state
    driver.rewind_to(20)
    back = driver.state
    undo, forward = game.board_changes(now, back), game.board_changes(now, back, undo=False)
    assert undo and len(forward) == len(undo)
    assert any(word in line for line in undo for word in BACK_WORDS)
    assert not any(word in line for line in forward for word in BACK_WORDS), forward
    assert game.board_changes(back, back, undo=False) == []


async def test_f2_shows_the_rule_while_a_text_field_has_the_focus(tmp_path: Path, clock: Any) -> None:
    """In the Battle of Simancas the card field always has the focus: a ? typed there is a
    letter of the text, and f2 (the key the footer names) shows the rule."""
    from textual.widgets import Input

    from screens.simancas.game_screen import SimancasScreen

    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_game_of(pilot, app, "simancas", SimancasScreen)
        field = app.screen.query_one("#pp-dice", Input)
        assert app.focused is field
        await pilot.press("j", "question_mark")
        await pilot.pause()
        assert field.value == "j?" and not isinstance(app.screen, MessageDialog)
        pending = app.screen.driver.pending  # type: ignore[attr-defined]
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, MessageDialog)
        # A new match is guided: its first step is the setup and the Fate Phase, cited by their sections.
        assert "Fate Phase" in pending.rule and f"Rule: {pending.rule}" in str(app.screen.body)


async def open_game_of(pilot: Any, app: CompanionApp, game: str, screen: type) -> None:
    from pilot_helpers import store_ready, wait_until

    await store_ready(pilot)
    app.start_game(game)
    await wait_until(pilot, lambda: isinstance(app.screen, screen))


def test_simancas_says_which_cards_to_take_off_and_put_back_after_an_undo() -> None:
    from companion.simancas.game import match_changes

    simancas = games.load("simancas")
    driver = Driver(simancas, 1)
    driver.submit("Moors place Large Army", "player")
    while isinstance(driver.pending, Tell):
        driver.ack()
    placed = copy.deepcopy(driver.state)  # the game changes its state in place as it goes on
    driver.submit("Moors pass", "player")
    driver.submit("Christians pass", "player")  # both have finished: the hand is scored
    while isinstance(driver.pending, Tell):
        driver.ack()
    ended = driver.state
    driver.rewind_to(simancas.undo_from(driver.steps, False) or 0)
    assert match_changes(ended, driver.state) == [
        "Moors: put Large Army back on the table",
        "Hands won: back to Moors 0, Christians 0",
    ]
    assert match_changes(placed, Driver(simancas, 1).state) == ["Moors: take Large Army off the table"]


async def test_a_table_roll_says_what_each_result_means_before_it_is_typed(
    tmp_path: Path, clock: Any
) -> None:
    """Issue #32: "A roll says what its faces mean before it is typed ... a table roll shows the
    table's rows; f2 on a roll shows the rule and the table it is rolled on." The events' 2D6:
    every total 2 to 12 with its event, from the session's tables file."""
    from companion.reconquista.events import EVENT_NAMES

    db = tmp_path / "c.db"
    sid = recorded_game(db, clock, 9, at("reconquista.events.roll"))
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_game(pilot, sid)
        d = driver_of(app)
        table = GAME.board_of(d.state).tables.events
        rows = [f"{total} {EVENT_NAMES[table[total]]}" for total in range(2, 13)]
        shown = " ".join(str(app.screen.query_one("#pp-odds", Static).render()).split())
        assert all(row in shown for row in rows), shown
        await pilot.press("f2")
        await pilot.pause()
        assert isinstance(app.screen, MessageDialog)
        body = " ".join(str(app.screen.body).split())
        assert "The table it is rolled on" in body and all(row in body for row in rows)


async def test_the_event_drawn_is_named_with_its_total_in_the_log(tmp_path: Path, clock: Any) -> None:
    """Issue #32: "the event drawn in Phase 2 is named with its total": once the 2D6 are in,
    the log's line of the roll says the total and the event it drew, from the session's
    tables, before the event's own steps (El Cid's first is a die of its own)."""
    from companion.reconquista.events import EVENT_NAMES
    from screens.shell.entry_log import EntryLog

    db = tmp_path / "c.db"
    sid = recorded_game(db, clock, 9, at("reconquista.events.roll"))
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_game(pilot, sid)
        d = driver_of(app)
        table = GAME.board_of(d.state).tables.events
        await pilot.press("3", "space", "5", "enter")
        await pilot.pause()
        assert d.steps[-1].answer == [3, 5]
        log = app.screen.query_one("#rq-log", EntryLog)
        line = next(str(e) for e in reversed(log.entries) if "the total picks the event" in str(e))
        assert line.endswith(f"3 5 → 8: {EVENT_NAMES[table[8]]} (table)"), line
