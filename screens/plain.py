"""Text from players, data files and imports, put on screen as text: never read as markup.

Textual reads a plain ``str`` as content markup almost everywhere it shows one: Static and
Label content, ``notify()``, OptionList options, border titles, DataTable cells and the cells of
a Rich table. So a Dice tray label ``Siege [/]`` raised MarkupError once its roll was committed
(and again on every resume), and ``Attack [x2]`` showed as "Attack ". Every text a screen did
not write itself goes through ``plain`` (a Rich ``Text``, which is never parsed), and the
screen's own styling around it is put together with ``Text.assemble`` of such parts. ``plain``
also writes terminal control characters as visible escapes (``companion.text.visible``): an
imported label holding ESC must not drive the terminal, and Textual prints it as it is.
"""

from __future__ import annotations

from typing import Any

from rich.style import Style
from rich.text import Text
from textual.app import App
from textual.widget import Widget

from companion.text import visible

#: The most characters a text field of the screens takes (a label, a name, a search, a line of
#: a correction): a sentence is enough, and a paste of 200,000 characters is not stored whole.
TYPED_MAX = 200


def plain(text: object, style: str | Style = "") -> Text:
    """``text`` (anything, as ``str()`` writes it) to show as written, in ``style``."""
    return Text(visible(str(text)), style=style)


def notify_plain(target: App[Any] | Widget, message: str, **options: Any) -> None:
    """``target.notify(message, ...)`` with the message shown as written: an error quotes what
    it refuses (a file name, an answer, a label) and notify() would read it as markup."""
    target.notify(visible(message), markup=False, **options)
