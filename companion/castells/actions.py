"""Phase 3 of a Terra de Castells turn as the rulebook lists it: the actions menu.

"The active player can take 0 to 3 actions in any order": the menu offers each action of
Phase 3 (control a nearby castle, play an estate token, get token attributes, buy favour
cards, attack, play a favour card) and the power of faith, and counts the actions taken.
Four of them count towards the 3 and are told as board instructions with their cost; an
attack is the battle of battle.py; playing a favour card and the power of faith do not
count (docs/rules-notes.md, "Terra de Castells"; rules-notes, Castells reading 17). "Control a nearby castle"
places the player's castle in the app's castle map, so that what the Saracens may move to
and attack follows the table.

The menu offers only what the rule allows the player as the table stands (``refusal``): no
control without an empty castle in reach, no estate token to a player with fewer than two
castles, no attack without a castle of one's own to announce as its source, no favour card
with T to a player who has bought none; ``refusals`` gives, for each action not offered,
the one sentence why (the screen's w).
"""

from __future__ import annotations

from typing import Any

from companion.castells.battle import Proc, player_battle
from companion.castells.board import Board
from companion.castells.state import MAX_ACTIONS, CastellsState, Player
from companion.prompts import Choose, Tell

# Short, to fit the narrow screen's list: each one's cost is told once it is chosen.
CONTROL = "Control a nearby castle"
ESTATE = "Play an estate token"
ATTRIBUTES = "Get token attributes"
BUY = "Buy favour cards"
ATTACK = "Attack another player's castle"
FAVOUR = "Play a favour card with T (not counted)"
FAITH = "Power of faith (not counted)"
#: The actions that count towards the 3 of a turn, by code.
COUNTED = ("control", "estate", "attributes", "buy", "attack")
#: Every action of Phase 3 by its code, in the rulebook's order, with the option that offers it.
OPTIONS = {
    "control": CONTROL,
    "estate": ESTATE,
    "attributes": ATTRIBUTES,
    "buy": BUY,
    "attack": ATTACK,
    "favour": FAVOUR,
    "faith": FAITH,
}
#: What the menu's reason calls an action it does not offer ("no attack: ...").
ABSENT = {
    "control": "no castle to control",
    "estate": "no estate token",
    "attributes": "no token attributes",
    "buy": "no favour cards to buy",
    "attack": "no attack",
    "favour": "no favour card with T",
    "faith": "no power of faith",
}
#: How far "within two hexes of an own castle" reaches, in near-links (see Board.within).
CONTROL_REACH = 2

RULE_COUNT = "Phase 3 — Actions — The active player can take 0 to 3 actions in any order"
RULE_CONTROL = "Phase 3 — Actions — Control a nearby castle"
RULE_ESTATE = "Phase 3 — Actions — Play a state token"
RULE_ATTRIBUTES = "Phase 3 — Actions — Get token attributes"
RULE_BUY = "Phase 3 — Actions — Buy favor cards"
RULE_ANNOUNCE = "Phase 3 — Actions — The attacker announces the source castle and the target castle"
RULE_FAVOUR = "Phase 3 — Actions — Play a favor card"
RULE_FAITH = "Phase 3 — Actions — Power of faith"
#: The rule each action follows, by code (what a refusal cites).
RULES = {
    "control": RULE_CONTROL,
    "estate": RULE_ESTATE,
    "attributes": RULE_ATTRIBUTES,
    "buy": RULE_BUY,
    "attack": RULE_ANNOUNCE,
    "favour": RULE_FAVOUR,
    "faith": RULE_FAITH,
}

