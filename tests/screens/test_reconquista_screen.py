"""The Reconquista board screen driven as a player would (Pilot), and its snapshots."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import screen_text, store_ready, wait_until
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Input, OptionList, Static

from companion.driver import Driver
from companion.prompts import Choose, Roll, Tell
from companion.reconquista.bot import Bot
from companion.reconquista.game import GAME
from companion.store.db import Store
from screens.app import CompanionApp
from screens.reconquista.dialogs import NewGameDialog
from screens.reconquista.game_screen import ReconquistaScreen
from screens.shell.dialogs import ConfirmDialog, MessageDialog
from screens.shell.step_dialogs import CorrectionDialog

SIZE = (100, 30)
#: The sizes the screen is drawn at in the size snapshots: the smallest terminal, a common
#: one, a large one (each its own layout: the question or the board, panels over the
#: question, panels beside it).
SIZES = [(80, 24), (120, 40), (200, 55)]


def recorded_game(
    path: Path, clock: Any, seed: int, until: Callable[[Driver], bool], mode: str = "mixed"
) -> int:
    """A session in the database at ``path``, played by the bot with app dice until ``until``."""
    store = Store(str(path), clock=clock)
    sid = store.create_session("reconquista", seed, {"dice": mode})
    driver = Driver(GAME, seed, {"dice": mode}, store.recorder(sid))
    bot = Bot(seed)
    board = GAME.board_of(driver.state)
    while driver.pending is not None and not until(driver):
        p = driver.pending
        if isinstance(p, Roll):
            driver.roll()
        elif isinstance(p, Tell):
            driver.ack()
        else:
            assert isinstance(p, Choose)
            driver.submit(bot.choose(board, driver.state, p), "player")
    store.close()
    return sid


def asks(prefix: str) -> Callable[[Driver], bool]:
    """Stop when the pending prompt's text starts with ``prefix``."""

    def cond(d: Driver) -> bool:
        p = d.pending
        text = p.text if isinstance(p, Tell) else getattr(p, "why", "")
        return p is not None and text.startswith(prefix)

    return cond


def screen(app: CompanionApp) -> ReconquistaScreen:
    s = app.screen
    assert isinstance(s, ReconquistaScreen)
    return s


def driver_of(app: CompanionApp) -> Driver:
    d = screen(app).driver
    assert d is not None
    return d


async def open_game(pilot: Pilot[Any], session_id: int) -> None:
    await store_ready(pilot)
    pilot.app.open_session(session_id)
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, ReconquistaScreen))


def message(app: CompanionApp) -> str:
    return str(app.screen.query_one("#pp-message", Static).render())


def final_text(app: CompanionApp) -> str:
    """What the panel shows when the game is over."""
    return str(app.screen.query_one("#pp-odds", Static).render())


# -- Pilot tests ------------------------------------------------------------------


@pytest.mark.slow
async def test_new_game_asks_for_the_dice_and_opens_the_board(tmp_path: Path, clock: Any) -> None:
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=5, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        games = app.screen.query_one("#games", OptionList)
        games.highlighted = 0  # Reconquista
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameDialog))
        await pilot.press("down", "down", "enter")  # app dice
        await wait_until(pilot, lambda: isinstance(app.screen, ReconquistaScreen))
        assert screen(app).mode == "app"
        d = driver_of(app)
        # "Setting Up the Board" first, line by line, each ticked off with Enter.
        assert isinstance(d.pending, Tell) and d.pending.topic == "reconquista.setup.fortresses"
        while d.pending is not None and d.pending.topic.startswith("reconquista.setup."):
            await pilot.press("enter")
            await pilot.pause()
        assert isinstance(d.pending, Tell)
        assert "Turn 1 begins" in d.pending.text
    info = Store(str(tmp_path / "c.db")).session(1)
    assert info.game == "reconquista" and info.config == {"dice": "app", "setup": True}


