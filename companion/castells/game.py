"""Terra de Castells as one prompt procedure: setup, five centuries, the Saracen turns.

``GAME`` is what the driver runs. The app keeps the bag, the century, the players'
army points, the castle owners and the Saracen figure; the players do the rest on
their board. Each turn: the territory token is drawn (typed from the physical bag or
drawn by the app); on a token that wakes them the Saracens act first (the active
player moves them to an empty castle or attacks a castle near them); the player is
told what to collect; then attacks on other players' castles are offered until the
player ends the turn.
"""

from __future__ import annotations

from typing import Any

from companion.castells import bag as bags
from companion.castells.battle import Proc, player_battle, saracen_battle
from companion.castells.board import Board, default_board, load_board
from companion.castells.state import SARACENS, CastellsState, Player
from companion.games import Procedure
from companion.prompts import Choose, Enter, Tell

START_ARMY = 3  # the seed gives no starting army: a suggestion the setup question shows, typed over freely
MOVE = "Move the Saracen to an empty castle"
ATTACK_NEAR = "Attack a castle near the Saracen"
ATTACK = "Attack another player's castle"
NAME_PATTERN = r"[A-Za-zÀ-ÿ0-9][A-Za-zÀ-ÿ0-9 .'-]{0,19}"


def end_turn_option(name: str) -> str:
    return f"End {name}'s turn"


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


def player_targets(state: CastellsState, attacker: str) -> list[str]:
    """Other players' castles, in board order: the seed gives player attacks no range, the players check it."""
    return [c for c, o in state.owners.items() if o is not None and o != attacker]


# -- setup ----------------------------------------------------------------------------


def setup(board: Board, state: CastellsState) -> Proc:
    count = int((yield Choose(["2", "3", "4"], why="Setup: how many players?")))
    names: list[str] = []
    for i in range(1, count + 1):
        while True:
            name = yield Enter(
                f"Setup: the name of player {i}? (Enter takes 'Player {i}')",
                NAME_PATTERN,
                "A name is 1 to 20 letters, digits, spaces, dots, dashes or apostrophes, starting with a letter or digit.",
                f"Player {i}",
            )
            if name.casefold() in {n.casefold() for n in names} or name.casefold() == SARACENS.casefold():
                yield Tell(f"'{name}' is taken: give player {i} another name.")
                continue
            names.append(name)
            break
    order: list[str] = []
    for position in range(1, count):
        left = [n for n in names if n not in order]
        order.append((yield Choose(left, why=f"Setup: turn order — who plays {_ordinal(position)}?")))
    order.extend(n for n in names if n not in order)
    state.players = [Player(n) for n in order]
    for p in state.players:
        text = yield Enter(
            f"Setup: {p.name}'s army points at the start? (Enter takes {START_ARMY})",
            r"\d{1,2}",
            "Type the army points as a whole number from 0 to 99.",
            str(START_ARMY),
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
            )
            if picked == no_more_castles(p.name):
                break
            state.owners[picked] = p.name
    yield Tell(f"Place the Saracen figure on its space: {board.saracen_start}.")


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth"}[n]


# -- a turn ---------------------------------------------------------------------------


def draw(board: Board, state: CastellsState, player: Player) -> Proc:
    """Phase 2: the token out of the bag (discarded); None when the bag is empty."""
    left = bags.in_bag(state.bag)
    if not left:
        yield Tell(f"The bag is empty: {player.name} draws no territory token this turn.")
        return None
    counts = ", ".join(f"{t} {state.bag[t]}" for t in left)
    token = yield Choose(left, why=f"{player.name}: {bags.DRAW_WHY} (in the bag: {counts})")
    bags.take(state.bag, token)
    state.discarded.append(token)
    state.drawn = token
    return token


