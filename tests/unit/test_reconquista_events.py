"""Reconquista Phase 2, Events (companion/reconquista/events.py), driven with scripted dice and
choices: all eleven events with their own rolls, the effects they leave for later phases in
``state.effects``, the region in revolt ("roll again to have the event in another Region"),
and the topic and rule of every prompt. What every Phase 2 of a whole game must keep is
checked in tests/games/test_reconquista_whole_games.py.

``march.move_force`` (the French and the Rebel armies move by the Muslim reaction rules)
belongs to the Phase 5 module; here a stand-in that records its arguments is given instead.
Every rule test quotes the rulebook section it holds the code to.

Each test holds both what is said and what it is: the wording, and the topic, data, rule and
reason of the prompts, whose values come from the state (the region in revolt, the start
refused, the cities to choose from, the units removed), so a wrong one fails.
"""

from __future__ import annotations

import dataclasses
import random
import re
from typing import Any

import pytest
from procedure_helpers import drive
from reconquista_helpers import chooses, place, rolls, topics

from companion.prompts import Answer, Choose, Prompt, Roll, Tell
from companion.reconquista import events
from companion.reconquista.battle import Proc
from companion.reconquista.board import Board
from companion.reconquista.game import check_invariants
from companion.reconquista.setup import initial_state
from companion.reconquista.state import Effects, GameState
from companion.reconquista.units import Kind

A, G, MO, R = Kind.ARMY, Kind.GARRISON, Kind.ORDER, Kind.REBEL
MC, CR, F, RA = Kind.MERCENARY, Kind.CRUSADER, Kind.FRENCH, Kind.REBEL_ARMY
TOPIC = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+){2,}$")


#: The 2D6 that gives each event (any pair with the total will do).
DICE = {
    "french_intervention": [1, 1],
    "bribery": [1, 2],
    "mercenaries": [2, 2],
    "rebel_armies": [2, 3],
    "military_order": [3, 3],
    "famine": [3, 4],
    "el_cid": [4, 4],
    "taxes": [4, 5],
    "jihad": [5, 5],
    "crusade": [5, 6],
    "expulsion": [6, 6],
}


# -- helpers ----------------------------------------------------------------------------------


def tells(prompts: list[Prompt]) -> list[str]:
    """The phase's own Tells (the stub's are left out)."""
    return [p.text for p in prompts if isinstance(p, Tell) and not p.text.startswith("(stub)")]


def only(prompts: list[Prompt], topic: str) -> list[Prompt]:
    return [p for p in prompts if p.topic == topic]


def invariants(board: Board, state: GameState) -> None:
    check_invariants(board, state)


Call = tuple[Board, GameState, str, str, int]


class Moves(list[Call]):
    """A stand-in for march.move_force, given to events.phase as ``move``: it records
    (board, state, side, area, the side's units there) and says so in one Tell."""

    def move(self, board: Board, state: GameState, side: str, area: str) -> Proc:
        self.append((board, state, side, area, state.areas[area].count(side)))
        yield Tell(f"(stub) the {side} force in {area} moves")


@pytest.fixture
def moves() -> Moves:
    return Moves()


def stub_move(board: Board, state: GameState, side: str, area: str) -> Proc:
    """The French and Rebel marches are march.py's: here the force just stays (and says nothing)."""
    yield from ()


def with_tables(board: Board, **changes: Any) -> Board:
    return dataclasses.replace(board, tables=board.tables.model_copy(update=changes))


# -- the table -----------------------------------------------------------------------------


@pytest.mark.parametrize("event", list(DICE))
def test_the_2d6_total_picks_the_event_and_one_tell_names_it(
    board: Board, state: GameState, moves: Moves, event: str
) -> None:
    """Phase 2: Events: "Roll two dice (2D6), add them together, and consult the following
    table". Each event is recorded in state.effects.event and told in one Tell that names
    it (the follow-up dice and choices answered with the first option / a 3)."""
    proc = events.phase(board, state, moves.move)
    prompts: list[Prompt] = []
    prompt = next(proc)
    try:
        while True:
            prompts.append(prompt)
            if isinstance(prompt, Roll):
                answer: Answer = DICE[event] if len(prompts) == 1 else [3] * prompt.n
            elif isinstance(prompt, Choose):
                answer = prompt.options[0]
            else:
                answer = None
            prompt = proc.send(answer)
    except StopIteration:
        pass
    assert rolls(prompts)[0] == Roll(
        2, 6, "Events: 2D6, the total picks the event", topic="reconquista.events.roll"
    )
    assert state.effects.event == event
    said = tells(prompts)
    assert len(said) == 1 and said[0].startswith(events.EVENT_NAMES[event])


