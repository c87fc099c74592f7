"""The parts of a game report before any markup, shared by the Markdown and BBCode exports.

A report is a header (the game, its dates, its result, its dice), then the session's steps
grouped turn by turn and, within a turn, phase by phase. Each format (``exchange`` for
Markdown, ``bbcode`` for BoardGameGeek) lays these parts out in its own markup and escapes
the text its own way; what is grouped with what, and what the header says, is decided here
once.

The parts are read from ``exchange.export_data``'s document (plain JSON), not from the
store, so a report says what the JSON export holds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from companion.games import GameEntry, GameNotAvailable, entry
from companion.review.board_checks import checks_text, tally

#: How a roll's source reads in a report.
SOURCE_WORDS = {"physical": "typed from the table", "app": "rolled by the app"}


@dataclass(frozen=True)
class PhaseGroup:
    """The steps of one phase of a turn, under the phase's title ('' for none); ``whose``: the
    player whose turn the phase is played in, for a game whose players take turns within a
    round ('' otherwise)."""

    title: str
    steps: list[dict[str, Any]]
    whose: str = ""

    @property
    def heading(self) -> str:
        """'Phase 2: Resources', or with whose turn it is: 'Phase 2: Resources · Anna's turn'."""
        return f"{self.title} · {self.whose}'s turn" if self.title and self.whose else self.title


@dataclass(frozen=True)
class TurnGroup:
    """The steps of one turn (None: steps outside any turn, such as a setup), phase by phase."""

    turn: int | None
    phases: list[PhaseGroup]

    @property
    def steps(self) -> list[dict[str, Any]]:
        return [s for p in self.phases for s in p.steps]


@dataclass(frozen=True)
class Outline:
    """A session's report before markup: the header facts, the turns and what they are called."""

    facts: list[tuple[str, str]]
    turn_word: str
    #: False when every step falls in one phase (a Simancas hand): no phase headings then.
    show_phases: bool
    turns: list[TurnGroup]
    known: GameEntry | None
    #: Luck in game units (game_luck.py), a sentence a line; empty for a game that weighs no roll.
    luck: list[str] = field(default_factory=list)

    @property
    def success_at(self) -> int | None:
        return self.known.success_at if self.known else None


def known_game(game_id: str) -> GameEntry | None:
    """The registry's entry of ``game_id``; None for a game this version does not know."""
    try:
        return entry(game_id)
    except GameNotAvailable:
        return None


def question(prompt: dict[str, Any]) -> str:
    """A logged prompt's question or instruction, as it was worded."""
    return str(prompt.get("why") or prompt.get("text") or prompt.get("what") or "")


def check_mark(prompt: dict[str, Any], answer: Any) -> str:
    """After a board check's answer: ', as the app had' or ', the app had 2: a drift'."""
    expected = prompt.get("expected")
    return ", as the app had" if answer == expected else f", the app had {expected}: a drift"


def when(iso: str | None) -> str:
    """An exported time as a report shows it: '2026-03-14 18:01 UTC' ('' for none)."""
    if not iso:
        return ""
    return datetime.fromisoformat(iso).astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def roll_count(answer: Any, success_at: int | None) -> str:
    """' (total 9)' after a roll's faces; ' (2 successes)' in a game whose rolls count successes."""
    if not isinstance(answer, list) or not all(isinstance(d, int) for d in answer):
        return ""
    if success_at is not None:
        n = sum(1 for d in answer if d >= success_at)
        return f" ({n} success{'' if n == 1 else 'es'})"
    return f" (total {sum(answer)})" if len(answer) > 1 else ""


def dice_used(session: dict[str, Any], steps: list[dict[str, Any]]) -> str:
    """The dice of a session as they were rolled: how many typed from the table and how many
    rolled by the app (a mode chosen at the start may have changed since, with ctrl+d), after
    the mode chosen last where the game has the choice."""
    typed = sum(1 for s in steps if s.get("source") == "physical")
    rolled = sum(1 for s in steps if s.get("source") == "app")
    if not typed and not rolled:
        return "none rolled"
    parts = [
        f"{typed} typed from the table" if typed else "",
        f"{rolled} rolled by the app" if rolled else "",
    ]
    used = ", ".join(p for p in parts if p)
    return f"{session['dice_mode']}: {used}" if session.get("dice_mode") else used


