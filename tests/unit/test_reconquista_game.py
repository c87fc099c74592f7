"""The whole Reconquista game: the turn loop, Phase 6 and 7, the end, the final score, and
headless play. The tests hold both what is said and what it is: the wording, and the topic,
data and rule of the prompts (the turn, the units removed, the cause of the end, the score)."""

from __future__ import annotations

import json

import pytest
from procedure_helpers import drive
from reconquista_helpers import place

from companion.cli import main
from companion.driver import Driver, Step
from companion.prompts import Choose, Prompt, Roll, Tell
from companion.reconquista.board import Board, default_board
from companion.reconquista.bot import Bot
from companion.reconquista.control import victory_points
from companion.reconquista.game import (
    GAME,
    InvariantError,
    check_end_of_turn,
    check_invariants,
    christians_remain,
    end_of_turn,
    final_score,
    muslims_can_recruit,
    play_turn,
)
from companion.reconquista.setup import initial_state
from companion.reconquista.simulate import ANSWERS, Answers, BrokenInvariant, play_game, simulate
from companion.reconquista.state import GameState
from companion.reconquista.units import Kind


def only(prompts: list[Prompt], topic: str) -> list[Prompt]:
    return [p for p in prompts if p.topic == topic]


def bot_game(seed: int) -> Driver:
    """A whole game through the driver: app dice, the bot's choices."""
    driver = Driver(GAME, seed)
    bot = Bot(seed)
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
    return driver


# -- the turn --------------------------------------------------------------------


def test_turn_begins_with_its_number(board: Board, state: GameState) -> None:
    state.turn = 5
    first = next(play_turn(board, state))
    assert first.topic == "reconquista.turn.begin" and first.data == {"turn": 5}
    assert first.rule.startswith("Phase 7: End of Turn")
    assert next(play_turn(board, initial_state(board))).rule.startswith("Setting Up the Board")


# -- Phase 7 ---------------------------------------------------------------------


def test_phase_7_removes_neutral_armies_el_cid_and_lone_fortresses(board: Board) -> None:
    """Phase 7: End of Turn: "Remove any neutral army or El Cid (from Random Events). Remove
    any Fortress if there are no other counters of any kind in the area." Each removal names
    the area, side, unit and count; the fortress removed in Phase 7 follows its rule."""
    state = initial_state(board)
    state.turn = 5
    state.phase = "end"
    state.areas["Galicia"].add("french", Kind.FRENCH, 2)
    state.areas["Oviedo"].add("christian", Kind.CRUSADER, 1)
    state.areas["Oviedo"].add("christian", Kind.MERCENARY, 1)
    state.areas["Lisboa"].add("muslim", Kind.MERCENARY, 2)
    state.areas["Porto"].add("rebel_army", Kind.REBEL_ARMY, 1)
    state.el_cid_area, state.el_cid_side = "Oviedo", "christian"
    state.areas["Badajoz"].set_force("muslim", [])  # the fortress of Badajoz stands alone
    prompts, over = drive(end_of_turn(board, state))
    assert over is False
    check_end_of_turn(board, state)
    assert state.areas["Badajoz"].fortress is False
    assert state.areas["Oviedo"].force("christian") == [Kind.ARMY, Kind.GARRISON]
    texts = [p.text for p in prompts]
    assert any("Badajoz" in t and "fortress" in t for t in texts)
    assert any("El Cid" in t for t in texts)
    assert any("French" in t and "Galicia" in t for t in texts)
    assert [p.data for p in only(prompts, "reconquista.end.remove")] == [
        {"area": "Oviedo", "side": "christian", "unit": "MC", "count": 1},
        {"area": "Oviedo", "side": "christian", "unit": "CR", "count": 1},
        {"area": "Galicia", "side": "french", "unit": "F", "count": 2},
        {"area": "Porto", "side": "rebel_army", "unit": "RA", "count": 1},
        {"area": "Lisboa", "side": "muslim", "unit": "MC", "count": 2},
        {"area": "Oviedo", "side": "christian", "unit": "el_cid", "count": 1},
    ]
    (fortress,) = only(prompts, "reconquista.end.fortress")
    assert fortress.data == {"area": "Badajoz", "phase": "end"}
    assert fortress.rule.startswith("Phase 7: End of Turn — Remove any Fortress")


