"""The statistics of the luck ledger: tests of dice against a fair die, in plain Python.

Everything here is a pure function of counts (no store, no SQL), each checked in
tests/unit/test_dice_tests.py against an independent computation or a published table:

- Pearson's chi-square and the G statistic (likelihood ratio), with their p-values from the
  chi-square distribution (``chi2_sf``: the regularized upper incomplete gamma function);
- below 5 rolls expected a face, where that approximation cannot be trusted, the exact p-value
  of Pearson's statistic under a fair die (``exact_p``: every outcome, grouped by the multiset
  of counts), or a Monte Carlo estimate with its number of draws where the outcomes are too many;
- a face's share with its 95% Wilson interval;
- the power of the test (``power``): how often a die with one face 1.5 times as likely as it
  should be (a d6 showing one face a quarter of the time) would have been caught, from the
  noncentral chi-square distribution, so that "no evidence" is never read as "fair";
- Holm's correction for several tests shown together (``holm``);
- a streak test (``repeats``): how often a face came again right after itself, against the
  1 in k of a fair die.

No scipy: it would double the install for a handful of functions (docs/design.md).
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

_EPS = 1e-15
_TINY = 1e-300
_MAX_ITER = 10_000
#: The 97.5th percentile of the standard normal: a 95% interval.
Z95 = 1.959963984540054
#: The most outcomes (multisets of counts) the exact test sums; beyond, it draws at random.
EXACT_LIMIT = 50_000
#: The Monte Carlo test's draws: as many as make ~2 million simulated dice, 1,000 to 10,000.
MC_DICE, MC_MIN, MC_MAX = 2_000_000, 1_000, 10_000
#: The alternative the power is worked out for: one face this many times as likely as it should be.
LOADED = 1.5


# -- distributions -------------------------------------------------------------------------


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


def chi2_isf(p: float, dof: int) -> float:
    """The x with P(X >= x) = ``p`` (the critical value of a test at level ``p``), by bisection."""
    if not 0 < p < 1:
        raise ValueError(f"a tail probability is between 0 and 1, not {p}")
    low, high = 0.0, max(1.0, float(dof))
    while chi2_sf(high, dof) > p:
        high *= 2
    for _ in range(200):
        mid = (low + high) / 2
        if chi2_sf(mid, dof) > p:
            low = mid
        else:
            high = mid
        if high - low < 1e-12 * high:
            break
    return (low + high) / 2


def ncx2_sf(x: float, dof: int, nc: float) -> float:
    """P(X >= x) for X noncentral chi-square (``dof`` degrees of freedom, noncentrality ``nc``):
    a Poisson(nc/2) mixture of central chi-squares with dof + 2j degrees of freedom, summed
    outwards from the Poisson mode until the weights left are negligible."""
    if nc < 0:
        raise ValueError(f"a noncentrality is at least 0, not {nc}")
    if nc == 0:
        return chi2_sf(x, dof)
    half = nc / 2
    mode = int(half)

    def weight(j: int) -> float:
        return math.exp(-half + j * math.log(half) - math.lgamma(j + 1))

    total = mass = 0.0
    for j in _outwards(mode):
        w = weight(j)
        total += w * chi2_sf(x, dof + 2 * j)
        mass += w
        if mass > 1 - 1e-12:
            break
    return min(1.0, total)


def _outwards(mode: int) -> Iterator[int]:
    """mode, mode+1, mode-1, mode+2, mode-2, ... (the Poisson weights from the largest)."""
    yield mode
    for step in range(1, _MAX_ITER):
        yield mode + step
        if mode - step >= 0:
            yield mode - step


def normal_sf(z: float) -> float:
    """P(Z >= z) for a standard normal Z."""
    return 0.5 * math.erfc(z / math.sqrt(2))


# -- statistics of face counts -------------------------------------------------------------


def chi_square(counts: Sequence[int]) -> float:
    """Pearson's statistic of ``counts`` (one per face) against equal expected counts."""
    n = sum(counts)
    if n == 0 or not counts:
        return 0.0
    expected = n / len(counts)
    return sum((c - expected) ** 2 for c in counts) / expected


def g_statistic(counts: Sequence[int]) -> float:
    """The G statistic (likelihood-ratio test) of ``counts`` against equal expected counts:
    2 Σ O ln(O / E), a face never seen adding nothing."""
    n = sum(counts)
    if n == 0 or not counts:
        return 0.0
    expected = n / len(counts)
    return 2 * sum(c * math.log(c / expected) for c in counts if c)


def partitions(n: int, k: int) -> int:
    """How many multisets of ``k`` counts add up to ``n`` (the partitions of n into at most k
    parts): the outcomes ``exact_p`` sums over."""
    ways = [1] + [0] * n  # parts of size at most 1, 2, ... k, added one size at a time
    for part in range(1, k + 1):
        for total in range(part, n + 1):
            ways[total] += ways[total - part]
    return ways[n]


