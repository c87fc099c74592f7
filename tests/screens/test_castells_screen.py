"""The Terra de Castells screen driven as the players would (Pilot), and its snapshots
(SVGs in snapshots/test_castells_screen/)."""

from __future__ import annotations

import io
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from castells_helpers import feed, setup_answers, table
from pilot_helpers import screen_text, wait_until
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import Input, RichLog, Static

from companion.castells.battle import ACCEPT, APPLY, STOP, reroll_option
from companion.castells.game import ATTACK, ATTACK_NEAR, GAME
from companion.driver import Driver
from companion.prompts import Choose, Enter, Roll, Tell, edit_prompt
from companion.store.db import Store
from screens.app import CompanionApp
from screens.castells.edit_dialog import EditDialog
from screens.castells.game_screen import CastellsScreen
from screens.castells.views import castles_text
from screens.home import HomeScreen
from screens.shell.dialogs import MessageDialog

SIZE = (110, 34)
SETUP = setup_answers(["Anna", "Bo"], [2, 1], {"Anna": ["Tortosa", "Mora"], "Bo": ["Lleida", "Siurana"]})
SARACEN_ATTACK = [
    *SETUP,
    "Migdia",
    ATTACK_NEAR,
    "Tortosa (Anna)",
    "",
    [1, 2, 3, 5, 6],
    [5, 1, 1],
    [1, 1],
    [5, 1, 1, 1, 1],
]


def recorded(path: Path, clock: Any, answers: Sequence[Any], seed: int = 4, ack_last: bool = True) -> int:
    """A Castells session in the database at ``path``, ``answers`` given (Tells acknowledged on the way)."""
    store = Store(str(path), clock=clock)
    sid = store.create_session("castells", seed)
    d = Driver(GAME, seed, recorder=store.recorder(sid))
    feed(d, answers, ack_last)
    store.close()
    return sid


def screen(app: CompanionApp) -> CastellsScreen:
    s = app.screen
    assert isinstance(s, CastellsScreen)
    return s


def driver_of(app: CompanionApp) -> Driver:
    d = screen(app).driver
    assert d is not None
    return d


async def open_session(pilot: Pilot[Any], sid: int) -> None:
    await wait_until(pilot, lambda: pilot.app.store_ready)
    pilot.app.open_session(sid)
    await wait_until(
        pilot, lambda: isinstance(pilot.app.screen, CastellsScreen) and screen(pilot.app).driver is not None
    )


@pytest.mark.slow
async def test_a_new_game_from_the_palette_action_is_set_up_with_keys(tmp_path: Path, clock: Any) -> None:
    """Setup with the keyboard: a number key picks, names are typed, Enter alone takes the default."""
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=2, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.store_ready)
        app.start_game("castells")
        await wait_until(pilot, lambda: isinstance(app.screen, CastellsScreen))
        d = driver_of(app)
        assert isinstance(d.pending, Choose) and d.pending.options == ("2", "3", "4")
        await pilot.press("2")  # 2 players: the count's own digit
        assert isinstance(d.pending, Enter)
        await pilot.press(*"Anna", "enter")
        await pilot.press("enter")  # 'Player 2'
        assert [s.answer for s in d.steps] == ["2", "Anna", "Player 2"]
        await pilot.press("2")  # Player 2 plays first
        await pilot.press(*"4", "enter")
        await pilot.press("enter")  # Anna keeps the suggested 3
        assert [(p.name, p.army) for p in d.state.players] == [("Player 2", 4), ("Anna", 3)]
        await pilot.press("1", "enter")  # Player 2 holds Castellvi (1 could begin 10-19: Enter takes it)
        await pilot.press("1", "0")  # Mora, the board's 10th castle, as numbered before Castellvi was taken
        held = [c for c, o in d.state.owners.items() if o == "Player 2"]
        assert held == ["Castellvi", "Mora"]
        store = app.store()
        sid = screen(app).session_id
        assert store.session(sid).game == "castells" and store.answer_count(sid) == len(d.steps)


