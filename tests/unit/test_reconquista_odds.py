"""Exact odds of sieges and battles (odds.py) against every die enumerated one by one.

The brute force here rolls every combination of faces (6^n a round) through the
round-level rules of combat.py, independently of odds.py's hit distributions and
count states; the two must agree to 1e-9.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.reconquista import combat, odds
from companion.reconquista.units import Kind, parse_spec

A = Kind.ARMY
FACES = range(1, 7)


def P(spec: str) -> list[Kind]:
    return parse_spec(spec) if spec else []


# -- brute force -------------------------------------------------------------------------------

Units = tuple[Kind, ...]
SLOTS = {
    "defender_retreats": "attacker_wins",
    "defender_destroyed": "attacker_wins",
    "attacker_retreats": "defender_wins",
    "attacker_destroyed": "defender_wins",
    "defender_into_city": "siege",
    "both_destroyed": "both_destroyed",
}


def _rounds(a: Units, d: Units, first: str | None, city: bool) -> list[tuple[float, combat.RoundResult]]:
    """Every dice combination of one round, each with its probability, through combat.battle_round."""
    out = []
    if first is None:
        for a_dice in itertools.product(FACES, repeat=len(a)):
            for d_dice in itertools.product(FACES, repeat=len(d)):
                p = 6.0 ** -(len(a) + len(d))
                out.append((p, combat.battle_round(a, d, a_dice, d_dice, city=city, first=None)))
        return out
    strikers, others = (d, a) if first == "defender" else (a, d)
    for s_dice in itertools.product(FACES, repeat=len(strikers)):
        # How many of the others are left to roll: found by the rules themselves.
        left = len(combat.remove_casualties(others, combat.hits(strikers, s_dice)))
        for o_dice in itertools.product(FACES, repeat=left):
            p = 6.0 ** -(len(strikers) + left)
            a_dice, d_dice = (o_dice, s_dice) if first == "defender" else (s_dice, o_dice)
            out.append((p, combat.battle_round(a, d, a_dice, d_dice, city=city, first=first)))  # type: ignore[arg-type]
    return out


@cache
def brute_battle(
    a: Units, d: Units, city: bool, mountain: bool, el_cid: str | None, first_round: bool
) -> dict[str, float]:
    first = combat.first_striker(mountain, el_cid, first_round)  # type: ignore[arg-type]
    later_same = combat.first_striker(mountain, el_cid, False) == first  # type: ignore[arg-type]
    acc = {"attacker_wins": 0.0, "defender_wins": 0.0, "siege": 0.0, "both_destroyed": 0.0}
    loop = 0.0
    for p, rnd in _rounds(a, d, first, city):
        if rnd.result != "continue":
            acc[SLOTS[rnd.result]] += p
        elif rnd.attacker_survivors == a and rnd.defender_survivors == d and later_same:
            loop += p  # the very same battle again: V = rest + loop * V
        else:
            nxt = brute_battle(rnd.attacker_survivors, rnd.defender_survivors, city, mountain, el_cid, False)
            for key, v in nxt.items():
                acc[key] += p * v
    return {key: v / (1.0 - loop) for key, v in acc.items()}


@cache
def brute_siege(
    b: Units, d: Units, city: bool, fortress: bool, el_cid: str | None, same: bool, after_tie: bool
) -> dict[str, float]:
    acc = {"besieger": 0.0, "defender": 0.0, "sacked": 0.0}
    for bd, dd in itertools.product(FACES, FACES):
        r = combat.siege_roll(
            b, d, city=city, fortress=fortress, el_cid=el_cid, same_religion=same,  # type: ignore[arg-type]
            after_tie=after_tie, besieger_die=bd, defender_die=dd,
        )  # fmt: skip
        if r.result == "continue":
            nxt = brute_siege(r.besieger_survivors, r.defender_survivors, city, fortress, el_cid, same, True)
            for key, v in nxt.items():
                acc[key] += v / 36
        elif r.outcome == "besieger" or r.result == "surrendered":
            acc["besieger"] += 1 / 36
            acc["sacked"] += r.sacked / 36
        else:  # the defender won the roll, or a tie left no besieger
            acc["defender"] += 1 / 36
    return acc


def close(x: dict[str, float], y: dict[str, float]) -> None:
    assert x.keys() == y.keys()
    for key in x:
        assert x[key] == pytest.approx(y[key], abs=1e-9), key


# -- battles -----------------------------------------------------------------------------------


def test_one_army_each_in_the_open_is_a_third_each() -> None:
    """Battle: "Otherwise, the battle continues: roll again to hit": 1A against 1A, each round both
    hit (1/4, both destroyed), one hits (1/4 each) or nobody does (1/4, again): 1/3 each."""
    result = odds.battle_odds(P("1A"), P("1A"), city=False)
    close(result, {"attacker_wins": 1 / 3, "defender_wins": 1 / 3, "siege": 0.0, "both_destroyed": 1 / 3})


def test_with_a_city_the_first_round_decides() -> None:
    """Battle: "If both sides inflict equal losses, if there is a city in the area, then the entire
    defending force retreats into it": 1A against 1A by a city: a tie (1/4 no hits) is a siege."""
    result = odds.battle_odds(P("1A"), P("1A"), city=True)
    close(result, {"attacker_wins": 0.25, "defender_wins": 0.25, "siege": 0.25, "both_destroyed": 0.25})


