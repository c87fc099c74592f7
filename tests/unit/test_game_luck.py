"""Luck in game units (#36, 7-8): each game's weighing of a roll (companion/reconquista/luck.py,
companion/castells/luck.py) against dice enumerated one by one, and the totals the ledger gives
(companion/review/game_luck.py) against the rolls of games played here, tallied apart."""

from __future__ import annotations

import itertools
import json
from collections import Counter

import pytest
from test_review_helpers import auto, castells_chooser, new_driver, play_reconquista

from companion.castells.luck import roll_luck as castells_roll_luck
from companion.prompts import Roll
from companion.reconquista import combat
from companion.reconquista.luck import roll_luck as reconquista_roll_luck
from companion.reconquista.units import HIT_ON, KIND_NAMES, Kind
from companion.review.bbcode import bbcode_report
from companion.review.exchange import export_bbcode, export_data, export_json, export_markdown, import_session
from companion.review.game_luck import GameLuck, counted_units, export_luck, game_luck, one_in, signed
from companion.review.luck import luck
from companion.review.report import stats_lines
from companion.review.stats import statistics
from companion.store.db import Store


@pytest.mark.parametrize(
    "units",
    [[Kind.ARMY], [Kind.GARRISON, Kind.ARMY], [Kind.ORDER, Kind.REBEL, Kind.ARMY], [Kind.ARMY] * 4],
)
def test_a_battle_roll_is_weighed_against_every_roll_it_could_have_been(units: list[Kind]) -> None:
    """'Garrison or Rebel: 5 or 6. Army: 4, 5 or 6. Military Order: 3, 4, 5 or 6.'"""
    every = list(itertools.product(range(1, 7), repeat=len(units)))
    hits = Counter(combat.hits(units, dice) for dice in every)
    dist = [hits[k] / len(every) for k in range(len(units) + 1)]
    data = {"units": [KIND_NAMES[k] for k in units], "side": "christian", "area": "Toledo", "round": 2}
    for dice in every[:: max(1, len(every) // 40)]:
        weighed = reconquista_roll_luck("reconquista.battle.roll", data, list(dice))
        assert weighed is not None
        assert weighed.dist == pytest.approx(dist)
        assert weighed.got == combat.hits(units, dice)
        assert weighed.expected == pytest.approx(sum((7 - HIT_ON[k]) / 6 for k in units))
        below = sum(n for k, n in hits.items() if k < weighed.got) / len(every)
        assert weighed.percentile == pytest.approx(below + hits[weighed.got] / len(every) / 2)
        assert weighed.at_least() == pytest.approx(
            sum(n for k, n in hits.items() if k >= weighed.got) / len(every)
        )
        assert weighed.mine and weighed.side == "the Christian side" and weighed.where == "Toledo, round 2"
    muslim = reconquista_roll_luck("reconquista.battle.roll", data | {"side": "muslim"}, [1] * len(units))
    assert muslim is not None and not muslim.mine


def test_a_castells_roll_is_weighed_against_every_roll_it_could_have_been() -> None:
    """'A success = result of 5 or 6': the Saracens are the side the app plays."""
    every = list(itertools.product(range(1, 7), repeat=4))
    successes = Counter(sum(d >= 5 for d in dice) for dice in every)
    for topic in (
        "castells.battle.roll",
        "castells.battle.paid_roll",
        "castells.saracens.roll",
        "castells.saracens.reroll",
    ):
        weighed = castells_roll_luck(topic, {"player": "Anna", "castle": "Tortosa"}, [5, 6, 1, 2])
        assert weighed is not None and weighed.got == 2 and weighed.mine and weighed.unit == "successes"
        assert weighed.dist == pytest.approx([successes[k] / len(every) for k in range(5)])
    saracens = castells_roll_luck("castells.saracens.roll", {"player": "Saracens"}, [6])
    assert saracens is not None and not saracens.mine and saracens.side == "the Saracens"


def test_rolls_a_game_does_not_weigh_or_cannot_read_are_left_out() -> None:
    good = {"units": ["army", "garrison"], "side": "christian", "area": "Toledo", "round": 1}
    assert reconquista_roll_luck("reconquista.events.roll", good, [3, 4]) is None
    assert (
        reconquista_roll_luck("reconquista.battle.roll", good | {"units": ["dragon", "army"]}, [3, 4]) is None
    )
    assert reconquista_roll_luck("reconquista.battle.roll", good | {"side": "nobody"}, [3, 4]) is None
    assert reconquista_roll_luck("reconquista.battle.roll", good, [3]) is None  # a die missing
    assert reconquista_roll_luck("reconquista.battle.roll", good, [3, 9]) is None
    assert castells_roll_luck("castells.legacy.roll", {"player": "Anna"}, [5]) is None
    assert castells_roll_luck("castells.battle.roll", {}, [5]) is None


def test_words() -> None:
    assert counted_units(1, "hits") == "1 hit" and counted_units(1, "successes") == "1 success"
    assert counted_units(1_200, "hits") == "1,200 hits"
    assert signed(-0.04) == "+0.0" and signed(-1.26) == "-1.3" and signed(2) == "+2.0"
    assert one_in(1 / 243) == "1 time in 243" and one_in(0.5) == "50% of the time" and one_in(0) == "never"


def unit_of(weighed: tuple[GameLuck, ...], unit: str = "hits") -> GameLuck:
    """The one GameLuck of ``unit`` among ``weighed`` (Reconquista weighs hits and sieges won)."""
    (found,) = [g for g in weighed if g.unit == unit]
    return found


def test_a_game_s_luck_is_the_sum_of_its_battle_rolls(store: Store) -> None:
    _sid, driver = play_reconquista(store, 3)
    mine = Counter[str]()
    theirs = Counter[str]()
    expected = Counter[str]()
    for step in driver.steps:
        if isinstance(step.prompt, Roll) and step.prompt.topic == "reconquista.battle.roll":
            units = [
                next(k for k, n in KIND_NAMES.items() if n == noun) for noun in step.prompt.data["units"]
            ]
            got = combat.hits(units, step.answer)  # type: ignore[arg-type]
            side = step.prompt.data["side"]
            (mine if side == "christian" else theirs)[step.source] += got
            expected[side] += sum((7 - HIT_ON[k]) / 6 for k in units)
    assert sum(mine.values()) and sum(theirs.values())
    game = unit_of(game_luck(store))
    assert game.game == "reconquista"
    assert sum(s.got for s in game.sides if s.mine) == sum(mine.values())
    assert sum(s.got for s in game.sides if not s.mine) == sum(theirs.values())
    assert sum(s.expected for s in game.sides) == pytest.approx(sum(expected.values()))
    assert game.balance == pytest.approx(
        sum(s.got - s.expected for s in game.sides if s.mine)
        - sum(s.got - s.expected for s in game.sides if not s.mine)
    )
    assert game.luckiest is not None and game.unluckiest is not None
    assert game.luckiest.luck > 0.5 > game.unluckiest.luck
    assert luck(store).games == game_luck(store) and game in luck(store).games  # the ledger carries it
    assert luck(store).to_json()["games"][0]["unit"] == "hits"  # battles come before the sieges
    # Nothing weighed in a scope without such rolls.
    tray, _ = new_driver(store, "dice", 1)
    assert game_luck(store, session_id=tray) == ()


def test_typed_and_app_dice_are_counted_apart(store: Store) -> None:
    """A Castells game whose rolls are typed from the table as the app would have rolled them,
    but one: each side's rolls are split by where the dice came from."""
    _sid, driver = new_driver(store, "castells", 5)
    choose = castells_chooser(5)
    typed = 0
    while driver.pending is not None:
        prompt = driver.pending
        if isinstance(prompt, Roll) and prompt.topic == "castells.battle.roll" and not typed:
            driver.type(" ".join(["6"] * prompt.n))
            typed = prompt.n
            continue
        auto(driver, choose)
    assert typed
    (game,) = game_luck(store)
    physical = [s for s in game.sides if s.source == "physical"]
    assert len(physical) == 1 and physical[0].got == typed and physical[0].rolls == 1
    assert game.luckiest is not None and game.luckiest.got == typed  # every die a success


def test_an_undone_roll_counts_nowhere(store: Store) -> None:
    _sid, driver = new_driver(store, "castells", 5)
    choose = castells_chooser(5)
    while not (
        isinstance(driver.pending, Roll)
        and driver.pending.topic in ("castells.battle.roll", "castells.saracens.roll")
    ):
        assert driver.pending is not None
        auto(driver, choose)
    assert game_luck(store) == ()
    driver.roll()
    (game,) = game_luck(store)
    assert sum(s.rolls for s in game.sides) == 1
    driver.undo()
    assert game_luck(store) == ()


def test_the_luck_is_the_same_live_from_an_export_and_after_an_import(store: Store) -> None:
    """#36: 'the luck of a recorded game is the same whether computed live or from an imported
    export'; and the reports give it, in the game's units."""
    sid, _driver = play_reconquista(store, 4)
    every = game_luck(store, session_id=sid)
    assert [g.unit for g in every] == ["hits", "sieges won"]
    assert export_luck(export_data(store, sid)) == every
    other = Store(":memory:")
    done = import_session(other, export_json(store, sid), "game.json")
    for live, imported in zip(every, game_luck(other, session_id=done.session_id), strict=True):
        assert imported.sides == live.sides and imported.balance == pytest.approx(live.balance)
        assert imported.luckiest is not None and live.luckiest is not None
        assert imported.luckiest.line(session=False) == live.luckiest.line(session=False)
    md = export_markdown(store, sid)
    expected = [f"- {line.strip()}" for live in every for line in live.lines(session=False)[1:]]
    assert "\n## Luck\n\n" + "\n".join(expected) + "\n" in md
    assert all(
        line.strip() in export_bbcode(store, sid) for live in every for line in live.lines(session=False)[1:]
    )


def test_a_player_s_name_in_the_luck_of_a_report_is_text(store: Store) -> None:
    """A Castells player named like a tag: shown as written, never read as markup."""
    sid, driver = new_driver(store, "castells", 5)
    choose = castells_chooser(5)
    while driver.pending is not None:
        auto(driver, choose)
    data = export_data(store, sid)
    assert export_luck(data)
    renamed = json.loads(json.dumps(data).replace("Player 1", "[b]Anna[/b]"))
    lines = bbcode_report(renamed)
    assert "[b]Anna" not in lines and "[\u200bb]Anna" in lines


def test_the_statistics_carry_the_luck_of_every_session_and_of_each(store: Store) -> None:
    """#36, 8-9: the statistics across sessions and per session, their lines and their JSON."""
    first, _ = play_reconquista(store, 3)
    second, _ = play_reconquista(store, 4)
    both = unit_of(statistics(store).luck)
    one = unit_of(statistics(store, session_id=first).luck)
    other = unit_of(statistics(store, session_id=second).luck)
    assert sum(s.rolls for s in both.sides) == sum(s.rolls for s in one.sides) + sum(
        s.rolls for s in other.sides
    )
    assert both.balance == pytest.approx(one.balance + other.balance)
    assert statistics(store).to_json()["luck"] == [g.to_json() for g in statistics(store).luck]
    assert both.to_json() in statistics(store).to_json()["luck"]
    printed = stats_lines(statistics(store))
    assert all(line in printed for line in both.lines())
    assert statistics(store, game="castells").luck == ()


def test_the_story_charts_the_luck_added_up_turn_by_turn(store: Store) -> None:
    """The story's luck (History, g) is the player's balance at the end of each turn with
    battles, tallied here from the logged rolls and their turns: the last is the game's."""
    from companion.review.story import session_story

    sid, _driver = play_reconquista(store, 4)
    log = store.log(sid)
    per_turn: Counter[int] = Counter()
    for event, step in zip(log.events, log.steps, strict=True):
        if isinstance(step.prompt, Roll) and step.prompt.topic == "reconquista.battle.roll":
            units = [
                next(k for k, n in KIND_NAMES.items() if n == noun) for noun in step.prompt.data["units"]
            ]
            luck = combat.hits(units, step.answer) - sum((7 - HIT_ON[k]) / 6 for k in units)  # type: ignore[arg-type]
            assert event.turn is not None
            per_turn[event.turn] += luck if step.prompt.data["side"] == "christian" else -luck
    story = session_story(store, sid)
    game = unit_of(game_luck(store, session_id=sid))
    assert story.luck == game.by_turn
    assert [t for t, _ in story.luck] == sorted(per_turn)
    running = 0.0
    for turn, balance in story.luck:
        running += per_turn[turn]
        assert balance == pytest.approx(running)
    assert story.luck[-1][1] == pytest.approx(game.balance)


def test_the_stats_command_takes_one_session(
    db: str, store: Store, capsys: pytest.CaptureFixture[str]
) -> None:
    from companion.cli import main
    from companion.errors import EXIT_OK, EXIT_USAGE

    first, _ = play_reconquista(store, 3)
    play_reconquista(store, 4)
    assert main(["stats", "--db", db, "--session", str(first), "--json"]) == EXIT_OK
    said = json.loads(capsys.readouterr().out)
    assert said["scope"] == f"session {first}"
    assert said["luck"] == [g.to_json() for g in game_luck(store, session_id=first)]
    assert main(["stats", "--db", db, "--session", "999"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "999" in err


def test_a_damaged_row_leaves_its_session_out_and_the_others_are_weighed(db: str, store: Store) -> None:
    """Every input is hostile: a roll's question that is not JSON (a file edited by hand) costs
    its session the figures, named, and the other sessions are weighed as before."""
    import sqlite3

    first, _ = play_reconquista(store, 3)
    second, _ = play_reconquista(store, 4)
    alone = game_luck(store, session_id=second)
    con = sqlite3.connect(db)
    con.execute(
        "UPDATE event SET prompt = '{not json' WHERE session_id = ? AND seq = "
        "(SELECT MIN(seq) FROM event WHERE session_id = ? AND prompt LIKE '%reconquista.battle.roll%')",
        (first, first),
    )
    con.commit()
    con.close()
    both = game_luck(store)
    assert [g.sides for g in both] == [g.sides for g in alone]
    ledger = luck(store)
    assert ledger.games == alone and any(f"Session {first} is left out" in n for n in ledger.notes)
    # Facts of the wrong shape are no roll to weigh, and nothing fails.
    assert (
        reconquista_roll_luck("reconquista.battle.roll", {"units": "army", "side": "christian"}, [4]) is None
    )
    assert castells_roll_luck("castells.battle.roll", {"player": 5}, [5]) is None


def test_an_answer_python_cannot_read_is_no_roll_and_nothing_fails(db: str, store: Store) -> None:
    """JSON that SQLite takes and Python refuses (a number of 5,000 digits): that roll is not
    weighed, and the figures stand."""
    import sqlite3

    sid, _ = play_reconquista(store, 3)
    before = unit_of(game_luck(store))
    con = sqlite3.connect(db)
    con.execute(
        "UPDATE event SET answer = ? WHERE session_id = ? AND seq = "
        "(SELECT MIN(seq) FROM event WHERE session_id = ? AND prompt LIKE '%reconquista.battle.roll%')",
        ("[" + "9" * 5000 + "]", sid, sid),
    )
    con.commit()
    con.close()
    after = unit_of(game_luck(store))
    assert sum(s.rolls for s in after.sides) == sum(s.rolls for s in before.sides) - 1


# -- sieges ------------------------------------------------------------------------------------


SIEGE = "reconquista.sieges.roll"


def siege_data(
    besiegers: list[Kind], defenders: list[Kind], *, city: bool, fortress: bool, cid: str | None
) -> dict:
    """A siege roll's facts as the game logs them (battle.siege), modifiers worked out by the rules."""
    role = None if cid is None else "besieger" if cid == "muslim" else "defender"
    mods = combat.siege_modifiers(besiegers, defenders, city=city, fortress=fortress, el_cid=role)  # type: ignore[arg-type]
    return {
        "area": "Toledo",
        "besieger": "muslim",
        "defender": "christian",
        "roll": 1,
        "after_tie": False,
        "walls": "city" if city else "fortress",
        "fortress": fortress,
        "besieger_units": {KIND_NAMES[k]: besiegers.count(k) for k in dict.fromkeys(besiegers)},
        "defender_units": {KIND_NAMES[k]: defenders.count(k) for k in dict.fromkeys(defenders)},
        "besieger_modifier": mods.besieger_total,
        "defender_modifier": mods.defender_total,
        "el_cid": cid,
    }


@pytest.mark.parametrize(
    ("besiegers", "defenders", "city", "fortress", "cid"),
    [
        ([Kind.ARMY], [Kind.GARRISON], True, False, None),
        ([Kind.ARMY, Kind.ARMY, Kind.ORDER], [Kind.GARRISON], True, True, None),
        ([Kind.REBEL], [Kind.ARMY, Kind.ARMY], False, True, "christian"),
        ([Kind.ARMY] * 3, [Kind.GARRISON], True, False, "muslim"),
    ],
)
def test_a_siege_roll_is_weighed_against_the_36_rolls_the_rules_resolve(
    besiegers: list[Kind], defenders: list[Kind], city: bool, fortress: bool, cid: str | None
) -> None:
    """'If the besieger beats the defender's roll' the siege is won: each pair of dice resolved
    by the game's own siege roll (combat.siege_roll), the chance of winning counted over them."""
    role = None if cid is None else "besieger" if cid == "muslim" else "defender"
    won = {
        (b, d): combat.siege_roll(
            besiegers,
            defenders,
            city=city,
            fortress=fortress,
            el_cid=role,
            besieger_die=b,
            defender_die=d,  # type: ignore[arg-type]
        ).outcome
        == "besieger"
        for b in range(1, 7)
        for d in range(1, 7)
    }
    chance = sum(won.values()) / 36
    data = siege_data(besiegers, defenders, city=city, fortress=fortress, cid=cid)
    # Logged without its modifiers (an older log): worked out from the forces it logged, the same.
    older = {k: v for k, v in data.items() if not k.endswith("_modifier")}
    for (b, d), w in won.items():
        for facts in (data, older):
            weighed = reconquista_roll_luck(SIEGE, facts, [b, d])
            assert weighed is not None and weighed.unit == "sieges won"
            assert weighed.got == int(w) and weighed.dist == pytest.approx((1 - chance, chance))
            assert weighed.side == "the Muslim side" and not weighed.mine  # the player is the Christian side


def test_a_siege_roll_that_cannot_be_read_is_no_roll() -> None:
    good = siege_data([Kind.ARMY], [Kind.GARRISON], city=True, fortress=False, cid=None)
    bare = {k: v for k, v in good.items() if not k.endswith("_modifier")}
    for facts, dice in (
        (good | {"besieger": ["muslim"]}, [3, 4]),
        (good | {"defender": "nobody"}, [3, 4]),
        (good, [3]),
        (good, [3, 7]),
        (bare | {"besieger_units": {"dragon": 1}}, [3, 4]),
        (bare | {"besieger_units": {"army": 10**9}}, [3, 4]),
        (bare | {"walls": "moat"}, [3, 4]),
        (bare | {"fortress": "yes"}, [3, 4]),
    ):
        assert reconquista_roll_luck(SIEGE, facts, dice) is None
    assert (
        counted_units(1, "sieges won") == "1 siege won" and counted_units(2, "sieges won") == "2 sieges won"
    )


def test_a_game_s_sieges_won_are_counted_from_its_siege_rolls(store: Store) -> None:
    _sid, driver = play_reconquista(store, 4)
    won: Counter[bool] = Counter()
    rolls = 0
    for step in driver.steps:
        if isinstance(step.prompt, Roll) and step.prompt.topic == SIEGE:
            facts = step.prompt.data
            b, d = step.answer  # type: ignore[misc]
            won[facts["besieger"] == "christian"] += (
                b + facts["besieger_modifier"] > d + facts["defender_modifier"]
            )
            rolls += 1
    assert rolls
    sieges = unit_of(game_luck(store), "sieges won")
    assert sum(s.rolls for s in sieges.sides) == rolls
    assert sum(s.got for s in sieges.sides if s.mine) == won[True]
    assert sum(s.got for s in sieges.sides if not s.mine) == won[False]
