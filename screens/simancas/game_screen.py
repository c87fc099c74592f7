"""The Battle of Simancas screen: the cards on the table, the totals, the match to 5 hands.

The players play with their own cards; the app keeps the table. Each side's placed
cards are a table of name, type, base force, every modifier with the card it comes
from, and the score (a destroyed card struck through, scoring 0), with both totals,
who is ahead, and the hands won; in a terminal under 100 columns, a line a card with its
base and modifiers on a line of its own, marked ↳, under it. Below (from 160 columns,
beside the table), one input: a few letters are matched against
the legal actions the match procedure offers (screens/simancas/completion.py), Enter
takes the highlighted one; reminders for the players (draw a card, discard one) are a
line confirmed with Enter. f3 shows the discard pile as the app knows it (the rulebook's
pile: a reshuffle empties it, a Weapon's search and a card placed again leave it), which
the Weapon's search (typed 'weapon' at a hand's first menu) lists the troops of. With the guide on (companion/simancas/guide.py), each hand's phases
are such lines too, from the Fate to the Retreat; f4 turns the guide on or off, a correction
by hand logged with the match. Every answer goes through the driver with the store's
recorder, so it is committed before the screen changes and the match resumes as it was.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table as RichTable
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Horizontal, Vertical, VerticalScroll
from textual.dom import DOMNode
from textual.widgets import Header, Static

from companion.driver import Driver, Step
from companion.errors import CompanionError
from companion.prompts import Choose, Tell, edit_prompt
from companion.simancas.cards import TYPE_NAMES
from companion.simancas.game import (
    ACTION_TOPIC,
    GAME,
    HANDS_TO_WIN,
    RESULT_TOPIC,
    ROUT_TOPIC,
    SEARCH_TOPIC,
    Match,
    menu_after,
    pile_of,
)
from companion.simancas.guide import GUIDE_TOPICS, PHASE_TITLES, guide_change, guide_what
from companion.simancas.table import SIDE_NAMES, SIDES, Side, Table
from screens.colours import tone
from screens.rendered import Hanging, Rendered
from screens.shell.footer import KeysFooter
from screens.shell.game_screen import GameScreen
from screens.shell.prompt_panel import PromptPanel
from screens.shell.session import open_driver
from screens.simancas.completion import Matcher, explain, notes_for

#: Short type names, so a side's table fits in half of a 100-column terminal.
SHORT_TYPES: dict[str, str] = {
    "L": "Leader",
    "K": "Skirm",
    "C": "Cav",
    "I": "Inf",
    "T": "Terrain",
    "S": "Strategy",
    "W": "Weapon",
}

#: The rulebook's STRATEGY PHASE and BATTLE PHASE effects of each card type, nearly word for word
#: (two shortened by a word or two so that the panel fits a 100x30 terminal).
REFERENCE: tuple[tuple[str, str, str], ...] = (
    ("Leader", "Draw 3 cards and discard any 2.", "Draw 2 cards."),
    (
        "Strategy",
        "Look at the next 5 cards in the deck, keep one.",
        "Draw 1 card and look at your opponent's hand.",
    ),
    ("Terrain", "Draw 2 cards.", "Destroy a placed Cavalry."),
    ("Cavalry", "Draw a card and look at your opponent's hand.", "Destroy a placed Skirmisher."),
    ("Skirmisher", "Opponent discards a random card from his hand.", "Destroy a placed Infantry."),
    ("Infantry", "No strategic effect.", "Destroy a placed Terrain."),
    (
        "Weapon",
        "Search the discard pile for a Cavalry, Skirmisher or Infantry card and put it in your hand.",
        "Destroy another placed Weapon.",
    ),
)
REFERENCE_NOTES = (
    "Troops are Skirmishers, Cavalry and Infantry. M cards are Moorish-only, X Christian-only, B either "
    "side's; an opponent's card in your hand can only be discarded for its tactic."
)


def done_text(done: list[str]) -> str:
    """'Done: Moors draw 1 card (Campaign); Moors place Jund Cavalry.'"""
    return "Done: " + "; ".join(t.rstrip(".") for t in done) + "."


def is_menu(prompt: Any) -> bool:
    """The match's main question (what happens on the table), not Rout's question of a target."""
    return isinstance(prompt, Choose) and prompt.topic == ACTION_TOPIC


def type_text(types: tuple[str, ...]) -> str:
    return "/".join(SHORT_TYPES[t] for t in types)


def how_destroyed(table: Table, name: str) -> str:
    """'destroyed by the Moors' Terrain tactic', 'discarded by Rout'."""
    d = next(d for d in table.destroyed if d.card == name)
    if d.means in TYPE_NAMES and d.by is not None:
        return f"destroyed by the {SIDE_NAMES[d.by]}' {TYPE_NAMES[d.means]} tactic"
    return f"discarded by {d.means}" if d.means else "destroyed"


