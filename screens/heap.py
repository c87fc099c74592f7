"""The garbage collector's full passes, moved out of the answers into the player's pauses.

A full collection (generation 2) walks every object the app keeps alive that start-up did not
freeze: 50,000 and more once a game is open with its log (Textual's strips carry several
caches each). bench/ui.py measured such a pass at 65-160 ms, inside 4 to 10 answers in 100 at
every terminal size: each of those answers over the 50 ms a key may take. Python starts a full
pass by itself whenever enough objects have outlived the younger passes, whatever the app is
doing. While the app runs, those automatic full passes are off; one is made when the player
has pressed nothing for ``IDLE`` seconds (reading the screen, moving counters on the table),
or, so that memory stays bounded under steady typing, once ``MOST_PENDING`` passes of the
middle generation have gone by without one. The young passes stay automatic: they take a
millisecond or two and free most short-lived cycles. Nothing is kept longer than that: every
object unreachable is still freed, at the next pause.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable

#: Seconds without a key or a click before a full pass is made.
IDLE = 1.5
#: How often the app looks whether one is due (seconds): a look is one call to gc.get_count.
CHECK = 0.5
#: Passes of the middle generation after which a full pass is made even without a pause: at
#: Python's default thresholds, some 700,000 objects allocated and kept past two passes.
MOST_PENDING = 100
#: A threshold no count reaches: the automatic full passes, off.
_NEVER = 1_000_000


class IdleCollector:
    """Turns the automatic full passes off (``start``) and makes them in the pauses (``tick``,
    called every ``CHECK`` seconds; ``input`` at every key and click)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.last_input = clock()
        self.passes = 0  # full passes made here, for the tests and the bench
        self._saved: tuple[int, ...] | None = None

    def start(self) -> None:
        if self._saved is not None:
            return
        self._saved = gc.get_threshold()
        young, middle = self._saved[0], self._saved[1]
        gc.set_threshold(young, middle, _NEVER)

    def stop(self) -> None:
        """Python's thresholds as they were (the tests run many apps in one process)."""
        if self._saved is not None:
            gc.set_threshold(*self._saved)
            self._saved = None

    def input(self) -> None:
        self.last_input = self.clock()

    def tick(self) -> bool:
        """A full pass, if one is due and the player is not pressing keys; True if made."""
        pending = gc.get_count()[2]  # middle-generation passes since the last full one
        if pending == 0:
            return False
        if self.clock() - self.last_input < IDLE and pending < MOST_PENDING:
            return False
        gc.collect()
        self.passes += 1
        return True
