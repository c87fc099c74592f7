"""Phase 3 of Terra de Castells as the rulebook lists it: the actions menu, the count of 3
actions a turn, "Control a nearby castle" recorded in the castle map, and what the
Saracens may then do."""

from __future__ import annotations

from typing import Any

import pytest
from castells_helpers import drive, feed, setup_answers, table

from companion.castells.actions import (
    ATTACK,
    ATTRIBUTES,
    BUY,
    CONTROL,
    ESTATE,
    FAITH,
    FAVOUR,
    RULE_ANNOUNCE,
    RULE_CONTROL,
    RULE_COUNT,
    RULE_ESTATE,
    control_targets,
    menu,
    refusals,
)
from companion.castells.battle import ACCEPT, STOP
from companion.castells.board import default_board
from companion.castells.game import GAME, MOVE, empty_castles, play_turn
from companion.driver import Driver
from companion.prompts import Choose, Tell, edit_prompt

SETUP = setup_answers(["Anna", "Bo"], [2, 1], {"Anna": ["Tortosa", "Mora"], "Bo": ["Lleida", "Siurana"]})
TERRITORIES = ("Levant", "Migdia", "Ponent", "Riu", "Bosc", "Muntanya")


def only(token: str) -> dict[str, int]:
    return {t: (1 if t == token else 0) for t in TERRITORIES}


def menus(trace) -> list[Choose]:  # type: ignore[no-untyped-def]
    return [p for p in trace.chooses() if p.topic == "castells.actions.next"]


def test_the_menu_offers_each_action_of_phase_3_in_the_rulebook_order() -> None:
    """ "Phase 3 — Actions": control a nearby castle, play an estate token, get token attributes,
    buy favour cards, attack, play a favour card (and the power of faith), then the turn's end;
    each offered where its rule allows it (Anna holds two castles, an empty one near them, and
    has bought favour cards in an earlier turn)."""
    board, state = table({"Mora": "Anna", "Flix": "Anna", "Lleida": "Bo"}, {"Anna": 2, "Bo": 2})
    state.bag = only("Riu")
    state.players[0].favour = True
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
    with T, the power of faith and the end are offered; those two are not counted (Anna holds two
    castles and bought favour cards in an earlier turn)."""
    board, state = table({"Mora": "Anna", "Flix": "Anna", "Lleida": "Bo"}, {"Anna": 2, "Bo": 2})
    state.bag = only("Riu")
    state.players[0].favour = True
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
    board, state = table({"Mora": "Anna", "Lleida": "Bo"}, {"Anna": 0, "Bo": 0})
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
    board, state = table({"Cardona": "Anna", "Lleida": "Bo", "Flix": "Bo"}, {"Anna": 2, "Bo": 2})
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


# -- what the menu offers: only what the rule allows the player now ---------------------------

#: Every action of Phase 3 by its code, in the rulebook's order (the menu's codes but the end).
PHASE_3 = ("control", "estate", "attributes", "buy", "attack", "favour", "faith")


def offered(board, state, name: str) -> list[str]:  # type: ignore[no-untyped-def]
    return [code for code, _ in menu(board, state, state.player(name)) if code != "end"]


def menu_now(owners: dict[str, str]) -> tuple[Any, Any, Choose]:
    """Anna's first actions menu, with ``owners`` on the board."""
    board, state = table(owners, {"Anna": 2, "Bo": 2})
    state.bag = only("Riu")
    trace = drive(play_turn(board, state), ["Riu"])
    assert isinstance(trace.pending, Choose) and trace.pending.topic == "castells.actions.next"
    return board, state, trace.pending


def menu_driver(config: dict[str, Any] | None = None) -> Driver:
    """A game past setup (Anna: Tortosa, Mora; Bo: Lleida, Siurana) at Anna's first actions menu."""
    d = Driver(GAME, 5, config)
    feed(d, [*SETUP, "Riu"], ack_last=True)
    assert isinstance(d.pending, Choose) and d.pending.topic == "castells.actions.next", d.pending
    return d


