"""The whole Reconquista game as one prompt procedure: twenty turns of seven phases.

``GAME`` is what the driver runs (see companion/games.py). Each phase lives in
its own module and is a generator ``phase(board, state)``; this module runs them
in order, resolves the sieges (Phase 6), ends the turn (Phase 7) and scores the
game. The state is changed in place; every board change is told as it happens.

Topics (``companion.prompts``): ``reconquista.turn.begin``, ``reconquista.end.remove`` (a
neutral army or El Cid taken off in Phase 7), ``reconquista.end.fortress`` (an unoccupied
fortress, after any phase), ``reconquista.end.over`` (the game ends, and why) and
``reconquista.victory.score`` (the total, the band and what scored).
"""

from __future__ import annotations

from typing import Any

from companion.interface import Asks, EarlierRules, Procedure, last_answer, whole_setting
from companion.prompts import Prompt, Tell
from companion.reconquista import edits, events, movement, purchases, reaction, rebellions
from companion.reconquista.battle import (
    Proc,
    besieges_walls_it_controls,
    end_siege_of_own_walls,
    siege,
    siege_order,
)
from companion.reconquista.board import Board, default_board, load_board
from companion.reconquista.control import (
    christian_majority,
    controls_city,
    free_of_enemy,
    muslim_free_region,
    result_band,
    victory_points,
)
from companion.reconquista.setup import checklist as setup_checklist
from companion.reconquista.setup import initial_state
from companion.reconquista.state import SIDE_NAMES, AreaState, Effects, GameState, unit_name
from companion.reconquista.topics import TOPICS
from companion.reconquista.units import Kind

LAST_TURN = 20
NEUTRAL = (Kind.MERCENARY, Kind.CRUSADER, Kind.FRENCH, Kind.REBEL_ARMY)


class InvariantError(AssertionError):
    """A game state broke a rule of the table: a bug of the engine, never a player's mistake."""


def check_invariants(board: Board, state: GameState) -> None:
    """What must hold between phases: known areas only, positive counts, a besieger
    only where that side has units and walls stand, El Cid only with his side; and hostile
    sides share an area only as besieger and besieged, never three sides in one area (every
    side is hostile to every other: "Important Definitions", and Phase 4's "enemy forces")."""
    if set(state.areas) != set(board.areas):
        raise InvariantError("the state's areas are not the board's")
    for name, a in state.areas.items():
        for side, by_kind in a.units.items():
            if not by_kind:
                raise InvariantError(f"{name}: an empty entry for {side}")
            for kind, n in by_kind.items():
                if n <= 0:
                    raise InvariantError(f"{name}: {n} {kind} of {side}")
        if a.besieger is not None:
            if not a.count(a.besieger):
                raise InvariantError(f"{name}: besieged by {a.besieger}, who has no units there")
            if a.city is None and not a.fortress:
                raise InvariantError(f"{name}: a siege with no city or fortress")
        sides = a.sides()
        if len(sides) > 2:
            raise InvariantError(f"{name}: {', '.join(sides)} side by side")
        if len(sides) == 2 and a.besieger is None:
            raise InvariantError(f"{name}: {' and '.join(sides)} side by side with no siege")
    if state.el_cid_area is not None and state.el_cid_side is None:
        raise InvariantError("El Cid is on the map without a side")


def check_between_phases(board: Board, state: GameState) -> None:
    """What must hold when a phase is over: the invariants, no fortress left unoccupied
    ("An unoccupied Fortress must be removed from the game": `remove_unoccupied_fortresses`
    runs after every phase), and no side besieging walls it controls (`phase_over`)."""
    check_invariants(board, state)
    for name, a in state.areas.items():
        if is_unoccupied_fortress(a):
            raise InvariantError(f"{name}: an unoccupied fortress left on the board after a phase")
        if besieges_walls_it_controls(a):
            raise InvariantError(f"{name}: besieged by {a.besieger}, who controls its walls")


def check_end_of_turn(board: Board, state: GameState) -> None:
    """After Phase 7: no lone fortress, no neutral army, no El Cid."""
    check_between_phases(board, state)
    for name, a in state.areas.items():
        for side in a.units:
            for kind in NEUTRAL:
                if a.count(side, kind):
                    raise InvariantError(f"{name}: a neutral army left after Phase 7")
    if state.el_cid_area is not None:
        raise InvariantError("El Cid left after Phase 7")


