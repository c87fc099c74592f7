"""Phase 3 of Terra de Castells as the rulebook lists it: the actions menu, the count of 3
actions a turn, "Control a nearby castle" recorded in the castle map, and what the
Saracens may then do."""

from __future__ import annotations

from castells_helpers import drive, table

from companion.castells.actions import (
    ATTACK,
    ATTRIBUTES,
    BUY,
    CONTROL,
    ESTATE,
    FAITH,
    FAVOUR,
    RULE_CONTROL,
    RULE_COUNT,
    control_targets,
)
from companion.castells.battle import ACCEPT, STOP
from companion.castells.game import MOVE, empty_castles, play_turn
from companion.prompts import Choose, Tell

TERRITORIES = ("Levant", "Migdia", "Ponent", "Riu", "Bosc", "Muntanya")


def only(token: str) -> dict[str, int]:
    return {t: (1 if t == token else 0) for t in TERRITORIES}


def menus(trace) -> list[Choose]:  # type: ignore[no-untyped-def]
    return [p for p in trace.chooses() if p.topic == "castells.actions.next"]


def test_the_menu_offers_each_action_of_phase_3_in_the_rulebook_order() -> None:
    """ "Phase 3 — Actions": control a nearby castle, play an estate token, get token attributes,
    buy favour cards, attack, play a favour card (and the power of faith), then the turn's end."""
    board, state = table({"Mora": "Anna", "Lleida": "Bo"}, {"Anna": 2, "Bo": 2})
    state.bag = only("Riu")
    trace = drive(play_turn(board, state), ["Riu"])
    menu = trace.pending
    assert isinstance(menu, Choose) and menu.topic == "castells.actions.next"
    assert menu.options == (CONTROL, ESTATE, ATTRIBUTES, BUY, ATTACK, FAVOUR, FAITH, "End Anna's turn")
    assert menu.data["options"] == [
        "control",
        "estate",
        "attributes",
        "buy",
        "attack",
        "favour",
        "faith",
        "end",
    ]
    assert menu.rule == RULE_COUNT and menu.data["left"] == 3 and menu.data["taken"] == []


def test_three_actions_at_most_and_favour_cards_and_faith_do_not_count() -> None:
    """ "The active player can take 0 to 3 actions in any order": after three, only a favour card
    with T, the power of faith and the end are offered; those two are not counted."""
    board, state = table({"Mora": "Anna", "Lleida": "Bo"}, {"Anna": 2, "Bo": 2})
    state.bag = only("Riu")
    trace = drive(play_turn(board, state), ["Riu", ESTATE, FAVOUR, FAITH, ATTRIBUTES, BUY])
    assert state.actions == ["estate", "attributes", "buy"]
    told = trace.tells()
    assert any(t.startswith("Anna (action 1 of 3): pay 1 estate of town") for t in told)
    assert any(t.startswith("Anna (not an action): apply one of the card's two effects") for t in told)
    assert any(t.startswith("Anna (action 3 of 3): pay 1 crown per letter") for t in told)
    pending = trace.pending
    assert isinstance(pending, Choose) and pending.data["options"] == ["favour", "faith", "end"]
    assert pending.data["left"] == 0


def test_a_lost_attack_counts_and_no_fourth_attack_is_offered() -> None:
    """A lost attack changes nothing on the board, but it is one of the 3 actions: three lost
    attacks end what the turn may do (before, attacks were offered without end)."""
    board, state = table({"Lleida": "Bo"}, {"Anna": 0, "Bo": 0})
    state.bag = only("Riu")
    lost = [ATTACK, "Lleida (Bo)", "", "", [1] * 5]
    trace = drive(play_turn(board, state), ["Riu", *lost, *lost, *lost])
    assert state.owners["Lleida"] == "Bo" and state.actions == ["attack"] * 3
    assert [m.data["left"] for m in menus(trace)] == [3, 2, 1]
    pending = trace.pending
    assert isinstance(pending, Choose) and ATTACK not in pending.options
    assert "3 actions, the most a turn allows" in pending.reason


def test_a_won_attack_allows_other_actions_but_no_other_attack() -> None:
    """ "Favorable result for the attacker": the attacker "cannot attack again this turn"; the
    other actions stay, the attack counted."""
    board, state = table({"Lleida": "Bo", "Flix": "Bo"}, {"Anna": 2, "Bo": 2})
    state.bag = only("Riu")
    trace = drive(
        play_turn(board, state),
        ["Riu", ATTACK, "Lleida (Bo)", "", "", [5, 5, 5, 1, 1], STOP, [1] * 5, ACCEPT],
    )
    assert state.owners["Lleida"] == "Anna"
    pending = trace.pending
    assert isinstance(pending, Choose) and "attack" not in pending.data["options"]
    assert "estate" in pending.data["options"] and pending.data["left"] == 2
    assert "cannot attack again" in pending.reason


def test_control_reaches_empty_castles_within_two_near_links() -> None:
    """ "an adjacent empty castle or within two hexes of an own castle": the castle map's near
    lists are the adjacency; two links are two hexes. Held castles and the Saracen's are not empty."""
    board, state = table({"Mora": "Anna", "Lleida": "Bo"}, {"Anna": 2, "Bo": 2}, saracen="Siurana")
    # Near Mora: Flix, Miravet, Montblanc; two links: Tortosa, Siurana, Lleida, Queralt, Cervera.
    assert control_targets(board, state, "Anna") == [
        "Tortosa",
        "Flix",
        "Miravet",
        "Montblanc",
        "Queralt",
        "Cervera",
    ]
    assert "Cardona" not in control_targets(board, state, "Anna")  # three links: Mora, Montblanc, Queralt
    assert control_targets(board, state, "Cai") == []  # no castle, nothing near


def test_control_places_the_castle_and_the_saracens_follow_the_map() -> None:
    """A castle controlled is recorded as the player's (cost told, one action): the Saracens can
    no longer move to it, and may now attack it when it is near them."""
    board, state = table({"Mora": "Anna"}, {"Anna": 2, "Bo": 2}, saracen="Tortosa")
    state.bag = {"Levant": 0, "Migdia": 1, "Ponent": 0, "Riu": 1, "Bosc": 0, "Muntanya": 0}
    trace = drive(play_turn(board, state), ["Riu", CONTROL, "Miravet"])
    (target,) = [p for p in trace.chooses() if p.topic == "castells.actions.control_target"]
    assert "Miravet" in target.options and target.rule == RULE_CONTROL
    assert state.owners["Miravet"] == "Anna" and state.actions == ["control"]
    (tell,) = [p for p in trace.prompts if isinstance(p, Tell) and p.topic == "castells.actions.control"]
    assert (
        tell.text == "Anna (action 1 of 3): pay 1 estate of each type and place a castle of yours on Miravet."
    )
    assert "Miravet" not in empty_castles(board, state)
    # Bo's turn: a Migdia token wakes the Saracens at Tortosa, near Miravet: they may attack it.
    state.active = 1
    trace = drive(play_turn(board, state), ["Migdia"])
    assert isinstance(trace.pending, Choose) and trace.pending.topic == "castells.saracens.action"
    assert trace.pending.data["targets"] == ["Miravet"] and MOVE in trace.pending.options
