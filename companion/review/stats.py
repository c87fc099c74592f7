"""Game statistics, computed by SQL aggregates over the store.

Where each figure comes from (every one counts effective steps only):

- Reconquista results and victory points: the finished sessions' summary, which the
  engine writes as 'Draw "El Cid", 17 VP' (``result_text``) and which a rewind rewrites.
- Rebellion results: the effective 'Rebellions: table die for ...' rolls, mapped through
  the rebellion table of the session's board; a result refused because it would have
  eliminated a side's last city is the roll followed by a '..., rolled again (...)' table
  roll, and is counted apart. (The log records the rolls, not the results; the table
  turns the one into the other exactly as the engine does.)
- Events: the effective 'Events: 2D6' rolls, their total through the events table.
- The Muslim reaction: where it rose (the region die, refused faces left out the same
  way) and what the reinforcement table gave (the column named in the roll's 'why', the
  face through the table's rows; faces to roll again are not results).
- Battle of Simancas: hands and matches won, from each session's stored state.
- Terra de Castells: see ``castells_stats``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import text

from companion.review.effective import Scope, counted, effective_cte
from companion.review.game_luck import GameLuck, game_luck
from companion.review.table_dice import TableDice, dice_of

if TYPE_CHECKING:
    from companion.store.db import Store


@dataclass(frozen=True)
class Count:
    """How often one outcome came up: ``key`` as the data files name it, ``label`` for people."""

    key: str
    label: str
    count: int

    def to_json(self) -> dict[str, Any]:
        return {"key": self.key, "label": self.label, "count": self.count}


@dataclass(frozen=True)
class ReconquistaGame:
    """One finished Reconquista session: when it ended, its result and victory points."""

    session_id: int
    ended: datetime
    result: str  # the band's name, e.g. 'Draw'
    title: str  # the band's title, e.g. 'El Cid'
    vp: int

    def to_json(self) -> dict[str, Any]:
        return {
            "session": self.session_id,
            "ended": _iso(self.ended),
            "result": self.result,
            "title": self.title,
            "vp": self.vp,
        }


@dataclass(frozen=True)
class ReconquistaStats:
    """Reconquista over the sessions in scope.

    ``games``: the finished sessions, oldest first (victory points over time);
    ``results``: finished games by result band, every band of the shipped table in
    order (zeros included); ``rebellions``, ``events``, ``reaction_regions`` and
    ``reinforcements``: how often each outcome came up, in table order, zeros included.
    """

    sessions: int
    games: tuple[ReconquistaGame, ...]
    results: tuple[Count, ...]
    rebellions: tuple[Count, ...]
    rebellions_refused: int
    events: tuple[Count, ...]
    reaction_regions: tuple[Count, ...]
    reinforcements: tuple[Count, ...]
    notes: tuple[str, ...] = ()
    #: The events' 2D6 and the rebellion die against fair dice, from the same rolls (charted by
    #: the Statistics screen; the luck ledger's own figures, so not in ``to_json``).
    dice: TableDice | None = field(default=None, compare=False)

    @property
    def mean_vp(self) -> float | None:
        return sum(g.vp for g in self.games) / len(self.games) if self.games else None

    def lines(self) -> list[str]:
        """The figures as text, for the command line."""
        lines = [f"Reconquista: {self.sessions} sessions, {len(self.games)} finished."]
        if self.games:
            lines.append(
                f"  Victory points: mean {self.mean_vp:.1f}, best {max(g.vp for g in self.games)}, "
                f"worst {min(g.vp for g in self.games)}."
            )
            lines += count_lines("Results", self.results)
            lines.append("  Games, oldest first:")
            for g in self.games:
                when = f"{g.ended:%Y-%m-%d %H:%M}"
                lines.append(f'    #{g.session_id:<6} {when}  {g.vp:>3} VP  {g.result} "{g.title}"')
        lines += count_lines("Rebellion results", self.rebellions)
        if self.rebellions_refused:
            lines.append(
                f"    ({self.rebellions_refused} more refused and rolled again: they would have "
                "eliminated a side's last city)"
            )
        lines += count_lines("Events", self.events)
        lines += count_lines("Muslim reaction: where it rose", self.reaction_regions)
        lines += count_lines("Muslim reaction: reinforcements", self.reinforcements)
        return lines + [f"  Note: {n}" for n in self.notes]

    def to_json(self) -> dict[str, Any]:
        mean = self.mean_vp
        return {
            "sessions": self.sessions,
            "finished": len(self.games),
            "mean_vp": None if mean is None else round(mean, 3),
            "games": [g.to_json() for g in self.games],
            "results": [c.to_json() for c in self.results],
            "rebellions": [c.to_json() for c in self.rebellions],
            "rebellions_refused": self.rebellions_refused,
            "events": [c.to_json() for c in self.events],
            "reaction_regions": [c.to_json() for c in self.reaction_regions],
            "reinforcements": [c.to_json() for c in self.reinforcements],
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class SimancasStats:
    """Battle of Simancas: hands won by side (ties apart), over every session in scope;
    matches won by side, over the finished ones."""

    sessions: int
    finished: int
    hands: tuple[Count, ...]  # moors, christians, tie
    matches: tuple[Count, ...]  # moors, christians
    notes: tuple[str, ...] = ()

    def lines(self) -> list[str]:
        """The figures as text, for the command line."""
        lines = [f"Battle of Simancas: {self.sessions} sessions, {self.finished} matches finished."]
        lines += count_lines("Hands won", self.hands)
        lines += count_lines("Matches won", self.matches)
        return lines + [f"  Note: {n}" for n in self.notes]

    def to_json(self) -> dict[str, Any]:
        return {
            "sessions": self.sessions,
            "finished": self.finished,
            "hands": [c.to_json() for c in self.hands],
            "matches": [c.to_json() for c in self.matches],
            "notes": list(self.notes),
        }


@dataclass(frozen=True)
class CastellsStats:
    """Terra de Castells: Saracen battles by winner (``saracens``: the castle was taken,
    ``defenders``: it held), and the army points players paid for rerolls, by the kind of
    battle (``saracen``: defending against the Saracens, ``players``: battles between
    players). ``available`` is False when this version has no Castells engine to read."""

    available: bool
    sessions: int
    finished: int
    battles: tuple[Count, ...]
    army_points: tuple[Count, ...]
    notes: tuple[str, ...] = ()

    @property
    def army_points_spent(self) -> int:
        return sum(c.count for c in self.army_points)

    def lines(self) -> list[str]:
        """The figures as text, for the command line."""
        lines = [f"Terra de Castells: {self.sessions} sessions, {self.finished} finished."]
        if self.available:
            lines += count_lines("Saracen battles won", self.battles)
            lines += count_lines("Army points spent on rerolls", self.army_points)
        return lines + [f"  Note: {n}" for n in self.notes]

    def to_json(self) -> dict[str, Any]:
        return {
            "available": self.available,
            "sessions": self.sessions,
            "finished": self.finished,
            "battles": [c.to_json() for c in self.battles],
            "army_points": [c.to_json() for c in self.army_points],
            "army_points_spent": self.army_points_spent,
            "notes": list(self.notes),
        }


class GameStats(Protocol):
    """What a game's statistics offer (its registry entry's ``stats`` gives them)."""

    sessions: int
    notes: tuple[str, ...]

    def lines(self) -> list[str]: ...

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Stats:
    """The statistics of every game that has some (its registry entry names them), in the
    registry's order, each under its id; a game left out by the ``game`` filter is None."""

    scope: str
    games: tuple[tuple[str, GameStats | None], ...] = ()
    sessions_by_game: tuple[Count, ...] = field(default=())
    #: Luck in game units of the games that weigh their rolls (game_luck.py), by dice source.
    luck: tuple[GameLuck, ...] = ()

    def of(self, game_id: str) -> Any:
        """The statistics of ``game_id`` (None when filtered out, or a game without any)."""
        return dict(self.games).get(game_id)

    def to_json(self) -> dict[str, Any]:
        return {
            "scope": self.scope,
            "sessions_by_game": [c.to_json() for c in self.sessions_by_game],
            **{gid: None if figures is None else figures.to_json() for gid, figures in self.games},
            "luck": [g.to_json() for g in self.luck],
        }


