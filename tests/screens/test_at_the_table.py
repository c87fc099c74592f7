"""At the table: what a player meets beside the board, driven as a player would (Pilot).

Each session rolls its own dice; the dice mode chosen is kept with the session; the keys
do what the footer says wherever the focus is; the correction dialogs forgive a refused
line; the smaller findings of a game played at the table.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import store_ready, wait_until
from test_reconquista_screen import asks, driver_of, open_game, pick_dice_mode, recorded_game, screen

from companion.dice import app_roll, session_seed
from companion.store.db import Store
from screens.app import CompanionApp

SIZE = (100, 30)


@asynccontextmanager
async def at_the_board(
    tmp_path: Path, clock: Any, until: Callable[[Any], bool], mode: str = "mixed"
) -> AsyncIterator[tuple[CompanionApp, Any]]:
    """The Reconquista screen of a game the bot played (seed 9) up to ``until``: the app and
    its pilot."""
    sid = recorded_game(tmp_path / "c.db", clock, 9, until, mode)
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_game(pilot, sid)
        yield app, pilot


# -- every session its own dice ----------------------------------------------------------


async def start(app: CompanionApp, pilot: Any, game: str, config: dict[str, Any] | None = None) -> int:
    """Start a new session of ``game`` as the home screen does (``config``: its settings, as its
    dialog gives them); its number."""
    before = len(app.store().sessions())
    app.start_game(game, config or {})
    await wait_until(pilot, lambda: len(app.store().sessions()) == before + 1)
    return max(s.id for s in app.store().sessions())


@pytest.mark.slow
async def test_sessions_started_in_one_run_roll_their_own_dice(tmp_path: Path, clock: Any) -> None:
    """Two sessions of one run used to share the run's seed, and so rolled the same dice."""
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=None, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        seeds = [app.store().session(await start(app, pilot, "dice")).seed for _ in range(3)]
    assert len(set(seeds)) == 3
    rolls = {tuple(app_roll(seed, 0, 10, 6)) for seed in seeds}
    assert len(rolls) == 3  # three sessions, three different first rolls of ten dice


@pytest.mark.slow
async def test_a_given_seed_seeds_the_first_session_and_the_rest_from_it(tmp_path: Path, clock: Any) -> None:
    """``--seed N``: N for the first session of the run, then seeds drawn from N, the same
    ones again in another run with the same N."""
    runs = []
    for run in range(2):
        app = CompanionApp(db_path=str(tmp_path / f"c{run}.db"), seed=41, clock=clock)
        async with app.run_test(size=SIZE) as pilot:
            await store_ready(pilot)
            runs.append([app.store().session(await start(app, pilot, "dice")).seed for _ in range(3)])
    assert runs[0] == runs[1]
    assert runs[0][0] == 41 and len(set(runs[0])) == 3
    assert runs[0][1:] == [session_seed(41, 1), session_seed(41, 2)]


# -- the dice mode is kept -----------------------------------------------------------------


