"""The board for the terminal (``meeple play``): column letters above, row numbers beside."""

from __future__ import annotations

from meeple.core.game import Player
from meeple_tictactoe.rules import COLUMNS, EMPTY, MARKS, TicTacToeState

SHOWN_EMPTY = "·"
"""An empty square on screen (the legend in rules.md explains it)."""


def render_state(state: TicTacToeState, player: Player | None = None) -> str:
    """The board as text, then whose turn it is or how the game ended."""
    size = state.game.size
    lines = ["   " + " ".join(COLUMNS[:size])]
    for r, row in enumerate(state.board):
        lines.append(f"{r + 1:>2} " + " ".join(row).replace(EMPTY, SHOWN_EMPTY))
    if state.is_over:
        lines.append(state.result["reason"])
    else:
        lines.append(f"{MARKS[state.mover]} to move")
    return "\n".join(lines)
