"""The Battle of Simancas screen driven as the players would (Pilot), its typing completion,
and its snapshots (SVGs in snapshots/test_simancas_screen/)."""

from __future__ import annotations

import io
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from pilot_helpers import store_ready, wait_until
from rich.console import Console, Group
from rich.table import Table as RichTable
from rich.text import Text
from textual.containers import VerticalScroll
from textual.pilot import Pilot
from textual.widgets import DataTable, Input, OptionList, Static

from companion.driver import Driver
from companion.prompts import Choose, Tell
from companion.simancas.game import END, GAME, new_match
from companion.store.db import Store
from screens.app import CompanionApp
from screens.history import HistoryScreen, SessionLogScreen
from screens.rendered import Rendered
from screens.simancas.completion import Matcher, explain
from screens.simancas.game_screen import SimancasScreen

SIZE = (100, 30)
#: Both sides have finished playing cards: the hand is scored.
PASSES = ["Moors pass", "Christians pass"]


def recorded_match(path: Path, clock: Any, actions: Sequence[str], ack_last: bool = True) -> int:
    """A Simancas session in the database at ``path``: ``actions`` answered in order, every
    reminder on the way confirmed (the ones after the last action too, unless ``ack_last`` is off)."""
    store = Store(str(path), clock=clock)
    sid = store.create_session("simancas", 3)
    d = Driver(GAME, 3, recorder=store.recorder(sid))
    for action in actions:
        while isinstance(d.pending, Tell):
            d.ack()
        d.submit(action, "player")
    while ack_last and isinstance(d.pending, Tell):
        d.ack()
    store.close()
    return sid


def screen(app: CompanionApp) -> SimancasScreen:
    s = app.screen
    assert isinstance(s, SimancasScreen)
    return s


def driver_of(app: CompanionApp) -> Driver:
    d = screen(app).driver
    assert d is not None
    return d


async def open_match(pilot: Pilot[Any], session_id: int) -> None:
    await store_ready(pilot)
    pilot.app.open_session(session_id)
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, SimancasScreen))


async def new_match_screen(pilot: Pilot[Any]) -> None:
    await store_ready(pilot)
    pilot.app.start_game(
        "simancas", {"guide": False, "setup": True}
    )  # the tests of the table itself: no phase told
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, SimancasScreen))


async def type_in(pilot: Pilot[Any], text: str, enter: bool = True) -> None:
    """Type ``text`` key by key into the focused input, then Enter."""
    keys = ["space" if c == " " else c for c in text]
    await pilot.press(*keys, *(["enter"] if enter else []))
    await pilot.pause()


async def paste_in(pilot: Pilot[Any], text: str) -> None:
    """Put ``text`` in the input at once (as a paste would), then Enter: the same path as
    typing, without a pilot round trip a key, for the tests that enter a lot."""
    field = pilot.app.screen.query_one("#pp-dice", Input)
    field.value = text
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()


def shown(app: CompanionApp, selector: str) -> str:
    return str(app.screen.query_one(selector, Static).render())


def message(app: CompanionApp) -> str:
    return shown(app, "#pp-message")


def side_lines(app: CompanionApp, side: str) -> list[str]:
    """The side's table as the players read it: one line of text a screen line."""
    content = app.screen.query_one(f"#sm-{side}-cards", Static).content
    out = io.StringIO()
    Console(file=out, width=48, color_system=None).print(content)
    return [line.rstrip() for line in out.getvalue().splitlines()]


def card_line(app: CompanionApp, side: str, name: str) -> list[str]:
    """The line of ``name`` on ``side``'s table, split into its columns (name, type, base, score)."""
    line = next(line for line in side_lines(app, side) if line.startswith(name))
    return [name, *line[len(name) :].split()]


def side_total(app: CompanionApp, side: str) -> str:
    return str(app.screen.query_one(f"#sm-{side}").border_subtitle)


def one_sentence(text: str) -> bool:
    return "\n" not in text and len(re.findall(r"[.?!](?:\s|$)", text)) == 1


# -- Pilot tests --------------------------------------------------------------------


async def test_a_new_match_from_the_home_screen_and_the_palette(tmp_path: Path, clock: Any) -> None:
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=5, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        assert "New Simancas match" in {c.title for c in app.get_system_commands(app.screen)}
        games = app.screen.query_one("#games", OptionList)
        games.highlighted = next(
            i for i in range(games.option_count) if games.get_option_at_index(i).id == "simancas"
        )
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(app.screen, SimancasScreen))
        assert side_lines(app, "moors") == ["No cards placed."]
        assert "Hand 1" in shown(app, "#sm-status")
        assert app.focused is app.screen.query_one("#pp-dice", Input)
        assert {"Undo", "Card types", "Back"} <= {c.title for c in app.get_system_commands(app.screen)}
    info = Store(str(tmp_path / "c.db")).session(1)
    assert info.game == "simancas" and info.status == "active"


