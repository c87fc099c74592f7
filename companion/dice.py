"""The app's dice: seeded, and tied to the step they answer.

Each app roll is drawn from a generator seeded by the session seed and the
position of the step in the log. A resumed session therefore rolls exactly what
the uninterrupted one would have, without storing any generator state, and the
same seed with the same answers always gives the same game.
"""

from __future__ import annotations

import random


def app_roll(seed: int, step: int, n: int, sides: int) -> list[int]:
    """The ``n`` faces of ``sides``-sided dice the app rolls for step ``step`` of a session."""
    rng = random.Random(f"{seed}:{step}")
    return [rng.randint(1, sides) for _ in range(n)]