BATTLES = [
    ("1A", "1A", False, False, None),
    ("1G1A", "1A", False, True, None),
    ("2A", "1G1A", True, False, None),
    ("2A", "1G1A", True, True, None),
    ("1MO1G", "2A", False, False, "attacker"),
    ("1A1G", "1A1R", False, True, "defender"),
    ("2A1G", "2RA", False, False, None),
    ("1G2A", "1A1G", False, True, None),
    ("1MC1A", "2G", False, True, None),
    ("3A", "2A", True, True, None),
]


@pytest.mark.parametrize(("att", "dfn", "city", "mountain", "el_cid"), BATTLES)
def test_battle_odds_match_every_die(
    att: str, dfn: str, city: bool, mountain: bool, el_cid: str | None
) -> None:
    """Battle: the whole battle, rounds as in combat.battle_round ("roll again to hit, as before,
    except that this time the defenders do not hit first in a mountainous area"), every die enumerated."""
    exact = odds.battle_odds(P(att), P(dfn), city=city, mountain=mountain, el_cid=el_cid)  # type: ignore[arg-type]
    brute = brute_battle(tuple(P(att)), tuple(P(dfn)), city, mountain, el_cid, True)
    close(exact, brute)
    assert sum(exact.values()) == pytest.approx(1.0, abs=1e-9)


def test_the_mountain_matters_only_in_the_first_round() -> None:
    """Battle: "this time the defenders do not hit first in a mountainous area": the mountain helps
    the defenders, but less than striking first every round (El Cid)."""
    plain = odds.battle_odds(P("2A1G"), P("2A"), city=False)
    hill = odds.battle_odds(P("2A1G"), P("2A"), city=False, mountain=True)
    cid = odds.battle_odds(P("2A1G"), P("2A"), city=False, el_cid="defender")
    assert plain["defender_wins"] < hill["defender_wins"] < cid["defender_wins"]


# -- sieges ------------------------------------------------------------------------------------


def test_siege_by_hand() -> None:
    """Phase 6: Resolve Sieges: 1A (+2) against a city (+1) with 1G (+1): the besieger wins on 15 of 36
    die pairs, 9 of them with an even result (the die and +2: sacked); on the 6 ties each side loses
    its unit and, the besiegers gone, the city holds."""
    result = odds.siege_odds(P("1A"), P("1G"), city=True, fortress=False)
    close(result, {"besieger": 15 / 36, "defender": 21 / 36, "sacked": 9 / 36})


def test_siege_with_ties_by_hand() -> None:
    """Phase 6: Resolve Sieges: "the siege continues; roll the dice again": 2A (+4) against a
    fortress (no city) with 1G (+2): wins on b - d > -2 (26 of 36), ties on b - d = -2 (4 of 36).
    After a tie the fortress, emptied, fights on alone (it has no religion to surrender by): 1A
    (+2) against a bare die wins on b - d > -2 again (26 of 36), and a second tie takes the last
    besieger."""
    result = odds.siege_odds(P("2A"), P("1G"), city=False, fortress=True)
    expected = Fraction(26, 36) + Fraction(4, 36) * Fraction(26, 36)
    close(result, {"besieger": float(expected), "defender": float(1 - expected), "sacked": 0.0})


