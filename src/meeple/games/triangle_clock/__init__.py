"""The Triangle Clock (Zero): hands of triangles around a clock face; see :mod:`.rules`."""

from meeple.core.game import register_renderer
from meeple.core.registry import register_agent, register_batch, register_playout
from meeple.games.triangle_clock.agents import HeuristicAgent
from meeple.games.triangle_clock.cards import (
    CARDS,
    DIRECTIONS,
    card_name,
    parse_symbol,
    symbol_name,
)
from meeple.games.triangle_clock.hands import HandValue, Ranking, RankingTable, RankingTableError
from meeple.games.triangle_clock.render import render_state
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

# The agents and the drawing import the rules, so the package offers them: the rules module
# imports neither.
register_agent("triangle-clock", "heuristic", HeuristicAgent)
register_renderer(TriangleClockGame, render_state)

# The compiled rules import the rules, so they are offered to search from the package, by
# name: numba is imported where search or a batch first asks for them.
_RULES = f"{__name__}.compiled.rules"
_GUIDED = f"{__name__}.compiled.guided"
register_playout("triangle-clock", f"{_RULES}:playout", f"{_RULES}:tables")
register_playout(
    "triangle-clock",
    f"{_GUIDED}:playout",
    f"{_RULES}:tables",
    policy="guided",
    choose=f"{_GUIDED}:choose",
)
register_playout(
    "triangle-clock",
    f"{_GUIDED}:playout_ahead",
    f"{_RULES}:tables",
    policy="ahead",
    choose=f"{_GUIDED}:choose",
)
register_playout(
    "triangle-clock",
    f"{_GUIDED}:playout_deep",
    f"{_RULES}:tables",
    policy="deep",
    choose=f"{_GUIDED}:choose",
)
register_batch("triangle-clock", f"{__name__}.compiled.batch:TriangleClockBatch")

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
