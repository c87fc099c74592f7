"""The log of entries the Reconquista screen writes its steps to (screens/shell/entry_log.py):
it wraps each entry at its own width, again when that width changes, and however long the game
it never starts with the second line of an entry (RichLog's ``max_lines`` trimmed lines one by
one, and left the old width on the lines written before a resize)."""

from __future__ import annotations

from rich.text import Text
from textual.app import App, ComposeResult
from textual.containers import Vertical

from screens.reconquista.game_screen import ReconquistaScreen
from screens.shell.entry_log import EntryLog


class LogApp(App[None]):
    def compose(self) -> ComposeResult:
        with Vertical(id="box"):
            yield EntryLog(id="log", keep=3, min_width=20)  # as the screens have it


def entry(n: int) -> Text:
    return Text(f"entry {n}: " + "a long line of the log that wraps " * 2)


def lines(log: EntryLog) -> list[str]:
    return [line.text.rstrip() for line in log.lines]


def firsts(log: EntryLog) -> list[int]:
    """The number of each entry whose first line the log holds."""
    return [int(line.split()[1].rstrip(":")) for line in lines(log) if line.startswith("entry ")]


async def test_a_long_log_keeps_whole_entries_the_newest_last() -> None:
    app = LogApp()
    async with app.run_test(size=(40, 30)) as pilot:
        log = app.query_one(EntryLog)
        for n in range(1, 15):
            log.add(entry(n))
            await pilot.pause()
            assert lines(log)[0].startswith("entry "), lines(log)[0]  # an entry's first line
            shown = firsts(log)
            assert shown == list(range(shown[0], n + 1)) and len(shown) <= 2 * 3
            assert len(lines(log)) > len(shown)  # the entries do wrap at 40 columns
        assert firsts(log)[0] > 1  # the oldest have gone


async def test_the_entries_wrap_again_at_the_new_width() -> None:
    app = LogApp()
    async with app.run_test(size=(80, 30)) as pilot:
        log = app.query_one(EntryLog)
        for n in range(1, 4):
            log.add(entry(n))
        await pilot.pause()
        wide = lines(log)
        await pilot.resize_terminal(40, 30)
        await pilot.pause()
        narrow = lines(log)
        assert len(narrow) > len(wide)  # wrapped into more lines, none cut off
        assert max(len(line) for line in narrow) <= log.scrollable_content_region.width
        assert firsts(log) == [1, 2, 3]
        assert " ".join(" ".join(narrow).split()) == " ".join(" ".join(wide).split())  # the same words


async def test_an_entry_added_while_hidden_is_written_at_the_width_it_is_shown_at() -> None:
    """At 80x24 the Reconquista board takes the log's place, and a roll can be answered there:
    the entry is written when the log is shown again, at its width, not at min_width (20)."""
    app = LogApp()
    async with app.run_test(size=(80, 30)) as pilot:
        log = app.query_one(EntryLog)
        log.add(entry(1))
        await pilot.pause()
        app.query_one("#box").display = False  # the log's container, as the board does
        await pilot.pause()
        log.add(entry(2))
        await pilot.pause()
        app.query_one("#box").display = True
        await pilot.pause()
        await pilot.pause()
        assert firsts(log) == [1, 2]
        assert all(len(line) > 40 for line in lines(log) if line.startswith("entry "))


def test_the_reconquista_log_keeps_whole_entries() -> None:
    from screens.reconquista import game_screen

    assert game_screen.LOG_KEEP >= 60  # more than a resume writes
    assert "EntryLog" in ReconquistaScreen.compose.__code__.co_names