def saracens_act(board: Board, state: CastellsState, player: Player, token: str) -> Proc:
    """Activation: the active player moves the Saracen to an empty castle or attacks a castle near it."""
    state.phase = "saracens"
    where = state.saracen
    kinds = []
    if empty_castles(board, state):
        kinds.append(MOVE)
    if saracen_targets(board, state):
        kinds.append(ATTACK_NEAR)
    if not kinds:
        yield Tell(
            f"A {token} token wakes the Saracens, but they have no empty castle to go to and nothing near to attack."
        )
        return
    why = f"A {token} token wakes the Saracens (at {where}): {player.name}, what do they do?"
    kind = kinds[0] if len(kinds) == 1 else (yield Choose(kinds, why=why))
    if kind == MOVE:
        while True:
            free = empty_castles(board, state)
            if not free:
                yield Tell("No castle is empty any more: the Saracens stay where they are.")
                return
            to = yield Choose(free, why=f"{why} Move the Saracen from {where} to which empty castle?")
            if to in empty_castles(board, state):
                break
            yield Tell(f"{to} is no longer empty (corrected by hand): choose again.")
        state.saracen = to
        yield Tell(f"Move the Saracen figure from {where} to {to}.")
        return
    while True:
        targets = saracen_targets(board, state)
        if not targets:
            yield Tell("No castle near the Saracen is held any more (corrected by hand): they do nothing.")
            return
        target = yield Choose(
            [f"{c} ({state.owners[c]})" for c in targets],
            why=f"{why} Attack which castle near {where}?",
        )
        castle = target.rsplit(" (", 1)[0]
        if castle in saracen_targets(board, state):
            break
    yield from saracen_battle(state, castle)


def resources_text(board: Board, state: CastellsState, player: Player, token: str | None) -> str:
    text = f"{player.name}: collect the resources of your estate tokens in play"
    if token is None:
        return text + "."
    held = [c for c in board.castles_in(token) if state.owners[c] == player.name]
    if held:
        text += f", and raise {len(held)} estate{'s' if len(held) > 1 else ''} of your choice for your castle{'s' if len(held) > 1 else ''} in {token} ({', '.join(held)})"
    else:
        text += f"; you hold no castle in {token}, so the token brings nothing"
    return text + f". Put the {token} token on the discard pile."


def play_turn(board: Board, state: CastellsState) -> Proc:
    assert state.active is not None
    player = state.players[state.active]
    state.attack_won = False
    state.drawn = None
    state.battle = None
    state.phase = "resources"
    token = yield from draw(board, state, player)
    if token is not None and board.wakes(token):
        yield from saracens_act(board, state, player, token)
    state.phase = "resources"
    yield Tell(resources_text(board, state, player, token))
    state.phase = "actions"
    while True:
        options = [end_turn_option(player.name)]
        if not state.attack_won and player_targets(state, player.name):
            options.insert(0, ATTACK)
        picked = yield Choose(
            options,
            why=f"Actions of {player.name}: take them on the board; tell the app of an attack on a castle.",
        )
        if picked != ATTACK:
            return
        targets = player_targets(state, player.name)
        if not targets:
            continue
        target = yield Choose(
            [f"{c} ({state.owners[c]})" for c in targets], why=f"{player.name} attacks which castle?"
        )
        castle = target.rsplit(" (", 1)[0]
        if state.owners.get(castle) in (None, player.name):
            continue  # corrected by hand while asked
        state.phase = "battle"
        yield from player_battle(state, player, castle)
        state.phase = "actions"


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
            f"to {century} and reveals the century card."
        )
        for i in range(len(state.players)):
            state.active = i
            yield from play_turn(board, state)
    state.phase = "over"
    state.active = None
    yield Tell(f"Century {board.centuries[-1]} is over: the game ends. {castles_line(state)}")
    return GAME.summary(state)


def castles_line(state: CastellsState) -> str:
    counts = ", ".join(
        f"{p.name} {sum(1 for o in state.owners.values() if o == p.name)}" for p in state.players
    )
    return f"Castles held: {counts}."


class Castells:
    """The Game interface for Terra de Castells; ``config`` may name a territories and a castles file."""

    id = "castells"
    title = "Terra de Castells"
    rules_version = 1

    def new_state(self, seed: int, config: dict[str, Any]) -> CastellsState:
        tfile, cfile = config.get("territories"), config.get("castles")
        return initial_state(load_board(tfile, cfile), tfile, cfile)

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
            return f"Game over after century {board.centuries[-1]}. {castles_line(state)}"
        if state.century < 0:
            return "Setting up"
        who = state.players[state.active].name if state.active is not None else ""
        return f"Century {board.centuries[state.century]}, {who}'s turn; the Saracen at {state.saracen}"


GAME = Castells()
