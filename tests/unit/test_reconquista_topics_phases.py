"""The topics, data and rules of the prompts of Phase 1 (rebellions.py), Phase 2 (events.py),
the turn, Phase 7 and the score (game.py), in real positions: the values come from the state
(the region struck, the result that was refused, the areas a pick could give, the units
removed), so a wrong one fails. The wording itself is held by the other tests and the golden
games; here only what code reads instead of it.

The default board: Asturias 1 is Santiago 1-2, Oviedo 3, Galicia 4, León 5-6; Aragón 2 is
Pamplona 1-2, Barcelona 3, Tarragona 4, Zaragoza 5-6; Castilla 3 is Salamanca 1-2, Toledo 3,
Cuenca 4, Valencia 5-6; Portugal 4 is Porto 1-2, Lisboa 3, Badajoz 4, Sevilla 5-6.
"""

from __future__ import annotations

import dataclasses
import random
import re

import pytest
from procedure_helpers import drive
from reconquista_helpers import place, topics

from companion.driver import Driver
from companion.prompts import Choose, Prompt, Roll, Tell
from companion.reconquista import events, rebellions
from companion.reconquista.battle import Proc
from companion.reconquista.board import Board
from companion.reconquista.bot import Bot
from companion.reconquista.control import victory_points
from companion.reconquista.game import GAME, end_of_turn, final_score, play_turn, remove_unoccupied_fortresses
from companion.reconquista.setup import initial_state
from companion.reconquista.state import GameState
from companion.reconquista.units import Kind

A, G, R = Kind.ARMY, Kind.GARRISON, Kind.REBEL
TOPIC = re.compile(r"^[a-z0-9_]+(\.[a-z0-9_]+){2,}$")


def only(prompts: list[Prompt], topic: str) -> list[Prompt]:
    return [p for p in prompts if p.topic == topic]


def stub_move(board: Board, state: GameState, side: str, area: str) -> Proc:
    """The French and Rebel marches are march.py's: here the force just stays."""
    yield from ()


# -- Phase 1: the region die ---------------------------------------------------------------------


def test_the_region_die_and_its_re_roll_after_a_six(board: Board, state: GameState) -> None:
    """Phase 1: "If the result to determine the region is a 6, roll again to determine the
    region and roll twice on the table": the re-roll is "double", never "again"; both table
    dice name Castilla, the second says it is the second; neither is a roll asked again."""
    prompts, _ = drive(rebellions.phase(board, state), [[6], [3], [6], [6]])
    region = only(prompts, "reconquista.rebellions.region")
    assert [p.data["double"] for p in region] == [False, True]
    assert region[1].data["rolled"] == 6 and "again" not in region[1].data
    assert region[0].data["faces"]["3"] == "Castilla"
    assert region[1].rule.startswith("Phase 1: Rebellions — If the result")
    assert region[1].reason
    strike = only(prompts, "reconquista.rebellions.strike")
    assert [p.data for p in strike] == [{"region": "Castilla", "double": True}]
    table = only(prompts, "reconquista.rebellions.table")
    assert [(p.data["region"], p.data["second"], p.data["again"]) for p in table] == [
        ("Castilla", False, False),
        ("Castilla", True, False),
    ]
    results = only(prompts, "reconquista.rebellions.result")
    assert [(p.data["as"], p.data["already"]) for p in results] == [
        ("regional_revolt", False),
        ("regional_revolt", True),
    ]
    assert results[0].rule == "Phase 1: Rebellions — 6 Regional Revolt"


def test_a_plain_region_die_names_no_double(board: Board, state: GameState) -> None:
    prompts, _ = drive(rebellions.phase(board, state), [[4], [6]])
    assert topics(prompts) == [
        "reconquista.rebellions.region",
        "reconquista.rebellions.strike",
        "reconquista.rebellions.table",
        "reconquista.rebellions.result",
    ]
    assert prompts[1].data == {"region": "Portugal", "double": False}
    assert prompts[2].data == {"region": "Portugal", "double": False, "second": False, "again": False}


# -- Phase 1: the table asked again -----------------------------------------------------------------


