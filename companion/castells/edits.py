"""Manual corrections of the Terra de Castells table, logged as Edit steps.

A correction is a short line a player types:
``castle Tortosa Anna`` (Anna holds Tortosa), ``castle Tortosa empty``,
``army Anna 4`` (Anna has 4 army points), ``saracen Miravet`` (the Saracen figure
stands on Miravet; ``saracen start`` puts it back on its space). Names match
ignoring case. The driver logs the change and replays it in its place.
"""

from __future__ import annotations

from typing import Any

from companion.castells.board import Board
from companion.castells.state import CastellsState

HELP = "castle NAME PLAYER | castle NAME empty | army PLAYER N | saracen CASTLE | saracen start"


def _match(text: str, names: list[str], what: str) -> tuple[str, str]:
    """The longest name ``text`` starts with (any case), and what follows it."""
    low = text.casefold()
    for name in sorted(names, key=len, reverse=True):
        n = name.casefold()
        if low == n or low.startswith(n + " "):
            return name, text[len(name) :].strip()
    raise ValueError(f"'{text.split(' ')[0]}' is not a {what}: the {what}s are {', '.join(names)}.")


def parse_edit_text(board: Board, state: CastellsState, text: str) -> dict[str, Any]:
    """The change a line asks for (see the module docstring); ValueError with one sentence."""
    line = " ".join(text.split())
    word, _, rest = line.partition(" ")
    word = word.casefold()
    players = [p.name for p in state.players]
    if word == "castle":
        castle, who = _match(rest, list(board.castles), "castle")
        if who.casefold() in ("empty", "none", "nobody"):
            return {"kind": "castle", "castle": castle, "owner": None}
        if not players:
            raise ValueError("There are no players yet to hold a castle.")
        owner, extra = _match(who, players, "player")
        if extra:
            raise ValueError(f"'{extra}' is one word too many: write castle NAME PLAYER.")
        return {"kind": "castle", "castle": castle, "owner": owner}
    if word == "army":
        if not players:
            raise ValueError("There are no players yet to have army points.")
        player, points = _match(rest, players, "player")
        if not (points.isascii() and points.isdigit()):
            raise ValueError(f"'{points}' is not a number of army points: write army PLAYER N.")
        if (
            len(points.lstrip("0")) > 2
        ):  # over 99 however long: not read by int(), slow for thousands of digits
            raise ValueError(f"{points} is not a number of army points from 0 to 99.")
        return {"kind": "army", "player": player, "points": int(points)}
    if word == "saracen":
        if rest.casefold() == "start":
            return {"kind": "saracen", "place": board.saracen_start}
        castle, extra = _match(rest, list(board.castles), "castle")
        if extra:
            raise ValueError(f"'{extra}' is one word too many: write saracen CASTLE.")
        return {"kind": "saracen", "place": castle}
    raise ValueError(f"'{line}' is not understood: write {HELP}.")


def apply_edit(board: Board, state: CastellsState, change: dict[str, Any]) -> None:
    """Apply ``change`` after checking it whole; ValueError (one sentence) if it does not fit the table."""
    kind = change.get("kind")
    players = {p.name for p in state.players}
    if kind == "castle":
        castle, owner = change.get("castle"), change.get("owner")
        if castle not in state.owners:
            raise ValueError(f"'{castle}' is not a castle of the board.")
        if owner is not None and owner not in players:
            raise ValueError(f"'{owner}' is not a player.")
        if owner is not None and castle == state.saracen:
            raise ValueError(f"The Saracen figure stands on {castle}: move it first (saracen CASTLE).")
        state.owners[castle] = owner
        return
    if kind == "army":
        player, points = change.get("player"), change.get("points")
        if player not in players:
            raise ValueError(f"'{player}' is not a player.")
        if not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= 99:
            raise ValueError(f"{points!r} is not a number of army points from 0 to 99.")
        state.player(player).army = points
        return
    if kind == "saracen":
        place = change.get("place")
        if place != board.saracen_start and place not in state.owners:
            raise ValueError(f"'{place}' is not a castle of the board.")
        if place in state.owners and state.owners[place] is not None:
            raise ValueError(
                f"{place} is held by {state.owners[place]}: set it empty first (castle {place} empty)."
            )
        state.saracen = place
        return
    raise ValueError(f"A correction changes a castle, an army or the Saracen, not {kind!r}.")


def describe(change: dict[str, Any]) -> str:
    """The log's line for a change: 'Tortosa is now Anna's' (the displays call it a correction by hand)."""
    kind = change["kind"]
    if kind == "castle":
        now = f"{change['owner']}'s" if change["owner"] else "empty"
        return f"{change['castle']} is now {now}"
    if kind == "army":
        return f"{change['player']} has {change['points']} army points"
    return f"the Saracen figure is on {change['place']}"


def board_changes(now: CastellsState, back: CastellsState, *, undo: bool = True) -> list[str]:
    """What to change on the table to go from ``now`` to ``back``: each castle whose holder
    differs, the Saracen figure, each player's army points, the tokens to put in the bag (or
    take out), one line each. ``undo``: ``back`` is how the table was ("again", "back to");
    otherwise it is new (a correction, a redo)."""
    again, to = (" again", "back to") if undo else ("", "to")
    out: list[str] = []
    for castle, was in back.owners.items():
        is_ = now.owners.get(castle)
        if was != is_:
            out.append(f"{castle}: {'held by ' + was if was else 'empty'}{again} (it shows {is_ or 'empty'})")
    if now.saracen != back.saracen:
        out.append(f"Saracen figure: {to} {back.saracen} (from {now.saracen})")
    armies = {p.name: p.army for p in now.players}
    for p in back.players:
        if p.name in armies and armies[p.name] != p.army:
            out.append(f"{p.name}'s army points: {to} {p.army} (from {armies[p.name]})")
    for token, n in back.bag.items():
        delta = n - now.bag.get(token, 0)
        if delta:
            where = "into" if delta > 0 else "out of"
            out.append(
                f"Bag: put {abs(delta)} {token} token{'s' if abs(delta) != 1 else ''}{' back' if undo else ''} {where} the bag"
            )
    return out
