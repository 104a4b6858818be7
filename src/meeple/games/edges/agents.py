"""Edges-specific agents."""

from __future__ import annotations

from meeple.core.agent import Observation
from meeple.core.game import Game
from meeple.core.rng import make_rng
from meeple.games.edges.rules import EdgesAction, EdgesState


class GreedyAgent:
    """Takes the move that leaves its side furthest ahead on the board as it stands.

    Among equally good moves it keeps its larger pyramids for later (the smallest pyramid
    that achieves the gain), then picks at random (seeded).
    """

    name = "greedy"

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.rng = make_rng(seed, "edges-greedy")

    def act(self, observation: Observation) -> EdgesAction:
        """The best move by immediate score margin."""
        state = observation.determinize(self.rng)
        assert isinstance(state, EdgesState)
        side = observation.player % 2
        best: list[EdgesAction] = []
        best_key: tuple[int, int] | None = None
        for action in observation.legal_actions:
            after = state._next(observation.player, action)
            scores = after.scores()
            margin = scores[side] - scores[1 - side]
            key = (margin, -int(action.pyramid))
            if best_key is None or key > best_key:
                best, best_key = [action], key
            elif key == best_key:
                best.append(action)
        return self.rng.choice(best)
