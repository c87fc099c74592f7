"""What every phase of a whole Reconquista game must keep, checked as the games are played.

``PhaseChecks`` watches a game of ``companion.reconquista.simulate.play``: it sees each prompt
before it is answered and each phase as it ends, with the state the phase started from. Each
check quotes the rule it holds. They were properties of single phases run on random tables
(tests/unit/test_reconquista_*); here they hold every phase of whole games, bot and random
answers, after the invariants (``check=True``) have.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from reconquista_helpers import assert_offers_fit, menu_from_refusal

from companion.driver import Driver, Step
from companion.prompts import Choose, Roll, Tell
from companion.reconquista import events
from companion.reconquista.board import Board
from companion.reconquista.control import city_controller
from companion.reconquista.movement import DESTINATION_TOPIC, ORIGIN_TOPIC, REGION_TOPIC, destinations
from companion.reconquista.movement import DONE as MOVEMENT_DONE
from companion.reconquista.purchases import BOUGHT_TOPIC, PURCHASE_TOPIC
from companion.reconquista.purchases import DONE as PURCHASES_DONE
from companion.reconquista.state import SIDES, AreaState, GameState
from companion.reconquista.units import Kind

TOPIC = re.compile(r"[a-z0-9_]+(?:\.[a-z0-9_]+){2,}")

#: What the steps of Phase 5 are: the reaction and the march, the battles and sieges they start,
#: and what every phase's end does (game.phase_over): a siege of walls their besiegers now control
#: lifted, a fortress left alone removed.
REACTION_TOPICS = (
    "reconquista.reaction.",
    "reconquista.march.",
    "reconquista.battle.",
    "reconquista.sieges.",
    "reconquista.end.siege",
    "reconquista.end.fortress",
)


@dataclass
class Start:
    """The state a phase started from: what its checks compare the end with."""

    phase: str
    areas: dict[str, AreaState]
    revolt: int | None
    crusaders: int

    @classmethod
    def of(cls, state: GameState) -> Start:
        return cls(
            state.phase,
            {n: a.copy() for n, a in state.areas.items()},
            state.revolt,
            state.effects.crusaders,
        )


def total(areas: dict[str, AreaState], side: str, kind: Kind | None = None) -> int:
    return sum(a.count(side, kind) for a in areas.values())


def region_total(
    board: Board, areas: dict[str, AreaState], region: int, side: str, kind: Kind | None = None
) -> int:
    return sum(areas[n].count(side, kind) for n in board.regions[region].areas)


def controls_a_city(areas: dict[str, AreaState], side: str) -> bool:
    return any(city_controller(a) == side for a in areas.values())


@dataclass
class PhaseChecks:
    """The watch: ``prompt`` before each answer, ``phase_over`` at the end of each phase."""

    start: Start | None = None
    #: Phase 4: the region whose forces move this turn, once chosen.
    selected: int | None = None
    phases: dict[str, int] = field(default_factory=dict)  # how many of each phase were checked
    #: The region Phase 1 put in revolt this turn, for Phase 7 to take its marker off.
    revolt: str | None = None

    def prompt(self, board: Board, driver: Driver) -> None:
        state, p = driver.state, driver.pending
        assert p is not None
        if self.start is None or self.start.phase != state.phase:
            self.start, self.selected = Start.of(state), None
        last = driver.steps[-1] if driver.steps else None
        if (
            last is not None
            and last.prompt.topic == "reconquista.battle.destroyed"
            and last.prompt.data["captured"]
        ):
            # Battle: "If your moving force eliminates the entire enemy force, and there is a
            # city, this city is assumed captured [...] and the moving force can continue
            # moving": no siege is left there, whoever besieged it before.
            area = last.prompt.data["area"]
            assert state.areas[area].besieger is None, (
                f"game {driver.seed}: {area} captured and still besieged"
            )
        if last is not None and last.prompt.topic == REGION_TOPIC:
            # Phase 4: "Select one region": its forces are the ones that move.
            self.selected = next((n for n, r in board.regions.items() if r.name == last.answer), None)
        if state.phase == "income":
            self.purchase_prompt(board, state, p)
        elif state.phase == "movement":
            self.movement_prompt(board, state, p)

    def phase_over(self, board: Board, driver: Driver, turn: int, phase: str, first: int) -> None:
        start = self.start
        if start is None or start.phase != phase:
            return  # a phase that asked nothing has changed nothing (every board change is told)
        steps, state = driver.steps[first:], driver.state
        where = f"game {driver.seed}, turn {turn}, {phase}"
        for step in steps:
            if step.prompt.topic.startswith("reconquista.march."):
                march_step(board, step, where)
        if phase in ("events", "reaction"):
            no_siege_of_walls_held_at_the_start(start, state, where)
        check = {
            "rebellions": rebellions_over,
            "events": events_over,
            "income": purchases_over,
            "movement": movement_over,
            "reaction": reaction_over,
        }.get(phase)
        if check is not None:
            check(board, start, state, steps, where, self.selected)
            self.phases[phase] = self.phases.get(phase, 0) + 1
        if phase == "rebellions":
            self.revolt = board.regions[state.revolt].name if state.revolt is not None else None
        elif phase == "end":
            end_over(self.revolt, state, steps, where)
            self.revolt = None

    # -- Phase 3 and Phase 4: each question as it is asked -------------------------------------

    def purchase_prompt(self, board: Board, state: GameState, p: Any) -> None:
        """Phase 3: "Collect Income and Spend It". The menu offers exactly the purchases
        ``refusal`` allows, listed from scratch, whose facts are its options; "Done" is offered
        once no crusader is left to place (Crusade: "must be placed"); no dice are rolled."""
        assert not isinstance(p, Roll), "Phase 3 rolls no dice"
        if isinstance(p, Choose) and p.topic == PURCHASE_TOPIC:
            assert state.income >= 0
            offered = [o for o in p.options if o != PURCHASES_DONE]
            assert offered == menu_from_refusal(board, state)
            assert (PURCHASES_DONE in p.options) == (state.effects.crusaders == 0)
            assert_offers_fit(board, state, p)
        elif p.topic == BOUGHT_TOPIC:
            assert p.data["points_left"] == state.income

    def movement_prompt(self, board: Board, state: GameState, p: Any) -> None:
        """Phase 4: the forces of one region move ("Select one region"): the origins offered are
        that region's areas, and the destinations offered are exactly ``destinations``."""
        if p.topic == ORIGIN_TOPIC:
            assert self.selected is not None
            assert p.data["region"] == board.regions[self.selected].name
            assert set(p.options) - {MOVEMENT_DONE} <= set(board.regions[self.selected].areas)
        elif p.topic == DESTINATION_TOPIC:
            assert p.options == tuple(destinations(board, state, p.data["origin"]))


