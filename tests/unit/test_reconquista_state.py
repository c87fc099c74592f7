"""Reconquista state: AreaState's unit bookkeeping (add, remove, count, force, set_force,
the besieger), and snapshots that are JSON and equal for equal states."""

from __future__ import annotations

import dataclasses
import json
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.reconquista.board import default_board
from companion.reconquista.setup import initial_state
from companion.reconquista.state import SIDE_KINDS, SIDES, AreaState, Effects, GameState, unit_name
from companion.reconquista.units import Kind, noun_for, plural

A, G, MO, R = Kind.ARMY, Kind.GARRISON, Kind.ORDER, Kind.REBEL
MC, CR, F, RA = Kind.MERCENARY, Kind.CRUSADER, Kind.FRENCH, Kind.REBEL_ARMY

FIELDABLE: list[tuple[str, Kind]] = [(s, k) for s in SIDES for k in sorted(SIDE_KINDS[s])]
UNFIELDABLE: list[tuple[str, Kind]] = [(s, k) for s in SIDES for k in Kind if k not in SIDE_KINDS[s]]


def test_side_kinds_follow_the_counters() -> None:
    """The Counters: Military Orders "are always Christian"; Rebels are "hostile to all sides";
    Events 2 and 5 use the Neutral Army counters for French and Rebel armies."""
    assert MO in SIDE_KINDS["christian"] and MO not in SIDE_KINDS["muslim"]
    assert SIDE_KINDS["rebel"] == {R}
    assert SIDE_KINDS["french"] == {F}
    assert SIDE_KINDS["rebel_army"] == {RA}
    assert CR not in SIDE_KINDS["muslim"]
    assert MC in SIDE_KINDS["christian"] and MC in SIDE_KINDS["muslim"]


def test_add_count_total_sides() -> None:
    a = AreaState()
    a.add("muslim", A, 2)
    a.add("christian", G)
    a.add("muslim", G)
    a.add("muslim", A)
    assert a.count("muslim", A) == 3
    assert a.count("muslim", G) == 1
    assert a.count("muslim") == 4
    assert a.count("christian") == 1
    assert a.count("christian", A) == 0
    assert a.count("rebel") == 0
    assert a.total() == 5
    assert a.sides() == ["christian", "muslim"]  # SIDES order, not insertion order


def test_add_zero_leaves_no_entry() -> None:
    a = AreaState()
    a.add("christian", A, 0)
    assert a.units == {}
    assert a.sides() == []


@pytest.mark.parametrize(("side", "kind"), UNFIELDABLE)
def test_add_refuses_a_kind_the_side_cannot_field(side: str, kind: Kind) -> None:
    a = AreaState()
    with pytest.raises(ValueError, match="cannot field a"):
        a.add(side, kind)
    assert a.units == {}


def test_add_refuses_negative() -> None:
    a = AreaState()
    a.add("muslim", A, 2)
    with pytest.raises(ValueError, match="negative"):
        a.add("muslim", A, -1)
    assert a.count("muslim", A) == 2


def test_remove() -> None:
    a = AreaState()
    a.add("muslim", A, 3)
    a.add("muslim", G)
    a.remove("muslim", A, 2)
    assert a.units == {"muslim": {A: 1, G: 1}}
    a.remove("muslim", A)
    assert a.units == {"muslim": {G: 1}}
    a.remove("muslim", G)
    assert a.units == {}
    a.remove("christian", A, 0)
    assert a.units == {}


@pytest.mark.parametrize(("have", "take"), [(0, 1), (2, 3), (1, 5)])
def test_remove_refuses_more_than_present(have: int, take: int) -> None:
    a = AreaState()
    a.add("christian", A, have)
    a.add("christian", G)
    before = a.snapshot()
    with pytest.raises(ValueError, match=f"only {have} army"):
        a.remove("christian", A, take)
    assert a.snapshot() == before


@pytest.mark.parametrize("present", [True, False])
def test_remove_refuses_negative(present: bool) -> None:
    """Removing -1 units must be refused like adding -1 is, and change nothing: it must not add
    a unit (here a Rebel army, a kind Rebels cannot field) nor fail with a KeyError."""
    a = AreaState()
    if present:
        a.add("rebel", R)
    before = a.snapshot()
    with pytest.raises(ValueError):
        a.remove("rebel", A, -1)
    assert a.snapshot() == before