def muslims_can_recruit(board: Board, state: GameState) -> bool:
    """Phase 7: "If there are no possible places to recruit Muslim Armies, then the game is
    over." Read as: no area of the five regions is free of Christian, Rebel and neutral
    forces (the same test Phase 5 uses to pick its region; North Africa lands anywhere, so
    it cannot be what the rule means)."""
    return any(free_of_enemy(state.areas[a], "muslim") for a in board.area_order)


def christians_remain(board: Board, state: GameState) -> bool:
    """Phase 7: the game ends "If there are no Cities under Christian control and no
    Christian forces remain"."""
    return any(controls_city(a, "christian") or a.count("christian") for a in state.areas.values())


def is_unoccupied_fortress(a: AreaState) -> bool:
    """A fortress with no city and no unit: Phase 7, "Remove any Fortress if there are no
    other counters of any kind in the area"."""
    return a.fortress and a.city is None and a.total() == 0


def phase_over(board: Board, state: GameState) -> Proc:
    """What is done as every phase ends, before the next looks at the board: sieges of walls
    their besiegers now control are lifted (not under rules version 2), then unoccupied
    fortresses removed."""
    if not state.under_v2():
        for name in board.area_order:
            yield from end_siege_of_own_walls(board, state, name)
    yield from remove_unoccupied_fortresses(board, state)


def remove_unoccupied_fortresses(board: Board, state: GameState) -> Proc:
    """Important Definitions: "An unoccupied Fortress must be removed from the game." The
    rules name no moment; it is done as each phase ends (the Phase 7 removal among them),
    so that no later phase sees one: a passing Muslim force leaves no army in it, a siege
    never starts on it (rules-notes turn 6)."""
    # In Phase 7 the removal is that phase's own paragraph; after any other phase it is the definition's.
    rule = (
        "Phase 7: End of Turn — Remove any Fortress if there are no other counters of any kind in the area"
        if state.phase == "end"
        else "Important Definitions — An unoccupied Fortress must be removed from the game"
    )
    for name in board.area_order:
        if is_unoccupied_fortress(state.areas[name]):
            state.areas[name].fortress = False
            yield Tell(
                f"An unoccupied fortress is removed from the game: remove the fortress of {name}.",
                topic="reconquista.end.fortress",
                data={"area": name, "phase": state.phase},
                rule=rule,
                reason=f"no city and no unit is left with the fortress of {name}",
            )


def end_of_turn(board: Board, state: GameState) -> Proc:
    """Phase 7: remove the neutral armies and El Cid, remove lone fortresses, and say
    whether the game is over. Returns True when it is."""
    removal = "Phase 7: End of Turn — Remove any neutral army or El Cid (from Random Events)"
    for name in board.area_order:
        a = state.areas[name]
        for side in list(a.units):
            for kind in NEUTRAL:
                n = a.count(side, kind)
                if n:
                    a.remove(side, kind, n)
                    yield Tell(
                        f"End of turn: remove {unit_name(side, kind, n)} from {name}.",
                        topic="reconquista.end.remove",
                        data={"area": name, "side": side, "unit": kind.value, "count": n},
                        rule=removal,
                    )
    if state.el_cid_area is not None:
        yield Tell(
            f"End of turn: remove El Cid from {state.el_cid_area}.",
            topic="reconquista.end.remove",
            data={"area": state.el_cid_area, "side": state.el_cid_side, "unit": "el_cid", "count": 1},
            rule=removal,
        )
        state.el_cid_area = state.el_cid_side = None
    if state.revolt is not None and not state.under_v2():  # version 2 ended it untold
        # Phase 1, 6 Regional Revolt: "This entire region is excluded from the game for this
        # entire turn": the turn ends, and the revolt with it.
        region = board.regions[state.revolt].name
        state.revolt = None
        yield Tell(
            f"End of turn: remove the Region in Revolt marker from {region}; the revolt lasted this turn.",
            topic="reconquista.end.revolt",
            data={"region": region},
            rule="Phase 1: Rebellions — 6 Regional Revolt",
            reason=f"{region} was out of the game for this entire turn, and the turn is over",
        )
    yield from phase_over(board, state)
    over = "reconquista.end.over"
    if state.turn >= LAST_TURN:
        yield Tell(
            f"Turn {state.turn} was the last: the game is over.",
            topic=over,
            data={"turn": state.turn, "cause": "last_turn"},
            rule="Phase 7: End of Turn — If it is turn 20, the game is over",
        )
        return True
    if not muslims_can_recruit(board, state):
        yield Tell(
            "The Muslims have nowhere left to recruit armies: the game is over.",
            topic=over,
            data={"turn": state.turn, "cause": "no_muslim_recruits"},
            rule="Phase 7: End of Turn — If there are no possible places to recruit Muslim Armies",
            reason="no area of the five regions is free of christian, rebel and neutral forces",
        )
        return True
    if not christians_remain(board, state):
        yield Tell(
            "No city is under Christian control and no Christian force remains: the game is over.",
            topic=over,
            data={"turn": state.turn, "cause": "no_christians"},
            rule="Phase 7: End of Turn — If there are no Cities under Christian control and no Christian forces remain",
        )
        return True
    return False


