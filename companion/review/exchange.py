"""A session out of the store and back in: export as JSON, CSV, Markdown or BBCode; import JSON.

The JSON export is the session itself: its fields, every effective step (prompt,
answer, source, turn, phase, time and the digest of the state it led to), the
final state, the rules version it was recorded under, and a format version.
``import_session`` takes such a file (or a bug report, for the export it carries) only if it replays: the game must be known,
every step must be asked as logged and lead to the logged state, and the end must
be the exported final state. A file that fails any check is refused with one
sentence and nothing is created; one that passes is stored in one transaction as a
new session. The one exception is a file recorded under earlier rules of its game
(an export without ``rules_version`` was recorded under version 1): where the
current rules part from its log it is taken as recorded, once every question is one its
game asks (``Game.asks``), every answer fits its question and its final state has the
game's shape and is the one its last step logged, and resuming it later
replays it as far as it fits (docs/design.md, "The store"). A file of rules newer
than the app's is refused.

CSV is one row per step; Markdown is a game report, turn by turn and phase by
phase, and BBCode the same report in BoardGameGeek's forum markup (``bbcode``; the parts
both share are in ``sections``). Steps are numbered from 1 in every format, as
``companion show`` does.
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    StrictInt,
    StrictStr,
    ValidationError,
    model_validator,
)

from companion.branches import BRANCH_OF_MAX, imported, is_branch_of
from companion.dice import SEED_MAX, SEED_MIN, chosen_dice_mode, commitment, die_name
from companion.errors import CompanionError
from companion.notes import note_text
from companion.prompts import CORRECTION, answer_text
from companion.review.bbcode import bbcode_report
from companion.review.sections import SOURCE_WORDS, check_mark, outline, question, roll_count, turn_title
from companion.text import visible

if TYPE_CHECKING:
    from companion.store.db import Store

FORMAT = "tabletop-companion/session"
FORMAT_VERSION = 1
#: The format of a bug report (companion/review/bugreport.py), which imports as the export it carries.
BUG_REPORT_FORMAT = "tabletop-companion/bug-report"
FORMATS = ("json", "csv", "md", "bbcode")
#: The most steps an import takes. Opening a session replays its log on the screen's own turn
#: (some 140 microseconds a step here, its list of steps included): 10,000 open in about 1.5 s,
#: where a file of 108 MB held the app 32 s. A whole Reconquista game has some 1,000 steps.
MAX_IMPORT_STEPS = 10_000
CSV_COLUMNS = ("step", "turn", "phase", "kind", "dice", "question", "options", "answer", "source", "at")


class ImportRefused(CompanionError):
    """An import file that cannot be taken; the message is one sentence."""


# -- the format --------------------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


#: A number kept in one of the store's INTEGER columns (a seed, a turn): SQLite's signed 64
#: bits, the bounds of a seed. Past them the insert failed with OverflowError, not a sentence.
StoredInt = Annotated[StrictInt, Field(ge=SEED_MIN, le=SEED_MAX)]

#: The years a stored time may fall in. The app's clock writes them, so an earlier or later one
#: is a damaged or made-up file; and near the ends of the calendar (years 1 and 9999) turning a
#: time into UTC or local time runs off it (OverflowError) when it is stored or shown.
FIRST_YEAR, LAST_YEAR = 1970, 9998


def _in_calendar(dt: datetime) -> datetime:
    # The year is read as written, before any conversion: that is what could overflow.
    if not FIRST_YEAR <= dt.year <= LAST_YEAR:
        raise ValueError(
            f"a time in the year {dt.year} is not one a session can have ({FIRST_YEAR} to {LAST_YEAR})"
        )
    return dt


StoredTime = Annotated[datetime, AfterValidator(_in_calendar)]


def _branch_of(said: str) -> str:
    if not is_branch_of(said):
        raise ValueError(f"a branch's origin is 1 to {BRANCH_OF_MAX} printable characters")
    return said


#: The name a player gave their dice, checked as the app checks one typed (dice.die_name).
DieName = Annotated[StrictStr, AfterValidator(die_name)]
#: Where a branch came from, in words, checked as the store checks its own (branches.is_branch_of).
BranchOf = Annotated[StrictStr, AfterValidator(_branch_of)]
#: A player's note on a step, checked as the app checks one typed (notes.note_text).
NoteText = Annotated[StrictStr, AfterValidator(note_text)]


class StepModel(_Strict):
    """One effective step of an exported log."""

    step: StrictInt = Field(ge=1)
    turn: StoredInt | None = None
    phase: StrictStr | None = None
    prompt: dict[str, Any]
    answer: list[StrictInt] | StrictStr | None
    source: Literal["physical", "app", "player", "ack", "edit"]
    at: StoredTime
    digest: str = Field(pattern=r"^[0-9a-f]{16}$")
    # A roll typed from the table: the name of the dice it was rolled with; a roll of either
    # source: whether it is a test roll, left out of the luck ledger. Written only when set.
    die: DieName | None = None
    test_roll: StrictBool = False
    note: NoteText | None = None  # the player's note on the step (a bookmark)

    @model_validator(mode="after")
    def _roll_marks(self) -> StepModel:
        is_roll = self.prompt.get("kind") == "roll"
        if self.test_roll and not is_roll:
            raise ValueError("it is marked as a test roll but rolls no dice")
        if self.die is not None and not (is_roll and self.source == "physical"):
            raise ValueError("it names the dice of a roll that was not typed from the table")
        return self


class SessionModel(_Strict):
    """The exported session's own fields (``id`` is its number where it came from)."""

    id: StrictInt | None = None
    game: StrictStr
    title: StrictStr | None = None
    seed: StoredInt
    config: dict[str, Any] = {}
    dice_mode: StrictStr = ""
    status: Literal["active", "finished", "abandoned"]
    started: StoredTime
    last_activity: StoredTime
    ended: StoredTime | None = None
    summary: StrictStr = ""
    # The version of the game's rules the log was recorded under. Exports written before the
    # key existed were all recorded under version 1.
    rules_version: StrictInt = Field(default=1, ge=1)
    # The commitment to the seed shown when the session started, and its nonce (dice.commitment).
    # Exports written before commitments have neither: they are checked against the seed alone.
    dice_nonce: StrictStr | None = Field(default=None, pattern=r"^[0-9a-f]{32}$")
    commitment: StrictStr | None = Field(default=None, pattern=r"^[0-9a-f]{64}$")
    # The name of the dice on the table when it was exported (none: unnamed).
    die: DieName | None = None
    # A branch: where it came from, in words ("session 12 at step 40"), and the steps it took.
    # An import keeps the words as text: the session they name is in another database.
    branch_of: BranchOf | None = None
    branch_step: StrictInt | None = Field(default=None, ge=1)


