"""A log of entries that wraps at its own width and never starts in the middle of an entry.

Textual's RichLog draws an entry's lines once, at the width it has when the entry is written,
and its ``max_lines`` drops the oldest lines one by one. So after a resize the old entries keep
their old width (cut off, or in a narrow column), and a long game's log could start with the
second line of an entry whose first line had gone. EntryLog keeps the entries it was given and
writes them again: when its width changes; when it is shown again after entries were added
while it was hidden (written then, they were wrapped at ``min_width``: at 80x24 the Reconquista
board hides the log, and a roll is answered from it); and when it would hold more than twice
``keep`` entries (then the newest ``keep``, so that it stays short; 200 entries take ~0.1 s of
CPU to write again, once every 200).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType
from textual.events import Resize
from textual.widgets import RichLog


class EntryLog(RichLog):
    """A RichLog of whole entries (``add``), wrapped at the log's width, the newest last."""

    def __init__(self, *, keep: int, **kwargs: Any) -> None:
        super().__init__(wrap=True, markup=False, **kwargs)
        self.keep = keep
        self.entries: list[RenderableType] = []
        self._width = 0  # the width the entries were last written at
        self._unwritten = False  # entries were added while the log was hidden

    def add(self, entry: RenderableType) -> None:
        """Write ``entry`` at the end of the log (when the log is next shown, if it is hidden)."""
        self.entries.append(entry)
        if len(self.entries) > 2 * self.keep:
            del self.entries[: -self.keep]
            self._write_all()
        elif self._size_known and not self.scrollable_content_region.width:
            # Hidden (the log or a container of it): a RichLog would wrap it at min_width now.
            self._unwritten = True
        else:
            self.write(entry)

    def replace(self, entries: Sequence[RenderableType]) -> None:
        """The log rewritten with ``entries`` (the game as it now stands, after an undo or a
        correction: the entries taken back are gone, not left above)."""
        self.entries = list(entries)[-2 * self.keep :]
        if self._size_known and not self.scrollable_content_region.width:
            self.clear()
            self._unwritten = True
        else:
            self._write_all()

    def on_show(self) -> None:
        if self._unwritten:
            self._write_all()

    def on_resize(self, event: Resize) -> None:
        # RichLog's own handler (called after this one) writes what waited for a first size.
        width = event.size.width
        if width and self._width and width != self._width:
            self._write_all()
        self._width = width or self._width

    def _write_all(self) -> None:
        self._unwritten = False
        self.clear()
        for entry in self.entries:
            self.write(entry)