@pytest.mark.slow
async def test_a_finished_game_shows_its_score(tmp_path: Path, clock: Any) -> None:
    """End of Game: the victory points, itemised, and the result name."""
    sid = recorded_game(tmp_path / "c.db", clock, 7, lambda d: False)
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_game(pilot, sid)
        d = driver_of(app)
        assert d.finished  # the bot played the whole game: nothing to ask
        assert "Total" in final_text(app) and "VP" not in final_text(app)
        assert d.result.split(", ")[0] in final_text(app)


@pytest.mark.slow
async def test_playing_the_first_turn_from_the_keyboard(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    sid = recorded_game(db, clock, 9, lambda d: True)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_game(pilot, sid)
        d = driver_of(app)
        await pilot.press("enter")  # "Turn 1 begins"
        assert isinstance(d.pending, Roll) and d.pending.why.startswith("Rebellions: region die")
        await pilot.press("7", "enter")  # a 7 on a d6: refused, nothing changes
        assert "1 to 6" in message(app) and len(d.steps) == 1
        app.screen.query_one("#pp-dice", Input).value = "2"
        await pilot.press("enter")
        assert d.steps[-1].answer == [2] and d.steps[-1].source == "physical"
        while isinstance(d.pending, Tell):
            await pilot.press("enter")
        assert isinstance(d.pending, Roll)
        await pilot.press("r")  # the app rolls the table die
        assert d.steps[-1].source == "app"
        while isinstance(d.pending, (Tell, Roll)):
            await pilot.press("a" if isinstance(d.pending, Tell) else "r")
        assert isinstance(d.pending, Choose)
        first = d.pending.options[0]
        await pilot.press("1")
        assert d.steps[-1].answer == first and d.steps[-1].source == "player"
    log = Store(str(db)).log(sid)
    assert [s.answer for s in log.steps[:3]] == [None, [2], log.steps[2].answer]


async def test_undo_asks_before_taking_back_dice(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    sid = recorded_game(db, clock, 9, asks("Rebellions: table die"))
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_game(pilot, sid)
        d = driver_of(app)
        steps = len(d.steps)
        await pilot.press("ctrl+z")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("n")
        await pilot.pause()
        assert len(d.steps) == steps  # "no" changes nothing
        await pilot.press("ctrl+z")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        await pilot.press("y")
        await pilot.pause()
        assert len(d.steps) < steps and isinstance(d.pending, Roll)
        assert d.pending.why.startswith("Rebellions: region die")
    assert len(Store(str(db)).log(sid).steps) < steps


async def test_correcting_an_earlier_die(tmp_path: Path, clock: Any) -> None:
    """A die mistyped several steps back is corrected; the game re-runs from it and says
    what changes on the board."""
    db = tmp_path / "c.db"
    sid = recorded_game(db, clock, 9, asks("Phase 3"))
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_game(pilot, sid)
        d = driver_of(app)
        event_roll = next(
            i
            for i, s in enumerate(d.steps)
            if isinstance(s.prompt, Roll) and s.prompt.why.startswith("Events")
        )
        old = d.steps[event_roll].answer
        new = [6, 6] if old != [6, 6] else [1, 1]
        await pilot.press("c")
        await wait_until(pilot, lambda: isinstance(app.screen, CorrectionDialog))
        options = app.screen.query_one(OptionList)
        options.highlighted = next(
            i for i in range(options.option_count) if options.get_option_at_index(i).id == str(event_roll)
        )
        await pilot.press("enter")
        app.screen.query_one("#corr-dice", Input).value = " ".join(map(str, new))
        table = d.state  # the board as the table shows it before the correction
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, MessageDialog))
        assert d.steps[event_roll].answer == new
        # One list, the net changes from the table to the game now, not the old instructions
        # to undo and then the new ones.
        body = str(app.screen.body)
        net = GAME.board_changes(table, d.state, undo=False)
        assert all(line in body for line in net)
        assert ("Make these changes on the board" in body) == bool(net)
        assert "no longer apply" not in body and "put back" not in body
        await pilot.press("enter")
        # The live log is the game as it now stands: the corrected dice, not the old ones.
        entries = [str(e) for e in app.screen.query_one("#rq-log").entries]
        assert entries[-1] == f"✎ corrected step {event_roll + 1}"
        logged = [e for e in entries if e.split(" ", 1)[-1].startswith("Events")]
        assert logged and f"the event: {' '.join(map(str, new))} → {sum(new)}: " in logged[-1]
    assert Store(str(db)).log(sid).steps[event_roll].answer == new