def test_an_unoccupied_fortress_is_removed_as_the_phase_ends(board: Board) -> None:
    """Important Definitions: "An unoccupied Fortress must be removed from the game." A
    fortress left alone (Badajoz, its garrison gone) is removed as soon as the phase in
    which it is found ends: after Phase 1, before the first die of Phase 2. Removed after a
    phase other than Phase 7, it follows the definition (its rule), naming the phase."""
    import random

    state = initial_state(board)
    state.areas["Badajoz"].set_force("muslim", [])
    rng = random.Random(3)
    proc = play_turn(board, state)
    prompt = next(proc)
    seen: list[str] = []
    told: list[Prompt] = []
    while prompt.topic != "reconquista.events.roll":
        if isinstance(prompt, Tell):
            seen.append(prompt.text)
            told.append(prompt)
        answer = [rng.randint(1, prompt.sides) for _ in range(prompt.n)] if isinstance(prompt, Roll) else None
        if isinstance(prompt, Choose):
            answer = prompt.options[0]
        prompt = proc.send(answer)
    assert state.phase == "events"
    assert state.areas["Badajoz"].fortress is False
    assert seen[-1] == "An unoccupied fortress is removed from the game: remove the fortress of Badajoz."
    assert told[-1].data == {"area": "Badajoz", "phase": "rebellions"}
    assert told[-1].rule.startswith("Important Definitions")


def test_every_phase_ends_without_an_unoccupied_fortress(board: Board) -> None:
    """check_between_phases holds the same rule: a lone fortress between phases is a bug."""
    from companion.reconquista.game import check_between_phases

    state = initial_state(board)
    check_between_phases(board, state)
    state.areas["Badajoz"].set_force("muslim", [])
    check_invariants(board, state)  # inside a phase it may stand for a moment
    with pytest.raises(InvariantError, match="Badajoz: an unoccupied fortress"):
        check_between_phases(board, state)


def test_a_siege_of_walls_the_besiegers_now_control_ends_with_the_phase(
    board: Board, state: GameState
) -> None:
    """Important Definitions: "A City without forces of either side is considered to be
    controlled by the religion of the city." No side besieges walls it controls: when a phase
    leaves besiegers alone by a city of their own religion (a Proselytism turned it, a Famine
    took the last defender) or by a fortress alone, the siege is lifted and told as the phase
    ends, and Phase 6 has nothing to resolve there. An empty city of the other religion stays
    besieged: it is an enemy force ("a Muslim city with no other units present")."""
    from companion.reconquista.game import check_between_phases, phase_over, siege_order

    A = Kind.ARMY
    leon = place(state, "León", [("christian", A, 2)], city="christian", besieger="christian")
    badajoz = place(state, "Badajoz", [("muslim", A, 1)], fortress=True, besieger="muslim")
    toledo = place(state, "Toledo", [("christian", A, 1)], city="muslim", fortress=True, besieger="christian")
    with pytest.raises(InvariantError, match="León: besieged by christian, who controls its walls"):
        check_between_phases(board, state)
    state.phase = "events"
    prompts, _ = drive(phase_over(board, state))
    assert [p.data["area"] for p in prompts if p.topic == "reconquista.end.siege"] == ["León", "Badajoz"]
    assert leon.besieger is None and badajoz.besieger is None and toledo.besieger == "christian"
    assert prompts[0].text == (
        "No one is left in the Christian city of León but the Christian force: it is under Christian "
        "control, and no siege is left there (Phase 6 has nothing to resolve in it)."
    )
    assert prompts[0].rule.startswith("Important Definitions — A City without forces of either side")
    assert siege_order(board, state) == ["Toledo"]
    check_between_phases(board, state)


def test_the_region_in_revolt_marker_comes_off_as_the_turn_ends(board: Board, state: GameState) -> None:
    """Phase 1, 6 Regional Revolt: "This entire region is excluded from the game for this
    entire turn" (its marker: "Region in Revolt - Can be used in the rebellion phase to indicate
    a region that is in revolt"). Phase 7 tells the player to take the marker off: the revolt
    ends with the turn, and the next turn starts with no region in revolt."""
    state.turn, state.revolt = 5, 3
    prompts, over = drive(end_of_turn(board, state))
    assert over is False and state.revolt is None
    (told,) = [p for p in prompts if p.topic == "reconquista.end.revolt"]
    assert (
        told.text
        == "End of turn: remove the Region in Revolt marker from Castilla; the revolt lasted this turn."
    )
    assert told.data == {"region": "Castilla"} and told.rule == "Phase 1: Rebellions — 6 Regional Revolt"
    state.revolt = None
    prompts, _ = drive(end_of_turn(board, state))
    assert not [p for p in prompts if p.topic == "reconquista.end.revolt"]