# -- 2 French Intervention -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("face", "area"),
    [(1, "Oviedo"), (2, "Oviedo"), (3, "Pamplona"), (4, "Pamplona"), (5, "Barcelona"), (6, "Barcelona")],
)
def test_french_intervention_places_and_moves_the_french(
    board: Board, state: GameState, moves: Moves, face: int, area: str
) -> None:
    """Phase 2, 2 French Intervention: "Roll a D6. This is the number of French Armies that
    appear [...] Roll another D6 to determine their starting location: 1-2 is Oviedo, 3-4 is
    Pamplona, 5-6 is Barcelona. Before continuing to Phase 3 (Income), move this French
    force according to the Muslim reaction rules (Phase 5)"."""
    prompts, _ = drive(events.phase(board, state, moves.move), [[1, 1], [4], [face]])
    r = rolls(prompts)
    assert r[1].why == "French Intervention: how many French armies appear (D6)"
    assert (
        r[2].why
        == "French Intervention: the French starting area (D6: 1-2 Oviedo, 3-4 Pamplona, 5-6 Barcelona)"
    )
    assert state.areas[area].count("french", F) == 4
    assert moves == [(board, state, "french", area, 4)]
    assert tells(prompts) == [
        (
            f"French Intervention: place 4 French armies (Neutral Army counters) in {area}. They are "
            "hostile to everyone (Christians, Muslims and Rebels), move now by the Muslim reaction "
            "rules, and are removed at the end of the turn."
        )
    ]
    assert "(stub) the french force" in prompts[-1].text  # the move comes after the Tell
    assert state.effects == Effects(event="french_intervention")


def test_french_start_in_the_region_in_revolt_is_rolled_again(
    board: Board, state: GameState, moves: Moves
) -> None:
    """Phase 1, 6 Regional Revolt: "If it is affected by a random event, roll again to have
    the event in another Region." Asturias in revolt: a 2 (Oviedo) is rolled again; a 5
    gives Barcelona (Pamplona or Barcelona: the die still picks between two). Oviedo is no
    candidate of either start die; the second says it is asked again and what it refused, and
    the French are told placed with the region in revolt named."""
    state.revolt = 1
    prompts, _ = drive(events.phase(board, state, moves.move), [[1, 1], [1], [2], [5]])
    r = rolls(prompts)
    assert "rolled again (a 2 gave Oviedo, in Asturias, which is in revolt)" in r[3].why
    assert state.areas["Barcelona"].count("french", F) == 1
    assert not state.areas["Oviedo"].count("french")
    assert [c[3] for c in moves] == ["Barcelona"]
    assert prompts[1].topic == "reconquista.events.french_count"
    start = only(prompts, "reconquista.events.french_start")
    assert [p.data["candidates"] for p in start] == [["Pamplona", "Barcelona"]] * 2
    assert start[0].data["revolt"] == "Asturias" and start[0].data["faces"]["1"] == "Oviedo"
    assert start[1].data["again"] is True and start[1].data["rejected"] == "Oviedo"
    (placed,) = only(prompts, "reconquista.events.french")
    assert placed.data == {"appear": True, "armies": 1, "area": "Barcelona", "revolt": "Asturias"}
    assert placed.rule == "Phase 2: Events — 2 French Intervention"


