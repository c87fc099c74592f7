"""The luck ledger: are the dice fair? Faces counted against a fair die, tested as a statistician would.

For each die size (the ``sides`` of the Roll prompts), the faces of the dice the
player typed from the table (source 'physical') and, beside them, of the dice
the app rolled (source 'app') are counted with SQL over the effective steps (an
undone roll does not count), in the order they were rolled. Each count is tested
against a fair die (companion/review/dice_tests.py): Pearson's chi-square and the
G statistic; below 5 rolls expected a face, the exact (or Monte Carlo) p-value
instead of the approximation; each face's share with its 95% interval; the
power of the test against a loaded die, so that "no evidence" never reads as
"fair"; Holm's correction across every test the ledger shows together; and a
streak test, the same face twice running against the 1 in k of a fair die. Beside it, the
luck in game units of the games that weigh their rolls (game_luck.py).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from sqlalchemy import text

from companion.dice import is_die_name
from companion.errors import DamagedRow
from companion.review.dice_tests import (
    Repeats,
    chi2_sf,
    chi_square,
    exact_p,
    g_statistic,
    holm,
    loaded_share,
    power,
    repeats,
    wilson,
)
from companion.review.effective import MOST_SIDES, Scope, counted, effective_cte
from companion.review.game_luck import GameLuck, weighed_games

if TYPE_CHECKING:
    from companion.store.db import Store

MIN_EXPECTED = 5.0  # the usual rule of thumb for the chi-square approximation
ALPHA = 0.05  # the level a flag is raised at, and the power worked out for
#: How the p-value of a test with 5 rolls expected a face or more is found.
CHI_SQUARE = "chi-square"
#: The streak test of dice with no two rolls in a row.
NO_PAIRS = Repeats(0, 0, 0.0, None)


# -- the ledger --------------------------------------------------------------------------


@dataclass(frozen=True)
class FaceTest:
    """The faces of one kind of die from one source, tested against a fair die.

    ``counts[i]`` is how often face i+1 came up; ``dice`` their sum. ``chi2``, ``g`` and
    ``p_value`` (Pearson's, from the chi-square approximation) are None when there are no
    dice; ``enough`` is False when the expected count a face is under 5, and the verdict's
    p (``p``) is then the exact or Monte Carlo one (``p_exact``, found as ``method`` says).
    ``shares`` holds each face's share with its 95% interval; ``power`` the chance the test
    had of catching a die with one face 1.5 times as likely as it should be. ``holm_p`` is
    ``p`` adjusted for the ``tests`` shown together (Holm), ``repeats`` the streak test.
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
    g: float | None = None
    g_p_value: float | None = None
    p_exact: float | None = None
    method: str = CHI_SQUARE
    shares: tuple[tuple[float, float, float], ...] = ()
    power: float | None = None
    holm_p: float | None = None
    tests: int = 1
    repeats: Repeats = NO_PAIRS
    #: The player's name for the dice tested (a 'physical' test of one named die), else None.
    die: str | None = None

    @property
    def name(self) -> str:
        """What the test is of, in a word or the die's name: 'typed', 'app', 'red d6'."""
        return self.die if self.die is not None else ("typed" if self.source == "physical" else "app")

    @property
    def p(self) -> float | None:
        """The p-value the verdict rests on: the chi-square's with enough rolls, else the exact one."""
        return self.p_value if self.enough else self.p_exact

    @property
    def flagged(self) -> bool:
        """Whether the test found evidence of an unfair die (p under 5%, before Holm's correction)."""
        return self.p is not None and self.p < ALPHA

    def largest_gap(self) -> tuple[int, float] | None:
        """The face furthest from a fair die's share, and by how many percentage points (+/-)."""
        if not self.dice:
            return None
        fair = 1 / self.sides
        face = max(range(self.sides), key=lambda i: (abs(self.shares[i][0] - fair), -i))
        return face + 1, 100 * (self.shares[face][0] - fair)

    def lines(self) -> list[str]:
        """What the test says beyond its verdict, a sentence each: the largest gap from a fair
        die, the power of the test where it found nothing, the streak test."""
        out: list[str] = []
        gap = self.largest_gap()
        if gap is None:
            return out
        face, points = gap
        share, low, high = self.shares[face - 1]
        out.append(
            f"largest gap from a fair die: {face} came up {_pct(share)} of the time against {_pct(1 / self.sides)} "
            f"({points:+.1f} points; 95% interval {_pct(low)} to {_pct(high)})"
        )
        p = self.p
        if p is not None and p >= ALPHA and self.power is not None:
            caught = ">99%" if self.power > 0.995 else f"{self.power:.0%}"
            so = (
                "so a die loaded that much would very likely have shown"
                if self.power >= 0.9
                else "no evidence is not proof of a fair die"
            )
            out.append(
                f"with {self.dice:,} {_dice(self.dice)}, a d{self.sides} showing one face {_pct(loaded_share(self.sides))} "
                f"of the time would have been caught {caught} of the time: {so}"
            )
        streak = streak_text(self.repeats)
        if streak:
            out.append(streak)
        return out

    def to_json(self) -> dict[str, Any]:
        gap = self.largest_gap()
        return {
            "sides": self.sides,
            "source": self.source,
            "die": self.die,
            "counts": {str(face): n for face, n in enumerate(self.counts, start=1)},
            "dice": self.dice,
            "expected": round(self.expected, 3),
            "chi2": _round(self.chi2, 4),
            "dof": self.dof,
            "p_value": _round(self.p_value, 6),
            "enough": self.enough,
            "verdict": self.verdict,
            "g": _round(self.g, 4),
            "g_p_value": _round(self.g_p_value, 6),
            "p_exact": _round(self.p_exact, 6),
            "method": self.method,
            "shares": {
                str(face): {"share": round(sh, 4), "low": round(lo, 4), "high": round(hi, 4)}
                for face, (sh, lo, hi) in enumerate(self.shares, start=1)
            },
            "largest_gap": None if gap is None else {"face": gap[0], "points": round(gap[1], 2)},
            "power": _round(self.power, 4),
            "holm_p": _round(self.holm_p, 6),
            "tests": self.tests,
            "repeats": {
                "pairs": self.repeats.pairs,
                "repeats": self.repeats.repeats,
                "expected": round(self.repeats.expected, 3),
                "p_value": _round(self.repeats.p_value, 6),
            },
        }


def _round(x: float | None, digits: int) -> float | None:
    return None if x is None else round(x, digits)


def _pct(share: float) -> str:
    """'16.7%', '25%': a share as a player reads it."""
    return f"{100 * share:.1f}".removesuffix(".0") + "%"


@dataclass(frozen=True)
class DieLuck:
    """One die size: the dice typed from the table and the app's dice, side by side, and each
    of the player's named dice of that size (``named``) where they rolled more than one or some
    dice unnamed beside them (the dice of one named die alone are ``physical``, by its name)."""

    sides: int
    physical: FaceTest
    app: FaceTest
    named: tuple[FaceTest, ...] = ()

    def tests(self) -> tuple[FaceTest, ...]:
        """Every test of this size, in the order shown: typed, app, then each named die."""
        return (self.physical, self.app, *self.named)

    def to_json(self) -> dict[str, Any]:
        return {
            "sides": self.sides,
            "physical": self.physical.to_json(),
            "app": self.app.to_json(),
            "named": [t.to_json() for t in self.named],
        }


@dataclass(frozen=True)
class LuckLedger:
    """The ledger for a scope (every session, one game's, or one session), smallest die first."""

    scope: str
    dice: tuple[DieLuck, ...]
    #: A sentence for each session left out (its rows cannot be read: ``effective.readable``).
    notes: tuple[str, ...] = ()
    #: Luck in game units, a game at a time (game_luck.py): was the player lucky?
    games: tuple[GameLuck, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "scope": self.scope,
            "dice": [d.to_json() for d in self.dice],
            "notes": list(self.notes),
            "games": [g.to_json() for g in self.games],
        }


def p_text(p: float) -> str:
    """'p = 0.41', 'p = 0.003', 'p < 0.001'; 'p = 0.047', not 'p = 0.05', for a p that is
    under the 5% a flag needs (or just over it): the words beside it must not seem to disagree."""
    if p < 0.001:
        return "p < 0.001"
    if p < 0.01 or round(p, 2) == ALPHA:
        return f"p = {p:.3f}"
    return f"p = {p:.2f}"


def verdict(
    sides: int,
    source: str,
    counts: tuple[int, ...] | list[int],
    p: float | None,
    method: str = CHI_SQUARE,
    holm_p: float | None = None,
    tests: int = 1,
    name: str | None = None,
) -> str:
    """The result in plain words, e.g. 'no evidence your d6 is unfair, p = 0.41'. ``method``
    says how ``p`` was found when it is not the chi-square's; ``holm_p`` and ``tests``, whether
    a flag stands after Holm's correction for the tests shown together; ``name``, the player's
    name of the die tested ("your d6 'red'")."""
    die = f"your d{sides}" if source == "physical" else f"the app's d{sides}"
    if name is not None and source == "physical":
        die += f" '{name}'"
    n = sum(counts)
    if n == 0:
        return f"no d{sides} typed from the table" if source == "physical" else f"the app rolled no d{sides}"
    if p is None:
        return f"{die} could not be tested"
    how = "" if method == CHI_SQUARE else f" ({method}: {n} {_dice(n)} are too few for the chi-square)"
    if p >= ALPHA:
        return f"no evidence {die} is unfair, {p_text(p)}{how}"
    expected = n / sides
    face = max(range(sides), key=lambda i: (abs(counts[i] - expected), -i))
    more = "more" if counts[face] > expected else "less"
    # '5,986.5', not '5.99e+03': the count a player can compare with the one beside it.
    fair = f"{expected:,.1f}".removesuffix(".0")
    detail = f"{face + 1} came up {counts[face]:,} times, {more} than the {fair} a fair die would give"
    strength = "strong evidence" if p < 0.01 else "some evidence"
    said = f"{strength} {die} is unfair, {p_text(p)}{how}: {detail}"
    if tests > 1 and holm_p is not None:
        if holm_p < ALPHA:
            said += f"; it stands after Holm's correction for the {tests} tests shown ({p_text(holm_p)})"
        else:
            said += (
                f"; but not after Holm's correction for the {tests} tests shown ({p_text(holm_p)}): "
                "among that many tests, a p this small often comes by chance"
            )
    return said


def streak_text(r: Repeats) -> str | None:
    """The streak test in plain words; None with no two rolls in a row to compare."""
    if r.p_value is None:
        return None
    seen = f"the same face came twice running {r.repeats:,} times in {r.pairs:,} pairs of rolls, {r.expected:,.1f} expected"
    if r.p_value >= ALPHA:
        return f"no sign of streaks: {seen} ({p_text(r.p_value)})"
    if r.repeats > r.expected:
        return f"streaks: {seen} ({p_text(r.p_value)}), so the faces came in clumps"
    return f"fewer repeats than chance: {seen} ({p_text(r.p_value)}), as if the die avoided its last face"


def face_test(
    sides: int,
    source: str,
    counts: tuple[int, ...] | list[int],
    pairs: int = 0,
    same: int = 0,
    die: str | None = None,
) -> FaceTest:
    """Test one set of face counts (``counts[i]`` for face i+1) against a fair ``sides``-sided
    die; ``same`` of ``pairs`` consecutive rolls showed the same face (the streak test);
    ``die``, the player's name of the dice tested."""
    counts = tuple(int(c) for c in counts)
    if len(counts) != sides:
        raise ValueError(f"a d{sides} needs {sides} face counts, not {len(counts)}")
    n = sum(counts)
    dof = sides - 1
    stat = chi_square(counts) if n else None
    g = g_statistic(counts) if n else None
    expected = n / sides
    enough = n > 0 and expected >= MIN_EXPECTED
    p_exact, method = exact_p(counts) if n and not enough else (None, CHI_SQUARE)
    p_value = chi2_sf(stat, dof) if stat is not None else None
    p = p_value if enough else p_exact
    return FaceTest(
        sides=sides,
        source=source,
        counts=counts,
        dice=n,
        expected=expected,
        chi2=stat,
        dof=dof,
        p_value=p_value,
        enough=enough,
        verdict=verdict(sides, source, counts, p, method, name=die),
        g=g,
        g_p_value=chi2_sf(g, dof) if g is not None else None,
        p_exact=p_exact,
        method=method,
        shares=tuple((c / n, *wilson(c, n)) for c in counts) if n else (),
        power=power(n, sides, ALPHA) if n else None,
        holm_p=p,
        repeats=repeats(pairs, same, sides),
        die=die,
    )


def with_holm(tests: list[FaceTest]) -> list[FaceTest]:
    """``tests`` (shown together) with their p adjusted by Holm's procedure and their verdicts
    saying whether a flag stands after it: 20 tests at 5% raise a false alarm 64% of the time."""
    tested = [(i, p) for i, t in enumerate(tests) if (p := t.p) is not None]
    adjusted = holm([p for _, p in tested])
    out = list(tests)
    for (i, p), adj in zip(tested, adjusted, strict=True):
        t = tests[i]
        out[i] = replace(
            t,
            holm_p=adj,
            tests=len(tested),
            verdict=verdict(t.sides, t.source, t.counts, p, t.method, adj, len(tested), t.die),
        )
    return out


@dataclass
class Faces:
    """The dice of one size from one source: counts per face, and of the consecutive rolls of
    a session (``pairs``) how many showed the same face twice running (``same``)."""

    counts: list[int]
    pairs: int = 0
    same: int = 0


def face_counts(store: Store, scope: Scope) -> dict[tuple[int, str, str | None], Faces]:
    """(sides, source, die) -> the faces of the effective Roll answers in ``scope`` but the
    test rolls, in the order they were rolled: a session's steps in order, a step's dice as
    typed or rolled. ``die`` is the name of the player's dice that rolled them (None: unnamed,
    and every app roll); a name that is not one (edited by hand) counts as unnamed."""
    sql = (
        effective_cte(scope)
        + f""",
tests AS (
    SELECT m.session_id, m.seq FROM roll_mark AS m
    WHERE m.test AND {scope.kept("m.session_id")}
      AND m.id = (SELECT MAX(id) FROM roll_mark WHERE session_id = m.session_id AND seq = m.seq)
),
dice AS (
    SELECT effective.session_id AS sid, effective.seq AS seq, CAST(d.key AS INTEGER) AS k,
           CAST(json_extract(effective.prompt, '$.sides') AS INTEGER) AS sides,
           effective.source AS source, effective.die AS die, CAST(d.value AS INTEGER) AS face
    FROM effective, json_each(effective.answer) AS d
    WHERE effective.source IN ('physical', 'app')
      AND json_extract(effective.prompt, '$.kind') = 'roll'
      AND (effective.session_id, effective.seq) NOT IN tests
),
paired AS (
    SELECT sides, source, die, face,
           LAG(face) OVER (PARTITION BY sid, sides, source, die ORDER BY seq, k) AS previous
    FROM dice
)
SELECT sides, source, die, face, COUNT(*) AS n, SUM(previous IS NOT NULL) AS pairs,
       SUM(previous = face) AS same
FROM paired
GROUP BY sides, source, die, face
"""
    )
    # A row SQLite cannot read fails the query (DamagedRow), as a die too large to count does
    # here: the caller leaves their sessions out (``effective.counted``).
    out: dict[tuple[int, str, str | None], Faces] = {}
    with store.reading() as con:
        rows = con.execute(text(sql), scope.params()).all()
    for sides, source, die, face, n, pairs, same in rows:
        if sides is not None and not 2 <= sides <= MOST_SIDES:
            raise DamagedRow(f"A roll of a d{min(sides, 10**6)} or larger is no roll of any game.")
        if sides is None or face is None or not 1 <= face <= sides:
            continue  # a damaged row: the log's own checks refuse it elsewhere
        named = die if source == "physical" and is_die_name(die) else None
        faces = out.setdefault((sides, source, named), Faces([0] * sides))
        faces.counts[face - 1] += n
        faces.pairs += int(pairs or 0)
        faces.same += int(same or 0)
    return out


def luck(store: Store, game: str | None = None, session_id: int | None = None) -> LuckLedger:
    """The luck ledger over every session, one game's sessions, or one session.

    One ``DieLuck`` per die size that was rolled in the scope, smallest first; each
    holds the physical and the app test (a side with no dice says so in its verdict),
    the flags weighed by Holm's correction across every test the ledger shows.
    """
    return counted(store, Scope(game, session_id), lambda scope, notes: _luck(store, scope, notes))


def _luck(store: Store, scope: Scope, skipped: tuple[str, ...]) -> LuckLedger:
    found = face_counts(store, scope)
    sizes = sorted({sides for sides, _, _ in found})
    shown: list[list[FaceTest]] = []  # per size: typed, app, then each named die
    for sides in sizes:
        named = sorted(die for s, source, die in found if s == sides and source == "physical" and die)
        # The dice of one named die alone: the typed dice are that die, tested once by its name.
        only = named[0] if len(named) == 1 and (sides, "physical", None) not in found else None
        typed, by_app = _together(found, sides, "physical"), _together(found, sides, "app")
        size_tests = [
            face_test(sides, "physical", typed.counts, typed.pairs, typed.same, only),
            face_test(sides, "app", by_app.counts, by_app.pairs, by_app.same),
        ]
        if only is None:
            size_tests += [
                face_test(sides, "physical", f.counts, f.pairs, f.same, die)
                for die in named
                for f in [found[(sides, "physical", die)]]
            ]
        shown.append(size_tests)
    tests = iter(with_holm([t for size_tests in shown for t in size_tests]))
    dice = []
    for sides, size_tests in zip(sizes, shown, strict=True):
        physical, app, *named_tests = (next(tests) for _ in size_tests)
        dice.append(DieLuck(sides, physical, app, tuple(named_tests)))
    return LuckLedger(
        scope=scope.describe(), dice=tuple(dice), notes=skipped, games=weighed_games(store, scope)
    )


def _together(found: dict[tuple[int, str, str | None], Faces], sides: int, source: str) -> Faces:
    """Every die of ``sides`` from ``source``, named or not, as one: their counts summed, and
    their streaks (each named die's own, a die's next roll being its own next)."""
    out = Faces([0] * sides)
    for (s, src, _), faces in found.items():
        if s == sides and src == source:
            out.counts = [a + b for a, b in zip(out.counts, faces.counts, strict=True)]
            out.pairs += faces.pairs
            out.same += faces.same
    return out


def _dice(n: int) -> str:
    return "die" if n == 1 else "dice"