def count_lines(title: str, counts: tuple[Count, ...], width: int = 30) -> list[str]:
    """A table of counts as text: its title and total, then each outcome with its share."""
    total = sum(c.count for c in counts)
    lines = [f"  {title} ({total}):"]
    for c in counts:
        share = f"{100 * c.count / total:5.1f}%" if total else "     -"
        lines.append(f"    {c.label:<{width}} {c.count:>6}  {share}")
    return lines


# -- helpers -----------------------------------------------------------------------------


def _iso(dt: datetime) -> str:
    return _aware(dt).isoformat(timespec="seconds")


def _aware(dt: datetime) -> datetime:
    return dt if dt.tzinfo is not None else dt.replace(tzinfo=UTC)


def _parse_dt(value: Any) -> datetime:
    if isinstance(value, datetime):
        return _aware(value)
    return _aware(datetime.fromisoformat(str(value)))


def _rows(store: Store, sql: str, params: dict[str, Any]) -> list[Any]:
    with store.reading() as con:
        return list(con.execute(text(sql), params).all())


@cache
def _board(map_file: str | None, tables_file: str | None) -> Any:
    from companion.reconquista.board import load_board

    return load_board(map_file, tables_file)


def _board_for(config: str | None, notes: list[str]) -> Any:
    """The board of a session's config (its own map and tables files, if it named any)."""
    from companion.errors import CompanionError

    try:
        data = json.loads(config or "{}")
    except (ValueError, RecursionError):  # not JSON, or JSON Python does not read (4300+ digits)
        data = {}
    if not isinstance(data, dict):
        data = {}
    map_file, tables_file = data.get("map"), data.get("tables")
    if not (map_file or tables_file):
        return _board(None, None)
    try:
        return _board(map_file, tables_file)
    except (CompanionError, OSError, ValueError):
        note = f"The tables of {tables_file or map_file} could not be read; the shipped tables were used."
        if note not in notes:
            notes.append(note)
        return _board(None, None)