@pytest.mark.slow
async def test_cards_typed_are_placed_and_the_totals_follow_the_modifiers(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await new_match_screen(pilot)
        await type_in(pilot, "cavalry det")
        await type_in(pilot, "jund")
        # "All Your other Cavalry get +1": Jund Cavalry 5 + 1, Cavalry Detachments itself 4.
        assert card_line(app, "moors", "Jund Cavalry") == ["Jund Cavalry", "Cav", "5", "6"]
        assert card_line(app, "moors", "Cavalry Detachments")[-1] == "4"
        assert "+1 Cavalry Detachments" in [line.strip() for line in side_lines(app, "moors")]
        assert side_total(app, "moors") == "total 10"
        await type_in(pilot, "woods")  # the Christians' turn: "All Cavalry get -1", both sides'
        assert card_line(app, "christians", "Woods")[-1] == "2"
        assert card_line(app, "moors", "Jund Cavalry")[-1] == "5"
        assert card_line(app, "moors", "Cavalry Detachments")[-1] == "3"
        assert "-1 Woods" in [line.strip() for line in side_lines(app, "moors")]
        totals = shown(app, "#sm-totals")
        assert "Moors 8" in totals and "Christians 2" in totals
        assert "the Moors are ahead by 6" in totals
        assert screen(app).query_one("#sm-moors").has_class("ahead")
        assert message(app) == "Done: Christians place Woods."
    log = Store(str(db)).log(1)
    assert [s.answer for s in log.steps] == [
        "Moors place Cavalry Detachments",
        "Moors place Jund Cavalry",
        "Christians place Woods",
    ]


async def test_a_sides_cards_are_drawn_again_only_when_they_change(tmp_path: Path, clock: Any) -> None:
    """A side's table is a Rich table that takes long to draw: an answer that changes nothing of
    a side's cards leaves its drawing as it is; one that changes a score draws it again."""
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)

    def drawn(side: str) -> object:
        return app.screen.query_one(f"#sm-{side}-cards", Static).content

    async with app.run_test(size=SIZE) as pilot:
        await new_match_screen(pilot)
        await type_in(pilot, "cavalry det")
        moors, christians = drawn("moors"), drawn("christians")
        await type_in(pilot, "jund")  # the Moors' cards change, not the Christians'
        assert drawn("moors") is not moors and drawn("christians") is christians
        moors = drawn("moors")
        await type_in(pilot, "woods")  # "All Cavalry get -1": the Moors' scores change too
        assert drawn("moors") is not moors and drawn("christians") is not christians
        assert card_line(app, "moors", "Jund Cavalry")[-1] == "5"