def table_shown(driver: Driver) -> Table:
    """The table as the players have it: the match's, but while Rout's question waits Rout is
    on it and counts ("When Placed discard 1 placed Enemy Troop": it is down, its player choosing)."""
    match: Match = driver.state
    p = driver.pending
    if isinstance(p, Choose) and p.topic == ROUT_TOPIC:
        return match.table.being_placed(p.data["side"], p.data["card"])
    return match.table


def side_table(node: DOMNode, table: Table, side: Side, hanging: bool = False) -> RenderableType:
    """One side's placed cards: name, type, base and score, each modifier on a line under the name.

    The modifiers go under the name rather than in a column of their own: half of a
    100-column terminal leaves a column too narrow for "+1 Cavalry Detachments". ``hanging``
    (the game screen): each line under a name wraps under itself, two columns in; without it
    (History's replay, as it always was) a line that wraps goes back under the names. ``node``:
    the widget the table is for, whose theme gives the colours.
    """
    scores = [table.score(n) for n in table.placed[side]]
    if not scores:
        return Text("No cards placed.", style="dim italic")
    out = RichTable(box=None, expand=True, pad_edge=False, padding=(0, 1), header_style="bold underline")
    out.add_column("Card, modifiers", ratio=1)
    out.add_column("Type", no_wrap=True)
    out.add_column("Base", justify="right", no_wrap=True)
    out.add_column("Score", justify="right", no_wrap=True)
    for s in scores:
        card = table.deck.card(s.name)
        if s.destroyed:
            gone = "strike dim"
            out.add_row(
                name_cell(
                    (s.name, gone),
                    [Text(how_destroyed(table, s.name), style=tone(node, "error", "italic"))],
                    hanging,
                ),
                Text(type_text(card.types), style=gone),
                Text(str(s.base), style=gone),
                Text("0", style=tone(node, "error", "bold")),
            )
            continue
        under = [
            Text.assemble((f"{b.amount:+d} ", amount_style(node, b.amount)), b.source) for b in s.modifiers
        ]
        if s.floored:
            under.append(Text("below 0 counts as 0", style="dim"))
        out.add_row(
            name_cell((s.name, "bold"), under, hanging),
            Text(type_text(card.types), style="dim"),
            str(s.base),
            Text(str(s.score), style="bold"),
        )
    return out


def amount_style(node: DOMNode, amount: int) -> Style:
    """A modifier's amount: a gain in the theme's success colour, a loss in its error colour."""
    return tone(node, "success") if amount > 0 else tone(node, "error")


def name_cell(name: tuple[str, str], under: list[Text], hanging: bool) -> RenderableType:
    """A card's name and the lines under it (its modifiers, or why it was destroyed)."""
    if hanging:
        return Group(Text.assemble(name), *(indented(line) for line in under))
    out = Text.assemble(name)
    for line in under:
        out.append("\n  ")
        out.append_text(line)
    return out


def indented(line: Text) -> Hanging:
    """A line under a card's name, two columns in: where it wraps it wraps under itself, not back
    under the names ('destroyed by the Christians' / Skirmisher tactic' read as a card)."""
    return Hanging(line, Text("  "))


