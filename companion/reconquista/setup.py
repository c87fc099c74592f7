"""The board at the start of a game, exactly as "Setting Up the Board" lists it."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from companion.prompts import Prompt, Tell
from companion.reconquista.board import Board
from companion.reconquista.state import AreaState, GameState
from companion.reconquista.units import Kind

SECTION = "Setting Up the Board"
#: The setup's instructions share this topic's prefix: reconquista.setup.fortresses, ...
TOPIC = "reconquista.setup"


def initial_state(board: Board) -> GameState:
    """The setup of tables.toml on ``board``: fortresses, cities, a garrison in every
    area (Christian where listed, Muslim elsewhere), the starting armies."""
    s = board.tables.setup
    areas = {name: AreaState() for name in board.all_areas()}
    for name in s.fortresses:
        areas[name].fortress = True
    for name in s.muslim_cities:
        areas[name].city = "muslim"
    for name in s.christian_cities:
        areas[name].city = "christian"
    for name, area in areas.items():
        area.add("christian" if name in s.christian_garrisons else "muslim", Kind.GARRISON)
    for name, n in s.christian_armies.items():
        areas[name].add("christian", Kind.ARMY, n)
    for name, n in s.muslim_armies.items():
        areas[name].add("muslim", Kind.ARMY, n)
    return GameState(areas=areas, turn=s.turn, phase="setup")


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _armies(side: str, where: dict[str, int]) -> str:
    return "; ".join(f"{n} {side} arm{'y' if n == 1 else 'ies'} in {area}" for area, n in where.items())


def checklist(board: Board, state: GameState) -> Generator[Prompt, Any, None]:
    """ "Setting Up the Board", line by line as the rulebook gives it, from the tables file:
    the fortresses, the Muslim and the Christian cities, the garrisons region by region (one
    in each area: Christian where the rulebook says, Muslim elsewhere), the starting armies.
    Each is an instruction ticked off as the player sets it out; the turn counter is the
    first turn's own instruction. The state is the setup already: nothing changes here."""
    s = board.tables.setup
    lines: list[tuple[str, str, str, dict[str, Any]]] = [
        (
            "fortresses",
            f"Place a Fortress in {_listed(list(s.fortresses))}.",
            "Place a Fortress in each of the following areas",
            {"areas": list(s.fortresses)},
        ),
        (
            "muslim_cities",
            f"Place a Muslim City in {_listed(list(s.muslim_cities))}.",
            "Place a Muslim City in each of the following areas",
            {"areas": list(s.muslim_cities)},
        ),
        (
            "christian_cities",
            f"Place a Christian City in {_listed(list(s.christian_cities))}.",
            "Place a Christian City in each of the following areas",
            {"areas": list(s.christian_cities)},
        ),
    ]
    for number, region in sorted(board.regions.items()):
        christian = [a for a in region.areas if a in s.christian_garrisons]
        muslim = [a for a in region.areas if a not in s.christian_garrisons]
        parts = ([f"a Christian Garrison in {_listed(christian)}"] if christian else []) + (
            [f"a Muslim Garrison in {_listed(muslim)}"] if muslim else []
        )
        lines.append(
            (
                "garrisons",
                f"Garrisons in {region.name}: {'; '.join(parts)}.",
                "Garrisons: Place one in each Area in each Region",
                {"region": number, "christian": christian, "muslim": muslim},
            )
        )
    lines.append(
        (
            "christian_armies",
            f"Place {_armies('Christian', dict(s.christian_armies))}.",
            "Place a Christian Army in Oviedo",
            {"armies": dict(s.christian_armies)},
        )
    )
    lines.append(
        (
            "muslim_armies",
            f"Place {_armies('Muslim', dict(s.muslim_armies))}.",
            "Place a Muslim Army in Zaragoza",
            {"armies": dict(s.muslim_armies)},
        )
    )
    for kind, text, rule, data in lines:
        yield Tell(f"Setup: {text}", topic=f"{TOPIC}.{kind}", data=data, rule=f"{SECTION} — {rule}")
