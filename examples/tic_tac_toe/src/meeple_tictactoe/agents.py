"""Tic-tac-toe's hand-written agent."""

from __future__ import annotations

from meeple.core.agent import Observation
from meeple.core.game import Game
from meeple.core.rng import make_rng
from meeple_tictactoe.rules import MARKS, Mark, TicTacToeGame


class HeuristicAgent:
    """Wins if it can, else blocks the opponent's win, else takes the centre, a corner, or
    any square (ties broken by its seeded stream)."""

    name = "heuristic"

    def __init__(self, game: Game, seed: int = 0) -> None:
        assert isinstance(game, TicTacToeGame)
        self.game = game
        self.rng = make_rng(seed, "tic-tac-toe-heuristic")

    def act(self, observation: Observation) -> Mark:
        """The first of: a winning square, a blocking square, the centre, a corner."""
        board = observation.view["board"]
        legal = observation.legal_actions
        mine = MARKS[observation.player]
        for mark in (mine, MARKS[1 - observation.player]):
            wins = [a for a in legal if self._completes(board, a, mark)]
            if wins:
                return self.rng.choice(wins)
        last = self.game.size - 1
        for squares in (
            {(last // 2, last // 2), (last - last // 2, last - last // 2)},
            {(0, 0), (0, last), (last, 0), (last, last)},
        ):
            preferred = [a for a in legal if (a.row, a.col) in squares]
            if preferred:
                return self.rng.choice(preferred)
        return self.rng.choice(legal)

    def _completes(self, board: list[str], action: Mark, mark: str) -> bool:
        """Whether ``mark`` on ``action``'s square would make a full line."""
        for line in self.game.lines:
            if (action.row, action.col) in line and all(
                board[r][c] == mark or (r, c) == (action.row, action.col) for r, c in line
            ):
                return True
        return False
