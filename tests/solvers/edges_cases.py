"""What the Edges solver's tests share: a game by board and stash, and the value of any
position by plain minimax over the rules engine."""

from __future__ import annotations

from functools import cache

import meeple
from meeple.games.edges.rules import EdgesState


def game(board: str, stash: str, pie: bool = False):
    """Edges on ``board`` with ``stash`` for each player, Red first, the pie rule as given."""
    return meeple.make("edges", board=board, stash=stash, pie=pie, first=0)


@cache
def brute(state: EdgesState) -> int:
    """Plain minimax over the rules engine (pie rule included): seat 0 minus seat 1."""
    if state.is_over:
        a, b = state.scores()
        return a - b
    mover = state.to_act[0]
    values = [brute(state._next(mover, a)) for a in state.legal_actions(mover)]
    return max(values) if mover == 0 else min(values)
