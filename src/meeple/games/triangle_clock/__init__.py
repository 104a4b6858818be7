"""The Triangle Clock (Zero): hands of triangles around a clock face; see :mod:`.rules`."""

from meeple.games.triangle_clock.cards import (
    CARDS,
    DIRECTIONS,
    card_name,
    parse_symbol,
    symbol_name,
)
from meeple.games.triangle_clock.hands import HandValue, Ranking, RankingTable, RankingTableError
from meeple.games.triangle_clock.rules import (
    Item,
    Memorised,
    Mulligan,
    Phase,
    Pick,
    Seat,
    TriangleClockGame,
    TriangleClockOptions,
    TriangleClockState,
)

__all__ = [
    "CARDS",
    "DIRECTIONS",
    "HandValue",
    "Item",
    "Memorised",
    "Mulligan",
    "Phase",
    "Pick",
    "Ranking",
    "RankingTable",
    "RankingTableError",
    "Seat",
    "TriangleClockGame",
    "TriangleClockOptions",
    "TriangleClockState",
    "card_name",
    "parse_symbol",
    "symbol_name",
]
