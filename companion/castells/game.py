"""Terra de Castells as one prompt procedure: setup, five centuries, the Saracen turns.

``GAME`` is what the driver runs. The app keeps the bag, the century, the players'
army points, the castle owners and the Saracen figure; the players do the rest on
their board. Each turn: the territory token is drawn (typed from the physical bag or
drawn by the app); on a token that wakes them the Saracens act first (the active
player moves them to an empty castle or attacks a castle near them); the player is
told what to collect; then Phase 3's actions are offered (actions.py), 3 at most, until
the player ends the turn.
"""

from __future__ import annotations

from typing import Any

from companion.castells import bag as bags
from companion.castells.actions import ATTACK as ATTACK  # re-exported: the tests and tools name it here
from companion.castells.actions import actions
from companion.castells.battle import ARMY_PATTERN, Proc, saracen_battle
from companion.castells.board import Board, default_board, load_board
from companion.castells.state import SARACENS, CastellsState, Player
from companion.castells.topics import TOPICS
from companion.interface import Asks, EarlierRules, Procedure, last_answer, whole_setting
from companion.prompts import Choose, Enter, Tell

START_ARMY = 3  # the seed gives no starting army: a suggestion the setup question shows, typed over freely
MOVE = "Move the Saracen to an empty castle"
ATTACK_NEAR = "Attack a castle near the Saracen"
#: The codes of the Saracens' two actions, as a Choose's data["options"] gives them.
ACTION_CODES = {MOVE: "move", ATTACK_NEAR: "attack"}
NAME_PATTERN = r"[A-Za-zÀ-ÿ0-9][A-Za-zÀ-ÿ0-9 .'-]{0,19}"

# The rulebook headings the steps follow. The setup has no section of its own: only the Saracen
# figure's placing is written, in the Saracens' part, under no heading.
RULE_GAME = "Terra de Castells — The game lasts 5 centuries (XI to XV), one per round"
RULE_PREPARATION = "In preparation, place the Saracen figure on its space on the board"
RULE_TIME = "Phase 1 — Passage of time"
RULE_RESOURCES = "Phase 2 — Resources"
RULE_DRAW = "Phase 2 — Resources — Then he takes a territory token from the bag"
RULE_SARACEN_ACTION = "Active Player Action"
RULE_SARACEN_MOVE = "Active Player Action — Move the Saracen to any empty castle on the map"
RULE_SARACEN_ATTACK = (
    "Active Player Action — make an attack on a nearby castle from the Saracen's current position"
)


def no_more_castles(name: str) -> str:
    return f"{name} holds no more castles"


def initial_state(
    board: Board, territories_file: str | None = None, castles_file: str | None = None
) -> CastellsState:
    return CastellsState(
        territories_file=territories_file,
        castles_file=castles_file,
        bag={t.name: t.tokens for t in board.territories},
        owners=dict.fromkeys(board.castles),
        saracen=board.saracen_start,
    )


def empty_castles(board: Board, state: CastellsState) -> list[str]:
    """Castles with no player's castle on them and without the Saracen figure (where it may move)."""
    return [c for c in board.castles if state.owners[c] is None and c != state.saracen]


def saracen_targets(board: Board, state: CastellsState) -> list[str]:
    """Players' castles near the Saracen's position (what it may attack)."""
    return [c for c in board.near_list(state.saracen) if state.owners[c] is not None]


# -- setup ----------------------------------------------------------------------------


