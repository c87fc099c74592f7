"""The prompts a game procedure yields, and how a typed answer to each is checked.

A procedure is a generator: it yields a prompt and receives the answer. Every
front end (the TUI, the CLI, tests, replay) answers the same prompts, so the
engine cannot tell physical dice from app dice, or a live game from a replay.

Answers are plain JSON values so the log can store them as they are:
``Roll`` -> list of ints, ``Choose`` and ``Enter`` -> str, ``Tell`` -> None.

Besides its wording, every prompt says what it is, for the code that reads it:

- ``topic``: a stable dotted name (``reconquista.reaction.reinforcement``). Screens,
  statistics, the bot and the exports branch on the topic, never on the wording: an
  engine may reword a sentence and no figure changes (docs/design.md, "Prompts").
- ``data``: the facts behind the question (the region, the table column, the areas,
  the unit counts), plain JSON.
- ``rule`` and ``reason``: for a step the robot takes, the rulebook section it follows
  and why it acts so. They explain; they are logged but not compared on replay, so a
  better citation never makes a recorded game diverge. Nor is the wording of a prompt with
  a topic (``fits``, ``WORDING``): it is known by its topic, facts and answers.
- ``legacy``: the topic and data were derived from the wording of a step logged before
  prompts carried them (companion/store/legacy.py). Such a step fits the game's prompt
  when the wording is the same.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar


class BadAnswer(ValueError):
    """An answer that does not fit its prompt; the message is one sentence for a person."""


@dataclass(frozen=True, kw_only=True)
class Structured:
    """What a prompt is, beside its wording (the module docstring): keyword fields every
    prompt but an Edit has."""

    topic: str = ""
    data: dict[str, Any] = field(default_factory=dict, hash=False)
    rule: str = field(default="", compare=False)
    reason: str = field(default="", compare=False)
    legacy: bool = field(default=False, compare=False)


@dataclass(frozen=True)
class Roll(Structured):
    """Roll ``n`` dice of ``sides`` faces; the answer is the list of faces, in order."""

    kind: ClassVar[str] = "roll"

    n: int = 1
    sides: int = 6
    why: str = ""

    @property
    def label(self) -> str:
        return f"{self.n}d{self.sides}"

    def check(self, value: Any) -> list[int]:
        """Return the dice as a list of ints, or raise BadAnswer."""
        if not isinstance(value, (list, tuple)) or not all(
            isinstance(v, int) and not isinstance(v, bool) for v in value
        ):
            raise BadAnswer(f"A roll of {self.label} is a list of {self.n} whole numbers.")
        if len(value) != self.n:
            raise BadAnswer(f"{self.label} needs {self.n} {_dice(self.n)}, not {len(value)}.")
        for v in value:
            if not 1 <= v <= self.sides:
                raise BadAnswer(f"A d{self.sides} shows 1 to {self.sides}, so {v} cannot be rolled.")
        return list(value)

    def parse(self, text: str) -> list[int]:
        """Read dice typed by a person: '3 5', '3,5', or '35' when every die is one digit."""
        text = text.strip()
        if not text:
            raise BadAnswer(f"Type the {self.n} {_dice(self.n)} you rolled, or let the app roll.")
        parts = [p for p in re.split(r"[\s,;/]+", text) if p]
        if not all(_is_number(p) for p in parts):
            bad = next(p for p in parts if not _is_number(p))
            raise BadAnswer(f"'{bad}' is not a die face: type digits, like 3 5.")
        if len(parts) == 1 and self.n > 1 and self.sides <= 9 and len(parts[0]) > 1:
            # One run of digits for dice of one digit each: a digit a die ('35' for 2d6), so
            # '111' is three dice, not the number 111.
            if len(parts[0]) == self.n:
                parts = list(parts[0])
            elif len(parts[0]) <= _MAX_DIGITS:
                raise BadAnswer(f"{self.n} dice are rolled, and '{parts[0]}' gives {len(parts[0])}.")
        if long := next((p for p in parts if len(p) > _MAX_DIGITS), None):
            raise BadAnswer(
                f"A d{self.sides} shows 1 to {self.sides}, so a number of {len(long)} digits cannot be rolled."
            )
        return self.check([int(p) for p in parts])

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "n": self.n, "sides": self.sides, "why": self.why} | _structure(self)

    def describe(self) -> str:
        return f"Roll {self.label}" + (f": {self.why}" if self.why else "")


@dataclass(frozen=True)
class Choose(Structured):
    """Pick one of ``options``; the answer is the option text."""

    kind: ClassVar[str] = "choose"

    options: tuple[str, ...]
    why: str = ""

    def __init__(
        self,
        options: Iterable[Any],
        why: str = "",
        topic: str = "",
        data: Mapping[str, Any] | None = None,
        rule: str = "",
        reason: str = "",
        legacy: bool = False,
    ) -> None:
        # Any iterable of options is kept as a tuple of their texts: prompts compare equal
        # however their options were listed.
        object.__setattr__(self, "options", tuple(map(str, options)))
        object.__setattr__(self, "why", why)
        object.__setattr__(self, "topic", topic)
        object.__setattr__(self, "data", dict(data or {}))
        object.__setattr__(self, "rule", rule)
        object.__setattr__(self, "reason", reason)
        object.__setattr__(self, "legacy", legacy)
        if not self.options:
            raise ValueError("Choose needs at least one option")

    def check(self, value: Any) -> str:
        if isinstance(value, str) and value in self.options:
            return value
        raise BadAnswer(f"'{value}' is not one of the choices: {', '.join(self.options)}.")

    def parse(self, text: str) -> str:
        """Accept an option by its text (any case) or by its number in the list, 1 first."""
        text = text.strip()
        if _is_number(text) and len(text) <= _MAX_DIGITS and 1 <= int(text) <= len(self.options):
            return self.options[int(text) - 1]
        folded = {o.casefold(): o for o in self.options}
        if text.casefold() in folded:
            return folded[text.casefold()]
        raise BadAnswer(f"'{text}' is not one of the choices: {', '.join(self.options)}.")

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "options": list(self.options), "why": self.why} | _structure(self)

    def describe(self) -> str:
        return (self.why or "Choose") + f" ({' / '.join(self.options)})"


@dataclass(frozen=True)
class Tell(Structured):
    """An instruction for the physical board; the answer is an acknowledgement (None)."""

    kind: ClassVar[str] = "tell"

    text: str

    def check(self, value: Any) -> None:
        if value is not None:
            raise BadAnswer("An instruction is only acknowledged; it takes no answer.")
        return

    def parse(self, text: str) -> None:
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text} | _structure(self)

    def describe(self) -> str:
        return self.text


@dataclass(frozen=True)
class Enter(Structured):
    """Free text that must match ``pattern`` (a regular expression, matched whole).

    ``hint`` is the sentence shown when the text does not match; an empty answer
    takes ``default`` when there is one.
    """

    kind: ClassVar[str] = "enter"

    why: str
    pattern: str
    hint: str
    default: str = ""

    def check(self, value: Any) -> str:
        if not isinstance(value, str) or not re.fullmatch(self.pattern, value.strip()):
            raise BadAnswer(self.hint)
        return value.strip()

    def parse(self, text: str) -> str:
        text = text.strip() or self.default
        return self.check(text)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "why": self.why,
            "pattern": self.pattern,
            "hint": self.hint,
            "default": self.default,
        } | _structure(self)

    def describe(self) -> str:
        return self.why


@dataclass(frozen=True)
class Check(Structured):
    """A board check: a spot question about the physical table, asked between the game's own
    questions ("How many Muslim armies are in Granada on your table?"). Logged like an answer
    and never given to the game: it changes nothing, and the replay passes over it. The answer
    is what the table shows, as text; ``expected`` is what the app has. ``options``: the
    answers a question of who takes (the players, "nobody"); none: a count, 0 to 99."""

    kind: ClassVar[str] = "check"

    why: str
    expected: str
    options: tuple[str, ...] = ()

    def check(self, value: Any) -> str:
        text = value.strip() if isinstance(value, str) else ""
        if self.options:
            found = next((o for o in self.options if o.casefold() == text.casefold()), None)
            if found is None:
                raise BadAnswer(f"Type what your table shows: {', '.join(self.options)}.")
            return found
        if not (text.isascii() and text.isdigit() and len(text) <= 2):
            raise BadAnswer("Type the number your table shows, 0 to 99.")
        return str(int(text))

    def parse(self, text: str) -> str:
        return self.check(text)

    def matched(self, answer: Any) -> bool:
        """Whether the table (``answer``) agrees with the app."""
        return bool(answer == self.expected)

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "why": self.why,
            "expected": self.expected,
            "options": list(self.options),
        } | _structure(self)

    def describe(self) -> str:
        return self.why


@dataclass(frozen=True)
class Edit:
    """A change the player made on the table by hand, outside the game's questions: a
    manual correction. It is logged like an answer (its answer is None) and replayed in
    its place; ``change`` is the game's own description of it, as canonical JSON text."""

    kind: ClassVar[str] = "edit"
    #: A correction by hand is one kind of step in every game; what it changed is ``change``.
    topic: ClassVar[str] = "edit"
    rule: ClassVar[str] = ""
    reason: ClassVar[str] = ""

    what: str
    change: str

    @property
    def data(self) -> dict[str, Any]:
        loaded: dict[str, Any] = json.loads(self.change)
        return loaded

    def check(self, value: Any) -> None:
        if value is not None:
            raise BadAnswer("A manual correction takes no answer.")
        return

    def parse(self, text: str) -> None:
        return None

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "what": self.what, "change": json.loads(self.change)}

    def describe(self) -> str:
        return self.what