#: The widths of the narrow table's type and score columns, the same on every card's line.
TYPE_WIDTH = 9
SCORE_WIDTH = 6


def card_row(name: Text, kind: Text | str, score: Text | str) -> RichTable:
    """One line of the narrow table: the name (cut with … rather than wrapped, so that no
    second line looks like a card), its type and its score, in columns of fixed width."""
    row = RichTable.grid(expand=True, padding=(0, 0, 0, 1), pad_edge=False)
    row.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
    row.add_column(width=TYPE_WIDTH, no_wrap=True, overflow="ellipsis")
    row.add_column(width=SCORE_WIDTH, justify="right", no_wrap=True)
    row.add_row(name, kind, score)
    return row


def under_card(line: Text) -> Hanging:
    """The line under a card in the narrow table: marked ↳ as the card's own, and where it wraps
    it wraps under itself, never back to where the names of the cards start."""
    return Hanging(line, Text("  ↳ ", style="dim"))


def narrow_side_table(node: DOMNode, table: Table, side: Side) -> RenderableType:
    """One side's placed cards in a narrow column: a line a card (name, type, score) and under
    it, on a line marked ↳, its base and every modifier with the card it comes from."""
    scores = [table.score(n) for n in table.placed[side]]
    if not scores:
        return Text("No cards placed.", style="dim italic")
    head = "bold underline"
    lines: list[RenderableType] = [
        card_row(Text("Card", style=head), Text("Type", style=head), Text("Score", style=head))
    ]
    for s in scores:
        kind = type_text(table.deck.card(s.name).types)
        if s.destroyed:
            gone = "strike dim"
            lines.append(
                card_row(
                    Text(s.name, style=gone),
                    Text(kind, style=gone),
                    Text("0", style=tone(node, "error", "bold")),
                )
            )
            lines.append(under_card(Text(how_destroyed(table, s.name), style=tone(node, "error", "italic"))))
            continue
        lines.append(
            card_row(Text(s.name, style="bold"), Text(kind, style="dim"), Text(str(s.score), style="bold"))
        )
        if s.modifiers or s.floored:
            line = Text(f"base {s.base}", style="dim")
            for b in s.modifiers:
                line.append(", ")
                line.append(f"{b.amount:+d} ", style=amount_style(node, b.amount))
                line.append(b.source)
            if s.floored:
                line.append(", below 0 counts as 0", style="dim")
            lines.append(under_card(line))
    return Group(*lines)


def reference_table(strategy: bool = False) -> RenderableType:
    """Each card type's effects (ctrl+r). For the guide's Strategy Phase (``strategy``) its strategic
    effects alone: at 80x24 the whole table needed scrolling, and the Weapon's, the one that
    searches the discard pile, was below the panel's edge."""
    table = RichTable(box=None, expand=True, pad_edge=False, header_style="bold underline")
    table.add_column("Type", style="bold", no_wrap=True)
    table.add_column("Strategic effect (Strategy Phase)", ratio=3)
    if strategy:
        for kind, strategic, _ in REFERENCE:
            table.add_row(kind, strategic)
        return table
    table.add_column("Tactical effect (Battle Phase)", ratio=2)
    for row in REFERENCE:
        table.add_row(*row)
    return Group(table, Text(REFERENCE_NOTES, style="dim"))


def strategy_line(first: Side) -> str:
    """The guide's Strategy Phase as the question says it: its effects are in the panel above;
    a Weapon's search is recorded ('weapon' typed), so that its card leaves the discard pile."""
    return (
        "Strategy Phase: each player may discard one card for its strategic effect, "
        f"the {SIDE_NAMES[first]} first (each type's effect: above); type weapon for a Weapon's search."
    )


#: Narrower than this, the screen takes its narrow layout; this wide or wider, the wide one.
NARROW = 100
WIDE = 160