def test_french_with_one_start_outside_the_revolt_roll_no_start_die(
    board: Board, state: GameState, moves: Moves
) -> None:
    """Phase 2, 2 French Intervention: "Roll another D6 to determine their starting location:
    1-2 is Oviedo, 3-4 is Pamplona, 5-6 is Barcelona", and a start in the region in revolt
    is rolled again: with Aragón in revolt every roll would end on Oviedo, so none is asked
    (docs/rules-notes.md, "Random selections"); the Tell names it and says why."""
    state.revolt = 2
    prompts, _ = drive(events.phase(board, state, moves.move), [[1, 1], [1]])
    assert [p.why for p in rolls(prompts)][-1] == "French Intervention: how many French armies appear (D6)"
    assert tells(prompts)[0] == (
        "French Intervention: only Oviedo qualifies (a starting area outside Aragón, which is in "
        "revolt): no roll needed."
    )
    assert state.areas["Oviedo"].count("french", F) == 1
    assert [c[3] for c in moves] == ["Oviedo"]


def test_french_with_every_start_in_revolt_do_not_appear(
    board: Board, state: GameState, moves: Moves
) -> None:
    """Phase 1, Regional Revolt: "roll again to have the event in another Region": with a
    start table all in the region in revolt no roll can, so no die is asked and the French
    do not appear: nothing to roll (not even how many), and the Tell says why."""
    b = with_tables(board, french_start=dict.fromkeys(range(1, 7), "Pamplona"))
    state.revolt = 2
    prompts, _ = drive(events.phase(b, state, moves.move), [[1, 1]])
    assert len(rolls(prompts)) == 1 and moves == []
    assert tells(prompts) == [
        "French Intervention: every starting area of the French is in Aragón, in revolt: the French do not appear."
    ]
    assert topics(prompts) == ["reconquista.events.roll", "reconquista.events.french"]
    told = prompts[1]
    assert told.data == {"appear": False, "armies": 0, "area": None, "revolt": "Aragón"}
    assert told.reason


# -- 3 Bribery, 4 Mercenaries ----------------------------------------------------------------------


def test_bribery_is_left_for_phase_3(board: Board, state: GameState) -> None:
    """Phase 2, 3 Bribery: "In Phase 3 (Income) you may use 2 income points to replace all
    Rebels in a single Area with a Christian Garrison." Nothing is rolled; the board does
    not change."""
    before = state.snapshot()["areas"]
    prompts, _ = drive(events.phase(board, state), [[2, 1]])
    assert state.effects == Effects(event="bribery", bribery=True)
    assert state.snapshot()["areas"] == before
    assert tells(prompts) == [
        "Bribery: in Phase 3 you may pay 2 income points to replace all the Rebels in one area with a Christian garrison."
    ]


@pytest.mark.parametrize("n", [1, 5, 6])
def test_mercenaries_roll_how_many_are_available(board: Board, state: GameState, n: int) -> None:
    """Phase 2, 4 Mercenaries: "Roll a D6. This is the number of mercenaries available [...]
    In Phase 3 (Income), you may hire any number of them at a cost of 1 income point each
    [...] Any Mercenary units that are not hired are added to the Muslim forces that rise in
    Phase 5". The count die and the Tell carry their topics, the Tell the count and cost."""
    prompts, _ = drive(events.phase(board, state), [[1, 3], [n]])
    assert rolls(prompts)[1].why == "Mercenaries: how many mercenaries are available (D6)"
    assert topics(prompts)[1:] == ["reconquista.events.mercenaries_count", "reconquista.events.mercenaries"]
    assert prompts[2].data == {"mercenaries": n, "cost": 1}
    assert prompts[2].rule == "Phase 2: Events — 4 Mercenaries"
    assert state.effects == Effects(event="mercenaries", mercenaries=n)
    said = tells(prompts)[0]
    assert said.startswith(f"Mercenaries: {n} mercenar")
    assert "join the Muslim reaction in Phase 5" in said
    assert not any(a.count(s, MC) for a in state.areas.values() for s in a.sides())