@pytest.mark.slow
async def test_draw_roll_confirm_and_undo_with_keys(tmp_path: Path, clock: Any) -> None:
    """Enter alone on the draw lets the app draw the token from the bag, a number typed picks
    it, dice are typed or rolled by the app, Enter confirms an instruction, ctrl+z takes back
    the last answer; every answer is in the store."""
    db = tmp_path / "c.db"
    sid = recorded(db, clock, SETUP)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_session(pilot, sid)
        d = driver_of(app)
        assert isinstance(d.pending, Choose) and "Draw a territory token" in d.pending.why
        left = sum(d.state.bag.values())
        await pilot.press("enter")
        assert sum(d.state.bag.values()) == left - 1 and d.steps[-1].source == "app"
        drawn = d.steps[-1].answer
        assert d.state.discarded == [drawn]
        await pilot.press("ctrl+z")
        assert sum(d.state.bag.values()) == left and isinstance(d.pending, Choose)
        # The undo ends with what to put back on the table: the token, into the bag.
        await wait_until(pilot, lambda: isinstance(app.screen, MessageDialog))
        assert f"Bag: put 1 {drawn} token back into the bag" in str(app.screen.body)
        await pilot.press("enter")
        await pilot.press("2", "enter")  # Migdia, the physical draw typed by its number
        assert d.state.drawn == "Migdia"
        await pilot.press("2")  # attack a castle near the Saracen
        await pilot.press("1")  # Tortosa
        await pilot.press("enter")  # Anna's army as the app has it
        assert isinstance(d.pending, Roll) and d.pending.n == 5
        await pilot.press("r")
        assert d.steps[-1].source == "app"
        while isinstance(d.pending, Roll) and d.pending.why.startswith("The Saracens"):
            await pilot.press("r")
        if isinstance(d.pending, Roll):  # the defender types its dice
            await pilot.press(*"51111", "enter")
            assert d.steps[-1].source == "physical" and d.steps[-1].answer == [5, 1, 1, 1, 1]
        while isinstance(d.pending, Choose) and ACCEPT in d.pending.options:
            await pilot.press("2")
        # Before the result: does a favour card change the battle? 1: no, apply the result.
        assert isinstance(d.pending, Choose) and d.pending.topic == "castells.battle.favour"
        await pilot.press("1")
        assert isinstance(d.pending, Tell)
        told = len(d.steps)
        await pilot.press("enter")
        assert len(d.steps) == told + 1 and d.steps[-1].source == "ack"
        store = app.store()
        assert store.log(sid).steps == d.steps


async def test_the_draw_is_typed_and_enter_alone_lets_the_app_draw(tmp_path: Path, clock: Any) -> None:
    """The draw from the bag is a field with the focus: "riu" + Enter is the player's Riu (its r
    no app draw, its letters no key); Enter alone on the next draw is the app's."""
    from textual.widgets import Input, OptionList

    db = tmp_path / "c.db"
    sid = recorded(db, clock, SETUP)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_session(pilot, sid)
        d = driver_of(app)
        field = app.screen.query_one("#pp-dice", Input)
        assert app.focused is field and "Enter alone: app draws" in field.placeholder
        assert not app.screen.query_one("#pp-options", OptionList).can_focus
        steps, riu = len(d.steps), d.state.bag["Riu"]
        await pilot.press(*"riu")
        assert field.value == "riu" and len(d.steps) == steps  # typed, nothing drawn yet
        await pilot.press("enter")
        assert len(d.steps) == steps + 1
        assert (d.steps[-1].answer, d.steps[-1].source) == ("Riu", "player")
        assert d.state.drawn == "Riu" and d.state.bag["Riu"] == riu - 1
    assert Store(str(db)).log(sid).steps[-1].source == "player"


async def test_no_letter_typed_on_the_draw_is_a_key(tmp_path: Path, clock: Any) -> None:
    """c (correct a die) and e (fix by hand) are letters of the territory typed: "bosc" is typed
    whole, no dialog opens; Enter on an empty field then lets the app draw."""
    from textual.widgets import Input

    db = tmp_path / "c.db"
    sid = recorded(db, clock, SETUP)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_session(pilot, sid)
        d = driver_of(app)
        steps = len(d.steps)
        field = app.screen.query_one("#pp-dice", Input)
        await pilot.press(*"e", "c", "r")
        await pilot.pause()
        assert isinstance(app.screen, CastellsScreen) and field.value == "ecr" and len(d.steps) == steps
        await pilot.press("ctrl+a", "ctrl+k")  # the field emptied
        await pilot.press("enter")
        assert len(d.steps) == steps + 1 and d.steps[-1].source == "app"
        assert d.steps[-1].answer == d.state.discarded[-1]


async def test_the_player_count_is_picked_with_its_own_digit(tmp_path: Path, clock: Any) -> None:
    """The counts 2, 3, 4 are listed as themselves: 3 is 3 players (not the third, 4); 1 is no count."""
    from textual.widgets import OptionList

    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=2, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.store_ready)
        app.start_game("castells")
        await wait_until(pilot, lambda: isinstance(app.screen, CastellsScreen))
        d = driver_of(app)
        listing = app.screen.query_one("#pp-options", OptionList)
        shown = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        assert shown == ["2", "3", "4"]
        await pilot.press("1")
        assert d.steps == [] and "Press 2, 3 or 4." in str(app.screen.query_one("#pp-message").render())
        await pilot.press("3")
        assert [s.answer for s in d.steps] == ["3"]
        assert isinstance(d.pending, Enter)


