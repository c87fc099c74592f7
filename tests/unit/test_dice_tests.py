"""The statistics of the luck ledger (companion/review/dice_tests.py), each against an
independent computation: brute force over every sequence of rolls, simulation, closed forms
and published tables."""

from __future__ import annotations

import itertools
import math
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.review import dice_tests
from companion.review.dice_tests import (
    chi2_isf,
    chi2_sf,
    chi_square,
    exact_p,
    g_statistic,
    holm,
    ncx2_sf,
    partitions,
    power,
    repeats,
    wilson,
)


def brute_force_p(counts: list[int]) -> float:
    """The share of every sequence of rolls of a fair die whose counts are at least as uneven."""
    k, n = len(counts), sum(counts)
    seen = sum(c * c for c in counts)
    at_least = 0
    for rolls in itertools.product(range(k), repeat=n):
        if sum(c * c for c in Counter(rolls).values()) >= seen:
            at_least += 1
    return at_least / k**n


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4).flatmap(lambda k: st.lists(st.integers(0, 3), min_size=k, max_size=k)))
def test_the_exact_p_is_the_share_of_every_sequence_as_uneven(counts: list[int]) -> None:
    if sum(counts) > 8:
        counts = [min(c, 2) for c in counts]
    p, how = exact_p(counts)
    assert how == "exact"
    assert p == pytest.approx(brute_force_p(counts), rel=1e-9, abs=1e-12)


def test_the_monte_carlo_p_agrees_with_the_exact_one(monkeypatch: pytest.MonkeyPatch) -> None:
    counts = [4, 1, 2, 0, 5, 3]
    exact, _ = exact_p(counts)
    monkeypatch.setattr(dice_tests, "EXACT_LIMIT", 0)
    estimate, how = exact_p(counts)
    assert how == "Monte Carlo, 10,000 draws"
    assert abs(estimate - exact) < 4 * math.sqrt(exact * (1 - exact) / 10_000) + 1e-4
    assert exact_p(counts) == (estimate, how)  # the same counts, the same draws


def test_a_large_die_with_few_rolls_is_drawn_not_summed() -> None:
    counts = [1] * 15 + [0] * 5  # a d20 rolled 15 times, no face twice
    assert partitions(15, 20) <= dice_tests.EXACT_LIMIT
    assert exact_p(counts)[1] == "exact"
    many = [3] * 20
    assert partitions(60, 20) > dice_tests.EXACT_LIMIT
    p, how = exact_p(many)
    assert how.startswith("Monte Carlo") and p > 0.99  # perfectly even: nearly every draw is as uneven


def test_partitions_known_values() -> None:
    """p(10) = 42; the partitions of 5 into at most 2 parts: 5, 4+1, 3+2."""
    assert partitions(10, 10) == 42
    assert partitions(5, 2) == 3
    assert partitions(0, 6) == 1
    assert partitions(100, 100) == 190_569_292


def test_g_statistic_by_hand() -> None:
    assert g_statistic([10, 20]) == pytest.approx(2 * (10 * math.log(10 / 15) + 20 * math.log(20 / 15)))
    assert g_statistic([5, 5, 5]) == 0
    assert g_statistic([6, 0, 0]) == pytest.approx(2 * 6 * math.log(3))  # a face never seen adds nothing
    # G and Pearson agree for counts near fairness (both approximate the same chi-square).
    counts = [1003, 998, 1010, 987, 1001, 1001]
    assert g_statistic(counts) == pytest.approx(chi_square(counts), rel=0.01)


@pytest.mark.parametrize(
    ("p", "dof", "x"),
    [(0.05, 1, 3.841458820694124), (0.05, 5, 11.070497693516351), (0.01, 19, 36.19086912927004)],
)
def test_chi2_isf_against_the_tables(p: float, dof: int, x: float) -> None:
    assert chi2_isf(p, dof) == pytest.approx(x, rel=1e-9)
    assert chi2_sf(chi2_isf(p, dof), dof) == pytest.approx(p, rel=1e-9)