class ExportModel(_Strict):
    """A whole exported session, format version 1."""

    format: Literal["tabletop-companion/session"]
    version: StrictInt  # FORMAT_VERSION; a newer one is refused before the fields are read
    exported: datetime | None = None
    session: SessionModel
    steps: list[StepModel]
    final_state: dict[str, Any]


# -- export ------------------------------------------------------------------------------


def _utc(dt: datetime) -> datetime:
    return dt.replace(tzinfo=UTC) if dt.tzinfo is None else dt.astimezone(UTC)


def _iso(dt: datetime | None) -> str | None:
    return None if dt is None else _utc(dt).isoformat(timespec="seconds")


def export_data(store: Store, session_id: int, now: datetime | None = None) -> dict[str, Any]:
    """The JSON document of a session: its fields, its effective steps and its final state.
    StoreError (one sentence) if there is no such session or its log is damaged."""
    from companion.games import GAMES

    info = store.session(session_id)
    log = store.log(session_id)
    notes = {n.step: n.text for n in store.notes(session_id)}
    titles = {g.id: g.title for g in GAMES}
    steps = [
        {
            "step": i,
            "turn": ev.turn,
            "phase": ev.phase,
            "prompt": ev.prompt,
            "answer": ev.answer,
            "source": ev.source,
            "at": _iso(ev.at),
            "digest": ev.digest,
        }
        | ({"die": ev.die} if ev.die is not None else {})
        | ({"test_roll": True} if ev.test else {})
        | ({"note": notes[i - 1]} if i - 1 in notes else {})
        for i, ev in enumerate(log.events, start=1)
    ]
    return {
        "format": FORMAT,
        "version": FORMAT_VERSION,
        "exported": _iso(now or store.now()),
        "session": {
            "id": info.id,
            "game": info.game,
            "title": titles.get(info.game, info.game),
            "seed": info.seed,
            "config": info.config,
            "dice_mode": info.dice_mode,
            "status": info.status,
            "started": _iso(info.started),
            "last_activity": _iso(info.last_activity),
            "ended": _iso(info.ended),
            "summary": info.summary,
            "rules_version": info.rules_version,
            "dice_nonce": info.dice_nonce,
            "commitment": info.commitment,
        }
        | ({"die": info.die} if info.die is not None else {})
        | ({"branch_of": info.branch_of, "branch_step": info.branch_step} if info.branch_of else {}),
        "steps": steps,
        "final_state": store.state(session_id),
    }