async def test_a_bad_roll_is_one_sentence_and_changes_nothing(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    sid = recorded(db, clock, [*SETUP, "Migdia", ATTACK_NEAR, "Tortosa (Anna)", ""])
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_session(pilot, sid)
        d = driver_of(app)
        steps = len(d.steps)
        await pilot.press(*"5 7", "enter")
        message = str(app.screen.query_one("#pp-message").render())
        assert "5d6 needs 5 dice, not 2." in message
        assert len(d.steps) == steps


@pytest.mark.slow
async def test_a_correction_by_hand_is_a_logged_step(tmp_path: Path, clock: Any) -> None:
    """e opens the correction line: 'army Anna 5' is logged as an edit; a bad line is one sentence.
    (At a list: where a field waits, e is a letter typed, and the palette has "Fix by hand".)"""
    db = tmp_path / "c.db"
    sid = recorded(db, clock, [*SETUP, "Migdia"])
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_session(pilot, sid)
        d = driver_of(app)
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, EditDialog))
        await pilot.press(*"army Anna 5", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, CastellsScreen))
        assert d.state.player("Anna").army == 5 and d.steps[-1].source == "edit"
        assert app.store().log(sid).steps[-1].prompt.describe() == "Anna has 5 army points"
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, EditDialog))
        await pilot.press(*"castle Atlantis Anna", "enter")
        await pilot.pause()
        # Refused: the dialog stays open with the line as typed and the reason under it.
        assert isinstance(app.screen, EditDialog)
        assert "'Atlantis' is not a castle" in str(app.screen.query_one("#ed-error").render())
        assert app.screen.query_one("#ed-line", Input).value == "castle Atlantis Anna"
        assert d.steps[-1].prompt.describe() == "Anna has 5 army points"
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, CastellsScreen))


@pytest.mark.slow
async def correct_in_dialog(pilot: Pilot[Any], step: int, dice: str) -> None:
    """c, the roll of ``step`` picked in the correction dialog, ``dice`` typed: up to the
    dialog saying what the correction changed."""
    from textual.widgets import Input, OptionList

    from screens.shell.step_dialogs import CorrectionDialog

    app = pilot.app
    await pilot.press("c")
    await wait_until(pilot, lambda: isinstance(app.screen, CorrectionDialog))
    options = app.screen.query_one(OptionList)
    options.highlighted = next(
        i for i in range(options.option_count) if options.get_option_at_index(i).id == str(step)
    )
    await pilot.press("enter")
    app.screen.query_one("#corr-dice", Input).value = dice
    await pilot.press("enter")
    await wait_until(pilot, lambda: isinstance(app.screen, MessageDialog))


async def test_correcting_a_battle_die_typed_earlier(tmp_path: Path, clock: Any) -> None:
    """Saracen battle: "the defender must match or beat its successes" - Anna's first roll was
    mistyped (1 hit where she had 3): corrected with c, the game re-runs from that roll, Tortosa
    holds, and the log keeps the corrected dice."""

    db = tmp_path / "c.db"
    sid = recorded(db, clock, SARACEN_ATTACK)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_session(pilot, sid)
        d = driver_of(app)
        anna = max(i for i, s in enumerate(d.steps) if isinstance(s.prompt, Roll))
        assert d.steps[anna].answer == [5, 1, 1, 1, 1] and d.state.battle.result is None
        await correct_in_dialog(pilot, anna, "5 5 6 1 1")
        assert "Tortosa holds" in str(app.screen.body)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, CastellsScreen))
        assert d.steps[anna].answer == [5, 5, 6, 1, 1]
        assert "Corrected step" in str(app.screen.query_one("#pp-message").render())
    assert Store(str(db)).log(sid).steps[anna].answer == [5, 5, 6, 1, 1]


@pytest.mark.slow
async def test_one_ctrl_z_takes_a_correction_back_whole(tmp_path: Path, clock: Any) -> None:
    """Issue #32: "A correction is itself undone by one ctrl+z, which restores the log exactly
    as before it." """

    from screens.shell.dialogs import ConfirmDialog

    db = tmp_path / "c.db"
    sid = recorded(db, clock, SARACEN_ATTACK)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_session(pilot, sid)
        d = driver_of(app)
        before = [(s.prompt, s.answer, s.source) for s in d.steps]
        state = d.snapshot()
        anna = max(i for i, s in enumerate(d.steps) if isinstance(s.prompt, Roll))
        await correct_in_dialog(pilot, anna, "5 5 6 1 1")
        assert "ctrl+z takes the correction back" in str(app.screen.body)
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, CastellsScreen))
        assert d.steps[anna].answer == [5, 5, 6, 1, 1]
        await pilot.press("ctrl+z")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmDialog))
        assert f"correction of step {anna + 1}" in app.screen.question
        await pilot.press("y")
        await pilot.pause()
        while not isinstance(app.screen, CastellsScreen):
            await pilot.press("enter")
            await pilot.pause()
        assert [(s.prompt, s.answer, s.source) for s in d.steps] == before
        assert d.snapshot() == state
    assert [(s.prompt, s.answer, s.source) for s in Store(str(db)).log(sid).steps] == before


async def test_the_session_resumes_where_it_stood_and_escape_goes_back(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    sid = recorded(db, clock, SARACEN_ATTACK)
    expected = Driver.resume(GAME, 4, {}, Store(str(db), clock=clock).log(sid).steps).snapshot()
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_session(pilot, sid)
        assert driver_of(app).snapshot() == expected
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen))
        assert [s.id for s in app.store().sessions(game="castells")] == [sid]


