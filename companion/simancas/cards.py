"""The Battle of Simancas deck: ``data/simancas/cards.toml`` validated by pydantic.

Every card's effect is structured data (modifiers, on-placement effects, the
Mercenaries permission); the rulebook's notes are kept word for word for display
only, never parsed. A problem in the file is a DataFileError naming the file and
the field. Card names are looked up ignoring case, accents and surrounding spaces;
an unknown name is one sentence suggesting the closest card.
"""

from __future__ import annotations

import difflib
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, field_validator, model_validator

from companion.datafiles import Name, data_path, load_model
from companion.errors import CompanionError

CardType = Literal["L", "K", "C", "I", "T", "S", "W"]
Use = Literal["M", "X", "B"]

#: The rulebook's card-list notation.
TYPE_NAMES: dict[str, str] = {
    "L": "Leader",
    "K": "Skirmisher",
    "C": "Cavalry",
    "I": "Infantry",
    "T": "Terrain",
    "S": "Strategy",
    "W": "Weapon",
}
#: "K = Skirmisher (Troops), C = Cavalry (Troops), I = Infantry (Troops)".
TROOPS: frozenset[str] = frozenset({"K", "C", "I"})

SHIPPED = "simancas/cards.toml"


class UnknownCard(CompanionError):
    """A card name that is not in the deck."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, str_strip_whitespace=True)


class Modifier(_Strict):
    """'your / enemy / all X get ±n': a bonus or malus a placed card gives other placed cards."""

    target: Literal["your", "enemy", "all"]
    types: tuple[CardType, ...] = Field(min_length=1)
    amount: Annotated[StrictInt, Field(ge=-20, le=20)]
    other: bool = False  # "your other cavalry": the card giving it is left out

    @field_validator("types")
    @classmethod
    def _distinct(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        if len(set(v)) != len(v):
            raise ValueError(f"a type is listed twice in {list(v)}")
        return v

    @field_validator("amount")
    @classmethod
    def _not_zero(cls, v: int) -> int:
        if v == 0:
            raise ValueError("a modifier of 0 changes nothing; give a non-zero amount")
        return v

    @model_validator(mode="after")
    def _other_is_own_side(self) -> Modifier:
        # An enemy modifier never reaches the card that gives it, so 'other' would mean nothing.
        if self.other and self.target == "enemy":
            raise ValueError("'other' only makes sense for a 'your' or 'all' modifier")
        return self

    def reaches(self, types: tuple[str, ...]) -> bool:
        """Whether a card of ``types`` is of a type this modifier names (once, however many match)."""
        return any(t in self.types for t in types)

    def describe(self) -> str:
        who = {"your": "your", "enemy": "enemy", "all": "all"}[self.target]
        other = " other" if self.other else ""
        what = " and ".join(TYPE_NAMES[t] for t in self.types)
        return f"{who}{other} {what} {self.amount:+d}"


class OnPlace(_Strict):
    """Something that happens once, when the card is placed."""

    effect: Literal["draw", "enemy_discards", "destroy_enemy_troop"]
    count: StrictInt = Field(default=1, ge=1, le=9)


class Card(_Strict):
    """One card of the common deck."""

    name: Name
    types: tuple[CardType, ...] = Field(min_length=1, max_length=2)
    force: StrictInt = Field(ge=0, le=99)
    side: Use
    notes: str = ""
    modifiers: tuple[Modifier, ...] = ()
    on_place: tuple[OnPlace, ...] = ()
    place_enemy_troop: bool = False  # Mercenaries: "You may place an Enemy Troop"

    @field_validator("types")
    @classmethod
    def _distinct(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        if len(set(v)) != len(v):
            raise ValueError(f"a type is listed twice in {list(v)}")
        return v

    def counts_as(self, card_type: str) -> bool:
        """Its own type or the one it "also counts as"."""
        return card_type in self.types

    @property
    def troop(self) -> bool:
        return any(t in TROOPS for t in self.types)

    @property
    def type_text(self) -> str:
        """'Skirmisher', or 'Skirmisher, also Cavalry'."""
        first = TYPE_NAMES[self.types[0]]
        return first if len(self.types) == 1 else f"{first}, also {TYPE_NAMES[self.types[1]]}"


class DeckFile(_Strict):
    card: list[Card] = Field(min_length=1)

    @model_validator(mode="after")
    def _names_differ(self) -> DeckFile:
        # Names are looked up ignoring case and accents, so they must differ beyond those.
        seen: dict[str, int] = {}
        for i, c in enumerate(self.card):
            key = fold(c.name)
            if key in seen:
                raise ValueError(
                    f"card.{i}: the name '{c.name}' is already card.{seen[key]}'s "
                    "(names must differ beyond case and accents)"
                )
            seen[key] = i
        return self


def fold(text: str) -> str:
    """A name as it is matched: no accents, any case, spaces trimmed and single."""
    bare = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join(bare.casefold().split())


@dataclass(frozen=True)
class Deck:
    """The validated deck: cards in the file's order, found by exact or typed name."""

    cards: tuple[Card, ...]
    source: str
    _by_name: dict[str, Card] = field(init=False, repr=False, compare=False)
    _by_fold: dict[str, Card] = field(init=False, repr=False, compare=False)
    _position: dict[str, int] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_name", {c.name: c for c in self.cards})
        object.__setattr__(self, "_by_fold", {fold(c.name): c for c in self.cards})
        object.__setattr__(self, "_position", {c.name: i for i, c in enumerate(self.cards)})

    def position(self, name: str) -> int:
        """Where the card ``name`` (exact) is in the file: lists follow the deck's order."""
        return self._position[name]

    def __len__(self) -> int:
        return len(self.cards)

    def __contains__(self, name: object) -> bool:
        return name in self._by_name

    def card(self, name: str) -> Card:
        """The card of this exact name (as printed); UnknownCard otherwise."""
        try:
            return self._by_name[name]
        except KeyError:
            return self.find(name)

    def find(self, text: str) -> Card:
        """The card a person typed, ignoring case, accents and spaces around it."""
        key = fold(text)
        card = self._by_fold.get(key)
        if card is not None:
            return card
        # A partial name first ("jund", "light cav"): the cards whose words start with every word
        # typed; then a misspelling, by difflib.
        typed = key.split()
        starts = [
            k for k in self._by_fold if typed and all(any(w.startswith(t) for w in k.split()) for t in typed)
        ]
        # The name the words cover best first: "light cav" is Light Cavalry, not Basque Light Cavalry.
        starts.sort(key=lambda k: (not k.startswith(typed[0]), len(k.split())))
        close = starts[:1] or difflib.get_close_matches(key, list(self._by_fold), n=1, cutoff=0.6)
        shown = text.strip()
        if close:
            raise UnknownCard(
                f"There is no card called '{shown}'; did you mean {self._by_fold[close[0]].name}?"
            )
        raise UnknownCard(f"There is no card called '{shown}' in the deck.")


def load_deck(path: str | Path | None = None) -> Deck:
    """The deck in ``path`` (default: the shipped one); DataFileError naming the file and field."""
    where = Path(path) if path is not None else data_path(SHIPPED)
    return Deck(tuple(load_model(where, DeckFile).card), str(where))


@cache
def default_deck() -> Deck:
    """The shipped deck, read once."""
    return load_deck()