def _count_sessions(store: Store, scope: Scope, game: str) -> int:
    sql = f"SELECT COUNT(*) FROM session AS s WHERE {scope.where('s')} AND s.game = :_g"
    return int(_rows(store, sql, {**scope.params(), "_g": game})[0][0])


def _ordered(keys: list[str], labels: dict[str, str], counts: dict[str, int]) -> tuple[Count, ...]:
    """Counts in table order, zeros included; any key not in the table comes last."""
    seen = list(dict.fromkeys(keys))
    seen += sorted(k for k in counts if k not in seen)
    return tuple(Count(k, labels.get(k, k), counts.get(k, 0)) for k in seen)


# -- Reconquista -------------------------------------------------------------------------

#: The table rolls the statistics read, by their topic (companion/prompts.py).
ROLL_TOPICS = {
    "rebellion": "reconquista.rebellions.table",
    "event": "reconquista.events.roll",
    "region": "reconquista.reaction.region",
    "reinforcement": "reconquista.reaction.reinforcement",
}


def _table_rolls(store: Store, scope: Scope) -> list[Any]:
    """(config, kind, value, refused, column, count) of the effective table rolls, in one pass.

    ``value``: the die (the total of the 2D6 for events); ``refused``: the next roll of the
    same topic in the session was asked again (its data's ``again``), so this one's result did
    not stand; ``column``: the reinforcement table's column (data ``column``: -1 North Africa,
    0-3 the cities)."""
    kinds = " ".join(f"WHEN :k_{k} THEN '{k}'" for k in ROLL_TOPICS)
    sql = (
        effective_cte(scope)
        + f"""
, table_rolls AS (
    SELECT session_id, step, config, answer, prompt, CASE topic {kinds} END AS roll_kind
    FROM (
        SELECT session_id, step, config, answer, prompt, json_extract(prompt, '$.topic') AS topic
        FROM effective
        -- The text test first: cheap, and true of every prompt the JSON test can match
        -- (the topics are plain ASCII, which JSON writes as it is).
        WHERE ({" OR ".join(f"instr(prompt, :k_{k}) > 0" for k in ROLL_TOPICS)})
          AND json_extract(prompt, '$.kind') = 'roll'
    )
),
ordered AS (
    SELECT *, LEAD(json_extract(prompt, '$.data.again')) OVER (
        PARTITION BY session_id, roll_kind ORDER BY step
    ) AS next_again
    FROM table_rolls
    WHERE roll_kind IS NOT NULL
)
SELECT config, roll_kind,
       CASE WHEN roll_kind = 'event'
            THEN CAST(json_extract(answer, '$[0]') AS INTEGER) + CAST(json_extract(answer, '$[1]') AS INTEGER)
            ELSE CAST(json_extract(answer, '$[0]') AS INTEGER) END AS value,
       (next_again IS NOT NULL AND next_again = 1) AS refused,
       CASE WHEN roll_kind = 'reinforcement'
            THEN CAST(json_extract(prompt, '$.data.column') AS INTEGER) END AS reinforcement_column,
       COUNT(*) AS n
FROM ordered
GROUP BY config, roll_kind, value, refused, reinforcement_column
"""
    )
    params = {f"k_{k}": v for k, v in ROLL_TOPICS.items()}
    return _rows(store, sql, {**scope.params(), **params})