# -- 5 Rebels ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "area"),
    [
        ([1, 1], "Pamplona"),
        ([2, 2], "Oviedo"),
        ([3, 3], "Santiago"),
        ([1, 4], "Galicia"),
        ([2, 5], "Porto"),
        ([3, 6], "Lisboa"),
        ([4, 1], "Barcelona"),
        ([5, 2], "Tarragona"),
        ([6, 3], "Valencia"),
        ([4, 4], "Murcia"),
        ([5, 5], "Algeciras"),
        ([6, 6], "Sevilla"),
    ],
)
def test_rebel_armies_start_by_the_two_dice_table(
    board: Board, state: GameState, moves: Moves, dice: list[int], area: str
) -> None:
    """Phase 2, 5 Rebels: "Roll a D6. This is the number of Rebel armies that appear [...]
    Roll two dice (2D6) to determine their starting location": the table's columns are
    "First roll 1, 2 or 3" and "First roll 4, 5 or 6", its rows the "2nd roll". The start
    die carries the table by columns (5, 2 is Tarragona), and the Tell the armies placed."""
    prompts, _ = drive(events.phase(board, state, moves.move), [[1, 4], [2], dice])
    r = rolls(prompts)
    assert r[1].why == "Rebels: how many Rebel armies appear (D6)"
    assert r[2].n == 2 and "the first die picks the column" in r[2].why
    assert prompts[1].topic == "reconquista.events.rebels_count"
    (start,) = only(prompts, "reconquista.events.rebels_start")
    column = "4-6" if dice[0] >= 4 else "1-3"
    assert start.data["columns"][column][str(dice[1])] == area and start.data["revolt"] is None
    (placed,) = only(prompts, "reconquista.events.rebels")
    assert placed.data == {"appear": True, "armies": 2, "area": area, "revolt": None}
    assert placed.rule == "Phase 2: Events — 5 Rebels"
    assert state.areas[area].count("rebel_army", RA) == 2
    assert moves == [(board, state, "rebel_army", area, 2)]
    assert tells(prompts) == [
        (
            f"Rebels: place 2 Rebel armies (Neutral Army counters) in {area}. They are hostile to "
            "everyone (Christians, Muslims and Rebels), move now by the Muslim reaction rules, and "
            "are removed at the end of the turn."
        )
    ]
    assert state.effects == Effects(event="rebel_armies")


def test_rebel_army_start_in_the_region_in_revolt_is_rolled_again(
    board: Board, state: GameState, moves: Moves
) -> None:
    """Phase 1, Regional Revolt: "If it is affected by a random event, roll again to have
    the event in another Region." Portugal in revolt: 2 and 5 (Porto) are rolled again."""
    state.revolt = 4
    prompts, _ = drive(events.phase(board, state, moves.move), [[1, 4], [3], [2, 5], [3, 4]])
    assert "rolled again (2 and 5 gave Porto, in Portugal, which is in revolt)" in rolls(prompts)[3].why
    assert state.areas["Galicia"].count("rebel_army", RA) == 3
    assert not state.areas["Porto"].count("rebel_army")
    assert [c[3] for c in moves] == ["Galicia"]


def test_rebel_armies_with_one_start_outside_the_revolt_roll_no_start_dice(
    board: Board, state: GameState, moves: Moves
) -> None:
    """Phase 2, 5 Rebels: "Roll two dice (2D6) to determine their starting location", a start
    in the region in revolt rolled again: on a start table whose areas all lie in Portugal,
    in revolt, but one (Galicia, first roll 4-6 and second roll 6), every roll would end on
    Galicia, so the 2D6 is not asked (docs/rules-notes.md, "Random selections")."""
    high = dict.fromkeys(range(1, 7), "Lisboa") | {6: "Galicia"}
    start = {"low": dict.fromkeys(range(1, 7), "Porto"), "high": high}
    b = with_tables(board, rebel_army_start=board.tables.rebel_army_start.model_validate(start))
    state.revolt = 4
    prompts, _ = drive(events.phase(b, state, moves.move), [[1, 4], [3]])
    assert [r.n for r in rolls(prompts)] == [2, 1]  # the event and how many: no 2D6 for the start
    assert tells(prompts)[0] == (
        "Rebels: only Galicia qualifies (a starting area outside Portugal, which is in revolt): no roll needed."
    )
    assert state.areas["Galicia"].count("rebel_army", RA) == 3
    assert [c[3] for c in moves] == ["Galicia"]


def test_rebel_armies_with_every_start_in_revolt_do_not_appear(
    board: Board, state: GameState, moves: Moves
) -> None:
    """Phase 1, Regional Revolt: with every start in the region in revolt the event cannot
    be moved to another region: no die is asked, the Rebel armies do not appear."""
    start = {"low": dict.fromkeys(range(1, 7), "Porto"), "high": dict.fromkeys(range(1, 7), "Lisboa")}
    b = with_tables(board, rebel_army_start=board.tables.rebel_army_start.model_validate(start))
    state.revolt = 4
    prompts, _ = drive(events.phase(b, state, moves.move), [[1, 4]])
    assert len(rolls(prompts)) == 1 and moves == []
    assert "they do not appear" in tells(prompts)[0]


