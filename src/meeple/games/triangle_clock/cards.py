"""The triangles and the 120 cards of The Triangle Clock.

"The triangles point to each of the eight, 45-degree cardinal directions. The triangles have
one of two colours, either be solid or clear." That makes 16 symbols. "No card has the same
symbol on it twice", and the deck of 120 cards is every pair of two different symbols
(16 x 15 / 2 = 120), each pair exactly once.

A symbol is a small int, ``2 * direction + colour``: directions count clockwise from
12 o'clock (N = 0, NE = 1, ... NW = 7) and colour 0 is solid, 1 clear. That number is also the
symbol's place on the clock of the tie-break: a lower number is closer to 12 o'clock
clockwise, solid before clear. Its notation is the direction and ``s`` or ``c``: ``Ns`` is the
solid triangle pointing to 12 o'clock, ``SWc`` the clear one pointing down-left.
"""

from __future__ import annotations

import random
import re
from itertools import combinations

from meeple.core.errors import NotationError

Symbol = int
"""A triangle: ``2 * direction + colour`` (0 to 15)."""
Card = int
"""A card: its index 0 to 119 in :data:`CARDS`."""

DIRECTIONS: tuple[str, ...] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
"""The eight directions, clockwise from 12 o'clock."""
SOLID, CLEAR = 0, 1
COLOURS: tuple[str, ...] = ("solid", "clear")
NUM_SYMBOLS = 16

SYMBOLS: tuple[Symbol, ...] = tuple(range(NUM_SYMBOLS))
"""Every symbol, in tie-break order: closest to 12 o'clock clockwise first, solid first."""

CARDS: tuple[tuple[Symbol, Symbol], ...] = tuple(combinations(SYMBOLS, 2))
"""The 120 cards: each pair of two different symbols, the lower symbol first."""
CARD_INDEX: dict[tuple[Symbol, Symbol], Card] = {pair: i for i, pair in enumerate(CARDS)}
NUM_CARDS = len(CARDS)

# Filled triangles for solid symbols, outlined ones for clear; the diagonal ones are right
# triangles whose right angle is the corner they point to.
_SOLID_GLYPHS = ("▲", "◥", "▶", "◢", "▼", "◣", "◀", "◤")
_CLEAR_GLYPHS = ("△", "◹", "▷", "◿", "▽", "◺", "◁", "◸")


def symbol(direction: int, colour: int) -> Symbol:
    """The symbol pointing to ``direction`` (0 = N, clockwise) in ``colour`` (0 solid)."""
    return 2 * (direction % 8) + colour


def direction_of(s: Symbol) -> int:
    """0 (N) to 7 (NW), clockwise from 12 o'clock."""
    return s >> 1


def colour_of(s: Symbol) -> int:
    """0 for solid, 1 for clear."""
    return s & 1


def symbol_name(s: Symbol) -> str:
    """Notation: direction then ``s`` (solid) or ``c`` (clear): ``Ns``, ``SEc``."""
    return DIRECTIONS[s >> 1] + "sc"[s & 1]


def describe_symbol(s: Symbol) -> str:
    """Words for a person: ``solid N``."""
    return f"{COLOURS[s & 1]} {DIRECTIONS[s >> 1]}"


def glyph(s: Symbol) -> str:
    """A triangle pointing the symbol's way, filled if solid, outlined if clear."""
    return (_SOLID_GLYPHS if s & 1 == SOLID else _CLEAR_GLYPHS)[s >> 1]


def symbol_label(s: Symbol) -> str:
    """A symbol as glyph and notation: ``▲Ns``, ``△Nc``."""
    return f"{glyph(s)}{symbol_name(s)}"


_SYMBOL_RE = re.compile(r"^\s*(NE|NW|SE|SW|N|E|S|W)\s*([SC])\s*$", re.IGNORECASE)
_BY_DIRECTION = {name: i for i, name in enumerate(DIRECTIONS)}


def parse_symbol(text: str) -> Symbol:
    """Read ``Ns`` / ``NEc`` (any case); NotationError says how to write one."""
    m = _SYMBOL_RE.match(text)
    if not m:
        raise NotationError(
            f"{text!r} is not a symbol; write a direction (N, NE, E, SE, S, SW, W, NW) and "
            "s for solid or c for clear, e.g. Ns or SWc"
        )
    return symbol(_BY_DIRECTION[m.group(1).upper()], "sc".index(m.group(2).lower()))


def palette_swap(s: Symbol) -> Symbol:
    """Palette Swap: 'change a symbol ... from clear to solid, or a solid to clear'."""
    return s ^ 1


def right_angle(s: Symbol) -> Symbol:
    """Right Angle: 'rotating a triangle 90 degrees clockwise' (two steps of 45 degrees)."""
    return (s + 4) & 15  # two directions on, the colour bit untouched


SYMBOL_NAMES: tuple[str, ...] = tuple(symbol_name(s) for s in SYMBOLS)
"""The notation of every symbol, by symbol."""
CARD_NAMES: tuple[str, ...] = tuple(f"{SYMBOL_NAMES[a]}+{SYMBOL_NAMES[b]}" for a, b in CARDS)
"""The notation of every card, by card."""


def card_name(card: Card) -> str:
    """A card as its two symbols: ``Ns+SEc``."""
    return CARD_NAMES[card]


def parse_card(text: str) -> Card:
    """Read ``Ns+SEc`` (the two symbols in either order)."""
    parts = text.split("+")
    if len(parts) != 2:
        raise NotationError(f"{text!r} is not a card; write its two symbols like Ns+SEc")
    a, b = sorted(parse_symbol(p) for p in parts)
    if a == b:
        raise NotationError(f"{text!r} is not a card: no card has the same symbol twice")
    return CARD_INDEX[(a, b)]


def sample_cards_holding(pool: list[Card], printed: list[Symbol], rng: random.Random) -> list[Card]:
    """Distinct cards from ``pool``, the k-th holding ``printed[k]``, uniformly among all
    such choices (at most two cards are played before a round is compared): how a sample
    explains the symbols an opponent has revealed."""
    if not printed:
        return []
    unseen = set(pool)
    holding = [[c for c in HOLDING[s] if c in unseen] for s in printed]
    if len(printed) == 1:
        return [rng.choice(holding[0])]
    first, second = holding
    # a first card is as likely as the number of second cards that can go with it
    weights = [len(second) - (c in second) for c in first]
    a = rng.choices(first, weights)[0]
    return [a, rng.choice([c for c in second if c != a])]


HOLDING: tuple[tuple[Card, ...], ...] = tuple(
    tuple(c for c, pair in enumerate(CARDS) if s in pair) for s in range(NUM_SYMBOLS)
)
"""The 15 cards that hold each symbol."""