# -- each phase as it ends ------------------------------------------------------------------------


def rebellions_over(
    board: Board, start: Start, state: GameState, steps: list[Step], where: str, selected: int | None
) -> None:
    """Phase 1: each table result acts on "the affected region" alone, the revolt marker with
    it; a result that "would eliminate the last Christian-controlled or Muslim-controlled city"
    is rolled again; rebellions give the Christians and the Muslims no unit. The Double Result
    marker placed on a 6 is taken off once the two results are done, and not before."""
    topics = [s.prompt.topic for s in steps]
    doubled = any(
        s.prompt.topic == "reconquista.rebellions.strike" and s.prompt.data["double"] for s in steps
    )
    if doubled:
        results = [i for i, t in enumerate(topics) if t == "reconquista.rebellions.result"]
        off = topics.index("reconquista.rebellions.double_over")
        assert len(results) == 2 and off > results[-1], f"{where}: the Double Result marker"
    else:
        assert "reconquista.rebellions.double_over" not in topics, where
    for side in ("christian", "muslim"):
        if controls_a_city(start.areas, side):
            assert controls_a_city(state.areas, side), f"{where}: the last {side} city was taken"
        assert total(state.areas, side) <= total(start.areas, side), f"{where}: {side} units gained"
    changed = {
        board.areas[n].region for n, a in state.areas.items() if a.snapshot() != start.areas[n].snapshot()
    }
    if state.revolt is not None:
        changed.add(state.revolt)
    assert len(changed) <= 1, f"{where}: regions changed: {sorted(changed)}"