def result_text(board: Board, state: GameState) -> str:
    """'Draw "El Cid", 17 VP': the result the victory points give now."""
    vp = victory_points(board, state).total
    band = result_band(board, vp)
    return f'{band.name} "{band.title}", {vp} VP'


def _scored(board: Board, state: GameState) -> dict[str, list[str]]:
    """What the points are scored for, as data: the tests ``victory_points`` itemises."""
    return {
        "cities": [a for a in board.area_order if controls_city(state.areas[a], "christian")],
        "majority": [
            r.name for n, r in board.regions.items() if christian_majority(board, state, n, free_only=False)
        ],
        "free": [r.name for n, r in board.regions.items() if muslim_free_region(board, state, n)],
    }


def final_score(board: Board, state: GameState) -> Proc:
    """Count the victory points, itemised, and name the result."""
    vp = victory_points(board, state)
    band = result_band(board, vp.total)
    lines = "; ".join(f"{label}: {points}" for label, points in vp.lines) or "no points"
    yield Tell(
        f'Victory points: {lines}. Total {vp.total}: {band.name} "{band.title}".',
        topic="reconquista.victory.score",
        data={
            "total": vp.total,
            "band": band.name,
            "title": band.title,
        }
        | _scored(board, state),
        rule="End of Game: Victory Points",
    )
    return result_text(board, state)


#: The instruction that opens each turn (the turn marker): screens name its moment by it.
TURN_BEGINS_TOPIC = "reconquista.turn.begin"


def play(board: Board, state: GameState) -> Proc:
    """The whole game from the state given to the end, turn by turn (a new game with the
    setup checklist first)."""
    if state.checklist and state.phase == "setup":
        yield from setup_checklist(board, state)
    while True:
        result = yield from play_turn(board, state)
        if result:
            state.phase = "over"
            return (yield from final_score(board, state))
        state.turn += 1


def play_turn(board: Board, state: GameState) -> Proc:
    """One turn of seven phases; returns True when the game is over after it."""
    state.revolt = None
    state.effects = Effects()
    state.income = 0
    yield Tell(
        f"Turn {state.turn} begins: move the turn marker to {state.turn}.",
        topic=TURN_BEGINS_TOPIC,
        data={"turn": state.turn},
        rule=(
            "Setting Up the Board — Turn counter on turn 1"
            if state.turn == 1
            else "Phase 7: End of Turn — If it is turn 19 or earlier, advance the turn marker 1 space"
        ),
    )
    for name, phase in (
        ("rebellions", rebellions.phase),
        ("events", events.phase),
        ("income", purchases.phase),
        ("movement", movement.phase),
        ("reaction", reaction.phase),
    ):
        state.phase = name
        yield from phase(board, state)
        yield from phase_over(board, state)
    state.phase = "sieges"
    for area in siege_order(board, state):
        if state.areas[area].besieger is not None:
            yield from siege(board, state, area)
    yield from phase_over(board, state)
    state.phase = "end"
    return (yield from end_of_turn(board, state))


RULES_VERSION = 3
#: The setting of a game begun under rules version 2 that goes on under the current rules: the
#: first turn played under them (``going_on``).
V2_UNTIL = "current_rules_from_turn"
NEVER = 10**9  # a turn no game reaches: every turn played under rules version 2


