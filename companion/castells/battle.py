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

# The rulebook headings each battle step follows: the attack is the last action of "Phase 3 —
# Actions", its parts headed Superiority, Rolls, Defense and the two results; the Saracens'
# battle has a section of its own.
RULE_SUPERIORITY = "Phase 3 — Actions — Superiority"
RULE_ROLLS = "Phase 3 — Actions — Rolls"
RULE_REROLL = "Phase 3 — Actions — Rolls — May reroll failed dice by paying 1 army point"
RULE_DEFENSE = "Phase 3 — Actions — Defense"
RULE_HELD = "Phase 3 — Actions — Unfavorable result for the attacker"
RULE_TAKEN = "Phase 3 — Actions — Favorable result for the attacker"
RULE_SARACEN_ROLL = "Battle Saracens — Neither side uses the superiority die"
RULE_SARACEN_REROLL = "Battle Saracens — Saracens cast up to 3 times at no army cost"
RULE_SARACEN_DEFENCE = "Battle Saracens — the defender does have to pay"

# The codes of a reroll question's options, parallel to them (data["options"]).
REROLL, STOP_CODE, ACCEPT_CODE = "reroll", "stop", "accept"


def reroll_option(failed: int) -> str:
    return f"Reroll the {failed} failed {'die' if failed == 1 else 'dice'} (1 army point)"


def faces(dice: list[int]) -> str:
    return " ".join(str(d) for d in dice)


def _dice(n: int) -> str:
    return "die" if n == 1 else "dice"


def about(battle: Battle, side: Side, role: str) -> dict[str, Any]:
    """The facts every prompt of ``side``'s part in ``battle`` carries: which battle, who, which side."""
    return {"kind": battle.kind, "castle": battle.castle, "player": side.name, "role": role}


def confirm_army(player: Player, why: str, battle: Battle, role: str) -> Proc:
    """The army points of ``player`` as they stand on the table now (Enter keeps the app's count)."""
    side = battle.attacker if role == "attacker" else battle.defender
    text = yield Enter(
        f"{why}: {player.name}'s army points now? (Enter keeps {player.army})",
        r"\d{1,2}",
        "Type the army points as a whole number from 0 to 99.",
        str(player.army),
        topic="castells.battle.army",
        data=about(battle, side, role) | {"army": player.army},
        # Against the Saracens the army only pays the defender's rerolls; between players it also
        # decides who rolls the black die.
        rule=RULE_SARACEN_DEFENCE if battle.kind == "saracen" else RULE_SUPERIORITY,
    )
    player.army = int(text)


def first_roll(side: Side, prompt: Roll) -> Proc:
    dice = yield prompt
    side.dice = list(dice)
    side.history.append(list(dice))
    side.rolls = 1


def reroll(side: Side, prompt: Roll) -> Proc:
    failed = side.failed()
    dice = yield prompt
    for i, face in zip(failed, dice, strict=True):
        side.dice[i] = face
    side.history.append(list(dice))
    side.rolls += 1


def retried(side: Side) -> dict[str, Any]:
    """What a reroll of ``side`` retries: the failed dice's positions (0 first) and faces, and which roll it is."""
    failed = side.failed()
    return {
        "failed": len(failed),
        "positions": failed,
        "faces": [side.dice[i] for i in failed],
        "successes": side.successes(),
        "roll": side.rolls + 1,
    }


def saracen_rolls(battle: Battle, why_attack: str = "") -> Proc:
    """The Saracens' rolls: 5 dice, every failed die rerolled for free, up to 3 rolls in all;
    ``why_attack`` (why they attack this castle) opens the first roll's reason."""
    side, castle = battle.attacker, battle.castle
    facts = about(battle, side, "attacker") | {"defender": battle.defender.name}
    yield from first_roll(
        side,
        Roll(
            side.n,
            6,
            f"The Saracens attack {castle}: roll {side.n} dice for the Saracens",
            topic="castells.saracens.roll",
            data=facts | {"dice": side.n},
            rule=RULE_SARACEN_ROLL,
            reason=(f"{why_attack}; " if why_attack else "")
            + f"the Saracens roll {side.n} white dice: no superiority die in a battle with them",
        ),
    )
    while side.failed() and side.rolls < MAX_ROLLS:
        n = len(side.failed())
        yield from reroll(
            side,
            Roll(
                n,
                6,
                f"The Saracens reroll their {n} failed {_dice(n)} for free "
                f"(roll {side.rolls + 1} of {MAX_ROLLS}; {side.successes()} successes so far)",
                topic="castells.saracens.reroll",
                data=facts | retried(side),
                rule=RULE_SARACEN_REROLL,
                reason=f"the Saracens reroll every failed die for free while they have rolls left: "
                f"{n} failed after roll {side.rolls} of {MAX_ROLLS}",
            ),
        )