def events_over(
    board: Board, start: Start, state: GameState, steps: list[Step], where: str, selected: int | None
) -> None:
    """Phase 2: the 2D6 pick one event, told in one instruction (the French and Rebel armies
    also name where they start), recorded with no effect of another; the region in revolt is
    left as it was ("No event can affect a region in revolt"); El Cid and a Military Order go
    to a Christian city outside it."""
    event = state.effects.event
    assert event in events.EVENT_NAMES, where
    name = events.EVENT_NAMES[event]
    marches = event in ("french_intervention", "rebel_armies")
    own = [
        s.prompt
        for s in steps
        if isinstance(s.prompt, Tell) and s.prompt.topic.startswith("reconquista.events.")
    ]
    told = [p.text for p in own if not p.text.endswith("no roll needed.")]
    assert len(told) == 1 and told[0].startswith(name), (where, told)
    assert len(own) == 1 or marches, (where, [p.text for p in own])
    assert all(p.text.startswith(name) for p in own), (where, [p.text for p in own])
    e = state.effects
    assert e.bribery == (event == "bribery") and e.taxes == (event == "taxes"), where
    assert e.jihad == (event == "jihad") and e.expulsion == (event == "expulsion"), where
    assert (1 <= e.mercenaries <= 6) == (event == "mercenaries"), where
    assert (1 <= e.crusaders <= 6) == (event == "crusade"), where
    if state.el_cid_area is not None:
        assert event == "el_cid" and board.areas[state.el_cid_area].region != state.revolt, where
        assert state.areas[state.el_cid_area].count(state.el_cid_side or ""), where
    revolt_areas = board.regions[state.revolt].areas if state.revolt else ()
    if marches:
        # The armies start outside the region in revolt; their march is Phase 5's rules.
        for s in steps:
            if s.prompt.topic == "reconquista.march.start":
                assert board.areas[s.prompt.data["area"]].region != state.revolt, where
    else:
        for n in revolt_areas:
            assert state.areas[n].snapshot() == start.areas[n].snapshot(), f"{where}: {n} in revolt changed"
        mo = Kind.ORDER
        new_orders = [
            n
            for n, a in state.areas.items()
            if a.count("christian", mo) != start.areas[n].count("christian", mo)
        ]
        if event == "military_order":
            assert len(new_orders) <= 1, where
            for n in new_orders:
                assert state.areas[n].count("christian", mo) == start.areas[n].count("christian", mo) + 1
                assert city_controller(state.areas[n]) == "christian", where
                assert board.areas[n].region != state.revolt, where
        elif event != "famine":
            assert new_orders == [], where


def purchases_over(
    board: Board, start: Start, state: GameState, steps: list[Step], where: str, selected: int | None
) -> None:
    """Phase 3: the points are spent or lost ("Unspent points are lost"), every crusader is
    placed or lost, and purchases only add Christian units: none is removed but the Rebels a
    Bribery buys off."""
    assert state.income == 0, where
    assert state.effects.crusaders == 0, where
    placed = total(state.areas, "christian", Kind.CRUSADER) - total(start.areas, "christian", Kind.CRUSADER)
    assert 0 <= placed <= start.crusaders, where
    for n, a in state.areas.items():
        assert a.count("christian") >= start.areas[n].count("christian"), f"{where}: {n}"
    assert total(state.areas, "rebel") <= total(start.areas, "rebel"), where


