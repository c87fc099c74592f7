"""What a move into enemy forces, or a siege roll, is likely to bring: exact odds on the board.

The screens show these before the player commits: the same decisions as
``battle.engage`` (battle or siege, who defends, walls, mountain, El Cid) fed
to the exact odds of ``odds``. Pure: a question about the state, no change to it.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.reconquista import combat, odds
from companion.reconquista.battle import defending_side
from companion.reconquista.board import Board
from companion.reconquista.control import city_controller, enemy_forces
from companion.reconquista.state import GameState
from companion.reconquista.units import Kind


@dataclass(frozen=True)
class Forecast:
    """``kind`` is 'battle', 'siege' or 'none'; ``chances`` the outcomes' probabilities
    (battle: attacker_wins, defender_wins, siege, both_destroyed; siege: besieger,
    defender, sacked); ``against`` the enemy units met."""

    kind: str
    chances: dict[str, float]
    against: tuple[Kind, ...] = ()
    defender: str | None = None


NONE = Forecast("none", {})


def _el_cid(
    state: GameState, area: str, mine: str, theirs: str | None, a: str, d: str, comes: bool = False
) -> str | None:
    """Whom El Cid fights with in ``area``: role ``a`` (``mine``'s) when he stands there with
    ``mine`` or ``comes`` with the moving force, role ``d`` when he is with ``theirs``."""
    if comes:
        return a
    if state.el_cid_area != area:
        return None
    if state.el_cid_side == mine:
        return a
    if state.el_cid_side == theirs:
        return d
    return None


def el_cid_goes(state: GameState, origin: str, units: list[Kind], side: str = "christian") -> bool | None:
    """Whether El Cid goes with ``units`` of ``side`` leaving ``origin`` (movement._move): True
    when he is there with his side and every unit of it leaves ("joins a force of its side":
    alone he cannot stay behind), None when some stay (the player says whom he leads), False
    when he is not there with them."""
    if state.el_cid_area != origin or state.el_cid_side != side:
        return False
    return True if len(units) >= state.areas[origin].count(side) else None


def forecast_move(
    board: Board,
    state: GameState,
    dest: str,
    units: list[Kind],
    side: str = "christian",
    *,
    with_el_cid: bool = False,
) -> Forecast:
    """The odds of moving ``units`` of ``side`` into ``dest`` now; ``with_el_cid``: El Cid goes
    with them (Quick Reference Sheet, 8 El Cid: "Attacks first. +2 in siege.")."""
    here = state.areas[dest]
    if not units or not enemy_forces(here, side):
        return NONE
    defender = defending_side(here, side)
    if defender is None:  # an empty enemy city: a siege it cannot win
        return Forecast("siege", {"besieger": 1.0, "defender": 0.0, "sacked": 0.0})
    enemy = here.force(defender)
    walls = here.city is not None or here.fortress
    inside = defender != here.besieger
    attackers = here.force(side) + list(units)
    if walls and inside and not combat.battle_or_siege(enemy, True):
        return _siege(board, state, dest, side, defender, attackers, enemy, comes=with_el_cid)
    city = here.city is not None and inside
    el_cid = _el_cid(state, dest, side, defender, "attacker", "defender", with_el_cid)
    chances = odds.battle_odds(
        attackers,
        enemy,
        city=city,
        mountain=board.areas[dest].mountain,
        el_cid=el_cid,  # type: ignore[arg-type]
    )
    return Forecast("battle", chances, tuple(enemy), defender)


def forecast_siege(board: Board, state: GameState, area: str) -> Forecast:
    """The odds of the whole siege of ``area`` as it stands."""
    here = state.areas[area]
    besieger = here.besieger
    if besieger is None:
        return NONE
    inside = [s for s in here.sides() if s != besieger]
    defender = inside[0] if inside else city_controller(here)
    enemy = here.force(defender) if defender else []
    return _siege(board, state, area, besieger, defender, here.force(besieger), enemy)


def _siege(
    board: Board,
    state: GameState,
    area: str,
    side: str,
    defender: str | None,
    besiegers: list[Kind],
    enemy: list[Kind],
    *,
    comes: bool = False,
) -> Forecast:
    here = state.areas[area]
    el_cid = _el_cid(state, area, side, defender, "besieger", "defender", comes)
    same_religion = here.city is not None and here.city == side
    chances = odds.siege_odds(
        besiegers,
        enemy,
        city=here.city is not None,
        fortress=here.fortress,
        el_cid=el_cid,  # type: ignore[arg-type]
        same_religion=same_religion,
    )
    return Forecast("siege", chances, tuple(enemy), defender)


def describe(forecast: Forecast) -> str:
    """The odds in words: 'Battle: win 62.5%, lose 30.1%, ...'."""
    c = forecast.chances
    if forecast.kind == "battle":
        parts = [f"win {c['attacker_wins']:.0%}", f"lose {c['defender_wins']:.0%}"]
        if c["siege"]:
            parts.append(f"they withdraw into the city {c['siege']:.0%}")
        if c["both_destroyed"]:
            parts.append(f"both destroyed {c['both_destroyed']:.0%}")
        return "Battle: " + ", ".join(parts)
    if forecast.kind == "siege":
        text = f"Siege: taken {c['besieger']:.0%}"
        if c["sacked"]:
            text += f" (sacked {c['sacked']:.0%})"
        return text + f", holds {c['defender']:.0%}"
    return "No enemy there."
