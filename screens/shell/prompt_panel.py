"""The prompt panel: what the game asks now, and the way to answer it, on every game screen.

``show`` lays out the usual questions: a Roll says what is rolled and why and takes the dice
typed (digits, with or without spaces) or r for the app; an Enter takes the text typed
(Enter alone: its default); a Choose lists its options, 1-9 picking the first nine; Tells
arrive as a checklist of board changes, each confirmed with Enter. The screen may add a line
above the question (the odds of a pending attack or siege) and a note under some options.

A panel built with ``search=True`` answers a choice of many options by typing instead
(``show_search``): the field takes a few letters, the list below shows the options they
match, ↑ ↓ move through them and Enter takes the highlighted one (the Battle of Simancas,
whose turn offers over a hundred actions).
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from companion.prompts import Choose, Enter, Prompt, Roll, Tell
from screens.plain import plain


class DiceInput(Input):
    """The dice typed from the table (r here asks the app to roll instead), or the text an
    Enter asks for (where r is a letter like any other)."""

    BINDINGS = [Binding("r", "screen.roll", "Roll (app)", priority=True)]


class SearchInput(DiceInput):
    """The field of a choice answered by typing: ↑ ↓ move through the matches below it."""

    BINDINGS = [
        Binding("up", "screen.cursor(-1)", show=False),
        Binding("down", "screen.cursor(1)", show=False),
        Binding("pageup", "screen.cursor(-5)", show=False),
        Binding("pagedown", "screen.cursor(5)", show=False),
    ]


class Matches(OptionList, can_focus=False):
    """The options the typed letters match; the focus stays in the field."""


class Checklist(Static):
    """The instructions confirmed, and the one waiting (``▸``) under them. The waiting one is
    always shown whole, wrapped to the width: when the room is short the oldest confirmed
    lines give way, never the waiting one (a cut "▸ The French force marches from" says
    nothing)."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.done: list[Text] = []
        self.pending: Text | None = None

    def set_lines(self, done: list[Text], pending: Text | None) -> None:
        self.done, self.pending = done, pending
        self.set_class(pending is not None, "-pending")
        self.refresh(layout=True)

    def _wrapped(self, line: Text, width: int) -> int:
        return len(line.wrap(self.app.console, max(width, 1)))

    def _fitted(self, height: int | None) -> Text:
        """The lines that fit in ``height`` rows (None: all), the waiting one first served."""
        width = self.content_size.width or 1_000
        lines = [self.pending] if self.pending is not None else []
        room = None if height is None else height - sum(self._wrapped(t, width) for t in lines)
        for line in reversed(self.done):
            if room is not None:
                room -= self._wrapped(line, width)
                if room < 0:
                    break
            lines.insert(0, line)
        return Text("\n").join(lines)

    def render(self) -> Text:
        # Fitted when drawn, to the rows the panel leaves it (it fills them while one waits).
        return self._fitted(self.content_size.height if self.pending is not None else None)