@pytest.mark.slow
async def test_castells_starts_from_the_home_screen_and_resumes_from_it(tmp_path: Path, clock: Any) -> None:
    """Home: Terra de Castells is a game to pick; its unfinished session is listed with its summary."""
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=2, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.store_ready)
        await pilot.press("down", "down", "enter")
        await wait_until(pilot, lambda: isinstance(app.screen, CastellsScreen))
        await pilot.press("2", *"Bernat", "enter")  # an r typed in a name stays in the name
        d = driver_of(app)
        assert d.steps[-1].answer == "Bernat"
        await pilot.press("escape")
        await wait_until(pilot, lambda: isinstance(app.screen, HomeScreen))
        sessions = app.store().sessions(game="castells", status="active")
        assert len(sessions) == 1 and sessions[0].summary == "Setting up"
        app.resume_session(sessions[0].id)
        await wait_until(
            pilot, lambda: isinstance(app.screen, CastellsScreen) and screen(app).driver is not None
        )
        assert driver_of(app).steps[-1].answer == "Bernat"


async def new_game(pilot: Pilot[Any]) -> Driver:
    """A new Castells game from the palette's action, its driver."""
    await wait_until(pilot, lambda: pilot.app.store_ready)
    pilot.app.start_game("castells")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, CastellsScreen))
    return driver_of(pilot.app)


@pytest.mark.slow
async def test_a_pasted_name_is_stored_as_pasted(tmp_path: Path, clock: Any) -> None:
    """A player's name pasted from a browser arrives whole, its r where it was."""
    from textual import events
    from textual.widgets import Input

    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=2, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        d = await new_game(pilot)
        await pilot.press("2")
        for name in ("Marta Ferrer", "Bernat Roure"):
            assert isinstance(d.pending, Enter) and isinstance(app.focused, Input)
            app.focused.post_message(events.Paste(name))
            await pilot.pause()
            await pilot.press("enter")
        assert [(s.answer, s.source) for s in d.steps[1:]] == [
            ("Marta Ferrer", "player"),
            ("Bernat Roure", "player"),
        ]
    assert [s.answer for s in Store(str(tmp_path / "c.db")).log(1).steps] == [
        "2",
        "Marta Ferrer",
        "Bernat Roure",
    ]


@pytest.mark.slow
async def test_a_name_typed_fast_is_stored_as_typed_and_no_letter_is_a_key(
    tmp_path: Path, clock: Any
) -> None:
    """A name typed key by key keeps every letter in its place; in the name field e is a letter
    (no correction dialog opens), r too (no app roll), c too (no die correction)."""
    from textual.widgets import Input

    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=2, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        d = await new_game(pilot)
        await pilot.press("2", *"Marta", "space", *"Ferrer", "enter")
        assert d.steps[-1].answer == "Marta Ferrer"
        field = app.screen.query_one("#pp-dice", Input)
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, CastellsScreen) and field.value == "e"
        await pilot.press(*"rc", "enter")
        assert [s.answer for s in d.steps] == ["2", "Marta Ferrer", "erc"]
    assert [s.answer for s in Store(str(tmp_path / "c.db")).log(1).steps] == ["2", "Marta Ferrer", "erc"]


async def test_a_broken_data_file_is_one_sentence_not_a_crash(tmp_path: Path, clock: Any) -> None:
    """A session whose castles file does not validate says so (file and field) and stays on the home screen."""
    bad = tmp_path / "castles.toml"
    bad.write_text(
        '[saracen]\nstart = "Camp"\n[[castle]]\nname = "A"\nterritory = "Atlantis"\n', encoding="utf-8"
    )
    store = Store(str(tmp_path / "c.db"), clock=clock)
    sid = store.create_session("castells", 1, {"castles": str(bad)})
    store.close()
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=2, clock=clock)
    notes: list[str] = []
    async with app.run_test(size=SIZE) as pilot:
        await wait_until(pilot, lambda: app.store_ready)
        app.notify = lambda message, **kw: notes.append(str(message))  # type: ignore[method-assign]
        app.open_session(sid)
        await pilot.pause(0.2)
        assert isinstance(app.screen, HomeScreen)
        assert notes and str(bad) in notes[0] and "field castle" in notes[0]


# -- snapshots ---------------------------------------------------------------------------------


def snapshot_of(
    snap_compare: Any,
    tmp_path: Path,
    clock: Any,
    answers: Sequence[Any],
    seed: int = 4,
    ack_last: bool = True,
    size: tuple[int, int] = SIZE,
    theme: str | None = None,
) -> bool:
    db = tmp_path / "c.db"
    sid = recorded(db, clock, answers, seed, ack_last)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    if theme is not None:
        app.theme = theme

    async def before(pilot: Pilot[Any]) -> None:
        await open_session(pilot, sid)

    return bool(snap_compare(app, terminal_size=size, run_before=before))


