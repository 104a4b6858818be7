"""The ``perfect`` Edges agent: exact play once the endgame is small enough to solve.

The solver (and numba) are imported when the agent is built, not when meeple is imported, so
the command line starts fast.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from meeple.core.agent import Observation, check_budget
from meeple.core.errors import MeepleError
from meeple.core.game import Game
from meeple.core.rng import make_rng
from meeple.games.edges.rules import EdgesAction, EdgesGame, EdgesState

if TYPE_CHECKING:
    from meeple.solvers.edges_solver import EdgesSolver


class PerfectAgent:
    """Solves the position exactly when at most ``exact`` pyramids are left to place.

    With ``seconds`` > 0 it also tries to solve bigger positions exactly within that many
    seconds per move, and falls back to the search below if the solve does not finish in
    time. Before that it runs a depth-limited alpha-beta (``depth`` placements, squares
    scored as they stand) with the same compiled search. From a solved position it always
    takes a move of the best value, so it never does worse than the position's value: it
    never loses a won or drawn endgame. ``exact`` = 12 solves in well under a second on 3x4.
    """

    name = "perfect"

    def __init__(
        self, game: Game, seed: int = 0, exact: int = 12, depth: int = 2, seconds: float = 0.0
    ) -> None:
        if not isinstance(game, EdgesGame) or game.num_players != 2:
            raise MeepleError("the perfect agent plays two-player Edges only")
        # A negative depth is the solver's "no limit": a whole-game exact solve every move.
        check_budget(self.name, "exact", exact, low=0, allowed="a whole number of at least 0")
        check_budget(self.name, "depth", depth, low=1, allowed="a whole number of at least 1")
        check_budget(
            self.name, "seconds", seconds, low=0, allowed="a number of seconds, 0 (off) or more"
        )
        from meeple.solvers.edges_solver import EdgesSolver

        self.game = game
        self.rng = make_rng(seed, "edges-perfect")
        self.exact = exact
        self.depth = depth
        self.seconds = seconds
        self.solver: EdgesSolver = EdgesSolver(game.board, tt_bits=20)
        self.searcher: EdgesSolver = EdgesSolver(game.board, tt_bits=16)
        self.solved_exactly = 0
        """Moves chosen by an exact solve (the rest came from the depth-limited search)."""

    def act(self, observation: Observation) -> EdgesAction:
        """A move of the best exact value, or the best move of the depth-limited search."""
        from meeple.solvers.edges_solver import SearchStopped, pyramids_left

        state = observation.determinize(self.rng)
        assert isinstance(state, EdgesState)
        left = pyramids_left(state)
        if left <= self.exact:
            self.solved_exactly += 1
            return self.solver.best_action(state)[0]
        if self.seconds > 0:
            try:
                action = self.solver.best_action(
                    state, deadline=time.perf_counter() + self.seconds
                )[0]
                self.solved_exactly += 1
                return action
            except SearchStopped:
                pass  # too big for the budget: search instead
        self.searcher.clear()  # depth-limited values must not meet exact ones
        return self.searcher.best_action(state, depth=self.depth)[0]
