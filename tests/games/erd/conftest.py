"""Helpers for building Erd positions directly and playing rounds on them."""

from __future__ import annotations

import meeple
from meeple.core.simultaneous import Submissions
from meeple.games.erd import Cards, ErdGame, ErdState, Side


def erd(**options: object) -> ErdGame:
    """The game with these options (a single game unless ``best_of`` is given)."""
    game = meeple.make("erd", **{"best_of": 1, **options})
    assert isinstance(game, ErdGame)
    return game


def side(reserve: str, discard: str = "-", turrets: int = 0) -> Side:
    """One player's side written in card letters: ``side("HHLLDDD", discard="HL")``."""
    return Side(Cards.parse(reserve), Cards.parse(discard), turrets)


def position(game: ErdGame, red: Side, blue: Side, round_number: int = 1) -> ErdState:
    """A round about to be allocated, with these sides on the table."""
    return ErdState(
        game=game,
        sides=(red, blue),
        pending=Submissions.open((0, 1)),
        round=round_number,
        games=(),
        last=None,
    )


def play_round(state: ErdState, red: str, blue: str) -> ErdState:
    """Both allocations in notation, Red first; the round is resolved."""
    after = state.apply_text(0, red).apply_text(1, blue)
    assert isinstance(after, ErdState)
    return after