SIEGES = [
    ("3A2G", "2A1G", True, True, None, False),
    ("3A2G", "2A1G", True, True, None, True),
    ("2A1MO", "1A1G", True, False, "besieger", False),
    ("1A2G", "2G", True, True, "defender", False),
    ("2A", "1G", True, True, None, False),
    ("2A", "1G", True, True, None, True),
    ("4G", "1A", False, True, None, False),
    ("1MC2A", "1R1A", True, False, None, False),
    ("5A", "", True, True, None, False),
    ("6A", "1MO1A", True, True, "besieger", True),
]


@pytest.mark.parametrize(("bes", "dfn", "city", "fortress", "el_cid", "same"), SIEGES)
def test_siege_odds_match_every_die(
    bes: str, dfn: str, city: bool, fortress: bool, el_cid: str | None, same: bool
) -> None:
    """Phase 6: Resolve Sieges: the whole siege, tie after tie, as combat.siege_roll plays each roll."""
    exact = odds.siege_odds(
        P(bes),
        P(dfn),
        city=city,
        fortress=fortress,
        el_cid=el_cid,
        same_religion=same,  # type: ignore[arg-type]
    )
    brute = brute_siege(tuple(P(bes)), tuple(P(dfn)), city, fortress, el_cid, same, False)
    close(exact, brute)


def test_an_enemy_city_emptied_by_ties_is_harder_to_take_than_a_friendly_one() -> None:
    """Phase 6: Resolve Sieges: only a place "of the same religion as the attacker [that] now lacks
    units" surrenders after a tie."""
    enemy = odds.siege_odds(P("2A"), P("1G"), city=True, fortress=True, same_religion=False)
    ours = odds.siege_odds(P("2A"), P("1G"), city=True, fortress=True, same_religion=True)
    assert enemy["besieger"] < ours["besieger"]


def test_nobody_inside_is_certain() -> None:
    """Phase 6: Resolve Sieges: "If the City / Fortress had no force inside [...] it surrenders"."""
    assert odds.siege_odds(P("1G"), [], city=True, fortress=True) == {
        "besieger": 1.0,
        "defender": 0.0,
        "sacked": 0.0,
    }


def test_cache_clearing_gives_the_same_answer() -> None:
    """The benchmark clears the memo between runs: a computation from scratch is the same."""
    first = odds.siege_odds(P("3A2G"), P("2A1G"), city=True, fortress=True)
    odds.clear_caches()
    assert odds._siege.cache_info().currsize == 0
    assert odds.siege_odds(P("3A2G"), P("2A1G"), city=True, fortress=True) == first


# -- properties --------------------------------------------------------------------------------

KINDS = st.sampled_from(list(Kind))
FORCE = st.lists(KINDS, min_size=1, max_size=7)
SIEGE_SIDES = st.sampled_from([None, "besieger", "defender"])


@st.composite
def places(draw: st.DrawFn) -> tuple[bool, bool]:
    return draw(st.sampled_from([(True, False), (False, True), (True, True)]))


@settings(max_examples=150, deadline=None)
@given(FORCE, st.lists(KINDS, max_size=7), places(), SIEGE_SIDES, st.booleans())
def test_siege_odds_sum_to_one(
    besiegers: list[Kind], defenders: list[Kind], place: tuple[bool, bool], el_cid: str | None, same: bool
) -> None:
    """Phase 6: Resolve Sieges: every siege ends with the place taken or held; the sacked part is
    part of the taken."""
    city, fortress = place
    kw = {"city": city, "fortress": fortress, "el_cid": el_cid, "same_religion": same}
    r = odds.siege_odds(besiegers, defenders, **kw)  # type: ignore[arg-type]
    assert r["besieger"] + r["defender"] == pytest.approx(1.0, abs=1e-9)
    assert 0.0 <= r["sacked"] <= r["besieger"] + 1e-12
    if not city:
        assert r["sacked"] == 0.0


@settings(max_examples=150, deadline=None)
@given(FORCE, st.lists(KINDS, max_size=6), places(), SIEGE_SIDES, st.booleans())
def test_more_besieging_armies_never_hurt_the_besieger(
    besiegers: list[Kind], defenders: list[Kind], place: tuple[bool, bool], el_cid: str | None, same: bool
) -> None:
    """Phase 6: Resolve Sieges: "+2 for each Army" in the attacking force, and an army is the last
    casualty: adding a besieging army never lowers the besieger's odds."""
    city, fortress = place
    kw = {"city": city, "fortress": fortress, "el_cid": el_cid, "same_religion": same}
    before = odds.siege_odds(besiegers, defenders, **kw)  # type: ignore[arg-type]
    after = odds.siege_odds([*besiegers, A], defenders, **kw)  # type: ignore[arg-type]
    assert after["besieger"] >= before["besieger"] - 1e-12