async def test_why_not_explains_every_refused_purchase(tmp_path: Path, clock: Any) -> None:
    """Phase 3: purchases not offered are explained, one sentence each."""
    db = tmp_path / "c.db"
    sid = recorded_game(db, clock, 9, asks("Phase 3"))
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_game(pilot, sid)
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, MessageDialog))
        text = str(app.screen.body)
        assert "Pamplona" in text and "city:" in text
        assert "free of enemy forces" in text or "no city or fortress" in text


async def test_a_session_on_its_own_map_shows_that_map(tmp_path: Path, clock: Any) -> None:
    """A session whose config names its own map and tables files (an imported one can): the
    regions were composed with the shipped board, and drawing an area only the session's map
    has raised KeyError. Now every region shows the session's areas in its colour."""
    root = Path(__file__).resolve().parents[2] / "data" / "reconquista"
    files = {}
    for name in ("map.toml", "tables.toml"):
        text = (root / name).read_text(encoding="utf-8").replace('"Oviedo"', '"Uviéu"')
        files[name] = tmp_path / name
        files[name].write_text(text.replace('colour = "#4f86c6"', 'colour = "#123456"'), encoding="utf-8")
    store = Store(str(tmp_path / "c.db"), clock=clock)
    config = {"dice": "app", "map": str(files["map.toml"]), "tables": str(files["tables.toml"])}
    sid = store.create_session("reconquista", 4, config)
    store.close()
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_game(pilot, sid)
        await pilot.pause()
        region = app.screen.query_one("#region-1", Static)
        assert "Uviéu" in str(region.render()) and "Oviedo" not in str(region.render())
        assert region.styles.border_title_color.hex == "#123456"


async def pick_dice_mode(pilot: Pilot[Any], mode: str) -> None:
    """ctrl+d, then the mode picked in the dialog by its line (arrows and Enter)."""
    from screens.reconquista.dialogs import DICE_MODES, DiceModeDialog

    await pilot.press("ctrl+d")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, DiceModeDialog))
    options = pilot.app.screen.query_one(OptionList)
    options.highlighted = list(DICE_MODES).index(mode)
    await pilot.press("enter")
    await wait_until(pilot, lambda: not isinstance(pilot.app.screen, DiceModeDialog))


@pytest.mark.slow
async def test_ctrl_d_picks_the_dice_mode_and_never_answers_the_roll_waiting(
    tmp_path: Path, clock: Any
) -> None:
    """ctrl+d opens the choice of mode, the one in use marked; picking one keeps it with the
    session from the next roll on: the roll waiting is never answered by the change (physical
    to app left it waiting, to be rolled with r), and escape changes nothing."""
    from screens.reconquista.dialogs import DiceModeDialog

    db = tmp_path / "c.db"
    sid = recorded_game(db, clock, 9, asks("Rebellions: region die"))
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_game(pilot, sid)
        d = driver_of(app)
        assert isinstance(d.pending, Roll)
        steps = len(d.steps)
        await pilot.press("ctrl+d")
        await wait_until(pilot, lambda: isinstance(app.screen, DiceModeDialog))
        options = app.screen.query_one(OptionList)
        marked = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert [m.endswith("(now)") for m in marked] == [True, False, False]  # mixed, in use
        assert options.highlighted == 0
        await pilot.press("escape")
        assert screen(app).mode == "mixed" and len(d.steps) == steps
        await pick_dice_mode(pilot, "physical")
        assert screen(app).mode == "physical"
        await pilot.press("r")  # physical dice: the app does not roll
        assert isinstance(d.pending, Roll) and len(d.steps) == steps
        await pick_dice_mode(pilot, "app")
        assert screen(app).mode == "app"
        assert isinstance(d.pending, Roll) and len(d.steps) == steps  # the roll waiting still waits
        await pilot.press("r")
        await pilot.pause()
        assert d.steps[steps].source == "app" and not isinstance(d.pending, Roll)  # and the next rolls roll


