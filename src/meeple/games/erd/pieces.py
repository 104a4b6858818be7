"""The pieces of Erd: the cards and their values, the three rules versions, the
allocation action with its notation, and one player's side of the table."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal, NamedTuple

from meeple.core.errors import NotationError

# -- the cards ------------------------------------------------------------------------------
HEAVY_ON_RUSH = 2
HEAVY_ON_DEFENSE = 3
TURRET_VALUE = 1
LIGHT_VALUE = 1
DECOY_VALUE = 0
PILE_SIZE = 3
"""'up to three cards' / 'exactly 3 face-down cards' in each of Rush and Defense."""
CONVERSION_STEP = 3
"""'For every 3 points each player's Defense exceeds their opponent's Rush by'."""
LETTERS = ("H", "L", "D")
KIND_NAMES = ("Heavy", "Light", "Decoy")
KIND_PLURALS = ("Heavies", "Lights", "Decoys")

_new_tuple = tuple.__new__
"""How :meth:`Cards.plus` and :meth:`Cards.minus` make their sum: ``Cards(h, l, d)`` goes
through the named tuple's generated constructor (defaults, keywords) to this same call, at
twice its cost, and the rules engine adds and takes piles millions of times in a solve."""


class Cards(NamedTuple):
    """A set of Erd cards counted by kind: Heavies, Lights, Decoys."""

    heavy: int = 0
    light: int = 0
    decoy: int = 0

    @property
    def total(self) -> int:
        """How many cards in all."""
        return self.heavy + self.light + self.decoy

    def plus(self, other: Cards) -> Cards:
        """These cards together with ``other``."""
        return _new_tuple(
            Cards, (self.heavy + other.heavy, self.light + other.light, self.decoy + other.decoy)
        )

    def minus(self, other: Cards) -> Cards:
        """These cards without ``other`` (the caller makes sure they are here)."""
        return _new_tuple(
            Cards, (self.heavy - other.heavy, self.light - other.light, self.decoy - other.decoy)
        )

    def covers(self, other: Cards) -> bool:
        """True if ``other`` can be taken from these cards."""
        return self.heavy >= other.heavy and self.light >= other.light and self.decoy >= other.decoy

    @property
    def rush_value(self) -> int:
        """Value as a Rush pile: Heavy 2, Light 1, Decoy 0."""
        return HEAVY_ON_RUSH * self.heavy + LIGHT_VALUE * self.light + DECOY_VALUE * self.decoy

    @property
    def defense_value(self) -> int:
        """Value as a Defense pile, without Turrets: Heavy 3, Light 1, Decoy 0."""
        return HEAVY_ON_DEFENSE * self.heavy + LIGHT_VALUE * self.light + DECOY_VALUE * self.decoy

    def __str__(self) -> str:
        """``HHL``: a letter per card, Heavies first; ``-`` for no card."""
        return "H" * self.heavy + "L" * self.light + "D" * self.decoy or "-"

    def words(self) -> str:
        """``2 Heavies, 1 Light``: for sentences; ``nothing`` for no card."""
        parts = [
            f"{n} {KIND_NAMES[k] if n == 1 else KIND_PLURALS[k]}" for k, n in enumerate(self) if n
        ]
        return ", ".join(parts) or "nothing"

    @classmethod
    def parse(cls, text: str, empty: bool = True) -> Cards:
        """Read a pile in letters (``HHL``, any order or case) or ``-`` for an empty pile;
        ``empty``: whether a refusal offers ``-`` (not where no pile is empty, nor for a
        Reserve)."""
        text = text.strip().upper()
        if text in ("-", ""):
            return cls()
        bad = sorted({c for c in text if c not in LETTERS})
        if bad:
            letters = "H (Heavy), L (Light), D (Decoy)"
            raise NotationError(
                f"{''.join(bad)!r} in {text!r} is not a card; use "
                + (f"{letters}, or {EMPTY_PILE}" if empty else letters)
            )
        return cls(text.count("H"), text.count("L"), text.count("D"))


NO_CARDS = Cards()


# -- the three rules versions ---------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RulesVersion:
    """What differs between the original sketch, patch 0.01 and patch 0.02."""

    name: str
    decoys: int
    """Decoys in each starting Reserve: 3, then 6 from patch 0.01 on."""
    exactly_three: bool
    """Each pile takes exactly three cards (0.01) rather than up to three (original)."""
    decoy_refill: int | None
    """Decoys come back until the Reserve holds this many cards (0.01); None: all of them."""
    mercy: Literal["0.01", "0.02", "empty"] | None
    """Which mercy rule ends the game at the end of a round, if any ("empty": the softer
    rule a designer may try, no Heavy and no Light in Reserve)."""
    pre_escalation_win: bool
    """0.02: a player who alone has non-Decoys in Reserve right before an Escalation wins."""
    heavies: int = 3
    """Heavies in each starting Reserve (3 in every version; an option may change it)."""
    lights: int = 3
    """Lights in each starting Reserve (likewise)."""

    @property
    def starting_reserve(self) -> Cards:
        """Each player's Reserve at the start of a game."""
        return Cards(self.heavies, self.lights, self.decoys)