def setup(board: Board, state: CastellsState) -> Proc:
    players = yield Choose(["2", "3", "4"], why="Setup: how many players?", topic="castells.setup.players")
    count = int(players)
    names: list[str] = []
    for i in range(1, count + 1):
        while True:
            name = yield Enter(
                f"Setup: the name of player {i}? (Enter takes 'Player {i}')",
                NAME_PATTERN,
                "A name is 1 to 20 letters, digits, spaces, dots, dashes or apostrophes, starting with a letter or digit.",
                f"Player {i}",
                topic="castells.setup.name",
                data={"number": i, "players": count},
            )
            if name.casefold() in {n.casefold() for n in names} or name.casefold() == SARACENS.casefold():
                yield Tell(
                    f"'{name}' is taken: give player {i} another name.",
                    topic="castells.setup.name_taken",
                    data={"number": i, "name": name, "saracens": name.casefold() == SARACENS.casefold()},
                    reason=(
                        "the Saracens are a side of the game"
                        if name.casefold() == SARACENS.casefold()
                        else "players are told apart by name, ignoring case"
                    ),
                )
                continue
            names.append(name)
            break
    order: list[str] = []
    for position in range(1, count):
        left = [n for n in names if n not in order]
        who = yield Choose(
            left,
            why=f"Setup: turn order — who plays {_ordinal(position)}?",
            topic="castells.setup.order",
            data={"position": position, "order": list(order)},
        )
        order.append(who)
    order.extend(n for n in names if n not in order)
    state.players = [Player(n) for n in order]
    for p in state.players:
        text = yield Enter(
            f"Setup: {p.name}'s army points at the start? (Enter takes {START_ARMY})",
            ARMY_PATTERN,
            "Type the army points as a whole number from 0 to 99.",
            str(START_ARMY),
            topic="castells.setup.army",
            data={"player": p.name, "suggested": START_ARMY},
        )
        p.army = int(text)
    for p in state.players:
        while True:
            held = [c for c, o in state.owners.items() if o == p.name]
            free = empty_castles(board, state)
            if not free:
                break
            picked = yield Choose(
                [*free, no_more_castles(p.name)],
                why=f"Setup: which castles does {p.name} hold at the start? ({len(held)} so far)",
                topic="castells.setup.castles",
                data={"player": p.name, "held": held, "options": [*(["castle"] * len(free)), "done"]},
            )
            if picked == no_more_castles(p.name):
                break
            state.owners[picked] = p.name
    yield Tell(
        f"Place the Saracen figure on its space: {board.saracen_start}.",
        topic="castells.setup.saracen",
        data={"place": board.saracen_start},
        rule=RULE_PREPARATION,
    )


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth"}[n]


# -- a turn ---------------------------------------------------------------------------


def draw(board: Board, state: CastellsState, player: Player) -> Proc:
    """Phase 2: the token out of the bag (discarded); None when the bag is empty."""
    left = bags.in_bag(state.bag)
    if not left:
        yield Tell(
            f"The bag is empty: {player.name} draws no territory token this turn.",
            topic="castells.resources.bag_empty",
            data={"player": player.name},
            rule=RULE_DRAW,
            reason="every token has been drawn and discarded: none returns to the bag",
        )
        return None
    counts = ", ".join(f"{t} {state.bag[t]}" for t in left)
    token = yield Choose(
        left,
        why=f"{player.name}: {bags.DRAW_WHY} (in the bag: {counts})",
        topic=bags.DRAW_TOPIC,
        data={"player": player.name, "bag": {t: state.bag[t] for t in left}},
        rule=RULE_DRAW,
    )
    bags.take(state.bag, token)
    state.discarded.append(token)
    state.drawn = token
    return token