def export_json(store: Store, session_id: int) -> str:
    """The session as JSON text (see ``export_data``), ready to re-import."""
    return json.dumps(export_data(store, session_id), indent=2, ensure_ascii=False) + "\n"


def export_csv(store: Store, session_id: int) -> str:
    """The session's effective steps as CSV, one row a step, with a header row (CSV_COLUMNS).
    Control characters in the text are written as visible escapes (``text.visible``): the file
    is read on a terminal as often as in a spreadsheet."""
    data = export_data(store, session_id)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for s in data["steps"]:
        p = s["prompt"] or {}
        kind = p.get("kind", "")
        writer.writerow(
            [
                s["step"],
                "" if s["turn"] is None else s["turn"],
                _cell(s["phase"] or ""),
                kind,
                f"{p.get('n')}d{p.get('sides')}" if kind == "roll" else "",
                _cell(question(p)),
                _cell(" / ".join(p.get("options", [])) if kind == "choose" else ""),
                _cell(answer_text(s["answer"])),
                _cell(s["source"] or ""),
                s["at"],
            ]
        )
    return visible(out.getvalue())


#: What a spreadsheet takes as the start of a formula in a cell (OWASP, "CSV injection").
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _cell(text: str) -> str:
    """A text cell a spreadsheet shows as text: one that would start a formula (a Dice tray label
    '=HYPERLINK(...)', an imported session's answer) gets a leading apostrophe."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def _md(text: str) -> str:
    """Text safe inside Markdown: the characters that would start emphasis, code or links escaped."""
    for ch in "\\`*_[]<>|#":
        text = text.replace(ch, "\\" + ch)
    return text


def _step_line(s: dict[str, Any], success_at: int | None = None) -> str:
    p = s["prompt"] or {}
    kind = p.get("kind")
    answer = s["answer"]
    if kind == "roll":
        dice = answer_text(answer)
        total = roll_count(answer, success_at)
        why = f" ({_md(p['why'])})" if p.get("why") else ""
        source = SOURCE_WORDS.get(s["source"], s["source"] or "")
        return f"- Roll {p.get('n')}d{p.get('sides')}{why}: **{dice}**{total}, {source}"
    if kind == "choose":
        return f"- Choice ({_md(question(p))}): **{_md(answer_text(answer))}**"
    if kind == "enter":
        return f"- Entered ({_md(question(p))}): **{_md(answer_text(answer))}**"
    if kind == "check":
        return (
            f"- Board check ({_md(question(p))}): **{_md(answer_text(answer))}**{_md(check_mark(p, answer))}"
        )
    if kind == "tell":
        return f"- Board: {_md(question(p))}"
    if kind == "edit":
        return f"- {CORRECTION}: {_md(question(p))}"
    return f"- {_md(json.dumps(p, ensure_ascii=False))}: {_md(answer_text(answer))}"


def export_markdown(store: Store, session_id: int) -> str:
    """The session as a readable game report: a header (game, dates, result), then turn by
    turn and phase by phase every roll with its source, every choice and every board
    instruction. Times are in UTC; control characters are written as visible escapes."""
    data = export_data(store, session_id)
    sess = data["session"]
    report = outline(data)
    lines = [f"# {_md(sess['title'])}: session {sess['id']}", ""]
    lines += [f"- {label}: {_md(text)}" for label, text in report.facts]
    if report.luck:  # luck in the game's own units (game_luck.py)
        lines += ["", "## Luck", "", *(f"- {_md(line)}" for line in report.luck)]
    for turn in report.turns:
        if turn.turn is not None:
            lines += ["", f"## {_md(turn_title(report, turn))}"]
        for phase in turn.phases:
            if report.show_phases:
                if phase.title:
                    lines += ["", f"### {_md(phase.heading)}"]
                lines.append("")
            elif not lines[-1].startswith("- "):
                lines.append("")
            for s in phase.steps:
                lines.append(_step_line(s, report.success_at))
                if s.get("note"):  # the player's note on the step
                    lines.append(f"  - *Note:* {_md(' / '.join(s['note'].splitlines()))}")
    return visible("\n".join(lines) + "\n")


def export_bbcode(store: Store, session_id: int) -> str:
    """The session as a BoardGameGeek session report, in BGG's forum markup (companion/review/bbcode.py)."""
    return bbcode_report(export_data(store, session_id))


