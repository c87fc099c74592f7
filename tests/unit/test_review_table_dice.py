"""Tests of Reconquista's table rolls against the dice (companion/review/table_dice.py): the
chances of fair dice, cases worked out by hand, and the rolls of stored sessions counted from
the live game (an undone roll left out, a refused rebellion result kept)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from test_review_helpers import advance, new_driver, play_reconquista, reconquista_chooser, why_starts

from companion.prompts import Roll
from companion.review.stats import reconquista_stats
from companion.review.table_dice import against_dice, distribution, table_dice
from companion.store.db import Store

EVENTS, REBELLIONS = "reconquista.events.roll", "reconquista.rebellions.table"


def test_fair_dice_give_each_total_in_so_many_of_the_ways_they_fall() -> None:
    two = distribution(2)
    assert list(two) == list(range(2, 13))
    assert [two[t] * 36 for t in two] == [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1]
    assert sum(two.values()) == 1
    assert distribution(1) == {face: Fraction(1, 6) for face in range(1, 7)}


def test_thirty_six_rolls_one_for_each_way_two_dice_fall() -> None:
    """Every way two dice can fall, once: each total exactly as often as fair dice give it."""
    totals = Counter(a + b for a in range(1, 7) for b in range(1, 7))
    fit = against_dice("2D6", 2, totals)
    assert fit.rolls == 36
    assert [(o.value, o.observed, o.expected) for o in fit.outcomes] == [
        (t, n, float(n)) for t, n in zip(range(2, 13), [1, 2, 3, 4, 5, 6, 5, 4, 3, 2, 1], strict=True)
    ]
    assert fit.chi2 == 0 and fit.p_value == 1
    assert fit.shares() == pytest.approx(fit.chances())
    # 5 rolls at least of the rarest total (1 in 36) are needed before the test says anything.
    assert not fit.enough and "at least 180 needed" in fit.verdict


def test_thirty_six_sevens() -> None:
    """All 36 rolls a 7: by hand, (36 - 6)²/6 = 150 for the 7, and each other total t adds its
    expected count (0 - e)²/e = e, 30 in all: 180."""
    fit = against_dice("2D6", 2, {7: 36})
    assert fit.chi2 == pytest.approx(180)
    assert fit.shares()[5] == 100 and sum(fit.shares()) == 100
    assert fit.chances()[5] == pytest.approx(100 / 6)


def test_a_d6_by_hand() -> None:
    """60 rolls: 10 of each face fits a fair die exactly; 20 sixes and 8 of each other face
    give (20 - 10)²/10 + 5 × (8 - 10)²/10 = 10 + 2 = 12 on 5 degrees of freedom (p ≈ 0.035)."""
    fair = against_dice("D6", 1, dict.fromkeys(range(1, 7), 10))
    assert fair.enough and fair.chi2 == 0 and fair.verdict.startswith("60 rolls of D6: no evidence")
    loaded = against_dice("D6", 1, {**dict.fromkeys(range(1, 6), 8), 6: 20})
    assert loaded.chi2 == pytest.approx(12)
    assert loaded.p_value == pytest.approx(0.0348, abs=1e-3)
    assert "some evidence" in loaded.verdict and "6 came up 20 times, more than the 10.0" in loaded.verdict


def test_no_rolls_and_a_total_dice_cannot_give() -> None:
    empty = against_dice("2D6", 2, {})
    assert empty.rolls == 0 and empty.chi2 is None and empty.verdict == "no 2D6 rolled yet"
    assert empty.shares() == [0.0] * 11
    assert against_dice("2D6", 2, {1: 4, 13: 2, 7: 1}).rolls == 1  # a damaged row is left out


@pytest.mark.slow
def test_the_rolls_of_the_store_are_the_rolls_of_the_live_games(store: Store) -> None:
    """Two games with app dice (seed 11 has a rebellion result refused and rolled again), and one
    whose first events' roll was typed as 6 6, taken back and typed again as 1 1: the double six
    is not counted, the double one is; the refused rebellion roll is counted, as a roll of the die."""
    for seed in (2, 11):
        play_reconquista(store, seed)
    _, typed = new_driver(store, "reconquista", 4)
    choose = reconquista_chooser(typed, 4)
    advance(typed, choose, until=why_starts("Events: 2D6"))
    typed.type("6 6")
    typed.undo()
    typed.type("1 1")
    advance(typed, choose, until=lambda p: isinstance(p, Roll) and p.topic == EVENTS and typed.state.turn > 3)
    events: Counter[int] = Counter()
    faces: Counter[int] = Counter()
    for sid in [s.id for s in store.sessions(game="reconquista")]:
        for step in store.log(sid).steps:
            if step.prompt.topic == EVENTS:
                events[sum(step.answer)] += 1  # type: ignore[arg-type]
            elif step.prompt.topic == REBELLIONS:
                faces[step.answer[0]] += 1  # type: ignore[index]
    dice = table_dice(store)
    assert {o.value: o.observed for o in dice.events.outcomes if o.observed} == dict(events)
    assert {o.value: o.observed for o in dice.rebellions.outcomes if o.observed} == dict(faces)
    assert events[2] >= 1 and dice.events.rolls == sum(events.values()) > 20
    assert dice.rebellions.rolls == sum(faces.values())
    stats = reconquista_stats(store)
    assert stats.rebellions_refused >= 1  # seed 11's, rolled again
    assert dice.rebellions.rolls == sum(c.count for c in stats.rebellions) + stats.rebellions_refused
