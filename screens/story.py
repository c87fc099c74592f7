"""A Reconquista session's story in pictures: the victory points, the cities each side holds and
the player's luck in battle, turn by turn (History, ``g``).

The figures are ``companion.review.story``'s: the session's log replayed by the driver, the
engine's state read at the end of each turn. They are worked out in a worker thread (a long
game replays in a tenth of a second, more than a key press should wait). A terminal of 34
lines or more shows the charts one above the other; a shorter one shows them side by side
when it is wide enough, one at a time (``v`` goes to the next) when it is not.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container
from textual.screen import Screen
from textual.widgets import Header, Static

from companion.errors import CompanionError
from companion.games import title as game_title
from companion.notes import first_line
from companion.review.story import Story, side_name
from screens.charts import cities_chart, luck_chart, vp_chart
from screens.colours import tone
from screens.context import companion_app
from screens.plain import plain
from screens.session_words import STATUS_SHOWN, local_time
from screens.shell.footer import KeysFooter
from screens.shell.notes import note_entry

#: The notes the story lists under its title; the others are in the log (History, n).
STORY_NOTES = 4


def last_turn_text(story: Story) -> str:
    """'After turn 20: 20 VP; cities: Christian 8, Muslim 3, Rebel 2.'"""
    last = story.turns[-1]
    cities = ", ".join(f"{side_name(s)} {last.cities.get(s, 0)}" for s in story.sides)
    return f"After turn {last.turn}: {last.vp} VP; cities: {cities}."


class StoryScreen(Screen[None]):
    """The story charts of one Reconquista session."""

    CSS_PATH = "story.tcss"

    BINDINGS = [
        Binding("v", "switch", "VP / cities / luck"),
        Binding("escape", "back", "Back"),
    ]
    #: From this height the charts are shown one above the other; below it, from WIDE columns,
    #: side by side; on a smaller terminal one at a time.
    TALL, WIDE = 34, 160
    #: The charts, in the order ``v`` goes through them when one is shown at a time.
    CHARTS = ("vp", "cities", "luck")

    def __init__(self, session_id: int) -> None:
        super().__init__()
        self.session_id = session_id
        self.story: Story | None = None
        #: The other line of play charted beside this one (StoryScreen._other_line).
        self.beside: tuple[str, str, Story] | None = None
        self.ready = False
        self.showing = "vp"  # the chart shown when only one fits

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="story-title")
        yield Static("Replaying the game…", id="story-note")
        yield Static(id="story-notes")
        yield Container(id="story-charts")
        yield KeysFooter()

    def on_mount(self) -> None:
        self.sub_title = f"Story of session {self.session_id}"
        self._layout()
        self._compute()

    def on_resize(self) -> None:
        self._layout()

    def _layout(self) -> None:
        """Both charts, or one at a time, by the room the terminal has."""
        width, height = self.app.size
        one = height < self.TALL and width < self.WIDE
        self.set_class(height >= self.TALL, "-stacked")
        self.set_class(height < self.TALL and width >= self.WIDE, "-side")
        self.set_class(one, "-one")
        for chart in self.CHARTS:
            self.set_class(one and self.showing == chart, f"-show-{chart}")
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # The switch is offered only where one chart is shown at a time, and there are charts.
        if action == "switch":
            return self.has_class("-one") and self.story is not None and bool(self.story.turns)
        return True

    @work(thread=True, exclusive=True)
    def _compute(self) -> None:
        from companion.review.story import session_story

        app = companion_app(self)
        try:
            store = app.store()
            info = store.session(self.session_id)
            # This chart is Reconquista's (companion/review/story.py): its registry entry names it.
            story = session_story(store, self.session_id) if info.game == "reconquista" else None
            beside = self._other_line(store, info) if story is not None else None
            notes = store.notes(self.session_id)
            turns = [ev.turn for ev in store.log(self.session_id).events] if notes else []
        except CompanionError as exc:
            self.app.call_from_thread(self._failed, str(exc))
            return
        noted = [(turns[n.step] if n.step < len(turns) else None, n.step, n.text) for n in notes]
        self.app.call_from_thread(self._show_notes, noted)
        self.beside = beside
        # mypy cannot match a coroutine function with Textual's Callable[..., T | Awaitable[T]].
        self.app.call_from_thread(self._fill, info, story)  # type: ignore[arg-type]

    def _other_line(self, store: Any, info: Any) -> tuple[str, str, Story] | None:
        """The other line of play charted beside this one: a branch's parent, else the session's
        newest branch; None without either (or when it cannot be read: this line alone)."""
        from companion.review.story import session_story

        other = info.parent_id
        if other is None:
            branches = store.branches(info.id)
            other = branches[-1][0] if branches else None
        if other is None:
            return None
        try:
            story = session_story(store, other)
        except CompanionError:
            return None
        return f"#{info.id} (this session)", f"#{other}", story

    def _show_notes(self, noted: list[tuple[int | None, int, str]]) -> None:
        """The player's notes on the game, each by its turn and step, the first STORY_NOTES of them."""
        shown = self.query_one("#story-notes", Static)
        shown.display = bool(noted)
        lines = [
            note_entry(
                self,
                f"{f'turn {turn}, ' if turn is not None else ''}step {step + 1}: {first_line(said, 200)}",
            )
            for turn, step, said in noted[:STORY_NOTES]
        ]
        if len(noted) > STORY_NOTES:
            lines.append(
                Text(
                    f"and {len(noted) - STORY_NOTES} more: n goes from one to the next in the log (History).",
                    style="dim",
                )
            )
        shown.update(Text("\n").join(lines))

    def _failed(self, message: str) -> None:
        self.query_one("#story-note", Static).update(plain(message, tone(self, "error", "bold")))
        self.ready = True

    async def _fill(self, info: Any, story: Story | None) -> None:
        self.story = story
        self.query_one("#story-title", Static).update(
            Text.assemble(
                (f"#{info.id} {game_title(info.game)}", "bold"),
                f" · {STATUS_SHOWN.get(info.status, info.status)} · started {local_time(info.started)} · ",
                plain(info.summary or "no steps yet"),
            )
        )
        note = self.query_one("#story-note", Static)
        if story is None:
            note.update(f"There is no story chart for {game_title(info.game)}: this chart is Reconquista's.")
        elif not story.turns:
            note.update("No turn of this game is complete yet: the story is charted from the end of turn 1.")
        else:
            said = last_turn_text(story)
            if story.parting:
                said += " " + story.parting
            note.update(plain(said))
            await self.query_one("#story-charts").mount_all(
                [
                    vp_chart(story, self.beside, id="story-vp"),
                    cities_chart(story, id="story-cities"),
                    luck_chart(story, id="story-luck"),
                ]
            )
        self.refresh_bindings()
        self.ready = True

    def action_switch(self) -> None:
        self.showing = self.CHARTS[(self.CHARTS.index(self.showing) + 1) % len(self.CHARTS)]
        self._layout()

    def action_back(self) -> None:
        self.app.pop_screen()