def saracens_act(board: Board, state: CastellsState, player: Player, token: str) -> Proc:
    """Activation: the active player moves the Saracen to an empty castle or attacks a castle near it."""
    state.phase = "saracens"
    where = state.saracen
    free, near = empty_castles(board, state), saracen_targets(board, state)
    kinds = []
    if free:
        kinds.append(MOVE)
    if near:
        kinds.append(ATTACK_NEAR)
    facts: dict[str, Any] = {"token": token, "at": where, "player": player.name}
    if not kinds:
        yield Tell(
            f"A {token} token wakes the Saracens, but they have no empty castle to go to and nothing near to attack.",
            topic="castells.saracens.idle",
            data=facts,
            rule=RULE_SARACEN_ACTION,
            reason=f"no castle is empty to move to and no castle near {where} is held by a player",
        )
        return
    why = f"A {token} token wakes the Saracens (at {where}): {player.name}, what do they do?"
    if len(kinds) == 1:
        kind = kinds[0]
        # Asked nothing: the one action the board leaves is what they do.
        forced = (
            f"no castle near {where} is held by a player, so they can only move"
            if kind == MOVE
            else "no castle is empty, so they can only attack"
        )
    else:
        kind = yield Choose(
            kinds,
            why=why,
            topic="castells.saracens.action",
            data=facts | {"options": [ACTION_CODES[k] for k in kinds], "empty": len(free), "targets": near},
            rule=RULE_SARACEN_ACTION,
            reason=f"a {token} token wakes the Saracens before {player.name} collects resources: "
            f"{len(free)} empty castle{'s' if len(free) != 1 else ''} to move to, "
            f"{len(near)} held castle{'s' if len(near) != 1 else ''} near {where} to attack",
        )
        forced = ""
    by = f"{player.name}, the active player,"
    since = f": {forced}" if forced else ""
    if kind == MOVE:
        while True:
            free = empty_castles(board, state)
            if not free:
                yield Tell(
                    "No castle is empty any more: the Saracens stay where they are.",
                    topic="castells.saracens.stay",
                    data={"at": where},
                    rule=RULE_SARACEN_MOVE,
                    reason="the move needs an empty castle and none is left",
                )
                return
            to = yield Choose(
                free,
                why=f"{why} Move the Saracen from {where} to which empty castle?",
                topic="castells.saracens.destination",
                data=facts | {"empty": len(free)},
                rule=RULE_SARACEN_MOVE,
                reason=(forced or f"{by} chose to move them") + ": any empty castle on the map may be chosen",
            )
            if to in empty_castles(board, state):
                break
            yield Tell(
                f"{to} is no longer empty (corrected by hand): choose again.",
                topic="castells.saracens.destination_taken",
                data={"castle": to, "owner": state.owners.get(to)},
                rule=RULE_SARACEN_MOVE,
                reason=f"{to} was changed by hand while asked and is not empty now",
            )
        state.saracen = to
        yield Tell(
            f"Move the Saracen figure from {where} to {to}.",
            topic="castells.saracens.move",
            data={"from": where, "to": to, "token": token},
            rule=RULE_SARACEN_MOVE,
            reason=f"{by} moved them to {to}, an empty castle{since}",
        )
        return
    while True:
        targets = saracen_targets(board, state)
        if not targets:
            yield Tell(
                "No castle near the Saracen is held any more (corrected by hand): they do nothing.",
                topic="castells.saracens.no_target",
                data={"at": where},
                rule=RULE_SARACEN_ATTACK,
                reason=f"the attack needs a player's castle near {where} and none is left",
            )
            return
        options = [f"{c} ({state.owners[c]})" for c in targets]
        target = yield Choose(
            options,
            why=f"{why} Attack which castle near {where}?",
            topic="castells.saracens.target",
            data=facts | {"castles": targets, "owners": [state.owners[c] for c in targets]},
            rule=RULE_SARACEN_ATTACK,
            reason=(forced or f"{by} chose to attack")
            + f": only a player's castle near {where} may be attacked",
        )
        # The option's place, not its text, names the castle (data["castles"] is parallel).
        castle = targets[options.index(target)]
        if castle in saracen_targets(board, state):
            break
    owner = state.owners[castle]
    yield from saracen_battle(
        state, castle, reason=f"{by} sent them against {castle} ({owner}), a castle near {where}{since}"
    )


def held_in(board: Board, state: CastellsState, player: Player, token: str | None) -> list[str]:
    """``player``'s castles in the drawn ``token``'s territory: one estate each."""
    if token is None:
        return []
    return [c for c in board.castles_in(token) if state.owners[c] == player.name]


def resources_text(board: Board, state: CastellsState, player: Player, token: str | None) -> str:
    text = f"{player.name}: collect the resources of your estate tokens in play"
    if token is None:
        return text + "."
    held = held_in(board, state, player, token)
    if held:
        text += f", and raise {len(held)} estate{'s' if len(held) > 1 else ''} of your choice for your castle{'s' if len(held) > 1 else ''} in {token} ({', '.join(held)})"
    else:
        text += f"; you hold no castle in {token}, so the token brings nothing"
    return text + f". Put the {token} token on the discard pile."


