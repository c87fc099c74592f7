"""The prompt panel: what the game asks now, and the way to answer it, on every game screen.

``show`` lays out the usual questions: a Roll says what is rolled and why and takes the dice
typed (digits, with or without spaces) or r for the app; an Enter takes the text typed
(Enter alone: its default); a Choose lists its options, 1-9 picking the first nine (or,
``choose_keys``, the key each option is picked with; ``choose_field``, a field the option is
typed in, by its name or its number in the list, the list below it only showing them); Tells
arrive as a checklist of board changes, each confirmed with Enter. The screen may add a line
above the question (the odds of a pending attack or siege) and a note under some options.

A panel built with ``search=True`` answers a choice of many options by typing instead
(``show_search``): the field takes a few letters, the list below shows the options they
match, ↑ ↓ move through them and Enter takes the highlighted one (the Battle of Simancas,
whose turn offers over a hundred actions).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from companion.prompts import Choose, Enter, Prompt, Roll, Tell
from screens.colours import tone
from screens.plain import TYPED_MAX, plain

#: What a die field takes as typed: digits and the separators Roll.parse reads. Any other key
#: goes on to the screen, so the letters the footer shows (r, c, e, w...) act there too.
DIE_KEYS = frozenset("0123456789 ,;/")


class DiceInput(Input):
    """The dice typed from the table, or the text an Enter asks for.

    While it takes dice (``dice_only``) a letter is not typed: it goes on to the screen's keys,
    so r lets the app roll and c corrects a die as the footer says, with the focus here. While
    it takes text (a player's name) every letter is a letter: no key of the screen fires."""

    dice_only = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("max_length", TYPED_MAX)
        super().__init__(*args, **kwargs)

    def check_consume_key(self, key: str, character: str | None) -> bool:
        # What the footer shows: a key this field does not type is the screen's.
        if self.dice_only:
            return character is not None and character in DIE_KEYS
        return super().check_consume_key(key, character)

    async def _on_key(self, event: events.Key) -> None:
        if self.dice_only and event.is_printable and event.character not in DIE_KEYS:
            # Not typed: Input's own handler is skipped, and the key bubbles to the bindings.
            event.prevent_default()


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


#: How long a digit typed waits for the next one to make a number with it (12, not 1 then 2).
NUMBER_WAIT = 1.5


def done_index(prompt: Prompt | None) -> int | None:
    """The option of a choice that finishes it ("Done", "No movement", the end of a turn), as
    its data say: the code 'done' or 'end' among ``data["options"]``, or ``data["done"]`` true
    (the finishing option is then the last). None when the choice has none."""
    if not isinstance(prompt, Choose):
        return None
    codes = prompt.data.get("options")
    if isinstance(codes, list) and len(codes) == len(prompt.options):
        for code in ("done", "end"):
            if code in codes:
                return codes.index(code)
    if prompt.data.get("done") is True:
        return len(prompt.options) - 1
    return None


def options_below(options: OptionList, rows_lost: int = 0) -> int:
    """How many options of ``options`` are not whole in its view, below it (0 when every
    one is, or before it is laid out); ``rows_lost``: rows the view is about to lose."""
    height = options.scrollable_content_region.height - rows_lost
    lines: Sequence[tuple[int, int]] = options._lines
    if not height or not lines:
        return 0
    last = min(int(options.scroll_y) + height, len(lines)) - 1
    index, _offset = lines[last]
    whole = last + 1 == len(lines) or lines[last + 1][0] != index
    return options.option_count - (index + 1 if whole else index)


def example_dice(n: int, sides: int) -> str:
    """An example of ``n`` dice of ``sides`` faces as typed: '4' for one die, '4 3' for two,
    '17 4' for two d20s."""
    faces = [4, 3, 5, 2, 6, 1] if sides <= 9 else [17, 4, 12, 9, 20, 1]
    return " ".join(str(min(faces[i % len(faces)], sides)) for i in range(max(n, 1)))


def key_label(place: int, option: str, keys: Sequence[str], numbered: int) -> Text:
    """What goes before an option of a list: the key that picks it (its place, 1 first, up to
    ``numbered``; or its key of ``keys``). An option that is its own key (a count) shows no
    second copy of it."""
    if keys:
        key = keys[place - 1] if place <= len(keys) else ""
        width = max(len(k) for k in keys)  # 2-9 right-aligned under 10-18
        return Text("" if key == option else f"{key:>{width}} ", style="bold")
    width = len(str(numbered))  # 1-9 right-aligned under 10-14
    return Text(f"{place:>{width}} " if place <= numbered else " " * (width + 1), style="bold")


class Checklist(Static):
    """The instructions confirmed, and the one waiting (``▸``) under them. The waiting one is
    always shown whole, wrapped to the width: when the room is short the oldest confirmed
    lines give way, never the waiting one (a cut "▸ The French force marches from" says
    nothing), nor the newest confirmed: no line is cut, and a line above says how many more
    are in the log."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.done: list[Text] = []
        self.pending: Text | None = None

    def set_lines(self, done: list[Text], pending: Text | None, *, fill: bool = False) -> None:
        """``fill``: the list takes the rows the panel leaves (a roll or an instruction waits,
        nothing else needs them) and shows what fits of it, the newest first served."""
        self.done, self.pending = done, pending
        self.set_class(pending is not None or fill, "-fill")
        self.refresh(layout=True)

    def _wrapped(self, line: Text, width: int) -> int:
        return len(line.wrap(self.app.console, max(width, 1)))

    def _fitted(self, height: int | None) -> Text:
        """The lines that fit in ``height`` rows (None: all), the waiting one first served, then
        the confirmed ones from the newest; when some give way, a line saying how many."""
        width = self.content_size.width or 1_000
        pending = [self.pending] if self.pending is not None else []
        rows = [self._wrapped(t, width) for t in self.done]
        room = None if height is None else height - sum(self._wrapped(t, width) for t in pending)
        if room is None or sum(rows) <= room:
            return Text("\n").join([*self.done, *pending])
        if room < 2:  # no row for the confirmed ones: the waiting one alone
            return Text("\n").join(pending)
        room -= 1  # the line that says how many gave way
        kept = 0
        while kept < len(rows) and rows[-1 - kept] <= room:
            room -= rows[-1 - kept]
            kept += 1
        more = len(rows) - kept
        mark = Text(f"✓ {more} more done above: see the log", style="dim")
        return Text("\n").join([mark, *self.done[len(rows) - kept :], *pending])

    def render(self) -> Text:
        # Fitted when drawn, to the rows the panel leaves it (it fills them when it may).
        return self._fitted(self.content_size.height if self.has_class("-fill") else None)


class PromptPanel(Vertical):
    """The question of the moment, in the right-hand column.

    It owns its widgets and says what the player did with them in messages of its own
    (``Typed``, ``Edited``, ``Picked``): a screen handles those, and reaches its answer field
    and its list through ``field`` and ``options``, never through their ids."""

    class Typed(Message):
        """Enter in the answer field: its text."""

        def __init__(self, value: str) -> None:
            super().__init__()
            self.value = value

    class Edited(Message):
        """The answer field's text changed (as typed, or as the screen set it)."""

        def __init__(self, value: str) -> None:
            super().__init__()
            self.value = value

    class Picked(Message):
        """An option of the list picked (a click, or Enter on it): its place in the list."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    DEFAULT_CSS = """
    PromptPanel { height: 1fr; border: round $accent; padding: 0 1; }
    PromptPanel #pp-title { text-style: bold; color: $text-accent; }
    PromptPanel #pp-why { margin-bottom: 1; }
    PromptPanel #pp-odds { color: $text-warning; height: auto; margin-bottom: 1; }
    PromptPanel #pp-options { height: 1fr; border: none; background: transparent; }
    PromptPanel #pp-more { height: auto; color: $text-muted; }
    PromptPanel #pp-checklist { height: auto; max-height: 9; }
    PromptPanel #pp-checklist.-fill { height: 1fr; max-height: 100%; }
    PromptPanel #pp-message { height: auto; }
    PromptPanel #pp-dice { width: 100%; }
    """

    def __init__(self, *, search: bool = False, id: str | None = None) -> None:
        super().__init__(id=id)
        self.search = search
        self._keys: list[str] = []  # the keys the list shows, where they are not the places
        self._number: int = 0  # the digits typed so far at a long choice, as a number
        self._number_at: float = 0.0  # when the last of them was typed
        self._hold = False  # the next question shown starts with no option highlighted
        self._held = False  # the question on screen does
        #: The name the player gave the dice on the table (dice_names.show_die), said by the field.
        self.die: str | None = None

    def hold_highlight(self) -> None:
        """The next question is shown with no option highlighted: after an undo the choice
        taken back is asked again, and an Enter pressed on the way (to close a dialog, out of
        habit) must not give the same answer again. A number, or an arrow then Enter, picks."""
        self._hold = True

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
        yield Static(id="pp-more")
        yield Checklist(id="pp-checklist")
        yield Static(id="pp-message")

    prompt: Prompt | None = None

    @property
    def field(self) -> Input:
        """The answer field: dice, text, or (searching) what the options are filtered by."""
        return self.query_one("#pp-dice", Input)

    @property
    def options(self) -> OptionList:
        """The list of the question's options."""
        return self.query_one("#pp-options", OptionList)

    @on(Input.Submitted, "#pp-dice")
    def _typed(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(self.Typed(event.value))

    @on(Input.Changed, "#pp-dice")
    def _edited(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(self.Edited(event.value))

    @on(OptionList.OptionSelected, "#pp-options")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.post_message(self.Picked(int(event.option.id or 0)))

    def on_mount(self) -> None:
        self.border_title = "Now"
        options = self.query_one("#pp-options", OptionList)
        # What is below the view is said as it scrolls (and as the panel is laid out anew).
        self.watch(options, "scroll_y", self._say_more, init=False)
        self._number, self._number_at = 0, 0.0

    def on_resize(self, event: Any) -> None:
        self.call_after_refresh(self._say_more)

    def _say_more(self, *_: object) -> None:
        """Under a list longer than its view: how many options are below it, and how to reach
        them without arrows (their numbers; d for Done where there is one)."""
        more = self.query_one("#pp-more", Static)
        options = self.query_one("#pp-options", OptionList)
        below = options_below(options) if options.display and not self.search else 0
        if below and not more.display:
            below = options_below(options, 1)  # the line saying so takes a row from the list
        if below:
            first = options.option_count - below + 1
            # The keys of the options below: their places, or the keys the list shows for them.
            hidden = (
                self._keys[first - 1 :]
                if self._keys
                else [str(i) for i in range(first, options.option_count + 1)]
            )
            numbers = [k for k in hidden if k.isdigit()]
            spans = [numbers[0] if len(numbers) == 1 else f"{numbers[0]}-{numbers[-1]}"] if numbers else []
            which = ", ".join(spans + [k for k in hidden if k and not k.isdigit()])
            more.update(Text(f"↓ {below} more below ({which}): type the number, or ↓", style="dim"))
        if more.display != bool(below):
            # Shown or hidden, the line changes the list's room: counted again once laid out.
            more.display = bool(below)
            self.call_after_refresh(self._say_more)

    def _number_for(self, digit: int, top: int) -> int | None:
        """The number the digits typed make, up to ``top`` (None while one more digit could
        follow: the option so numbered, if any, is highlighted for Enter)."""
        if top <= 9:
            return digit
        now = time.monotonic()
        number = self._number * 10 + digit if now - self._number_at < NUMBER_WAIT else digit
        if not 1 <= number <= top:
            number = digit
        self._number, self._number_at = number, now
        if number * 10 > top:
            self._number = 0
            return number
        return None

    def number_typed(self, digit: int, count: int, numbers: Sequence[int] | None = None) -> int | None:
        """A digit typed at a choice of ``count`` options: the index of the option it picks,
        or None while it waits for a second digit. Up to 9 options a digit picks at once; with
        more, digits typed within NUMBER_WAIT make a number (1 then 2: 12): a number no digit
        can extend picks at once, one that may still grow is highlighted, and Enter takes it.
        ``numbers``: each option's own number, in list order, where it is not its place (the
        castles at setup keep their numbers as the list shrinks); a number no option has picks
        nothing (-1: the screen says which keys pick)."""
        if numbers is None:
            if count <= 9:
                return digit - 1  # at once (a digit past the list: the screen says which keys pick)
            numbers = range(1, count + 1)
        number = self._number_for(digit, max(numbers, default=0))
        if number is None:  # one more digit may follow: Enter takes the option so numbered
            waiting = self._number
            if waiting:  # (a 0 alone is no number: the list is left as it is)
                self.query_one("#pp-options", OptionList).highlighted = (
                    numbers.index(waiting) if waiting in numbers else None
                )
            return None
        return numbers.index(number) if number in numbers else -1

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
        choose_field: str | None = None,
        choose_keys: Sequence[str] | None = None,
        over: Text | None = None,
        take_focus: bool = True,
    ) -> None:
        """Show ``prompt`` (None: the game is over, ``over`` saying how) with the instructions
        already confirmed; ``notes`` add a line under some options (the odds of an attack);
        ``choose_title`` and ``choose_hint`` name a choice that is not a plain pick (a draw
        from the bag). ``choose_field`` (its placeholder) answers a choice by typing: the field
        has the focus, so that every letter is typed (no letter is a key), and the list under
        it is only read. ``choose_keys`` are the keys shown before the options, one an option,
        where the key is not the option's place in the list (the counts 2, 3, 4 picked with 2,
        3, 4): the screen's keys must pick by the same. ``take_focus`` False leaves the focus
        where it is (the Dice tray redraws its roll as its fields are typed in: the letters
        must go on arriving there)."""
        # A message under the same question (a key refused, an answer that does not fit) keeps
        # what is typed; a new question starts an empty field.
        fresh = prompt is not self.prompt
        self.prompt = prompt
        if fresh:
            self._held, self._hold = self._hold, False
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
        typed = isinstance(prompt, Choose) and choose_field is not None
        dice.display = not (dice_off := not (isinstance(prompt, (Roll, Enter)) or typed))
        dice.disabled = dice_off
        options.display = not (options_off := not isinstance(prompt, Choose))
        options.disabled = options_off
        checklist.display = bool(done_tells) or isinstance(prompt, Tell)
        self.query_one("#pp-more", Static).display = False  # said once a list is laid out
        if isinstance(prompt, Roll):
            title.update(
                f"Roll {prompt.n}d{prompt.sides}"
                if prompt.sides != 6
                else f"Roll {prompt.n} {'die' if prompt.n == 1 else 'dice'}"
            )
            rolled = "the dice you rolled" if self.die is None else f"the dice you rolled ({self.die})"
            how = {
                "physical": f"Type {rolled} and press Enter.",
                "app": "The app rolls.",
                "mixed": f"Type {rolled} and press Enter, or press r and the app rolls.",
            }[mode]
            why.update(Text.assemble((prompt.why, "bold"), "\n", (how, "dim")))
            example = example_dice(prompt.n, prompt.sides)
            dice.placeholder = f"e.g. {example}, or r" if mode != "physical" else f"e.g. {example}"
            dice.dice_only = True
            if fresh:
                dice.value = ""
            if take_focus:
                dice.focus()
        elif isinstance(prompt, Enter):
            title.update("Type")
            why.update(Text(prompt.why, style="bold"))
            dice.placeholder = f"Enter alone: {prompt.default}" if prompt.default else ""
            dice.dice_only = False
            if fresh:
                dice.value = ""
            if take_focus:
                dice.focus()
        elif isinstance(prompt, Choose):
            title.update(choose_title)
            finish = done_index(prompt)
            hint = choose_hint or (f"d: {prompt.options[finish]}" if finish is not None and not typed else "")
            why.update(Text.assemble((prompt.why, "bold"), (f"\n{hint}" if hint else "", "dim")))
            options.clear_options()
            keys = list(choose_keys) if choose_keys is not None else []
            self._keys = keys
            # Every option is numbered: from the 10th it is picked with two digits.
            numbered = len(prompt.options)
            options.add_options(
                Option(
                    Text.assemble(
                        key_label(i, o, keys, numbered),
                        o,
                        (f"\n  {notes[o]}" if o in notes else "", tone(self, "warning", "italic")),
                    ),
                    id=str(i - 1),
                )
                for i, o in enumerate(prompt.options, start=1)
            )
            # A list only read never takes the focus: the keys go to the field.
            options.can_focus = not typed
            if typed:
                assert choose_field is not None
                options.highlighted = None
                dice.placeholder = choose_field
                dice.dice_only = False  # a name is typed: every letter is a letter
                if fresh:
                    dice.value = ""
                dice.focus()
            else:
                options.highlighted = None if self._held else 0
                options.focus()
            self._number = 0
            self.call_after_refresh(self._say_more)
        elif isinstance(prompt, Tell):
            title.update("On the board")
            why.update(Text("Enter: done.   a: all done.", style="dim"))
            self.focus_checklist()
        else:
            title.update("The game is over")
            why.update(over if over is not None else Text("Victory points:", style="bold"))
            self.focus_checklist()
        # A choice takes the room it needs: the instructions confirmed give way to its options
        # (the log keeps them), all but the last, with how many there were.
        shown = done_tells[-1:] if isinstance(prompt, Choose) else done_tells[-6:]
        earlier = len(done_tells) - len(shown) if isinstance(prompt, Choose) else 0
        checklist.set_lines(
            [
                Text.assemble(
                    ("✓ ", tone(self, "success")),
                    (f"({earlier} more done: see the log) " if earlier else "", "dim"),
                    (t, "dim"),
                )
                for t in shown
            ],
            Text.assemble(("▸ ", tone(self, "warning", "bold")), (prompt.text, "bold"))
            if isinstance(prompt, Tell)
            else None,
            fill=not isinstance(prompt, Choose),
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
        field.dice_only = False  # the letters typed are the search
        field.disabled = not open_field
        field.display = open_field
        field.placeholder = placeholder
        self.show_matches(matches, counted=counted, highlighted=highlighted)
        if open_field:
            field.focus()

    def show_matches(
        self,
        matches: list[str] | None,
        *,
        counted: str = "",
        highlighted: int | None = None,
        notes: dict[str, str] | None = None,
    ) -> None:
        """The options the letters typed match (``show_search``), as the typing goes on; each
        option's id is its place in ``matches``, and ``notes`` a dim line after an option."""
        listing = self.query_one("#pp-options", OptionList)
        listing.display = matches is not None
        listing.disabled = matches is None
        if matches is None:
            return
        listing.clear_options()
        notes = notes or {}
        listing.add_options(
            Option(Text.assemble(text, (f"  {notes[text]}" if text in notes else "", "dim")), id=str(i))
            for i, text in enumerate(matches)
        )
        listing.highlighted = highlighted
        listing.border_title = counted

    def clear_typed(self) -> None:
        """Empty the field (dice refused), the message under the question kept."""
        self.query_one("#pp-dice", DiceInput).value = ""

    def focus_checklist(self) -> None:
        self.screen.set_focus(None)

    def message(self, text: str, error: bool = False) -> None:
        self.query_one("#pp-message", Static).update(
            plain(text, tone(self, "error", "bold") if error else tone(self, "success"))
        )
