"""The territory-token bag: what is left, the draw question, and the app's own draw.

A draw is a Choose among the territories still in the bag: the player types what
came out of the physical bag, or the app draws. The app's draw rolls one die with
as many faces as there are tokens left (companion.dice, seeded by the session and
the step) and takes the token at that place when the bag's tokens are laid out in
board order; every token is equally likely, as in the cloth bag, and the answer
logged is the territory either way, so a physical and an app draw mean the same.
"""

from __future__ import annotations

from companion.dice import app_roll

DRAW_WHY = "Draw a territory token from the bag: which territory came out?"
#: The draw's topic: the screens find the draw by it, to offer the app's draw.
DRAW_TOPIC = "castells.resources.draw"


def tokens_left(bag: dict[str, int]) -> int:
    return sum(bag.values())


def in_bag(bag: dict[str, int]) -> list[str]:
    """The territories with a token left, in board order (the draw's options)."""
    return [t for t, n in bag.items() if n > 0]


def token_at(bag: dict[str, int], face: int) -> str:
    """The territory of token number ``face`` (1 first) when the bag is laid out in board order."""
    if not 1 <= face <= tokens_left(bag):
        raise ValueError(f"the bag holds {tokens_left(bag)} tokens, so there is no token {face}")
    for territory, n in bag.items():
        if face <= n:
            return territory
        face -= n
    raise AssertionError("unreachable")


def app_draw(seed: int, step: int, bag: dict[str, int]) -> str:
    """The token the app draws for step ``step`` of a session with ``seed``: reproducible from both."""
    face = app_roll(seed, step, 1, tokens_left(bag))[0]
    return token_at(bag, face)


def take(bag: dict[str, int], territory: str) -> None:
    """Take one ``territory`` token out (it is discarded, never returned)."""
    if bag.get(territory, 0) <= 0:
        raise ValueError(f"no {territory} token is left in the bag")
    bag[territory] -= 1