def going_on(state: Any, config: dict[str, Any]) -> list[tuple[dict[str, Any], str]] | None:
    """Where a game begun under rules version 2, its log replayed as recorded, goes on under the
    current rules: from the turn in play if nothing of it has been asked yet (its first
    instruction waits), else from the next, the turn in play ending under the rules it began
    under. Each as the settings that say so and the sentence that tells the player; None when
    the settings already name the turn."""
    if whole_setting(config, V2_UNTIL) is not None:
        return None
    game: GameState = state
    now = (
        "a march passes walls its side holds, a capture ends the siege, no side besieges walls it "
        "controls, and the app says when to take the markers off."
    )
    begun = "This game was begun under earlier rules (version 2) and replays as it was recorded"
    return [
        (
            {**config, V2_UNTIL: game.turn},
            (
                f"{begun}; from this turn (turn {game.turn}) on it is played under the current rules "
                f"(version {RULES_VERSION}): {now}"
            ),
        ),
        (
            {**config, V2_UNTIL: game.turn + 1},
            (
                f"{begun}; turn {game.turn} ends under them, and from turn {game.turn + 1} on it is "
                f"played under the current rules (version {RULES_VERSION}): {now}"
            ),
        ),
    ]


class Reconquista:
    """The Game interface for Reconquista; ``config`` may name a map and tables file."""

    id = "reconquista"
    title = "Reconquista"
    #: 2: the rules II changes of issue #16 (Phase 4 sieges stay, one march for every robot
    #: force, relief battles, lone fortresses removed after every phase...).
    #: 3: the rules III changes (docs/rules-notes.md): a march passes walls its side holds, a
    #: capture ends the siege, no side besieges walls it controls, the markers are taken off.
    rules_version = RULES_VERSION
    #: d6 only; a battle rolls a die per army in it, and never more dice than the box holds counters.
    asks = Asks(TOPICS, sides=frozenset({6}), most_dice=100)

    def new_state(self, seed: int, config: dict[str, Any]) -> GameState:
        map_file, tables_file = config.get("map"), config.get("tables")
        board = load_board(map_file, tables_file)
        state = initial_state(board)
        state.map_file, state.tables_file = map_file, tables_file
        state.checklist = config.get("setup") is True
        if self.rules_version == 2:
            state.v2_until = whole_setting(config, V2_UNTIL) or NEVER
        return state

    def procedure(self, state: GameState) -> Procedure:
        return play(self.board_of(state), state)

    @staticmethod
    def board_of(state: GameState) -> Board:
        """The board the session plays on (the shipped one unless the config named files)."""
        if state.map_file or state.tables_file:
            return load_board(state.map_file, state.tables_file)
        return default_board()

    def snapshot(self, state: GameState) -> dict[str, Any]:
        return state.snapshot()

    #: One ctrl+z takes back the last answer the player gave, with what the robot did after it.
    undo_from = staticmethod(last_answer)

    def roll_faces(self, state: GameState, prompt: Prompt) -> list[tuple[str, str]]:
        """What each result of the roll waiting means where a table decides it (the events'
        2D6): (result, its meaning) pairs, for the screen to show before the dice are typed."""
        return events.roll_faces(self.board_of(state), prompt)

    def __init__(self, rules_version: int = RULES_VERSION) -> None:
        # ``rules_version`` 2: the game as it played a game begun under that version
        # (``earlier_rules``); its turns before the setting ``V2_UNTIL`` are played under it.
        self.rules_version = rules_version

    def earlier_rules(self, version: int) -> EarlierRules | None:
        """The game as rules version 2 played it, for the games begun under it: its marches,
        battles, sieges, famine and markers (``GameState.under_v2`` in each) until the turn its
        settings name, then the current ones. Version 1 is not played: its games replay as far
        as their logs fit the current rules."""
        if version != 2 or self.rules_version != RULES_VERSION:
            return None
        return EarlierRules(Reconquista(2), going_on)

    @staticmethod
    def board_changes(now: GameState, back: GameState, *, undo: bool = True) -> list[str]:
        """The counters to put (back) and take away, area by area."""
        return edits.board_changes(now, back, undo=undo)

    def apply_edit(self, state: GameState, change: dict[str, Any]) -> None:
        """A manual correction of one area (edits.py); ValueError if it does not fit."""
        from companion.reconquista.edits import apply_edit

        apply_edit(state, change)

    def where(self, state: GameState) -> tuple[int | None, str | None]:
        return state.turn, state.phase

    def summary(self, state: GameState) -> str:
        if state.phase == "over":
            return result_text(self.board_of(state), state)
        if state.phase == "end" and state.effects.event is None:
            # Between the turns: the turn counter has moved on and "Turn N begins" waits (every
            # turn's Phase 2 draws an event, so the end of a turn always has one).
            return f"turn {state.turn}, start"
        return f"turn {state.turn}, {state.phase}"


GAME = Reconquista()

__all__ = ["GAME", "SIDE_NAMES", "check_end_of_turn", "check_invariants", "play", "play_turn"]