def play_turn(board: Board, state: CastellsState) -> Proc:
    assert state.active is not None
    player = state.players[state.active]
    state.attack_won = False
    state.actions = []
    state.drawn = None
    state.battle = None
    state.phase = "resources"
    token = yield from draw(board, state, player)
    if token is not None and board.wakes(token):
        yield from saracens_act(board, state, player, token)
    state.phase = "resources"
    held = held_in(board, state, player, token)
    yield Tell(
        resources_text(board, state, player, token),
        topic="castells.resources.collect",
        data={"player": player.name, "token": token, "castles": held},
        rule=RULE_RESOURCES,
    )
    yield from actions(board, state, player)


def play(board: Board, state: CastellsState) -> Proc:
    yield from setup(board, state)
    for index, century in enumerate(board.centuries):
        state.century = index
        state.active = 0
        state.phase = "time"
        state.battle = None
        first = state.players[0].name
        yield Tell(
            f"Century {century} begins: {first}, the starting player, advances the passage of time tile "
            f"to {century} and reveals the century card. If it has a koalata token, place it in "
            "the centre hex; its effect applies to nearby castles.",
            topic="castells.time.century",
            data={"century": century, "number": index + 1, "starting_player": first},
            rule=RULE_TIME,
        )
        for i in range(len(state.players)):
            state.active = i
            yield from play_turn(board, state)
    state.phase = "over"
    state.active = None
    yield Tell(
        f"Century {board.centuries[-1]} is over: the game ends. {castles_line(state)}",
        topic="castells.time.end",
        data={"century": board.centuries[-1], "castles": castle_counts(state)},
        rule=RULE_GAME,
    )
    return GAME.summary(state)


def castle_counts(state: CastellsState) -> dict[str, int]:
    """How many castles each player holds, in turn order."""
    return {p.name: sum(1 for o in state.owners.values() if o == p.name) for p in state.players}


def castles_line(state: CastellsState) -> str:
    counts = ", ".join(f"{name} {n}" for name, n in castle_counts(state).items())
    return f"Castles held: {counts}."


#: Play a state token: "Contribute resources every turn and count towards victory".
ESTATES_COUNT = "Estate tokens in play count towards victory too: count each player's on the table."


RULES_VERSION = 3
#: The setting of a game begun under rules version 2 that goes on under the current rules: the
#: first turn played under them (``CastellsState.turn_number``; ``going_on``).
V2_UNTIL = "current_rules_from_turn"
NEVER = 10**9  # a turn no game reaches: every turn played under rules version 2


def going_on(state: Any, config: dict[str, Any]) -> list[tuple[dict[str, Any], str]] | None:
    """Where a game begun under rules version 2, its log replayed as recorded, goes on under the
    current rules: from the turn in play if nothing of it has been asked under the old rules,
    else from the next player's turn, the turn in play ending under them. Each as the settings
    that say so and the sentence that tells the player; None when the settings already name
    the turn."""
    if whole_setting(config, V2_UNTIL) is not None:
        return None
    game: CastellsState = state
    turn = game.turn_number()
    now = (
        f"it is played under the current rules (version {RULES_VERSION}): the actions menu offers "
        "only what each action's rule allows (no attack without a castle of one's own, no estate "
        "token with fewer than two castles, no favour card with T before one is bought)."
    )
    begun = "This game was begun under earlier rules (version 2) and replays as it was recorded"
    if game.century < 0 or game.active is None:
        return [({**config, V2_UNTIL: max(turn, 1)}, f"{begun}; from its next turn on {now}")]
    player = game.players[game.active].name
    return [
        ({**config, V2_UNTIL: turn}, f"{begun}; from this turn ({player}'s) on {now}"),
        ({**config, V2_UNTIL: turn + 1}, f"{begun}; after {player}'s turn {now}"),
    ]