def export_session(store: Store, session_id: int, fmt: str) -> str:
    """The session in ``fmt`` ('json', 'csv', 'md' or 'bbcode') as text."""
    if fmt == "json":
        return export_json(store, session_id)
    if fmt == "csv":
        return export_csv(store, session_id)
    if fmt == "md":
        return export_markdown(store, session_id)
    if fmt == "bbcode":
        return export_bbcode(store, session_id)
    raise ValueError(f"unknown export format {fmt!r}; the formats are {', '.join(FORMATS)}")


# -- import ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Imported:
    """What an import created: the new session's number and what it holds."""

    session_id: int
    game: str
    steps: int
    status: str
    summary: str
    rules_version: int = 1
    #: One sentence when the file was taken as recorded under earlier rules (None otherwise).
    note: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.session_id,
            "game": self.game,
            "steps": self.steps,
            "status": self.status,
            "summary": self.summary,
            "rules_version": self.rules_version,
            "note": self.note,
        }


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    where = ".".join(str(p) for p in err["loc"]) or "the top level"
    # A check of ours (a ValueError) says its own sentence: without pydantic's "Value error, ".
    said = err.get("ctx", {}).get("error") if err["type"] == "value_error" else None
    msg = str(said or err["msg"]).rstrip(".")
    return f"{where}: {msg[:1].lower() + msg[1:]}"


def read_export(text: str, name: str = "the file") -> ExportModel:
    """Parse and validate an export's text (or a bug report's, for the export it carries);
    ImportRefused (one sentence) if it is not one."""
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ImportRefused(f"{name} is not valid JSON (line {exc.lineno}, column {exc.colno}).") from None
    except (UnicodeDecodeError, RecursionError):
        raise ImportRefused(f"{name} is not valid JSON.") from None
    except ValueError:
        # Python reads no whole number of more than 4300 digits (int's limit on text): no
        # export holds one.
        raise ImportRefused(
            f"{name} holds a number too long to read, so it is not a session export."
        ) from None
    if isinstance(raw, dict) and raw.get("format") == BUG_REPORT_FORMAT:
        # A bug report is read as the export it carries: a maintainer replays it as it came.
        raw = raw.get("export")
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise ImportRefused(f"{name} is not a Tabletop Companion session export.")
    steps = raw.get("steps")
    if isinstance(steps, list) and len(steps) > MAX_IMPORT_STEPS:
        # Counted before any step is read: validating them would be the wait itself.
        raise ImportRefused(
            f"{name} holds a session of {len(steps):,} steps; an import takes at most "
            f"{MAX_IMPORT_STEPS:,} (a whole Reconquista game has some 1,000), as opening more would "
            "hold the app for seconds."
        )
    version = raw.get("version")
    if isinstance(version, int) and not isinstance(version, bool) and version > FORMAT_VERSION:
        raise ImportRefused(
            f"{name} was written by a newer Tabletop Companion (format version {version}); "
            f"this one reads version {FORMAT_VERSION}: update it to import this file."
        )
    try:
        doc = ExportModel.model_validate(raw)
    except ValidationError as exc:
        raise ImportRefused(f"{name} is not a valid session export: {_first_error(exc)}.") from None
    if doc.version != FORMAT_VERSION:
        raise ImportRefused(f"{name} has format version {doc.version}, which no Tabletop Companion writes.")
    for i, step in enumerate(doc.steps, start=1):
        if step.step != i:
            raise ImportRefused(f"{name} is not a valid session export: step {i} is numbered {step.step}.")
    return doc


