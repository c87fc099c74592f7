"""Tests of the luck ledger (companion/review/luck.py): the incomplete gamma function and the
chi-square p-value against known values and closed forms, the test on fair and loaded dice,
the plain-words verdicts, and the ledger read from a store (undone rolls left out)."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st
from test_review_helpers import new_driver

from companion.review.dice_tests import chi2_sf, chi_square, gamma_q
from companion.review.luck import (
    face_test,
    luck,
    p_text,
    verdict,
)
from companion.store.db import Store

# -- the mathematics ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("x", "dof", "p"),
    [
        (3.841458820694124, 1, 0.05),  # the 95% points of the chi-square tables
        (11.070497693516351, 5, 0.05),
        (6.634896601021214, 1, 0.01),
        (15.08627246938899, 5, 0.01),
        (30.14352720564616, 19, 0.05),  # a d20
        (124.34211340400407, 100, 0.05),
        (4.35146, 5, 0.5),  # the median of chi-square with 5 degrees of freedom
    ],
)
def test_chi2_sf_known_values(x: float, dof: int, p: float) -> None:
    assert chi2_sf(x, dof) == pytest.approx(p, rel=1e-4)


@given(st.floats(min_value=0.0, max_value=200.0))
def test_chi2_sf_closed_forms(x: float) -> None:
    """With 2 degrees of freedom sf = exp(-x/2); with 1, erfc(sqrt(x/2)); with 4, exp(-x/2)(1 + x/2)."""
    assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-9, abs=1e-300)
    assert chi2_sf(x, 1) == pytest.approx(math.erfc(math.sqrt(x / 2)), rel=1e-9, abs=1e-300)
    assert chi2_sf(x, 4) == pytest.approx(math.exp(-x / 2) * (1 + x / 2), rel=1e-9, abs=1e-300)


def test_gamma_q_edges_and_bad_arguments() -> None:
    assert gamma_q(3.0, 0.0) == 1.0
    assert gamma_q(0.5, math.inf) == 0.0
    assert gamma_q(1.0, 1.0) == pytest.approx(math.exp(-1))  # Q(1, x) = exp(-x)
    assert chi2_sf(0.0, 5) == 1.0
    with pytest.raises(ValueError):
        gamma_q(0.0, 1.0)
    with pytest.raises(ValueError):
        chi2_sf(1.0, 0)


def test_chi_square_statistic_by_hand() -> None:
    assert chi_square([10, 10, 10, 10, 10, 10]) == 0.0
    # 60 dice, 10 expected a face: (25*5 + 625) / 10
    assert chi_square([5, 5, 5, 5, 5, 35]) == pytest.approx(75.0)
    assert chi_square([0, 0]) == 0.0


def test_a_fair_die_passes_and_a_loaded_one_fails() -> None:
    """6000 faces of a simulated fair d6 give no evidence; a die that shows 6 twice as often does."""
    rng = random.Random(20261130)
    fair = [0] * 6
    for _ in range(6000):
        fair[rng.randrange(6)] += 1
    t = face_test(6, "physical", fair)
    assert t.enough and t.dof == 5
    assert t.p_value is not None and t.p_value > 0.05
    assert t.verdict.startswith("no evidence your d6 is unfair, p = ")
    loaded = [0] * 6
    for _ in range(6000):
        loaded[rng.choice([0, 1, 2, 3, 4, 5, 5])] += 1
    bad = face_test(6, "physical", loaded)
    assert bad.p_value is not None and bad.p_value < 0.001
    assert bad.verdict.startswith("strong evidence your d6 is unfair, p < 0.001: 6 came up ")


def test_fair_dice_are_flagged_about_one_time_in_twenty() -> None:
    """The p-value of a fair die is uniform: of 400 fair samples, about 5% fall under 0.05."""
    rng = random.Random(7)
    low = 0
    for _ in range(400):
        faces = [0] * 6
        for _ in range(120):
            faces[rng.randrange(6)] += 1
        p = face_test(6, "app", faces).p_value
        assert p is not None
        low += p < 0.05
    assert 8 <= low <= 34  # 20 expected; well inside the binomial's 3 standard deviations


# -- the verdict --------------------------------------------------------------------------


def test_verdict_wording() -> None:
    assert verdict(6, "physical", [7, 7, 7, 7, 6, 6], 0.41) == "no evidence your d6 is unfair, p = 0.41"
    assert verdict(6, "app", [7, 7, 7, 7, 6, 6], 0.999) == "no evidence the app's d6 is unfair, p = 1.00"
    assert verdict(6, "physical", [3, 2, 1, 0, 0, 4], 0.2, "exact") == (
        "no evidence your d6 is unfair, p = 0.20 (exact: 10 dice are too few for the chi-square)"
    )
    assert verdict(6, "physical", [0] * 6, None) == "no d6 typed from the table"
    assert verdict(8, "app", [0] * 8, None) == "the app rolled no d8"
    some = verdict(6, "physical", [10, 10, 10, 10, 10, 22], 0.03)
    assert (
        some
        == "some evidence your d6 is unfair, p = 0.03: 6 came up 22 times, more than the 12 a fair die would give"
    )
    assert p_text(0.0049) == "p = 0.005" and p_text(0.0004) == "p < 0.001"
    assert p_text(0.0468) == "p = 0.047" and p_text(0.0512) == "p = 0.051" and p_text(0.061) == "p = 0.06"


def test_verdict_says_whether_a_flag_stands_after_holm() -> None:
    """Several tests shown together: a flag is weighed against their number (Holm)."""
    counts = [10, 10, 10, 10, 10, 22]
    stands = verdict(6, "physical", counts, 0.003, holm_p=0.012, tests=4)
    assert stands.endswith("it stands after Holm's correction for the 4 tests shown (p = 0.01)")
    falls = verdict(6, "physical", counts, 0.03, holm_p=0.12, tests=4)
    assert "but not after Holm's correction for the 4 tests shown (p = 0.12)" in falls
    assert "Holm" not in verdict(6, "physical", counts, 0.03, holm_p=0.03, tests=1)


def test_too_few_rolls_are_tested_exactly() -> None:
    """Under 5 rolls expected a face the chi-square approximation is not trusted: the verdict
    rests on the exact p-value of the same statistic instead."""
    t = face_test(6, "physical", [5, 5, 5, 5, 5, 4])  # 29 dice: under 5 a face expected
    assert not t.enough and t.method == "exact"
    assert t.p == t.p_exact and t.p_exact is not None and t.p_exact > 0.99
    assert t.verdict.startswith("no evidence your d6 is unfair, p = 1.00 (exact: 29 dice are too few")
    loaded = face_test(6, "physical", [9, 0, 0, 0, 0, 0])
    assert loaded.p == pytest.approx(6 / 6**9, rel=1e-9)  # only a face nine times running is as uneven
    assert loaded.verdict.startswith("strong evidence your d6 is unfair, p < 0.001 (exact:")
    enough = face_test(6, "physical", [5] * 6)
    assert enough.enough and enough.method == "chi-square" and enough.p == enough.p_value


def test_the_lines_give_the_largest_gap_the_power_and_the_streaks() -> None:
    t = face_test(6, "physical", [20, 20, 20, 20, 20, 20], pairs=119, same=20)
    gap, power, streak = t.lines()
    assert gap.startswith(
        "largest gap from a fair die: 1 came up 16.7% of the time against 16.7% (+0.0 points"
    )
    assert power.startswith("with 120 dice, a d6 showing one face 25% of the time would have been caught 4")
    assert streak.startswith("no sign of streaks: the same face came twice running 20 times in 119 pairs")
    clumped = face_test(6, "physical", [20] * 6, pairs=119, same=45)
    assert clumped.lines()[-1].startswith("streaks: the same face came twice running 45 times")
    flagged = face_test(6, "physical", [10, 10, 10, 10, 10, 60])
    assert not any(line.startswith("with 110 dice") for line in flagged.lines())  # no power line: it found


# -- the ledger from the store ------------------------------------------------------------


def tray(store: Store, seed: int, typed: list[str], app: int = 0, spec: str = "1d6") -> int:
    sid, driver = new_driver(store, "dice", seed)
    for faces in typed:
        driver.type(spec)
        driver.type(faces)
    for _ in range(app):
        driver.type(spec)
        driver.roll()
    return sid


def test_ledger_counts_typed_and_app_dice_apart(store: Store) -> None:
    """Typed dice are 'physical', the app's are 'app'; each die size has its own line; an undone
    typed roll is not counted."""
    _sid, driver = new_driver(store, "dice", 1)
    driver.type("2d6")
    driver.type("6 6")
    driver.undo()  # not counted
    driver.type("1 2")
    driver.type("2d6")
    driver.roll()
    driver.type("1d20")
    driver.type("20")
    app = [d for s in driver.steps if s.source == "app" for d in s.answer]  # type: ignore[union-attr]
    ledger = luck(store)
    assert [d.sides for d in ledger.dice] == [6, 20]
    d6, d20 = ledger.dice
    assert d6.physical.counts == (1, 1, 0, 0, 0, 0)
    assert d6.physical.dice == 2
    assert list(d6.app.counts) == [app.count(f) for f in range(1, 7)]
    assert d20.physical.counts[19] == 1 and d20.physical.dice == 1
    assert d20.app.dice == 0 and d20.app.verdict == "the app rolled no d20"
    assert ledger.to_json()["dice"][0]["physical"]["counts"]["1"] == 1


def test_ledger_scopes_one_game_and_one_session(store: Store) -> None:
    first = tray(store, 1, ["1", "1", "1"])
    second = tray(store, 2, ["6"] * 40)
    all_ = luck(store).dice[0].physical
    assert all_.counts == (3, 0, 0, 0, 0, 40)
    assert luck(store, session_id=first).dice[0].physical.counts == (3, 0, 0, 0, 0, 0)
    one = luck(store, session_id=second)
    assert one.scope == f"session {second}"
    assert one.dice[0].physical.verdict.startswith("strong evidence your d6 is unfair, p < 0.001")
    assert luck(store, game="reconquista").dice == ()
    assert luck(store, game="dice").dice[0].physical.dice == 43


def test_app_dice_over_many_rolls_look_fair(store: Store) -> None:
    """The app's seeded dice, 600 of them in the tray: no evidence they are unfair."""
    tray(store, 11, [], app=300, spec="2d6")
    t = luck(store).dice[0].app
    assert t.dice == 600 and t.enough
    assert t.p_value is not None and t.p_value > 0.01


