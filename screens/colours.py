"""The theme's colours for the text the screens style in Python: messages, marks in a log.

A style sheet (.tcss) names the theme's colours itself ($error, $accent...). Text a screen
puts together in Python (a refusal under the question, the ✓ of an instruction done, a
warning in the log) takes them from here, never as "red" or "#ffb347": ``tone(widget,
"error", "bold")`` is the Rich style of that text in the theme in force, so it reads in a
light theme as in a dark one. The colours are the theme's text-* variants ($text-error,
$text-success...), which Textual makes to be read on the theme's own background.

The colour is taken when the text is made: text drawn before the user picks another theme
keeps the old theme's colours until it is drawn again (the next answer redraws a game
screen's question; a log's earlier lines stay as they were written).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

from rich.style import Style
from textual.color import Color, ColorParseError
from textual.dom import DOMNode

Tone = Literal["error", "success", "warning", "accent"]

#: The theme variable each tone's colour comes from.
VARIABLES: dict[Tone, str] = {
    "error": "text-error",
    "success": "text-success",
    "warning": "text-warning",
    "accent": "text-accent",
}


@lru_cache(maxsize=128)
def _style(colour: str, style: str) -> Style:
    try:
        rich_colour = Color.parse(colour).rich_color  # "#D17E92", or "ansi_red" in an ANSI theme
    except ColorParseError:
        return Style.parse(style) if style else Style()
    return (Style.parse(style) if style else Style()) + Style(color=rich_colour)


def tone(node: DOMNode, name: Tone, style: str = "") -> Style:
    """The Rich style of text in the theme's ``name`` colour, with ``style`` ("bold",
    "italic") added; ``node`` is any widget or screen of the app."""
    colour = node.app.theme_variables.get(VARIABLES[name], "")
    return _style(colour, style)


#: The Reconquista board's own marks: the sides' counters and a few map symbols, each a colour
#: for a dark background, a darker one for a light background, and its style. No theme
#: variable names them: they must stay apart from each other, whatever the theme.
BOARD: dict[str, tuple[str, str, str]] = {
    "christian": ("#7fb2ff", "#1d5bb5", "bold"),
    "muslim": ("#6fd47a", "#1f7a35", "bold"),
    "rebel": ("#ff6b6b", "#b8232a", "bold"),
    "french": ("#ffb347", "#a35400", "bold"),
    "rebel_army": ("#ff8fd8", "#a3307c", "bold"),
    "el_cid": ("#ffd75f", "#8a6500", "bold"),
    "mountain": ("#c8a878", "#7a5a2a", ""),
    "port": ("#6fc3df", "#17708f", ""),
}


def board_marks(node: DOMNode) -> dict[str, Style]:
    """The board's marks (``BOARD``) in their colours for the theme in force, dark or light."""
    light = not node.app.current_theme.dark
    return {name: _style(entry[light], entry[2]) for name, entry in BOARD.items()}