def test_the_table_asked_again_says_what_was_refused(board: Board, state: GameState) -> None:
    """Phase 1: "if the result would eliminate the last Christian-controlled [...] city, roll
    again": Proselytism in Oviedo (the last Christian-controlled city, empty) is refused;
    the next table die is the one with "again" True, naming the refused result and side."""
    place(state, "Oviedo", city="christian")
    prompts, _ = drive(rebellions.phase(board, state), [[1], [3], [3], [6]])
    table = only(prompts, "reconquista.rebellions.table")
    assert [p.data["again"] for p in table] == [False, True]
    assert table[1].data["rejected"] == "proselytism" and table[1].data["sides"] == ["christian"]
    assert table[1].reason == "proselytism in Oviedo would have eliminated the last Christian-controlled city"
    area = only(prompts, "reconquista.rebellions.area")
    assert len(area) == 1 and isinstance(area[0], Roll)
    assert area[0].data == {
        "region": "Asturias",
        "result": "proselytism",
        "wanted": "a_city",
        "candidates": ["Oviedo", "León"],
    }
    (refused,) = only(prompts, "reconquista.rebellions.refused")
    assert refused.data["result"] == "proselytism" and refused.data["sides"] == ["christian"]
    assert refused.rule == "Phase 1: Rebellions — To prevent the game from ending because of a rebellion"
    # The refused trial left no result Tell: the one told is the roll again's.
    (result,) = only(prompts, "reconquista.rebellions.result")
    assert result.data["result"] == "regional_revolt"


def test_a_muslim_city_refused(board: Board, state: GameState) -> None:
    """Granada the only Muslim-controlled city: a Rebel Governor there is refused for the Muslims."""
    for name, a in state.areas.items():
        if a.city is not None and name != "Granada" and a.count("muslim"):
            place(state, name, [("christian", G, 1)], city=a.city)
    prompts, _ = drive(rebellions.phase(board, state), [[5], [5], [5], [4], [4]])
    table = only(prompts, "reconquista.rebellions.table")
    assert table[1].data["rejected"] == "rebel_governor" and table[1].data["sides"] == ["muslim"]
    (result,) = only(prompts, "reconquista.rebellions.result")
    assert result.data["as"] == "peasant_revolt" and result.data["area"] == "Murcia"


# -- Phase 1: what each result did --------------------------------------------------------------------


def test_rebels_with_no_viable_area_say_which_unit_went(board: Board, state: GameState) -> None:
    """1 or 2 Rebels with every area of Asturias holding a garrison: the area die is for the
    area that loses a unit (Oviedo), and the garrison goes before the army."""
    prompts, _ = drive(rebellions.phase(board, state), [[1], [2], [3]])
    (area,) = only(prompts, "reconquista.rebellions.area")
    assert area.data["wanted"] == "a_unit_to_lose" and area.data["result"] == "rebels"
    assert area.rule == "Phase 1: Rebellions — 1 or 2 Rebels"
    (result,) = only(prompts, "reconquista.rebellions.result")
    assert result.data["area"] == "Oviedo"
    assert result.data["removed"] == {"christian": {"G": 1}}
    assert "combat removal order" in result.reason


def test_a_result_with_no_city_counts_as_rebels(board: Board, state: GameState) -> None:
    """3 Proselytism in Portugal emptied of cities: "treat this result as Rebels"."""
    for name in board.regions[4].areas:
        place(state, name)
    prompts, _ = drive(rebellions.phase(board, state), [[4], [3], [4]])
    (area,) = only(prompts, "reconquista.rebellions.area")
    assert area.data["result"] == "rebels" and area.data["wanted"] == "no_garrison_army_or_order"
    (result,) = only(prompts, "reconquista.rebellions.result")
    assert result.data["result"] == "proselytism"
    assert result.data["as"] == "rebels" and result.data["instead_of"] == "proselytism"
    assert result.data["area"] == "Badajoz" and result.data["placed"] == 1 and result.data["fell"] is False
    assert result.rule == "Phase 1: Rebellions — 3 Proselytism"
    assert result.reason == "there is no city in the region, so it counts as rebels"


def test_proselytism_names_the_city_and_both_religions(board: Board, state: GameState) -> None:
    """Pamplona (1) has no city: the area die is asked again (selection's "again"); Barcelona
    turns from Christian to Muslim."""
    prompts, _ = drive(rebellions.phase(board, state), [[2], [3], [1], [3]])
    area = only(prompts, "reconquista.rebellions.area")
    assert [p.data.get("again", False) for p in area] == [False, True]
    assert area[1].data["rejected"] == "Pamplona"
    (result,) = only(prompts, "reconquista.rebellions.result")
    assert {k: result.data[k] for k in ("as", "area", "from", "to")} == {
        "as": "proselytism",
        "area": "Barcelona",
        "from": "christian",
        "to": "muslim",
    }
    assert result.reason == ""


