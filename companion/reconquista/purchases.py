"""Phase 3 of Reconquista, "Collect Income and Spend It", as a prompt procedure.

The income is counted by ``control.income`` and told line by line; then the player
buys, one purchase at a time, from the purchases legal now, until "Done". Which
purchases are legal is decided in one place, ``refusal``: ``options`` offers exactly
the (kind, area) pairs it does not refuse, so the screens' explanations and the
phase's choices cannot disagree. The readings taken are in docs/rules-notes.md ("Phase 3").

Every prompt carries a topic (``reconquista.income.*``, the ``*_TOPIC`` names below) and
its facts. The purchase Choose lists its offers in ``data["offers"]`` in the order of its
options (kind, area and cost of each), "Done" last when ``data["done"]``: a reader picks a
purchase by its kind and area, never by the words of its option.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.prompts import Choose, Tell
from companion.reconquista.battle import Proc
from companion.reconquista.board import Board
from companion.reconquista.control import (
    city_controller,
    free_of_enemy,
    hostile,
    income,
)
from companion.reconquista.state import AreaState, GameState, unit_name
from companion.reconquista.units import Kind, noun_for, plural

#: Every purchase kind, in the order the options list them. Crusaders come first:
#: they must be placed before the phase can end.
KINDS: tuple[str, ...] = (
    "crusader",
    "army",
    "garrison",
    "city",
    "fortress",
    "convert",
    "bribe",
    "mercenary",
)

DONE = "Done (unspent points are lost)"

#: The topics of the phase's prompts (companion/prompts.py): the bot and the screens read
#: these, never the wording.
INCOME_TOPIC = "reconquista.income.collect"
PURCHASE_TOPIC = "reconquista.income.purchase"
BOUGHT_TOPIC = "reconquista.income.bought"
CRUSADERS_LOST_TOPIC = "reconquista.income.crusaders_lost"
UNSPENT_TOPIC = "reconquista.income.unspent"
UNHIRED_TOPIC = "reconquista.income.unhired_mercenaries"

RULE = "Phase 3: Collect Income and Spend It"
_INCOME_RULE = f"{RULE} — Income"
_EXPENSES_RULE = f"{RULE} — Expenses"
_NOT_SAVED_RULE = f"{RULE} — Income cannot be saved from one turn to the next"
# The rulebook's Phase 2 text stops at event 5: the Crusade is the Quick Reference Sheet's.
_CRUSADE_RULE = "Quick Reference Sheet — 11 Crusade"
_MERCENARIES_RULE = "Phase 2: Events — Mercenaries"

#: The rule each purchase follows: its line of "Expenses", or the event that allows it.
_PURCHASE_RULE = {
    "army": f"{_EXPENSES_RULE} — Build an army",
    "garrison": f"{_EXPENSES_RULE} — Build a Garrison",
    "city": f"{_EXPENSES_RULE} — Build a City",
    "fortress": f"{_EXPENSES_RULE} — Build a Fortress",
    "convert": f"{_EXPENSES_RULE} — Convert a City from Muslim to Christian",
    "bribe": "Phase 2: Events — Bribery",
    "mercenary": _MERCENARIES_RULE,
    "crusader": _CRUSADE_RULE,
}

#: How a purchase is named in the refusal "Not enough points: <noun> costs ...".
_NOUN = {
    "army": "an army",
    "garrison": "a garrison",
    "city": "a city",
    "fortress": "a fortress",
    "convert": "converting a city",
    "bribe": "the bribe",
    "mercenary": "a mercenary",
    "crusader": "a crusader",
}

#: The kinds that are "built" (the revolt sentence says "built"; conversion and
#: bribery are purchases that build nothing, so their sentence says "bought").
_BUILT = frozenset({"army", "garrison", "city", "fortress", "mercenary", "crusader"})


#: The [costs] entry of tables.toml ("Expenses") that prices each purchase but the crusader.
_COST_ENTRY = {
    "army": "army",
    "garrison": "garrison",
    "city": "city",
    "fortress": "fortress",
    "convert": "convert",
    "bribe": "bribery",
    "mercenary": "mercenary",
}

#: The option text of each purchase, before the area's name.
_ACTION = {
    "army": "Build an army in",
    "garrison": "Build a garrison in",
    "city": "Build a city in",
    "fortress": "Build a fortress in",
    "convert": "Convert the city of",
    "bribe": "Bribe the Rebels in",
    "mercenary": "Hire a mercenary in",
    "crusader": "Place a crusader in",
}


def cost(board: Board, kind: str) -> int:
    """The points a purchase costs, from tables.toml ("Expenses"); crusaders are free
    (docs/design.md, "Crusade": "free, placed by the player in Phase 3 as if built")."""
    if kind == "crusader":
        return 0
    price: int = getattr(board.tables.costs, _COST_ENTRY[kind])
    return price


def label(board: Board, kind: str, area: str) -> str:
    """The option text of a purchase: 'Build an army in Oviedo (2)'."""
    price = "free" if kind == "crusader" else str(cost(board, kind))
    return f"{_ACTION[kind]} {area} ({price})"


def _christians(a: AreaState) -> int:
    """Christian forces of every kind: Military Orders, hired mercenaries and crusaders
    count like armies and garrisons (docs/rules-notes.md, board reading 4). Those are every
    kind the Christian side fields (``control.CHRISTIAN_FORCES``): every Christian unit counts."""
    return a.count("christian")


def _christians_inside(a: AreaState) -> bool:
    """Christian forces inside the walls: present and not the ones besieging (a
    besieger stands outside: docs/rules-notes.md, board reading 2)."""
    return _christians(a) > 0 and a.besieger != "christian"


def _holds_place(a: AreaState) -> bool:
    """ "a City (Christian or Muslim) or Fortress that you control". A city is judged by
    ``city_controller``; a fortress without a city has no religion, so it is yours when
    Christian forces are inside it (an empty fortress is nobody's: "An unoccupied
    Fortress must be removed from the game")."""
    if a.city is not None:
        return city_controller(a) == "christian"
    return a.fortress and _christians_inside(a)


# The reasons a purchase is refused. The checks return these templates, and only
# ``refusal`` fills them in, so that every sentence a player may read is here in one list
# and a check needs to know nothing but the area. The fields: {area}, {region} (its
# name), {verb} ('built' or 'bought'), {noun} (the purchase, as _NOUN names it),
# {price}, {left} and {are} ('is' or 'are', agreeing with {left}).
_IN_REVOLT = "{region} is in revolt this turn: nothing can be {verb} there."
_NO_PLACE = "{area} has no city or fortress you control."
_NOT_FREE = "{area} is not free of enemy forces."
_HAS_CITY = "{area} already has a city."
_NO_CITY_BUILDERS = "{area} has no Christian army or garrison to build a city with."
_HAS_FORTRESS = "{area} already has a fortress."
_NO_FORTRESS_BUILDERS = "{area} has no Christian city, army or garrison to build a fortress with."
_NO_MUSLIM_CITY = "{area} has no Muslim city to convert."
_NOBODY_INSIDE = "The city of {area} has no Christian army or garrison inside it."
_NO_REBELS = "{area} has no Rebels to bribe."
_NO_POINTS = "Not enough points: {noun} costs {price} and {left} {are} left."


def _army_place(a: AreaState) -> str | None:
    """Expenses, Build an army / a Garrison: "only [...] in a City (Christian or Muslim) or
    Fortress that you control, in an area that is free of enemy forces" (docs/rules-notes.md,
    Phase 3 reading 4). Mercenaries and crusaders are placed the same way."""
    if not _holds_place(a):
        return _NO_PLACE
    if not free_of_enemy(a, "christian"):
        return _NOT_FREE
    return None


def _city_place(a: AreaState) -> str | None:
    """Expenses: "A city can be built in any area that contains a Christian army and / or
    Garrison and where there is not already a city [...] The area must be free of enemy
    forces." Any Christian force builds it (reading 5)."""
    if a.city is not None:
        return _HAS_CITY
    if not _christians(a):
        return _NO_CITY_BUILDERS
    if not free_of_enemy(a, "christian"):
        return _NOT_FREE
    return None


def _fortress_place(a: AreaState) -> str | None:
    """Expenses: "A Fortress can be built in any area that contains a Christian City and / or
    an Army and / or Garrison, provided the Area does not already contain a Fortress"
    (reading 6), free of enemy forces."""
    if a.fortress:
        return _HAS_FORTRESS
    if a.city != "christian" and not _christians(a):
        return _NO_FORTRESS_BUILDERS
    if not free_of_enemy(a, "christian"):
        return _NOT_FREE
    return None


def _convert_place(a: AreaState) -> str | None:
    """Expenses, Convert: "Can only be applied to a Muslim city that contains a Christian army
    and / or garrison": inside the walls, not besieging it (reading 7)."""
    if a.city != "muslim":
        return _NO_MUSLIM_CITY
    if not _christians_inside(a):
        return _NOBODY_INSIDE
    return None


def _bribe_place(a: AreaState) -> str | None:
    """Event 3, Bribery: "replace all Rebels in a single Area with a Christian Garrison":
    an area with Rebels (reading 9)."""
    return None if a.count("rebel") else _NO_REBELS


#: The check of the place each kind of purchase needs. Mercenaries are placed "as an
#: army", crusaders "as if built" (docs/design.md): they need an army's place.
_PLACE_CHECKS = {
    "army": _army_place,
    "garrison": _army_place,
    "mercenary": _army_place,
    "crusader": _army_place,
    "city": _city_place,
    "fortress": _fortress_place,
    "convert": _convert_place,
    "bribe": _bribe_place,
}


def refusal(board: Board, state: GameState, purchase_kind: str, area: str) -> str | None:
    """One sentence saying why buying ``purchase_kind`` in ``area`` is not legal now,
    or None when it is ("Phase 3: Collect Income and Spend It", "Expenses", and the
    events Bribery, Mercenaries and Crusade). ``state.income`` is the points left.

    The checks go from the most lasting reason to the least: the event that allows
    the purchase, the region in revolt, the place, the points.
    """
    if purchase_kind not in KINDS:
        return (
            f"'{purchase_kind}' is not a purchase: army, garrison, city, fortress, convert, "
            "bribe, mercenary or crusader."
        )
    if area not in board.areas:
        return f"'{area}' is not an area of the map."
    why = _event_refusal(state, purchase_kind)
    if why is not None:
        return why
    why = _place_refusal(board, state, purchase_kind, area) or _points(board, state, purchase_kind)
    if why is None:
        return None
    left = state.income
    return why.format(
        area=area,
        region=board.region_of(area).name,
        verb="built" if purchase_kind in _BUILT else "bought",
        noun=_NOUN[purchase_kind],
        price=cost(board, purchase_kind),
        left=left,
        are="is" if left == 1 else "are",
    )


def _event_refusal(state: GameState, kind: str) -> str | None:
    """The purchases only an event makes possible: the same answer for every area."""
    fx = state.effects
    if kind == "bribe" and not fx.bribery:
        return "No bribe can be paid this turn: only the Bribery event (3) allows one, once."
    if kind == "mercenary" and fx.mercenaries <= 0:
        return "No mercenary is left to hire this turn: they come with the Mercenaries event (4)."
    if kind == "crusader" and fx.crusaders <= 0:
        return "No crusader is left to place this turn: they come with the Crusade event (11)."
    return None


def _place_refusal(board: Board, state: GameState, kind: str, area: str) -> str | None:
    """The region and the place: why ``area`` does not allow ``kind`` (a template), None
    when it does."""
    if board.areas[area].region == state.revolt:
        # Regional Revolt: "This entire region is excluded from the game for this entire
        # turn ... No one can move into it or build." Excluded: no purchase at all there.
        return _IN_REVOLT
    return _PLACE_CHECKS[kind](state.areas[area])


def _points(board: Board, state: GameState, kind: str) -> str | None:
    return _NO_POINTS if cost(board, kind) > state.income else None


@dataclass(frozen=True)
class Offer:
    """A purchase legal now: its option text, kind and area."""

    text: str
    kind: str
    area: str


def offers(board: Board, state: GameState) -> list[Offer]:
    """Every purchase ``refusal`` does not refuse, kinds in KINDS order, areas in map order.
    (The same checks as ``refusal``: the event and the price, which are the same for every
    area, once a kind; then the region and the place, area by area.)"""
    return [
        Offer(label(board, kind, area), kind, area)
        for kind in KINDS
        if _event_refusal(state, kind) is None and _points(board, state, kind) is None
        for area in board.area_order
        if _place_refusal(board, state, kind, area) is None
    ]


def options(board: Board, state: GameState) -> list[str]:
    """The purchase options the phase offers now (without "Done")."""
    return [o.text for o in offers(board, state)]


def _crusader_places(board: Board, state: GameState) -> bool:
    """Whether a crusader could be placed anywhere (where an army could be built)."""
    return any(_place_refusal(board, state, "crusader", area) is None for area in board.area_order)


def _spent(board: Board, state: GameState, kind: str) -> str:
    price = cost(board, kind)
    if price == 0:
        return "free"
    return f"{price} point{'s' * (price != 1)} spent, {state.income} left"


def apply(board: Board, state: GameState, kind: str, area: str) -> str:
    """Carry out a legal purchase on the state and return the Tell for the table; an
    illegal one raises ValueError with the refusal sentence and changes nothing."""
    why = refusal(board, state, kind, area)
    if why is not None:
        raise ValueError(why)
    a = state.areas[area]
    state.income -= cost(board, kind)
    paid = _spent(board, state, kind)
    if kind in ("army", "garrison"):
        k = Kind.ARMY if kind == "army" else Kind.GARRISON
        a.add("christian", k)
        return f"Place {unit_name('christian', k)} in {area} ({paid})."
    if kind == "city":
        a.city = "christian"
        kept = " (the fortress stays)" if a.fortress else ""
        return f"Place a Christian city in {area}{kept} ({paid})."
    if kind == "fortress":
        a.fortress = True
        return f"Place a fortress in {area} ({paid})."
    if kind == "convert":
        a.city = "christian"
        kept = "; the fortress stays" if a.fortress else ""
        return f"Replace the Muslim city of {area} with a Christian city{kept} ({paid})."
    if kind == "bribe":
        n = a.count("rebel", Kind.REBEL)
        rebels_besieged = a.besieger == "rebel"
        a.remove("rebel", Kind.REBEL, n)
        a.add("christian", Kind.GARRISON)
        # The garrison takes the Rebels' place: outside the walls if they besieged the
        # city, inside if they held it. With nobody hostile left, no siege remains.
        if not any(hostile("christian", s) for s in a.sides()):
            a.besieger = None
        elif rebels_besieged:
            a.besieger = "christian"
        state.effects.bribery = False  # "a single Area": the bribe is paid once
        rebels = "1 Rebel" if n == 1 else f"{n} Rebels"
        return (
            f"Remove {rebels} from {area} and place {unit_name('christian', Kind.GARRISON)} there ({paid})."
        )
    # Mercenaries and crusaders are Neutral Army counters serving as Christian armies.
    k = Kind.MERCENARY if kind == "mercenary" else Kind.CRUSADER
    a.add("christian", k)
    if kind == "mercenary":
        state.effects.mercenaries -= 1
        left, what = state.effects.mercenaries, "to hire"
    else:
        state.effects.crusaders -= 1
        left, what = state.effects.crusaders, "to place"
    more = f" {unit_name('christian', k, left)} left {what}." if left else ""
    return f"Place 1 {k.noun} (a Neutral Army counter) in {area} as a Christian army ({paid}).{more}"


def _income_tell(lines: list[tuple[str, int]], total: int) -> str:
    parts = "; ".join(f"{text} {amount}" for text, amount in lines)
    return f"Income: {parts}. Total {total} point{'s' * (total != 1)}: move the income marker to {total}."


def phase(board: Board, state: GameState) -> Proc:
    """Phase 3: collect the income, then buy until "Done" or nothing is left to buy.

    "Income cannot be saved from one turn to the next": whatever is left when the phase
    ends is lost and ``state.income`` becomes 0. Crusaders must be placed before "Done"
    is offered, unless no place could take them, in which case they are lost.
    """
    earned = income(board, state)
    state.income = earned.total
    yield Tell(
        _income_tell(earned.lines, earned.total),
        topic=INCOME_TOPIC,
        data={
            "lines": [{"label": text, "points": amount} for text, amount in earned.lines],
            "total": earned.total,
        },
        rule=_INCOME_RULE,
    )
    while True:
        fx = state.effects
        if fx.crusaders > 0 and not _crusader_places(board, state):
            n = fx.crusaders
            fx.crusaders = 0
            yield Tell(
                f"No area can take {'the crusader' if n == 1 else f'the {n} crusaders'} "
                "(no city or fortress you control, free of enemy forces): "
                f"{'it is' if n == 1 else 'they are'} lost.",
                topic=CRUSADERS_LOST_TOPIC,
                data={"crusaders": n},
                rule=_CRUSADE_RULE,
            )
        current = offers(board, state)
        if not current:
            break
        choices = [o.text for o in current]
        if fx.crusaders == 0:
            choices.append(DONE)
        why = f"Phase 3: spend your income ({state.income} point{'s' * (state.income != 1)} left)"
        if fx.crusaders:
            why += f"; {plural(Kind.CRUSADER, fx.crusaders)} to place first"
        answer = yield Choose(
            choices,
            why,
            topic=PURCHASE_TOPIC,
            data={
                "points": state.income,
                "crusaders": fx.crusaders,
                "offers": [{"kind": o.kind, "area": o.area, "cost": cost(board, o.kind)} for o in current],
                "done": fx.crusaders == 0,
            },
            rule=_EXPENSES_RULE,
        )
        if answer == DONE:
            break
        offer = next(o for o in current if o.text == answer)
        text = apply(board, state, offer.kind, offer.area)
        yield Tell(
            text,
            topic=BOUGHT_TOPIC,
            data={
                "kind": offer.kind,
                "area": offer.area,
                "cost": cost(board, offer.kind),
                "points_left": state.income,
            },
            rule=_PURCHASE_RULE[offer.kind],
        )
    if state.income > 0:
        left = state.income
        yield Tell(
            f"Phase 3 ends: the {left} unspent point{'s' * (left != 1)} "
            f"{'is' if left == 1 else 'are'} lost (income cannot be saved).",
            topic=UNSPENT_TOPIC,
            data={"points": left},
            rule=_NOT_SAVED_RULE,
        )
    state.income = 0
    if state.effects.mercenaries > 0:
        n = state.effects.mercenaries
        yield Tell(
            f"{n} unhired {noun_for(Kind.MERCENARY, n)} will join the Muslim reaction in Phase 5.",
            topic=UNHIRED_TOPIC,
            data={"mercenaries": n},
            rule=f"{_MERCENARIES_RULE} — Any Mercenary units that are not hired are added to the Muslim forces",
        )
