"""A session as a BoardGameGeek session report: BGG's forum markup (BBCode), ready to paste.

``companion export ID --format bbcode`` (``exchange.export_bbcode``) writes the report the Markdown export writes, with
the same header and the same turn and phase groups (companion/review/sections.py), in the
markup of BoardGameGeek's forums: the game, its dates and result, its luck in the game's
units where the game weighs its rolls (game_luck.py), then turn by turn (hand
by hand, round by round) and phase by phase every roll with its faces in brackets
(``[3 5]``), the robot's moves under the robot's name, the player's decisions and the
board instructions.

Only a small subset of BGG's markup is written, tags its forums have taken for years:
``[b]``, ``[i]``, ``[u]``, ``[size=N]`` and ``[hr]``. A list is lines that start with a
bullet rather than list tags, whose spelling forum engines disagree on.

BGG's markup has no escape character. Text from users and files (a player's name, a Dice
tray label, an imported log's questions and answers, the session's summary) goes through
``bb``: each '[' in it is followed by a zero-width space (U+200B), which a reader does not
see but which keeps ``[b]`` or ``[url=...]`` from being read as a tag; and a '<' followed
by anything but a space gets a space after it, as BGG has been known to cut a post at a '<'
that could open an HTML tag (docs/design.md, "Review"). Control characters are written as
visible escapes, as in every export.
"""

from __future__ import annotations

import json
import re
from typing import Any

from companion import __version__
from companion.prompts import CORRECTION, answer_text
from companion.review.sections import (
    SOURCE_WORDS,
    Outline,
    check_mark,
    outline,
    question,
    roll_count,
    turn_title,
)
from companion.text import upper_first, visible

#: What follows each '[' of a user's text: a zero-width space, so no tag can open.
ZERO_WIDTH_SPACE = "\u200b"
_HTML_START = re.compile(r"<(?=\S)")
#: The bullet of a step's line.
BULLET = "•"


def bb(text: str) -> str:
    """``text`` safe in BGG's markup: shown as written, never read as a tag (the module
    docstring)."""
    return _HTML_START.sub("< ", text.replace("[", "[" + ZERO_WIDTH_SPACE))


def _robot(report: Outline, prompt: dict[str, Any]) -> str:
    """The robot's name ('The Moors') when ``prompt`` is one of its moves (by its topic), else ''."""
    known = report.known
    topic = prompt.get("topic")
    if known and known.robot and isinstance(topic, str) and topic.startswith(known.robot_topics):
        return upper_first(known.robot)
    return ""


def _step_line(s: dict[str, Any], report: Outline) -> str:
    p = s["prompt"] or {}
    kind = p.get("kind")
    answer = s["answer"]
    if kind == "roll":
        why = f" ({bb(p['why'])})" if p.get("why") else ""
        dice = bb(f"{p.get('n')}d{p.get('sides')}")
        count = roll_count(answer, report.success_at)
        source = bb(SOURCE_WORDS.get(s["source"], s["source"] or ""))
        return f"{BULLET} Roll {dice}{why}: [b][{bb(answer_text(answer))}][/b]{count}, {source}"
    if kind == "choose":
        return f"{BULLET} Decision ({bb(question(p))}): [b]{bb(answer_text(answer))}[/b]"
    if kind == "enter":
        return f"{BULLET} Entered ({bb(question(p))}): [b]{bb(answer_text(answer))}[/b]"
    if kind == "check":
        mark = bb(check_mark(p, answer))
        return f"{BULLET} Board check ({bb(question(p))}): [b]{bb(answer_text(answer))}[/b]{mark}"
    if kind == "tell" and (robot := _robot(report, p)):
        return f"{BULLET} [b]{bb(robot)}:[/b] {bb(question(p))}"
    if kind == "tell":
        return f"{BULLET} Board: {bb(question(p))}"
    if kind == "edit":
        return f"{BULLET} {CORRECTION}: {bb(question(p))}"
    return f"{BULLET} {bb(json.dumps(p, ensure_ascii=False))}: {bb(answer_text(answer))}"


def bbcode_report(data: dict[str, Any]) -> str:
    """The BoardGameGeek session report (the module docstring) of an exported session
    (``exchange.export_data``'s document)."""
    sess = data["session"]
    report = outline(data)
    lines = [f"[size=18][b]{bb(sess['title'])}: session {sess['id']}[/b][/size]", ""]
    lines += [f"[b]{label}:[/b] {bb(text)}" for label, text in report.facts]
    if report.luck:  # luck in the game's own units (game_luck.py)
        lines += ["", "[b]Luck[/b]", *(f"{BULLET} {bb(line)}" for line in report.luck)]
    for turn in report.turns:
        if turn.turn is not None:
            lines += ["", "[hr]", f"[size=14][b]{bb(turn_title(report, turn))}[/b][/size]"]
        for phase in turn.phases:
            lines.append("")
            if phase.title:
                lines.append(f"[u]{bb(phase.heading)}[/u]")
            for s in phase.steps:
                lines.append(_step_line(s, report))
                if s.get("note"):  # the player's note on the step
                    lines.append(f"    [i]Note: {bb(' / '.join(s['note'].splitlines()))}[/i]")
    lines += [
        "",
        "[hr]",
        f"[size=8][i]Written by Tabletop Companion {bb(__version__)} from the session's log.[/i][/size]",
    ]
    return visible("\n".join(lines) + "\n")
