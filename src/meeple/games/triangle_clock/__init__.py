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
from meeple.games.triangle_clock.compiled import guided
from meeple.games.triangle_clock.compiled import rules as compiled_rules
from meeple.games.triangle_clock.compiled.batch import TriangleClockBatch
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

# The compiled rules import the rules, so they are offered to search from the package.
register_playout("triangle-clock", compiled_rules.playout, compiled_rules.tables)
register_playout(
    "triangle-clock",
    guided.playout,
    compiled_rules.tables,
    policy="guided",
    choose=guided.choose,
)
register_playout(
    "triangle-clock",
    guided.playout_ahead,
    compiled_rules.tables,
    policy="ahead",
    choose=guided.choose,
)
register_playout(
    "triangle-clock",
    guided.playout_deep,
    compiled_rules.tables,
    policy="deep",
    choose=guided.choose,
)
register_batch("triangle-clock", TriangleClockBatch)

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