# -- 6 Military Order -------------------------------------------------------------------------------


def test_military_order_goes_to_a_city_the_player_chooses(board: Board, state: GameState) -> None:
    """Phase 2, 6 Military Order (Quick Reference: "Place 1 Military Order in a city."): the
    player chooses among the cities under Christian control (Important Definitions: a
    Muslim city holding Christian forces is one; a Christian city held by Muslims is not).
    The question carries the cities asked among; the Tell, chosen, gives no reason."""
    place(state, "Toledo", [("christian", G, 1)], city="muslim", fortress=True)
    prompts, _ = drive(events.phase(board, state), [[2, 4], "Toledo"])
    (choice,) = chooses(prompts)
    assert choice.options == ("Oviedo", "Toledo")  # León and Barcelona hold Muslim garrisons
    assert state.areas["Toledo"].count("christian", MO) == 1
    assert tells(prompts) == ["Military Order: place 1 Military Order in the city of Toledo."]
    assert state.effects == Effects(event="military_order")
    asked, told = prompts[1:]
    assert isinstance(asked, Choose) and asked.topic == "reconquista.events.military_order_city"
    assert asked.data == {"cities": ["Oviedo", "Toledo"], "revolt": None}
    assert told.data["area"] == "Toledo" and told.reason == ""


def test_military_order_with_one_city_asks_nothing(board: Board, state: GameState) -> None:
    """Phase 2, 6 Military Order: with a single city under Christian control there is
    nothing to choose: it goes there. At setup Oviedo is the only Christian-controlled city:
    no question, and the Tell gives the reason."""
    prompts, _ = drive(events.phase(board, state), [[3, 3]])
    assert chooses(prompts) == []
    assert state.areas["Oviedo"].count("christian", MO) == 1
    (told,) = prompts[1:]
    assert told.topic == "reconquista.events.military_order"
    assert told.data == {"appear": True, "area": "Oviedo", "cities": ["Oviedo"], "revolt": None}
    assert "Oviedo" in told.reason
    assert told.rule == "Quick Reference Sheet — Phase 2 - Random event: 6 Military Order"


def test_military_order_is_never_placed_in_the_region_in_revolt(board: Board, state: GameState) -> None:
    """Phase 1, Regional Revolt: "No one can move into it or build", and "If it is affected
    by a random event, roll again to have the event in another Region": with Asturias in
    revolt, Oviedo is no choice; Barcelona, freed of its Muslim garrison, is the only one."""
    place(state, "Barcelona", city="christian")
    state.revolt = 1
    prompts, _ = drive(events.phase(board, state), [[3, 3]])
    assert chooses(prompts) == []
    assert state.areas["Barcelona"].count("christian", MO) == 1
    assert not state.areas["Oviedo"].count("christian", MO)


def test_military_order_with_no_christian_city_does_nothing(board: Board, state: GameState) -> None:
    """Phase 2, 6 Military Order: with no city under Christian control outside the region in
    revolt, nothing happens, and the player is told so."""
    state.revolt = 1
    before = state.snapshot()["areas"]
    prompts, _ = drive(events.phase(board, state), [[3, 3]])
    assert state.snapshot()["areas"] == before
    assert tells(prompts) == [
        "Military Order: no city is under Christian control outside the region in revolt, so no Military Order appears."
    ]


# -- 7 Famine ---------------------------------------------------------------------------------------