def reconquista_stats(store: Store, session_id: int | None = None) -> ReconquistaStats:
    """Reconquista statistics over every Reconquista session (or one session)."""
    return counted(
        store, Scope("reconquista", session_id), lambda scope, notes: _reconquista_stats(store, scope, notes)
    )


def _reconquista_stats(store: Store, scope: Scope, skipped: tuple[str, ...]) -> ReconquistaStats:
    from companion.reconquista.board import Reinforcement, parse_reinforcement
    from companion.reconquista.events import EVENT_NAMES
    from companion.reconquista.reaction import NORTH_AFRICA
    from companion.reconquista.rebellions import RESULT_NAMES

    notes: list[str] = list(skipped)
    default = _board(None, None)

    # Results and victory points: 'Draw "El Cid", 17 VP' -> ('Draw', 'El Cid', 17).
    finished = _rows(
        store,
        f"""
SELECT s.id, s.ended,
       substr(s.summary, 1, instr(s.summary, ' "') - 1) AS result,
       substr(s.summary, instr(s.summary, ' "') + 2,
              instr(s.summary, '", ') - instr(s.summary, ' "') - 2) AS title,
       CAST(substr(s.summary, instr(s.summary, '", ') + 3) AS INTEGER) AS vp
FROM session AS s
WHERE {scope.where("s")} AND s.status = 'finished' AND instr(s.summary, '", ') > 0
ORDER BY s.ended, s.id
""",
        scope.params(),
    )
    games = tuple(ReconquistaGame(r[0], _parse_dt(r[1]), r[2], r[3], int(r[4])) for r in finished)
    by_result = _rows(
        store,
        f"""
SELECT substr(s.summary, 1, instr(s.summary, ' "') - 1) AS result, COUNT(*)
FROM session AS s
WHERE {scope.where("s")} AND s.status = 'finished' AND instr(s.summary, '", ') > 0
GROUP BY result
""",
        scope.params(),
    )
    bands = [b.name for b in default.tables.victory]
    results = _ordered(bands, {b: b for b in bands}, {r[0]: int(r[1]) for r in by_result})

    rebellions: dict[str, int] = {}
    refused = 0
    events: dict[str, int] = {}
    regions: dict[str, int] = {}
    region_labels: dict[str, str] = {}
    reinforcements: dict[str, int] = {}
    rolls = _table_rolls(store, scope)
    for config, kind, value, was_refused, col, n in rolls:
        board = _board_for(config, notes)
        if kind == "rebellion":
            # The table die's face through the rebellion table; a refused result is counted apart.
            if was_refused:
                refused += n
            elif value in board.tables.rebellion:
                key = board.tables.rebellion[value]
                rebellions[key] = rebellions.get(key, 0) + n
        elif kind == "event":
            # The 2D6 total through the events table.
            if value in board.tables.events:
                key = board.tables.events[value]
                events[key] = events.get(key, 0) + n
        elif kind == "region" and not was_refused:
            # The region die: 1-5 a region, 6 North Africa; a refused face is rolled again.
            if value == NORTH_AFRICA:
                key, label = "north_africa", "North Africa"
            elif value in board.regions:
                key = label = board.regions[value].name
            else:
                continue
            region_labels[key] = label
            regions[key] = regions.get(key, 0) + n
        elif kind == "reinforcement":
            # The column the roll was asked in, the face through the rows; a face to roll again is no result.
            rows = {r.roll: r for r in board.tables.reinforcements.rows}
            if value not in rows or col is None:
                continue
            row = rows[value]
            if not -1 <= col < len(row.by_cities):
                continue  # a column the table has not: a damaged row, not a result
            if col < 0:
                result = Reinforcement("army", row.north_africa)
            else:
                result = parse_reinforcement(row.by_cities[col])
            reinforcements[str(result)] = reinforcements.get(str(result), 0) + n
    region_keys = [default.regions[n].name for n in sorted(default.regions)] + ["north_africa"]
    region_labels.update({k: k for k in region_keys[:-1]} | {"north_africa": "North Africa"})
    reinforcement_keys = [
        "Establish city",
        "Build Fortress",
        "Garrison",
        *sorted(
            {k for k in reinforcements if k.endswith(("army", "armies"))}, key=lambda k: int(k.split()[0])
        ),
    ]

    return ReconquistaStats(
        sessions=_count_sessions(store, scope, "reconquista"),
        games=games,
        results=results,
        rebellions=_ordered(list(RESULT_NAMES), RESULT_NAMES, rebellions),
        rebellions_refused=refused,
        events=_ordered(list(EVENT_NAMES), EVENT_NAMES, events),
        reaction_regions=_ordered(region_keys, region_labels, regions),
        reinforcements=_ordered(reinforcement_keys, {}, reinforcements),
        notes=tuple(notes),
        dice=dice_of(rolls),
    )