@pytest.mark.slow
async def test_a_whole_game_through_the_screen_ends_like_the_engine(tmp_path: Path, clock: Any) -> None:
    """A whole game played through the screen with app dice ends in the same state as the
    engine-only run of the same seed with the same choices (the last option each time).
    Seed 199 is a whole game of 3 turns (92 steps, 7 choices, every phase): the screen's
    cost is per step (about 0.1 s), so a long game would only make the suite slower."""
    seed = 199
    engine = Driver(GAME, seed)
    while engine.pending is not None:
        p = engine.pending
        if isinstance(p, Roll):
            engine.roll()
        elif isinstance(p, Tell):
            engine.ack()
        else:
            assert isinstance(p, Choose)
            engine.submit(p.options[-1], "player")
    db = tmp_path / "c.db"
    store = Store(str(db), clock=clock)
    sid = store.create_session("reconquista", seed, {"dice": "app"})
    store.close()
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_game(pilot, sid)
        d = driver_of(app)
        while d.pending is not None:
            if isinstance(d.pending, Tell):
                await pilot.press("a")
            else:
                await pilot.press("end", "enter")
        assert d.snapshot() == engine.snapshot()
        assert d.state.phase == "over" and d.state.turn == 3
        assert "Total" in final_text(app)


def inside(widget: Widget, app: CompanionApp) -> bool:
    """``widget`` is shown and the whole of it lies on the screen."""
    region: Region = widget.region
    # A widget whose container is hidden keeps its own ``display``, but has no region.
    return widget.display and bool(region.area) and app.screen.region.contains_region(region)


def text_in(pilot: Pilot[Any], region: Region) -> str:
    """The words the screen shows in ``region``, its rows joined (a wrapped line reads whole)."""
    rows = screen_text(pilot).split("\n")[region.y : region.bottom]
    return " ".join(" ".join(row[region.x : region.right] for row in rows).split())


@pytest.mark.slow
async def test_a_whole_game_by_keys_at_80x24(tmp_path: Path, clock: Any) -> None:
    """The smallest terminal, 80x24: a whole game played from the keyboard alone (Enter for
    each instruction, r for each roll, End Enter for each choice), and at every step the
    question of the moment whole on the screen: the waiting instruction in full, however
    many are confirmed above it (a French or Muslim march was cut after "marches from"), the
    dice field and the options inside the screen (they lay past its right edge). The board
    is one key away (tab, or b) and back; a roll brings the question back by itself."""
    seed = 199  # a whole game of 3 turns with marches and a run of 9 instructions
    db = tmp_path / "c.db"
    store = Store(str(db), clock=clock)
    sid = store.create_session("reconquista", seed, {"dice": "mixed"})
    store.close()
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_game(pilot, sid)
        d = driver_of(app)
        s = screen(app)
        checked = {Tell: 0, Roll: 0, Choose: 0}
        board = s.query_one("#rq-board")
        while d.pending is not None:
            p = d.pending
            await pilot.pause()
            if isinstance(p, Tell):
                checklist = s.query_one("#pp-checklist")
                assert inside(checklist, app)
                assert " ".join(p.text.split()) in text_in(pilot, checklist.region), p.text
                if checked[Tell] == 5:  # once, mid-game: the board in place of the question
                    await pilot.press("b")
                    assert inside(board, app) and not inside(checklist, app)
                    assert "Pamplona" in screen_text(pilot) and "→" in screen_text(pilot)
                    await pilot.press("b")
                    assert inside(checklist, app)
                await pilot.press("enter")
            elif isinstance(p, Roll):
                assert inside(s.query_one("#pp-dice"), app) and app.focused is s.query_one("#pp-dice")
                if checked[Roll] == 3:  # the board is shown, a roll comes: the question is back
                    await pilot.press("tab")  # b would be typed in the dice field
                    assert inside(board, app) and not inside(s.query_one("#pp-dice"), app)
                    await pilot.press("r")
                    assert not inside(board, app)
                    checked[Roll] += 1
                    continue
                await pilot.press("r")
            else:
                assert isinstance(p, Choose)
                options = s.query_one("#pp-options", OptionList)
                assert inside(options, app) and options.option_count == len(p.options)
                await pilot.press("end", "enter")
            checked[type(p)] += 1
        assert d.state.phase == "over" and all(checked.values())
        assert "Total" in final_text(app)


