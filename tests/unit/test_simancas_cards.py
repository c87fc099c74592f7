"""The Battle of Simancas deck (data/simancas/cards.toml): every card of the rulebook's list,
its effect as data agreeing with the card's notes, validation errors naming file and field,
and name lookup.

The rulebook's card list is copied below word for word (THE COMON DECK CARD LIST); every
count is taken from that text, never written by hand.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from companion.errors import DataFileError
from companion.simancas.cards import (
    TROOPS,
    Card,
    UnknownCard,
    default_deck,
    fold,
    load_deck,
)

ROOT = Path(__file__).resolve().parents[2]

#: THE COMON DECK CARD LIST, as the rulebook prints it.
SEED_CARD_LIST = """\
Name: Type: Force: Use: Notes:
Caliph Abd al-Rahman III L 5 M Draw 1 card when placed
Count Fernan Gonzalez L 5 X (Castille) All your Troops get +2
King Ramiro II L 5 X (Leon)
Garcia Sanchez I L 4 X (Navarre)
Christian Saints L 3 X All your Troops and Weapons get +2
Large Army I 5 M Also Counts as Skirmishers
Great Host I 5 M Also Counts as Cavalry
Cavalry Detachments C 4 M All Your other Cavalry get +1
Jund Cavalry C 5 M -
Andalusian Cavalry C 4 M -
Arab Cavalry C 3 M -
Bedouin C 2 M Your Strategy cards get +3
Military Order C 5 X -
Knights C 4 X -
Men-at-Arms C 3 X -
Caballeros C 2 X Your Strategy cards get +3
Nobility C 5 B Also counts as Leader
Lancers C 4 B -
Raiders C 3 B Enemy discards 1 random card when placed
Horsemen C 2 B Your Strategy cards get +3
Berber Light Cavalry K 5 M Also counts as Cavalry
Horse Archers K 4 M Also counts as Cavalry
Basque Light Cavalry K 5 X Also counts as Cavalry
Crossbowmen K 4 X Your Terrain cards get +1
Artillery K 5 B -
Light Cavalry K 5 B Also counts as Cavalry
Bowmen K 4 B -
Javelinmen K 4 B Also counts as Infantry
Slingers K 3 B -
Light Infantry K 3 B All Enemy Infantry get -1
Archers K 2 B Enemy discards 1 random card when placed
Light Troops K 2 B All Enemy Infantry get -1
Gorge T 5 X Your Skirmishers get +2
Cliffs T 5 B Your Skirmishers get +2
Fortress T 4 X -
City Walls T 4 X -
River T 3 B Enemy Troops get -1
Hills T 3 B Your Skirmishers get +1
Woods T 2 B All Cavalry get -1
Countryside T 2 B -
Invasion Route T 1 M Draw 1 card when placed
Plains T 1 M Draw 1 card when placed
Eclipse T 2 B All Troops in play get -1
Jihad S 5 M -
Campaign S 4 M Draw 1 card when placed
Treason S 5 X Enemy discards 1 random card when placed
Logistics S 4 X Enemy discards 1 random card when placed
Holy War S 5 B -
Rout S 5 B When Placed discard 1 placed Enemy Troop
Weak Points S 4 B All Enemy Troops get -1
Ambush S 4 B Your Terrain cards get +1
Counterattack S 3 B All Your Troops get +1
Outflank S 3 B Your Cavalry get +2
Charge S 2 B Your Cavalry get +3
Melee S 2 B Your Infantry get +3
Blackguard I 5 M -
Eunuchs I 3 M -
Garrisons I 3 X Draw 1 card when placed
Militia I 2 X Your Terrain cards get +1
Army I 5 B -
Corps I 5 B -
Troops I 4 B -
Soldiers I 4 B -
Spearmen I 3 B -
Footmen I 3 B -
Mercenaries I 2 B You may place an Enemy Troop
Levies I 2 B -
Scimitars W 4 M Your Infantry and Cavalry get +1
Axes and Flails W 4 X Your Infantry and Cavalry get +1
Swords W 5 B Your Infantry and Cavalry get +1
Spears W 5 B Your Infantry get +1
Lances W 4 B Your Cavalry get +2
Shields W 4 B Your Infantry and Cavalry get +1
Chainmail W 3 B Your Infantry and Cavalry get +1
Bows W 3 B Your Skirmishers get +2
Arrows W 2 B Your Skirmishers get +2
Javelins W 2 B Your Skirmishers get +2
Slings W 1 B Your Skirmishers get +2
Daggers W 1 B All Your Troops get +1
"""

LINE = re.compile(r"(?P<name>.+?) (?P<type>[LKCITSW]) (?P<force>\d+) (?P<use>[MXB])(?: (?P<notes>.*))?")


def seed_cards() -> list[dict[str, Any]]:
    """The seed's card lines (after the heading), each as name, type, force, use, notes."""
    out = []
    for line in SEED_CARD_LIST.splitlines()[1:]:
        m = LINE.fullmatch(line.strip())
        assert m is not None, f"a card line of the seed does not parse: {line!r}"
        out.append({**m.groupdict(), "force": int(m["force"]), "notes": m["notes"] or ""})
    return out


