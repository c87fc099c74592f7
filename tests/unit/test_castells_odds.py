"""Terra de Castells odds: the exact chance of reaching K successes with rerolls, against enumeration.

Rolls: "A success = result of 5 or 6. May reroll failed dice ..., up to a maximum of 3 total rolls"."""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import pytest

from companion.castells.odds import die_success, percent, reach, reroll_odds_text


@cache
def enumerate_chance(need: int, failed: int, rolls: int) -> Fraction:
    """Roll the ``failed`` dice, every face sequence equally likely, and reroll what fails again."""
    if need <= 0:
        return Fraction(1)
    if rolls == 0 or failed == 0:
        return Fraction(0)
    total = Fraction(0)
    outcomes = list(itertools.product(range(1, 7), repeat=failed))
    for faces in outcomes:
        hits = sum(1 for f in faces if f >= 5)
        total += enumerate_chance(need - hits, failed - hits, rolls - 1)
    return total / len(outcomes)


@pytest.mark.parametrize("dice", [1, 2, 3, 4])
@pytest.mark.parametrize("rolls", [1, 2, 3])
def test_reach_equals_direct_enumeration_of_every_roll(dice: int, rolls: int) -> None:
    """The binomial form equals rolling out every face of every roll and every reroll."""
    for need in range(dice + 2):
        assert reach(need, dice, rolls) == enumerate_chance(need, dice, rolls), (need, dice, rolls)


def test_known_values() -> None:
    """One die, one roll: 2 faces in 6; three rolls: 1 - (4/6)^3 = 19/27."""
    assert reach(1, 1, 1) == Fraction(1, 3)
    assert die_success(3) == Fraction(19, 27)
    assert reach(5, 5, 1) == Fraction(1, 243)
    assert reach(0, 5, 3) == 1 and reach(6, 5, 3) == 0 and reach(1, 5, 0) == 0


def test_more_rolls_never_lower_the_chance() -> None:
    """A reroll only ever adds successes (a success is kept)."""
    for need in range(1, 6):
        chances = [reach(need, 5, r) for r in range(1, 5)]
        assert chances == sorted(chances) and chances[0] < chances[-1]


def test_the_reroll_text_gives_both_chances() -> None:
    """Shown before a defender's reroll: this reroll, and every reroll left."""
    text = reroll_odds_text(2, 4, 2)
    assert text == (
        f"Chance to reach the target: this reroll {percent(reach(2, 4, 1))}; "
        f"with all 2 rerolls left (up to 2 army points) {percent(reach(2, 4, 2))}"
    )
    assert percent(Fraction(1)) == "100%" and percent(Fraction(1, 3)) == "33.3%"
    assert percent(Fraction(1, 100000)) == "0.1%"  # a chance is never shown as 0% unless it is