async def test_the_odds_before_a_move_count_el_cid_going_with_it(tmp_path: Path, clock: Any) -> None:
    """Quick Reference Sheet, 8 El Cid: "Attacks first. +2 in siege." The odds under a move's
    options count El Cid when he goes with the force: "if every unit goes", he goes (he "joins a
    force of its side"); for a part of the force, both odds, with him and without him; and on the
    question whether he goes, each answer's odds. Seed 1 asks where Oviedo's army and garrison
    go, with enemies in Santiago and Galicia; El Cid is put in Oviedo with them."""
    from companion.reconquista import movement
    from companion.reconquista.forecast import describe, forecast_move
    from companion.reconquista.units import Kind

    seed = 1
    sid = recorded_game(
        tmp_path / "c.db",
        clock,
        seed,
        lambda d: d.pending is not None and d.pending.topic == movement.DESTINATION_TOPIC,
    )
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_game(pilot, sid)
        s, d = screen(app), driver_of(app)
        state, board = d.state, GAME.board_of(d.state)
        p = d.pending
        assert isinstance(p, Choose) and p.data["origin"] == "Oviedo"
        state.el_cid_area, state.el_cid_side = "Oviedo", "christian"
        every = state.areas["Oviedo"].force("christian")
        header, notes = s._odds(p)
        assert header == "Odds if every unit goes:" and set(notes) == {"Santiago", "Galicia"}
        for dest in notes:
            with_him = describe(forecast_move(board, state, dest, every, with_el_cid=True))
            assert notes[dest] == with_him
        # He strikes first: the battle's odds are not those without him.
        assert all(
            forecast_move(board, state, dest, every, with_el_cid=True).chances
            != forecast_move(board, state, dest, every).chances
            for dest in notes
        )
        # A part of the force: El Cid may stay; both odds are shown.
        part = Choose(
            ["1A", "1G"],
            "which units?",
            topic=movement.UNITS_TOPIC,
            data={"origin": "Oviedo", "destination": "Galicia"},
        )
        _, notes = s._odds(part)
        one = [Kind.ARMY]
        with_him = describe(forecast_move(board, state, "Galicia", one, with_el_cid=True))
        without = describe(forecast_move(board, state, "Galicia", one))
        assert with_him != without and notes["1A"] == (
            f"Battle with El Cid: {with_him.removeprefix('Battle: ')}; without him: {without.removeprefix('Battle: ')}"
        )
        ask = Choose(
            [movement.EL_CID_GOES, "El Cid stays in Oviedo"],
            "does he go?",
            topic=movement.EL_CID_TOPIC,
            data={"origin": "Oviedo", "destination": "Galicia", "units": {"A": 1}},
        )
        header, notes = s._odds(ask)
        assert header == "Odds with and without El Cid:"
        assert notes[movement.EL_CID_GOES] == describe(
            forecast_move(board, state, "Galicia", one, with_el_cid=True)
        )
        assert notes["El Cid stays in Oviedo"] == describe(forecast_move(board, state, "Galicia", one))