def test_besieger_cleared_when_its_units_are_gone() -> None:
    a = AreaState(city="muslim")
    a.add("muslim", G)
    a.add("christian", A, 2)
    a.add("christian", G)
    a.besieger = "christian"
    a.remove("christian", A, 2)
    assert a.besieger == "christian"  # a garrison still besieges
    a.remove("muslim", G)
    assert a.besieger == "christian"  # another side's losses do not lift the siege
    a.remove("christian", G)
    assert a.besieger is None
    assert a.units == {}


def test_force_is_a_fixed_order_list() -> None:
    a = AreaState()
    a.add("christian", G)
    a.add("christian", A, 2)
    a.add("christian", MO)
    a.add("christian", MC)
    assert a.force("christian") == [A, A, G, MO, MC]  # Kind order
    assert a.force("muslim") == []
    b = AreaState()
    b.add("christian", MC)
    b.add("christian", MO)
    b.add("christian", A, 2)
    b.add("christian", G)
    assert b.force("christian") == a.force("christian")


def test_set_force_replaces_the_side() -> None:
    a = AreaState(city="christian")
    a.add("christian", A, 3)
    a.add("christian", G)
    a.add("muslim", A, 2)
    a.besieger = "muslim"
    a.set_force("christian", [A, G, A])
    assert a.units["christian"] == {A: 2, G: 1}
    assert a.count("muslim", A) == 2
    assert a.besieger == "muslim"
    a.set_force("muslim", [A])
    assert a.besieger == "muslim"
    a.set_force("muslim", [])
    assert "muslim" not in a.units
    assert a.besieger is None
    a.set_force("christian", [])
    assert a.units == {}


def test_set_force_roundtrips_force() -> None:
    a = AreaState()
    for kind, n in [(MC, 1), (A, 2), (MO, 1), (G, 3)]:
        a.add("christian", kind, n)
    before = a.snapshot()
    a.set_force("christian", a.force("christian"))
    assert a.snapshot() == before


def test_set_force_refuses_a_kind_the_side_cannot_field_and_changes_nothing() -> None:
    """A refused set_force must leave the area as it was: the side keeps its units and the
    besieger still names a side that is present."""
    a = AreaState(city="muslim")
    a.add("muslim", G)
    a.add("rebel", R, 2)
    a.besieger = "rebel"
    before = a.snapshot()
    with pytest.raises(ValueError):
        a.set_force("rebel", [R, A])
    assert a.snapshot() == before


def test_area_snapshot_is_json() -> None:
    a = AreaState(city="muslim", fortress=True)
    a.add("muslim", G)
    a.add("christian", A, 2)
    a.add("christian", MO)
    a.besieger = "christian"
    snap = a.snapshot()
    assert json.loads(json.dumps(snap)) == snap
    assert snap == {
        "city": "muslim",
        "fortress": True,
        "units": {"christian": {"A": 2, "MO": 1}, "muslim": {"G": 1}},
        "besieger": "christian",
    }


def test_game_snapshot_is_json_and_equal_for_equal_states() -> None:
    board = default_board()
    one = initial_state(board)
    two = initial_state(board)
    one.effects = Effects(event="mercenaries", mercenaries=3, taxes=True)
    two.effects = Effects(event="mercenaries", mercenaries=3, taxes=True)
    one.el_cid_area, one.el_cid_side = "Oviedo", "christian"
    two.el_cid_area, two.el_cid_side = "Oviedo", "christian"
    # the same units, added in a different order
    one.areas["Toledo"].add("christian", A, 2)
    one.areas["Toledo"].add("christian", G)
    two.areas["Toledo"].add("christian", G)
    two.areas["Toledo"].add("christian", A)
    two.areas["Toledo"].add("christian", A)
    assert one == two
    text = json.dumps(one.snapshot(), sort_keys=True)
    assert json.loads(text) == one.snapshot()
    assert json.dumps(one.snapshot()) == json.dumps(two.snapshot())
    assert one.snapshot()["el_cid"] == ["Oviedo", "christian"]
    assert one.snapshot()["effects"]["mercenaries"] == 3
    two.areas["Toledo"].remove("christian", A)
    assert one.snapshot() != two.snapshot()
    two.areas["Toledo"].add("christian", A)
    two.turn = 2
    assert one.snapshot() != two.snapshot()


