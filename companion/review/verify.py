"""App dice anyone can verify: an exported session's app rolls recomputed from its seed.

Every die the app rolls is a function of the session's seed and the step it answers
(``dice.app_roll``), and when a session starts the app shows a commitment to that seed
(``dice.commitment``: SHA-256 of a random nonce and the seed). ``verify`` takes a JSON export
(``companion export``) and checks both: that the seed and the nonce give the commitment, and that
each app roll is the one the seed gives at its step. The first roll that is not is named. It is
not looked for at other steps: a die has few faces, and some other step of the seed gives most
small rolls (3d6 at one step in 216), so a roll "found elsewhere" would prove nothing. A
correction that replays the game can keep the app's dice at another step than the one they were
rolled at; such a roll is named as well, with that said. An export written before commitments is
checked against its seed alone, and the answer says so (its seed could have been chosen after).
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.dice import app_roll, commitment
from companion.review.exchange import read_export


@dataclass(frozen=True)
class Verified:
    """What ``verify`` found: whether the export's app dice are the seed's, in one sentence."""

    ok: bool
    sentence: str
    rolls: int = 0  # the app rolls checked


def _faces(answer: object) -> list[int] | None:
    if isinstance(answer, list) and all(isinstance(d, int) and not isinstance(d, bool) for d in answer):
        return list(answer)
    return None


def verify(text: str, name: str = "the file") -> Verified:
    """Check the export ``text``: ImportRefused (one sentence) if it is not a session export."""
    doc = read_export(text, name)
    sess = doc.session
    label = f"{name} (session {sess.id}, {sess.game})" if sess.id is not None else f"{name} ({sess.game})"
    committed = sess.commitment
    if (
        committed is not None
        and sess.dice_nonce is not None
        and commitment(sess.seed, sess.dice_nonce) != committed
    ):
        return Verified(
            False,
            f"{label}: its seed and nonce do not give its commitment, so the seed is not the one committed "
            "to when the session started.",
        )
    rolls = 0
    for index, step in enumerate(doc.steps):
        if step.source != "app":
            continue
        prompt = step.prompt if isinstance(step.prompt, dict) else {}
        n, sides, faces = prompt.get("n"), prompt.get("sides"), _faces(step.answer)
        if (
            prompt.get("kind") != "roll"
            or not isinstance(n, int)
            or not isinstance(sides, int)
            or faces is None
        ):
            return Verified(
                False, f"{label}: step {index + 1} is marked as the app's roll but holds no dice."
            )
        if not 1 <= n <= 100 or not 2 <= sides <= 100 or len(faces) != n:
            return Verified(False, f"{label}: step {index + 1} holds no roll the app could make.")
        rolls += 1
        if app_roll(sess.seed, index, n, sides) == faces:
            continue
        own = " ".join(map(str, app_roll(sess.seed, index, n, sides)))
        return Verified(
            False,
            f"{label}: step {index + 1}'s app dice {' '.join(map(str, faces))} are not the seed's (it gives "
            f"{own} there), so the export was changed after the app wrote it, or a correction of an "
            "earlier step kept them at another step.",
            rolls,
        )
    if not rolls:
        found = f"{label} has no app rolls to check"
    else:
        found = f"All {rolls} app {'roll' if rolls == 1 else 'rolls'} of {label} come from its seed"
    if committed is None:
        return Verified(
            True,
            f"{found}; it was recorded before commitments, so the seed is checked alone (it could have "
            "been chosen after the rolls).",
            rolls,
        )
    if sess.dice_nonce is None:
        return Verified(True, f"{found}; its commitment cannot be checked without its nonce.", rolls)
    return Verified(
        True,
        f"{found}, and the seed is the one committed to when it started (commitment {committed[:16]}…).",
        rolls,
    )