def test_a_player_who_holds_no_castle_is_offered_no_attack() -> None:
    """ "The attacker announces the source castle and the target castle": a player who holds no
    castle has no source castle to announce, so no attack is offered (before, Anna took Lleida
    from nowhere); one castle of her own is enough (the players check the range on the table)."""
    board, state, pending = menu_now({"Lleida": "Bo", "Flix": "Bo"})
    assert "attack" not in pending.data["options"] and ATTACK not in pending.options
    assert refusals(board, state, state.player("Anna"))["attack"] == (
        "Anna holds no castle to announce as the source castle of an attack."
    )
    assert "no attack: Anna holds no castle" in pending.reason
    state.owners["Cardona"] = "Anna"  # far from Lleida and Flix: the rulebook gives the attack no range
    assert "attack" in offered(board, state, "Anna") and "attack" not in refusals(
        board, state, state.player("Anna")
    )


def test_an_attack_chosen_after_a_correction_took_the_source_castles_is_refused_uncounted() -> None:
    """ "The attacker announces the source castle and the target castle": when a correction by hand
    takes Anna's castles while the menu waits, the attack she picks is refused in one sentence,
    not counted, and the menu comes again without it; no castle changes hands."""
    d = menu_driver()
    for castle in ("Tortosa", "Mora"):
        d.edit(edit_prompt("x", {"kind": "castle", "castle": castle, "owner": None}))
    owners = dict(d.state.owners)
    d.submit(ATTACK, "player")
    told = d.pending
    assert isinstance(told, Tell) and told.topic == "castells.actions.refused"
    assert told.data == {"player": "Anna", "action": "attack"} and told.rule == RULE_ANNOUNCE
    assert told.text == (
        "Anna holds no castle to announce as the source castle of an attack: the table was "
        "corrected by hand while the menu was asked."
    )
    d.ack()
    assert isinstance(d.pending, Choose) and "attack" not in d.pending.data["options"]
    assert d.state.actions == [] and d.state.owners == owners and d.state.battle is None


@pytest.mark.parametrize(
    ("castles", "allowed"), [([], False), (["Mora"], False), (["Mora", "Cardona"], True)]
)
def test_an_estate_token_is_offered_only_to_a_player_with_two_castles(
    castles: list[str], allowed: bool
) -> None:
    """Play a state token: "The token must be in a free hex adjacent to two own castles": a
    player with fewer than two castles has no such hex, so the action is neither offered nor
    counted; with two, the free hex is the players' to find on the table."""
    board, state, pending = menu_now(dict.fromkeys(castles, "Anna") | {"Lleida": "Bo"})
    assert ("estate" in pending.data["options"]) is allowed and (ESTATE in pending.options) is allowed
    why = refusals(board, state, state.player("Anna")).get("estate")
    if allowed:
        assert why is None
    else:
        held = "none" if not castles else "only one"
        assert why == (
            f"An estate token must be in a free hex adjacent to two of Anna's own castles, and Anna holds {held}."
        )


def test_an_estate_token_chosen_after_a_correction_left_one_castle_is_not_counted() -> None:
    """ "The token must be in a free hex adjacent to two own castles": picked after a correction
    by hand left Anna one castle, the estate token is refused in one sentence and not counted."""
    d = menu_driver()
    assert "estate" in d.pending.data["options"]  # type: ignore[union-attr]
    d.edit(edit_prompt("x", {"kind": "castle", "castle": "Mora", "owner": "Bo"}))
    d.submit(ESTATE, "player")
    told = d.pending
    assert isinstance(told, Tell) and told.topic == "castells.actions.refused"
    assert told.data == {"player": "Anna", "action": "estate"} and told.rule == RULE_ESTATE
    assert told.text.startswith("An estate token must be in a free hex adjacent to two of Anna's own castles")
    d.ack()
    assert d.state.actions == [] and isinstance(d.pending, Choose)
    assert d.pending.data["left"] == 3 and "estate" not in d.pending.data["options"]


