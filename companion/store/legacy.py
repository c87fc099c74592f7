"""Steps logged by an older version, as this one logs them: the one place that reads old wording.

Until prompts carried a ``topic`` and ``data`` (companion/prompts.py), the statistics told a
table roll from another by the start of its question ("Rebellions: table die for ..."). A
step logged then is given its topic once, here: by migration 0004 for the steps already in a
database, and by the import of an export written before topics. The wordings matched below are
those the engines wrote at the time; they are frozen with this module, which no engine change
need touch: a replay gives an old step the topic the game asks with now (``prompts.fits``).

A step is given the topic and the facts the statistics read (the table column, whether a roll
was asked again, what each option of a reroll question means, a battle's kind, castle and
result); any other step gets
``<game>.legacy.<kind>``. Either way the prompt is marked ``legacy``, so it fits the game's
prompt by its wording alone.

A correction by hand logged by an earlier build (before schema 0005) carried its label in its
own text ("Correction by hand: Tortosa is now Anna's"); the displays add the label now, so such
a text is given without it (``unlabelled``): by migration 0005, and by the import of an export
written then.
"""

from __future__ import annotations

import re
from typing import Any

#: A roll asked again says so after its question: "<question>, rolled again (<why>)".
_AGAIN = ", rolled again ("

#: The Reconquista table rolls, by the start of their question.
_RECONQUISTA_ROLLS = (
    ("Rebellions: table die for ", "reconquista.rebellions.table"),
    ("Events: 2D6", "reconquista.events.roll"),
    ("Muslim reaction: region die", "reconquista.reaction.region"),
    ("Muslim reaction: reinforcement table, column ", "reconquista.reaction.reinforcement"),
)

#: The reinforcement table's columns as the question named them: -1 North Africa, 0-3 the cities.
_COLUMNS = (
    ("column North Africa", -1),
    ("column '0 cities'", 0),
    ("column '1 city'", 1),
    ("column '2 cities'", 2),
    ("column '3 or more cities'", 3),
)

#: Terra de Castells: the paid reroll of failed dice, and the two answers beside it.
_REROLL = re.compile(r"Reroll the (\d+) failed (?:die|dice) \(1 army point\)")
_REROLL_OTHERS = {"Stop and keep these dice": "stop", "Accept the result": "accept"}


#: Terra de Castells: a battle's result as its instruction told it, by its start: the castle
#: (a name of the board's, never with a parenthesis) taken or held, and by whom. "The Saracens
#: take" comes first: it would otherwise read as a player named "The Saracens". A castle held
#: after a defence roll ("Mora holds (Anna 2, Bo 2): ...") was a Saracen battle when its score
#: is against the Saracens ("Tortosa holds (Anna 1 against the Saracens' 1): ..."). A name is
#: read up to the first word that ends it (" takes "), so no text is scanned more than a few times.
_RESULTS = (
    (re.compile(r"The Saracens take (?P<castle>[^(]+) \("), "saracen", "taken"),
    (
        re.compile(r"The Saracens roll no success: (?P<castle>[^(]+?) holds without a defence roll\."),
        "saracen",
        "held",
    ),
    (re.compile(r"(?P<castle>[^(]+?) holds without a defence roll: "), "saracen", "held"),
    (
        re.compile(
            r"(?P<castle>[^(]+?) holds \((?=.* against the Saracens' \d+(?:, as a favour card says)?\): )"
        ),
        "saracen",
        "held",
    ),
    (re.compile(r"(?P<castle>[^(]+?) holds \("), "players", "held"),
    (
        re.compile(r"(?:(?! rolls no success: ).)+ rolls no success: (?P<castle>[^(]+?) holds\. "),
        "players",
        "held",
    ),
    (re.compile(r"(?P<castle>[^(]+?) holds\. No change on the board\."), "players", "held"),
    (
        re.compile(r"(?P<attacker>(?:(?! takes ).)+) takes (?P<castle>[^(]+) \((?P=attacker) \d"),
        "players",
        "taken",
    ),
)