@pytest.mark.slow
async def test_a_long_purchase_menu_is_read_and_answered_at_80x24_without_an_arrow(
    tmp_path: Path, clock: Any
) -> None:
    """The question of the moment first: at 80x24 a Phase 3 menu of 14 purchases shows 12 of
    them at once (the log gives way to it, the confirmed instructions fold to the last, the
    income to one line), says how many are below and which, and every option is reached by its
    number: 1 then 2 is the 12th, a 2 alone (no 20th) the 2nd at once; d is Done. No arrow key."""
    from screens.shell.prompt_panel import options_below

    sid = recorded_game(tmp_path / "c.db", clock, 1, lambda d: len(d.steps) >= 521)
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_game(pilot, sid)
        d = driver_of(app)
        p = d.pending
        assert isinstance(p, Choose) and p.topic == "reconquista.income.purchase" and len(p.options) == 14
        await pilot.pause()
        options = app.screen.query_one("#pp-options", OptionList)
        assert not app.screen.query_one("#rq-log").display  # the log gives way to the menu
        below = options_below(options)
        assert below == 2 and options.option_count - below >= 12
        more = str(app.screen.query_one("#pp-more", Static).render())
        assert more.startswith("↓ 2 more below (13-14): type the number")
        chosen = p.options[11]
        await pilot.press("1", "2")
        assert d.steps[-1].answer == chosen  # the 12th, without an arrow
        await pilot.press("enter")  # the instruction of the purchase, carried out
        p = d.pending
        assert isinstance(p, Choose) and p.topic == "reconquista.income.purchase"
        await pilot.press("1")  # could be the 1st or the 10th on: it waits, highlighted
        assert d.pending is p and options.highlighted == 0
        await pilot.press("enter")
        assert d.steps[-1].answer == p.options[0]
        await pilot.press("enter")
        p = d.pending
        assert isinstance(p, Choose)
        await pilot.press("d")
        assert d.steps[-1].answer == p.options[-1] and p.data["done"] is True  # Done


@pytest.mark.slow
async def test_at_80_columns_the_status_line_is_whole_and_a_die_field_fits_its_roll(
    tmp_path: Path, clock: Any
) -> None:
    """Smaller findings at the table: the 80x24 status line was cut ("· Al-Ándalus"); it now
    drops words, never a fact. A die field's example is as many dice as the roll asks ("e.g. 4"
    for one die, not "e.g. 3 5"), and dice refused are cleared from it, the sentence saying why."""
    from screens.shell.prompt_panel import DiceInput

    sid = recorded_game(tmp_path / "c.db", clock, 1, lambda d: len(d.steps) >= 521)
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_game(pilot, sid)
        status = str(app.screen.query_one("#rq-status", Static).render())
        assert status == "Turn 12/20 · Phase 3 · 4 points · Al-Ándalus in revolt   dice: mixed"
        await pilot.resize_terminal(200, 55)
        await pilot.pause()
        status = str(app.screen.query_one("#rq-status", Static).render())
        assert status.startswith("Turn 12 of 20 · Phase 3: Income and spending · 4 points to spend · ")
        d = driver_of(app)
        while not isinstance(d.pending, Roll):  # Done, No movement, the instructions: to a roll
            await pilot.press("enter" if isinstance(d.pending, Tell) else "d")
        p = d.pending
        assert isinstance(p, Roll)
        field = app.screen.query_one("#pp-dice", DiceInput)
        assert field.placeholder == ("e.g. 4, or r" if p.n == 1 else f"e.g. {' '.join('4352'[: p.n])}, or r")
        await pilot.press("9", "enter")
        assert d.pending is p and field.value == ""
        assert "9" in message(app) or "1 to 6" in message(app)


# -- snapshots --------------------------------------------------------------------------


def snap_at(
    snap_compare: Any,
    tmp_path: Path,
    clock: Any,
    until: Callable[[Driver], bool],
    press: tuple[str, ...] = (),
    size: tuple[int, int] = SIZE,
) -> bool:
    sid = recorded_game(tmp_path / "c.db", clock, 9, until)
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)

    async def before(pilot: Pilot[Any]) -> None:
        await open_game(pilot, sid)
        for key in press:
            await pilot.press(key)
        await pilot.pause()

    return bool(snap_compare(app, terminal_size=size, run_before=before))


@pytest.mark.parametrize(
    "prefix",
    [
        "Turn 1 begins",
        "Rebellions: region die",
        "Events: 2D6",
        "Phase 3",
        "Phase 4: select",
    ],
)
def test_snapshot_phase_prompts(snap_compare: Any, tmp_path: Path, clock: Any, prefix: str) -> None:
    assert snap_at(snap_compare, tmp_path, clock, asks(prefix))


