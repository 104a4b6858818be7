"""Edges (Peter Aronson): pyramids on the edges of a grid; see :mod:`.rules`."""

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
