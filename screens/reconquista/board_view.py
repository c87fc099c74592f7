"""The Reconquista map as the printed board shows it: five regions, twenty areas, every counter.

Each region is a panel in its colour; each area is one line: its die faces, its
name, its marks (city and religion, fortress, mountain, port) and the counters
on it by side. A siege, El Cid and the region in revolt are marked.

The regions' colours are the map file's; the sides' and the marks' are the board's own
(screens.colours.BOARD: one for a dark theme, one for a light), a siege and a revolt the
theme's error colour.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Grid
from textual.widget import Widget
from textual.widgets import Static

from companion.reconquista.board import Board
from companion.reconquista.state import GameState
from companion.reconquista.units import Kind
from screens.colours import board_marks, tone
from screens.plain import plain

#: The board's colours of the moment (screens.colours.board_marks) and the theme's for a siege.
Marks = dict[str, Style]

#: The side of a counter, where its kind does not name it (Rebels and French read as words).
SIDE_TAG = {"christian": "C", "muslim": "M"}
CITY_MARK = {"christian": "✝", "muslim": "☪"}
KIND_ORDER = (
    Kind.ARMY,
    Kind.ORDER,
    Kind.GARRISON,
    Kind.MERCENARY,
    Kind.CRUSADER,
    Kind.REBEL,
    Kind.FRENCH,
    Kind.REBEL_ARMY,
)
#: The kinds that name their side: a count and a word ("1 Rebel", "2 French").
WORDS = {
    Kind.REBEL: ("Rebel", "Rebels"),
    Kind.FRENCH: ("French", "French"),
    Kind.REBEL_ARMY: ("Rebel army", "Rebel armies"),
}
ROAD = "→"


def marks_of(widget: Widget) -> Marks:
    """The colours the board is drawn in, for the theme in force."""
    return {**board_marks(widget), "siege": tone(widget, "error", "bold")}


def legend(marks: Marks) -> Text:
    """Three lines that fit the 78 columns of the narrowest screen."""
    return Text.assemble(
        ("✝", marks["christian"]), " Christian ",
        ("☪", marks["muslim"]), " Muslim city  ",
        ("♜", "bold"), " fortress  ",
        ("▲", marks["mountain"]), " mountain  ",
        ("≈n", marks["port"]), " port  ",
        ("⚔", marks["siege"]), " siege  ",
        ("★", marks["el_cid"]), " El Cid\n",
        (SIDE_TAG["christian"], marks["christian"]), " Christian ",
        (SIDE_TAG["muslim"], marks["muslim"]), " Muslim: ",
        "1A army 1G garrison 1MO Order 1MC mercenary 1CR crusader\n",
        (ROAD, "bold"), " a road to another region;  the areas of a region all join (marches step up)",
    )  # fmt: skip


def faces_text(faces: tuple[int, ...]) -> str:
    return f"{faces[0]}-{faces[-1]}" if len(faces) > 1 else str(faces[0])


def force_text(counts: dict[Kind, int]) -> str:
    """A side's counters as units: ``1A 1G``, or ``2 French`` where the kind names the side."""
    parts = []
    for kind in KIND_ORDER:
        n = counts.get(kind, 0)
        if not n:
            continue
        if kind in WORDS:
            parts.append(f"{n} {WORDS[kind][n != 1]}")
        else:
            parts.append(f"{n}{kind.value}")
    return " ".join(parts)


def roads_text(board: Board, name: str) -> Text:
    """Where the roads from ``name`` lead, each destination in its region's colour."""
    out = Text()
    for i, dest in enumerate(board.roads_in_map_order.get(name, ())):
        out.append(ROAD if i == 0 else ",", style="bold")
        out.append(dest, style=board.region_of(dest).colour)
    return out


def area_line(
    board: Board,
    state: GameState,
    name: str,
    marks: Marks,
    width: int = 11,
    roads_width: int = 0,
    gap: str = "  ",
) -> Text:
    """One area: faces, name, marks, the roads from it and the counters on it, in ``marks``."""
    area, here = board.areas[name], state.areas[name]
    line = Text()
    line.append(f"{faces_text(area.faces):>3} ", style="dim")
    line.append(f"{name:<{width}}", style="bold" if here.total() else "")
    if here.city:
        line.append(CITY_MARK[here.city], style=marks[here.city])
    else:
        line.append(" ")
    line.append("♜" if here.fortress else " ", style="bold")
    line.append("▲" if area.mountain else " ", style=marks["mountain"])
    line.append(f"≈{area.port}" if area.port else "  ", style=marks["port"])
    line.append("⚔" if here.besieger else " ", style=marks["siege"])
    if roads_width:
        roads = roads_text(board, name)
        line.append(" ")
        line.append_text(roads)
        line.append(" " * (roads_width - roads.cell_len))
    for side in here.sides():
        tag = SIDE_TAG.get(side)
        units = force_text(here.units[side])
        besieging = "⚔" if side == here.besieger else ""
        line.append(
            f"{gap}{tag} {units}{besieging}" if tag else f"{gap}{units}{besieging}", style=marks[side]
        )
    if state.el_cid_area == name:
        line.append(" ★", style=marks["el_cid"])
        line.append(SIDE_TAG.get(state.el_cid_side or "", ""), style=marks.get(state.el_cid_side or "", ""))
    return line