def test_the_only_city_is_told_with_its_topic(board: Board, state: GameState) -> None:
    """Portugal has one city, Lisboa: no area die, the selection's Tell carries the topic."""
    prompts, _ = drive(rebellions.phase(board, state), [[4], [5]])
    (picked,) = only(prompts, "reconquista.rebellions.area")
    assert isinstance(picked, Tell)
    assert picked.data["picked"] == "Lisboa" and picked.data["only"] is True
    assert picked.data["result"] == "rebel_governor"
    (result,) = only(prompts, "reconquista.rebellions.result")
    assert result.data["replaced"] == {"muslim": {"G": 1}} and result.data["placed"] == 1
    assert result.data["fell"] is True and result.data["besieger"] is None


def test_peasant_revolt_counts_the_garrisons_of_each_side(board: Board, state: GameState) -> None:
    place(
        state,
        "Zaragoza",
        [("muslim", G, 1), ("christian", G, 2)],
        city="muslim",
        fortress=True,
        besieger="christian",
    )
    prompts, _ = drive(rebellions.phase(board, state), [[2], [4], [5]])
    (result,) = only(prompts, "reconquista.rebellions.result")
    assert result.data["removed"] == {"christian": {"G": 2}, "muslim": {"G": 1}}
    assert result.data["fell"] is True
    assert result.rule == "Phase 1: Rebellions — 4 Peasant Revolt"


def test_rebel_governor_names_the_besieger_that_stays(board: Board, state: GameState) -> None:
    state.areas["Toledo"].add("christian", A, 2)
    state.areas["Toledo"].besieger = "christian"
    prompts, _ = drive(rebellions.phase(board, state), [[3], [5], [3]])
    (result,) = only(prompts, "reconquista.rebellions.result")
    assert result.data["replaced"] == {"muslim": {"A": 1, "G": 1}}
    assert result.data["placed"] == 2 and result.data["besieger"] == "christian"


def test_every_prompt_of_phase_1_has_its_topic_and_rule(board: Board) -> None:
    """Random positions of play: no prompt of the phase goes without topic or rule."""
    rng = random.Random(7)
    seen: set[str] = set()
    for _ in range(300):
        state = initial_state(board)
        for a in state.areas.values():
            if rng.random() < 0.4:
                a.units.clear()
        proc = rebellions.phase(board, state)
        try:
            prompt = next(proc)
            while True:
                assert TOPIC.match(prompt.topic) and prompt.topic.startswith("reconquista.rebellions.")
                assert prompt.rule.startswith("Phase 1: Rebellions")
                seen.add(prompt.topic)
                prompt = proc.send([rng.randint(1, 6)] if isinstance(prompt, Roll) else None)
        except StopIteration:
            pass
    assert seen == {
        f"reconquista.rebellions.{t}" for t in ("region", "strike", "table", "area", "result", "refused")
    }


# -- Phase 2 ----------------------------------------------------------------------------------------


def test_the_events_roll(board: Board, state: GameState) -> None:
    prompts, _ = drive(events.phase(board, state, stub_move), [[4, 5]])
    assert prompts[0] == Roll(2, 6, "Events: 2D6, the total picks the event", topic="reconquista.events.roll")
    assert prompts[0].rule.startswith("Phase 2: Events")
    assert prompts[1].topic == "reconquista.events.taxes" and prompts[1].data == {"income": 2}


def test_french_start_leaves_out_the_region_in_revolt(board: Board, state: GameState) -> None:
    """2 French Intervention with Asturias in revolt: Oviedo is no candidate; a 1 (Oviedo) is
    rolled again, a 3 gives Pamplona, where the 4 French are placed."""
    state.revolt = 1
    prompts, _ = drive(events.french_intervention(board, state, stub_move), [[4], [1], [3]])
    assert prompts[0].topic == "reconquista.events.french_count"
    start = only(prompts, "reconquista.events.french_start")
    assert [p.data["candidates"] for p in start] == [["Pamplona", "Barcelona"]] * 2
    assert start[0].data["revolt"] == "Asturias" and start[0].data["faces"]["1"] == "Oviedo"
    assert start[1].data["again"] is True and start[1].data["rejected"] == "Oviedo"
    (placed,) = only(prompts, "reconquista.events.french")
    assert placed.data == {"appear": True, "armies": 4, "area": "Pamplona", "revolt": "Asturias"}
    assert placed.rule == "Phase 2: Events — 2 French Intervention"