@pytest.mark.slow
async def test_a_tactic_destroys_a_card_and_the_total_drops(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    sid = recorded_match(db, clock, ["Moors place Cavalry Detachments", "Moors place Jund Cavalry"])
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_match(pilot, sid)
        assert side_total(app, "moors") == "total 10"
        await type_in(pilot, "destroy cavalry det", enter=False)
        listing = app.screen.query_one("#pp-options", OptionList)
        # The Moors played last, so the Christians' tactic is offered first.
        assert str(listing.get_option_at_index(0).prompt) == (
            'Christians discard Terrain to destroy Cavalry Detachments  Cavalry 4, Moorish — "All Your other Cavalry get +1"'
        )
        await pilot.press("enter")
        await pilot.pause()
        assert card_line(app, "moors", "Cavalry Detachments")[-1] == "0"
        # (the reason wraps under itself, two columns in: the words are compared, not the spaces)
        assert "destroyed by the Christians' Terrain tactic" in " ".join(
            " ".join(side_lines(app, "moors")).split()
        )
        # Its bonus goes with it: Jund Cavalry is back to its base 5.
        assert card_line(app, "moors", "Jund Cavalry")[-1] == "5"
        assert side_total(app, "moors") == "total 5"
        name_cell = next(iter(_table(app, "moors").columns[0].cells))
        # The name, then the reason on a line of its own under it.
        assert isinstance(name_cell, Group) and isinstance(name := name_cell.renderables[0], Text)
        assert "strike" in str(name.get_style_at_offset(Console(), 0))
    assert (
        Store(str(db)).log(sid).steps[-1].answer
        == "Christians discard Terrain to destroy Cavalry Detachments"
    )


def _table(app: CompanionApp, side: str) -> RichTable:
    content = app.screen.query_one(f"#sm-{side}-cards", Static).content
    if isinstance(content, Rendered):  # drawn once per width: the table it draws
        content = content.inner
    assert isinstance(content, RichTable)
    return content


@pytest.mark.slow
async def test_bad_or_unknown_text_is_one_sentence_and_changes_nothing(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    sid = recorded_match(db, clock, ["Moors place Jund Cavalry"])
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_match(pilot, sid)
        before = side_lines(app, "moors"), side_lines(app, "christians")
        for typed, said in [
            ("xyzzy", "There is no card called 'xyzzy' in the deck."),
            ("jnud cavalry", "There is no card called 'jnud cavalry'; did you mean Jund Cavalry?"),
            ("jund", "Jund Cavalry is already on the table (the Moors'): each card exists once."),
            (
                "christians great host",
                (
                    "Great Host is Moorish-only: the Christians may only discard it for its tactic, "
                    "unless their Mercenaries is in play."
                ),
            ),
            ("destroy knights", "Knights is not on the table, so it cannot be destroyed."),
        ]:
            await paste_in(pilot, typed)
            assert message(app) == said
            assert one_sentence(message(app))
            app.screen.query_one("#pp-dice", Input).value = ""
            await pilot.pause()
        assert (side_lines(app, "moors"), side_lines(app, "christians")) == before
        assert len(driver_of(app).steps) == 1
    assert len(Store(str(db)).log(sid).steps) == 1


@pytest.mark.slow
async def test_a_reminder_is_a_line_confirmed_with_enter(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await new_match_screen(pilot)
        await type_in(pilot, "campaign")  # "Draw 1 card when placed"
        assert "Moors draw 1 card (Campaign)" in shown(app, "#pp-why")
        assert not app.screen.query_one("#pp-options").display
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(driver_of(app).pending, Choose)
        assert message(app) == "Done: Moors draw 1 card (Campaign)."
        # Text typed while a reminder waits: the reminder is confirmed and the text taken.
        await type_in(pilot, "plains")  # the Moors' Plains: "Draw 1 card when placed" again
        await type_in(pilot, "knights")
        assert message(app) == "Done: Moors draw 1 card (Plains); Christians place Knights."
        assert card_line(app, "christians", "Knights")[-1] == "4"
    log = Store(str(db)).log(1)
    assert [s.source for s in log.steps] == ["player", "ack", "player", "ack", "player"]


@pytest.mark.slow
async def test_rout_asks_which_enemy_troop_it_discards(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    sid = recorded_match(db, clock, ["Moors place Jund Cavalry", "Moors place Arab Cavalry"])
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_match(pilot, sid)
        await type_in(pilot, "rout")
        assert "which Moorish troop" in shown(app, "#pp-why")
        # "When Placed discard 1 placed Enemy Troop": Rout is down while its target is chosen,
        # and counts in the Christians' total (it was left out until the question was answered).
        assert card_line(app, "christians", "Rout")[-1] == "5"
        assert app.screen.query_one("#sm-christians", VerticalScroll).border_subtitle == "total 5"
        assert "Christians 5" in shown(app, "#sm-totals")
        listing = app.screen.query_one("#pp-options", OptionList)
        assert [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)] == [
            "Jund Cavalry  Cavalry 5, Moorish",
            "Arab Cavalry  Cavalry 3, Moorish",
        ]
        await type_in(pilot, "arab")
        assert card_line(app, "moors", "Arab Cavalry")[-1] == "0"
        assert "discarded by Rout" in " ".join(side_lines(app, "moors"))
        assert "Moors discard Arab Cavalry from the table (Rout)" in shown(app, "#pp-why")


@pytest.mark.slow
async def test_a_card_destroyed_by_mistake_is_restored_by_typing(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    sid = recorded_match(
        db, clock, ["Moors place Jund Cavalry", "Christians discard Terrain to destroy Jund Cavalry"]
    )
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_match(pilot, sid)
        assert card_line(app, "moors", "Jund Cavalry")[-1] == "0"
        await type_in(pilot, "jund")  # a name alone places; it never restores
        assert (
            message(app)
            == "Jund Cavalry was destroyed this hand; type 'restore jund cavalry' if that was a mistake, "
            "or 'reshuffle' if the discard pile was shuffled into the deck."
        )
        await paste_in(pilot, "restore jund")  # the refused text stays in the input: replace it
        assert message(app) == "Done: Restore Jund Cavalry."
        assert card_line(app, "moors", "Jund Cavalry")[-1] == "5"
        assert "destroyed" not in " ".join(side_lines(app, "moors"))
        await type_in(pilot, "restore jund")  # nothing left to restore: refused, nothing changes
        assert message(app) == "Jund Cavalry is not destroyed, so there is nothing to restore."
    assert [s.answer for s in Store(str(db)).log(sid).steps][-1] == "Restore Jund Cavalry"


@pytest.mark.slow
async def test_the_end_of_a_hand_shows_the_winner_and_the_match_score(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    sid = recorded_match(db, clock, ["Moors place Jund Cavalry", "Christians place Knights"])
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_match(pilot, sid)
        await type_in(pilot, "pass")  # the Moors', whose turn it is
        await type_in(pilot, "pass")  # the Christians' too: both have finished
        # The hand's table stays on screen until the players confirm the result.
        assert card_line(app, "moors", "Jund Cavalry")[-1] == "5"
        assert "Hand 1 is over" in shown(app, "#sm-status")
        assert "hands won: Moors 1, Christians 0" in shown(app, "#sm-status")
        assert "the Moors win the hand" in shown(app, "#sm-totals")
        assert "The Moors win the hand." in shown(app, "#pp-why")
        await pilot.press("enter")
        await pilot.pause()
        assert side_lines(app, "moors") == ["No cards placed."] == side_lines(app, "christians")
        assert shown(app, "#sm-status").startswith("Hand 2")
        # Hand 2: nothing placed, a tie: nobody wins, the score stays.
        await type_in(pilot, "pass")
        await type_in(pilot, "pass")
        assert "a tie: nobody wins the hand" in shown(app, "#sm-totals")
        assert "hands won: Moors 1, Christians 0" in shown(app, "#sm-status")
    info = Store(str(db)).session(sid)
    assert info.summary == "Hand 2 is over; hands won Moors 1, Christians 0."


def put_back(app: CompanionApp) -> list[str]:
    """The lines of the dialog an undo ends with: what to change on the table."""
    from screens.shell.dialogs import MessageDialog

    assert isinstance(app.screen, MessageDialog), app.screen
    return [
        line.strip("• ").strip()
        for line in str(app.screen.body).splitlines()[1:]
        if line.strip().startswith("•")
    ]


@pytest.mark.slow
async def test_undo_takes_back_the_last_action_with_its_reminders(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    sid = recorded_match(db, clock, ["Moors place Jund Cavalry", "Christians pass", "Moors pass"])
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_match(pilot, sid)
        assert shown(app, "#sm-status").startswith("Hand 2")
        await pilot.press("ctrl+z")  # the pass that ended the hand (and its confirmed result)
        await pilot.pause()
        # The undo ends with what to change on the table: the ended hand's cards come back.
        assert put_back(app) == [
            "Moors: put Jund Cavalry back on the table",
            "Hands won: back to Moors 0, Christians 0",
        ]
        await pilot.press("enter")
        await pilot.pause()
        assert message(app) == "Took back: Moors pass. ctrl+y: redo."
        assert shown(app, "#sm-status").startswith("Hand 1")
        assert "hands won: Moors 0, Christians 0" in shown(app, "#sm-status")
        assert card_line(app, "moors", "Jund Cavalry")[-1] == "5"
        await type_in(pilot, "campaign")
        assert isinstance(driver_of(app).pending, Tell)
        await pilot.press("ctrl+z")  # Campaign, with its reminder still waiting
        await pilot.pause()
        assert put_back(app) == ["Moors: take Campaign off the table"]
        await pilot.press("enter")
        await pilot.pause()
        assert message(app) == "Took back: Moors place Campaign. ctrl+y: redo."
        assert [line.split()[0] for line in side_lines(app, "moors")[1:]] == ["Jund"]
        await pilot.press("ctrl+z")  # the Christians' pass: nothing to change on the table
        await pilot.pause()
        assert message(app) == "Took back: Christians pass. ctrl+y: redo."
        await pilot.press("ctrl+z")
        await pilot.pause()
        assert put_back(app) == ["Moors: take Jund Cavalry off the table"]
        await pilot.press("enter", "ctrl+z")
        await pilot.pause()
        assert message(app) == "There is nothing to take back."
        assert side_lines(app, "moors") == ["No cards placed."]
        await pilot.press("ctrl+y")  # the last undo, redone: Jund Cavalry placed again
        await pilot.pause()
        assert put_back(app) == ["Moors: put Jund Cavalry on the table"]
        await pilot.press("enter")
        await pilot.pause()
        assert [line.split()[0] for line in side_lines(app, "moors")[1:]] == ["Jund"]
    assert [s.answer for s in Store(str(db)).log(sid).steps] == ["Moors place Jund Cavalry"]


@pytest.mark.slow
async def test_resume_shows_the_table_as_it_was(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await new_match_screen(pilot)
        for typed in ["jund", "woods", "eclipse", "destroy woods", "charge"]:
            await paste_in(pilot, typed)
        before = [side_lines(app, side) for side in ("moors", "christians")]
        totals = shown(app, "#sm-totals")
        assert "Woods" in " ".join(before[1]) and "destroyed" in " ".join(before[1])
        await pilot.press("escape")
    again = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with again.run_test(size=SIZE) as pilot:
        await open_match(pilot, 1)
        assert [side_lines(again, side) for side in ("moors", "christians")] == before
        assert shown(again, "#sm-totals") == totals
        again.pop_screen()
        await pilot.pause()
        await pilot.press("h")
        await wait_until(pilot, lambda: isinstance(again.screen, HistoryScreen))
        row = again.screen.query_one("#sessions-table", DataTable).get_row_at(0)
        assert str(row[1]) == "Battle of Simancas" and str(row[5]) == "5"
        await pilot.press("enter")
        await wait_until(pilot, lambda: isinstance(again.screen, SessionLogScreen))
        first = [str(c) for c in again.screen.query_one("#log-table", DataTable).get_row_at(0)]
        # The question, not its 124 choices, so that the answer stays on screen.
        # (At 100 columns the question is cut to its column's width, with an ellipsis.)
        asked = first[3].removesuffix("…")
        assert len(asked) > 15 and "Hand 1: what happens on the table?".startswith(asked)
        assert first[4:6] == ["Moors place Jund Cavalry", "player"]


@pytest.mark.slow
async def test_a_match_to_five_hands_through_the_screen(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await new_match_screen(pilot)
        hands = ["jund", "c knights", "jund", "jund", "jund", "jund"]  # the Christians win hand 2
        for card in hands:
            await paste_in(pilot, card)
            await paste_in(pilot, "pass")
            await paste_in(pilot, "pass")
            await pilot.press("enter")
            await pilot.pause()
        d = driver_of(app)
        assert d.finished
        assert "Match over after 6 hands" in shown(app, "#sm-status")
        assert "hands won: Moors 5, Christians 1" in shown(app, "#sm-status")
        assert "The Moors won the match, 5 hands to 1." in shown(app, "#pp-why")
        assert not app.screen.query_one("#pp-dice", Input).display
        await pilot.press("enter")  # nothing more is asked: nothing changes
        assert len(d.steps) == 6 * 4
    info = Store(str(db)).session(1)
    assert info.status == "finished" and info.summary == "The Moors won the match, 5 hands to 1."


async def test_the_reference_panel_toggles(tmp_path: Path, clock: Any) -> None:
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await new_match_screen(pilot)
        reference = app.screen.query_one("#sm-reference")
        assert not reference.display
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert reference.display and not app.screen.query_one("#sm-tables").display
        out = io.StringIO()
        shown_reference = app.screen.query_one("#sm-reference-text", Static).content
        Console(file=out, width=96, color_system=None).print(shown_reference)
        text = " ".join(out.getvalue().split())
        assert "Terrain Draw 2 cards. Destroy a placed Cavalry." in text
        assert "Infantry No strategic effect. Destroy a placed Terrain." in text
        await type_in(pilot, "jund")  # the input still works with the reference open
        assert driver_of(app).steps[-1].answer == "Moors place Jund Cavalry"
        await pilot.press("ctrl+r")
        await pilot.pause()
        assert not reference.display and app.screen.query_one("#sm-tables").display


async def test_arrow_keys_pick_another_suggestion(tmp_path: Path, clock: Any) -> None:
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await new_match_screen(pilot)
        await type_in(pilot, "lancers", enter=False)
        listing = app.screen.query_one("#pp-options", OptionList)
        assert listing.highlighted == 0 and listing.border_title == "2 of 131 actions match"
        await pilot.press("down", "enter")
        await pilot.pause()
        assert driver_of(app).steps[-1].answer == "Christians place Lancers"


# -- Completion ---------------------------------------------------------------------


def first_menu() -> tuple[str, ...]:
    d = Driver(GAME, 1)
    assert isinstance(d.pending, Choose)
    return d.pending.options


def test_matching_ignores_case_and_accents_and_takes_initials() -> None:
    m = Matcher(first_menu())
    assert m.match("JUND", "moors")[0] == "Moors place Jund Cavalry"
    assert m.match("fernán", "moors") == ["Christians place Count Fernan Gonzalez"]
    assert m.match("jc", "moors")[0] == "Moors place Jund Cavalry"
    assert m.match("end", "moors") == [] and END not in first_menu()  # a hand ends with the passes
    everything = m.match("", "christians")
    assert sorted(everything) == sorted(first_menu())
    assert everything[0] == "Christians discard Weapon to search the discard pile"
    assert everything[1] == "Christians place Count Fernan Gonzalez" and everything[-1] == "Moors pass"


def test_matching_prefers_the_side_to_play_unless_a_side_is_typed() -> None:
    m = Matcher(first_menu())
    assert m.match("lancers", "moors")[:2] == ["Moors place Lancers", "Christians place Lancers"]
    assert m.match("lancers", "christians")[0] == "Christians place Lancers"
    assert m.match("c lancers", "moors")[0] == "Christians place Lancers"
    assert m.match("light cav", "christians")[0] == "Christians place Light Cavalry"


def test_a_tactic_is_offered_only_when_asked_for() -> None:
    match = new_match()
    match.table.place("moors", "Jund Cavalry")
    from companion.simancas.game import actions

    m = Matcher(list(actions(match.table)))
    assert m.match("jund", "christians") == []
    assert m.match("jund cav", "christians") == []
    assert m.match("destroy jund", "christians")[0] == "Christians discard Terrain to destroy Jund Cavalry"
    assert m.match("terr jund", "moors")[0] == "Moors discard Terrain to destroy Jund Cavalry"
    said = explain("jund", list(actions(match.table)), match.table, "christians")
    assert said == "Jund Cavalry is already on the table (the Moors'): each card exists once."


def test_a_restore_is_offered_only_when_asked_for() -> None:
    from companion.simancas.game import actions

    match = new_match()
    match.table.place("moors", "Jund Cavalry")
    menu = list(actions(match.table))
    assert explain("restore jund", menu, match.table, "moors") == (
        "Jund Cavalry is not destroyed, so there is nothing to restore."
    )
    match.table.tactic("christians", "T", "Jund Cavalry")
    m = Matcher(list(actions(match.table)))
    assert "Restore Jund Cavalry" not in m.match("jund", "moors")
    assert m.match("restore jund", "moors")[0] == "Restore Jund Cavalry"
    assert m.match("res jc", "moors")[0] == "Restore Jund Cavalry"


def test_a_search_and_a_reshuffle_are_offered_only_when_asked_for() -> None:
    """STRATEGY PHASE: "Discard a Weapon card search for a Cavalry, Skirmisher, or Infantry card
    in the Discard pile"; RESERVE PHASE: "If the deck ever runs out, shuffle the discard and draw
    from it" - neither is taken for a card's name: 'weapon' or 'search', 'reshuffle' or 'deck'."""
    from companion.simancas.game import menu_of

    d = Driver(GAME, 1)
    for action in ["Moors place Jund Cavalry", "Moors pass", "Christians pass"]:
        while isinstance(d.pending, Tell):
            d.ack()
        d.submit(action, "player")
    d.ack()
    m = Matcher(list(menu_of(d.state)))
    assert not [o for o in m.match("jund", "moors") if "search" in o or "Reshuffle" in o]
    assert m.match("weapon", "moors")[:2] == [
        "Moors discard Weapon to search the discard pile",
        "Christians discard Weapon to search the discard pile",
    ]
    assert m.match("search", "christians")[0] == "Christians discard Weapon to search the discard pile"
    assert m.match("reshuffle", "moors") == ["Reshuffle the discard pile (the deck ran out)"]
    assert m.match("deck", "moors") == ["Reshuffle the discard pile (the deck ran out)"]


def test_a_side_that_has_passed_is_told_so() -> None:
    """BATTLE PHASE: "When both players have finished playing cards" - a passed side's card
    typed is offered nothing, and the sentence says why."""
    from companion.simancas.game import menu_of

    d = Driver(GAME, 1)
    d.submit("Moors place Jund Cavalry", "player")
    d.submit("Christians pass", "player")
    menu = list(menu_of(d.state))
    assert Matcher(menu).match("c lancers", "moors") == []
    passed = d.state.passed
    said = "The Christians have passed: they have finished playing cards this hand."
    assert explain("c lancers", menu, d.state.table, "moors", passed=passed) == said
    assert explain("knights", menu, d.state.table, "moors", passed=passed) == said  # Christian-only


def test_a_routs_card_names_are_never_taken_for_actions() -> None:
    """Rout's options are card names: no side, no tactic or restore to ask for, even for a
    name an action could have."""
    m = Matcher(["Restore Knights", "Jund Cavalry"], menu=False)
    assert [(e.side, e.intent) for e in m.entries] == [(None, ()), (None, ())]
    assert m.match("knights", "moors") == ["Restore Knights"]
    assert Matcher(["Restore Knights"]).match("knights", "moors") == []  # as the menu's restore


def screen_on(d: Driver) -> SimancasScreen:
    """The screen's reading of a match, without an app: what it would show for ``d``."""
    s = SimancasScreen(0)
    s.driver = d
    return s


def old_next_side(d: Driver) -> str:
    """Whose turn the screen reckoned it was before the engine said: the first word of the
    last action of the hand (the Moors after a restore or none)."""
    for step in reversed(d.steps):
        if not (isinstance(step.prompt, Choose) and step.prompt.topic == "simancas.turn.action"):
            continue
        if step.prompt.data["hand"] != d.state.hand:
            break
        return "christians" if str(step.answer).startswith("Moors") else "moors"
    return "moors"


def test_the_side_to_play_is_the_engines_and_as_the_screen_always_reckoned() -> None:
    actions = [
        "Moors place Jund Cavalry",
        "Christians place Knights",
        "Moors place Army",
        "Christians place Rout",
        "Army",
        "Moors discard Terrain to destroy Knights",
        "Restore Knights",
        "Christians discard Terrain to destroy Jund Cavalry",
        "Moors pass",
        "Christians pass",
        "Christians place Gorge",
        "Christians place Fortress",
    ]
    d = Driver(GAME, 2)
    s = screen_on(d)
    checked = 0
    for action in actions:
        while isinstance(d.pending, Tell):
            d.ack()
        assert isinstance(d.pending, Choose)
        assert s.next_side() == old_next_side(d)
        checked += 1
        if d.pending.topic == "simancas.turn.action":
            assert s.next_side() == d.pending.data["side"]
        d.submit(action, "player")
    assert s.next_side() == old_next_side(d) == "moors"
    assert checked == len(actions)


def test_the_hand_just_ended_is_read_from_the_prompts_topic() -> None:
    d = Driver(GAME, 2)
    s = screen_on(d)
    d.submit("Moors place Jund Cavalry", "player")
    assert not s.hand_just_ended()
    d.submit("Moors pass", "player")
    assert not s.hand_just_ended()
    d.submit("Christians pass", "player")
    assert s.hand_just_ended() and s.shown_table().placed["moors"] == ["Jund Cavalry"]
    d.ack()
    assert not s.hand_just_ended() and s.shown_table().placed["moors"] == []


# -- Snapshots ----------------------------------------------------------------------

#: A table with modifiers on both sides: Cavalry Detachments and Woods reach the Moors'
#: cavalry, Count Fernan Gonzalez and Woods the Christians' Knights.
BOTH_SIDES = [
    "Moors place Cavalry Detachments",
    "Moors place Jund Cavalry",
    "Christians place Woods",
    "Moors place Eclipse",
    "Christians place Count Fernan Gonzalez",
    "Christians place Knights",
]


def snapshot_of(
    snap_compare: Any,
    tmp_path: Path,
    clock: Any,
    actions: Sequence[str],
    keys: Sequence[str] = (),
    ack_last: bool = True,
    size: tuple[int, int] = SIZE,
    theme: str | None = None,
) -> bool:
    db = tmp_path / "c.db"
    sid = recorded_match(db, clock, actions, ack_last)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    if theme is not None:
        app.theme = theme

    async def before(pilot: Pilot[Any]) -> None:
        await open_match(pilot, sid)
        if keys:
            await pilot.press(*keys)
        await pilot.pause()

    return bool(snap_compare(app, terminal_size=size, run_before=before))


def test_snapshot_empty_table(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    assert snapshot_of(snap_compare, tmp_path, clock, [])


def test_snapshot_cards_and_modifiers_on_both_sides(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    assert snapshot_of(snap_compare, tmp_path, clock, BOTH_SIDES, keys=["l", "a", "n"])


def test_snapshot_a_destroyed_card(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    actions = [*BOTH_SIDES, "Moors discard Terrain to destroy Knights"]
    assert snapshot_of(snap_compare, tmp_path, clock, actions)


def test_snapshot_end_of_a_hand(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    assert snapshot_of(snap_compare, tmp_path, clock, [*BOTH_SIDES, *PASSES], ack_last=False)


def test_snapshot_end_of_the_match(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    hands = [["Moors place Jund Cavalry", *PASSES]] * 4 + [["Christians place Knights", *PASSES]]
    last = [*BOTH_SIDES, "Moors discard Terrain to destroy Knights", *PASSES]  # 8 to 7: the Moors' fifth
    actions = [a for hand in hands for a in hand] + last
    assert snapshot_of(snap_compare, tmp_path, clock, actions)


def test_snapshot_reference_panel(snap_compare: Any, tmp_path: Path, clock: Any) -> None:
    assert snapshot_of(snap_compare, tmp_path, clock, BOTH_SIDES, keys=["ctrl+r"])


#: The layouts by the terminal's size: narrow (80x24), the usual (120x40), the question beside
#: the table (200x55).
SIZES = [(80, 24), (120, 40), (200, 55)]


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_modifiers_at_each_size(
    snap_compare: Any, tmp_path: Path, clock: Any, size: tuple[int, int]
) -> None:
    """Cards on both sides with modifiers, a few letters typed: at 80x24 every card is a line
    and its modifiers a line marked ↳ under it."""
    assert snapshot_of(snap_compare, tmp_path, clock, BOTH_SIDES, keys=["l", "a", "n"], size=size)


@pytest.mark.slow
@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_snapshot_a_destroyed_card_at_each_size(
    snap_compare: Any, tmp_path: Path, clock: Any, size: tuple[int, int]
) -> None:
    actions = [*BOTH_SIDES, "Moors discard Terrain to destroy Knights"]
    assert snapshot_of(snap_compare, tmp_path, clock, actions, size=size)


@pytest.mark.slow
async def test_a_narrow_terminal_shows_a_line_a_card_and_its_modifiers_marked(
    tmp_path: Path, clock: Any
) -> None:
    """At 80x24 no card's name wraps onto a second line that would look like a card: each
    line of a side is a card (name, type, score), its modifiers on a line of their own marked
    ↳; back to the usual table at 100 columns, the text typed still in the field."""
    db = tmp_path / "c.db"
    sid = recorded_match(db, clock, BOTH_SIDES)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await open_match(pilot, sid)
        assert app.screen.has_class("-narrow")
        side = app.screen.query_one("#sm-moors-cards", Static)
        out = io.StringIO()
        Console(file=out, width=side.content_region.width, color_system=None).print(side.content)
        lines = [line.rstrip() for line in out.getvalue().splitlines()]
        names = ["Cavalry Detachments", "Jund Cavalry", "Eclipse"]
        cards = [line for line in lines if not line.startswith(("  ↳", "    ", "Card"))]
        assert [line.split("  ")[0] for line in cards] == names
        assert [line.split()[-1] for line in cards] == ["2", "4", "2"]
        assert "  ↳ base 4, -1 Eclipse, -1 Woods" in lines
        await type_in(pilot, "lan", enter=False)
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        assert not app.screen.has_class("-narrow")
        assert "+1 Cavalry Detachments" in [line.strip() for line in side_lines(app, "moors")]
        assert app.screen.query_one("#pp-dice", Input).value == "lan"


# -- the side is never guessed; cards are recognisable; every turn is recorded ------------


def test_a_side_prefix_is_a_side() -> None:
    """ "c jund" is the Christians and Jund Cavalry (which they may not place), never Jund
    Cavalry by its initials; "m military" is the Moors, who may not place Military Order."""
    m = Matcher(first_menu())
    assert m.match("c jund", "moors") == []
    assert m.match("m military", "christians") == []
    assert m.match("c lancers", "moors") == ["Christians place Lancers"]
    assert m.match("mo pass", "christians") == ["Moors pass"]
    assert m.match("chr knights", "moors") == ["Christians place Knights"]
    assert m.match("c", "moors")[0] == "Moors place Cliffs"  # one letter alone is still a word
    match = Driver(GAME, 1).state
    assert explain("c jund", first_menu(), match.table, "moors").startswith(
        "Jund Cavalry is Moorish-only: the Christians"
    )


def test_a_draw_tactic_is_offered_only_when_asked_for() -> None:
    m = Matcher(first_menu())
    assert not any("draw" in o for o in m.match("ch", "moors"))
    assert m.match("leader", "moors")[0] == "Moors discard Leader to draw 2 cards"
    assert m.match("c look", "moors") == [
        "Christians discard Strategy to draw 1 card and look at the Moors' hand"
    ]


@pytest.mark.slow
async def test_after_a_reminder_the_side_of_a_typed_card_is_shown_before_enter(
    tmp_path: Path, clock: Any
) -> None:
    """Mercenaries' reminder waits; a troop typed shows the actions it matches, each with its
    side, and Enter takes the one highlighted (not a guess made after the reminder)."""
    db = tmp_path / "c.db"
    sid = recorded_match(db, clock, ["Moors place Mercenaries"], ack_last=False)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_match(pilot, sid)
        assert isinstance(driver_of(app).pending, Tell)
        await type_in(pilot, "knights", enter=False)
        listing = app.screen.query_one("#pp-options", OptionList)
        assert listing.display and listing.highlighted == 0
        shown_options = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        assert [o.split("  ")[0] for o in shown_options] == [
            "Christians place Knights",
            "Moors place Knights",
        ]
        await pilot.press("down", "enter")
        await pilot.pause()
        assert driver_of(app).steps[-1].answer == "Moors place Knights"


async def test_each_suggestion_shows_its_cards_type_force_and_note(tmp_path: Path, clock: Any) -> None:
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await new_match_screen(pilot)
        await type_in(pilot, "m river", enter=False)
        listing = app.screen.query_one("#pp-options", OptionList)
        assert str(listing.get_option_at_index(0).prompt) == (
            'Moors place River  Terrain 3, both sides — "Enemy Troops get -1"'
        )


@pytest.mark.slow
async def test_a_pass_and_a_leaders_draw_are_typed_and_recorded(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await new_match_screen(pilot)
        await type_in(pilot, "m leader")
        await type_in(pilot, "pass")  # the Christians' turn: their pass first
        assert "Moors to play" in shown(app, "#pp-why")
        await type_in(pilot, "lancers")
        assert "Moors to play" in shown(app, "#pp-why")  # the Christians have finished
    answers = [s.answer for s in Store(str(db)).log(1).steps]
    assert answers == ["Moors discard Leader to draw 2 cards", "Christians pass", "Moors place Lancers"]


async def test_f3_shows_the_discard_pile_of_the_match(tmp_path: Path, clock: Any) -> None:
    """What the table has seen go to the discard pile (the Weapon's strategic effect searches
    it): a destroyed card and the card discarded for the tactic, by its type."""
    from screens.shell.dialogs import MessageDialog

    db = tmp_path / "c.db"
    sid = recorded_match(
        db, clock, ["Moors place Jund Cavalry", "Christians discard Terrain to destroy Jund Cavalry"]
    )
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_match(pilot, sid)
        await pilot.press("f3")
        await wait_until(pilot, lambda: isinstance(app.screen, MessageDialog))
        body = " ".join(str(w.content) for w in app.screen.query(Static))
        assert "Hand 1 · Christians · a Terrain card, discarded for a tactic" in body
        assert "Hand 1 · Moors · Jund Cavalry (Cavalry), destroyed" in body


async def pile_shown(app: CompanionApp, pilot: Pilot[Any]) -> str:
    """f3's dialog, read and closed: the discard pile as the screen shows it."""
    from screens.shell.dialogs import MessageDialog

    await pilot.press("f3")
    await wait_until(pilot, lambda: isinstance(app.screen, MessageDialog))
    body = " ".join(str(w.content) for w in app.screen.query(Static))
    await pilot.press("escape")
    await wait_until(pilot, lambda: isinstance(app.screen, SimancasScreen))
    return body


async def test_f3_shows_the_rulebooks_pile(tmp_path: Path, clock: Any) -> None:
    """THE DECK: "Players share a unique common deck"; RESERVE PHASE: "If the deck ever runs out,
    shuffle the discard and draw from it." - f3 lists the pile as it is now: a card placed again
    is on the table, not in the pile; after the reshuffle, typed and recorded, it is empty."""
    db = tmp_path / "c.db"
    hand_1 = ["Moors place Jund Cavalry", "Moors place Woods", "Moors pass", "Christians pass"]
    sid = recorded_match(db, clock, [*hand_1, "Moors place Jund Cavalry"])
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_match(pilot, sid)
        body = await pile_shown(app, pilot)
        assert "Hand 1 · Moors · Woods (Terrain), left on the table at the Retreat" in body
        assert "Jund Cavalry" not in body  # on the table again
        await type_in(pilot, "reshuffle")
        assert message(app) == "Done: Reshuffle the discard pile (the deck ran out)."
        body = await pile_shown(app, pilot)
        assert "Woods" not in body and "Nothing in the discard pile" in body
    answers = [s.answer for s in Store(str(db)).log(sid).steps]
    assert answers[-1] == "Reshuffle the discard pile (the deck ran out)"


async def test_the_weapons_search_lists_the_rulebooks_pile(tmp_path: Path, clock: Any) -> None:
    """STRATEGY PHASE: "Discard a Weapon card search for a Cavalry, Skirmisher, or Infantry card in
    the Discard pile and put it in your hand." - 'weapon' typed at a hand's first menu offers the
    search; its question lists the troops in the pile (not its Terrain), and the card taken
    leaves the pile."""
    db = tmp_path / "c.db"
    hand_1 = ["Moors place Jund Cavalry", "Moors place Woods", "Moors pass", "Christians pass"]
    sid = recorded_match(db, clock, hand_1)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_match(pilot, sid)
        await type_in(pilot, "jund", enter=False)
        assert "Moors discard Weapon to search the discard pile" not in screen(app).suggestions()
        await paste_in(pilot, "weapon")
        ask = driver_of(app).pending
        assert isinstance(ask, Choose) and ask.topic == "simancas.strategy.search"
        listing = app.screen.query_one("#pp-options", OptionList)
        offered = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        assert [o.split("  ")[0] for o in offered] == [
            "Jund Cavalry",
            "A card the app did not see discarded, or none",
        ]
        await type_in(pilot, "jund")
        assert message(app) == "Done: Moors take Jund Cavalry from the discard pile."
        body = await pile_shown(app, pilot)
        assert "Jund Cavalry" not in body and "Woods (Terrain)" in body
        assert "a Weapon card, discarded for its strategic effect" in body
    answers = [s.answer for s in Store(str(db)).log(sid).steps]
    assert answers[-2:] == ["Moors discard Weapon to search the discard pile", "Jund Cavalry"]


async def test_end_typed_says_a_hand_ends_when_both_sides_pass(tmp_path: Path, clock: Any) -> None:
    """BATTLE PHASE: "When both players have finished playing cards add up the Force value":
    'end' takes nothing (a mis-key scored the hand 0-0); the message says how a hand ends."""
    db = tmp_path / "c.db"
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await new_match_screen(pilot)
        await type_in(pilot, "end")
        assert message(app) == (
            "A hand ends when both sides have passed: type 'pass' for a side that has finished "
            "(or has no card left)."
        )
        assert driver_of(app).steps == []


# -- found playing a match at the table (issue #19) ---------------------------------------------


async def test_a_reason_or_a_modifier_wraps_under_itself_not_under_the_names(
    tmp_path: Path, clock: Any
) -> None:
    """Beside the other side (100 columns and more) a destroyed card's reason that wraps went on
    under the names ('Terrain tactic' read as one more card): every line is a card, the heading,
    or indented under its card."""
    db = tmp_path / "c.db"
    actions = ["Moors place Cavalry Detachments", "Christians discard Terrain to destroy Cavalry Detachments"]
    sid = recorded_match(db, clock, actions)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_match(pilot, sid)
        lines = side_lines(app, "moors")
        assert len(lines) > 3  # the reason does wrap at this width
        assert all(line.startswith(("Card, modifiers", "Cavalry Detachments", "  ")) for line in lines), lines


async def test_the_last_hands_result_tells_the_hand_won_and_enter_ends_the_match(
    tmp_path: Path, clock: Any
) -> None:
    """The fifth hand won: the status says the hand is over and the totals who won it (they said
    'Hand 5' and 'ahead by 5'), and no card is asked for after it."""
    db = tmp_path / "c.db"
    sid = recorded_match(db, clock, ["Moors place Jund Cavalry", *PASSES] * 5, ack_last=False)
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_match(pilot, sid)
        assert "Hand 5 is over" in shown(app, "#sm-status")
        assert "the Moors win the hand" in shown(app, "#sm-totals")
        asked = shown(app, "#pp-why")
        assert "Enter ends the match." in asked and "type the next card" not in asked
        await pilot.press("enter")
        await pilot.pause()
        assert driver_of(app).finished


async def test_once_the_guide_is_off_the_phase_waiting_says_f4_turns_it_on(
    tmp_path: Path, clock: Any
) -> None:
    """f4 on the Fate Phase: the phase stays, and its line no longer says f4 turns the guide off."""
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=5, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await store_ready(pilot)
        app.start_game("simancas")  # guided
        await wait_until(pilot, lambda: isinstance(app.screen, SimancasScreen))
        await pilot.pause()
        assert "f4 turns the guide off" in shown(app, "#pp-why")
        await pilot.press("f4")
        await pilot.pause()
        asked = shown(app, "#pp-why")
        assert (
            "Fate Phase" in asked and "f4 turns it on again" in asked and "turns the guide off" not in asked
        )


async def test_the_troop_rout_discards_is_said_as_rout_discarding_it(tmp_path: Path, clock: Any) -> None:
    db = tmp_path / "c.db"
    sid = recorded_match(db, clock, ["Moors place Jund Cavalry", "Christians place Rout"])
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_match(pilot, sid)
        await type_in(pilot, "jund")
        assert message(app) == "Done: Rout discards Jund Cavalry."


async def test_the_undo_dialog_names_a_turn_of_many_actions_by_its_question(
    tmp_path: Path, clock: Any
) -> None:
    """After an undo the dialog said the turn's question with its 130 actions, and its own last
    line was off the screen: the question alone, and how many answers it has."""
    from screens.shell.dialogs import MessageDialog

    db = tmp_path / "c.db"
    sid = recorded_match(db, clock, ["Moors place Jund Cavalry"])
    app = CompanionApp(db_path=str(db), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await open_match(pilot, sid)
        await pilot.press("ctrl+z")
        await wait_until(pilot, lambda: isinstance(app.screen, MessageDialog))
        body = str(app.screen.body)  # type: ignore[attr-defined]
        assert "The game now asks: Hand 1: what happens on the table?" in body
        assert "answers, on the screen)" in body and "Moors place Caliph" not in body


async def test_the_strategy_phase_shows_every_types_strategic_effect_at_80x24(
    tmp_path: Path, clock: Any
) -> None:
    """The guide's Strategy Phase at 80x24: the panel lists the strategic effects alone, all of
    them without scrolling (the Weapon's, which searches the discard pile, was below the edge);
    confirmed, f1 shows both effects again."""
    from textual.containers import VerticalScroll

    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=5, clock=clock)
    async with app.run_test(size=(80, 24)) as pilot:
        await store_ready(pilot)
        app.start_game("simancas")  # guided
        await wait_until(pilot, lambda: isinstance(app.screen, SimancasScreen))
        await pilot.press("enter", "enter")  # Fate, Reserve
        await pilot.pause()
        panel = app.screen.query_one("#sm-reference", VerticalScroll)
        assert panel.display and panel.max_scroll_y == 0
        out = io.StringIO()
        Console(file=out, width=76, color_system=None).print(
            app.screen.query_one("#sm-reference-text", Static).content
        )
        assert "Search the discard pile" in out.getvalue() and "Tactical effect" not in out.getvalue()
        await pilot.press("enter", "ctrl+r")  # the Strategy Phase confirmed, then the panel by hand
        await pilot.pause()
        out = io.StringIO()
        Console(file=out, width=76, color_system=None).print(
            app.screen.query_one("#sm-reference-text", Static).content
        )
        assert panel.display and "Tactical effect" in out.getvalue()


async def test_enter_takes_from_the_list_for_the_text_entered_not_an_older_one(
    tmp_path: Path, clock: Any
) -> None:
    """Issue #32: "text pasted into the Simancas field acts on a stale prefix (type xyzzy fast:
    a card matching 'x' was placed)". Enter arriving before the list has followed the text
    takes nothing from the older list: 'xyzzy' names no card, and nothing is placed."""
    app = CompanionApp(db_path=str(tmp_path / "c.db"), seed=1, clock=clock)
    async with app.run_test(size=SIZE) as pilot:
        await new_match_screen(pilot)
        d = driver_of(app)
        await type_in(pilot, "jund", enter=False)  # the list: Jund Cavalry, highlighted
        steps = len(d.steps)
        field = app.screen.query_one("#pp-dice", Input)
        field.value = "xyzzy"  # its Changed message is not handled yet ...
        app.screen.enter("xyzzy")  # type: ignore[attr-defined]  # ... when Enter arrives
        assert len(d.steps) == steps
        assert "xyzzy" in message(app)  # refused, in one sentence
        await pilot.pause()
        assert len(d.steps) == steps
