"""Terra de Castells battles as prompt procedures, on one dice engine.

Each side rolls 5 dice (a 6th, the black superiority die, for the side with more
army in a battle between players); a 5 or 6 is a success; failed dice may be
rerolled up to 3 rolls in all. The Saracens reroll for free, always; a player pays
1 army point a reroll and chooses. The defender must match or beat the attacker's
successes. Results are told as board instructions.
"""

from __future__ import annotations

from collections.abc import Generator
from fractions import Fraction
from typing import Any

from companion.castells.odds import attack_odds, percent, reach, reroll_odds, reroll_odds_text
from companion.castells.state import (
    DICE,
    MAX_ROLLS,
    SARACENS,
    Battle,
    BattleRecord,
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
RULE_FAVOUR_C = "Phase 3 — Actions — Play a favor card — Cards with C are only played during combat"
APPLY = "Apply the result"
CARD = "A favour card changes the battle"

# The codes of a reroll question's options, parallel to them (data["options"]).
REROLL, STOP_CODE, ACCEPT_CODE = "reroll", "stop", "accept"


def reroll_option(failed: int) -> str:
    return f"Reroll the {failed} failed {'die' if failed == 1 else 'dice'} (1 army point)"


def successes_text(n: int) -> str:
    """'1 success', '3 successes'."""
    return f"{n} success{'' if n == 1 else 'es'}"


def faces(dice: list[int]) -> str:
    return " ".join(str(d) for d in dice)


def _dice(n: int) -> str:
    return "die" if n == 1 else "dice"


def about(battle: Battle, side: Side, role: str) -> dict[str, Any]:
    """The facts every prompt of ``side``'s part in ``battle`` carries: which battle, who, which side."""
    return {"kind": battle.kind, "castle": battle.castle, "player": side.name, "role": role}


#: Army points as the player types them: 0 to 99.
ARMY_PATTERN = r"\d{1,2}"


def confirm_army(player: Player, why: str, battle: Battle, role: str) -> Proc:
    """The army points of ``player`` as they stand on the table now (Enter keeps the app's count)."""
    side = battle.attacker if role == "attacker" else battle.defender
    text = yield Enter(
        f"{why}: {player.name}'s army points now? (Enter keeps {player.army})",
        ARMY_PATTERN,
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
                f"(roll {side.rolls + 1} of {MAX_ROLLS}; {successes_text(side.successes())} so far)",
                topic="castells.saracens.reroll",
                data=facts | retried(side),
                rule=RULE_SARACEN_REROLL,
                reason=f"the Saracens reroll every failed die for free while they have rolls left: "
                f"{n} failed after roll {side.rolls} of {MAX_ROLLS}",
            ),
        )


def defender_rolls_at_most(defender: Player) -> int:
    """The rolls the defender can make: the first, and one reroll for each army point, 3 in all."""
    return min(MAX_ROLLS, 1 + defender.army)


def attacker_rolls(battle: Battle, player: Player, defender: Player) -> Proc:
    """A player's attack: roll, then reroll the failed dice paying 1 army point each time, while it
    wants; each choice shows the chance to take the castle if it stops and after the reroll."""
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
        stop, again = attack_odds(side.successes(), n, battle.defender.n, defender_rolls_at_most(defender))
        battle.odds = attack_odds_text(player, defender, stop, again)
        picked = yield Choose(
            [reroll_option(n), STOP],
            why=f"{player.name} has {successes_text(side.successes())} (roll {side.rolls} of {MAX_ROLLS}, "
            f"army {player.army}): reroll the failed dice? {battle.odds}.",
            topic="castells.battle.reroll",
            data=facts
            | {
                "failed": n,
                "options": [REROLL, STOP_CODE],
                "successes": side.successes(),
                "roll": side.rolls,
                "army": player.army,
                "chance_stop": float(stop),
                "chance_reroll": float(again),
            },
            rule=RULE_REROLL,
            reason=f"the chances to take {castle} count {defender.name} rerolling whenever short "
            f"while it can pay (army {defender.army}): its best defence",
        )
        battle.odds = ""
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
    black = " with the black superiority die" if side.black else ""
    rolls = defender_rolls_at_most(player)
    one, every = reach(target, side.n, 1), reach(target, side.n, rolls)
    yield from first_roll(
        side,
        Roll(
            side.n,
            6,
            f"{player.name} defends {battle.castle}: roll {side.n} dice{black} (needs {successes_text(target)})",
            topic="castells.battle.roll",
            data=facts
            | {"dice": side.n, "black": side.black, "chance": float(one), "chance_all": float(every)},
            rule=RULE_DEFENSE,
            reason=f"chance to match or beat {target}: {percent(one)} on this roll"
            + (
                f", {percent(every)} with every reroll {player.name} can pay (army {player.army})"
                if rolls > 1
                else ""
            ),
        ),
    )
    yield from defender_rerolls(battle, player)