def test_phase_7_counts_the_neutral_armies_it_removes_in_good_english(board: Board) -> None:
    """Phase 7: "Remove any neutral army or El Cid (from Random Events)": each removal names
    the counters as a count of the kind, plural and all (it read "remove 2 French armys"
    when the noun took a bare "s")."""
    state = initial_state(board)
    state.areas["Galicia"].add("french", Kind.FRENCH, 2)
    state.areas["Porto"].add("rebel_army", Kind.REBEL_ARMY, 3)
    state.areas["Lisboa"].add("muslim", Kind.MERCENARY, 2)
    state.areas["Oviedo"].add("christian", Kind.CRUSADER, 1)
    prompts, _ = drive(end_of_turn(board, state))
    texts = [p.text for p in prompts]
    assert "End of turn: remove 2 French armies from Galicia." in texts
    assert "End of turn: remove 3 Rebel armies from Porto." in texts
    assert "End of turn: remove 2 mercenaries (with the Muslims) from Lisboa." in texts
    assert "End of turn: remove 1 crusader from Oviedo." in texts
    assert not any("armys" in t or "mercenarys" in t for t in texts)


def test_a_fortress_with_a_unit_stays(board: Board) -> None:
    """Phase 7: only a Fortress with "no other counters of any kind in the area" goes."""
    state = initial_state(board)
    drive(end_of_turn(board, state))
    assert state.areas["Badajoz"].fortress  # its Muslim garrison keeps it


def test_turn_20_ends_the_game(board: Board) -> None:
    """Phase 7: "If it is turn 20, the game is over. Proceed to count Victory Points." """
    state = initial_state(board)
    state.turn = 20
    prompts, over = drive(end_of_turn(board, state))
    assert over is True and "last" in prompts[-1].text
    (told,) = only(prompts, "reconquista.end.over")
    assert told.data == {"turn": 20, "cause": "last_turn"}


def test_no_place_to_recruit_ends_the_game(board: Board) -> None:
    """Phase 7: "If there are no possible places to recruit Muslim Armies, then the game is
    over" (read: no area free of Christian, Rebel and neutral forces)."""
    state = initial_state(board)
    for area in state.areas.values():
        area.units.clear()
        area.city = None
        area.add("christian", Kind.GARRISON)
    assert not muslims_can_recruit(board, state)
    prompts, over = drive(end_of_turn(board, state))
    assert over is True and "nowhere left to recruit" in prompts[-1].text


def test_no_christians_left_ends_the_game(board: Board) -> None:
    """Phase 7: "If there are no Cities under Christian control and no Christian forces
    remain, the game is over." The end names its turn and its cause."""
    state = initial_state(board)
    state.turn = 7
    for area in state.areas.values():
        area.units.pop("christian", None)
        if area.city == "christian":
            area.add("muslim", Kind.GARRISON)
    assert not christians_remain(board, state)
    prompts, over = drive(end_of_turn(board, state))
    assert over is True and "no Christian force remains" in prompts[-1].text
    (told,) = only(prompts, "reconquista.end.over")
    assert told.data == {"turn": 7, "cause": "no_christians"}


def test_invariants_catch_a_broken_state(board: Board) -> None:
    state = initial_state(board)
    check_invariants(board, state)
    state.areas["Cuenca"].besieger = "christian"  # no Christian unit there, and no walls
    with pytest.raises(InvariantError):
        check_invariants(board, state)


# -- the final score ("End of Game: Victory Points") -------------------------------


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
        place(state, name, [("christian", Kind.GARRISON, 1)], city=state.areas[name].city)
    (told,), _ = drive(final_score(board, state))
    assert told.data["cities"] == ["Oviedo", "León"]
    assert told.data["majority"] == told.data["free"] == ["Asturias"]
    assert told.data["total"] == victory_points(board, state).total == 6


# -- whole games ------------------------------------------------------------------