@settings(max_examples=150, deadline=None)
@given(FORCE, st.lists(KINDS, max_size=6), places(), SIEGE_SIDES, st.booleans())
def test_more_defending_armies_never_help_the_besieger(
    besiegers: list[Kind], defenders: list[Kind], place: tuple[bool, bool], el_cid: str | None, same: bool
) -> None:
    """Phase 6: Resolve Sieges: "+2 for each Army" in the defence: adding a defending army never
    raises the besieger's odds."""
    city, fortress = place
    kw = {"city": city, "fortress": fortress, "el_cid": el_cid, "same_religion": same}
    before = odds.siege_odds(besiegers, defenders, **kw)  # type: ignore[arg-type]
    after = odds.siege_odds(besiegers, [*defenders, A], **kw)  # type: ignore[arg-type]
    assert after["besieger"] <= before["besieger"] + 1e-12


@settings(max_examples=150, deadline=None)
@given(FORCE, FORCE, st.booleans(), st.booleans(), st.sampled_from([None, "attacker", "defender"]))
def test_battle_odds_sum_to_one(
    attackers: list[Kind], defenders: list[Kind], city: bool, mountain: bool, el_cid: str | None
) -> None:
    """Battle: every battle ends in a win, a retreat into the city or both sides destroyed; with no
    city, never 'siege'."""
    r = odds.battle_odds(attackers, defenders, city=city, mountain=mountain, el_cid=el_cid)  # type: ignore[arg-type]
    assert sum(r.values()) == pytest.approx(1.0, abs=1e-9)
    assert all(v >= -1e-12 for v in r.values())
    if not city:
        assert r["siege"] == 0.0


# -- the odds the screen shows before a move (forecast.py) --------------------------------------


def test_the_odds_of_a_move_count_el_cid_when_he_goes_with_it() -> None:
    """Quick Reference Sheet, 8 El Cid: "Attacks first. +2 in siege." Before a move the screen
    shows the odds of the battle (or the siege) it starts: El Cid going with the moving force
    strikes first in that battle, and adds 2 to its siege rolls. 2 Christian armies with El Cid
    in Barcelona against 2 Muslim armies in open Tarragona, and against 1 Muslim garrison behind
    the walls of Zaragoza (no battle: a siege)."""
    from reconquista_helpers import place

    from companion.reconquista.board import default_board
    from companion.reconquista.forecast import el_cid_goes, forecast_move
    from companion.reconquista.setup import initial_state

    board = default_board()
    state = initial_state(board)
    place(state, "Barcelona", [("christian", A, 2)], city="christian")
    state.el_cid_area, state.el_cid_side = "Barcelona", "christian"
    place(state, "Tarragona", [("muslim", A, 2)])
    place(state, "Zaragoza", [("muslim", Kind.GARRISON, 1)], city="muslim", fortress=True)
    two = [A, A]
    assert el_cid_goes(state, "Barcelona", two) is True  # every unit goes: he goes with them
    assert el_cid_goes(state, "Barcelona", [A]) is None  # one stays: the player says whom he leads
    assert el_cid_goes(state, "Tarragona", two) is False
    with_him = forecast_move(board, state, "Tarragona", two, with_el_cid=True)
    without = forecast_move(board, state, "Tarragona", two)
    assert with_him.chances == odds.battle_odds(two, [A, A], city=False, mountain=False, el_cid="attacker")
    assert without.chances == odds.battle_odds(two, [A, A], city=False, mountain=False, el_cid=None)
    assert with_him.chances["attacker_wins"] > without.chances["attacker_wins"]
    siege_with = forecast_move(board, state, "Zaragoza", two, with_el_cid=True)
    siege_without = forecast_move(board, state, "Zaragoza", two)
    assert siege_with.kind == siege_without.kind == "siege"
    garrison = [Kind.GARRISON]
    assert siege_with.chances == odds.siege_odds(two, garrison, city=True, fortress=True, el_cid="besieger")
    assert siege_with.chances["besieger"] > siege_without.chances["besieger"]