@pytest.mark.parametrize("config", [{}, {"favour_question": "after_purchase"}])
def test_a_favour_card_with_t_is_offered_only_to_a_player_who_has_bought_one(config: dict[str, Any]) -> None:
    """Buy favor cards: "It is stolen from the corresponding stack" (the only way to get a card);
    Play a favor card: "with T at any point in the turn". Before a purchase no card with T is
    offered; once Anna has bought, she is offered one at any point of her turns (after her 3
    actions too), while Bo, who has bought none, is not."""
    d = menu_driver(config)
    menu0 = d.pending
    assert isinstance(menu0, Choose) and "favour" not in menu0.data["options"] and FAVOUR not in menu0.options
    assert refusals(default_board(), d.state, d.state.player("Anna"))["favour"] == (
        "Anna has bought no favour cards this game, and buying them is the only way to get one."
    )
    feed(d, [BUY, ATTRIBUTES, ESTATE])
    after = d.pending
    assert isinstance(after, Choose) and after.data["options"] == ["favour", "faith", "end"]
    feed(d, [FAVOUR, "End Anna's turn", "Riu"])
    bo = d.pending
    assert isinstance(bo, Choose) and bo.data["player"] == "Bo" and "favour" not in bo.data["options"]
    feed(d, ["End Bo's turn", "Riu"])
    again = d.pending
    assert isinstance(again, Choose) and again.data["player"] == "Anna" and "favour" in again.data["options"]


def test_each_action_not_offered_has_the_one_sentence_why() -> None:
    """ "The active player can take 0 to 3 actions in any order", and each action's own rule:
    for every action of Phase 3 the menu does not offer there is one sentence why, from the
    table as it stands; for every action offered, none."""
    board, state = table(
        {"Ulldecona": "Anna", "Tortosa": "Bo", "Siurana": "Bo", "Miravet": "Bo"}, {"Anna": 2, "Bo": 2}
    )
    # Ulldecona's one near castle, Tortosa, and Tortosa's (Siurana, Miravet) are Bo's: within two
    # near-links of Anna's castle none is empty (the Saracen's start near it is no castle).
    anna = state.player("Anna")
    why = refusals(board, state, anna)
    assert set(why) == set(PHASE_3) - set(offered(board, state, "Anna"))
    assert why == {
        "control": "No castle is empty within two hexes of Anna's castles.",
        "estate": "An estate token must be in a free hex adjacent to two of Anna's own castles, and Anna holds only one.",
        "favour": "Anna has bought no favour cards this game, and buying them is the only way to get one.",
    }
    state.owners["Ulldecona"] = None
    assert refusals(board, state, anna)["control"] == (
        "Anna holds no castle, and a castle controlled must be adjacent to or within two hexes of an own castle."
    )
    state.owners["Ulldecona"] = "Anna"
    bo = {c: o for c, o in state.owners.items() if o == "Bo"}
    state.owners.update(dict.fromkeys(bo))
    assert refusals(board, state, anna)["attack"] == "No other player holds a castle to attack."
    state.owners.update(bo)
    state.attack_won = True
    assert (
        refusals(board, state, anna)["attack"]
        == "Anna won an attack this turn and cannot attack again this turn."
    )
    state.attack_won, state.actions = False, ["buy", "buy", "attributes"]
    anna.favour = True
    three = refusals(board, state, anna)
    assert set(three) == {"control", "estate", "attributes", "buy", "attack"}
    assert three["buy"] == three["attack"] == "Anna has taken 3 actions, the most a turn allows."
    assert offered(board, state, "Anna") == ["favour", "faith"]
    for sentence in [*why.values(), *three.values()]:
        assert sentence.endswith(".") and ". " not in sentence  # one sentence