class Castells:
    """The Game interface for Terra de Castells; ``config`` may name a territories and a castles file."""

    id = "castells"
    title = "Terra de Castells"
    #: The answers that record a fact of the table, which a correction keeps (driver.is_fact):
    #: the token drawn from the bag, and where the Saracens went and what they attacked (the
    #: figure moved on the board). Dice are facts in every game.
    fact_topics = frozenset(
        {
            bags.DRAW_TOPIC,
            "castells.saracens.action",
            "castells.saracens.destination",
            "castells.saracens.target",
        }
    )
    #: 2: Phase 3 as the rulebook lists it (the actions menu, 3 actions at most, control of a
    #: castle recorded), the koalata token in the century reminder, favour cards in battles.
    #: 3: the actions menu offers only what each action's rule allows the player now (no attack
    #: without a source castle, no estate token with fewer than two castles, no favour card with
    #: T before one is bought), and an action a correction by hand has made impossible is refused.
    rules_version = RULES_VERSION
    #: d6 only: five dice and the superiority die are the most a battle rolls at once.
    asks = Asks(TOPICS, patterns=frozenset({NAME_PATTERN, ARMY_PATTERN}), sides=frozenset({6}), most_dice=6)
    #: ctrl+z takes back the last answer, as in most games.
    undo_from = staticmethod(last_answer)

    def __init__(self, rules_version: int = RULES_VERSION) -> None:
        # ``rules_version`` 2: the game as it played a game begun under that version
        # (``earlier_rules``); its turns before the setting ``V2_UNTIL`` are played under it.
        self.rules_version = rules_version

    def earlier_rules(self, version: int) -> EarlierRules | None:
        """The game as rules version 2 played it, for the games begun under it: its actions menu
        (actions.menu_v2) until the turn its settings name, then the current one. Version 1 (no
        actions menu) is not played: its games replay as far as their logs fit the current rules."""
        if version != 2 or self.rules_version != RULES_VERSION:
            return None
        return EarlierRules(Castells(2), going_on)

    @staticmethod
    def board_changes(now: CastellsState, back: CastellsState, *, undo: bool = True) -> list[str]:
        """The castles, the Saracen, the army points and the bag to set (back)."""
        from companion.castells.edits import board_changes

        return board_changes(now, back, undo=undo)

    def new_state(self, seed: int, config: dict[str, Any]) -> CastellsState:
        tfile, cfile = config.get("territories"), config.get("castles")
        state = initial_state(load_board(tfile, cfile), tfile, cfile)
        # A new game's setting (companion/games.py); a game recorded before it has none and
        # asks about favour cards in every battle, as it did.
        state.favour_after_purchase = config.get("favour_question") == "after_purchase"
        if self.rules_version == 2:
            state.v2_until = whole_setting(config, V2_UNTIL) or NEVER
        return state

    @staticmethod
    def board_of(state: CastellsState) -> Board:
        if state.territories_file or state.castles_file:
            return load_board(state.territories_file, state.castles_file)
        return default_board()

    def procedure(self, state: CastellsState) -> Procedure:
        return play(self.board_of(state), state)

    def snapshot(self, state: CastellsState) -> dict[str, Any]:
        return state.snapshot()

    def apply_edit(self, state: CastellsState, change: dict[str, Any]) -> None:
        """A manual correction (edits.py): a castle's owner, a player's army, the Saracen's place."""
        from companion.castells.edits import apply_edit

        apply_edit(self.board_of(state), state, change)

    def where(self, state: CastellsState) -> tuple[int | None, str | None]:
        return (state.century + 1 if state.century >= 0 else None), state.phase

    def summary(self, state: CastellsState) -> str:
        board = self.board_of(state)
        if state.phase == "over":
            # The estate tokens the app does not keep "count towards victory" too (rules-notes
            # Castells 24). Said in the summary, not in the last instruction: a replay compares
            # an instruction's wording with the log's, and games recorded before say it without.
            return f"Game over after century {board.centuries[-1]}. {castles_line(state)} {ESTATES_COUNT}"
        if state.century < 0:
            return "Setting up"
        who = state.players[state.active].name if state.active is not None else ""
        return f"Century {board.centuries[state.century]}, {who}'s turn; the Saracen at {state.saracen}"


GAME = Castells()