def test_french_who_cannot_appear(board: Board, state: GameState) -> None:
    """Every French start in the region in revolt: nothing to roll, and the Tell says why."""
    small = board.tables.model_copy(update={"french_start": dict.fromkeys(range(1, 7), "Oviedo")})
    one_start = dataclasses.replace(board, tables=small)
    state.revolt = 1
    prompts, _ = drive(events.french_intervention(one_start, state, stub_move), [])
    (told,) = prompts
    assert told.topic == "reconquista.events.french"
    assert told.data == {"appear": False, "armies": 0, "area": None, "revolt": "Asturias"}
    assert told.reason


def test_rebel_armies_start_by_the_columns(board: Board, state: GameState) -> None:
    """5 Rebels: the first die 4-6 picks the high column, the second the row: 5, 2 is Tarragona."""
    prompts, _ = drive(events.rebel_armies(board, state, stub_move), [[2], [5, 2]])
    assert prompts[0].topic == "reconquista.events.rebels_count"
    (start,) = only(prompts, "reconquista.events.rebels_start")
    assert start.data["columns"]["4-6"]["2"] == "Tarragona" and start.data["revolt"] is None
    (placed,) = only(prompts, "reconquista.events.rebels")
    assert placed.data == {"appear": True, "armies": 2, "area": "Tarragona", "revolt": None}
    assert placed.rule == "Phase 2: Events — 5 Rebels"


def test_mercenaries_count(board: Board, state: GameState) -> None:
    prompts, _ = drive(events.mercenaries(board, state), [[5]])
    assert topics(prompts) == ["reconquista.events.mercenaries_count", "reconquista.events.mercenaries"]
    assert prompts[1].data == {"mercenaries": 5, "cost": 1}
    assert prompts[1].rule == "Phase 2: Events — 4 Mercenaries"


def test_military_order_cities(board: Board, state: GameState) -> None:
    """At setup Oviedo is the only Christian-controlled city: no question, and a reason; with a
    Christian garrison in León the player is asked among both."""
    prompts, _ = drive(events.military_order(board, state), [])
    (told,) = prompts
    assert told.topic == "reconquista.events.military_order"
    assert told.data == {"appear": True, "area": "Oviedo", "cities": ["Oviedo"], "revolt": None}
    assert "Oviedo" in told.reason
    assert told.rule == "Quick Reference Sheet — Phase 2 - Random event: 6 Military Order"
    place(state, "León", [("christian", G, 1)], city="christian")
    prompts, _ = drive(events.military_order(board, state), ["León"])
    asked, told = prompts
    assert isinstance(asked, Choose) and asked.topic == "reconquista.events.military_order_city"
    assert asked.data == {"cities": ["Oviedo", "León"], "revolt": None}
    assert told.data["area"] == "León" and told.reason == ""


def test_famine_lists_the_units_removed(board: Board, state: GameState) -> None:
    """7 Famine at setup: only Córdoba has 3 units of a side (2 Muslim armies, 1 garrison): the
    garrison goes first."""
    prompts, _ = drive(events.famine(board, state), [])
    (told,) = prompts
    assert told.topic == "reconquista.events.famine"
    assert told.data == {
        "removed": [{"area": "Córdoba", "side": "muslim", "units": {"G": 1}}],
        "spared": None,
    }


def test_el_cid_for_the_muslims_goes_to_the_most_armies(board: Board, state: GameState) -> None:
    prompts, _ = drive(events.el_cid(board, state), [[5]])
    assert prompts[0].topic == "reconquista.events.el_cid_side"
    assert prompts[0].data == {"christian": [1, 2, 3], "muslim": [4, 5, 6]}
    told = prompts[1]
    assert told.topic == "reconquista.events.el_cid"
    assert told.data == {
        "side": "muslim",
        "face": 5,
        "revolt": None,
        "armies": 2,
        "appear": True,
        "area": "Córdoba",
    }
    assert told.reason == "Córdoba has the most muslim armies (2)"


def test_every_prompt_of_phase_2_has_its_topic_and_rule(board: Board) -> None:
    rng = random.Random(11)
    seen: set[str] = set()
    for _ in range(400):
        state = initial_state(board)
        state.revolt = rng.choice([None, 1, 2, 3, 4, 5])
        proc = events.phase(board, state, stub_move)
        try:
            prompt = next(proc)
            while True:
                assert TOPIC.match(prompt.topic) and prompt.topic.startswith("reconquista.events.")
                assert prompt.rule
                seen.add(prompt.topic)
                if isinstance(prompt, Roll):
                    answer: object = [rng.randint(1, 6) for _ in range(prompt.n)]
                elif isinstance(prompt, Choose):
                    answer = rng.choice(prompt.options)
                else:
                    answer = None
                prompt = proc.send(answer)
        except StopIteration:
            pass
    assert {"reconquista.events.roll", "reconquista.events.french", "reconquista.events.el_cid"} <= seen


