"""The app's dice: seeded, and tied to the step they answer.

Each app roll is drawn from a hash of the session seed, the position of the
step in the log and the die's place in the roll (BLAKE2b, 16 bits a draw,
rejection sampling so every face is equally likely). A resumed session
therefore rolls exactly what the uninterrupted one would have, without storing
any generator state, and the same seed with the same answers always gives the
same game. A hash is used rather than a seeded ``random.Random`` because
seeding one costs ~6 µs a roll, most of a headless game's time.
"""

from __future__ import annotations

import hashlib
import os
from functools import lru_cache

_SPAN = 1 << 16

#: The seeds a session can have. The store keeps a session's seed in an SQLite INTEGER, a signed
#: 64-bit number: a seed outside these bounds could not be stored (the dice themselves would
#: take any whole number), so the command line and an import refuse it before anything is made.
SEED_MIN, SEED_MAX = -(2**63), 2**63 - 1


@lru_cache(maxsize=64)
def _seeded(seed: int) -> hashlib.blake2b:
    """A BLAKE2b hasher that has already taken the text "<seed>:". Every roll of a session
    starts with that text; copying this hasher and adding "<step>:<block>" gives the very
    digest of the whole text, at under half the cost of hashing it afresh."""
    return hashlib.blake2b(f"{seed}:".encode(), digest_size=64)


def app_roll(seed: int, step: int, n: int, sides: int) -> list[int]:
    """The ``n`` faces of ``sides``-sided dice the app rolls for step ``step`` of a session."""
    if n < 0 or not 1 <= sides <= _SPAN:
        raise ValueError(f"a roll needs a non-negative number of dice with 1 to {_SPAN} sides")
    limit = _SPAN - _SPAN % sides  # draws at or above it would favour the low faces
    prefix = _seeded(seed)
    out: list[int] = []
    block = 0
    while len(out) < n:
        h = prefix.copy()
        h.update(f"{step}:{block}".encode())
        digest = h.digest()
        for i in range(0, 64, 2):
            value = digest[i] << 8 | digest[i + 1]
            if value < limit:
                out.append(value % sides + 1)
                if len(out) == n:
                    break
        block += 1
    return out


def session_seed(first: int, index: int) -> int:
    """The seed of the ``index``-th session (0 first) started in one run of the app given
    ``--seed first``: the first is ``first`` itself, each later one a number drawn from a hash
    of both, so two sessions never share their dice and the same ``--seed`` gives the same
    sessions in the same order again."""
    if index == 0:
        return first
    digest = hashlib.blake2b(f"session:{first}:{index}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big", signed=True)  # signed 64 bits: what the store keeps


#: What a commitment hashes before the nonce and the seed: the scheme, should it ever change.
_COMMITMENT = "tabletop-companion app dice v1"


def new_nonce() -> str:
    """A fresh nonce for a session's commitment to its seed: 128 random bits, as hex."""
    return os.urandom(16).hex()


def is_nonce(value: object) -> bool:
    """Whether ``value`` is a nonce as ``new_nonce`` makes them (32 lowercase hex digits)."""
    return isinstance(value, str) and len(value) == 32 and all(c in "0123456789abcdef" for c in value)


def commitment(seed: int, nonce: str) -> str:
    """The commitment to a session's seed shown when it starts: SHA-256 of the scheme, the nonce
    and the seed. The seed alone would not do: a 32-bit seed is found from its hash in minutes;
    with 128 random bits beside it, no one can tell the seed, nor the coming dice, before the
    nonce is revealed, and no other seed gives the same commitment."""
    return hashlib.sha256(f"{_COMMITMENT}:{nonce}:{seed}".encode()).hexdigest()


def random_seed() -> int:
    """A fresh seed for a session when no ``--seed`` was given: 32 random bits, short enough to
    read out and type back with ``--seed``."""
    return int.from_bytes(os.urandom(4), "big")


#: How a game's dice are rolled, where its player chooses (a Reconquista game: at its start and
#: with ctrl+d): typed from the table or rolled by the app at will, all typed, all the app's.
DICE_MODES = ("mixed", "physical", "app")


def chosen_dice_mode(config: dict[str, object]) -> str | None:
    """The dice mode a session's settings hold (``config["dice"]``), or None where none was
    chosen (a game without the choice, or settings that name no known mode)."""
    mode = config.get("dice")
    return mode if isinstance(mode, str) and mode in DICE_MODES else None


# -- the names of the player's dice --------------------------------------------------------

#: The longest name a player's die (or set of dice) may have: room for "red d6 from the
#: 1998 box", short enough to stand beside the dice field at 80 columns.
DIE_NAME_MAX = 40


def die_name(text: str) -> str:
    """The name a player gives the dice they roll on the table ("red d6"), checked: spaces
    around it dropped, inner runs of spaces made one. ValueError, with the one sentence to
    show, for a name that is empty, longer than DIE_NAME_MAX or holds a character a terminal
    does not print (a name is shown on every screen the dice are: it must read as written)."""
    name = " ".join(str(text).split())
    if not name:
        raise ValueError("A die's name cannot be empty: a name is a word or a few, like 'red d6'.")
    if len(name) > DIE_NAME_MAX:
        raise ValueError(f"A die's name is at most {DIE_NAME_MAX} characters; that one has {len(name):,}.")
    if not name.isprintable():
        raise ValueError("A die's name cannot hold control characters: type it as letters, digits and signs.")
    return name


def is_die_name(value: object) -> bool:
    """Whether ``value`` is a name ``die_name`` would keep as it is (a stored one, checked)."""
    if not isinstance(value, str):
        return False
    try:
        return die_name(value) == value
    except ValueError:
        return False
