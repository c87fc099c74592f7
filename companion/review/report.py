"""The statistics and the luck ledger as plain text lines, for the command line."""

from __future__ import annotations

from companion.review.luck import FaceTest, LuckLedger
from companion.review.stats import Stats


def stats_lines(stats: Stats) -> list[str]:
    """The statistics, one game after another (each game's own lines)."""
    lines = [f"Statistics of {stats.scope}."]
    if any(c.count for c in stats.sessions_by_game):
        lines.append("Sessions: " + ", ".join(f"{c.label} {c.count}" for c in stats.sessions_by_game) + ".")
    for _game, figures in stats.games:
        if figures is not None:
            lines += ["", *figures.lines()]
    for game in stats.luck:
        lines += ["", *game.lines()]
    return lines


def _test_lines(t: FaceTest) -> list[str]:
    who = "Typed from the table" if t.source == "physical" else "Rolled by the app"
    if t.die is not None:
        who += f", the dice named '{t.die}'"
    if not t.dice:
        return [f"  {who}: {t.verdict}."]
    faces = "  ".join(f"{face}:{n}" for face, n in enumerate(t.counts, start=1))
    stat = (
        f"chi-square {t.chi2:.2f}, G {t.g:.2f} on {t.dof} degrees of freedom; "
        if t.chi2 is not None and t.g is not None
        else ""
    )
    return [
        f"  {who}: {t.dice:,} {'die' if t.dice == 1 else 'dice'}, {t.expected:,.3f}".rstrip("0").rstrip(".")
        + f" expected a face; {stat}{t.verdict}.",
        f"    faces {faces}",
        *(f"    {line[0].upper()}{line[1:]}." for line in t.lines()),
    ]


def luck_lines(ledger: LuckLedger) -> list[str]:
    """The ledger, one die size after another."""
    notes = [f"Note: {n}" for n in ledger.notes]
    if not ledger.dice:
        return [f"Luck ledger of {ledger.scope}: no dice rolled yet.", *notes]
    lines = [f"Luck ledger of {ledger.scope} (undone rolls not counted)."]
    for d in ledger.dice:
        lines += ["", f"d{d.sides}:"]
        for test in d.tests():
            lines += _test_lines(test)
    for game in ledger.games:
        lines += ["", *game.lines()]
    return lines + ([""] if notes else []) + notes