#: What the player does on the table for each told action: (rule, instruction after the name).
TOLD = {
    "estate": (
        RULE_ESTATE,
        (
            "pay 1 estate of town and 1 estate of the token's type, and place the estate token on a "
            "free hex adjacent to two of your castles (it gives resources every turn and counts towards victory)"
        ),
    ),
    "attributes": (RULE_ATTRIBUTES, "raise 1 estate for each of your estate tokens in play"),
    "buy": (
        RULE_BUY,
        (
            "pay 1 crown per letter of each favour card you buy and take it from its stack (no hand "
            "limit); a card with I is applied at once"
        ),
    ),
    "favour": (
        RULE_FAVOUR,
        (
            "apply one of the card's two effects (not both), at no cost; a card with C is played "
            "during a battle, not here"
        ),
    ),
    "faith": (
        RULE_FAITH,
        (
            "spend 1 Church estate to raise 1 other resource, as many times as you have Church points "
            "and want to spend"
        ),
    ),
}


def end_turn_option(name: str) -> str:
    return f"End {name}'s turn"


def player_targets(state: CastellsState, attacker: str) -> list[str]:
    """Other players' castles, in board order: the seed gives player attacks no range, the players check it."""
    return [c for c, o in state.owners.items() if o is not None and o != attacker]


def control_targets(board: Board, state: CastellsState, player: str) -> list[str]:
    """The empty castles ``player`` may control: no castle and no Saracen on them, and adjacent
    to or within two hexes of one of the player's castles (two near-links of castles.toml)."""
    own = [c for c, o in state.owners.items() if o == player]
    reach = {c for castle in own for c in board.within(castle, CONTROL_REACH)}
    return [c for c in board.castles if c in reach and state.owners[c] is None and c != state.saracen]


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def own_castles(state: CastellsState, player: str) -> list[str]:
    """The castles ``player`` holds, in board order."""
    return [c for c, o in state.owners.items() if o == player]


def refusal(board: Board, state: CastellsState, player: Player, code: str) -> str | None:
    """Why ``player`` may not take the Phase 3 action ``code`` now, in one sentence from the
    table as it stands; None when the rule allows it. The turn's limit first ("0 to 3
    actions"), then the action's own rule."""
    name = player.name
    if code in COUNTED and len(state.actions) >= MAX_ACTIONS:
        return f"{name} has taken {MAX_ACTIONS} actions, the most a turn allows."
    own = own_castles(state, name)
    if code == "control":
        # "The player places a castle in an adjacent empty castle or within two hexes of an own castle".
        if not own:
            return (
                f"{name} holds no castle, and a castle controlled must be adjacent to or within two "
                "hexes of an own castle."
            )
        if not control_targets(board, state, name):
            return f"No castle is empty within two hexes of {name}'s castles."
    elif code == "estate":
        # "The token must be in a free hex adjacent to two own castles": the hex is the
        # players' to find (the castle map has no hexes), the two castles the app knows.
        if len(own) < 2:
            held = "none" if not own else "only one"
            return (
                f"An estate token must be in a free hex adjacent to two of {name}'s own castles, "
                f"and {name} holds {held}."
            )
    elif code == "attack":
        if state.attack_won:  # Favorable result for the attacker: "cannot attack again this turn"
            return f"{name} won an attack this turn and cannot attack again this turn."
        if not own:  # "The attacker announces the source castle and the target castle"
            return f"{name} holds no castle to announce as the source castle of an attack."
        if not player_targets(state, name):
            return "No other player holds a castle to attack."
    elif code == "favour" and not (player.favour or name in state.bought_under_v2):
        # Buy favor cards: "It is stolen from the corresponding stack", the only way to get one.
        return f"{name} has bought no favour cards this game, and buying them is the only way to get one."
    return None


def refusals(board: Board, state: CastellsState, player: Player) -> dict[str, str]:
    """For each action of Phase 3 the menu does not offer ``player`` now, by code in the
    rulebook's order, the one sentence why."""
    return {code: why for code in OPTIONS if (why := refusal(board, state, player, code)) is not None}