def movement_over(
    board: Board, start: Start, state: GameState, steps: list[Step], where: str, selected: int | None
) -> None:
    """Phase 4: moving and fighting add no unit to any side; a garrison never takes a road, so
    none arrives in a region not selected; nobody enters the region in revolt."""
    for side in SIDES:
        assert total(state.areas, side) <= total(start.areas, side), f"{where}: {side} units gained"
    for n in board.regions:
        if n != selected:
            g = Kind.GARRISON
            assert region_total(board, state.areas, n, "christian", g) <= region_total(
                board, start.areas, n, "christian", g
            ), f"{where}: a garrison came into region {n}"
        if n == state.revolt:
            assert region_total(board, state.areas, n, "christian") <= region_total(
                board, start.areas, n, "christian"
            ), f"{where}: Christians entered the region in revolt"


def reaction_over(
    board: Board, start: Start, state: GameState, steps: list[Step], where: str, selected: int | None
) -> None:
    """Phase 5: the robot plays the Muslims alone: the player is asked no choice, every march
    ends within its step budget, the mercenaries hired are spent, and no side but the Muslims
    (reinforcements) and the marching armies gains a unit. Every step of the reaction cites its
    rule, and a Tell gives the robot's reason (the rise has one only under a Jihad)."""
    assert not [s for s in steps if isinstance(s.prompt, Choose)], f"{where}: a choice asked"
    assert state.effects.mercenaries == 0, where
    for side in ("christian", "rebel"):
        assert total(state.areas, side) <= total(start.areas, side), f"{where}: {side} units gained"
    if state.el_cid_area is not None:
        assert state.el_cid_area in state.areas
    for s in steps:
        p = s.prompt
        assert p.topic.startswith(REACTION_TOPICS), (where, p.topic)
        if p.topic.startswith(("reconquista.reaction.", "reconquista.march.")):
            assert TOPIC.fullmatch(p.topic) and p.rule, (where, p)
            announced = p.topic == "reconquista.reaction.rise" and not p.data["jihad"]
            assert not isinstance(p, Tell) or bool(p.reason) != announced, (where, p)


def no_siege_of_walls_held_at_the_start(start: Start, state: GameState, where: str) -> None:
    """Phase 5: "Repeat the movement until the force enters an area of non-Muslim control"
    (the French and the Rebel armies of Phase 2 alike); Important Definitions: a city is
    under the control of the side whose forces it contains. Walls a side held as the phase
    began (its units alone there, no siege) are not besieged by that side at its end unless
    an enemy has come into them since: a march that passes them picks its armies up and
    leaves one, it does not lay siege to its own city."""
    for n, a in state.areas.items():
        before = start.areas[n]
        side = a.besieger
        if side is None or before.besieger == side or before.sides() != [side]:
            continue
        assert [s for s in a.sides() if s != side], f"{where}: {n}, which it held, besieged by {side}"


def end_over(revolt: str | None, state: GameState, steps: list[Step], where: str) -> None:
    """Phase 1, 6 Regional Revolt: "excluded from the game for this entire turn": the turn's
    Phase 7 takes the Region in Revolt marker off the region Phase 1 put in revolt (``revolt``),
    and only then."""
    off = [s.prompt.data["region"] for s in steps if s.prompt.topic == "reconquista.end.revolt"]
    assert off == ([revolt] if revolt else []), (
        f"{where}: the Region in Revolt marker: {off} taken off, {revolt} in revolt"
    )
    assert state.revolt is None, where


def march_step(board: Board, step: Step, where: str) -> None:
    """Phase 5, Movement of the Muslim force (and the French and Rebel armies, moved by the
    same rules): a step names the marching side and where it is; a move goes to the next area
    of its region or along a road, with at least one unit, leaving at most one army behind."""
    p = step.prompt
    assert p.rule and p.data["side"] in SIDES, (where, p)
    assert p.data["region"] == board.region_of(p.data["area"]).name, (where, p)
    assert p.topic != "reconquista.march.stop" or p.data["cause"] != "budget", (where, p)
    if p.topic == "reconquista.march.move":
        here, dest = p.data["from"], p.data["to"]
        assert dest in board.roads[here] or dest == board.next_area(here), (where, p)
        assert p.data["units"] >= 1 and p.data["left"] in (0, 1), (where, p)