#: What the reports and messages call an Edit: "Correction by hand: Tortosa is now Anna's". The
#: logged text is the change alone ("Tortosa is now Anna's"); a log marks it ✎. (A correction
#: logged by an earlier build carried the label in its text too: migration 0005 and the import
#: of an older export drop it, companion/store/legacy.py.)
CORRECTION = "Correction by hand"


def edit_prompt(what: str, change: dict[str, Any]) -> Edit:
    """An Edit whose change is written canonically, so equal changes compare equal."""
    return Edit(what, json.dumps(change, sort_keys=True, separators=(",", ":"), ensure_ascii=False))


Prompt = Roll | Choose | Tell | Enter | Edit | Check
Answer = list[int] | str | None


def prompt_from_dict(data: dict[str, Any]) -> Prompt:
    """Rebuild a prompt from its logged form; raise ValueError on anything else."""
    if not isinstance(data, dict):
        raise ValueError("a question that is not one")  # noqa: TRY004 -- callers read ValueError as "cannot be read"
    kind = data.get("kind")
    try:
        if kind == "edit":
            return edit_prompt(str(data["what"]), dict(data["change"]))
        about = _structure_from(data)
        if kind == "roll":
            return Roll(int(data["n"]), int(data["sides"]), str(data.get("why", "")), **about)
        if kind == "choose":
            return Choose(list(data["options"]), str(data.get("why", "")), **about)
        if kind == "tell":
            return Tell(str(data["text"]), **about)
        if kind == "check":
            options = data.get("options", [])
            if not isinstance(options, list) or not all(isinstance(o, str) for o in options):
                raise ValueError("a logged board check whose answers are not text")
            return Check(str(data["why"]), str(data["expected"]), tuple(options), **about)
        if kind == "enter":
            return Enter(
                str(data["why"]),
                str(data["pattern"]),
                str(data["hint"]),
                str(data.get("default", "")),
                **about,
            )
    except (KeyError, TypeError) as exc:
        raise ValueError(f"a logged {kind} prompt lacks a field: {exc}") from None
    raise ValueError(f"unknown prompt kind {kind!r}")


