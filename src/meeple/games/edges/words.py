"""Edges' moves in words for a move log (``Game.log_words``): "placed a Large pyramid
(strength 3) on the edge between squares (0,1) and (1,1)".

Everything in Edges is public, so the words may name every pyramid and edge; they say where
an edge lies by the squares it bounds (square (r,c): row r, column c, from the top left),
which is what the pyramid counts for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.game import Player
from meeple.core.words import possessive
from meeple.games.edges.board import Edge
from meeple.games.edges.pieces import EdgesAction, Place, Pyramid, TakeOver

if TYPE_CHECKING:
    from meeple.games.edges.rules import EdgesState


def move_words(state: EdgesState, player: Player, action: EdgesAction) -> str:
    """``action`` played by ``player`` from ``state`` in words."""
    if isinstance(action, Place):
        return f"placed {pyramid_words(action.pyramid)} on {edge_words(state, action.edge)}"
    if isinstance(action, TakeOver):
        i = state.first_edge
        game = state.game
        edge = game.board.edges[i]
        owner = game.seat_name(state.owner[i])
        returned = Pyramid(state.pyramid[i]).name.capitalize()
        return (
            f"took over the first pyramid (pie rule): {possessive(owner)} {returned} pyramid "
            f"on {edge} ({edge_words(state, edge)}) went back to {possessive(owner)} stash, "
            f"and {pyramid_words(action.pyramid)} of their own took its place"
        )
    raise TypeError(f"not an Edges action: {action!r}")


def pyramid_words(pyramid: Pyramid) -> str:
    """``a Large pyramid (strength 3)``."""
    return f"a {pyramid.name.capitalize()} pyramid (strength {int(pyramid)})"


def edge_words(state: EdgesState, edge: Edge) -> str:
    """Where ``edge`` lies, by the one or two squares it bounds: ``the edge between squares
    (0,1) and (1,1)``, ``the top edge of square (0,1)`` on the board's rim."""
    kind, r, c = edge
    if kind == "h":
        squares, sides = [(r - 1, c), (r, c)], ("bottom", "top")
        inside = [r > 0, r < state.game.board.rows]
    else:
        squares, sides = [(r, c - 1), (r, c)], ("right", "left")
        inside = [c > 0, c < state.game.board.cols]
    named = [f"({sr},{sc})" for (sr, sc), on in zip(squares, inside, strict=True) if on]
    if len(named) == 2:
        return f"the edge between squares {named[0]} and {named[1]}"
    side = sides[0] if inside[0] else sides[1]
    return f"the {side} edge of square {named[0]}"