def test_snapshot_setup(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    assert snapshot_of(snap_compare, tmp_path, clock, ["2", "Anna", "Bo", "Anna", "2", "1", "Tortosa"])


def test_snapshot_draw_from_the_bag(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    assert snapshot_of(snap_compare, tmp_path, clock, SETUP)


def test_snapshot_saracens_woken(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    assert snapshot_of(snap_compare, tmp_path, clock, [*SETUP, "Riu", "End Anna's turn", "Levant"])


def test_snapshot_army_points_asked_at_an_attack(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    assert snapshot_of(snap_compare, tmp_path, clock, [*SETUP, "Migdia", ATTACK_NEAR, "Tortosa (Anna)"])


def test_snapshot_correction_dialog(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    sid = recorded(db, clock, [*SETUP, "Migdia"])
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)

    async def before(pilot: Pilot[Any]) -> None:
        await open_session(pilot, sid)
        await pilot.press("e")
        await wait_until(pilot, lambda: isinstance(app.screen, EditDialog))
        await pilot.press(*"army Bo 3")

    assert snap_compare(app, terminal_size=SIZE, run_before=before)


def test_snapshot_defender_reroll_with_odds(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    assert snapshot_of(snap_compare, tmp_path, clock, SARACEN_ATTACK)


def test_snapshot_saracens_take_a_castle(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    """Stopped at the instruction, the battle still on screen."""
    answers = [*SARACEN_ATTACK, reroll_option(4), [6, 2, 2, 2], reroll_option(3), [1, 1, 1], APPLY]
    assert snapshot_of(snap_compare, tmp_path, clock, answers, ack_last=False)


def test_snapshot_actions_menu_at_80x24(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    """Phase 3's menu on the narrow screen: each action its rule allows Anna (no favour card with
    T: she has bought none), the count, and the line saying that w tells why the others are absent."""
    assert snapshot_of(snap_compare, tmp_path, clock, [*SETUP, "Riu"], size=(80, 24))


def test_snapshot_attacker_reroll_with_odds(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    """The attacker's reroll in a battle between players, with its chance to take the castle."""
    answers = [*SETUP, "Riu", ATTACK, "Lleida (Bo)", "", "", [5, 5, 1, 1, 1, 1]]
    assert snapshot_of(snap_compare, tmp_path, clock, answers)


def test_snapshot_player_battle_with_the_black_die(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    answers = [*SETUP, "Riu", ATTACK, "Lleida (Bo)", "", "", [5, 5, 1, 1, 1, 1], STOP, [5, 1, 1, 1, 1]]
    assert snapshot_of(snap_compare, tmp_path, clock, answers)


_TURN = ["Riu", "End Anna's turn", "Bosc", "End Bo's turn"]
#: A whole game of two players, century XI to XV: each turn a draw from the bag and no action.
GAME_OVER = [
    *SETUP,
    *_TURN,
    *_TURN,
    "Riu",
    "End Anna's turn",
    "Muntanya",
    "End Bo's turn",
    "Muntanya",
    "End Anna's turn",
    "Muntanya",
    "End Bo's turn",
    "Bosc",
    "End Anna's turn",
    "Bosc",
    "End Bo's turn",
]


def test_snapshot_game_over(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    answers = GAME_OVER
    db = tmp_path / "probe.db"
    store = Store(str(db), clock=clock)
    sid = store.create_session("castells", 4)
    d = Driver(GAME, 4, recorder=store.recorder(sid))
    feed(d, answers)
    store.close()
    assert d.finished, d.pending
    assert snapshot_of(snap_compare, tmp_path, clock, answers)


async def test_a_game_over_offers_nothing_to_roll_or_draw(tmp_path: Path, clock: Any) -> None:
    """Once the game is over the footer no longer offers r, "Roll / draw (app)": nothing is left
    to roll or draw. Fixing the table by hand stays."""
    sid = recorded(tmp_path / "c.db", clock, GAME_OVER)
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_session(pilot, sid)
        await pilot.pause()
        footer = screen_text(pilot).splitlines()[-1]
        assert "Fix by hand" in footer and "Roll" not in footer


#: The layouts by the terminal's size: narrow (80x24), the usual (120x40), wide with the log (200x55).
SIZES = [(80, 24), (120, 40), (200, 55)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_battle_at_each_size(
    snap_compare: Any, tmp_path: Path, clock: Any, size: tuple[int, int]
) -> None:
    """A battle with dice on both sides and the defender's reroll asked: at 80x24 the battle,
    the question and its options are all on screen, the state in a narrow column."""
    assert snapshot_of(snap_compare, tmp_path, clock, SARACEN_ATTACK, size=size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_draw_at_each_size(
    snap_compare: Any, tmp_path: Path, clock: Any, size: tuple[int, int]
) -> None:
    """The draw from the bag: its field, the hint and the territories numbered under it."""
    assert snapshot_of(snap_compare, tmp_path, clock, SETUP, size=size)


async def test_a_resize_keeps_the_text_typed_and_changes_the_layout(tmp_path: Path, clock: Any) -> None:
    """80 columns: the narrow layout (each player's castles on a line); 200: the wide one with
    the log of the answers; the letters typed in the draw's field stay through both."""
    from textual.widgets import Input

    db = tmp_path / "c.db"
    sid = recorded(db, clock, SETUP)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_session(pilot, sid)
        s = screen(app)
        assert s.has_class("-narrow") and not s.query_one("#cs-log").display
        assert "Anna: Tortosa, Mora" in str(s.query_one("#cs-castles", Static).render())
        steps = len(driver_of(app).steps)
        await pilot.press(*"ri")
        await pilot.resize_terminal(200, 55)
        await pilot.pause()
        assert s.has_class("-wide") and s.query_one("#cs-log").display
        assert "1 Setup: how many players? → 2" in screen_text(pilot)
        assert s.query_one("#pp-dice", Input).value == "ri" and len(driver_of(app).steps) == steps


async def test_a_castle_and_its_holder_wrap_in_their_own_column() -> None:
    """With long names ("Player 3") a territory's row wraps: each castle keeps its holder in its
    own column and whole, so no line under a territory starts with a holder, and no holder is
    cut in two ('Agramunt Player' / '3' read as a castle named 3)."""
    from textual.app import App

    names = ("Player 1", "Player 2", "Player 3")
    board, state = table({}, dict.fromkeys(names, 3))
    for i, castle in enumerate(board.castles):
        state.owners[castle] = names[i % 3]
    territories = {t.name for t in board.territories}
    async with App().run_test() as pilot:
        out = io.StringIO()
        Console(file=out, width=58, color_system=None).print(castles_text(pilot.app.screen, state, board))
    lines = out.getvalue().splitlines()
    rows = lines[: lines.index(next(line for line in lines if line.startswith("☾")))]
    assert len(rows) > len(territories)  # the rows do wrap at this width
    width = max(map(len, territories))
    for line in rows:
        start = line[:width].strip()
        assert start in territories or start == "", line
    # Each castle's holder follows it whole: on its line, or on the next in the same column.
    for castle in board.castles:
        row = next(i for i, line in enumerate(rows) if castle in line)
        column = rows[row].index(castle)
        after = rows[row][column + len(castle) :].split()
        below = (rows[row + 1] if row + 1 < len(rows) else "")[column:].split()
        holder = state.owners[castle].split()  # ["Player", "1"]
        assert after[:2] == holder or (after[:1] != holder[:1] and below[:2] == holder), castle


@pytest.mark.slow
async def test_the_log_is_drawn_again_at_its_new_width_after_a_resize(tmp_path: Path, clock: Any) -> None:
    """The log's lines are drawn at the log's width: narrower (still the wide layout), they fit
    it, none cut off; an answer given at 120x40 (no log) shows at 200x55 at the log's width,
    not at the width of a log not yet laid out."""
    db = tmp_path / "c.db"
    sid = recorded(db, clock, SETUP)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=(200, 55)) as pilot:
        await open_session(pilot, sid)
        d = driver_of(app)
        log = screen(app).query_one("#cs-log", RichLog)
        wide = max(len(line) for line in log_lines(app))
        await pilot.resize_terminal(165, 55)
        await wait_until(pilot, lambda: max(len(line) for line in log_lines(app)) < wide)
        assert max(len(line) for line in log_lines(app)) <= log.scrollable_content_region.width
        await pilot.resize_terminal(120, 40)
        await pilot.pause()
        steps = len(d.steps)
        await pilot.press(*"riu", "enter")
        await wait_until(pilot, lambda: len(d.steps) == steps + 1)
        await pilot.resize_terminal(200, 55)
        await pilot.pause()
        await pilot.pause()
        lines = log_lines(app)
        drawn = next(i for i, line in enumerate(lines) if "Anna: Draw a territory token" in line)
        assert len(lines[drawn].strip()) > 40  # the log's width, not 20 columns a line
        assert max(len(line) for line in lines) <= log.scrollable_content_region.width


def log_lines(app: CompanionApp) -> list[str]:
    """The lines the log of the answers holds (the wide layout's), as the screen shows them."""
    return [line.text.rstrip() for line in screen(app).query_one("#cs-log", RichLog).lines]


@pytest.mark.slow
async def test_the_log_gains_each_answer_and_an_undo_takes_it_out(tmp_path: Path, clock: Any) -> None:
    """At 200x55 the log of the answers ends with the step just answered, the lines before it as
    they were; after an undo it no longer holds the step taken back."""
    db = tmp_path / "c.db"
    sid = recorded(db, clock, SETUP)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=(200, 55)) as pilot:
        await open_session(pilot, sid)
        d = driver_of(app)
        steps = len(d.steps)
        before = log_lines(app)
        assert before[0].strip().startswith("1 Setup: how many players? → 2")
        log = screen(app).query_one("#cs-log", RichLog)
        drawn = list(log.lines)
        await pilot.press(*"riu", "enter")
        await wait_until(pilot, lambda: len(d.steps) == steps + 1)
        after = log_lines(app)
        assert after[: len(before)] == before
        # Added at the end, the lines before it not drawn again (they were, at every answer).
        assert all(new is old for new, old in zip(log.lines, drawn, strict=False))
        assert f"{steps + 1} Anna: Draw a territory token" in after[len(before)].strip()
        assert "→ Riu" in " ".join(after[len(before) :])
        await pilot.press("ctrl+z")
        await wait_until(pilot, lambda: len(d.steps) == steps)
        if isinstance(app.screen, MessageDialog):  # what to put back on the table
            await pilot.press("enter")
            await wait_until(pilot, lambda: isinstance(app.screen, CastellsScreen))
        assert log_lines(app) == before


@pytest.mark.slow
async def test_a_long_games_log_starts_with_a_steps_first_line_and_stays_short(
    tmp_path: Path, clock: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As answers are added the log does not grow without end, and it never starts with the
    second line of a step whose number has gone (a RichLog trimming its oldest lines did that):
    once it holds twice LOG_STEPS steps it is written again with the newest LOG_STEPS. Small
    here (4), so that twenty answers cross it more than once; the long setup lines wrap."""
    from companion.castells import bag as bags
    from screens.castells import game_screen

    monkeypatch.setattr(game_screen, "LOG_STEPS", 4)
    db = tmp_path / "c.db"
    sid = recorded(db, clock, SETUP)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=(200, 55)) as pilot:
        await open_session(pilot, sid)
        d = driver_of(app)
        start = len(d.steps)
        rewritten = False
        while len(d.steps) < start + 20 and d.pending is not None:
            p, steps = d.pending, len(d.steps)
            if isinstance(p, Roll):
                await pilot.press("r")
            elif isinstance(p, Choose) and p.topic == bags.DRAW_TOPIC:  # typed, as drawn from the bag
                await pilot.press(*p.options[0].lower(), "enter")
            elif isinstance(p, Choose):
                # The first option: 1 at once, or 1 then Enter where 1 could begin 10 or more.
                await pilot.press(*(["1"] if len(p.options) <= 9 else ["1", "enter"]))
            else:
                await pilot.press("enter")
            await wait_until(pilot, lambda steps=steps: len(d.steps) > steps)
            numbered = [line.split()[0] for line in log_lines(app) if line[:4].strip().isdigit()]
            assert log_lines(app)[0][:4].strip().isdigit(), log_lines(app)[0]  # a step's first line
            numbers = [int(n) for n in numbered]
            assert numbers == list(range(numbers[0], len(d.steps) + 1))  # no gap, the newest last
            assert len(numbers) <= 2 * 4
            rewritten = rewritten or numbers[0] > start - 4 + 1
        assert rewritten and len(d.steps) >= start + 20


# -- found playing at the table (issue #19) ----------------------------------------------------


def footer_keys(app: CompanionApp) -> list[str]:
    from textual.widgets._footer import FooterKey

    return [k.key for k in app.screen.query(FooterKey)]


@pytest.mark.slow
async def test_a_confirms_every_instruction_up_to_the_next_question(tmp_path: Path, clock: Any) -> None:
    """The panel says 'a: all done' under an instruction: a confirms the Saracen's place and
    the century's reminder at once, and the draw is asked."""
    db = tmp_path / "c.db"
    sid = recorded(db, clock, SETUP, ack_last=False)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_session(pilot, sid)
        d = driver_of(app)
        assert isinstance(d.pending, Tell)
        told = len(d.steps)
        await pilot.press("a")
        assert isinstance(d.pending, Choose) and "Draw a territory token" in d.pending.why
        assert len(d.steps) == told + 2 and all(isinstance(s.prompt, Tell) for s in d.steps[told:])


async def test_the_footer_offers_the_roll_once_the_army_is_typed(tmp_path: Path, clock: Any) -> None:
    """The army points typed (r is a letter there, off the footer), the dice are asked in the
    same field: the footer shows r, e and c again, as the keys do."""
    db = tmp_path / "c.db"
    sid = recorded(db, clock, [*SETUP, "Migdia", ATTACK_NEAR, "Tortosa (Anna)"])
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_session(pilot, sid)
        d = driver_of(app)
        assert isinstance(d.pending, Enter)
        await pilot.pause()
        assert "r" not in footer_keys(app)
        await pilot.press("enter")
        assert isinstance(d.pending, Roll)
        await pilot.pause()
        assert {"r", "e", "c"} <= set(footer_keys(app))


async def test_a_digit_past_the_list_says_which_keys_pick(tmp_path: Path, clock: Any) -> None:
    """The Saracens' two options: 5 answers nothing and says so, in place of doing nothing unsaid."""
    db = tmp_path / "c.db"
    sid = recorded(db, clock, [*SETUP, "Migdia"])
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_session(pilot, sid)
        d = driver_of(app)
        assert isinstance(d.pending, Choose) and len(d.pending.options) == 2
        steps = len(d.steps)
        await pilot.press("5")
        assert len(d.steps) == steps
        assert "Press 1 or 2." in str(screen(app).query_one("#pp-message", Static).render())


async def test_a_territory_is_drawn_by_its_first_letters(tmp_path: Path, clock: Any) -> None:
    """'munt' is Muntanya; 'm' could be Migdia or Muntanya, and the screen says so, drawing nothing."""
    db = tmp_path / "c.db"
    sid = recorded(db, clock, SETUP)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_session(pilot, sid)
        d = driver_of(app)
        steps = len(d.steps)
        await pilot.press("m", "enter")
        assert len(d.steps) == steps
        said = str(screen(app).query_one("#pp-message", Static).render())
        assert "could be Migdia or Muntanya" in said
        await pilot.press(*"unt", "enter")
        assert d.steps[steps].answer == "Muntanya" and d.steps[steps].source == "player"


#: Anna attacks Lleida and rolls no success: Lleida holds without a defence roll, then the menu.
ATTACK_LOST = [*SETUP, "Riu", ATTACK, "Lleida (Bo)", "", "", [1, 1, 1, 1, 1, 1], STOP, APPLY]


async def test_a_battle_over_is_the_last_battle_and_gives_way_on_the_narrow_screen(
    tmp_path: Path, clock: Any
) -> None:
    """Once its result is confirmed, the battle stays in view as 'Last battle' (its heading says
    there is no success to match, not 'needs 0 successes'); at 80x24 it gives its rows to the
    actions menu, which shows every option."""
    from textual.widgets import OptionList

    db = tmp_path / "c.db"
    sid = recorded(db, clock, ATTACK_LOST)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=(120, 40)) as pilot:
        await open_session(pilot, sid)
        d = driver_of(app)
        assert isinstance(d.pending, Choose) and d.pending.topic == "castells.actions.next"
        battle = screen(app).query_one("#cs-battle", Static)
        assert battle.display and battle.border_title == "Last battle"
        out = io.StringIO()
        Console(file=out, width=52, color_system=None).print(battle.content)
        shown = " ".join(out.getvalue().split())
        assert "no success for Bo to match" in shown and "needs 0" not in shown
        assert "1 1 1 1 1 1 → 0 successes" in shown
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not battle.display
        options = screen(app).query_one("#pp-options", OptionList)
        assert options.size.height >= options.option_count


async def test_w_says_why_each_action_of_phase_3_not_offered_is_not(tmp_path: Path, clock: Any) -> None:
    """Phase 3: "The active player can take 0 to 3 actions in any order", each by its own rule; w
    shows, for each action the menu leaves out, the one sentence why (here: no favour card with T
    before one is bought; after a correction by hand leaves Anna one castle, no estate token, "The
    token must be in a free hex adjacent to two own castles"). Outside Phase 3 it says so."""
    db = tmp_path / "c.db"
    sid = recorded(db, clock, [*SETUP, "Riu"])
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_session(pilot, sid)
        d = driver_of(app)
        assert isinstance(d.pending, Choose) and d.pending.topic == "castells.actions.next"
        assert "w: why an action is not offered." in screen_text(pilot)
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, MessageDialog))
        text = str(app.screen.body)  # type: ignore[attr-defined]
        assert "Anna: 0 of 3 actions taken" in text
        assert "Play a favour card with T (not counted): Anna has bought no favour cards this game" in text
        assert "Play an estate token" not in text and "Attack" not in text
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, CastellsScreen))
        d.edit(edit_prompt("x", {"kind": "castle", "castle": "Mora", "owner": None}))
        await pilot.press("w")
        await wait_until(pilot, lambda: isinstance(app.screen, MessageDialog))
        text = str(app.screen.body)  # type: ignore[attr-defined]
        assert (
            "Play an estate token: An estate token must be in a free hex adjacent to two of Anna's "
            "own castles, and Anna holds only one." in text
        )
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, CastellsScreen))
        feed(d, ["End Anna's turn", "Riu"], ack_last=False)  # Bo's resources: Phase 2
        screen(app).show_game()
        await pilot.press("w")
        await pilot.pause()
        assert isinstance(app.screen, CastellsScreen)
        assert "Actions are chosen in Phase 3" in screen_text(pilot)


async def test_a_castle_keeps_its_number_as_the_setup_list_shrinks(tmp_path: Path, clock: Any) -> None:
    """Issue #32: "picking a Castells castle at setup renumbers the list under the next digit".
    Each castle is picked by its place on the board, whatever was picked before it: 1 then 2
    is the board's first castle, then its second (not the third, second on the shortened list)."""
    from textual.widgets import OptionList

    db = tmp_path / "c.db"
    sid = recorded(db, clock, SETUP[: SETUP.index("Tortosa")])
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_session(pilot, sid)
        d = driver_of(app)
        castles = list(GAME.board_of(d.state).castles)
        assert d.pending is not None and d.pending.topic == "castells.setup.castles"
        assert 9 < len(castles) < 20  # two digits name the last ones; 2 is never the start of one

        async def pick(number: int) -> None:
            steps = len(d.steps)
            await pilot.press(*str(number))
            await pilot.pause()
            if len(d.steps) == steps:  # a number one more digit could extend: Enter takes it
                await pilot.press("enter")
                await pilot.pause()

        await pick(1)
        assert d.steps[-1].answer == castles[0]
        listing = app.screen.query_one("#pp-options", OptionList)
        assert (
            str(listing.get_option_at_index(0).prompt).strip().startswith(f"2 {castles[1]}")
        )  # board numbers
        await pick(2)
        assert d.steps[-1].answer == castles[1]
        await pick(len(castles))
        assert d.steps[-1].answer == castles[-1]
        steps = len(d.steps)
        await pilot.press("2")  # castle 2 is Anna's now: not on the list (no number follows 2)
        await pilot.pause()
        assert len(d.steps) == steps
        assert "No castle on the list has that number" in str(app.screen.query_one("#pp-message").render())
