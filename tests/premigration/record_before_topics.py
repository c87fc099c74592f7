"""How tests/premigration/before-topics.sqlite and its figures were made (kept to read).

Run with the app as it was just before prompts carried topics (schema revision 0003; commit
99e17c5 of this repository), from the repository root:

    python tests/premigration/record_before_topics.py OUT.sqlite OUT-figures.json

It records three whole Reconquista games (the simple bot, app dice), one left half way with two
undos and a correction of a rebellion table roll, three Terra de Castells games and a Dice tray
session, then writes the statistics and the luck ledger that app worked out on them (the
statistics then told the table rolls by the wording of their questions).
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import sys

sys.path.insert(0, "tests")

from test_review_helpers import advance, auto, castells_chooser, new_driver, reconquista_chooser

from companion.review.luck import luck
from companion.review.stats import statistics
from companion.store.db import Store


class Clock:
    """Seven seconds a step from 1 November 2026: the file is the same on every run."""

    def __init__(self) -> None:
        self.t = datetime.datetime(2026, 11, 1, 10, 0, 0, tzinfo=datetime.UTC)

    def __call__(self) -> datetime.datetime:
        self.t += datetime.timedelta(seconds=7)
        return self.t


def main(out: str, figures: str) -> None:
    store = Store(out, clock=Clock())
    for seed in (3, 11, 12):
        _, d = new_driver(store, "reconquista", seed)
        advance(d, reconquista_chooser(d, seed))
    _, d = new_driver(store, "reconquista", 5)
    choose = reconquista_chooser(d, 5)
    for _ in range(120):
        auto(d, choose)
    d.undo()
    d.undo()
    first = next(
        i
        for i, s in enumerate(d.steps)
        if s.prompt.kind == "roll" and s.prompt.why.startswith("Rebellions: table die")  # type: ignore[union-attr]
    )
    d.correct(first, [3], "physical")
    for _ in range(80):
        if d.pending is None:
            break
        auto(d, choose)
    for seed in (2, 4, 9):
        _, d = new_driver(store, "castells", seed)
        choose = castells_chooser(seed)
        for _ in range(3000):
            if d.pending is None:
                break
            auto(d, choose)
    _, d = new_driver(store, "dice", 1)
    for typed in ("2d6 Attack", "3 5", "1d20 save", "17"):
        d.type(typed)
    result = {"statistics": dataclasses.asdict(statistics(store)), "luck": dataclasses.asdict(luck(store))}
    store.close()
    with open(figures, "w", encoding="utf-8") as f:
        json.dump(result, f, indent=1, default=str, ensure_ascii=False)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