class RegionPanel(Static):
    """One region of the map: a panel with its name on the border, or (``compact``) a block
    of lines with a bar in its colour and its name in a column beside its areas."""

    def __init__(self, board: Board, number: int) -> None:
        super().__init__(classes="region-panel", id=f"region-{number}")
        self.board = board
        self.number = number
        self.compact = False
        self._shown: Text | None = None
        self._title: str | None = ""  # the border title shown ("": none set yet)

    def on_mount(self) -> None:
        self.use(self.board)

    def use(self, board: Board, compact: bool | None = None) -> None:
        """Draw the region as ``board`` has it (its colour now, its areas from the next show)."""
        self.board = board
        if compact is not None:
            self.compact = compact
        self._shown = None
        self._title = ""
        colour = board.regions[self.number].colour
        if self.compact:
            self.styles.border = None
            self.styles.border_left = ("outer", colour)
        else:
            self.styles.border = ("round", colour)
        self.styles.border_title_color = colour

    def label_width(self) -> int:
        """The width of the region-name column of the compact board (the longest name)."""
        return max(len(f"{r.number} {r.name}") for r in self.board.regions.values()) + 1

    _state: GameState | None = None

    def on_resize(self) -> None:
        if self._state is not None:  # the roads come or go with the width
            self.show(self._state)

    def show(self, state: GameState) -> None:
        self._state = state
        region = self.board.regions[self.number]
        revolt = state.revolt == self.number
        # The region is named by the session's map file: a str border title is read as markup.
        title = None if self.compact else f"{region.number} {region.name}" + ("  IN REVOLT" if revolt else "")
        if title != self._title:
            # Only when it changes: Textual repaints a widget at every border title set, which
            # drew all five panels again at every answer (13 ms of each at 120x40).
            self._title = title
            self.border_title = None if title is None else plain(title)
        self.set_class(revolt, "revolt")
        # The compact board is one list: its columns line up from the first region to the last.
        names = self.board.all_areas() if self.compact else region.areas
        width = max(len(a) for a in names) + 1
        roads_width = max(roads_text(self.board, a).cell_len for a in names) + 1
        marks = marks_of(self)  # the theme's of the moment: a theme picked redraws the board
        lines = [area_line(self.board, state, a, marks, width, roads_width) for a in region.areas]
        room = self.content_size.width - (self.label_width() if self.compact else 0)
        if 0 < room < max(line.cell_len for line in lines):
            # Too narrow for the roads (a replay's side panel): the counters keep their line.
            lines = [area_line(self.board, state, a, marks, width - 1, gap=" ") for a in region.areas]
        if self.compact:
            labels = [f"{region.number} {region.name}", "IN REVOLT" if revolt else ""]
            label_style = marks["siege"] if revolt else Style.parse(f"bold {region.colour}")
            lines = [
                Text.assemble(
                    (f"{labels[i] if i < len(labels) else '':<{self.label_width()}}", label_style), line
                )
                for i, line in enumerate(lines)
            ]
        text = Text("\n").join(lines)
        if text != self._shown:  # most answers change one region or none: skip the repaint
            self._shown = text
            self.update(text)


class BoardView(Grid):
    """The five regions, placed roughly as on the map of Iberia."""

    DEFAULT_CSS = """
    BoardView {
        grid-size: 2 3;
        grid-columns: 1fr 1fr;
        grid-rows: auto auto auto;
        height: auto;
    }
    BoardView .region-panel {
        height: auto;
        padding: 0 1;
    }
    BoardView #region-5 {
        column-span: 2;
    }
    BoardView .revolt {
        background: $error 15%;
    }
    BoardView.-compact {
        grid-size: 1;
        grid-columns: 1fr;
        grid-rows: auto;
    }
    BoardView.-compact .region-panel {
        padding: 0 0 0 1;
    }
    BoardView.-compact #region-5 {
        column-span: 1;
    }
    """

    # Asturias and Aragón in the north, Portugal and Castilla in the middle, Al-Ándalus south.
    LAYOUT = (1, 2, 4, 3, 5)

    def __init__(self, board: Board, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.board = board

    def compose(self) -> ComposeResult:
        for number in self.LAYOUT:
            yield RegionPanel(self.board, number)

    def use(self, board: Board) -> None:
        """Draw ``board`` from now on: a session's own map, known only once its screen has
        read the session (the regions were composed with the shipped board before)."""
        self.board = board
        for panel in self.query(RegionPanel):
            panel.use(board)

    def show(self, state: GameState) -> None:
        self._state = state
        for panel in self.query(RegionPanel):
            panel.show(state)

    _state: GameState | None = None

    def set_compact(self, compact: bool) -> None:
        """The compact board (a line an area, the regions one under another, 20 rows) or the
        panels of the printed board; redrawn at once with the state last shown."""
        if compact == self.has_class("-compact"):
            return
        self.set_class(compact, "-compact")
        # A list reads in the region die's order; the panels stand as on the map of Iberia.
        order = sorted(self.LAYOUT) if compact else self.LAYOUT
        panels = {panel.number: panel for panel in self.query(RegionPanel)}
        for number in order[1:]:
            self.move_child(panels[number], after=self.children[-1])
        for panel in self.query(RegionPanel):
            panel.use(self.board, compact)
            if self._state is not None:
                panel.show(self._state)
