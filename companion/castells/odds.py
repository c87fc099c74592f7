"""Exact odds of a Terra de Castells dice roll with rerolls of the failed dice.

A side rolls N dice; a 5 or 6 is a success; after each roll it may reroll every
failed die, up to R rolls in all. A die that has succeeded is kept, so each die
independently ends a success with chance 1 - (4/6)^R, and the chance of at least
K successes is a binomial tail. Fractions keep it exact.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

FAIL = Fraction(4, 6)  # faces 1-4 fail; 5 and 6 succeed


def die_success(rolls: int) -> Fraction:
    """The chance one die ends a success when rolled up to ``rolls`` times (rerolled while it fails)."""
    if rolls <= 0:
        return Fraction(0)
    return 1 - FAIL**rolls


def reach(need: int, dice: int, rolls: int) -> Fraction:
    """The chance that ``dice`` dice reach at least ``need`` successes within ``rolls`` rolls."""
    if need <= 0:
        return Fraction(1)
    if need > dice or rolls <= 0:
        return Fraction(0)
    p = die_success(rolls)
    return sum((comb(dice, k) * p**k * (1 - p) ** (dice - k) for k in range(need, dice + 1)), Fraction(0))


def percent(p: Fraction) -> str:
    """'44.4%' (one decimal; '100%' and '0%' only when exact)."""
    if p == 1:
        return "100%"
    if p == 0:
        return "0%"
    text = f"{float(p) * 100:.1f}"
    if text == "100.0":
        return "99.9%"
    if text == "0.0":
        return "0.1%"
    return f"{text}%"


def reroll_odds(need: int, failed: int, rolls_left: int) -> tuple[Fraction, Fraction]:
    """(this one reroll, every reroll left): the chances that ``failed`` rerolled dice bring ``need`` more successes."""
    return reach(need, failed, 1), reach(need, failed, rolls_left)


def reroll_odds_text(need: int, failed: int, rolls_left: int) -> str:
    """'Chance to reach the target: this reroll 40.7%; with both rerolls left (2 army points at most) 64.8%'."""
    one, every = reroll_odds(need, failed, rolls_left)
    text = f"Chance to reach the target: this reroll {percent(one)}"
    if rolls_left > 1:
        text += f"; with all {rolls_left} rerolls left (up to {rolls_left} army points) {percent(every)}"
    return text


def exactly(k: int, dice: int, rolls: int) -> Fraction:
    """The chance that ``dice`` dice end with exactly ``k`` successes within ``rolls`` rolls."""
    if not 0 <= k <= dice:
        return Fraction(0)
    p = die_success(rolls)
    return comb(dice, k) * p**k * (1 - p) ** (dice - k)


def attack_wins(successes: int, defender_dice: int, defender_rolls: int) -> Fraction:
    """The chance an attack with ``successes`` takes the castle: the defender, rolling
    ``defender_dice`` and rerolling while short up to ``defender_rolls`` rolls, stays below it."""
    if successes <= 0:
        return Fraction(0)
    return 1 - reach(successes, defender_dice, defender_rolls)


def attack_odds(
    successes: int, failed: int, defender_dice: int, defender_rolls: int
) -> tuple[Fraction, Fraction]:
    """(stopping now, after one more reroll of the ``failed`` dice): the attacker's chance to take
    the castle, against a defender who rerolls whenever short while it can pay (its best play)."""
    stop = attack_wins(successes, defender_dice, defender_rolls)
    again = sum(
        (
            exactly(k, failed, 1) * attack_wins(successes + k, defender_dice, defender_rolls)
            for k in range(failed + 1)
        ),
        Fraction(0),
    )
    return stop, again