def test_empty_game_snapshot() -> None:
    state = GameState(areas={"X": AreaState()})
    snap = state.snapshot()
    assert snap["el_cid"] is None
    assert snap["areas"] == {"X": {"city": None, "fortress": False, "units": {}, "besieger": None}}
    assert json.loads(json.dumps(snap)) == snap


@pytest.mark.parametrize(
    ("side", "kind", "n", "text"),
    [
        ("muslim", A, 2, "2 Muslim armies"),
        ("christian", G, 1, "1 Christian garrison"),
        ("rebel", R, 1, "1 Rebel"),
        ("french", F, 3, "3 French armies"),
        ("christian", MO, 2, "2 Military Orders"),
        ("muslim", MC, 2, "2 mercenaries (with the Muslims)"),
        ("christian", MC, 1, "1 mercenary"),
    ],
)
def test_unit_name(side: str, kind: Kind, n: int, text: str) -> None:
    assert unit_name(side, kind, n) == text


@pytest.mark.parametrize(
    ("kind", "many"),
    [
        (Kind.ARMY, "armies"),
        (Kind.GARRISON, "garrisons"),
        (Kind.ORDER, "Military Orders"),
        (Kind.REBEL, "Rebels"),
        (Kind.MERCENARY, "mercenaries"),
        (Kind.CRUSADER, "crusaders"),
        (Kind.FRENCH, "French armies"),
        (Kind.REBEL_ARMY, "Rebel armies"),
    ],
)
def test_every_kind_has_its_plural(kind: Kind, many: str) -> None:
    """Every kind's noun for one and for more (units.noun_for, which unit_name and every
    count of units in the texts go through): never "armys"."""
    assert noun_for(kind, 1) == kind.noun
    assert noun_for(kind, 2) == many
    assert plural(kind, 3) == f"3 {many}"


# -- property: add/remove never leaves an empty or negative entry ----------------

_op = st.tuples(
    st.sampled_from(["add", "remove"]),
    st.sampled_from(FIELDABLE),
    st.integers(min_value=0, max_value=4),
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(ops=st.lists(_op, max_size=40), besieger=st.sampled_from([None, *SIDES]))
def test_random_add_remove_keeps_units_positive(
    ops: list[tuple[str, tuple[str, Kind], int]], besieger: str | None
) -> None:
    """Any sequence of adds and removes keeps every entry of ``units`` positive, no empty side,
    counts equal to a plain tally, and a besieger only while it has units here."""
    a = AreaState(city="muslim")
    tally: Counter[tuple[str, Kind]] = Counter()
    for op, (side, kind), n in ops:
        if besieger is not None and besieger in a.units and a.besieger is None:
            a.besieger = besieger
        if op == "add":
            a.add(side, kind, n)
            tally[side, kind] += n
        elif n > tally[side, kind]:
            with pytest.raises(ValueError):
                a.remove(side, kind, n)
        else:
            a.remove(side, kind, n)
            tally[side, kind] -= n
        for s, by_kind in a.units.items():
            assert by_kind, f"empty entry for {s}"
            assert all(c > 0 for c in by_kind.values()), a.units
            assert all(k in SIDE_KINDS[s] for k in by_kind)
        for (s, k), c in tally.items():
            assert a.count(s, k) == c
        assert a.total() == sum(tally.values())
        assert a.besieger is None or a.besieger in a.units
        assert len(a.force(side)) == a.count(side)


def test_the_effects_snapshot_names_every_field() -> None:
    """Effects.snapshot holds every field: one left out would be missing from the log and
    from the resume checks."""
    effects = Effects(
        event="jihad", bribery=True, mercenaries=3, crusaders=2, taxes=True, expulsion=True, jihad=True
    )
    snap = effects.snapshot()
    assert snap == {f.name: getattr(effects, f.name) for f in dataclasses.fields(Effects)}
