"""Exact odds of a Reconquista siege or battle, never sampled.

A force is reduced to its counts by kind (indexed like ``units.CASUALTY_ORDER``),
since the odds do not depend on the order units are listed in. Each side's hits
in a round follow the convolution of one binomial per to-hit face; states are
memoised on (attacker counts, defender counts, who strikes first this round and
in later rounds), so a whole battle is a small recursion. A battle round in which
nobody hits leaves the state unchanged: that self-loop is solved algebraically,
V = (sum over the other outcomes) / (1 - P(no hits)). The rules followed are
those of ``combat.py``; the tests check both against dice enumerated one by one.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from math import comb

from companion.reconquista import combat
from companion.reconquista.combat import Side, SiegeSide
from companion.reconquista.units import CASUALTY_ORDER, HIT_ON, Kind

Counts = tuple[int, ...]
Dist = tuple[float, ...]  # P(h hits) for h = 0, 1, ...

_INDEX = {kind: i for i, kind in enumerate(CASUALTY_ORDER)}


def counts_of(units: Sequence[Kind]) -> Counts:
    """How many units of each kind, in ``CASUALTY_ORDER`` positions."""
    counts = [0] * len(CASUALTY_ORDER)
    for kind in units:
        counts[_INDEX[kind]] += 1
    return tuple(counts)


def _units_of(counts: Counts) -> list[Kind]:
    return [kind for kind, n in zip(CASUALTY_ORDER, counts, strict=True) for _ in range(n)]


@cache
def _remove(counts: Counts, n: int) -> Counts:
    """The counts after n casualties, taken in casualty order."""
    out = list(counts)
    for i, have in enumerate(out):
        if n <= 0:
            break
        take = min(have, n)
        out[i] -= take
        n -= take
    return tuple(out)


@cache
def _binomial(n: int, face: int) -> Dist:
    p = (7 - face) / 6
    return tuple(comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1))


def _convolve(a: Dist, b: Dist) -> Dist:
    out = [0.0] * (len(a) + len(b) - 1)
    for i, pa in enumerate(a):
        for j, pb in enumerate(b):
            out[i + j] += pa * pb
    return tuple(out)


@cache
def _hit_dist(counts: Counts) -> Dist:
    """P(h hits) for a force rolling one die per unit."""
    by_face: dict[int, int] = {}
    for kind, n in zip(CASUALTY_ORDER, counts, strict=True):
        if n:
            by_face[HIT_ON[kind]] = by_face.get(HIT_ON[kind], 0) + n
    dist: Dist = (1.0,)
    for face, n in sorted(by_face.items()):
        dist = _convolve(dist, _binomial(n, face))
    return dist


def hit_distribution(units: Sequence[Kind]) -> Dist:
    """P(h hits) for h = 0 .. len(units) of ``units`` rolling a die each (the luck of a roll)."""
    return _hit_dist(counts_of(units))


# -- battle ----------------------------------------------------------------------------------

BattleOdds = tuple[float, float, float, float]  # attacker_wins, defender_wins, siege, both_destroyed
_OUTCOME_SLOT = {
    "defender_retreats": 0,
    "defender_destroyed": 0,
    "attacker_retreats": 1,
    "attacker_destroyed": 1,
    "defender_into_city": 2,
    "both_destroyed": 3,
}


def _round_outcomes(a: Counts, d: Counts, first: Side | None) -> list[tuple[float, int, int, Counts, Counts]]:
    """(probability, attacker hits, defender hits, attackers left, defenders left) of one round."""
    out: list[tuple[float, int, int, Counts, Counts]] = []
    if first is None:
        a_dist, d_dist = _hit_dist(a), _hit_dist(d)
        for dh, pd in enumerate(d_dist):
            a_left = _remove(a, dh)
            for ah, pa in enumerate(a_dist):
                out.append((pa * pd, ah, dh, a_left, _remove(d, ah)))
    elif first == "defender":
        for dh, pd in enumerate(_hit_dist(d)):
            a_left = _remove(a, dh)
            for ah, pa in enumerate(_hit_dist(a_left)):
                out.append((pa * pd, ah, dh, a_left, _remove(d, ah)))
    else:
        for ah, pa in enumerate(_hit_dist(a)):
            d_left = _remove(d, ah)
            for dh, pd in enumerate(_hit_dist(d_left)):
                out.append((pa * pd, ah, dh, _remove(a, dh), d_left))
    return out


@cache
def _battle(a: Counts, d: Counts, first: Side | None, later: Side | None, city: bool) -> BattleOdds:
    """Odds from the start of a round struck first by ``first``, later rounds by ``later``."""
    acc = [0.0, 0.0, 0.0, 0.0]
    stay = 0.0  # P(this round leaves the very same state)
    for p, ah, dh, a_left, d_left in _round_outcomes(a, d, first):
        outcome = combat.round_outcome(ah, dh, sum(a_left), sum(d_left), city=city)
        if outcome != "continue":
            acc[_OUTCOME_SLOT[outcome]] += p
        elif a_left == a and d_left == d and first == later:
            stay += p
        else:
            for i, v in enumerate(_battle(a_left, d_left, later, later, city)):
                acc[i] += p * v
    # Every force scores a hit with positive probability, so stay < 1.
    scale = 1.0 / (1.0 - stay)
    return (acc[0] * scale, acc[1] * scale, acc[2] * scale, acc[3] * scale)


def battle_odds(
    attackers: Sequence[Kind],
    defenders: Sequence[Kind],
    *,
    city: bool,
    mountain: bool = False,
    el_cid: Side | None = None,
) -> dict[str, float]:
    """Exact odds of a whole battle (Battle).

    In the open it goes on until a round is not a tie; with a city the first round
    decides ('siege' = the defenders went into the city). ``attacker_wins`` = the
    defenders retreat or are destroyed; ``defender_wins`` = the attackers retreat or
    are destroyed. The four values sum to 1.
    """
    if not attackers or not defenders:
        raise ValueError("A battle needs at least one unit on each side.")
    first = combat.first_striker(mountain, el_cid, first_round=True)
    later = combat.first_striker(mountain, el_cid, first_round=False)
    aw, dw, siege, both = _battle(counts_of(attackers), counts_of(defenders), first, later, city)
    return {"attacker_wins": aw, "defender_wins": dw, "siege": siege, "both_destroyed": both}


# -- siege -----------------------------------------------------------------------------------


@cache
def _die_pairs(b_mod: int, d_mod: int) -> tuple[float, float, float, float]:
    """For the besieger's modifier ``b_mod`` and the defender's ``d_mod``: P(besieger wins),
    P(wins with an even result: die and modifier), P(tie), over the 36 die pairs; and
    P(defender wins)."""
    win = even = tie = lose = 0
    for b in range(1, 7):
        for d in range(1, 7):
            margin = b + b_mod - (d + d_mod)
            if margin > 0:
                win += 1
                even += (b + b_mod) % 2 == 0
            elif margin == 0:
                tie += 1
            else:
                lose += 1
    return win / 36, even / 36, tie / 36, lose / 36


@cache
def _siege(
    b: Counts,
    d: Counts,
    city: bool,
    fortress: bool,
    el_cid: SiegeSide | None,
    same_religion: bool,
    after_tie: bool,
) -> tuple[float, float, float]:
    """(P(the besieger takes the place), P(taken and sacked), P(the defender holds)) from this roll on."""
    if not any(b):
        return (0.0, 0.0, 1.0)  # a tie took the last besieger: the defender holds
    defenders = _units_of(d)
    if combat.surrenders(defenders, city=city, same_religion=same_religion, after_tie=after_tie):
        return (1.0, 0.0, 0.0)
    mods = combat.siege_modifiers(_units_of(b), defenders, city=city, fortress=fortress, el_cid=el_cid)
    win, even, tie, lose = _die_pairs(mods.besieger_total, mods.defender_total)
    if not city:
        even = 0.0  # only a city is sacked
    if tie == 0.0:
        return (win, even, lose)
    take, sack, hold = _siege(_remove(b, 1), _remove(d, 1), city, fortress, el_cid, same_religion, True)
    return (win + tie * take, even + tie * sack, lose + tie * hold)


def siege_odds(
    besiegers: Sequence[Kind],
    defenders: Sequence[Kind],
    *,
    city: bool,
    fortress: bool,
    el_cid: SiegeSide | None = None,
    same_religion: bool = False,
) -> dict[str, float]:
    """Exact odds of a whole siege, ties and all (Phase 6: Resolve Sieges).

    ``besieger``: the besieger takes the place (sacked or not); ``sacked``: the part of
    it where the city is sacked; ``defender``: the place holds. besieger + defender = 1.
    """
    if not besiegers:
        raise ValueError("A siege needs at least one besieging unit.")
    if not (city or fortress):
        raise ValueError("A siege needs a city or a fortress to besiege.")
    key = (counts_of(besiegers), counts_of(defenders), city, fortress, el_cid, same_religion, False)
    take, sack, hold = _siege(*key)
    return {"besieger": take, "defender": hold, "sacked": sack}


def clear_caches() -> None:
    """Forget every memoised state (the benchmark times computations from scratch)."""
    for cached in (_remove, _binomial, _hit_dist, _battle, _die_pairs, _siege):
        cached.cache_clear()