def attacker_rolls(battle: Battle, player: Player) -> Proc:
    """A player's attack: roll, then reroll the failed dice paying 1 army point each time, while it wants."""
    side, castle = battle.attacker, battle.castle
    facts = about(battle, side, "attacker")
    black = " with the black superiority die" if side.black else ""
    yield from first_roll(
        side,
        Roll(
            side.n,
            6,
            f"{player.name} attacks {castle}: roll {side.n} dice{black}",
            topic="castells.battle.roll",
            data=facts | {"dice": side.n, "black": side.black},
            rule=RULE_ROLLS,
        ),
    )
    while side.failed() and side.rolls < MAX_ROLLS and player.army >= 1:
        n = len(side.failed())
        picked = yield Choose(
            [reroll_option(n), STOP],
            why=f"{player.name} has {side.successes()} successes (roll {side.rolls} of {MAX_ROLLS}, "
            f"army {player.army}): reroll the failed dice?",
            topic="castells.battle.reroll",
            data=facts
            | {
                "failed": n,
                "options": [REROLL, STOP_CODE],
                "successes": side.successes(),
                "roll": side.rolls,
                "army": player.army,
            },
            rule=RULE_REROLL,
        )
        if picked == STOP:
            break
        player.army -= 1
        side.paid += 1
        yield from reroll(
            side,
            Roll(
                n,
                6,
                f"{player.name} rerolls {n} failed {_dice(n)} (roll {side.rolls + 1} of {MAX_ROLLS})",
                topic="castells.battle.paid_roll",
                data=facts | retried(side),
                rule=RULE_REROLL,
            ),
        )