def defender_rerolls(battle: Battle, player: Player) -> Proc:
    """The defender's paid rerolls, offered with their odds while it is short of ``battle.target``
    (a favour card's successes counted), has rolls left and an army point to pay."""
    side, target = battle.defender, battle.target or 0
    facts = about(battle, side, "defender") | {"target": target}
    reroll_rule = RULE_SARACEN_DEFENCE if battle.kind == "saracen" else RULE_DEFENSE
    while side.total() < target and side.rolls < MAX_ROLLS and player.army >= 1:
        failed = len(side.failed())
        need = target - side.total()
        left = min(MAX_ROLLS - side.rolls, player.army)
        battle.odds = reroll_odds_text(need, failed, left)
        one, every = reroll_odds(need, failed, left)
        picked = yield Choose(
            [reroll_option(failed), ACCEPT],
            why=f"{player.name} has {successes_text(side.total())} of the {target} needed (army {player.army}). "
            f"{battle.odds}.",
            topic="castells.battle.reroll",
            data=facts
            | {
                "failed": failed,
                "options": [REROLL, ACCEPT_CODE],
                "successes": side.total(),
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


def attack_odds_text(attacker: Player, defender: Player, stop: Fraction, again: Fraction) -> str:
    return (
        f"Chance that {attacker.name} takes the castle: stopping now {percent(stop)}; "
        f"after this reroll {percent(again)}"
    )


def odds_now(state: CastellsState) -> str | None:
    """The odds of the decision open in the battle, for the screen: the attacker's reroll (its
    chance to take the castle if it stops or rerolls), the defender's first roll, the defender's
    reroll; None when no one decides."""
    b = state.battle
    if b is None or b.result is not None or b.cards_asked:
        return None
    try:
        defender = state.player(b.defender.name)
        attacker = None if b.kind == "saracen" else state.player(b.attacker.name)
    except KeyError:
        return None
    if b.target is None:
        side = b.attacker
        if (
            attacker is None
            or not side.rolls
            or not side.failed()
            or side.rolls >= MAX_ROLLS
            or attacker.army < 1
        ):
            return None
        stop, again = attack_odds(
            side.successes(), len(side.failed()), b.defender.n, defender_rolls_at_most(defender)
        )
        return f"{attacker.name} takes it: {percent(stop)} if it stops, {percent(again)} after this reroll."
    if not b.target:
        return None
    if not b.defender.rolls:
        rolls = defender_rolls_at_most(defender)
        one, every = reach(b.target, b.defender.n, 1), reach(b.target, b.defender.n, rolls)
        more = f", {percent(every)} with every reroll it can pay" if rolls > 1 else ""
        return f"{defender.name} holds: {percent(one)} on this roll{more}."
    odds = odds_before_reroll(b, defender)
    if odds is None:
        return None
    this, left = odds
    more = f", every reroll left {left}" if left != this else ""
    return f"If {defender.name} rerolls: this reroll {this}{more}."


def odds_before_reroll(battle: Battle, player: Player) -> tuple[str, str] | None:
    """(this reroll, every reroll left) as percentages, when the defender is about to decide; else None."""
    side, target = battle.defender, battle.target or 0
    if not side.rolls or side.total() >= target or side.rolls >= MAX_ROLLS or player.army < 1:
        return None
    one, every = reroll_odds(
        target - side.total(), len(side.failed()), min(MAX_ROLLS - side.rolls, player.army)
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
        "defender_successes": battle.defender.total() if rolled else None,
        "result": battle.result,
        "paid": paid,
        "cards": list(battle.cards),
    }


def record(battle: Battle, defence: int | None) -> BattleRecord:
    """The record of a battle decided (``battle.result`` set): ``defence`` is the defender's
    successes, None when the castle held with no defence roll."""
    assert battle.result is not None
    return BattleRecord(
        battle.kind,
        battle.attacker.name,
        battle.defender.name,
        battle.castle,
        battle.target or 0,
        defence,
        battle.result,
    )


def result_reason(battle: Battle) -> str:
    """Why the castle holds or falls, from the successes the app compared."""
    saracens = battle.kind == "saracen"
    attacker = "the Saracens" if saracens else battle.attacker.name
    if battle.forced is not None:
        return (
            f"a favour card decides it: {battle.castle} {'holds' if battle.forced == 'held' else 'is taken'}"
        )
    card = ", a favour card's change counted" if battle.cards else ""
    if not battle.target:
        return f"no success for {attacker}{card}: any defence matches 0"
    theirs = "the Saracens'" if saracens else f"{battle.attacker.name}'s"
    got, target = battle.defender.total(), battle.target
    if got >= target:
        return f"{got} against {target}{card}: the defender's successes match or beat {theirs}"
    return f"{got} against {target}{card}: the defender's successes fall short of {theirs}"


def decided(battle: Battle) -> str:
    """'held' or 'taken': a favour card's word, else the successes (the defender must match or beat)."""
    if battle.forced is not None:
        return battle.forced
    return "held" if battle.defender.total() >= (battle.target or 0) else "taken"


def card_changes(battle: Battle) -> list[tuple[str, str]]:
    """The (code, option) changes a favour card may make now: a success more or less for a
    side (less only while it has one), or the result as the card says; once a card has said
    the result, only the result."""
    out: list[tuple[str, str]] = []
    # Once a card has said the result, successes no longer decide it: only the result may change.
    for role, side in () if battle.forced else (("attacker", battle.attacker), ("defender", battle.defender)):
        out.append((f"{role}+1", f"+1 success for {side.name}"))
        if side.total() > 0:
            out.append((f"{role}-1", f"−1 success for {side.name}"))
    out += [
        ("held", f"{battle.castle} holds, as the card says"),
        ("taken", f"{battle.castle} is taken, as the card says"),
    ]
    return out


def favour_cards(state: CastellsState, battle: Battle, defender: Player) -> Proc:
    """ "Cards with C are only played during combat": before the result is applied, the players
    say whether a favour card changes the battle (a success more or less for a side, or the
    result itself), as often as cards are played; each change a recorded step. A card that gives
    successes to an attacker that had none makes the defender roll, and one that raises the
    attacker's successes lets a defender short of them reroll on, as the rules of the battle go.
    Nothing is asked while no player can hold a card (none bought yet; docs/rules-notes.md,
    Castells reading 23)."""
    if not state.favour_cards_held():
        return
    changed = False
    while True:
        battle.cards_asked = False
        if battle.forced is None and battle.target and not battle.defender.rolls:
            yield from defender_rolls(battle, defender)
        elif changed and battle.forced is None:
            # The attacker's successes changed after the defence: the defender may reroll on.
            yield from defender_rerolls(battle, defender)
        changed = True
        battle.cards_asked = True
        a, d = battle.target or 0, battle.defender.total()
        result = decided(battle)
        verdict = f"{battle.castle} holds" if result == "held" else f"{battle.castle} is taken"
        if battle.forced:
            verdict += ", as a favour card says"
        facts = {
            "kind": battle.kind,
            "castle": battle.castle,
            "attacker": battle.attacker.name,
            "defender": battle.defender.name,
            "attacker_successes": a,
            "defender_successes": d,
            "result": result,
            "cards": list(battle.cards),
        }
        picked = yield Choose(
            [APPLY, CARD],
            why=f"{battle.attacker.name} {a}, {battle.defender.name} {d}: {verdict}. "
            "Does a favour card with C change the battle?",
            topic="castells.battle.favour",
            data=facts | {"options": ["apply", "card"]},
            rule=RULE_FAVOUR_C,
            reason="a card with C is played during combat; the app applies the result once the players say no card changes it",
        )
        if picked == APPLY:
            battle.cards_asked = False
            return
        changes = card_changes(battle)
        options = [text for _, text in changes]
        change = yield Choose(
            options,
            why=f"What does the favour card change in the battle for {battle.castle}?",
            topic="castells.battle.favour_change",
            data=facts | {"options": [code for code, _ in changes]},
            rule=RULE_FAVOUR_C,
            reason="the player applies one of the card's two effects (not both), as the players tell it",
        )
        code = changes[options.index(change)][0]
        battle.cards.append(code)
        if code in ("held", "taken"):
            battle.forced = code
            continue
        role, delta = code[:-2], (1 if code.endswith("+1") else -1)
        side = battle.attacker if role == "attacker" else battle.defender
        side.bonus += delta
        if role == "attacker":
            battle.target = battle.attacker.total()


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
    if battle.target:
        yield from defender_rolls(battle, defender)
    yield from favour_cards(state, battle, defender)
    if decided(battle) == "held" and not battle.defender.rolls:
        battle.result = "held"
        state.battles.append(record(battle, None))
        yield Tell(
            (
                f"The Saracens roll no success: {castle} holds without a defence roll. No change on the board."
                if not battle.target
                else f"{castle} holds without a defence roll: no change on the board."
            ),
            topic="castells.battle.result",
            data=outcome(battle, {}),
            rule=RULE_HELD,
            reason=result_reason(battle),
        )
        return
    got = battle.defender.total()
    score = f"{owner} {got} against the Saracens' {battle.target}"
    told = score + (", as a favour card says" if battle.forced else "")  # as for a player's battle
    paid = {owner: battle.defender.paid} if battle.defender.paid else {}
    if decided(battle) == "held":
        battle.result = "held"
        state.battles.append(record(battle, got))
        yield Tell(
            f"{castle} holds ({told}): no change on the board.{paid_text(defender, battle.defender)}",
            topic="castells.battle.result",
            data=outcome(battle, paid),
            rule=RULE_HELD,
            reason=result_reason(battle),
        )
        return
    battle.result = "taken"
    state.owners[castle] = None
    state.saracen = castle
    state.battles.append(record(battle, got))
    yield Tell(
        f"The Saracens take {castle} ({told}): return {owner}'s castle on {castle} to {owner}'s reserve "
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
    yield from attacker_rolls(battle, attacker, defender)
    battle.target = battle.attacker.successes()
    if battle.target:
        yield from defender_rolls(battle, defender)
    yield from favour_cards(state, battle, defender)
    spent = paid_text(attacker, battle.attacker)
    paid = {s.name: s.paid for s in (battle.attacker, battle.defender) if s.paid}
    if decided(battle) == "held" and not battle.defender.rolls:
        battle.result = "held"
        state.battles.append(record(battle, None))
        no = f"{attacker.name} rolls no success: " if not battle.target else ""
        yield Tell(
            f"{no}{castle} holds. No change on the board.{spent}",
            topic="castells.battle.result",
            data=outcome(battle, paid),
            rule=RULE_HELD,
            reason=result_reason(battle),
        )
        return
    got = battle.defender.total()
    score = f"{attacker.name} {battle.target}, {owner} {got}"
    # The instruction says what decided a result the successes did not (or 4 seems to beat 5);
    # the record of battles (its line in the snapshot, and so in the digests) stays as it was.
    told = score + (", as a favour card says" if battle.forced else "")
    spent += paid_text(defender, battle.defender)
    paid = {s.name: s.paid for s in (battle.attacker, battle.defender) if s.paid}
    if decided(battle) == "held":
        battle.result = "held"
        state.battles.append(record(battle, got))
        yield Tell(
            f"{castle} holds ({told}): no change on the board.{spent}",
            topic="castells.battle.result",
            data=outcome(battle, paid),
            rule=RULE_HELD,
            reason=result_reason(battle),
        )
        return
    battle.result = "taken"
    state.owners[castle] = attacker.name
    state.attack_won = True
    state.battles.append(record(battle, got))
    yield Tell(
        f"{attacker.name} takes {castle} ({told}): return {owner}'s castle to {owner}'s reserve and place "
        f"a castle of {attacker.name}'s on {castle}. {attacker.name} cannot attack again this turn.{spent}",
        topic="castells.battle.result",
        data=outcome(battle, paid),
        rule=RULE_TAKEN,
        reason=result_reason(battle),
    )
