"""Edges (Peter Aronson): pyramids on the edges of a grid; see :mod:`.rules`."""

from meeple.core.registry import register_agent, register_playout
from meeple.games.edges import fast
from meeple.games.edges.board import Board, Edge
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

# Registered from the package, not from rules.py, so the rules never import their agents.
register_agent("edges", "uct", UCTAgent)
register_playout("edges", fast.playout, fast.layout)

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
