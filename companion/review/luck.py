"""The luck ledger: are the dice fair? Faces counted against a fair die, with a chi-square test.

For each die size (the ``sides`` of the Roll prompts), the faces of the dice the
player typed from the table (source 'physical') and, beside them, of the dice
the app rolled (source 'app') are counted with SQL over the effective steps (an
undone roll does not count). Each count is tested against a fair die with
Pearson's chi-square goodness-of-fit test; its p-value comes from the
regularized upper incomplete gamma function, implemented here (no scipy).
The test needs an expected count of at least 5 a face; below that the ledger
says there are not enough rolls to tell.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import text

from companion.errors import DamagedRow
from companion.review.effective import MOST_SIDES, Scope, counted, effective_cte

if TYPE_CHECKING:
    from companion.store.db import Store

SOURCES = ("physical", "app")
MIN_EXPECTED = 5.0  # the usual rule of thumb for the chi-square approximation
_EPS = 1e-15
_TINY = 1e-300
_MAX_ITER = 10_000


# -- the mathematics ---------------------------------------------------------------------


def gamma_q(a: float, x: float) -> float:
    """The regularized upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a).

    Series for P = 1 - Q below x = a + 1, Lentz's continued fraction above it
    (each converges fast on its side); ``a`` > 0, ``x`` >= 0.
    """
    if a <= 0 or x < 0 or math.isnan(x):
        raise ValueError(f"gamma_q needs a > 0 and x >= 0, not a={a}, x={x}")
    if x == 0:
        return 1.0
    if math.isinf(x):
        return 0.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        return max(0.0, 1.0 - _series_p(a, x, log_front))
    return min(1.0, _continued_fraction_q(a, x, log_front))


def _series_p(a: float, x: float, log_front: float) -> float:
    term = total = 1.0 / a
    ap = a
    for _ in range(_MAX_ITER):
        ap += 1.0
        term *= x / ap
        total += term
        if abs(term) < abs(total) * _EPS:
            break
    return total * math.exp(log_front)


def _continued_fraction_q(a: float, x: float, log_front: float) -> float:
    b = x + 1.0 - a
    c = 1.0 / _TINY
    d = 1.0 / b
    h = d
    for i in range(1, _MAX_ITER):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        if abs(d) < _TINY:
            d = _TINY
        c = b + an / c
        if abs(c) < _TINY:
            c = _TINY
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < _EPS:
            break
    return math.exp(log_front) * h


def chi2_sf(x: float, dof: int) -> float:
    """P(X >= x) for X chi-square distributed with ``dof`` degrees of freedom (the p-value)."""
    if dof < 1:
        raise ValueError(f"a chi-square distribution needs at least 1 degree of freedom, not {dof}")
    if x <= 0:
        return 1.0
    return gamma_q(dof / 2.0, x / 2.0)


def chi_square(counts: list[int] | tuple[int, ...]) -> float:
    """Pearson's statistic of ``counts`` (one per face) against equal expected counts."""
    n = sum(counts)
    if n == 0 or not counts:
        return 0.0
    expected = n / len(counts)
    return sum((c - expected) ** 2 for c in counts) / expected


# -- the ledger --------------------------------------------------------------------------


@dataclass(frozen=True)
class FaceTest:
    """The faces of one kind of die from one source, tested against a fair die.

    ``counts[i]`` is how often face i+1 came up; ``dice`` their sum. ``chi2`` and
    ``p_value`` are None when there are no dice; ``enough`` is False when the
    expected count a face is under 5 (the test is then not to be trusted).
    """

    sides: int
    source: str  # 'physical' or 'app'
    counts: tuple[int, ...]
    dice: int
    expected: float
    chi2: float | None
    dof: int
    p_value: float | None
    enough: bool
    verdict: str

    def to_json(self) -> dict[str, Any]:
        return {
            "sides": self.sides,
            "source": self.source,
            "counts": {str(face): n for face, n in enumerate(self.counts, start=1)},
            "dice": self.dice,
            "expected": round(self.expected, 3),
            "chi2": None if self.chi2 is None else round(self.chi2, 4),
            "dof": self.dof,
            "p_value": None if self.p_value is None else round(self.p_value, 6),
            "enough": self.enough,
            "verdict": self.verdict,
        }


@dataclass(frozen=True)
class DieLuck:
    """One die size: the dice typed from the table and the app's dice, side by side."""

    sides: int
    physical: FaceTest
    app: FaceTest

    def to_json(self) -> dict[str, Any]:
        return {"sides": self.sides, "physical": self.physical.to_json(), "app": self.app.to_json()}


@dataclass(frozen=True)
class LuckLedger:
    """The ledger for a scope (every session, one game's, or one session), smallest die first."""

    scope: str
    dice: tuple[DieLuck, ...]
    #: A sentence for each session left out (its rows cannot be read: ``effective.readable``).
    notes: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"scope": self.scope, "dice": [d.to_json() for d in self.dice], "notes": list(self.notes)}