def _multisets(n: int, k: int, largest: int) -> Iterator[list[int]]:
    """The non-increasing lists of at most ``k`` positive counts adding up to ``n``, none over ``largest``."""
    if n == 0:
        yield []
        return
    if k == 0:
        return
    for first in range(min(n, largest), 0, -1):
        if first * k < n:
            break
        for rest in _multisets(n - first, k - 1, first):
            yield [first, *rest]


def exact_p(counts: Sequence[int]) -> tuple[float, str]:
    """The p-value of Pearson's statistic under a fair die, without the chi-square
    approximation: the chance that a fair die thrown as many times gives counts at least as
    uneven (a sum of squares at least as large). Exact where the outcomes are at most
    ``EXACT_LIMIT`` (each multiset of counts once, weighted by its arrangements); otherwise a
    Monte Carlo estimate, deterministic for given counts. Returns (p, how it was found)."""
    k, n = len(counts), sum(counts)
    if k < 2:
        raise ValueError("a die has at least 2 faces")
    if n == 0:
        return 1.0, "exact"
    observed = sum(c * c for c in counts)
    if partitions(n, k) <= EXACT_LIMIT:
        log_front = math.lgamma(n + 1) - n * math.log(k) + math.lgamma(k + 1)
        tail = []
        for parts in _multisets(n, k, n):
            if sum(c * c for c in parts) < observed:
                continue
            repeats = Counter(parts)
            repeats[0] = k - len(parts)
            log_p = (
                log_front
                - sum(math.lgamma(c + 1) for c in parts)
                - sum(math.lgamma(m + 1) for m in repeats.values())
            )
            tail.append(math.exp(log_p))
        return min(1.0, math.fsum(tail)), "exact"
    draws = max(MC_MIN, min(MC_MAX, MC_DICE // n))
    rng = random.Random(f"{k}:{','.join(map(str, counts))}")
    faces = range(k)
    at_least = 0
    for _ in range(draws):
        drawn = Counter(rng.choices(faces, k=n))
        if sum(c * c for c in drawn.values()) >= observed:
            at_least += 1
    return (at_least + 1) / (draws + 1), f"Monte Carlo, {draws:,} draws"


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default): (low, high)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def loaded_share(sides: int) -> float:
    """The share of the favoured face in the alternative ``power`` is worked out for."""
    return min(1.0, LOADED / sides)


def power(n: int, sides: int, alpha: float = 0.05) -> float:
    """How often Pearson's test at level ``alpha`` catches, in ``n`` rolls, a die whose one face
    comes up ``LOADED`` times as often as it should (the others equally less): the noncentral
    chi-square with noncentrality n Σ (p1 - p0)² / p0 (Cohen's w² times n)."""
    if n == 0:
        return alpha
    fair = 1 / sides
    favoured = loaded_share(sides)
    others = (1 - favoured) / (sides - 1)
    w2 = ((favoured - fair) ** 2 + (sides - 1) * (others - fair) ** 2) / fair
    dof = sides - 1
    return ncx2_sf(chi2_isf(alpha, dof), dof, n * w2)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment of ``p_values`` (in their order): a test's adjusted p is
    under a level exactly when Holm's procedure rejects it at that level for the whole family."""
    m = len(p_values)
    order = sorted(range(m), key=lambda i: p_values[i])
    adjusted = [0.0] * m
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (m - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


@dataclass(frozen=True)
class Repeats:
    """How often a face came again right after itself (a streak test): ``repeats`` of
    ``pairs`` consecutive rolls, against ``expected`` = pairs / sides for a fair die thrown
    independently; ``p_value`` two-sided (too many repeats: clumps; too few: a die that
    avoids its last face)."""

    pairs: int
    repeats: int
    expected: float
    p_value: float | None


def repeats(pairs: int, same: int, sides: int) -> Repeats:
    """The streak test of ``same`` repeats in ``pairs`` consecutive rolls of a ``sides`` die.

    Under a fair independent die the steps from one roll to the next (the difference of the
    faces, modulo ``sides``) are independent and uniform, and a pair repeats exactly when its
    step is 0: the count is binomial, (pairs, 1/sides). Its p-value is the binomial's two-sided
    one (every count no likelier than the one seen), from the normal approximation above 10,000
    pairs. Pairs are counted within a session, so ``pairs`` may be the sum of several runs."""
    if pairs == 0:
        return Repeats(0, 0, 0.0, None)
    q = 1 / sides
    expected = pairs * q
    if pairs > 10_000:
        z = abs(same - expected) / math.sqrt(pairs * q * (1 - q))
        return Repeats(pairs, same, expected, min(1.0, 2 * normal_sf(z)))

    def log_pmf(r: int) -> float:
        return (
            math.lgamma(pairs + 1)
            - math.lgamma(r + 1)
            - math.lgamma(pairs - r + 1)
            + r * math.log(q)
            + (pairs - r) * math.log1p(-q)
        )

    seen = log_pmf(same)
    p = math.fsum(math.exp(lp) for r in range(pairs + 1) if (lp := log_pmf(r)) <= seen + 1e-9)
    return Repeats(pairs, same, expected, min(1.0, p))
