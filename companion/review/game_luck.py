"""Luck in game units: what the dice decided against what they would decide on average.

The luck ledger (luck.py) asks whether the dice are fair; this asks whether the player was
lucky, as backgammon programs have long measured it: for every roll whose outcome a game can
weigh exactly (its registry entry's ``luck``: Reconquista battle rolls in hits, Terra de
Castells battle rolls in successes), the outcome against its expectation and its percentile
among the outcomes the roll could have had. It is worked out from the effective log alone (the
roll's logged facts and dice), so old sessions have it too, and an undone roll counts nowhere.
Sides are counted apart and by where the dice came from (typed from the table or rolled by the
app); the player's luck is their own rolls' outcomes above expectation and the other sides'
below it, and the luckiest and unluckiest rolls are the ones furthest out for them.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import text

from companion.errors import DamagedRow
from companion.review.effective import Scope, counted, effective_cte

if TYPE_CHECKING:
    from companion.interface import RollLuck
    from companion.store.db import Store

SOURCE_WORDS = {"physical": "typed dice", "app": "app dice"}


def counted_units(n: int, unit: str) -> str:
    """'1 hit', '3 hits', '1 success', '1 siege won': ``unit`` is the plural the game names its
    rolls' count by (its first word the plural noun)."""
    if n != 1:
        return f"{n:,} {unit}"
    noun, _, rest = unit.partition(" ")
    one = noun.removesuffix("es") if noun.endswith("sses") else noun.removesuffix("s")
    return f"1 {one}" + (f" {rest}" if rest else "")


def signed(x: float) -> str:
    """'+2.0', '-0.5', '+0.0' (never '-0.0')."""
    return f"{round(x, 1) + 0.0:+,.1f}"


@dataclass(frozen=True)
class SideLuck:
    """One side's rolls from one source: what they gave against what they would give on average."""

    side: str
    mine: bool
    source: str  # 'physical' or 'app'
    unit: str
    rolls: int
    got: int
    expected: float

    @property
    def balance(self) -> float:
        return self.got - self.expected

    def line(self) -> str:
        mine = "yours, " if self.mine else ""
        who = f"{self.side[0].upper()}{self.side[1:]} ({mine}{SOURCE_WORDS.get(self.source, self.source)})"
        return (
            f"{who}: {counted_units(self.got, self.unit)} in {self.rolls:,} {'roll' if self.rolls == 1 else 'rolls'}, "
            f"{self.expected:,.1f} expected ({signed(self.balance)})"
        )


@dataclass(frozen=True)
class Moment:
    """A roll worth naming: where and when, what it gave, and how lucky it was for the player."""

    session_id: int
    turn: int | None
    side: str
    mine: bool
    where: str
    unit: str
    dice: int
    got: int
    expected: float
    luck: float  # for the player: the roll's percentile if it is theirs, its complement if not
    odds: float  # the chance of a roll at least this lucky for them (luck >= 1/2), or this unlucky

    def line(self, session: bool = True) -> str:
        """The roll in a sentence; ``session``: say which session (not in one session's report)."""
        parts = ([f"session {self.session_id}"] if session else []) + (
            [f"turn {self.turn}"] if self.turn is not None else []
        )
        when = ", ".join(parts)
        place = (", " if when else "") + self.where if self.where else ""
        owner = f"{self.side}'" if self.side.endswith("s") else f"{self.side}'s"
        how = "good" if self.luck >= 0.5 else "bad"
        return (
            f"{when}{place}: {owner} {self.dice} {'die' if self.dice == 1 else 'dice'} gave "
            f"{counted_units(self.got, self.unit)}, {self.expected:.1f} expected (a roll this {how} for you comes "
            f"{one_in(self.odds)})"
        )


def one_in(p: float) -> str:
    """'1 time in 243', 'about 2 times in 3': a chance as a player reads it."""
    if p <= 0:
        return "never"
    if p >= 0.5:
        return f"{p:.0%} of the time"
    return f"1 time in {round(1 / p):,}"