def test_famine_takes_one_unit_in_three_per_area(board: Board, state: GameState) -> None:
    """Phase 2, 7 Famine (Quick Reference: "Eliminate 1 unit out of every 3 per area."): the
    units of an area are counted together, and each loss falls on the side with more units
    left there, by its casualty order (docs/design.md, "Famine"). Córdoba (1 garrison, 2
    armies) loses its garrison; Toledo's 8 units lose 2, both the besieging Christians' (6
    against 2: the garrison, then the Order); 5 Rebels in Porto lose 1. The Tell lists the
    units removed, by area and side, the garrison first."""
    place(
        state,
        "Toledo",
        [("muslim", G, 1), ("muslim", A, 1), ("christian", A, 4), ("christian", MO, 1), ("christian", G, 1)],
        city="muslim",
        fortress=True,
    )
    state.areas["Toledo"].besieger = "christian"
    place(state, "Porto", [("rebel", R, 5)])
    prompts, _ = drive(events.phase(board, state), [[3, 4]])
    assert state.areas["Córdoba"].units == {"muslim": {A: 2}}
    t = state.areas["Toledo"]
    assert t.units == {"muslim": {G: 1, A: 1}, "christian": {A: 4}} and t.besieger == "christian"
    assert state.areas["Porto"].units == {"rebel": {R: 4}}
    assert tells(prompts) == [
        (
            "Famine: 1 unit in 3 is lost in every area: remove 1 Christian garrison and "
            "1 Military Order from Toledo; remove 1 Rebel from Porto; remove 1 Muslim garrison from Córdoba."
        )
    ]
    assert state.effects == Effects(event="famine")
    (told,) = prompts[1:]
    assert told.topic == "reconquista.events.famine"
    assert told.data == {
        "removed": [
            {"area": "Toledo", "side": "christian", "units": {"G": 1, "MO": 1}},
            {"area": "Porto", "side": "rebel", "units": {"R": 1}},
            {"area": "Córdoba", "side": "muslim", "units": {"G": 1}},
        ],
        "spared": None,
    }


def test_famine_counts_the_sides_of_an_area_together(board: Board, state: GameState) -> None:
    """Phase 2, 7 Famine: "Eliminate 1 unit out of every 3 per area." Per area, not per side:
    Salamanca's 3 units (a Muslim garrison besieged by 2 Christian armies) lose one, the
    Christians' (the more numerous); Lisboa's 4 (a Muslim garrison and army, 2 Christian armies
    outside) lose one, the Muslim garrison: on equal numbers the side inside the walls, cut
    off, starves first. Counted side by side, neither area would have lost a unit."""
    sal = place(
        state, "Salamanca", [("muslim", G, 1), ("christian", A, 2)], city="muslim", besieger="christian"
    )
    lis = place(
        state,
        "Lisboa",
        [("muslim", G, 1), ("muslim", A, 1), ("christian", A, 2)],
        city="muslim",
        besieger="christian",
    )
    prompts, _ = drive(events.phase(board, state), [[3, 4]])
    assert sal.units == {"muslim": {G: 1}, "christian": {A: 1}} and sal.besieger == "christian"
    assert lis.units == {"muslim": {A: 1}, "christian": {A: 2}} and lis.besieger == "christian"
    (told,) = prompts[1:]
    assert {"area": "Salamanca", "side": "christian", "units": {"A": 1}} in told.data["removed"]
    assert {"area": "Lisboa", "side": "muslim", "units": {"G": 1}} in told.data["removed"]


def test_famine_spares_the_region_in_revolt(board: Board, state: GameState) -> None:
    """Phase 1, Regional Revolt: "This entire region is excluded from the game for this entire
    turn [...] If it is affected by a random event, roll again to have the event in another
    Region": Al-Ándalus in revolt, Córdoba keeps its 3 units; nobody else has 3."""
    state.revolt = 5
    prompts, _ = drive(events.phase(board, state), [[4, 3]])
    assert state.areas["Córdoba"].units == {"muslim": {G: 1, A: 2}}
    assert tells(prompts) == [
        "Famine: no area holds 3 units (Al-Ándalus, in revolt, is spared), so nobody starves."
    ]


# -- 8 El Cid -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("face", [1, 2, 3])
def test_el_cid_for_the_christians_joins_the_force_the_player_chooses(
    board: Board, state: GameState, face: int
) -> None:
    """Phase 2, 8 El Cid (Quick Reference: "D6: 1-3 Christian, 4-6 Muslim. Attacks first. +2
    in siege."; docs/design.md: he joins a force of his side, the player chooses for the
    Christians). At setup the Christians stand in Pamplona and Oviedo."""
    prompts, _ = drive(events.phase(board, state), [[4, 4], [face], "Pamplona"])
    assert rolls(prompts)[1].why == "El Cid: which side he leads (D6: 1-3 Christian, 4-6 Muslim)"
    assert chooses(prompts)[0].options == ("Oviedo", "Pamplona")  # lowest region first
    assert (state.el_cid_area, state.el_cid_side) == ("Pamplona", "christian")
    assert tells(prompts)[0].startswith(
        f"El Cid (a {face}: he leads the Christians): place El Cid with the Christian force in Pamplona"
    )


