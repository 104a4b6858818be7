"""Edges (Peter Aronson): pyramids on the edges of a grid; see :mod:`.rules`."""

from meeple.core.game import register_renderer
from meeple.core.registry import register_agent, register_batch, register_playout
from meeple.games.edges.agents import GreedyAgent
from meeple.games.edges.board import Board, Edge
from meeple.games.edges.compiled import rules as compiled_rules
from meeple.games.edges.compiled.batch import EdgesBatch
from meeple.games.edges.render import render_state
from meeple.games.edges.rules import (
    EdgesGame,
    EdgesOptions,
    EdgesState,
    Place,
    Pyramid,
    Stash,
    TakeOver,
)
from meeple.games.edges.uct import UCTAgent

# The agents and the drawing import the rules, so the package offers them: the rules module
# imports neither.
register_agent("edges", "greedy", GreedyAgent)
register_agent("edges", "uct", UCTAgent)
register_renderer(EdgesGame, render_state)
register_playout("edges", compiled_rules.playout, compiled_rules.layout)
register_batch("edges", EdgesBatch)

__all__ = [
    "Board",
    "Edge",
    "EdgesGame",
    "EdgesOptions",
    "EdgesState",
    "Place",
    "Pyramid",
    "Stash",
    "TakeOver",
]