# -- the card list ------------------------------------------------------------------------------


def test_the_deck_has_every_card_of_the_list() -> None:
    """THE DECK: "Players share a unique common deck" - the 79 cards of the list, once each."""
    seed = seed_cards()
    deck = default_deck()
    assert len(seed) == 79
    assert len(deck) == len(seed)
    assert [c.name for c in deck.cards] == [s["name"] for s in seed]


def test_counts_by_type_and_by_side_are_the_lists() -> None:
    """CARD LIST NOTATION: L, K, C, I, T, S, W types and M, X, B sides, counted from the seed."""
    seed = seed_cards()
    deck = default_deck()
    assert Counter(c.types[0] for c in deck.cards) == Counter(s["type"] for s in seed)
    assert Counter(c.side for c in deck.cards) == Counter(s["use"] for s in seed)
    assert Counter((c.types[0], c.side) for c in deck.cards) == Counter((s["type"], s["use"]) for s in seed)


def test_every_card_has_its_force_side_and_notes() -> None:
    """THE COMON DECK CARD LIST: name, type, force, use and notes of each card as printed."""
    deck = default_deck()
    for s in seed_cards():
        card = deck.card(s["name"])
        assert (card.types[0], card.force, card.side, card.notes) == (
            s["type"],
            s["force"],
            s["use"],
            s["notes"],
        )


# A reading of the notes for this test only, to hold the data to the printed text. The app
# never reads notes: it reads the structured effects this checks.
WORDS = {
    "skirmishers": ("K",),
    "cavalry": ("C",),
    "infantry": ("I",),
    "troops": ("K", "C", "I"),
    "terrain cards": ("T",),
    "strategy cards": ("S",),
    "weapons": ("W",),
    "leader": ("L",),
}


def _types(text: str) -> set[str]:
    return {t for part in text.lower().split(" and ") for t in WORDS[part]}


def expected(notes: str) -> dict[str, Any]:
    """What a card's notes say it does, as the fields of cards.toml."""
    out: dict[str, Any] = {"also": None, "modifiers": [], "on_place": [], "place_enemy_troop": False}
    text = re.sub(r"^\((Castille|Leon|Navarre)\)\s*", "", notes)  # a kingdom, not an effect
    if text in ("", "-"):
        return out
    if m := re.fullmatch(r"(?i)also counts as (\w+)", text):
        (out["also"],) = _types(m[1])
    elif m := re.fullmatch(r"(?i)(all )?(your |enemy )?(other )?(.+?)( in play)? get ([+-]\d+)", text):
        target = (m[2] or "all").strip().lower()
        out["modifiers"] = [(target, _types(m[4]), int(m[6]), bool(m[3]))]
    elif m := re.fullmatch(r"(?i)draw (\d+) card when placed", text):
        out["on_place"] = [("draw", int(m[1]))]
    elif m := re.fullmatch(r"(?i)enemy discards (\d+) random card when placed", text):
        out["on_place"] = [("enemy_discards", int(m[1]))]
    elif m := re.fullmatch(r"(?i)when placed discard (\d+) placed enemy troop", text):
        out["on_place"] = [("destroy_enemy_troop", int(m[1]))]
    elif re.fullmatch(r"(?i)you may place an enemy troop", text):
        out["place_enemy_troop"] = True
    else:
        pytest.fail(f"notes this test cannot read: {notes!r}")
    return out


def actual(card: Card) -> dict[str, Any]:
    return {
        "also": card.types[1] if len(card.types) > 1 else None,
        "modifiers": [(m.target, set(m.types), m.amount, m.other) for m in card.modifiers],
        "on_place": [(e.effect, e.count) for e in card.on_place],
        "place_enemy_troop": card.place_enemy_troop,
    }


@pytest.mark.parametrize("name", [s["name"] for s in seed_cards()])
def test_each_cards_effect_is_what_its_notes_say(name: str) -> None:
    """THE COMON DECK CARD LIST, Notes: the structured effect of each card says what its notes say."""
    card = default_deck().card(name)
    assert actual(card) == expected(card.notes)


def test_kingdoms_are_notes_not_effects() -> None:
    """Card list: "King Ramiro II L 5 X (Leon)", "Garcia Sanchez I L 4 X (Navarre)": the kingdom
    in parentheses gives nothing; Count Fernan Gonzalez's "(Castille)" neither, only his +2."""
    deck = default_deck()
    for name in ("King Ramiro II", "Garcia Sanchez I"):
        card = deck.card(name)
        assert (card.modifiers, card.on_place, card.place_enemy_troop) == ((), (), False)
    (fernan,) = deck.card("Count Fernan Gonzalez").modifiers
    assert (fernan.target, set(fernan.types), fernan.amount) == ("your", set(TROOPS), 2)