#: The longest text read as a battle's result: the longest the engine wrote is under 400
#: characters (long names, two payments). The patterns backtrack over their names, so a text
#: of thousands of characters (a damaged or hostile import) would take seconds; none is a result.
_LONGEST_RESULT = 1000


#: How a correction by hand's logged text began before schema 0005 (prompts.CORRECTION is what
#: the displays add now; this is the old wording, frozen here with the rest).
_OLD_CORRECTION_LABEL = "Correction by hand: "


def upgrade(game: str, prompt: dict[str, Any]) -> dict[str, Any]:
    """``prompt`` (a logged prompt's JSON object) as this version logs it: its topic derived
    (``derive``) and a correction's old label dropped (``unlabelled``)."""
    return unlabelled(derive(game, prompt))


def unlabelled(prompt: dict[str, Any]) -> dict[str, Any]:
    """A logged correction by hand without the label its text carried before schema 0005; any
    other prompt (or a correction logged since) is returned as it is."""
    what = prompt.get("what")
    if (
        prompt.get("kind") != "edit"
        or not isinstance(what, str)
        or not what.startswith(_OLD_CORRECTION_LABEL)
    ):
        return prompt
    return dict(prompt) | {"what": what.removeprefix(_OLD_CORRECTION_LABEL)}


def derive(game: str, prompt: dict[str, Any]) -> dict[str, Any]:
    """``prompt`` (a logged prompt's JSON object, without a topic) with its topic, its facts and
    ``legacy`` set. A prompt an earlier derivation found no topic for (``<game>.legacy.<kind>``)
    is looked at again, since this one may find more (migration 0006); any other prompt with a
    topic, or a correction, is returned as it is, the very object."""
    kind = prompt.get("kind")
    if kind == "edit" or not isinstance(kind, str):
        return prompt
    if "topic" in prompt and not (prompt.get("legacy") is True and prompt["topic"] in topics(game)):
        return prompt
    topic, data = _topic(game, kind, prompt)
    if topic == prompt.get("topic"):
        return prompt
    out = dict(prompt) | {"topic": topic, "legacy": True}
    if data:
        out["data"] = data
    return out


def _topic(game: str, kind: str, prompt: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    why = prompt.get("why")
    why = why if isinstance(why, str) else ""
    if game == "reconquista" and kind == "roll":
        for start, topic in _RECONQUISTA_ROLLS:
            if why.startswith(start):
                data: dict[str, Any] = {"again": _AGAIN in why}
                if topic == "reconquista.reaction.reinforcement":
                    column = next((c for name, c in _COLUMNS if name in why), None)
                    if column is not None:
                        data["column"] = column
                return topic, data
    if game == "castells" and kind == "choose":
        options = prompt.get("options")
        options = [str(o) for o in options] if isinstance(options, list) else []
        paid = [m for o in options if (m := _REROLL.fullmatch(o))]
        if paid:
            codes = ["reroll" if _REROLL.fullmatch(o) else _REROLL_OTHERS.get(o, "other") for o in options]
            return "castells.battle.reroll", {"failed": int(paid[0][1]), "options": codes}
    text = prompt.get("text")
    if game == "castells" and kind == "tell" and isinstance(text, str) and len(text) <= _LONGEST_RESULT:
        for pattern, battle, result in _RESULTS:
            if found := pattern.match(text):
                return "castells.battle.result", {"kind": battle, "castle": found["castle"], "result": result}
    return f"{_word(game)}.legacy.{_word(kind)}", {}


#: The kinds of prompt a step without a topic is given ``<game>.legacy.<kind>`` for.
KINDS = ("roll", "choose", "tell", "enter")


def topics(game: str) -> frozenset[str]:
    """The topics ``derive`` may give a step of ``game`` it finds no topic for: whatever else the
    game asks, a log of an older build may hold these."""
    return frozenset(f"{_word(game)}.legacy.{kind}" for kind in KINDS)


def _word(text: str) -> str:
    """``text`` as one segment of a topic (lowercase letters, digits, underscores)."""
    word = re.sub(r"[^a-z0-9_]", "_", text.casefold()) or "unknown"
    return word if word.isascii() else "unknown"