def _structure(prompt: Structured) -> dict[str, Any]:
    """The logged form of what a prompt is (its topic, data, rule and reason); empty parts
    are left out, so a prompt without them logs as it always did."""
    out: dict[str, Any] = {}
    if prompt.topic:
        out["topic"] = prompt.topic
    if prompt.data:
        out["data"] = plain_data(prompt.data)  # TypeError on a value JSON does not hold
    if prompt.rule:
        out["rule"] = prompt.rule
    if prompt.reason:
        out["reason"] = prompt.reason
    if prompt.legacy:
        out["legacy"] = True
    return out


def _structure_from(data: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments rebuilding a logged prompt's structure (see ``_structure``);
    ValueError when its data is not a table of plain JSON facts (JSON text may say NaN)."""
    facts = data.get("data", {})
    kind = data.get("kind")
    if not isinstance(facts, dict):
        # ValueError, as every refusal of prompt_from_dict: its callers name the step with it.
        raise ValueError(f"a logged {kind} prompt whose data is not a table of facts")  # noqa: TRY004
    try:
        facts = plain_data(facts)
    except TypeError:
        raise ValueError(f"a logged {kind} prompt whose data holds a value JSON does not") from None
    return {
        "topic": str(data.get("topic", "")),
        "data": facts,
        "rule": str(data.get("rule", "")),
        "reason": str(data.get("reason", "")),
        "legacy": data.get("legacy") is True,
    }


def plain_data(data: Mapping[str, Any]) -> dict[str, Any]:
    """``data`` as the log gives it back: JSON values only, tuples as lists and keys as text,
    so a prompt an engine yields compares equal to the same prompt read from the log.
    TypeError on anything JSON does not hold."""
    if not data:
        return {}
    # Written out rather than a JSON round trip, with the plain values passed as they are.
    return {k if type(k) is str else _plain_key(k): _plain(v) for k, v in data.items()}


#: The values JSON holds as they are (bool is an int; a float is checked apart).
_SCALARS = (str, int, bool, type(None))


def _plain(value: Any) -> Any:
    kind = type(value)
    if kind in _SCALARS:
        return value
    if kind is float:
        if value != value or value in (float("inf"), float("-inf")):
            raise TypeError(f"a prompt's data holds a number JSON does not: {value}")
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k if type(k) is str else _plain_key(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (str, int, float)):  # a subclass (an enum of str): as the JSON it writes
        return json.loads(json.dumps(value))
    raise TypeError(f"a prompt's data holds a {kind.__name__}, which JSON does not")


def _plain_key(key: Any) -> str:
    """A key as JSON writes it: 1 -> "1", True -> "true", None -> "null"."""
    if isinstance(key, str):
        return str(key)
    if key is None or isinstance(key, (bool, int, float)):
        return json.dumps(key)
    raise TypeError(f"a prompt's data has a {type(key).__name__} key, which JSON does not")


#: The fields of each kind of prompt that are its wording: a prompt with a topic is known by
#: its topic, its facts and what its answer must be (a choice's options, the dice, a text's
#: pattern), not by these.
WORDING: dict[str, tuple[str, ...]] = {
    "roll": ("why",),
    "choose": ("why",),
    "tell": ("text",),
    "enter": ("why", "hint"),
}


def fits(logged: Prompt, asked: Prompt) -> bool:
    """Whether a logged step answers the prompt the game asks now: the same question, known by
    its topic, its facts (``data``, as JSON gives it back: a tuple is a list) and what its
    answer must be, whatever its wording (an engine may reword any sentence: docs/design.md,
    "Prompts"); ``asked`` may give facts the logged one did not (the game has learnt to give
    them since: the movement menus' "done"), never another value of one it gave nor fewer.
    A prompt without a topic is known by its wording too, and a step logged before prompts
    carried topics (``legacy``) by its wording alone."""
    if logged == asked:
        return True
    if isinstance(logged, Edit) or isinstance(asked, Edit) or type(logged) is not type(asked):
        return False
    if logged.legacy:
        return replace(logged, topic=asked.topic, data=asked.data) == asked
    then, now = plain_data(logged.data), plain_data(asked.data)
    if not all(k in now and now[k] == v for k, v in then.items()):
        return False
    words = {f: getattr(asked, f) for f in WORDING[asked.kind]} if asked.topic else {}
    return replace(logged, data=asked.data, **words) == asked


def answer_text(answer: Answer, none: str = "") -> str:
    """An answer as a person reads it in a log: dice as '3 5', a choice or text as it is,
    an acknowledgement as ``none``."""
    if answer is None:
        return none
    if isinstance(answer, list):
        return " ".join(str(a) for a in answer)
    return str(answer)


#: Digits enough for any face, count or number in a list a prompt takes. A longer number is
#: refused before int() reads it: int() of thousands of digits is slow, and past 4300 digits it
#: raises a ValueError of its own, which reached the screens as a traceback.
_MAX_DIGITS = 18


def _is_number(text: str) -> bool:
    """ASCII digits only: str.isdigit() also takes '²', which int() refuses."""
    return text.isascii() and text.isdigit()


def _dice(n: int) -> str:
    return "die" if n == 1 else "dice"


__all__ = [
    "Answer",
    "BadAnswer",
    "Choose",
    "Enter",
    "Prompt",
    "Roll",
    "Tell",
    "answer_text",
    "fits",
    "plain_data",
    "prompt_from_dict",
]