def _load(doc: ExportModel, name: str) -> tuple[Any, list[Any]]:
    """The game the export is of and its steps as the driver's; ImportRefused if either is unknown."""
    from companion import games
    from companion.driver import Step
    from companion.prompts import prompt_from_dict
    from companion.store.legacy import upgrade

    try:
        game = games.load(doc.session.game)
    except games.GameNotAvailable as exc:
        raise ImportRefused(f"{name} cannot be imported: {str(exc)[:1].lower()}{str(exc)[1:]}") from None
    steps = []
    for s in doc.steps:
        try:
            # Each step as this build logs it, as a migrated log has it: topics for an export
            # written before them, corrections without the label their text once carried.
            prompt = prompt_from_dict(upgrade(doc.session.game, s.prompt))
            steps.append(Step(prompt, s.answer, s.source, s.die, s.test_roll))
        except ValueError as exc:
            raise ImportRefused(f"{name} cannot be imported: step {s.step} has {exc}.") from None
    return game, steps


def _replay(doc: ExportModel, game: Any, steps: list[Any], name: str, older: bool) -> Any:
    """Replay the log to the exported state: the Driver at its end. ReplayDivergence where it
    does not, if the file was recorded under rules ``older`` than the game's (it may still be
    taken as recorded); ImportRefused (one sentence) for any other failure."""
    from companion.driver import verify
    from companion.errors import ReplayDivergence

    final = doc.final_state or None
    try:
        digests = [s.digest for s in doc.steps]
        return verify(game, doc.session.seed, doc.session.config, steps, digests, final)
    except ReplayDivergence as exc:
        if older:
            raise
        raise ImportRefused(
            f"{name} cannot be imported: its log does not replay to the exported game "
            f"({str(exc).rstrip('.')})."
        ) from None
    except CompanionError as exc:
        raise ImportRefused(f"{name} cannot be imported: {str(exc).rstrip('.')}.") from None
    except Exception as exc:  # noqa: BLE001 -- an engine failing on a crafted log must not reach the user as a traceback
        raise ImportRefused(
            f"{name} cannot be imported: the game engine failed while replaying it ({type(exc).__name__})."
        ) from None


def _replay_earlier(doc: ExportModel, game: Any, steps: list[Any], name: str) -> Any:
    """The Driver at the end of a log recorded under earlier rules that the game still plays
    (``Game.earlier_rules``), replayed to the exported game under them; None when the game no
    longer plays them or the log does not replay under them either."""
    from companion.errors import ReplayDivergence
    from companion.interface import under_rules

    earlier = under_rules(game, doc.session.rules_version)
    if earlier is None:
        return None
    try:
        return _replay(doc, earlier.game, steps, name, older=True)
    except ReplayDivergence:
        return None


def _check_as_recorded(doc: ExportModel, game: Any, steps: list[Any], name: str) -> None:
    """What can be checked of a log recorded under earlier rules beyond where the current rules
    replay it: every question is one the game can ask (``Game.asks``: a known topic, its own
    patterns, its dice), every answer fits its question, the final state has the shape of the
    game's own and is the one the last step logged. ImportRefused (one sentence) if not."""
    from companion.driver import canonical, digest
    from companion.prompts import BadAnswer

    asks = logged_asks(game)
    for s, step in zip(doc.steps, steps, strict=True):
        # What the game asks first: a pattern of its own is safe to match the answer against.
        why = asks.refusal(step.prompt)
        if why is not None:
            raise ImportRefused(f"{name} cannot be imported: step {s.step} is {why}.")
        try:
            step.prompt.check(step.answer)
        except BadAnswer as exc:
            raise ImportRefused(
                f"{name} cannot be imported: the answer of step {s.step} does not fit its question "
                f"({str(exc).rstrip('.')})."
            ) from None
    try:
        own = game.snapshot(game.new_state(doc.session.seed, doc.session.config))
    except Exception:  # noqa: BLE001 -- the replay that diverged began from the same state; a crafted config that breaks it is refused
        own = None
    where = None if own is None else misfit(doc.final_state, own)
    if own is None or where is not None:
        raise ImportRefused(
            f"{name} cannot be imported: its final state is not a state of {game.title} "
            f"({where or 'its start'} is not what the game keeps there)."
        )
    if digest(canonical(doc.final_state)) != doc.steps[-1].digest:
        raise ImportRefused(
            f"{name} cannot be imported: its final state is not the state its last step logged."
        )