def test_snapshot_muslim_reaction(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    assert snap_at(
        snap_compare, tmp_path, clock, lambda d: d.state.phase == "reaction" and isinstance(d.pending, Roll)
    )


def test_snapshot_battle(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    assert snap_at(snap_compare, tmp_path, clock, asks("Battle in"))


def test_snapshot_siege(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    assert snap_at(snap_compare, tmp_path, clock, asks("Siege of"))


def test_snapshot_attack_odds(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    assert snap_at(snap_compare, tmp_path, clock, asks("Move from"))


@pytest.mark.slow
def test_snapshot_end_of_game(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    assert snap_at(snap_compare, tmp_path, clock, lambda d: False)


def test_snapshot_correction(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    assert snap_at(snap_compare, tmp_path, clock, asks("Phase 3"), press=("c",))


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda size: f"{size[0]}x{size[1]}")
@pytest.mark.parametrize("moment", ["march", "roll"])
def test_snapshot_sizes(
    snap_compare: Any, tmp_path: Path, clock: Any, moment: str, size: tuple[int, int]
) -> None:
    """The screen at each size at two moments: a Muslim march waiting under the instruction
    just confirmed (the instruction whole), and a roll (its field on the screen)."""
    until: Callable[[Driver], bool] = asks("Rebellions: region die")
    press: tuple[str, ...] = ()
    if moment == "march":
        # Seed 9, step 94: "The Muslim force marches from Córdoba with 3 Muslim armies."
        until, press = (lambda d: len(d.steps) == 93), ("enter",)
    assert snap_at(snap_compare, tmp_path, clock, until, press, size)


def test_snapshot_new_game_dialog(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)

    async def before(pilot: Pilot[Any]) -> None:
        await store_ready(pilot)
        app.start_game("reconquista")
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameDialog))

    assert snap_compare(app, terminal_size=SIZE, run_before=before)


def test_snapshot_large_terminal(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    sid = recorded_game(tmp_path / "c.db", clock, 9, asks("Phase 4: select"))
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)

    async def before(pilot: Pilot[Any]) -> None:
        await open_game(pilot, sid)

    assert snap_compare(app, terminal_size=(160, 45), run_before=before)


@pytest.mark.slow
async def test_manual_correction_of_an_area_is_logged_and_replayed(tmp_path: Path, clock: Any) -> None:
    """A manual correction sets an area to what the table shows; it is its own event in
    the log, survives a resume and a replay, and a bad line changes nothing."""
    from companion.cli import main as cli_main
    from screens.reconquista.dialogs import EditAreaDialog

    db = tmp_path / "c.db"
    sid = recorded_game(db, clock, 9, asks("Phase 3"))
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_game(pilot, sid)
        d = driver_of(app)
        pending = d.pending
        for text, ok in (("M 9Z", False), ("city muslim; fortress; M 2A1G; C 1A; siege by C", True)):
            await pilot.press("e")
            await wait_until(pilot, lambda: isinstance(app.screen, EditAreaDialog))
            areas = app.screen.query_one(OptionList)
            areas.highlighted = next(
                i for i in range(areas.option_count) if areas.get_option_at_index(i).id == "Toledo"
            )
            await pilot.press("enter")
            app.screen.query_one("#edit-text", Input).value = text
            await pilot.press("enter")
            if not ok:  # refused: the dialog stays open with the line and the reason
                await pilot.pause()
                said = str(app.screen.query_one("#edit-message", Static).render())
                assert "is not a force" in said or "not understood" in said
                assert app.screen.query_one("#edit-text", Input).value == text
                assert d.steps[-1].source != "edit"
                await pilot.press("escape")
            await wait_until(pilot, lambda: isinstance(app.screen, ReconquistaScreen))
        toledo = d.state.areas["Toledo"]
        assert (
            toledo.besieger == "christian" and toledo.count("muslim") == 3 and toledo.count("christian") == 1
        )
        assert d.steps[-1].source == "edit" and d.pending == pending  # the question still waits
    events = Store(str(db)).events(sid)
    assert events[-1].prompt is not None and events[-1].prompt["kind"] == "edit"
    assert cli_main(["--db", str(db), "replay", str(sid)]) == 0
    resumed = Driver.resume(GAME, 9, {"dice": "mixed"}, Store(str(db)).log(sid).steps)
    assert resumed.state.areas["Toledo"].besieger == "christian"