@dataclass(frozen=True)
class GameLuck:
    """A game's luck in one of its units over a scope (a game that weighs its rolls in several,
    Reconquista's hits and sieges won, has one a unit)."""

    game: str
    title: str
    unit: str
    sides: tuple[SideLuck, ...]
    luckiest: Moment | None
    unluckiest: Moment | None
    #: (turn, the player's balance up to the end of that turn), turns in order: the story's
    #: chart of one session (over several sessions, a turn's rolls of each are added).
    by_turn: tuple[tuple[int, float], ...] = ()

    @property
    def balance(self) -> float:
        """The player's luck in units: their sides above expectation, the others' below it."""
        return sum(s.balance if s.mine else -s.balance for s in self.sides)

    def lines(self, session: bool = True) -> list[str]:
        """A title line, then a line a side, the balance, the luckiest and unluckiest rolls
        (``session``: name the session of each, as where several are counted)."""
        out = [f"{self.title}: luck in {self.unit}, the outcome of each roll against its average."]
        out += [f"  {s.line()}." for s in self.sides]
        out.append(
            f"  Your luck balance: {signed(self.balance)} {self.unit} (your rolls above their average, "
            "the others' below theirs)."
        )
        if self.luckiest is not None:
            out.append(f"  Luckiest roll: {self.luckiest.line(session)}.")
        if self.unluckiest is not None:
            out.append(f"  Unluckiest roll: {self.unluckiest.line(session)}.")
        return out

    def to_json(self) -> dict[str, Any]:
        def moment(m: Moment | None) -> dict[str, Any] | None:
            if m is None:
                return None
            return {
                "session_id": m.session_id,
                "turn": m.turn,
                "side": m.side,
                "where": m.where,
                "dice": m.dice,
                "got": m.got,
                "expected": round(m.expected, 4),
                "luck": round(m.luck, 4),
                "odds": round(m.odds, 6),
            }

        return {
            "game": self.game,
            "unit": self.unit,
            "balance": round(self.balance, 4),
            "sides": [
                {
                    "side": s.side,
                    "mine": s.mine,
                    "source": s.source,
                    "rolls": s.rolls,
                    "got": s.got,
                    "expected": round(s.expected, 4),
                    "balance": round(s.balance, 4),
                }
                for s in self.sides
            ],
            "luckiest": moment(self.luckiest),
            "unluckiest": moment(self.unluckiest),
            "by_turn": [{"turn": t, "balance": round(b, 4)} for t, b in self.by_turn],
        }


def game_luck(store: Store, game: str | None = None, session_id: int | None = None) -> tuple[GameLuck, ...]:
    """The luck in game units of every game that weighs its rolls, in the scope; a game with no
    roll it weighs in the scope is left out."""
    return counted(store, Scope(game, session_id), lambda scope, _notes: weighed_games(store, scope))


def weighed_games(store: Store, scope: Scope) -> tuple[GameLuck, ...]:
    """``game_luck`` over a scope whose unreadable sessions are already left out (the ledger's)."""
    from companion.games import GAMES

    out: list[GameLuck] = []
    for entry in GAMES:
        if entry.luck is None or entry.module is None or (scope.game is not None and scope.game != entry.id):
            continue
        out += weigh_rolls(entry.id, _rolls(store, scope, entry.id))
    return tuple(out)


def export_luck(data: dict[str, Any]) -> tuple[GameLuck, ...]:
    """The luck in game units of an exported session (``exchange.export_data``'s document):
    the same figures as from the store, for a report written from an export or after an import."""
    sess = data["session"]
    rolls = [
        (
            sess.get("id") or 0,
            s.get("turn"),
            (s.get("prompt") or {}).get("topic"),
            (s.get("prompt") or {}).get("data"),
            s.get("answer"),
            s.get("source"),
        )
        for s in data["steps"]
        if isinstance(s.get("prompt"), dict)
        and s["prompt"].get("kind") == "roll"
        and s.get("source") in SOURCE_WORDS
    ]
    return weigh_rolls(sess["game"], rolls)


def _rolls(store: Store, scope: Scope, game: str) -> list[tuple[Any, ...]]:
    """(session, turn, topic, data, dice, source) of the effective rolls of ``game`` in ``scope``,
    typed or the app's, in the order they were rolled."""
    sql = (
        effective_cte(scope)
        + """
SELECT session_id, turn, json_extract(prompt, '$.topic'), json_extract(prompt, '$.data'), answer, source
FROM effective
WHERE game = :luck_game AND source IN ('physical', 'app') AND json_extract(prompt, '$.kind') = 'roll'
ORDER BY session_id, seq
"""
    )
    with store.reading() as con:
        return list(con.execute(text(sql), {**scope.params(), "luck_game": game}).all())


