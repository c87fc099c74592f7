"""The Terra de Castells game report (``companion export --format md``): a roll gives its
successes (a 5 or 6), not the sum of its faces, and a battle fought among the actions sits
under the heading "Phase 3: Actions" of the turn it is fought in; each round is headed by its
century and each phase of a player's turn by whose turn it is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from castells_helpers import feed, setup_answers

from companion.castells.actions import ATTACK
from companion.driver import Driver
from companion.games import load
from companion.review.exchange import export_markdown
from companion.store.db import Store


def test_the_report_counts_successes_and_heads_the_battle_as_phase_3(tmp_path: Path, clock: Any) -> None:
    store = Store(str(tmp_path / "c.db"), clock=clock)
    try:
        sid = store.create_session("castells", 5)
        d = Driver(load("castells"), 5, recorder=store.recorder(sid))
        feed(d, setup_answers(["Anna", "Bo"], [0, 0], {"Anna": ["Mora"], "Bo": ["Lleida"]}))
        feed(d, ["Riu", ATTACK, "Lleida (Bo)", "", "", [5, 6, 1, 2, 3]], ack_last=False)
        feed(d, [[4, 4, 4, 4, 4]])
        lines = export_markdown(store, sid).splitlines()
    finally:
        store.close()
    rolls = [line for line in lines if line.startswith("- Roll 5d6")]
    assert rolls[0].endswith("**5 6 1 2 3** (2 successes), typed from the table")
    assert rolls[1].endswith("**4 4 4 4 4** (0 successes), typed from the table")
    assert not any("(total " in line for line in lines)
    assert "### Phase 3: Actions · Anna's turn" in lines and not any(
        line.startswith("### Battle") for line in lines
    )
    # The battle does not open a heading of its own under the actions, though its steps are
    # Bo's to roll: the phase is Anna's turn.
    assert sum(1 for line in lines if line.startswith("### Phase 3")) == 1