def header_facts(session: dict[str, Any], steps: list[dict[str, Any]]) -> list[tuple[str, str]]:
    """The header of a report as (label, text) pairs: the game, when it started, when it ended
    (or was last played), its result (or where it stands) and its dice, as they were rolled."""
    finished = session["status"] == "finished"
    if session["ended"]:
        last = ("Ended", when(session["ended"]))
    else:
        status = "finished" if finished else "not finished"
        last = ("Last played", f"{when(session['last_activity'])} ({status})")
    facts = [
        ("Game", session["title"]),
        ("Started", when(session["started"])),
        last,
        ("Result" if finished else "Where it stands", session["summary"]),
        ("Dice", f"{dice_used(session, steps)}; {seed_text(session)}; {len(steps)} steps"),
    ]
    checked = checks_text(*tally((s.get("turn"), s.get("prompt"), s.get("answer")) for s in steps))
    if checked:
        facts.append(("Board checks", checked))
    if session.get("branch_of"):
        facts.append(("Branch of", session["branch_of"]))
    return facts


def seed_text(session: dict[str, Any]) -> str:
    """The seed as a report gives it. A session with a commitment to its seed (shown when it
    started) reveals the seed and the nonce only once it has ended, so that no one reading a
    report of a game in play can work out the app's coming dice; a session recorded before
    commitments shows its seed, as it always did."""
    committed = session.get("commitment")
    if not committed:
        return f"seed {session['seed']}"
    if session["status"] == "finished":
        return (
            f"seed {session['seed']}, nonce {session.get('dice_nonce')}, commitment {committed} "
            "('companion verify' checks them against every app roll)"
        )
    return f"commitment to the seed {committed} (the seed is revealed when the game ends)"


def whose_turn(known: GameEntry | None, step: dict[str, Any]) -> str:
    """The player whose turn ``step`` is played in, from its prompt's facts ('' if they do not
    say, or the game has no turns within a round)."""
    if known is None or known.turn_of is None or step["turn"] is None:  # a setup is nobody's turn
        return ""
    data = (step.get("prompt") or {}).get("data")
    whose = data.get(known.turn_of) if isinstance(data, dict) else None
    return whose if isinstance(whose, str) else ""


def turn_title(report: Outline, turn: TurnGroup) -> str:
    """'Turn 3', or with the name the game gives its turns: 'Round 2: century XII'."""
    title = f"{report.turn_word} {turn.turn}"
    named = report.known.turn_name if report.known else None
    if named is None:
        return title
    topic, form = named
    for s in turn.steps:
        p = s["prompt"] or {}
        if p.get("topic") == topic and isinstance(p.get("data"), dict):
            try:
                return f"{title}: {form.format_map(p['data'])}"
            except (KeyError, ValueError, TypeError, AttributeError, IndexError):
                break  # facts of another form (an imported log's): the plain title
    return title


def outline(data: dict[str, Any]) -> Outline:
    """The parts of the report of an exported session (``export_data``'s document)."""
    sess = data["session"]
    steps = data["steps"]
    known = known_game(sess["game"])

    def title_of(phase: str | None) -> str:
        if not phase:
            return ""
        return known.phase_title(phase) if known else phase[:1].upper() + phase[1:]

    # Phases are grouped by their titles: two phases of one title (a battle fought among the
    # actions) share one group.
    show_phases = len({title_of(s["phase"]) for s in steps}) > 1
    turns: list[TurnGroup] = []
    for s in steps:
        if not turns or s["turn"] != turns[-1].turn:
            turns.append(TurnGroup(s["turn"], []))
        title = title_of(s["phase"]) if show_phases else ""
        phases = turns[-1].phases
        if not phases or phases[-1].title != title:
            phases.append(PhaseGroup(title, [], whose_turn(known, s)))
        elif not phases[-1].whose and (whose := whose_turn(known, s)):
            phases[-1] = PhaseGroup(title, phases[-1].steps, whose)
        phases[-1].steps.append(s)
    from companion.review.game_luck import export_luck

    weighed = export_luck(data)
    return Outline(
        facts=header_facts(sess, steps),
        turn_word=known.turn_word if known else "Turn",
        show_phases=show_phases,
        turns=turns,
        known=known,
        # Each unit's lines name it ("2 sieges won in 3 rolls"): one list, hits first.
        luck=[line.strip() for g in weighed for line in g.lines(session=False)[1:]],
    )