class PromptPanel(Vertical):
    """The question of the moment, in the right-hand column."""

    DEFAULT_CSS = """
    PromptPanel { height: 1fr; border: round $accent; padding: 0 1; }
    PromptPanel #pp-title { text-style: bold; color: $accent; }
    PromptPanel #pp-why { margin-bottom: 1; }
    PromptPanel #pp-odds { color: $warning; height: auto; margin-bottom: 1; }
    PromptPanel #pp-options { height: 1fr; border: none; background: transparent; }
    PromptPanel #pp-checklist { height: auto; max-height: 9; }
    PromptPanel #pp-checklist.-pending { height: 1fr; max-height: 100%; }
    PromptPanel #pp-message { height: auto; }
    PromptPanel #pp-dice { width: 100%; }
    """

    def __init__(self, *, search: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.search = search

    def compose(self) -> ComposeResult:
        yield Static(id="pp-title")
        yield Static(id="pp-why")
        yield Static(id="pp-odds")
        if self.search:
            yield SearchInput(id="pp-dice")
            # The options are the game's texts (cards of a data file): shown as written.
            yield Matches(id="pp-options", markup=False)
        else:
            yield DiceInput(placeholder="e.g. 3 5, or r", id="pp-dice")
            yield OptionList(id="pp-options")
        yield Checklist(id="pp-checklist")
        yield Static(id="pp-message")

    prompt: Prompt | None = None

    def on_mount(self) -> None:
        self.border_title = "Now"

    def show(
        self,
        prompt: Prompt | None,
        done_tells: list[str],
        odds: str = "",
        mode: str = "mixed",
        notes: dict[str, str] | None = None,
        *,
        choose_title: str = "Choose",
        choose_hint: str = "",
        over: Text | None = None,
    ) -> None:
        """Show ``prompt`` (None: the game is over, ``over`` saying how) with the instructions
        already confirmed; ``notes`` add a line under some options (the odds of an attack);
        ``choose_title`` and ``choose_hint`` name a choice that is not a plain pick (a draw
        from the bag)."""
        self.prompt = prompt
        self.query_one("#pp-title", Static).display = True
        notes = notes or {}
        title = self.query_one("#pp-title", Static)
        why = self.query_one("#pp-why", Static)
        dice = self.query_one("#pp-dice", DiceInput)
        options = self.query_one("#pp-options", OptionList)
        checklist = self.query_one("#pp-checklist", Checklist)
        # The odds and the final score name areas and results of the session's map and tables files.
        odds_line = self.query_one("#pp-odds", Static)
        odds_line.update(plain(odds))
        odds_line.display = bool(odds)  # no empty line (and its margin) above the question
        # Hidden and disabled: a hidden widget could keep the focus and swallow the keys.
        dice.display = not (dice_off := not isinstance(prompt, (Roll, Enter)))
        dice.disabled = dice_off
        options.display = not (options_off := not isinstance(prompt, Choose))
        options.disabled = options_off
        checklist.display = bool(done_tells) or isinstance(prompt, Tell)
        if isinstance(prompt, Roll):
            title.update(
                f"Roll {prompt.n}d{prompt.sides}"
                if prompt.sides != 6
                else f"Roll {prompt.n} {'die' if prompt.n == 1 else 'dice'}"
            )
            how = {
                "physical": "Type the dice you rolled and press Enter.",
                "app": "The app rolls.",
                "mixed": "Type the dice you rolled and press Enter, or press r and the app rolls.",
            }[mode]
            why.update(Text.assemble((prompt.why, "bold"), "\n", (how, "dim")))
            dice.placeholder = "e.g. 3 5, or r" if mode != "physical" else "e.g. 3 5"
            dice.value = ""
            dice.focus()
        elif isinstance(prompt, Enter):
            title.update("Type")
            why.update(Text(prompt.why, style="bold"))
            dice.placeholder = f"Enter alone: {prompt.default}" if prompt.default else ""
            dice.value = ""
            dice.focus()
        elif isinstance(prompt, Choose):
            title.update(choose_title)
            why.update(
                Text.assemble((prompt.why, "bold"), (f"\n{choose_hint}" if choose_hint else "", "dim"))
            )
            options.clear_options()
            options.add_options(
                Option(
                    Text.assemble(
                        (f"{i} " if i <= 9 else "  ", "bold"),
                        o,
                        (f"\n  {notes[o]}" if o in notes else "", "italic #ffb347"),
                    ),
                    id=str(i - 1),
                )
                for i, o in enumerate(prompt.options, start=1)
            )
            options.highlighted = 0
            options.focus()
        elif isinstance(prompt, Tell):
            title.update("On the board")
            why.update(Text("Enter: done.   a: all done.", style="dim"))
            self.focus_checklist()
        else:
            title.update("The game is over")
            why.update(over if over is not None else Text("Victory points:", style="bold"))
            self.focus_checklist()
        checklist.set_lines(
            [Text.assemble(("✓ ", "green"), (t, "dim")) for t in done_tells[-6:]],
            Text.assemble(("▸ ", "bold yellow"), (prompt.text, "bold")) if isinstance(prompt, Tell) else None,
        )

    def show_search(
        self,
        question: Text,
        placeholder: str,
        matches: list[str] | None,
        *,
        counted: str = "",
        highlighted: int | None = None,
        open_field: bool = True,
    ) -> None:
        """A question answered by typing (``search=True``): ``question`` above the field, the
        options the letters typed match below it (None: no list, as while an instruction
        waits), ``counted`` saying how many match. ``open_field`` False: nothing more is asked."""
        self.prompt = None
        self.query_one("#pp-title", Static).display = False
        self.query_one("#pp-odds", Static).display = False
        self.query_one("#pp-checklist", Static).display = False
        self.query_one("#pp-why", Static).update(question)
        field = self.query_one("#pp-dice", DiceInput)
        field.disabled = not open_field
        field.display = open_field
        field.placeholder = placeholder
        self.show_matches(matches, counted=counted, highlighted=highlighted)
        if open_field:
            field.focus()

    def show_matches(
        self, matches: list[str] | None, *, counted: str = "", highlighted: int | None = None
    ) -> None:
        """The options the letters typed match (``show_search``), as the typing goes on."""
        listing = self.query_one("#pp-options", OptionList)
        listing.display = matches is not None
        listing.disabled = matches is None
        if matches is None:
            return
        listing.clear_options()
        listing.add_options(Option(text) for text in matches)
        listing.highlighted = highlighted
        listing.border_title = counted

    def focus_checklist(self) -> None:
        self.screen.set_focus(None)

    def message(self, text: str, error: bool = False) -> None:
        self.query_one("#pp-message", Static).update(plain(text, "bold red" if error else "green"))