def defender_rolls(battle: Battle, player: Player) -> Proc:
    """The defender's rolls: must match or beat ``battle.target``; each reroll costs 1 army point and
    is offered, with its exact odds, only while it is short, has rolls left and an army point to pay."""
    side, target = battle.defender, battle.target or 0
    facts = about(battle, side, "defender") | {"target": target}
    reroll_rule = RULE_SARACEN_DEFENCE if battle.kind == "saracen" else RULE_DEFENSE
    black = " with the black superiority die" if side.black else ""
    yield from first_roll(
        side,
        Roll(
            side.n,
            6,
            f"{player.name} defends {battle.castle}: roll {side.n} dice{black} (needs {target} successes)",
            topic="castells.battle.roll",
            data=facts | {"dice": side.n, "black": side.black},
            rule=RULE_DEFENSE,
        ),
    )
    while side.successes() < target and side.rolls < MAX_ROLLS and player.army >= 1:
        failed = len(side.failed())
        need = target - side.successes()
        left = min(MAX_ROLLS - side.rolls, player.army)
        battle.odds = reroll_odds_text(need, failed, left)
        one, every = reroll_odds(need, failed, left)
        picked = yield Choose(
            [reroll_option(failed), ACCEPT],
            why=f"{player.name} has {side.successes()} of {target} successes (army {player.army}). "
            f"{battle.odds}.",
            topic="castells.battle.reroll",
            data=facts
            | {
                "failed": failed,
                "options": [REROLL, ACCEPT_CODE],
                "successes": side.successes(),
                "roll": side.rolls,
                "army": player.army,
                "need": need,
                "rerolls_left": left,
                "chance": float(one),
                "chance_all": float(every),
            },
            rule=reroll_rule,
        )
        battle.odds = ""
        if picked == ACCEPT:
            break
        player.army -= 1
        side.paid += 1
        yield from reroll(
            side,
            Roll(
                failed,
                6,
                f"{player.name} rerolls {failed} failed {_dice(failed)} "
                f"(roll {side.rolls + 1} of {MAX_ROLLS}, needs {need} more)",
                topic="castells.battle.paid_roll",
                data=facts | retried(side) | {"need": need},
                rule=reroll_rule,
            ),
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


def outcome(battle: Battle, paid: dict[str, int]) -> dict[str, Any]:
    """The facts of a battle's result Tell: who fought where, the successes, the result, what rerolls cost."""
    rolled = battle.defender.rolls > 0
    return {
        "kind": battle.kind,
        "castle": battle.castle,
        "attacker": battle.attacker.name,
        "defender": battle.defender.name,
        "attacker_successes": battle.target,
        "defender_successes": battle.defender.successes() if rolled else None,
        "result": battle.result,
        "paid": paid,
    }


def result_reason(battle: Battle) -> str:
    """Why the castle holds or falls, from the successes the app compared."""
    saracens = battle.kind == "saracen"
    attacker = "the Saracens" if saracens else battle.attacker.name
    if not battle.target:
        return f"no success for {attacker}: any defence matches 0"
    theirs = "the Saracens'" if saracens else f"{battle.attacker.name}'s"
    got, target = battle.defender.successes(), battle.target
    if got >= target:
        return f"the defender's {got} successes match or beat {theirs} {target}"
    return f"the defender's {got} successes fall short of {theirs} {target}"


def saracen_battle(state: CastellsState, castle: str, reason: str = "") -> Proc:
    """The Saracens attack ``castle`` from where they stand; the result applied and told.
    ``reason``: why they attack that castle, for the first roll's reason."""
    owner = state.owners[castle]
    assert owner is not None
    defender = state.player(owner)
    battle = Battle("saracen", castle, Side(SARACENS), Side(owner))
    state.battle = battle
    yield from confirm_army(defender, f"The Saracens attack {castle}", battle, "defender")
    yield from saracen_rolls(battle, reason)
    battle.target = battle.attacker.successes()
    if battle.target == 0:
        battle.result = "held"
        state.battles.append(f"Saracens against {owner} at {castle}: 0 successes, held")
        yield Tell(
            f"The Saracens roll no success: {castle} holds without a defence roll. No change on the board.",
            topic="castells.battle.result",
            data=outcome(battle, {}),
            rule=RULE_HELD,
            reason=result_reason(battle),
        )
        return
    yield from defender_rolls(battle, defender)
    got = battle.defender.successes()
    score = f"{owner} {got} against the Saracens' {battle.target}"
    paid = {owner: battle.defender.paid} if battle.defender.paid else {}
    if got >= battle.target:
        battle.result = "held"
        state.battles.append(f"Saracens against {owner} at {castle}: {score}, held")
        yield Tell(
            f"{castle} holds ({score}): no change on the board.{paid_text(defender, battle.defender)}",
            topic="castells.battle.result",
            data=outcome(battle, paid),
            rule=RULE_HELD,
            reason=result_reason(battle),
        )
        return
    battle.result = "taken"
    state.owners[castle] = None
    state.saracen = castle
    state.battles.append(f"Saracens against {owner} at {castle}: {score}, taken")
    yield Tell(
        f"The Saracens take {castle} ({score}): return {owner}'s castle on {castle} to {owner}'s reserve "
        f"and move the Saracen figure to {castle}.{paid_text(defender, battle.defender)}",
        topic="castells.battle.result",
        data=outcome(battle, paid),
        rule=RULE_TAKEN,
        # The Saracens place no castle: their figure stands on the one they took.
        reason=result_reason(battle) + f"; the Saracen figure moves onto {castle}",
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
    yield from confirm_army(attacker, f"{attacker.name} attacks {castle}", battle, "attacker")
    yield from confirm_army(defender, f"{attacker.name} attacks {castle}", battle, "defender")
    black = superiority(attacker, defender)
    for who, side in (("attacker", battle.attacker), ("defender", battle.defender)):
        side.black = black == who
        side.n = DICE + (1 if side.black else 0)
    holder = {"attacker": attacker.name, "defender": owner}.get(black or "", "nobody (equal army)")
    if black is None:
        why_black = f"equal army, {attacker.army} each: in a tie no one throws it"
    else:
        more, less = (attacker, defender) if black == "attacker" else (defender, attacker)
        why_black = f"{more.name} has the most army, {more.army} against {less.army}"
    yield Tell(
        f"Superiority: {attacker.name} has {attacker.army} army, {owner} {defender.army}: "
        f"{holder} rolls the black die.",
        topic="castells.battle.superiority",
        data={
            "castle": castle,
            "attacker": attacker.name,
            "defender": owner,
            "attacker_army": attacker.army,
            "defender_army": defender.army,
            "black": black,
        },
        rule=RULE_SUPERIORITY,
        reason=why_black,
    )
    yield from attacker_rolls(battle, attacker)
    battle.target = battle.attacker.successes()
    spent = paid_text(attacker, battle.attacker)
    paid = {s.name: s.paid for s in (battle.attacker, battle.defender) if s.paid}
    if battle.target == 0:
        battle.result = "held"
        state.battles.append(f"{attacker.name} against {owner} at {castle}: 0 successes, held")
        yield Tell(
            f"{attacker.name} rolls no success: {castle} holds. No change on the board.{spent}",
            topic="castells.battle.result",
            data=outcome(battle, paid),
            rule=RULE_HELD,
            reason=result_reason(battle),
        )
        return
    yield from defender_rolls(battle, defender)
    got = battle.defender.successes()
    score = f"{attacker.name} {battle.target}, {owner} {got}"
    spent += paid_text(defender, battle.defender)
    paid = {s.name: s.paid for s in (battle.attacker, battle.defender) if s.paid}
    if got >= battle.target:
        battle.result = "held"
        state.battles.append(f"{attacker.name} against {owner} at {castle}: {score}, held")
        yield Tell(
            f"{castle} holds ({score}): no change on the board.{spent}",
            topic="castells.battle.result",
            data=outcome(battle, paid),
            rule=RULE_HELD,
            reason=result_reason(battle),
        )
        return
    battle.result = "taken"
    state.owners[castle] = attacker.name
    state.attack_won = True
    state.battles.append(f"{attacker.name} against {owner} at {castle}: {score}, taken")
    yield Tell(
        f"{attacker.name} takes {castle} ({score}): return {owner}'s castle to {owner}'s reserve and place "
        f"a castle of {attacker.name}'s on {castle}. {attacker.name} cannot attack again this turn.{spent}",
        topic="castells.battle.result",
        data=outcome(battle, paid),
        rule=RULE_TAKEN,
        reason=result_reason(battle),
    )