def logged_asks(game: Any) -> Any:
    """What a log of ``game`` may hold: what the game asks (``Game.asks``), and the topics the
    store gives the steps an older build logged without one (companion/store/legacy.py)."""
    from dataclasses import replace

    from companion.store import legacy

    return replace(game.asks, topics=game.asks.topics | legacy.topics(game.id))


def _json_kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "number"
    return type(value).__name__


def misfit(value: Any, own: Any, where: str = "") -> str | None:
    """Where ``value`` (a state read from a file) departs from the shape of ``own`` (a state the
    game made): the path of the first part that does (``"hands"``, ``"areas.Granada"``), or
    None. Each table holds only keys ``own`` has (an empty table of ``own``: any; one whose
    values are all of a kind: any key, its value of that shape), each value the JSON kind of
    ``own``'s there or null; a list's items the kind of ``own``'s first item.
    A null of ``own`` stands for a part the game fills in later: anything fits it."""
    if own is None or value is None:
        return None
    if _json_kind(value) != _json_kind(own):
        return where or "the whole"
    if isinstance(own, dict) and own:
        # A table whose values are all of one kind maps names to them (the areas, a side's
        # units): a name it does not hold yet takes the shape of the others.
        kinds = {_json_kind(v) for v in own.values()}
        alike = next(iter(own.values())) if len(kinds) == 1 else None
        for key, item in value.items():
            at = f"{where}.{key}" if where else str(key)
            if key not in own and alike is None:
                return at[:80]
            if (bad := misfit(item, own.get(key, alike), at)) is not None:
                return bad
    if isinstance(own, list) and own:
        first = own[0]
        for i, item in enumerate(value):
            # Only the kind of a list's items (a pair kept as a list may mix kinds), and into tables.
            if _json_kind(item) != _json_kind(first) and item is not None:
                return f"{where}[{i}]"
            if isinstance(first, dict) and (bad := misfit(item, first, f"{where}[{i}]")) is not None:
                return bad
    return None


def _dice_mode(steps: list[StepModel], config: dict[str, Any]) -> str:
    """The imported session's dice mode: the one its player chose, else its dice's sources."""
    chosen = chosen_dice_mode(config)
    if chosen is not None:
        return chosen
    sources = {s.source for s in steps if (s.prompt or {}).get("kind") == "roll"}
    if not sources:
        return ""
    return sources.pop() if len(sources) == 1 else "mixed"


#: Config keys that name files on the machine a session was played on (Reconquista's --map
#: and --tables; Terra de Castells' territories and castles files).
PATH_KEYS = ("map", "tables", "territories", "castles")


def _refuse_paths(doc: ExportModel, name: str) -> None:
    """An import never opens a file the export names: a path written on another machine may
    be anything here (/dev/zero, a pipe, a private file). A session played on its own data files
    (a map, tables, territories or castles file) is refused in one sentence; one on the shipped board imports."""
    named = [key for key in PATH_KEYS if doc.session.config.get(key) is not None]
    if named:
        raise ImportRefused(
            f"{name} cannot be imported: it was played on a {' and '.join(named)} file of the machine it "
            "came from, and an import never opens a file an export names."
        )


def already_imported(store: Store, doc: ExportModel) -> int | None:
    """The session of ``store`` that holds this very export (same game, seed, start and step
    count, and the same digest at every step), if any."""
    started = _utc(doc.session.started)
    digests = [s.digest for s in doc.steps]
    for info in store.sessions(game=doc.session.game):
        if info.damaged or info.seed != doc.session.seed or info.steps != len(doc.steps):
            continue
        if _utc(info.started) != started:
            continue
        if store.log(info.id).digests == digests:
            return info.id
    return None