class SimancasScreen(GameScreen):
    """One Battle of Simancas match at the table."""

    #: The layout follows the width alone: the sides stacked, side by side, or with room to spare.
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW, "-normal"), (WIDE, "-wide")]

    HELP = "Battle of Simancas: type what lands on the table (a few letters of a card, destroy, pass, weapon, reshuffle) and enter; the app adds up the force, the hands and the match."

    CSS_PATH = "simancas.tcss"

    AUTO_FOCUS = "PromptPanel Input"  # the panel's answer field

    BINDINGS = [
        Binding("ctrl+z", "undo", "Undo", priority=True, id="game.undo"),
        Binding("ctrl+r", "reference", "Card types", priority=True, id="simancas.cards"),
        Binding("f2,question_mark", "rule", "Rule", priority=True, id="game.rule"),
        Binding("f3", "discard_pile", "Discard pile", priority=True, id="simancas.discards"),
        Binding("escape", "back", "Back", id="game.back"),
        # Not in the footer: an unguided match looks as it always has (README lists the key).
        Binding("f4", "guide", "Guide on/off", show=False, priority=True, id="simancas.guide"),
    ]

    def __init__(self, session_id: int) -> None:
        super().__init__(session_id)
        self._done: list[str] = []  # what the next message says was done
        self._matcher: Matcher | None = None
        self._matcher_for: Any = None
        self._notes: dict[str, str] = {}
        self._shown: list[str] = []  # the actions listed under the field, in order
        self._shown_for: tuple[str, object] = ("", None)  # the text and question they match
        # The card types panel opened for the guide's Strategy Phase (closed once it is confirmed).
        self._reference_for_strategy = False
        # What each side's table shows now (``_show_table``): drawn again only when it changes.
        self._cards_shown: dict[Side, object] = {}

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="sm-status")
        # The table above the question; on a wide terminal, the question beside it (simancas.tcss).
        with Container(id="sm-body"):
            with Vertical(id="sm-main"):
                with Horizontal(id="sm-tables"):
                    for side in SIDES:
                        with VerticalScroll(id=f"sm-{side}", classes="sm-side"):
                            yield Static(id=f"sm-{side}-cards")
                with VerticalScroll(id="sm-reference"):
                    yield Static(reference_table(), id="sm-reference-text")
                yield Static(id="sm-totals")
            # The question, the field the card is typed in and the actions it matches. The actions
            # name the cards of the data file: shown as written (their text is the answer).
            yield PromptPanel(search=True, id="sm-prompt")
        yield KeysFooter()

    def on_resize(self) -> None:
        if self.layout_changed() and self.driver is not None:
            self._show_table()

    def on_mount(self) -> None:
        for side in SIDES:
            self.query_one(f"#sm-{side}").border_title = SIDE_NAMES[side]
        self.query_one("#sm-reference").border_title = "Card types"
        self.layout_changed()
        self.driver = open_driver(self, self.session_id, GAME)
        if self.driver is None:
            return
        self.sub_title = f"Battle of Simancas · session {self.session_id}"
        self._show()

    # -- what the screen reads from the match ---------------------------------------------

    @property
    def match(self) -> Match:
        assert self.driver is not None
        state: Match = self.driver.state
        return state

    def hand_just_ended(self) -> bool:
        """The hand's result (or, guided, its Retreat) waits to be confirmed: the engine clears
        the table once it is. The last hand's too: its result said 'ahead by 5' and 'Hand 7'
        while it told the match won."""
        d = self.driver
        return (
            d is not None
            and isinstance(d.pending, Tell)
            and d.pending.topic in (RESULT_TOPIC, GUIDE_TOPICS["retreat"])
        )

    def shown_table(self) -> Table:
        """The table on screen: the hand being played, or the one just ended while its result
        is read (the engine clears it once the result is confirmed)."""
        assert self.driver is not None
        return table_shown(self.driver)

    def next_side(self) -> Side:
        """Whose turn it is, as the engine reckons it: the menu says so; during Rout's question
        it is the match's own reckoning (the side after the one placing Rout)."""
        assert self.driver is not None
        p = self.driver.pending
        side: Side = p.data["side"] if isinstance(p, Choose) and is_menu(p) else self.match.to_play
        return side

    def _menu_ahead(self) -> tuple[list[str], Side] | None:
        """While a reminder or a hand's result waits, the menu that follows it and the side to
        play then, so that a card typed now shows the side it goes to before Enter."""
        d = self.driver
        if d is None or not isinstance(d.pending, Tell) or self.match.winner is not None:
            return None
        if d.pending.topic in (RESULT_TOPIC, GUIDE_TOPICS["retreat"]):
            return list(menu_after(self.match)), "moors"
        return list(menu_after(self.match)), self.match.to_play

    def suggestions(self) -> list[str]:
        """The legal actions the text typed matches, best first (what Enter would take first);
        while a reminder waits, those of the menu that follows it."""
        d = self.driver
        if d is None:
            return []
        if isinstance(d.pending, Choose):
            options, menu, prefer = list(d.pending.options), is_menu(d.pending), self.next_side()
        else:
            ahead = self._menu_ahead()
            if ahead is None:
                return []
            (options, prefer), menu = ahead, True
        key = (len(d.steps), tuple(options))
        if self._matcher_for != key:
            self._matcher, self._matcher_for = Matcher(options, self.match.deck, menu=menu), key
            self._notes = notes_for(options, self.match.deck, menu)
        assert self._matcher is not None
        return self._matcher.match(self.query_one(PromptPanel).field.value, prefer)

    # -- showing --------------------------------------------------------------------------

    def _show(self, message: str = "", error: bool = False) -> None:
        d = self.driver
        if d is None:
            return
        self._show_strategy_effects()
        self._show_table()
        if isinstance(d.pending, Tell):
            placeholder = "Enter when done"
        elif is_menu(d.pending):
            placeholder = "a few letters of a card, e.g. jund; destroy + a card; restore + a card; pass"
        elif d.pending is not None:
            placeholder = "a few letters of the card"
        else:
            placeholder = ""
        prompt_panel = self.query_one(PromptPanel)
        prompt_panel.show_search(self._ask_text(), placeholder, None, open_field=not d.finished)
        self._fill_suggestions()
        prompt_panel.message(message, error)

    def _show_strategy_effects(self) -> None:
        """While the guide's Strategy Phase waits, the card types' effects are shown in place of
        the (still empty) table: its list is longer than the question's lines."""
        d = self.driver
        strategy = (
            d is not None and isinstance(d.pending, Tell) and d.pending.topic == GUIDE_TOPICS["strategy"]
        )
        reference = self.query_one("#sm-reference")
        text = self.query_one("#sm-reference-text", Static)
        if strategy and not reference.display:
            self._reference_for_strategy = True
            text.update(reference_table(strategy=True))
            self.action_reference()
        elif not strategy and self._reference_for_strategy:
            self._reference_for_strategy = False
            text.update(reference_table())  # ctrl+r shows both effects again
            if reference.display:
                self.action_reference()

    def _show_table(self) -> None:
        """The status, both sides' cards and the totals: drawn again when the layout changes
        (the question is not, so that the letters typed stay in the field)."""
        d = self.driver
        assert d is not None
        table = self.shown_table()
        totals = table.totals()
        over = self.hand_just_ended() or d.finished
        narrow = self.has_class("-narrow")
        for side in SIDES:
            panel = self.query_one(f"#sm-{side}", VerticalScroll)
            panel.border_subtitle = f"total {totals[side]}"
            other_total = totals["christians" if side == "moors" else "moors"]
            panel.set_class(totals[side] > other_total, "ahead")
            # Drawn again only when what it shows changes (the scores of the side's cards, how
            # each destroyed card went, the layout, the theme's colours): a side's cards are a Rich
            # table, which Textual renders whole to measure its height and again to paint it, 300
            # ms of an answer for both at 120x40 when every answer drew them (bench/game_screens.py).
            scores = [table.score(n) for n in table.placed[side]]
            shown = (narrow, self.app.theme, scores, tuple(table.destroyed))
            if self._cards_shown.get(side) == shown:
                continue
            self._cards_shown[side] = shown
            cards = (
                narrow_side_table(self, table, side)
                if narrow
                else side_table(self, table, side, hanging=True)
            )
            self.query_one(f"#sm-{side}-cards", Static).update(Rendered(cards))
        self.query_one("#sm-status", Static).update(self._status_text(short=narrow))
        self.query_one("#sm-totals", Static).update(self._totals_text(totals, over))

    def _status_text(self, short: bool = False) -> Text:
        match = self.match
        m, c = match.wins["moors"], match.wins["christians"]
        if self.driver is not None and self.driver.finished:
            hand = Text(f"Match over after {len(match.results)} hands", style="bold")
        elif self.hand_just_ended():
            hand = Text(f"Hand {match.results[-1].number} is over", style="bold")
        else:
            hand = Text(f"Hand {match.hand}", style="bold")
        first = "" if match.winner or short else f"  ·  the first to win {HANDS_TO_WIN} hands wins the match"
        return Text.assemble(hand, "  ·  hands won: ", (f"Moors {m}, Christians {c}", "bold"), (first, "dim"))

    def _totals_text(self, totals: dict[Side, int], over: bool) -> Text:
        m, c = totals["moors"], totals["christians"]
        lead = "christians" if c > m else "moors"
        gap = abs(m - c)
        if over:
            said = f"the {SIDE_NAMES[lead]} win the hand" if gap else "a tie: nobody wins the hand"
        elif not gap:
            said = "level"
        else:
            said = f"the {SIDE_NAMES[lead]} are ahead by {gap}"
        return Text.assemble(
            ("Moors ", "bold"),
            (str(m), "bold reverse"),
            "   ",
            ("Christians ", "bold"),
            (str(c), "bold reverse"),
            "   ",
            (said, "bold" if over else ""),
        )

    def _ask_text(self) -> Text:
        d = self.driver
        assert d is not None
        p = d.pending
        if p is None:
            return Text.assemble(
                (GAME.summary(self.match), tone(self, "warning", "bold")),
                ("  ctrl+z takes back the last hand; escape goes back.", "dim"),
            )
        if isinstance(p, Tell) and p.topic == GUIDE_TOPICS["strategy"]:
            # The effects of each type are in the panel above (_show_strategy_effects).
            return Text.assemble(
                ("▸ ", tone(self, "warning", "bold")),
                (strategy_line(p.data["first"]), "bold"),
                (f"  Enter when done (or to skip it); {self._guide_key()}.", "dim"),
            )
        if isinstance(p, Tell) and p.topic in GUIDE_TOPICS.values():
            return Text.assemble(
                ("▸ ", tone(self, "warning", "bold")),
                (p.text, "bold"),
                (f"  Enter when done (or to skip it), or type the first card; {self._guide_key()}.", "dim"),
            )
        if isinstance(p, Tell) and p.topic == RESULT_TOPIC and self.match.winner is not None:
            # The match is won: no card comes next.
            return Text.assemble(
                ("▸ ", tone(self, "warning", "bold")), (p.text, "bold"), ("  Enter ends the match.", "dim")
            )
        if isinstance(p, Tell):
            return Text.assemble(
                ("▸ ", tone(self, "warning", "bold")),
                (p.text, "bold"),
                ("  Enter when done, or type the next card.", "dim"),
            )
        if is_menu(p):
            return Text.assemble(
                (f"Hand {self.match.hand}: ", "bold"),
                "type a card to place it, destroy + a card for a tactic, restore + a card destroyed by mistake, or pass. ",
                (f"{SIDE_NAMES[self.next_side()]} to play.", "dim"),
            )
        return Text(getattr(p, "why", ""), style="bold")

    def _guide_key(self) -> str:
        """What f4 does now: turned off, the phase already told stays, and f4 turns it on again."""
        return "f4 turns the guide off" if self.match.guide else "guide off: f4 turns it on again"

    def _fill_suggestions(self) -> None:
        d = self.driver
        panel = self.query_one(PromptPanel)
        typed = bool(self.query_one(PromptPanel).field.value.strip())
        waiting = d is not None and isinstance(d.pending, Tell) and typed and self._menu_ahead() is not None
        if d is None or not (isinstance(d.pending, Choose) or waiting):
            self._shown = []
            self._shown_for = (self.query_one(PromptPanel).field.value, d.pending if d else None)
            panel.show_matches(None)
            return
        found = self.suggestions()
        self._shown = found
        self._shown_for = (self.query_one(PromptPanel).field.value, d.pending)
        total = len(d.pending.options) if isinstance(d.pending, Choose) else len(self._matcher or ())
        panel.show_matches(
            found,
            counted=f"{len(found)} of {total} actions match" if typed else f"{total} legal actions",
            # With nothing typed the list is a menu to browse, and Enter must not take its first line.
            highlighted=0 if found and typed else None,
            notes=self._notes,
        )

    # -- answering ------------------------------------------------------------------------

    @on(PromptPanel.Edited)
    def _typed(self, event: PromptPanel.Edited) -> None:
        self._fill_suggestions()
        if event.value:  # typing again clears the last message; the screen emptying the field does not
            self.query_one(PromptPanel).message("")

    @on(PromptPanel.Typed)
    def _entered(self, event: PromptPanel.Typed) -> None:
        self.enter(event.value)

    @on(PromptPanel.Picked)
    def _clicked(self, event: PromptPanel.Picked) -> None:
        self._take(self._shown[event.index])

    def enter(self, text: str) -> None:
        """Enter in the input: confirm the reminder waiting, or take the highlighted action.

        Text typed while a reminder waits means the players have moved on: every reminder
        waiting is confirmed, then the text is taken as the next action.
        """
        d = self.driver
        if d is None:
            return
        if self._shown_for != (text, d.pending):
            # Text that arrived faster than the list followed it (a paste, a fast typist, a
            # slow link): the list is made for this very text before anything is taken from it.
            self._fill_suggestions()
        # The action highlighted now, in the list shown (the side it goes to is on it).
        listing = self.query_one(PromptPanel).options
        index = listing.highlighted if listing.display else None
        picked = self._shown[index] if index is not None and index < len(self._shown) else None
        done: list[str] = []
        while isinstance(d.pending, Tell) and (text.strip() or not done):
            # A phase of the guide is said by its title: its instruction was on screen already.
            guided = d.pending.topic in GUIDE_TOPICS.values()
            told = PHASE_TITLES[d.pending.data["phase"]] if guided else d.pending.text
            try:
                d.ack()
            except CompanionError as exc:
                self._show(str(exc), error=True)
                return
            done.append(told)
        p = d.pending
        if done and (not text.strip() or p is None):
            self._show(done_text(done))
            return
        if p is None:
            self._show("The match is over: ctrl+z takes back the last hand, escape goes back.", error=True)
            return
        assert isinstance(p, Choose)
        if picked is not None and picked not in p.options:
            picked = None  # not the menu the list showed: say why rather than guess
        if picked is None:
            said = explain(
                text, p.options, self.match.table, self.next_side(), menu=is_menu(p), passed=self.match.passed
            )
            self._show(f"{done_text(done)} {said}" if done else said, error=True)
            return
        self._take(picked, done)

    def _take(self, option: str, done: list[str] | None = None) -> None:
        """Answer the waiting question with ``option``, committed by the store before it is shown."""
        d = self.driver
        p = d.pending if d is not None else None
        said = option
        # Rout's and the Weapon's questions are answered with a card alone: 'Done: Jund Cavalry.'
        # said nothing.
        if isinstance(p, Choose) and p.topic == ROUT_TOPIC:
            said = f"Rout discards {option}"
        elif isinstance(p, Choose) and p.topic == SEARCH_TOPIC:
            said = found_text(
                p.data["side"], dict(zip(p.options, p.data["options"], strict=True)).get(option, "")
            )
        self._done = [*(done or []), said]
        self.choose(option)

    def answered(self, step: Step) -> str:
        self.query_one(PromptPanel).field.value = ""
        return done_text(self._done)

    def show_game(self, message: str = "", error: bool = False) -> None:
        self._show(message, error)

    def undone_message(self, taken: list[Step]) -> str:
        return f"Took back: {taken[0].answer}."

    def action_cursor(self, delta: int) -> None:
        listing = self.query_one(PromptPanel).options
        if not listing.display or not listing.option_count:
            return
        now = listing.highlighted
        start = -1 if now is None and delta > 0 else (listing.option_count if now is None else now)
        listing.highlighted = max(0, min(listing.option_count - 1, start + delta))

    def action_reference(self) -> None:
        reference = self.query_one("#sm-reference")
        reference.display = not reference.display
        self.query_one("#sm-tables").display = not reference.display

    def action_guide(self) -> None:
        """Turn the guide on or off: a correction by hand, logged, so that a resume keeps it."""
        d = self.driver
        if d is None or d.finished:
            return
        on = not self.match.guide
        try:
            d.edit(edit_prompt(guide_what(on), guide_change(on)))
        except CompanionError as exc:
            self._show(str(exc), error=True)
            return
        said = (
            "Guide on: each hand's phases are told, from the next one on."
            if on
            else "Guide off: the phases are no longer told."
        )
        self._show(said)

    def action_discard_pile(self) -> None:
        """The discard pile as the app knows it now (the Weapon's strategic effect searches it),
        oldest first: the engine's record, shown as text."""
        from screens.shell.dialogs import MessageDialog

        if self.driver is None:
            return
        self.app.push_screen(MessageDialog("The discard pile", discard_pile_text(self.match)))