# -- Battle of Simancas -------------------------------------------------------------------

SIMANCAS_SIDES = {"moors": "Moors", "christians": "Christians"}


def simancas_stats(store: Store, session_id: int | None = None) -> SimancasStats:
    """Hands won by each side (and tied) over every Simancas session in scope, from each
    session's stored state (it is the state after the effective steps); matches won by
    each side over the finished sessions."""
    return counted(
        store, Scope("simancas", session_id), lambda scope, notes: _simancas_stats(store, scope, notes)
    )


def _simancas_stats(store: Store, scope: Scope, skipped: tuple[str, ...]) -> SimancasStats:
    # A hand is a table of facts: anything else in the list is no hand (read as hostile).
    hands = _rows(
        store,
        f"""
SELECT COALESCE(json_extract(h.value, '$.winner'), 'tie') AS winner, COUNT(*)
FROM session AS s, json_each(s.state, '$.hands') AS h
WHERE {scope.where("s")} AND h.type = 'object'
GROUP BY winner
""",
        scope.params(),
    )
    matches = _rows(
        store,
        f"""
SELECT json_extract(s.state, '$.winner') AS winner, COUNT(*)
FROM session AS s
WHERE {scope.where("s")} AND s.status = 'finished'
GROUP BY winner
""",
        scope.params(),
    )
    match_counts = {str(r[0]): int(r[1]) for r in matches if r[0] is not None}
    return SimancasStats(
        sessions=_count_sessions(store, scope, "simancas"),
        finished=sum(match_counts.values()),
        hands=_ordered(
            ["moors", "christians", "tie"],
            SIMANCAS_SIDES | {"tie": "Tie"},
            {str(r[0]): int(r[1]) for r in hands},
        ),
        matches=_ordered(["moors", "christians"], SIMANCAS_SIDES, match_counts),
        notes=skipped,
    )


# -- Terra de Castells ----------------------------------------------------------------------


CASTELLS_WINNERS = {"saracens": "Saracens (castle taken)", "defenders": "Defenders (castle held)"}
CASTELLS_BATTLES = {"saracen": "Defending against the Saracens", "players": "Battles between players"}