def import_session(store: Store, text: str, name: str = "the file", *, again: bool = False) -> Imported:
    """Check an export (format, game, replay to the exported state) and store it as a new
    session in one transaction. ImportRefused (one sentence, nothing created) if it fails, or
    if the database holds it already (copies would count twice in the statistics and the luck
    ledger), unless ``again``."""
    from companion.driver import canonical
    from companion.errors import ReplayDivergence

    doc = read_export(text, name)
    _refuse_paths(doc, name)
    if not again and (held := already_imported(store, doc)) is not None:
        raise ImportRefused(
            f"{name} is already in this database as session {held}; import it with --again to add a "
            "copy (it would count twice in the statistics and the luck ledger)."
        )
    game, steps = _load(doc, name)
    sess = doc.session
    if (
        sess.commitment is not None
        and sess.dice_nonce is not None
        and commitment(sess.seed, sess.dice_nonce) != sess.commitment
    ):
        raise ImportRefused(
            f"{name}'s seed and nonce do not give its commitment: the file was changed after it was "
            "written ('companion verify' says more)."
        )
    recorded, current = sess.rules_version, game.rules_version
    if recorded > current:
        raise ImportRefused(
            f"{name} was recorded under newer rules of {game.title} (version {recorded}) than this "
            f"Tabletop Companion plays (version {current}): update it to import this file."
        )
    last = _utc(doc.steps[-1].at) if doc.steps else _utc(sess.last_activity)
    note = None
    try:
        driver = _replay(doc, game, steps, name, older=recorded < current)
        # It replays under the current rules: it is a session of them, whatever it was recorded under.
        recorded = current
    except ReplayDivergence as divergence:
        parted = divergence
        driver = _replay_earlier(doc, game, steps, name)
    if driver is None:
        # Recorded under earlier rules that the current ones part from: taken as recorded, its
        # steps, state, status and summary as exported (docs/design.md, "The store").
        if not doc.steps:
            raise ImportRefused(f"{name} cannot be imported: {str(parted).rstrip('.')}.") from None
        _check_as_recorded(doc, game, steps, name)
        finished = sess.status == "finished"
        status, summary, state = sess.status, sess.summary, canonical(doc.final_state)
        where = f"at step {parted.step + 1}" if parted.step < len(steps) else "at its end"
        note = (
            f"It was recorded under rules version {recorded} and the current rules (version {current}) "
            f"part from its log {where}; it is kept as recorded."
        )
    else:
        finished = bool(doc.steps) and driver.finished
        summary = driver.game.summary(driver.state) if doc.steps else ""
        status = "finished" if finished else "active"
        state = canonical(driver.snapshot()) if doc.steps else "{}"
    ended = (_utc(sess.ended) if sess.ended else last) if finished else None
    session_row = {
        "game": sess.game,
        "seed": sess.seed,
        "dice_mode": _dice_mode(doc.steps, sess.config),
        "status": status,
        "started": _utc(sess.started),
        "last_activity": max(_utc(sess.last_activity), last),
        "ended": ended,
        "steps": len(doc.steps),
        "summary": summary,
        "config": json.dumps(sess.config),
        "state": state,
        "rules_version": recorded,
        "dice_nonce": sess.dice_nonce,
        "die": sess.die,
        # Never a link: the session it names is another database's (or this one's, by chance).
        "parent_id": None,
        "branch_step": sess.branch_step if sess.branch_of else None,
        "branch_of": imported(sess.branch_of) if sess.branch_of else None,
    }
    events = [
        {
            "seq": i,
            "step": i,
            "kind": "answer",
            "turn": s.turn,
            "phase": s.phase,
            # Stored as the recorder stores it: the prompt rebuilt, so its form is the app's own.
            "prompt": json.dumps(step.prompt.to_dict(), ensure_ascii=False),
            "answer": json.dumps(step.answer),
            "source": s.source,
            "digest": s.digest,
            "at": _utc(s.at),
            "die": s.die,
        }
        for i, (s, step) in enumerate(zip(doc.steps, steps, strict=True))
    ]
    new_id = store.insert_session(
        session_row,
        events,
        [i for i, s in enumerate(doc.steps) if s.test_roll],
        [(i, s.note) for i, s in enumerate(doc.steps) if s.note is not None],
    )
    return Imported(new_id, sess.game, len(doc.steps), status, summary, recorded, note)