@pytest.mark.parametrize("face", [4, 5, 6])
def test_el_cid_for_the_muslims_joins_the_most_muslim_armies(
    board: Board, state: GameState, face: int
) -> None:
    """Phase 2, 8 El Cid; docs/design.md: "for the Muslims, the area with the most Muslim armies":
    Córdoba's 2 armies at setup. No choice is asked. The side die carries the faces of each
    side, the Tell the face, the armies and the reason."""
    prompts, _ = drive(events.phase(board, state), [[4, 4], [face]])
    assert chooses(prompts) == []
    assert (state.el_cid_area, state.el_cid_side) == ("Córdoba", "muslim")
    assert "the area with the most Muslim armies (2)" in tells(prompts)[0]
    assert prompts[1].topic == "reconquista.events.el_cid_side"
    assert prompts[1].data == {"christian": [1, 2, 3], "muslim": [4, 5, 6]}
    told = prompts[2]
    assert told.topic == "reconquista.events.el_cid"
    assert told.data == {
        "side": "muslim",
        "face": face,
        "revolt": None,
        "armies": 2,
        "appear": True,
        "area": "Córdoba",
    }
    assert told.reason == "Córdoba has the most muslim armies (2)"


def test_el_cid_muslim_ties_go_to_the_lowest_region_and_area(board: Board, state: GameState) -> None:
    """docs/design.md, El Cid: "the area with the most Muslim armies, lowest region/area on ties":
    with Córdoba down to one army, Zaragoza (Aragón, region 2) beats Toledo (3) and
    Córdoba (5); garrisons do not count."""
    state.areas["Córdoba"].remove("muslim", A)
    place(state, "Santiago", [("muslim", G, 3)])
    drive(events.phase(board, state), [[4, 4], [6]])
    assert state.el_cid_area == "Zaragoza"


def test_el_cid_is_never_placed_in_the_region_in_revolt(board: Board, state: GameState) -> None:
    """Phase 1, Regional Revolt: "If it is affected by a random event, roll again to have the
    event in another Region": with Al-Ándalus in revolt the Muslim El Cid goes to Zaragoza,
    and with Aragón in revolt the Christian one needs no choice (Oviedo only)."""
    state.revolt = 5
    drive(events.phase(board, state), [[4, 4], [4]])
    assert state.el_cid_area == "Zaragoza"
    other = initial_state(board)
    other.revolt = 2
    prompts, _ = drive(events.phase(board, other), [[4, 4], [1]])
    assert chooses(prompts) == [] and other.el_cid_area == "Oviedo"


@pytest.mark.parametrize(("face", "side"), [(2, "Christian"), (5, "Muslim")])
def test_el_cid_with_no_force_to_join_does_not_appear(
    board: Board, state: GameState, face: int, side: str
) -> None:
    """docs/design.md, El Cid "joins a force of its side": with no Christian force (or no Muslim
    army) on the map he does not appear."""
    for name, a in state.areas.items():
        place(state, name, [("muslim", G, 1)] if side == "Muslim" else [], city=a.city)
    prompts, _ = drive(events.phase(board, state), [[4, 4], [face]])
    assert state.el_cid_area is None and state.el_cid_side is None
    assert tells(prompts)[0].startswith(f"El Cid would lead the {side}s, but no {side}")
    assert tells(prompts)[0].endswith("he does not appear.")


# -- 9 Taxes, 10 Jihad, 11 Crusade, 12 Expulsion ------------------------------------------------------