# -- the turn, Phase 7 and the score ------------------------------------------------------------------


def test_turn_begins_with_its_number(board: Board, state: GameState) -> None:
    state.turn = 5
    first = next(play_turn(board, state))
    assert first.topic == "reconquista.turn.begin" and first.data == {"turn": 5}
    assert first.rule.startswith("Phase 7: End of Turn")
    assert next(play_turn(board, initial_state(board))).rule.startswith("Setting Up the Board")


def test_end_of_turn_removals(board: Board, state: GameState) -> None:
    state.turn = 5
    state.phase = "end"
    state.areas["Galicia"].add("french", Kind.FRENCH, 2)
    state.areas["Lisboa"].add("muslim", Kind.MERCENARY, 3)
    state.el_cid_area, state.el_cid_side = "Oviedo", "christian"
    state.areas["Badajoz"].set_force("muslim", [])
    prompts, over = drive(end_of_turn(board, state))
    assert over is False
    assert [p.data for p in only(prompts, "reconquista.end.remove")] == [
        {"area": "Galicia", "side": "french", "unit": "F", "count": 2},
        {"area": "Lisboa", "side": "muslim", "unit": "MC", "count": 3},
        {"area": "Oviedo", "side": "christian", "unit": "el_cid", "count": 1},
    ]
    (fortress,) = only(prompts, "reconquista.end.fortress")
    assert fortress.data == {"area": "Badajoz", "phase": "end"}
    assert fortress.rule.startswith("Phase 7: End of Turn — Remove any Fortress")


def test_a_lone_fortress_after_another_phase_follows_the_definition(board: Board, state: GameState) -> None:
    state.phase = "movement"
    state.areas["Toledo"].set_force("muslim", [])
    state.areas["Toledo"].city = None
    (told,) = drive(remove_unoccupied_fortresses(board, state))[0]
    assert told.data == {"area": "Toledo", "phase": "movement"}
    assert told.rule.startswith("Important Definitions")


@pytest.mark.parametrize("turn", [20, 7])
def test_the_end_of_the_game_names_its_cause(board: Board, state: GameState, turn: int) -> None:
    state.turn = turn
    if turn != 20:
        for area in state.areas.values():
            area.units.pop("christian", None)
            if area.city == "christian":
                area.add("muslim", Kind.GARRISON)
    prompts, over = drive(end_of_turn(board, state))
    assert over is True
    (told,) = only(prompts, "reconquista.end.over")
    assert told.data == {"turn": turn, "cause": "last_turn" if turn == 20 else "no_christians"}


def test_the_score_gives_the_total_and_the_band(board: Board, state: GameState) -> None:
    """At setup: Oviedo is the only Christian-controlled city, no region scores: 1 VP."""
    (told,), _ = drive(final_score(board, state))
    assert told.topic == "reconquista.victory.score"
    assert told.data == {
        "total": 1,
        "band": "Crushing Muslim Victory",
        "title": "Almanzor",
        "cities": ["Oviedo"],
        "majority": [],
        "free": [],
    }
    assert told.rule == "End of Game: Victory Points"
    # A region won: Asturias all Christian, free of Muslims.
    for name in board.regions[1].areas:
        place(state, name, [("christian", G, 1)], city=state.areas[name].city)
    (told,), _ = drive(final_score(board, state))
    assert told.data["cities"] == ["Oviedo", "León"]
    assert told.data["majority"] == told.data["free"] == ["Asturias"]
    assert told.data["total"] == victory_points(board, state).total == 6


def test_a_whole_game_counts_its_turns_and_scores_by_topic() -> None:
    driver = Driver(GAME, 5)
    bot = Bot(5)
    board = GAME.board_of(driver.state)
    while driver.pending is not None:
        p = driver.pending
        if isinstance(p, Roll):
            driver.roll()
        elif isinstance(p, Tell):
            driver.ack()
        else:
            assert isinstance(p, Choose)
            driver.submit(bot.choose(board, driver.state, p), "player")
    prompts = [s.prompt for s in driver.steps]
    turns = [p.data["turn"] for p in only(prompts, "reconquista.turn.begin")]
    assert turns == list(range(1, driver.state.turn + 1))
    assert len(only(prompts, "reconquista.events.roll")) == len(turns)
    last = prompts[-1]
    assert last.topic == "reconquista.victory.score"
    assert last.data["total"] == victory_points(board, driver.state).total
    assert f'{last.data["band"]} "{last.data["title"]}", {last.data["total"]} VP' == driver.result