class _Tally:
    """The rolls of one unit as ``weigh_rolls`` reads them."""

    def __init__(self) -> None:
        self.sides: dict[
            tuple[str, bool, str], list[Any]
        ] = {}  # (side, mine, source) -> [unit, rolls, got, expected]
        self.best: Moment | None = None
        self.worst: Moment | None = None
        self.per_turn: dict[int, float] = {}


def weigh_rolls(game: str, rolls: Iterable[tuple[Any, ...]]) -> tuple[GameLuck, ...]:
    """The luck of ``game`` over ``rolls`` (session, turn, topic, data, dice, source, in the
    order rolled; data and dice as JSON text from the store or as values from an export), by
    the game's registry ``luck``: one GameLuck a unit, in the order their first rolls came;
    none when the game weighs no roll, or none of these."""
    from companion.games import GAMES, named

    entry = next((e for e in GAMES if e.id == game), None)
    if entry is None or entry.luck is None or entry.module is None:
        return ()
    weigh = named(entry.luck)
    units: dict[str, _Tally] = {}
    for sid, turn, topic, data, answer, source in rolls:
        try:
            facts = json.loads(data) if isinstance(data, str) else data
            dice = json.loads(answer) if isinstance(answer, str) else answer
        except json.JSONDecodeError:
            # Not JSON: a damaged row, whose session is left out and named (effective.counted,
            # which finds it as every figure does), so the others count as with it gone.
            raise DamagedRow(f"Session {sid} has a roll that cannot be read.") from None
        except (ValueError, RecursionError):
            continue  # JSON that Python refuses (4,300 digits, nesting past the limit): no roll
        if not isinstance(topic, str) or not isinstance(facts, dict) or not isinstance(dice, list):
            continue
        if not all(isinstance(d, int) and not isinstance(d, bool) for d in dice):
            continue
        weighed: RollLuck | None = weigh(topic, facts, dice)
        if weighed is None:
            continue
        unit = units.setdefault(weighed.unit, _Tally())
        if isinstance(turn, int):
            unit.per_turn[turn] = unit.per_turn.get(turn, 0.0) + (1 if weighed.mine else -1) * (
                weighed.got - weighed.expected
            )
        tally = unit.sides.setdefault((weighed.side, weighed.mine, source), [weighed.unit, 0, 0, 0.0])
        tally[1] += 1
        tally[2] += weighed.got
        tally[3] += weighed.expected
        luck = weighed.percentile if weighed.mine else 1 - weighed.percentile
        # The chance of a roll at least as lucky (for the player) as this one, or as unlucky.
        high = weighed.at_least() if weighed.mine else weighed.at_most()
        low = weighed.at_most() if weighed.mine else weighed.at_least()
        moment = Moment(
            int(sid),
            turn if isinstance(turn, int) else None,
            weighed.side,
            weighed.mine,
            weighed.where,
            weighed.unit,
            len(dice),
            weighed.got,
            weighed.expected,
            luck,
            high if luck >= 0.5 else low,
        )
        # The first of equals is kept: the earliest such roll. A roll is the luckiest only if it
        # was lucky (above the middle of its outcomes), the unluckiest only if it was unlucky.
        if luck > 0.5 and (unit.best is None or luck > unit.best.luck):
            unit.best = moment
        if luck < 0.5 and (unit.worst is None or luck < unit.worst.luck):
            unit.worst = moment
    return tuple(_game_luck(game, entry.title, name, tally) for name, tally in units.items())


def _game_luck(game: str, title: str, unit: str, tally: _Tally) -> GameLuck:
    ordered = sorted(tally.sides.items(), key=lambda kv: (not kv[0][1], kv[0][0], kv[0][2] != "physical"))
    turns = sorted(tally.per_turn)
    return GameLuck(
        game,
        title,
        unit,
        tuple(SideLuck(side, mine, source, *counts) for (side, mine, source), counts in ordered),
        tally.best,
        tally.worst,
        tuple(zip(turns, itertools.accumulate(tally.per_turn[t] for t in turns), strict=True)),
    )
