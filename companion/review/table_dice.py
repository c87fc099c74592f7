"""Reconquista's table rolls against the dice: the events' 2D6 and the rebellions' D6.

Each total of the events' 2D6 and each face of the rebellion table's D6 rolled in the
sessions in scope, counted beside what fair dice give (a 2D6 total t in 6 - |t - 7| of
the 36 ways two dice fall; a D6 face in 1 of 6). A rebellion result refused and rolled
again (it would have eliminated a side's last city) is counted too: it was a roll of the
die like any other, and leaving it out would bend the faces the refusal falls on.

The rolls are read by the statistics' own query (``stats._table_rolls``: effective steps
only, by topic); the comparison is a pure function (``against_dice``) with the luck
ledger's chi-square test (``dice_tests.chi2_sf``), expected counts of 5 at least before it
says anything (``luck.MIN_EXPECTED``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from typing import TYPE_CHECKING, Any

from companion.review.dice_tests import chi2_sf
from companion.review.effective import Scope, counted
from companion.review.luck import MIN_EXPECTED, p_text

if TYPE_CHECKING:
    from companion.store.db import Store


def distribution(n: int, sides: int = 6) -> dict[int, Fraction]:
    """How likely each total of ``n`` fair dice is: every way the dice fall, counted."""
    ways: dict[int, int] = {}
    for faces in product(range(1, sides + 1), repeat=n):
        ways[sum(faces)] = ways.get(sum(faces), 0) + 1
    total = sides**n
    return {t: Fraction(w, total) for t, w in sorted(ways.items())}


@dataclass(frozen=True)
class Outcome:
    """One total: how often it was rolled, beside how often fair dice give it."""

    value: int
    observed: int
    chance: Fraction  # what fair dice give, e.g. 6/36 for a 7 on 2D6
    expected: float  # the rolls times the chance

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "observed": self.observed,
            "chance": str(self.chance),
            "expected": round(self.expected, 3),
        }


@dataclass(frozen=True)
class DiceFit:
    """The totals of one kind of roll against fair dice (``dice``: '2D6', 'D6')."""

    dice: str
    rolls: int
    outcomes: tuple[Outcome, ...]
    chi2: float | None  # Pearson's statistic; None with no rolls
    p_value: float | None
    enough: bool  # every expected count at least MIN_EXPECTED: the test can be trusted
    verdict: str

    def shares(self) -> list[float]:
        """The observed share of each total, in percent (zeros with no rolls)."""
        return [100 * o.observed / self.rolls if self.rolls else 0.0 for o in self.outcomes]

    def chances(self) -> list[float]:
        """What fair dice give each total, in percent."""
        return [100 * float(o.chance) for o in self.outcomes]

    def to_json(self) -> dict[str, Any]:
        return {
            "dice": self.dice,
            "rolls": self.rolls,
            "outcomes": [o.to_json() for o in self.outcomes],
            "chi2": None if self.chi2 is None else round(self.chi2, 4),
            "p_value": None if self.p_value is None else round(self.p_value, 6),
            "enough": self.enough,
            "verdict": self.verdict,
        }


def against_dice(dice: str, n: int, counts: Mapping[int, int], sides: int = 6) -> DiceFit:
    """``counts`` (total -> times rolled) of ``n`` dice of ``sides`` against fair dice: every
    total the dice can give, zeros included, with a chi-square test of the fit. A count of a
    total the dice cannot give is a damaged row and is left out."""
    chances = distribution(n, sides)
    rolls = sum(c for t, c in counts.items() if t in chances)
    outcomes = tuple(Outcome(t, counts.get(t, 0), p, rolls * float(p)) for t, p in chances.items())
    least = min(o.expected for o in outcomes)
    chi2 = sum((o.observed - o.expected) ** 2 / o.expected for o in outcomes) if rolls else None
    p = chi2_sf(chi2, len(outcomes) - 1) if chi2 is not None else None
    enough = rolls > 0 and least >= MIN_EXPECTED
    return DiceFit(dice, rolls, outcomes, chi2, p, enough, _verdict(dice, outcomes, rolls, p, enough))


def _verdict(dice: str, outcomes: tuple[Outcome, ...], rolls: int, p: float | None, enough: bool) -> str:
    """The fit in plain words: 'not enough rolls to tell...', 'no evidence...', 'some evidence...'."""
    if not rolls:
        return f"no {dice} rolled yet"
    said = f"{rolls} {'roll' if rolls == 1 else 'rolls'} of {dice}"
    if not enough:
        rarest = min(o.chance for o in outcomes)
        needed = math.ceil(MIN_EXPECTED / rarest)
        return f"{said}: not enough to tell whether they fell as fair dice do (at least {needed} needed)"
    assert p is not None
    if p >= 0.05:
        return f"{said}: no evidence they fell otherwise than fair dice do, {p_text(p)}"
    far = max(outcomes, key=lambda o: (abs(o.observed - o.expected) / math.sqrt(o.expected), -o.value))
    how = "more" if far.observed > far.expected else "less"
    strength = "strong evidence" if p < 0.01 else "some evidence"
    return (
        f"{said}: {strength} they fell otherwise than fair dice do, {p_text(p)}: {far.value} came up "
        f"{far.observed} times, {how} than the {far.expected:.1f} fair dice would give"
    )


@dataclass(frozen=True)
class TableDice:
    """The events' 2D6 and the rebellion table's D6 of the Reconquista sessions in scope."""

    events: DiceFit
    rebellions: DiceFit

    def to_json(self) -> dict[str, Any]:
        return {"events": self.events.to_json(), "rebellions": self.rebellions.to_json()}


def table_dice(store: Store, session_id: int | None = None) -> TableDice:
    """The events' 2D6 totals and the rebellion die's faces rolled in every Reconquista
    session (or one), each against fair dice."""
    return counted(store, Scope("reconquista", session_id), lambda scope, _notes: _table_dice(store, scope))


def _table_dice(store: Store, scope: Scope) -> TableDice:
    """``table_dice`` of the sessions of ``scope`` (the statistics name the sessions left out)."""
    from companion.review.stats import _table_rolls

    return dice_of(_table_rolls(store, scope))


def dice_of(rows: list[Any]) -> TableDice:
    """The table dice of the statistics' table rolls (``stats._table_rolls``: config, kind,
    value, refused, column, count)."""
    events: dict[int, int] = {}
    rebellions: dict[int, int] = {}
    for _config, kind, value, _refused, _column, n in rows:
        if value is None:
            continue
        counts = events if kind == "event" else rebellions if kind == "rebellion" else None
        if counts is not None:
            counts[int(value)] = counts.get(int(value), 0) + int(n)
    return TableDice(against_dice("2D6", 2, events), against_dice("D6", 1, rebellions))