#: Why a card went to the discard pile, as the dialog says it.
GONE_HOW = {
    "destroyed": "destroyed",
    "tactic": "discarded for a tactic",
    "strategy": "discarded for its strategic effect",
    "retreat": "left on the table at the Retreat",
}

#: What the pile's list leaves out: the app never sees these cards.
UNSEEN_NOTE = (
    "Not listed: the cards discarded from the hands (the Reserve, the other strategic effects, a "
    "random discard, the Retreat), which the app does not see."
)


def found_text(side: Side, code: str) -> str:
    """What the Weapon's search took, by the code of its option: 'Moors take Jund Cavalry from
    the discard pile'."""
    who = SIDE_NAMES[side]
    if code.startswith("tactic:"):
        kind = TYPE_NAMES.get(code.removeprefix("tactic:"), "")
        return f"{who} take a {kind} card discarded for a tactic from the discard pile"
    if code in ("unseen", ""):
        return f"{who}' Weapon takes no card the app knows of from the discard pile"
    return f"{who} take {code} from the discard pile"


def discard_pile_text(match: Match) -> Text:
    """One line a card in the pile now: 'Hand 1 · Moors · Jund Cavalry (Cavalry), destroyed'; a
    card discarded from a hand for its tactic or strategic effect is known by its type only."""
    pile = pile_of(match)
    out = Text()
    if not len(pile):
        out.append("Nothing in the discard pile that the app knows of.", style="dim italic")
    for g in pile.entries:
        what = f"{g.card} ({TYPE_NAMES[g.card_type]})" if g.card else f"a {TYPE_NAMES[g.card_type]} card"
        out.append(f"Hand {g.hand} · {SIDE_NAMES[g.side]} · ", style="dim")
        out.append(what, style="bold")
        out.append(f", {GONE_HOW[g.how]}\n")
    out.rstrip()
    out.append("\n\n" + UNSEEN_NOTE, style="dim")
    return out