def castells_stats(store: Store, session_id: int | None = None) -> CastellsStats:
    """Saracen battles by winner, one for each effective ``castells.battle.result`` step of a
    Saracen battle (data ``kind`` 'saracen', ``result`` 'taken' or 'held'; a result told
    before topics has them from its wording, migration 0006): a result counts once its
    instruction is acknowledged, as every figure here counts steps that stand. Army points spent, one for each
    effective answer to a ``castells.battle.reroll`` question that is its ``reroll`` option
    (data ``options``: a code for each option), by the phase it was given in ('saracens' for
    a defence against the Saracens, 'battle' for a battle between players).
    Empty, with ``available`` False, while this version has no Terra de Castells engine."""
    return counted(
        store, Scope("castells", session_id), lambda scope, notes: _castells_stats(store, scope, notes)
    )


def _castells_stats(store: Store, scope: Scope, skipped: tuple[str, ...]) -> CastellsStats:
    from companion.games import entry

    sessions = _count_sessions(store, scope, "castells")
    if entry("castells").module is None:
        return CastellsStats(
            available=False,
            sessions=sessions,
            finished=0,
            battles=_ordered(list(CASTELLS_WINNERS), CASTELLS_WINNERS, {}),
            army_points=_ordered(list(CASTELLS_BATTLES), CASTELLS_BATTLES, {}),
            notes=("Terra de Castells is not playable in this version yet, so it has no statistics.",),
        )
    battles = _rows(
        store,
        effective_cte(scope)
        + """
SELECT CASE json_extract(prompt, '$.data.result') WHEN 'taken' THEN 'saracens' ELSE 'defenders' END, COUNT(*)
FROM effective
WHERE instr(prompt, 'castells.battle.result') > 0
  AND json_extract(prompt, '$.topic') = 'castells.battle.result'
  AND json_extract(prompt, '$.data.kind') = 'saracen'
  AND json_extract(prompt, '$.data.result') IN ('taken', 'held')
GROUP BY 1
""",
        scope.params(),
    )
    paid = _rows(
        store,
        effective_cte(scope)
        + """
SELECT CASE WHEN phase = 'saracens' THEN 'saracen' ELSE 'players' END AS battle_kind, COUNT(*)
FROM effective, json_each(effective.prompt, '$.options') AS o
WHERE instr(prompt, 'castells.battle.reroll') > 0
  AND json_extract(prompt, '$.kind') = 'choose'
  AND json_extract(prompt, '$.topic') = 'castells.battle.reroll'
  AND o.value = json_extract(answer, '$')
  -- options as a list, as every question has them: a table's keys would make no path
  AND CASE WHEN typeof(o.key) = 'integer'
           THEN json_extract(prompt, '$.data.options[' || o.key || ']') END = 'reroll'
GROUP BY battle_kind
""",
        scope.params(),
    )
    finished = _rows(
        store,
        f"SELECT COUNT(*) FROM session AS s WHERE {scope.where('s')} AND s.status = 'finished'",
        scope.params(),
    )
    return CastellsStats(
        available=True,
        sessions=sessions,
        finished=int(finished[0][0]),
        battles=_ordered(list(CASTELLS_WINNERS), CASTELLS_WINNERS, {str(r[0]): int(r[1]) for r in battles}),
        army_points=_ordered(list(CASTELLS_BATTLES), CASTELLS_BATTLES, {str(r[0]): int(r[1]) for r in paid}),
        notes=skipped,
    )


# -- all games ----------------------------------------------------------------------------


def statistics(store: Store, game: str | None = None, session_id: int | None = None) -> Stats:
    """Every game's statistics (or one game's, or one session's; the others are None): each
    game's as its registry entry names them (``stats``)."""
    from companion import games

    if game is not None:
        games.entry(game)  # an unknown game is one sentence (GameNotAvailable)
    scope = Scope(game, session_id)
    by_game = _rows(
        store,
        f"SELECT s.game, COUNT(*) FROM session AS s WHERE {scope.where('s')} GROUP BY s.game",
        scope.params(),
    )
    titles = {g.id: g.title for g in games.GAMES}
    counts = {str(r[0]): int(r[1]) for r in by_game}
    return Stats(
        scope=scope.describe(),
        games=tuple(
            (e.id, games.named(e.stats)(store, session_id) if game in (None, e.id) else None)
            for e in games.GAMES
            if e.stats is not None
        ),
        sessions_by_game=_ordered([g.id for g in games.GAMES], titles, counts),
        luck=game_luck(store, game, session_id),
    )