def menu(board: Board, state: CastellsState, player: Player) -> list[tuple[str, str]]:
    """The (code, option) pairs offered now, in the rulebook's order; the end of the turn last."""
    if state.under_v2():
        return menu_v2(board, state, player)
    out = [(code, text) for code, text in OPTIONS.items() if refusal(board, state, player, code) is None]
    return [*out, ("end", end_turn_option(player.name))]


def menu_v2(board: Board, state: CastellsState, player: Player) -> list[tuple[str, str]]:
    """The menu of a turn played under rules version 2, as it offered it, so that a game begun
    under them replays as recorded (docs/rules-notes.md, Castells 26): an estate token, token
    attributes and favour cards to buy whenever an action is left, an attack whenever another
    player holds a castle and none was won this turn, a favour card with T always."""
    out: list[tuple[str, str]] = []
    if len(state.actions) < MAX_ACTIONS:
        if control_targets(board, state, player.name):
            out.append(("control", CONTROL))
        out += [("estate", ESTATE), ("attributes", ATTRIBUTES), ("buy", BUY)]
        if not state.attack_won and player_targets(state, player.name):
            out.append(("attack", ATTACK))
    out += [("favour", FAVOUR), ("faith", FAITH), ("end", end_turn_option(player.name))]
    return out


def menu_reason_v2(board: Board, state: CastellsState, player: Player) -> str:
    """The menu's reason in a turn played under rules version 2, in its words."""
    left = MAX_ACTIONS - len(state.actions)
    if not left:
        return (
            f"{player.name} has taken {MAX_ACTIONS} actions, the most a turn allows: a favour card "
            "with T and the power of faith are not actions and are still offered"
        )
    parts = [f"{_plural(left, 'action')} of {MAX_ACTIONS} left"]
    if state.attack_won:
        parts.append(f"no attack: {player.name} won an attack this turn and cannot attack again")
    elif not player_targets(state, player.name):
        parts.append("no attack: no other player holds a castle")
    if not control_targets(board, state, player.name):
        parts.append(f"no castle to control: none is empty within two hexes of {player.name}'s castles")
    return "; ".join(parts)


def menu_reason(board: Board, state: CastellsState, player: Player) -> str:
    if state.under_v2():
        return menu_reason_v2(board, state, player)
    left = MAX_ACTIONS - len(state.actions)
    absent = refusals(board, state, player)
    if not left:
        head = (
            f"{player.name} has taken {MAX_ACTIONS} actions, the most a turn allows: only what is "
            "not an action is offered"
        )
        absent = {code: why for code, why in absent.items() if code not in COUNTED}
    else:
        head = f"{_plural(left, 'action')} of {MAX_ACTIONS} left"
    return "; ".join(
        [head, *(f"{ABSENT[code]}: {_clause(why, player.name)}" for code, why in absent.items())]
    )


def _clause(sentence: str, name: str) -> str:
    """A sentence as a clause after a colon: its full stop off, its first letter small unless
    it is the player's name."""
    text = sentence.rstrip(".")
    return text if text.startswith(name) else text[:1].lower() + text[1:]


def actions(board: Board, state: CastellsState, player: Player) -> Proc:
    """Phase 3: the menu until the player ends the turn; each action counted, told or fought."""
    state.phase = "actions"
    state.actions = []
    while True:
        offered = menu(board, state, player)
        options = [text for _, text in offered]
        picked = yield Choose(
            options,
            why=f"Actions of {player.name} ({len(state.actions)} of {MAX_ACTIONS} taken): which next?",
            topic="castells.actions.next",
            data={
                "player": player.name,
                "options": [code for code, _ in offered],
                "attack_won": state.attack_won,
                "taken": list(state.actions),
                "left": MAX_ACTIONS - len(state.actions),
            },
            rule=RULE_COUNT,
            reason=menu_reason(board, state, player),
        )
        code = offered[options.index(picked)][0]
        if code == "end":
            return
        why = None if state.under_v2() else refusal(board, state, player, code)
        if why is not None:  # the table was corrected by hand while the menu was asked
            yield Tell(
                f"{why.rstrip('.')}: the table was corrected by hand while the menu was asked.",
                topic="castells.actions.refused",
                data={"player": player.name, "action": code},
                rule=RULES[code],
                reason="a correction by hand changed the table after the menu offered it",
            )
            continue
        if code == "control":
            yield from control(board, state, player)
        elif code == "attack":
            yield from attack(state, player)
        else:
            yield from told(state, player, code)