@pytest.mark.slow
async def test_the_dice_mode_chosen_with_ctrl_d_comes_back_on_resume(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    sid = recorded_game(db, clock, 9, asks("Rebellions: region die"))
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_game(pilot, sid)
        await pick_dice_mode(pilot, "physical")
        assert screen(app).mode == "physical"
    info = Store(str(db)).session(sid)
    assert info.dice_mode == "physical" and info.config["dice"] == "physical"  # what history --json shows
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_game(pilot, sid)
        assert screen(app).mode == "physical"
        await pilot.press("3", "enter")  # a die typed from the table keeps the mode chosen
        assert driver_of(app).steps[-1].source == "physical"
    assert Store(str(db)).session(sid).dice_mode == "physical"


def test_a_session_without_a_choice_keeps_the_sources_of_its_dice(tmp_path: Path, clock: Any) -> None:
    """The Dice tray has no dice mode to choose: its ``dice_mode`` says where its dice came from."""
    from companion.dicetray import GAME as TRAY
    from companion.driver import Driver

    store = Store(str(tmp_path / "c.db"), clock=clock)
    sid = store.create_session("dice", 3, {})
    assert store.session(sid).dice_mode == ""
    driver = Driver(TRAY, 3, {}, store.recorder(sid))
    driver.type("2d6 Attack")
    driver.roll()
    assert store.session(sid).dice_mode == "app"


def test_a_dice_mode_that_is_not_one_is_refused(tmp_path: Path, clock: Any) -> None:
    import pytest

    from companion.errors import StoreError

    store = Store(str(tmp_path / "c.db"), clock=clock)
    sid = store.create_session("reconquista", 3, {"dice": "mixed"})
    with pytest.raises(StoreError, match="'loaded' is not a dice mode"):
        store.set_dice_mode(sid, "loaded")
    assert store.session(sid).config == {"dice": "mixed"} and store.session(sid).dice_mode == "mixed"


# -- keys do what the footer says wherever the focus is ------------------------------------


def footer_keys(app: CompanionApp) -> set[str]:
    """The keys the footer offers now."""
    return {b.key for (_, b, enabled, _) in app.screen.active_bindings.values() if b.show and enabled}


@pytest.mark.slow
async def test_letters_in_the_dice_field_are_the_footers_keys(tmp_path: Path, clock: Any) -> None:
    """With the focus in the dice field, c corrects a die and w explains, as the footer says;
    they used to be typed into the field."""
    from textual.widgets import Input, Static

    from screens.shell.step_dialogs import CorrectionDialog

    async with at_the_board(tmp_path, clock, asks("Events: 2D6")) as (app, pilot):
        field = app.screen.query_one("#pp-dice", Input)
        assert app.screen.focused is field and {"c", "r"} <= footer_keys(app)
        assert "a" not in footer_keys(app)  # "All done" only while an instruction waits
        await pilot.press("3", "c")
        await wait_until(pilot, lambda: isinstance(app.screen, CorrectionDialog))
        await pilot.press("escape")
        assert field.value == "3"  # the digit was typed, the letter was not
        await pilot.press("w")  # outside Phase 3, w says when it explains
        assert "Phase 3" in str(app.screen.query_one("#pp-message", Static).render())
        assert field.value == "3"
        await pilot.press("r")  # the app rolls, with the focus in the field
        assert driver_of(app).steps[-1].source == "app"


async def test_physical_dice_offer_no_roll_by_the_app(tmp_path: Path, clock: Any) -> None:
    from textual.widgets import Input, Static

    async with at_the_board(tmp_path, clock, asks("Rebellions: region die"), mode="physical") as (app, pilot):
        d = driver_of(app)
        steps = len(d.steps)
        assert "r" not in footer_keys(app)
        assert "r" not in app.screen.query_one("#pp-dice", Input).placeholder
        await pilot.press("enter")  # an empty field: the message asks for the table's die only
        said = str(app.screen.query_one("#pp-message", Static).render())
        assert "you rolled on the table" in said and "app" not in said
        await pilot.press("r")
        assert len(d.steps) == steps
        await pick_dice_mode(pilot, "app")  # physical -> app: from the next roll
        assert len(d.steps) == steps
        await pilot.press("r")
        await pilot.pause()
        assert len(d.steps) > steps and d.steps[steps].source == "app"


# -- dialogs forgive -------------------------------------------------------------------------


async def test_an_empty_line_in_the_board_correction_logs_nothing(tmp_path: Path, clock: Any) -> None:
    """Reconquista e: an empty line used to empty the area and log it; a refused line used to
    close the dialog and lose what was typed."""
    from textual.widgets import Input, OptionList, Static

    from screens.reconquista.dialogs import EditAreaDialog

    async with at_the_board(tmp_path, clock, asks("Phase 3")) as (app, pilot):
        d = driver_of(app)
        steps, toledo = len(d.steps), d.state.areas["Toledo"].total()
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, EditAreaDialog))
        areas = app.screen.query_one(OptionList)
        areas.highlighted = next(
            i for i in range(areas.option_count) if areas.get_option_at_index(i).id == "Toledo"
        )
        await pilot.press("enter")
        field = app.screen.query_one("#edit-text", Input)
        field.value = ""
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, EditAreaDialog)  # still open, and said why
        assert "Write what Toledo holds" in str(app.screen.query_one("#edit-message", Static).render())
        field.value = "M 2A; C 9Q"
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, EditAreaDialog) and field.value == "M 2A; C 9Q"
        field.value = "M 3A"  # fixed in place
        await pilot.press("enter")
        await wait_until(pilot, lambda: not isinstance(app.screen, EditAreaDialog))
        assert len(d.steps) == steps + 1 and d.steps[-1].source == "edit"
        assert d.state.areas["Toledo"].total() == 3 != toledo