def test_taxes(board: Board, state: GameState) -> None:
    """Phase 2, 9 Taxes: "2 additional income. This turn only." Left for Phase 3. The events
    roll carries its topic and rule, the Tell the income it adds."""
    prompts, _ = drive(events.phase(board, state), [[3, 6]])
    assert state.effects == Effects(event="taxes", taxes=True)
    assert tells(prompts) == ["Taxes: +2 income in Phase 3, this turn only."]
    assert prompts[0] == Roll(2, 6, "Events: 2D6, the total picks the event", topic="reconquista.events.roll")
    assert prompts[0].rule.startswith("Phase 2: Events")
    assert prompts[1].topic == "reconquista.events.taxes" and prompts[1].data == {"income": 2}


def test_jihad(board: Board, state: GameState) -> None:
    """Phase 2, 10 Jihad: "During the Muslim reaction, roll twice for forces in the region."
    Left for Phase 5."""
    prompts, _ = drive(events.phase(board, state), [[4, 6]])
    assert state.effects == Effects(event="jihad", jihad=True)
    assert "during the Muslim reaction (Phase 5), roll twice" in tells(prompts)[0]


@pytest.mark.parametrize("n", [1, 4])
def test_crusade_rolls_the_crusaders_for_phase_3(board: Board, state: GameState, n: int) -> None:
    """Phase 2, 11 Crusade: "D6 Crusaders available." docs/design.md: free, placed by the player
    in Phase 3 as if built. Nothing is placed now."""
    prompts, _ = drive(events.phase(board, state), [[6, 5], [n]])
    assert rolls(prompts)[1].why == "Crusade: how many crusader armies come (D6)"
    assert state.effects == Effects(event="crusade", crusaders=n)
    assert tells(prompts)[0].startswith(f"Crusade: {n} crusader")
    assert not any(a.count("christian", CR) for a in state.areas.values())


def test_expulsion(board: Board, state: GameState) -> None:
    """Phase 2, 12 Expulsion of Jews / Moriscos: "Reduce income by 2. This turn only." Left
    for Phase 3."""
    prompts, _ = drive(events.phase(board, state), [[6, 6]])
    assert state.effects == Effects(event="expulsion", expulsion=True)
    assert tells(prompts) == [
        "Expulsion of Jews / Moriscos: income is reduced by 2 in Phase 3 (never below 0), this turn only."
    ]


def test_without_a_stand_in_the_french_move_by_the_reaction_rules(board: Board, state: GameState) -> None:
    """Phase 2, 2 French Intervention: "move this French force according to the Muslim reaction
    rules (Phase 5)". The tests above give events.phase a stand-in; given none, it hands the
    French to march.move_force, whose march is told on the board."""
    rng = random.Random(5)
    script = iter([[1, 1], [2], [1]])  # the event, 2 French armies, their start in Oviedo
    prompts: list[Prompt] = []
    proc = events.phase(board, state)
    try:
        prompt = next(proc)
        while True:
            prompts.append(prompt)
            answer: Answer = None
            if isinstance(prompt, Roll):
                answer = next(script, None) or [rng.randint(1, prompt.sides) for _ in range(prompt.n)]
            elif isinstance(prompt, Choose):
                answer = prompt.options[0]
            prompt = proc.send(answer)
    except StopIteration:
        pass
    invariants(board, state)
    assert any(
        t.startswith("The French force marches from Oviedo with 2 French armies") for t in tells(prompts)
    ), tells(prompts)


# -- topics and rules of every prompt ------------------------------------------------------------


def test_every_prompt_of_phase_2_has_its_topic_and_rule(board: Board) -> None:
    """Random positions and answers: no prompt of the phase goes without topic or rule."""
    rng = random.Random(11)
    seen: set[str] = set()
    for _ in range(400):
        state = initial_state(board)
        state.revolt = rng.choice([None, 1, 2, 3, 4, 5])
        proc = events.phase(board, state, stub_move)
        try:
            prompt = next(proc)
            while True:
                assert TOPIC.match(prompt.topic) and prompt.topic.startswith("reconquista.events.")
                assert prompt.rule
                seen.add(prompt.topic)
                if isinstance(prompt, Roll):
                    answer: object = [rng.randint(1, 6) for _ in range(prompt.n)]
                elif isinstance(prompt, Choose):
                    answer = rng.choice(prompt.options)
                else:
                    answer = None
                prompt = proc.send(answer)
        except StopIteration:
            pass
    assert {"reconquista.events.roll", "reconquista.events.french", "reconquista.events.el_cid"} <= seen