def test_ncx2_sf_against_a_simulation() -> None:
    """The noncentral chi-square as it is defined: a sum of squared normals with shifted means."""
    rng = random.Random(7)
    dof, nc, x, n = 5, 10.0, 11.0705, 100_000
    shift = math.sqrt(nc)
    hits = sum(
        ((rng.gauss(0, 1) + shift) ** 2 + sum(rng.gauss(0, 1) ** 2 for _ in range(dof - 1))) >= x
        for _ in range(n)
    )
    assert ncx2_sf(x, dof, nc) == pytest.approx(hits / n, abs=0.01)
    assert ncx2_sf(x, dof, 0.0) == chi2_sf(x, dof)
    assert ncx2_sf(30.0, 19, 2000.0) == pytest.approx(1.0)  # a far tail: summed from the mode, not from 0


def test_power_against_the_test_run_on_a_loaded_die() -> None:
    """The chance the Pearson test at 5% flags a d6 showing one face 25% of the time in 120
    rolls, run 3,000 times: the power the ledger states (an approximation: within 5 points)."""
    rng = random.Random(3)
    weights = [0.25] + [0.15] * 5
    critical = chi2_isf(0.05, 5)
    caught = 0
    for _ in range(3000):
        counts = Counter(rng.choices(range(6), weights=weights, k=120))
        caught += chi_square([counts[f] for f in range(6)]) >= critical
    assert power(120, 6) == pytest.approx(caught / 3000, abs=0.05)
    assert power(0, 6) == 0.05 and power(5000, 6) > 0.999
    assert power(30, 6) < power(120, 6) < power(600, 6)


def test_wilson_interval() -> None:
    """The Wilson interval's ends solve (p̂ - π)² = z² π (1 - π) / n; 0 of 10 reaches 27.75%."""
    low, high = wilson(0, 10)
    assert low == 0 and high == pytest.approx(0.27753, abs=1e-5)
    z = dice_tests.Z95
    for s, n in ((20, 120), (7, 9), (500, 3000)):
        for end in wilson(s, n):
            assert (s / n - end) ** 2 == pytest.approx(z * z * end * (1 - end) / n, rel=1e-9)


def test_holm_by_hand_and_as_the_step_down_procedure() -> None:
    assert holm([0.01, 0.04, 0.03, 0.2]) == pytest.approx([0.04, 0.09, 0.09, 0.2])
    rng = random.Random(5)
    for _ in range(200):
        ps = [rng.random() ** 3 for _ in range(rng.randint(1, 8))]
        adjusted = holm(ps)
        # Holm's procedure: sorted ascending, reject while p_(i) <= alpha / (m - i + 1).
        order = sorted(range(len(ps)), key=ps.__getitem__)
        rejected = set()
        for rank, i in enumerate(order):
            if ps[i] > 0.05 / (len(ps) - rank):
                break
            rejected.add(i)
        assert {i for i, a in enumerate(adjusted) if a <= 0.05} == rejected
        assert all(a >= p for a, p in zip(adjusted, ps, strict=True))


def test_repeats_against_every_sequence() -> None:
    """The count of faces repeated right after themselves, over every sequence of 7 rolls of a
    d3: its distribution is the binomial the test uses, so its p-values agree."""
    k, length = 3, 7
    dist: Counter[int] = Counter()
    for rolls in itertools.product(range(k), repeat=length):
        dist[sum(a == b for a, b in itertools.pairwise(rolls))] += 1
    total = k**length
    for same in range(length):
        seen = dist[same] / total
        brute = sum(n for r, n in dist.items() if n / total <= seen + 1e-12) / total
        got = repeats(length - 1, same, k)
        assert got.p_value == pytest.approx(brute, rel=1e-9)
        assert got.expected == pytest.approx((length - 1) / k)
    assert repeats(0, 0, 6).p_value is None
    big = repeats(60_000, 10_500, 6)  # the normal approximation: 10,000 expected, sd 91
    assert big.p_value is not None and big.p_value < 1e-6
