"""Edges (Peter Aronson): pyramids on the edges of a grid; see :mod:`.rules`."""

from meeple.core.game import register_renderer
from meeple.core.registry import register_agent, register_batch, register_playout
from meeple.games.edges.agents import GreedyAgent
from meeple.games.edges.board import Board, Edge
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

_COMPILED = f"{__name__}.compiled"

# The agents and the drawing import the rules, so the package offers them: the rules module
# imports neither.
register_agent("edges", "greedy", GreedyAgent)
register_agent("edges", "uct", UCTAgent)
register_renderer(EdgesGame, render_state)
# The compiled twin by name: numba is imported where search or a batch first asks for it.
register_playout("edges", f"{_COMPILED}.rules:playout", f"{_COMPILED}.rules:layout")
register_batch("edges", f"{_COMPILED}.batch:EdgesBatch")

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