def test_a_large_expected_count_reads_as_a_number_not_an_exponent() -> None:
    said = verdict(6, "physical", [35919, 0, 0, 0, 0, 0], 0.0)
    assert said.endswith("1 came up 35,919 times, more than the 5,986.5 a fair die would give")


def test_streaks_are_counted_in_the_order_rolled_within_each_session(store: Store) -> None:
    """The dice of a step in the order typed, the steps in order, an undone roll nowhere, and no
    pair across two sessions (their rolls were not made one after the other)."""
    tray(store, 1, ["1 1", "1 2"], spec="2d6")  # 1 1 1 2: pairs 1-1, 1-1, 1-2 -> 2 repeats in 3
    _sid, driver = new_driver(store, "dice", 2)
    driver.type("2d6")
    driver.type("2 2")
    driver.undo()  # not counted
    driver.type("2 3")  # 2 3 -> 0 repeats in 1
    ledger = luck(store)
    typed = ledger.dice[0].physical
    assert typed.repeats.pairs == 4 and typed.repeats.repeats == 2
    assert typed.repeats.expected == pytest.approx(4 / 6)
    assert ledger.to_json()["dice"][0]["physical"]["repeats"]["repeats"] == 2


def test_holm_weighs_every_test_the_ledger_shows(store: Store) -> None:
    """A d6 and a d20, typed and by the app: four tests, each flag weighed against four."""
    _sid, driver = new_driver(store, "dice", 3)
    for spec, faces in (("1d6", "6"), ("1d20", "20")):
        for _ in range(30):
            driver.type(spec)
            driver.type(faces)
        driver.type(spec)
        driver.roll()
    tests = [t for d in luck(store).dice for t in (d.physical, d.app)]
    assert [t.tests for t in tests] == [4, 4, 4, 4]
    for t in tests:
        assert t.p is not None and t.holm_p is not None and t.holm_p >= t.p
    typed_d6 = tests[0]
    assert typed_d6.flagged and "it stands after Holm's correction for the 4 tests shown" in typed_d6.verdict