def test_a_whole_game_runs_to_a_scored_end() -> None:
    """A whole game from answers alone ends with the victory points and the result name; it
    counts its turns (one turn marker and one events roll each) and scores by topic."""
    driver = bot_game(3)
    assert driver.finished and driver.state.phase == "over"
    last = driver.steps[-1].prompt
    assert isinstance(last, Tell) and last.text.startswith("Victory points")
    assert driver.result.endswith("VP")
    assert GAME.summary(driver.state) in driver.result
    board = GAME.board_of(driver.state)
    prompts = [s.prompt for s in driver.steps]
    turns = [p.data["turn"] for p in only(prompts, "reconquista.turn.begin")]
    assert turns == list(range(1, driver.state.turn + 1))
    assert len(only(prompts, "reconquista.events.roll")) == len(turns)
    assert last.topic == "reconquista.victory.score"
    assert last.data["total"] == victory_points(board, driver.state).total
    assert f'{last.data["band"]} "{last.data["title"]}", {last.data["total"]} VP' == driver.result


def test_the_same_answers_give_the_same_game() -> None:
    """Replaying a game's answers gives the same state, step for step (Driver.resume)."""
    live = bot_game(11)
    replayed = Driver.resume(GAME, 11, {}, live.steps)
    assert replayed.finished
    assert replayed.snapshot() == live.snapshot()
    assert replayed.result == live.result


def test_the_same_seed_gives_the_same_game() -> None:
    a, b = bot_game(5), bot_game(5)
    assert [s.answer for s in a.steps] == [s.answer for s in b.steps]
    assert a.snapshot() == b.snapshot()


def test_a_game_interrupted_and_resumed_goes_on_the_same_way() -> None:
    """Resume at any step: the rest of the game is what it would have been."""
    live = bot_game(8)
    cut = len(live.steps) // 2
    resumed = Driver.resume(GAME, 8, {}, live.steps[:cut])
    for step in live.steps[cut:]:
        assert resumed.pending == step.prompt
        resumed.submit(step.answer, step.source)
    assert resumed.finished and resumed.snapshot() == live.snapshot()


def test_undo_in_the_middle_of_a_game() -> None:
    """Undo takes back the last answer of a game in progress: the state is as before it."""
    live = bot_game(4)
    steps: list[Step] = live.steps[:300]
    d = Driver.resume(GAME, 4, {}, steps)
    before = Driver.resume(GAME, 4, {}, steps[:-1]).snapshot()
    d.undo()
    assert d.snapshot() == before and d.pending == steps[-1].prompt


def test_simulate_counts_every_game_without_errors() -> None:
    report = simulate(12, 100, check=True)
    data = report.to_json()
    assert data["games"] == 12 and data["errors"] == 0
    assert sum(data["results"].values()) == 12
    assert set(data) == {"games", "results", "mean_vp", "errors", "first_error", "seconds"}