VERSIONS: dict[str, RulesVersion] = {
    "original": RulesVersion(
        "original",
        decoys=3,
        exactly_three=False,
        decoy_refill=None,
        mercy=None,
        pre_escalation_win=False,
    ),
    "0.01": RulesVersion(
        "0.01", decoys=6, exactly_three=True, decoy_refill=9, mercy="0.01", pre_escalation_win=False
    ),
    "0.02": RulesVersion(
        "0.02", decoys=6, exactly_three=True, decoy_refill=9, mercy="0.02", pre_escalation_win=True
    ),
}
"""Patch 0.02 keeps every rule of 0.01 that it does not change."""


# -- actions --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Allocate:
    """This round's allocation: the cards put face down on Rush and on Defense.

    Notation: ``rush=HHL defense=LDD`` (H Heavy, L Light, D Decoy; ``-`` for an empty pile).
    """

    rush: Cards
    defense: Cards

    @property
    def cards(self) -> Cards:
        """Every card the allocation takes from the Reserve."""
        return self.rush.plus(self.defense)

    def __str__(self) -> str:
        return f"rush={self.rush} defense={self.defense}"


NOTATION_HELP = (
    "write both piles as rush=<cards> defense=<cards> with H (Heavy), L (Light), D (Decoy), "
    "e.g. 'rush=HHL defense=LDD'"
)
"""How to write an allocation in any rules; where a pile may be empty, the rules' own help
adds ``EMPTY_PILE`` (no pile is empty under 0.01 and 0.02)."""
EMPTY_PILE = "- for an empty pile"


# A pile never swallows the next key: in 'rush= defense=-' the Rush pile is empty.
# A key starts only at the start of a word and nothing backtracks, so a long run of letters
# is scanned once rather than once from every position in it (which was quadratic); a word
# followed by ``=`` is the next key, not this pile's cards.
_PILE_RE = re.compile(r"(?<![A-Za-z])([A-Za-z]++)\s*+=(?:\s*+([^\s,;=]++)(?!\s*+=))?+")
_RUSH_KEYS = ("rush", "r")
_DEFENSE_KEYS = ("defense", "defence", "d")


def parse_allocation(text: str, empty: bool = True) -> Allocate:
    """Read ``rush=HHL defense=LDD`` (keys in any order; ``r=``/``d=`` for short);
    ``empty``: whether the rules have empty piles, which a refusal then offers."""
    piles: dict[str, Cards] = {}
    rest = _PILE_RE.sub(" ", text).replace(",", " ").replace(";", " ").strip()
    if rest:
        raise NotationError(f"{rest!r} is not part of an Erd allocation; {NOTATION_HELP}")
    for key, value in _PILE_RE.findall(text):
        key = key.lower()
        pile = "rush" if key in _RUSH_KEYS else "defense" if key in _DEFENSE_KEYS else None
        if pile is None:
            raise NotationError(f"{key!r} is not a pile; the piles are rush and defense")
        if pile in piles:
            raise NotationError(f"the {pile} pile is given twice in {text!r}")
        piles[pile] = Cards.parse(value, empty)
    missing = [p for p in ("rush", "defense") if p not in piles]
    if missing:
        raise NotationError(f"{text!r} gives no {' and no '.join(missing)} pile; {NOTATION_HELP}")
    return Allocate(piles["rush"], piles["defense"])


# -- one player's side of the table ---------------------------------------------------------
class Side(NamedTuple):
    """One player's cards outside the piles: Reserve, discard pile and Turrets.

    Turrets are Heavies lying sideways in the discard; ``discard`` counts the other cards.
    """

    reserve: Cards
    discard: Cards
    turrets: int

    @property
    def all_cards(self) -> Cards:
        """Every card this player owns (a Turret is a Heavy)."""
        return self.reserve.plus(self.discard).plus(Cards(heavy=self.turrets))

    @property
    def heavies_discarded(self) -> int:
        """Heavies in the discard pile, Turrets included."""
        return self.discard.heavy + self.turrets