def test_christian_saints_give_troops_and_weapons_two() -> None:
    """Card list: "Christian Saints L 3 X All your Troops and Weapons get +2"."""
    (m,) = default_deck().card("Christian Saints").modifiers
    assert (m.target, set(m.types), m.amount, m.other) == ("your", {"K", "C", "I", "W"}, 2, False)


def test_only_cavalry_detachments_leave_themselves_out() -> None:
    """Card list: "Cavalry Detachments C 4 M All Your other Cavalry get +1" is the only 'other'."""
    others = [c.name for c in default_deck().cards for m in c.modifiers if m.other]
    assert others == ["Cavalry Detachments"]
    assert default_deck().card("Cavalry Detachments").modifiers[0].describe() == "your other Cavalry +1"


# -- validation ---------------------------------------------------------------------------------

GOOD = """
[[card]]
name = "Knights"
types = ["C"]
force = 4
side = "X"
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cards.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_a_small_valid_file_loads(tmp_path: Path) -> None:
    deck = load_deck(write(tmp_path, GOOD))
    assert [c.name for c in deck.cards] == ["Knights"]
    assert deck.card("Knights").force == 4


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        (('types = ["C"]', 'types = ["Q"]'), "card.0.types.0", "'L'"),
        (("force = 4", "force = -1"), "card.0.force", "greater than or equal to 0"),
        (('side = "X"', 'side = "Y"'), "card.0.side", "'M', 'X' or 'B'"),
        (("force = 4\n", ""), "card.0.force", "Field required"),
        (('side = "X"', 'side = "X"\ncolour = "red"'), "card.0.colour", "Extra inputs"),
        (('types = ["C"]', 'types = ["C", "C"]'), "card.0.types", "listed twice"),
        (('types = ["C"]', 'types = ["C", "K", "I"]'), "card.0.types", "at most 2"),
        (
            (
                'side = "X"',
                'side = "X"\nmodifiers = [{ target = "enemy", types = ["C"], amount = -1, other = true }]',
            ),
            "card.0.modifiers.0",
            "'other' only makes sense",
        ),
        (
            ('side = "X"', 'side = "X"\nmodifiers = [{ target = "your", types = ["C"], amount = 0 }]'),
            "card.0.modifiers.0.amount",
            "non-zero",
        ),
        (
            ('side = "X"', 'side = "X"\non_place = [{ effect = "steal", count = 1 }]'),
            "card.0.on_place.0.effect",
            "'draw'",
        ),
    ],
)
def test_a_bad_card_is_one_sentence_naming_file_and_field(
    tmp_path: Path, change: tuple[str, str], field: str, words: str
) -> None:
    path = write(tmp_path, GOOD.replace(*change))
    with pytest.raises(DataFileError) as info:
        load_deck(path)
    message = str(info.value)
    assert str(path) in message
    assert f"field {field}:" in message
    assert words in message
    assert message.endswith(".") and "\n" not in message


def test_two_names_equal_but_for_case_and_accents_are_refused(tmp_path: Path) -> None:
    """Names are matched ignoring case and accents, so 'Knights' and 'KNÍGHTS' would be one."""
    path = write(tmp_path, GOOD + GOOD.replace('"Knights"', '"KNÍGHTS"'))
    with pytest.raises(DataFileError, match=r"card\.1: the name 'KNÍGHTS' is already card\.0's"):
        load_deck(path)


def test_a_missing_or_broken_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="does not exist"):
        load_deck(tmp_path / "nope.toml")
    with pytest.raises(DataFileError, match="is not valid TOML"):
        load_deck(write(tmp_path, "[[card]\nname ="))


# -- names --------------------------------------------------------------------------------------


def test_names_match_ignoring_case_accents_and_spaces() -> None:
    deck = default_deck()
    assert deck.find("  jund CAVALRY ").name == "Jund Cavalry"
    assert deck.find("Count Fernán González").name == "Count Fernan Gonzalez"
    assert deck.find("caliph  abd al-rahman iii").name == "Caliph Abd al-Rahman III"
    assert fold(" Fernán  González ") == "fernan gonzalez"


def test_an_unknown_name_suggests_the_closest_card() -> None:
    with pytest.raises(UnknownCard, match=r"^There is no card called 'Nights'; did you mean Knights\?$"):
        default_deck().find("Nights")
    with pytest.raises(UnknownCard, match=r"^There is no card called 'zzzz' in the deck\.$"):
        default_deck().find("zzzz")
