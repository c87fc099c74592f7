"""Terra de Castells battles as prompt procedures, on one dice engine.

Each side rolls 5 dice (a 6th, the black superiority die, for the side with more
army in a battle between players); a 5 or 6 is a success; failed dice may be
rerolled up to 3 rolls in all. The Saracens reroll for free, always; a player pays
1 army point a reroll and chooses. The defender must match or beat the attacker's
successes. Results are told as board instructions.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from companion.castells.odds import percent, reroll_odds, reroll_odds_text
from companion.castells.state import (
    DICE,
    MAX_ROLLS,
    SARACENS,
    Battle,
    CastellsState,
    Player,
    Side,
)
from companion.prompts import Choose, Enter, Prompt, Roll, Tell

Proc = Generator[Prompt, Any, Any]

STOP = "Stop and keep these dice"
ACCEPT = "Accept the result"


def reroll_option(failed: int) -> str:
    return f"Reroll the {failed} failed {'die' if failed == 1 else 'dice'} (1 army point)"


def faces(dice: list[int]) -> str:
    return " ".join(str(d) for d in dice)


def confirm_army(player: Player, why: str) -> Proc:
    """The army points of ``player`` as they stand on the table now (Enter keeps the app's count)."""
    text = yield Enter(
        f"{why}: {player.name}'s army points now? (Enter keeps {player.army})",
        r"\d{1,2}",
        "Type the army points as a whole number from 0 to 99.",
        str(player.army),
    )
    player.army = int(text)


def first_roll(side: Side, why: str) -> Proc:
    dice = yield Roll(side.n, 6, why)
    side.dice = list(dice)
    side.history.append(list(dice))
    side.rolls = 1


def reroll(side: Side, why: str) -> Proc:
    failed = side.failed()
    dice = yield Roll(len(failed), 6, why)
    for i, face in zip(failed, dice, strict=True):
        side.dice[i] = face
    side.history.append(list(dice))
    side.rolls += 1


def saracen_rolls(side: Side, castle: str) -> Proc:
    """The Saracens' rolls: 5 dice, every failed die rerolled for free, up to 3 rolls in all."""
    yield from first_roll(side, f"The Saracens attack {castle}: roll {side.n} dice for the Saracens")
    while side.failed() and side.rolls < MAX_ROLLS:
        n = len(side.failed())
        yield from reroll(
            side,
            f"The Saracens reroll their {n} failed {'die' if n == 1 else 'dice'} for free "
            f"(roll {side.rolls + 1} of {MAX_ROLLS}; {side.successes()} successes so far)",
        )


def attacker_rolls(side: Side, player: Player, castle: str) -> Proc:
    """A player's attack: roll, then reroll the failed dice paying 1 army point each time, while it wants."""
    black = " with the black superiority die" if side.black else ""
    yield from first_roll(side, f"{player.name} attacks {castle}: roll {side.n} dice{black}")
    while side.failed() and side.rolls < MAX_ROLLS and player.army >= 1:
        n = len(side.failed())
        picked = yield Choose(
            [reroll_option(n), STOP],
            why=f"{player.name} has {side.successes()} successes (roll {side.rolls} of {MAX_ROLLS}, "
            f"army {player.army}): reroll the failed dice?",
        )
        if picked == STOP:
            break
        player.army -= 1
        side.paid += 1
        yield from reroll(
            side,
            f"{player.name} rerolls {n} failed {'die' if n == 1 else 'dice'} (roll {side.rolls + 1} of {MAX_ROLLS})",
        )


def defender_rolls(battle: Battle, player: Player) -> Proc:
    """The defender's rolls: must match or beat ``battle.target``; each reroll costs 1 army point and
    is offered, with its exact odds, only while it is short, has rolls left and an army point to pay."""
    side, target = battle.defender, battle.target or 0
    black = " with the black superiority die" if side.black else ""
    yield from first_roll(
        side, f"{player.name} defends {battle.castle}: roll {side.n} dice{black} (needs {target} successes)"
    )
    while side.successes() < target and side.rolls < MAX_ROLLS and player.army >= 1:
        failed = len(side.failed())
        need = target - side.successes()
        left = min(MAX_ROLLS - side.rolls, player.army)
        battle.odds = reroll_odds_text(need, failed, left)
        picked = yield Choose(
            [reroll_option(failed), ACCEPT],
            why=f"{player.name} has {side.successes()} of {target} successes (army {player.army}). "
            f"{battle.odds}.",
        )
        battle.odds = ""
        if picked == ACCEPT:
            break
        player.army -= 1
        side.paid += 1
        yield from reroll(
            side,
            f"{player.name} rerolls {failed} failed {'die' if failed == 1 else 'dice'} "
            f"(roll {side.rolls + 1} of {MAX_ROLLS}, needs {need} more)",
        )


def odds_before_reroll(battle: Battle, player: Player) -> tuple[str, str] | None:
    """(this reroll, every reroll left) as percentages, when the defender is about to decide; else None."""
    side, target = battle.defender, battle.target or 0
    if not side.rolls or side.successes() >= target or side.rolls >= MAX_ROLLS or player.army < 1:
        return None
    one, every = reroll_odds(
        target - side.successes(), len(side.failed()), min(MAX_ROLLS - side.rolls, player.army)
    )
    return percent(one), percent(every)


def paid_text(player: Player, side: Side) -> str:
    if not side.paid:
        return ""
    return f" {player.name} paid {side.paid} army point{'s' if side.paid > 1 else ''} for rerolls: set the army marker to {player.army}."


def saracen_battle(state: CastellsState, castle: str) -> Proc:
    """The Saracens attack ``castle`` from where they stand; the result applied and told."""
    owner = state.owners[castle]
    assert owner is not None
    defender = state.player(owner)
    battle = Battle("saracen", castle, Side(SARACENS), Side(owner))
    state.battle = battle
    yield from confirm_army(defender, f"The Saracens attack {castle}")
    yield from saracen_rolls(battle.attacker, castle)
    battle.target = battle.attacker.successes()
    if battle.target == 0:
        battle.result = "held"
        state.battles.append(f"Saracens against {owner} at {castle}: 0 successes, held")
        yield Tell(
            f"The Saracens roll no success: {castle} holds without a defence roll. No change on the board."
        )
        return
    yield from defender_rolls(battle, defender)
    got = battle.defender.successes()
    score = f"{owner} {got} against the Saracens' {battle.target}"
    if got >= battle.target:
        battle.result = "held"
        state.battles.append(f"Saracens against {owner} at {castle}: {score}, held")
        yield Tell(f"{castle} holds ({score}): no change on the board.{paid_text(defender, battle.defender)}")
        return
    battle.result = "taken"
    state.owners[castle] = None
    state.saracen = castle
    state.battles.append(f"Saracens against {owner} at {castle}: {score}, taken")
    yield Tell(
        f"The Saracens take {castle} ({score}): return {owner}'s castle on {castle} to {owner}'s reserve "
        f"and move the Saracen figure to {castle}.{paid_text(defender, battle.defender)}"
    )


def superiority(attacker: Player, defender: Player) -> str | None:
    """Who rolls the black die: "Whoever has the most army at the time of declaring the attack"; a tie, nobody."""
    if attacker.army > defender.army:
        return "attacker"
    if defender.army > attacker.army:
        return "defender"
    return None


def player_battle(state: CastellsState, attacker: Player, castle: str) -> Proc:
    """``attacker`` attacks another player's ``castle``; the result applied and told."""
    owner = state.owners[castle]
    assert owner is not None
    defender = state.player(owner)
    battle = Battle("players", castle, Side(attacker.name), Side(owner))
    state.battle = battle
    yield from confirm_army(attacker, f"{attacker.name} attacks {castle}")
    yield from confirm_army(defender, f"{attacker.name} attacks {castle}")
    black = superiority(attacker, defender)
    for who, side in (("attacker", battle.attacker), ("defender", battle.defender)):
        side.black = black == who
        side.n = DICE + (1 if side.black else 0)
    holder = {"attacker": attacker.name, "defender": owner}.get(black or "", "nobody (equal army)")
    yield Tell(
        f"Superiority: {attacker.name} has {attacker.army} army, {owner} {defender.army}: "
        f"{holder} rolls the black die."
    )
    yield from attacker_rolls(battle.attacker, attacker, castle)
    battle.target = battle.attacker.successes()
    spent = paid_text(attacker, battle.attacker)
    if battle.target == 0:
        battle.result = "held"
        state.battles.append(f"{attacker.name} against {owner} at {castle}: 0 successes, held")
        yield Tell(f"{attacker.name} rolls no success: {castle} holds. No change on the board.{spent}")
        return
    yield from defender_rolls(battle, defender)
    got = battle.defender.successes()
    score = f"{attacker.name} {battle.target}, {owner} {got}"
    spent += paid_text(defender, battle.defender)
    if got >= battle.target:
        battle.result = "held"
        state.battles.append(f"{attacker.name} against {owner} at {castle}: {score}, held")
        yield Tell(f"{castle} holds ({score}): no change on the board.{spent}")
        return
    battle.result = "taken"
    state.owners[castle] = attacker.name
    state.attack_won = True
    state.battles.append(f"{attacker.name} against {owner} at {castle}: {score}, taken")
    yield Tell(
        f"{attacker.name} takes {castle} ({score}): return {owner}'s castle to {owner}'s reserve and place "
        f"a castle of {attacker.name}'s on {castle}. {attacker.name} cannot attack again this turn.{spent}"
    )
