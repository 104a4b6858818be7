"""Tic-tac-toe positions as text (``state.position()``, ``game.from_position``).

The state is one field, the board, so the generic codec writes it as it is
(``board: ["X.O", ".X.", "..."]``); the game adds only its check that a board read back
could have been reached by play.
"""

from __future__ import annotations

from meeple.core.position import PositionCodec
from meeple_tictactoe.rules import EMPTY, MARKS, TicTacToeState


def check(state: TicTacToeState) -> str | None:
    """The first reason the board cannot come from play, or None."""
    size = state.game.size
    if len(state.board) != size or any(len(row) != size for row in state.board):
        return f"the board must be {size} rows of {size} squares"
    text = "".join(state.board)
    if set(text) - set(MARKS + EMPTY):
        return f"a square is X, O or {EMPTY}; got {sorted(set(text) - set(MARKS + EMPTY))}"
    if text.count("X") - text.count("O") not in (0, 1):
        return "X moves first, so X has as many marks as O or one more"
    winners = set()
    for line in state.game.lines:
        marks = {state.board[r][c] for r, c in line}
        if len(marks) == 1 and EMPTY not in marks:
            winners |= marks
    if len(winners) > 1:
        return "both X and O have a line"
    x_moved_last = text.count("X") > text.count("O")
    if winners and (winners == {"X"}) != x_moved_last:
        return f"{winners.pop()} has a line, yet the other player moved after it"
    return None


codec = PositionCodec(TicTacToeState, check=check)
"""Reads and writes Tic-tac-toe positions (found by ``Game.position_codec``)."""