def p_text(p: float) -> str:
    """'p = 0.41', 'p = 0.003', 'p < 0.001'."""
    if p < 0.001:
        return "p < 0.001"
    if p < 0.01:
        return f"p = {p:.3f}"
    return f"p = {p:.2f}"


def verdict(sides: int, source: str, counts: tuple[int, ...] | list[int], p: float | None) -> str:
    """The result in plain words, e.g. 'no evidence your d6 is unfair, p = 0.41'."""
    die = f"your d{sides}" if source == "physical" else f"the app's d{sides}"
    n = sum(counts)
    if n == 0:
        return f"no d{sides} typed from the table" if source == "physical" else f"the app rolled no d{sides}"
    needed = math.ceil(MIN_EXPECTED * sides)
    if n < needed:
        return (
            f"not enough rolls to tell whether {die} is fair: {n} {_dice(n)}, "
            f"at least {needed} needed (5 a face)"
        )
    assert p is not None
    if p >= 0.05:
        return f"no evidence {die} is unfair, {p_text(p)}"
    expected = n / sides
    face = max(range(sides), key=lambda i: (abs(counts[i] - expected), -i))
    how = "more" if counts[face] > expected else "less"
    # '5,986.5', not '5.99e+03': the count a player can compare with the one beside it.
    fair = f"{expected:,.1f}".removesuffix(".0")
    detail = f"{face + 1} came up {counts[face]:,} times, {how} than the {fair} a fair die would give"
    strength = "strong evidence" if p < 0.01 else "some evidence"
    return f"{strength} {die} is unfair, {p_text(p)}: {detail}"


def face_test(sides: int, source: str, counts: tuple[int, ...] | list[int]) -> FaceTest:
    """Test one set of face counts (``counts[i]`` for face i+1) against a fair ``sides``-sided die."""
    counts = tuple(int(c) for c in counts)
    if len(counts) != sides:
        raise ValueError(f"a d{sides} needs {sides} face counts, not {len(counts)}")
    n = sum(counts)
    dof = sides - 1
    stat = chi_square(counts) if n else None
    p = chi2_sf(stat, dof) if stat is not None else None
    expected = n / sides
    return FaceTest(
        sides=sides,
        source=source,
        counts=counts,
        dice=n,
        expected=expected,
        chi2=stat,
        dof=dof,
        p_value=p,
        enough=n > 0 and expected >= MIN_EXPECTED,
        verdict=verdict(sides, source, counts, p),
    )


def face_counts(store: Store, scope: Scope) -> dict[tuple[int, str], list[int]]:
    """(sides, source) -> counts per face, over the effective Roll answers in ``scope``."""
    sql = (
        effective_cte(scope)
        + """
SELECT CAST(json_extract(effective.prompt, '$.sides') AS INTEGER) AS sides,
       effective.source AS source,
       CAST(d.value AS INTEGER) AS face,
       COUNT(*) AS n
FROM effective, json_each(effective.answer) AS d
WHERE effective.source IN ('physical', 'app')
  AND json_extract(effective.prompt, '$.kind') = 'roll'
GROUP BY sides, source, face
"""
    )
    # A row SQLite cannot read fails the query (DamagedRow), as a die too large to count does
    # here: the caller leaves their sessions out (``effective.counted``).
    out: dict[tuple[int, str], list[int]] = {}
    with store.reading() as con:
        rows = con.execute(text(sql), scope.params()).all()
    for sides, source, face, n in rows:
        if sides is not None and not 2 <= sides <= MOST_SIDES:
            raise DamagedRow(f"A roll of a d{min(sides, 10**6)} or larger is no roll of any game.")
        if sides is None or face is None or not 1 <= face <= sides:
            continue  # a damaged row: the log's own checks refuse it elsewhere
        out.setdefault((sides, source), [0] * sides)[face - 1] += n
    return out


def luck(store: Store, game: str | None = None, session_id: int | None = None) -> LuckLedger:
    """The luck ledger over every session, one game's sessions, or one session.

    One ``DieLuck`` per die size that was rolled in the scope, smallest first; each
    holds the physical and the app test (a side with no dice says so in its verdict).
    """
    return counted(store, Scope(game, session_id), lambda scope, notes: _luck(store, scope, notes))


def _luck(store: Store, scope: Scope, skipped: tuple[str, ...]) -> LuckLedger:
    counts = face_counts(store, scope)
    sizes = sorted({sides for sides, _ in counts})
    return LuckLedger(
        scope=scope.describe(),
        dice=tuple(
            DieLuck(
                sides,
                *(face_test(sides, source, counts.get((sides, source), [0] * sides)) for source in SOURCES),
            )
            for sides in sizes
        ),
        notes=skipped,
    )


def _dice(n: int) -> str:
    return "die" if n == 1 else "dice"