def test_simulate_cli_json_is_the_same_for_the_same_seed(capsys: pytest.CaptureFixture[str]) -> None:
    """`companion simulate reconquista --games N --seed S --json`: keys games, results,
    mean_vp, errors, seconds; the same seed gives the same figures."""
    assert main(["simulate", "reconquista", "--games", "5", "--seed", "42", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)
    assert main(["simulate", "reconquista", "--games", "5", "--seed", "42", "--json"]) == 0
    second = json.loads(capsys.readouterr().out)
    for key in ("games", "results", "mean_vp", "errors"):
        assert first[key] == second[key]
    assert first["games"] == 5 and first["errors"] == 0


@pytest.mark.parametrize("argv", [["--games", "0"], ["--games", "x"], ["--seed", "y"]])
def test_simulate_cli_refuses_bad_numbers(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "reconquista", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("answers", ANSWERS)
def test_a_broken_invariant_names_the_game_and_the_phase(
    answers: Answers, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The check runs after every phase: an invariant that breaks once Phase 4 (movement) is
    over is reported as broken after the movement phase of turn 1, with the game's seed."""

    def broken_after_movement(board: Board, state: GameState) -> None:
        if state.phase == "reaction":
            raise InvariantError("León: christian and muslim side by side with no siege")

    monkeypatch.setattr("companion.reconquista.simulate.check_between_phases", broken_after_movement)
    with pytest.raises(BrokenInvariant) as caught:
        play_game(7, check=True, answers=answers)
    e = caught.value
    assert (e.seed, e.answers, e.turn, e.phase) == (7, answers, 1, "movement")
    assert str(e) == (
        f"game 7 ({answers} answers), turn 1, after the movement phase: "
        "León: christian and muslim side by side with no siege"
    )
    play_game(7, answers=answers)  # not checked: no error


def test_random_answers_are_not_the_bots() -> None:
    """The random player picks among the options offered, so its games go other ways than
    the bot's on the same dice seeds (and still end, scored)."""
    bot = [play_game(seed) for seed in range(1, 6)]
    rand = [play_game(seed, answers="random") for seed in range(1, 6)]
    assert [r.prompts for r in bot] != [r.prompts for r in rand]
    with pytest.raises(ValueError, match="answers must be one of bot, random"):
        play_game(1, answers="clever")  # type: ignore[arg-type]


# -- manual corrections (Edit steps) -------------------------------------------------


def test_an_edit_is_one_logged_step_that_replay_and_undo_honour() -> None:
    from companion.prompts import BadAnswer, edit_prompt
    from companion.reconquista.edits import area_text, parse_area_text

    d = bot_game_prefix(6, 40)
    before = d.snapshot()
    pending = d.pending
    change = parse_area_text("city christian; no fortress; C 3A")
    change["area"] = "Cuenca"
    step = d.edit(edit_prompt("Cuenca by hand", change))
    assert step.source == "edit" and d.pending == pending
    assert area_text(d.state.areas["Cuenca"]) == "city christian; no fortress; C 3A; no siege"
    assert Driver.resume(GAME, 6, {}, d.steps).snapshot() == d.snapshot()
    d.undo()
    assert d.snapshot() == before
    bad = dict(change, units={"rebel": {"A": 1}})
    with pytest.raises(BadAnswer):
        d.edit(edit_prompt("bad", bad))
    assert d.snapshot() == before  # refused whole


def test_a_correction_of_an_earlier_die_keeps_a_later_edit() -> None:
    from companion.prompts import edit_prompt
    from companion.reconquista.edits import parse_area_text

    d = bot_game_prefix(6, 40)
    change = parse_area_text("C 5A")
    change["area"] = "Porto"
    d.edit(edit_prompt("Porto by hand", change))
    first_roll = next(i for i, s in enumerate(d.steps) if isinstance(s.prompt, Roll))
    report = d.correct(first_roll, d.steps[first_roll].answer, "physical")
    # The same die again: every later answer is asked the same way, the edit included.
    assert not report.dropped and report.reused == 40 - first_roll
    assert d.steps[-1].source == "edit" and d.state.areas["Porto"].count("christian") == 5


def test_the_dice_tray_takes_no_manual_correction() -> None:
    from companion.dicetray import GAME as TRAY
    from companion.prompts import BadAnswer, edit_prompt

    d = Driver(TRAY, 1)
    with pytest.raises(BadAnswer, match="no manual corrections"):
        d.edit(edit_prompt("x", {"area": "Toledo"}))
    assert d.steps == []


@pytest.mark.parametrize(
    "text",
    ["city pagan", "X 2A", "C 2Z", "siege by Q", "M 1A; siege by C"],
)
def test_bad_correction_lines_are_one_sentence(text: str) -> None:
    from companion.reconquista.edits import apply_edit, parse_area_text

    state = initial_state(default_board())
    before = state.snapshot()
    with pytest.raises(ValueError) as err:
        change = parse_area_text(text)
        change["area"] = "Toledo"
        apply_edit(state, change)
    assert str(err.value).endswith(".") and "\n" not in str(err.value)
    assert state.snapshot() == before


@pytest.mark.parametrize(
    ("text", "refusal"),
    [
        (
            "city muslim; M 1G; C 2A",
            (
                "Muslim and Christian units cannot stand side by side in Toledo without a siege: say which "
                "besieges, e.g. 'siege by M'."
            ),
        ),
        (
            "city muslim; M 1G; C 2A; R 1R; siege by C",
            (
                "Muslim, Christian and Rebel units cannot all stand in Toledo: only a besieger and the side it "
                "besieges share an area."
            ),
        ),
    ],
)
def test_a_correction_that_breaks_the_table_is_refused(text: str, refusal: str) -> None:
    """Important Definitions and Phase 6: hostile sides share an area only as besieger and
    besieged. A correction played on must not put the board where the rules never can."""
    from companion.reconquista.edits import apply_edit, parse_area_text

    state = initial_state(default_board())
    before = state.snapshot()
    change = parse_area_text(text)
    change["area"] = "Toledo"
    with pytest.raises(ValueError) as err:
        apply_edit(state, change)
    assert str(err.value) == refusal
    assert state.snapshot() == before
    accepted = parse_area_text("city muslim; M 1G; C 2A; siege by C")
    accepted["area"] = "Toledo"
    apply_edit(state, accepted)
    check_invariants(default_board(), state)


def bot_game_prefix(seed: int, steps: int) -> Driver:
    """The first ``steps`` answers of the bot's game, replayed into a fresh driver."""
    full = bot_game(seed)
    return Driver.resume(GAME, seed, {}, full.steps[:steps])


# -- the setup as a checklist ----------------------------------------------------------------


def test_a_new_game_opens_with_setting_up_the_board_as_a_checklist() -> None:
    """ "Setting Up the Board": "Place a Fortress in each of the following areas: Badajoz,
    Toledo, Córdoba, Zaragoza. Place a Muslim City in each of ... Garrisons: Place one in each
    Area in each Region. All are Muslim, with the exception of Pamplona and Oviedo ... Place a
    Christian Army in Oviedo. Place a Muslim Army in Zaragoza ..." Each line is an instruction
    ticked off in turn, and together they are the board the game starts from."""
    from companion.driver import Driver
    from companion.prompts import Tell
    from companion.reconquista.units import Kind

    d = Driver(GAME, 3, {"dice": "app", "setup": True})
    state = d.state
    told: list[Tell] = []
    while isinstance(d.pending, Tell) and d.pending.topic.startswith("reconquista.setup."):
        told.append(d.pending)
        d.ack()
    assert d.pending is not None and d.pending.topic == "reconquista.turn.begin"
    assert all(t.rule.startswith("Setting Up the Board — ") for t in told)
    by = {t.topic.rsplit(".", 1)[1]: t for t in told}
    areas = state.areas
    assert set(by["fortresses"].data["areas"]) == {a for a, s in areas.items() if s.fortress}
    assert set(by["muslim_cities"].data["areas"]) == {a for a, s in areas.items() if s.city == "muslim"}
    assert set(by["christian_cities"].data["areas"]) == {a for a, s in areas.items() if s.city == "christian"}
    garrisons = [t for t in told if t.topic.endswith(".garrisons")]
    christian = [a for t in garrisons for a in t.data["christian"]]
    muslim = [a for t in garrisons for a in t.data["muslim"]]
    assert sorted(christian + muslim) == sorted(areas)  # one in each area, each once
    assert all(areas[a].count("christian", Kind.GARRISON) == 1 for a in christian)
    assert all(areas[a].count("muslim", Kind.GARRISON) == 1 for a in muslim)
    for side in ("christian", "muslim"):
        listed = by[f"{side}_armies"].data["armies"]
        assert listed == {a: s.count(side, Kind.ARMY) for a, s in areas.items() if s.count(side, Kind.ARMY)}


def test_a_game_recorded_before_the_checklist_starts_as_it_did() -> None:
    from companion.driver import Driver

    d = Driver(GAME, 3, {"dice": "app"})
    assert d.pending is not None and d.pending.topic == "reconquista.turn.begin"


def test_the_summary_between_turns_names_the_new_turns_start() -> None:
    """Issue #32: Home said "turn 3, end" for a game at the start of turn 3. While "Turn N
    begins" waits, the summary is "turn N, start"; during the end of a turn, "turn N, end"."""
    from companion.driver import Driver
    from companion.prompts import Tell

    d = Driver(GAME, 4, {"dice": "app"})
    seen: set[str] = set()
    while d.pending is not None and d.state.turn <= 3:
        p = d.pending
        summary = GAME.summary(d.state)
        if p.topic == "reconquista.turn.begin" and d.state.turn > 1:
            assert summary == f"turn {d.state.turn}, start"
            seen.add("start")
        elif d.state.phase == "end":
            assert summary == f"turn {d.state.turn}, end"
            seen.add("end")
        if isinstance(p, Tell):
            d.ack()
        elif p.kind == "roll":
            d.roll()
        else:
            d.submit(p.options[-1] if hasattr(p, "options") else p.parse(""), "player")  # type: ignore[attr-defined]
    assert seen == {"start", "end"}