def counted(state: CastellsState, code: str) -> str:
    """Count the action ``code``; 'action 2 of 3' for its instruction."""
    state.actions.append(code)
    return f"action {len(state.actions)} of {MAX_ACTIONS}"


def told(state: CastellsState, player: Player, code: str) -> Proc:
    """An action done on the table only: its cost and what to do, told; counted if it counts."""
    rule, what = TOLD[code]
    which = counted(state, code) if code in COUNTED else "not an action"
    if code == "buy":
        # From now on the player may play a card with T, and (a new game's setting) a battle
        # asks whether a card with C changes it. Rules version 2 kept it only with that setting
        # (its pictures of the game, and the digests its logs hold, had it so): the purchase is
        # kept apart, for the turns played under the current rules (``refusal``).
        if state.favour_after_purchase or not state.under_v2():
            player.favour = True
        else:
            state.bought_under_v2.add(player.name)
    facts: dict[str, Any] = {"player": player.name, "action": code, "taken": len(state.actions)}
    yield Tell(
        f"{player.name} ({which}): {what}.",
        topic=f"castells.actions.{code}",
        data=facts,
        rule=rule,
        reason=(
            f"{player.name} chose it; {len(state.actions)} of {MAX_ACTIONS} actions taken"
            if code in COUNTED
            else f"{player.name} chose it; it is not one of the {MAX_ACTIONS} actions of the turn"
        ),
    )


def control(board: Board, state: CastellsState, player: Player) -> Proc:
    """Control a nearby castle: which empty castle; the player's castle placed there, counted."""
    targets = control_targets(board, state, player.name)
    if not targets:
        return  # corrected by hand while the menu was asked
    castle = yield Choose(
        targets,
        why=f"{player.name} controls which empty castle? (1 estate of each type)",
        topic="castells.actions.control_target",
        data={"player": player.name, "castles": targets},
        rule=RULE_CONTROL,
        reason="an empty castle adjacent to or within two hexes of one of "
        f"{player.name}'s castles (the near lists of the castle map)",
    )
    if castle not in control_targets(board, state, player.name):
        return  # corrected by hand while asked
    which = counted(state, "control")
    state.owners[castle] = player.name
    yield Tell(
        f"{player.name} ({which}): pay 1 estate of each type and place a castle of yours on {castle}.",
        topic="castells.actions.control",
        data={"player": player.name, "action": "control", "castle": castle, "taken": len(state.actions)},
        rule=RULE_CONTROL,
        reason=f"{castle} is empty and near enough to one of {player.name}'s castles",
    )


def attack(state: CastellsState, player: Player) -> Proc:
    """Attack another player's castle: the target announced, the battle fought, counted."""
    targets = player_targets(state, player.name)
    if not targets:
        return
    choices = [f"{c} ({state.owners[c]})" for c in targets]
    target = yield Choose(
        choices,
        why=f"{player.name} attacks which castle?",
        topic="castells.actions.target",
        data={"player": player.name, "castles": targets, "owners": [state.owners[c] for c in targets]},
        rule=RULE_ANNOUNCE,
    )
    # The option's place, not its text, names the castle (data["castles"] is parallel).
    castle = targets[choices.index(target)]
    if state.owners.get(castle) in (None, player.name):
        return  # corrected by hand while asked
    counted(state, "attack")
    state.phase = "battle"
    yield from player_battle(state, player, castle)
    state.phase = "actions"
