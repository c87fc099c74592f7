"""The Reconquista map as the printed board shows it: five regions, twenty areas, every counter.

Each region is a panel in its colour; each area is one line: its die faces, its
name, its marks (city and religion, fortress, mountain, port) and the counters
on it by side. A siege, El Cid and the region in revolt are marked.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Grid
from textual.widgets import Static

from companion.reconquista.board import Board
from companion.reconquista.state import GameState
from companion.reconquista.units import Kind
from screens.plain import plain

SIDE_STYLE = {
    "christian": "bold #7fb2ff",
    "muslim": "bold #6fd47a",
    "rebel": "bold #ff6b6b",
    "french": "bold #ffb347",
    "rebel_army": "bold #ff8fd8",
}
SIDE_TAG = {"christian": "C", "muslim": "M", "rebel": "R", "french": "F", "rebel_army": "RA"}
CITY_MARK = {"christian": ("✝", "bold #7fb2ff"), "muslim": ("☪", "bold #6fd47a")}
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

LEGEND = Text.assemble(
    ("✝", CITY_MARK["christian"][1]), " Christian city  ",
    ("☪", CITY_MARK["muslim"][1]), " Muslim city  ",
    ("♜", "bold"), " fortress  ",
    ("▲", "#c8a878"), " mountain  ",
    ("≈n", "#6fc3df"), " port  ",
    ("⚔", "bold #ff6b6b"), " siege  ",
    ("★", "bold #ffd75f"), " El Cid   ",
    "C Christian, M Muslim, R Rebels, F French, RA Rebel armies: ",
    "A army, G garrison, MO Military Order, MC mercenary, CR crusader, R Rebel, F/RA army",
)  # fmt: skip


def faces_text(faces: tuple[int, ...]) -> str:
    return f"{faces[0]}-{faces[-1]}" if len(faces) > 1 else str(faces[0])


def area_line(board: Board, state: GameState, name: str, width: int = 11) -> Text:
    """One area: faces, name, marks and counters."""
    area, here = board.areas[name], state.areas[name]
    line = Text()
    line.append(f"{faces_text(area.faces):>3} ", style="dim")
    line.append(f"{name:<{width}}", style="bold" if here.total() else "")
    if here.city:
        mark, style = CITY_MARK[here.city]
        line.append(mark, style=style)
    else:
        line.append(" ")
    line.append("♜" if here.fortress else " ", style="bold")
    line.append("▲" if area.mountain else " ", style="#c8a878")
    line.append(f"≈{area.port}" if area.port else "  ", style="#6fc3df")
    line.append("⚔" if here.besieger else " ", style="bold #ff6b6b")
    for side in here.sides():
        counts = here.units[side]
        units = "".join(f"{counts[k]}{k.value}" for k in KIND_ORDER if counts.get(k))
        besieging = side == here.besieger
        line.append(f" {SIDE_TAG[side]}{units}{'⚔' if besieging else ''}", style=SIDE_STYLE[side])
    if state.el_cid_area == name:
        line.append(" ★", style="bold #ffd75f")
        line.append(
            SIDE_TAG.get(state.el_cid_side or "", ""), style=SIDE_STYLE.get(state.el_cid_side or "", "")
        )
    return line


class RegionPanel(Static):
    """One region of the map."""

    def __init__(self, board: Board, number: int) -> None:
        super().__init__(classes="region-panel", id=f"region-{number}")
        self.board = board
        self.number = number
        self._shown: Text | None = None

    def on_mount(self) -> None:
        self.use(self.board)

    def use(self, board: Board) -> None:
        """Draw the region as ``board`` has it (its colour now, its areas from the next show)."""
        self.board = board
        self._shown = None
        self.styles.border = ("round", board.regions[self.number].colour)
        self.styles.border_title_color = board.regions[self.number].colour

    def show(self, state: GameState) -> None:
        region = self.board.regions[self.number]
        revolt = state.revolt == self.number
        # The region is named by the session's map file: a str border title is read as markup.
        self.border_title = plain(f"{region.number} {region.name}" + ("  IN REVOLT" if revolt else ""))
        self.set_class(revolt, "revolt")
        width = max(len(a) for a in region.areas)
        text = Text("\n").join(area_line(self.board, state, a, width) for a in region.areas)
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
        for panel in self.query(RegionPanel):
            panel.show(state)