async def test_an_empty_line_in_the_castells_correction_logs_nothing(tmp_path: Path, clock: Any) -> None:
    from test_castells_screen import SETUP, open_session, recorded
    from test_castells_screen import driver_of as castells_driver
    from textual.widgets import Static

    from screens.castells.edit_dialog import EditDialog

    db = tmp_path / "c.db"
    sid = recorded(db, clock, [*SETUP, "Migdia"])  # at a list, where e is a key
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=(110, 34)) as pilot:
        await open_session(pilot, sid)
        d = castells_driver(app)
        steps = len(d.steps)
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, EditDialog))
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, EditDialog)
        assert "Type one line" in str(app.screen.query_one("#ed-error", Static).render())
        await pilot.press("escape")
        await wait_until(pilot, lambda: not isinstance(app.screen, EditDialog))
        assert len(d.steps) == steps


# -- smaller findings ------------------------------------------------------------------------


async def test_the_phase_3_header_keeps_the_income_as_collected(tmp_path: Path, clock: Any) -> None:
    """Rule "Phase 3: Collect Income and Spend It": the income shown while spending is what was
    collected (one line: its breakdown is in the log, so the menu has the room); a purchase (or a
    correction) that wins a region changes next turn's income, not the header (it used to turn
    2+1 into 2+1+1 after a bribe)."""
    from textual.widgets import Static

    from companion.prompts import edit_prompt
    from companion.reconquista.control import income
    from companion.reconquista.edits import parse_area_text

    async with at_the_board(tmp_path, clock, asks("Phase 3: spend")) as (app, pilot):
        d = driver_of(app)
        header = str(app.screen.query_one("#pp-odds", Static).render())
        collected = sum(line["points"] for line in d.steps[-1].prompt.data["lines"])  # the income Tell
        assert (
            header
            == f"{d.state.income} points left of this turn's income of {collected} (its lines are in the log)"
        )
        board = screen(app).board
        before = income(board, d.state).total
        for area in board.regions[5].areas:  # Al-Ándalus, all Christian now
            change = parse_area_text("city christian; C 1A") | {"area": area}
            d.edit(edit_prompt(f"Correction by hand: {area}", change))
        assert income(board, d.state).total > before  # next turn would earn more
        screen(app).show_game()
        await pilot.pause()
        assert str(app.screen.query_one("#pp-odds", Static).render()) == header


async def test_the_start_of_a_turn_is_not_labelled_phase_7(tmp_path: Path, clock: Any) -> None:
    """The instruction "Turn 2 begins" opens turn 2; the status line used to call it "Phase 7: End of turn"."""
    from textual.widgets import Static

    async with at_the_board(tmp_path, clock, asks("Turn 2 begins")) as (app, pilot):
        status = str(app.screen.query_one("#rq-status", Static).render())
        assert "Turn 2 of 20 · Start of turn" in status and "Phase 7" not in status  # whole at 80 columns
        await pilot.press("enter")
        status = str(app.screen.query_one("#rq-status", Static).render())
        assert "Phase 1: Rebellions" in status


def test_a_corrected_die_keeps_the_dice_rolled_after_it() -> None:
    """A correction keeps the later answers still asked the same way: the dice rolled on the
    table after the corrected one stand. Changing the rebellions' region die used to keep
    nothing, so the rebellion table die and the events roll had to be typed again."""
    from companion.dice import app_roll
    from companion.driver import Driver
    from companion.prompts import Choose, Roll, Tell
    from companion.reconquista.bot import Bot
    from companion.reconquista.game import GAME

    # Turn 1 by the bot up to the first purchase, every die typed from the table.
    d = Driver(GAME, 9)
    bot, board = Bot(9), GAME.board_of(d.state)
    while d.pending is not None and d.pending.topic != "reconquista.income.purchase":
        p = d.pending
        if isinstance(p, Roll):
            d.submit(app_roll(9, len(d.steps), p.n, p.sides), "physical")
        elif isinstance(p, Tell):
            d.ack()
        else:
            assert isinstance(p, Choose)
            d.submit(bot.choose(board, d.state, p), "player")

    def first(topic: str) -> int:
        return next(i for i, s in enumerate(d.steps) if s.prompt.topic == topic)

    region = first("reconquista.rebellions.region")
    old_table = d.steps[first("reconquista.rebellions.table")]
    events_dice = d.steps[first("reconquista.events.roll")].answer
    other = 3 if d.steps[region].answer != [3] else 2  # another region rebels
    report = d.correct(region, [other], "physical")
    table = d.steps[first("reconquista.rebellions.table")]
    assert table.prompt.data["region"] != old_table.prompt.data["region"]  # asked of another region
    assert table.answer == old_table.answer and table.source == "physical"  # the die on the table stands
    assert d.steps[first("reconquista.events.roll")].answer == events_dice  # not asked again
    assert report.reused >= 2


