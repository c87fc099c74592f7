"""The statistics and the luck ledger as plain text lines, for the command line."""

from __future__ import annotations

from companion.review.luck import FaceTest, LuckLedger
from companion.review.stats import Count, Stats


def _counts(title: str, counts: tuple[Count, ...], width: int = 30) -> list[str]:
    total = sum(c.count for c in counts)
    lines = [f"  {title} ({total}):"]
    for c in counts:
        share = f"{100 * c.count / total:5.1f}%" if total else "     -"
        lines.append(f"    {c.label:<{width}} {c.count:>6}  {share}")
    return lines


def stats_lines(stats: Stats) -> list[str]:
    """The statistics, one game after another."""
    lines = [f"Statistics of {stats.scope}."]
    if any(c.count for c in stats.sessions_by_game):
        lines.append("Sessions: " + ", ".join(f"{c.label} {c.count}" for c in stats.sessions_by_game) + ".")
    r = stats.reconquista
    if r is not None:
        lines += ["", f"Reconquista: {r.sessions} sessions, {len(r.games)} finished."]
        if r.games:
            mean = r.mean_vp
            lines.append(
                f"  Victory points: mean {mean:.1f}, best {max(g.vp for g in r.games)}, "
                f"worst {min(g.vp for g in r.games)}."
            )
            lines += _counts("Results", r.results)
            lines.append("  Games, oldest first:")
            for g in r.games:
                when = f"{g.ended:%Y-%m-%d %H:%M}"
                lines.append(f'    #{g.session_id:<6} {when}  {g.vp:>3} VP  {g.result} "{g.title}"')
        lines += _counts("Rebellion results", r.rebellions)
        if r.rebellions_refused:
            lines.append(
                f"    ({r.rebellions_refused} more refused and rolled again: they would have "
                "eliminated a side's last city)"
            )
        lines += _counts("Events", r.events)
        lines += _counts("Muslim reaction: where it rose", r.reaction_regions)
        lines += _counts("Muslim reaction: reinforcements", r.reinforcements)
        lines += [f"  Note: {n}" for n in r.notes]
    s = stats.simancas
    if s is not None:
        lines += ["", f"Battle of Simancas: {s.sessions} sessions, {s.finished} matches finished."]
        lines += _counts("Hands won", s.hands)
        lines += _counts("Matches won", s.matches)
        lines += [f"  Note: {n}" for n in s.notes]
    c = stats.castells
    if c is not None:
        lines += ["", f"Terra de Castells: {c.sessions} sessions, {c.finished} finished."]
        if c.available:
            lines += _counts("Saracen battles won", c.battles)
            lines += _counts("Army points spent on rerolls", c.army_points)
        lines += [f"  Note: {n}" for n in c.notes]
    return lines


def _test_lines(t: FaceTest) -> list[str]:
    who = "Typed from the table" if t.source == "physical" else "Rolled by the app"
    if not t.dice:
        return [f"  {who}: {t.verdict}."]
    faces = "  ".join(f"{face}:{n}" for face, n in enumerate(t.counts, start=1))
    stat = f"chi-square {t.chi2:.2f} on {t.dof} degrees of freedom, " if t.chi2 is not None else ""
    return [
        f"  {who}: {t.dice:,} {'die' if t.dice == 1 else 'dice'}, {t.expected:,.3f}".rstrip("0").rstrip(".")
        + f" expected a face; {stat}{t.verdict}.",
        f"    faces {faces}",
    ]


def luck_lines(ledger: LuckLedger) -> list[str]:
    """The ledger, one die size after another."""
    notes = [f"Note: {n}" for n in ledger.notes]
    if not ledger.dice:
        return [f"Luck ledger of {ledger.scope}: no dice rolled yet.", *notes]
    lines = [f"Luck ledger of {ledger.scope} (undone rolls not counted)."]
    for d in ledger.dice:
        lines += ["", f"d{d.sides}:"]
        lines += _test_lines(d.physical)
        lines += _test_lines(d.app)
    return lines + ([""] if notes else []) + notes