# -- typed text arrives as typed ----------------------------------------------------------------


@pytest.mark.slow
async def test_a_dice_tray_label_typed_fast_arrives_whole(tmp_path: Path, clock: Any) -> None:
    """Each letter typed in the label redraws the roll it describes; that redraw used to put the
    focus in the values field, so the next letters typed (fast, or pasted) were lost."""
    from textual import events
    from textual.widgets import Input

    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        await pilot.press("d")
        await wait_until(pilot, lambda: app.screen.query("#label").first() is not None)
        await pilot.pause()
        label = app.screen.query_one("#label", Input)
        label.focus()
        label.value = ""
        await pilot.press(*"Bernat rerolls")
        assert label.value == "Bernat rerolls" and app.screen.focused is label
        label.value = ""
        label.post_message(events.Paste("Marta Ferrer, parry"))
        await pilot.pause()
        assert label.value == "Marta Ferrer, parry"
        await pilot.press("tab", "5", "6", "enter")
        steps = app.screen.driver.steps  # type: ignore[attr-defined]
        assert steps[-1].prompt.why == "Marta Ferrer, parry" and steps[-1].answer == [5, 6]
        assert all(s.source != "app" for s in steps)  # no r typed rolled the app's dice


async def test_after_all_done_the_newest_instruction_is_in_view_and_no_line_is_cut(
    tmp_path: Path, clock: Any
) -> None:
    """Issue #32: "No line on any panel is cut mid-sentence: a line that does not fit wraps or
    folds with a mark that more is there. After `a` (all done) the newest instruction is in
    view." At 80x24 the setup's ten instructions, confirmed at once by a, leave a roll waiting:
    the Now panel shows the newest of them whole, the older give way under a line saying how
    many, and nothing runs past the rows the list has."""
    from screens.shell.prompt_panel import Checklist

    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await store_ready(pilot)
        sid = await start(app, pilot, "reconquista", {"dice": "mixed", "setup": True})
        await wait_until(pilot, lambda: driver_of(app) is not None and app.store().session(sid) is not None)
        d = driver_of(app)
        await pilot.press("a")
        await wait_until(pilot, lambda: d.pending is not None and d.pending.kind == "roll")
        await pilot.pause()
        checklist = app.screen.query_one("#pp-checklist", Checklist)
        shown = checklist.render()
        rows = shown.wrap(app.console, checklist.content_size.width)
        assert len(rows) <= checklist.content_size.height
        newest = d.steps[-1].prompt.text  # type: ignore[union-attr]
        entries = shown.plain.splitlines()  # one a line given; wrapping adds none
        assert entries[-1] == f"✓ {newest}"
        assert entries[0].startswith("✓ ") and entries[0].endswith("more done above: see the log")
        more = int(entries[0].split()[1])
        assert more + len(entries) - 1 == min(6, sum(1 for s in d.steps if s.prompt.kind == "tell"))


async def test_a_game_that_may_roll_app_dice_shows_its_commitment_as_it_starts(
    tmp_path: Path, clock: Any
) -> None:
    """#36, 10: 'When a session starts with app dice, the app shows and logs a commitment to its
    seed'. A game of typed dice only, or one that rolls none, has nothing to commit to."""
    db = str(tmp_path / "c.db")
    app = CompanionApp(db_path=db, seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        await pilot.press("d")  # the Dice tray: app dice at will
        await wait_until(pilot, lambda: bool(app._notifications))
        (note,) = list(app._notifications)
        committed = Store(db).session(1).commitment
        assert committed is not None and note.title == "Dice committed"
        assert f"session 1 are committed to its seed: {committed[:16]}…" in note.message
        app.clear_notifications()
        app.start_game("reconquista", {"dice": "physical"})
        await pilot.pause()
        app.start_game("simancas", {})
        await pilot.pause()
        assert sorted(s.game for s in Store(db).sessions()) == ["dice", "reconquista", "simancas"]
        assert not list(app._notifications)
